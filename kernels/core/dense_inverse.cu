/* dense_inverse.cu -- the coarsest levels' dense inverse (AMG and GMG), by
 * cuSOLVER; see dense_inverse.h. */
#include "dense_inverse.h"
#include "sparse/sparse_util.cuh"

#include <limits.h>

__device__ static inline double dense_value(const void *v, int dbl, int32_t k)
{
    return dbl ? ((const double *)v)[k] : (double)((const float *)v)[k];
}

__global__ static void dense_zero_kernel(int32_t n, double *a, double *id)
{
    for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < (int64_t)n * n;
         e += (int64_t)gridDim.x * blockDim.x) {
        a[e] = 0;
        id[e] = e % (n + 1) == 0 ? 1.0 : 0.0; /* column-major identity: the diagonal every n+1 */
    }
}

__global__ static void dense_scatter_kernel(const int32_t *rp, const int32_t *ci, const void *v, int dbl, int32_t n,
                                            double *a)
{
    for (int32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        for (int32_t k = rp[i]; k < rp[i + 1]; k++)
            if (ci[k] >= 0 && ci[k] < n)
                a[(size_t)ci[k] * n + i] = dense_value(v, dbl, k);
}

/* The relative pivot test after potrf, where potrf passed (*info == 0, else
 * its status is kept): the first j + 1 with L_jj^2 <= rel |a_jj| (singular
 * matrices leave tiny positive pivots), or 0.  One block: each thread tests
 * rows j = t, t + blockDim.x, ..., the smallest failing j + 1 by a shared
 * atomicMin (one thread over the 125 rows of the 65^3 cube's coarse level
 * took 80 us, on the set-up's critical path: s13-gmg20). */
__global__ static void dense_pivot_kernel(const int32_t *rp, const int32_t *ci, const void *v, int dbl, int32_t n,
                                          double rel, const double *l, int *info)
{
    __shared__ int first;
    if (*info != 0) /* the same value in every thread: it is written after the barrier only */
        return;
    if (threadIdx.x == 0)
        first = INT_MAX;
    __syncthreads();
    for (int32_t j = threadIdx.x; j < n; j += blockDim.x) {
        double ajj = 0, d = l[(size_t)j * n + j];
        for (int32_t k = rp[j]; k < rp[j + 1]; k++)
            if (ci[k] == j)
                ajj = dense_value(v, dbl, k);
        if (!(d * d > rel * fabs(ajj)))
            atomicMin(&first, (int)j + 1);
    }
    __syncthreads();
    if (threadIdx.x == 0)
        *info = first == INT_MAX ? 0 : first;
}

__global__ static void dense_to_float_kernel(const double *src, float *dst, int64_t count)
{
    for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < count; e += (int64_t)gridDim.x * blockDim.x)
        dst[e] = (float)src[e];
}

/* Device work of the factorisation (freed after the stream's sync). */
typedef struct dense_work {
    double *a, *id, *work; /* A, the identity (then A^-1) unless the caller's, potrf's workspace */
    int *info;             /* potrf's status (then the pivot test's), potrs's */
} dense_work;

/* potrf's status, or where it passed the relative pivot test: one read, after
 * potrs (queued whatever the pivot: its result is dropped when a pivot
 * fails), so the host waits once for the whole factorisation, not for potrf
 * and then for potrs (s13-gmg23: the two waits with the host's potrs calls
 * between them on the set-up's critical path). */
static homg_status dense_pivot_read(kernel_exec *ex, dense_work *w, int *pivot)
{
    cudaStream_t s = homg_cuda_stream(ex);
    int host_info = 0;
    HOMG_CUDA_TRY(ex, cudaMemcpyAsync(&host_info, w->info, sizeof host_info, cudaMemcpyDeviceToHost, s));
    HOMG_CUDA_TRY(ex, cudaStreamSynchronize(s));
    if (host_info < 0)
        return homg_exec_fail(ex, HOMG_ERROR_BACKEND, "cusolverDnDpotrf: parameter %d is wrong", -host_info);
    *pivot = host_info;
    return HOMG_OK;
}

