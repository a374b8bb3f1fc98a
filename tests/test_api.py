"""The public API decisions (docs/design.md#values-dtypes-and-scalars): values, dtypes,
scalars, handles, devices."""

import numpy as np
import pytest

from burnpy.generated import Device, Distribution, GradientCheckpointingStrategy, Tensor

CPU = Device.numpy()
AD = CPU.autodiff()
CK = AD.gradient_checkpointing()


# -- values and dtypes ---------------------------------------------------------------------------


def test_from_data_infers_the_kind_and_dtype():
    assert Tensor.from_data([1.5, 2.0]).dtype == np.float32
    assert Tensor.from_data([1, 2]).dtype == np.int64
    assert Tensor.from_data([True, False]).dtype == np.bool_
    assert Tensor.from_data(np.array([1, 2], dtype=np.int32)).dtype == np.int32
    assert Tensor.from_data(np.array([1.0], dtype=np.float64)).dtype == np.float64
    assert Tensor.from_data([1, 2], dtype="float16").dtype == np.float16  # dtype= wins
    assert isinstance(Tensor.from_data([1.0]).dtype, np.dtype)
    assert Tensor.from_data([[1.0, 2.0]]).shape == (1, 2)


def test_from_data_copies_and_to_numpy_returns_a_copy():
    source = np.array([1.0, 2.0], dtype=np.float32)
    t = Tensor.from_data(source)
    source[0] = 99.0
    out = t.to_numpy()
    out[1] = -1.0
    assert t.to_numpy().tolist() == [1.0, 2.0]
    assert np.asarray(t).tolist() == [1.0, 2.0]
    with pytest.raises(ValueError):
        (
            np.asarray(t, copy=False)
            if np.lib.NumpyVersion(np.__version__) >= "2.0.0"
            else t.__array__(copy=False)
        )


@pytest.mark.parametrize(
    "dtype",
    ["complex64", "datetime64[s]", "float128" if hasattr(np, "float128") else "complex128"],
)
def test_unsupported_dtypes_are_refused(dtype):
    with pytest.raises(TypeError, match="not supported"):
        Tensor.zeros([2], dtype=dtype)


@pytest.mark.parametrize("dtype", ["int16", "int8", "uint64", "uint32", "uint16", "uint8"])
@pytest.mark.parametrize("device", [Device.numpy, Device.torch], ids=["numpy", "torch"])
def test_the_narrower_int_widths_are_held_and_converted_and_refused_by_arithmetic(dtype, device):
    """burn's IntDType: made, reshaped, cast, concatenated, moved and converted; arithmetic
    names the dtypes it takes (torch has few kernels for uint16..uint64)."""
    t = Tensor.from_data(np.array([[1, 2], [3, 120]], dtype=dtype), device=device())
    assert t.dtype == dtype and Tensor.zeros([2], dtype=dtype, device=device()).dtype == dtype
    assert Tensor.cat([t, t], 0).reshape([8]).tolist() == [1, 2, 3, 120] * 2
    assert t.cast("int64").dtype == np.int64 and t.float().tolist() == [[1.0, 2.0], [3.0, 120.0]]
    assert t.to_device(Device.numpy()).dtype == dtype
    assert Tensor.from_data([1.9, 2.0], device=device()).int(dtype).tolist() == [1, 2]
    with pytest.raises(TypeError, match=f"int_add does not support {dtype}; it takes int64, int32"):
        t + t


def test_rank_zero_tensors_and_full_reductions():
    scalar = Tensor.from_data(3.0)
    assert scalar.shape == () and scalar.item() == 3.0
    assert Tensor.ones([2, 3]).sum().shape == (1,)
    assert Tensor.ones([2, 3]).mean().shape == (1,)
    assert scalar.sum().shape == (1,)


def test_scalars_take_the_tensors_dtype():
    half = Tensor.from_data([1.0, 2.0], dtype="float16")
    assert (half * 2.5).dtype == np.float16
    assert (half + np.float64(1.0)).dtype == np.float16  # no NEP 50 upcast
    ints = Tensor.from_data([1, 2], dtype="int32")
    assert (ints + 2).dtype == np.int32
    with pytest.raises(TypeError, match="integer scalar"):
        ints + 2.5


