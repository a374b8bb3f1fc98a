/* The transforms of Winograd's F(2x2, 3x3) for the NumPy backend (runtime/backends/numpy_winograd.py).

   In numpy each transform is a dozen passes over strided views; here it is one pass over the
   arrays, in float32 or float64 as the arrays are. Each function checks what it reads: it
   returns False where a value is not finite, and the caller then computes the correlation the
   columns' way, whose infs and NaNs are where a correlation puts them.

   The 16 planes of u, v and m (one for each position of a tile) lie `pitch` items apart, a
   pitch the caller makes no power of two: 16 streams at a power-of-two distance share a cache
   set, and evict each other at every step.

   weight_tiles(g [out, in, 3, 3], u [16 planes of out x in]):      u = G g Gᵀ
   input_tiles(x [n, in, h, w], v [16 planes of in x n th tw], top, left, th, tw):
       v = Bᵀ d B of each 4x4 tile d of x, placed at (top, left) in zeros, tile (i, j) at rows
       2i.., columns 2j..
   output_tiles(m [16 planes of out x n th tw], y [n, out, ho, wo], th, tw, bias [out] or None):
       y = Aᵀ m A of each tile (its 2x2 outputs cut at ho, wo), plus bias

   The weight's gradient, a 3x3 correlation of the input by the output's gradient, is the same
   algorithm transposed, F(3x3, 2x2): dw = Gᵀ [Σ over the tiles (A g Aᵀ) ⊙ (Bᵀ d B)] G, the
   input's tiles as above and each 2x2 tile g of the output's gradient carried by A.

   grad_tiles(g [n, out, ho, wo], gt [16 planes of out x n th tw], th, tw):
       gt = A g Aᵀ of each 2x2 tile of g (zeros past ho, wo)
   weight_grad(m [16 planes of out x in], dw [out, in, 3, 3]):   dw = Gᵀ m G */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

/* finite(v): v - v is 0 for a finite v, NaN for an inf or a NaN */
#define FINITE(v) ((v) - (v) == 0)

