"""The own-ops bench's package (benches/own_ops.py)."""
