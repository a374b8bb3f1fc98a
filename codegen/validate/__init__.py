"""Turn the loaded YAML into a Catalogue, rejecting anything that does not fit.

Every error names FILE:LINE, the op, what is wrong and what to write instead (with the nearest
valid name when one is misspelt); one run reports every mistake, sorted by file and line
(report.py). Nothing is written by the generator unless the whole catalogue passes, kernels
and the names in the rendered code (codegen/names.py) included.

- entries: `validate`: the backends and ops, each op's arguments, results, routing and dtypes;
- fields: the small checks every field goes through (known keys, names, choices, types);
- options: a module function's options (module, defaults, keyword-only start, choices);
- autodiff: how a float op checkpoints, and its backward rule;
- methods: Tensor methods, operators, and the ops a composite calls;
- suite: the `test:` metadata of the spec-driven suite (its `ref` parsed, its `shapes`);
- backends: `check_kernels`, every primitive op's kernel, and every kernel a rule calls, on
  every backend;
- report: how mistakes are collected and reported.
"""

from burnpy.codegen.model import Catalogue
from burnpy.codegen.names import check_names
from burnpy.codegen.validate.backends import check_kernels
from burnpy.codegen.validate.entries import DTYPES, validate
from burnpy.codegen.validate.report import CatalogueErrors, Problems

__all__ = ["DTYPES", "CatalogueErrors", "check", "validate"]


def check(path: str, root, render) -> tuple[Catalogue, dict, list[str]]:
    """The catalogue of `root` (load's tree), its rendered files (`render(catalogue)`: relative
    path -> source) and the warnings that do not stop it, after every check: the entries, the
    kernels, and (when the entries are sound enough to render) the names in the rendered code.
    Raises CatalogueErrors naming every mistake."""
    problems = Problems(path)
    catalogue = validate(path, root, problems)
    renderable = not problems.found
    warnings = check_kernels(catalogue, problems)
    rendered = {}
    if renderable:
        rendered = render(catalogue)
        problems.check(check_names, catalogue, rendered)
    problems.raise_all()
    return catalogue, rendered, warnings
