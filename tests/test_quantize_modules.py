"""Quantized modules: burn's `Quantizer` tests (burn-core's module/quantize.rs and burn-nn's
tests/quantize.rs, with their modules, schemes and tolerances), then what a user does with a
quantized model: run it, save it (values and scales: a quarter of the float file), load it into
a fresh model, dequantize it back, keep training what stayed float."""

import json

import numpy as np
import pytest
from safetensors import safe_open

from burn.burncheck import Tolerance, assert_approx_eq
from burnpy import nn, optim
from burnpy.generated import (
    Calibration,
    Device,
    QuantLevel,
    QuantParam,
    QuantScheme,
    QuantStore,
    QuantValue,
    Tensor,
)

DEVICES = [
    pytest.param(Device.numpy, id="numpy"),
    pytest.param(Device.torch, id="torch"),
    pytest.param(lambda: Device.numpy().autodiff(), id="numpy-autodiff"),
]


def random(shape, device, seed=0):
    """burn's `Distribution::Default`: uniform on [0, 1)."""
    data = np.random.default_rng(seed).random(shape).astype(np.float32)
    return Tensor.from_data(data, device=device)


def scheme(level=None):
    """burn's test scheme: the device's default with Q8S values and f32 scales."""
    level = QuantLevel.tensor() if level is None else level
    return QuantScheme().with_value(QuantValue.Q8S).with_level(level).with_param(QuantParam.F32)


def quantizer(level=None, **options):
    return nn.Quantizer(scheme=scheme(level), calibration=Calibration.MIN_MAX, **options)


class SimpleLinear(nn.Module):
    """burn-core's test module: a weight [out, in] and a bias [out], both uniform on [0, 1)."""

    def __init__(self, d_in, d_out, device):
        super().__init__()
        self.weight = random([d_out, d_in], device, seed=1)
        self.bias = random([d_out], device, seed=2)


# -- burn-core: module/quantize.rs ----------------------------------------------------------------


@pytest.mark.parametrize("device", DEVICES)
def test_should_quantize_module(device):
    module = SimpleLinear(32, 32, device())
    weight = module.weight.to_numpy()
    q_module = module.quantize_weights(quantizer())
    assert q_module is module  # burn's quantize_weights returns the module
    assert_approx_eq(q_module.weight.dequantize(), weight, Tolerance.permissive())


def test_should_quantize_only_group():
    module = SimpleLinear(32, 32, Device.numpy())
    weight = module.weight.to_numpy()
    q_module = module.quantize_weights(quantizer(params=["weight"]))
    assert q_module.weight.is_quantized()
    assert not q_module.bias.is_quantized()
    assert_approx_eq(q_module.weight.dequantize(), weight, Tolerance.permissive())


def test_should_quantize_all_when_no_group():
    q_module = SimpleLinear(32, 32, Device.numpy()).quantize_weights(quantizer())
    assert q_module.weight.is_quantized() and q_module.bias.is_quantized()


# -- burn-nn: tests/quantize.rs --------------------------------------------------------------------


def should_quantize_module(module, quantizer, func, tolerance):
    result = func(module).to_numpy()
    q_module = module.quantize_weights(quantizer)
    assert_approx_eq(func(q_module), result, tolerance)


def test_should_quantize_transformer():
    device = Device.numpy()
    device.seed(0)
    transformer = nn.TransformerEncoder(128, 256, 2, 2, device=device)
    signal = random([2, 32, 128], device)
    should_quantize_module(
        transformer,
        quantizer(QuantLevel.block([32])),
        lambda tr: tr(signal),
        Tolerance.rel_abs(1e-2, 2e-2),  # burn's: slightly higher abs tolerance than permissive
    )


@pytest.mark.parametrize(
    "d_in, d_out, level",
    [(128, 256, None), (32, 32, None), (32, 32, QuantLevel.block([16]))],
    ids=["linear_128_256", "linear", "linear_blocks"],
)
@pytest.mark.parametrize("device", DEVICES)
def test_should_quantize_linear(d_in, d_out, level, device):
    device = device()
    Device.numpy().seed(0)
    linear = nn.Linear(d_in, d_out, bias=False, device=Device.numpy()).to_device(device)
    signal = random([1, d_in], device)
    should_quantize_module(linear, quantizer(level), lambda tr: tr(signal), Tolerance.permissive())


