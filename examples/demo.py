"""The seed's experiments, reproduced through the public API, then a small model trained.

Run with `make demo` (which regenerates generated/ from ops.yaml first).
"""

import numpy as np

from generated import Device, Distribution, Tensor


def option(value) -> str:
    """Rust's `Option` debug form, as the seed prints it."""
    return "None" if value is None else f"Some({value})"


def floats(t: Tensor) -> str:
    return "[" + ", ".join(f"{v:.1f}" for v in t.to_numpy().ravel()) + "]"


def devices() -> tuple:
    flex = Device.numpy()
    ad = flex.autodiff()
    ad_ckpt = ad.gradient_checkpointing()
    print("== devices (seed: From Device::autodiff() to Autodiff<Flex, C>)")
    for name, device in (("flex", flex), ("ad", ad), ("ad_ckpt", ad_ckpt)):
        print(f"{name:8} {device}  name={device.backend_name()}")
    print(f"flex == ad: {str(flex == ad).lower()}, ad == ad_ckpt: {str(ad == ad_ckpt).lower()}")
    return flex, ad, ad_ckpt


def puzzle(flex: Device, ad: Device) -> None:
    print("\n== the puzzle (seed: Puzzle and answer)")
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
            f"{name:10} is_autodiff={str(t.is_autodiff()).lower():5} "
            f"is_tracked={str(t.is_tracked()).lower():5} "
            f"is_require_grad={str(t.is_require_grad()).lower():5} "
            f"strategy={option(t.gradient_checkpointing_strategy())}"
        )
    grads = (a * w + c * w).sum().backward()
    print(f"loss = (a * w + c * w).sum(): w.grad = Some({floats(w.grad(grads))})  (a + c)")


def constant(flex: Device, ad: Device) -> None:
    print("\n== a plain tensor mixed with an autodiff one is a constant")
    c = Tensor.from_data([2.0, 3.0, 4.0, 5.0], device=flex)
    w = Tensor.from_data([1.0, 1.0, 1.0, 1.0], device=ad).require_grad()
    product = c * w
    print(f"c*w device: {product.device()}")
    print(f"w.grad = {option(floats(w.grad(product.sum().backward())))}")


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
    flex, ad, ad_ckpt = devices()
    puzzle(flex, ad)
    constant(flex, ad)
    panics(flex, ad, ad_ckpt)
    train(ad)


if __name__ == "__main__":
    main()
