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

/* The attribute `name` of `wrapper`, or else of the `function` it wraps: help, signatures and
   editors read the function's name, parameters and annotations (its __doc__ is a getset of
   the wrapper's type, which would otherwise give the type's own). */
static PyObject *wrapped_attribute(PyObject *wrapper, PyObject *function, PyObject *name)
{
    PyObject *found = PyObject_GenericGetAttr(wrapper, name);
    if (found != NULL || !PyErr_ExceptionMatches(PyExc_AttributeError))
        return found;
    PyErr_Clear();
    return PyObject_GetAttr(function, name);
}

#endif
