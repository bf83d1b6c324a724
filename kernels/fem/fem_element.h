/* fem_element.h -- the P1 element routine and the CSR search, shared by the CPU
 * and CUDA backends (one source, so the CPU oracle runs the same arithmetic).
 *
 * Element matrix A_e = S_e + lambda M_e, with S_e[a][b] = |e| g_a . Sigma g_b
 * (g_a the constant gradient of the barycentric coordinate a) and the consistent
 * mass M_e[a][b] = |e| (1 + delta_ab) / ((d+1)(d+2)); load F_e[a] = |e| (f +
 * f_elem) / (d+1) + sum_b M_e[a][b] f_node[b]. */
#ifndef HOMG_FEM_ELEMENT_H
#define HOMG_FEM_ELEMENT_H

#include "core/search.h"
#include "fem_kernels.h"

#include <math.h>

/* Sigma g (dim components) for element e. */
HOMG_HD void fem_sigma_apply(const fem_problem *p, int dim, int32_t e, const double *g, double *out)
{
    if (p->sigma_tensor) {
        const double *s = p->sigma_tensor + (size_t)e * (dim == 2 ? 3 : 6);
        if (dim == 2) {
            out[0] = s[0] * g[0] + s[1] * g[1];
            out[1] = s[1] * g[0] + s[2] * g[1];
        } else {
            out[0] = s[0] * g[0] + s[1] * g[1] + s[2] * g[2];
            out[1] = s[1] * g[0] + s[3] * g[1] + s[4] * g[2];
            out[2] = s[2] * g[0] + s[4] * g[1] + s[5] * g[2];
        }
    } else {
        double sg = p->sigma_elem ? p->sigma_elem[e] : p->sigma;
        for (int k = 0; k < dim; k++)
            out[k] = sg * g[k];
    }
}

/* Element matrix A (row-major, (dim+1)^2) and load F (dim+1) of element e with
 * nodes v.  dim equals the problem's dim; CUDA kernels pass a compile-time
 * constant so that the loops unroll and A stays in registers. */
HOMG_HD void fem_element(const fem_problem *p, int dim, int32_t e, const int32_t *v, double *A, double *F)
{
    double g[4][3], vol, mass, src, lambda;
    int nv = dim + 1;
    const double *x = p->coords;
    if (dim == 2) {
        double ax = x[2 * v[1]] - x[2 * v[0]], ay = x[2 * v[1] + 1] - x[2 * v[0] + 1];
        double bx = x[2 * v[2]] - x[2 * v[0]], by = x[2 * v[2] + 1] - x[2 * v[0] + 1];
        double det = ax * by - ay * bx, inv = 1.0 / det;
        g[1][0] = by * inv;
        g[1][1] = -bx * inv;
        g[2][0] = -ay * inv;
        g[2][1] = ax * inv;
        g[0][0] = -g[1][0] - g[2][0];
        g[0][1] = -g[1][1] - g[2][1];
        vol = 0.5 * (det < 0 ? -det : det);
        mass = vol / 12.0;
    } else {
        double d[3][3], c[3][3], det, inv;
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++)
                d[i][k] = x[3 * v[i + 1] + k] - x[3 * v[0] + k];
        /* c[0] = d1 x d2, c[1] = d2 x d0, c[2] = d0 x d1: rows of the inverse Jacobian times det */
        for (int i = 0; i < 3; i++) {
            const double *a = d[(i + 1) % 3], *b = d[(i + 2) % 3];
            c[i][0] = a[1] * b[2] - a[2] * b[1];
            c[i][1] = a[2] * b[0] - a[0] * b[2];
            c[i][2] = a[0] * b[1] - a[1] * b[0];
        }
        det = d[0][0] * c[0][0] + d[0][1] * c[0][1] + d[0][2] * c[0][2];
        inv = 1.0 / det;
        for (int k = 0; k < 3; k++) {
            g[1][k] = c[0][k] * inv;
            g[2][k] = c[1][k] * inv;
            g[3][k] = c[2][k] * inv;
            g[0][k] = -g[1][k] - g[2][k] - g[3][k];
        }
        vol = (det < 0 ? -det : det) / 6.0;
        mass = vol / 20.0;
    }
    src = (p->f + (p->f_elem ? p->f_elem[e] : 0.0)) * vol / nv;
    lambda = p->lambda_elem ? p->lambda_elem[e] : p->lambda;
    for (int a = 0; a < nv; a++) {
        double sg[3];
        fem_sigma_apply(p, dim, e, g[a], sg);
        F[a] = src;
        for (int b = 0; b < nv; b++) {
            double m = a == b ? 2.0 * mass : mass, k = 0;
            for (int q = 0; q < dim; q++)
                k += sg[q] * g[b][q];
            A[a * nv + b] = vol * k + lambda * m;
            if (p->f_node)
                F[a] += m * p->f_node[v[b]];
        }
    }
}

/* The share q |F| / dim of each node of facet f (nodes v) under the flux of its
 * tag in t (0 when the tag has none): the integral of q phi_v over the facet. */
HOMG_HD double fem_facet_load(const fem_problem *p, const fem_flux_table *t, int32_t tag, const int32_t *v)
{
    const double *x = p->coords;
    double q = 0, measure;
    int found = 0;
    for (int i = 0; i < t->n; i++)
        if (t->tag[i] == tag) {
            q = t->flux[i];
            found = 1;
        }
    if (!found)
        return 0;
    if (p->dim == 2) {
        double dx = x[2 * v[1]] - x[2 * v[0]], dy = x[2 * v[1] + 1] - x[2 * v[0] + 1];
        measure = sqrt(dx * dx + dy * dy);
    } else {
        double a[3], b[3], c[3];
        for (int k = 0; k < 3; k++) {
            a[k] = x[3 * v[1] + k] - x[3 * v[0] + k];
            b[k] = x[3 * v[2] + k] - x[3 * v[0] + k];
        }
        c[0] = a[1] * b[2] - a[2] * b[1];
        c[1] = a[2] * b[0] - a[0] * b[2];
        c[2] = a[0] * b[1] - a[1] * b[0];
        measure = 0.5 * sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    }
    return q * measure / p->dim;
}

#ifndef __CUDACC__
/* values[k] += x in the system's precision (CPU backend). */
static inline void fem_add(void *values, homg_precision precision, int64_t k, double x)
{
    if (precision == HOMG_FLOAT32)
        ((float *)values)[k] += (float)x;
    else
        ((double *)values)[k] += x;
}

/* Adds element e's matrix and load into the system, each entry found by
 * binary search in its CSR row (the serial and colour schemes on the CPU). */
static inline void fem_scatter_element(const fem_problem *p, const fem_system *s, int32_t e)
{
    int nv = p->dim + 1;
    const int32_t *v = p->elements + (size_t)e * nv;
    double A[16], F[4];
    fem_element(p, p->dim, e, v, A, F);
    for (int a = 0; a < nv; a++) {
        int32_t row = v[a], lo = s->row_ptr[row], hi = s->row_ptr[row + 1];
        for (int b = 0; b < nv; b++) {
            int32_t k = sorted_find_i32(s->col_idx, lo, hi, v[b]);
            if (k >= 0)
                fem_add(s->values, s->precision, k, A[a * nv + b]);
        }
        fem_add(s->rhs, s->precision, row, F[a]);
    }
}
#endif

#endif
