/* The plain arm of a Tensor method, run without a Python frame (runtime/plain_arm.py).

   A PlainArm wraps one generated method. A call whose operands are plain float tensors of one
   backend (the receiver's very kind), untracked, of one dtype object runs the inner backend's
   kernel here and wraps its result, as the method's own plain arm does. A call of tensors of
   one Autodiff kind and one context runs the dispatch function's autodiff arm here: the op of
   the context's Autodiff specialization (its recorder). A call of Float tensors of one kind
   that is neither (a quantized pair) goes straight to the op's dispatch function, as the method
   would send it. Every other call, and every call whose kernel or dispatch function
   raises, is the method's: it runs again there and raises the method's error (a refused op
   changes no state). Only an error that is not an Exception (KeyboardInterrupt) is passed on
   from here. */

#include "c_wrapper.h"

/* What `bind` reads once from the Tensor class: where its slots and its kinds' and contexts'
   are, the DISABLED context, the Float tensor kind and the Balanced strategy. */
static PyTypeObject *tensor_type, *kind_type;
static PyObject *disabled, *float_kind, *balanced;
static Py_ssize_t kind_at, primitive_at, context_at, inner_at, tensor_kind_at, is_autodiff_at,
    routing_at, strategy_at;
static PyObject *dtype_name, *primitive_name, *autodiff_name, *balanced_name, *no_checkpointing_name;

typedef struct {
    Wrapper head;        /* wraps the generated Python method */
    PyObject *kernel;    /* the inner backend's kernel, by name: "float_add" */
    Py_ssize_t operands; /* the tensors it takes, the receiver first: 1 or 2 */
} PlainArm;

/* `plain` gives the kernel's result as a plain tensor of the receiver's kind, NULL with an error
   raised, NOT_PLAIN (no error) where the call is not a plain one, or REFUSED where the kernel
   raised an Exception, cleared: the method runs the call again and raises its own error. */
static PyObject not_plain_marker, refused_marker;
#define NOT_PLAIN (&not_plain_marker)
#define REFUSED (&refused_marker)

static PyObject *clear_frames; /* traceback.clear_frames */

/* Frees what a refused call's frames hold. A frame that caught the error and raised another
   (`except ... as error: ...; raise`) holds it, a cycle only the collector would free, with
   the tensors of the frames: the locals of the frames of the error, and of the errors it was
   raised from, are dropped now, and so is the copy of them that reading `frame.f_locals` (an
   error message naming the user's call) left on the frame. The walk stops at `handled`, the
   error the caller is handling (the context of any raised inside it): its frames are the
   caller's. */
static void forget(PyObject *error, PyObject *handled)
{
    Py_XINCREF(error);
    for (int depth = 0; error != NULL && error != handled && depth < 16; depth++) {
        PyObject *traceback = PyException_GetTraceback(error);
        PyObject *done = traceback ? PyObject_CallOneArg(clear_frames, traceback) : NULL;
        Py_XDECREF(done);
        while (traceback != NULL && traceback != Py_None) {
            PyObject *frame = PyObject_GetAttrString(traceback, "tb_frame");
            PyObject *locals = frame ? PyObject_GetAttrString(frame, "f_locals") : NULL;
            Py_XDECREF(locals);
            Py_XDECREF(frame);
            Py_SETREF(traceback, PyObject_GetAttrString(traceback, "tb_next"));
        }
        Py_XDECREF(traceback);
        PyErr_Clear();
        Py_SETREF(error, PyException_GetContext(error));
    }
    Py_XDECREF(error);
}

static PyObject *refused_unless_fatal(void)
{
    if (!PyErr_ExceptionMatches(PyExc_Exception))
        return NULL;
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    PyErr_NormalizeException(&type, &value, &traceback);
    if (traceback != NULL && value != NULL)
        PyException_SetTraceback(value, traceback);
    PyObject *handled = PyErr_GetHandledException();
    forget(value, handled);
    Py_XDECREF(handled);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(traceback);
    return REFUSED;
}

static int same_dtype(PyObject *a, PyObject *b)
{
    /* 1, 0, or -1 with an error raised */
    PyObject *da = PyObject_GetAttr(a, dtype_name);
    if (da == NULL)
        return -1;
    PyObject *db = PyObject_GetAttr(b, dtype_name);
    if (db == NULL) {
        Py_DECREF(da);
        return -1;
    }
    int same = da == db; /* an identity test, as the method's: equal dtypes that are two
                            objects take the routing */
    Py_DECREF(da);
    Py_DECREF(db);
    return same;
}

