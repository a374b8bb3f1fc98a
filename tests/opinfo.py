"""Samples for the spec-driven suite, built from each ops.yaml entry's `test` metadata
(PyTorch's OpInfo idea): inputs, the numpy reference, and how to call the dispatch function."""

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from scipy import special

import refs

import burnpy.generated.dispatch as dispatch
from burnpy.codegen.__main__ import read_catalogue
from burnpy.generated import Device, Distribution, IndexingUpdateOp, Tensor

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = read_catalogue(str(ROOT / "ops.yaml"))
OPS = CATALOGUE.ops
TENSOR_TYPES = ("float", "int", "bool", "indices")
DEFAULT_DTYPE = {"float": "float32", "int": "int64", "bool": "bool", "indices": "int64"}


def updated(array, index, value, ufunc=None):
    """A copy of `array` with `array[index] = value`, or `ufunc.at(array, index, value)` (which
    accumulates over repeated indices): the reference of scatter-like ops."""
    out = array.copy()
    if ufunc is None:
        out[index] = value
    else:
        ufunc.at(out, index, value)
    return out


@dataclass
class Sample:
    """One call: numpy inputs by argument name, plus how to make the tensors."""

    op: object
    values: dict  # argument name -> numpy array (tensors), list of arrays (tensors), or value
    dtype: str  # the dtype under test

    def reference(self):
        env = {"np": np, "special": special, "updated": updated, "refs": refs, **self.values}
        if "dtype" in env and env["dtype"] is not None:
            env["dtype"] = np.dtype(env["dtype"])
        return eval(self.op.test.ref, env)  # noqa: S307 - the catalogue's own expression

    def call(self, device, requires_grad=(), through=None):
        """Run the dispatch function on `device`; returns (result, leaves by name). The
        elements of a `tensors` list are named `tensors[0]`, `tensors[1]`, ..."""
        args, leaves = [], {}

        def tensor(name, value):
            made = Tensor.from_data(value, device=device, dtype=value.dtype)
            if name in requires_grad:
                made = leaves[name] = made.require_grad()
                if through is not None:
                    made = through(made)
            return made

        for arg in self.op.args:
            value = self.values.get(arg.name)
            if value is None and arg.optional:
                args.append(None)
            elif arg.type in TENSOR_TYPES:
                args.append(tensor(arg.name, value))
            elif arg.type == "tensors":
                args.append([tensor(f"{arg.name}[{i}]", v) for i, v in enumerate(value)])
            elif arg.type == "device":
                args.append(device.device)
            elif arg.type == "dtype":
                args.append(np.dtype(self.values["dtype"]))
            elif arg.type == "distribution":
                args.append(Distribution.default())
            elif arg.type in ("shape", "view_shape", "dims"):
                args.append(tuple(value))
            elif arg.type == "slices":
                args.append(tuple(tuple(s) for s in value))
            elif arg.type == "ints":
                args.append(tuple(value))
            elif arg.type == "update":
                args.append(IndexingUpdateOp.of(value))
            else:
                args.append(value)
        return getattr(dispatch, self.op.name)(*args), leaves


def input_dtype(op, dtype: str, arg_type: str) -> str:
    """The dtype of a tensor input: the one under test for the receiver's kind."""
    if op.routing in ("creation", "conversion"):
        return DEFAULT_DTYPE[arg_type]
    return dtype if arg_type == op.kind else DEFAULT_DTYPE[arg_type]


def make_array(rng, shape, arg_type, dtype, test):
    lo, hi = test.domain or ((-2.0, 2.0) if arg_type == "float" else (-5, 5))
    if arg_type == "bool":
        return rng.random(shape) < 0.5
    if arg_type in ("int", "indices"):
        values = rng.integers(int(lo), int(hi) + 1, size=shape)
    else:
        values = rng.uniform(lo, hi, size=shape)
        if test.integers:
            values = np.round(values)
    if test.signed:
        values = values * rng.choice([-1, 1], size=shape)
    return np.asarray(values).astype(dtype)


def samples(op, dtype: str, seed: int = 0) -> list[Sample]:
    test = op.test
    rng = np.random.default_rng(seed)
    tensor_args = [a for a in op.args if a.type in TENSOR_TYPES or a.type == "tensors"]
    shape_sets = test.shapes if tensor_args and test.shapes is not None else [[]]
    result = []
    for shapes in shape_sets:
        values = {}
        for arg, shape in zip(tensor_args, shapes):
            if shape is None:  # an optional tensor left out
                values[arg.name] = None
            elif (
                arg.name in test.arguments
            ):  # explicit data (indices, masks); wrapped into an unsigned
                # dtype an op refuses, whose values its refusal never reads
                values[arg.name] = np.asarray(test.arguments[arg.name]).astype(
                    input_dtype(op, dtype, arg.type)
                )
            elif arg.type == "tensors":
                values[arg.name] = [
                    make_array(rng, s, op.kind, input_dtype(op, dtype, op.kind), test)
                    for s in shape
                ]
            else:
                values[arg.name] = make_array(
                    rng, shape, arg.type, input_dtype(op, dtype, arg.type), test
                )
        for arg in op.args:
            if arg.name not in values and arg.name in test.arguments:
                values[arg.name] = test.arguments[arg.name]
            elif arg.name not in values and (arg.optional or arg.name in op.defaults):
                values[arg.name] = op.defaults.get(arg.name)
        values["dtype"] = dtype if any(a.type == "dtype" for a in op.args) else None
        result.append(Sample(op, values, dtype))
    return result


def float_inputs(sample) -> list[str]:
    """The names of a sample's float inputs: `float` args, and each element of a float op's
    `tensors` list as `name[i]`."""
    names = []
    for arg in sample.op.args:
        if sample.values.get(arg.name) is None and arg.optional:
            continue
        if arg.type == "float":
            names.append(arg.name)
        elif arg.type == "tensors" and sample.op.kind == "float":
            names += [f"{arg.name}[{i}]" for i in range(len(sample.values[arg.name]))]
    return names


def input_array(sample, name):
    """The numpy value of a float input named as `float_inputs` names it."""
    base, _, index = name.partition("[")
    value = sample.values[base]
    return value[int(index[:-1])] if index else value


def set_input_array(sample, name, array) -> None:
    base, _, index = name.partition("[")
    if index:
        sample.values[base][int(index[:-1])] = array
    else:
        sample.values[base] = array


def to_numpy(result):
    if isinstance(result, tuple):
        return tuple(r.to_numpy() for r in result)
    return result.to_numpy()


BACKENDS = [backend.name for backend in CATALOGUE.backends]  # numpy, torch, ...


def devices(name: str) -> dict[str, Device]:
    """A backend's plain, autodiff and balanced devices (`Device.numpy()`, `Device.torch()`).
    A test on a backend whose library is an optional extra is skipped when it is not installed."""
    backend = next(b for b in CATALOGUE.backends if b.name == name)
    if backend.extra:
        pytest.importorskip(backend.module)
    plain = getattr(Device, name)()
    return {
        "plain": plain,
        "autodiff": plain.autodiff(),
        "balanced": plain.autodiff().gradient_checkpointing(),
    }