@pytest.mark.parametrize("level", [None, QuantLevel.block([16])], ids=["tensor", "blocks"])
def test_should_quantize_linear_weights(level):
    Device.numpy().seed(0)
    linear = nn.Linear(32, 32, bias=False, device=Device.numpy())
    should_quantize_module(
        linear, quantizer(level), lambda tr: tr.weight.dequantize(), Tolerance.permissive()
    )


# -- the quantized model as a user holds it --------------------------------------------------------


class MLP(nn.Module):
    def __init__(self, device):
        super().__init__()
        self.fc1 = nn.Linear(64, 128, device=device)
        self.fc2 = nn.Linear(128, 10, device=device)

    def forward(self, x):
        return self.fc2(self.fc1(x).relu())


def mlp(device):
    """The same weights on every device."""
    Device.numpy().seed(0)
    return MLP(Device.numpy()).to_device(device)


def test_a_quantized_model_saves_values_and_scales_in_a_quarter_of_the_file(tmp_path):
    model = mlp(Device.numpy())
    x = random([4, 64], Device.numpy())
    model.save(tmp_path / "float.safetensors")
    model.quantize_weights(quantizer())
    expected = model(x).to_numpy()
    model.save(tmp_path / "q8s.safetensors")

    size = (tmp_path / "q8s.safetensors").stat().st_size
    assert size <= 0.3 * (tmp_path / "float.safetensors").stat().st_size
    with safe_open(tmp_path / "q8s.safetensors", "numpy") as f:
        weight = model.fc1.weight
        assert f.get_tensor("fc1.weight").dtype == np.int8
        np.testing.assert_array_equal(f.get_tensor("fc1.weight"), weight.quantized_values())
        np.testing.assert_array_equal(f.get_tensor("fc1.weight.scales"), weight.quantized_scales())
        entry = json.loads(f.metadata()["burnpy.quantized"])
        index, shape = entry["tensors"]["fc1.weight"]
        assert QuantScheme.from_record(entry["schemes"][index]) == scheme() and shape == [64, 128]

    fresh = mlp(Device.numpy()).load(tmp_path / "q8s.safetensors")
    assert fresh.param_ids() == model.param_ids()
    on_autodiff = mlp(Device.numpy().autodiff()).load(tmp_path / "q8s.safetensors")
    assert on_autodiff.fc1.weight.is_quantized() and not on_autodiff.fc1.weight.is_require_grad()
    x_grad = random([4, 64], Device.numpy().autodiff()).require_grad()
    assert x_grad.grad(on_autodiff(x_grad).sum().backward()).shape == (4, 64)
    for (name, loaded), (_, saved) in zip(fresh.named_parameters(), model.named_parameters()):
        assert loaded.is_quantized() and loaded.scheme() == saved.scheme(), name
        np.testing.assert_array_equal(loaded.quantized_values(), saved.quantized_values())
        np.testing.assert_array_equal(loaded.quantized_scales(), saved.quantized_scales())
    np.testing.assert_array_equal(fresh(x).to_numpy(), expected)


def test_sub_byte_values_are_stored_packed_and_load_back(tmp_path):
    """Q4S packed into u32 words (burn's layout: eight values a word, the first lowest), also
    when the scheme keeps one int8 a value in memory."""
    model = mlp(Device.numpy())
    q4 = QuantScheme().with_value(QuantValue.Q4S).with_level(QuantLevel.block([32]))
    q4 = q4.with_store(QuantStore.NATIVE)
    model.quantize_weights(nn.Quantizer(scheme=q4, params=["fc1.weight"]))
    model.save(tmp_path / "q4.safetensors")
    values = model.fc1.weight.quantized_values()
    with safe_open(tmp_path / "q4.safetensors", "numpy") as f:
        words = f.get_tensor("fc1.weight")
    assert words.dtype == np.uint32 and words.size == values.size // 8
    first = [int(v) & 0xF for v in values.reshape(-1)[:8]]
    assert int(words[0]) == sum(v << (4 * i) for i, v in enumerate(first))
    fresh = mlp(Device.numpy()).load(tmp_path / "q4.safetensors")
    assert fresh.fc1.weight.scheme() == q4
    np.testing.assert_array_equal(fresh.fc1.weight.quantized_values(), values)
    assert not fresh.fc1.bias.is_quantized()