def test_mixing_dtypes_or_kinds_raises_a_type_error_naming_the_fix():
    with pytest.raises(TypeError, match=r"cast\('float32'\)"):
        Tensor.ones([2]) + Tensor.ones([2], dtype="float64")
    with pytest.raises(TypeError, match=r"float\(\)"):
        Tensor.ones([2]) + Tensor.from_data([1, 2])


def test_shapes_dims_and_broadcasting():
    t = Tensor.from_data(np.arange(12, dtype=np.float32).reshape(3, 4))
    assert t.sum_dim(1).shape == (3, 1)
    assert t.sum_dim(-1).to_numpy().tolist() == t.sum_dim(1).to_numpy().tolist()
    assert t.mean_dim(0).shape == (1, 4)
    assert t.transpose().shape == (4, 3)
    assert t.reshape([2, -1]).shape == (2, 6)
    assert (t + Tensor.ones([4])).shape == (3, 4)
    with pytest.raises(ValueError, match="out of range"):
        t.sum_dim(2)
    with pytest.raises(ValueError, match="holds 10 elements"):
        t.reshape([2, 5])
    with pytest.raises(ValueError):
        t + Tensor.ones([3])


# -- handles ---------------------------------------------------------------------------------


def test_require_grad_and_detach_return_new_handles():
    leaf = Tensor.from_data([1.0, 2.0], device=AD)
    tracked = leaf.require_grad()
    assert not leaf.is_require_grad() and tracked.is_require_grad()
    assert tracked.node_id() == leaf.node_id()
    detached = tracked.detach()
    assert tracked.is_require_grad() and detached.is_require_grad()  # a new Grad leaf
    assert detached.node_id() != tracked.node_id()
    out = tracked * 2.0
    assert out.detach().is_autodiff() and not out.detach().is_tracked()


def test_untracked_alias_of_a_leaf_gets_no_gradient():
    leaf = Tensor.from_data([1.0, 2.0], device=AD)
    tracked = leaf.require_grad()
    grads = (tracked * 3.0).sum().backward()
    assert tracked.grad(grads).to_numpy().tolist() == [3.0, 3.0]
    assert leaf.grad(grads) is None  # burn 0.22.1: the untracked alias has no gradient
    assert tracked.grad_remove(grads).to_numpy().tolist() == [3.0, 3.0]
    assert tracked.grad(grads) is None


def test_scalar_and_tensor_operands_and_reflected_operators():
    t = Tensor.from_data([1.0, 2.0])
    assert t.add(2.0).tolist() == [3.0, 4.0]
    assert t.add(t).tolist() == [2.0, 4.0]
    assert (2.0 - t).tolist() == [1.0, 0.0]
    assert (2.0 * t).tolist() == [2.0, 4.0]
    assert (1.0 + t).tolist() == [2.0, 3.0]
    assert (4.0 / t).tolist() == [4.0, 2.0]
    assert (-t).tolist() == [-1.0, -2.0]
    assert (t**2).tolist() == [1.0, 4.0]
    assert (t @ Tensor.from_data([[1.0], [1.0]])).tolist() == [3.0]


def test_comparisons_give_bool_tensors_and_hash_is_identity():
    t = Tensor.from_data([1.0, 2.0])
    assert (t == 1.0).tolist() == [True, False]
    assert (t == t).dtype == np.bool_
    assert (t > 1.5).tolist() == [False, True]
    assert (t < Tensor.from_data([2.0, 2.0])).tolist() == [True, False]
    assert len({t, t, Tensor.from_data([1.0, 2.0])}) == 2
    with pytest.raises(ValueError, match="ambiguous"):
        bool(t)
    assert bool(Tensor.from_data([1.0]))


def test_kind_conversions():
    f = Tensor.from_data([1.7, -1.7, 0.0])
    assert f.int().tolist() == [1, -1, 0]  # truncates toward zero
    assert f.bool().tolist() == [True, True, False]
    assert Tensor.from_data([0, 3]).float().dtype == np.float32
    assert Tensor.from_data([True, False]).int().tolist() == [1, 0]
    assert Tensor.from_data([1, 2]).int().dtype == np.int64


def test_backward_on_a_non_scalar_root_seeds_ones():
    x = Tensor.from_data([1.0, 2.0, 3.0], device=AD).require_grad()
    grads = (x * x).backward()
    assert x.grad(grads).tolist() == [2.0, 4.0, 6.0]


# -- devices ---------------------------------------------------------------------------------


