"""burnpy.distributed and the Learner on two processes on 127.0.0.1.

One pair of processes (tests/distributed_worker.py) runs every scenario, since torch's start-up
is what a rank costs; each test checks one scenario's results against its references: PyTorch's
autograd for the gradients, the values the ranks put in for the collectives. The pair is
bounded in time and nothing is left running or listening after it.
"""

import json
import os
import pickle
import socket
import sys
from pathlib import Path

import numpy as np
import pytest

import background

torch = pytest.importorskip("torch")

WORKER = Path(__file__).with_name("distributed_worker.py")
LIMIT_S = 150  # the whole pair, start-up included; a hang fails the tests instead of blocking


def free_ports(count: int) -> list:
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


_STARTED = {}


def start_in_background(config, names):
    """The pair, started with the session (tests/background.py), if a test of it is selected."""
    if background.tests_taking(globals(), "pair") & {*names}:
        ports = free_ports(4)
        env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONHASHSEED": "0"}

        def ranks(out):
            args = [str(p) for p in ("2", ",".join(map(str, ports)), out)]
            return [[sys.executable, str(WORKER), str(rank), *args] for rank in (0, 1)]

        _STARTED["pair"] = (background.start(config, ranks, LIMIT_S, env=env), ports)


@pytest.fixture(scope="module")
def pair():
    job, ports = _STARTED["pair"]
    job.wait()
    results = []
    for rank in (0, 1):
        path = job.folder / f"rank{rank}.pkl"
        assert path.exists(), f"rank {rank} stored nothing; its output:\n{job.output(rank)}"
        results.append(pickle.loads(path.read_bytes()))
    return {"results": results, "procs": job.processes, "ports": ports, "out": job.folder}


def scenario(pair, name):
    found = [results.get(name) for results in pair["results"]]
    for rank, value in enumerate(found):
        if isinstance(value, dict) and "exception" in value:
            pytest.fail(f"rank {rank} failed in {name}:\n{value['exception']}")
    return found


def test_all_reduce_and_broadcast_give_every_rank_the_combined_values(pair):
    ranks = scenario(pair, "collectives")
    # Rank r put in [[r + 1, -2 (r + 1)]] and the ints [r + 1, 10 r].
    expected = {
        "sum": [[3.0, -6.0]],
        "mean": [[1.5, -3.0]],
        "max": [[2.0, -2.0]],
        "min": [[1.0, -4.0]],
        "broadcast 0": [[1.0, -2.0]],
        "broadcast 1": [[2.0, -4.0]],
    }
    shards = [found.pop("shards") for found in ranks]
    assert [len(s) for s in shards] == [5, 5]  # 11 // 2 each, the remainder dropped
    assert not set(shards[0]) & set(shards[1]) and set(shards[0]) | set(shards[1]) < set(range(11))
    for rank, found in enumerate(ranks):
        devices = {key[:2] for key in found}
        assert len(devices) == 4  # numpy and torch, plain and autodiff
        for backend, device in devices:
            for op, values in expected.items():
                array, out_device = found[backend, device, op]
                np.testing.assert_array_equal(array, values)
                assert out_device == device
            ints, dtype = found[backend, device, "int sum"]
            np.testing.assert_array_equal(ints, [3, 10])
            assert dtype == "int64"
            mine = [[rank + 1.0, -2.0 * (rank + 1)]]
            np.testing.assert_array_equal(found[backend, device, "input after"], mine)


def torch_gradients(x, y):
    """PyTorch's gradients of the worker's loss on (x, y), in float64."""
    from tests.distributed_worker import PARAMS

    params = {
        n: torch.tensor(v, dtype=torch.float64, requires_grad=True) for n, v in PARAMS.items()
    }
    h = torch.tanh(torch.from_numpy(x) @ params["w1"] + params["b1"])
    out = h @ params["w2"] + params["c"]
    loss = ((out - torch.from_numpy(y)) ** 2).mean() + (params["w1"] ** 2).sum() * 0.01
    loss.backward()
    return {n: p.grad.numpy() for n, p in params.items()}


