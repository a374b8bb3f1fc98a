"""Recurrent layers after burn-nn's: `Rnn`, `Lstm`, `Gru` and their bidirectional `BiRnn`,
`BiLstm`, `BiGru`, built from `GateController`s (an `input_transform` and a `hidden_transform`
Linear each), with burn's field names, so that records and `named_parameters()` read as burn's
(`input_gate.input_transform.weight`, ...).

Inputs are [batch, seq, d_input] (or [seq, batch, d_input] with `batch_first=False`); the
output holds the hidden state of every step, in the input's layout. Gate activations are
layers: any activation module, or a name `Activation` knows ("sigmoid", "tanh", ...)."""

from typing import NamedTuple

from burnpy.generated import Tensor
from burnpy.nn import init
from burnpy.nn.activation import Activation
from burnpy.nn.linear import Linear
from burnpy.nn.module import Module
from burnpy.nn.ops import module_ops

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
    [d_output, d_output], both with or without bias. The layers compute all their gates'
    transforms in one product each, with the same values as `gate_product`."""

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
    """One direction: `_step(projected_t, state, hidden_transform) -> state` applied along
    the sequence, where `projected_t` holds step t's input transforms of `_input_gates()` side
    by side, and `hidden_transform(h)` the hidden transforms of `_hidden_gates()`."""

    def _gates(self, names, d_input, d_hidden, bias, initializer, device):
        for name in names:
            setattr(
                self,
                name,
                GateController(d_input, d_hidden, bias, initializer=initializer, device=device),
            )

    def _scan(self, x, state, reverse):
        """x [batch, seq, d_input] -> ([batch, seq, d_hidden], final state)."""
        gates = self._input_gates()
        _check_input(type(self).__name__, x, gates[0].input_transform.weight.shape[0])
        batch, seq, _ = x.shape
        if state is None:
            state = self._initial([batch, self.d_hidden], x)
        # Every step's input transforms in one product (the gates' weights side by side), so
        # that only the hidden transforms are left inside the loop, one product a step.
        projected = _Fused(gates, "input_transform")(x)
        hidden_transform = _Fused(self._hidden_gates(), "hidden_transform")
        hidden = [None] * seq
        for t in reversed(range(seq)) if reverse else range(seq):
            projected_t = projected.narrow(1, t, 1).reshape([batch, -1])
            state = self._step(projected_t, state, hidden_transform)
            hidden[t] = self._hidden(state)
        return Tensor.stack(hidden, 1), state

    def _chunks(self, tensor, count):
        h = self.d_hidden
        return [tensor.narrow(1, i * h, h) for i in range(count)]

    def _clipped(self, tensor):
        return tensor if self.clip is None else tensor.clamp(-self.clip, self.clip)

    def extra_repr(self):
        gate = self._input_gates()[0].input_transform
        return (
            f"d_input={gate.weight.shape[0]}, d_hidden={self.d_hidden}, "
            f"bias={gate.bias is not None}"
        )


class _Fused:
    """The gates' `transform` Linears (input_ or hidden_) as one: their weights and biases
    side by side, so that one product gives each gate's transform, concatenated along the last
    dim, with the values of the gates' own Linears."""

    def __init__(self, gates, transform):
        linears = [getattr(gate, transform) for gate in gates]
        self.weight = Tensor.cat([linear.weight for linear in linears], 1)
        self.bias = None
        if linears[0].bias is not None:
            self.bias = Tensor.cat([linear.bias for linear in linears], 0)

    def __call__(self, x):
        return module_ops().linear(x, self.weight, self.bias)


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

    def _input_gates(self):
        return [self.gate]

    def _initial(self, shape, like):
        return RnnState(_zeros(shape, like))

    _hidden_gates = _input_gates

    def _step(self, projected, state, hidden_transform):
        summed = projected + hidden_transform(state.hidden)
        return RnnState(self._clipped(self.hidden_activation(summed)))

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

    def _input_gates(self):
        # with input_forget the forget gate is unused (its parameters get no gradient)
        forget = [] if self.input_forget else [self.forget_gate]
        return [self.input_gate, *forget, self.output_gate, self.cell_gate]

    def _initial(self, shape, like):
        zeros = _zeros(shape, like)
        return LstmState(zeros, zeros)

    _hidden_gates = _input_gates

    def _step(self, projected, state, hidden_transform):
        cell, hidden = state
        sums = self._chunks(projected + hidden_transform(hidden), 3 if self.input_forget else 4)
        gate = self.gate_activation
        input_values, output_values = gate(sums[0]), gate(sums[-2])
        forget_values = 1.0 - input_values if self.input_forget else gate(sums[1])
        candidate = self.cell_activation(sums[-1])
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

    def _input_gates(self):
        return [self.update_gate, self.reset_gate, self.new_gate]

    def _initial(self, shape, like):
        return _zeros(shape, like)

    def _hidden_gates(self):
        # before the reset, the new gate's hidden transform is of r·h: it cannot join the others
        return self._input_gates() if self.reset_after else self._input_gates()[:2]

    def _step(self, projected, hidden, hidden_transform):
        x_update, x_reset, x_new = self._chunks(projected, 3)
        hidden_parts = self._chunks(hidden_transform(hidden), 3 if self.reset_after else 2)
        update = self.gate_activation(x_update + hidden_parts[0])
        reset = self.gate_activation(x_reset + hidden_parts[1])
        if self.reset_after:
            new = x_new + reset * hidden_parts[2]
        else:
            new = x_new + self.new_gate.hidden_transform(hidden * reset)
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
