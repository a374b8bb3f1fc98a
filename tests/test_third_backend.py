"""A third backend is one `backends:` entry in ops.yaml plus its kernels module: the generator
writes its registration and nothing else, and every op routes to it, no template edited.

The fixture backend (tests/fixtures/fixture_backend.py) is the NumPy kernels under another
variant; it notes each kernel the routing reaches, and its results are checked against each
op's numpy reference."""

import difflib
import shutil
from pathlib import Path

import numpy as np
import pytest

from burnpy.codegen.__main__ import main
from burnpy.generated import Device, Tensor
from burnpy.generated.backends import BACKENDS
from opinfo import OPS, samples, to_numpy
from burnpy.runtime.backends import registry
from tests.fixtures.fixture_backend import FixtureBackend
from test_ops import assert_matches

ROOT = Path(__file__).resolve().parent.parent
FIXTURE_ENTRY = """  - name: fixture
    variant: Fixture
    module: tests.fixtures.fixture_backend
    devices: [cpu]
"""


@pytest.fixture(scope="module")
def registration(tmp_path_factory) -> str:
    """The line the generator adds to generated/backends.py for the entry; it must be the only
    change in the generated tree but the lines saying where it defines each kernel."""
    tmp = tmp_path_factory.mktemp("third")
    catalogue = (ROOT / "ops.yaml").read_text()
    (tmp / "ops.yaml").write_text(catalogue.replace("\nops:\n", "\n" + FIXTURE_ENTRY + "\nops:\n"))
    out = tmp / "generated"
    shutil.copytree(ROOT / "generated", out)  # unchanged files reuse their formatting
    assert main(["--ops", str(tmp / "ops.yaml"), "--out", str(out)]) == 0
    changed = {}
    for path in sorted(out.rglob("*.py")):
        before = (ROOT / "generated" / path.relative_to(out)).read_text().splitlines()[1:]
        after = path.read_text().splitlines()[1:]  # past the header with its hashes
        if path.name == "inner.py":  # each kernel's declaration says where the backend has it
            declared = [line.strip() for line in after if line.strip().startswith("Fixture: ")]
            after = [line for line in after if not line.strip().startswith("Fixture: ")]
        if before != after:
            changed[path.relative_to(out).as_posix()] = [
                line[1:]
                for line in difflib.unified_diff(before, after, lineterm="", n=0)
                if line[:1] in "+-" and line[:3] not in ("+++", "---")
            ]
    assert len(declared) == (ROOT / "generated" / "inner.py").read_text().count("    def ")
    assert not [line for line in declared if line.endswith("not defined")]
    registration = (
        'register_backend("Fixture", "fixture", "tests.fixtures.fixture_backend", '
        '("cpu",), extra=None)'
    )
    assert list(changed) == ["backends.py"]  # its registration, and its class for type checkers
    assert set(changed["backends.py"]) == {
        "    from tests.fixtures.fixture_backend import FixtureBackend",
        "    Inner = NumPyBackend | TorchBackend",
        "    Inner = NumPyBackend | TorchBackend | FixtureBackend",
        registration,
    }, changed
    return registration


@pytest.fixture(scope="module")
def fixture_devices(registration):
    """The generated registration, run as generated/backends.py runs it."""
    exec(registration, {"register_backend": registry.register_backend})
    plain = Device.of("fixture")
    autodiff = plain.autodiff()
    yield {"plain": plain, "autodiff": autodiff, "balanced": autodiff.gradient_checkpointing()}
    del registry._REGISTERED["Fixture"], registry._BACKENDS["Fixture"]
    vars(BACKENDS).pop("Fixture", None)


@pytest.mark.parametrize("device", ["plain", "autodiff", "balanced"])
def test_every_op_routes_to_a_third_backend(fixture_devices, device):
    wrong, unreached = [], []
    for op in OPS:
        FixtureBackend.called.clear()
        sample = samples(op, op.dtypes[0])[0]
        result, _ = sample.call(fixture_devices[device])
        try:
            assert_matches(to_numpy(result), sample.reference(), op.dtypes[0], op.test.compare)
        except AssertionError as error:
            wrong.append(f"{op.name}: {error}")
        # a composite op runs other ops; every other op calls its own kernel on the backend
        if not op.composite and op.name not in FixtureBackend.called:
            unreached.append(op.name)
        results = result if isinstance(result, tuple) else (result,)
        assert all(r.device() == fixture_devices[device] for r in results), op.name
    assert not wrong and not unreached, (wrong, unreached)


def test_tensors_move_between_a_third_backend_and_numpy_with_their_gradient(fixture_devices):
    x = Tensor.from_data(np.array([1.0, -2.0, 3.0]), device=Device.numpy().autodiff())
    x = x.require_grad()
    moved = x.to_device(fixture_devices["autodiff"])
    assert moved.device() == fixture_devices["autodiff"]
    grads = (moved * moved).sum().backward()
    np.testing.assert_array_equal(x.grad(grads).to_numpy(), [2.0, -4.0, 6.0])
    back = moved.to_device(Device.numpy())  # autodiff -> plain: detached, on numpy
    assert back.device() == Device.numpy() and not back.is_autodiff()
    np.testing.assert_array_equal(back.to_numpy(), [1.0, -2.0, 3.0])
