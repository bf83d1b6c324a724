/* strength.cu -- CUDA backend: the strength graph and the filtered matrix
 * (twin of kernels/amg/strength.c; couplings by groups of lanes per row, the
 * count and fill passes one thread per row). */
#include "amg_common.h"
#include "amg_kernels.h"
#include "sparse/sparse_util.cuh"

/* G lanes per row: each lane the couplings of its entries (a binary search in
 * the row of each entry's column), the row maximum by shuffles (exact: the
 * same as the CPU twin's). */
template <int G>
__global__ static void strength_coupling_kernel(const int32_t *rp, const int32_t *ci, const float *v, int32_t n,
                                                const float *diag, float *sc, float *rowmax)
{
    int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    int32_t i = (int32_t)(t / G);
    int lane = threadIdx.x & (G - 1);
    float m = 0;
    if (i < n)
        for (int32_t k = rp[i] + lane; k < rp[i + 1]; k += G) {
            float s = ci[k] != i ? amg_coupling(rp, ci, v, diag, i, k) : 0.0f;
            sc[k] = s;
            m = s > m ? s : m;
        }
    for (int o = G / 2; o > 0; o >>= 1) {
        float s = __shfl_xor_sync(0xFFFFFFFFu, m, o, G);
        m = s > m ? s : m;
    }
    if (i < n && lane == 0)
        rowmax[i] = m;
}

homg_status homg_cuda_amg_strength_coupling(kernel_exec *ex, const csr_matrix *a, const float *diag, float *sc,
                                            float *rowmax)
{
    int g = row_lanes(a->nnz, a->nrows);
    cudaStream_t s = homg_cuda_stream(ex);
#define COUPLING(G)                                                                     \
    strength_coupling_kernel<G><<<row_group_blocks(a->nrows, G), HOMG_THREADS, 0, s>>>( \
        a->row_ptr, a->col_idx, (const float *)a->values, a->nrows, diag, sc, rowmax)
    HOMG_GROUP_SWITCH(g, COUPLING);
#undef COUPLING
    HOMG_CUDA_LAUNCHED(ex, "strength_coupling");
    return HOMG_OK;
}

__global__ static void strength_count_kernel(const int32_t *rp, const int32_t *ci, int32_t n, const float *sc,
                                             const float *rowmax, float theta, int32_t *cnt)
{
    FOR_ROWS(i, n)
    {
        int32_t c = 0, lone = amg_lone(rp, ci, sc, theta, i, rowmax);
        for (int32_t k = rp[i]; k < rp[i + 1]; k++)
            c += amg_kept(ci, sc, theta, i, k, lone, rowmax);
        cnt[i] = c;
    }
}

homg_status homg_cuda_amg_strength_count(kernel_exec *ex, const csr_matrix *a, const float *sc, const float *rowmax,
                                         double theta, int32_t *cnt)
{
    strength_count_kernel<<<launch_blocks(a->nrows), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(
        a->row_ptr, a->col_idx, a->nrows, sc, rowmax, (float)theta, cnt);
    HOMG_CUDA_LAUNCHED(ex, "strength_count");
    return HOMG_OK;
}

__global__ static void strength_fill_kernel(const int32_t *rp, const int32_t *ci, const float *v, int32_t n,
                                            const float *sc, const float *rowmax, float theta, const int32_t *srp,
                                            int32_t *sci, float *sv, int32_t *lumped)
{
    FOR_ROWS(i, n)
    {
        int32_t o = srp[i], dpos = -1, lone = amg_lone(rp, ci, sc, theta, i, rowmax), any = 0;
        float weak = 0;
        for (int32_t k = rp[i]; k < rp[i + 1]; k++) {
            if (!amg_kept(ci, sc, theta, i, k, lone, rowmax)) {
                weak += v[k];
                any |= v[k] != 0;
                continue;
            }
            if (ci[k] == i)
                dpos = o;
            sci[o] = ci[k];
            sv[o++] = v[k];
        }
        if (dpos >= 0)
            sv[dpos] += weak;
        if (any)
            *lumped = 1; /* a benign race: every writer writes 1 */
    }
}

homg_status homg_cuda_amg_strength_fill(kernel_exec *ex, const csr_matrix *a, const float *sc, const float *rowmax,
                                        double theta, csr_matrix *s, int32_t *lumped)
{
    cudaStream_t st = homg_cuda_stream(ex);
    HOMG_CUDA_TRY(ex, cudaMemsetAsync(lumped, 0, sizeof *lumped, st));
    strength_fill_kernel<<<launch_blocks(a->nrows), HOMG_THREADS, 0, st>>>(
        a->row_ptr, a->col_idx, (const float *)a->values, a->nrows, sc, rowmax, (float)theta, s->row_ptr, s->col_idx,
        (float *)s->values, lumped);
    HOMG_CUDA_LAUNCHED(ex, "strength_fill");
    return HOMG_OK;
}
