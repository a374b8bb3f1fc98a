/* The Torch backend's full sum (runtime/backends/torch.py's `float_sum`) without a Python frame.

   burn's full sum has shape [1] where torch's is 0-d; `tensor.sum_to_size(1)` is torch's one
   call that gives [1], but it gives a [1]-shaped input back as it is (a sum must be a fresh
   tensor: optimisers update parameters in place) and refuses a 0-d one. A FullSum calls it and
   hands those two, and any call of another form, to the Python function it wraps, which
   handles them. At a small tensor the function's frame is a sizeable part of the op. */

#include "../c_wrapper.h"

static PyObject *SUM_TO_SIZE; /* "sum_to_size", interned */
static PyObject *ONE;

static PyObject *full_sum(Wrapper *sum, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    if (PyVectorcall_NARGS(nargsf) == 1 && kwnames == NULL) {
        PyObject *call[2] = {args[0], ONE};
        PyObject *out = PyObject_VectorcallMethod(SUM_TO_SIZE, call, 2, NULL);
        if (out != NULL && out != args[0])
            return out;
        if (out == NULL) {
            if (!PyErr_ExceptionMatches(PyExc_Exception)) /* (KeyboardInterrupt: now) */
                return NULL;
            PyErr_Clear(); /* the function raises its own, or sums a 0-d input */
        }
        Py_XDECREF(out);
    }
    return PyObject_Vectorcall(sum->wrapped, args, nargsf, kwnames);
}

static int sum_traverse(Wrapper *sum, visitproc visit, void *arg)
{
    Py_VISIT(sum->wrapped);
    return 0;
}

static int sum_clear(Wrapper *sum)
{
    Py_CLEAR(sum->wrapped);
    return 0;
}

static void sum_dealloc(Wrapper *sum)
{
    PyObject_GC_UnTrack(sum);
    sum_clear(sum);
    PyObject_GC_Del(sum);
}

static PyMemberDef sum_members[] = {
    WRAPPED_MEMBER,
    {NULL},
};

static PyTypeObject FullSumType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "burnpy.runtime.backends._torch_sum.FullSum",
    .tp_basicsize = sizeof(Wrapper),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_vectorcall_offset = offsetof(Wrapper, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_getattro = wrapper_getattro,
    .tp_repr = wrapper_repr,
    .tp_members = sum_members,
    .tp_getset = wrapper_getset,
    .tp_traverse = (traverseproc)sum_traverse,
    .tp_clear = (inquiry)sum_clear,
    .tp_dealloc = (destructor)sum_dealloc,
};

static PyObject *full_sum_in_c(PyObject *module, PyObject *function)
{
    if (!PyCallable_Check(function))
        return PyErr_Format(PyExc_TypeError, "full_sum_in_c: %R is not callable", function);
    Wrapper *sum = PyObject_GC_New(Wrapper, &FullSumType);
    if (sum == NULL)
        return NULL;
    sum->vectorcall = (vectorcallfunc)full_sum;
    sum->wrapped = Py_NewRef(function);
    PyObject_GC_Track(sum);
    return (PyObject *)sum;
}

static PyMethodDef module_methods[] = {
    {"full_sum_in_c", full_sum_in_c, METH_O,
     "full_sum_in_c(function): `function`, a full sum to shape [1], run as "
     "`tensor.sum_to_size(1)` in C where that gives a fresh tensor."},
    {NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "burnpy.runtime.backends._torch_sum", NULL, -1, module_methods,
};

PyMODINIT_FUNC PyInit__torch_sum(void)
{
    if (PyType_Ready(&FullSumType) < 0)
        return NULL;
    SUM_TO_SIZE = PyUnicode_InternFromString("sum_to_size");
    ONE = PyLong_FromLong(1);
    if (SUM_TO_SIZE == NULL || ONE == NULL)
        return NULL;
    return PyModule_Create(&module_def);
}
