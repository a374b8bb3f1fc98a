"""Recurrent layers after burn-nn's: `Rnn`, `Lstm`, `Gru` and their bidirectional `BiRnn`,
`BiLstm`, `BiGru`, built from `GateController`s (an `input_transform` and a `hidden_transform`
Linear each), with burn's field names, so that records and `named_parameters()` read as burn's
(`input_gate.input_transform.weight`, ...).

Inputs are [batch, seq, d_input] (or [seq, batch, d_input] with `batch_first=False`); the
output holds the hidden state of every step, in the input's layout. Gate activations are
layers: any activation module, or a name `Activation` knows ("sigmoid", "tanh", ...)."""

from typing import NamedTuple

from generated import Tensor
from burnpy.nn import init
from burnpy.nn.activation import Activation
from burnpy.nn.linear import Linear
from burnpy.nn.module import Module

XAVIER_DEFAULT = init.xavier_normal(1.0)


class LstmState(NamedTuple):
    """An LSTM's state, [batch, d_hidden] each (a leading [2] for BiLstm)."""

    cell: Tensor
    hidden: Tensor


class RnnState(NamedTuple):
    """A basic RNN's state, [batch, d_hidden] (a leading [2] for BiRnn)."""

    hidden: Tensor


class GateController(Module):
    """input_transform(x) + hidden_transform(h): Linear [d_input, d_output] and
    [d_output, d_output], both with or without bias."""

    def __init__(self, d_input, d_output, bias, *, initializer=None, device):
        super().__init__()
        initializer = initializer or XAVIER_DEFAULT
        self.input_transform = Linear(
            d_input, d_output, bias, device=device, initializer=initializer
        )
        self.hidden_transform = Linear(
            d_output, d_output, bias, device=device, initializer=initializer
        )

    def gate_product(self, input, hidden):
        return self.input_transform(input) + self.hidden_transform(hidden)


def _activation(layer):
    return Activation(layer) if isinstance(layer, str) else layer


def _check_input(name, x, d_input):
    if x.ndim != 3 or x.shape[2] != d_input:
        raise ValueError(
            f"{name} needs an input [batch, seq, {d_input}] (or [seq, batch, {d_input}] with "
            f"batch_first=False), got shape {list(x.shape)}"
        )


class _Recurrent(Module):
    """One direction: `_step(x_t, state) -> state` applied along the sequence."""

    def _gates(self, names, d_input, d_hidden, bias, initializer, device):
        for name in names:
            setattr(
                self,
                name,
                GateController(d_input, d_hidden, bias, initializer=initializer, device=device),
            )

    def _first_gate(self):
        raise NotImplementedError

    def _scan(self, x, state, reverse):
        """x [batch, seq, d_input] -> ([batch, seq, d_hidden], final state)."""
        _check_input(type(self).__name__, x, self._first_gate().input_transform.weight.shape[0])
        batch, seq, _ = x.shape
        if state is None:
            state = self._initial([batch, self.d_hidden], x)
        hidden = [None] * seq
        for t in reversed(range(seq)) if reverse else range(seq):
            state = self._step(x.narrow(1, t, 1).reshape([batch, -1]), state)
            hidden[t] = self._hidden(state)
        return Tensor.stack(hidden, 1), state

    def _clipped(self, tensor):
        return tensor if self.clip is None else tensor.clamp(-self.clip, self.clip)

    def extra_repr(self):
        gate = self._first_gate().input_transform
        return (
            f"d_input={gate.weight.shape[0]}, d_hidden={self.d_hidden}, "
            f"bias={gate.bias is not None}"
        )


def _zeros(shape, like):
    return Tensor.zeros(shape, device=like.device(), dtype=like.dtype)


def _layout(x, batch_first):
    return x if batch_first else x.swap_dims(0, 1)


class Rnn(_Recurrent):
    """h_t = hidden_activation(gate(x_t, h_{t-1})), clamped to ±clip if set; `forward` returns
    (output, RnnState(hidden))."""

    def __init__(
        self,
        d_input,
        d_hidden,
        bias,
        *,
        initializer=None,
        batch_first=True,
        reverse=False,
        clip=None,
        hidden_activation="tanh",
        device,
    ):
        super().__init__()
        self._gates(["gate"], d_input, d_hidden, bias, initializer, device)
        self.d_hidden, self.batch_first, self.reverse, self.clip = (
            d_hidden,
            batch_first,
            reverse,
            clip,
        )
        self.hidden_activation = _activation(hidden_activation)

    def _first_gate(self):
        return self.gate

    def _initial(self, shape, like):
        return RnnState(_zeros(shape, like))

    def _step(self, x, state):
        out = self.hidden_activation(self.gate.gate_product(x, state.hidden))
        return RnnState(self._clipped(out))

    def _hidden(self, state):
        return state.hidden

    def forward(self, batched_input, state: RnnState | None = None):
        output, state = self._scan(_layout(batched_input, self.batch_first), state, self.reverse)
        return _layout(output, self.batch_first), state


