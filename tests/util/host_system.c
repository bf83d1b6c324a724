/* host_system.c -- linear systems on the host for checks (host_system.h). */
#include "host_system.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void *must_alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "homg_test_fetch: out of host memory\n");
        abort();
    }
    return p;
}

static void must_copy(homg_ctx *ctx, void *host, const void *src, size_t bytes)
{
    if (homg_copy_to_host(ctx, host, src, bytes) != HOMG_OK) {
        fprintf(stderr, "homg_test_fetch: %s\n", homg_ctx_last_error(ctx));
        abort();
    }
}

/* n values of precision p in ctx's memory, as malloc'd doubles. */
static double *fetch_values(homg_ctx *ctx, const void *src, size_t n, homg_precision p)
{
    size_t vb = p == HOMG_FLOAT32 ? sizeof(float) : sizeof(double);
    void *t = must_alloc(n * vb);
    double *out = (double *)must_alloc(n * sizeof(double));
    must_copy(ctx, t, src, n * vb);
    for (size_t k = 0; k < n; k++)
        out[k] = p == HOMG_FLOAT32 ? ((float *)t)[k] : ((double *)t)[k];
    free(t);
    return out;
}

homg_test_system homg_test_fetch(homg_ctx *ctx, const homg_fem *fem)
{
    homg_csr a = homg_fem_matrix(fem);
    homg_test_system s;
    if (homg_ctx_synchronize(ctx) != HOMG_OK) {
        fprintf(stderr, "homg_test_fetch: %s\n", homg_ctx_last_error(ctx));
        abort();
    }
    s.m.nrows = a.nrows;
    s.m.ncols = a.ncols;
    s.m.nnz = a.nnz;
    s.m.row_ptr = (int32_t *)must_alloc(((size_t)a.nrows + 1) * sizeof(int32_t));
    s.m.col_idx = (int32_t *)must_alloc((size_t)a.nnz * sizeof(int32_t));
    must_copy(ctx, s.m.row_ptr, a.row_ptr, ((size_t)a.nrows + 1) * sizeof(int32_t));
    must_copy(ctx, s.m.col_idx, a.col_idx, (size_t)a.nnz * sizeof(int32_t));
    s.m.values = fetch_values(ctx, a.values, (size_t)a.nnz, a.precision);
    s.rhs = fetch_values(ctx, homg_fem_rhs(fem), (size_t)a.nrows, a.precision);
    return s;
}

void homg_test_system_free(homg_test_system *s)
{
    homg_host_csr_free(&s->m);
    free(s->rhs);
    s->rhs = NULL;
}

double homg_test_csr_entry(const homg_host_csr *a, int32_t i, int32_t j)
{
    for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
        if (a->col_idx[k] == j)
            return a->values[k];
    return 0;
}

double homg_test_residual(const homg_host_csr *a, const double *b, const double *x)
{
    double rr = 0, bb = 0;
    for (int32_t i = 0; i < a->nrows; i++) {
        double s = b[i];
        for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
            s -= a->values[k] * x[a->col_idx[k]];
        rr += s * s;
        bb += b[i] * b[i];
    }
    return bb > 0 ? sqrt(rr / bb) : sqrt(rr);
}
