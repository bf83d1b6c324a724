/* gmg.c -- CPU backend of the GMG table (twin of gmg.cu): ELLPACK-R product,
 * SPAI set-up, Richardson updates. */
#include <math.h>

#include "ell.h"
#include "lcg.h"
#include "mirror.h"
#include "spai.h"
#include "tagval.h"

homg_status homg_cpu_gmg_ell_spmv(kernel_exec *ex, const ell_matrix *a, const double *x, double *y, double alpha,
                                  double beta)
{
    (void)ex;
#pragma omp parallel for schedule(static) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++) {
        double s = 0;
        for (int32_t k = 0; k < a->rl[i]; k++) {
            size_t at = (size_t)k * a->nrows + i;
            s += a->val[at] * x[a->col[at]];
        }
        y[i] = beta != 0 ? alpha * s + beta * y[i] : alpha * s;
    }
    return HOMG_OK;
}

homg_status homg_cpu_gmg_ell_spmv_dot(kernel_exec *ex, const ell_matrix *a, const double *x, double *y, double alpha,
                                      double beta, const double *u, double *dot)
{
    double s = 0;
    HOMG_TRY(homg_cpu_gmg_ell_spmv(ex, a, x, y, alpha, beta));
#pragma omp parallel for schedule(static) reduction(+ : s) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++)
        s += u[i] * y[i];
    *dot += s;
    return HOMG_OK;
}

homg_status homg_cpu_gmg_ell_spmv_batch(kernel_exec *ex, const ell_batch *b)
{
    for (int k = 0; k < b->count; k++) {
        const ell_batch_item *t = &b->item[k];
        if (t->dot)
            HOMG_TRY(homg_cpu_gmg_ell_spmv_dot(ex, &t->a, t->x, t->y, t->alpha, t->beta, t->u, t->dot));
        else
            HOMG_TRY(homg_cpu_gmg_ell_spmv(ex, &t->a, t->x, t->y, t->alpha, t->beta));
    }
    return HOMG_OK;
}

homg_status homg_cpu_gmg_ell_residual(kernel_exec *ex, const ell_matrix *a, const double *b, const double *x, double *r)
{
    (void)ex;
#pragma omp parallel for schedule(static) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++) {
        double s = 0;
        for (int32_t k = 0; k < a->rl[i]; k++) {
            size_t at = (size_t)k * a->nrows + i;
            s += a->val[at] * x[a->col[at]];
        }
        r[i] = b[i] - s;
    }
    return HOMG_OK;
}

homg_status homg_cpu_gmg_csr_residual(kernel_exec *ex, const csr_matrix *a, const double *b, const double *x, double *r)
{
    const double *v = (const double *)a->values;
    (void)ex;
#pragma omp parallel for schedule(static) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++) {
        double s = 0;
        for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
            s += v[k] * x[a->col_idx[k]];
        r[i] = b[i] - s;
    }
    return HOMG_OK;
}

homg_status homg_cpu_gmg_csr_bandwidths(kernel_exec *ex, const csr_matrix *const *a, int n, uint64_t *sum)
{
    (void)ex;
    for (int m = 0; m < n; m++) {
        uint64_t s = 0;
        for (int32_t i = 0; i < a[m]->nrows; i++)
            for (int32_t k = a[m]->row_ptr[i]; k < a[m]->row_ptr[i + 1]; k++)
                s += (uint64_t)(a[m]->col_idx[k] > i ? a[m]->col_idx[k] - i : i - a[m]->col_idx[k]);
        sum[m] = s;
    }
    return HOMG_OK;
}

homg_status homg_cpu_gmg_ell_from_csr(kernel_exec *ex, const csr_matrix *a, ell_matrix *e)
{
    (void)ex;
#pragma omp parallel for schedule(static) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++)
        ell_row_from_csr(a->row_ptr, a->col_idx, (const double *)a->values, i, e->nrows, e->width, e->col, e->val,
                         e->rl);
    return HOMG_OK;
}

homg_status homg_cpu_gmg_csr_widths(kernel_exec *ex, const csr_matrix *const *a, int n, int32_t *width)
{
    (void)ex;
    for (int k = 0; k < n; k++) {
        int32_t w = 0;
        for (int32_t i = 0; i < a[k]->nrows; i++)
            if (a[k]->row_ptr[i + 1] - a[k]->row_ptr[i] > w)
                w = a[k]->row_ptr[i + 1] - a[k]->row_ptr[i];
        width[k] = w;
    }
    return HOMG_OK;
}

