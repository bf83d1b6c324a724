/* sparse.c -- CPU backend of the sparse table: checks, conversion, scans,
 * transpose, SpMV and SpGEMM (Gustavson, symbolic then numeric phase). */
#include "core/search.h"
#include "sparse_kernels.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct cpu_handle {
    kernel_alloc alloc;
} cpu_handle;

homg_status homg_cpu_sparse_handle_create(kernel_exec *ex, const kernel_alloc *alloc, void **handle)
{
    cpu_handle *h = (cpu_handle *)calloc(1, sizeof *h);
    if (!h)
        return homg_exec_fail(ex, HOMG_ERROR_OUT_OF_MEMORY, "sparse handle: out of host memory");
    h->alloc = *alloc;
    *handle = h;
    return HOMG_OK;
}

void homg_cpu_sparse_handle_destroy(kernel_exec *ex, void *handle)
{
    (void)ex;
    free(handle);
}

homg_status homg_cpu_sparse_fill_i32(kernel_exec *ex, int32_t *p, int32_t n, int32_t value)
{
    (void)ex;
    for (int32_t i = 0; i < n; i++)
        p[i] = value;
    return HOMG_OK;
}

homg_status homg_cpu_sparse_convert(kernel_exec *ex, const void *src, homg_precision sprec, void *dst,
                                    homg_precision dprec, size_t n)
{
    (void)ex;
    if (sprec == dprec) {
        if (src != dst)
            memmove(dst, src, n * (sprec == HOMG_FLOAT64 ? sizeof(double) : sizeof(float)));
    } else if (sprec == HOMG_FLOAT64) {
        const double *s = (const double *)src;
        float *d = (float *)dst;
        for (size_t i = 0; i < n; i++)
            d[i] = (float)s[i];
    } else {
        const float *s = (const float *)src;
        double *d = (double *)dst;
        for (size_t i = n; i-- > 0;) /* backwards: dst may alias src's start */
            d[i] = (double)s[i];
    }
    return HOMG_OK;
}

homg_status homg_cpu_sparse_scan_i32(kernel_exec *ex, void *handle, const int32_t *in, int32_t *out, int32_t n,
                                     int32_t *total)
{
    int64_t s = 0;
    (void)handle;
    for (int32_t i = 0; i < n; i++) {
        int32_t v = in[i];
        out[i] = (int32_t)s;
        s += v;
    }
    if (s > INT32_MAX)
        return homg_exec_fail(ex, HOMG_ERROR_OUT_OF_MEMORY, "prefix sum %lld exceeds int32", (long long)s);
    *total = (int32_t)s;
    return HOMG_OK;
}

static void first_bad(int32_t *field, int32_t row)
{
    if (row < *field)
        *field = row;
}

homg_status homg_cpu_sparse_check_row_ptr(kernel_exec *ex, const csr_matrix *a, csr_report *rep)
{
    (void)ex;
    if (a->row_ptr[0] != 0)
        first_bad(&rep->row_ptr, 0);
    for (int32_t i = 0; i < a->nrows; i++)
        if (a->row_ptr[i] > a->row_ptr[i + 1] || a->row_ptr[i + 1] > a->nnz || a->row_ptr[i] < 0) {
            first_bad(&rep->row_ptr, i);
            break;
        }
    if (a->row_ptr[a->nrows] != a->nnz)
        first_bad(&rep->row_ptr, a->nrows);
    return HOMG_OK;
}

homg_status homg_cpu_sparse_check_rows(kernel_exec *ex, const csr_matrix *a, csr_report *rep)
{
    const double *v = (const double *)a->values;
    (void)ex;
    for (int32_t i = 0; i < a->nrows; i++) {
        int diag_ok = 0;
        for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
            int32_t j = a->col_idx[k];
            if (j < 0 || j >= a->ncols || (k > a->row_ptr[i] && j <= a->col_idx[k - 1]))
                first_bad(&rep->column, i);
            if (!isfinite(v[k]))
                first_bad(&rep->nonfinite, i);
            if (j == i && v[k] > 0)
                diag_ok = 1;
        }
        if (!diag_ok)
            first_bad(&rep->diagonal, i);
    }
    return HOMG_OK;
}

