"""The ONNX graph an export builds: nodes, initializers and unique names; and the small facts
every lowering needs (a refusal, an array's numpy dtype)."""

from __future__ import annotations

import numpy as np


class Refused(Exception):
    """A lowering cannot express this call (its arguments, or the opset): why."""


def numpy_dtype(array) -> np.dtype:
    """The numpy dtype of a backend's array (a torch tensor's by its name)."""
    if isinstance(array, np.ndarray | np.generic):
        return array.dtype
    name = str(array.dtype).removeprefix("torch.")
    if name == "bfloat16":
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


def to_numpy(array) -> np.ndarray:
    if isinstance(array, np.ndarray | np.generic):
        return np.asarray(array)
    return array.detach().cpu().numpy()


class Graph:
    """Nodes in order, initializers by name; each value named once. `opset` is the default
    domain's version the file declares (a lowering may pick a form by it)."""

    def __init__(self, opset: int):
        import onnx

        self.onnx = onnx
        self.opset = opset
        self.nodes: list = []
        self.initializers: dict = {}  # name -> numpy array
        self._taken: set = set()
        self._constants: dict = {}  # (dtype, shape, bytes) -> name: one initializer per value
        # the dynamic axes' sizes in the recording: size -> (input, axis); `dim` reads one
        self.dynamic: dict = {}
        self._dims: dict = {}
        self.scales: dict = {}  # a quantized parameter's int8 initializer -> its scale's

    def name(self, base: str) -> str:
        base = base or "value"
        name, count = base, 0
        while name in self._taken:
            count += 1
            name = f"{base}_{count}"
        self._taken.add(name)
        return name

    def node(self, op: str, inputs, outputs: int = 1, **attributes):
        """Add one node; returns its output's name (a list of names when `outputs` > 1). An
        input None is an omitted optional one."""
        names = [self.name(f"{op.lower()}") for _ in range(outputs)]
        attributes = {k: _attribute(v) for k, v in attributes.items() if v is not None}
        self.nodes.append(
            self.onnx.helper.make_node(
                op,
                ["" if i is None else i for i in inputs],
                names,
                name=self.name(f"/{op}"),
                **attributes,
            )
        )
        return names[0] if outputs == 1 else names

    def initializer(self, array, name: str) -> str:
        name = self.name(name)
        self.initializers[name] = np.asarray(array)
        return name

    def constant(self, value, dtype=None) -> str:
        """A constant (an initializer shared by equal values)."""
        array = np.asarray(value, dtype=dtype)
        key = (array.dtype.str, array.shape, array.tobytes())
        found = self._constants.get(key)
        if found is None:
            found = self._constants[key] = self.initializer(array, "const")
        return found

    def ints(self, values) -> str:
        return self.constant(np.asarray(list(values), dtype=np.int64).reshape(-1))

    def dim(self, size: int) -> str | None:
        """A 1-element int64 tensor holding, at run time, the dynamic dim recorded as `size`
        (None when no dynamic axis was recorded at that size)."""
        found = self.dynamic.get(size)
        if found is None:
            return None
        if size not in self._dims:
            source, axis = found
            self._dims[size] = self.node("Shape", [source], start=axis, end=axis + 1)
        return self._dims[size]

    def cast(self, name: str, dtype) -> str:
        return self.node("Cast", [name], to=tensor_type(dtype))


def tensor_type(dtype) -> int:
    """ONNX's element type of a numpy dtype (bfloat16 from ml_dtypes included)."""
    import onnx

    return onnx.helper.np_dtype_to_tensor_dtype(np.dtype(dtype))


def _attribute(value):
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, bool | np.bool_):
        return int(value)
    return value
