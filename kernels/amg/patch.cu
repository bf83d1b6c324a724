/* patch.cu -- CUDA backend: the patch partition of a level and its patchSPM
 * parts (twin of kernels/amg/patch.c; the sort is cub's stable radix sort
 * on (group, aggregate) keys of rows in row order, so ties keep row order as
 * the CPU's comparison sort does). */
#include <cub/device/device_radix_sort.cuh>

#include "amg_common.h"
#include "amg_kernels.h"
#include "sparse/sparse_util.cuh"

__global__ static void sort_keys_kernel(int32_t n, const int32_t *group, const int32_t *agg, uint64_t *key,
                                        int32_t *row)
{
    FOR_ROWS(i, n)
    {
        key[i] = ((uint64_t)(uint32_t)group[i] << 32) | (uint32_t)agg[i];
        row[i] = i;
    }
}

homg_status homg_cuda_amg_patch_sort(kernel_exec *ex, void *handle, int32_t n, const int32_t *group, const int32_t *agg,
                                     int32_t *perm)
{
    sparse_handle *h = (sparse_handle *)handle;
    cudaStream_t s = homg_cuda_stream(ex);
    uint64_t *kin = NULL, *kout = NULL;
    int32_t *rows = NULL;
    void *tmp = NULL;
    size_t bytes = 0;
    homg_status st;
    cudaError_t e;
    if (n <= 0)
        return HOMG_OK;
    st = handle_alloc(ex, h, (size_t)n * sizeof(uint64_t), (void **)&kin, "patch sort");
    if (st == HOMG_OK)
        st = handle_alloc(ex, h, (size_t)n * sizeof(uint64_t), (void **)&kout, "patch sort");
    if (st == HOMG_OK)
        st = handle_alloc(ex, h, (size_t)n * sizeof(int32_t), (void **)&rows, "patch sort");
    if (st == HOMG_OK) {
        sort_keys_kernel<<<launch_blocks(n), HOMG_THREADS, 0, s>>>(n, group, agg, kin, rows);
        e = cudaGetLastError();
        if (e == cudaSuccess)
            e = cub::DeviceRadixSort::SortPairs(NULL, bytes, kin, kout, rows, perm, n, 0, 64, s);
        if (e == cudaSuccess && (st = handle_scratch(ex, h, bytes, &tmp)) == HOMG_OK)
            e = cub::DeviceRadixSort::SortPairs(tmp, bytes, kin, kout, rows, perm, n, 0, 64, s);
        if (e != cudaSuccess)
            st = homg_cuda_fail(ex, e, "patch sort");
    }
    handle_free(h, kin);
    handle_free(h, kout);
    handle_free(h, rows);
    return st;
}

__global__ static void heads_kernel(int32_t n, const int32_t *group, const int32_t *perm, int32_t max_size,
                                    int32_t *head)
{
    FOR_ROWS(p, n) { head[p] = amg_patch_head(n, group, perm, max_size, p); }
}

homg_status homg_cuda_amg_patch_heads(kernel_exec *ex, int32_t n, const int32_t *group, const int32_t *perm,
                                      int32_t max_size, int32_t *head)
{
    if (max_size < 1)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "patch size %d", max_size);
    heads_kernel<<<launch_blocks(n), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(n, group, perm, max_size, head);
    HOMG_CUDA_LAUNCHED(ex, "patch_heads");
    return HOMG_OK;
}

__global__ static void index_kernel(int32_t n, const int32_t *perm, const int32_t *head, const int32_t *id,
                                    int32_t count, int32_t *start, int32_t *patch_of, int32_t *pos)
{
    FOR_ROWS(p, n)
    {
        if (head[p])
            start[id[p]] = p;
        patch_of[perm[p]] = id[p] + head[p] - 1;
        pos[perm[p]] = p;
        if (p == 0)
            start[count] = n;
    }
}

homg_status homg_cuda_amg_patch_index(kernel_exec *ex, int32_t n, const int32_t *perm, const int32_t *head,
                                      const int32_t *id, int32_t count, int32_t *start, int32_t *patch_of, int32_t *pos)
{
    index_kernel<<<launch_blocks(n), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(n, perm, head, id, count, start, patch_of,
                                                                              pos);
    HOMG_CUDA_LAUNCHED(ex, "patch_index");
    return HOMG_OK;
}

__global__ static void count_kernel(const int32_t *rp, const int32_t *ci, int32_t n, const int32_t *patch_of,
                                    const int32_t *pos, int32_t *inner_cnt, int32_t *boundary_cnt)
{
    FOR_ROWS(i, n)
    {
        int32_t in, bd;
        amg_patch_row_count(rp, ci, i, patch_of, &in, &bd);
        inner_cnt[pos[i]] = in;
        boundary_cnt[i] = bd;
    }
}

homg_status homg_cuda_amg_patch_count(kernel_exec *ex, const csr_matrix *a, const int32_t *patch_of, const int32_t *pos,
                                      int32_t *inner_cnt, int32_t *boundary_cnt)
{
    count_kernel<<<launch_blocks(a->nrows), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(
        a->row_ptr, a->col_idx, a->nrows, patch_of, pos, inner_cnt, boundary_cnt);
    HOMG_CUDA_LAUNCHED(ex, "patch_count");
    return HOMG_OK;
}

__global__ static void fill_kernel(const int32_t *rp, const int32_t *ci, const float *v, int32_t n,
                                   const int32_t *patch_of, const int32_t *pos, int l1, amg_patches pt)
{
    float *bv = (float *)pt.boundary.values;
    FOR_ROWS(i, n)
    {
        int32_t p = pos[i], base = pt.start[patch_of[i]];
        int32_t ki = pt.inner_ptr[p], kb = pt.boundary.row_ptr[i];
        float d = 0, l1_inner = 0, l1_boundary = 0, bd, jac;
        for (int32_t k = rp[i]; k < rp[i + 1]; k++) {
            int32_t j = ci[k];
            if (j == i) {
                d = v[k];
            } else if (patch_of[j] == patch_of[i]) {
                pt.inner_col[ki] = pos[j] - base;
                pt.inner_val[ki++] = v[k];
                l1_inner += fabsf(v[k]);
            } else {
                pt.boundary.col_idx[kb] = j;
                bv[kb++] = v[k];
                l1_boundary += fabsf(v[k]);
            }
        }
        bd = l1 ? d + l1_boundary : d;
        jac = HOMG_PATCH_L1_FRACTION * (bd + l1_inner);
        jac = bd > jac ? bd : jac;
        pt.diag[p] = d;
        pt.block_diag[p] = bd;
        pt.jac_inv[p] = jac > 0 ? 1.0f / jac : 0.0f;
    }
}

homg_status homg_cuda_amg_patch_fill(kernel_exec *ex, const csr_matrix *a, const int32_t *patch_of, const int32_t *pos,
                                     int l1, amg_patches *pt)
{
    fill_kernel<<<launch_blocks(a->nrows), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(
        a->row_ptr, a->col_idx, (const float *)a->values, a->nrows, patch_of, pos, l1, *pt);
    HOMG_CUDA_LAUNCHED(ex, "patch_fill");
    return HOMG_OK;
}
