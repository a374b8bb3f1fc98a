"""DLPack: tensors share memory with numpy and torch both ways, and export no graph."""

import numpy as np
import pytest

from burnpy.generated import Device, Tensor


def test_numpy_reads_a_tensor_without_a_copy():
    tensor = Tensor.from_data(np.arange(6.0).reshape(2, 3), device=Device.numpy())
    array = np.from_dlpack(tensor)
    assert array.shape == (2, 3) and array.dtype == np.float64
    assert np.shares_memory(array, tensor.primitive)  # the very memory of the tensor
    assert tensor.__dlpack_device__() == array.__dlpack_device__()


def test_a_tensor_wraps_numpy_memory_without_a_copy():
    source = np.arange(4, dtype=np.int32)
    tensor = Tensor.from_dlpack(source)
    assert tensor.dtype == np.int32 and tensor.device() == Device.numpy()
    source[0] = 40  # the same memory: the tensor sees the write
    assert tensor.tolist() == [40, 1, 2, 3]
    assert Tensor.from_dlpack(np.array([True, False])).tolist() == [True, False]


def test_the_export_of_a_tracked_tensor_is_detached():
    x = Tensor.from_data([1.0, 2.0], device=Device.numpy().autodiff()).require_grad()
    y = x * 3.0
    array = np.from_dlpack(y)
    np.testing.assert_array_equal(array, [3.0, 6.0])
    assert isinstance(array, np.ndarray)  # data only: no graph goes with it
    leaf = Tensor.from_dlpack(array, device=Device.numpy().autodiff())
    assert leaf.is_autodiff() and not leaf.is_tracked()


def test_an_unsupported_dtype_is_a_type_error():
    with pytest.raises(TypeError, match="from_dlpack: dtype complex64 is not supported"):
        Tensor.from_dlpack(np.zeros(2, np.complex64))


def test_torch_and_tensors_share_memory_both_ways():
    torch = pytest.importorskip("torch")
    source = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    tensor = Tensor.from_dlpack(source, device=Device.torch())
    assert tensor.shape == (2, 3) and tensor.device() == Device.torch()
    source[0, 0] = 7.0
    assert tensor.to_numpy()[0, 0] == 7.0
    back = torch.from_dlpack(tensor)
    assert back.data_ptr() == source.data_ptr()
    # across libraries: a numpy-backend tensor read by torch, and the other way round
    plain = Tensor.from_data(np.ones(3, np.float32), device=Device.numpy())
    assert torch.from_dlpack(plain).data_ptr() == np.from_dlpack(plain).ctypes.data
    shared = Tensor.from_dlpack(source)  # a torch tensor onto the numpy backend
    assert np.from_dlpack(shared).ctypes.data == source.data_ptr()
