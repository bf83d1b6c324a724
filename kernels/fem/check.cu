/* check.cu -- the coefficient scan on the GPU: the smallest index that breaks a
 * rule, by atomicMin into one word (no host copy of the array).
 * CPU twin: check.c beside it. */
#include "core/cuda_check.h"
#include "fem_check.h"

#define THREADS 256

__global__ void fem_check_kernel(const double *x, int64_t n, int rule, const uint8_t *mask, unsigned long long *first)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        if ((!mask || mask[i] == 1) && fem_check_bad(x, i, rule)) {
            atomicMin(first, (unsigned long long)i);
            return; /* later indices of this thread are larger */
        }
}

homg_status homg_cuda_fem_check_values(kernel_exec *ex, const double *x, int64_t n, int rule, const uint8_t *mask,
                                       uint64_t *first)
{
    cudaStream_t s = homg_cuda_stream(ex);
    int64_t blocks = (n + THREADS - 1) / THREADS, cap = (int64_t)(ex->sm_count > 0 ? ex->sm_count : 1) * 8;
    HOMG_CUDA_TRY(ex, cudaMemsetAsync(first, 0xff, sizeof *first, s)); /* FEM_CHECK_NONE */
    if (n <= 0)
        return HOMG_OK;
    fem_check_kernel<<<(unsigned)(blocks < cap ? blocks : cap), THREADS, 0, s>>>(x, n, rule, mask,
                                                                                 (unsigned long long *)first);
    HOMG_CUDA_LAUNCHED(ex, "fem_check_kernel");
    return HOMG_OK;
}
