/* bench_half.c -- float16 against float32 storage on the general multigrid (issue 12,
 * HOMG_FLOAT16): a frame-loop solve warm-started from the previous frame's solution,
 * V(1,1) preconditioned CG (method VCYCLE, pre = post = 1):
 *   - one cycle: time and error against the float64 reference (FFT, direct);
 *   - cycles to error 1e-3 and their time; the error after N cycles (the floor).
 * Cases: the 1024^2 pure-Neumann pressure frame, the 2048^2 and 4096^2 Dirichlet box;
 * float32 on its default path and (box) on the general one beside float16.
 * Times: CUDA events around homg_grid_solve (the copy of the previous frame into u
 * outside), 3 warm-up runs, median of --reps (default 21).
 *   build/bench/bench_half [--reps R]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_timing.h"
#include "homg.h"
#include "testutil.h"

#if HOMG_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "grid/gen_half.h"

static void die(const char *what, homg_ctx *ctx)
{
    fprintf(stderr, "bench_half: %s: %s\n", what, homg_ctx_last_error(ctx));
    exit(1);
}

static size_t esize(homg_precision p) { return p == HOMG_FLOAT64 ? 8 : p == HOMG_FLOAT16 ? 2 : 4; }

static void *upload(homg_ctx *ctx, const double *x, size_t n, homg_precision p)
{
    void *h = malloc(n * esize(p)), *d = NULL;
    for (size_t k = 0; k < n; k++) {
        if (p == HOMG_FLOAT64)
            ((double *)h)[k] = x[k];
        else if (p == HOMG_FLOAT16)
            ((uint16_t *)h)[k] = gen_float_to_half((float)x[k]);
        else
            ((float *)h)[k] = (float)x[k];
    }
    if (homg_alloc(ctx, n * esize(p), &d) != HOMG_OK || homg_copy_from_host(ctx, d, h, n * esize(p)) != HOMG_OK)
        die("upload", ctx);
    free(h);
    return d;
}

static void download(homg_ctx *ctx, const void *d, double *x, size_t n, homg_precision p)
{
    void *h = malloc(n * esize(p));
    if (homg_copy_to_host(ctx, h, d, n * esize(p)) != HOMG_OK)
        die("download", ctx);
    for (size_t k = 0; k < n; k++)
        x[k] = p == HOMG_FLOAT64   ? ((double *)h)[k]
               : p == HOMG_FLOAT16 ? (double)gen_half_to_float(((uint16_t *)h)[k])
                                   : (double)((float *)h)[k];
    free(h);
}

/* ||u - ref|| / ||ref||, both with their means removed (the pure-Neumann solution is
 * defined up to a constant; the solvers return mean zero, this does not rely on it). */
static double rel_err(const double *u, const double *ref, size_t n)
{
    double e2 = 0, r2 = 0, mu = 0, mr = 0;
    for (size_t k = 0; k < n; k++) {
        mu += u[k];
        mr += ref[k];
    }
    mu /= (double)n;
    mr /= (double)n;
    for (size_t k = 0; k < n; k++) {
        e2 += (u[k] - mu - ref[k] + mr) * (u[k] - mu - ref[k] + mr);
        r2 += (ref[k] - mr) * (ref[k] - mr);
    }
    return sqrt(e2 / r2);
}

/* A pressure-like rhs at time t: smooth modes plus cell noise, moving slowly with t. */
static void frame_rhs(int N, double t, double *f)
{
    const double pi = 3.14159265358979323846;
    uint64_t s = 99;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) {
            double x = (i + 0.5) / N, y = (j + 0.5) / N, v;
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            v = 20 * cos(2 * pi * (x + 0.1 * t)) * sin(3 * pi * y) + 8 * sin(5 * pi * x * y + t) +
                4 * ((double)(s >> 11) / 9007199254740992.0 - 0.5);
            f[(size_t)j * N + i] = v;
        }
}