/* A Tensor of `kind` and `context` holding `result` (a new reference, taken over), as the
   routing's `new_tensor(Tensor)` and its three stores make it; NULL with an error. */
static PyObject *new_tensor(PyObject *kind, PyObject *result, PyObject *context)
{
    PyObject *out = tensor_type->tp_alloc(tensor_type, 0);
    if (out == NULL) {
        Py_DECREF(result);
        return NULL;
    }
    SLOT(out, kind_at) = Py_NewRef(kind);
    SLOT(out, primitive_at) = result;
    SLOT(out, context_at) = Py_NewRef(context);
    return out;
}

/* The receiver's kind where the receiver is a Tensor (its very class: no slot of anything
   else is read) holding a DispatchTensorKind; else NULL. Borrowed. */
static PyObject *kind_of(PyObject *tensor)
{
    if (Py_TYPE(tensor) != tensor_type)
        return NULL;
    PyObject *kind = SLOT(tensor, kind_at);
    return kind != NULL && PyObject_TypeCheck(kind, kind_type) ? kind : NULL;
}

/* The primitives of the call's tensors, the receiver's first: 1 where each is a Tensor of
   `kind` and `context`, 0 where one is not. Borrowed. */
static int operands_of(PlainArm *arm, PyObject *const *args, PyObject *kind, PyObject *context,
                       PyObject **primitives)
{
    for (Py_ssize_t i = 0; i < arm->operands; i++) {
        PyObject *tensor = args[i];
        if (Py_TYPE(tensor) != tensor_type || SLOT(tensor, kind_at) != kind
            || SLOT(tensor, context_at) != context
            || (primitives[i] = SLOT(tensor, primitive_at)) == NULL)
            return 0;
    }
    return 1;
}

/* The method's plain arm: the inner backend's kernel over plain tensors of one dtype object. */
static PyObject *plain(PlainArm *arm, PyObject *const *args, PyObject *kind)
{
    PyObject *inner = SLOT(kind, inner_at);
    PyObject *primitives[2] = {NULL, NULL};
    if (inner == NULL || inner == Py_None || !operands_of(arm, args, kind, disabled, primitives))
        return NOT_PLAIN;
    if (arm->operands == 2) {
        int same = same_dtype(primitives[0], primitives[1]);
        if (same < 0)
            return refused_unless_fatal();
        if (!same)
            return NOT_PLAIN;
    }
    PyObject *kernel = PyObject_GetAttr(inner, arm->kernel);
    if (kernel == NULL)
        return refused_unless_fatal();
    PyObject *result = PyObject_Vectorcall(kernel, primitives, arm->operands, NULL);
    Py_DECREF(kernel);
    if (result == NULL)
        return refused_unless_fatal();
    return new_tensor(kind, result, disabled);
}

/* The dispatch function's autodiff arm, for tensors already of the routing's Autodiff kind and
   of one context: the op of the context's Autodiff specialization (`AD.float_add`, its
   recorder) over their AutodiffTensors, of one dtype object, wrapped as a tensor of that kind
   and context. NOT_PLAIN where the call is not such a one, else as `plain`. */
static PyObject *tracked(PlainArm *arm, PyObject *const *args, PyObject *kind)
{
    PyObject *context = SLOT(args[0], context_at), *routing = SLOT(kind, routing_at);
    PyObject *operands[2] = {NULL, NULL};
    if (SLOT(kind, is_autodiff_at) != Py_True || context == NULL || context == disabled
        || !Py_IS_TYPE(context, Py_TYPE(disabled)) || routing == NULL || routing == Py_None
        || !operands_of(arm, args, kind, context, operands))
        return NOT_PLAIN;
    PyObject *autodiff_kind = PyObject_GetAttr(routing, autodiff_name);
    if (autodiff_kind == NULL)
        return refused_unless_fatal();
    Py_DECREF(autodiff_kind); /* compared by identity only; the routing holds it */
    if (autodiff_kind != kind)
        return NOT_PLAIN;
    if (arm->operands == 2) {
        PyObject *lhs = PyObject_GetAttr(operands[0], primitive_name);
        PyObject *rhs = lhs ? PyObject_GetAttr(operands[1], primitive_name) : NULL;
        int same = rhs ? same_dtype(lhs, rhs) : -1;
        Py_XDECREF(lhs);
        Py_XDECREF(rhs);
        if (same < 0)
            return refused_unless_fatal();
        if (!same)
            return NOT_PLAIN;
    }
    PyObject *strategy = SLOT(context, strategy_at);
    PyObject *specialization = PyObject_GetAttr(
        routing, strategy == balanced ? balanced_name : no_checkpointing_name);
    if (specialization == NULL)
        return refused_unless_fatal();
    PyObject *op = PyObject_GetAttr(specialization, arm->kernel);
    Py_DECREF(specialization);
    if (op == NULL)
        return refused_unless_fatal();
    PyObject *result = PyObject_Vectorcall(op, operands, arm->operands, NULL);
    Py_DECREF(op);
    if (result == NULL)
        return refused_unless_fatal();
    return new_tensor(kind, result, context);
}

