/* patch.c -- the patch partition of the patch block-Jacobi smoother (seed
 * 000, 5.2.1: "patches from the aggregates").
 *
 * A level's patches are the groups of its rows that share an ancestor a few
 * levels down -- the smallest number of levels whose mean group reaches half of
 * patch_size -- so a patch is a union of whole aggregates; groups larger than
 * patch_size are cut into near-equal chunks of consecutive rows, ordered by
 * aggregate.  The level's matrix is then split into the patchSPM parts: inner
 * (inside a patch, off the diagonal, with patch-local columns), diagonal and
 * boundary (between patches).
 */
#include "amg_internal.h"

#include <string.h>

void homg__amg_patches_free(homg_amg *amg, amg_patches *pt)
{
    homg_ctx *ctx = amg->ctx;
    homg__free(ctx, pt->start);
    homg__free(ctx, pt->perm);
    homg__free(ctx, pt->inner_ptr);
    homg__free(ctx, pt->inner_col);
    homg__free(ctx, pt->inner_val);
    homg__free(ctx, pt->diag);
    homg__free(ctx, pt->block_diag);
    homg__free(ctx, pt->jac_inv);
    homg__free(ctx, pt->patch_of);
    homg__free(ctx, pt->pos);
    homg__mat_free(ctx, &pt->boundary);
    memset(pt, 0, sizeof *pt);
}

static homg_status level_patches(homg_amg *amg, int l, int32_t *group, int32_t *head, int32_t *id, int32_t *cnt)
{
    homg_ctx *ctx = amg->ctx;
    kernel_exec *ex = &ctx->ex;
    const sparse_kernels *sk = AMG_SK(amg);
    const amg_kernels *ak = AMG_AK(amg);
    amg_level *lv = &amg->lv[l];
    amg_patches *pt = &lv->pt;
    int32_t n = lv->a.nrows, count = 0, inner = 0, boundary = 0;
    int j = 1;

    /* The ancestor level: mean group size at least half a patch. */
    while (l + j < amg->nlevels - 1 && (double)n / amg->lv[l + j].a.nrows < 0.5 * amg->desc.patch_size)
        j++;
    HOMG_TRY_BACKEND(ctx, ctx->mem->copy(ex, group, lv->agg, (size_t)n * sizeof(int32_t), HOMG_D2D), "patches");
    for (int m = 1; m < j; m++)
        HOMG_TRY_BACKEND(amg->ctx, ak->agg_compose(ex, n, group, amg->lv[l + m].agg, group), "patches");

    HOMG_TRY(homg__alloc_array(amg->ctx, (size_t)n, sizeof(int32_t), (void **)&pt->perm, "patches"));
    HOMG_TRY_BACKEND(amg->ctx, ak->patch_sort(ex, amg->handle, n, group, lv->agg, pt->perm),
                     "sorting rows into patches");
    HOMG_TRY_BACKEND(amg->ctx, ak->patch_heads(ex, n, group, pt->perm, amg->desc.patch_size, head), "patches");
    HOMG_TRY_BACKEND(amg->ctx, sk->scan_i32(ex, amg->handle, head, id, n, amg->count), "patches");
    HOMG_TRY(homg__amg_read_count(amg, &count));
    pt->count = count;
    pt->max_size = amg->desc.patch_size;
    HOMG_TRY(homg__alloc_array(amg->ctx, (size_t)count + 1, sizeof(int32_t), (void **)&pt->start, "patches"));
    HOMG_TRY(homg__alloc_array(amg->ctx, (size_t)n, sizeof(int32_t), (void **)&pt->patch_of, "patches"));
    HOMG_TRY(homg__alloc_array(amg->ctx, (size_t)n, sizeof(int32_t), (void **)&pt->pos, "patches"));
    HOMG_TRY_BACKEND(amg->ctx, ak->patch_index(ex, n, pt->perm, head, id, count, pt->start, pt->patch_of, pt->pos),
                     "patches");

    /* patchSPM: counts, pointers, entries */
    HOMG_TRY(homg__alloc_array(amg->ctx, (size_t)n + 1, sizeof(int32_t), (void **)&pt->inner_ptr, "patch matrix"));
    HOMG_TRY(
        homg__alloc_array(amg->ctx, (size_t)n + 1, sizeof(int32_t), (void **)&pt->boundary.row_ptr, "patch matrix"));
    HOMG_TRY_BACKEND(amg->ctx, ak->patch_count(ex, &lv->a, pt->patch_of, pt->pos, cnt, head), "patch matrix");
    HOMG_TRY_BACKEND(amg->ctx, sk->scan_i32(ex, amg->handle, cnt, pt->inner_ptr, n, pt->inner_ptr + n), "patch matrix");
    HOMG_TRY_BACKEND(amg->ctx, sk->scan_i32(ex, amg->handle, head, pt->boundary.row_ptr, n, pt->boundary.row_ptr + n),
                     "patch matrix");
    HOMG_TRY(homg__read(ctx, &inner, pt->inner_ptr + n, sizeof inner));
    HOMG_TRY(homg__read(ctx, &boundary, pt->boundary.row_ptr + n, sizeof boundary));
    pt->inner_nnz = inner;
    pt->boundary.nrows = pt->boundary.ncols = n;
    pt->boundary.nnz = boundary;
    pt->boundary.precision = HOMG_FLOAT32;
    HOMG_TRY(homg__alloc_array(amg->ctx, (size_t)inner, sizeof(int32_t), (void **)&pt->inner_col, "patch matrix"));
    HOMG_TRY(homg__alloc_array(amg->ctx, (size_t)inner, sizeof(float), (void **)&pt->inner_val, "patch matrix"));
    HOMG_TRY(homg__alloc_array(amg->ctx, (size_t)n, sizeof(float), (void **)&pt->diag, "patch matrix"));
    HOMG_TRY(homg__alloc_array(amg->ctx, (size_t)n, sizeof(float), (void **)&pt->block_diag, "patch matrix"));
    HOMG_TRY(homg__alloc_array(amg->ctx, (size_t)n, sizeof(float), (void **)&pt->jac_inv, "patch matrix"));
    HOMG_TRY(
        homg__alloc_array(amg->ctx, (size_t)boundary, sizeof(int32_t), (void **)&pt->boundary.col_idx, "patch matrix"));
    HOMG_TRY(homg__alloc_array(amg->ctx, (size_t)boundary, sizeof(float), &pt->boundary.values, "patch matrix"));
    HOMG_TRY_BACKEND(amg->ctx, ak->patch_fill(ex, &lv->a, pt->patch_of, pt->pos, amg->desc.patch_l1 > 0, pt),
                     "patch matrix");
    return HOMG_OK;
}

