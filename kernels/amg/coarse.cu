/* coarse.cu -- CUDA backend: the coarsest level's dense inverse (cuSOLVER
 * double Cholesky, potrf, then potrs on the identity: core/dense_inverse.cu,
 * shared with GMG) and its application (one thread per row, coalesced over the
 * column-major inverse).  Twin of coarse.c beside it. */
#include "amg_common.h"
#include "amg_kernels.h"
#include "core/dense_inverse.h"
#include "sparse/sparse_util.cuh"

homg_status homg_cuda_amg_dense_inverse(kernel_exec *ex, void *handle, const csr_matrix *a, float *inv, int *pivot)
{
    return homg_cuda_dense_inverse(ex, handle, a, 0.0, NULL, inv, pivot); /* potrf's own pivot test */
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
