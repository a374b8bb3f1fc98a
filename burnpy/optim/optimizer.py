"""`Optimizer`: burn-optim's ModuleOptimizer, one update rule applied to every parameter.

`step(model, grads, lr=None)` reads each parameter's gradient from the `Gradients` of
`loss.backward()`, clips it (per parameter, as burn clips, or by the norm of all gradients
together, as PyTorch's `clip_grad_norm_`), runs the rule on the plain tensors, and puts back a
new leaf under the same ParamId, a Grad leaf if the old one was (marked as a distributed
parameter if the old one was). Parameters
without a gradient are left as they are. State is kept per ParamId, so it follows a parameter
through moves and records.
"""

import json

import numpy as np
from safetensors import safe_open
from safetensors.numpy import save_file

from generated import Device, Tensor
from runtime.activity import Phase, in_phase
from burnpy.optim.grad_clipping import clip_by_norm, clip_by_value, total_norm_scale

_META = "burnpy.optimizer"


class Optimizer:
    """Base of the optimisers: subclasses define `update(lr, param, grad, state)` returning
    the new parameter and its state (a dict of tensors and numbers, or None)."""

    def __init__(
        self, lr: float, *, grad_clip_norm=None, grad_clip_value=None, grad_clip_total_norm=None
    ):
        clips = (grad_clip_norm, grad_clip_value, grad_clip_total_norm)
        if sum(clip is not None for clip in clips) > 1:
            raise ValueError(
                "clip gradients one way: grad_clip_norm (each gradient's norm), "
                "grad_clip_total_norm (the norm of all of them) or grad_clip_value"
            )
        self.lr = lr
        self.grad_clip_norm = grad_clip_norm
        self.grad_clip_value = grad_clip_value
        self.grad_clip_total_norm = grad_clip_total_norm
        self.state = {}  # ParamId -> the rule's state

    def update(self, lr, param, grad, state):
        raise NotImplementedError

    def step(self, model, grads, lr=None):
        """Update every parameter of `model` that has a gradient in `grads`, in place; returns
        the model."""
        with in_phase(Phase.UPDATE):
            return self._step(model, grads, lr)

    def _step(self, model, grads, lr):
        lr = self.lr if lr is None else lr
        scale = 1.0
        if self.grad_clip_total_norm is not None:
            every = [p.grad(grads) for p in model.parameters()]
            scale = total_norm_scale([g for g in every if g is not None], self.grad_clip_total_norm)

        def update(name, param_id, tensor):
            grad = tensor.grad(grads)
            if grad is None:
                return tensor
            if self.grad_clip_total_norm is not None:
                grad = grad * scale if scale < 1.0 else grad
            elif self.grad_clip_norm is not None:
                grad = clip_by_norm(grad, self.grad_clip_norm)
            elif self.grad_clip_value is not None:
                grad = clip_by_value(grad, self.grad_clip_value)
            state = _on_device(self.state.get(param_id), grad.device())
            updated, state = self.update(lr, tensor.inner(), grad, state)
            if state is not None:
                self.state[param_id] = state
            device = tensor.device()
            updated = updated.to_device(device) if device.is_autodiff() else updated
            if not tensor.is_require_grad():
                return updated
            updated = updated.require_grad()
            param = tensor.distributed_params()  # a replicated parameter stays one
            return updated if param is None else updated.set_distributed_params(param)

        return model.map_parameters(update)

    # -- records ------------------------------------------------------------------------------
    def save(self, path) -> None:
        """Write the state to a safetensors file: tensors keyed "<param_id>.<name>", numbers in
        the metadata."""
        tensors, scalars = {}, {}
        for param_id, state in self.state.items():
            for name, value in state.items():
                if isinstance(value, Tensor):
                    tensors[f"{param_id}.{name}"] = np.ascontiguousarray(value.to_numpy())
                else:
                    scalars.setdefault(str(param_id), {})[name] = value
        meta = {"optimizer": type(self).__name__, "scalars": scalars}
        save_file(tensors, str(path), metadata={_META: json.dumps(meta)})

    def load(self, path) -> "Optimizer":
        """Replace the state by the one saved at `path`, in place; returns the optimiser. The
        tensors land on the NumPy device and move to each gradient's device at the next step."""
        with safe_open(str(path), framework="numpy") as f:
            meta = json.loads((f.metadata() or {}).get(_META, "null") or "null")
            if meta is None:
                raise ValueError(f"{path} is not an optimiser record (no {_META!r} metadata)")
            if meta["optimizer"] != type(self).__name__:
                raise ValueError(
                    f"{path} holds the state of {meta['optimizer']}, not {type(self).__name__}"
                )
            state = {int(pid): dict(values) for pid, values in meta["scalars"].items()}
            for key in f.keys():
                pid, name = key.split(".", 1)
                array = f.get_tensor(key)
                tensor = Tensor.from_data(array, device=Device.numpy(), dtype=array.dtype)
                state.setdefault(int(pid), {})[name] = tensor
        self.state = state
        return self


def _on_device(state, device):
    """The state with its tensors on `device`. They move together (a loaded record, a moved
    model), so when the first is there, all are."""
    if state is None:
        return None
    tensors = [value for value in state.values() if isinstance(value, Tensor)]
    if not tensors or tensors[0].device() == device:
        return state
    return {
        name: value.to_device(device) if isinstance(value, Tensor) else value
        for name, value in state.items()
    }
