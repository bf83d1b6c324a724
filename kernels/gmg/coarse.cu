/* coarse.cu -- CUDA twin of the GMG coarsest level's dense inverse: the CSR
 * matrix scattered into a dense column-major array, cuSOLVER's double Cholesky
 * (potrf), then potrs on the identity (core/dense_inverse.cu, shared with
 * AMG).  CPU twin: coarse.c beside it. */
#include "core/dense_inverse.h"
#include "gmg_kernels.h"
#include "sparse/sparse_util.cuh"

homg_status homg_cuda_gmg_dense_inverse(kernel_exec *ex, void *handle, const csr_matrix *a, double *inv, int *pivot)
{
    /* the CPU twin's relative pivot test: singular matrices leave tiny positive pivots */
    return homg_cuda_dense_inverse(ex, handle, a, 1e-12, inv, NULL, pivot);
}

/* One thread an entry of the n x n pattern, plus the n + 1 row starts. */
__global__ static void dense_pattern_kernel(int32_t n, int32_t *rp, int32_t *ci)
{
    int64_t nn = (int64_t)n * n;
    for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < nn + n + 1;
         e += (int64_t)gridDim.x * blockDim.x) {
        if (e < nn)
            ci[e] = (int32_t)(e % n);
        else
            rp[e - nn] = (int32_t)((e - nn) * n);
    }
}

homg_status homg_cuda_gmg_dense_pattern(kernel_exec *ex, int32_t n, int32_t *row_ptr, int32_t *col_idx)
{
    if (n <= 0)
        return HOMG_OK;
    dense_pattern_kernel<<<launch_blocks((int64_t)n * n + n + 1, 65536), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(
        n, row_ptr, col_idx);
    HOMG_CUDA_LAUNCHED(ex, "coarse inverse pattern");
    return HOMG_OK;
}
