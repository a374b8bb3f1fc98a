"""Independent numpy references of the module ops for the spec-driven suite (ops.yaml's `test:
ref: refs.<name>(...)`): the loop-written references of the kernel tests and the optimiser
updates in float64, given the call signature of the dispatch function and returning the input's
dtype."""

import ml_dtypes
import numpy as np

import test_attention_kernels
import test_conv_kernels
import test_ctc_kernels
import test_deform_kernels
import test_fft_kernels
import test_grid_sample_kernels
import test_interpolate_kernels
import test_norm_kernels
import test_pool_kernels


def _like(result, x):
    return np.asarray(result).astype(x.dtype)


def round_to(tensor, format, saturate):
    """ml_dtypes' cast, a value beyond the format's largest (an infinity too) taken as that
    largest when saturating."""
    kind = getattr(ml_dtypes, format)
    top = float(ml_dtypes.finfo(kind).max)
    x = tensor.astype(np.float32)
    if saturate:
        x = np.where(np.isnan(x), x, np.sign(x) * np.minimum(np.abs(x), top)).astype(np.float32)
    return x.astype(kind).astype(tensor.dtype)


def interpolate_loops(x, output_size, mode, align_corners):
    return _like(test_interpolate_kernels.interpolate_loops(x, output_size, mode, align_corners), x)


def attention_loops(query, key, value, mask, attn_bias, scale, softcap, is_causal):
    out = test_attention_kernels.attention_loops(
        query, key, value, mask, attn_bias, scale, softcap, is_causal
    )
    return _like(out, query)


def batch_norm_loops(input, gamma, beta, mean, variance, epsilon):
    return _like(
        test_norm_kernels.batch_norm_loops(input, gamma, beta, mean, variance, epsilon), input
    )


def batch_norm_training(input, gamma, beta, epsilon):
    """(output, mean, biased variance) in float64, the statistics over every dim but dim 1."""
    wide = np.moveaxis(input.astype(np.float64), 1, -1)
    flat = wide.reshape(-1, wide.shape[-1])
    mean = flat.mean(axis=0)
    variance = ((flat - mean) ** 2).mean(axis=0)
    out = (wide - mean) / np.sqrt(variance + epsilon) * gamma + beta
    return _like(np.moveaxis(out, -1, 1), input), _like(mean, input), _like(variance, input)


def layer_norm_loops(input, gamma, beta, epsilon):
    return _like(test_norm_kernels.layer_norm_loops(input, gamma, beta, epsilon), input)


def rms_norm_loops(input, gamma, epsilon):
    return _like(test_norm_kernels.rms_norm_loops(input, gamma, epsilon), input)


def gelu_approximate_backward(x, grad):
    """grad times the derivative of 0.5 x (1 + tanh(u)), u = sqrt(2/π) (x + 0.044715 x³), in
    float64: 0.5 (1 + tanh u) + 0.5 x sech²(u) u'."""
    wide = x.astype(np.float64)
    k = np.sqrt(2 / np.pi)
    u = k * (wide + 0.044715 * wide**3)
    slope = 0.5 * (1 + np.tanh(u)) + 0.5 * wide * k * (1 + 3 * 0.044715 * wide**2) / np.cosh(u) ** 2
    return _like(grad * slope, x)


def ctc_paths(log_probs, targets, input_lengths, target_lengths, blank):
    out = test_ctc_kernels.ctc_paths(log_probs, targets, input_lengths, target_lengths, blank)
    return _like(out, log_probs)


def cross_entropy_class_targets(logits, targets):
    wide = logits.astype(np.float64)
    shifted = wide - wide.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return _like([-log_probs[np.arange(len(targets)), targets].mean()], logits)


def rfft_reference(signal, dim, n):
    moved = np.moveaxis(signal, dim, -1)
    spectrum = np.moveaxis(test_fft_kernels.dft_loops(moved, n or moved.shape[-1]), -1, dim)
    return _like(spectrum.real, signal), _like(spectrum.imag, signal)


def irfft_reference(spectrum_re, spectrum_im, dim, n):
    re, im = np.moveaxis(spectrum_re, dim, -1), np.moveaxis(spectrum_im, dim, -1)
    out = test_fft_kernels.inverse_loops(re, im, n or 2 * (re.shape[-1] - 1))
    return _like(np.moveaxis(out, -1, dim), spectrum_re)


def fft_reference(signal, dim, inverse):
    wide = signal.astype(np.float64)
    values = wide[..., 0] + 1j * wide[..., 1]
    if values.size == 0:
        return signal.copy()
    out = (np.fft.ifft if inverse else np.fft.fft)(values, axis=dim % values.ndim)
    return _like(np.stack([out.real, out.imag], axis=-1), signal)


