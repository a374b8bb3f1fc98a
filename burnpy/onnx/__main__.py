"""`python -m burnpy.onnx MODEL.onnx --out DIR [--name NAME] [--untie]`: writes DIR/NAME.py
and DIR/NAME.safetensors, as `burnpy.onnx.generate` does.

`python -m burnpy.onnx export MODULE:FACTORY --args SHAPES --out FILE [--opset N]
[--dynamic-batch]`: imports MODULE, calls FACTORY() for the model (an nn.Module or a function of
tensors) and writes it as FILE, as `burnpy.onnx.export` does, on example inputs of SHAPES:
comma-separated, each its dims joined by `x`, with `:DTYPE` for another dtype than float32
(`1x3x32x32` or `4x16:int64,4x16`)."""

import argparse
import importlib
import sys

import numpy as np

from burnpy.onnx import UnsupportedError, generate


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["export"]:
        return export_main(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m burnpy.onnx", description=__doc__)
    parser.add_argument("model", help="the .onnx file")
    parser.add_argument("--out", required=True, help="the folder to write into")
    parser.add_argument("--name", default="model", help="the module's name (default: model)")
    parser.add_argument(
        "--untie",
        action="store_true",
        help="give each alias the exporter wrote for an initializer its own parameter",
    )
    args = parser.parse_args(argv)
    try:
        path = generate(args.model, args.out, name=args.name, untie=args.untie)
    except UnsupportedError as error:
        print(error, file=sys.stderr)
        return 1
    print(path)
    return 0


def export_main(argv) -> int:
    from burnpy.onnx.exporter import _input_names, export

    parser = argparse.ArgumentParser(prog="python -m burnpy.onnx export", description=__doc__)
    parser.add_argument("factory", help="MODULE:FACTORY, a function of no arguments")
    parser.add_argument("--args", required=True, help="the example inputs' shapes: 2x3,4:int64")
    parser.add_argument("--out", required=True, help="the .onnx file to write")
    parser.add_argument("--opset", type=int, help="default: the newest onnxruntime runs")
    parser.add_argument("--dynamic-batch", action="store_true", help="every input's dim 0")
    args = parser.parse_args(argv)
    module_name, _, factory_name = args.factory.partition(":")
    if not module_name or not factory_name.isidentifier():
        parser.error(f"{args.factory!r} is not MODULE:FACTORY (e.g. mypackage.models:make)")
    try:
        factory = getattr(importlib.import_module(module_name), factory_name)
    except (ImportError, AttributeError) as error:
        parser.error(f"cannot find {args.factory}: {error}")
    inputs = [_example(spec, parser) for spec in args.args.split(",")]
    model = factory()
    axes = None
    if args.dynamic_batch:
        axes = {name: {0: "batch"} for name in _input_names(model, inputs, None)}
    try:
        export(model, tuple(inputs), args.out, dynamic_axes=axes, opset=args.opset)
    except UnsupportedError as error:
        print(error, file=sys.stderr)
        return 1
    print(args.out)
    return 0


def _example(spec: str, parser) -> np.ndarray:
    """An example input of `spec` (`2x3`, `4:int64`): standard normal floats, or zeros."""
    dims, _, dtype = spec.strip().partition(":")
    try:
        shape = tuple(int(d) for d in dims.split("x")) if dims else ()
        dtype = np.dtype(dtype or "float32")
    except (ValueError, TypeError):
        parser.error(f"--args: {spec!r} is not dims joined by x with an optional :DTYPE")
    if dtype.kind == "f":
        return np.random.default_rng(0).standard_normal(shape).astype(dtype)
    return np.zeros(shape, dtype)


if __name__ == "__main__":
    sys.exit(main())