/* a_ii by binary search in row i (columns are sorted); 0 when missing. */
static double diag_of(const csr_matrix *a, int32_t i)
{
    int32_t k = sorted_find_i32(a->col_idx, a->row_ptr[i], a->row_ptr[i + 1], i);
    return k >= 0 ? ((const double *)a->values)[k] : 0.0;
}

homg_status homg_cpu_sparse_check_symmetric(kernel_exec *ex, const csr_matrix *a, const csr_matrix *t, double rtol,
                                            csr_report *rep)
{
    const double *va = (const double *)a->values, *vt = (const double *)t->values;
    (void)ex;
    if (t == a) { /* against its own transpose: each entry's mirror by binary search */
        for (int32_t i = 0; i < a->nrows; i++)
            for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
                int32_t j = a->col_idx[k], m = sorted_find_i32(a->col_idx, a->row_ptr[j], a->row_ptr[j + 1], i);
                if (m < 0 || fabs(va[k] - va[m]) > rtol * sqrt(fabs(diag_of(a, i)) * fabs(diag_of(a, j))))
                    first_bad(&rep->symmetry, i < j ? i : j);
            }
        return HOMG_OK;
    }
    for (int32_t i = 0; i < a->nrows; i++) {
        int32_t k0 = a->row_ptr[i], k1 = a->row_ptr[i + 1];
        double di = fabs(diag_of(a, i));
        if (k0 != t->row_ptr[i] || k1 != t->row_ptr[i + 1]) {
            first_bad(&rep->symmetry, i);
            continue;
        }
        for (int32_t k = k0; k < k1; k++) {
            int32_t j = a->col_idx[k];
            if (j != t->col_idx[k] || fabs(va[k] - vt[k]) > rtol * sqrt(di * fabs(diag_of(a, j)))) {
                first_bad(&rep->symmetry, i);
                break;
            }
        }
    }
    return HOMG_OK;
}

static size_t val_size(homg_precision p) { return p == HOMG_FLOAT64 ? sizeof(double) : sizeof(float); }

homg_status homg_cpu_sparse_transpose(kernel_exec *ex, void *handle, const csr_matrix *a, csr_matrix *t)
{
    size_t vs = val_size(a->precision);
    int32_t *next = (int32_t *)malloc(((size_t)a->ncols + 1) * sizeof *next);
    (void)handle;
    if (!next)
        return homg_exec_fail(ex, HOMG_ERROR_OUT_OF_MEMORY, "transpose: out of host memory");
    memset(t->row_ptr, 0, ((size_t)a->ncols + 1) * sizeof *t->row_ptr);
    for (int32_t k = 0; k < a->nnz; k++)
        t->row_ptr[a->col_idx[k] + 1]++;
    for (int32_t j = 0; j < a->ncols; j++)
        t->row_ptr[j + 1] += t->row_ptr[j];
    memcpy(next, t->row_ptr, ((size_t)a->ncols + 1) * sizeof *next);
    for (int32_t i = 0; i < a->nrows; i++)
        for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
            int32_t dst = next[a->col_idx[k]]++;
            t->col_idx[dst] = i;
            memcpy((char *)t->values + (size_t)dst * vs, (const char *)a->values + (size_t)k * vs, vs);
        }
    free(next);
    return HOMG_OK;
}

