"""The Learner's end states and the files the project writes: early stopping that restores the
best epoch, an empty loader refused, total-norm clipping captured, tied weights, PyTorch weights
in [in, out] layout, optimiser records checked against their model, bad files named, writes
that survive a kill (a child process killed during saves, bounded in time)."""

import ast
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
import torch
from safetensors.numpy import save_file
from safetensors.torch import save_file as torch_save_file

import burnpy
from burnpy import capture, data, files, nn, optim, train
from burnpy.nn.functional import cross_entropy
from burnpy.generated import Device, Tensor

import background

ROOT = Path(__file__).resolve().parents[1]
DEVICES = {"numpy": Device.numpy().autodiff(), "torch": Device.torch().autodiff()}


def _problem(n=64, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 4)).astype(np.float32)
    y = (x[:, 0] > 0).astype(np.int64)
    return list(zip(x, y))


def _step(model, batch):
    x, y = batch
    logits = model(x)
    return train.Output(cross_entropy(logits, y), logits, y)


def _learner(device, tmp_path, early, lr=0.05):
    device.seed(0)
    model = nn.Sequential(nn.Linear(4, 8, device=device), nn.Relu(), nn.Linear(8, 2, device=device))
    learner = train.Learner(
        model, optim.Adam(lr), _step, checkpoint_dir=tmp_path, early_stopping=early
    )
    return model, learner


# -- early stopping keeps and restores the best epoch ------------------------------------------


class _Scripted(train.EarlyStopping):
    """Early stopping fed a scripted metric, so which epoch is best is known beforehand."""

    def __init__(self, values, **kwargs):
        super().__init__("train_loss", **kwargs)
        self.values = iter(values)

    def update(self, metrics):
        return super().update({**metrics, "train_loss": next(self.values)})


@pytest.mark.parametrize("backend", DEVICES)
def test_early_stopping_restores_the_best_epoch(backend, tmp_path, capsys):
    device = DEVICES[backend]
    model, learner = _learner(device, tmp_path, _Scripted([3.0, 1.0, 2.0, 2.5], patience=2))
    snapshots = []
    step = learner.step_fn
    learner.step_fn = lambda m, b: step(m, b)
    original = learner._epoch

    def epoch(*args):
        record = original(*args)
        snapshots.append(model.state_dict())
        return record

    learner._epoch = epoch
    loader = data.DataLoader(_problem(), 16, shuffle=True, seed=0, device=device)
    summary = learner.fit(loader, None, epochs=10)
    assert len(summary.history) == 4 and summary.stopped_early
    assert "restored the weights of epoch 2" in capsys.readouterr().out
    best = snapshots[1]
    for name, array in model.state_dict().items():
        np.testing.assert_array_equal(array, best[name], err_msg=name)
    # best/ holds epoch 2; the last epochs' folders are the newest two
    on_disk = nn.Sequential(
        nn.Linear(4, 8, device=device), nn.Relu(), nn.Linear(8, 2, device=device)
    ).load(tmp_path / "best" / "model.safetensors")
    for name, array in on_disk.state_dict().items():
        np.testing.assert_array_equal(array, best[name], err_msg=name)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "best",
        "epoch-3",
        "epoch-4",
        "learner.json",
        "log.jsonl",
    ]
    log = [json.loads(line) for line in (tmp_path / "log.jsonl").read_text().splitlines()]
    assert [r["epoch"] for r in log] == [1, 2, 3, 4]


def test_early_stopping_without_restore_ends_with_the_last_epoch(tmp_path):
    device = DEVICES["numpy"]
    model, learner = _learner(device, tmp_path, _Scripted([3.0, 1.0, 2.0, 2.5], restore_best=False))
    loader = data.DataLoader(_problem(), 16, device=device)
    learner.fit(loader, None, epochs=10)
    last = nn.Sequential(
        nn.Linear(4, 8, device=device), nn.Relu(), nn.Linear(8, 2, device=device)
    ).load(tmp_path / "epoch-4" / "model.safetensors")
    for name, array in model.state_dict().items():
        np.testing.assert_array_equal(array, last.state_dict()[name])
    assert not (tmp_path / "best").exists()