/* Where a call is neither plain nor tracked of one kind but its tensors are Float tensors of
   one kind (a quantized pair), the method would only route it to its op's dispatch function,
   `kernel` by name in the method's globals: that function, borrowed, or NULL. */
static PyObject *routed(PlainArm *arm, PyObject *const *args, PyObject *kind)
{
    if (SLOT(kind, tensor_kind_at) != float_kind)
        return NULL;
    if (arm->operands == 2 && kind_of(args[1]) != kind)
        return NULL;
    if (!PyFunction_Check(arm->head.wrapped))
        return NULL;
    return PyDict_GetItem(PyFunction_GET_GLOBALS(arm->head.wrapped), arm->kernel);
}

static PyObject *arm_call(PlainArm *arm, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyObject *kind = NULL;
    if (tensor_type != NULL && kwnames == NULL && PyVectorcall_NARGS(nargsf) == arm->operands
        && (kind = kind_of(args[0])) != NULL) {
        PyObject *out = plain(arm, args, kind);
        if (out == NOT_PLAIN)
            out = tracked(arm, args, kind);
        if (out != NOT_PLAIN && out != REFUSED)
            return out;
        PyObject *function = out == NOT_PLAIN ? Py_XNewRef(routed(arm, args, kind)) : NULL;
        if (function != NULL) {
            out = PyObject_Vectorcall(function, args, nargsf, NULL);
            Py_DECREF(function);
            if (out != NULL || refused_unless_fatal() == NULL)
                return out;
            /* refused: the method says why, under the name the user called (runtime/errors.py
               names the outermost API frame, here the dispatch function's) */
        }
    }
    return PyObject_Vectorcall(arm->head.wrapped, args, nargsf, kwnames);
}

/* `tensor.add` read without a call is a bound method, as a function's would be; a call
   `tensor.add(other)` never makes one (Py_TPFLAGS_METHOD_DESCRIPTOR). */
static PyObject *arm_get(PyObject *arm, PyObject *instance, PyObject *owner)
{
    if (instance == NULL || instance == Py_None)
        return Py_NewRef(arm);
    return PyMethod_New(arm, instance);
}

static PyObject *arm_repr(PlainArm *arm)
{
    return PyUnicode_FromFormat("<plain arm in C of %R>", arm->head.wrapped);
}

static int arm_traverse(PlainArm *arm, visitproc visit, void *arg)
{
    Py_VISIT(arm->head.wrapped);
    return 0;
}

static int arm_clear(PlainArm *arm)
{
    Py_CLEAR(arm->head.wrapped);
    return 0;
}

static void arm_dealloc(PlainArm *arm)
{
    PyObject_GC_UnTrack(arm);
    arm_clear(arm);
    Py_CLEAR(arm->kernel);
    PyObject_GC_Del(arm);
}

static PyMemberDef arm_members[] = {
    WRAPPED_MEMBER,
    {"kernel", T_OBJECT, offsetof(PlainArm, kernel), READONLY, NULL},
    {"operands", T_PYSSIZET, offsetof(PlainArm, operands), READONLY, NULL},
    {NULL},
};

static PyTypeObject PlainArmType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "burnpy.runtime._plain_arm.PlainArm",
    .tp_basicsize = sizeof(PlainArm),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL
                | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_vectorcall_offset = offsetof(Wrapper, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_descr_get = arm_get,
    .tp_getattro = wrapper_getattro,
    .tp_repr = (reprfunc)arm_repr,
    .tp_members = arm_members,
    .tp_getset = wrapper_getset,
    .tp_traverse = (traverseproc)arm_traverse,
    .tp_clear = (inquiry)arm_clear,
    .tp_dealloc = (destructor)arm_dealloc,
};

