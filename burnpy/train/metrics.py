"""Epoch metrics: sums over the batches (reduced over the ranks in a distributed run), and the
summary of a run."""

import numpy as np

METRICS = ("loss", "accuracy")  # those a Learner can be asked for; lr and items/s always come


class Meter:
    """Sums of one split over an epoch: items, loss times items, correct predictions."""

    def __init__(self):
        self.items = 0
        self.loss = 0.0
        self.correct = 0

    def add(self, output, metrics) -> None:
        count = _count(output)
        self.items += count
        if "loss" in metrics:
            self.loss += float(output.loss.item()) * count
        if "accuracy" in metrics:
            if output.output is None or output.targets is None:
                raise ValueError(
                    "the accuracy metric needs the step function's Output to carry the model's "
                    "output and the targets: return train.Output(loss, output, targets), or "
                    "pass metrics=('loss',) to the Learner"
                )
            predicted = output.output.argmax(-1).reshape([-1])
            self.correct += int((predicted == output.targets.reshape([-1])).int().sum().item())

    def sums(self) -> np.ndarray:
        return np.array([self.items, self.loss, self.correct], dtype=np.float64)

    @staticmethod
    def results(split: str, sums, metrics) -> dict:
        """`{split}_loss` (mean per item), `{split}_accuracy` from the (reduced) sums."""
        items, loss, correct = (float(s) for s in sums)
        found = {}
        if "loss" in metrics:
            found[f"{split}_loss"] = loss / items if items else float("nan")
        if "accuracy" in metrics:
            found[f"{split}_accuracy"] = correct / items if items else float("nan")
        return found


def _count(output) -> int:
    for value in (output.targets, output.output):
        if value is not None and value.shape:
            return value.shape[0]
    return 1


def describe(record: dict) -> str:
    """One epoch's metrics on a line."""
    parts = [f"epoch {record['epoch']}"]
    for name, value in record.items():
        if name in ("epoch", "seconds"):
            continue
        if name.endswith("accuracy"):
            parts.append(f"{name} {value:.2%}")
        elif name == "lr":
            parts.append(f"lr {value:.3g}")
        elif name == "items_per_second":
            parts.append(f"{value:,.0f} items/s")
        else:
            parts.append(f"{name} {value:.4f}")
    return "  ".join(parts)


class Summary:
    """What `Learner.fit` returns: the metrics of every epoch (`history`, one dict each), and
    why it stopped early (`stopped_early`, None when it ran every epoch)."""

    def __init__(self, history: list, stopped_early):
        self.history = history
        self.stopped_early = stopped_early

    def best(self, metric: str, mode: str = "min") -> dict:
        """The epoch record with the best value of `metric`."""
        pick = min if mode == "min" else max
        return pick(self.history, key=lambda record: record[metric])

    def __str__(self):
        if not self.history:
            return "training summary: no epoch ran"
        seconds = sum(record["seconds"] for record in self.history)
        head = f"training summary: {len(self.history)} epoch(s), {seconds:.1f} s"
        if self.stopped_early:
            head += f"; stopped early: {self.stopped_early}"
        names = [n for n in self.history[0] if n not in ("epoch", "seconds")]
        rows = [f"{'metric':<18}{'first':>12}{'last':>12}{'best':>12}"]
        for name in names:
            values = [record[name] for record in self.history]
            pick = _BEST.get(name.rsplit("_", 1)[-1])
            best = f"{pick(values):>12.4g}" if pick else ""
            rows.append(f"{name:<18}{values[0]:>12.4g}{values[-1]:>12.4g}{best}")
        return "\n".join([head, *rows])


_BEST = {"loss": min, "accuracy": max}  # by the metric's last word; lr and items/s have none