#define TRANSFORMS(real, suffix)                                                              \
    static int weight_tiles_##suffix(const real *g, real *u, Py_ssize_t out, Py_ssize_t in,   \
                                     Py_ssize_t pitch)                                        \
    {                                                                                         \
        int finite = 1;                                                                       \
        Py_ssize_t pairs = out * in;                                                          \
        for (Py_ssize_t p = 0; p < pairs; p++) {                                              \
            const real *k = g + 9 * p;                                                        \
            real r[4][3];                                                                     \
            for (int e = 0; e < 9; e++)                                                       \
                finite &= FINITE(k[e]);                                                       \
            for (int c = 0; c < 3; c++) {                                                     \
                r[0][c] = k[c];                                                               \
                r[1][c] = (k[c] + k[3 + c] + k[6 + c]) * (real)0.5;                           \
                r[2][c] = (k[c] - k[3 + c] + k[6 + c]) * (real)0.5;                           \
                r[3][c] = k[6 + c];                                                           \
            }                                                                                 \
            for (int a = 0; a < 4; a++) {                                                     \
                u[(4 * a + 0) * pitch + p] = r[a][0];                                         \
                u[(4 * a + 1) * pitch + p] = (r[a][0] + r[a][1] + r[a][2]) * (real)0.5;       \
                u[(4 * a + 2) * pitch + p] = (r[a][0] - r[a][1] + r[a][2]) * (real)0.5;       \
                u[(4 * a + 3) * pitch + p] = r[a][2];                                         \
            }                                                                                 \
        }                                                                                     \
        return finite;                                                                        \
    }                                                                                         \
                                                                                              \
    static int input_tiles_##suffix(const real *x, real *v, Py_ssize_t n, Py_ssize_t in,      \
                                    Py_ssize_t h, Py_ssize_t w, Py_ssize_t top,               \
                                    Py_ssize_t left, Py_ssize_t th, Py_ssize_t tw,            \
                                    Py_ssize_t pitch)                                         \
    {                                                                                         \
        /* each plane placed in zeros (2 th + 2 by 2 tw + 2): the tiles then read no bounds */ \
        Py_ssize_t ph = 2 * th + 2, pw = 2 * tw + 2, tiles = n * th * tw;                     \
        Py_ssize_t rows = h < ph - top ? h : ph - top, cols = w < pw - left ? w : pw - left;  \
        real *plane = calloc((size_t)(ph * pw + 4 * pw), sizeof(real));                       \
        if (plane == NULL)                                                                    \
            return -1;                                                                        \
        real *t = plane + ph * pw; /* a tile row's four rows, Bᵀ applied */                   \
        int finite = 1;                                                                       \
        for (Py_ssize_t b = 0; b < n; b++)                                                    \
            for (Py_ssize_t c = 0; c < in; c++) {                                             \
                const real *src = x + (b * in + c) * h * w;                                   \
                for (Py_ssize_t r = 0; r < rows; r++) {                                       \
                    real *dst = plane + (top + r) * pw + left;                                \
                    for (Py_ssize_t q = 0; q < cols; q++) {                                   \
                        dst[q] = src[r * w + q];                                              \
                        finite &= FINITE(dst[q]);                                             \
                    }                                                                         \
                }                                                                             \
                for (Py_ssize_t i = 0; i < th; i++) {                                         \
                    const real *d0 = plane + 2 * i * pw, *d1 = d0 + pw, *d2 = d1 + pw,        \
                               *d3 = d2 + pw;                                                 \
                    for (Py_ssize_t q = 0; q < pw; q++) {                                     \
                        t[q] = d0[q] - d2[q];                                                 \
                        t[pw + q] = d1[q] + d2[q];                                            \
                        t[2 * pw + q] = d2[q] - d1[q];                                        \
                        t[3 * pw + q] = d1[q] - d3[q];                                        \
                    }                                                                         \
                    Py_ssize_t at = (b * th + i) * tw;                                        \
                    for (int a = 0; a < 4; a++) {                                             \
                        const real *s = t + a * pw;                                           \
                        real *o0 = v + (4 * a + 0) * pitch + c * tiles + at;                   \
                        real *o1 = v + (4 * a + 1) * pitch + c * tiles + at;                   \
                        real *o2 = v + (4 * a + 2) * pitch + c * tiles + at;                   \
                        real *o3 = v + (4 * a + 3) * pitch + c * tiles + at;                   \
                        for (Py_ssize_t j = 0; j < tw; j++) {                                 \
                            const real *e = s + 2 * j;                                        \
                            o0[j] = e[0] - e[2];                                              \
                            o1[j] = e[1] + e[2];                                              \
                            o2[j] = e[2] - e[1];                                              \
                            o3[j] = e[1] - e[3];                                              \
                        }                                                                     \
                    }                                                                         \
                }                                                                             \
                /* the next plane's rows and columns may be fewer: the zeros stay zeros */    \
                for (Py_ssize_t r = 0; r < rows; r++)                                         \
                    memset(plane + (top + r) * pw + left, 0, sizeof(real) * cols);            \
            }                                                                                 \
        free(plane);                                                                          \
        return finite;                                                                        \
    }                                                                                         \
                                                                                              \
    static int output_tiles_##suffix(const real *m, real *y, const real *bias, Py_ssize_t n,  \
                                     Py_ssize_t out, Py_ssize_t ho, Py_ssize_t wo,            \
                                     Py_ssize_t th, Py_ssize_t tw, Py_ssize_t pitch)          \
    {                                                                                         \
        Py_ssize_t tiles = n * th * tw;                                                                        \
        int finite = 1;                                                                       \
        for (Py_ssize_t k = 0; k < out; k++) {                                                \
            real shift = bias ? bias[k] : (real)0;                                            \
            for (Py_ssize_t b = 0; b < n; b++)                                                \
                for (Py_ssize_t i = 0; i < th; i++) {                                         \
                    const real *s = m + k * tiles + (b * th + i) * tw;                        \
                    real *row0 = y + ((b * out + k) * ho + 2 * i) * wo;                       \
                    real *row1 = row0 + wo;                                                   \
                    int second = 2 * i + 1 < ho;                                              \
                    for (Py_ssize_t j = 0; j < tw; j++) {                                     \
                        real r[2][4];                                                         \
                        for (int e = 0; e < 4; e++) {                                         \
                            real m0 = s[e * pitch + j], m1 = s[(4 + e) * pitch + j];        \
                            real m2 = s[(8 + e) * pitch + j], m3 = s[(12 + e) * pitch + j]; \
                            r[0][e] = m0 + m1 + m2;                                           \
                            r[1][e] = m1 - m2 - m3;                                           \
                        }                                                                     \
                        real y00 = r[0][0] + r[0][1] + r[0][2] + shift;                       \
                        real y01 = r[0][1] - r[0][2] - r[0][3] + shift;                       \
                        real y10 = r[1][0] + r[1][1] + r[1][2] + shift;                       \
                        real y11 = r[1][1] - r[1][2] - r[1][3] + shift;                       \
                        finite &= FINITE(y00) & FINITE(y01) & FINITE(y10) & FINITE(y11);      \
                        Py_ssize_t q = 2 * j;                                                 \
                        row0[q] = y00;                                                        \
                        if (q + 1 < wo)                                                       \
                            row0[q + 1] = y01;                                                \
                        if (second) {                                                         \
                            row1[q] = y10;                                                    \
                            if (q + 1 < wo)                                                   \
                                row1[q + 1] = y11;                                            \
                        }                                                                     \
                    }                                                                         \
                }                                                                             \
        }                                                                                     \
        return finite;                                                                        \
    }                                                                                         \
                                                                                              \
    static int grad_tiles_##suffix(const real *g, real *gt, Py_ssize_t n, Py_ssize_t out,     \
                                   Py_ssize_t ho, Py_ssize_t wo, Py_ssize_t th,               \
                                   Py_ssize_t tw, Py_ssize_t pitch)                           \
    {                                                                                         \
        Py_ssize_t tiles = n * th * tw;                                                       \
        int finite = 1;                                                                       \
        for (Py_ssize_t b = 0; b < n; b++)                                                    \
            for (Py_ssize_t k = 0; k < out; k++) {                                            \
                const real *src = g + (b * out + k) * ho * wo;                                \
                for (Py_ssize_t i = 0; i < th; i++) {                                         \
                    const real *row0 = src + 2 * i * wo, *row1 = row0 + wo;                   \
                    int second = 2 * i + 1 < ho;                                              \
                    real *o = gt + k * tiles + (b * th + i) * tw;                             \
                    for (Py_ssize_t j = 0; j < tw; j++) {                                     \
                        Py_ssize_t q = 2 * j;                                                 \
                        int right = q + 1 < wo;                                               \
                        real g00 = row0[q], g01 = right ? row0[q + 1] : (real)0;              \
                        real g10 = second ? row1[q] : (real)0;                                \
                        real g11 = second && right ? row1[q + 1] : (real)0;                   \
                        finite &= FINITE(g00) & FINITE(g01) & FINITE(g10) & FINITE(g11);      \
                        /* A g: the tile's two rows combined, each column */                  \
                        real p[4][2] = {{g00, g01}, {g00 + g10, g01 + g11},                   \
                                        {g00 - g10, g01 - g11}, {-g10, -g11}};                \
                        for (int a = 0; a < 4; a++) { /* (A g) Aᵀ: its two columns */         \
                            o[(4 * a + 0) * pitch + j] = p[a][0];                             \
                            o[(4 * a + 1) * pitch + j] = p[a][0] + p[a][1];                   \
                            o[(4 * a + 2) * pitch + j] = p[a][0] - p[a][1];                   \
                            o[(4 * a + 3) * pitch + j] = -p[a][1];                            \
                        }                                                                     \
                    }                                                                         \
                }                                                                             \
            }                                                                                 \
        return finite;                                                                        \
    }                                                                                         \
                                                                                              \
    static int weight_grad_##suffix(const real *m, real *dw, Py_ssize_t out, Py_ssize_t in,   \
                                    Py_ssize_t pitch)                                         \
    {                                                                                         \
        Py_ssize_t pairs = out * in;                                                          \
        int finite = 1;                                                                       \
        const real half = (real)0.5;                                                          \
        for (Py_ssize_t p = 0; p < pairs; p++) {                                              \
            real r[3][4]; /* Gᵀ m: the tile's rows combined */                                \
            for (int e = 0; e < 4; e++) {                                                     \
                real m0 = m[e * pitch + p], m1 = m[(4 + e) * pitch + p];                      \
                real m2 = m[(8 + e) * pitch + p], m3 = m[(12 + e) * pitch + p];               \
                r[0][e] = m0 + (m1 + m2) * half;                                              \
                r[1][e] = (m1 - m2) * half;                                                   \
                r[2][e] = (m1 + m2) * half + m3;                                              \
            }                                                                                 \
            real *k = dw + 9 * p;                                                             \
            for (int a = 0; a < 3; a++) { /* (Gᵀ m) G: its columns */                         \
                k[3 * a + 0] = r[a][0] + (r[a][1] + r[a][2]) * half;                          \
                k[3 * a + 1] = (r[a][1] - r[a][2]) * half;                                    \
                k[3 * a + 2] = (r[a][1] + r[a][2]) * half + r[a][3];                          \
                finite &= FINITE(k[3 * a]) & FINITE(k[3 * a + 1]) & FINITE(k[3 * a + 2]);     \
            }                                                                                 \
        }                                                                                     \
        return finite;                                                                        \
    }

