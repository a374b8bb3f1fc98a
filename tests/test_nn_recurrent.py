"""Recurrent layers: burn's unit tests (rnn/*.rs) with its data and tolerances on both
backends; Rnn, Lstm, Gru and their bidirectional forms against PyTorch's RNN, LSTM and GRU with
copied weights (outputs, states and every parameter's gradient, in float64); parameter
gradients against central finite differences on tiny shapes."""

import numpy as np
import pytest
import torch

from burn.burncheck import DEVICES, Tolerance, assert_approx_eq
from burnpy import nn
from burnpy.generated import Device, Tensor


def t(data, device, dtype=np.float32):
    return Tensor.from_data(np.asarray(data, dtype=dtype), device=device)


def set_gate(gate, weight, bias, device, dtype=np.float32):
    """Both transforms of a GateController get the same [[weight]] and [bias], as burn's
    tests' create_gate_controller does."""
    for linear in (gate.input_transform, gate.hidden_transform):
        linear.weight = t([[weight]], device, dtype)
        linear.bias = t([bias], device, dtype)


# -- burn's unit tests ---------------------------------------------------------------------------
@pytest.mark.parametrize("make_device", DEVICES)
def test_burn_lstm_forward_single_input_single_feature(make_device):
    d = make_device()
    lstm = nn.Lstm(1, 1, False, device=d)
    for gate, weight in (("input", 0.5), ("forget", 0.7), ("cell", 0.9), ("output", 1.1)):
        set_gate(getattr(lstm, f"{gate}_gate"), weight, 0.0, d)
    output, state = lstm(t([[[0.1]]], d))
    assert_approx_eq(state.cell, [[0.046]], Tolerance.default())
    assert_approx_eq(state.hidden, [[0.0242]], Tolerance.default())
    assert_approx_eq(output.reshape([1, 1]), state.hidden.to_numpy(), Tolerance.default())


@pytest.mark.parametrize("make_device", DEVICES)
def test_burn_lstm_uniform_initializer_and_shapes(make_device):
    d = make_device()
    lstm = nn.Lstm(5, 5, False, initializer=nn.init.uniform(0.0, 1.0), device=d)
    for gate in ("input_gate", "forget_gate", "output_gate", "cell_gate"):
        weight = getattr(lstm, gate).input_transform.weight.to_numpy()
        assert ((weight >= 0) & (weight < 1)).all()
    lstm = nn.Lstm(64, 1024, True, device=d)
    for batch, seq in ((8, 10), (1, 2)):
        output, state = lstm(Tensor.random([batch, seq, 64], device=d))
        assert output.shape == (batch, seq, 1024)
        assert state.cell.shape == state.hidden.shape == (batch, 1024)
    assert nn.Lstm(2, 3, True, device=d).num_params() == 84
    assert repr(nn.Lstm(2, 3, True, device=d)).startswith("Lstm(d_input=2, d_hidden=3, bias=True")


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_burn_lstm_batched_backward_pass(backend):
    d = Device.of(backend).autodiff()
    lstm = nn.Lstm(64, 32, True, device=d)
    output, _ = lstm(Tensor.random([8, 10, 64], device=d))
    grads = output.sum().backward()
    assert (lstm.output_gate.hidden_transform.weight.grad(grads).to_numpy() != 0).any()


def burn_gru(reset_after, device):
    gru = nn.Gru(1, 1, False, reset_after=reset_after, device=device)
    for gate, weight in (("update", 0.5), ("reset", 0.6), ("new", 0.7)):
        set_gate(getattr(gru, f"{gate}_gate"), weight, 0.0, device)
    return gru


@pytest.mark.parametrize("make_device", DEVICES)
@pytest.mark.parametrize("reset_after", [False, True])
def test_burn_gru_forward(make_device, reset_after):
    d = make_device()
    gru = burn_gru(reset_after, d)
    assert_approx_eq(gru(t([[[0.1]]], d)).reshape([1, 1]), [[0.034]], Tolerance.default())
    out = gru(t([[[0.1], [0.2], [0.3]]], d)).reshape([3, 1])
    assert_approx_eq(out, [[0.0341], [0.0894], [0.1575]], Tolerance.default())


