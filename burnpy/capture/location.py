"""Where in the user's code a step that cannot be recorded went wrong: the innermost line of
the traceback outside burnpy itself (the model's `forward`, the step function), and for a model
that burnpy.onnx wrote, the ONNX node that line computes (named by the comment the importer
writes above each node's statement)."""

import linecache
from pathlib import Path

import burnpy

# burnpy's own folders (its generated code and runtime are linked into the package)
_OWN = tuple(
    {str(Path(burnpy.__file__).parent)}
    | {str(p.resolve()) for p in Path(burnpy.__file__).parent.iterdir() if p.is_dir()}
)
_IMPORTED = "written by burnpy.onnx"  # in the docstring of every module the importer writes


def located(traceback) -> str:
    """`at FILE, line N (ONNX node OP NAME): CODE` for the innermost frame of `traceback`
    outside burnpy, or "" when there is none."""
    frame = line = None
    while traceback is not None:
        filename = traceback.tb_frame.f_code.co_filename
        if not filename.startswith(_OWN) and not filename.startswith("<capture "):
            frame, line = traceback.tb_frame, traceback.tb_lineno
        traceback = traceback.tb_next
    if frame is None:
        return ""
    filename = frame.f_code.co_filename
    code = linecache.getline(filename, line, frame.f_globals).strip()
    node = ""
    if _IMPORTED in (frame.f_globals.get("__doc__") or ""):
        node = _onnx_node(filename, line, frame.f_globals)
    return f"at {filename}, line {line}{node}: {code}"


def _onnx_node(filename: str, line: int, module_globals: dict) -> str:
    """` (ONNX node OP NAME)`: the comment above the statement holding `line`."""
    for number in range(line, 0, -1):
        text = linecache.getline(filename, number, module_globals).strip()
        if text.startswith("# "):
            return f" (ONNX node {text[2:]})"
        if text.startswith(("def ", "return ")):
            break
    return ""
