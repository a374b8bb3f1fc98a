"""The spec-driven suite: every ops.yaml entry is tested from its own entry (OpInfo-style).

For each op, on every backend ops.yaml declares: forward values against its numpy reference for
every declared dtype, and against the numpy backend's (the autodiff device on the first and the
last dtype, and equal to the plain device); undeclared dtypes are refused; identical gradients under both checkpointing strategies. Gradients
of every float input are checked against central finite differences in float64 on the numpy
backend, and every other backend's gradients against numpy's (one finite-difference pass).
"""

import numpy as np
import pytest

from burnpy.codegen.validate import DTYPES
from opinfo import (
    BACKENDS,
    OPS,
    devices,
    float_inputs,
    input_array,
    samples,
    set_input_array,
    to_numpy,
)
from burnpy import generated
from burnpy.generated import Tensor

TOLERANCE = {"float16": 2e-2, "bfloat16": 5e-2, "float32": 1e-5, "float64": 1e-10}
DIFFERENTIABLE = [op for op in OPS if op.autodiff or (op.composite and "float" in op.returns)]
OTHER_BACKENDS = [name for name in BACKENDS if name != "numpy"]


def _ids(op):
    return op.name


def test_every_entry_has_test_metadata():
    missing = [op.name for op in OPS if op.test is None]
    assert not missing, f"ops without test metadata (add `test: {{ref: ...}}`): {missing}"


def assert_matches(actual, expected, dtype, compare=None):
    if isinstance(expected, tuple):
        for a, e in zip(actual, expected):
            assert_matches(a, e, dtype, compare)
        return
    expected = np.asarray(expected)
    if compare == "shape":  # random or uninitialised values: only shape and dtype are fixed
        assert (actual.shape, actual.dtype) == (expected.shape, expected.dtype)
        return
    assert actual.shape == expected.shape, f"shape {actual.shape} != numpy's {expected.shape}"
    assert actual.dtype == expected.dtype, f"dtype {actual.dtype} != numpy's {expected.dtype}"
    if str(actual.dtype) in TOLERANCE:
        tol = TOLERANCE[str(actual.dtype)]
        # (compared in float64: numpy's assert_allclose has no bfloat16 loops)
        np.testing.assert_allclose(
            actual.astype(np.float64), expected.astype(np.float64), rtol=tol, atol=tol
        )
    else:
        np.testing.assert_array_equal(actual, expected)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("op", OPS, ids=_ids)
def test_forward_matches_numpy(op, backend):
    """Every declared dtype on the plain device against the numpy reference and, on another
    backend, against the numpy backend's result. The autodiff device hands the same kernels
    the same dtypes: it is checked on the first and the last declared dtype (the default and,
    for floats, the narrowest), and equal to the plain device in
    test_plain_and_autodiff_devices_agree."""
    on = devices(backend)
    compare = op.test.compare
    for dtype in op.dtypes:
        for sample in samples(op, dtype):
            result = to_numpy(sample.call(on["plain"])[0])
            assert_matches(result, sample.reference(), dtype, compare)
            if backend != "numpy":
                ours = to_numpy(sample.call(devices("numpy")["plain"])[0])
                assert_matches(result, ours, dtype, compare)
            if dtype in (op.dtypes[0], op.dtypes[-1]):
                result = to_numpy(sample.call(on["autodiff"])[0])
                assert_matches(result, sample.reference(), dtype, compare)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("op", [op for op in OPS if op.routing == "tensor"], ids=_ids)
def test_undeclared_dtypes_are_refused(op, backend):
    """OpInfo's dtype check: a dtype the entry does not declare must raise a TypeError."""
    device = devices(backend)["plain"]
    for dtype in set(DTYPES[op.kind]) - set(op.dtypes):
        sample = samples(op, dtype)[0]
        if op.function:  # a public function: every argument by name
            function = getattr(getattr(generated, op.function), op.name)
            arguments = {
                a.name: Tensor.from_data(v, device=device) if isinstance(v, np.ndarray) else v
                for a in op.args
                if (v := sample.values.get(a.name)) is not None
            }
            with pytest.raises(TypeError, match=f"{op.name} does not support {dtype}"):
                function(**arguments)
            continue
        with pytest.raises(TypeError):
            method = getattr(Tensor, op.method)
            receiver = Tensor.from_data(sample.values[op.receiver.name], device=device)
            rest = [sample.values.get(a.name) for a in op.args if a is not op.receiver]
            rest = [
                Tensor.from_data(v, device=device) if isinstance(v, np.ndarray) else v for v in rest
            ]
            method(receiver, *rest)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("op", [op for op in OPS if op.routing != "creation"], ids=_ids)
