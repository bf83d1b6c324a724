/* smooth.cu -- CUDA backend: damped and l1 Jacobi (miniwarp row products),
 * and the patch block-Jacobi smoother of seed 000: one block per patch, the
 * patch's right-hand side and inner iterates in shared memory, the inner part
 * of patchSPM read from global memory (cached), the prerelax-residual fusion.
 * Twin of smooth.c beside it. */
#include "amg_common.h"
#include "amg_kernels.h"
#include "sparse/sparse_util.cuh"

__global__ static void diag_kernel(const int32_t *rp, const int32_t *ci, const float *v, int32_t n, int kind, float *d)
{
    FOR_ROWS(i, n)
    {
        float l1, dii = amg_row_diag_l1(rp, ci, v, i, &l1);
        d[i] = kind == 0 ? dii : amg_inv_diag(kind == 1 ? dii : l1);
    }
}

homg_status homg_cuda_amg_diag(kernel_exec *ex, const csr_matrix *a, int kind, float *d)
{
    diag_kernel<<<launch_blocks(a->nrows), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(
        a->row_ptr, a->col_idx, (const float *)a->values, a->nrows, kind, d);
    HOMG_CUDA_LAUNCHED(ex, "diag");
    return HOMG_OK;
}

template <int G, typename B>
__global__ static void residual_kernel(const int32_t *rp, const int32_t *ci, const float *v, int32_t n, const B *b,
                                       const float *x, float *r)
{
    int32_t row = (int32_t)((blockIdx.x * (int64_t)blockDim.x + threadIdx.x) / G);
    int lane = threadIdx.x & (G - 1);
    float s = row_dot<G, float, float>(rp, ci, v, x, row, n, lane);
    if (row < n && lane == 0)
        r[row] = (float)b[row] - s;
}

template <typename B>
static homg_status residual(kernel_exec *ex, const csr_matrix *a, const B *b, const float *x, float *r)
{
    cudaStream_t s = homg_cuda_stream(ex);
    int g = row_group_size(a->nnz, a->nrows);
#define LAUNCH(G)                                                                 \
    residual_kernel<G, B><<<row_group_blocks(a->nrows, G), HOMG_THREADS, 0, s>>>( \
        a->row_ptr, a->col_idx, (const float *)a->values, a->nrows, b, x, r)
    HOMG_GROUP_SWITCH(g, LAUNCH);
#undef LAUNCH
    HOMG_CUDA_LAUNCHED(ex, "residual");
    return HOMG_OK;
}

homg_status homg_cuda_amg_residual(kernel_exec *ex, const csr_matrix *a, const float *b, const float *x, float *r)
{
    return residual(ex, a, b, x, r);
}

homg_status homg_cuda_amg_residual_b64(kernel_exec *ex, const csr_matrix *a, const double *b, const float *x, float *r)
{
    return residual(ex, a, b, x, r);
}

__global__ static void jacobi_correct_kernel(int32_t n, const float *dinv, float w, const float *r, float *x, int zero)
{
    FOR_ROWS(i, n)
    x[i] = (zero ? 0.0f : x[i]) + w * dinv[i] * r[i];
}

homg_status homg_cuda_amg_jacobi_correct(kernel_exec *ex, int32_t n, const float *dinv, double omega, const float *r,
                                         float *x, int zero)
{
    jacobi_correct_kernel<<<launch_blocks(n), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(n, dinv, (float)omega, r, x,
                                                                                       zero);
    HOMG_CUDA_LAUNCHED(ex, "jacobi_correct");
    return HOMG_OK;
}

/* x = w dinv b and r = b - A x: the row product reads w dinv_j b_j directly. */
template <int G>
__global__ static void jacobi_zero_residual_kernel(const int32_t *rp, const int32_t *ci, const float *v, int32_t n,
                                                   const float *dinv, float w, const float *b, float *x, float *r)
{
    int32_t row = (int32_t)((blockIdx.x * (int64_t)blockDim.x + threadIdx.x) / G);
    int lane = threadIdx.x & (G - 1);
    float s = 0;
    if (row < n)
        for (int32_t k = rp[row] + lane; k < rp[row + 1]; k += G) {
            int32_t j = ci[k];
            s += v[k] * (w * dinv[j] * b[j]);
        }
    s = group_sum<G>(s);
    if (row < n && lane == 0) {
        x[row] = w * dinv[row] * b[row];
        r[row] = b[row] - s;
    }
}