TRANSFORMS(float, f32)
TRANSFORMS(double, f64)

/* Takes `object`'s buffer into views[*count] as a C-contiguous array of `items` items of the
   dtype `kind` ('f' float32, 'd' float64; '?' takes either and sets it), and counts it; 0 with
   an error raised where it is not one. */
static int take(PyObject *object, Py_buffer *views, int *count, Py_ssize_t items, int writable,
                char *kind, const char *name)
{
    Py_buffer *view = &views[*count];
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(object, view, flags) < 0)
        return 0;
    (*count)++;
    char got = view->format && view->format[1] == '\0' ? view->format[0] : '?';
    if ((got != 'f' && got != 'd') || view->len != items * view->itemsize) {
        PyErr_Format(PyExc_ValueError, "winograd: %s is not %zd float32 or float64 items", name,
                     items);
        return 0;
    }
    if (*kind == '?')
        *kind = got;
    if (got != *kind) {
        PyErr_Format(PyExc_ValueError, "winograd: %s is not of the input's dtype", name);
        return 0;
    }
    return 1;
}

/* Releases the views; True or False as the values were all finite, or NULL with the error. */
static PyObject *release(Py_buffer *views, int count, int finite)
{
    for (int i = 0; i < count; i++)
        PyBuffer_Release(&views[i]);
    if (finite < 0)
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    return PyBool_FromLong(finite);
}

