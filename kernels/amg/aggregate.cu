/* aggregate.cu -- CUDA backend: distance-k maximal independent sets and
 * aggregates (twin of kernels/amg/aggregate.c: one thread per row, each
 * kernel reads one array and writes another, counts by atomics). */
#include "amg_common.h"
#include "amg_kernels.h"
#include "sparse/sparse_util.cuh"

/* Adds a block's count to *counter (zeroed before the kernel). */
__device__ static void add_count(int v, int32_t *counter)
{
    int s = block_count(v);
    if (threadIdx.x == 0 && s)
        atomicAdd(counter, s);
}

__global__ static void mis_init_kernel(int32_t n, uint32_t seed, uint64_t *key)
{
    FOR_ROWS(i, n)
    key[i] = amg_mis_key(HOMG_MIS_UNDECIDED, (uint32_t)i, seed);
}

homg_status homg_cuda_amg_mis_init(kernel_exec *ex, int32_t n, uint32_t seed, uint64_t *key)
{
    mis_init_kernel<<<launch_blocks(n), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(n, seed, key);
    HOMG_CUDA_LAUNCHED(ex, "mis_init");
    return HOMG_OK;
}

/* G lanes per row (rows read coalesced); a max is exact in any order, so the
 * result is the CPU twin's bit for bit. */
template <int G>
__global__ static void mis_max_kernel(const int32_t *rp, const int32_t *ci, int32_t n, const uint64_t *in,
                                      uint64_t *out)
{
    int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    int32_t i = (int32_t)(t / G);
    int lane = threadIdx.x & (G - 1);
    uint64_t m = 0;
    if (i < n) {
        m = lane == 0 ? in[i] : 0;
        for (int32_t k = rp[i] + lane; k < rp[i + 1]; k += G) {
            uint64_t v = in[ci[k]];
            m = v > m ? v : m;
        }
    }
    m = group_max<G>(m);
    if (i < n && lane == 0)
        out[i] = m;
}

homg_status homg_cuda_amg_mis_max(kernel_exec *ex, const csr_matrix *a, const uint64_t *in, uint64_t *out)
{
    int g = row_lanes(a->nnz, a->nrows);
    cudaStream_t s = homg_cuda_stream(ex);
#define MIS_MAX(G) \
    mis_max_kernel<G><<<row_group_blocks(a->nrows, G), HOMG_THREADS, 0, s>>>(a->row_ptr, a->col_idx, a->nrows, in, out)
    HOMG_GROUP_SWITCH(g, MIS_MAX);
#undef MIS_MAX
    HOMG_CUDA_LAUNCHED(ex, "mis_max");
    return HOMG_OK;
}

__global__ static void mis_update_kernel(int32_t n, uint64_t *key, const uint64_t *kmax, int32_t *undecided)
{
    int left = 0;
    FOR_ROWS(i, n)
    {
        uint64_t k = key[i];
        if (amg_mis_state(k) != HOMG_MIS_UNDECIDED)
            continue;
        if (kmax[i] == k)
            key[i] = amg_mis_with_state(k, HOMG_MIS_IN);
        else if (amg_mis_state(kmax[i]) == HOMG_MIS_IN)
            key[i] = amg_mis_with_state(k, HOMG_MIS_OUT);
        else
            left++;
    }
    add_count(left, undecided);
}

homg_status homg_cuda_amg_mis_update(kernel_exec *ex, int32_t n, uint64_t *key, const uint64_t *kmax,
                                     int32_t *undecided)
{
    cudaStream_t s = homg_cuda_stream(ex);
    HOMG_CUDA_TRY(ex, cudaMemsetAsync(undecided, 0, sizeof *undecided, s));
    mis_update_kernel<<<launch_blocks(n, 4096), HOMG_THREADS, 0, s>>>(n, key, kmax, undecided);
    HOMG_CUDA_LAUNCHED(ex, "mis_update");
    return HOMG_OK;
}

__global__ static void mis_flags_kernel(int32_t n, const uint64_t *key, int32_t *flag)
{
    FOR_ROWS(i, n)
    flag[i] = amg_mis_state(key[i]) == HOMG_MIS_IN;
}

homg_status homg_cuda_amg_mis_flags(kernel_exec *ex, int32_t n, const uint64_t *key, int32_t *flag)
{
    mis_flags_kernel<<<launch_blocks(n), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(n, key, flag);
    HOMG_CUDA_LAUNCHED(ex, "mis_flags");
    return HOMG_OK;
}

__global__ static void agg_from_roots_kernel(const int32_t *rp, const int32_t *ci, int32_t n, const int32_t *flag,
                                             const int32_t *root_id, int32_t *agg)
{
    FOR_ROWS(i, n)
    {
        int32_t best = -1;
        if (flag[i])
            best = root_id[i];
        else
            for (int32_t k = rp[i]; k < rp[i + 1]; k++) {
                int32_t j = ci[k];
                if (flag[j] && (best < 0 || root_id[j] < best))
                    best = root_id[j];
            }
        agg[i] = best;
    }
}

homg_status homg_cuda_amg_agg_from_roots(kernel_exec *ex, const csr_matrix *a, const int32_t *flag,
                                         const int32_t *root_id, int32_t *agg)
{
    agg_from_roots_kernel<<<launch_blocks(a->nrows), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(
        a->row_ptr, a->col_idx, a->nrows, flag, root_id, agg);
    HOMG_CUDA_LAUNCHED(ex, "agg_from_roots");
    return HOMG_OK;
}

