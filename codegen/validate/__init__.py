"""Turn the loaded YAML into a Catalogue, rejecting anything that does not fit.

Every error names ops.yaml:LINE, the op, what is wrong and what to write instead. Nothing is
written by the generator unless this succeeds for the whole catalogue, and so do the two checks
that follow it (codegen.__main__.checked): the names in the rendered code (codegen/names.py),
then every op's kernel on every backend (check_kernels).

- entries: `validate`: the backends and ops, each op's arguments, results, routing and dtypes;
- fields: the small checks every field goes through (known keys, names, choices);
- options: a module function's options (module, defaults, keyword-only start, choices);
- autodiff: how a float op checkpoints, and its backward rule;
- methods: Tensor methods, operators, and the ops a composite calls;
- suite: the `test:` metadata of the spec-driven suite;
- backends: `check_kernels`, every primitive op's kernel on every backend.
"""

from codegen.validate.backends import check_kernels
from codegen.validate.entries import DTYPES, validate

__all__ = ["DTYPES", "check_kernels", "validate"]
