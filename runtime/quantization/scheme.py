"""burn's quantization scheme (`QuantScheme`) and its parts, as Python values.

A scheme says how a float tensor becomes integers: the value type and its range (`QuantValue`),
one scale per tensor or per block (`QuantLevel`), the mode (symmetric), how the values are
stored (`QuantStore`) and the dtype of the scales (`QuantParam`). Schemes are frozen and compare
by value; `with_*` returns a new one. `QuantScheme()` is burn's default: Q8F, per tensor,
symmetric, packed into u32, f32 scales.
"""

from dataclasses import dataclass, replace
from enum import Enum


class SchemeEnum(Enum):
    """An enum of the scheme, shown as it is written (`QuantValue.Q8S`), so that a scheme's
    repr is the expression that builds it."""

    def __repr__(self):
        return f"{type(self).__name__}.{self.name}"


class QuantValue(SchemeEnum):
    """The quantized value type: its bits and its range `(a, b)`; `S` is symmetric (±(2^(n-1)-1)),
    `F` the full signed range ([-2^(n-1), 2^(n-1)-1])."""

    Q8F = "q8f"
    Q8S = "q8s"
    Q4F = "q4f"
    Q4S = "q4s"
    Q2F = "q2f"
    Q2S = "q2s"

    @property
    def bits(self) -> int:
        return int(self.value[1])

    @property
    def range(self) -> tuple[int, int]:
        half = 1 << (self.bits - 1)
        if self.value.endswith("s"):
            return -(half - 1), half - 1
        return -half, half - 1


class QuantMode(SchemeEnum):
    SYMMETRIC = "symmetric"


class QuantStore(SchemeEnum):
    """How the values are held: one int8 each (NATIVE), or packed into u32 words, the lowest
    bits first (PACKED_U32, burn's `PackedU32(0)`: four Q8, eight Q4 or sixteen Q2 a word)."""

    NATIVE = "native"
    PACKED_U32 = "packed_u32"


class QuantParam(SchemeEnum):
    """The dtype the scales are stored in (burn's `ScaleDtype`)."""

    F32 = "float32"
    F16 = "float16"
    BF16 = "bfloat16"


class QuantPropagation(SchemeEnum):
    """Whether an op whose float result burn may quantize again does (PROPAGATE) or returns the
    float result (INHIBIT, burn's default): a device setting."""

    PROPAGATE = "propagate"
    INHIBIT = "inhibit"


class Calibration(SchemeEnum):
    """How the range a scale covers is found: the min and max of the tensor (or block)."""

    MIN_MAX = "min_max"


@dataclass(frozen=True)
class QuantLevel:
    """One scale for the whole tensor, or one per block. A block is a rectangle: `block([32])`
    spans 32 elements of the last dim, `block([2, 16])` 2 x 16 of the last two; the leading dims
    of a longer tensor get extent 1 (burn's `BlockSize::to_dim_vec`)."""

    block_size: tuple[int, ...] | None = None

    @classmethod
    def tensor(cls) -> "QuantLevel":
        return cls(None)

    @classmethod
    def block(cls, size) -> "QuantLevel":
        sizes = (size,) if isinstance(size, int) else tuple(size)
        if not sizes or not all(isinstance(s, int) and not isinstance(s, bool) for s in sizes):
            raise TypeError(
                f"QuantLevel.block: expected a list of ints (the block's extent per trailing "
                f"dim), got {size!r}"
            )
        if any(s < 1 for s in sizes):
            raise ValueError(f"QuantLevel.block: every extent must be >= 1, got {list(sizes)}")
        return cls(sizes)

    @property
    def is_block(self) -> bool:
        return self.block_size is not None

    def extents(self, ndim: int) -> tuple[int, ...]:
        """The block's extent along each of `ndim` dims (the whole tensor per tensor)."""
        if self.block_size is None:
            raise ValueError("a per-tensor level has no block extents")
        if len(self.block_size) > ndim:
            raise ValueError(
                f"a block of {len(self.block_size)} dims {list(self.block_size)} does not fit a "
                f"tensor of {ndim} dims; use a block of at most {ndim} dims"
            )
        return (1,) * (ndim - len(self.block_size)) + self.block_size

    def __repr__(self):
        if self.block_size is None:
            return "QuantLevel.tensor()"
        return f"QuantLevel.block({list(self.block_size)})"


@dataclass(frozen=True)
class QuantScheme:
    """burn's `QuantScheme`: value type, level, mode, store and scale dtype."""

    value: QuantValue = QuantValue.Q8F
    level: QuantLevel = QuantLevel()
    mode: QuantMode = QuantMode.SYMMETRIC
    store: QuantStore = QuantStore.PACKED_U32
    param: QuantParam = QuantParam.F32

    def __post_init__(self):
        for name, kind in _FIELDS.items():
            if not isinstance(getattr(self, name), kind):
                raise TypeError(
                    f"QuantScheme: {name} must be a {kind.__name__}, got {getattr(self, name)!r}"
                )

    def with_value(self, value: QuantValue) -> "QuantScheme":
        return replace(self, value=value)

    def with_level(self, level: QuantLevel) -> "QuantScheme":
        return replace(self, level=level)

    def with_mode(self, mode: QuantMode) -> "QuantScheme":
        return replace(self, mode=mode)

    def with_store(self, store: QuantStore) -> "QuantScheme":
        return replace(self, store=store)

    def with_param(self, param: QuantParam) -> "QuantScheme":
        return replace(self, param=param)

    def to_record(self) -> dict:
        """The scheme as plain JSON values; `QuantScheme.from_record` reads it back."""
        return {
            "value": self.value.value,
            "block": None if self.level.block_size is None else list(self.level.block_size),
            "mode": self.mode.value,
            "store": self.store.value,
            "param": self.param.value,
        }

    @classmethod
    def from_record(cls, record: dict) -> "QuantScheme":
        try:
            block = record["block"]
            return cls(
                QuantValue(record["value"]),
                QuantLevel.tensor() if block is None else QuantLevel.block(block),
                QuantMode(record["mode"]),
                QuantStore(record["store"]),
                QuantParam(record["param"]),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(
                f"QuantScheme.from_record: not a scheme's record ({error}); expected the dict "
                "that QuantScheme.to_record writes"
            ) from None

    def __repr__(self):
        return (
            f"QuantScheme(value={self.value!r}, level={self.level!r}, mode={self.mode!r}, "
            f"store={self.store!r}, param={self.param!r})"
        )


_FIELDS = {
    "value": QuantValue,
    "level": QuantLevel,
    "mode": QuantMode,
    "store": QuantStore,
    "param": QuantParam,
}