def test_wrong_kind_is_a_clear_type_error(op, backend):
    """A dispatch function given a tensor of another kind (an int op a float tensor) raises a
    TypeError that names the kind it expected."""
    sample = samples(op, op.dtypes[0])[0]
    wrong = {
        "float": np.array([1, 2]),
        "int": np.array([True, False]),
        "bool": np.array([1.5, 2.5]),
    }
    receiver = next(a for a in op.args if a.type in ("float", "int", "bool", "tensors"))
    value = wrong[op.kind if receiver.type == "tensors" else receiver.type]
    sample.values[receiver.name] = [value] if receiver.type == "tensors" else value
    with pytest.raises(TypeError, match="expected a"):
        sample.call(devices(backend)["plain"])


def numeric_gradient(sample, name, cotangent, eps=1e-6):
    """Central finite differences of sum(op(x) * cotangent) in float64, on the plain device."""
    base = input_array(sample, name)
    grad = np.zeros_like(base)
    for index in np.ndindex(base.shape):
        values = []
        for sign in (1, -1):
            perturbed = base.copy()
            perturbed[index] += sign * eps
            set_input_array(sample, name, perturbed)
            result, _ = sample.call(devices("numpy")["plain"])
            out = to_numpy(result)
            out = out[0] if isinstance(out, tuple) else out
            values.append(np.sum(out * cotangent))
        grad[index] = (values[0] - values[1]) / (2 * eps)
    set_input_array(sample, name, base)
    return grad


def analytic_gradients(sample, device, names, cotangent, through=None):
    result, leaves = sample.call(device, requires_grad=names, through=through)
    out = result[0] if isinstance(result, tuple) else result
    weights = Tensor.from_data(cotangent, device=device)
    grads = (out * weights).sum().backward()
    return {name: leaves[name].grad(grads) for name in names}


def cotangent_for(sample, seed):
    out = to_numpy(sample.call(devices("numpy")["plain"])[0])
    out = out[0] if isinstance(out, tuple) else out
    return np.random.default_rng(seed).uniform(0.5, 1.5, size=out.shape)


def as_array(grad, like):
    return np.zeros_like(like) if grad is None else grad.to_numpy()


@pytest.mark.parametrize("op", DIFFERENTIABLE, ids=_ids)
def test_gradients_match_finite_differences(op):
    for sample in samples(op, "float64", seed=1):
        names = float_inputs(sample)
        cotangent = cotangent_for(sample, 2)
        grads = analytic_gradients(sample, devices("numpy")["autodiff"], names, cotangent)
        for name in names:
            expected = numeric_gradient(sample, name, cotangent)
            actual = as_array(grads[name], expected)
            np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-6, err_msg=name)


@pytest.mark.parametrize("backend", OTHER_BACKENDS)
@pytest.mark.parametrize("op", DIFFERENTIABLE, ids=_ids)
def test_gradients_match_numpy_backend(op, backend):
    """The numpy backend's gradients pass finite differences; every other backend's must equal
    them (our Autodiff over its kernels), in float64."""
    for sample in samples(op, "float64", seed=1):
        names = float_inputs(sample)
        cotangent = cotangent_for(sample, 2)
        ours = analytic_gradients(sample, devices("numpy")["autodiff"], names, cotangent)
        other = analytic_gradients(sample, devices(backend)["autodiff"], names, cotangent)
        for name in names:
            assert (ours[name] is None) == (other[name] is None), name
            if ours[name] is not None:
                assert other[name].device() == devices(backend)["plain"], name
                np.testing.assert_allclose(
                    other[name].to_numpy(), ours[name].to_numpy(), rtol=1e-10, atol=1e-12
                )


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("op", DIFFERENTIABLE, ids=_ids)
def test_both_strategies_give_the_same_gradients(op, backend):
    """Inputs pass through `x * 1.0`, a memory-bound op, so Balanced must recompute them."""
    on = devices(backend)
    for sample in samples(op, "float64", seed=3):
        names = float_inputs(sample)
        cotangent = cotangent_for(sample, 4)
        through = lambda t: t * 1.0  # noqa: E731
        plain = analytic_gradients(sample, on["autodiff"], names, cotangent, through)
        balanced = analytic_gradients(sample, on["balanced"], names, cotangent, through)
        for name in names:
            a, b = plain[name], balanced[name]
            assert (a is None) == (b is None)
            if a is not None:
                np.testing.assert_allclose(a.to_numpy(), b.to_numpy(), rtol=1e-12, atol=0)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("op", [op for op in OPS if op.routing != "creation"], ids=_ids)
def test_plain_and_autodiff_devices_agree(op, backend):
    on = devices(backend)
    for sample in samples(op, op.dtypes[0]):
        plain = to_numpy(sample.call(on["plain"])[0])
        autodiff = to_numpy(sample.call(on["autodiff"])[0])
        if op.test.compare == "shape":
            continue
        plain = plain if isinstance(plain, tuple) else (plain,)
        autodiff = autodiff if isinstance(autodiff, tuple) else (autodiff,)
        for a, b in zip(plain, autodiff):
            np.testing.assert_array_equal(a, b)
