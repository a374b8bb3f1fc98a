"""What quantization refuses, and what it computes at float32's limits: NaN and ±inf in a tensor
to calibrate or in a model's weights, scales that are NaN, negative or beyond their dtype, and
records whose quantization metadata was altered (each error names the file and the tensor)."""

import json

import numpy as np
import pytest
from safetensors.numpy import save_file

from burnpy import nn
from burnpy.generated import Device, QuantLevel, QuantParam, QuantScheme, QuantValue, Tensor
from burnpy.nn.record import _QUANTIZED

BACKENDS = ["numpy", "torch"]
Q8S = QuantScheme().with_value(QuantValue.Q8S)
SCHEMES = {"tensor": Q8S, "block": Q8S.with_level(QuantLevel.block([2]))}
F32_MAX = float(np.finfo(np.float32).max)


def tensor(values, backend):
    return Tensor.from_data(np.array(values, dtype=np.float32), device=Device.of(backend))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("level", list(SCHEMES))
@pytest.mark.parametrize("special", [np.nan, np.inf, -np.inf])
def test_quantize_dynamic_refuses_nan_and_inf_naming_the_call(backend, level, special):
    x = tensor([1.0, -2.0, special, 0.5, 3.0, 4.0, -1.0, 2.0], backend)
    kind = "NaN" if np.isnan(special) else "infinite"
    message = rf"quantize_dynamic: the tensor holds 1 {kind} value\(s\) among 8"
    with pytest.raises(ValueError, match=message):
        x.quantize_dynamic(SCHEMES[level])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("value", [QuantValue.Q8S, QuantValue.Q8F, QuantValue.Q4S, QuantValue.Q2S])
def test_values_near_float32s_limits_quantize_without_overflow(backend, value):
    """burn's `2 · max / (b - a)` overflows at 2 · 3e38; the scale is the same float32 value
    computed as `max / ((b - a) / 2)`. Every value comes back finite, within half a scale,
    but float32's max, whose integer is the largest that keeps `q · scale` finite (within a
    scale)."""
    data = np.array([3e38, -3e38, F32_MAX, 1.0e30], dtype=np.float32)
    scheme = QuantScheme().with_value(value)
    q = tensor(data, backend).quantize_dynamic(scheme)
    a, b = value.range
    (scale,) = q.quantized_scales().reshape(-1)
    assert scale == np.float32(F32_MAX) / np.float32((b - a) / 2)  # numpy's float32 division
    values = q.quantized_values().tolist()
    assert values[2] == min(b, np.floor(F32_MAX / np.float64(scale)))
    assert values[1] == -values[0]
    back = q.dequantize().to_numpy()
    assert np.isfinite(back).all()
    error = np.abs(back.astype(np.float64) - data)
    assert (error[[0, 1, 3]] <= scale / 2 * (1 + 1e-6)).all() and error[2] <= scale


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_scale_is_burns_where_burns_formula_does_not_overflow(backend):
    rng = np.random.default_rng(0)
    data = (rng.standard_normal(64) * 1e37).astype(np.float32)
    q = tensor(data, backend).quantize_dynamic(Q8S)
    largest = np.abs(data).max()
    burns = np.float32(2) * largest / np.float32(254)  # 2 · max / (b - a), in float32
    assert np.isfinite(burns) and q.quantized_scales().reshape(-1)[0] == burns


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_scale_beyond_its_dtype_is_refused(backend):
    x = tensor([3e38, 1.0], backend)
    with pytest.raises(ValueError, match=r"does not fit the scheme's scale dtype \(float16\)"):
        x.quantize_dynamic(Q8S.with_param(QuantParam.F16))
    # bfloat16 has float32's range
    q = x.quantize_dynamic(Q8S.with_param(QuantParam.BF16))
    assert np.isfinite(q.dequantize().to_numpy()).all()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("bad", [np.nan, -0.5, np.inf])
def test_quantize_refuses_a_scale_that_is_nan_negative_or_infinite(backend, bad):
    with pytest.raises(ValueError, match="quantize: scales must be finite and non-negative"):
        tensor([1.0, 2.0], backend).quantize(Q8S, tensor([bad], backend))


@pytest.mark.parametrize("backend", BACKENDS)
def test_quantize_with_given_scales_refuses_nan_and_saturates_inf(backend):
    scale = tensor([0.1], backend)
    with pytest.raises(ValueError, match=r"quantize: the tensor holds 1 NaN value\(s\) among 3"):
        tensor([1.0, np.nan, 2.0], backend).quantize(Q8S, scale)
    q = tensor([np.inf, -np.inf, 3e38, 1.0], backend).quantize(Q8S, scale)
    assert q.quantized_values().tolist() == [127, -127, 127, 10]


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_empty_tensor_quantizes_with_a_zero_scale(backend):
    q = tensor(np.zeros(0), backend).quantize_dynamic(Q8S)
    assert q.is_quantized() and tuple(q.shape) == (0,)
    assert q.quantized_scales().tolist() == [0.0]


