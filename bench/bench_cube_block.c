/* bench_cube_block.c -- issue 9/12's 3D coarse levels in one block (kernels/grid/cube_coarse.cu):
 * the plain 3D Poisson box (float32, Dirichlet, from u = 0) with the levels of <= 512 cells (8^3)
 * in one launch (the default), a launch per step (HOMG_CUBE_BLOCK_CELLS=0) and the levels of
 * <= 4096 cells (16^3) in one launch, beside the FFT: cycles to error 1e-4 against the float64
 * FFT solution, launches per solve, the median of `reps` CUDA-event-timed solves of that many
 * cycles (tol = 0, after a warm-up).  Then the coarse cycle alone from 16^3 and 32 x 32 x 16:
 * one block against the cube kernels' launches (events around the whole, no graph).
 *   build/bench/bench_cube_block [--sizes 64,128,256,512] [--reps 9] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "cubeblock.h"
#include "event_timing.h"
#include "int_list.h"
#include "grid/cube_kernels.h"
#include "testutil.h"

#if HOMG_HAVE_CUDA
#include <cuda_runtime_api.h>

typedef struct solve_run {
    homg_grid *g;
    const void *f;
    void *u;
    homg_solve_desc sd;
    size_t bytes;
} solve_run;

static void zero_u(void *arg, int r)
{
    solve_run *s = (solve_run *)arg;
    (void)r;
    cudaMemsetAsync(s->u, 0, s->bytes, 0);
}

static void solve_once(void *arg, int r)
{
    solve_run *s = (solve_run *)arg;
    (void)r;
    homg_grid_solve(s->g, s->f, NULL, s->u, &s->sd, NULL);
}

static homg_grid *box(homg_ctx *ctx, int n, homg_precision p, homg_method m)
{
    homg_grid_desc gd = { 0 };
    homg_grid_operator op = { 0 };
    homg_grid *g = NULL;
    gd.nx = gd.ny = gd.nz = n;
    gd.precision = p;
    gd.method = m;
    if (homg_grid_create(ctx, &gd, &g) != HOMG_OK || homg_grid_set_operator(g, &op) != HOMG_OK) {
        printf("  %d^3: %s\n", n, homg_ctx_last_error(ctx));
        return NULL;
    }
    return g;
}

static void *dev(const void *h, size_t bytes)
{
    void *d = NULL;
    cudaMalloc(&d, bytes);
    if (h)
        cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
    return d;
}

/* The float64 FFT solution as float32 on the device. */
static void *reference(homg_ctx *ctx, int n, const float *fh)
{
    const size_t c = (size_t)n * n * n;
    double *fd = (double *)malloc(c * sizeof(double));
    float *uf = (float *)malloc(c * sizeof(float));
    homg_solve_desc sd = { 0 };
    homg_grid *g = box(ctx, n, HOMG_FLOAT64, HOMG_METHOD_FFT);
    for (size_t k = 0; k < c; k++)
        fd[k] = fh[k];
    void *f = dev(fd, c * sizeof(double)), *u = dev(NULL, c * sizeof(double)), *r;
    sd.max_cycles = 1;
    homg_grid_solve(g, f, NULL, u, &sd, NULL);
    cudaMemcpy(fd, u, c * sizeof(double), cudaMemcpyDeviceToHost);
    for (size_t k = 0; k < c; k++)
        uf[k] = (float)fd[k];
    r = dev(uf, c * sizeof(float));
    homg_grid_destroy(g);
    cudaFree(f), cudaFree(u), free(fd), free(uf);
    return r;
}

/* One row: method m with HOMG_CUBE_BLOCK_CELLS=cells (NULL: unset, the default 512). */
static void row(homg_ctx *ctx, int n, homg_method m, const char *cells, const void *f, const void *uref, int reps)
{
    const size_t c = (size_t)n * n * n;
    solve_run s;
    homg_solve_info info;
    memset(&s, 0, sizeof s);
    char what[64];
    if (cells)
        setenv("HOMG_CUBE_BLOCK_CELLS", cells, 1);
    s.g = box(ctx, n, HOMG_FLOAT32, m);
    unsetenv("HOMG_CUBE_BLOCK_CELLS");
    if (!s.g)
        return;
    s.f = f;
    s.u = dev(NULL, c * sizeof(float));
    s.bytes = c * sizeof(float);
    s.sd.u_ref = uref;
    s.sd.tol = 1e-4;
    s.sd.max_cycles = m == HOMG_METHOD_FFT ? 1 : 50;
    cudaMemset(s.u, 0, s.bytes);
    homg_grid_solve(s.g, f, NULL, s.u, &s.sd, &info);
    const double err = info.norm;
    const int cycles = info.cycles;
    s.sd.u_ref = NULL;
    s.sd.tol = 0;
    s.sd.max_cycles = cycles;
    s.sd.skip_input_check = 1;
    homg_grid_solve(s.g, f, NULL, s.u, &s.sd, &info);
    const double ms = bench_event_median_ms(2, reps, zero_u, solve_once, &s);
    snprintf(what, sizeof what, "vcycle, HOMG_CUBE_BLOCK_CELLS=%s", cells ? cells : "unset (512)");
    printf("| %d^3 | %s | %d | %.2e | %ld | %.3f |\n", n, m == HOMG_METHOD_FFT ? "fft" : what, cycles, err,
           info.launches, ms);
    fflush(stdout);
    homg_grid_destroy(s.g);
    cudaFree(s.u);
}