/* float64 reference by the default (FFT: constant coefficients, no flags). */
static void reference(homg_ctx *ctx, const homg_grid_desc *d, const double *f, double *u)
{
    const size_t n = (size_t)d->nx * d->ny;
    homg_grid_desc gd = *d;
    homg_grid *g = NULL;
    homg_solve_desc sd = { 0 };
    void *fd, *ud = NULL;
    gd.precision = HOMG_FLOAT64;
    gd.method = HOMG_METHOD_DEFAULT;
    if (homg_grid_create(ctx, &gd, &g) != HOMG_OK)
        die("reference grid", ctx);
    fd = upload(ctx, f, n, HOMG_FLOAT64);
    homg_alloc(ctx, n * 8, &ud);
    sd.max_cycles = 50;
    sd.tol = 1e-12;
    if (homg_grid_solve(g, fd, NULL, ud, &sd, NULL) != HOMG_OK)
        die("reference solve", ctx);
    download(ctx, ud, u, n, HOMG_FLOAT64);
    homg_grid_destroy(g);
    homg_free(ctx, fd);
    homg_free(ctx, ud);
}

/* One frame: u = the previous frame's u0 (untimed), then the solve (timed). */
typedef struct frame {
    homg_ctx *ctx;
    homg_grid *g;
    const void *f, *u0;
    void *u;
    size_t bytes;
    homg_solve_desc sd;
} frame;

static void frame_copy(void *arg, int r)
{
    frame *fr = (frame *)arg;
    cudaMemcpyAsync(fr->u, fr->u0, fr->bytes, cudaMemcpyDeviceToDevice, 0);
}

static void frame_solve(void *arg, int r)
{
    frame *fr = (frame *)arg;
    if (homg_grid_solve(fr->g, fr->f, NULL, fr->u, &fr->sd, NULL) != HOMG_OK)
        die("solve", fr->ctx);
}

static double time_cycles(homg_ctx *ctx, homg_grid *g, const void *f, const void *u0, void *u, size_t bytes, int cycles,
                          int reps)
{
    frame fr = { ctx, g, f, u0, u, bytes, { 0 } };
    fr.sd.max_cycles = cycles;
    fr.sd.warm_start = 1;
    fr.sd.skip_input_check = 1;
    return bench_event_median_ms(3, reps, frame_copy, frame_solve, &fr);
}

/* The error after `cycles` cycles from u0. */
static double error_after(homg_ctx *ctx, homg_grid *g, const void *f, const void *u0, void *u, size_t n,
                          homg_precision p, int cycles, const double *ref, double *host)
{
    homg_solve_desc sd = { 0 };
    sd.max_cycles = cycles;
    sd.warm_start = 1;
    cudaMemcpy(u, u0, n * esize(p), cudaMemcpyDeviceToDevice);
    if (homg_grid_solve(g, f, NULL, u, &sd, NULL) != HOMG_OK)
        die("solve", ctx);
    download(ctx, u, host, n, p);
    return rel_err(host, ref, n);
}