static PyObject *bind(PyObject *module, PyObject *args)
{
    PyObject *tensor, *kind, *context, *float_, *balanced_;
    if (!PyArg_ParseTuple(args, "O!O!OOO:bind", &PyType_Type, &tensor, &PyType_Type, &kind,
                          &context, &float_, &balanced_))
        return NULL;
    PyObject *contexts = (PyObject *)Py_TYPE(context);
    Py_ssize_t k = slot_offset(tensor, "kind"), p = slot_offset(tensor, "primitive"),
               c = slot_offset(tensor, "context"), i = slot_offset(kind, "plain_inner"),
               t = slot_offset(kind, "tensor_kind"), a = slot_offset(kind, "is_autodiff"),
               r = slot_offset(kind, "routing"), s = slot_offset(contexts, "strategy");
    if (k < 0 || p < 0 || c < 0 || i < 0 || t < 0 || a < 0 || r < 0 || s < 0)
        return NULL;
    Py_XSETREF(tensor_type, (PyTypeObject *)Py_NewRef(tensor));
    Py_XSETREF(kind_type, (PyTypeObject *)Py_NewRef(kind));
    Py_XSETREF(disabled, Py_NewRef(context));
    Py_XSETREF(float_kind, Py_NewRef(float_));
    Py_XSETREF(balanced, Py_NewRef(balanced_));
    kind_at = k, primitive_at = p, context_at = c, inner_at = i, tensor_kind_at = t;
    is_autodiff_at = a, routing_at = r, strategy_at = s;
    Py_RETURN_NONE;
}

static PyObject *plain_arm(PyObject *module, PyObject *args)
{
    PyObject *method, *kernel;
    Py_ssize_t operands;
    if (!PyArg_ParseTuple(args, "OUn:plain_arm", &method, &kernel, &operands))
        return NULL;
    if (operands != 1 && operands != 2)
        return PyErr_Format(PyExc_ValueError, "a plain arm takes 1 or 2 tensors, not %zd", operands);
    PlainArm *arm = PyObject_GC_New(PlainArm, &PlainArmType);
    if (arm == NULL)
        return NULL;
    arm->head.vectorcall = (vectorcallfunc)arm_call;
    arm->head.wrapped = Py_NewRef(method);
    arm->kernel = Py_NewRef(kernel);
    PyUnicode_InternInPlace(&arm->kernel);
    arm->operands = operands;
    PyObject_GC_Track(arm);
    return (PyObject *)arm;
}

static PyMethodDef module_methods[] = {
    {"bind", bind, METH_VARARGS,
     "bind(Tensor, DispatchTensorKind, DISABLED, FLOAT, BALANCED): the class whose tensors the "
     "arms run."},
    {"plain_arm", plain_arm, METH_VARARGS,
     "plain_arm(method, kernel, operands): `method` with its plain arm run in C."},
    {NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "burnpy.runtime._plain_arm", NULL, -1, module_methods,
};

PyMODINIT_FUNC PyInit__plain_arm(void)
{
    if (PyType_Ready(&PlainArmType) < 0)
        return NULL;
    dtype_name = PyUnicode_InternFromString("dtype");
    primitive_name = PyUnicode_InternFromString("primitive");
    autodiff_name = PyUnicode_InternFromString("Autodiff");
    balanced_name = PyUnicode_InternFromString("Balanced");
    no_checkpointing_name = PyUnicode_InternFromString("NoCheckpointing");
    if (!dtype_name || !primitive_name || !autodiff_name || !balanced_name || !no_checkpointing_name)
        return NULL;
    PyObject *traceback = PyImport_ImportModule("traceback");
    if (traceback == NULL)
        return NULL;
    clear_frames = PyObject_GetAttrString(traceback, "clear_frames");
    Py_DECREF(traceback);
    if (clear_frames == NULL)
        return NULL;
    PyObject *module = PyModule_Create(&module_def);
    if (module != NULL && PyModule_AddObjectRef(module, "PlainArm", (PyObject *)&PlainArmType) < 0)
        Py_CLEAR(module);
    return module;
}