@pytest.mark.parametrize("backend", BACKENDS)
def test_quantize_weights_names_the_parameter_and_changes_nothing(backend):
    model = nn.Sequential(
        nn.Linear(4, 4, device=Device.of(backend)), nn.Linear(4, 2, device=Device.of(backend))
    )
    weight = model[1].weight.to_numpy().copy()
    weight[0, 1] = np.nan
    weight[1, 1] = -np.inf
    model[1].weight = Tensor.from_data(weight, device=Device.of(backend))
    with pytest.raises(ValueError, match="parameter '1.weight' holds 1 NaN and 1 infinite"):
        model.quantize_weights(nn.Quantizer(scheme=Q8S))
    assert not any(p.is_quantized() for p in model.parameters())  # not even the first layer's
    # values at float32's limits quantize
    weight[0, 1], weight[1, 1] = 3e38, -3e38
    model[1].weight = Tensor.from_data(weight, device=Device.of(backend))
    model.quantize_weights(nn.Quantizer(scheme=Q8S))
    assert np.isfinite(model[1].weight.dequantize().to_numpy()).all()


# -- records whose quantization metadata was altered --------------------------------------------


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A record of a Linear whose weight is quantized (Q8S, blocks of 2) and bias float."""
    path = tmp_path_factory.mktemp("record") / "model.safetensors"
    model = nn.Linear(8, 2, device=Device.numpy())
    model.quantize_weights(nn.Quantizer(scheme=SCHEMES["block"], params=["weight"]))
    model.save(path)
    from safetensors import safe_open

    with safe_open(str(path), framework="numpy") as f:
        return {k: f.get_tensor(k) for k in f.keys()}, f.metadata()


def altered(tmp_path, saved, change) -> str:
    tensors, metadata = saved
    tensors = {k: v.copy() for k, v in tensors.items()}
    quantized = json.loads(metadata[_QUANTIZED])
    change(tensors, quantized)
    path = tmp_path / "altered.safetensors"
    save_file(tensors, str(path), metadata={**metadata, _QUANTIZED: json.dumps(quantized)})
    return str(path)


def set_scale(value):
    def change(tensors, _):
        tensors["weight.scales"].reshape(-1)[1] = value

    return change


def set_index(index):
    def change(_, quantized):
        quantized["tensors"]["weight"][0] = index

    return change


def change_scales_shape(tensors, _):
    tensors["weight.scales"] = tensors["weight.scales"].reshape(-1)


def out_of_range_value(tensors, _):
    tensors["weight"].reshape(-1)[3] = -128  # Q8S is -127..127


def drop_scales(tensors, _):
    del tensors["weight.scales"]


def a_text_scheme(_, quantized):
    quantized["schemes"][0]["value"] = "__import__('os')"


ALTERED = {
    "NaN scale": (set_scale(np.nan), "its scales must be finite and non-negative"),
    "negative scale": (set_scale(-0.25), "its scales must be finite and non-negative"),
    "infinite scale": (set_scale(np.inf), "its scales must be finite and non-negative"),
    "scheme index -1": (set_index(-1), r"scheme index -1 is not one of 0..0"),
    "scheme index 7": (set_index(7), r"scheme index 7 is not one of 0..0"),
    "scheme index '0'": (set_index("0"), r"scheme index '0' is not one of 0..0"),
    "scales of another shape": (change_scales_shape, r"where its scheme .* takes float32 of"),
    "value outside the range": (out_of_range_value, r"values outside Q8S's range \[-127, 127\]"),
    "no scales": (drop_scales, r"the file lacks its values or its scales"),
    "unknown scheme": (a_text_scheme, r"scheme 0: QuantScheme.from_record: not a scheme"),
}


@pytest.mark.parametrize("case", list(ALTERED))
def test_an_altered_records_quantization_is_refused_naming_file_and_tensor(tmp_path, saved, case):
    change, message = ALTERED[case]
    path = altered(tmp_path, saved, change)
    model = nn.Linear(8, 2, device=Device.numpy())
    before = model.weight.to_numpy().copy()
    head = "" if case == "unknown scheme" else "quantized tensor 'weight': "
    with pytest.raises(ValueError, match=f"{path}: {head}.*{message}"):
        model.load(path)
    np.testing.assert_array_equal(model.weight.to_numpy(), before)  # nothing loaded


def test_a_records_parameter_ids_must_be_integers(tmp_path, saved):
    tensors, metadata = saved
    ids = {name: str(value) for name, value in json.loads(metadata["burnpy.param_ids"]).items()}
    path = tmp_path / "ids.safetensors"
    save_file(tensors, str(path), metadata={**metadata, "burnpy.param_ids": json.dumps(ids)})
    with pytest.raises(ValueError, match=rf"{path}: the parameter ids of .* are not non-negative"):
        nn.Linear(8, 2, device=Device.numpy()).load(path)


def test_the_unaltered_record_loads_quantized(saved, tmp_path):
    path = altered(tmp_path, saved, lambda *_: None)
    model = nn.Linear(8, 2, device=Device.numpy()).load(path)
    assert model.weight.is_quantized() and not model.bias.is_quantized()
