"""Connectionist Temporal Classification loss (burn's `ctc_loss`, `ctc_loss_backward`).

The targets are extended with blanks, l' = (blank, l1, blank, l2, ..., blank) of length
L' = 2 S + 1, and the log-space forward (alpha) recursion runs over time for the whole batch at
once: a sample's alpha stops moving once t reaches its input length, and positions at or past
its own 2 · target_length + 1 stay -inf. The loss is -log p(l | x), +inf when no path fits.

The backward is the true gradient with respect to log_probs, -g · (posterior of each class),
from alpha and the backward (beta) recursion: torch's ctc backward assumes a log_softmax
before it and adds exp(log_probs) · g, which is not this gradient. A sample with an infinite
loss gets a zero gradient.
"""

import math


class CtcKernels:
    def _ctc_lattice(self, log_probs, targets, target_lengths, blank):
        """(log_probs at the extended targets [T, N, L'], the extended targets [N, L'], where a
        skip over a blank into s is allowed [N, L'], which positions exist [N, L'])."""
        xp = self.xp
        batch = targets.shape[0]
        blanks = xp.full((batch, 1), blank, dtype=targets.dtype, device=targets.device)
        pairs = xp.stack((xp.broadcast_to(blanks, targets.shape), targets), axis=-1)
        extended = xp.concat((xp.reshape(pairs, (batch, -1)), blanks), axis=1)
        length = extended.shape[1]
        index = xp.broadcast_to(extended[None], (log_probs.shape[0], batch, length))
        at_labels = xp.take_along_axis(log_probs, index, axis=2)
        two_back = xp.concat((blanks, blanks, extended[:, :-2]), axis=1)[:, :length]
        skip = (extended != blank) & (extended != two_back)
        positions = xp.arange(length, device=targets.device)
        exists = positions[None] < 2 * target_lengths[:, None] + 1
        return at_labels, extended, skip, exists

    def _ctc_alpha(self, at_labels, skip, exists, input_lengths):
        """log alpha for every t, [T, N, L'], frozen from t = input_length on."""
        xp = self.xp
        steps, batch, length = at_labels.shape
        neg_inf = xp.full((batch, 2), -math.inf, dtype=at_labels.dtype, device=at_labels.device)
        start = xp.arange(length, device=at_labels.device)[None] < 2
        alpha = xp.where(start & exists, at_labels[0], -math.inf)
        alphas = [alpha]
        for t in range(1, steps):
            stay = xp.logaddexp(alpha, xp.concat((neg_inf[:, :1], alpha[:, :-1]), axis=1))
            jump = xp.where(
                skip, xp.concat((neg_inf, alpha[:, :-2]), axis=1)[:, :length], -math.inf
            )
            moved = xp.logaddexp(stay, jump) + at_labels[t]
            alpha = xp.where((t < input_lengths)[:, None] & exists, moved, alpha)
            alphas.append(alpha)
        return xp.stack(alphas)

    def _ctc_nll(self, last_alpha, target_lengths):
        xp = self.xp
        end = xp.reshape(2 * target_lengths, (-1, 1))
        last_blank = xp.take_along_axis(last_alpha, end, axis=1)[:, 0]
        last_label = xp.take_along_axis(last_alpha, xp.clip(end - 1, 0, None), axis=1)[:, 0]
        last_label = xp.where(target_lengths > 0, last_label, -math.inf)
        return -xp.logaddexp(last_blank, last_label)

    def ctc_loss(self, log_probs, targets, input_lengths, target_lengths, blank):
        at_labels, _, skip, exists = self._ctc_lattice(log_probs, targets, target_lengths, blank)
        alpha = self._ctc_alpha(at_labels, skip, exists, input_lengths)
        return self._ctc_nll(alpha[-1], target_lengths)

    def ctc_loss_backward(self, log_probs, targets, input_lengths, target_lengths, grad, blank):
        xp = self.xp
        at_labels, extended, skip, exists = self._ctc_lattice(
            log_probs, targets, target_lengths, blank
        )
        alpha = self._ctc_alpha(at_labels, skip, exists, input_lengths)
        nll = self._ctc_nll(alpha[-1], target_lengths)
        beta = self._ctc_beta(at_labels, skip, exists, input_lengths, target_lengths)
        # posterior of (t, s): alpha_t(s) beta_t(s) / y_t(l'_s) / p, where a path goes through
        through = (alpha > -math.inf) & (beta > -math.inf) & (nll < math.inf)[None, :, None]
        # the infinities off the paths would give inf - inf: add finite stand-ins there
        log_post = (
            xp.where(through, alpha + beta, 0.0)
            - xp.where(through, at_labels, 0.0)
            + xp.where(nll < math.inf, nll, 0.0)[None, :, None]
        )
        posterior = xp.where(through, xp.exp(log_post), 0.0)
        # sum the positions of each class: [N, T, L'] @ one-hot [N, L', C]
        classes = xp.arange(log_probs.shape[2], device=log_probs.device)
        one_hot = xp.astype(extended[:, :, None] == classes, posterior.dtype)
        per_class = xp.matmul(xp.permute_dims(posterior, (1, 0, 2)), one_hot)
        return -xp.permute_dims(per_class, (1, 0, 2)) * grad[None, :, None]

    def _ctc_beta(self, at_labels, skip, exists, input_lengths, target_lengths):
        """log beta for every t, [T, N, L'] (beta includes y_t), -inf from t = input_length."""
        xp = self.xp
        steps, batch, length = at_labels.shape
        neg_inf = xp.full((batch, 2), -math.inf, dtype=at_labels.dtype, device=at_labels.device)
        positions = xp.arange(length, device=at_labels.device)[None]
        ends = 2 * target_lengths[:, None]
        finals = (positions == ends) | ((positions == ends - 1) & (target_lengths[:, None] > 0))
        skip_from = xp.concat((skip[:, 2:], xp.zeros_like(skip[:, :2])), axis=1)
        last = (input_lengths - 1)[:, None]
        beta = xp.full((batch, length), -math.inf, dtype=at_labels.dtype, device=at_labels.device)
        betas = [None] * steps
        for t in range(steps - 1, -1, -1):
            stay = xp.logaddexp(beta, xp.concat((beta[:, 1:], neg_inf[:, :1]), axis=1))
            jump = xp.where(
                skip_from, xp.concat((beta[:, 2:], neg_inf), axis=1)[:, :length], -math.inf
            )
            moved = xp.logaddexp(stay, jump) + at_labels[t]
            beta = xp.where(
                t < last, moved, xp.where((t == last) & finals, at_labels[t], -math.inf)
            )
            betas[t] = beta
        return xp.stack(betas)