class Lstm(_Recurrent):
    """burn's LSTM: gates i, f, o = gate_activation(...), candidate g =
    cell_activation(cell_gate(...)), c = f·c + i·g (clamped to ±clip if set), h =
    o·hidden_activation(c); with `input_forget`, f = 1 - i. `forward` returns (output,
    LstmState(cell, hidden))."""

    def __init__(
        self,
        d_input,
        d_hidden,
        bias,
        *,
        initializer=None,
        batch_first=True,
        reverse=False,
        clip=None,
        input_forget=False,
        gate_activation="sigmoid",
        cell_activation="tanh",
        hidden_activation="tanh",
        device,
    ):
        super().__init__()
        gates = ["input_gate", "forget_gate", "output_gate", "cell_gate"]
        self._gates(gates, d_input, d_hidden, bias, initializer, device)
        self.d_hidden, self.batch_first, self.reverse, self.clip = (
            d_hidden,
            batch_first,
            reverse,
            clip,
        )
        self.input_forget = input_forget
        self.gate_activation = _activation(gate_activation)
        self.cell_activation = _activation(cell_activation)
        self.hidden_activation = _activation(hidden_activation)

    def _first_gate(self):
        return self.input_gate

    def _initial(self, shape, like):
        zeros = _zeros(shape, like)
        return LstmState(zeros, zeros)

    def _step(self, x, state):
        cell, hidden = state
        gate = self.gate_activation
        input_values = gate(self.input_gate.gate_product(x, hidden))
        if self.input_forget:
            forget_values = 1.0 - input_values
        else:
            forget_values = gate(self.forget_gate.gate_product(x, hidden))
        output_values = gate(self.output_gate.gate_product(x, hidden))
        candidate = self.cell_activation(self.cell_gate.gate_product(x, hidden))
        cell = self._clipped(forget_values * cell + input_values * candidate)
        return LstmState(cell, output_values * self.hidden_activation(cell))

    def _hidden(self, state):
        return state.hidden

    def forward(self, batched_input, state: LstmState | None = None):
        output, state = self._scan(_layout(batched_input, self.batch_first), state, self.reverse)
        return _layout(output, self.batch_first), state


class Gru(_Recurrent):
    """burn's GRU: z = gate_activation(update_gate(x, h)), r = gate_activation(reset_gate(x,
    h)), n = hidden_activation(new_gate's input part + r·its hidden part) (`reset_after`, as
    PyTorch's; else new_gate(x, r·h)), h = (1 - z)·n + z·h, clamped to ±clip if set. Input
    [batch, seq, d_input]; `forward` returns the output only, as burn's."""

    def __init__(
        self,
        d_input,
        d_hidden,
        bias,
        *,
        reset_after=True,
        initializer=None,
        gate_activation="sigmoid",
        hidden_activation="tanh",
        clip=None,
        device,
    ):
        super().__init__()
        gates = ["update_gate", "reset_gate", "new_gate"]
        self._gates(gates, d_input, d_hidden, bias, initializer, device)
        self.d_hidden, self.reset_after, self.clip = d_hidden, reset_after, clip
        self.gate_activation = _activation(gate_activation)
        self.hidden_activation = _activation(hidden_activation)

    def _first_gate(self):
        return self.update_gate

    def _initial(self, shape, like):
        return _zeros(shape, like)

    def _step(self, x, hidden):
        update = self.gate_activation(self.update_gate.gate_product(x, hidden))
        reset = self.gate_activation(self.reset_gate.gate_product(x, hidden))
        if self.reset_after:
            new = self.new_gate.input_transform(x) + reset * self.new_gate.hidden_transform(hidden)
        else:
            new = self.new_gate.gate_product(x, hidden * reset)
        candidate = self.hidden_activation(new)
        return self._clipped(candidate * (1.0 - update) + update * hidden)

    def _hidden(self, state):
        return state

    def forward(self, batched_input, state: Tensor | None = None):
        return self._scan(batched_input, state, False)[0]

    def extra_repr(self):
        return super().extra_repr() + f", reset_after={self.reset_after}"


