"""burnpy.data: batching, shuffling, determinism and random_split."""

import json

import numpy as np
import pytest

from burnpy.data import DataLoader, random_split
from burnpy.generated import Device

ITEMS = [(np.full((2,), i, dtype=np.float32), i, float(i) / 2) for i in range(10)]


def test_batches_in_order_with_a_short_last_batch():
    loader = DataLoader(ITEMS, 4, device=Device.numpy())
    batches = list(loader)
    assert len(loader) == len(batches) == 3
    features, labels, halves = batches[0]
    assert features.shape == (4, 2) and features.dtype == np.float32
    assert labels.dtype == np.int64 and halves.dtype == np.float32
    np.testing.assert_array_equal(labels.to_numpy(), [0, 1, 2, 3])
    np.testing.assert_array_equal(batches[2][1].to_numpy(), [8, 9])
    np.testing.assert_array_equal(batches[1][0].to_numpy()[:, 0], [4, 5, 6, 7])
    assert len(DataLoader(ITEMS, 4, drop_last=True, device=Device.numpy())) == 2
    assert [b[1].shape[0] for b in DataLoader(ITEMS, 4, drop_last=True, device=Device.numpy())] == [
        4,
        4,
    ]


def test_shuffle_is_seeded_and_changes_every_epoch():
    def epochs(seed):
        loader = DataLoader(ITEMS, 3, shuffle=True, seed=seed, device=Device.numpy())
        return [np.concatenate([b[1].to_numpy() for b in loader]).tolist() for _ in range(3)]

    first = epochs(5)
    assert first == epochs(5)
    assert first[0] != first[1] and first != epochs(6)
    assert all(sorted(order) == list(range(10)) for order in first)


def test_batches_land_on_the_device():
    ad = Device.numpy().autodiff()
    features, labels, _ = next(iter(DataLoader(ITEMS, 2, device=ad)))
    assert features.device() == ad and features.is_autodiff() and not features.is_tracked()
    single = next(iter(DataLoader([np.ones(3)] * 4, 2, device=Device.numpy())))
    assert single.shape == (2, 3)


def test_custom_collate_and_bad_items():
    loader = DataLoader(ITEMS, 5, device=Device.numpy(), collate=lambda items, device: len(items))
    assert list(loader) == [5, 5]
    with pytest.raises(TypeError, match="collate="):
        next(iter(DataLoader(["a", "b"], 2, device=Device.numpy())))
    with pytest.raises(ValueError, match="batch_size"):
        DataLoader(ITEMS, 0, device=Device.numpy())


def test_random_split_partitions_deterministically():
    parts = random_split(list(range(10)), [0.7, 0.3], seed=1)
    assert [len(p) for p in parts] == [7, 3]
    values = [p[i] for p in parts for i in range(len(p))]
    assert sorted(values) == list(range(10))
    again = random_split(list(range(10)), [0.7, 0.3], seed=1)
    assert [again[0][i] for i in range(7)] == [parts[0][i] for i in range(7)]
    assert [len(p) for p in random_split(list(range(10)), [1 / 3] * 3, seed=0)] == [4, 3, 3]
    with pytest.raises(ValueError, match="sum to 1"):
        random_split(list(range(10)), [0.5, 0.4])


def test_records_resume_the_shuffle_of_an_uninterrupted_run():
    def order(loader):
        return np.concatenate([b[1].to_numpy() for b in loader]).tolist()

    straight = DataLoader(ITEMS, 3, shuffle=True, seed=7, device=Device.numpy())
    expected = [order(straight) for _ in range(3)]
    first = DataLoader(ITEMS, 3, shuffle=True, seed=7, device=Device.numpy())
    assert order(first) == expected[0]
    record = json.loads(json.dumps(first.to_record()))  # as a checkpoint file carries it
    resumed = DataLoader(ITEMS, 3, shuffle=True, seed=0, device=Device.numpy())
    assert resumed.load_record(record) is resumed
    assert [order(resumed), order(resumed)] == expected[1:]
