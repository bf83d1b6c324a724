/* patch.c -- CPU backend: the patch partition of a level (patches are
 * groups of aggregates, seed 000 5.2.1) and its patchSPM parts. */
#include <math.h>
#include <stdlib.h>

#include "amg_common.h"
#include "amg_kernels.h"

typedef struct sort_item {
    uint64_t key;
    int32_t row;
} sort_item;

static int by_key_then_row(const void *pa, const void *pb)
{
    const sort_item *a = (const sort_item *)pa, *b = (const sort_item *)pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->row > b->row) - (a->row < b->row);
}

homg_status homg_cpu_amg_patch_sort(kernel_exec *ex, void *handle, int32_t n, const int32_t *group, const int32_t *agg,
                                    int32_t *perm)
{
    sort_item *items = (sort_item *)malloc((size_t)(n > 0 ? n : 1) * sizeof *items);
    (void)handle;
    if (!items)
        return homg_exec_fail(ex, HOMG_ERROR_OUT_OF_MEMORY, "patch sort: out of host memory");
    for (int32_t i = 0; i < n; i++) {
        items[i].key = ((uint64_t)(uint32_t)group[i] << 32) | (uint32_t)agg[i];
        items[i].row = i;
    }
    qsort(items, (size_t)n, sizeof *items, by_key_then_row);
    for (int32_t i = 0; i < n; i++)
        perm[i] = items[i].row;
    free(items);
    return HOMG_OK;
}

homg_status homg_cpu_amg_patch_heads(kernel_exec *ex, int32_t n, const int32_t *group, const int32_t *perm,
                                     int32_t max_size, int32_t *head)
{
    (void)ex;
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN)
    for (int32_t p = 0; p < n; p++) {
        head[p] = amg_patch_head(n, group, perm, max_size, p);
    }
    return HOMG_OK;
}

homg_status homg_cpu_amg_patch_index(kernel_exec *ex, int32_t n, const int32_t *perm, const int32_t *head,
                                     const int32_t *id, int32_t count, int32_t *start, int32_t *patch_of, int32_t *pos)
{
    (void)ex;
    for (int32_t p = 0; p < n; p++) {
        int32_t patch = id[p] + head[p] - 1;
        if (head[p])
            start[id[p]] = p;
        patch_of[perm[p]] = patch;
        pos[perm[p]] = p;
    }
    start[count] = n;
    return HOMG_OK;
}

homg_status homg_cpu_amg_patch_count(kernel_exec *ex, const csr_matrix *a, const int32_t *patch_of, const int32_t *pos,
                                     int32_t *inner_cnt, int32_t *boundary_cnt)
{
    (void)ex;
#pragma omp parallel for schedule(static) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++) {
        int32_t in, bd;
        amg_patch_row_count(a->row_ptr, a->col_idx, i, patch_of, &in, &bd);
        inner_cnt[pos[i]] = in;
        boundary_cnt[i] = bd;
    }
    return HOMG_OK;
}

homg_status homg_cpu_amg_patch_fill(kernel_exec *ex, const csr_matrix *a, const int32_t *patch_of, const int32_t *pos,
                                    int l1, amg_patches *pt)
{
    const int32_t *rp = a->row_ptr, *ci = a->col_idx;
    const float *v = (const float *)a->values;
    float *bv = (float *)pt->boundary.values;
    (void)ex;
#pragma omp parallel for schedule(static) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++) {
        int32_t p = pos[i], base = pt->start[patch_of[i]];
        int32_t ki = pt->inner_ptr[p], kb = pt->boundary.row_ptr[i];
        float d = 0, l1_inner = 0, l1_boundary = 0, bd, jac;
        for (int32_t k = rp[i]; k < rp[i + 1]; k++) {
            int32_t j = ci[k];
            if (j == i) {
                d = v[k];
            } else if (patch_of[j] == patch_of[i]) {
                pt->inner_col[ki] = pos[j] - base;
                pt->inner_val[ki++] = v[k];
                l1_inner += fabsf(v[k]);
            } else {
                pt->boundary.col_idx[kb] = j;
                bv[kb++] = v[k];
                l1_boundary += fabsf(v[k]);
            }
        }
        bd = l1 ? d + l1_boundary : d;
        jac = HOMG_PATCH_L1_FRACTION * (bd + l1_inner);
        jac = bd > jac ? bd : jac;
        pt->diag[p] = d;
        pt->block_diag[p] = bd;
        pt->jac_inv[p] = jac > 0 ? 1.0f / jac : 0.0f;
    }
    return HOMG_OK;
}
