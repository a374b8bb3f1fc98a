"""`make bench`: every benchmark in turn, one table each.

Runs as a script (`python benches/run.py`), so it puts the checkout's root first on sys.path:
the benchmarks measure this tree, not an installed copy.
"""

import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benches.workloads import FloorMoved  # noqa: E402  (after the checkout's root is on sys.path)

# Each module has a main() that prints its table; a missing module is reported, not fatal.
BENCHMARKS = (
    "benches.speed",
    "benches.memory",
    "benches.modules",
    "benches.attention_norm",
    "benches.conv_positions",
    "benches.winograd",
    "benches.training",
    "benches.char_transformer",
    "benches.distributed",
    "benches.capture",
    "benches.steps",
    "benches.real_steps",
    "benches.fused_batch_norm",
    "benches.fused_rms_norm",
    "benches.fused_masked_softmax",
    "benches.optimizer_updates",
    "benches.onnx_import",
    "benches.onnx_transformers",
    "benches.quantization",
    "benches.own_ops",
)


def main() -> int:
    moved = []
    for name in BENCHMARKS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name != name:
                raise
            print(f"\n{name}: not in this tree, skipped")
            continue
        try:
            module.main()
        except FloorMoved as error:
            moved.append(f"{name}: {error}")
            print(f"\n{name}: FAILED, {error}")
        print()
    if moved:
        print("make bench FAILED:\n" + "\n".join(moved), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
