"""The PyTorch worker: `python -m benches.torch_column RESULT.json`, run by benches/speed.py.

PyTorch gets a process of its own: its intra-op thread pool and numpy's BLAS threads slow each
other down when they share one. The worker times raw numpy too, interleaved with PyTorch repeat
by repeat, so PyTorch's ratios to numpy are taken within this process. It also hosts this
project's torch backend (our dispatch and our autodiff over torch kernels on
`Device.torch()`) when the tree has one, since that column loads torch as well.

Before timing, every column here is checked against raw numpy's results; a mismatch exits with
status 3 and the reason on stderr.
"""

import json
import sys

import numpy as np
import torch
import torch.nn.functional as F

from benches import ours, workloads
from benches.timing import Column, measure
from benches.workloads import F32_ATOL_SCALE, F32_RTOL, BenchMismatch

EXIT_MISMATCH = 3
# Long enough for numpy's OpenBLAS threads to stop spinning after its MLP step (see timing.py).
BLAS_SETTLE = 0.3


def torch_op_namespace(a: np.ndarray, b: np.ndarray, tracked: bool) -> dict:
    return {
        name: torch.from_numpy(x.copy()).requires_grad_(tracked) for name, x in zip("ab", (a, b))
    }


class TorchMLP:
    """The MLP as a PyTorch user writes it: nn.Linear's layout ([out, in] weights), F.linear,
    F.relu, F.cross_entropy, loss.backward(), gradients cleared before each step."""

    def __init__(self, problem: workloads.MLPProblem):
        self.x = torch.from_numpy(problem.x)
        self.labels = torch.from_numpy(problem.labels)
        self.params = [
            torch.from_numpy(np.ascontiguousarray(p.T)).requires_grad_() for p in problem.params
        ]

    def step(self):
        for p in self.params:
            p.grad = None
        W1, b1, W2, b2, W3, b3 = self.params
        h1 = F.relu(F.linear(self.x, W1, b1))
        h2 = F.relu(F.linear(h1, W2, b2))
        loss = F.cross_entropy(F.linear(h2, W3, b3), self.labels)
        loss.backward()
        return loss

    def step_numpy(self):
        """The loss and the gradients in the numpy reference's layout ([in, out] weights)."""
        loss = self.step()
        return loss.item(), [p.grad.numpy().T for p in self.params]

    def column(self) -> Column:
        return Column("step()", {"step": self.step})


def ours_on_torch():
    """(Device.torch(), None) if this tree has a torch backend, else (None, why not)."""
    try:
        device = ours.Device.torch()
        ours.run_op("mul", device, *workloads.op_inputs())
    except Exception as error:  # a probe: any failure means the column is not available yet
        return None, f"{type(error).__name__}: {error}"
    return device, None


def check(a, b, problems, ours_device) -> None:
    for op in workloads.OPS:
        expected = workloads.op_reference(op, a, b)
        for tracked in (False, True):
            out = eval(workloads.OPS[op][1], torch_op_namespace(a, b, tracked))
            if out.requires_grad != tracked:
                raise BenchMismatch(f"PyTorch {op}: requires_grad is {out.requires_grad}")
            workloads.assert_same(
                f"PyTorch {op}", out.detach().numpy(), expected, F32_RTOL, F32_ATOL_SCALE
            )
    for problem in problems:
        reference = workloads.numpy_mlp_step(problem, workloads.numpy_dot_for(problem.batch))
        loss, grads = TorchMLP(problem).step_numpy()
        workloads.check_mlp_step("PyTorch", problem.batch, loss, grads, reference)
    if ours_device is not None:
        ours.check("ours on torch", ours_device, a, b, problems)


def time_all(a, b, problems, ours_device) -> dict:
    rows = {}
    numpy_namespace = {"np": np, "a": a, "b": b}
    for op, (numpy_stmt, tensor_stmt) in workloads.OPS.items():
        columns = {
            "numpy": Column(numpy_stmt, numpy_namespace),
            "torch": Column(tensor_stmt, torch_op_namespace(a, b, tracked=False)),
            "torch_tracked": Column(tensor_stmt, torch_op_namespace(a, b, tracked=True)),
        }
        if ours_device is not None:
            for name, device in ours.strategies(ours_device).items():
                columns[f"ours_{name}"] = ours.op_column(op, device, a, b)
        rows[f"op:{op}"] = measure(columns, "numpy").to_json()
    for problem in problems:
        columns = {
            "numpy": workloads.numpy_mlp_column(problem),
            "torch": TorchMLP(problem).column(),
        }
        if ours_device is not None:
            columns["ours_tracked"] = ours.MLP(problem, ours_device).column()
        rows[f"mlp:{problem.batch}"] = measure(
            columns, "numpy", settle=("numpy", BLAS_SETTLE)
        ).to_json()
    return rows


def main(result_path: str) -> int:
    a, b = workloads.op_inputs()
    problems = [workloads.mlp_problem(batch) for batch in workloads.MLP_BATCHES]
    ours_device, ours_missing = ours_on_torch()
    try:
        check(a, b, problems, ours_device)
    except BenchMismatch as error:
        print(f"PyTorch worker: {error}", file=sys.stderr)
        return EXIT_MISMATCH
    result = {
        "torch": f"{torch.__version__}, {torch.get_num_threads()} threads",
        "ours_on_torch_missing": ours_missing,
        "reference_losses": {str(p.batch): float(workloads.numpy_mlp_step(p)[0]) for p in problems},
        "rows": time_all(a, b, problems, ours_device),
    }
    with open(result_path, "w", encoding="utf-8") as f:
        json.dump(result, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