@pytest.mark.parametrize("device", DEVICES)
def test_dequantize_weights_gives_float_parameters_back(device):
    model = mlp(device()).quantize_weights(quantizer())
    dequantized = [p.dequantize().to_numpy() for p in model.parameters()]
    ids = model.param_ids()
    assert model.dequantize_weights() is model
    assert model.param_ids() == ids
    for param, expected in zip(model.parameters(), dequantized):
        assert not param.is_quantized() and param.dtype == np.float32
        np.testing.assert_array_equal(param.to_numpy(), expected)
        assert param.is_require_grad() == param.is_autodiff()  # a Grad leaf again


def test_loading_a_float_record_or_state_dict_gives_floats(tmp_path):
    float_model = mlp(Device.numpy())
    float_model.save(tmp_path / "float.safetensors")
    quantized = mlp(Device.numpy()).quantize_weights(quantizer())
    state = quantized.state_dict()  # a quantized parameter as its dequantized values
    assert state["fc1.weight"].dtype == np.float32
    np.testing.assert_array_equal(state["fc1.weight"], quantized.fc1.weight.dequantize().to_numpy())
    quantized.load(tmp_path / "float.safetensors")
    assert not any(p.is_quantized() for p in quantized.parameters())
    np.testing.assert_array_equal(
        quantized.fc1.weight.to_numpy(), float_model.fc1.weight.to_numpy()
    )
    other = mlp(Device.numpy())
    other.load_state_dict(mlp(Device.numpy()).quantize_weights(quantizer()).state_dict())
    assert not other.fc1.weight.is_quantized()


def test_on_an_autodiff_device_only_the_float_parameters_train():
    device = Device.numpy().autodiff()
    model = mlp(device).quantize_weights(quantizer(params=["fc1.weight", "fc1.bias"]))
    frozen = model.fc1.weight.quantized_values().copy()
    assert not model.fc1.weight.is_require_grad()
    x = random([4, 64], device)
    grads = model(x).sum().backward()
    assert model.fc1.weight.grad(grads) is None
    assert model.fc2.weight.grad(grads) is not None
    before = model.fc2.weight.to_numpy()
    optim.SGD(0.1).step(model, grads)
    np.testing.assert_array_equal(model.fc1.weight.quantized_values(), frozen)
    assert not np.array_equal(model.fc2.weight.to_numpy(), before)
    valid = model.valid()  # the inner device, still quantized
    assert valid.fc1.weight.is_quantized() and not valid.fc1.weight.is_autodiff()


def test_a_bad_quantizer_says_what_is_wrong():
    model = mlp(Device.numpy())
    with pytest.raises(ValueError, match=r"\['fc9.weight'\] are not parameters"):
        model.quantize_weights(quantizer(params=["fc9.weight"]))
    assert not any(p.is_quantized() for p in model.parameters())  # nothing half-done
    with pytest.raises(TypeError, match=r"params=\['fc.weight'\]"):
        quantizer(params="fc.weight")
    with pytest.raises(TypeError, match="must be a QuantScheme"):
        nn.Quantizer(scheme=QuantValue.Q8S)


def test_a_predicate_selects_parameters_by_name():
    model = mlp(Device.numpy()).quantize_weights(quantizer(params=lambda n: n.endswith("weight")))
    assert [p.is_quantized() for p in model.parameters()] == [True, False, True, False]
    assert "quantized" in repr(model)


def test_the_scheme_store_and_param_survive_the_record(tmp_path):
    native = scheme(QuantLevel.block([16])).with_store(QuantStore.NATIVE).with_param(QuantParam.F16)
    model = mlp(Device.numpy()).quantize_weights(nn.Quantizer(scheme=native, params=["fc1.weight"]))
    model.save(tmp_path / "m.safetensors")
    fresh = mlp(Device.numpy()).load(tmp_path / "m.safetensors")
    assert fresh.fc1.weight.scheme() == native
    np.testing.assert_array_equal(
        fresh.fc1.weight.dequantize().to_numpy(), model.fc1.weight.dequantize().to_numpy()
    )
