/* `new_node` and `autodiff_tensor` without a Python frame (runtime/autodiff/node.py).

   A SlotsConstructor wraps a function whose parameters are each the name of an object slot of
   one class (`new_node`'s are Node's, all keyword-only; `autodiff_tensor`'s AutodiffTensor's,
   positional). A call that gives each parameter at most once, and every parameter without a
   default, allocates the instance and sets every slot, a default where a parameter is not
   given. Any other call is the function's, which raises Python's own TypeError. Every recorded
   op builds one Node and one AutodiffTensor, so the frames and their attribute stores are a
   sizeable part of a tracked small op. */

#include "../c_wrapper.h"

#define MAX_FIELDS 32

typedef struct {
    Wrapper head; /* wraps the Python function: every call this cannot take */
    PyTypeObject *cls;
    Py_ssize_t count;
    Py_ssize_t positional; /* the parameters a call may give by position, the first ones */
    PyObject *names[MAX_FIELDS];    /* interned, as a call's keyword names are */
    PyObject *defaults[MAX_FIELDS]; /* NULL: a required parameter */
    Py_ssize_t offsets[MAX_FIELDS];
} SlotsConstructor;

static PyObject *construct(SlotsConstructor *maker, PyObject *const *args, size_t nargsf,
                           PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs > maker->positional)
        return PyObject_Vectorcall(maker->head.wrapped, args, nargsf, kwnames);
    PyObject *values[MAX_FIELDS] = {NULL};
    for (Py_ssize_t i = 0; i < nargs; i++)
        values[i] = args[i];
    Py_ssize_t given = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    PyObject *const *keywords = args + nargs; /* the values of the named ones */
    for (Py_ssize_t k = 0; k < given; k++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, k);
        Py_ssize_t i = 0;
        while (i < maker->count && maker->names[i] != name)
            i++;
        if (i == maker->count) { /* a name not interned, or not a parameter: compare by value */
            for (i = 0; i < maker->count; i++)
                if (PyUnicode_Check(name) && PyUnicode_Compare(maker->names[i], name) == 0)
                    break;
        }
        if (i == maker->count || values[i] != NULL)
            return PyObject_Vectorcall(maker->head.wrapped, args, nargsf, kwnames);
        values[i] = keywords[k];
    }
    for (Py_ssize_t i = 0; i < maker->count; i++)
        if (values[i] == NULL && (values[i] = maker->defaults[i]) == NULL)
            return PyObject_Vectorcall(maker->head.wrapped, args, nargsf, kwnames);
    PyObject *out = maker->cls->tp_alloc(maker->cls, 0);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < maker->count; i++)
        SLOT(out, maker->offsets[i]) = Py_NewRef(values[i]);
    return out;
}

static int maker_traverse(SlotsConstructor *maker, visitproc visit, void *arg)
{
    Py_VISIT(maker->head.wrapped);
    Py_VISIT(maker->cls);
    for (Py_ssize_t i = 0; i < maker->count; i++)
        Py_VISIT(maker->defaults[i]);
    return 0;
}

static int maker_clear(SlotsConstructor *maker)
{
    Py_CLEAR(maker->head.wrapped);
    Py_CLEAR(maker->cls);
    for (Py_ssize_t i = 0; i < maker->count; i++) {
        Py_CLEAR(maker->names[i]);
        Py_CLEAR(maker->defaults[i]);
    }
    maker->count = 0;
    return 0;
}

static void maker_dealloc(SlotsConstructor *maker)
{
    PyObject_GC_UnTrack(maker);
    maker_clear(maker);
    PyObject_GC_Del(maker);
}

static PyMemberDef maker_members[] = {
    WRAPPED_MEMBER,
    {NULL},
};

static PyTypeObject SlotsConstructorType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "burnpy.runtime.autodiff._new_node.SlotsConstructor",
    .tp_basicsize = sizeof(SlotsConstructor),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_vectorcall_offset = offsetof(Wrapper, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_getattro = wrapper_getattro,
    .tp_repr = wrapper_repr,
    .tp_members = maker_members,
    .tp_getset = wrapper_getset,
    .tp_traverse = (traverseproc)maker_traverse,
    .tp_clear = (inquiry)maker_clear,
    .tp_dealloc = (destructor)maker_dealloc,
};

/* Fills slot i of `maker` with `name`'s offset in `cls` and its default; -1 with an error. */
static int add_field(SlotsConstructor *maker, PyObject *cls, PyObject *name, PyObject *defaults)
{
    const char *text = PyUnicode_AsUTF8(name);
    Py_ssize_t offset = text ? slot_offset(cls, text) : -1;
    if (offset < 0)
        return -1;
    Py_ssize_t i = maker->count;
    maker->names[i] = Py_NewRef(name);
    PyUnicode_InternInPlace(&maker->names[i]);
    maker->defaults[i] = NULL;
    if (defaults != NULL && defaults != Py_None) {
        PyObject *value = PyDict_GetItemWithError(defaults, name);
        if (value == NULL && PyErr_Occurred())
            return -1;
        maker->defaults[i] = Py_XNewRef(value);
    }
    maker->offsets[i] = offset;
    maker->count = i + 1;
    return 0;
}

static PyObject *slots_constructor(PyObject *module, PyObject *args)
{
    PyObject *cls, *function;
    if (!PyArg_ParseTuple(args, "O!O!:slots_constructor", &PyType_Type, &cls, &PyFunction_Type,
                          &function))
        return NULL;
    PyCodeObject *code = (PyCodeObject *)PyFunction_GET_CODE(function);
    int count = code->co_argcount + code->co_kwonlyargcount;
    if (code->co_posonlyargcount != 0 || (code->co_flags & (CO_VARARGS | CO_VARKEYWORDS))
        || PyFunction_GET_DEFAULTS(function) != NULL || count > MAX_FIELDS)
        return PyErr_Format(PyExc_TypeError,
                            "%R: a slots constructor's parameters are named, at most %d, and only "
                            "keyword-only ones have defaults",
                            function, MAX_FIELDS);
    PyObject *names = PyObject_GetAttrString((PyObject *)code, "co_varnames");
    if (names == NULL)
        return NULL;
    SlotsConstructor *maker = PyObject_GC_New(SlotsConstructor, &SlotsConstructorType);
    if (maker == NULL) {
        Py_DECREF(names);
        return NULL;
    }
    maker->head.vectorcall = (vectorcallfunc)construct;
    maker->head.wrapped = Py_NewRef(function);
    maker->cls = (PyTypeObject *)Py_NewRef(cls);
    maker->count = 0;
    maker->positional = code->co_argcount;
    PyObject *defaults = PyFunction_GetKwDefaults(function);
    for (int i = 0; i < count; i++) {
        if (add_field(maker, cls, PyTuple_GET_ITEM(names, i), defaults) < 0) {
            Py_DECREF(names);
            Py_DECREF(maker);
            return NULL;
        }
    }
    Py_DECREF(names);
    PyObject_GC_Track(maker);
    return (PyObject *)maker;
}

static PyMethodDef module_methods[] = {
    {"slots_constructor", slots_constructor, METH_VARARGS,
     "slots_constructor(cls, function): `function`, whose parameters are slots of `cls`, "
     "building the instance in C."},
    {NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "burnpy.runtime.autodiff._new_node", NULL, -1, module_methods,
};

PyMODINIT_FUNC PyInit__new_node(void)
{
    if (PyType_Ready(&SlotsConstructorType) < 0)
        return NULL;
    return PyModule_Create(&module_def);
}
