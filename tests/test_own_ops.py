"""A package's own ops (docs/own-ops.md): `python -m codegen --package DIR` over examples/myops
and over packages written here, the functions it generates on every backend, under autodiff,
capture and the graph's picture, and the names an argument may not take.

The example's own spec-driven tests (values, gradients, checkpointing, capture) are its
generated examples/myops/generated/test_myops.py, which pytest collects beside these."""

import ast
import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import black
import numpy as np
import pytest

from burnpy.codegen import render
from burnpy.codegen.__main__ import main
from burnpy import capture
from burnpy.generated import Device, Tensor, dispatch, introspect, no_grad
from burnpy.generated.backends import BACKENDS
from burnpy.runtime.backends import registry

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "myops"
sys.path.insert(0, str(EXAMPLE.parent))  # `myops`, as a user's package is importable

from myops import linear_gelu, logaddexp, softplus  # noqa: E402


def tree_hash(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(folder).as_posix().encode() + path.read_bytes())
    return digest.hexdigest()


def copy_example(tmp_path: Path) -> Path:
    target = tmp_path / "myops"
    shutil.copytree(EXAMPLE, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


# -- the generator ---------------------------------------------------------------------------


@pytest.mark.parametrize("folder", [EXAMPLE, ROOT / "benches" / "benchops"], ids=lambda p: p.name)
def test_the_committed_generated_folders_are_current(folder):
    assert main(["--package", str(folder), "--check"]) == 0


def test_generating_is_deterministic_and_writes_the_package_only(tmp_path):
    library = tree_hash(ROOT / "generated")
    package = copy_example(tmp_path)
    shutil.rmtree(package / "generated")
    assert main(["--package", str(package)]) == 0
    first = tree_hash(package / "generated")
    assert first == tree_hash(EXAMPLE / "generated")  # byte for byte the committed one
    assert main(["--package", str(package)]) == 0
    assert tree_hash(package / "generated") == first
    assert tree_hash(ROOT / "generated") == library
    assert sorted(p.name for p in (package / "generated").iterdir()) == [
        "__init__.py",
        "autodiff.py",
        "backends.py",
        "catalogue.py",
        "ops.py",
        "py.typed",
        "recorders.py",
        "test_myops.py",
    ]
    assert not (package / "docs").exists()
    for path in (package / "generated").glob("*.py"):  # black-stable, as `make check` wants
        text = path.read_text()
        assert black.format_str(text, mode=render.MODE) == text, path.name


def test_check_fails_on_a_hand_edit_and_on_a_stale_catalogue(tmp_path, capsys):
    package = copy_example(tmp_path)
    ops = package / "generated" / "ops.py"
    ops.write_text(ops.read_text().replace("computed without overflow", "edited"))
    assert main(["--package", str(package), "--check"]) == 1
    assert "edited" in capsys.readouterr().out
    assert main(["--package", str(package)]) == 0
    catalogue = package / "ops.yaml"
    catalogue.write_text(catalogue.read_text().replace("without overflow", "stably"))
    assert main(["--package", str(package), "--check"]) == 1
    assert '+    """Element-wise log(e^lhs + e^rhs), computed stably."""' in (
        capsys.readouterr().out
    )


def test_mistakes_are_reported_at_once_at_their_lines_with_nothing_written(tmp_path, capsys):
    package = copy_example(tmp_path)
    shutil.rmtree(package / "generated")
    catalogue = package / "ops.yaml"
    text = catalogue.read_text()
    text = text.replace("contract: broadcast", "contract: broadcats")  # logaddexp
    text = text.replace("autodiff: compute_bound", "autodiff: compute_bound\n    metod: lg")
    text = text.replace("composite: logaddexp(x,", "composite: logaddexpp(x,")
    catalogue.write_text(text)
    rules = package / "rules.py"
    rules.write_text(rules.read_text().replace("lambda B, g, lhs, out:", "lambda B, g, lsh, out:"))
    assert main(["--package", str(package)]) == 2
    err = capsys.readouterr().err
    lines = err.splitlines()
    number = {op: i for i, row in enumerate(text.splitlines(), 1) for op in [row.strip()]}
    assert lines[-1] == "4 mistakes; nothing was written", err
    path = str(catalogue)
    assert (
        f"error: {path}:{number['contract: broadcats']}: logaddexp: unknown shape contract "
        "'broadcats'; did you mean `broadcast`?" in err
    )
    assert (
        f"error: {path}:{number['metod: lg']}: linear_gelu: unknown key `metod`; did you mean `method`?"
        in err
    )
    assert (
        "softplus: composite calls logaddexpp, which is not a catalogue op; did you mean `logaddexp`?"
        in err
    )
    assert f"rules.py:17: the rule of logaddexp" not in err  # a VJP's mistake: at its own line
    assert "takes `lsh`, which the op does not have; did you mean `lhs`?" in err
    assert not (package / "generated").exists()


def test_explain_and_list(capsys):
    assert main(["--package", str(EXAMPLE), "explain", "linear_gelu"]) == 0
    out = capsys.readouterr().out
    assert "myops.generated.linear_gelu(x: Tensor, weight: Tensor, bias: Tensor) -> Tensor" in out
    assert "every backend: myops.kernels:Kernels.linear_gelu" in out
    assert "rule: Rules.linear_gelu at myops/rules.py:" in out and "Joint rule" in out
    assert main(["--package", str(EXAMPLE), "explain", "logaddexpp"]) == 2
    assert "did you mean logaddexp?" in capsys.readouterr().err
    assert main(["--package", str(EXAMPLE), "list"]) == 0
    listed = capsys.readouterr().out
    assert [row.split()[0] for row in listed.splitlines()[1:4]] == [
        "logaddexp",
        "softplus",
        "linear_gelu",
    ]


def test_the_installed_names_run_the_same_generator():
    for command in (["-m", "burnpy.codegen"],):  # (`python -m codegen`: the tests above)
        done = subprocess.run(
            [sys.executable, *command, "--package", str(EXAMPLE), "--check"],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        assert done.returncode == 0, done.stderr
        assert "examples/myops/generated/ is up to date" in done.stdout.replace(str(ROOT) + "/", "")


# -- names an argument may not take ----------------------------------------------------------


def template_names() -> set[str]:
    """Every name the library's rendered dispatch functions and recorders bind or read, but
    their own arguments, the names made from them and the ops' own names (a recorder returns
    the function it defines, named as its op)."""
    ops = set(dispatch.__all__) | {"move_across"}
    names = set()
    for path in (
        ROOT / "generated" / "dispatch" / "float_ops.py",
        ROOT / "generated" / "recorders.py",
    ):
        for function in ast.parse(path.read_text()).body:
            if not isinstance(function, ast.FunctionDef):
                continue
            own = {a.arg for a in ast.walk(function) if isinstance(a, ast.arg)}
            own -= {"forward", "BACKWARD", "inner", "balanced"}  # the recorder's own
            for node in ast.walk(function):
                name = node.id if isinstance(node, ast.Name) else None
                name = node.arg if isinstance(node, ast.arg) else name
                if (
                    name
                    and name not in own | ops
                    and not any(name.startswith(f"{a}_") for a in own)
                ):
                    names.add(name)
    return names


def probe_package(folder: Path, names) -> Path:
    """A package with one differentiable binary op per name, its first argument so named:
    `probe_<name>(<name>, other) = <name> + 2 * other`."""
    package = folder / "probeops"
    package.mkdir()
    (package / "__init__.py").write_text("")
    ops = ["package: probeops", "kernels: probeops.kernels:Kernels", "rules: probeops.rules:Rules"]
    ops += ["ops:"]
    rules, kernels = ["class Rules:"], ["class Kernels:"]
    for name in names:
        ops += [
            f"  - name: probe_{name}",
            "    kind: float",
            f"    args: [{name}: float, other: float]",
            "    returns: float",
            "    routing: tensor",
            "    autodiff: memory_bound",
            "    doc: A probe.",
        ]
        rules.append(f"    probe_{name} = (lambda g: g, lambda g: g * 2.0)")
        kernels += [f"    def probe_{name}(self, a, b):", "        return a + 2.0 * b"]
    (package / "ops.yaml").write_text("\n".join(ops) + "\n")
    (package / "rules.py").write_text("\n".join(rules) + "\n")
    (package / "kernels.py").write_text("\n".join(kernels) + "\n")
    return package


def test_no_argument_name_meets_the_generated_code(tmp_path, capsys, monkeypatch):
    """An argument named after every name the templates use, and the rule's own (`g`, `B`,
    `tracked`), `self` and a few more: each is refused naming it, or generates an op that
    computes and differentiates right on both checkpointing strategies."""
    names = sorted(template_names() | {"self", "g", "B", "tracked", "result", "saved", "out"})
    assert {"ctx", "B", "AD", "out", "order", "Tensor", "BACKENDS"} <= set(names)
    refused, accepted = set(), names
    for _ in range(3):  # the entries' checks first; the names in the rendered code once they pass
        package = probe_package(tmp_path, accepted)
        if main(["--package", str(package)]) == 0:
            break
        refused |= {
            line.split(": argument `")[1].split("`")[0]
            for line in capsys.readouterr().err.splitlines()
            if ": argument `" in line
        }
        accepted = [name for name in names if name not in refused]
        shutil.rmtree(package)
    assert {"ctx", "B", "AD", "out", "g", "tracked", "BACKENDS", "Tensor"} <= refused
    assert "self" in accepted and (package / "generated").is_dir()
    monkeypatch.syspath_prepend(str(tmp_path))
    from probeops import generated  # noqa: PLC0415 - the package just generated

    try:
        for name in accepted:
            function = getattr(generated.ops, f"probe_{name}")
            for device in (CPU, CPU.autodiff(), CPU.autodiff().gradient_checkpointing()):
                a = Tensor.from_data(np.array([1.0, 2.0]), device=device)
                b = Tensor.from_data(np.array([3.0, 4.0]), device=device)
                if device is CPU:
                    np.testing.assert_array_equal(function(a, b).to_numpy(), [7.0, 10.0])
                    continue
                a, b = a.require_grad(), b.require_grad()
                out = function(a * 1.0, b * 1.0)  # recomputed under Balanced
                grads = out.sum().backward()
                np.testing.assert_array_equal(out.to_numpy(), [7.0, 10.0], err_msg=name)
                np.testing.assert_array_equal(a.grad(grads).to_numpy(), [1.0, 1.0], err_msg=name)
                np.testing.assert_array_equal(b.grad(grads).to_numpy(), [2.0, 2.0], err_msg=name)
    finally:
        for module in [m for m in sys.modules if m.split(".")[0] == "probeops"]:
            del sys.modules[module]
        BACKENDS.extensions.remove(generated.backends.BACKENDS)


# -- calling them ----------------------------------------------------------------------------

CPU = Device.numpy()


def data(*shape, seed=0):
    return np.random.default_rng(seed).uniform(-1, 1, shape)


def test_nothing_is_added_to_tensor():
    assert not hasattr(Tensor, "logaddexp") and not hasattr(Tensor, "linear_gelu")


def test_no_grad_records_nothing():
    x = Tensor.from_data(data(3), device=CPU.autodiff()).require_grad()
    with no_grad():
        out = logaddexp(x, x)
    assert not out.is_require_grad()
    np.testing.assert_allclose(out.to_numpy(), np.logaddexp(data(3), data(3)))


def test_a_third_backend_routes_them():
    registry.register_backend("Fixture", "fixture", "tests.fixtures.fixture_backend", ("cpu",))
    try:
        for device in (Device.of("fixture"), Device.of("fixture").autodiff()):
            x = Tensor.from_data(data(2, 3), device=device)
            w = Tensor.from_data(data(3, 4, seed=1), device=device)
            b = Tensor.from_data(data(4, seed=2), device=device)
            out = softplus(linear_gelu(x, w, b))
            assert out.device() == device
            pre = data(2, 3) @ data(3, 4, seed=1) + data(4, seed=2)
            gelu = 0.5 * pre * (1 + np.tanh(0.7978845608028654 * (pre + 0.044715 * pre**3)))
            np.testing.assert_allclose(out.to_numpy(), np.logaddexp(gelu, 0), rtol=1e-12)
    finally:
        del registry._REGISTERED["Fixture"], registry._BACKENDS["Fixture"]
        vars(BACKENDS).pop("Fixture", None)
        import myops.generated.backends as own  # noqa: PLC0415

        vars(own.BACKENDS).pop("Fixture", None)


def test_the_graph_moves_across_backends_and_the_picture_names_them():
    pytest.importorskip("torch")
    x = Tensor.from_data(data(2, 3), device=CPU.autodiff()).require_grad()
    w = Tensor.from_data(data(3, 4, seed=1), device=CPU.autodiff()).require_grad()
    b = Tensor.from_data(data(4, seed=2), device=CPU.autodiff()).require_grad()
    hidden = linear_gelu(x, w, b).to_device(Device.torch().autodiff())
    out = logaddexp(hidden, hidden * 2.0)
    picture = introspect.to_mermaid(out)
    assert ": logaddexp<br/>" in picture and ": linear_gelu<br/>" in picture
    grads = out.sum().backward()
    # d/dh logaddexp(h, 2h) = (e^h + 2 e^2h) / (e^h + e^2h), through the GELU
    pre = data(2, 3) @ data(3, 4, seed=1) + data(4, seed=2)
    inner = 0.7978845608028654 * (pre + 0.044715 * pre**3)
    h = 0.5 * pre * (1 + np.tanh(inner))
    slope = 0.5 * (1 + np.tanh(inner)) + 0.5 * pre * (1 - np.tanh(inner) ** 2) * (
        0.7978845608028654 * (1 + 3 * 0.044715 * pre**2)
    )
    g_pre = (np.exp(h) + 2 * np.exp(2 * h)) / (np.exp(h) + np.exp(2 * h)) * slope
    np.testing.assert_allclose(b.grad(grads).to_numpy(), g_pre.sum(0), rtol=1e-10)
    np.testing.assert_allclose(x.grad(grads).to_numpy(), g_pre @ data(3, 4, seed=1).T, rtol=1e-10)
    assert x.grad(grads).device() == CPU


def calls_of(function, *args) -> list:
    """The Python and C functions one call runs, in order (sys.setprofile's events)."""
    calls = []

    def profile(frame, event, arg):
        if event == "call":
            calls.append(frame.f_code.co_name)
        elif event == "c_call":
            calls.append(arg.__name__)

    sys.setprofile(profile)
    try:
        function(*args)
    finally:
        sys.setprofile(None)
    return calls


@pytest.mark.parametrize("strategy", ["plain", "tracked", "balanced"])
def test_a_package_op_makes_the_built_in_ops_calls(strategy):
    """benchops.times (benches/own_ops.py times it) does float_mul's work with float_mul's
    kernel and rule: the two calls run the same functions, but their own names, and but the
    package's look-up of its backend by name (the library's reads it off the tensor's kind)."""
    from benches.benchops.generated import times  # noqa: PLC0415
    from burnpy.generated.dispatch import float_mul  # noqa: PLC0415

    device = {"plain": CPU, "tracked": CPU.autodiff()}.get(
        strategy, CPU.autodiff().gradient_checkpointing()
    )
    x, y = (Tensor.from_data(data(8, 8, seed=s), device=device) for s in (0, 1))
    if strategy != "plain":
        x, y = x.require_grad(), y.require_grad()
    times(x, y), float_mul(x, y)  # (first calls build the routing tables)
    ours = ["float_mul" if name == "times" else name for name in calls_of(times, x, y)]
    assert ours[:2] == ["float_mul", "getattr"]
    assert [ours[0], *ours[2:]] == calls_of(float_mul, x, y)


# -- the guide -------------------------------------------------------------------------------

GUIDE = ROOT / "docs" / "own-ops.md"


def guide_blocks() -> list[tuple[str, str]]:
    """(the line before, the text) of each fenced block of docs/own-ops.md."""
    blocks, before, lines, inside = [], "", [], False
    for line in GUIDE.read_text().splitlines():
        if line.startswith("```"):
            if inside:
                blocks.append((before, "\n".join(lines) + "\n"))
            inside, lines = not inside, []
        elif inside:
            lines.append(line)
        elif line.strip():
            before = line.strip()
    return blocks


def test_a_package_written_from_the_guide_generates_tests_captures_and_compiles(
    tmp_path, capsys, monkeypatch
):
    package = tmp_path / "mylib"
    package.mkdir()
    (package / "__init__.py").write_text("")
    written = []
    for before, text in guide_blocks():
        if before.startswith("`mylib/") and before.endswith("`:"):
            (tmp_path / before[1:-2]).write_text(text)
            written.append(before[1:-2])
    assert written == ["mylib/ops.yaml", "mylib/kernels.py", "mylib/rules.py"]
    assert main(["--package", str(package)]) == 0
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        snippets = [t for _, t in guide_blocks() if "from mylib" in t or "@capture" in t]
        namespace = {}
        for snippet in snippets:  # sections 6 and 8, in order, as a reader runs them
            capsys.readouterr()
            exec(compile(snippet, str(GUIDE), "exec"), namespace)  # noqa: S102 - our own docs
            printed = capsys.readouterr().out.splitlines()
            promised = [
                line.split("  # ", 1)[1] for line in snippet.splitlines() if "print(" in line
            ]
            assert printed == promised
        from mylib.generated import test_mylib  # noqa: PLC0415 - just generated

        for spec in test_mylib.SPECS:
            for check in test_mylib.CHECKS:
                if check.backend == "numpy":
                    check.run(spec)
    finally:
        for module in [m for m in sys.modules if m.split(".")[0] == "mylib"]:
            del sys.modules[module]
        own = [p for p in BACKENDS.extensions if p._package == "mylib"]
        for p in own:
            BACKENDS.extensions.remove(p)


def small_package(folder: Path, name: str, kernels_header: str, kernels_source: str) -> Path:
    """A package with one op, `shifted(x) = x + <its kernel's shift>`, differentiable."""
    package = folder / name
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "ops.yaml").write_text(
        f"package: {name}\n{kernels_header}\nrules: {name}.rules:Rules\nops:\n"
        "  - name: shifted\n    kind: float\n    args: [x: float]\n    returns: float\n"
        "    routing: tensor\n    autodiff: memory_bound\n    doc: x plus a shift.\n"
        "    method: shift\n"
    )
    (package / "rules.py").write_text("class Rules:\n    shifted = (lambda g: g,)\n")
    (package / "kernels.py").write_text(kernels_source)
    assert main(["--package", str(package)]) == 0
    for path in (package / "generated").glob("*.py"):  # black-stable
        assert black.format_str(path.read_text(), mode=render.MODE) == path.read_text()
    return package


KERNELS = """
class Kernels:
    def shifted(self, x):
        return x + 1.0


class TorchKernels:
    def shifted(self, x):
        return x + 2.0
"""


def test_a_backend_of_its_own_kernels_and_a_backend_without_any(tmp_path, monkeypatch):
    pytest.importorskip("torch")
    small_package(
        tmp_path,
        "pertorch",
        "kernels:\n  default: pertorch.kernels:Kernels\n  torch: pertorch.kernels:TorchKernels",
        KERNELS,
    )
    small_package(tmp_path, "numpyonly", "kernels: {numpy: numpyonly.kernels:Kernels}", KERNELS)
    monkeypatch.syspath_prepend(str(tmp_path))
    from numpyonly.generated import shift as numpy_only  # noqa: PLC0415
    from pertorch.generated import shift as shifted  # noqa: PLC0415 - named by its method

    try:
        for device, shift in ((CPU, 1.0), (Device.torch(), 2.0)):
            x = Tensor.from_data(np.array([0.5]), device=device.autodiff()).require_grad()
            out = shifted(x)
            np.testing.assert_array_equal(out.to_numpy(), [0.5 + shift])
            np.testing.assert_array_equal(x.grad(out.sum().backward()).to_numpy(), [1.0])
        np.testing.assert_array_equal(numpy_only(Tensor.from_data([0.5])).to_numpy(), [1.5])
        with pytest.raises(NotImplementedError, match="numpyonly has no kernels for the Torch"):
            numpy_only(Tensor.from_data([0.5], device=Device.torch()))
    finally:
        for module in [m for m in sys.modules if m.split(".")[0] in ("pertorch", "numpyonly")]:
            del sys.modules[module]
        for p in [p for p in BACKENDS.extensions if p._package in ("pertorch", "numpyonly")]:
            BACKENDS.extensions.remove(p)


def test_the_generated_tests_catch_a_wrong_rule_and_a_wrong_kernel(tmp_path, monkeypatch):
    """examples/myops as `brokenops`, its logaddexp rule 1% off for rhs and its linear_gelu
    kernel's bias shifted: the generated checks that must fail do, the others pass."""
    package = tmp_path / "brokenops"
    shutil.copytree(EXAMPLE, package, ignore=shutil.ignore_patterns("__pycache__", "generated"))
    for name in ("ops.yaml", "__init__.py"):
        (package / name).write_text((package / name).read_text().replace("myops", "brokenops"))
    rules = (package / "rules.py").read_text()
    (package / "rules.py").write_text(
        rules.replace("B.float_exp(rhs - out)", "1.01 * B.float_exp(rhs - out)")
    )
    kernels = (package / "kernels.py").read_text()
    (package / "kernels.py").write_text(
        kernels.replace("+ bias\n        inner", "+ bias * 1.01\n        inner")
    )
    assert main(["--package", str(package)]) == 0
    monkeypatch.syspath_prepend(str(tmp_path))
    from brokenops.generated import test_brokenops as generated  # noqa: PLC0415

    try:
        failed = set()
        for spec in generated.SPECS:
            for check in generated.CHECKS:
                if check.backend != "numpy":
                    continue
                try:
                    check.run(spec)
                except AssertionError:
                    failed.add(f"{spec}-{check}")
        assert failed == {
            "logaddexp-gradient-numpy-no_checkpointing",
            "logaddexp-gradient-numpy-balanced",
            "linear_gelu-forward-numpy",  # (its backward kernel, untouched, passes)
        }
    finally:
        for module in [m for m in sys.modules if m.split(".")[0] == "brokenops"]:
            del sys.modules[module]
        for p in [p for p in BACKENDS.extensions if p._package == "brokenops"]:
            BACKENDS.extensions.remove(p)


def test_a_compiled_capture_fuses_a_package_element_wise_op_with_the_library_ones():
    """logaddexp's `c:` makes it one more link of an element-wise chain: x * 2, logaddexp with
    y, + 1 is one C loop."""
    x, y = (Tensor.from_data(data(3, 4, seed=s).astype(np.float32)) for s in (0, 1))

    def step(x, y):
        return logaddexp(x * 2.0, y) + 1.0

    compiled = capture(step, compile=True)
    for _ in range(2):  # recorded, then replayed
        out = compiled(x, y)
    assert "float_mul_scalar, logaddexp, float_add_scalar (one loop)" in compiled.source()
    expected = np.logaddexp(data(3, 4) * 2.0, data(3, 4, seed=1)) + 1.0
    np.testing.assert_allclose(out.to_numpy(), expected, rtol=1e-6)


def test_a_package_op_whose_shape_depends_on_the_values_is_refused_by_capture(
    tmp_path, monkeypatch
):
    package = tmp_path / "picking"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "ops.yaml").write_text(
        "package: picking\nkernels: picking.kernels:Kernels\nops:\n"
        "  - name: int_positives\n    kind: int\n    args: [x: int]\n    returns: int\n"
        "    routing: tensor\n    data_dependent: true\n    doc: The positive elements.\n"
        "    method: positives\n"
    )
    (package / "kernels.py").write_text(
        "class Kernels:\n    def int_positives(self, x):\n        return x[x > 0]\n"
    )
    assert main(["--package", str(package)]) == 0
    monkeypatch.syspath_prepend(str(tmp_path))
    from picking.generated import positives  # noqa: PLC0415 - just generated

    try:
        x = Tensor.from_data(np.array([3, -1, 2]))
        np.testing.assert_array_equal(positives(x).to_numpy(), [3, 2])
        with pytest.raises(capture.CaptureError, match="runs int_positives, which makes a result"):
            capture(positives)(x)
        with pytest.warns(RuntimeWarning, match="int_positives cannot be recorded, so it runs"):
            eager = capture(positives, fallback=True)(x)
        np.testing.assert_array_equal(eager.to_numpy(), [3, 2])
    finally:
        for module in [m for m in sys.modules if m.split(".")[0] == "picking"]:
            del sys.modules[module]
        for p in [p for p in BACKENDS.extensions if p._package == "picking"]:
            BACKENDS.extensions.remove(p)


def test_a_package_without_kernels_for_a_backend_leaves_capture_on_it_working(
    tmp_path, monkeypatch
):
    pytest.importorskip("torch")
    small_package(tmp_path, "numpyonly", "kernels: {numpy: numpyonly.kernels:Kernels}", KERNELS)
    monkeypatch.syspath_prepend(str(tmp_path))
    from numpyonly.generated import shift  # noqa: PLC0415 - just generated

    try:
        x = Tensor.from_data(np.array([0.5, -1.0]), device=Device.torch())
        step = capture(lambda t: t.exp() * 2.0)
        for _ in range(2):  # recorded, then replayed
            np.testing.assert_allclose(step(x).to_numpy(), np.exp([0.5, -1.0]) * 2.0)
        with pytest.raises(NotImplementedError, match="numpyonly has no kernels for the Torch"):
            capture(shift)(x)
        np.testing.assert_array_equal(shift(Tensor.from_data([0.5])).to_numpy(), [1.5])
    finally:
        for module in [m for m in sys.modules if m.split(".")[0] == "numpyonly"]:
            del sys.modules[module]
        for p in [p for p in BACKENDS.extensions if p._package == "numpyonly"]:
            BACKENDS.extensions.remove(p)
