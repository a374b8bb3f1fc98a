"""The keeping forwards (ops.yaml's `keeps`): what a recorded op's forward hands its backward
beyond the inputs, so that the backward need not compute it again.

Each returns (output, kept). By default a backend keeps nothing (None) and its backward
computes what it needs from the inputs; a backend whose forward makes something the backward
can reuse overrides its op's keeping forward, and its backward kernel takes the kept value as a
keyword (`columns=`, `statistics=`), None when nothing was kept. attention keeps its
probabilities on every backend (kernels/attention.py).
"""


class KeepingKernels:
    def _conv_keeping(self, x, weight, bias, stride, padding, dilation, groups, padding_end):
        """A convolution, and the `columns` its weight gradient may reuse."""
        conv = (self.conv1d, self.conv2d, self.conv3d)[weight.ndim - 3]
        return conv(x, weight, bias, stride, padding, dilation, groups, padding_end), None

    conv1d_keeping = conv2d_keeping = conv3d_keeping = _conv_keeping

    def layer_norm_keeping(self, input, gamma, beta, epsilon):
        """layer_norm, and the row `statistics` its backward may reuse."""
        return self.layer_norm(input, gamma, beta, epsilon), None
