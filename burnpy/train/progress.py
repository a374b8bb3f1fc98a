"""The progress bar of an epoch: tqdm's when it is installed (the `examples` extra), else none
(the Learner still prints each epoch's metrics)."""


class _NoBar:
    def update(self, n=1) -> None:
        pass

    def set_postfix(self, **values) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(total: int, description: str, shown: bool):
    if not shown:
        return _NoBar()
    try:
        from tqdm import tqdm
    except ImportError:
        return _NoBar()
    return tqdm(total=total, desc=description, unit="batch", leave=False)