def test_resumed_run_restores_the_best_epoch_from_disk(tmp_path):
    device = DEVICES["numpy"]
    model, learner = _learner(device, tmp_path, _Scripted([1.0, 2.0], patience=5))
    loader = data.DataLoader(_problem(), 16, device=device)
    learner.fit(loader, None, epochs=2)
    best = nn.Sequential(
        nn.Linear(4, 8, device=device), nn.Relu(), nn.Linear(8, 2, device=device)
    ).load(tmp_path / "epoch-1" / "model.safetensors")
    model, learner = _learner(device, tmp_path, _Scripted([5.0], patience=5))
    learner.fit(loader, None, epochs=3, resume=True)
    for name, array in model.state_dict().items():
        np.testing.assert_array_equal(array, best.state_dict()[name], err_msg=name)


def test_fit_on_an_empty_loader_raises_and_writes_nothing(tmp_path):
    device = DEVICES["numpy"]
    _, learner = _learner(device, tmp_path / "run", None)
    loader = data.DataLoader(_problem(3), 4, drop_last=True, device=device)
    with pytest.raises(ValueError, match=r"yields no batch \(3 items, batch_size 4, drop_last"):
        learner.fit(loader, None, epochs=2)
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize(
    "args, error, message",
    [
        (([1, 2], 2.5), TypeError, "batch_size must be an int, got 2.5"),
        (([1, 2], 0), ValueError, "batch_size must be at least 1"),
        ((iter([1, 2]), 2), TypeError, "dataset must be a sequence"),
        (([1, 2], 2, "yes"), TypeError, "shuffle must be True or False"),
    ],
)
def test_data_loader_checks_its_arguments_when_built(args, error, message):
    items, batch_size, *shuffle = args
    with pytest.raises(error, match=message):
        data.DataLoader(items, batch_size, shuffle=shuffle[0] if shuffle else False, device=None)
    with pytest.raises(TypeError, match="device must be a Device"):
        data.DataLoader([1], 1, device="cpu")


# -- clipping by the total norm inside a captured step ------------------------------------------


@pytest.mark.parametrize("backend", DEVICES)
def test_grad_clip_total_norm_is_captured(backend):
    device = DEVICES[backend]
    rng = np.random.default_rng(0)
    batches = [
        (
            Tensor.from_data(rng.normal(size=(8, 4)) * 10, device=device, dtype="float32"),
            Tensor.from_data(rng.integers(0, 2, 8), device=device),
        )
        for _ in range(3)
    ]

    def step(model, opt, x, y):
        loss = cross_entropy(model(x), y)
        opt.step(model, loss.backward())
        return loss

    models, opts = [], []
    for _ in range(2):
        device.seed(0)
        models.append(nn.Linear(4, 2, device=device))
        opts.append(optim.SGD(0.5, grad_clip_total_norm=0.1))
    captured = capture(step)
    for x, y in batches:
        step(models[0], opts[0], x, y)
        captured(models[1], opts[1], x, y)
    for (name, a), (_, b) in zip(models[0].named_parameters(), models[1].named_parameters()):
        np.testing.assert_array_equal(a.to_numpy(), b.to_numpy(), err_msg=name)


# -- tied weights ------------------------------------------------------------------------------


class _Tied(nn.Module):
    """An embedding whose table is also the output projection (GPT-2's head)."""

    def __init__(self, device):
        super().__init__()
        self.embed = nn.Embedding(5, 3, device=device)
        self.head = nn.Linear(3, 5, bias=False, device=device)
        self.head.weight = self.embed.weight  # [5, 3]: used transposed below

    def forward(self, ids):
        return self.embed(ids).matmul(self.head.weight.transpose())


