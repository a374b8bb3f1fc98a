"""The keeping forwards (ops.yaml's `keeps`): what a recorded op's forward hands its backward
beyond the inputs, so that the backward need not compute it again.

Each returns (output, kept). By default a backend keeps nothing (None) and its backward
computes what it needs from the inputs; a backend whose forward makes something the backward
can reuse overrides its op's keeping forward, and its backward kernel takes the kept value as a
keyword (`statistics=`, `probabilities=`), None when nothing was kept (gelu's rule multiplies
by its `slope` itself). attention keeps its probabilities on every backend
(kernels/attention.py).
"""


class KeepingKernels:
    def gelu_keeping(self, tensor):
        """gelu, and its `slope` (gelu' at each element) for the backward."""
        return self.gelu(tensor), None

    def gelu_approximate_keeping(self, tensor):
        """gelu_approximate, and its `slope` for the backward."""
        return self.gelu_approximate(tensor), None

    def cross_entropy_class_targets_keeping(self, logits, targets):
        """The mean cross-entropy, and the softmax `probabilities` its backward may reuse."""
        return self.cross_entropy_class_targets(logits, targets), None

    def max_pool1d_keeping(self, x, kernel_size, stride, padding, dilation, ceil_mode):
        """max_pool1d, and the flat index of each window's maximum (`argmax`) for the backward."""
        return self.max_pool1d(x, kernel_size, stride, padding, dilation, ceil_mode), None

    def max_pool2d_keeping(self, x, kernel_size, stride, padding, dilation, ceil_mode):
        """max_pool2d, and the flat index of each window's maximum (`argmax`) for the backward."""
        return self.max_pool2d(x, kernel_size, stride, padding, dilation, ceil_mode), None

    def layer_norm_keeping(self, input, gamma, beta, epsilon):
        """layer_norm, and the row `statistics` its backward may reuse."""
        return self.layer_norm(input, gamma, beta, epsilon), None

    def rms_norm_keeping(self, input, gamma, epsilon):
        """rms_norm, and each row's `inverse_rms` its backward may reuse."""
        return self.rms_norm(input, gamma, epsilon), None
