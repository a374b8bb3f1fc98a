"""The Learner in one process: metrics checked against numpy, the log and the checkpoints,
resuming, early stopping, bad settings. (On two ranks: tests/test_distributed.py.)"""

import json
import sys

import numpy as np
import pytest
from scipy.special import logsumexp

from burnpy import data, nn, optim, train
from burnpy.nn.functional import cross_entropy
from burnpy.generated import Device

AD = Device.numpy().autodiff()
RNG = np.random.default_rng(0)
X = RNG.standard_normal((48, 4)).astype(np.float32)
LABELS = (X[:, 0] - X[:, 2] > 0).astype(np.int64) + (X[:, 1] > 1)
ITEMS = list(zip(X, LABELS))
TRAIN, VALID = ITEMS[:32], ITEMS[32:]
VOLATILE = ("seconds", "items_per_second")  # timings: differ between runs


def classify(model, batch):
    x, y = batch
    logits = model(x)
    return train.Output(cross_entropy(logits, y), logits, y)


def run(epochs, *, seed=1, directory=None, resume=False, early_stopping=None, **learner):
    Device.numpy().seed(seed)
    model = nn.Linear(4, 3, device=AD)
    opt = optim.Adam(5e-2)
    scheduler = optim.lr.Step(5e-2, 3, 0.5)
    loader = data.DataLoader(TRAIN, 8, shuffle=True, seed=3, device=AD)
    valid = data.DataLoader(VALID, 8, device=AD)
    fitter = train.Learner(
        model,
        opt,
        learner.pop("step_fn", classify),
        lr_scheduler=scheduler,
        checkpoint_dir=directory,
        early_stopping=early_stopping,
        **learner,
    )
    summary = fitter.fit(loader, valid, epochs, resume=resume)
    return model, summary


def steady(history):
    return [{k: v for k, v in record.items() if k not in VOLATILE} for record in history]


def test_the_epoch_metrics_match_numpy_and_are_printed(capsys):
    model, summary = run(2)
    history = summary.history
    assert [r["epoch"] for r in history] == [1, 2]
    assert list(history[0]) == [
        "epoch",
        "train_loss",
        "train_accuracy",
        "valid_loss",
        "valid_accuracy",
        "lr",
        "items_per_second",
        "seconds",
    ]
    # The validation metrics are those of the model as it ends the epoch.
    x, y = X[32:], LABELS[32:]
    logits = x @ model.weight.to_numpy() + model.bias.to_numpy()
    loss = np.mean(logsumexp(logits, axis=1) - logits[np.arange(len(y)), y])
    assert history[-1]["valid_loss"] == pytest.approx(loss, rel=1e-5)
    assert history[-1]["valid_accuracy"] == np.mean(logits.argmax(1) == y)
    assert [r["lr"] for r in history] == [0.025, 0.0125]  # Step(5e-2, 3, 0.5): calls 4 and 8
    assert all(r["items_per_second"] > 0 for r in history)
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("epoch 1  train_loss ")
    assert "valid_accuracy" in out[1] and "items/s" in out[1]
    assert out[2].startswith("training summary: 2 epoch(s)")
    assert out[3].split() == ["metric", "first", "last", "best"]
    assert str(summary).splitlines() == out[2:]


def test_each_epoch_is_logged_and_checkpointed(tmp_path):
    _, summary = run(3, directory=tmp_path)
    log = [json.loads(line) for line in (tmp_path / "log.jsonl").read_text().splitlines()]
    assert log == summary.history
    state = json.loads((tmp_path / "learner.json").read_text())
    assert state["epoch"] == 3 and state["history"] == summary.history
    assert state["lr_scheduler"] == {"iter_idx": 11}
    assert sorted(p.name for p in tmp_path.glob("epoch-*")) == ["epoch-2", "epoch-3"]
    assert {p.name for p in (tmp_path / "epoch-3").iterdir()} == {
        "model.safetensors",
        "optimizer.safetensors",
    }


def test_a_resumed_run_continues_as_if_never_stopped(tmp_path):
    straight, whole = run(3)
    run(1, directory=tmp_path)
    resumed, summary = run(3, seed=99, directory=tmp_path, resume=True)  # other initial weights
    for a, b in zip(straight.parameters(), resumed.parameters()):
        np.testing.assert_array_equal(a.to_numpy(), b.to_numpy())
    assert steady(summary.history) == steady(whole.history)
    assert len((tmp_path / "log.jsonl").read_text().splitlines()) == 3


def test_early_stopping_ends_the_run_and_a_resume_does_not_restart_it(tmp_path):
    stop = train.EarlyStopping("valid_loss", patience=1, min_delta=100.0)
    model, summary = run(6, directory=tmp_path, early_stopping=stop)
    assert len(summary.history) == 2
    assert summary.stopped_early.startswith("valid_loss did not improve on")
    before = [p.to_numpy() for p in model.parameters()]
    stop = train.EarlyStopping("valid_loss", patience=1, min_delta=100.0)
    again, resumed = run(6, directory=tmp_path, resume=True, early_stopping=stop)
    assert len(resumed.history) == 2 and resumed.stopped_early == summary.stopped_early
    for a, b in zip(before, again.parameters()):
        np.testing.assert_array_equal(a, b.to_numpy())


def test_patience_counts_epochs_without_improvement():
    stop = train.EarlyStopping("valid_accuracy", patience=2, mode="max", min_delta=0.01)
    decisions = [stop.update({"valid_accuracy": v}) for v in (0.5, 0.6, 0.605, 0.7, 0.7, 0.7)]
    assert decisions == [False, False, False, False, False, True]
    assert stop.best == 0.7


def test_without_tqdm_the_metrics_still_print(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "tqdm", None)  # `import tqdm` raises ImportError
    run(1)
    assert capsys.readouterr().out.startswith("epoch 1  train_loss")


def test_bad_settings_are_refused_before_training(tmp_path):
    with pytest.raises(ValueError, match=r"unknown metrics \['f1'\]"):
        run(1, metrics=("loss", "f1"))
    with pytest.raises(ValueError, match="fit\\(resume=True\\) needs the Learner's checkpoint_dir"):
        run(1, resume=True)
    with pytest.raises(FileNotFoundError, match="holds no checkpoint"):
        run(1, directory=tmp_path / "empty", resume=True)
    with pytest.raises(ValueError, match="EarlyStopping watches 'valid_f1'"):
        run(1, early_stopping=train.EarlyStopping("valid_f1"))
    with pytest.raises(ValueError, match="patience must be an int >= 1"):
        train.EarlyStopping(patience=0)
    with pytest.raises(ValueError, match="the accuracy metric needs"):
        run(1, step_fn=lambda model, batch: train.Output(classify(model, batch).loss))
