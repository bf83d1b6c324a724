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
 * The couplings are computed once per entry (each needs a_ji, a binary search
 * in row j) and read by the count and fill passes, where each pass searched
 * again (three passes, 7 of the 128^3 cube's 40 ms set-up).  *lumped tells
 * whether the filtered matrix differs from A (a dropped entry is not 0): when
 * it does not, the prolongator's spectral bound serves the smoother too.
 */
#include "amg_internal.h"

homg_status homg__amg_strength(homg_amg *amg, int l, csr_matrix *s, int *lumped)
{
    homg_ctx *ctx = amg->ctx;
    kernel_exec *ex = &ctx->ex;
    const amg_kernels *ak = AMG_AK(amg);
    const csr_matrix *a = &amg->lv[l].a;
    float theta = amg->desc.strength_theta < 0 ? 0.0f : (float)amg->desc.strength_theta;
    float *diag = NULL, *rowmax = NULL, *sc = NULL;
    int32_t *cnt = NULL, host[2] = { 0, 0 };
    homg_status st;
    HOMG_TRY(homg__mat_alloc(ctx, a->nrows, a->ncols, a->nnz, HOMG_FLOAT32, s, "strength graph"));
    st = homg__alloc_array(ctx, (size_t)a->nrows + 1, sizeof(float), (void **)&diag, "strength graph");
    if (st == HOMG_OK)
        st = homg__alloc_array(ctx, (size_t)a->nrows + 1, sizeof(float), (void **)&rowmax, "strength graph");
    if (st == HOMG_OK)
        st = homg__alloc_array(ctx, (size_t)a->nnz + 1, sizeof(float), (void **)&sc, "strength graph");
    if (st == HOMG_OK)
        st = homg__alloc_array(ctx, (size_t)a->nrows + 1, sizeof(int32_t), (void **)&cnt, "strength graph");
    /* The couplings once (one binary search per entry), then count and fill
     * from them; the size and the lumped flag come back in one read. */
    if (st == HOMG_OK && (st = ak->diag(ex, a, 0, diag)) == HOMG_OK &&
        (st = ak->strength_coupling(ex, a, diag, sc, rowmax)) == HOMG_OK &&
        (st = ak->strength_count(ex, a, sc, rowmax, theta, cnt)) == HOMG_OK &&
        (st = AMG_SK(amg)->scan_i32(ex, amg->handle, cnt, s->row_ptr, a->nrows, amg->count)) == HOMG_OK &&
        (st = ak->strength_fill(ex, a, sc, rowmax, theta, s, amg->count + 1)) == HOMG_OK)
        st = ctx->mem->copy(ex, s->row_ptr + a->nrows, amg->count, sizeof(int32_t), HOMG_D2D);
    if (st != HOMG_OK && st != HOMG_ERROR_OUT_OF_MEMORY)
        st = homg__backend_fail(ctx, st, "strength graph");
    if (st == HOMG_OK)
        st = homg__read(ctx, host, amg->count, sizeof host);
    s->nnz = host[0];
    *lumped = host[1] != 0;
    homg__free(ctx, diag);
    homg__free(ctx, rowmax);
    homg__free(ctx, sc);
    homg__free(ctx, cnt);
    if (st != HOMG_OK)
        homg__mat_free(ctx, s);
    return st;
}
