"""Batching: `DataLoader` over any sequence of items, and `random_split`.

An item is a tuple of numpy arrays and numbers (or one array or number); a batch stacks each
field along a new first dim into a Tensor on the loader's device (floats keep their dtype,
Python floats become float32, ints int64, bools bool).
"""

import math

import numpy as np

from burnpy.generated import Device, Tensor


def default_collate(items, device):
    """Stack the items field by field into Tensors on `device`."""
    if isinstance(items[0], tuple | list):
        return tuple(_stack([item[i] for item in items], device) for i in range(len(items[0])))
    return _stack(items, device)


def _stack(values, device):
    first = values[0]
    if isinstance(first, np.ndarray | np.generic):
        array = np.stack(values)
    elif isinstance(first, bool):
        array = np.array(values, dtype=np.bool_)
    elif isinstance(first, int):
        array = np.array(values, dtype=np.int64)
    elif isinstance(first, float):
        array = np.array(values, dtype=np.float32)
    else:
        raise TypeError(
            f"default collate stacks numpy arrays and numbers, got {type(first).__name__}; "
            "pass collate="
        )
    return Tensor.from_data(array, device=device, dtype=array.dtype)


class DataLoader:
    """Iterates over `dataset` in batches of `batch_size`.

    With `shuffle`, each epoch (each `iter()`) draws a new order from a generator seeded once
    with `seed`, so a run is reproducible and epochs differ. `drop_last` leaves out a final
    short batch. `collate(items, device)` builds a batch; the default stacks fields."""

    def __init__(
        self,
        dataset,
        batch_size: int,
        *,
        shuffle: bool = False,
        seed=None,
        drop_last: bool = False,
        device,
        collate=None,
    ):
        _check_loader(dataset, batch_size, shuffle, seed, drop_last, device, collate)
        self.dataset = dataset
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.drop_last = drop_last
        self.device = device
        self.collate = collate or default_collate
        self.rng = np.random.default_rng(seed)

    def __len__(self):
        n = len(self.dataset)
        return n // self.batch_size if self.drop_last else math.ceil(n / self.batch_size)

    def __iter__(self):
        n = len(self.dataset)
        order = self.rng.permutation(n) if self.shuffle else np.arange(n)
        for batch in range(len(self)):
            indices = order[batch * self.batch_size : (batch + 1) * self.batch_size]
            yield self.collate([self.dataset[int(i)] for i in indices], self.device)

    def to_record(self) -> dict:
        """The shuffling generator's position, so a resumed run draws the orders that an
        uninterrupted one would (the lr schedulers' `to_record` counterpart)."""
        return {"rng": self.rng.bit_generator.state}

    def load_record(self, record: dict) -> "DataLoader":
        self.rng.bit_generator.state = record["rng"]
        return self


def _check_loader(dataset, batch_size, shuffle, seed, drop_last, device, collate) -> None:
    """DataLoader's arguments, checked when it is made rather than when it is iterated."""
    if not (hasattr(dataset, "__len__") and hasattr(dataset, "__getitem__")):
        raise TypeError(
            "DataLoader: dataset must be a sequence of items (with len() and [i]), got "
            f"{type(dataset).__name__}; wrap an iterator in list(...)"
        )
    if not isinstance(batch_size, int | np.integer) or isinstance(batch_size, bool):
        raise TypeError(f"DataLoader: batch_size must be an int, got {batch_size!r}")
    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, got {batch_size}")
    for name, flag in (("shuffle", shuffle), ("drop_last", drop_last)):
        if not isinstance(flag, bool | np.bool_):
            raise TypeError(f"DataLoader: {name} must be True or False, got {flag!r}")
    if seed is not None and (not isinstance(seed, int | np.integer) or isinstance(seed, bool)):
        raise TypeError(f"DataLoader: seed must be an int or None, got {seed!r}")
    if device is not None and not isinstance(device, Device):
        raise TypeError(
            "DataLoader: device must be a Device (e.g. `Device.numpy().autodiff()`) or None, got "
            f"{type(device).__name__}"
        )
    if collate is not None and not callable(collate):
        raise TypeError(
            f"DataLoader: collate must be a function (items, device) -> batch, got {collate!r}"
        )


class Subset:
    """The items of `dataset` at `indices`."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = list(indices)

    def __len__(self):
        return len(self.indices)

    def __getitem__(self, index):
        return self.dataset[self.indices[index]]


def random_split(dataset, fractions, seed=None) -> list:
    """Split `dataset` into `Subset`s of the given fractions (summing to 1) of a random
    permutation; sizes are rounded down and the remainder goes to the first subsets."""
    if any(f < 0 for f in fractions) or not math.isclose(sum(fractions), 1.0):
        raise ValueError(f"fractions must be non-negative and sum to 1, got {list(fractions)}")
    n = len(dataset)
    sizes = [math.floor(n * f) for f in fractions]
    for i in range(n - sum(sizes)):
        sizes[i % len(sizes)] += 1
    order = np.random.default_rng(seed).permutation(n)
    bounds = np.cumsum([0] + sizes)
    return [Subset(dataset, order[a:b].tolist()) for a, b in zip(bounds[:-1], bounds[1:])]
