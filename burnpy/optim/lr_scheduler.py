"""Learning-rate schedulers with burn-optim's semantics: each `step()` returns the next rate,
the first call the initial one. `to_record()` / `load_record(record)` carry the position."""

import math
from bisect import bisect_right


class LrScheduler:
    _fields: tuple = ()  # the attributes that change as it steps

    def step(self) -> float:
        raise NotImplementedError

    def to_record(self) -> dict:
        return {name: getattr(self, name) for name in self._fields}

    def load_record(self, record: dict) -> "LrScheduler":
        for name in self._fields:
            setattr(self, name, record[name])
        return self


def _check_initial(lr):
    if not 0.0 < lr <= 1.0:
        raise ValueError("Initial learning rate must be greater than 0 and at most 1")


def _check_iters(num_iters):
    if num_iters < 1:
        raise ValueError("Number of iterations must be at least 1")


class Constant(LrScheduler):
    def __init__(self, lr: float):
        self.lr = lr

    def step(self):
        return self.lr


class Step(LrScheduler):
    """initial_lr · gamma^(i // step_size) at the i-th call, from i = 0."""

    _fields = ("iter_idx",)

    def __init__(self, initial_lr: float, step_size: int, gamma: float = 0.1):
        if step_size == 0:
            raise ValueError("Step size must be greater than 0")
        self.initial_lr = initial_lr
        self.step_size = step_size
        self.gamma = gamma
        self.iter_idx = -1

    def step(self):
        self.iter_idx += 1
        return self.initial_lr * self.gamma ** (self.iter_idx // self.step_size)


class Cosine(LrScheduler):
    """min_lr + (initial_lr - min_lr)·(1 + cos(π·i/num_iters))/2 at the i-th call; past
    num_iters it keeps following the cosine back up, as burn's does."""

    _fields = ("current_iter",)

    def __init__(self, initial_lr: float, num_iters: int, min_lr: float = 0.0):
        _check_initial(initial_lr)
        if not 0.0 <= min_lr <= initial_lr:
            raise ValueError(
                "Minimum learning rate must be at least 0 and at most equal to the initial "
                "learning rate"
            )
        _check_iters(num_iters)
        self.initial_lr = initial_lr
        self.num_iters = num_iters
        self.min_lr = min_lr
        self.current_iter = -1

    def step(self):
        self.current_iter += 1
        cosine = math.cos(self.current_iter / self.num_iters * math.pi)
        return self.min_lr + 0.5 * (self.initial_lr - self.min_lr) * (1.0 + cosine)


class Linear(LrScheduler):
    """From initial_lr to final_lr in num_iters equal steps, then final_lr."""

    _fields = ("remaining_iters",)

    def __init__(self, initial_lr: float, final_lr: float, num_iters: int):
        _check_initial(initial_lr)
        if not 0.0 <= final_lr <= 1.0:
            raise ValueError("Final learning rate must be at least 0 and at most 1")
        _check_iters(num_iters)
        self.final_lr = final_lr
        self.step_size = (final_lr - initial_lr) / num_iters
        self.remaining_iters = num_iters + 1

    def step(self):
        self.remaining_iters -= self.remaining_iters != 0
        return self.final_lr - self.step_size * self.remaining_iters


class Exponential(LrScheduler):
    """initial_lr · gamma^i at the i-th call."""

    _fields = ("previous_lr",)

    def __init__(self, initial_lr: float, gamma: float):
        _check_initial(initial_lr)
        if not 0.0 < gamma <= 1.0:
            raise ValueError("Gamma must be greater than 0 and at most 1")
        self.gamma = gamma
        self.previous_lr = initial_lr / gamma

    def step(self):
        self.previous_lr *= self.gamma
        return self.previous_lr


class Noam(LrScheduler):
    """factor · model_size^-0.5 · min(n^-0.5, n·warmup_steps^-1.5) at the n-th call, from 1."""

    _fields = ("step_count",)

    def __init__(self, factor: float, warmup_steps: int = 4000, model_size: int = 512):
        if warmup_steps == 0:
            raise ValueError(
                "Number of steps before exponential decay starts must be greater than 0"
            )
        if model_size == 0:
            raise ValueError("Model size must be greater than 0")
        self.factor = factor
        self.warmup_steps = warmup_steps
        self.model_size = model_size
        self.step_count = 0.0

    def step(self):
        self.step_count += 1.0
        n = self.step_count
        warm = min(n**-0.5, n * self.warmup_steps**-1.5)
        return self.factor * self.model_size**-0.5 * warm


class Composed(LrScheduler):
    """Steps every scheduler and combines their rates by "prod" (burn's default), "sum" or
    "avg"."""

    def __init__(self, schedulers, reduction: str = "prod"):
        if reduction not in ("prod", "sum", "avg"):
            raise ValueError(f'reduction must be "prod", "sum" or "avg", got {reduction!r}')
        self.schedulers = list(schedulers)
        self.reduction = reduction

    def step(self):
        rates = [s.step() for s in self.schedulers]
        if self.reduction == "prod":
            return math.prod(rates)
        if self.reduction == "sum":
            return sum(rates)
        return sum(rate / len(rates) for rate in rates)

    def to_record(self):
        return {str(i): s.to_record() for i, s in enumerate(self.schedulers)}

    def load_record(self, record):
        for i, scheduler in enumerate(self.schedulers):
            scheduler.load_record(record[str(i)])
        return self


class Sequential(LrScheduler):
    """Scheduler k runs from call milestones[k-1] (0 for the first) to milestones[k]; each is
    stepped only while it is active, so each starts from its own first rate."""

    def __init__(self, schedulers, milestones):
        schedulers, milestones = list(schedulers), list(milestones)
        if not schedulers:
            raise ValueError("At least one scheduler is required")
        if len(milestones) + 1 != len(schedulers):
            raise ValueError(
                "The number of milestones must be one less than the number of schedulers"
            )
        if any(m <= 0 or (i and m <= milestones[i - 1]) for i, m in enumerate(milestones)):
            raise ValueError("Milestones must be greater than zero and strictly increasing")
        self.schedulers = schedulers
        self.milestones = milestones
        self.step_count = 0

    def step(self):
        rate = self.schedulers[bisect_right(self.milestones, self.step_count)].step()
        self.step_count += 1
        return rate

    def to_record(self):
        record = {str(i): s.to_record() for i, s in enumerate(self.schedulers)}
        return {"step": self.step_count, **record}

    def load_record(self, record):
        self.step_count = record["step"]
        for i, scheduler in enumerate(self.schedulers):
            scheduler.load_record(record[str(i)])
        return self
