"""ONNX export: a model or a function of tensors, recorded once and lowered to an ONNX file.

`export(model, args, path)` runs `model(*args)` once over capture's recording backends, lowers
each recorded kernel call as its catalogue entry's `onnx:` key says, writes the parameters and
buffers as initializers named by their paths in the module, checks the result (onnx's full
checker and strict shape inference, every value's inferred type against the recorded one) and
writes the file atomically. A model holding kernels without a lowering raises UnsupportedError
naming all of them; nothing is written then.
"""

from __future__ import annotations

import functools
import inspect
import os
import tempfile
from pathlib import Path

from burnpy.onnx.errors import UnsupportedError

MIN_OPSET = 18  # the lowerings' forms (axes as inputs, Split's num_outputs) start here


class ExportError(UnsupportedError):
    """Kernels of the recorded call that have no ONNX lowering, or whose lowering refuses their
    arguments: one line each, all at once."""

    def __init__(self, model: str, problems: list):
        self.problems = list(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        ValueError.__init__(
            self,
            f"{model}: {len(self.problems)} kernel call(s) cannot be exported to ONNX; nothing "
            f"was written:\n{lines}",
        )


@functools.cache
def default_opset() -> int:
    """The newest opset both the installed onnx and onnxruntime (when installed) know."""
    import onnx

    schemas, _ = _runtime()
    newest = onnx.defs.onnx_opset_version()
    return (
        min(newest, max(v for versions in schemas.values() for v in versions))
        if schemas
        else newest
    )


@functools.cache
def _runtime() -> tuple[dict, dict]:
    """onnxruntime's view of the default domain: op type -> the versions of its schemas, and
    op type -> the first version of each CPU kernel (empty without onnxruntime)."""
    try:
        from onnxruntime.capi import _pybind_state
    except ImportError:
        return {}, {}
    schemas: dict = {}
    for schema in _pybind_state.get_all_operator_schema():
        if schema.domain in ("", "ai.onnx"):
            schemas.setdefault(schema.name, []).append(schema.since_version)
    kernels: dict = {}
    for k in _pybind_state.get_all_opkernel_def():
        if k.domain in ("", "ai.onnx") and k.provider == "CPUExecutionProvider":
            kernels.setdefault(k.op_name, set()).add(k.version_range[0])
    return schemas, kernels


def runtime_opset(ops: set, newest: int) -> int:
    """The newest opset up to `newest` at which onnxruntime (when installed) has a CPU kernel
    for the version each of `ops` has there; `newest` when none is found."""
    schemas, kernels = _runtime()
    for opset in range(newest, MIN_OPSET - 1, -1):
        versions = {
            op: max((v for v in schemas.get(op, ()) if v <= opset), default=None) for op in ops
        }
        if all(v is None or v in kernels.get(op, ()) for op, v in versions.items()):
            return opset
    return newest


def export(
    model,
    args,
    path=None,
    *,
    input_names=None,
    output_names=None,
    dynamic_axes=None,
    opset=None,
):
    """Export `model` (an nn.Module or a function of tensors) called on `args` (a tuple of
    Tensors or arrays; one Tensor alone is taken as a 1-tuple) to the ONNX file `path` (None:
    write nothing); returns the onnx.ModelProto. `dynamic_axes` as torch.onnx takes it:
    `{"x": {0: "batch"}}` or `{"x": [0]}`, by input or output name. `opset` by default: the
    newest the installed onnx knows at which onnxruntime runs every operator of the file."""
    from burnpy.onnx.exporter.build import build

    args = tuple(args) if isinstance(args, (tuple, list)) else (args,)
    newest = default_opset()
    if opset is not None and not MIN_OPSET <= int(opset) <= newest:
        raise ValueError(
            f"opset {opset} is not one the exporter writes: pick one from {MIN_OPSET} to {newest}"
        )
    names = _input_names(model, args, input_names)
    chosen = newest if opset is None else int(opset)
    proto = build(model, args, names, output_names, dynamic_axes or {}, chosen, _label(model))
    if opset is None:  # the newest at which onnxruntime runs every operator the file uses
        runs = runtime_opset({n.op_type for n in proto.graph.node}, newest)
        if runs != chosen:
            proto = build(model, args, names, output_names, dynamic_axes or {}, runs, _label(model))
    if path is not None:
        _write(Path(path), proto.SerializeToString())
    return proto


def export_training_step(step, args, path=None, *, opset=None):
    """Export one training step (loss, backward, an optimiser's update) as plain ONNX: its
    inputs the parameters, the optimiser's state, the batch and the numbers the step takes, its
    outputs the loss and the updated parameters and state (burnpy.onnx.exporter.training)."""
    from burnpy.onnx.exporter.training import export_training_step as export_step

    return export_step(step, args, path, opset=opset)


def _label(model) -> str:
    return f"{type(model).__name__}" if not inspect.isfunction(model) else model.__name__


def _input_names(model, args, given) -> list[str]:
    if given is not None:
        given = list(given)
        if len(given) != len(args) or len(set(given)) != len(given):
            raise ValueError(
                f"input_names {given} must name each of the {len(args)} arguments once"
            )
        return given
    call = getattr(model, "forward", model)
    try:
        parameters = [
            p.name
            for p in inspect.signature(call).parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
    except (TypeError, ValueError):
        parameters = []
    if len(parameters) >= len(args):
        return parameters[: len(args)]
    return [f"input_{i}" for i in range(len(args))]


def _write(target: Path, data: bytes) -> None:
    """Write atomically: a temporary file beside the target, flushed to disk, moved over it."""
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with os.fdopen(handle, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, target)
    except BaseException:
        os.unlink(temporary)
        raise
