"""The inner backends: the kernels every array library shares (`array.py`, `kernels/`), one
module per library (`numpy.py`, `torch.py`, their `*_conv.py`, ...), and the registry that finds
a backend by its variant (`registry.py`). Nothing here imports the rest of the runtime but its
leaf modules (errors, indexing): every other layer stands on this one."""
