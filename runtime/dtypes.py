"""The dtypes the library supports, by tensor kind, in the order messages list them; the first
of each kind is its default. One table: the argument checks (runtime/arguments.py) and the
generator (an entry's `dtypes`, docs/ops.md) read it. Names only, so that reading it loads
neither numpy nor ml_dtypes."""

DTYPES = {
    "float": ("float32", "float64", "float16", "bfloat16"),
    # burn's IntDType: I64..I8 and U64..U8
    "int": ("int64", "int32", "int16", "int8", "uint64", "uint32", "uint16", "uint8"),
    "bool": ("bool",),
}
# The dtypes an op takes unless its entry lists others (`dtypes:`). The narrower Int widths are
# held, made, cast, reshaped, moved and converted (the ops that list them); arithmetic and the
# rest refuse them by name (torch has few kernels for uint16..uint64), so compute in int64 or
# int32 after `t.cast(...)`.
OP_DTYPES = {"float": DTYPES["float"], "int": ("int64", "int32"), "bool": ("bool",)}
