"""One-node ONNX models for the importer's operator tests: built from example arrays, run by
onnx's reference evaluator and onnxruntime, and imported on a burnpy device."""

import numpy as np
from onnx import helper
from onnx.reference import ReferenceEvaluator

from burnpy import onnx as importer
from burnpy.generated import Device, Tensor

DEVICES = {"numpy": Device.numpy, "torch": Device.torch}


def node_model(op, inputs: dict, attributes: dict, opset: int, out=None):
    """A model of one `op` node: `inputs` (name -> array, None for one left out) are graph
    inputs; one output `y`, of the first input's type unless `out` (a numpy dtype) says."""
    names = [name if a is not None else "" for name, a in inputs.items()]
    out = next(iter(inputs.values())).dtype if out is None else out
    node = helper.make_node(op, names, ["y"], **attributes)
    graph = helper.make_graph(
        [node],
        op.lower(),
        [
            helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(a.dtype), a.shape)
            for name, a in inputs.items()
            if a is not None
        ],
        [helper.make_tensor_value_info("y", helper.np_dtype_to_tensor_dtype(np.dtype(out)), None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 10
    return model


def reference(model, inputs: dict) -> np.ndarray:
    feeds = {name: a for name, a in inputs.items() if a is not None}
    return ReferenceEvaluator(model).run(None, feeds)[0]


def onnxruntime(model, inputs: dict) -> np.ndarray:
    import onnxruntime as ort

    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, {name: a for name, a in inputs.items() if a is not None})[0]


def on_both_backends(model, inputs: dict) -> list:
    """The imported model's output on each backend."""
    args = [a for a in inputs.values() if a is not None]
    return [importer.load(model, device=d()).forward(*args).to_numpy() for d in DEVICES.values()]


def gradient(model, inputs: dict, wrt: str, weights: np.ndarray, device) -> np.ndarray:
    """d sum(output * weights) / d inputs[wrt], by the imported model's backward pass."""
    loaded = importer.load(model, device=device)
    names = [name for name, a in inputs.items() if a is not None]
    args = [
        (
            Tensor.from_data(inputs[name], device=device).require_grad()
            if name == wrt
            else inputs[name]
        )
        for name in names
    ]
    position = names.index(wrt)
    out = loaded(*args)
    loss = out.mul(Tensor.from_data(weights, device=device)).sum()
    return args[position].grad(loss.backward()).to_numpy()


def finite_difference(model, inputs: dict, wrt: str, weights: np.ndarray, step=1e-6):
    """The same gradient by central differences in float64, on the NumPy backend."""
    loaded = importer.load(model, device=Device.numpy())
    names = [name for name, a in inputs.items() if a is not None]

    def loss(value):
        args = [value if name == wrt else inputs[name] for name in names]
        return float(np.sum(loaded(*args).to_numpy() * weights))

    return central_differences(loss, np.array(inputs[wrt], dtype=np.float64), step)


def central_differences(f, x: np.ndarray, step=1e-6) -> np.ndarray:
    """d f / d x of a scalar function of an array, by central differences."""
    grad = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[index] += step
        down[index] -= step
        grad[index] = (f(up) - f(down)) / (2 * step)
    return grad
