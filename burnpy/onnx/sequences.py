"""ONNX's sequences as Python lists of Tensors: SequenceEmpty is `[]`, SequenceConstruct a list
of its inputs, SequenceAt an index; inserting or erasing makes a new list (a sequence is a
value, never changed in place), as an ONNX graph's values are. An optional is None or the
value it holds."""

from __future__ import annotations

from burnpy.onnx.emit import OPS, Outputs
from burnpy.onnx.expr import ListOf, Lit


def sequence_empty(site):
    return Outputs(ListOf(()), 1)


def sequence_construct(site):
    return Outputs(ListOf(tuple(site.x(i) for i in range(site.count()))), 1)


def sequence_at(site):
    items = site.x(0)
    return Outputs(items[OPS.position(items, site.x(1))], 1)


def sequence_insert(site):
    return Outputs(OPS.sequence_insert(site.x(0), site.x(1), site.opt(2)), 1)


def sequence_erase(site):
    return Outputs(OPS.sequence_erase(site.x(0), site.opt(1)), 1)


def sequence_length(site):
    return Outputs(OPS.sequence_length(site.x(0), site.device()), 1)


def split_to_sequence(site):
    axis, keepdims = site.attr("axis", 0), bool(site.attr("keepdims", 1))
    return Outputs(OPS.split_to_sequence(site.x(0), site.opt(1), axis, Lit(keepdims)), 1)


def concat_from_sequence(site):
    axis, new_axis = site.attr("axis"), bool(site.attr("new_axis", 0))
    if axis is None:
        site.refuse("its attribute 'axis' is required")
    return Outputs(OPS.concat_from_sequence(site.x(0), axis, new_axis), 1)


def optional(site):
    """Optional: the value itself, or None when the input is left out."""
    return Outputs(site.x(0) if site.has(0) else Lit(None), 1)


def optional_has_element(site):
    if not site.has(0):
        return Outputs(OPS.has_element(Lit(None), site.device()), 1)
    return Outputs(OPS.has_element(site.x(0), site.device()), 1)


def optional_get_element(site):
    value = site.emitter.value(site.node.inputs[0])
    if value is not None and value.optional:
        return Outputs(OPS.get_element(site.x(0)), 1)
    return Outputs(site.x(0), 1)