/* 1, or 0 with a ValueError where 16 planes of `plane` items do not fit `pitch` apart. */
static int pitch_holds(Py_ssize_t pitch, Py_ssize_t plane)
{
    if (pitch >= plane)
        return 1;
    PyErr_Format(PyExc_ValueError, "winograd: a pitch of %zd under a plane", pitch);
    return 0;
}

/* 1, or 0 with a ValueError where ho x wo outputs are not th x tw tiles of 2x2 (the last ones
   cut by one at most). */
static int tiles_hold(Py_ssize_t ho, Py_ssize_t wo, Py_ssize_t th, Py_ssize_t tw)
{
    if (th >= 1 && tw >= 1 && ho <= 2 * th && wo <= 2 * tw && ho >= 2 * th - 1 && wo >= 2 * tw - 1)
        return 1;
    PyErr_Format(PyExc_ValueError, "winograd: %zd x %zd outputs from %zd x %zd tiles", ho, wo, th,
                 tw);
    return 0;
}

static PyObject *weight_tiles(PyObject *module, PyObject *args)
{
    PyObject *g, *u;
    Py_ssize_t out, in, pitch;
    if (!PyArg_ParseTuple(args, "OOnnn:weight_tiles", &g, &u, &out, &in, &pitch))
        return NULL;
    if (!pitch_holds(pitch, out * in))
        return NULL;
    Py_buffer views[2];
    int count = 0;
    char kind = '?';
    if (!take(g, views, &count, out * in * 9, 0, &kind, "the weight")
        || !take(u, views, &count, 16 * pitch, 1, &kind, "the weight's tiles"))
        return release(views, count, -1);
    int finite = kind == 'f' ? weight_tiles_f32(views[0].buf, views[1].buf, out, in, pitch)
                             : weight_tiles_f64(views[0].buf, views[1].buf, out, in, pitch);
    return release(views, count, finite);
}

