"""`python -m burnpy.onnx MODEL.onnx --out DIR [--name NAME] [--untie]`: writes DIR/NAME.py
and DIR/NAME.safetensors, as `burnpy.onnx.generate` does."""

import argparse
import sys

from burnpy.onnx import UnsupportedError, generate


def main(argv=None) -> int:
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


if __name__ == "__main__":
    sys.exit(main())
