"""benches/capture.py's columns compute what they claim before anything is timed: the captured
step gives exactly the eager step's values (each builder raises BenchMismatch otherwise), and the
eager MLP step agrees with the hand-written numpy one. No timing here; `make bench` times."""

import numpy as np
import pytest

from benches import capture as bench
from benches import workloads


@pytest.mark.parametrize("batch", [1, 3])
def test_mlp_columns_agree(batch):
    problem = workloads.mlp_problem(batch, sizes=(7, 5, 4, 3), dtype=np.float32)
    columns = bench.mlp_columns(problem, None)
    assert set(columns) == {"numpy", "eager", "captured", "compiled"}


def test_cnn_columns_agree():
    assert {"eager", "captured"} <= set(bench.cnn_columns(None))


def test_transformer_columns_agree():
    # attention, layer norms, embeddings, GELU and Adam, captured == eager bit for bit
    assert {"eager", "captured", "compiled"} <= set(
        bench.transformer_columns(None, batch=2, context=8)
    )


def test_the_drift_table_compares_compiled_and_uncompiled_training_runs():
    from benches import accuracy

    float32, float64 = accuracy.drifts(bench.mlp_trainer(3, sizes=(7, 5, 4, 3), steps=4))
    assert float32.dtype == "float32" and float64.dtype == "float64"
    assert float32.met() and float64.met()
    assert float32.nudged[1] > 0  # one weight 1 ulp away: the final weights differ
    assert 0 < float32.own[1] < 1e-5  # float32's own error, against the float64 run
    assert "met" in accuracy.lines("MLP", [float32, float64])[0]