@pytest.mark.parametrize("make_device", DEVICES)
def test_burn_gru_and_bidirectional_shapes(make_device):
    d = make_device()
    assert nn.Gru(64, 1024, True, device=d)(Tensor.random([8, 10, 64], device=d)).shape == (
        8,
        10,
        1024,
    )
    assert nn.Gru(2, 8, True, device=d).num_params() == 288
    bigru = nn.BiGru(32, 64, True, device=d)
    output, state = bigru(Tensor.random([4, 5, 32], device=d), Tensor.random([2, 4, 64], device=d))
    assert (output.shape, state.shape) == ((4, 5, 128), (2, 4, 64))
    seq_first = nn.BiGru(32, 64, True, batch_first=False, device=d)
    output, state = seq_first(Tensor.random([5, 4, 32], device=d))
    assert (output.shape, state.shape) == ((5, 4, 128), (2, 4, 64))
    bilstm = nn.BiLstm(32, 16, True, device=d)
    output, state = bilstm(Tensor.random([4, 5, 32], device=d))
    assert output.shape == (4, 5, 32)
    assert state.cell.shape == state.hidden.shape == (2, 4, 16)


def test_burn_field_names():
    d = Device.numpy()
    names = [name for name, _ in nn.Lstm(2, 3, True, device=d).named_parameters()]
    assert names[:4] == [
        "input_gate.input_transform.weight",
        "input_gate.input_transform.bias",
        "input_gate.hidden_transform.weight",
        "input_gate.hidden_transform.bias",
    ]
    assert {n.split(".")[0] for n in names} == {
        "input_gate",
        "forget_gate",
        "output_gate",
        "cell_gate",
    }
    bi = [name for name, _ in nn.BiGru(2, 3, False, device=d).named_parameters()]
    assert bi[0] == "forward.update_gate.input_transform.weight"
    assert bi[-1] == "reverse.new_gate.hidden_transform.weight"
    assert [n for n, _ in nn.Rnn(2, 3, True, device=d).named_parameters()][0] == (
        "gate.input_transform.weight"
    )


# -- against PyTorch, with copied weights, in float64 --------------------------------------------
# torch's gate order in weight_ih / weight_hh (chunks of d_hidden rows) and our gate names
TORCH_GATES = {
    "lstm": ["input_gate", "forget_gate", "cell_gate", "output_gate"],
    "gru": ["reset_gate", "update_gate", "new_gate"],
    "rnn": ["gate"],
}


def copy_from_torch(ours, theirs, kind, suffix, device):
    """Our gate weights from torch's `weight_ih_l0{suffix}` etc. (transposed: ours are
    [d_in, d_out])."""
    h = theirs.hidden_size
    for index, gate_name in enumerate(TORCH_GATES[kind]):
        gate = getattr(ours, gate_name)
        rows = slice(index * h, (index + 1) * h)
        for transform, part in (("input_transform", "ih"), ("hidden_transform", "hh")):
            linear = getattr(gate, transform)
            weight = getattr(theirs, f"weight_{part}_l0{suffix}").detach().numpy()[rows]
            bias = getattr(theirs, f"bias_{part}_l0{suffix}").detach().numpy()[rows]
            linear.weight = Tensor.from_data(weight.T.copy(), device=device, dtype=np.float64)
            linear.bias = Tensor.from_data(bias.copy(), device=device, dtype=np.float64)


def torch_grad_of(theirs, kind, suffix, path):
    """torch's gradient for our parameter at `path` (e.g. "cell_gate.input_transform.weight")."""
    gate_name, transform, field = path.split(".")
    index = TORCH_GATES[kind].index(gate_name)
    h = theirs.hidden_size
    part = "ih" if transform == "input_transform" else "hh"
    grad = getattr(theirs, f"{field}_{part}_l0{suffix}").grad.numpy()[index * h : (index + 1) * h]
    return grad.T if field == "weight" else grad


