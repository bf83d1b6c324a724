/* bench_cube_split.c -- issue 9's finest 3D level split by colour (kernels/grid/cube_split.cu)
 * against the natural cube kernels (cube.cu), each pass alone: the median of `reps`
 * CUDA-event-timed launches (after 3 warm-up ones) at N^3, microseconds and GB/s at the
 * bytes the pass must move (a cell's float read or written once; the coarse arrays 1/8).
 *   build/bench/bench_cube_split [--sizes 128,256,512] [--reps 21] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "cubecase.h"
#include "event_timing.h"
#include "int_list.h"
#include "grid/cube_kernels.h"
#include "grid/cube_point.h"
#include "grid/cube_split.h"
#include "testutil.h"

#if HOMG_HAVE_CUDA
#include <cuda_runtime_api.h>

enum {
    NAT_SWEEP2,
    SPL_SWEEP2,
    SPL_SWEEP2_GS,
    SPL_SWEEP_NAT,
    NAT_PRE,
    SPL_PRE,
    SPL_PRE_FOLD,
    NAT_PROLONG,
    SPL_PROLONG,
    SPL_PROLONG_CS,
    NAT_RESTRICT,
    SPL_RESTRICT,
    SPL_RESTRICT_CS,
    SPL_RESTRICT_B1,
    SPL_RESTRICT_B3,
    SPL_RESTRICT_B4,
    SPL_RESTRICT_B3_CS,
    SPL_SPLIT,
    SPL_UNSPLIT,
    NOPS
};

/* Each pass's row name and the bytes a cell it must move. */
static const struct {
    const char *name;
    double bytes;
} passes[NOPS] = {
    [NAT_SWEEP2] = { "natural: 2 half-sweeps (SOR)", 24 },
    [SPL_SWEEP2] = { "split: 2 half-sweeps (SOR)", 16 },
    [SPL_SWEEP2_GS] = { "split: 2 half-sweeps (Gauss-Seidel)", 12 },
    [SPL_SWEEP_NAT] = { "split: half-sweep (SOR) + natural u", 12 },
    [NAT_PRE] = { "natural: pre", 8 },
    [SPL_PRE] = { "split: pre", 8 },
    [SPL_PRE_FOLD] = { "split: pre, f natural split on the way", 12 },
    [NAT_PROLONG] = { "natural: prolong + half-sweep", 12.5 },
    [SPL_PROLONG] = { "split: prolong + half-sweep", 8.5 },
    [SPL_PROLONG_CS] = { "split: prolong + half-sweep, coarse split", 8.5 },
    [NAT_RESTRICT] = { "natural: residual + restriction", 8.5 },
    [SPL_RESTRICT] = { "split: residual + restriction (quads)", 8.5 },
    [SPL_RESTRICT_CS] = { "split: residual + restriction (quads), coarse split", 8.5 },
    [SPL_RESTRICT_B1] = { "split: residual + restriction, each child row loaded once (167 registers)", 8.5 },
    [SPL_RESTRICT_B3] = { "split: residual + restriction, each child row once, <= 80 registers", 8.5 },
    [SPL_RESTRICT_B4] = { "split: residual + restriction, each child row once, <= 64 registers", 8.5 },
    [SPL_RESTRICT_B3_CS] = { "split: residual + restriction, each child row once, <= 80, coarse split", 8.5 },
    [SPL_SPLIT] = { "split f", 8 },
    [SPL_UNSPLIT] = { "unsplit u", 8 },
};

typedef struct pass_run {
    kernel_exec *ex;
    cube_level K, gs;
    float *u, *f, *su, *sf, *ec, *fc, *nat;
    int op;
} pass_run;