typedef struct coarse_run {
    homg_ctx *ctx;
    cube_block D;
    int block;
} coarse_run;

static void coarse_once(void *arg, int r)
{
    coarse_run *c = (coarse_run *)arg;
    kernel_exec *ex = &c->ctx->ex;
    const cube_block *D = &c->D;
    (void)r;
    if (c->block)
        homg_cuda_cubeblk_vcycle(ex, D);
    else
        cube_block_steps(ex, &homg_cuda_cube_kernels, &homg_cuda_gen_kernels, D);
}

/* The coarse cycle alone: 16^3 (3 levels) and 32 x 32 x 16 (4 levels), V(2,2), SOR 1.1. */
static void coarse_alone(homg_ctx *ctx, int reps)
{
    static const int dims[][4] = { { 16, 16, 16, 3 }, { 32, 32, 16, 4 } };
    printf("\n| coarse cycle from | levels | one block (us) | cube kernel launches (us) | launches |\n"
           "|---|---|---|---|---|\n");
    for (int t = 0; t < 2; t++) {
        cube_block H;
        coarse_run c;
        int launches = 1;
        if (!cube_block_case(&ctx->ex, 0, dims[t][0], dims[t][1], dims[t][2], dims[t][3], 1.1f, 0, 2, 2, 9, &H))
            continue;
        c.ctx = ctx;
        c.D = H;
        for (int q = 0; q < H.n; q++) {
            const size_t n = cube_block_cells(&H, q);
            c.D.x[q] = (float *)dev(H.x[q], n * sizeof(float));
            c.D.b[q] = (float *)dev(H.b[q], n * sizeof(float));
        }
        c.D.cm =
            (const float *)dev(H.cm, cube_block_cells(&H, H.n - 1) * cube_block_cells(&H, H.n - 1) * sizeof(float));
        c.block = 1;
        const double blk = 1e3 * bench_event_median_ms(3, reps * 5, NULL, coarse_once, &c);
        c.block = 0;
        const double seq = 1e3 * bench_event_median_ms(3, reps * 5, NULL, coarse_once, &c);
        for (int q = 0; q + 1 < H.n; q++)
            launches += 1 + (2 * H.pre[q] - 2) + 1 + 1 + (2 * H.post[q] - 1);
        printf("| %dx%dx%d | %d | %.1f | %.1f | %d |\n", dims[t][0], dims[t][1], dims[t][2], H.n, blk, seq, launches);
        for (int q = 0; q < H.n; q++)
            cudaFree(c.D.x[q]), cudaFree(c.D.b[q]);
        cudaFree((void *)c.D.cm);
        cube_block_case_free(&H);
    }
}

int main(int argc, char **argv)
{
    int sizes[8] = { 64, 128, 256, 512 }, ns = 4, reps = 9;
    for (int a = 1; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "--reps"))
            reps = atoi(argv[a + 1]) > 0 ? atoi(argv[a + 1]) : reps;
        if (!strcmp(argv[a], "--sizes"))
            ns = bench_int_list(argv[a + 1], sizes, 8);
    }
    if (!homg_cuda_available()) {
        printf("bench_cube_block: needs a CUDA device; nothing measured\n");
        return 0;
    }
    homg_ctx *ctx = homg_test_ctx(HOMG_BACKEND_CUDA);
    printf("%s, 3D Poisson box float32 Dirichlet, from u = 0 to error 1e-4 (vs the float64 FFT), median of %d\n\n",
           homg_ctx_device_name(ctx), reps);
    printf("| size | method | cycles | error | launches | time (ms) |\n|---|---|---|---|---|---|\n");
    for (int s = 0; s < ns; s++) {
        const int n = sizes[s];
        const size_t c = (size_t)n * n * n;
        float *fh = (float *)malloc(c * sizeof(float));
        unsigned r = 99;
        for (size_t k = 0; k < c; k++) { /* bench/grid_general.c's random_f */
            r = r * 1664525u + 1013904223u;
            fh[k] = (float)((r >> 8) % 2001) / 1000.0f - 1.0f;
        }
        void *uref = reference(ctx, n, fh), *f = dev(fh, c * sizeof(float));
        row(ctx, n, HOMG_METHOD_VCYCLE, NULL, f, uref, reps);
        row(ctx, n, HOMG_METHOD_VCYCLE, "0", f, uref, reps);
        row(ctx, n, HOMG_METHOD_VCYCLE, "4096", f, uref, reps);
        row(ctx, n, HOMG_METHOD_FFT, NULL, f, uref, reps);
        cudaFree(uref), cudaFree(f), free(fh);
    }
    coarse_alone(ctx, reps);
    homg_ctx_destroy(ctx);
    return 0;
}
#else
int main(void)
{
    printf("bench_cube_block: built without CUDA; nothing measured\n");
    return 0;
}
#endif
