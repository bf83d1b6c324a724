/* bench_grid_kernels.c -- per-kernel timings of the structured-grid primitives
 * (the pieces bench_grid's cycles are made of): CUDA events around 20 launches
 * after a warm-up, microseconds per launch and achieved GB/s of the ideal
 * traffic.  A diagnosis tool for the GPU machine.
 *
 *   build/bench/bench_grid_kernels [N ...]      (default 256 1024 4096)
 */
#include <stdio.h>
#include <stdlib.h>

#include "homg.h"
#include "testutil.h"

#if HOMG_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "grid/grid_kernels.h"
#include "core/internal.h"

#define REPS 20

static kernel_exec *ex;

typedef homg_status (*launch_fn)(void *arg);

static double time_us(launch_fn fn, void *arg)
{
    cudaEvent_t e0, e1;
    float ms;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    for (int w = 0; w < 3; w++)
        fn(arg);
    cudaEventRecord(e0, (cudaStream_t)ex->stream);
    for (int r = 0; r < REPS; r++)
        if (fn(arg) != HOMG_OK) {
            printf("launch failed: %s\n", ex->msg);
            exit(1);
        }
    cudaEventRecord(e1, (cudaStream_t)ex->stream);
    cudaEventSynchronize(e1);
    cudaEventElapsedTime(&ms, e0, e1);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return 1e3 * ms / REPS;
}

typedef struct args {
    homg_precision p;
    grid_level L;
    void *u, *u2, *f, *fc, *ec, *qx, *qy, *ie;
    int init, sweeps;
} args;

static homg_status k_down(void *a_)
{
    args *a = (args *)a_;
    return homg_cuda_grid_kernels.smooth_restrict(ex, a->p, &a->L, a->u, a->u2, a->f, a->fc, a->sweeps, a->init, a->ec);
}
static homg_status k_up(void *a_)
{
    args *a = (args *)a_;
    return homg_cuda_grid_kernels.prolong_smooth(ex, a->p, &a->L, a->ec, a->u, a->u2, a->f, a->sweeps, 0);
}
static homg_status k_smooth(void *a_)
{
    args *a = (args *)a_;
    return homg_cuda_grid_kernels.smooth(ex, a->p, &a->L, a->u, a->f, 1);
}
static homg_status k_resres(void *a_)
{
    args *a = (args *)a_;
    return homg_cuda_grid_kernels.residual_restrict(ex, a->p, &a->L, a->u, a->f, a->fc);
}
static homg_status k_prolong(void *a_)
{
    args *a = (args *)a_;
    return homg_cuda_grid_kernels.prolong(ex, a->p, &a->L, a->ec, a->u, 0);
}
static homg_status k_coarse(void *a_)
{
    args *a = (args *)a_;
    return homg_cuda_grid_kernels.coarse_exact(ex, a->p, &a->L, a->u, a->f, a->qx, a->qy, a->ie);
}

int main(int argc, char **argv)
{
    int sizes[8] = { 256, 1024, 4096 }, ns = 3;
    if (argc > 1) {
        ns = 0;
        for (int a = 1; a < argc && ns < 8; a++)
            sizes[ns++] = atoi(argv[a]);
    }
    if (!homg_cuda_available()) {
        printf("bench_grid_kernels: needs a CUDA device; nothing measured\n");
        return 0;
    }
    homg_ctx *ctx = homg_test_ctx(HOMG_BACKEND_CUDA);
    ex = &ctx->ex;
    printf("%s\n%-28s %6s %8s %10s %8s\n", homg_ctx_device_name(ctx), "kernel", "N", "prec", "us/launch", "GB/s");
    for (int s = 0; s < ns; s++)
        for (int p = 0; p < 2; p++) {
            int N = sizes[s];
            size_t e = p ? 8 : 4, n = (size_t)N * N;
            args a = { 0 };
            a.p = (homg_precision)p;
            a.L.nx = a.L.ny = N;
            a.L.inv_h2 = (double)N * N;
            cudaMalloc(&a.u, n * e);
            cudaMalloc(&a.u2, n * e);
            cudaMalloc(&a.f, n * e);
            cudaMalloc(&a.fc, n * e / 4);
            cudaMalloc(&a.ec, n * e / 4);
            cudaMemset(a.u, 0, n * e);
            cudaMemset(a.f, 0, n * e);
            cudaMemset(a.fc, 0, n * e / 4);
            cudaMemset(a.ec, 0, n * e / 4);
            const char *pn = p ? "float64" : "float32";
            double gb = (double)n * e / 1e3; /* bytes per us -> GB/s factor */
            static const char *init_names[3] = { "down keep S=2", "down zero S=2", "down prolong S=2" };
            for (int init = 0; init < 3; init++) {
                a.init = init;
                a.sweeps = 2;
                double us = time_us(k_down, &a), vals = 2.25 + (init == 0) + 0.25 * (init == 2);
                printf("%-28s %6d %8s %10.2f %8.0f\n", init_names[init], N, pn, us, vals * gb / us);
            }
            for (int S = 0; S <= 3; S += 3) {
                a.init = 0;
                a.sweeps = S;
                double us = time_us(k_down, &a);
                printf("%-24s S=%d %6d %8s %10.2f %8.0f\n", "down keep", S, N, pn, us, 3.25 * gb / us);
            }
            a.sweeps = 2;
            double us = time_us(k_up, &a);
            printf("%-28s %6d %8s %10.2f %8.0f\n", "up S=2", N, pn, us, 3.25 * gb / us);
            us = time_us(k_smooth, &a);
            printf("%-28s %6d %8s %10.2f %8.0f\n", "textbook sweep (2 launches)", N, pn, us, 4 * gb / us);
            us = time_us(k_resres, &a);
            printf("%-28s %6d %8s %10.2f %8.0f\n", "textbook residual+restrict", N, pn, us, 2.25 * gb / us);
            us = time_us(k_prolong, &a);
            printf("%-28s %6d %8s %10.2f %8.0f\n", "textbook prolong", N, pn, us, 2.25 * gb / us);
            cudaFree(a.u);
            cudaFree(a.u2);
            cudaFree(a.f);
            cudaFree(a.fc);
            cudaFree(a.ec);
        }
    for (int p = 0; p < 2; p++) {
        args a = { 0 };
        size_t e = p ? 8 : 4;
        a.p = (homg_precision)p;
        a.L.nx = a.L.ny = 32;
        a.L.inv_h2 = 1024;
        cudaMalloc(&a.u, 1024 * e);
        cudaMalloc(&a.f, 1024 * e);
        cudaMalloc(&a.qx, 1024 * e);
        cudaMalloc(&a.qy, 1024 * e);
        cudaMalloc(&a.ie, 1024 * e);
        cudaMemset(a.f, 0, 1024 * e);
        cudaMemset(a.qx, 0, 1024 * e);
        cudaMemset(a.qy, 0, 1024 * e);
        cudaMemset(a.ie, 0, 1024 * e);
        printf("%-28s %6d %8s %10.2f\n", "coarse exact", 32, p ? "float64" : "float32", time_us(k_coarse, &a));
    }
    homg_ctx_destroy(ctx);
    return 0;
}
#else
int main(void)
{
    printf("bench_grid_kernels: built without CUDA; nothing measured\n");
    return 0;
}
#endif
