"""Saves into a folder others can write (a shared run folder): a symbolic link planted where a
save's temporary goes, another user's stale temporary, the mode a saved file gets; and the ONNX
conformance tool's cache of cases, read as data (never a pickle)."""

import ast
import io
import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from burnpy import files, nn, onnx, optim
from burnpy.generated import Device, Tensor
from burnpy.onnx import conformance
from burnpy.train.checkpoint import Checkpoints

ROOT = Path(__file__).parent.parent


@pytest.fixture
def shared(tmp_path):
    """A run folder everyone may write, as /tmp is (sticky), with a file of the victim's that
    the attacker would like overwritten."""
    folder = tmp_path / "run"
    folder.mkdir()
    os.chmod(folder, 0o1777)
    victim = tmp_path / "victim.txt"
    victim.write_text("the victim's file")
    return folder, victim


def model():
    return nn.Linear(3, 2, device=Device.numpy())


def loads_whole(path) -> bool:
    return np.array_equal(model().load(path).weight.to_numpy(), saved_weight(path))


def saved_weight(path):
    with files.open_safetensors(path, "a record") as record:
        return next(record.get_tensor(k) for k in record.keys() if k.endswith("weight"))


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_link_planted_at_the_temporary_name_a_save_once_used_is_never_followed(shared):
    folder, victim = shared
    target = folder / "model.safetensors"
    planted = folder / f".model.safetensors.{os.getpid()}.partial"
    planted.symlink_to(victim)
    layer = model()
    layer.save(target)
    assert victim.read_text() == "the victim's file"
    assert target.is_file() and not target.is_symlink()
    np.testing.assert_array_equal(saved_weight(target), layer.weight.to_numpy())
    assert planted.is_symlink()  # (not this process's to remove)


def test_a_link_at_the_very_name_mkstemp_picks_is_skipped(shared, monkeypatch):
    """mkstemp creates its file with O_EXCL: a name taken, even by a link, is never opened."""
    folder, victim = shared
    names = iter(["planted", "fresh"])
    monkeypatch.setattr(tempfile, "_get_candidate_names", lambda: names)
    (folder / f".model.safetensors.{os.getpid()}.planted.partial").symlink_to(victim)
    model().save(folder / "model.safetensors")
    assert victim.read_text() == "the victim's file"
    assert (folder / "model.safetensors").is_file()


def test_another_users_stale_temporary_is_left_alone_and_is_no_error(shared, monkeypatch):
    folder, victim = shared
    stale = folder / f".model.safetensors.{dead_pid()}.x1y2.partial"
    stale.write_bytes(b"another user's half-written save")
    link = folder / f".model.safetensors.{dead_pid()}.x3y4.partial"
    link.symlink_to(victim)
    if os.geteuid() == 0:
        os.chown(stale, 65534, 65534)
        os.lchown(link, 65534, 65534)
    else:
        monkeypatch.setattr(os, "geteuid", lambda: os.getuid() + 1)
    model().save(folder / "model.safetensors")
    assert stale.read_bytes() == b"another user's half-written save"
    assert link.is_symlink() and victim.read_text() == "the victim's file"
    # while this user's own, of a process that has ended, goes
    monkeypatch.undo()
    mine = folder / f".model.safetensors.{dead_pid()}.z5.partial"
    mine.write_bytes(b"half")
    model().save(folder / "model.safetensors")
    assert not mine.exists() and stale.exists()


@pytest.mark.parametrize("umask", [0o022, 0o027, 0o002], ids=lambda u: f"umask-{u:03o}")
def test_every_save_takes_the_mode_the_umask_gives(tmp_path, umask):
    from onnx import TensorProto, helper

    relu = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])],
        "relu",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
    )
    old = os.umask(umask)
    try:
        model().save(tmp_path / "m.safetensors")
        optim.Adam(1e-3).save(tmp_path / "o.safetensors")
        py = onnx.generate(helper.make_model(relu), tmp_path / "gen", name="net")
        Checkpoints(tmp_path / "run")._publish(tmp_path / "run" / "best", model(), optim.SGD(0.1))
    finally:
        os.umask(old)
    mode = 0o666 & ~umask
    written = [tmp_path / "m.safetensors", tmp_path / "o.safetensors", py]
    written += [py.with_suffix(".safetensors"), tmp_path / "run/best/model.safetensors"]
    for path in written:
        assert stat.S_IMODE(path.stat().st_mode) == mode, path
    assert stat.S_IMODE((tmp_path / "run/best").stat().st_mode) == 0o777 & ~umask
    assert [p.name for p in (tmp_path / "run").iterdir()] == ["best"]  # no temporary left


def test_a_checkpoint_folder_is_written_under_a_name_no_one_could_plant(shared):
    folder, victim = shared
    aside = victim.parent / "aside"
    aside.mkdir()
    for kind in ("partial", "old"):
        (folder / f".best.{os.getpid()}.{kind}").symlink_to(aside)
    checkpoints = Checkpoints(folder)
    for _ in range(2):  # the second moves the first aside
        checkpoints._publish(folder / "best", model(), optim.SGD(0.1))
    assert list(aside.iterdir()) == []
    assert (folder / "best").is_dir() and not (folder / "best").is_symlink()
    assert sorted(p.name for p in (folder / "best").iterdir()) == [
        "model.safetensors",
        "optimizer.safetensors",
    ]


# -- the conformance tool's cache --------------------------------------------------------------


def every_kind_of_case() -> list:
    values = [
        np.arange(6, dtype=np.float32).reshape(2, 3),
        np.array([True, False]),
        np.float32(2.5),  # a numpy scalar
        np.array(["a", "b\n"], dtype=object),
        np.array([1.5, -2.0], dtype=ml_dtypes.bfloat16),
        np.array([0.5, 448.0], dtype=ml_dtypes.float8_e4m3fn),
        np.array([-8, 7], dtype=ml_dtypes.int4),
        [np.zeros(2, dtype=np.int64), np.ones(1, dtype=np.uint8)],  # a sequence
        None,  # an optional left empty
    ]
    return [("test_every_kind", b"\x08\x07model bytes", [(values[:5], values[5:])], 1e-3, 1e-7)]


def test_the_conformance_cache_keeps_every_kind_of_value_exactly(tmp_path):
    path = str(tmp_path / "cases.npz")
    found = every_kind_of_case()
    conformance._write_cases(path, found)
    ((name, model_bytes, [(ins, outs)], rtol, atol),) = conformance._read_cases(path)
    assert (name, model_bytes, rtol, atol) == found[0][:2] + found[0][3:]
    for got, want in zip(ins + outs, found[0][2][0][0] + found[0][2][0][1]):
        if want is None:
            assert got is None
            continue
        for g, w in zip(*((got, want) if isinstance(want, list) else ([got], [want]))):
            assert type(g) is type(w) and g.dtype == w.dtype and g.shape == w.shape
            assert np.asarray(g).tolist() == np.asarray(w).tolist()


def test_the_conformance_cache_holds_no_pickle_and_refuses_one(tmp_path):
    tree = ast.parse(Path(conformance.__file__).read_text())
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "pickle" not in imported
    # a cache file whose arrays would unpickle (code, when loaded) is not loaded
    path = tmp_path / "cases.npz"
    buffer = io.BytesIO()
    np.savez(buffer, layout=np.array([{"name": "x"}], dtype=object))
    path.write_bytes(buffer.getvalue())
    with pytest.raises(ValueError, match="allow_pickle=False"):
        conformance._read_cases(str(path))
