"""The catalogue as frozen dataclasses: what `ops.yaml` means, once it has been validated."""

from dataclasses import dataclass, field
from types import MappingProxyType

TENSOR_KINDS = ("float", "int", "bool")
ARG_TYPES = (
    *TENSOR_KINDS,
    "tensors",  # a list of tensors of the op's kind (cat)
    "indices",  # an int tensor whose values index a dim (gather, select, ...); any int dtype
    "scalar",  # a number, cast to the receiver's kind
    "number",  # a Python float
    "integer",  # a Python int
    "flag",  # a Python bool, False unless given (sort's `descending`)
    "dim",
    "dims",
    "shape",
    "view_shape",  # a shape that may hold one -1
    "slices",  # one (start, end, step) per dim, bounds resolved: 0 <= start <= end <= size
    "update",  # an IndexingUpdateOp (assign, add, mul, min, max)
    "device",
    "dtype",
    "distribution",
    "data",
    # module ops' options (docs/design.md#module-functions)
    "ints1",  # an int, or a list/tuple of 1 int: a tuple of 1 int (kernel_size, stride, ...)
    "ints2",  # an int (repeated) or 2 ints: a tuple of 2 ints
    "ints3",  # an int (repeated) or 3 ints: a tuple of 3 ints
    "choice",  # one of the strings the entry's `choices` lists (burn's enums, snake case)
    "real",  # a Python float (a real number; scale, epsilon)
)
# an int or N ints
INTS = {"ints1": 1, "ints2": 2, "ints3": 3}
# Argument types that may be optional (`bias: float?`, `padding_end: ints2?`): None allowed.
OPTIONAL_TYPES = (*TENSOR_KINDS, "indices", *INTS, "real", "integer", "number")
# Argument types a method takes as a plain number: such an op is the method's `_scalar` variant.
SCALAR_TYPES = ("scalar", "number", "integer")
ROUTINGS = ("creation", "tensor", "conversion", "move")
AUTODIFF_CLASSES = ("memory_bound", "compute_bound")
OPERATORS = (
    "__add__",
    "__sub__",
    "__mul__",
    "__truediv__",
    "__floordiv__",
    "__mod__",
    "__pow__",
    "__matmul__",
    "__neg__",
    "__abs__",
    "__invert__",
    "__and__",
    "__or__",
    "__xor__",
    "__lshift__",
    "__rshift__",
)
# An operator is claimed by op entries. When every claimant shares one method the operator is an
# alias of it; when they span methods (`&`: bool_and on bool, bitwise_and on int) a generated
# dunder routes by kind. Comparison operators are hand-written in runtime/tensor.py: each routes
# a scalar to the `_elem` method and a tensor to the tensor one.


@dataclass(frozen=True)
class Arg:
    name: str
    type: str
    optional: bool = False  # `float?`: a tensor that may be None (no parent, nothing saved)

    @property
    def is_tensor(self) -> bool:
        return self.type in TENSOR_KINDS or self.type in ("tensors", "indices")


@dataclass(frozen=True)
class Backend:
    name: str  # as in `dispatch<numpy>`
    variant: str  # the DispatchDevice / DispatchTensorKind variant, e.g. NumPy
    module: str  # the runtime module that defines BACKEND
    devices: tuple[str, ...]
    extra: str | None  # the pip extra that installs its library, if optional
    line: int


@dataclass(frozen=True)
class Op:
    name: str
    kind: str
    args: tuple[Arg, ...]
    returns: tuple[str, ...]
    routing: str
    doc: str
    line: int
    autodiff: str | None = None
    composite: str | None = None
    method: str | None = None
    static: bool = False
    operators: tuple[str, ...] = ()
    dtypes: tuple[str, ...] = ()
    section: str = ""  # the `# -- section` comment of ops.yaml the entry sits under
    test: MappingProxyType | None = field(default=None, compare=False)
    # a public function of generated/<function>.py (module: burn's ModuleOps), its defaults by
    # argument name, the first keyword-only argument, the strings a `choice` takes, and the
    # arguments that must be non-zero (burn's check_nonzero)
    contract: str | None = None  # its shape contract (runtime/contracts.py), checked on failure
    function: str | None = None
    defaults: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    keyword: str | None = None
    choices: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    nonzero: tuple[str, ...] = ()

    @property
    def tensor_args(self) -> tuple[Arg, ...]:
        return tuple(a for a in self.args if a.is_tensor)

    @property
    def float_args(self) -> tuple[Arg, ...]:
        """The float inputs: `float` args, and a `tensors` list of a float op."""
        return tuple(
            a
            for a in self.args
            if a.type == "float" or a.type == "tensors" and self.kind == "float"
        )

    @property
    def receiver(self) -> Arg | None:
        """The tensor a method is called on: the first tensor argument (burn puts `dim` before
        it in gather and scatter); None for constructors."""
        return None if self.static else self.tensor_args[0]

    @property
    def category(self) -> str:
        """The report's grouping: the catalogue's own section, else what the routing does."""
        if self.section:
            return self.section
        if self.routing != "tensor":
            return self.routing
        return "unary" if len(self.tensor_args) == 1 else "n-ary"


@dataclass(frozen=True)
class Catalogue:
    path: str
    backends: tuple[Backend, ...]
    ops: tuple[Op, ...]

    def op(self, name: str) -> Op:
        return next(op for op in self.ops if op.name == name)