@pytest.mark.parametrize("backend", DEVICES)
def test_tied_weights_are_one_parameter(backend, tmp_path):
    device = DEVICES[backend]
    model = _Tied(device)
    assert len(model.parameters()) == 1 and model.num_params() == 15
    assert len(set(model.param_ids())) == 1
    table = model.embed.weight.to_numpy()
    ids = np.array([[0, 3, 4]])
    grads = model(Tensor.from_data(ids, device=device)).sum().backward()
    # torch: both uses' gradients summed into the one tensor
    theirs = torch.tensor(table.astype(np.float64), requires_grad=True)
    torch.nn.functional.embedding(torch.tensor(ids), theirs).matmul(theirs.T).sum().backward()
    np.testing.assert_allclose(
        model.embed.weight.grad(grads).to_numpy(), theirs.grad.numpy(), rtol=1e-5
    )
    optim.SGD(0.1).step(model, grads)
    assert model.head.weight is model.embed.weight  # both attributes hold the new tensor
    np.testing.assert_allclose(
        model.embed.weight.to_numpy(), table - 0.1 * theirs.grad.numpy(), rtol=1e-5
    )
    model.save(tmp_path / "tied.safetensors")
    loaded = _Tied(device).load(tmp_path / "tied.safetensors")
    assert loaded.head.weight is loaded.embed.weight
    assert loaded.param_ids() == model.param_ids()
    moved = loaded.to_device(Device.numpy())
    assert moved.head.weight is moved.embed.weight


# -- PyTorch weights ---------------------------------------------------------------------------


class _Block(nn.Module):
    def __init__(self, device):
        super().__init__()
        self.c_attn = nn.Linear(4, 4, device=device)  # square: a wrong layout loads silently
        self.c_proj = nn.Linear(4, 6, device=device)
        self.out = nn.Linear(6, 2, device=device)


def test_load_pytorch_keep_layout_for_conv1d_weights(tmp_path):
    rng = np.random.default_rng(0)
    state = {  # HF Conv1D stores [in, out]; torch's Linear [out, in]
        "c_attn.weight": rng.normal(size=(4, 4)).astype(np.float32),
        "c_attn.bias": np.zeros(4, np.float32),
        "c_proj.weight": rng.normal(size=(4, 6)).astype(np.float32),
        "c_proj.bias": np.zeros(6, np.float32),
        "out.weight": rng.normal(size=(2, 6)).astype(np.float32),
        "out.bias": np.zeros(2, np.float32),
    }
    save_file(state, tmp_path / "hf.safetensors")
    model = _Block(Device.numpy())
    with pytest.raises(ValueError, match=r"c_proj.weight holds shape \[4, 6\].*keep_layout="):
        nn.load_pytorch(model, tmp_path / "hf.safetensors")
    for keep in ("c_*.weight", ["c_attn.weight", "c_proj.weight"], lambda k: k.startswith("c_")):
        nn.load_pytorch(model, tmp_path / "hf.safetensors", strict=True, keep_layout=keep)
        np.testing.assert_array_equal(model.c_attn.weight.to_numpy(), state["c_attn.weight"])
        np.testing.assert_array_equal(model.c_proj.weight.to_numpy(), state["c_proj.weight"])
        np.testing.assert_array_equal(model.out.weight.to_numpy(), state["out.weight"].T)


# -- optimiser records belong to their model ----------------------------------------------------


def test_optimizer_load_refuses_another_models_state(tmp_path):
    device = DEVICES["numpy"]
    model, other = nn.Linear(2, 2, device=device), nn.Linear(2, 2, device=device)
    opt = optim.Adam(1e-2)
    opt.step(model, model(Tensor.ones([1, 2], device=device)).sum().backward())
    opt.save(tmp_path / "opt.safetensors")
    fresh = optim.Adam(1e-2)
    with pytest.raises(
        ValueError, match=r"state for 2 parameters, 2 of which are not among the model's 2"
    ):
        fresh.load(tmp_path / "opt.safetensors", other)
    assert fresh.state == {}  # nothing changed
    fresh.load(tmp_path / "opt.safetensors")  # without the model: checked at the next step
    with pytest.raises(ValueError, match="not among the model's"):
        fresh.step(other, other(Tensor.ones([1, 2], device=device)).sum().backward())
    optim.Adam(1e-2).load(tmp_path / "opt.safetensors", model)


