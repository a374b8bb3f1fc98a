"""`Optimizer`: burn-optim's ModuleOptimizer, one update rule applied to every parameter.

`step(model, grads, lr=None)` reads each parameter's gradient from the `Gradients` of
`loss.backward()`, clips it (per parameter, as burn clips, or by the norm of all gradients
together, as PyTorch's `clip_grad_norm_`), runs the rule on the plain tensors, and puts back a
new leaf under the same ParamId, a Grad leaf if the old one was (marked as a distributed
parameter if the old one was). Parameters
without a gradient are left as they are. State is kept per ParamId, so it follows a parameter
through moves and records.

The built-in rules update in place, as PyTorch's optimisers do, when the parameter's buffer and
its state's are the optimiser's alone: nothing but the module and the optimiser refers to the
tensors, their autodiff wrappers or their arrays (no tensor, view, DLPack capsule or numpy
array of the user's shares them). Otherwise the rule writes fresh arrays, so an update is never
a visible mutation of a tensor someone kept. While a step is recorded (burnpy.capture) the
arrays are the recording's, so the update recorded is the one that makes fresh arrays.
"""

import json
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np
from safetensors.numpy import save

from burnpy import files
from burnpy.generated import Device, Tensor
from burnpy.runtime.activity import Phase, in_phase
from burnpy.optim.grad_clipping import clip_by_norm, clip_by_value, total_norm_scale

_META = "burnpy.optimizer"


class Optimizer:
    """Base of the optimisers: subclasses define `update(lr, param, grad, state)` returning
    the new parameter and its state (a dict of tensors and numbers, or None). A subclass that
    sets `updates_in_place` takes `in_place=True` when the parameter's and the state's buffers
    are its own to write into."""

    updates_in_place = False

    def __new__(cls, *args, **kwargs):
        """PyTorch's `Adam(model.parameters(), lr=...)` is answered here, before Python's
        argument binding would say only "multiple values for argument 'lr'"."""
        given = args[0] if args else None
        if isinstance(given, Iterable) and not isinstance(given, str):
            lr = kwargs.get("lr", args[1] if len(args) > 1 else 1e-3)
            raise TypeError(
                f"{cls.__name__}(lr, ...) takes the learning rate, got "
                f"{type(given).__name__}: a burnpy optimiser is not given the parameters; "
                f"make it with `opt = {cls.__name__}({lr!r})` and pass the model at each step: "
                "`opt.step(model, loss.backward())`"
            )
        return super().__new__(cls)

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
        self._loaded_from = None  # a record loaded without its model: checked at the next step

    def update(self, lr, param, grad, state):
        raise NotImplementedError

    def step(self, model, grads, lr=None):
        """Update every parameter of `model` that has a gradient in `grads`, in place; returns
        the model."""
        if self._loaded_from is not None:
            _check_owner(self.state, model, self._loaded_from)
            self._loaded_from = None
        with in_phase(Phase.UPDATE):
            return self._step(model, grads, lr)

    def _step(self, model, grads, lr):
        lr = self.lr if lr is None else lr
        scale = None
        if self.grad_clip_total_norm is not None:
            every = [p.grad(grads) for p in model.parameters()]
            scale = total_norm_scale([g for g in every if g is not None], self.grad_clip_total_norm)

        def update(name, param_id, tensor):
            grad = tensor.grad(grads)
            if grad is None:
                return tensor
            if scale is not None:
                grad = grad * scale.cast(grad.dtype)
            elif self.grad_clip_norm is not None:
                grad = clip_by_norm(grad, self.grad_clip_norm)
            elif self.grad_clip_value is not None:
                grad = clip_by_value(grad, self.grad_clip_value)
            state = _on_device(self.state.get(param_id), grad.device())
            # `tensor` is held by the module, map_parameters (its entry and loop variable)
            # and this call; a state tensor by its dict and the loop's name
            owned = (
                self.updates_in_place
                and _sole(tensor, 4)
                and all(_sole(t, 2) for t in (state or {}).values() if isinstance(t, Tensor))
            )
            plain = tensor.inner()
            if owned:
                updated, state = self.update(lr, plain, grad, state, in_place=True)
            else:
                updated, state = self.update(lr, plain, grad, state)
            del plain
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
        files.write_bytes(path, save(tensors, metadata={_META: json.dumps(meta)}))

    def load(self, path, model=None) -> "Optimizer":
        """Replace the state by the one saved at `path`, in place; returns the optimiser. The
        tensors land on the NumPy device and move to each gradient's device at the next step.
        The state must belong to `model`'s parameters (their ParamIds): checked here when
        `model` is given, else at the next step; nothing changes if the file is refused."""
        with files.open_safetensors(path, "an optimiser record") as f:
            try:
                meta = json.loads((f.metadata() or {}).get(_META, "null") or "null")
            except json.JSONDecodeError as error:
                raise ValueError(
                    f"{path}: its {_META!r} metadata is not JSON ({error}); the file was not "
                    "written by Optimizer.save, or was altered"
                ) from error
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
        if model is not None:
            _check_owner(state, model, f"{path}")
        self.state = state
        self._loaded_from = None if model is not None else f"{path}"
        return self

    if not TYPE_CHECKING:  # type checkers keep flagging names that do not exist

        def __getattr__(self, name):
            """Only reached for a name the optimiser lacks: PyTorch's say the burnpy call."""
            message = f"{type(self).__name__!r} object has no attribute {name!r}"
            if name == "zero_grad":
                message += (
                    "; burnpy's equivalent: nothing: `loss.backward()` returns fresh Gradients, "
                    "which `opt.step(model, grads)` takes"
                )
            elif name == "param_groups":
                message += "; burnpy's equivalent: opt.lr, or `opt.step(model, grads, lr=...)`"
            raise AttributeError(message)


