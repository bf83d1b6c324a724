/* coarse.c -- the coarsest level's solver: a dense inverse from a Cholesky
 * factorisation on the backend at set-up (kernels/gmg/coarse.c: plain, host;
 * coarse.cu: cuSOLVER potrf/potrs), applied as one dense product on the
 * backend (the coarse mesh is small: at most GMG_DENSE_MAX rows), or one cycle
 * of homg's AMG (any size). */
#include "amg/amg_internal.h" /* homg__amg_apply_raw: no entry checks inside a captured graph */
#include "gmg_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GMG_DENSE_MAX 4096

static homg_status not_spd(homg_ctx *ctx, int pivot)
{
    return homg__fail(ctx, HOMG_ERROR_NUMERIC,
                      "GMG coarse solver: the coarsest matrix is not positive definite (pivot %d, at row %d)", pivot,
                      pivot - 1);
}

homg_status homg__gmg_dense_inverse(homg_ctx *ctx, const homg_host_csr *a, double *inv)
{
    csr_matrix m = { a->nrows, a->ncols, a->nnz, a->row_ptr, a->col_idx, a->values, HOMG_FLOAT64 };
    int pivot = 0;
    homg_status st = homg_cpu_gmg_dense_inverse(&ctx->ex, NULL, &m, inv, &pivot);
    if (st != HOMG_OK)
        return homg__backend_fail(ctx, st, "GMG coarse solver");
    return pivot ? not_spd(ctx, pivot) : HOMG_OK;
}

/* The dense inverse on the backend (plain Cholesky on the CPU, cuSOLVER on
 * CUDA) held as a dense CSR op: the cycle applies it as one product. */
static homg_status setup_dense(homg_gmg *g, const gmg_level *lv)
{
    homg_ctx *ctx = g->ctx;
    int32_t n = lv->rows;
    int pivot = 0;
    homg_status st;
    if (n > GMG_DENSE_MAX)
        return homg__fail(ctx, HOMG_ERROR_UNSUPPORTED,
                          "homg_gmg_create: the coarsest level has %d rows, more than the dense Cholesky solver's "
                          "%d: use coarse_solver AMG or a coarser mesh",
                          (int)n, GMG_DENSE_MAX);
    st = homg__mat_alloc(ctx, n, n, n * n, HOMG_FLOAT64, &g->coarse_op.csr, "GMG coarse inverse");
    /* the pattern where it lives: no host loop, no upload to wait for */
    if (st == HOMG_OK &&
        (st = GMG_GK(g)->dense_pattern(&ctx->ex, n, g->coarse_op.csr.row_ptr, g->coarse_op.csr.col_idx)) != HOMG_OK)
        homg__backend_fail(ctx, st, "GMG coarse solver");
    /* A^-1 is symmetric: the column-major inverse is its row-major CSR values */
    if (st == HOMG_OK && (st = GMG_GK(g)->dense_inverse(&ctx->ex, g->handle, &lv->a.csr,
                                                        (double *)g->coarse_op.csr.values, &pivot)) != HOMG_OK)
        homg__backend_fail(ctx, st, "GMG coarse solver");
    if (st == HOMG_OK && pivot)
        st = not_spd(ctx, pivot);
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