# -- bad files ---------------------------------------------------------------------------------


def _bad_files(tmp_path):
    good = tmp_path / "good.safetensors"
    nn.Linear(2, 2, device=Device.numpy()).save(good)
    data_ = good.read_bytes()
    cases = {}
    cases["truncated"] = (data_[: len(data_) // 2], ValueError, "truncated")
    cases["empty"] = (b"", ValueError, "fewer than a safetensors header's 8")
    cases["text"] = (b"this is not a model at all\n", ValueError, "not a safetensors file")
    torch.save({"weight": torch.zeros(2)}, tmp_path / "pickle.pt")
    cases["pickle"] = (
        (tmp_path / "pickle.pt").read_bytes(),
        ValueError,
        "PyTorch pickle.*save_file",
    )
    paths = {}
    for name, (content, error, message) in cases.items():
        path = tmp_path / f"{name}.safetensors"
        path.write_bytes(content)
        paths[name] = (path, error, message)
    paths["directory"] = (tmp_path, IsADirectoryError, "it is a directory")
    paths["missing"] = (tmp_path / "nothing.safetensors", FileNotFoundError, "no such file")
    return paths


@pytest.mark.parametrize("case", ["truncated", "empty", "text", "pickle", "directory", "missing"])
def test_bad_files_are_named_with_their_cause(case, tmp_path):
    path, error, message = _bad_files(tmp_path)[case]
    for load in (
        lambda: nn.Linear(2, 2, device=Device.numpy()).load(path),
        lambda: optim.Adam(1e-3).load(path),
        lambda: nn.load_pytorch(nn.Linear(2, 2, device=Device.numpy()), path),
    ):
        with pytest.raises(error, match=message) as raised:
            load()
        assert str(path) in str(raised.value)
        assert raised.value.__cause__ is not None  # the library's own error is kept


def test_unreadable_file(tmp_path, monkeypatch):
    path = tmp_path / "locked.safetensors"
    nn.Linear(2, 2, device=Device.numpy()).save(path)
    path.chmod(0)
    if os.geteuid() == 0:  # root reads any file: the OS's refusal, as a user meets it
        denied = PermissionError(13, "Permission denied")

        def refuse(*args, **kwargs):
            raise denied

        monkeypatch.setattr(files, "safe_open", refuse)
    with pytest.raises(PermissionError, match="no permission to read it .*Permission denied"):
        nn.Linear(2, 2, device=Device.numpy()).load(path)


# -- atomic writes -----------------------------------------------------------------------------


def test_saves_take_the_umask_mode_and_leave_no_temporary(tmp_path):
    old = os.umask(0o022)
    try:
        nn.Linear(2, 2, device=Device.numpy()).save(tmp_path / "m.safetensors")
        optim.Adam(1e-3).save(tmp_path / "o.safetensors")
    finally:
        os.umask(old)
    assert (tmp_path / "m.safetensors").stat().st_mode & 0o777 == 0o644
    assert (tmp_path / "o.safetensors").stat().st_mode & 0o777 == 0o644
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.safetensors", "o.safetensors"]


def test_a_failed_write_keeps_the_old_file_and_removes_its_temporary(tmp_path, monkeypatch):
    path = tmp_path / "m.safetensors"
    files.write_bytes(path, b"old")

    def failing_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(OSError, match="No space left"):
        files.write_bytes(path, b"new")
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["m.safetensors"]


def test_a_killed_writers_temporary_is_removed_by_the_next_write(tmp_path):
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()  # a pid that is no longer running
    stale = tmp_path / f".m.safetensors.{child.pid}.partial"
    stale.write_bytes(b"half")
    files.write_bytes(tmp_path / "m.safetensors", b"whole")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.safetensors"]


KILL_DURING_SAVES = textwrap.dedent("""
    import json, os, random, signal, sys, time
    from pathlib import Path
    from burnpy import nn, optim
    from burnpy.generated import Device, Tensor

    folder, kills = Path(sys.argv[1]), int(sys.argv[2])
    device = Device.numpy().autodiff()
    make = lambda: nn.Sequential(*[nn.Linear(256, 256, device=device) for _ in range(4)])
    model, opt = make(), optim.Adam(1e-3)
    opt.step(model, model(Tensor.ones([1, 256], device=device)).sum().backward())
    random.seed(0)
    counts = {"kills": 0, "torn": 0, "whole": 0, "temporaries": 0}
    for _ in range(kills):
        pid = os.fork()
        if pid == 0:  # the saver, killed at a random moment
            while True:
                model.save(folder / "model.safetensors")
                opt.save(folder / "optimizer.safetensors")
        time.sleep(random.uniform(0.05, 0.3))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        counts["kills"] += 1
        counts["temporaries"] += len(list(folder.glob(".*.partial")))
        for name, load in (("model", lambda p: make().load(p)),
                           ("optimizer", lambda p: optim.Adam(1e-3).load(p, model))):
            path = folder / f"{name}.safetensors"
            if path.exists():
                try:
                    load(path)
                    counts["whole"] += 1
                except ValueError:
                    counts["torn"] += 1
    model.save(folder / "model.safetensors")  # removes what the killed savers left
    opt.save(folder / "optimizer.safetensors")
    counts["left"] = sorted(p.name for p in folder.iterdir())
    print(json.dumps(counts))
    """)


def test_kill_during_saves_leaves_whole_files():
    """A forked child saving a model and its optimiser in a loop is SIGKILLed at random
    moments: every file left loads whole, and the next save removes the temporaries the killed
    writes left."""
    job = _STARTED["test_kill_during_saves_leaves_whole_files"]
    assert job.wait() == [0], job.output(0)
    counts = json.loads(job.output(0).splitlines()[-1])
    print(counts)  # shown with -s
    assert counts["kills"] == 12 and counts["torn"] == 0 and counts["whole"] >= 20
    assert counts["left"] == ["model.safetensors", "optimizer.safetensors"]


# -- threads -----------------------------------------------------------------------------------


def test_set_num_threads_sets_numpy_blas_and_torch_together():
    from threadpoolctl import threadpool_info

    from burnpy.runtime.backends import blas_threads

    before = burnpy.get_num_threads()
    try:
        burnpy.set_num_threads(1)
        assert burnpy.get_num_threads() == 1 and torch.get_num_threads() == 1
        assert all(lib["num_threads"] == 1 for lib in threadpool_info())
        assert blas_threads.count() == 1  # (what kernels sized by it read)
        burnpy.set_num_threads(2)
        assert burnpy.get_num_threads() == 2 and torch.get_num_threads() == 2
        assert blas_threads.count() == 2
    finally:
        burnpy.set_num_threads(before)
    with pytest.raises(ValueError, match="n must be an int >= 1, got 0"):
        burnpy.set_num_threads(0)


def _scipy_wheel_blas(info) -> list:
    """The thread counts of the BLAS libraries that came in scipy's wheel (beside numpy's)."""
    return [lib["num_threads"] for lib in info if _in_scipy_wheel(lib)]


def _in_scipy_wheel(lib) -> bool:
    import scipy

    home = Path(scipy.__file__).resolve().parent
    parents = Path(lib["filepath"]).resolve().parents
    return lib["user_api"] == "blas" and (home in parents or home.with_suffix(".libs") in parents)


def test_scipy_wheel_blas_stays_at_one_thread_beside_numpys():
    from threadpoolctl import threadpool_info

    from burnpy.runtime.backends.numpy_norm import add_outer

    rng = np.random.default_rng(0)
    a, rows, cols = (rng.standard_normal(shape, dtype=np.float32) for shape in ((5, 3), 5, 3))
    expected = a + 2 * np.outer(rows, cols)
    before = burnpy.get_num_threads()
    try:
        burnpy.set_num_threads(2)
        add_outer(a, rows, cols, 2.0)  # scipy's BLAS (ger)
        np.testing.assert_allclose(a, expected, rtol=1e-6)
        info = threadpool_info()
        assert set(_scipy_wheel_blas(info)) <= {1}
        numpys = [lib for lib in info if lib["user_api"] == "blas" and not _in_scipy_wheel(lib)]
        assert numpys and all(lib["num_threads"] == 2 for lib in numpys)
        assert burnpy.get_num_threads() == 2
    finally:
        burnpy.set_num_threads(before)


THREADS = textwrap.dedent("""
    import sys
    import numpy as np
    import burnpy, burnpy.threads
    from burnpy.runtime.backends.numpy_norm import add_outer
    from threadpoolctl import threadpool_info
    burnpy.threads.use_default()
    if sys.argv[1] == "torch":
        import torch
        print(torch.get_num_threads())
    print(burnpy.get_num_threads())
    add_outer(np.zeros((4, 3), np.float32), np.ones(4, np.float32), np.ones(3, np.float32))
    print(repr(threadpool_info()))  # scipy's BLAS loaded now, after the count was chosen
    """)


def _start_threads(config):
    """Two fresh processes, started with the session: one with no thread variable set (torch
    imported after the default), one with OPENBLAS_NUM_THREADS=2 (no torch)."""
    variables = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
    env = {k: v for k, v in os.environ.items() if k not in variables}
    env["PYTHONPATH"] = str(ROOT)
    for name, extra, torch in (
        ("default", {}, "torch"),
        ("chosen", {"OPENBLAS_NUM_THREADS": "2"}, ""),
    ):
        command = [sys.executable, "-c", THREADS, torch]
        _STARTED[f"threads {name}"] = background.start(
            config, lambda _, command=command: [command], 60, env={**env, **extra}
        )


def test_default_is_one_thread_unless_chosen():
    default, chosen = _STARTED["threads default"], _STARTED["threads chosen"]
    assert default.wait() == [0] and chosen.wait() == [0], default.output(0) + chosen.output(0)
    default, chosen = default.output(0).splitlines(), chosen.output(0).splitlines()
    assert default[:2] == ["1", "1"]  # torch imported after the default: it too
    assert chosen[0] == "2"
    # scipy's own BLAS, loaded after the count was chosen, runs at one thread
    assert set(_scipy_wheel_blas(ast.literal_eval(chosen[1]))) == {1}


# -- a killed generator leaves no process ------------------------------------------------------


def _children(pid: int) -> list:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_killed_generator_leaves_no_black_worker():
    """The generator's black pool is started (many long statements of a kind only black lays
    out: a sum), the generator SIGKILLed: its workers end on their own within seconds."""
    script = textwrap.dedent("""
        from burnpy.codegen import render
        line = " = " + " + ".join(f"value_{i}" for i in range(40))
        chunks = {f"m{i}.py": f"def f{i}():\\n    x{i}{line}\\n" * 40 for i in range(400)}
        render.format_all(chunks)
        """)
    child = subprocess.Popen(
        [sys.executable, "-c", script], env={**os.environ, "PYTHONPATH": str(ROOT)}
    )
    try:
        deadline = time.monotonic() + 30
        while not (workers := _children(child.pid)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert workers, "the pool never started"
    finally:
        child.kill()
        child.wait(timeout=30)
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{pid}").exists() for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [pid for pid in workers if Path(f"/proc/{pid}").exists()]
    for pid in left:  # never leave them running, even when the test fails
        os.kill(pid, 9)
    assert not left


def test_a_black_worker_collects_garbage_where_the_generator_does_not():
    """`python -m codegen` turns the collector off; its pool's workers, forked from it, turn it
    back on (black's syntax trees hold cycles)."""
    script = (
        "import gc, os; gc.disable(); from burnpy.codegen import render; "
        "render.start_worker(os.getppid()); print(gc.isenabled())"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stdout.strip() == "True", done.stderr


# -- a tensor kept from a captured step --------------------------------------------------------


@pytest.mark.parametrize("backend", DEVICES)
def test_a_tensor_escaping_a_captured_step_works_afterwards(backend):
    """A memo made inside the step's first (recorded) call is a plain tensor once the
    recording is over: it reads, computes and feeds later eager code; the steps give eager's
    losses."""
    device = DEVICES[backend]

    def make_step(memo):
        def step(model, opt, x, y):
            if "scale" not in memo:
                memo["scale"] = Tensor.ones([4, 2], device=device) * 0.5
            loss = cross_entropy(model(x) * memo["scale"], y)
            opt.step(model, loss.backward())
            return loss

        return step

    x = Tensor.from_data(np.arange(12.0).reshape(4, 3) / 10, device=device, dtype="float32")
    y = Tensor.from_data([0, 1, 0, 1], device=device)
    losses = []
    memos = [{}, {}]
    for memo, wrap in zip(memos, (lambda f: f, capture)):
        device.seed(0)
        model, opt = nn.Linear(3, 2, device=device), optim.SGD(0.1)
        step = wrap(make_step(memo))
        losses.append([step(model, opt, x, y).item() for _ in range(3)])
    assert losses[0] == losses[1]
    kept = memos[1]["scale"]
    np.testing.assert_array_equal(kept.to_numpy(), np.full((4, 2), 0.5))
    assert (kept + 1.0).sum().item() == 12.0 and kept[0].tolist() == [0.5, 0.5]
    assert float(kept.sum()) == 4.0


KILL_DURING_FIT = textwrap.dedent("""
    import json, os, random, signal, sys, time
    from pathlib import Path
    import numpy as np
    from burnpy import data, nn, optim, train
    from burnpy.nn.functional import cross_entropy
    from burnpy.generated import Device

    folder, kills = Path(sys.argv[1]), int(sys.argv[2])
    device = Device.numpy().autodiff()
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 4)).astype(np.float32)
    items = list(zip(x, (x[:, 0] > 0).astype(np.int64)))

    def learner():
        device.seed(0)
        model = nn.Sequential(nn.Linear(4, 64, device=device), nn.Relu(), nn.Linear(64, 2, device=device))
        step = lambda m, b: train.Output(cross_entropy(m(b[0]), b[1]), m(b[0]), b[1])
        early = train.EarlyStopping("train_loss", patience=10**6, min_delta=0.0)
        return model, train.Learner(model, optim.Adam(1e-3), step, checkpoint_dir=folder,
                                    early_stopping=early)

    loader = lambda: data.DataLoader(items, 16, shuffle=True, seed=0, device=device)
    random.seed(0)
    counts = {"kills": 0, "checkpoints": 0, "inconsistent": 0}
    for _ in range(kills):
        pid = os.fork()
        if pid == 0:  # trains (resuming what the last one left) until killed
            sys.stdout = open(os.devnull, "w")
            sys.stderr = open(os.devnull, "w")
            model, l = learner()
            l.fit(loader(), None, epochs=10**6, resume=l.can_resume())
            os._exit(0)
        time.sleep(random.uniform(0.15, 0.6))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        counts["kills"] += 1
        index = folder / "learner.json"
        if not index.exists():
            continue
        counts["checkpoints"] += 1
        try:
            state = json.loads(index.read_text())
            epoch = state["epoch"]
            model, _ = learner()
            model.load(folder / f"epoch-{epoch}" / "model.safetensors")
            optim.Adam(1e-3).load(folder / f"epoch-{epoch}" / "optimizer.safetensors", model)
            log = [json.loads(l) for l in (folder / "log.jsonl").read_text().splitlines()]
            assert len(state["history"]) == epoch and len(log) >= epoch
            assert [r["epoch"] for r in log[:epoch]] == list(range(1, epoch + 1))
        except Exception as error:
            counts["inconsistent"] += 1
            counts.setdefault("errors", []).append(repr(error))
    counts["left_behind"] = sorted(p.name for p in folder.iterdir() if p.name.startswith("."))
    model, l = learner()  # the last resume tidies what the kills left
    state = json.loads((folder / "learner.json").read_text())
    sys.stdout = open(os.devnull, "w")
    l.fit(loader(), None, epochs=state["epoch"] + 1, resume=True)
    sys.stdout = sys.__stdout__
    counts["after_resume"] = sorted(p.name for p in folder.iterdir())
    counts["log_lines"] = len((folder / "log.jsonl").read_text().splitlines())
    counts["epochs"] = state["epoch"] + 1
    print(json.dumps(counts))
    """)


def test_kill_during_fit_leaves_a_run_that_resumes():
    """A forked child runs `fit` (resuming what the last one left) and is SIGKILLed at random
    moments, many of them inside a checkpoint: every checkpoint that learner.json names is
    whole (the model, the optimiser state of that model, the log's lines), and the resume
    after the last kill removes what the killed saves left."""
    job = _STARTED["test_kill_during_fit_leaves_a_run_that_resumes"]
    assert job.wait() == [0], job.output(0)
    counts = json.loads(job.output(0).splitlines()[-1])
    print(counts)  # shown with -s
    assert counts["kills"] == 6 and counts["checkpoints"] >= 4, counts
    assert counts["inconsistent"] == 0, counts
    epochs = counts["epochs"]
    assert counts["after_resume"] == sorted(
        ["best", f"epoch-{epochs - 1}", f"epoch-{epochs}", "learner.json", "log.jsonl"]
    )
    assert counts["log_lines"] == epochs


# The kill tests' children, started with the session (tests/background.py): each writes in a
# folder of its own (the job's), its last line of output the counts the test reads.
KILLS = {
    "test_kill_during_saves_leaves_whole_files": (KILL_DURING_SAVES, "12"),
    "test_kill_during_fit_leaves_a_run_that_resumes": (KILL_DURING_FIT, "6"),
}
KILLS_LIMIT_S = 120
_STARTED = {}


def start_in_background(config, names):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for name in KILLS.keys() & {*names}:
        script, kills = KILLS[name]

        def command(folder, script=script, kills=kills):
            (folder / "run").mkdir()  # what the child writes, beside its output
            return [[sys.executable, "-c", script, str(folder / "run"), kills]]

        _STARTED[name] = background.start(config, command, KILLS_LIMIT_S, env=env)
    if "test_default_is_one_thread_unless_chosen" in names:
        _start_threads(config)


def test_tied_weights_stay_tied_in_copies():
    import copy
    import pickle

    model = _Tied(DEVICES["numpy"])
    for clone in (copy.deepcopy(model), pickle.loads(pickle.dumps(model)), model.valid()):
        assert clone.head.weight is clone.embed.weight
        np.testing.assert_array_equal(clone.embed.weight.to_numpy(), model.embed.weight.to_numpy())
    assert copy.deepcopy(model).embed.weight.is_require_grad()


def test_a_new_run_over_an_old_runs_folder_keeps_nothing_of_it(tmp_path):
    device = DEVICES["numpy"]
    loader = data.DataLoader(_problem(), 16, device=device)
    _, learner = _learner(device, tmp_path, _Scripted([3.0, 2.0, 1.0], patience=5))
    learner.fit(loader, None, epochs=3)
    (tmp_path / ".epoch-7.999999.partial").mkdir()  # what a killed run of long ago left
    model, learner = _learner(device, tmp_path, None)
    learner.fit(loader, None, epochs=1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["epoch-1", "learner.json", "log.jsonl"]
    assert len((tmp_path / "log.jsonl").read_text().splitlines()) == 1
    assert json.loads((tmp_path / "learner.json").read_text())["epoch"] == 1
