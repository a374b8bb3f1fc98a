"""The compiler's fused kernels are declarations checked against the catalogue: each recorded
kernel they replace is an op's, so an op renamed or gone in ops.yaml stops the compiler loudly
instead of turning its fusion off."""

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from burnpy.capture import compiler, csource, fusion, named
from burnpy.capture.recorder import Value
from burnpy.codegen.__main__ import read_catalogue
from burnpy.generated import catalogue as ops
from burnpy.runtime.backends.registry import backend_for

ROOT = Path(__file__).resolve().parent.parent


def _autodiff_ops(catalogue) -> dict:
    return {op.name: op.autodiff_op for op in catalogue.ops if op.autodiff_op is not None}


def _scratch(tmp_path, old: str, new: str):
    text = (ROOT / "ops.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1
    path = tmp_path / "ops.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return read_catalogue(str(path))


def test_the_library_catalogue_defines_every_kernel_the_compiler_names():
    assert (
        named.missing(compiler.NAMED, _autodiff_ops(read_catalogue(str(ROOT / "ops.yaml")))) == []
    )


def test_an_op_renamed_in_the_catalogue_stops_the_compiler(tmp_path):
    scratch = _scratch(tmp_path, "  - name: clip_by_norm\n", "  - name: clip_grad_norm\n")
    with pytest.raises(named.CatalogueMismatch, match="clip_by_norm: no op 'clip_by_norm'"):
        named.check(compiler.NAMED, _autodiff_ops(scratch), "the scratch catalogue")


def test_an_op_that_keeps_nothing_or_has_no_backward_is_named():
    library = {op.name: op for op in vars(ops).values() if isinstance(op, type(ops.GELU))}
    library["layer_norm"] = replace(ops.LAYER_NORM, keeps=None)
    library["softmax"] = replace(ops.SOFTMAX, role=ops.CLIP_BY_NORM.role)
    assert named.missing(compiler.NAMED, library) == [
        "layer_norm_keeping: 'layer_norm' keeps nothing for its backward",
        "softmax_backward: 'softmax' has no backward rule",
        "softmax_backward: 'softmax' has no backward rule",
    ]


def test_each_kernel_is_one_declaration_every_table_derives_from():
    names = [kernel.name for kernel in fusion.KERNELS]
    assert len(set(names)) == len(names)
    for recorded_name, found in fusion.RULES.items():
        for kernel, rule in found:
            replaced = [r for r in kernel.replaces if type(r) is named.Recorded]
            assert [kernel.replaces[r] for r in replaced if r.name == recorded_name] == [rule]
    assert [k for k, _ in fusion.RULES["conv2d"]] == [
        fusion.DEPTHWISE_CONV2D,
        fusion.FEW_CHANNELS_CONV2D,
    ]
    assert fusion.PAIRS[("float_mask_fill", "softmax")][0] is fusion.MASKED_SOFTMAX
    # the library's source holds each kernel's C function once per dtype
    for dtype, suffix in csource.SUFFIXES.items():
        source = csource.c_source(fusion.KERNELS, dtype)
        for kernel in fusion.KERNELS:
            assert source.count(f"void {kernel.name}_{suffix}(") == 1
    assert fusion.GELU.replaces == {named.Recorded(ops.GELU): fusion.gelu}


def test_backends_are_told_apart_by_kind():
    assert fusion.Fusing.of(backend_for("NumPy")) is fusion.Fusing.NUMPY
    assert fusion.Fusing.of(backend_for("Torch")) is fusion.Fusing.TORCH
    assert fusion.Fusing.TORCH in fusion.ADAM_STEP.backends
    assert fusion.Fusing.TORCH not in fusion.LAYER_NORM.backends


def test_a_rule_whose_arguments_do_not_fit_the_c_parameters_is_refused():
    x, out = (Value(np.ones(4, np.float32), None, name) for name in ("x", "out"))
    fusion.check_arguments(fusion.Fused(fusion.GELU, "float32", [4, x, out], [out], "gelu"))
    swapped = fusion.Fused(fusion.GELU, "float32", [x, 4, out], [out], "gelu")
    with pytest.raises(fusion.ArgumentMismatch, match=r"gelu_f32: parameter n \(long\)"):
        fusion.check_arguments(swapped)
    unwritten = fusion.Fused(fusion.GELU, "float32", [4, out, x], [out], "gelu")
    with pytest.raises(fusion.ArgumentMismatch, match="parameter x .array. is given Value"):
        fusion.check_arguments(unwritten)
    wrong_dtype = fusion.Fused(fusion.GELU, "float64", [4, x, out], [out], "gelu")
    with pytest.raises(fusion.ArgumentMismatch, match="parameter x"):
        fusion.check_arguments(wrong_dtype)
    with pytest.raises(fusion.ArgumentMismatch, match="takes 3 arguments, its rule gives 2"):
        fusion.check_arguments(fusion.Fused(fusion.GELU, "float32", [4, x], [], "gelu"))
