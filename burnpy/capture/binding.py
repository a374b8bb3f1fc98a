"""The fused kernels as Python extension modules: one per library kernel and dtype, and one per
step and dtype for the step's own loops (its element-wise chains).

Each C kernel gets a wrapper that Python calls directly (METH_FASTCALL): numbers become its
`long` and `double` parameters, arrays its pointers through the buffer protocol (C-contiguous,
of the kernel's element size, writable where the kernel writes; None is NULL). A call costs
well under a microsecond, where ctypes spends several on each array's address. The wrappers are
generated from the kernels' C parameter lists, so nothing is declared twice.
"""

import concurrent.futures
import importlib.machinery
import importlib.util
import os
import re
import sysconfig

from burnpy.capture import kernel_cache, toolchain

_PARAMETER = re.compile(
    r"^\s*(const\s+)?(real\s*\*|long\s*\*|unsigned char\s*\*|long|double|int)\s*(\w+)\s*$"
)
# an array parameter's kind, by its element type
_ARRAYS = {"real": "array", "long": "indices", "unsigned char": "flags"}
_ELEMENTS = {kind: element for element, kind in _ARRAYS.items()}

HEADER = "#define PY_SSIZE_T_CLEAN\n#include <Python.h> /* first, as Python asks */\n"

HELPERS = """\
/* An array argument's data: NULL for None, else its buffer (C-contiguous, of `size`-byte
   elements, and writable when the kernel writes into it), to be released after the call. */
static int array(PyObject *object, Py_buffer *view, int writes, Py_ssize_t size, void **data,
                 const char *name)
{
    if (object == Py_None) {
        *data = NULL;
        return 1;
    }
    int flags = PyBUF_C_CONTIGUOUS | (writes ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(object, view, flags) < 0)
        return 0;
    if (view->itemsize != size) {
        PyErr_Format(PyExc_TypeError, "%s: an array of %d-byte elements where it takes %d",
                     name, (int)view->itemsize, (int)size);
        PyBuffer_Release(view);
        return 0;
    }
    *data = view->buf;
    return 1;
}
"""

WRAPPER = """\
static PyObject *call_{name}(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{{
    Py_buffer views[{arrays}] = {{{{0}}}};
    PyObject *result = NULL;
{declarations}
    if (nargs != {count}) {{
        PyErr_Format(PyExc_TypeError, "{name} takes {count} arguments (%zd given)", nargs);
        return NULL;
    }}
{conversions}
    {name}({names});
    result = Py_None;
    Py_INCREF(result);
done:
    for (int i = 0; i < {arrays}; i++)
        if (views[i].obj)
            PyBuffer_Release(&views[i]);
    return result;
}}
"""

MODULE = """\
static PyMethodDef methods[] = {{
{entries}
    {{NULL, NULL, 0, NULL}},
}};

static struct PyModuleDef module = {{PyModuleDef_HEAD_INIT, "{module}", NULL, -1, methods}};

PyMODINIT_FUNC PyInit_{module}(void) {{ return PyModule_Create(&module); }}
"""


def parameters(text: str, name: str) -> list[tuple[str, str, bool]]:
    """(kind, name, writes) of each parameter of the C function `name` defined in `text`:
    kind "long", "double", "int", "array" (of `real`), "indices" (of `long`) or "flags" (of
    `unsigned char`: a bool array); `writes` for a non-const array."""
    header = re.search(rf"\bvoid {name}\(([^)]*)\)", text).group(1)
    found = []
    for parameter in header.split(","):
        const, kind, word = _PARAMETER.match(parameter).groups()
        if kind.endswith("*"):
            found.append((_ARRAYS[kind.rstrip("* ")], word, const is None))
        else:
            found.append((kind, word, False))
    return found


def _wrapper(text: str, name: str) -> str:
    declarations, conversions = [], []
    arrays = 0
    for index, (kind, word, writes) in enumerate(parameters(text, name)):
        if kind in _ELEMENTS:
            element = _ELEMENTS[kind]
            declarations.append(f"    {element} *{word};")
            conversions.append(
                f"    if (!array(args[{index}], &views[{arrays}], {int(writes)}, "
                f'sizeof({element}), (void **)&{word}, "{name}"))\n        goto done;'
            )
            arrays += 1
            continue
        convert = "PyFloat_AsDouble" if kind == "double" else "PyLong_AsLong"
        declarations.append(f"    {kind} {word};")
        conversions.append(
            f"    {word} = {convert}(args[{index}]);\n"
            f"    if ({word} == -1 && PyErr_Occurred())\n        goto done;"
        )
    names = ", ".join(word for _, word, _ in parameters(text, name))
    return WRAPPER.format(
        name=name,
        arrays=max(arrays, 1),
        count=len(parameters(text, name)),
        declarations="\n".join(declarations),
        conversions="\n".join(conversions),
        names=names,
    )


def load(text: str, names: list[str]) -> dict:
    """The functions `names` of the kernels' C `text`, built as an extension module (cached)
    and imported: name -> the callable taking numbers and arrays."""
    return load_all([(text, names)])[0]


def load_all(jobs: list) -> list[dict]:
    """`load` of each (text, names) in `jobs`: those not in the cache built at once, one
    compiler per core (a build is a compiler process: the threads only wait on it)."""
    modules = [_module(text, names) for text, names in jobs]
    include = sysconfig.get_paths()["include"]

    def build(module):
        return toolchain.build(module[1], module[0], include)

    workers = min(len(modules), len(os.sched_getaffinity(0)))
    if workers > 1:
        with concurrent.futures.ThreadPoolExecutor(workers) as pool:
            paths = list(pool.map(build, modules))
    else:
        paths = [build(module) for module in modules]
    found = []
    for (module, source), path, (_, names) in zip(modules, paths, jobs):
        try:
            library = _imported(module, path)
        except ImportError:  # verified, yet it does not load: built again, once
            kernel_cache.discard(path)
            library = _imported(module, toolchain.build(source, module, include))
        found.append({name: getattr(library, name) for name in names})
    return found


def _module(text: str, names: list[str]) -> tuple[str, str]:
    """(the extension module's name, its whole C source) for the functions `names` of `text`."""
    glue = "\n".join([HELPERS, *(_wrapper(text, name) for name in names)])
    body = f"{HEADER}{text}\n{glue}"
    module = f"burnpy_kernels_{toolchain.key(body)}"
    entries = "\n".join(
        f'    {{"{name}", (PyCFunction)(void (*)(void))call_{name}, METH_FASTCALL, NULL}},'
        for name in names
    )
    return module, f"{body}\n{MODULE.format(entries=entries, module=module)}"


def _imported(module: str, path) -> object:
    loader = importlib.machinery.ExtensionFileLoader(module, str(path))
    spec = importlib.util.spec_from_file_location(module, str(path), loader=loader)
    library = importlib.util.module_from_spec(spec)
    loader.exec_module(library)
    return library


def on_tensors(kernel):
    """`kernel` called with CPU torch tensors where it takes arrays: torch has no buffer
    protocol, so each is viewed as the numpy array sharing its memory (no copy)."""
    import torch

    tensor = torch.Tensor

    def call(*args):
        return kernel(*[a.numpy() if type(a) is tensor else a for a in args])

    call.__name__ = call.__qualname__ = kernel.__name__
    return call
