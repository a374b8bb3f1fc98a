"""`python -m codegen`: generate the dispatch layer from the op catalogue, check it, review it.

Run it in a checkout: it reads ./ops.yaml and writes ./generated (and docs/ops.md beside it).
With `--package DIR` it reads a package's own DIR/ops.yaml and writes DIR/generated only
(docs/own-ops.md); `test` then runs the package's generated tests.
Exit codes: 0 ok, 1 generated/ is stale (--check) or a test failed, 2 an invalid catalogue or
meaningless flags.
"""

import argparse
import gc
import sys
import sysconfig
import time
from pathlib import Path

from burnpy.codegen import api, package, render, review
from burnpy.codegen.load import CatalogueError, load
from burnpy.codegen.validate import check, validate

COMMANDS = {
    "generate": "write generated/ and docs/ops.md from the catalogue (the default command)",
    "validate": "check the catalogue (every check generate makes) and write nothing",
    "stats": "count the catalogue's entries by section and kind",
    "list": "list the ops, filtered by kind, category, differentiability or backend",
    "explain": "show what one op is: its entry, routing, kernels, recorder, rule and methods",
    "diff": "what the catalogue change since a git revision does, op by op (writes nothing)",
    "test": "with --package: run the package's generated spec-driven tests",
}

# in a checkout (ops.yaml beside the generator) `python -m codegen`; from an install, its script
_ROOT = Path(__file__).resolve().parent.parent
PROG = (
    "python -m codegen"
    if (_ROOT / "ops.yaml").is_file() and _ROOT.name != "burnpy"
    else "burnpy-codegen"
)

CHECK = (
    "generate: write nothing; print the diff (paths relative to the project root) and exit 1 "
    "if generated/ or docs/ops.md is stale"
)


def read_catalogue(path: str):
    return validate(path, load(path))


def checked(path: str, warn=lambda warning: None):
    """The catalogue, with every check: the entries, the kernels and the names in the
    generated code, every mistake at once. Returns (catalogue, rendered files); `warn` gets
    what does not stop it."""
    catalogue, rendered, warnings = check(path, load(path), render.render_all)
    for warning in warnings:
        warn(warning)
    return catalogue, rendered


def _warn(warning: str) -> None:
    print(f"warning: {warning}", file=sys.stderr)


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--ops", default=argparse.SUPPRESS, help="the catalogue (default: ./ops.yaml)"
    )
    common.add_argument(
        "--out",
        default=argparse.SUPPRESS,
        help="the generated package (default: ./generated); docs/ops.md goes beside it",
    )
    common.add_argument(
        "--package",
        default=argparse.SUPPRESS,
        metavar="DIR",
        help="a package's own ops: read DIR/ops.yaml, write DIR/generated (docs/own-ops.md)",
    )
    parser = argparse.ArgumentParser(
        prog=PROG,
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        parents=[common],
    )
    parser.add_argument("--check", action="store_true", help=CHECK)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub = {
        name: commands.add_parser(name, help=text, description=text, parents=[common])
        for name, text in COMMANDS.items()
    }
    sub["generate"].add_argument(
        "--check", action="store_true", default=argparse.SUPPRESS, help=CHECK
    )
    sub["list"].add_argument("--kind", choices=("float", "int", "bool"), help="the op's kind")
    sub["list"].add_argument("--category", help="an ops.yaml section (see `stats`)")
    sub["list"].add_argument(
        "--differentiable",
        choices=("yes", "no"),
        help="yes: a backward rule or a composite with a float result; no: the others",
    )
    sub["list"].add_argument(
        "--backend",
        help="only the ops whose kernel on this backend is its own, not a shared kernel",
    )
    sub["explain"].add_argument("op", help="the op's name, e.g. float_mul")
    sub["diff"].add_argument(
        "rev", nargs="?", default="HEAD", help="the git revision to compare with (default HEAD)"
    )
    return parser


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    command = args.command or "generate"
    if hasattr(args, "package"):
        return _package_main(args, command, Path(args.package))
    if command == "test":
        print("error: test runs a package's tests: pass --package DIR", file=sys.stderr)
        return 2
    ops = getattr(args, "ops", "ops.yaml")
    out = Path(getattr(args, "out", "generated"))
    if args.check and command != "generate":
        print(f"error: --check applies to generate, not to {command}", file=sys.stderr)
        return 2
    if command == "generate" and not args.check and _installed(out):
        print(
            f"error: {out.resolve()} is inside an installed package (site-packages); run "
            "`python -m codegen` in a checkout of the project, or pass --out",
            file=sys.stderr,
        )
        return 2
    started = time.perf_counter()
    try:
        if command == "diff":
            sys.stdout.write(review.diff(ops, args.rev, checked))
            return 0
        catalogue, rendered = checked(ops, _warn)
    except CatalogueError as error:
        mistakes = str(error).splitlines()
        for mistake in mistakes:
            print(f"error: {mistake}", file=sys.stderr)
        count = f"{len(mistakes)} mistakes" if len(mistakes) > 1 else "1 mistake"
        print(f"{count}; nothing was written", file=sys.stderr)
        return 2
    except review.ReviewError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if command == "validate":
        print(f"{ops}: {len(catalogue.ops)} ops, {len(catalogue.backends)} backends: valid")
        return 0
    if command == "stats":
        print("\n".join(api.stats(catalogue)))
        return 0
    if command == "list":
        try:
            lines = review.listing(
                catalogue, args.kind, args.category, args.differentiable, args.backend
            )
        except review.ReviewError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        print("\n".join(lines))
        return 0
    if command == "explain":
        try:
            print(review.explain(catalogue, args.op, out))
        except review.ReviewError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        return 0
    planned = render.plan(catalogue, out, rendered)
    obsolete = render.stale(out, planned)
    if args.check:
        text = render.diff(planned, obsolete, root=out.parent)
        if text:
            sys.stdout.write(text)
            print(
                f"\n{out} or {render.DOCS} is out of date with {ops} (or was edited "
                "by hand); regenerate with `make generate` (python -m codegen) and commit the result",
                file=sys.stderr,
            )
            return 1
        print(
            f"{out.name}/ and {render.DOCS} are up to date with {Path(ops).name} "
            f"({len(catalogue.ops)} ops)"
        )
        return 0
    report = render.write(planned, obsolete)
    elapsed = time.perf_counter() - started
    print(f"{len(catalogue.ops)} ops from {Path(ops).name} -> {out.name}/ in {elapsed:.2f}s")
    for path, status in report:
        print(f"  {status:9} {_relative(path, out.parent)}")
    return 0