def test_gradient_checkpointing_needs_autodiff():
    with pytest.raises(RuntimeError) as error:
        CPU.gradient_checkpointing()
    assert str(error.value) == "Autodiff is not enabled on this device"
    assert (
        CK.autodiff() is CK
        and CK.gradient_checkpointing_strategy() is GradientCheckpointingStrategy.Balanced
    )
    assert CPU.gradient_checkpointing_strategy() is None


def test_any_declared_backend_is_reachable_by_name():
    assert Device.of("numpy") == CPU and repr(Device.of("numpy")) == "Device<NumPy(Cpu)>"
    with pytest.raises(ValueError, match="no backend named 'jax'; ops.yaml declares numpy"):
        Device.of("jax")
    with pytest.raises(ValueError, match="has no device 'cuda:0'"):
        Device.of("numpy", "cuda:0")


def test_default_device_and_seeded_random():
    assert Tensor.zeros([1]).device() == CPU and not Tensor.zeros([1]).is_autodiff()
    CPU.seed(7)
    first = Tensor.random([3], Distribution.normal(0.0, 1.0)).tolist()
    CPU.seed(7)
    assert Tensor.random([3], Distribution.normal(0.0, 1.0)).tolist() == first
    uniform = Tensor.random([1000], Distribution.uniform(2.0, 3.0)).to_numpy()
    assert uniform.min() >= 2.0 and uniform.max() < 3.0
    assert Tensor.random([2], device=AD, dtype="float64").dtype == np.float64


def test_arange_takes_an_optional_positive_step():
    """`arange(start, end, step=1, device=)`, routed to burn's int_arange_step."""
    assert Tensor.arange(-2, 3).tolist() == [-2, -1, 0, 1, 2]
    assert Tensor.arange(1, 10, 4, dtype="int32").tolist() == [1, 5, 9]
    assert Tensor.arange(1, 10, step=4).tolist() == [1, 5, 9]
    assert Tensor.arange(3, 1).shape == (0,)
    for step in (0, -1):  # burn's step is a usize: positive
        with pytest.raises(ValueError, match="step must be a positive int"):
            Tensor.arange(0, 5, step)


def test_to_device_between_plain_and_autodiff():
    plain = Tensor.from_data([1.0, 2.0])
    lifted = plain.to_device(CK)
    assert lifted.is_autodiff() and not lifted.is_tracked()
    assert lifted.gradient_checkpointing_strategy() is GradientCheckpointingStrategy.Balanced
    tracked = lifted.require_grad() * 2.0
    lowered = tracked.to_device(CPU)
    assert not lowered.is_autodiff() and lowered.tolist() == [2.0, 4.0]
    ints = Tensor.from_data([1, 2]).to_device(AD)
    assert (
        ints.is_autodiff()
        and ints.device() == AD
        and ints.to_device(CPU).device().is_autodiff() is False
    )
    assert plain.autodiff().device().is_autodiff() and lifted.autodiff() is lifted


def test_autodiff_to_autodiff_move_keeps_the_graph_edge():
    x = Tensor.from_data([1.0, 2.0], device=AD).require_grad()
    moved = (x * 3.0).to_device(AD)
    grads = moved.sum().backward()
    assert x.grad(grads).tolist() == [3.0, 3.0]


@pytest.mark.parametrize(
    "device",
    [Device.numpy(), Device.numpy().autodiff(), Device.torch().autodiff().gradient_checkpointing()],
    ids=["plain", "autodiff", "torch-balanced"],
)
@pytest.mark.parametrize("copier", ["pickle", "deepcopy"])
def test_a_tensor_survives_pickle_and_deepcopy_as_a_new_tensor(device, copier):
    import copy
    import pickle

    tracked = "Autodiff" in repr(device)
    t = Tensor.from_data([[1.5, -2.0]], device=device, dtype="float64")
    t = t.require_grad() if tracked else t
    u = pickle.loads(pickle.dumps(t)) if copier == "pickle" else copy.deepcopy(t)
    assert u.device() == device and repr(u.device()) == repr(device)
    assert u.dtype == t.dtype and u.is_require_grad() == tracked
    np.testing.assert_array_equal(u.to_numpy(), t.to_numpy())
    if tracked:  # a leaf of its own: its own id, its own gradient
        assert u.node_id() != t.node_id()
        np.testing.assert_array_equal(u.grad((u * u).sum().backward()).to_numpy(), [[3.0, -4.0]])
