/* bench_coarse.c -- the coarse-levels kernel alone (coarse_cycle: one thread block,
 * kernels/grid/grid_coarse.cu, or a thread-block cluster, grid_coarse_cluster.cu):
 * microseconds per launch for tops of 64^2 .. 512^2 (float32, Dirichlet data on
 * every face, the box's hierarchy down to 32^2 solved exactly), each mode, cluster
 * sizes 1 .. 16, V(2,2) and V(1,1); median of 21 launches timed one by one with CUDA
 * events after a warm-up.  Then where the time of one 256^2 launch goes: block 0's
 * clock64 at the start of every step (grid_coarse.clock), summed per kind and level.
 * A diagnosis tool for the GPU machine.
 *
 *   build/bench/bench_coarse [N ...]      (default 64 128 256 512)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "homg.h"
#include "testutil.h"

#if HOMG_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "core/internal.h"
#include "grid/grid_internal.h"
#include "grid/grid_kernels.h"

#define REPS  21
#define MARKS 4000

static kernel_exec *ex;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Uploads n doubles as floats. */
static void *upload(const double *x, size_t n)
{
    float *h = (float *)malloc(n * sizeof(float));
    void *d = NULL;
    for (size_t k = 0; k < n; k++)
        h[k] = (float)x[k];
    cudaMalloc(&d, n * sizeof(float));
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    free(h);
    return d;
}

typedef struct problem {
    grid_coarse C;
    void *u, *f, *face[4];
} problem;

static void make_problem(problem *P, int N)
{
    const size_t n = (size_t)N * N;
    double *x = (double *)malloc(n * sizeof(double)), qx[32 * 32], ex_[32], inv[32 * 32], h = 1.0 / N;
    homg_rng rng = homg_rng_seed(42);
    memset(P, 0, sizeof *P);
    for (size_t k = 0; k < n; k++)
        x[k] = homg_rng_uniform(&rng) - 0.5;
    P->f = upload(x, n);
    P->u = upload(x, n);
    for (int s = 0; s < 4; s++) {
        P->face[s] = upload(x, (size_t)N);
        P->C.lev[0].bc[s] = P->face[s];
    }
    P->C.lev[0].nx = P->C.lev[0].ny = N;
    P->C.lev[0].inv_h2 = 1.0 / (h * h);
    for (P->C.nlev = 1; P->C.lev[P->C.nlev - 1].nx > 32; P->C.nlev++) {
        grid_level *L = &P->C.lev[P->C.nlev];
        *L = P->C.lev[P->C.nlev - 1];
        L->nx /= 2;
        L->ny /= 2;
        L->inv_h2 /= 4;
        memset((void *)L->bc, 0, sizeof L->bc);
        h *= 2;
    }
    homg__grid_sine_basis(32, h, qx, ex_);
    for (int j = 0; j < 32; j++)
        for (int i = 0; i < 32; i++)
            inv[j * 32 + i] = 1.0 / (ex_[i] + ex_[j]);
    P->C.qx = P->C.qy = upload(qx, 32 * 32);
    P->C.inv_eig = upload(inv, 32 * 32);
    P->C.bottom_sweeps = 16;
    free(x);
}

static void free_problem(problem *P)
{
    cudaFree(P->u);
    cudaFree(P->f);
    for (int s = 0; s < 4; s++)
        cudaFree(P->face[s]);
    cudaFree((void *)P->C.qx);
    cudaFree((void *)P->C.inv_eig);
}

