/* copy_bandwidth.c -- see copy_bandwidth.h. */
#include "copy_bandwidth.h"

#include "homg.h"
#include "testutil.h"

#if HOMG_HAVE_CUDA
#include <cuda_runtime_api.h>

double bench_copy_ms(size_t bytes)
{
    enum { REPS = 11 };
    void *a = NULL, *b = NULL;
    cudaEvent_t e0, e1;
    double t[REPS], m = 0;
    if (cudaMalloc(&a, bytes) == cudaSuccess && cudaMalloc(&b, bytes) == cudaSuccess) {
        cudaMemset(a, 1, bytes);
        cudaEventCreate(&e0);
        cudaEventCreate(&e1);
        for (int r = -1; r < REPS; r++) {
            float ms;
            cudaEventRecord(e0, 0);
            cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, 0);
            cudaEventRecord(e1, 0);
            cudaEventSynchronize(e1);
            cudaEventElapsedTime(&ms, e0, e1);
            if (r >= 0) /* the first copy warms up */
                t[r] = ms;
        }
        cudaEventDestroy(e0);
        cudaEventDestroy(e1);
        m = homg_test_median(t, REPS);
    }
    cudaFree(a);
    cudaFree(b);
    return m;
}
#else
double bench_copy_ms(size_t bytes)
{
    (void)bytes;
    return 0;
}
#endif

double bench_copy_gbs(void)
{
    size_t bytes = (size_t)1 << 30;
    double ms = bench_copy_ms(bytes);
    return ms > 0 ? 2.0 * (double)bytes / (ms * 1e6) : 0;
}
