"""Benchmarks (`make bench`, i.e. `python benches/run.py`); not part of the installed package."""
