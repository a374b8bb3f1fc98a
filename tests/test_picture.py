"""Pictures of the autodiff graph: the Mermaid and DOT text of small graphs under both
checkpointing strategies and after a backward, images through Graphviz, and the README's graph."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from burnpy.generated import Device, Tensor, introspect

ROOT = Path(__file__).resolve().parent.parent
CPU = Device.numpy()
AD = CPU.autodiff()
CK = AD.gradient_checkpointing()

LEAF_STYLE = "    classDef leaf fill:#e3f2e3,stroke:#2e7d32"
RECOMPUTED_STYLE = "    classDef recomputed fill:#fff8e1,stroke:#f9a825,stroke-dasharray:5 3"
CONSUMED_STYLE = "    classDef consumed fill:#eeeeee,stroke:#9e9e9e,color:#757575"
RELEASED_STYLE = (
    "    classDef released fill:#ffffff,stroke:#bdbdbd,stroke-dasharray:2 2,color:#9e9e9e"
)


def leaf(device):
    """Two float64 values (16 bytes)."""
    return Tensor.from_data(np.array([0.5, -1.0]), device=device).require_grad()


def ident(t) -> int:
    return t.node_id().value


def test_mermaid_of_a_chain_without_checkpointing():
    w = leaf(AD)
    y = w.exp()  # keeps its output for backward: 16 bytes
    loss = y.sum()  # keeps only a shape
    a, b, c = ident(w), ident(y), ident(loss)
    assert introspect.to_mermaid(loss) == "\n".join(
        [
            "flowchart TD",
            f'    n{a}(["id {a}: leaf<br/>Grad, order 0<br/>Ambiguous, saved 0 B"])',
            f'    n{b}["id {b}: float_exp<br/>GradInBackward, order 1<br/>ComputeBound, saved 16 B"]',
            f'    n{c}["id {c}: float_sum<br/>GradInBackward, order 2<br/>ComputeBound, saved 0 B"]',
            f"    n{a} --> n{b}",
            f"    n{b} --> n{c}",
            LEAF_STYLE,
            f"    class n{a} leaf",
            "",
        ]
    )


def test_mermaid_under_balanced_checkpointing_marks_the_recomputed_step():
    w = leaf(CK)
    y = w.exp()  # MemoryBound: a recipe keeping its input (the leaf's 16 bytes), no output
    loss = (y * w).sum()  # float_mul keeps w (16 B) and a reference to y (recomputed: 0 B)
    a, b, c, d = ident(w), ident(y), ident(loss) - 1, ident(loss)
    assert introspect.to_mermaid(loss) == "\n".join(
        [
            "flowchart TD",
            f'    n{a}(["id {a}: leaf<br/>Grad, order 0<br/>Ambiguous, saved 0 B"])',
            f'    n{b}["id {b}: float_exp<br/>GradInBackward, order 1<br/>MemoryBound, saved 16 B"]',
            f'    n{c}["id {c}: float_mul<br/>GradInBackward, order 2<br/>MemoryBound, saved 16 B"]',
            f'    n{d}["id {d}: float_sum<br/>GradInBackward, order 3<br/>ComputeBound, saved 0 B"]',
            f"    n{a} --> n{b}",
            f"    n{a} --> n{c}",
            f"    n{b} --> n{c}",
            f"    n{c} --> n{d}",
            LEAF_STYLE,
            f"    class n{a} leaf",
            RECOMPUTED_STYLE,
            f"    class n{b},n{c} recomputed",
            "",
        ]
    )


@pytest.mark.parametrize("device", [AD, CK], ids=["NoCheckpointing", "Balanced"])
def test_after_a_backward_the_consumed_step_is_drawn_with_its_released_parent(device):
    w = leaf(device)
    loss = w.exp().sum()
    loss.backward()
    c = ident(loss)
    b = c - 1  # the exp output, no longer held by anything
    assert introspect.to_mermaid(loss) == "\n".join(
        [
            "flowchart TD",
            f'    n{b}(["id {b}<br/>released"])',
            f'    n{c}["id {c}: consumed<br/>GradInBackward, order 2<br/>ComputeBound, saved 0 B"]',
            f"    n{b} --> n{c}",
            CONSUMED_STYLE,
            f"    class n{c} consumed",
            RELEASED_STYLE,
            f"    class n{b} released",
            "",
        ]
    )


def test_a_branch_consumed_by_another_backward_is_drawn_consumed():
    w = leaf(AD)
    h = w * 2.0
    first = h.sum()
    second = (h * 3.0).sum()
    first.backward()  # consumes h's step: `second` can no longer reach w
    text = introspect.to_mermaid(second)
    a, b, d = ident(w), ident(h), ident(second)
    c = d - 1
    assert f'    n{b}["id {b}: consumed<br/>GradInBackward, order 1<br/>' in text
    assert f'    n{c}["id {c}: float_mul_scalar<br/>GradInBackward, order 2<br/>' in text
    assert f'    n{a}(["id {a}<br/>released"])' in text
    edges = re.findall(r"^    n(\d+) --> n(\d+)$", text, re.M)
    assert {(int(p), int(q)) for p, q in edges} == {(a, b), (b, c), (c, d)}
    assert f"    class n{b} consumed" in text and f"    class n{a} released" in text


def test_a_list_input_has_an_edge_from_each_tracked_element():
    a = leaf(AD)
    b = a.exp()
    c = Tensor.from_data(np.array([3.0]), device=AD)  # untracked: not part of the graph
    out = Tensor.cat([a, c, b], 0)
    text = introspect.to_mermaid(out)
    edges = re.findall(r"^    n(\d+) --> n(\d+)$", text, re.M)
    x, y, z = ident(a), ident(b), ident(out)
    assert {(int(p), int(q)) for p, q in edges} == {(x, y), (x, z), (y, z)}
    assert f"id {z}: float_cat" in text and f"n{ident(c)}" not in text


def test_dot_of_a_small_graph():
    w = leaf(AD)
    y = w * w  # float_mul keeps both inputs: one 16-byte buffer, counted once
    a, b = ident(w), ident(y)
    assert introspect.to_dot(y) == "\n".join(
        [
            "digraph autodiff {",
            '    node [fontname="Helvetica", fontsize=10];',
            f'    n{a} [label="id {a}: leaf\\nGrad, order 0\\nAmbiguous, saved 0 B", shape=ellipse, '
            'style=filled, fillcolor="#e3f2e3", color="#2e7d32"];',
            f'    n{b} [label="id {b}: float_mul\\nGradInBackward, order 1\\nComputeBound, '
            'saved 16 B", shape=box];',
            f"    n{a} -> n{b};",
            "}",
            "",
        ]
    )


def test_an_untracked_tensor_is_a_single_node_and_a_plain_one_has_no_graph():
    t = Tensor.from_data(np.array([1.0]), device=AD)
    u = t.exp()
    assert introspect.to_mermaid(u).splitlines()[1] == (
        f'    n{ident(u)}(["id {ident(u)}: untracked op<br/>None, order 1<br/>ComputeBound, '
        'saved 0 B"])'
    )
    with pytest.raises(TypeError, match="autodiff device"):
        introspect.to_dot(Tensor.from_data(np.array([1.0]), device=CPU))


def test_render_says_which_formats_it_writes(tmp_path):
    with pytest.raises(ValueError, match=r"\.png or \.svg"):
        introspect.render(leaf(AD).exp(), tmp_path / "graph.pdf")


def test_render_without_graphviz_names_it(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty directory: no `dot`
    with pytest.raises(FileNotFoundError, match="Graphviz"):
        introspect.render(leaf(AD).exp(), tmp_path / "graph.png")
    assert not (tmp_path / "graph.png").exists()


needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot not on PATH")


@needs_dot
def test_render_writes_png_and_svg(tmp_path):
    loss = leaf(CK).exp().sum()
    png = introspect.render(loss, tmp_path / "graph.png")
    content = png.read_bytes()
    assert content.startswith(b"\x89PNG\r\n\x1a\n") and len(content) > 1000
    svg = introspect.render(loss, tmp_path / "graph.svg").read_text()
    assert "<svg" in svg and "float_exp" in svg and "float_sum" in svg


def _block(text: str, heading: str, language: str) -> str:
    """The first ```language block after `heading` in the README."""
    after = text[text.index(heading) :]
    return re.search(rf"```{language}\n(.*?)```", after, re.S).group(1)


def test_the_readme_shows_the_graph_of_its_usage_example():
    """The README's Mermaid block is what to_mermaid prints for the Usage example before its
    backward, in a fresh process (node ids count from 0 there)."""
    readme = (ROOT / "README.md").read_text()
    example = _block(readme, "## Usage", "python")
    forward = example[: example.index("grads = loss.backward()")]
    script = (
        forward
        + "from burnpy.generated import introspect\nprint(introspect.to_mermaid(loss), end='')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout == _block(readme, "## Graph memory", "mermaid")
