"""Pictures of the graph a tensor reaches: Graphviz DOT and Mermaid text, and images via `dot`.

A box per Node (id, op, requirement, order, checkpoint class, bytes its step keeps), an arrow
from each parent to its child. A step is drawn as what a backward would do with it: a leaf
(nothing to run), a step that keeps its values, one that keeps a recipe and is recomputed
(BalancedCheckpointing), one a backward already consumed. A consumed step has let go of its
inputs; its parents are still known by id, and are drawn as "released" when nothing else in the
picture reaches them.
"""

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from burnpy.runtime.autodiff.node import Node
from burnpy.runtime.autodiff.steps import CONSUMED, UNTRACKED_STEP, Backward

# How each kind of node is drawn: Mermaid shape brackets and style, Graphviz attributes.
MERMAID_SHAPES = {"leaf": ('(["', '"])'), "released": ('(["', '"])')}
MERMAID_STYLES = {
    "leaf": "fill:#e3f2e3,stroke:#2e7d32",
    "recomputed": "fill:#fff8e1,stroke:#f9a825,stroke-dasharray:5 3",
    "consumed": "fill:#eeeeee,stroke:#9e9e9e,color:#757575",
    "released": "fill:#ffffff,stroke:#bdbdbd,stroke-dasharray:2 2,color:#9e9e9e",
}
DOT_STYLES = {
    "leaf": 'shape=ellipse, style=filled, fillcolor="#e3f2e3", color="#2e7d32"',
    "kept": "shape=box",
    "recomputed": 'shape=box, style="filled,dashed", fillcolor="#fff8e1", color="#f9a825"',
    "consumed": 'shape=box, style=filled, fillcolor="#eeeeee", color="#9e9e9e", '
    'fontcolor="#757575"',
    "released": 'shape=ellipse, style=dotted, color="#bdbdbd", fontcolor="#9e9e9e"',
}


@dataclass(frozen=True)
class Vertex:
    id: int
    kind: str  # leaf | kept | recomputed | consumed | released
    lines: tuple[str, ...]


def graph(tensor) -> tuple[list[Vertex], list[tuple[int, int]]]:
    """The nodes `tensor` reaches through its steps, in id order, and the (parent, child) edges."""
    root = _root(tensor)
    seen, stack = {root.id: root}, [root]
    while stack:
        node = stack.pop()
        for parent in node.inputs:  # empty once the step is consumed
            for element in parent if type(parent) is tuple else (parent,):
                if element is not None and element.id not in seen:
                    seen[element.id] = element
                    stack.append(element)
    vertices = {key: _vertex(node) for key, node in seen.items()}
    edges = sorted({(parent, node.id) for node in seen.values() for parent in node.parents})
    for parent, _ in edges:
        if parent not in vertices:
            vertices[parent] = Vertex(parent, "released", (f"id {parent}", "released"))
    return [vertices[key] for key in sorted(vertices)], edges


def to_mermaid(tensor) -> str:
    """The graph as a Mermaid flowchart (paste it into a ```mermaid block)."""
    vertices, edges = graph(tensor)
    lines = ["flowchart TD"]
    for v in vertices:
        start, end = MERMAID_SHAPES.get(v.kind, ('["', '"]'))
        lines.append(f"    n{v.id}{start}{'<br/>'.join(v.lines)}{end}")
    lines += [f"    n{parent} --> n{child}" for parent, child in edges]
    for kind, style in MERMAID_STYLES.items():
        members = [f"n{v.id}" for v in vertices if v.kind == kind]
        if members:
            lines.append(f"    classDef {kind} {style}")
            lines.append(f"    class {','.join(members)} {kind}")
    return "\n".join(lines) + "\n"


def to_dot(tensor) -> str:
    """The graph in Graphviz's DOT language (`dot -Tsvg`, or `render`)."""
    vertices, edges = graph(tensor)
    lines = ["digraph autodiff {", '    node [fontname="Helvetica", fontsize=10];']
    for v in vertices:
        label = "\\n".join(v.lines)
        lines.append(f'    n{v.id} [label="{label}", {DOT_STYLES[v.kind]}];')
    lines += [f"    n{parent} -> n{child};" for parent, child in edges]
    lines.append("}")
    return "\n".join(lines) + "\n"


FORMATS = {".png": "png", ".svg": "svg"}


def render(tensor, path) -> Path:
    """Write the graph as a PNG or SVG image (by `path`'s suffix) through Graphviz's `dot`."""
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise ValueError(
            f"render() writes .png or .svg, got {path.name!r}; for text use to_dot() or to_mermaid()"
        )
    dot = shutil.which("dot")
    if dot is None:
        raise FileNotFoundError(
            "render() needs Graphviz's `dot` on PATH: install Graphviz (e.g. `apt-get install "
            "graphviz`), or take the text of to_dot() / to_mermaid() instead"
        )
    fmt = FORMATS[path.suffix.lower()]
    done = subprocess.run(
        [dot, f"-T{fmt}", "-o", str(path)], input=to_dot(tensor), capture_output=True, text=True
    )
    if done.returncode != 0:
        raise RuntimeError(f"Graphviz's dot failed on the graph: {done.stderr.strip()}")
    return path


def _root(tensor) -> Node:
    """The Node of a Tensor, an AutodiffTensor, or a Node itself."""
    if type(tensor) is Node:
        return tensor
    node = getattr(getattr(tensor, "primitive", tensor), "node", None)
    if type(node) is not Node:
        raise TypeError(
            f"only a float tensor on an autodiff device has a graph, got {tensor!r}; make it on "
            "`device.autodiff()` (or call `t.autodiff()`)"
        )
    return node


def _vertex(node: Node) -> Vertex:
    step = node.step
    if step is CONSUMED:
        kind, op = "consumed", "consumed"
    elif isinstance(step, Backward):
        kind, op = ("recomputed" if node.recipe is not None else "kept"), step.rule.name
    else:  # a Grad leaf (RootStep), an untracked leaf, or an op on untracked inputs
        kind, op = "leaf", "untracked op" if step is UNTRACKED_STEP else "leaf"
    return Vertex(
        node.id,
        kind,
        (
            f"id {node.id}: {op}",
            f"{node.requirement}, order {node.order}",
            f"{node.properties.value}, saved {_size(_saved_bytes(node))}",
        ),
    )


def _saved_bytes(node: Node) -> int:
    """Bytes of the buffers the node's step keeps: saved values and a recipe's kept inputs."""
    values = list(node.saved)
    if node.recipe is not None:
        values += node.step.recipe_inputs(node.recipe)
    buffers = {id(v): v.nbytes for v in values if getattr(v, "nbytes", None) is not None}
    return sum(buffers.values())


def _size(nbytes: int) -> str:
    if nbytes < 1024:
        return f"{nbytes} B"
    for unit in ("KiB", "MiB", "GiB"):
        nbytes /= 1024
        if nbytes < 1024 or unit == "GiB":
            return f"{nbytes:.1f} {unit}"
