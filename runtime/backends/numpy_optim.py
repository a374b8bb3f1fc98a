"""The optimisers' in-place steps on the NumPy backend, block by block.

The shared kernels (kernels/optim.py) update a parameter and its moments in several numpy
passes, each over the whole of every array: a large parameter (a ResNet's 2.4M-weight
convolution) streams through memory once per pass. Where a step updates its state in place,
each element's arithmetic reads only that element of every array, so the same kernel is run
here over blocks of the flat arrays that stay in a core's cache: the passes over a block then
read cache, and only the first read and last write of each array go to memory. The arithmetic
is the shared kernel's, element for element: the bits are the same.
"""

import numpy as np

# Each array's block: with the kernel's few temporaries, the blocks stay in cache between its
# passes (a size measured over ResNet-18's parameters).
BLOCK_BYTES = 1 << 18


def blocks(*arrays):
    """The arrays' flat views, block by block: a list of tuples of slices of each; None where
    they are not one shape of C-contiguous numpy floats larger than one block."""
    first = arrays[0]
    if not (
        all(type(a) is np.ndarray for a in arrays)
        and first.dtype.kind == "f"
        and first.size * first.itemsize > BLOCK_BYTES
        and all(a.shape == first.shape and a.dtype == first.dtype for a in arrays)
        and all(a.flags.c_contiguous for a in arrays)
    ):
        return None
    flat = [a.reshape(-1) for a in arrays]
    step = BLOCK_BYTES // first.itemsize
    return [tuple(a[start : start + step] for a in flat) for start in range(0, first.size, step)]


class NumPyOptimKernels:
    def sgd_step(
        self, param, grad, velocity, lr, momentum, dampening, weight_decay, nesterov, in_place=False
    ):
        parts = (
            blocks(param, grad, velocity)
            if in_place and momentum and velocity is not None
            else None
        )
        if parts is None:
            return super().sgd_step(
                param, grad, velocity, lr, momentum, dampening, weight_decay, nesterov, in_place
            )
        for p, g, v in parts:
            super().sgd_step(p, g, v, lr, momentum, dampening, weight_decay, nesterov, True)
        return param, velocity

    def adam_step(
        self,
        param,
        grad,
        moment_1,
        moment_2,
        max_moment_2,
        lr,
        beta_1,
        beta_2,
        epsilon,
        weight_decay,
        bias_correction_1,
        bias_correction_2,
        decoupled=False,
        cautious=False,
        amsgrad=False,
        in_place=False,
    ):
        settings = (lr, beta_1, beta_2, epsilon, weight_decay, bias_correction_1)
        settings += (bias_correction_2, decoupled, cautious, amsgrad)
        steady = in_place and not amsgrad and moment_1 is not None and moment_2 is not None
        parts = blocks(param, grad, moment_1, moment_2) if steady else None
        if parts is None:
            return super().adam_step(
                param, grad, moment_1, moment_2, max_moment_2, *settings, in_place
            )
        for p, g, m, v in parts:
            super().adam_step(p, g, m, v, None, *settings, True)
        return param, moment_1, moment_2, moment_2
