/* event_timing.c -- see event_timing.h. */
#include "event_timing.h"

#include <stdlib.h>

#include "testutil.h"

#if HOMG_HAVE_CUDA
#include <cuda_runtime_api.h>

double bench_event_median_ms(int warmup, int reps, bench_rep_fn before, bench_rep_fn body, void *arg)
{
    cudaEvent_t e0, e1;
    double *t = (double *)malloc((size_t)reps * sizeof(double)), m;
    if (!t)
        return 0;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    for (int r = -warmup; r < reps; r++) {
        float ms;
        if (before)
            before(arg, r);
        cudaEventRecord(e0, 0);
        body(arg, r);
        cudaEventRecord(e1, 0);
        cudaEventSynchronize(e1);
        cudaEventElapsedTime(&ms, e0, e1);
        if (r >= 0)
            t[r] = ms;
    }
    m = homg_test_median(t, reps);
    free(t);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return m;
}
#else
double bench_event_median_ms(int warmup, int reps, bench_rep_fn before, bench_rep_fn body, void *arg)
{
    (void)warmup, (void)reps, (void)before, (void)body, (void)arg;
    return 0;
}
#endif