homg_status homg_cuda_amg_jacobi_zero_residual(kernel_exec *ex, const csr_matrix *a, const float *dinv, double omega,
                                               const float *b, float *x, float *r)
{
    cudaStream_t s = homg_cuda_stream(ex);
    int g = row_group_size(a->nnz, a->nrows);
    float w = (float)omega;
#define LAUNCH(G)                                                                          \
    jacobi_zero_residual_kernel<G><<<row_group_blocks(a->nrows, G), HOMG_THREADS, 0, s>>>( \
        a->row_ptr, a->col_idx, (const float *)a->values, a->nrows, dinv, w, b, x, r)
    HOMG_GROUP_SWITCH(g, LAUNCH);
#undef LAUNCH
    HOMG_CUDA_LAUNCHED(ex, "jacobi_zero_residual");
    return HOMG_OK;
}

/* A Chebyshev step: the row's product (zero_x: none), so the residual is not
 * stored; x += d is a second pass (other rows still read x). */
template <int G, typename B>
__global__ static void cheb_residual_kernel(const int32_t *rp, const int32_t *ci, const float *v, int32_t n,
                                            const float *dinv, const B *b, float *x, float *d, float cd, float cr,
                                            int first, int zero_x)
{
    int32_t row = (int32_t)((blockIdx.x * (int64_t)blockDim.x + threadIdx.x) / G);
    int lane = threadIdx.x & (G - 1);
    float s = 0;
    if (row < n && !zero_x)
        for (int32_t k = rp[row] + lane; k < rp[row + 1]; k += G)
            s += v[k] * x[ci[k]];
    if (!zero_x) /* uniform: every lane of the warp shuffles or none */
        s = group_sum<G>(s);
    if (row < n && lane == 0) {
        float di = amg_cheb_dir(first ? 0.0f : d[row], (float)b[row] - s, dinv[row], cd, cr, first);
        d[row] = di;
        if (zero_x)
            x[row] = di;
    }
}

template <typename B>
static void cheb_residual(kernel_exec *ex, const csr_matrix *a, const float *dinv, const B *b, float *x, float *d,
                          float cd, float cr, int first, int zero_x)
{
    cudaStream_t s = homg_cuda_stream(ex);
    int g = zero_x ? 1 : row_group_size(a->nnz, a->nrows); /* from x = 0: a vector pass */
#define LAUNCH(G)                                                                      \
    cheb_residual_kernel<G, B><<<row_group_blocks(a->nrows, G), HOMG_THREADS, 0, s>>>( \
        a->row_ptr, a->col_idx, (const float *)a->values, a->nrows, dinv, b, x, d, cd, cr, first, zero_x)
    HOMG_GROUP_SWITCH(g, LAUNCH);
#undef LAUNCH
}

homg_status homg_cuda_amg_cheb_residual(kernel_exec *ex, const csr_matrix *a, const float *dinv, const void *b,
                                        homg_precision bp, float *x, float *d, double c_d, double c_r, int first,
                                        int zero_x)
{
    if (bp == HOMG_FLOAT64)
        cheb_residual(ex, a, dinv, (const double *)b, x, d, (float)c_d, (float)c_r, first, zero_x);
    else
        cheb_residual(ex, a, dinv, (const float *)b, x, d, (float)c_d, (float)c_r, first, zero_x);
    HOMG_CUDA_LAUNCHED(ex, "chebyshev");
    return HOMG_OK;
}

__global__ static void add_kernel(int32_t n, const float *d, float *x)
{
    FOR_ROWS(i, n)
    x[i] += d[i];
}

homg_status homg_cuda_amg_add(kernel_exec *ex, int32_t n, const float *d, float *x)
{
    add_kernel<<<launch_blocks(n), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(n, d, x);
    HOMG_CUDA_LAUNCHED(ex, "chebyshev");
    return HOMG_OK;
}

