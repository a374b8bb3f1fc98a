"""burn's `IndexingUpdateOp`: how scatter, select_assign and scatter_nd combine a value with
the element already at its index."""

from enum import Enum


class IndexingUpdateOp(Enum):
    Assign = "assign"  # overwrite (duplicate indices: undefined which value wins)
    Add = "add"  # accumulate; for Bool tensors, logical or
    Mul = "mul"
    Min = "min"
    Max = "max"

    __hash__ = object.__hash__  # members are singletons; Enum's own hash runs in Python

    def __repr__(self):
        return self.name

    @staticmethod
    def of(update) -> "IndexingUpdateOp":
        """The member for a member or its name, in any case (`"add"`, `"Add"`)."""
        if isinstance(update, IndexingUpdateOp):
            return update
        names = ", ".join(repr(m.value) for m in IndexingUpdateOp)
        if not isinstance(update, str):
            raise TypeError(
                f"update= takes an IndexingUpdateOp or its name ({names}), "
                f"got {type(update).__name__}"
            )
        for member in IndexingUpdateOp:
            if update.lower() == member.value:
                return member
        raise ValueError(f"update {update!r} is not an IndexingUpdateOp; use one of {names}")
