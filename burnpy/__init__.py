"""burnpy: the libraries to train with, above the generated tensor package.

`from burnpy import nn, optim, data`: modules and layers (burn-nn), optimisers and learning-rate
schedulers (burn-optim), and batching. They use `generated.Tensor` and `generated.module` only.
`from burnpy import capture`: a training step recorded once and replayed as generated code.
`burnpy.set_num_threads(n)` / `burnpy.get_num_threads()`: the thread count of numpy's BLAS and
torch together (the Learner and the examples use one thread unless you set it).
"""

from burnpy.threads import get_num_threads, set_num_threads

__all__ = ["get_num_threads", "set_num_threads"]
