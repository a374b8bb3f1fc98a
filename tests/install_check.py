"""What an install of burnpy puts in site-packages, and what it needs of the working directory.

Run by tests/test_install.py in a folder of its own (argv[1]): builds the checkout's wheel,
installs it (no dependencies: those of the running interpreter serve) into FOLDER/site, and
imports the public API from a working directory holding folders named `generated`, `runtime`
and `codegen`, once from the wheel and once from the checkout's editable install. Prints one
JSON object of what it saw.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROBE = """
import json, sys
from burnpy import Device, Tensor, capture, data, module, nn, onnx, optim
x = Tensor.ones([2, 2], device=Device.numpy().autodiff()).require_grad()
grads = nn.Linear(2, 1, device=x.device()).forward(x).sum().backward()
print(json.dumps({"file": sys.modules["burnpy"].__file__,
                  "generated": sys.modules["burnpy.generated"].__file__,
                  "tops": sorted({m.split(".")[0] for m in sys.modules
                                  if m.split(".")[0] in ("generated", "runtime", "codegen")})}))
"""


def _run(command, cwd, env):
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"{command} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def main(folder: Path) -> None:
    work = folder / "work"
    for name in ("generated", "runtime", "codegen"):  # a user's own folders, which must not matter
        (work / name).mkdir(parents=True)
        (work / name / "__init__.py").write_text(
            "raise ImportError('the user folder was imported')\n"
        )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
          "-w", str(folder / "wheel"), str(ROOT)], ROOT, env)  # fmt: skip
    wheel = next((folder / "wheel").glob("burnpy-*.whl"))
    site = folder / "site"
    _run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site),
          str(wheel)], folder, env)  # fmt: skip
    seen = {"site": sorted(p.name for p in site.iterdir())}
    seen["wheel"] = json.loads(
        _run([sys.executable, "-c", PROBE], work, {**env, "PYTHONPATH": str(site)})
    )
    seen["editable"] = json.loads(_run([sys.executable, "-c", PROBE], work, env))
    codegen = [sys.executable, "-m", "burnpy.codegen", "--help"]
    seen["codegen"] = _run(codegen, work, {**env, "PYTHONPATH": str(site)}).splitlines()[0]
    print(json.dumps(seen))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
