/* galerkin.c -- prolongators and coarse matrices.
 *
 * Smoothed aggregation (seed 000, eqs. 5 and 6): the tentative prolongator has
 * a single 1 per row, in the column of the row's aggregate; it is smoothed by
 * one damped Jacobi step, P = (I - w / rho D^-1 A_F) P_tent, with w =
 * prolong_weight, A_F the filtered matrix of the strength graph (strength.c)
 * and rho an estimate of rho(D^-1 A_F) from above (spectrum.c).
 * The coarse matrix is R A P with R = P^T, as two SpGEMMs whose symbolic phases
 * are kept, so re-setup recomputes only the values.
 */
#include "amg_internal.h"

#include <string.h>

homg_status homg__amg_smoothed_prolongator(homg_amg *amg, int l, int32_t nagg, const csr_matrix *af)
{
    homg_ctx *ctx = amg->ctx;
    kernel_exec *ex = &ctx->ex;
    const sparse_kernels *sk = AMG_SK(amg);
    const amg_kernels *ak = AMG_AK(amg);
    amg_level *lv = &amg->lv[l];
    int32_t n = lv->a.nrows;
    csr_matrix pt, ap;
    void *plan = NULL;
    float rho = 1;
    homg_status st;
    memset(&ap, 0, sizeof ap);
    HOMG_TRY(homg__mat_alloc(ctx, n, nagg, n, HOMG_FLOAT32, &pt, "tentative prolongator"));
    st = ak->prolong_tentative(ex, n, lv->agg, NULL, &pt);
    if (st == HOMG_OK)
        st = sk->spgemm(ex, amg->handle, af, &pt, &ap, &plan);
    if (st != HOMG_OK)
        st = homg__backend_fail(ctx, st, "smoothing the prolongator");
    if (st == HOMG_OK)
        st = homg__amg_spectral_bound(amg, af, &rho);
    if (st == HOMG_OK)
        st = homg__write(ctx, amg->rho, &rho, sizeof rho);
    if (st == HOMG_OK && (st = ak->prolong_smooth(ex, af, lv->agg, amg->desc.prolong_weight, amg->rho, &ap)) != HOMG_OK)
        st = homg__backend_fail(ctx, st, "smoothing the prolongator");
    sk->spgemm_free(ex, amg->handle, plan);
    homg__mat_free(ctx, &pt);
    if (st == HOMG_OK)
        lv->p = ap; /* A P_tent's pattern, P's values */
    else
        homg__mat_free(ctx, &ap);
    return st;
}

homg_status homg__amg_galerkin(homg_amg *amg, int l)
{
    homg_ctx *ctx = amg->ctx;
    kernel_exec *ex = &ctx->ex;
    const sparse_kernels *sk = AMG_SK(amg);
    amg_level *lv = &amg->lv[l];
    HOMG_TRY(homg__mat_alloc(ctx, lv->p.ncols, lv->p.nrows, lv->p.nnz, HOMG_FLOAT32, &lv->r, "restriction"));
    HOMG_TRY_BACKEND(amg->ctx, sk->transpose(ex, amg->handle, &lv->p, &lv->r), "restriction");
    HOMG_TRY_BACKEND(amg->ctx, sk->spgemm(ex, amg->handle, &lv->a, &lv->p, &lv->ap, &lv->plan_ap),
                     "Galerkin product A P");
    HOMG_TRY_BACKEND(amg->ctx, sk->spgemm(ex, amg->handle, &lv->r, &lv->ap, &amg->lv[l + 1].a, &lv->plan_rap),
                     "Galerkin product R (A P)");
    return HOMG_OK;
}

homg_status homg__amg_galerkin_values(homg_amg *amg, int l)
{
    kernel_exec *ex = &amg->ctx->ex;
    const sparse_kernels *sk = AMG_SK(amg);
    amg_level *lv = &amg->lv[l];
    HOMG_TRY_BACKEND(amg->ctx, sk->spgemm_values(ex, amg->handle, lv->plan_ap, &lv->a, &lv->p, &lv->ap),
                     "Galerkin values A P");
    HOMG_TRY_BACKEND(amg->ctx, sk->spgemm_values(ex, amg->handle, lv->plan_rap, &lv->r, &lv->ap, &amg->lv[l + 1].a),
                     "Galerkin values R (A P)");
    return HOMG_OK;
}
