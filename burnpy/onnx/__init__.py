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
import tempfile
import types
from pathlib import Path

from burnpy.onnx.errors import UnsupportedError
from burnpy.onnx.exporter import export

__all__ = ["UnsupportedError", "export", "generate", "load", "translate"]


def _onnx():
    try:
        import onnx
    except ImportError:
        raise ImportError(
            "burnpy.onnx needs the onnx package: pip install 'burnpy[onnx]'"
        ) from None
    return onnx


def _read(model):
    """(ModelProto, label) of a path, bytes or ModelProto; a path's external data is read
    from the model's folder."""
    onnx = _onnx()
    if isinstance(model, onnx.ModelProto):
        return model, f"the model '{model.graph.name}'"
    if isinstance(model, bytes | bytearray):
        return onnx.load_from_string(bytes(model)), "the model bytes"
    if isinstance(model, str | os.PathLike):
        path = Path(model)
        if not path.is_file():
            raise FileNotFoundError(f"no ONNX model at {path}")
        return onnx.load(str(path), load_external_data=True), str(path)
    raise TypeError(
        f"an ONNX model is a path, bytes or an onnx.ModelProto, not {type(model).__name__}"
    )


class Translation:
    """A translated model: its IR, the emitted statements and the weights."""

    def __init__(self, graph, emitter, label: str):
        self.graph, self.emitter, self.label = graph, emitter, label

    def source(self, name: str) -> str:
        from burnpy.onnx import writer

        return writer.source(self.graph, self.emitter, name, self.label)

    def arrays(self) -> dict:
        return {**self.emitter.used_params, **self.emitter.buffers}


def translate(model) -> Translation:
    """Parse, sort, infer and fold `model`, and translate every node; raises UnsupportedError
    naming every node that cannot be taken."""
    from burnpy.onnx import fold, ir, table
    from burnpy.onnx.errors import Refusal
    from burnpy.onnx.emit import Emitter

    proto, label = _read(model)
    inferred = fold.infer_shapes(proto)
    try:
        graph = ir.parse(inferred)
    except Refusal as refusal:
        raise UnsupportedError(label, [str(refusal)]) from None
    emitter = Emitter(graph, table)
    emitter.run()
    if emitter.problems:
        raise UnsupportedError(label, emitter.problems)
    return Translation(graph, emitter, label)


def load(model, device=None):
    """The model as a callable `nn.Module` on `device` (default: the NumPy device): call it
    with the graph's inputs (Tensors or arrays) in order or by name; one output gives a
    Tensor, several a tuple in the graph's order."""
    translation = translate(model)
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


def generate(model, out_dir, name: str = "model") -> Path:
    """Write `out_dir/NAME.py` and `out_dir/NAME.safetensors`; returns the .py path. Nothing
    is written when the model cannot be imported."""
    from burnpy.nn import record
    from burnpy.onnx import writer

    if not name.isidentifier():
        raise ValueError(f"name {name!r} must be a Python identifier (it names the module)")
    translation = translate(model)
    text = writer.formatted(translation.source(name))
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    py, weights = out / f"{name}.py", out / f"{name}.safetensors"
    _atomic(weights, lambda path: record.write(path, translation.arrays(), {}))
    _atomic(py, lambda path: Path(path).write_text(text))
    return py


def _atomic(target: Path, write) -> None:
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    os.close(handle)
    try:
        write(temporary)
        os.replace(temporary, target)
    except BaseException:
        os.unlink(temporary)
        raise
