"""burnpy.capture keeps a module's walk between calls (burnpy.capture.trees): a replay reuses it
while the module holds what it held, and anything that changes what the walk would find (a
tensor, its shape or dtype, a setting, a child module, a buffer's values, a list's items) must
still give numpy's values, through a new recording where the signature or a guard says so."""

import numpy as np
import pytest

from burnpy import capture, nn
from burnpy.capture import signature
from burnpy.generated import Device, Tensor

DEVICE = Device.numpy()


def ints(t: Tensor) -> list:
    return [int(v) for v in t.to_numpy()]


def tensor(array, device=DEVICE) -> Tensor:
    return Tensor.from_data(np.asarray(array), device=device)


class Block(nn.Module):
    def __init__(self, weight, device=DEVICE):
        super().__init__()
        self.weight = tensor(weight, device)
        self.offset = 1.0  # a setting

    def forward(self, x):
        return x.matmul(self.weight) + self.offset


class Net(nn.Module):
    """A block, a float it scales by, and two int buffers a shape is computed from (as an
    imported model holds its constants)."""

    def __init__(self, weight, device=DEVICE):
        super().__init__()
        self.block = Block(weight, device)
        self.row = tensor(np.full((1, 1), 3.0, np.float32), device)
        self.register_buffer("heads", tensor(np.array([2]), device))
        self.register_buffer("tail", tensor(np.array([-1]), device))

    def forward(self, x):
        y = self.block(x) * self.row
        size = Tensor.from_data(np.array(y.shape[:1]), device=x.device())
        shape = Tensor.cat([size, self.heads.cast("int64"), self.tail.cast("int64")], 0)
        return y.reshape(ints(shape))


def expected(model: Net, x: np.ndarray) -> np.ndarray:
    """The step's values in numpy, from what the model holds now."""
    block = model.block
    y = (x @ block.weight.to_numpy() + block.offset) * model.row.to_numpy()
    return y.reshape(len(x), int(model.heads.to_numpy()[0]), int(model.tail.to_numpy()[0]))


def weights(rows, columns, seed=0):
    return np.random.default_rng(seed).standard_normal((rows, columns)).astype(np.float32)


def forward(model, x):
    return model(x)


CHANGES = {
    # name -> what it does to the model (after two calls: a recording and a replay)
    "a tensor replaced": lambda m: setattr(m.block, "weight", tensor(weights(8, 8, 1))),
    "a tensor of another shape": lambda m: setattr(m.block, "weight", tensor(weights(8, 4, 1))),
    "tensors of another dtype": lambda m: (
        setattr(m, "heads", tensor(np.array([2], np.int32))),
        setattr(m, "tail", tensor(np.array([-1], np.int32))),
    ),
    "a tensor's values written in place": lambda m: m.block.weight.primitive.__setitem__(
        (0, slice(None)), 5.0
    ),
    "a tensor's array reshaped in place": lambda m: setattr(m.row.primitive, "shape", (1,)),
    "a setting": lambda m: setattr(m.block, "offset", 2.5),
    "a child module replaced": lambda m: setattr(m, "block", Block(weights(8, 8, 2))),
    "a buffer replaced": lambda m: setattr(m, "heads", tensor(np.array([4]))),
    "a buffer's values written in place": lambda m: m.heads.primitive.__setitem__(0, 4),
    "the training mode": lambda m: m.eval(),
}


@pytest.mark.parametrize("compile", [False, True], ids=["replay", "compiled"])
@pytest.mark.parametrize("change", list(CHANGES))
def test_what_changes_in_a_kept_module_tree_shows_in_the_next_call(change, compile):
    model = Net(weights(8, 8))
    x = np.random.default_rng(3).standard_normal((3, 8)).astype(np.float32)
    step = capture(forward, compile=compile)
    for _ in range(2):
        np.testing.assert_allclose(step(model, tensor(x)).to_numpy(), expected(model, x), 1e-5)
    CHANGES[change](model)
    for _ in range(2):  # (a new recording or a replay, then a replay)
        out = step(model, tensor(x)).to_numpy()
        np.testing.assert_allclose(out, expected(model, x), 1e-5)


@pytest.mark.parametrize("compile", [False, True], ids=["replay", "compiled"])
def test_buffers_written_in_place_on_torch_record_again(compile):
    pytest.importorskip("torch")
    device = Device.torch()
    model = Net(weights(8, 8), device)
    x = np.random.default_rng(3).standard_normal((3, 8)).astype(np.float32)
    step = capture(forward, compile=compile)
    for heads in (2, 2, 4, 4):
        model.heads.primitive[0] = heads
        out = step(model, tensor(x, device)).to_numpy()
        np.testing.assert_allclose(out, expected(model, x), 1e-5)
    assert "same_values_of(" in step.source()


def test_a_replay_of_an_unchanged_module_does_not_walk_it_again(monkeypatch):
    model = Net(weights(8, 8))
    x = tensor(np.ones((3, 8), np.float32))
    step = capture(forward)
    step(model, x)
    walks = []
    walk = signature.Arguments._module_tree
    monkeypatch.setattr(
        signature.Arguments,
        "_module_tree",
        lambda self, *args: walks.append(args[1]) or walk(self, *args),
    )
    step(model, x)
    step(model, x)
    assert walks == []
    other = Net(weights(8, 8, 4))  # another model of the same signature: walked once
    np.testing.assert_allclose(step(other, x).to_numpy(), expected(other, x.to_numpy()), 1e-5)
    step(other, x)
    assert len([w for w in walks if w is other]) == 1
    assert len(step.signatures) == 1


class Stack(nn.Module):
    """Tensors in a list: items that change without an assignment to the module."""

    def __init__(self, count):
        super().__init__()
        self.weights = [tensor(weights(4, 4, seed)) for seed in range(count)]

    def forward(self, x):
        for weight in self.weights:
            x = x.matmul(weight)
        return x


@pytest.mark.parametrize("compile", [False, True], ids=["replay", "compiled"])
def test_a_list_changed_in_place_shows_in_the_next_call(compile):
    model = Stack(2)
    x = np.ones((2, 4), np.float32)
    step = capture(forward, compile=compile)

    def expected():
        out = x
        for weight in model.weights:
            out = out @ weight.to_numpy()
        return out

    for item in (None, weights(4, 4, 7), weights(4, 2, 8)):  # (another shape: another signature)
        if item is not None:
            model.weights[1] = tensor(item)
        for _ in range(2):
            np.testing.assert_allclose(step(model, tensor(x)).to_numpy(), expected(), 1e-5)
    assert len(step.signatures) == 2


def summed(first, *rest):
    out = first
    for item in rest:
        out = out + item
    return out * 2.0


def test_a_step_of_rest_arguments_binds_them_as_a_tuple():
    step = capture(summed)
    arrays = [np.full((2, 3), float(i), np.float32) for i in range(4)]
    for count in (1, 3, 3, 4, 4, 1):
        out = step(*[tensor(a) for a in arrays[:count]])
        np.testing.assert_array_equal(out.to_numpy(), sum(arrays[:count]) * 2.0)
    assert len(step.signatures) == 3
