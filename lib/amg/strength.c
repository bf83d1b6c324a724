/* strength.c -- the strength graph of a level for smoothed aggregation.
 *
 * Entry (i, j) is strong when (|a_ij| + |a_ji|) / 2 >= theta sqrt(|a_ii a_jj|)
 * (the classical symmetric measure of Vanek, Mandel and Brezina), theta
 * capped per pair of rows (amg_strong in kernels/amg/amg_common.h).  Aggregates
 * grow only along strong entries, so on an anisotropic problem they follow the
 * strong direction, and the prolongator is smoothed with the filtered matrix
 * (the strong entries, the weak ones added to the diagonal so that row sums
 * stay), which keeps it from spreading across weak couplings.  theta < 0
 * (desc.strength_theta) turns filtering off: the graph is A itself.
 */
#include "amg_internal.h"

homg_status homg__amg_strength(homg_amg *amg, int l, csr_matrix *s)
{
    homg_ctx *ctx = amg->ctx;
    kernel_exec *ex = &ctx->ex;
    const csr_matrix *a = &amg->lv[l].a;
    double theta = amg->desc.strength_theta;
    float *diag = NULL, *rowmax = NULL;
    int32_t *cnt = NULL, nnz = 0;
    homg_status st;
    HOMG_TRY(homg__mat_alloc(ctx, a->nrows, a->ncols, a->nnz, HOMG_FLOAT32, s, "strength graph"));
    st = homg__alloc_array(ctx, (size_t)a->nrows + 1, sizeof(float), (void **)&diag, "strength graph");
    if (st == HOMG_OK)
        st = homg__alloc_array(ctx, (size_t)a->nrows + 1, sizeof(float), (void **)&rowmax, "strength graph");
    if (st == HOMG_OK)
        st = homg__alloc_array(ctx, (size_t)a->nrows + 1, sizeof(int32_t), (void **)&cnt, "strength graph");
    if (st == HOMG_OK && (st = AMG_AK(amg)->diag(ex, a, 0, diag)) == HOMG_OK &&
        (st = AMG_AK(amg)->strength_rowmax(ex, a, diag, rowmax)) == HOMG_OK &&
        (st = AMG_AK(amg)->strength_count(ex, a, diag, rowmax, theta < 0 ? 0.0 : theta, cnt)) == HOMG_OK &&
        (st = AMG_SK(amg)->scan_i32(ex, amg->handle, cnt, s->row_ptr, a->nrows, s->row_ptr + a->nrows)) == HOMG_OK)
        st = AMG_AK(amg)->strength_fill(ex, a, diag, rowmax, theta < 0 ? 0.0 : theta, s);
    if (st != HOMG_OK && st != HOMG_ERROR_OUT_OF_MEMORY)
        st = homg__backend_fail(ctx, st, "strength graph");
    if (st == HOMG_OK)
        st = homg__read(ctx, &nnz, s->row_ptr + a->nrows, sizeof nnz);
    s->nnz = nnz;
    homg__free(ctx, diag);
    homg__free(ctx, rowmax);
    homg__free(ctx, cnt);
    if (st != HOMG_OK)
        homg__mat_free(ctx, s);
    return st;
}