static void pass_once(void *arg, int r)
{
    pass_run *p = (pass_run *)arg;
    kernel_exec *ex = p->ex;
    const cube_level *K = &p->K;
    (void)r;
    switch (p->op) {
    case NAT_SWEEP2: homg_cuda_cube_sweep(ex, K, p->u, p->f, 0), homg_cuda_cube_sweep(ex, K, p->u, p->f, 1); break;
    case SPL_SWEEP2:
        homg_cuda_cubesplit_sweep(ex, K, p->su, p->sf, 0, NULL),
            homg_cuda_cubesplit_sweep(ex, K, p->su, p->sf, 1, NULL);
        break;
    case SPL_SWEEP2_GS:
        homg_cuda_cubesplit_sweep(ex, &p->gs, p->su, p->sf, 0, NULL);
        homg_cuda_cubesplit_sweep(ex, &p->gs, p->su, p->sf, 1, NULL);
        break;
    case SPL_SWEEP_NAT: homg_cuda_cubesplit_sweep(ex, K, p->su, p->sf, 1, p->nat); break;
    case NAT_PRE: homg_cuda_cube_pre(ex, K, p->u, p->f); break;
    case SPL_PRE: homg_cuda_cubesplit_pre(ex, K, p->su, p->sf, NULL); break;
    case SPL_PRE_FOLD: homg_cuda_cubesplit_pre(ex, K, p->su, p->sf, p->f); break;
    case NAT_PROLONG: homg_cuda_cube_prolong_smooth(ex, K, p->ec, p->u, p->f, 0); break;
    case SPL_PROLONG:
    case SPL_PROLONG_CS:
        homg_cuda_cubesplit_prolong_smooth(ex, K, p->ec, p->su, p->sf, 0, p->op == SPL_PROLONG_CS);
        break;
    case NAT_RESTRICT: homg_cuda_cube_residual_restrict(ex, K, p->u, p->f, p->fc); break;
    case SPL_RESTRICT:
    case SPL_RESTRICT_CS: /* the quads (HOMG_CSP_RBLK=0) */
        setenv("HOMG_CSP_RBLK", "0", 1);
        homg_cuda_cubesplit_residual_restrict(ex, K, p->su, p->sf, p->fc, p->op == SPL_RESTRICT_CS);
        unsetenv("HOMG_CSP_RBLK");
        break;
    case SPL_RESTRICT_B1:
    case SPL_RESTRICT_B3:
    case SPL_RESTRICT_B4:
    case SPL_RESTRICT_B3_CS:
        setenv("HOMG_CSP_RBLK", p->op == SPL_RESTRICT_B1 ? "1" : p->op == SPL_RESTRICT_B4 ? "4" : "3", 1);
        homg_cuda_cubesplit_residual_restrict(ex, K, p->su, p->sf, p->fc, p->op == SPL_RESTRICT_B3_CS);
        unsetenv("HOMG_CSP_RBLK");
        break;
    case SPL_SPLIT: homg_cuda_cubesplit_split(ex, K, p->f, p->sf); break;
    default: homg_cuda_cubesplit_unsplit(ex, K, p->su, p->nat); break;
    }
}

static float *dev(const float *h, size_t n)
{
    void *d = NULL;
    cudaMalloc(&d, n * sizeof(float));
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    return (float *)d;
}

static void size_rows(homg_ctx *ctx, int N, int reps)
{
    const size_t n = (size_t)N * N * N;
    homg_rng rng = homg_rng_seed(5);
    gen_level L, C;
    pass_run p;
    float *h = cube_case_random(n, &rng);
    memset(&p, 0, sizeof p);
    cube_case_level(3, &L, &C); /* 16^3 Dirichlet's constants at N^3 */
    L.nx = L.ny = L.nz = N;
    if (!cube_from_gen(&L, &p.K))
        return;
    p.K.omega = 1.1f;
    p.gs = p.K;
    p.gs.omega = 1.0f;
    p.ex = &ctx->ex;
    p.u = dev(h, n), p.f = dev(h, n), p.su = dev(h, n), p.sf = dev(h, n), p.nat = dev(h, n);
    p.ec = dev(h, n / 8), p.fc = dev(h, n / 8);
    for (int op = 0; op < NOPS; op++) {
        p.op = op;
        const double us = 1e3 * bench_event_median_ms(3, reps, NULL, pass_once, &p);
        printf("| %d^3 | %s | %.1f | %.0f |\n", N, passes[op].name, us, passes[op].bytes * (double)n / (us * 1e3));
        fflush(stdout);
    }
    cudaFree(p.u), cudaFree(p.f), cudaFree(p.su), cudaFree(p.sf), cudaFree(p.nat), cudaFree(p.ec), cudaFree(p.fc);
    free(h);
}

int main(int argc, char **argv)
{
    int sizes[8] = { 128, 256, 512 }, ns = 3, reps = 21;
    for (int a = 1; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "--reps"))
            reps = atoi(argv[a + 1]) > 0 ? atoi(argv[a + 1]) : reps;
        if (!strcmp(argv[a], "--sizes"))
            ns = bench_int_list(argv[a + 1], sizes, 8);
    }
    if (!homg_cuda_available()) {
        printf("bench_cube_split: needs a CUDA device; nothing measured\n");
        return 0;
    }
    homg_ctx *ctx = homg_test_ctx(HOMG_BACKEND_CUDA);
    printf("%s, cube passes alone, median of %d (us; GB/s at the bytes the pass must move)\n\n",
           homg_ctx_device_name(ctx), reps);
    printf("| size | pass | us | GB/s |\n|---|---|---|---|\n");
    for (int s = 0; s < ns; s++)
        size_rows(ctx, sizes[s], reps);
    homg_ctx_destroy(ctx);
    return 0;
}
#else
int main(void)
{
    printf("bench_cube_split: built without CUDA; nothing measured\n");
    return 0;
}
#endif
