/* strength.cu -- CUDA backend: the strength graph and the filtered matrix
 * (twin of kernels/amg/strength.c; couplings and the fill by groups of lanes
 * per row where rows are long enough (row_lanes), the count a thread per row). */
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
    m = group_max<G>(m);
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

/* The lanes of row i's group (G lanes, aligned in the warp) as a warp mask. */
template <int G> __device__ static inline unsigned group_mask()
{
    return G == 32 ? 0xFFFFFFFFu : ((1u << G) - 1u) << ((threadIdx.x & 31) & ~(G - 1));
}

/* G lanes per row, an entry each: the row's lone entry (amg_lone: any strong
 * entry by a vote, else the largest coupling, first on ties), the weak sum by
 * shuffles (its rounding differs from the CPU twin's running sum: the diagonal
 * value only), then the kept entries written in row order, each lane's place
 * from a ballot, so a warp writes whole rows at once. */
template <int G>
__global__ static void strength_fill_kernel(const int32_t *rp, const int32_t *ci, const float *v, int32_t n,
                                            const float *sc, const float *rowmax, float theta, const int32_t *srp,
                                            int32_t *sci, float *sv, int32_t *lumped)
{
    int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    int32_t i = (int32_t)(t / G), lone = -1, best = -1, o, k0, k1;
    int lane = threadIdx.x & (G - 1), lanew = threadIdx.x & 31, strong = 0, any = 0;
    unsigned gm = group_mask<G>();
    float bs = 0, weak = 0;
    if (i >= n)
        return; /* the whole group: one row */
    k0 = rp[i];
    k1 = rp[i + 1];
    for (int32_t k = k0 + lane; k < k1; k += G)
        if (ci[k] != i) {
            strong |= amg_strong(ci, sc, theta, i, k, rowmax);
            if (sc[k] > bs) {
                bs = sc[k];
                best = k;
            }
        }
    for (int d = G / 2; d > 0; d >>= 1) { /* the largest coupling, the first entry on ties */
        float obs = __shfl_xor_sync(gm, bs, d, G);
        int32_t ob = __shfl_xor_sync(gm, best, d, G);
        if (obs > bs || (obs == bs && ob >= 0 && (best < 0 || ob < best))) {
            bs = obs;
            best = ob;
        }
    }
    lone = __any_sync(gm, strong) ? -1 : best;
    for (int32_t k = k0 + lane; k < k1; k += G)
        if (!amg_kept(ci, sc, theta, i, k, lone, rowmax)) {
            weak += v[k];
            any |= v[k] != 0;
        }
    for (int d = G / 2; d > 0; d >>= 1)
        weak += __shfl_xor_sync(gm, weak, d, G);
    if (__any_sync(gm, any) && lane == 0)
        *lumped = 1; /* a benign race: every writer writes 1 */
    o = srp[i];
    for (int32_t base = k0; base < k1; base += G) {
        int32_t k = base + lane;
        int kept = k < k1 && amg_kept(ci, sc, theta, i, k, lone, rowmax);
        unsigned ballot = __ballot_sync(gm, kept) & gm;
        if (kept) {
            int32_t pos = o + __popc(ballot & ((1u << lanew) - 1u));
            sci[pos] = ci[k];
            sv[pos] = ci[k] == i ? v[k] + weak : v[k];
        }
        o += __popc(ballot);
    }
}

homg_status homg_cuda_amg_strength_fill(kernel_exec *ex, const csr_matrix *a, const float *sc, const float *rowmax,
                                        double theta, csr_matrix *s, int32_t *lumped)
{
    cudaStream_t st = homg_cuda_stream(ex);
    int g = row_lanes(a->nnz, a->nrows);
    HOMG_CUDA_TRY(ex, cudaMemsetAsync(lumped, 0, sizeof *lumped, st));
#define FILL(G)                                                                                                       \
    strength_fill_kernel<G><<<row_group_blocks(a->nrows, G), HOMG_THREADS, 0, st>>>(                                  \
        a->row_ptr, a->col_idx, (const float *)a->values, a->nrows, sc, rowmax, (float)theta, s->row_ptr, s->col_idx, \
        (float *)s->values, lumped)
    HOMG_GROUP_SWITCH(g, FILL);
#undef FILL
    HOMG_CUDA_LAUNCHED(ex, "strength_fill");
    return HOMG_OK;
}