static PyObject *input_tiles(PyObject *module, PyObject *args)
{
    PyObject *x, *v;
    Py_ssize_t n, in, h, w, top, left, th, tw, pitch;
    if (!PyArg_ParseTuple(args, "OOnnnnnnnnn:input_tiles", &x, &v, &n, &in, &h, &w, &top, &left,
                          &th, &tw, &pitch))
        return NULL;
    if (!pitch_holds(pitch, in * n * th * tw))
        return NULL;
    if (top < 0 || left < 0 || th < 1 || tw < 1 || top >= 2 * th + 2 || left >= 2 * tw + 2)
        return PyErr_Format(PyExc_ValueError, "winograd: padding %zd, %zd for %zd x %zd tiles",
                            top, left, th, tw);
    Py_buffer views[2];
    int count = 0;
    char kind = '?';
    if (!take(x, views, &count, n * in * h * w, 0, &kind, "the input")
        || !take(v, views, &count, 16 * pitch, 1, &kind, "the input's tiles"))
        return release(views, count, -1);
    int finite;
    Py_BEGIN_ALLOW_THREADS
    finite = kind == 'f'
                 ? input_tiles_f32(views[0].buf, views[1].buf, n, in, h, w, top, left, th, tw, pitch)
                 : input_tiles_f64(views[0].buf, views[1].buf, n, in, h, w, top, left, th, tw, pitch);
    Py_END_ALLOW_THREADS
    return release(views, count, finite);
}

static PyObject *output_tiles(PyObject *module, PyObject *args)
{
    PyObject *m, *y, *bias;
    Py_ssize_t n, out, ho, wo, th, tw, pitch;
    if (!PyArg_ParseTuple(args, "OOOnnnnnnn:output_tiles", &m, &y, &bias, &n, &out, &ho, &wo, &th,
                          &tw, &pitch))
        return NULL;
    if (!pitch_holds(pitch, out * n * th * tw))
        return NULL;
    if (!tiles_hold(ho, wo, th, tw))
        return NULL;
    Py_buffer views[3];
    int count = 0;
    char kind = '?';
    if (!take(m, views, &count, 16 * pitch, 0, &kind, "the products")
        || !take(y, views, &count, n * out * ho * wo, 1, &kind, "the output")
        || (bias != Py_None && !take(bias, views, &count, out, 0, &kind, "the bias")))
        return release(views, count, -1);
    const void *shift = bias != Py_None ? views[2].buf : NULL;
    int finite;
    Py_BEGIN_ALLOW_THREADS
    finite = kind == 'f'
                 ? output_tiles_f32(views[0].buf, views[1].buf, shift, n, out, ho, wo, th, tw, pitch)
                 : output_tiles_f64(views[0].buf, views[1].buf, shift, n, out, ho, wo, th, tw, pitch);
    Py_END_ALLOW_THREADS
    return release(views, count, finite);
}

