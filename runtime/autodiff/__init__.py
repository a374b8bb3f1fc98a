"""The Autodiff decorator: burn-autodiff's graph, steps, gradients and checkpointing."""