homg_status homg_cpu_sparse_spmv(kernel_exec *ex, const csr_matrix *a, const void *x, void *y, double alpha,
                                 double beta)
{
    (void)ex;
    if (a->precision == HOMG_FLOAT64) {
        const double *v = (const double *)a->values, *xv = (const double *)x;
        double *yv = (double *)y;
#pragma omp parallel for schedule(static) if (a->nrows > HOMG_OMP_MIN)
        for (int32_t i = 0; i < a->nrows; i++) {
            double s = 0;
            for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
                s += v[k] * xv[a->col_idx[k]];
            yv[i] = beta != 0 ? alpha * s + beta * yv[i] : alpha * s;
        }
    } else {
        const float *v = (const float *)a->values, *xv = (const float *)x;
        float *yv = (float *)y;
        float fa = (float)alpha, fb = (float)beta;
#pragma omp parallel for schedule(static) if (a->nrows > HOMG_OMP_MIN)
        for (int32_t i = 0; i < a->nrows; i++) {
            float s = 0;
            for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
                s += v[k] * xv[a->col_idx[k]];
            yv[i] = fb != 0 ? fa * s + fb * yv[i] : fa * s;
        }
    }
    return HOMG_OK;
}

homg_status homg_cpu_sparse_inv_diag(kernel_exec *ex, const csr_matrix *a, double *dinv)
{
    (void)ex;
#pragma omp parallel for schedule(static) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++) {
        double d = diag_of(a, i);
        dinv[i] = d != 0 ? 1.0 / d : 0.0;
    }
    return HOMG_OK;
}

static int cmp_i32(const void *pa, const void *pb)
{
    int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
    return (a > b) - (a < b);
}

/* Numeric phase: c's pattern is known; a dense accumulator per row. */
static homg_status spgemm_numeric(kernel_exec *ex, const csr_matrix *a, const csr_matrix *b, csr_matrix *c)
{
    homg_status st = HOMG_OK;
    const float *av = (const float *)a->values, *bv = (const float *)b->values;
    float *cv = (float *)c->values;
#pragma omp parallel if (a->nrows > HOMG_OMP_MIN)
    {
        float *acc = (float *)calloc((size_t)b->ncols + 1, sizeof *acc);
        if (!acc) {
#pragma omp critical
            st = HOMG_ERROR_OUT_OF_MEMORY;
        }
#pragma omp for schedule(dynamic, 256)
        for (int32_t i = 0; i < a->nrows; i++) {
            if (!acc)
                continue;
            for (int32_t ka = a->row_ptr[i]; ka < a->row_ptr[i + 1]; ka++) {
                int32_t k = a->col_idx[ka];
                float aik = av[ka];
                for (int32_t kb = b->row_ptr[k]; kb < b->row_ptr[k + 1]; kb++)
                    acc[b->col_idx[kb]] += aik * bv[kb];
            }
            for (int32_t kc = c->row_ptr[i]; kc < c->row_ptr[i + 1]; kc++) {
                cv[kc] = acc[c->col_idx[kc]];
                acc[c->col_idx[kc]] = 0;
            }
        }
        free(acc);
    }
    if (st != HOMG_OK)
        return homg_exec_fail(ex, st, "spgemm: out of host memory");
    return HOMG_OK;
}

/* Symbolic phase, first pass: c->row_ptr from the distinct columns per row
 * (mark[j] == i: column j already counted in row i). */
static homg_status count_columns(kernel_exec *ex, const csr_matrix *a, const csr_matrix *b, csr_matrix *c,
                                 int32_t *mark)
{
    int64_t total = 0;
    for (int32_t j = 0; j < b->ncols; j++)
        mark[j] = -1;
    c->row_ptr[0] = 0;
    for (int32_t i = 0; i < a->nrows; i++) {
        int32_t n = 0;
        for (int32_t ka = a->row_ptr[i]; ka < a->row_ptr[i + 1]; ka++) {
            int32_t k = a->col_idx[ka];
            for (int32_t kb = b->row_ptr[k]; kb < b->row_ptr[k + 1]; kb++)
                if (mark[b->col_idx[kb]] != i) {
                    mark[b->col_idx[kb]] = i;
                    n++;
                }
        }
        total += n;
        if (total > INT32_MAX)
            return homg_exec_fail(ex, HOMG_ERROR_OUT_OF_MEMORY, "spgemm: product has more than 2^31 entries");
        c->row_ptr[i + 1] = (int32_t)total;
    }
    c->nnz = (int32_t)total;
    return HOMG_OK;
}

