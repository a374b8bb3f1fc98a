"""burnpy: the libraries to train with, above the generated tensor package.

`from burnpy import nn, optim, data`: modules and layers (burn-nn), optimisers and learning-rate
schedulers (burn-optim), and batching. They use `generated.Tensor` and `generated.module` only.
`from burnpy import capture`: a training step recorded once and replayed as generated code.
"""
