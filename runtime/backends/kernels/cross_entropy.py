"""Cross-entropy of logits against class indices (burn-nn's `CrossEntropyLoss` without smoothing,
weights or padding), as one kernel: the log-softmax is never materialised for a gather, and the
backward is softmax - one-hot, scaled once by the output gradient over the batch size."""


class CrossEntropyKernels:
    def _shifted_logits(self, logits):
        """logits - the row max, and e^that's row sums, [batch, 1]."""
        xp = self.xp
        shifted = logits - xp.max(logits, axis=1, keepdims=True)
        return shifted, xp.sum(xp.exp(shifted), axis=1, keepdims=True)

    def cross_entropy_class_targets(self, logits, targets):
        xp = self.xp
        # a class index out of range is refused (take_along_axis would wrap a negative one)
        self._check_range("cross_entropy_class_targets", targets, logits.shape[1], 1)
        shifted, sums = self._shifted_logits(logits)
        picked = xp.take_along_axis(shifted, xp.reshape(targets, (-1, 1)), axis=1)
        return xp.reshape(xp.mean(xp.log(sums) - picked), (1,))

    def cross_entropy_class_targets_backward(self, logits, targets, grad, probabilities=None):
        # (this kernel keeps no probabilities: it computes them again)
        xp = self.xp
        shifted, sums = self._shifted_logits(logits)
        classes = xp.arange(logits.shape[1], device=targets.device)
        hit = classes[None, :] == xp.reshape(targets, (-1, 1))
        # (softmax - one-hot) * g / batch: the scale folded into one [1] factor
        scale = grad / max(logits.shape[0], 1)
        return (xp.exp(shifted) / sums - xp.astype(hit, logits.dtype)) * scale