__global__ static void agg_grow_kernel(const int32_t *rp, const int32_t *ci, int32_t n, const int32_t *in, int32_t *out,
                                       int32_t *unassigned)
{
    int left = 0;
    FOR_ROWS(i, n)
    {
        int32_t best = -1, best_count = 0, k0 = rp[i], k1 = rp[i + 1];
        if (in[i] >= 0) {
            out[i] = in[i];
            continue;
        }
        /* The aggregate most assigned neighbours belong to; ties: smallest id. */
        for (int32_t k = k0; k < k1; k++) {
            int32_t g = in[ci[k]], count = 0;
            if (g < 0 || ci[k] == i)
                continue;
            for (int32_t m = k0; m < k1; m++)
                count += ci[m] != i && in[ci[m]] == g;
            if (count > best_count || (count == best_count && g < best)) {
                best = g;
                best_count = count;
            }
        }
        out[i] = best;
        left += best < 0;
    }
    add_count(left, unassigned);
}

homg_status homg_cuda_amg_agg_grow(kernel_exec *ex, const csr_matrix *a, const int32_t *in, int32_t *out,
                                   int32_t *unassigned)
{
    cudaStream_t s = homg_cuda_stream(ex);
    HOMG_CUDA_TRY(ex, cudaMemsetAsync(unassigned, 0, sizeof *unassigned, s));
    agg_grow_kernel<<<launch_blocks(a->nrows, 4096), HOMG_THREADS, 0, s>>>(a->row_ptr, a->col_idx, a->nrows, in, out,
                                                                           unassigned);
    HOMG_CUDA_LAUNCHED(ex, "agg_grow");
    return HOMG_OK;
}

__global__ static void agg_sizes_kernel(int32_t n, const int32_t *agg, int32_t nagg, int32_t *size)
{
    FOR_ROWS(i, n)
    if (agg[i] >= 0 && agg[i] < nagg)
        atomicAdd(&size[agg[i]], 1);
}

homg_status homg_cuda_amg_agg_sizes(kernel_exec *ex, int32_t n, const int32_t *agg, int32_t nagg, int32_t *size)
{
    cudaStream_t s = homg_cuda_stream(ex);
    if (nagg > 0)
        HOMG_CUDA_TRY(ex, cudaMemsetAsync(size, 0, (size_t)nagg * sizeof *size, s));
    agg_sizes_kernel<<<launch_blocks(n), HOMG_THREADS, 0, s>>>(n, agg, nagg, size);
    HOMG_CUDA_LAUNCHED(ex, "agg_sizes");
    return HOMG_OK;
}

__global__ static void agg_keep_kernel(int32_t nagg, const int32_t *size, int32_t min_size, int32_t *keep)
{
    FOR_ROWS(a, nagg)
    keep[a] = size[a] >= min_size;
}

homg_status homg_cuda_amg_agg_keep(kernel_exec *ex, int32_t nagg, const int32_t *size, int32_t min_size, int32_t *keep)
{
    agg_keep_kernel<<<launch_blocks(nagg), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(nagg, size, min_size, keep);
    HOMG_CUDA_LAUNCHED(ex, "agg_keep");
    return HOMG_OK;
}

__global__ static void agg_relabel_kernel(int32_t n, const int32_t *agg, const int32_t *keep, const int32_t *new_id,
                                          int32_t *out)
{
    FOR_ROWS(i, n)
    out[i] = agg[i] >= 0 && keep[agg[i]] ? new_id[agg[i]] : -1;
}

homg_status homg_cuda_amg_agg_relabel(kernel_exec *ex, int32_t n, const int32_t *agg, const int32_t *keep,
                                      const int32_t *new_id, int32_t *out)
{
    agg_relabel_kernel<<<launch_blocks(n), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(n, agg, keep, new_id, out);
    HOMG_CUDA_LAUNCHED(ex, "agg_relabel");
    return HOMG_OK;
}

__global__ static void agg_restore_kernel(int32_t n, const int32_t *agg, const int32_t *cur, int32_t *keep)
{
    FOR_ROWS(i, n)
    if (cur[i] < 0 && agg[i] >= 0)
        keep[agg[i]] = 1; /* every writer writes 1 */
}

homg_status homg_cuda_amg_agg_restore(kernel_exec *ex, int32_t n, const int32_t *agg, const int32_t *cur, int32_t *keep)
{
    agg_restore_kernel<<<launch_blocks(n), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(n, agg, cur, keep);
    HOMG_CUDA_LAUNCHED(ex, "agg_restore");
    return HOMG_OK;
}

__global__ static void agg_compose_kernel(int32_t n, const int32_t *inner, const int32_t *outer, int32_t *out)
{
    FOR_ROWS(i, n)
    out[i] = outer[inner[i]];
}

homg_status homg_cuda_amg_agg_compose(kernel_exec *ex, int32_t n, const int32_t *inner, const int32_t *outer,
                                      int32_t *out)
{
    agg_compose_kernel<<<launch_blocks(n), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(n, inner, outer, out);
    HOMG_CUDA_LAUNCHED(ex, "agg_compose");
    return HOMG_OK;
}