def deform_loops(x, offset, weight, mask, bias, stride, padding, dilation, wg, og):
    out = test_deform_kernels.deform_loops(
        x, offset, weight, mask, bias, stride, padding, dilation, wg, og
    )
    return _like(out, x)


def grid_sample_loops(tensor, grid, mode, padding_mode, align_corners):
    return _like(
        test_grid_sample_kernels.reference(tensor, grid, mode, padding_mode, align_corners), tensor
    )


def linear(input, weight, bias):
    out = np.einsum("...i,io->...o", input.astype(np.float64), weight)
    return _like(out if bias is None else out + bias, input)


def conv(x, weight, bias, stride, padding, dilation, groups, padding_end):
    out = test_conv_kernels.reference_conv(
        x, weight, bias, stride, padding, dilation, groups, padding_end
    )
    return _like(out, x)


def conv_transpose(x, weight, bias, stride, padding, padding_out, dilation, groups):
    out = test_conv_kernels.reference_conv_transpose(
        x, weight, bias, stride, padding, padding_out, dilation, groups
    )
    return _like(out, x)


def unfold(x, kernel_size, stride, padding, dilation):
    return _like(test_conv_kernels.reference_unfold(x, kernel_size, stride, padding, dilation), x)


def fold(x, output_size, kernel_size, stride, padding, dilation):
    out = test_conv_kernels.reference_fold(x, output_size, kernel_size, stride, padding, dilation)
    return _like(out, x)


def max_pool(x, kernel_size, stride, padding, dilation, ceil_mode, with_indices):
    stride = kernel_size if stride is None else stride
    out, indices = test_pool_kernels.reference_max_pool(
        x, kernel_size, stride, padding, dilation, ceil_mode
    )
    return (_like(out, x), indices) if with_indices else _like(out, x)


def avg_pool(x, kernel_size, stride, padding, count_include_pad, ceil_mode):
    stride = kernel_size if stride is None else stride
    out = test_pool_kernels.reference_avg_pool(
        x, kernel_size, stride, padding, count_include_pad, ceil_mode
    )
    return _like(out, x)


def adaptive_avg_pool(x, output_size):
    return _like(test_pool_kernels.reference_adaptive(x, output_size), x)


def adam_step(
    param,
    grad,
    m,
    v,
    v_max,
    lr,
    beta_1,
    beta_2,
    epsilon,
    weight_decay,
    bc_1,
    bc_2,
    decoupled,
    cautious,
    amsgrad,
):
    """burn's Adam / AdamW step in float64, in the textbook form: m̂ = m / bc_1, v̂ = v / bc_2,
    p - lr m̂ / (sqrt(v̂) + epsilon)."""
    p, g = param.astype(np.float64), grad.astype(np.float64)
    if weight_decay and not decoupled:
        g = g + weight_decay * p
    m = (1 - beta_1) * g + (0 if m is None else beta_1 * m.astype(np.float64))
    v = (1 - beta_2) * g * g + (0 if v is None else beta_2 * v.astype(np.float64))
    if amsgrad:
        v_max = v if v_max is None else np.maximum(v_max.astype(np.float64), v)
    else:
        v_max = v
    step = lr * (m / bc_1) / (np.sqrt(v_max / bc_2) + epsilon)
    if decoupled:
        decay = lr * weight_decay * p
        if cautious:
            decay = np.where((p >= 0) == (m >= 0), decay, 0.0)
        p = p - decay
    return tuple(_like(a, param) for a in (p - step, m, v, v_max))


def clip_by_norm(grad, threshold):
    g = grad.astype(np.float64)
    tiny = float(ml_dtypes.finfo(grad.dtype).tiny)
    return _like(g * min(1.0, threshold / (np.sqrt(np.sum(g * g)) + tiny)), grad)


def sgd_step(param, grad, velocity, lr, momentum, dampening, weight_decay, nesterov):
    p, g = param.astype(np.float64), grad.astype(np.float64)
    g = g + weight_decay * p
    if not momentum:
        return _like(p - lr * g, param), _like(g, param)
    v = g if velocity is None else momentum * velocity + (1 - dampening) * g
    step = g + momentum * v if nesterov else v
    return _like(p - lr * step, param), _like(v, param)


def rmsprop_step(
    param, grad, square_avg, grad_avg, buffer, lr, alpha, epsilon, weight_decay, momentum, centered
):
    p, g = param.astype(np.float64), grad.astype(np.float64)
    g = g + weight_decay * p
    square = (1 - alpha) * g * g + (0 if square_avg is None else alpha * square_avg)
    mean = (1 - alpha) * g + (0 if grad_avg is None else alpha * grad_avg)
    avg = square - mean * mean if centered else square
    step = g / (np.sqrt(avg) + epsilon)
    if momentum > 0 and buffer is not None:
        step = momentum * buffer + step
    outputs = (p - lr * step, square, mean if centered else square, step)
    return tuple(_like(a, param) for a in outputs)