static void run_case(homg_ctx *ctx, const char *name, int N, homg_bc_kind kind, int reps, int most)
{
    const size_t n = (size_t)N * N;
    double *f0 = malloc(n * 8), *f1 = malloc(n * 8), *r0 = malloc(n * 8), *r1 = malloc(n * 8), *h = malloc(n * 8);
    homg_grid_desc d = { 0 };
    d.nx = d.ny = N;
    for (int s = 0; s < 6; s++)
        d.bc[s] = kind;
    frame_rhs(N, 0.00, f0);
    frame_rhs(N, 0.05, f1);
    reference(ctx, &d, f0, r0);
    reference(ctx, &d, f1, r1);
    printf("%s %d^2: previous frame's error %.2e\n", name, N, rel_err(r0, r1, n));
    /* variants: 0 float32 (the default path: the box solver on a power-of-two Dirichlet box),
     * 1 float32 on the general path (an all-active flags array), 2 float16 (the general path) */
    unsigned char *act = calloc(n, 1);
    void *fl = NULL;
    homg_alloc(ctx, n, &fl);
    homg_copy_from_host(ctx, fl, act, n);
    free(act);
    for (int q = 0; q < 3; q++) {
        static const char *const vname[3] = { "float32", "float32 general", "float16" };
        const homg_precision p = q >= 2 ? HOMG_FLOAT16 : HOMG_FLOAT32;
        homg_grid *g = NULL;
        homg_grid_operator op = { 0 };
        void *fd, *u0, *u = NULL;
        int need = 0;
        double e1, en = 1, floor_err, t1, tn = 0;
        if (q == 1 && kind == HOMG_BC_NEUMANN)
            continue; /* Neumann: float32 runs the general path already */
        fd = upload(ctx, f1, n, p);
        u0 = upload(ctx, r0, n, p);
        d.precision = p;
        d.method = HOMG_METHOD_VCYCLE;
        d.pre = d.post = 1;
        if (homg_grid_create(ctx, &d, &g) != HOMG_OK)
            die("grid", ctx);
        if (q == 1) {
            op.flags = (const unsigned char *)fl;
            if (homg_grid_set_operator(g, &op) != HOMG_OK)
                die("operator", ctx);
        }
        homg_alloc(ctx, n * esize(p), &u);
        e1 = error_after(ctx, g, fd, u0, u, n, p, 1, r1, h);
        for (int c = 1; c <= most && !need; c++)
            if ((en = error_after(ctx, g, fd, u0, u, n, p, c, r1, h)) <= 1e-3)
                need = c;
        floor_err = error_after(ctx, g, fd, u0, u, n, p, most, r1, h);
        t1 = time_cycles(ctx, g, fd, u0, u, n * esize(p), 1, reps);
        if (need)
            tn = time_cycles(ctx, g, fd, u0, u, n * esize(p), need, reps);
        printf("| %-14s | %5d^2 | %-15s | %.4f | %.2e | %2d | %.4f | %.2e | %d: %.2e |\n", name, N, vname[q], t1, e1,
               need, tn, need ? en : -1.0, most, floor_err);
        fflush(stdout);
        homg_grid_destroy(g);
        homg_free(ctx, fd);
        homg_free(ctx, u0);
        homg_free(ctx, u);
    }
    homg_free(ctx, fl);
    free(f0);
    free(f1);
    free(r0);
    free(r1);
    free(h);
}

int main(int argc, char **argv)
{
    int reps = 21;
    homg_ctx *ctx;
    for (int a = 1; a < argc; a++)
        if (!strcmp(argv[a], "--reps") && a + 1 < argc)
            reps = atoi(argv[++a]);
    if (!homg_cuda_available()) {
        printf("bench_half: no CUDA device\n");
        return 0;
    }
    ctx = homg_test_ctx(HOMG_BACKEND_CUDA);
    printf("device: %s; V(1,1)-preconditioned CG (VCYCLE, pre = post = 1), warm start = the previous frame's float64 "
           "solution rounded to the storage; median of %d\n",
           homg_ctx_device_name(ctx), reps);
    printf("| case | size | storage, path | 1 cycle ms | 1 cycle error | cycles to 1e-3 | their ms | their error | "
           "error after N |\n|---|---|---|---|---|---|---|---|---|\n");
    run_case(ctx, "pure Neumann", 1024, HOMG_BC_NEUMANN, reps, 30);
    run_case(ctx, "Dirichlet box", 2048, HOMG_BC_DIRICHLET, reps, 30);
    run_case(ctx, "Dirichlet box", 4096, HOMG_BC_DIRICHLET, reps, 12);
    homg_ctx_destroy(ctx);
    return 0;
}
#else
int main(void)
{
    printf("bench_half: built without CUDA\n");
    return 0;
}
#endif
