"""Learning-rate schedulers: burn-optim's sequences (its tests' values), checks and records."""

import math

import pytest

from burnpy.optim import lr


def sequence(scheduler, n):
    return [scheduler.step() for _ in range(n)]


@pytest.mark.parametrize(
    "scheduler,expected",
    [
        (lambda: lr.Constant(0.3), [0.3, 0.3, 0.3]),
        (
            lambda: lr.Step(0.5, 3, gamma=0.1),
            [0.5, 0.5, 0.5, 0.05, 0.05, 0.05, 0.005, 0.005, 0.005],
        ),
        (lambda: lr.Step(0.1, 2, gamma=2.0), [0.1, 0.1, 0.2, 0.2, 0.4, 0.4]),
        (lambda: lr.Step(0.4, 1), [0.4, 0.04, 0.004]),  # gamma defaults to 0.1
        (lambda: lr.Cosine(0.5, 2, min_lr=0.1), [0.5, 0.3, 0.1, 0.3, 0.5]),
        (lambda: lr.Cosine(1.0, 2), [1.0, 0.5, 0.0]),  # min_lr defaults to 0
        (lambda: lr.Linear(0.9, 0.5, 4), [0.9, 0.8, 0.7, 0.6, 0.5, 0.5]),
        (lambda: lr.Linear(0.01, 0.04, 3), [0.01, 0.02, 0.03, 0.04, 0.04]),
        (lambda: lr.Exponential(0.8, 0.1), [0.8, 0.08, 0.008, 0.0008, 0.00008]),
        (
            lambda: lr.Sequential(
                [lr.Linear(0.1, 0.3, 2), lr.Exponential(0.5, 0.5), lr.Cosine(0.8, 2)], [2, 5]
            ),
            [0.1, 0.2, 0.5, 0.25, 0.125, 0.8, 0.4, 0.0],
        ),
        (lambda: lr.Composed([lr.Constant(0.5), lr.Step(0.4, 2, gamma=0.5)]), [0.2, 0.2, 0.1]),
        (
            lambda: lr.Composed([lr.Constant(0.5), lr.Linear(0.1, 0.3, 2)], reduction="sum"),
            [0.6, 0.7, 0.8],
        ),
        (
            lambda: lr.Composed([lr.Constant(0.5), lr.Linear(0.1, 0.3, 2)], reduction="avg"),
            [0.3, 0.35, 0.4],
        ),
    ],
)
def test_sequences(scheduler, expected):
    assert sequence(scheduler(), len(expected)) == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_noam_warms_up_then_decays():
    scheduler = lr.Noam(10.0, warmup_steps=100)
    rates = sequence(scheduler, 200)
    assert all(a < b for a, b in zip(rates[:100], rates[1:100]))
    assert all(a > b for a, b in zip(rates[99:], rates[100:]))
    assert rates[0] == pytest.approx(10.0 * 512**-0.5 * 100**-1.5)  # model_size defaults to 512
    assert lr.Noam(1.0).step() == pytest.approx(512**-0.5 * 4000**-1.5)  # warmup 4000


@pytest.mark.parametrize(
    "make,message",
    [
        (lambda: lr.Step(1.0, 0), "Step size must be greater than 0"),
        (lambda: lr.Cosine(0.0, 10), "Initial learning rate must be greater than 0 and at most 1"),
        (lambda: lr.Cosine(0.5, 10, min_lr=0.6), "Minimum learning rate must be at least 0"),
        (lambda: lr.Cosine(0.5, 0), "Number of iterations must be at least 1"),
        (lambda: lr.Linear(1.5, 0.5, 10), "Initial learning rate must be greater than 0"),
        (lambda: lr.Linear(0.5, -0.5, 10), "Final learning rate must be at least 0 and at most 1"),
        (lambda: lr.Exponential(0.5, 1.5), "Gamma must be greater than 0 and at most 1"),
        (lambda: lr.Noam(0.1, warmup_steps=0), "greater than 0"),
        (lambda: lr.Noam(0.1, model_size=0), "Model size must be greater than 0"),
        (lambda: lr.Sequential([], []), "At least one scheduler is required"),
        (lambda: lr.Sequential([lr.Constant(1.0)] * 3, [2]), "one less than the number"),
        (lambda: lr.Sequential([lr.Constant(1.0)] * 3, [2, 2]), "strictly increasing"),
        (lambda: lr.Composed([lr.Constant(1.0)], reduction="max"), "reduction"),
    ],
)
def test_invalid_configs_are_refused(make, message):
    with pytest.raises(ValueError, match=message):
        make()


@pytest.mark.parametrize(
    "make",
    [
        lambda: lr.Step(0.007, 10, gamma=0.03),
        lambda: lr.Cosine(1.0, 9),
        lambda: lr.Linear(1.0, 0.01, 6),
        lambda: lr.Exponential(0.083, 0.3),
        lambda: lr.Noam(2.0, warmup_steps=5),
        lambda: lr.Sequential([lr.Linear(0.1, 0.3, 2), lr.Cosine(0.8, 4)], [3]),
        lambda: lr.Composed([lr.Exponential(0.5, 0.9), lr.Step(0.5, 2)]),
    ],
)
def test_records_resume_the_sequence(make):
    straight = sequence(make(), 12)
    first = make()
    head = sequence(first, 5)
    resumed = make().load_record(first.to_record())
    assert head + sequence(resumed, 7) == straight
    assert not math.isnan(straight[-1])