def _package_main(args, command: str, directory: Path) -> int:
    """The commands on a package's own catalogue, DIR/ops.yaml, writing DIR/generated."""
    out = directory / "generated"
    if args.check and command != "generate":
        print(f"error: --check applies to generate, not to {command}", file=sys.stderr)
        return 2
    if command in ("diff", "stats"):
        print(f"error: {command} reads the library's catalogue; drop --package", file=sys.stderr)
        return 2
    started = time.perf_counter()
    try:
        found, rendered = package.read(directory)
    except CatalogueError as error:
        mistakes = str(error).splitlines()
        for mistake in mistakes:
            print(f"error: {mistake}", file=sys.stderr)
        count = f"{len(mistakes)} mistakes" if len(mistakes) > 1 else "1 mistake"
        print(f"{count}; nothing was written", file=sys.stderr)
        return 2
    catalogue = found.catalogue
    try:
        if command == "validate":
            print(f"{catalogue.path}: {len(catalogue.ops)} ops: valid")
        elif command == "list":
            lines = review.listing(
                catalogue, args.kind, args.category, args.differentiable, args.backend
            )
            print("\n".join(lines))
        elif command == "explain":
            print(package.explain(found, args.op))
        elif command == "test":
            return package.test(found)
        if command != "generate":
            return 0
    except review.ReviewError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    planned = render.plan(catalogue, out, rendered, reference=False)
    obsolete = render.stale(out, planned)
    if args.check:
        text = render.diff(planned, obsolete, root=directory)
        if text:
            sys.stdout.write(text)
            print(
                f"\n{out} is out of date with {catalogue.path} (or was edited by hand); "
                f"regenerate with `{PROG} --package {directory}` and commit the result",
                file=sys.stderr,
            )
            return 1
        print(f"{out}/ is up to date with {catalogue.path} ({len(catalogue.ops)} ops)")
        return 0
    report = render.write(planned, obsolete)
    elapsed = time.perf_counter() - started
    print(f"{len(catalogue.ops)} ops from {catalogue.path} -> {out}/ in {elapsed:.2f}s")
    for path, status in report:
        print(f"  {status:9} {_relative(path, directory)}")
    return 0


def _installed(out: Path) -> bool:
    """Would `out` be inside an installed package? (site-packages, dist-packages)"""
    resolved = out.resolve()
    roots = {Path(sysconfig.get_paths()[key]).resolve() for key in ("purelib", "platlib")}
    return any(root in resolved.parents or root == resolved for root in roots) or any(
        part in ("site-packages", "dist-packages") for part in resolved.parts
    )


def _relative(path: Path, root: Path):
    return path.relative_to(root) if root in path.parents else path


if __name__ == "__main__":
    # A run makes millions of short-lived objects (parse trees, black's) and no garbage cycle
    # worth collecting before the process exits: the collector's passes over them are waste.
    gc.disable()
    try:
        sys.exit(main())
    except BrokenPipeError:  # `python -m codegen | head`: the reader left, nothing is lost
        sys.exit(0)