CASES = {
    "rnn": (lambda d: nn.Rnn(3, 4, True, device=d), torch.nn.RNN, False),
    "lstm": (lambda d: nn.Lstm(3, 4, True, device=d), torch.nn.LSTM, False),
    "gru": (lambda d: nn.Gru(3, 4, True, device=d), torch.nn.GRU, False),
    "birnn": (lambda d: nn.BiRnn(3, 4, True, device=d), torch.nn.RNN, True),
    "bilstm": (lambda d: nn.BiLstm(3, 4, True, device=d), torch.nn.LSTM, True),
    "bigru": (lambda d: nn.BiGru(3, 4, True, device=d), torch.nn.GRU, True),
}


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("with_state", [False, True])
def test_against_torch(case, backend, with_state):
    make, torch_class, bidirectional = CASES[case]
    kind = case.removeprefix("bi")
    device = Device.of(backend).autodiff()
    torch.manual_seed(0)
    theirs = torch_class(3, 4, batch_first=True, bidirectional=bidirectional).double()
    ours = make(device)
    directions = {"": ours}
    if bidirectional:
        directions = {"": ours.directions["forward"], "_reverse": ours.directions["reverse"]}
    for suffix, layer in directions.items():
        copy_from_torch(layer, theirs, kind, suffix, device)
    rng = np.random.default_rng(1)
    x = rng.normal(size=(2, 5, 3))
    n = 2 if bidirectional else 1
    h0, c0 = rng.normal(size=(n, 2, 4)), rng.normal(size=(n, 2, 4))
    xt = Tensor.from_data(x, device=device, dtype=np.float64).require_grad()
    state = None
    torch_state = None
    if with_state:
        as_t = lambda a: Tensor.from_data(  # noqa: E731
            a if bidirectional else a[0], device=device, dtype=np.float64
        )
        state = {"lstm": nn.LstmState(as_t(c0), as_t(h0)), "rnn": nn.RnnState(as_t(h0))}.get(
            kind, as_t(h0)
        )
        torch_state = (torch.tensor(h0), torch.tensor(c0)) if kind == "lstm" else torch.tensor(h0)
    result = ours(xt, state)
    output = result if case == "gru" else result[0]
    xr = torch.tensor(x, requires_grad=True)
    expected, expected_state = theirs(xr, torch_state)
    np.testing.assert_allclose(output.to_numpy(), expected.detach().numpy(), rtol=1e-10, atol=1e-12)
    if case != "gru":
        final = result[1]
        hidden = final.hidden if kind in ("lstm", "rnn") else final
        their_hidden = expected_state[0] if kind == "lstm" else expected_state
        their_hidden = their_hidden.detach().numpy()
        np.testing.assert_allclose(
            hidden.to_numpy(), their_hidden if bidirectional else their_hidden[0], rtol=1e-10
        )
        if kind == "lstm":
            their_cell = expected_state[1].detach().numpy()
            np.testing.assert_allclose(
                final.cell.to_numpy(), their_cell if bidirectional else their_cell[0], rtol=1e-10
            )
    upstream = rng.normal(size=output.shape)
    grads = (output * Tensor.from_data(upstream, device=device, dtype=np.float64)).sum().backward()
    (expected * torch.tensor(upstream)).sum().backward()
    np.testing.assert_allclose(xt.grad(grads).to_numpy(), xr.grad.numpy(), rtol=1e-9, atol=1e-12)
    for suffix, layer in directions.items():
        for path, param in layer.named_parameters():
            np.testing.assert_allclose(
                param.grad(grads).to_numpy(),
                torch_grad_of(theirs, kind, suffix, path),
                rtol=1e-9,
                atol=1e-12,
                err_msg=f"{case} {suffix} {path}",
            )


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_batch_first_false_and_reverse(backend):
    device = Device.of(backend)
    lstm = nn.Lstm(3, 2, True, batch_first=False, reverse=True, device=device)
    x = np.random.default_rng(2).normal(size=(4, 2, 3)).astype(np.float32)
    output, state = lstm(Tensor.from_data(x, device=device))
    # the same layer read batch-first over the flipped sequence gives the flipped output
    lstm.batch_first, lstm.reverse = True, False
    flipped = np.ascontiguousarray(x[::-1].transpose(1, 0, 2))
    forward_output, forward_state = lstm(Tensor.from_data(flipped, device=device))
    np.testing.assert_allclose(
        output.to_numpy(), forward_output.to_numpy().transpose(1, 0, 2)[::-1], rtol=1e-6
    )
    np.testing.assert_allclose(state.hidden.to_numpy(), forward_state.hidden.to_numpy(), rtol=1e-6)
    with pytest.raises(ValueError, match="needs an input \\[batch, seq, 3\\]"):
        lstm(Tensor.from_data(x[..., :2], device=device))


