"""burnpy: a tensor library whose dispatch layer is generated from a declarative op catalogue.

`from burnpy import Device, Tensor, module`: the generated tensor package (`burnpy.generated`).
`from burnpy import nn, optim, data`: modules and layers (burn-nn), optimisers and learning-rate
schedulers (burn-optim), and batching. `from burnpy import capture`: a training step recorded once
and replayed as generated code; `from burnpy import onnx`: ONNX models in (the `onnx` extra).
`burnpy.set_num_threads(n)` / `burnpy.get_num_threads()`: the thread count of numpy's BLAS and
torch together (the Learner and the examples use one thread unless you set it).
"""

from typing import TYPE_CHECKING

from burnpy.threads import get_num_threads, set_num_threads

if TYPE_CHECKING:
    from burnpy.generated import Device, Tensor, module

__all__ = ["Device", "Tensor", "get_num_threads", "module", "set_num_threads"]


def __getattr__(name: str):
    # Loaded on first use, so that the generator (burnpy.codegen) runs even where the generated
    # package it is about to rewrite no longer imports.
    if name in ("Device", "Tensor", "module"):
        from burnpy import generated

        return getattr(generated, name)
    raise AttributeError(f"module 'burnpy' has no attribute {name!r}")