def test_reduced_gradients_equal_the_gradient_of_the_full_batch(pair):
    from tests.distributed_worker import DISTRIBUTED, X, Y

    full = torch_gradients(X, Y)
    halves = [torch_gradients(X[:4], Y[:4]), torch_gradients(X[4:], Y[4:])]
    ranks = scenario(pair, "gradients")
    for rank, found in enumerate(ranks):
        assert len(found) == 4  # numpy and torch, NoCheckpointing and Balanced
        for (backend, strategy), grads in found.items():
            for name in DISTRIBUTED:
                np.testing.assert_allclose(grads[name], full[name], rtol=1e-12, atol=1e-14)
            # An unmarked parameter keeps this rank's own gradient.
            np.testing.assert_allclose(grads["c"], halves[rank]["c"], rtol=1e-12, atol=1e-14)
    assert not np.allclose(halves[0]["c"], halves[1]["c"])


def test_ranks_stay_identical_over_optimiser_steps(pair):
    ranks = scenario(pair, "optimiser_steps")
    for backend in ("numpy", "torch"):
        zero, one = (found for found in ranks)
        assert not all(
            np.array_equal(a, b) for a, b in zip(zero[backend, "before"], one[backend, "before"])
        )
        for a, b in zip(zero[backend, "before"], one[backend, "replicated"]):
            np.testing.assert_array_equal(b, a)  # rank 0's parameters are everyone's
        assert zero[backend, "ids"] == one[backend, "ids"]
        for a, b, start in zip(
            zero[backend, "after"], one[backend, "after"], zero[backend, "replicated"]
        ):
            np.testing.assert_array_equal(a, b)
            assert not np.array_equal(a, start)  # it trained
        # An optimiser step keeps each parameter marked, under its ParamId.
        assert zero[backend, "marks"] == one[backend, "marks"] == zero[backend, "ids"]


def test_the_learner_trains_data_parallel_and_resumes(pair):
    zero, one = scenario(pair, "learner")
    for name in ("straight", "resumed", "early"):
        history0, stopped0, params0 = zero[name]
        history1, stopped1, params1 = one[name]
        assert stopped0 == stopped1
        for a, b in zip(params0, params1):
            np.testing.assert_array_equal(a, b)
        for a, b in zip(history0, history1):  # metrics are reduced: the same on every rank
            assert {k: v for k, v in a.items() if k not in ("seconds", "items_per_second")} == {
                k: v for k, v in b.items() if k not in ("seconds", "items_per_second")
            }
    history, stopped, params = zero["straight"]
    assert [r["epoch"] for r in history] == [1, 2, 3] and stopped is None
    assert [r["lr"] for r in history] == [
        0.02,
        0.01,
        0.005,
    ]  # Step(2e-2, 4, 0.5), 4 steps per epoch
    assert history[-1]["valid_accuracy"] > history[0]["valid_accuracy"]
    # One epoch, then resumed up to three: the same run as three straight.
    resumed_history, _, resumed = zero["resumed"]
    for a, b in zip(resumed, params):
        np.testing.assert_array_equal(a, b)
    assert [r["train_loss"] for r in resumed_history] == [r["train_loss"] for r in history]
    # Only rank 0 logs.
    log = (pair["out"] / "learner" / "straight" / "log.jsonl").read_text().splitlines()
    assert [json.loads(line)["epoch"] for line in log] == [1, 2, 3]
    early, reason, _ = zero["early"]
    assert len(early) == 2 and "valid_loss did not improve" in reason


def test_a_peer_that_does_not_answer_times_out(pair):
    zero, _ = scenario(pair, "timeout")
    assert zero["error"] is not None
    assert "all_reduce failed on rank 0 of 2 (peers: rank 1; timeout 2 s)" in zero["error"]
    assert 1.5 < zero["seconds"] < 10


def test_a_killed_peer_raises_instead_of_hanging(pair):
    zero, one = scenario(pair, "killed")
    assert one is None  # rank 1 was killed before storing anything
    assert pair["procs"][1].returncode == -9
    assert pair["procs"][0].returncode == 0
    assert zero["error"].startswith(
        "all_reduce of the gradient of parameter 1 failed on rank 0 of 2 (peers: rank 1"
    )
    assert zero["seconds"] < 20  # within the group's timeout


