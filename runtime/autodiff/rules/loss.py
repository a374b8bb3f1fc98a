"""Loss rules: ctc_loss and cross_entropy_class_targets, each calling its backward kernel
(cross entropy's reuses the `probabilities` its forward kept)."""


class LossRules:
    """The losses' rules, one row per op (its name): a VJP per float input."""

    ctc_loss = (
        lambda B, g, log_probs, targets, input_lengths, target_lengths, blank: (
            B.ctc_loss_backward(log_probs, targets, input_lengths, target_lengths, g, blank)
        ),
    )
    cross_entropy_class_targets = (
        lambda B, g, logits, targets, probabilities: B.cross_entropy_class_targets_backward(
            logits, targets, g, probabilities=probabilities
        ),
    )
