"""ONNX import: a model made elsewhere becomes readable, trainable burnpy code.

`load(model, device=)` returns a callable `nn.Module`; `generate(model, out_dir, name=)` writes
`out_dir/NAME.py` (class Model, the graph as straight-line tensor code, one statement per node)
and `out_dir/NAME.safetensors` (the weights). `python -m burnpy.onnx MODEL --out DIR` does what
`generate` does. A model the importer cannot take raises `UnsupportedError` naming every node at
fault, before anything is written. `export(model, args, path)` goes the other way: a model or a
function of tensors, recorded once, written as an ONNX file (burnpy.onnx.exporter). Needs the
`onnx` extra (the onnx package)."""

from __future__ import annotations

import linecache
import os
import types
from pathlib import Path

from burnpy.onnx.errors import UnsupportedError
from burnpy.onnx.exporter import export, export_training_step
from burnpy.onnx.roles import TiedParametersWarning

__all__ = [
    "TiedParametersWarning",
    "UnsupportedError",
    "export",
    "export_training_step",
    "generate",
    "load",
    "translate",
]


def _onnx():
    try:
        import onnx
    except ImportError:
        raise ImportError(
            "burnpy.onnx needs the onnx package: pip install 'burnpy[onnx]'"
        ) from None
    return onnx


def _read(model, base_dir=None):
    """(ModelProto, label, the folder its external data is read from) of a path, bytes or
    ModelProto: a path's own folder (or base_dir), else base_dir; without one, a model with
    external data is refused (its data is never read from the current folder)."""
    onnx = _onnx()
    folder = None if base_dir is None else str(base_dir)
    if isinstance(model, onnx.ModelProto):
        return model, f"the model '{model.graph.name}'", folder
    if isinstance(model, bytes | bytearray):
        return _parsed(bytes(model), "the model bytes"), "the model bytes", folder
    if isinstance(model, str | os.PathLike):
        path = Path(model)
        if not path.is_file():
            raise FileNotFoundError(f"no ONNX model at {path}")
        return (
            _parsed(path.read_bytes(), str(path)),
            str(path),
            folder or str(path.resolve().parent),
        )
    raise TypeError(
        f"an ONNX model is a path, bytes or an onnx.ModelProto, not {type(model).__name__}"
    )


def _parsed(data: bytes, label: str):
    """The ModelProto in `data`; what is not one (empty, truncated, random or text) is refused
    naming `label`, the file."""
    onnx = _onnx()
    from google.protobuf.message import DecodeError

    if not data:
        raise UnsupportedError(label, ["not an ONNX model: the file is empty"])
    proto = onnx.ModelProto()
    try:
        proto.ParseFromString(data)
    except DecodeError as error:
        raise UnsupportedError(label, [f"not an ONNX model: {error}"]) from None
    if not proto.HasField("graph") or proto.ir_version <= 0:
        raise UnsupportedError(
            label, ["not an ONNX model: no graph or IR version (a truncated or other file?)"]
        )
    return proto


class Translation:
    """A translated model: its IR, the emitted statements and the weights."""

    def __init__(self, graph, emitter, label: str):
        self.graph, self.emitter, self.label = graph, emitter, label

    def source(self, name: str) -> str:
        from burnpy.onnx import writer

        return writer.source(self.graph, self.emitter, name, self.label)

    def arrays(self) -> dict:
        return {**self.emitter.used_params, **self.emitter.buffers}


def translate(model, base_dir=None, parameters=None, untie: bool = False) -> Translation:
    """Check, parse, sort, infer and fold `model`, and translate every node; raises
    UnsupportedError naming every problem. External data is read from the folder of a model
    given by path, or from `base_dir`, and from nowhere else. `parameters` and `untie` as
    `load` takes them."""
    import dataclasses

    from burnpy.onnx import attention, checks, ir, roles, table
    from burnpy.onnx.errors import Refusal
    from burnpy.onnx.emit import Emitter

    proto, label, folder = _read(model, base_dir)
    problems = checks.structure(proto)
    if problems:
        raise UnsupportedError(label, problems)
    inferred = checks.inferred(proto, label)
    inferred = attention.typed_modifiers(inferred, label)  # FlexAttention's subgraphs
    try:
        graph = ir.parse(inferred, folder)
    except Refusal as refusal:
        raise UnsupportedError(label, [str(line) for line in refusal.args]) from None
    problems = checks.attributes(graph)
    for body in ir.subgraphs(graph):  # If's branches, Loop's and Scan's bodies
        problems += checks.attributes(body)
    if problems:
        raise UnsupportedError(label, problems)
    if untie:
        graph = roles.untied(graph)
    trained = roles.chosen_parameters(graph, parameters, label)
    if not untie:
        roles.report_tied(graph, trained, label)
    graph = dataclasses.replace(graph, parameters=trained)
    emitter = Emitter(graph, table)
    emitter.run()
    if emitter.problems:
        raise UnsupportedError(label, emitter.problems)
    return Translation(graph, emitter, label)


def load(model, device=None, base_dir=None, parameters=None, untie: bool = False):
    """The model as a callable `nn.Module` on `device` (default: the NumPy device): call it
    with the graph's inputs (Tensors or arrays) in order or by name; one output gives a
    Tensor, several a tuple in the graph's order. A model given as bytes or a ModelProto whose
    initializers keep their data in external files needs `base_dir=`, the folder holding
    them.

    `parameters`: the names of the float initializers to train (default: those of more than
    one element that the graph reads as data; the others are buffers). `untie=True`: each
    alias an exporter wrote for an initializer (an Identity of it) is a parameter of its own,
    not a shared one."""
    translation = translate(model, base_dir, parameters, untie)
    text = translation.source("model")
    filename = f"<burnpy.onnx: {translation.label}>"
    namespace = types.ModuleType("burnpy_onnx_model")
    namespace.__dict__["__file__"] = filename
    code = compile(text, filename, "exec")
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    exec(code, namespace.__dict__)  # noqa: S102 (the module we just wrote, as `import` would)
    instance = namespace.Model(device)
    instance.load_arrays(translation.arrays(), translation.label)
    instance.source = text
    return instance


def generate(
    model, out_dir, name: str = "model", base_dir=None, parameters=None, untie: bool = False
) -> Path:
    """Write `out_dir/NAME.py` and `out_dir/NAME.safetensors`; returns the .py path. Nothing
    is written when the model cannot be imported. `base_dir`, `parameters` and `untie` as for
    `load`."""
    from burnpy import files
    from burnpy.nn import record
    from burnpy.onnx import writer
    from burnpy.onnx.expr import is_identifier

    if not is_identifier(name):
        raise ValueError(f"name {name!r} must be an ASCII Python identifier (it names the module)")
    translation = translate(model, base_dir, parameters, untie)
    text = writer.formatted(translation.source(name))
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    py, weights = out / f"{name}.py", out / f"{name}.safetensors"
    record.write(weights, translation.arrays(), {})  # (each written atomically, umask's mode)
    files.write_text(py, text)
    return py
