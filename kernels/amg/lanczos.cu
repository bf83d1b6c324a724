/* lanczos.cu -- CUDA backend: Lanczos steps on B = D^-1/2 A D^-1/2 (twin of
 * kernels/amg/lanczos.c; one thread per row, the product B u by groups of
 * lanes per row; dot products by block sums and one atomic add per block,
 * scalars read from device memory). */
#include "amg_common.h"
#include "amg_kernels.h"
#include "sparse/sparse_util.cuh"

__device__ static void add_sum(double v, double *out)
{
    double s = block_sum(v);
    if (threadIdx.x == 0 && s != 0)
        atomicAdd(out, s);
}

__global__ static void lanczos_start_kernel(const int32_t *rp, const int32_t *ci, const float *v, int32_t n,
                                            float *dscale, float *u, float *q_prev, double *n2_0)
{
    double s = 0;
    FOR_ROWS(i, n)
    {
        float l1, d = amg_row_diag_l1(rp, ci, v, i, &l1);
        dscale[i] = d != 0 ? 1.0f / sqrtf(fabsf(d)) : 0.0f;
        u[i] = amg_lanczos_start(i);
        q_prev[i] = 0;
        s += (double)u[i] * u[i];
    }
    add_sum(s, n2_0);
}

homg_status homg_cuda_amg_lanczos_start(kernel_exec *ex, const csr_matrix *a, float *dscale, float *u, float *q_prev,
                                        double *n2_0)
{
    lanczos_start_kernel<<<launch_blocks(a->nrows, HOMG_MAX_BLOCKS), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(
        a->row_ptr, a->col_idx, (const float *)a->values, a->nrows, dscale, u, q_prev, n2_0);
    HOMG_CUDA_LAUNCHED(ex, "lanczos_start");
    return HOMG_OK;
}

/* G lanes per row (seed 001's miniwarps: the rows' entries read coalesced);
 * the loop runs while the block's first row is in range, so every lane of a
 * warp takes part in the shuffles of row_dot. */
template <int G>
__global__ static void lanczos_apply_kernel(const int32_t *rp, const int32_t *ci, const float *v, int32_t n,
                                            const float *dscale, const double *n2_prev, const float *u, float *w,
                                            double *alpha)
{
    float sc = *n2_prev > 0 ? (float)(1.0 / sqrt(*n2_prev)) : 0.0f;
    int lane = threadIdx.x & (G - 1);
    int64_t per_block = blockDim.x / G;
    double s = 0;
    for (int64_t first = blockIdx.x * per_block; first < n; first += (int64_t)gridDim.x * per_block) {
        int32_t i = (int32_t)(first + threadIdx.x / G);
        float t = 0;
        if (i < n)
            for (int32_t k = rp[i] + lane; k < rp[i + 1]; k += G)
                t += v[k] * (dscale[ci[k]] * u[ci[k]]);
        t = group_sum<G>(t);
        if (i < n && lane == 0) {
            float wi = sc * dscale[i] * t;
            w[i] = wi;
            s += (double)(sc * u[i]) * wi;
        }
    }
    add_sum(s, alpha);
}

homg_status homg_cuda_amg_lanczos_apply(kernel_exec *ex, const csr_matrix *a, const float *dscale,
                                        const double *n2_prev, const float *u, float *w, double *alpha)
{
    int g = row_lanes(a->nnz, a->nrows);
    unsigned blocks = row_group_blocks(a->nrows, g);
    cudaStream_t s = homg_cuda_stream(ex);
    blocks = blocks < HOMG_MAX_BLOCKS ? blocks : HOMG_MAX_BLOCKS;
#define LANCZOS_APPLY(G)                                                                                      \
    lanczos_apply_kernel<G><<<blocks, HOMG_THREADS, 0, s>>>(a->row_ptr, a->col_idx, (const float *)a->values, \
                                                            a->nrows, dscale, n2_prev, u, w, alpha)
    HOMG_GROUP_SWITCH(g, LANCZOS_APPLY);
#undef LANCZOS_APPLY
    HOMG_CUDA_LAUNCHED(ex, "lanczos_apply");
    return HOMG_OK;
}

__global__ static void lanczos_update_kernel(int32_t n, const double *n2_prev, const double *alpha, float *u,
                                             float *q_prev, const float *w, double *n2)
{
    float beta = (float)sqrt(*n2_prev), sc = beta > 0 ? 1.0f / beta : 0.0f, al = (float)*alpha;
    double s = 0;
    FOR_ROWS(i, n)
    {
        float q = sc * u[i], t = w[i] - al * q - beta * q_prev[i];
        q_prev[i] = q;
        u[i] = t;
        s += (double)t * t;
    }
    add_sum(s, n2);
}

homg_status homg_cuda_amg_lanczos_update(kernel_exec *ex, int32_t n, const double *n2_prev, const double *alpha,
                                         float *u, float *q_prev, const float *w, double *n2)
{
    lanczos_update_kernel<<<launch_blocks(n, HOMG_MAX_BLOCKS), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(
        n, n2_prev, alpha, u, q_prev, w, n2);
    HOMG_CUDA_LAUNCHED(ex, "lanczos_update");
    return HOMG_OK;
}
