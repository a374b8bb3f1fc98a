"""Devices: DispatchDevice (one variant per inner backend), AutodiffDevice, and the public Device.

Equality and hashing look at the inner device only: the autodiff mark and the checkpointing
strategy are not part of a device's identity (seed: `flex == ad: true, ad == ad_ckpt: true`).
"""

from enum import Enum

from burnpy.runtime.backends.registry import backend_for, device_name, variant_named
from burnpy.runtime.errors import AUTODIFF_NOT_ENABLED, BurnPanic
from burnpy.runtime.quantization.scheme import QuantPropagation

# burn's per-device settings, of which the one kept here is the quantization propagation: keyed
# by the raw device, so a device and its autodiff form share it (they are the same device)
_PROPAGATION: dict[tuple[str, str], QuantPropagation] = {}


def quantization_propagation_of(variant: str, inner: str) -> QuantPropagation:
    """The propagation set on the device `variant(inner)`: INHIBIT unless configured."""
    return _PROPAGATION.get((variant, inner), QuantPropagation.INHIBIT)


class GradientCheckpointingStrategy(Enum):
    Balanced = "Balanced"
    Disabled = "Disabled"

    def __repr__(self):
        return self.value

    __str__ = __repr__


class DispatchDevice:
    """A raw device of one inner backend: `NumPy(Cpu)`, `Torch(Cuda(0))`."""

    __slots__ = ("variant", "inner")

    def __init__(self, variant: str, inner: str = "Cpu"):
        self.variant = variant  # the backend's DispatchTensorKind variant, e.g. "NumPy"
        self.inner = inner  # the backend's own device, e.g. "Cpu", "Cuda(0)"

    def raw(self) -> "DispatchDevice":
        return self

    def __eq__(self, other):
        other = getattr(other, "device", other)  # a public Device compares through its device
        if isinstance(other, DispatchDevice):
            other = other.raw()
            return self.variant == other.variant and self.inner == other.inner
        return NotImplemented

    def __hash__(self):
        return hash((self.variant, self.inner))

    def __repr__(self):
        return f"{self.variant}({self.inner})"


class AutodiffDevice(DispatchDevice):
    """`DispatchDevice::Autodiff(AutodiffDevice { inner, checkpointing })`."""

    __slots__ = ("checkpointing",)

    def __init__(self, inner: DispatchDevice, checkpointing: GradientCheckpointingStrategy):
        super().__init__(inner.variant, inner.inner)
        self.checkpointing = checkpointing

    def raw(self) -> DispatchDevice:
        return DispatchDevice(self.variant, self.inner)

    __eq__ = DispatchDevice.__eq__
    __hash__ = DispatchDevice.__hash__

    def __repr__(self):
        return (
            f"Autodiff {{ device: {self.variant}({self.inner}), "
            f"checkpointing: {self.checkpointing} }}"
        )


class Device:
    """The public device handle (burn-tensor's `Device`), wrapping a DispatchDevice."""

    __slots__ = ("device",)

    def __init__(self, device: DispatchDevice):
        self.device = device

    @classmethod
    def of(cls, backend: str, spec: str = "cpu") -> "Device":
        """A device of any backend ops.yaml declares, by its name: `Device.of("torch", "cuda:0")`.
        The backend's library is imported here: without it, the ImportError names the extra
        that installs it."""
        variant = variant_named(backend)
        name = device_name(variant, spec)
        # a device the library cannot use (CUDA in a CPU build) is refused here, not at the
        # first op
        backend_for(variant).native_device(name)
        return cls(DispatchDevice(variant, name))

    @classmethod
    def numpy(cls) -> "Device":
        return cls.of("numpy")

    @classmethod
    def torch(cls, spec: str = "cpu") -> "Device":
        """A torch device: `"cpu"`, `"cuda"` or `"cuda:N"`."""
        return cls.of("torch", spec)

    # -- autodiff -----------------------------------------------------------------------------
    def autodiff(self) -> "Device":
        """Mark the device for autodiff; idempotent, an existing strategy is kept."""
        if isinstance(self.device, AutodiffDevice):
            return self
        return Device(AutodiffDevice(self.device, GradientCheckpointingStrategy.Disabled))

    def gradient_checkpointing(self) -> "Device":
        """The same autodiff device with BalancedCheckpointing."""
        if not isinstance(self.device, AutodiffDevice):
            raise BurnPanic(AUTODIFF_NOT_ENABLED, "call Device.autodiff() first")
        return Device(AutodiffDevice(self.device.raw(), GradientCheckpointingStrategy.Balanced))

    def gradient_checkpointing_strategy(self) -> GradientCheckpointingStrategy | None:
        return self.device.checkpointing if isinstance(self.device, AutodiffDevice) else None

    def is_autodiff(self) -> bool:
        return isinstance(self.device, AutodiffDevice)

    def inner(self) -> "Device":
        """The device without its autodiff mark."""
        return Device(self.device.raw())

    without_autodiff = inner

    def backend_name(self) -> str:
        name = backend_for(self.device.variant).name
        return f"dispatch<autodiff<{name}>>" if self.is_autodiff() else f"dispatch<{name}>"

    def seed(self, seed: int) -> None:
        """Make this device's random tensors reproducible."""
        backend_for(self.device.variant).seed(seed)

    # -- settings -----------------------------------------------------------------------------
    def quantization_propagation(self, propagation: QuantPropagation) -> "Device":
        """Configure this device (and its autodiff form, the same device): whether the ops that
        burn may quantize again (`q + q2`, `q * 2.0`, reductions, matmul) return a quantized
        tensor (PROPAGATE) or a float one (INHIBIT, the default). Returns the device."""
        if not isinstance(propagation, QuantPropagation):
            raise TypeError(
                f"Device.quantization_propagation: expected a QuantPropagation "
                f"(QuantPropagation.PROPAGATE or .INHIBIT), got {propagation!r}"
            )
        _PROPAGATION[(self.device.variant, self.device.inner)] = propagation
        return self

    def quantization_propagation_setting(self) -> QuantPropagation:
        """The propagation this device is configured with."""
        return quantization_propagation_of(self.device.variant, self.device.inner)

    # -- identity -----------------------------------------------------------------------------
    def __eq__(self, other):
        if isinstance(other, Device):
            return self.device == other.device
        if isinstance(other, DispatchDevice):
            return self.device == other
        return NotImplemented

    def __hash__(self):
        return hash(self.device)

    def __repr__(self):
        return f"Device<{self.device!r}>"

    __str__ = __repr__
