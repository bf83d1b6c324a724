/* galerkin.c -- prolongators and coarse matrices.
 *
 * Smoothed aggregation (seed 000, eqs. 5 and 6): the tentative prolongator has
 * a single 1 per row, in the column of the row's aggregate; it is smoothed by
 * one damped Jacobi step, P = (I - w / rho D^-1 A_F) P_tent, with w =
 * prolong_weight, A_F the filtered matrix of the strength graph (strength.c)
 * and rho an estimate of rho(D^-1 A_F) from above (spectrum.c).  P_tent is
 * never built: row i of A_F P_tent sums a_ij per aggregate (amg_sa_row), one
 * counting and one filling pass, where a general SpGEMM took several times the
 * time and a work buffer larger than A_F (issue 10, item 9).
 * The coarse matrix is R A P with R = P^T, as two SpGEMMs; A P and the
 * products' plans are freed at once (they held more memory than the whole
 * hierarchy), so re-setup runs both products again and copies the values.
 */
#include "amg_internal.h"

#include <string.h>

homg_status homg__amg_smoothed_prolongator(homg_amg *amg, int l, int32_t nagg, const csr_matrix *af)
{
    homg_ctx *ctx = amg->ctx;
    kernel_exec *ex = &ctx->ex;
    const amg_kernels *ak = AMG_AK(amg);
    amg_level *lv = &amg->lv[l];
    int32_t n = lv->a.nrows, nnz = 0, *cnt = NULL;
    csr_matrix *p = &lv->p;
    float rho = 1;
    homg_status st;
    memset(p, 0, sizeof *p);
    /* The pattern: the row pointers from the counts, then the columns and values. */
    HOMG_TRY(homg__alloc_array(ctx, (size_t)n + 1, sizeof(int32_t), (void **)&p->row_ptr, "prolongator"));
    HOMG_TRY(homg__alloc_array(ctx, (size_t)n, sizeof(int32_t), (void **)&cnt, "prolongator"));
    st = ak->prolong_sa_count(ex, af, lv->agg, cnt);
    if (st == HOMG_OK)
        st = AMG_SK(amg)->scan_i32(ex, amg->handle, cnt, p->row_ptr, n, p->row_ptr + n);
    homg__free(ctx, cnt);
    if (st != HOMG_OK)
        return homg__backend_fail(ctx, st, "smoothing the prolongator");
    HOMG_TRY(homg__read(ctx, &nnz, p->row_ptr + n, sizeof nnz));
    p->nrows = n;
    p->ncols = nagg;
    p->nnz = nnz;
    p->precision = HOMG_FLOAT32;
    HOMG_TRY(homg__alloc_array(ctx, (size_t)nnz, sizeof(int32_t), (void **)&p->col_idx, "prolongator"));
    HOMG_TRY(homg__alloc_array(ctx, (size_t)nnz, sizeof(float), &p->values, "prolongator"));
    st = homg__amg_spectral_bound(amg, af, &rho);
    if (st == HOMG_OK)
        st = homg__write(ctx, amg->rho, &rho, sizeof rho);
    if (st == HOMG_OK && (st = ak->prolong_sa_fill(ex, af, lv->agg, amg->desc.prolong_weight, amg->rho, p)) != HOMG_OK)
        st = homg__backend_fail(ctx, st, "smoothing the prolongator");
    return st;
}

/* ac = R (A P) of level l; neither A P nor the products' work buffers outlive
 * the call (without a plan the CUDA backend uses cusparseSpGEMM's ALG2, whose
 * buffers are a fraction of the reuse API's: sparse.cu). */
static homg_status rap(homg_amg *amg, int l, csr_matrix *ac)
{
    kernel_exec *ex = &amg->ctx->ex;
    const sparse_kernels *sk = AMG_SK(amg);
    amg_level *lv = &amg->lv[l];
    csr_matrix ap, r;
    homg_status st = sk->spgemm(ex, amg->handle, &lv->a, &lv->p, &ap, NULL); /* no plan: one product */
    if (st != HOMG_OK)
        return homg__backend_fail(amg->ctx, st, "Galerkin product A P");
    /* R = P^T only for this product: the cycle restricts with P itself */
    st = homg__mat_alloc(amg->ctx, lv->p.ncols, lv->p.nrows, lv->p.nnz, HOMG_FLOAT32, &r, "restriction");
    if (st != HOMG_OK) {
        homg__mat_free(amg->ctx, &ap);
        return st;
    }
    st = sk->transpose(ex, amg->handle, &lv->p, &r);
    if (st == HOMG_OK)
        st = sk->spgemm(ex, amg->handle, &r, &ap, ac, NULL);
    homg__mat_free(amg->ctx, &r);
    homg__mat_free(amg->ctx, &ap);
    if (st != HOMG_OK)
        return homg__backend_fail(amg->ctx, st, "Galerkin product R (A P)");
    return HOMG_OK;
}

homg_status homg__amg_galerkin(homg_amg *amg, int l)
{
    homg__amg_phase(amg, HOMG_AMG_PHASE_GALERKIN);
    return rap(amg, l, &amg->lv[l + 1].a);
}

/* Re-setup: the product again, its values copied into level l+1's arrays
 * (captured CUDA graphs point at them); same patterns, so the same pattern. */
homg_status homg__amg_galerkin_values(homg_amg *amg, int l)
{
    homg_ctx *ctx = amg->ctx;
    csr_matrix *ac = &amg->lv[l + 1].a, fresh;
    homg_status st;
    homg__amg_phase(amg, HOMG_AMG_PHASE_GALERKIN);
    HOMG_TRY(rap(amg, l, &fresh));
    if (fresh.nnz != ac->nnz)
        st = homg__fail(ctx, HOMG_ERROR_NUMERIC, "re-setup: level %d's Galerkin product has %d entries, not %d", l + 1,
                        (int)fresh.nnz, (int)ac->nnz);
    else if ((st = ctx->mem->copy(&ctx->ex, ac->values, fresh.values, (size_t)ac->nnz * sizeof(float), HOMG_D2D)) !=
             HOMG_OK)
        st = homg__backend_fail(ctx, st, "re-setup: Galerkin values");
    homg__mat_free(ctx, &fresh);
    return st;
}