/* Median microseconds of one launch; -1 when the launch is refused. */
static double time_launch(problem *P)
{
    cudaEvent_t e0, e1;
    double t[REPS];
    float ms;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    for (int w = 0; w < 3; w++)
        if (homg_cuda_grid_kernels.coarse_cycle(ex, HOMG_FLOAT32, &P->C, P->u, P->f) != HOMG_OK)
            return -1;
    for (int r = 0; r < REPS; r++) {
        cudaEventRecord(e0, (cudaStream_t)ex->stream);
        homg_cuda_grid_kernels.coarse_cycle(ex, HOMG_FLOAT32, &P->C, P->u, P->f);
        cudaEventRecord(e1, (cudaStream_t)ex->stream);
        cudaEventSynchronize(e1);
        cudaEventElapsedTime(&ms, e0, e1);
        t[r] = 1e3 * ms;
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    if (cudaGetLastError() != cudaSuccess)
        return -1;
    qsort(t, REPS, sizeof t[0], cmp_double);
    return t[REPS / 2];
}

static const char *const mode_names[3] = { "V zero", "V keep", "FMG" };
static const char *const kind_names[7] = { "sweep", "restrict", "prolong", "bottom", "zero", "start", "end" };

/* Block 0's marks of one launch, summed per (level, kind), in microseconds. */
static void profile(problem *P, int mode, double khz)
{
    long long *d = NULL, h[1 + 2 * MARKS];
    double sum[16][7] = { { 0 } };
    int cnt[16][7] = { { 0 } };
    cudaMalloc((void **)&d, sizeof h);
    P->C.mode = mode;
    P->C.clock = d;
    homg_cuda_grid_kernels.coarse_cycle(ex, HOMG_FLOAT32, &P->C, P->u, P->f); /* warm */
    homg_cuda_grid_kernels.coarse_cycle(ex, HOMG_FLOAT32, &P->C, P->u, P->f);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    P->C.clock = NULL;
    cudaFree(d);
    const int m = (int)h[0];
    printf("\nwhere one %dx%d %s launch goes (cluster %d, V(%d,%d)): %d steps, %.2f us from the first step to the "
           "end\n",
           P->C.lev[0].nx, P->C.lev[0].ny, mode_names[mode], P->C.cluster, P->C.pre, P->C.post, m - 2,
           m > 1 ? (double)(h[1 + 2 * (m - 1)] - h[1]) / khz * 1e3 : 0.0);
    for (int i = 0; i + 1 < m; i++) {
        const int w = (int)h[2 + 2 * i], k = w / 16 & 15, kind = w % 16;
        sum[k][kind] += (double)(h[1 + 2 * (i + 1)] - h[1 + 2 * i]) / khz * 1e3;
        cnt[k][kind]++;
    }
    printf("| level | side | step | count | us total | us each |\n|---|---|---|---|---|---|\n");
    for (int k = 0; k < P->C.nlev; k++)
        for (int kind = 0; kind < 6; kind++)
            if (cnt[k][kind])
                printf("| %d | %d | %s | %d | %.2f | %.3f |\n", k, P->C.lev[k].nx, kind_names[kind], cnt[k][kind],
                       sum[k][kind], sum[k][kind] / cnt[k][kind]);
}

int main(int argc, char **argv)
{
    int sizes[8] = { 64, 128, 256, 512 }, ns = 4, dev = 0, khz = 0;
    const int clusters[] = { 1, 2, 4, 8, 16 };
    if (argc > 1) {
        ns = 0;
        for (int a = 1; a < argc && ns < 8; a++)
            sizes[ns++] = atoi(argv[a]);
    }
    if (!homg_cuda_available()) {
        printf("bench_coarse: needs a CUDA device; nothing measured\n");
        return 0;
    }
    homg_ctx *ctx = homg_test_ctx(HOMG_BACKEND_CUDA);
    ex = &ctx->ex;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev);
    printf("%s, coarse_cycle float32, us per launch (median of %d, events around each launch)\n\n",
           homg_ctx_device_name(ctx), REPS);
    printf("| top | V(pre,post) | mode | 1 block | 2 | 4 | 8 | 16 |\n|---|---|---|---|---|---|---|---|\n");
    for (int s = 0; s < ns; s++) {
        problem P;
        make_problem(&P, sizes[s]);
        for (int v = 2; v >= 1; v--)
            for (int mode = 0; mode < 3; mode++) {
                P.C.pre = P.C.post = v;
                P.C.mode = mode;
                printf("| %d^2 | V(%d,%d) | %s |", sizes[s], v, v, mode_names[mode]);
                for (int c = 0; c < 5; c++) {
                    P.C.cluster = clusters[c];
                    double us = time_launch(&P);
                    (void)cudaGetLastError();
                    if (us < 0)
                        printf(" - |");
                    else
                        printf(" %.1f |", us);
                }
                printf("\n");
            }
        free_problem(&P);
    }
    printf("\n16 blocks, the levels up to `solo` cells in block 0 alone (default 1024):\n\n");
    printf("| top | V(2,2) mode | solo 1024 | solo 4096 | solo 16384 |\n|---|---|---|---|---|\n");
    for (int s = 0; s < ns; s++) {
        problem P;
        if (sizes[s] < 128)
            continue;
        make_problem(&P, sizes[s]);
        P.C.pre = P.C.post = 2;
        P.C.cluster = 16;
        for (int mode = 1; mode < 3; mode++) {
            P.C.mode = mode;
            printf("| %d^2 | %s |", sizes[s], mode_names[mode]);
            for (int solo = 1024; solo <= 16384; solo *= 4) {
                P.C.solo_cells = solo;
                double us = time_launch(&P);
                (void)cudaGetLastError();
                printf(us < 0 ? " - |" : " %.1f |", us);
            }
            printf("\n");
        }
        free_problem(&P);
    }
    for (int s = 0; s < ns; s++) {
        if (sizes[s] != 256)
            continue;
        problem P;
        make_problem(&P, 256);
        P.C.pre = P.C.post = 2;
        P.C.cluster = 16;
        for (int mode = 1; mode < 3; mode++)
            profile(&P, mode, khz);
        free_problem(&P);
    }
    homg_ctx_destroy(ctx);
    return 0;
}
#else
int main(void)
{
    printf("bench_coarse: built without CUDA; nothing measured\n");
    return 0;
}
#endif
