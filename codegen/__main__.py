"""`python -m codegen [--check] [stats] [--ops ops.yaml] [--out generated]`."""

import argparse
import sys
import time
from pathlib import Path

from codegen import api, render
from codegen.load import CatalogueError, load
from codegen.validate import validate

ROOT = Path(__file__).resolve().parent.parent


def read_catalogue(path: str):
    return validate(path, load(path))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m codegen", description=__doc__)
    parser.add_argument("command", nargs="?", choices=["generate", "stats"], default="generate")
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if generated/ or docs/ops.md is stale"
    )
    parser.add_argument("--ops", default=str(ROOT / "ops.yaml"), help="the catalogue")
    parser.add_argument("--out", default=str(ROOT / "generated"), help="the output package")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        catalogue = read_catalogue(args.ops)
    except CatalogueError as error:
        print(f"error: {error}", file=sys.stderr)
        print("nothing was written", file=sys.stderr)
        return 2
    if args.command == "stats":
        print("\n".join(api.stats(catalogue)))
        return 0
    out = Path(args.out)
    planned = render.plan(catalogue, out)
    obsolete = render.stale(out, planned)
    if args.check:
        text = render.diff(planned, obsolete)
        if text:
            sys.stdout.write(text)
            print(
                f"\n{args.out} or {render.DOCS} is out of date with {args.ops} (or was edited "
                "by hand); regenerate with `make generate` (python -m codegen) and commit the result",
                file=sys.stderr,
            )
            return 1
        print(
            f"{out.name}/ and {render.DOCS} are up to date with {Path(args.ops).name} "
            f"({len(catalogue.ops)} ops)"
        )
        return 0
    report = render.write(planned, obsolete)
    elapsed = time.perf_counter() - started
    print(f"{len(catalogue.ops)} ops from {Path(args.ops).name} -> {out.name}/ in {elapsed:.2f}s")
    for path, status in report:
        print(
            f"  {status:9} {path.relative_to(out.parent) if out.parent in path.parents else path}"
        )
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # `python -m codegen | head`: the reader left, nothing is lost
        sys.exit(0)