static homg_status dense_invert(kernel_exec *ex, sparse_handle *h, const csr_matrix *a, double rel, double *inv_d,
                                float *inv_f, int *pivot, dense_work *w)
{
    cudaStream_t s = homg_cuda_stream(ex);
    int32_t n = a->nrows;
    int64_t nn = (int64_t)n * n;
    int lwork = 0;
    double *id = inv_d;
    HOMG_TRY(handle_alloc(ex, h, (size_t)nn * sizeof(double), (void **)&w->a, "coarse solver"));
    if (!id) {
        HOMG_TRY(handle_alloc(ex, h, (size_t)nn * sizeof(double), (void **)&w->id, "coarse solver"));
        id = w->id;
    }
    HOMG_TRY(handle_alloc(ex, h, 2 * sizeof(int), (void **)&w->info, "coarse solver"));
    dense_zero_kernel<<<launch_blocks(nn, 65536), HOMG_THREADS, 0, s>>>(n, w->a, id);
    dense_scatter_kernel<<<launch_blocks(n), HOMG_THREADS, 0, s>>>(a->row_ptr, a->col_idx, a->values,
                                                                   a->precision == HOMG_FLOAT64, n, w->a);
    HOMG_CUDA_LAUNCHED(ex, "coarse matrix");
    HOMG_CUSOLVER_TRY(ex, cusolverDnSetStream(h->solver, s));
    HOMG_CUSOLVER_TRY(ex, cusolverDnDpotrf_bufferSize(h->solver, CUBLAS_FILL_MODE_LOWER, n, w->a, n, &lwork));
    HOMG_TRY(handle_alloc(ex, h, (size_t)(lwork > 0 ? lwork : 1) * sizeof(double), (void **)&w->work, "coarse solver"));
    HOMG_CUSOLVER_TRY(ex, cusolverDnDpotrf(h->solver, CUBLAS_FILL_MODE_LOWER, n, w->a, n, w->work, lwork, w->info));
    if (rel > 0) {
        dense_pivot_kernel<<<1, HOMG_THREADS, 0, s>>>(a->row_ptr, a->col_idx, a->values, a->precision == HOMG_FLOAT64,
                                                      n, rel, w->a, w->info);
        HOMG_CUDA_LAUNCHED(ex, "coarse pivots");
    }
    HOMG_CUSOLVER_TRY(ex, cusolverDnDpotrs(h->solver, CUBLAS_FILL_MODE_LOWER, n, n, w->a, n, id, n, w->info + 1));
    if (!inv_d) {
        dense_to_float_kernel<<<launch_blocks(nn, 65536), HOMG_THREADS, 0, s>>>(id, inv_f, nn);
        HOMG_CUDA_LAUNCHED(ex, "coarse inverse");
    }
    return dense_pivot_read(ex, w, pivot);
}

homg_status homg_cuda_dense_inverse(kernel_exec *ex, void *handle, const csr_matrix *a, double rel, double *inv_d,
                                    float *inv_f, int *pivot)
{
    sparse_handle *h = (sparse_handle *)handle;
    dense_work w = { NULL, NULL, NULL, NULL };
    homg_status st;
    *pivot = 0;
    if (a->nrows <= 0)
        return HOMG_OK;
    st = dense_invert(ex, h, a, rel, inv_d, inv_f, pivot, &w);
    /* The frees are ordered after the work on the stream only through this sync. */
    if (cudaStreamSynchronize(homg_cuda_stream(ex)) != cudaSuccess && st == HOMG_OK)
        st = homg_exec_fail(ex, HOMG_ERROR_BACKEND, "coarse solver: stream failed");
    handle_free(h, w.a);
    handle_free(h, w.id);
    handle_free(h, w.work);
    handle_free(h, w.info);
    return st;
}
