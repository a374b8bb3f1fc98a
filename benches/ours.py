"""This project's columns, written once for any Device: the NumPy backend's plain and autodiff
devices here, and the torch backend's in the PyTorch worker process."""

import numpy as np

from benches import workloads
from benches.timing import Column
from burnpy import Device, Tensor, module


def strategies(device: Device) -> dict:
    """The three devices a per-op row runs on, by column name."""
    autodiff = device.autodiff()
    return {
        "plain": device,
        "tracked": autodiff,
        "balanced": autodiff.gradient_checkpointing(),
    }


def op_namespace(device: Device, a: np.ndarray, b: np.ndarray) -> dict:
    """`a` and `b` on `device`; on an autodiff device both require grad, so each op is tracked."""
    tensors = [Tensor.from_data(x, device=device) for x in (a, b)]
    if device.is_autodiff():
        tensors = [t.require_grad() for t in tensors]
    return dict(zip("ab", tensors))


def run_op(op: str, device: Device, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The op's output on `device`, checked to be tracked on an autodiff device."""
    out = eval(workloads.OPS[op][1], op_namespace(device, a, b))
    if device.is_autodiff() and not out.is_tracked():
        raise workloads.BenchMismatch(f"{op} on {device}: the output is not tracked")
    return out.to_numpy()


def op_column(op: str, device: Device, a, b) -> Column:
    return Column(workloads.OPS[op][1], op_namespace(device, a, b))


def mlp_step(x, labels, params):
    """The MLP's forward + backward as a user writes it, and as PyTorch's column does (F.linear,
    F.relu, F.cross_entropy): fused linear layers and the fused softmax cross-entropy that
    burnpy.nn.functional.cross_entropy calls; the mean loss and the gradients of the params."""
    W1, b1, W2, b2, W3, b3 = params
    h1 = module.linear(x, W1, b1).relu()
    h2 = module.linear(h1, W2, b2).relu()
    loss = module.cross_entropy_class_targets(module.linear(h2, W3, b3), labels)
    grads = loss.backward()
    return loss, [p.grad(grads) for p in params]


class MLP:
    """The MLP step on an autodiff device: the data are untracked leaves, the params Grad leaves."""

    def __init__(self, problem: workloads.MLPProblem, device: Device):
        device = device.autodiff()
        self.x = Tensor.from_data(problem.x, device=device)
        self.labels = Tensor.from_data(problem.labels, device=device)
        self.params = [Tensor.from_data(p, device=device).require_grad() for p in problem.params]

    def step(self):
        """Forward + backward; returns the loss and the params' gradients (plain tensors)."""
        return mlp_step(self.x, self.labels, self.params)

    def step_numpy(self):
        loss, grads = self.step()
        return loss.to_numpy(), [g.to_numpy() for g in grads]

    def column(self) -> Column:
        return Column("step()", {"step": self.step})


def check(label: str, device: Device, a, b, problems) -> None:
    """Our columns on `device` against raw numpy, before anything is timed: every op on the
    plain device and tracked under both strategies, and the MLP step."""
    for op in workloads.OPS:
        expected = workloads.op_reference(op, a, b)
        for name, on in strategies(device).items():
            workloads.assert_same(
                f"{label} ({name}) {op}",
                run_op(op, on, a, b),
                expected,
                workloads.F32_RTOL,
                workloads.F32_ATOL_SCALE,
            )
    for problem in problems:
        reference = workloads.numpy_mlp_step(problem, workloads.numpy_dot_for(problem.batch))
        loss, grads = MLP(problem, device).step_numpy()
        workloads.check_mlp_step(label, problem.batch, loss, grads, reference)
