/* coarse.c -- the coarsest level's solver: a dense inverse from a Cholesky
 * factorisation on the host at set-up, applied as one dense product on the
 * backend (the coarse mesh is small: at most GMG_DENSE_MAX rows), or one cycle
 * of homg's AMG (any size). */
#include "amg/amg_internal.h" /* homg__amg_apply_raw: no entry checks inside a captured graph */
#include "gmg_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GMG_DENSE_MAX 4096

homg_status homg__gmg_dense_inverse(homg_ctx *ctx, const homg_host_csr *a, double *inv)
{
    int32_t n = a->nrows;
    double *l = (double *)calloc((size_t)n * n + 1, sizeof *l);
    if (!l)
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "GMG coarse solver: out of host memory");
    for (int32_t i = 0; i < n; i++)
        for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
            if (a->col_idx[k] <= i)
                l[(size_t)i * n + a->col_idx[k]] = a->values[k];
    for (int32_t j = 0; j < n; j++) { /* L L^T, row-major lower triangle */
        double d = l[(size_t)j * n + j], ajj = d;
        for (int32_t k = 0; k < j; k++)
            d -= l[(size_t)j * n + k] * l[(size_t)j * n + k];
        if (!(d > 1e-12 * fabs(ajj))) { /* relative: rounding leaves singular matrices tiny pivots */
            free(l);
            return homg__fail(ctx, HOMG_ERROR_NUMERIC,
                              "GMG coarse solver: the coarsest matrix is not positive definite (pivot %g at row %d)", d,
                              (int)j);
        }
        d = sqrt(d);
        l[(size_t)j * n + j] = d;
        for (int32_t i = j + 1; i < n; i++) {
            double s = l[(size_t)i * n + j];
            for (int32_t k = 0; k < j; k++)
                s -= l[(size_t)i * n + k] * l[(size_t)j * n + k];
            l[(size_t)i * n + j] = s / d;
        }
    }
    for (int32_t c = 0; c < n; c++) {    /* column c of A^-1: L y = e_c, L^T x = y */
        double *x = inv + (size_t)c * n; /* A^-1 is symmetric: rows = columns */
        for (int32_t i = 0; i < n; i++) {
            double s = i == c ? 1.0 : 0.0;
            for (int32_t k = c; k < i; k++)
                s -= l[(size_t)i * n + k] * x[k];
            x[i] = i < c ? 0.0 : s / l[(size_t)i * n + i];
        }
        for (int32_t i = n - 1; i >= 0; i--) {
            double s = x[i];
            for (int32_t k = i + 1; k < n; k++)
                s -= l[(size_t)k * n + i] * x[k];
            x[i] = s / l[(size_t)i * n + i];
        }
    }
    free(l);
    return HOMG_OK;
}

static homg_status setup_dense(homg_gmg *g, const gmg_level *lv)
{
    int32_t n = lv->rows;
    homg_host_csr d;
    homg_status st;
    if (n > GMG_DENSE_MAX)
        return homg__fail(g->ctx, HOMG_ERROR_UNSUPPORTED,
                          "homg_gmg_create: the coarsest level has %d rows, more than the dense Cholesky solver's "
                          "%d: use coarse_solver AMG or a coarser mesh",
                          (int)n, GMG_DENSE_MAX);
    memset(&d, 0, sizeof d);
    d.nrows = d.ncols = n;
    d.nnz = n * n;
    d.row_ptr = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
    d.col_idx = (int32_t *)malloc(((size_t)n * n + 1) * sizeof(int32_t));
    d.values = (double *)malloc(((size_t)n * n + 1) * sizeof(double));
    if (!d.row_ptr || !d.col_idx || !d.values) {
        homg_host_csr_free(&d);
        return homg__fail(g->ctx, HOMG_ERROR_OUT_OF_MEMORY, "GMG coarse solver: out of host memory");
    }
    for (int32_t i = 0; i <= n; i++)
        d.row_ptr[i] = i * n;
    for (size_t k = 0; k < (size_t)n * n; k++)
        d.col_idx[k] = (int32_t)(k % (size_t)n);
    st = homg__gmg_dense_inverse(g->ctx, &lv->host_a, d.values);
    if (st == HOMG_OK)
        st = homg__gmg_op_upload(g, &d, &g->coarse_op, "GMG coarse inverse");
    homg_host_csr_free(&d);
    return st;
}

homg_status homg__gmg_coarse_setup(homg_gmg *g)
{
    const gmg_level *lv = &g->lv[g->nlevels - 1];
    if (g->desc.coarse_solver == HOMG_GMG_COARSE_SOLVER_AMG) {
        homg_csr view = { lv->a.csr.nrows,   lv->a.csr.ncols,  lv->a.csr.nnz, lv->a.csr.row_ptr,
                          lv->a.csr.col_idx, lv->a.csr.values, HOMG_FLOAT64,  HOMG_MEMORY_CONTEXT };
        homg_status st = homg_amg_create(g->ctx, &view, NULL, &g->amg);
        if (st != HOMG_OK)
            return homg__fail(g->ctx, st, "homg_gmg_create: AMG on the coarsest level: %s",
                              homg_ctx_last_error(g->ctx));
        return HOMG_OK;
    }
    return setup_dense(g, lv);
}

homg_status homg__gmg_coarse_solve(homg_gmg *g, const double *b, double *x)
{
    if (g->amg)
        return homg__amg_apply_raw(g->amg, b, x);
    return homg__gmg_op_apply(g, &g->coarse_op, b, x, 1.0, 0.0);
}
