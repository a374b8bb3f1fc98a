"""The dtypes the library supports, by tensor kind, in the order messages list them; the first
of each kind is its default. One table: the argument checks (runtime/arguments.py) and the
generator (an entry's `dtypes`, docs/ops.md) read it. Names only, so that reading it loads
neither numpy nor ml_dtypes."""

DTYPES = {
    "float": ("float32", "float64", "float16", "bfloat16"),
    "int": ("int64", "int32"),
    "bool": ("bool",),
}
