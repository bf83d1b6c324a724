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
 * The coarse matrix is R A P with R = P^T, row by row of the coarse matrix
 * in one pass (kernels/amg/rap.c: no A P, one host read per level), where two
 * cuSPARSE SpGEMMs took 17 of the 128^3 cube's 40 ms set-up; those remain the
 * fallback for coarse rows of more than 512 columns.  Re-setup runs the
 * product again and copies the values (same patterns, so the same pattern).
 */
#include "amg_internal.h"

#include <string.h>

homg_status homg__amg_smoothed_prolongator(homg_amg *amg, int l, int32_t nagg, const csr_matrix *af, int lumped)
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
    if (st == HOMG_OK && !lumped) { /* A_F is A: the smoother's bound is this one */
        lv->rho = rho;
        lv->rho_set = 1;
    }
    if (st == HOMG_OK)
        st = homg__write(ctx, amg->rho, &rho, sizeof rho);
    if (st == HOMG_OK && (st = ak->prolong_sa_fill(ex, af, lv->agg, amg->desc.prolong_weight, amg->rho, p)) != HOMG_OK)
        st = homg__backend_fail(ctx, st, "smoothing the prolongator");
    return st;
}

/* ac = R (A P) by two SpGEMMs (the fallback of rap below); neither A P nor the
 * products' work buffers outlive the call (without a plan the CUDA backend
 * uses cusparseSpGEMM's ALG2, whose buffers are a fraction of the reuse
 * API's: sparse.cu). */
static homg_status spgemm_rap(homg_amg *amg, int l, const csr_matrix *r, csr_matrix *ac)
{
    kernel_exec *ex = &amg->ctx->ex;
    const sparse_kernels *sk = AMG_SK(amg);
    amg_level *lv = &amg->lv[l];
    csr_matrix ap;
    homg_status st = sk->spgemm(ex, amg->handle, &lv->a, &lv->p, &ap, NULL); /* no plan: one product */
    if (st != HOMG_OK)
        return homg__backend_fail(amg->ctx, st, "Galerkin product A P");
    st = sk->spgemm(ex, amg->handle, r, &ap, ac, NULL);
    homg__mat_free(amg->ctx, &ap);
    if (st != HOMG_OK)
        return homg__backend_fail(amg->ctx, st, "Galerkin product R (A P)");
    return HOMG_OK;
}

/* One try of the row-wise product (kernels/amg/rap.c) with `cap` columns per
 * coarse row: *fits = 0 when a row has more (nothing allocated then).  One
 * host read: the product's size together with the overflow flag. */
static homg_status own_rap_try(homg_amg *amg, int l, const csr_matrix *r, int32_t cap, csr_matrix *ac, int *fits)
{
    homg_ctx *ctx = amg->ctx;
    kernel_exec *ex = &ctx->ex;
    amg_level *lv = &amg->lv[l];
    int32_t nc = r->nrows, *slab_col = NULL, *cnt = NULL, host[2] = { 0, 0 };
    float *slab_val = NULL;
    homg_status st;
    *fits = 0;
    memset(ac, 0, sizeof *ac);
    st = homg__alloc_array(ctx, (size_t)nc * (size_t)cap, sizeof(int32_t), (void **)&slab_col, "Galerkin product");
    if (st == HOMG_OK)
        st = homg__alloc_array(ctx, (size_t)nc * (size_t)cap, sizeof(float), (void **)&slab_val, "Galerkin product");
    if (st == HOMG_OK)
        st = homg__alloc_array(ctx, (size_t)nc, sizeof(int32_t), (void **)&cnt, "Galerkin product");
    if (st == HOMG_OK)
        st = homg__alloc_array(ctx, (size_t)nc + 1, sizeof(int32_t), (void **)&ac->row_ptr, "Galerkin product");
    if (st == HOMG_OK &&
        ((st = AMG_AK(amg)->rap_rows(ex, &lv->a, &lv->p, r, cap, slab_col, slab_val, cnt, amg->count + 1)) != HOMG_OK ||
         (st = AMG_SK(amg)->scan_i32(ex, amg->handle, cnt, ac->row_ptr, nc, amg->count)) != HOMG_OK ||
         (st = ctx->mem->copy(ex, ac->row_ptr + nc, amg->count, sizeof(int32_t), HOMG_D2D)) != HOMG_OK))
        st = homg__backend_fail(ctx, st, "Galerkin product");
    if (st == HOMG_OK)
        st = homg__read(ctx, host, amg->count, sizeof host);
    if (st == HOMG_OK && !host[1]) {
        ac->nrows = ac->ncols = nc;
        ac->nnz = host[0];
        ac->precision = HOMG_FLOAT32;
        st = homg__alloc_array(ctx, (size_t)ac->nnz, sizeof(int32_t), (void **)&ac->col_idx, "Galerkin product");
        if (st == HOMG_OK)
            st = homg__alloc_array(ctx, (size_t)ac->nnz, sizeof(float), &ac->values, "Galerkin product");
        if (st == HOMG_OK && (st = AMG_AK(amg)->rap_compact(ex, cap, slab_col, slab_val, ac)) != HOMG_OK)
            st = homg__backend_fail(ctx, st, "Galerkin product");
        *fits = st == HOMG_OK;
    }
    homg__free(ctx, slab_col);
    homg__free(ctx, slab_val);
    homg__free(ctx, cnt);
    if (!*fits)
        homg__mat_free(ctx, ac);
    return st;
}

/* ac = P^T A P of level l: the row-wise product with 128, 256, then 512
 * columns per coarse row (from 512 at once where A_l's rows average more than
 * 20 entries: Galerkin levels' products are wider than their rows; a slab
 * above 128 columns at most twice A_l's entries), else the two SpGEMMs.  R = P^T only for the
 * product: the cycle restricts with P itself. */
static homg_status rap(homg_amg *amg, int l, csr_matrix *ac)
{
    homg_ctx *ctx = amg->ctx;
    amg_level *lv = &amg->lv[l];
    csr_matrix r;
    int fits = 0;
    int32_t cap = lv->a.nnz > 20 * (int64_t)lv->a.nrows ? 512 : 128;
    homg_status st = homg__mat_alloc(ctx, lv->p.ncols, lv->p.nrows, lv->p.nnz, HOMG_FLOAT32, &r, "restriction");
    if (st != HOMG_OK)
        return st;
    while (cap > 128 && (size_t)r.nrows * cap > 2 * (size_t)lv->a.nnz)
        cap /= 2;
    if ((st = AMG_SK(amg)->transpose(&ctx->ex, amg->handle, &lv->p, &r)) != HOMG_OK)
        st = homg__backend_fail(ctx, st, "restriction P^T");
    for (; st == HOMG_OK && !fits && cap <= 512 && (cap == 128 || (size_t)r.nrows * cap <= 2 * (size_t)lv->a.nnz);
         cap *= 2)
        st = own_rap_try(amg, l, &r, cap, ac, &fits);
    if (st == HOMG_OK && !fits) {
        homg__log(ctx, HOMG_LOG_INFO, "AMG: level %d's Galerkin product has rows of more than %d columns: SpGEMM",
                  l + 1, (int)(cap / 2));
        st = spgemm_rap(amg, l, &r, ac);
    }
    homg__mat_free(ctx, &r);
    return st;
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