/* Symbolic phase, second pass: each row's distinct columns, sorted. */
static void fill_columns(const csr_matrix *a, const csr_matrix *b, csr_matrix *c, int32_t *mark)
{
    for (int32_t j = 0; j < b->ncols; j++)
        mark[j] = -1;
    for (int32_t i = 0; i < a->nrows; i++) {
        int32_t n = c->row_ptr[i];
        for (int32_t ka = a->row_ptr[i]; ka < a->row_ptr[i + 1]; ka++) {
            int32_t k = a->col_idx[ka];
            for (int32_t kb = b->row_ptr[k]; kb < b->row_ptr[k + 1]; kb++)
                if (mark[b->col_idx[kb]] != i) {
                    mark[b->col_idx[kb]] = i;
                    c->col_idx[n++] = b->col_idx[kb];
                }
        }
        qsort(c->col_idx + c->row_ptr[i], (size_t)(n - c->row_ptr[i]), sizeof(int32_t), cmp_i32);
    }
}

/* C's pattern (row_ptr allocated by the caller; columns and values here). */
static homg_status spgemm_pattern(kernel_exec *ex, cpu_handle *h, const csr_matrix *a, const csr_matrix *b,
                                  csr_matrix *c)
{
    int32_t *mark = (int32_t *)malloc(((size_t)b->ncols + 1) * sizeof *mark);
    homg_status st;
    if (!mark)
        return homg_exec_fail(ex, HOMG_ERROR_OUT_OF_MEMORY, "spgemm: out of host memory");
    st = count_columns(ex, a, b, c, mark);
    if (st == HOMG_OK &&
        ((st = h->alloc.alloc((size_t)c->nnz * sizeof(int32_t), (void **)&c->col_idx, h->alloc.user)) != HOMG_OK ||
         (st = h->alloc.alloc((size_t)c->nnz * sizeof(float), &c->values, h->alloc.user)) != HOMG_OK))
        st = homg_exec_fail(ex, st, "spgemm: allocating %d entries", c->nnz);
    if (st == HOMG_OK)
        fill_columns(a, b, c, mark);
    free(mark);
    return st;
}

/* plan NULL: one product, nothing kept (the CPU keeps no plan either way). */
homg_status homg_cpu_sparse_spgemm(kernel_exec *ex, void *handle, const csr_matrix *a, const csr_matrix *b,
                                   csr_matrix *c, void **plan)
{
    cpu_handle *h = (cpu_handle *)handle;
    homg_status st;
    if (plan)
        *plan = NULL;
    memset(c, 0, sizeof *c);
    c->nrows = a->nrows;
    c->ncols = b->ncols;
    c->precision = HOMG_FLOAT32;
    if (a->ncols != b->nrows)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "spgemm: %d columns times %d rows", a->ncols, b->nrows);
    st = h->alloc.alloc(((size_t)a->nrows + 1) * sizeof(int32_t), (void **)&c->row_ptr, h->alloc.user);
    if (st != HOMG_OK)
        return homg_exec_fail(ex, st, "spgemm: allocating the row pointers");
    st = spgemm_pattern(ex, h, a, b, c);
    if (st == HOMG_OK)
        st = spgemm_numeric(ex, a, b, c);
    if (st != HOMG_OK) {
        h->alloc.free(c->row_ptr, h->alloc.user);
        h->alloc.free(c->col_idx, h->alloc.user);
        h->alloc.free(c->values, h->alloc.user);
        memset(c, 0, sizeof *c);
    }
    return st;
}

homg_status homg_cpu_sparse_spgemm_values(kernel_exec *ex, void *handle, void *plan, const csr_matrix *a,
                                          const csr_matrix *b, csr_matrix *c)
{
    (void)handle;
    (void)plan;
    return spgemm_numeric(ex, a, b, c);
}

void homg_cpu_sparse_spgemm_free(kernel_exec *ex, void *handle, void *plan)
{
    (void)ex;
    (void)handle;
    (void)plan;
}

const sparse_kernels homg_cpu_sparse_kernels = { SPARSE_KERNELS(HOMG_KERNEL_CPU_INIT) };
