"""An argument may not take a name the generated code binds for itself: a local of its
dispatch function (`ctx`, `B`, `AD`, `<tensor>_`) or of its recorder (`out`, `order`,
`<input>_node`, ...), or, for a differentiable op, a name its rule's VJPs reserve (`g`, `B`,
`tracked`). The names each product binds are listed beside the code that decides it
(codegen/api/dispatch.py's and codegen/recorders.py's LOCALS); what a module imports or defines
is found in the rendered files (codegen/names.py)."""

from burnpy.codegen.api.dispatch import LOCALS as DISPATCH_LOCALS
from burnpy.codegen.model import Op
from burnpy.codegen.recorders import LOCALS as RECORDER_LOCALS
from burnpy.codegen.recorders import input_locals
from burnpy.codegen.validate.report import Where
from burnpy.runtime.autodiff.ops import AutodiffRole

# what a VJP's parameter means by itself (runtime/autodiff/rules/__init__.py's vocabulary)
RULE_NAMES = ("g", "B", "tracked")


def check_argument_names(where: Where, op: Op) -> None:
    described = op.autodiff_op
    recorded = described is not None and described.role is AutodiffRole.RECORD
    taken = {}
    if recorded:
        taken |= {name: "a name its rule's VJPs take for themselves" for name in RULE_NAMES}
        taken |= {name: "its recorder's local" for name in RECORDER_LOCALS}
        taken |= {name: "its recorder's local" for name in input_locals(described)}
    taken |= {name: "its dispatch function's local" for name in DISPATCH_LOCALS}
    taken |= {f"{a.name}_": f"its dispatch function's `{a.name}`" for a in op.tensor_args}
    for arg in op.args:
        if arg.name in taken:
            raise where.error(
                "args",
                f"argument `{arg.name}` is {taken[arg.name]} in the generated code",
                f"rename the argument (e.g. `{arg.name.lower()}_arg`)",
            )