homg_status homg__amg_patches(homg_amg *amg)
{
    int32_t n = amg->lv[0].a.nrows;
    int32_t *group = NULL, *head = NULL, *id = NULL, *cnt = NULL;
    homg_status st = homg__alloc_array(amg->ctx, (size_t)n + 1, sizeof(int32_t), (void **)&group, "patches");
    if (st == HOMG_OK)
        st = homg__alloc_array(amg->ctx, (size_t)n + 1, sizeof(int32_t), (void **)&head, "patches");
    if (st == HOMG_OK)
        st = homg__alloc_array(amg->ctx, (size_t)n + 1, sizeof(int32_t), (void **)&id, "patches");
    if (st == HOMG_OK)
        st = homg__alloc_array(amg->ctx, (size_t)n + 1, sizeof(int32_t), (void **)&cnt, "patches");
    for (int l = 0; st == HOMG_OK && l < amg->nlevels - 1; l++)
        st = level_patches(amg, l, group, head, id, cnt);
    homg__free(amg->ctx, group);
    homg__free(amg->ctx, head);
    homg__free(amg->ctx, id);
    homg__free(amg->ctx, cnt);
    return st;
}

homg_status homg__amg_patch_values(homg_amg *amg)
{
    for (int l = 0; l < amg->nlevels - 1; l++) {
        amg_level *lv = &amg->lv[l];
        HOMG_TRY_BACKEND(amg->ctx,
                         AMG_AK(amg)->patch_fill(&amg->ctx->ex, &lv->a, lv->pt.patch_of, lv->pt.pos,
                                                 amg->desc.patch_l1 > 0, &lv->pt),
                         "patch matrix");
    }
    return HOMG_OK;
}