class _Bidirectional(Module):
    """Two layers of one kind, `forward` over the sequence and `reverse` against it (burn's
    field names: they are kept in `directions`, named without it). The output concatenates
    their hidden states ([..., 2·d_hidden]); the state stacks theirs on a leading dim of 2."""

    def _directions(self, forward, reverse, d_hidden, batch_first):
        self.directions = {"forward": forward, "reverse": reverse}
        self.d_hidden, self.batch_first = d_hidden, batch_first

    def _local(self):
        for path, value in super()._local():
            yield path.removeprefix("directions."), value

    def _set_local(self, path, value):
        if path.split(".")[0] in self.directions:
            path = "directions." + path
        super()._set_local(path, value)

    def forward(self, batched_input, state=None):
        x = _layout(batched_input, self.batch_first)
        states = [None, None] if state is None else [self._pick(state, i) for i in (0, 1)]
        forward_out, forward_state = self.directions["forward"]._scan(x, states[0], False)
        reverse_out, reverse_state = self.directions["reverse"]._scan(x, states[1], True)
        output = Tensor.cat([forward_out, reverse_out], 2)
        return _layout(output, self.batch_first), self._stack(forward_state, reverse_state)

    def extra_repr(self):
        return self.directions["forward"].extra_repr()


def _stack_fields(first, second):
    return type(first)(*(Tensor.stack([a, b], 0) for a, b in zip(first, second)))


def _pick_fields(state, index):
    return type(state)(*(field.narrow(0, index, 1).squeeze_dim(0) for field in state))


class BiRnn(_Bidirectional):
    """Two Rnn; `forward(x, state=None)` returns (output, RnnState([2, batch, d_hidden]))."""

    def __init__(
        self,
        d_input,
        d_hidden,
        bias,
        *,
        initializer=None,
        batch_first=True,
        clip=None,
        hidden_activation="tanh",
        device,
    ):
        super().__init__()
        make = lambda: Rnn(  # noqa: E731
            d_input,
            d_hidden,
            bias,
            initializer=initializer,
            clip=clip,
            hidden_activation=hidden_activation,
            device=device,
        )
        self._directions(make(), make(), d_hidden, batch_first)

    _pick = staticmethod(_pick_fields)
    _stack = staticmethod(_stack_fields)


class BiLstm(_Bidirectional):
    """Two Lstm; `forward(x, state=None)` returns (output, LstmState([2, batch, d_hidden]
    each))."""

    def __init__(
        self,
        d_input,
        d_hidden,
        bias,
        *,
        initializer=None,
        batch_first=True,
        clip=None,
        input_forget=False,
        gate_activation="sigmoid",
        cell_activation="tanh",
        hidden_activation="tanh",
        device,
    ):
        super().__init__()
        make = lambda: Lstm(  # noqa: E731
            d_input,
            d_hidden,
            bias,
            initializer=initializer,
            clip=clip,
            input_forget=input_forget,
            gate_activation=gate_activation,
            cell_activation=cell_activation,
            hidden_activation=hidden_activation,
            device=device,
        )
        self._directions(make(), make(), d_hidden, batch_first)

    _pick = staticmethod(_pick_fields)
    _stack = staticmethod(_stack_fields)


class BiGru(_Bidirectional):
    """Two Gru; `forward(x, state=None)` returns (output, state [2, batch, d_hidden])."""

    def __init__(
        self,
        d_input,
        d_hidden,
        bias,
        *,
        reset_after=True,
        initializer=None,
        batch_first=True,
        gate_activation="sigmoid",
        hidden_activation="tanh",
        clip=None,
        device,
    ):
        super().__init__()
        make = lambda: Gru(  # noqa: E731
            d_input,
            d_hidden,
            bias,
            reset_after=reset_after,
            initializer=initializer,
            gate_activation=gate_activation,
            hidden_activation=hidden_activation,
            clip=clip,
            device=device,
        )
        self._directions(make(), make(), d_hidden, batch_first)

    @staticmethod
    def _pick(state, index):
        return state.narrow(0, index, 1).squeeze_dim(0)

    @staticmethod
    def _stack(first, second):
        return Tensor.stack([first, second], 0)