/* out = in - boundary * x is the residual of the boundary part. */
homg_status homg_cuda_amg_patch_boundary(kernel_exec *ex, const amg_patches *pt, const float *x, const float *in,
                                         float *out)
{
    return residual(ex, &pt->boundary, in, x, out);
}

/* One block per patch; thread t owns rows t, t + blockDim, ... of the patch.
 * Shared: rhs, g, gn (3 * max_size floats). */
__global__ static void patch_smooth_kernel(amg_patches pt, const float *b, const float *rhs_in, float *x, float *r,
                                           int zero, int inner, float w_in, float w_out)
{
    extern __shared__ float sh[];
    float *rhs = sh, *g = sh + pt.max_size, *gn = sh + 2 * pt.max_size;
    int32_t p = blockIdx.x;
    int32_t s0 = pt.start[p], m = pt.start[p + 1] - s0;
    if (m > pt.max_size)
        m = pt.max_size; /* guarded at set-up; never read past shared memory */
    for (int32_t t = threadIdx.x; t < m; t += blockDim.x) {
        int32_t pos = s0 + t, i = pt.perm[pos];
        float s = zero ? b[i] : rhs_in[i];
        if (!zero) {
            for (int32_t k = pt.inner_ptr[pos]; k < pt.inner_ptr[pos + 1]; k++)
                s -= pt.inner_val[k] * x[pt.perm[s0 + pt.inner_col[k]]];
            s -= pt.diag[pos] * x[i];
        }
        rhs[t] = s;
        g[t] = 0;
    }
    __syncthreads();
    for (int it = 0; it < inner; it++) {
        for (int32_t t = threadIdx.x; t < m; t += blockDim.x) {
            int32_t pos = s0 + t;
            float s = rhs[t];
            for (int32_t k = pt.inner_ptr[pos]; k < pt.inner_ptr[pos + 1]; k++)
                s -= pt.inner_val[k] * g[pt.inner_col[k]];
            s -= pt.block_diag[pos] * g[t];
            gn[t] = g[t] + w_in * s * pt.jac_inv[pos];
        }
        __syncthreads();
        for (int32_t t = threadIdx.x; t < m; t += blockDim.x)
            g[t] = gn[t];
        __syncthreads();
    }
    /* gn becomes the patch's new x. */
    for (int32_t t = threadIdx.x; t < m; t += blockDim.x) {
        int32_t i = pt.perm[s0 + t];
        gn[t] = (zero ? 0.0f : x[i]) + w_out * g[t];
    }
    __syncthreads();
    for (int32_t t = threadIdx.x; t < m; t += blockDim.x)
        x[pt.perm[s0 + t]] = gn[t];
    if (r)
        for (int32_t t = threadIdx.x; t < m; t += blockDim.x) {
            int32_t pos = s0 + t, i = pt.perm[pos];
            float s = b[i];
            for (int32_t k = pt.inner_ptr[pos]; k < pt.inner_ptr[pos + 1]; k++)
                s -= pt.inner_val[k] * gn[pt.inner_col[k]];
            s -= pt.diag[pos] * gn[t];
            r[i] = s;
        }
}

homg_status homg_cuda_amg_patch_smooth(kernel_exec *ex, const amg_patches *pt, const float *b, const float *rhs,
                                       float *x, float *r, int zero, int inner, double w_in, double w_out)
{
    int threads;
    size_t shared;
    if (pt->count <= 0)
        return HOMG_OK;
    if (pt->max_size < 1 || pt->max_size > HOMG_PATCH_MAX)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "patch of %d rows (1..%d)", pt->max_size,
                              HOMG_PATCH_MAX);
    threads = (pt->max_size + 31) / 32 * 32;
    shared = 3 * (size_t)pt->max_size * sizeof(float); /* 12 KB at most: under the 48 KB default */
    patch_smooth_kernel<<<pt->count, threads, shared, homg_cuda_stream(ex)>>>(*pt, b, rhs, x, r, zero, inner,
                                                                              (float)w_in, (float)w_out);
    HOMG_CUDA_LAUNCHED(ex, "patch_smooth");
    return HOMG_OK;
}
