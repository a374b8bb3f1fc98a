"""Devices, autodiff and its rules at work through the public API, then a small model trained.

Run with `make demo` (which first checks that generated/ is in sync with ops.yaml).
"""

import numpy as np

import burnpy.threads
from burnpy.generated import Device, Distribution, Tensor


def floats(t: Tensor) -> list:
    return [round(float(v), 1) for v in t.to_numpy().ravel()]


def devices() -> tuple:
    flex = Device.numpy()
    ad = flex.autodiff()
    ad_ckpt = ad.gradient_checkpointing()
    print("== devices: a plain one, its autodiff counterpart, and that with checkpointing")
    for name, device in (("flex", flex), ("ad", ad), ("ad_ckpt", ad_ckpt)):
        print(f"{name:8} {device}  name={device.backend_name()}")
    print(f"flex == ad: {flex == ad}, ad == ad_ckpt: {ad == ad_ckpt}")
    return flex, ad, ad_ckpt


def tracking(flex: Device, ad: Device) -> None:
    print("\n== which tensors are autodiff, tracked, or require a gradient")
    a = Tensor.from_data([[1.0, 2.0], [3.0, 4.0]], device=ad)
    w = Tensor.from_data([[1.0, 2.0], [3.0, 4.0]], device=ad).require_grad()
    c = Tensor.from_data([[1.0, 1.0], [1.0, 1.0]], device=flex)
    for name, t in (
        ("a", a),
        ("w", w),
        ("c(flex)", c),
        ("a*a", a * a),
        ("a*w", a * w),
        ("c*w", c * w),
    ):
        print(
            f"{name:10} is_autodiff={t.is_autodiff()!s:5} "
            f"is_tracked={t.is_tracked()!s:5} "
            f"is_require_grad={t.is_require_grad()!s:5} "
            f"strategy={t.gradient_checkpointing_strategy()}"
        )
    grads = (a * w + c * w).sum().backward()
    print(f"loss = (a * w + c * w).sum(): w.grad = {floats(w.grad(grads))}  (a + c)")


def constant(flex: Device, ad: Device) -> None:
    print("\n== a plain tensor mixed with an autodiff one is a constant")
    c = Tensor.from_data([2.0, 3.0, 4.0, 5.0], device=flex)
    w = Tensor.from_data([1.0, 1.0, 1.0, 1.0], device=ad).require_grad()
    product = c * w
    print(f"c*w device: {product.device()}")
    print(f"w.grad = {floats(w.grad(product.sum().backward()))}")


def panics(flex: Device, ad: Device, ad_ckpt: Device) -> None:
    print("\n== burn's panics, as exceptions with the same text")
    w = Tensor.from_data([1.0, 2.0], device=ad).require_grad()
    attempts = (
        ("(w * 2.0).require_grad()", lambda: (w * 2.0).require_grad()),
        ("flex tensor .require_grad()", lambda: Tensor.ones([1], device=flex).require_grad()),
        ("constants-only .backward()", lambda: (Tensor.ones([1], device=ad) * 2.0).backward()),
        ("Balanced * Disabled", lambda: Tensor.ones([2], device=ad_ckpt) * w),
    )
    for what, attempt in attempts:
        try:
            attempt()
        except (RuntimeError, AssertionError) as error:
            print(f"{what}:\n  {type(error).__name__}: " + str(error).replace("\n", "\n  "))


def train(ad: Device) -> None:
    print("\n== fitting y = 3x - 2 + noise with a 1-16-1 tanh network (gradient descent)")
    ad.seed(0)
    rng = np.random.default_rng(0)
    xs = rng.uniform(-1, 1, size=(64, 1)).astype(np.float32)
    ys = (3 * xs - 2 + rng.normal(0, 0.05, size=xs.shape)).astype(np.float32)
    x, y = Tensor.from_data(xs, device=ad), Tensor.from_data(ys, device=ad)
    params = [
        Tensor.random([1, 16], Distribution.normal(0.0, 0.5), device=ad).require_grad(),
        Tensor.zeros([16], device=ad).require_grad(),
        Tensor.random([16, 1], Distribution.normal(0.0, 0.5), device=ad).require_grad(),
        Tensor.zeros([1], device=ad).require_grad(),
    ]
    for step in range(201):
        w1, b1, w2, b2 = params
        prediction = (x @ w1 + b1).tanh() @ w2 + b2
        loss = ((prediction - y) ** 2.0).mean()
        grads = loss.backward()
        # the update is plain arithmetic on the inner tensors; the new leaves require grad again
        params = [(p.inner() - p.grad(grads) * 0.1).to_device(ad).require_grad() for p in params]
        if step % 40 == 0:
            print(f"step {step:3}  loss {loss.item():.5f}")


def main() -> None:
    burnpy.threads.use_default()  # one BLAS thread: small matrices, a machine maybe shared
    flex, ad, ad_ckpt = devices()
    tracking(flex, ad)
    constant(flex, ad)
    panics(flex, ad, ad_ckpt)
    train(ad)


if __name__ == "__main__":
    main()
