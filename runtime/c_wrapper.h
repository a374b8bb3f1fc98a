/* What the C wrappers of Python functions share (runtime/plain_arm.c,
   runtime/autodiff/new_node.c): each reads as the function it wraps, and sets a class's
   __slots__ by their offsets. */

#ifndef BURNPY_C_WRAPPER_H
#define BURNPY_C_WRAPPER_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#ifndef Py_TPFLAGS_HAVE_VECTORCALL
#define Py_TPFLAGS_HAVE_VECTORCALL _Py_TPFLAGS_HAVE_VECTORCALL
#endif

/* The object slot at byte offset `at` of `object` (an instance of a class with __slots__). */
#define SLOT(object, at) (*(PyObject **)((char *)(object) + (at)))

/* The offset of `cls`'s slot `name`, or -1 with an error: only an object slot (__slots__). */
static Py_ssize_t slot_offset(PyObject *cls, const char *name)
{
    PyObject *descr = PyObject_GetAttrString(cls, name);
    if (descr == NULL)
        return -1;
    Py_ssize_t at = -1;
    if (Py_IS_TYPE(descr, &PyMemberDescr_Type)
        && ((PyMemberDescrObject *)descr)->d_member->type == T_OBJECT_EX)
        at = ((PyMemberDescrObject *)descr)->d_member->offset;
    else
        PyErr_Format(PyExc_TypeError, "%R.%s is not a __slots__ slot", cls, name);
    Py_DECREF(descr);
    return at;
}

/* What every wrapper starts with: its vectorcall, and the Python function it wraps, which takes
   every call the wrapper does not. */
typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *wrapped;
} Wrapper;

/* A wrapper reads as the function it wraps: help, signatures and editors see the function's
   name, parameters and annotations (`tp_getattro`), its docstring (`__doc__`, a getset: the
   type's own would win otherwise) and the function itself (`__wrapped__`). */
static PyObject *wrapper_getattro(PyObject *wrapper, PyObject *name)
{
    PyObject *found = PyObject_GenericGetAttr(wrapper, name);
    if (found != NULL || !PyErr_ExceptionMatches(PyExc_AttributeError))
        return found;
    PyErr_Clear();
    return PyObject_GetAttr(((Wrapper *)wrapper)->wrapped, name);
}

static PyObject *wrapper_doc(PyObject *wrapper, void *closure)
{
    return PyObject_GetAttrString(((Wrapper *)wrapper)->wrapped, "__doc__");
}

static PyGetSetDef wrapper_getset[] = {
    {"__doc__", wrapper_doc, NULL, NULL, NULL},
    {NULL},
};

/* A wrapper shows itself as the function it wraps, in C. */
static inline PyObject *wrapper_repr(PyObject *wrapper)
{
    return PyUnicode_FromFormat("<%R in C>", ((Wrapper *)wrapper)->wrapped);
}

#define WRAPPED_MEMBER {"__wrapped__", T_OBJECT, offsetof(Wrapper, wrapped), READONLY, NULL}

#endif