static PyObject *grad_tiles(PyObject *module, PyObject *args)
{
    PyObject *g, *gt;
    Py_ssize_t n, out, ho, wo, th, tw, pitch;
    if (!PyArg_ParseTuple(args, "OOnnnnnnn:grad_tiles", &g, &gt, &n, &out, &ho, &wo, &th, &tw,
                          &pitch))
        return NULL;
    if (!pitch_holds(pitch, out * n * th * tw))
        return NULL;
    if (!tiles_hold(ho, wo, th, tw))
        return NULL;
    Py_buffer views[2];
    int count = 0;
    char kind = '?';
    if (!take(g, views, &count, n * out * ho * wo, 0, &kind, "the gradient")
        || !take(gt, views, &count, 16 * pitch, 1, &kind, "the gradient's tiles"))
        return release(views, count, -1);
    int finite;
    Py_BEGIN_ALLOW_THREADS
    finite = kind == 'f'
                 ? grad_tiles_f32(views[0].buf, views[1].buf, n, out, ho, wo, th, tw, pitch)
                 : grad_tiles_f64(views[0].buf, views[1].buf, n, out, ho, wo, th, tw, pitch);
    Py_END_ALLOW_THREADS
    return release(views, count, finite);
}

static PyObject *weight_grad(PyObject *module, PyObject *args)
{
    PyObject *m, *dw;
    Py_ssize_t out, in, pitch;
    if (!PyArg_ParseTuple(args, "OOnnn:weight_grad", &m, &dw, &out, &in, &pitch))
        return NULL;
    if (!pitch_holds(pitch, out * in))
        return NULL;
    Py_buffer views[2];
    int count = 0;
    char kind = '?';
    if (!take(m, views, &count, 16 * pitch, 0, &kind, "the products")
        || !take(dw, views, &count, out * in * 9, 1, &kind, "the weight's gradient"))
        return release(views, count, -1);
    int finite = kind == 'f' ? weight_grad_f32(views[0].buf, views[1].buf, out, in, pitch)
                             : weight_grad_f64(views[0].buf, views[1].buf, out, in, pitch);
    return release(views, count, finite);
}

static PyMethodDef module_methods[] = {
    {"weight_tiles", weight_tiles, METH_VARARGS,
     "weight_tiles(g, u, out, in, pitch) -> all finite: u = G g Gᵀ of g [out, in, 3, 3]."},
    {"input_tiles", input_tiles, METH_VARARGS,
     "input_tiles(x, v, n, in, h, w, top, left, th, tw, pitch) -> all finite: v = Bᵀ d B of "
     "x's 4x4 tiles."},
    {"output_tiles", output_tiles, METH_VARARGS,
     "output_tiles(m, y, bias, n, out, ho, wo, th, tw, pitch) -> all finite: y [n, out, ho, "
     "wo] = Aᵀ m A of the tiles, plus bias."},
    {"grad_tiles", grad_tiles, METH_VARARGS,
     "grad_tiles(g, gt, n, out, ho, wo, th, tw, pitch) -> all finite: gt = A g Aᵀ of the "
     "output gradient's 2x2 tiles."},
    {"weight_grad", weight_grad, METH_VARARGS,
     "weight_grad(m, dw, out, in, pitch) -> all finite: dw [out, in, 3, 3] = Gᵀ m G."},
    {NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "burnpy.runtime.backends._winograd", NULL, -1, module_methods,
};

PyMODINIT_FUNC PyInit__winograd(void) { return PyModule_Create(&module_def); }
