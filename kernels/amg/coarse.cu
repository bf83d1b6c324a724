/* amg_coarse.cu -- CUDA backend: the coarsest level's dense inverse (cuSOLVER
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

homg_status homg_cuda_amg_dense_inverse(kernel_exec *ex, void *handle, const csr_matrix *a, float *inv, int *pivot)
{
    homg_cuda_handle *h = (homg_cuda_handle *)handle;
    cudaStream_t s = homg_cuda_stream(ex);
    int32_t n = a->nrows;
    int64_t nn = (int64_t)n * n;
    double *da = NULL, *id = NULL, *work = NULL;
    int *info = NULL, lwork = 0;
    homg_status st = HOMG_OK;
    *pivot = 0;
    if (n <= 0)
        return HOMG_OK;
    st = homg_cuda_alloc(ex, h, (size_t)nn * sizeof(double), (void **)&da, "coarse solver");
    if (st == HOMG_OK)
        st = homg_cuda_alloc(ex, h, (size_t)nn * sizeof(double), (void **)&id, "coarse solver");
    if (st == HOMG_OK)
        st = homg_cuda_alloc(ex, h, sizeof(int), (void **)&info, "coarse solver");
#define STEP(call, what)                                                                                 \
    do {                                                                                                 \
        if (st == HOMG_OK) {                                                                             \
            cusolverStatus_t cs_ = (call);                                                               \
            if (cs_ != CUSOLVER_STATUS_SUCCESS)                                                          \
                st = homg_exec_fail(ex, HOMG_ERROR_BACKEND, "%s: cuSOLVER status %d", (what), (int)cs_); \
        }                                                                                                \
    } while (0)
    if (st == HOMG_OK) {
        dense_kernel<<<homg_blocks(nn, 65536), HOMG_THREADS, 0, s>>>(a->row_ptr, a->col_idx, (const float *)a->val, n,
                                                                     da, id);
        scatter_kernel<<<homg_blocks(n), HOMG_THREADS, 0, s>>>(a->row_ptr, a->col_idx, (const float *)a->val, n, da);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess)
            st = homg_cuda_fail(ex, e, "coarse matrix");
    }
    STEP(cusolverDnSetStream(h->solver, s), "cusolverDnSetStream");
    STEP(cusolverDnDpotrf_bufferSize(h->solver, CUBLAS_FILL_MODE_LOWER, n, da, n, &lwork), "potrf buffer size");
    if (st == HOMG_OK)
        st = homg_cuda_alloc(ex, h, (size_t)(lwork > 0 ? lwork : 1) * sizeof(double), (void **)&work, "coarse solver");
    STEP(cusolverDnDpotrf(h->solver, CUBLAS_FILL_MODE_LOWER, n, da, n, work, lwork, info), "cusolverDnDpotrf");
    if (st == HOMG_OK) {
        int host_info = 0;
        cudaError_t e = cudaMemcpyAsync(&host_info, info, sizeof host_info, cudaMemcpyDeviceToHost, s);
        if (e == cudaSuccess)
            e = cudaStreamSynchronize(s);
        if (e != cudaSuccess)
            st = homg_cuda_fail(ex, e, "coarse Cholesky status");
        else if (host_info > 0)
            *pivot = host_info; /* the leading minor of this order is not positive definite */
        else if (host_info < 0)
            st = homg_exec_fail(ex, HOMG_ERROR_BACKEND, "cusolverDnDpotrf: parameter %d is wrong", -host_info);
    }
    if (st == HOMG_OK && !*pivot) {
        STEP(cusolverDnDpotrs(h->solver, CUBLAS_FILL_MODE_LOWER, n, n, da, n, id, n, info), "cusolverDnDpotrs");
        if (st == HOMG_OK) {
            to_float_kernel<<<homg_blocks(nn, 65536), HOMG_THREADS, 0, s>>>(id, inv, nn);
            cudaError_t e = cudaGetLastError();
            if (e != cudaSuccess)
                st = homg_cuda_fail(ex, e, "coarse inverse");
        }
    }
#undef STEP
    /* The frees are ordered after the work on the stream only through this sync. */
    if (cudaStreamSynchronize(s) != cudaSuccess && st == HOMG_OK)
        st = homg_exec_fail(ex, HOMG_ERROR_BACKEND, "coarse solver: stream failed");
    homg_cuda_free(h, da);
    homg_cuda_free(h, id);
    homg_cuda_free(h, work);
    homg_cuda_free(h, info);
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
