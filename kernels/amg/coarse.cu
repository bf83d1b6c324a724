/* coarse.cu -- CUDA backend: the coarsest level's dense inverse (cuSOLVER
 * double Cholesky, potrf, then potrs on the identity) and its application (one
 * thread per row, coalesced over the column-major inverse).  Twin of
 * coarse.c beside it. */
#include "amg_common.h"
#include "amg_kernels.h"
#include "sparse/sparse_util.cuh"

__global__ static void dense_kernel(const int32_t *rp, const int32_t *ci, const float *v, int32_t n, double *a,
                                    double *id)
{
    for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < (int64_t)n * n;
         e += (int64_t)gridDim.x * blockDim.x) {
        a[e] = 0;
        id[e] = e % (n + 1) == 0 ? 1.0 : 0.0; /* column-major identity: the diagonal every n+1 */
    }
}

__global__ static void scatter_kernel(const int32_t *rp, const int32_t *ci, const float *v, int32_t n, double *a)
{
    for (int32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        for (int32_t k = rp[i]; k < rp[i + 1]; k++)
            if (ci[k] >= 0 && ci[k] < n)
                a[(size_t)ci[k] * n + i] = v[k];
}

__global__ static void to_float_kernel(const double *src, float *dst, int64_t count)
{
    for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < count; e += (int64_t)gridDim.x * blockDim.x)
        dst[e] = (float)src[e];
}

/* Device work of the factorisation (freed after the stream's sync). */
typedef struct dense_work {
    double *a, *id, *work; /* A and the identity (n*n, column-major), potrf's workspace */
    int *info;
} dense_work;

/* Status of potrf: *pivot = the order of the first leading minor that is not
 * positive definite, or 0. */
static homg_status cholesky_info(kernel_exec *ex, const int *info, int *pivot)
{
    cudaStream_t s = homg_cuda_stream(ex);
    int host_info = 0;
    HOMG_CUDA_TRY(ex, cudaMemcpyAsync(&host_info, info, sizeof host_info, cudaMemcpyDeviceToHost, s));
    HOMG_CUDA_TRY(ex, cudaStreamSynchronize(s));
    if (host_info < 0)
        return homg_exec_fail(ex, HOMG_ERROR_BACKEND, "cusolverDnDpotrf: parameter %d is wrong", -host_info);
    *pivot = host_info;
    return HOMG_OK;
}

/* A in double, its Cholesky factor, then A^-1 = potrs(identity) in float. */
static homg_status dense_invert(kernel_exec *ex, sparse_handle *h, const csr_matrix *a, float *inv, int *pivot,
                                dense_work *w)
{
    cudaStream_t s = homg_cuda_stream(ex);
    int32_t n = a->nrows;
    int64_t nn = (int64_t)n * n;
    int lwork = 0;
    HOMG_TRY(handle_alloc(ex, h, (size_t)nn * sizeof(double), (void **)&w->a, "coarse solver"));
    HOMG_TRY(handle_alloc(ex, h, (size_t)nn * sizeof(double), (void **)&w->id, "coarse solver"));
    HOMG_TRY(handle_alloc(ex, h, sizeof(int), (void **)&w->info, "coarse solver"));
    dense_kernel<<<launch_blocks(nn, 65536), HOMG_THREADS, 0, s>>>(a->row_ptr, a->col_idx, (const float *)a->values, n,
                                                                   w->a, w->id);
    scatter_kernel<<<launch_blocks(n), HOMG_THREADS, 0, s>>>(a->row_ptr, a->col_idx, (const float *)a->values, n, w->a);
    HOMG_CUDA_LAUNCHED(ex, "coarse matrix");
    HOMG_CUSOLVER_TRY(ex, cusolverDnSetStream(h->solver, s));
    HOMG_CUSOLVER_TRY(ex, cusolverDnDpotrf_bufferSize(h->solver, CUBLAS_FILL_MODE_LOWER, n, w->a, n, &lwork));
    HOMG_TRY(handle_alloc(ex, h, (size_t)(lwork > 0 ? lwork : 1) * sizeof(double), (void **)&w->work, "coarse solver"));
    HOMG_CUSOLVER_TRY(ex, cusolverDnDpotrf(h->solver, CUBLAS_FILL_MODE_LOWER, n, w->a, n, w->work, lwork, w->info));
    HOMG_TRY(cholesky_info(ex, w->info, pivot));
    if (*pivot)
        return HOMG_OK; /* the leading minor of this order is not positive definite */
    HOMG_CUSOLVER_TRY(ex, cusolverDnDpotrs(h->solver, CUBLAS_FILL_MODE_LOWER, n, n, w->a, n, w->id, n, w->info));
    to_float_kernel<<<launch_blocks(nn, 65536), HOMG_THREADS, 0, s>>>(w->id, inv, nn);
    HOMG_CUDA_LAUNCHED(ex, "coarse inverse");
    return HOMG_OK;
}

homg_status homg_cuda_amg_dense_inverse(kernel_exec *ex, void *handle, const csr_matrix *a, float *inv, int *pivot)
{
    sparse_handle *h = (sparse_handle *)handle;
    dense_work w = { NULL, NULL, NULL, NULL };
    homg_status st;
    *pivot = 0;
    if (a->nrows <= 0)
        return HOMG_OK;
    st = dense_invert(ex, h, a, inv, pivot, &w);
    /* The frees are ordered after the work on the stream only through this sync. */
    if (cudaStreamSynchronize(homg_cuda_stream(ex)) != cudaSuccess && st == HOMG_OK)
        st = homg_exec_fail(ex, HOMG_ERROR_BACKEND, "coarse solver: stream failed");
    handle_free(h, w.a);
    handle_free(h, w.id);
    handle_free(h, w.work);
    handle_free(h, w.info);
    return st;
}

__global__ static void dense_apply_kernel(int32_t n, const float *inv, const float *b, float *x)
{
    for (int32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float s = 0;
        for (int32_t j = 0; j < n; j++)
            s += inv[(size_t)j * n + i] * b[j];
        x[i] = s;
    }
}

homg_status homg_cuda_amg_dense_apply(kernel_exec *ex, int32_t n, const float *inv, const float *b, float *x)
{
    /* Small blocks: a coarsest level of a few hundred rows still spreads over SMs. */
    int blocks = n > 0 ? (n + 63) / 64 : 1;
    dense_apply_kernel<<<blocks, 64, 0, homg_cuda_stream(ex)>>>(n, inv, b, x);
    HOMG_CUDA_LAUNCHED(ex, "dense_apply");
    return HOMG_OK;
}