# -- parameter gradients against central finite differences --------------------------------------
def finite_difference_check(layer, x, device):
    """Every parameter's gradient of sum(output · w) against central differences."""
    weights = np.random.default_rng(5).normal(size=(2, 3, 2))
    w = Tensor.from_data(weights, device=device, dtype=np.float64)

    def loss():
        result = layer(x)
        output = result[0] if isinstance(result, tuple) else result
        return (output * w).sum()

    grads = loss().backward()
    for path, param in layer.named_parameters():
        analytic = param.grad(grads).to_numpy()
        base = param.to_numpy().copy()
        numeric = np.zeros_like(base)
        for index in np.ndindex(base.shape):
            values = []
            for step in (1e-6, -1e-6):
                moved = base.copy()
                moved[index] += step
                layer.map_parameters(
                    lambda name, _id, tensor, moved=moved, path=path: (
                        Tensor.from_data(moved, device=device, dtype=np.float64).require_grad()
                        if name == path
                        else tensor
                    )
                )
                values.append(loss().item())
            numeric[index] = (values[0] - values[1]) / 2e-6
        layer.map_parameters(
            lambda name, _id, tensor, path=path: (
                Tensor.from_data(base, device=device, dtype=np.float64).require_grad()
                if name == path
                else tensor
            )
        )
        np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-8, err_msg=path)


@pytest.mark.parametrize(
    "make",
    [
        lambda d: nn.Lstm(2, 2, True, clip=0.4, device=d),
        lambda d: nn.Gru(2, 2, True, reset_after=False, device=d),
        lambda d: nn.BiRnn(2, 1, True, device=d),
    ],
    ids=["lstm_clip", "gru_reset_before", "birnn"],
)
def test_parameter_gradients_against_finite_differences(make):
    device = Device.numpy().autodiff()
    device.seed(4)
    layer = make(device).map_parameters(
        lambda _name, _id, tensor: Tensor.from_data(
            tensor.to_numpy().astype(np.float64), device=device, dtype=np.float64
        ).require_grad()
    )
    x = np.random.default_rng(6).normal(size=(2, 3, 2))
    finite_difference_check(layer, Tensor.from_data(x, device=device, dtype=np.float64), device)


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_lstm_input_forget(backend):
    """f = 1 - i = sigmoid(-(input gate's sum)): a plain Lstm whose forget gate holds the
    input gate's weights negated gives the same output; the unused forget gate gets no
    gradient."""
    device = Device.of(backend).autodiff()
    coupled = nn.Lstm(3, 2, True, input_forget=True, device=device)
    plain = nn.Lstm(3, 2, True, device=device)
    for name in ("input_gate", "output_gate", "cell_gate"):
        setattr(plain, name, getattr(coupled, name))
    for transform in ("input_transform", "hidden_transform"):
        source = getattr(coupled.input_gate, transform)
        target = getattr(plain.forget_gate, transform)
        target.weight = source.weight.detach().neg()
        target.bias = source.bias.detach().neg()
    x = Tensor.from_data(
        np.random.default_rng(8).normal(size=(2, 4, 3)).astype(np.float32), device=device
    )
    output, state = coupled(x)
    expected, expected_state = plain(x)
    np.testing.assert_allclose(output.to_numpy(), expected.to_numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(
        state.cell.to_numpy(), expected_state.cell.to_numpy(), rtol=1e-5, atol=1e-6
    )
    grads = output.sum().backward()
    assert coupled.forget_gate.input_transform.weight.grad(grads) is None
    assert coupled.input_gate.input_transform.weight.grad(grads) is not None