def test_nothing_is_left_running_or_listening(pair):
    assert all(proc.poll() is not None for proc in pair["procs"])
    for port in pair["ports"]:
        with socket.socket() as s:
            # SO_REUSEADDR lets a port in TIME_WAIT be bound again, never one still listened on.
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.1", port))
            s.listen()


# -- one process: a group of one, and what is refused -----------------------------------------


@pytest.fixture
def group_of_one(monkeypatch):
    from burnpy import distributed

    (port,) = free_ports(1)
    for name, value in dict(RANK="0", WORLD_SIZE="1", MASTER_ADDR="127.0.0.1").items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("MASTER_PORT", str(port))
    distributed.init(timeout_s=10)  # everything from torchrun's variables
    yield distributed
    distributed.shutdown()


def test_a_group_of_one_reduces_to_the_local_values(group_of_one):
    from burnpy.generated import Device, Tensor
    from burnpy.runtime.autodiff import hooks

    distributed = group_of_one
    assert (distributed.rank(), distributed.world_size()) == (0, 1) and len(hooks.HOOKS) == 1
    x = Tensor.from_data([[1.0, -2.0]], device=Device.numpy())
    np.testing.assert_array_equal(distributed.all_reduce(x, "mean").to_numpy(), [[1.0, -2.0]])
    w = Tensor.from_data([1.0, 2.0], device=Device.numpy().autodiff()).require_grad()
    marked = w.set_distributed_params(0)
    grads = (marked * marked).sum().backward()
    np.testing.assert_array_equal(marked.grad(grads).to_numpy(), [2.0, 4.0])
    with pytest.raises(RuntimeError, match="already joined a group"):
        distributed.init()
    distributed.shutdown()
    assert hooks.HOOKS == [] and not distributed.is_initialized()
    distributed.shutdown()  # a second time: nothing to do


def test_bad_arguments_are_refused_before_any_communication(monkeypatch):
    from burnpy import distributed
    from burnpy.generated import Device, Tensor

    for name in ("RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(ValueError, match="or to run under torchrun"):
        distributed.init()
    url = "tcp://127.0.0.1:1"
    with pytest.raises(ValueError, match=r"rank must be an int in \[0, 2\), got 2"):
        distributed.init(rank=2, world_size=2, init_method=url)
    with pytest.raises(ValueError, match="backend must be 'gloo' or 'nccl'"):
        distributed.init(rank=0, world_size=1, init_method=url, backend="mpi")
    with pytest.raises(ValueError, match="timeout_s must be positive"):
        distributed.init(rank=0, world_size=1, init_method=url, timeout_s=0)
    x = Tensor.ones([2], device=Device.numpy())
    with pytest.raises(ValueError, match="op must be one of sum, mean, max, min"):
        distributed.all_reduce(x, "avg")
    with pytest.raises(TypeError, match="needs a float tensor"):
        distributed.all_reduce(x.int(), "mean")
    with pytest.raises(TypeError, match="cast a Bool one"):
        distributed.broadcast(x.bool())
    with pytest.raises(RuntimeError, match=r"distributed.all_reduce\(\) needs a process group"):
        distributed.all_reduce(x)
    with pytest.raises(ValueError, match="12 items cannot be shared"):
        monkeypatch.setattr(distributed.data_parallel, "world_size", lambda: 13)
        distributed.shard_indices(12, seed=0, epoch=0)


def test_the_digits_example_runs_on_two_ranks_from_torchruns_environment(pair):
    """As `torchrun --nproc-per-node 2 examples/digits_cnn.py --distributed` starts it: the
    rank, world size and rendezvous come from the environment."""
    zero, one = scenario(pair, "example")
    assert [zero["exit"], one["exit"]] == [0, 0], (zero, one)
    lead = zero["out"].splitlines()
    assert lead[-2] == "parameters identical on all 2 ranks: True"
    assert lead[-1].startswith("test accuracy: ")
    assert float(lead[-1].split()[-1].rstrip("%")) > 30  # chance is 10%; 3 short epochs
    assert [line.split()[1] for line in lead if line.startswith("epoch ")] == ["1", "2", "3"]
    assert one["out"] == ""  # only rank 0 prints
    assert (pair["out"] / "example" / "epoch-3" / "model.safetensors").exists()
