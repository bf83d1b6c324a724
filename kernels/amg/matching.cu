/* matching.cu -- CUDA backend: compatible weighted matching (twin of
 * kernels/amg/matching.c).  A Suitor round is two kernels: every active
 * vertex picks its candidate from the state of the round's start, then the
 * proposals land with atomicMax on the packed (weight, label) keys, so the
 * result does not depend on thread order. */
#include "amg_common.h"
#include "amg_kernels.h"
#include "sparse/sparse_util.cuh"

__global__ static void match_weights_kernel(const int32_t *rp, const int32_t *ci, const float *av, int32_t n,
                                            const float *diag, const float *v, float *w)
{
    FOR_ROWS(i, n)
    for (int32_t k = rp[i]; k < rp[i + 1]; k++) {
        int32_t j = ci[k];
        float aji = amg_entry_weight(rp, ci, av, j, i);
        w[k] = j == i ? 0.0f : amg_match_weight(av[k], aji, diag[i], diag[j], v[i], v[j]);
    }
}

homg_status homg_cuda_amg_match_weights(kernel_exec *ex, const csr_matrix *a, const float *diag, const float *v,
                                        float *w)
{
    match_weights_kernel<<<launch_blocks(a->nrows), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(
        a->row_ptr, a->col_idx, (const float *)a->values, a->nrows, diag, v, w);
    HOMG_CUDA_LAUNCHED(ex, "match_weights");
    return HOMG_OK;
}

__global__ static void suitor_pick_kernel(const int32_t *rp, const int32_t *ci, int32_t n, const float *w,
                                          const uint64_t *suitor, const int32_t *target, int32_t *cand)
{
    FOR_ROWS(u, n)
    cand[u] = amg_suitor_pick(rp, ci, w, suitor, target, u);
}

__global__ static void suitor_propose_kernel(const int32_t *rp, const int32_t *ci, int32_t n, const float *w,
                                             uint64_t *suitor, int32_t *target, const int32_t *cand, int32_t *proposals)
{
    int count = 0;
    FOR_ROWS(u, n)
    {
        int32_t v = cand[u];
        if (v == -2)
            target[u] = -2;
        if (v < 0 || v >= n)
            continue;
        atomicMax((unsigned long long *)&suitor[v],
                  (unsigned long long)amg_suitor_key(amg_entry_weight(rp, ci, w, u, v), u));
        target[u] = v;
        count++;
    }
    count = block_count(count);
    if (threadIdx.x == 0 && count)
        atomicAdd(proposals, count);
}

homg_status homg_cuda_amg_suitor_round(kernel_exec *ex, const csr_matrix *a, const float *w, uint64_t *suitor,
                                       int32_t *target, int32_t *cand, int32_t *proposals)
{
    cudaStream_t s = homg_cuda_stream(ex);
    HOMG_CUDA_TRY(ex, cudaMemsetAsync(proposals, 0, sizeof *proposals, s));
    suitor_pick_kernel<<<launch_blocks(a->nrows), HOMG_THREADS, 0, s>>>(a->row_ptr, a->col_idx, a->nrows, w, suitor,
                                                                        target, cand);
    HOMG_CUDA_LAUNCHED(ex, "Suitor round");
    suitor_propose_kernel<<<launch_blocks(a->nrows, 4096), HOMG_THREADS, 0, s>>>(a->row_ptr, a->col_idx, a->nrows, w,
                                                                                 suitor, target, cand, proposals);
    HOMG_CUDA_LAUNCHED(ex, "Suitor round");
    return HOMG_OK;
}

__global__ static void match_pairs_kernel(const int32_t *rp, const int32_t *ci, int32_t n, const float *w,
                                          const uint64_t *suitor, const int32_t *target, int32_t *mate, int32_t *flag)
{
    FOR_ROWS(i, n)
    {
        int32_t t = target[i], m = -1;
        if (t >= 0 && t < n && target[t] == i && amg_suitor_holds(rp, ci, w, suitor, target, i) &&
            amg_suitor_holds(rp, ci, w, suitor, target, t))
            m = t;
        mate[i] = m;
        flag[i] = m < 0 || i < m;
    }
}

homg_status homg_cuda_amg_match_pairs(kernel_exec *ex, const csr_matrix *a, const float *w, const uint64_t *suitor,
                                      const int32_t *target, int32_t *mate, int32_t *flag)
{
    match_pairs_kernel<<<launch_blocks(a->nrows), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(
        a->row_ptr, a->col_idx, a->nrows, w, suitor, target, mate, flag);
    HOMG_CUDA_LAUNCHED(ex, "match_pairs");
    return HOMG_OK;
}

__global__ static void match_agg_kernel(int32_t n, const int32_t *mate, const int32_t *id, int32_t *agg)
{
    FOR_ROWS(i, n)
    agg[i] = id[mate[i] >= 0 && mate[i] < i ? mate[i] : i];
}

homg_status homg_cuda_amg_match_agg(kernel_exec *ex, int32_t n, const int32_t *mate, const int32_t *id, int32_t *agg)
{
    match_agg_kernel<<<launch_blocks(n), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(n, mate, id, agg);
    HOMG_CUDA_LAUNCHED(ex, "match_agg");
    return HOMG_OK;
}

__global__ static void match_weights_p_kernel(int32_t n, const int32_t *mate, const int32_t *agg, const float *v,
                                              float *pw, float *vc)
{
    FOR_ROWS(i, n)
    {
        float s = amg_pair_norm(v[i], mate[i] >= 0 ? v[mate[i]] : 0.0f);
        pw[i] = s > 0 ? v[i] / s : 1.0f;
        vc[agg[i]] = s > 0 ? s : 1.0f; /* both rows of a pair write the same value */
    }
}

homg_status homg_cuda_amg_match_weights_p(kernel_exec *ex, int32_t n, const int32_t *mate, const int32_t *agg,
                                          const float *v, float *pw, float *vc)
{
    match_weights_p_kernel<<<launch_blocks(n), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(n, mate, agg, v, pw, vc);
    HOMG_CUDA_LAUNCHED(ex, "match_weights_p");
    return HOMG_OK;
}

__global__ static void weight_compose_kernel(int32_t n, const float *pw, const int32_t *agg, const float *pw2,
                                             float *out)
{
    FOR_ROWS(i, n)
    out[i] = __fmul_rn(pw[i], pw2[agg[i]]);
}

homg_status homg_cuda_amg_weight_compose(kernel_exec *ex, int32_t n, const float *pw, const int32_t *agg,
                                         const float *pw2, float *out)
{
    weight_compose_kernel<<<launch_blocks(n), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(n, pw, agg, pw2, out);
    HOMG_CUDA_LAUNCHED(ex, "weight_compose");
    return HOMG_OK;
}
