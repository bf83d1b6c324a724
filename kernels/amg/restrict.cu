/* restrict.cu -- CUDA backend: restriction y = P^T x from P's rows, one
 * thread per row adding its entries into y with atomics (the coarse rows
 * number a tenth of the fine ones, so contention stays low). Twin of
 * restrict.c beside it. */
#include "amg_common.h"
#include "amg_kernels.h"
#include "sparse/sparse_util.cuh"

__global__ static void zero_kernel(int32_t n, float *y)
{
    FOR_ROWS(i, n)
    y[i] = 0.0f;
}

__global__ static void scatter_kernel(const int32_t *rp, const int32_t *ci, const float *v, int32_t n, const float *x,
                                      float *y)
{
    FOR_ROWS(i, n)
    {
        float xi = x[i];
        if (xi != 0.0f)
            for (int32_t k = rp[i]; k < rp[i + 1]; k++)
                atomicAdd(&y[ci[k]], v[k] * xi);
    }
}

homg_status homg_cuda_amg_restrict_pt(kernel_exec *ex, const csr_matrix *p, const float *x, float *y)
{
    cudaStream_t s = homg_cuda_stream(ex);
    zero_kernel<<<launch_blocks(p->ncols), HOMG_THREADS, 0, s>>>(p->ncols, y);
    HOMG_CUDA_LAUNCHED(ex, "restrict_pt zero");
    scatter_kernel<<<launch_blocks(p->nrows), HOMG_THREADS, 0, s>>>(p->row_ptr, p->col_idx, (const float *)p->values,
                                                                    p->nrows, x, y);
    HOMG_CUDA_LAUNCHED(ex, "restrict_pt");
    return HOMG_OK;
}
