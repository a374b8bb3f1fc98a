"""burnpy.optim: burn-optim's optimisers, gradient clipping and learning-rate schedulers.

`opt.step(model, grads, lr=None)` updates a `burnpy.nn.Module` in place from the Gradients of
`loss.backward()`; `optim.lr` holds the schedulers."""

from burnpy.optim import lr_scheduler as lr
from burnpy.optim.adam import Adam, AdamW
from burnpy.optim.optimizer import Optimizer
from burnpy.optim.rmsprop import RMSProp
from burnpy.optim.sgd import SGD

__all__ = ["SGD", "Adam", "AdamW", "Optimizer", "RMSProp", "lr"]
