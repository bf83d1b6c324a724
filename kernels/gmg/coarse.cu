/* coarse.cu -- CUDA twin of the GMG coarsest level's dense inverse: the CSR
 * matrix scattered into a dense column-major array, cuSOLVER's double Cholesky
 * (potrf), then potrs on the identity.  CPU twin: coarse.c beside it. */
#include "gmg_kernels.h"
#include "sparse/sparse_util.cuh"

__global__ static void gmg_dense_zero_kernel(int32_t n, double *a, double *id)
{
    for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < (int64_t)n * n;
         e += (int64_t)gridDim.x * blockDim.x) {
        a[e] = 0;
        id[e] = e % (n + 1) == 0 ? 1.0 : 0.0; /* column-major identity: the diagonal every n+1 */
    }
}

__global__ static void gmg_dense_scatter_kernel(const int32_t *rp, const int32_t *ci, const double *v, int32_t n,
                                                double *a)
{
    for (int32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        for (int32_t k = rp[i]; k < rp[i + 1]; k++)
            if (ci[k] >= 0 && ci[k] < n)
                a[(size_t)ci[k] * n + i] = v[k];
}

/* The relative pivot test of the CPU twin after potrf: the first j + 1 with
 * L_jj^2 <= 1e-12 |a_jj| (singular matrices leave tiny positive pivots), or 0. */
__global__ static void gmg_pivot_kernel(const int32_t *rp, const int32_t *ci, const double *v, int32_t n,
                                        const double *l, int *info)
{
    if (blockIdx.x * blockDim.x + threadIdx.x != 0)
        return;
    for (int32_t j = 0; j < n; j++) {
        double ajj = 0, d = l[(size_t)j * n + j];
        for (int32_t k = rp[j]; k < rp[j + 1]; k++)
            if (ci[k] == j)
                ajj = v[k];
        if (!(d * d > 1e-12 * fabs(ajj))) {
            *info = j + 1;
            return;
        }
    }
    *info = 0;
}

typedef struct gmg_dense_work {
    double *a, *work;
    int *info;
} gmg_dense_work;

/* potrs writes A^-1 over the identity, which is inv itself. */
static homg_status gmg_dense_invert(kernel_exec *ex, sparse_handle *h, const csr_matrix *a, double *inv, int *pivot,
                                    gmg_dense_work *w)
{
    cudaStream_t s = homg_cuda_stream(ex);
    int32_t n = a->nrows;
    int64_t nn = (int64_t)n * n;
    int lwork = 0, host_info = 0;
    HOMG_TRY(handle_alloc(ex, h, (size_t)nn * sizeof(double), (void **)&w->a, "GMG coarse solver"));
    HOMG_TRY(handle_alloc(ex, h, sizeof(int), (void **)&w->info, "GMG coarse solver"));
    gmg_dense_zero_kernel<<<launch_blocks(nn, 65536), HOMG_THREADS, 0, s>>>(n, w->a, inv);
    gmg_dense_scatter_kernel<<<launch_blocks(n), HOMG_THREADS, 0, s>>>(a->row_ptr, a->col_idx,
                                                                       (const double *)a->values, n, w->a);
    HOMG_CUDA_LAUNCHED(ex, "GMG coarse matrix");
    HOMG_CUSOLVER_TRY(ex, cusolverDnSetStream(h->solver, s));
    HOMG_CUSOLVER_TRY(ex, cusolverDnDpotrf_bufferSize(h->solver, CUBLAS_FILL_MODE_LOWER, n, w->a, n, &lwork));
    HOMG_TRY(
        handle_alloc(ex, h, (size_t)(lwork > 0 ? lwork : 1) * sizeof(double), (void **)&w->work, "GMG coarse solver"));
    HOMG_CUSOLVER_TRY(ex, cusolverDnDpotrf(h->solver, CUBLAS_FILL_MODE_LOWER, n, w->a, n, w->work, lwork, w->info));
    HOMG_CUDA_TRY(ex, cudaMemcpyAsync(&host_info, w->info, sizeof host_info, cudaMemcpyDeviceToHost, s));
    HOMG_CUDA_TRY(ex, cudaStreamSynchronize(s));
    if (host_info == 0) {
        gmg_pivot_kernel<<<1, 1, 0, s>>>(a->row_ptr, a->col_idx, (const double *)a->values, n, w->a, w->info);
        HOMG_CUDA_LAUNCHED(ex, "GMG coarse pivots");
        HOMG_CUDA_TRY(ex, cudaMemcpyAsync(&host_info, w->info, sizeof host_info, cudaMemcpyDeviceToHost, s));
    }
    HOMG_CUDA_TRY(ex, cudaStreamSynchronize(s));
    if (host_info < 0)
        return homg_exec_fail(ex, HOMG_ERROR_BACKEND, "cusolverDnDpotrf: parameter %d is wrong", -host_info);
    *pivot = host_info;
    if (host_info > 0)
        return HOMG_OK; /* the leading minor of this order is not positive definite */
    HOMG_CUSOLVER_TRY(ex, cusolverDnDpotrs(h->solver, CUBLAS_FILL_MODE_LOWER, n, n, w->a, n, inv, n, w->info));
    return HOMG_OK;
}

homg_status homg_cuda_gmg_dense_inverse(kernel_exec *ex, void *handle, const csr_matrix *a, double *inv, int *pivot)
{
    sparse_handle *h = (sparse_handle *)handle;
    gmg_dense_work w = { NULL, NULL, NULL };
    homg_status st;
    *pivot = 0;
    if (a->nrows <= 0)
        return HOMG_OK;
    st = gmg_dense_invert(ex, h, a, inv, pivot, &w);
    /* The frees are ordered after the work on the stream only through this sync. */
    if (cudaStreamSynchronize(homg_cuda_stream(ex)) != cudaSuccess && st == HOMG_OK)
        st = homg_exec_fail(ex, HOMG_ERROR_BACKEND, "GMG coarse solver: stream failed");
    handle_free(h, w.a);
    handle_free(h, w.work);
    handle_free(h, w.info);
    return st;
}