homg_status homg_cpu_gmg_transpose_sym(kernel_exec *ex, const csr_matrix *m, double *tv)
{
    (void)ex;
#pragma omp parallel for schedule(static) if (m->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < m->nrows; i++)
        for (int32_t p = m->row_ptr[i]; p < m->row_ptr[i + 1]; p++)
            tv[p] = mirror_value(m->row_ptr, m->col_idx, (const double *)m->values, i, p);
    return HOMG_OK;
}

homg_status homg_cpu_gmg_tag_values(kernel_exec *ex, int32_t n, const int32_t *markers, const int32_t *tags,
                                    const double *vals, int num_tags, double dflt, double *out)
{
    (void)ex;
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN)
    for (int32_t i = 0; i < n; i++)
        out[i] = tag_value(markers[i], tags, vals, num_tags, dflt);
    return HOMG_OK;
}

homg_status homg_cpu_gmg_diag_inverse(kernel_exec *ex, const csr_matrix *a, int jacobi, double *d)
{
    (void)ex;
#pragma omp parallel for schedule(static) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++)
        d[i] = spai0_row(a->row_ptr, a->col_idx, (const double *)a->values, i, jacobi);
    return HOMG_OK;
}

homg_status homg_cpu_gmg_spai_scale(kernel_exec *ex, const csr_matrix *a, double *w)
{
    (void)ex;
#pragma omp parallel for schedule(static) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++)
        w[i] = spai_scale_row(a->row_ptr, a->col_idx, (const double *)a->values, i);
    return HOMG_OK;
}

homg_status homg_cpu_gmg_spai1(kernel_exec *ex, const csr_matrix *a, const double *w, csr_matrix *m, double *mt,
                               int32_t *fallback, int32_t max_row)
{
    (void)max_row; /* one pass over all rows */
    int32_t fb = 0;
#pragma omp parallel for schedule(dynamic, 256) reduction(+ : fb) if (a->nrows > HOMG_OMP_MIN / 16)
    for (int32_t i = 0; i < a->nrows; i++)
        fb += spai1_row(a->row_ptr, a->col_idx, (const double *)a->values, w, i, (double *)m->values);
    *fallback += fb;
    return mt ? homg_cpu_gmg_transpose_sym(ex, m, mt) : HOMG_OK; /* the CUDA warp writes it with the rows */
}

homg_status homg_cpu_gmg_spai1_batch(kernel_exec *ex, const spai1_batch *b)
{
    for (int k = 0; k < b->count; k++) {
        const spai1_item *it = &b->item[k];
        homg_status st = homg_cpu_gmg_spai1(ex, it->a, it->w, it->m, it->mt, it->fallback, it->max_row);
        if (st != HOMG_OK)
            return st;
    }
    return HOMG_OK;
}

homg_status homg_cpu_gmg_diag_update(kernel_exec *ex, int32_t n, double omega, const double *d, const double *r,
                                     double *x)
{
    (void)ex;
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN)
    for (int32_t i = 0; i < n; i++)
        x[i] += omega * d[i] * r[i];
    return HOMG_OK;
}

homg_status homg_cpu_gmg_axpy(kernel_exec *ex, int32_t n, double alpha, const double *x, double *y)
{
    (void)ex;
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN)
    for (int32_t i = 0; i < n; i++)
        y[i] += alpha * x[i];
    return HOMG_OK;
}

homg_status homg_cpu_gmg_random_fill(kernel_exec *ex, int32_t n, uint32_t s0, double *x)
{
    (void)ex;
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN)
    for (int32_t i = 0; i < n; i++)
        x[i] = gmg_lcg_value(s0, (uint32_t)i);
    return HOMG_OK;
}

homg_status homg_cpu_gmg_dot(kernel_exec *ex, int32_t n, const double *x, const double *y, double *out)
{
    double s = 0;
    (void)ex;
#pragma omp parallel for schedule(static) reduction(+ : s) if (n > HOMG_OMP_MIN)
    for (int32_t i = 0; i < n; i++)
        s += x[i] * y[i];
    *out = s;
    return HOMG_OK;
}

const gmg_kernels homg_cpu_gmg_kernels = { GMG_KERNELS(HOMG_KERNEL_CPU_INIT) };