def _check_owner(state: dict, model, source: str) -> None:
    """Raise unless every ParamId of `state` is one of `model`'s parameters."""
    ids = set(model.param_ids())
    foreign = [pid for pid in state if pid not in ids]
    if foreign:
        raise ValueError(
            f"{source} holds optimiser state for {len(state)} parameters, {len(foreign)} of which "
            f"are not among the model's {len(ids)} parameters (their ParamIds differ): it was "
            "saved with another model, or the model was not loaded from the same checkpoint; "
            "load the model's record saved with it first (Module.load keeps the ParamIds)"
        )


def _sole(tensor, references: int) -> bool:
    """Whether `tensor`, which the optimiser's own frames and containers refer to `references`
    times, and what it wraps (its autodiff primitive, its array) are held by nothing else: no
    other reference, no view, no array sharing the memory. Python's reference counts say it
    (counting this function's argument and sys.getrefcount's own)."""
    if sys.getrefcount(tensor) > references + 2:
        return False
    primitive = tensor.primitive
    while hasattr(primitive, "node"):  # an AutodiffTensor, held by its Tensor alone
        if sys.getrefcount(primitive) > 3:  # the Tensor, `primitive`, the argument
            return False
        primitive = primitive.primitive
    return _sole_array(primitive, 2)  # its holder, `primitive`


def _sole_array(array, references: int) -> bool:
    """An array held by its tensor (or autodiff primitive) alone, owning its memory, with no
    view of it alive. Counted: the caller's `references` to it, this function's argument and
    sys.getrefcount's own."""
    if isinstance(array, np.ndarray):
        return (
            array.base is None
            and array.flags.writeable
            and sys.getrefcount(array) <= references + 2
        )
    torch = sys.modules.get("torch")
    if torch is None or not isinstance(array, torch.Tensor):
        return False  # a recording's value, or another library's array: never written into
    use_count = getattr(torch._C, "_storage_Use_Count", None)
    if use_count is None or array._base is not None or sys.getrefcount(array) > references + 2:
        return False
    return use_count(array.untyped_storage()._cdata) <= 2  # the tensor, the storage object


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
