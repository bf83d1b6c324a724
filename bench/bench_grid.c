/* bench_grid.c -- the structured-grid benchmark (issue 2): 2D Poisson with an
 * exact discrete solution (smooth part + noise, non-zero Dirichlet data), from
 * u = 0 to error <= 1e-4 (float32) and <= 1e-8 (float64), for
 *   fmg     homg's default: full multigrid with fused whole-level kernels
 *   vcycle  the textbook GPU multigrid: red-black Gauss-Seidel V(2,2), one kernel per
 *           colour sweep / residual-restriction / prolongation, CUDA graph
 *   fcycle  the same with F-cycles
 *   fused-v the fused cycles of fmg without its full-multigrid first cycle: V-cycles
 *           from u = 0 given as a warm start (the zeroing timed with the solve)
 *   homg    seed 003's algorithm as read in lib/grid/mfmg.c
 *   fft     the FFT direct solve (lib/fft through bench/fft_poisson.c)
 * and a warm-started solve (1024^2, previous solution of a changed right-hand
 * side, to error <= 1e-3).
 *
 * Each multigrid method first finds the fewest cycles that reach the accuracy
 * (monitoring the error on the device), then times that fixed number of cycles
 * as one graph launch: CUDA events, warm-up, median of >= 21 runs, inputs
 * rotated over enough buffers to leave the L2 cache.  The error printed is the
 * one the timed configuration reaches.
 *
 * --general: instead, issue 9's general problems (bench/grid_general.c: 3D boxes,
 * obstacles, a sigma jump, warm Neumann projections, 1920x1080 vs 2048x1024,
 * bytes per unknown).
 *
 * Prints the table last; --out FILE also writes it to FILE (nothing is written by
 * default: bench/results/h100.md and h100_grid_general.md are edited by hand).
 *   build/bench/bench_grid [--sizes 256,512,...] [--reps R] [--methods fft,fused-v,...] [--out FILE]
 *                          [--general [--max3d N] [--cases 0,3,...: rows of the case table]]
 * (with --general, --methods filters default,vcycle,fft)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "copy_bandwidth.h"
#include "event_timing.h"
#include "grid_general.h"
#include "homg.h"
#include "poisson2d.h"
#include "table_out.h"
#include "testutil.h"

#if HOMG_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "fft_poisson.h"

#define MAX_ROT  8
#define L2_BYTES (50.0 * 1024 * 1024)

typedef struct row {
    int n;
    const char *prec, *method;
    int cycles;
    double ms, err, wu, gbs, pct, vs_fft;
    long launches;
    int syncs; /* host syncs inside the timed solve (-1: not a library solve) */
} row;

#define MAX_ROWS 512
static row rows[MAX_ROWS];
static const char *only; /* --methods: comma-separated names to run (NULL: all) */

static int wanted(const char *name)
{
    const char *p = only;
    size_t n = strlen(name);
    if (!only)
        return 1;
    for (; (p = strstr(p, name)) != NULL; p += n)
        if ((p == only || p[-1] == ',') && (p[n] == ',' || p[n] == 0))
            return 1;
    return 0;
}
static int nrows;
static double copy_gbs;

static void die(const char *what, homg_ctx *ctx)
{
    fprintf(stderr, "bench_grid: %s: %s\n", what, ctx ? homg_ctx_last_error(ctx) : "");
    exit(1);
}

/* Rotated copies of one problem's f (and a u per copy) in the ctx's space. */
typedef struct inputs {
    int nrot;
    size_t n, elem;
    void *f[MAX_ROT], *u[MAX_ROT];
    void *u_ref;
    homg_boundary bc;
} inputs;

static inputs make_inputs(homg_ctx *ctx, const homg_p2 *p, homg_precision prec)
{
    inputs in;
    size_t n = (size_t)p->nx * p->ny, elem = prec == HOMG_FLOAT64 ? 8 : 4;
    double footprint = 2.0 * n * elem;
    in.n = n;
    in.elem = elem;
    in.nrot = (int)ceil(2 * L2_BYTES / footprint);
    if (in.nrot < 1)
        in.nrot = 1;
    if (in.nrot > MAX_ROT)
        in.nrot = MAX_ROT;
    for (int r = 0; r < in.nrot; r++) {
        in.f[r] = homg_test_upload(ctx, p->f, n, prec);
        if (homg_alloc(ctx, n * elem, &in.u[r]) != HOMG_OK)
            die("alloc", ctx);
    }
    in.u_ref = homg_test_upload(ctx, p->u_star, n, prec);
    in.bc = homg_test_boundary(ctx, p, prec);
    return in;
}

static void free_inputs(homg_ctx *ctx, inputs *in)
{
    for (int r = 0; r < in->nrot; r++) {
        homg_free(ctx, in->f[r]);
        homg_free(ctx, in->u[r]);
    }
    homg_free(ctx, in->u_ref);
    homg_test_free_boundary(ctx, &in->bc);
}

/* One timed solve on rotated inputs (buffer r mod nrot). */
typedef struct solve_rep {
    homg_ctx *ctx;
    homg_grid *g;
    inputs *in;
    homg_solve_desc sd;
    int warm;
    homg_solve_info *info;
} solve_rep;

static void solve_once(void *arg, int r)
{
    solve_rep *s = (solve_rep *)arg;
    int k = (r + 3 * MAX_ROT) % s->in->nrot;
    if (s->warm == 2)
        cudaMemsetAsync(s->in->u[k], 0, (size_t)s->in->n * s->in->elem, 0);
    if (homg_grid_solve(s->g, s->in->f[k], &s->in->bc, s->in->u[k], &s->sd, s->info) != HOMG_OK)
        die("solve", s->ctx);
}

/* Times `cycles` cycles from u = 0 (or warm) on rotated inputs; median ms.  warm == 2:
 * V-cycles from u = 0 as a warm start, the zeroing of u inside the timed window. */
static double time_solve(homg_ctx *ctx, homg_grid *g, inputs *in, int cycles, int warm, int reps, homg_solve_info *info)
{
    solve_rep s = { ctx, g, in, { 0 }, warm, info };
    s.sd.max_cycles = cycles;
    s.sd.skip_input_check = 1;
    s.sd.warm_start = warm;
    /* the warm-up captures a graph per buffer */
    return bench_event_median_ms(3 + in->nrot, reps, NULL, solve_once, &s);
}

static void add_row(int n, homg_precision prec, const char *method, int cycles, double ms, double err, double wu,
                    long launches, double bytes, int syncs)
{
    if (nrows == MAX_ROWS) {
        fprintf(stderr, "bench_grid: more than %d rows; ask for fewer sizes or methods\n", MAX_ROWS);
        exit(1);
    }
    row *r = &rows[nrows++];
    r->syncs = syncs;
    r->n = n;
    r->prec = prec == HOMG_FLOAT64 ? "float64" : "float32";
    r->method = method;
    r->cycles = cycles;
    r->ms = ms;
    r->err = err;
    r->wu = wu;
    r->launches = launches;
    r->gbs = bytes / (ms * 1e-3) / 1e9;
    r->pct = 100 * r->gbs / copy_gbs;
    r->vs_fft = 0;
}

/* fused-v to the error target with a tolerance: the test on the device (the cycles loop
 * in one graph, one host read) and on the host (HOMG_GRID_DEVICE_LOOP=0, a read after each
 * cycle); each solve's cycles found by the solve itself, as a caller's would be. */
static void bench_tolerance(homg_ctx *ctx, const homg_p2 *p, inputs *in, homg_precision prec, double target, int reps)
{
    static const char *names[2] = { "fused-v tol, device loop", "fused-v tol, host loop" };
    if (!wanted("tol"))
        return;
    for (int k = 0; k < 2; k++) {
        homg_grid_desc gd = { 0 };
        homg_grid *g = NULL;
        homg_solve_info info;
        gd.nx = p->nx;
        gd.ny = p->ny;
        gd.method = HOMG_METHOD_FMG;
        gd.precision = prec;
        if (homg_grid_create(ctx, &gd, &g) != HOMG_OK)
            die("grid", ctx);
        if (k)
            setenv("HOMG_GRID_DEVICE_LOOP", "0", 1);
        solve_rep s = { ctx, g, in, { 0 }, 2, &info };
        s.sd.max_cycles = 30;
        s.sd.tol = target;
        s.sd.u_ref = in->u_ref;
        s.sd.skip_input_check = 1;
        s.sd.warm_start = 1;
        double ms = bench_event_median_ms(3 + in->nrot, reps, NULL, solve_once, &s);
        unsetenv("HOMG_GRID_DEVICE_LOOP");
        add_row(p->nx, prec, names[k], info.cycles, ms, info.norm, info.work_units, info.launches, info.bytes,
                info.host_syncs);
        printf("  %-7s %s %5d^2: %2d cycles  %8.4f ms  error %.2e  %4ld launches  %d host syncs\n", names[k],
               prec ? "float64" : "float32", p->nx, info.cycles, ms, info.norm, info.launches, info.host_syncs);
        homg_grid_destroy(g);
    }
}

/* One multigrid method at one size and precision. */
/* zero_warm: V-cycles from u = 0 passed as a warm start (FMG's fused cycles without
 * the full-multigrid first cycle). */
static void bench_method(homg_ctx *ctx, const homg_p2 *p, inputs *in, homg_precision prec, homg_method m,
                         const char *name, double target, int reps, int zero_warm)
{
    homg_grid_desc gd = { 0 };
    homg_grid *g = NULL;
    homg_solve_desc sd = { 0 };
    homg_solve_info info;
    double err;
    int max = m == HOMG_METHOD_HOMG ? 200 : 30;
    if (!wanted(name))
        return;
    gd.nx = p->nx;
    gd.ny = p->ny;
    gd.method = m;
    gd.precision = prec;
    gd.pre = getenv("HOMG_BENCH_PRE") ? atoi(getenv("HOMG_BENCH_PRE")) : 0; /* bench-only: V(pre, post) rows */
    gd.post = getenv("HOMG_BENCH_POST") ? atoi(getenv("HOMG_BENCH_POST")) : 0;
    if (homg_grid_create(ctx, &gd, &g) != HOMG_OK)
        die("grid", ctx);
    /* fewest cycles to the target, measured on the device */
    sd.max_cycles = max;
    sd.tol = target;
    sd.u_ref = in->u_ref;
    sd.warm_start = zero_warm;
    if (zero_warm)
        cudaMemset(in->u[0], 0, in->n * in->elem);
    homg_status st = homg_grid_solve(g, in->f[0], &in->bc, in->u[0], &sd, &info);
    if (st != HOMG_OK && st != HOMG_ERROR_NOT_CONVERGED)
        die("solve", ctx);
    if (!info.converged) {
        printf("  %-7s %s %5d^2: did not reach %.0e in %d cycles (%.2e)\n", name, prec ? "float64" : "float32", p->nx,
               target, max, info.norm);
        homg_grid_destroy(g);
        return;
    }
    int cycles = info.cycles;
    /* the error of exactly that configuration: tol = 0, so the fixed number of cycles with no
     * host read in between; u_ref adds the error's norm after each cycle on the device, which
     * leaves u as it is.  The timed solves (time_solve) run without u_ref: nothing monitored. */
    memset(&sd, 0, sizeof sd);
    sd.max_cycles = cycles;
    sd.u_ref = in->u_ref;
    sd.warm_start = zero_warm;
    for (int r = 0; r < 2; r++) {
        if (zero_warm)
            cudaMemset(in->u[0], 0, in->n * in->elem);
        homg_grid_solve(g, in->f[0], &in->bc, in->u[0], &sd, r ? &info : NULL);
    }
    err = info.norm;
    double ms = time_solve(ctx, g, in, cycles, zero_warm ? 2 : 0, reps, &info);
    add_row(p->nx, prec, name, cycles, ms, err, info.work_units, info.launches, info.bytes, info.host_syncs);
    printf("  %-7s %s %5d^2: %2d cycles  %8.4f ms  error %.2e  %6.1f WU  %4ld launches  %6.0f GB/s\n", name,
           prec ? "float64" : "float32", p->nx, cycles, ms, err, info.work_units, info.launches, rows[nrows - 1].gbs);
    homg_grid_destroy(g);
}

/* The fused V-cycles under benchmark knobs (NULL-terminated name, value pairs):
 * main's settings (before issue 12's session 5: textbook steps below 2048^2, one
 * tile shape, plain launches) and each change alone undone. */
static const char *const main_env[] = { "HOMG_BOX_FUSED_CELLS",
                                        "4194304",
                                        "HOMG_BOX_TILE_CELLS",
                                        "0",
                                        "HOMG_BOX_WIDE_CELLS",
                                        "0",
                                        "HOMG_BOX_PDL",
                                        "0",
                                        "HOMG_BOX_ROWS_CELLS",
                                        "1e300",
                                        "HOMG_BOX_SCHED",
                                        "0",
                                        NULL };
static const char *const big_tile_env[] = { "HOMG_BOX_TILE_CELLS", "0", "HOMG_BOX_WIDE_CELLS", "0", NULL };
/* session 5's default (small 256-thread tiles up to 1024^2, no wide tile) and the
 * wide (1024-thread) tile up to other sizes than the default 512^2 */
static const char *const s5_env[] = { "HOMG_BOX_WIDE_CELLS", "0", "HOMG_BOX_ROWS_CELLS", "1e300", NULL };
/* other cycles: V(3,3), V(3,2), V(2,3) (sweeps of 3 take the tile kernels), V(1,1) */
static const char *const v33_env[] = { "HOMG_BENCH_PRE", "3", "HOMG_BENCH_POST", "3", NULL };
static const char *const v32_env[] = { "HOMG_BENCH_PRE", "3", "HOMG_BENCH_POST", "2", NULL };
static const char *const v23_env[] = { "HOMG_BENCH_PRE", "2", "HOMG_BENCH_POST", "3", NULL };
static const char *const v11_env[] = { "HOMG_BENCH_PRE", "1", "HOMG_BENCH_POST", "1", NULL };
static const char *const wide256_env[] = { "HOMG_BOX_WIDE_CELLS", "65536", NULL };
static const char *const wide1024_env[] = { "HOMG_BOX_WIDE_CELLS", "1048576", "HOMG_BOX_ROWS_CELLS", "1e300", NULL };
static const char *const no_pdl_env[] = { "HOMG_BOX_PDL", "0", NULL };
/* the finest level's cycle boundaries as two steps (HOMG_BOX_MID=0), and the mid step's thread rows */
static const char *const mid_off_env[] = { "HOMG_BOX_MID", "0", NULL };
static const char *const mid_t8_env[] = { "HOMG_BOX_ROWS_MID_T", "8", NULL };
static const char *const mid_t10_env[] = { "HOMG_BOX_ROWS_MID_T", "10", NULL };
static const char *const mid_t16_env[] = { "HOMG_BOX_ROWS_MID_T", "16", NULL };
static const char *const textbook_env[] = { "HOMG_BOX_FUSED_CELLS", "4194304", NULL };
/* the owned-cell steps of grid_owned.cu (default up to 512^2): off (the wide tiles: main's
 * kernels, but the exact solve's programmatic launch), up to 256^2, up to 1024^2 (the 1024^2
 * level not in row blocks) */
static const char *const owned_off_env[] = { "HOMG_BOX_OWNED_CELLS", "0", NULL };
static const char *const owned256_env[] = { "HOMG_BOX_OWNED_CELLS", "65536", NULL };
static const char *const owned1024_env[] = { "HOMG_BOX_OWNED_CELLS", "1048576", "HOMG_BOX_ROWS_CELLS", "1e300", NULL };
/* the row-block steps of grid_rows.cu (default on every float32 level from 1024^2, 12 thread
 * rows a block): off (the tiles there), from 512^2 (instead of the owned steps there too),
 * with 8, 10 or 16 thread rows a block */
static const char *const rows_off_env[] = { "HOMG_BOX_ROWS_CELLS", "1e300", NULL };
static const char *const rows512_env[] = { "HOMG_BOX_ROWS_CELLS", "262144", NULL };
static const char *const rows_t8_env[] = { "HOMG_BOX_ROWS_T", "8", NULL };
static const char *const rows_t10_env[] = { "HOMG_BOX_ROWS_T", "10", NULL };
static const char *const rows_t16_env[] = { "HOMG_BOX_ROWS_T", "16", NULL };
/* the fused cycles' sweeps per level (HOMG_BOX_SCHED, lib/grid/box.c: "first;later", each
 * V(P, Q) per level from the finest, the last pair repeated; CPU errors in
 * bench/results/cpu_box_schedules.md): V(2,2) everywhere (the plan off: main before session 12),
 * V(2,1) on the finest, V(2,1) everywhere (float32's default since), the first cycle V(2,2) and later ones V(1,1) on the finest (V(2,2) /
 * V(2,1) below), V(2,1) then V(1,1) on the finest.  Row names use '.' for the plan's ','
 * (--methods splits on commas). */
static const char *const sched22_env[] = { "HOMG_BOX_SCHED", "0", NULL };
static const char *const sched21_env[] = { "HOMG_BOX_SCHED", "21,22", NULL };
static const char *const sched2121_env[] = { "HOMG_BOX_SCHED", "21,21", NULL };
static const char *const sched1122_env[] = { "HOMG_BOX_SCHED", "22;11,22", NULL };
static const char *const sched1121_env[] = { "HOMG_BOX_SCHED", "22;11,21", NULL };
static const char *const sched2111_env[] = { "HOMG_BOX_SCHED", "21,22;11,22", NULL };

static void bench_env(homg_ctx *ctx, const homg_p2 *p, inputs *in, const char *name, double target, int reps,
                      const char *const *env)
{
    char *old[HOMG_TEST_MAX_ENV];
    homg_test_env_set(env, old);
    bench_method(ctx, p, in, HOMG_FLOAT32, HOMG_METHOD_FMG, name, target, reps, 1);
    homg_test_env_restore(env, old);
}

/* One FFT solve on rotated inputs (buffer r mod nrot). */
typedef struct fft_rep {
    fft_poisson *fp;
    void **f, **u;
    int nrot;
} fft_rep;

static void fft_once(void *arg, int r)
{
    fft_rep *s = (fft_rep *)arg;
    int k = (r + 3 * MAX_ROT) % s->nrot;
    fft_poisson_solve(s->fp, s->f[k], s->u[k]);
}

/* The FFT baseline on the same problem: the Dirichlet data folded into f.  Returns its
 * time (0: not asked for, no row). */
static double bench_fft(const homg_p2 *p, homg_precision prec, int reps)
{
    size_t n = (size_t)p->nx * p->ny, elem = prec == HOMG_FLOAT64 ? 8 : 4;
    double *rhs = (double *)malloc(n * sizeof(double)), ih2 = 1.0 / (p->h * p->h);
    void *hbuf = malloc(n * elem), *f[MAX_ROT], *u[MAX_ROT];
    int nrot = (int)ceil(2 * L2_BYTES / (2.0 * n * elem));
    if (!wanted("fft")) {
        free(rhs);
        free(hbuf);
        return 0;
    }
    fft_poisson *fp = NULL;
    fft_poisson_cost cost;
    double *uh = (double *)malloc(n * sizeof(double));
    nrot = nrot < 1 ? 1 : nrot > MAX_ROT ? MAX_ROT : nrot;
    for (int j = 0; j < p->ny; j++)
        for (int i = 0; i < p->nx; i++) {
            double b = 0;
            if (i == 0 && p->g[0])
                b += p->g[0][j];
            if (i == p->nx - 1 && p->g[1])
                b += p->g[1][j];
            if (j == 0 && p->g[2])
                b += p->g[2][i];
            if (j == p->ny - 1 && p->g[3])
                b += p->g[3][i];
            rhs[(size_t)j * p->nx + i] = p->f[(size_t)j * p->nx + i] + 2 * b * ih2;
        }
    for (size_t k = 0; k < n; k++) {
        if (prec == HOMG_FLOAT64)
            ((double *)hbuf)[k] = rhs[k];
        else
            ((float *)hbuf)[k] = (float)rhs[k];
    }
    for (int r = 0; r < nrot; r++) {
        cudaMalloc(&f[r], n * elem);
        cudaMalloc(&u[r], n * elem);
        cudaMemcpy(f[r], hbuf, n * elem, cudaMemcpyHostToDevice);
    }
    if (fft_poisson_create(p->nx, p->ny, p->h, p->lambda, prec == HOMG_FLOAT64, NULL, &fp) != FFT_POISSON_OK) {
        fprintf(stderr, "bench_grid: fft_poisson_create failed\n");
        exit(1);
    }
    fft_poisson_get_cost(fp, &cost);
    fft_rep fr = { fp, f, u, nrot };
    double ms = bench_event_median_ms(3 + nrot, reps, NULL, fft_once, &fr);
    cudaMemcpy(hbuf, u[0], n * elem, cudaMemcpyDeviceToHost);
    for (size_t k = 0; k < n; k++)
        uh[k] = prec == HOMG_FLOAT64 ? ((double *)hbuf)[k] : ((float *)hbuf)[k];
    double err = homg_rel_diff(uh, p->u_star, n);
    add_row(p->nx, prec, "fft", 1, ms, err, 0, cost.launches, cost.bytes, -1);
    printf("  %-7s %s %5d^2:            %8.4f ms  error %.2e             %4d launches  %6.0f GB/s\n", "fft",
           prec ? "float64" : "float32", p->nx, ms, err, cost.launches, rows[nrows - 1].gbs);
    fft_poisson_destroy(fp);
    for (int r = 0; r < nrot; r++) {
        cudaFree(f[r]);
        cudaFree(u[r]);
    }
    free(rhs);
    free(hbuf);
    free(uh);
    return ms;
}

/* One warm-started frame: u = the previous solution u1 (untimed), then the solve. */
typedef struct warm_rep {
    homg_grid *g;
    const void *f;
    const homg_boundary *bc;
    void *u;
    const void *u1;
    size_t bytes;
    homg_solve_desc sd;
    homg_solve_info *info;
} warm_rep;

static void warm_copy(void *arg, int r)
{
    warm_rep *w = (warm_rep *)arg;
    cudaMemcpy(w->u, w->u1, w->bytes, cudaMemcpyDeviceToDevice);
}

static void warm_solve(void *arg, int r)
{
    warm_rep *w = (warm_rep *)arg;
    homg_grid_solve(w->g, w->f, w->bc, w->u, &w->sd, w->info);
}

/* Warm start: solve problem 1 to convergence, then problem 2 (u* changed by a
 * smooth 1% field) from that solution to error <= 1e-3. */
static void bench_warm(homg_ctx *ctx, int N, int reps, homg_method method, const char *name)
{
    if (!wanted("warm"))
        return;
    homg_p2 *p1 = homg_p2_exact(N, N, 0, 0.1, 1, 11), *p2 = homg_p2_exact(N, N, 0, 0.1, 1, 11);
    size_t n = (size_t)N * N;
    const double PI = 3.14159265358979323846;
    homg_grid_desc gd = { 0 };
    homg_grid *g = NULL;
    homg_solve_desc sd = { 0 };
    homg_solve_info info;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            p2->u_star[(size_t)j * N + i] += 0.01 * sin(2 * PI * (i + 0.5) / N) * sin(3 * PI * (j + 0.5) / N);
    homg_p2_apply(p2, p2->u_star, p2->f);
    void *f2 = homg_test_upload(ctx, p2->f, n, HOMG_FLOAT32), *ur2 = homg_test_upload(ctx, p2->u_star, n, HOMG_FLOAT32);
    void *u1 = homg_test_upload(ctx, p1->u_star, n, HOMG_FLOAT32), *u = NULL;
    homg_boundary bc = homg_test_boundary(ctx, p1, HOMG_FLOAT32);
    homg_alloc(ctx, n * 4, &u);
    gd.nx = N;
    gd.method = method;
    homg_grid_create(ctx, &gd, &g);
    /* cycles needed from the previous solution */
    int cycles = 0;
    double err = 1;
    while (err > 1e-3 && cycles < 10) {
        cycles++;
        cudaMemcpy(u, u1, n * 4, cudaMemcpyDeviceToDevice);
        sd.max_cycles = cycles;
        sd.warm_start = 1;
        sd.u_ref = ur2;
        homg_grid_solve(g, f2, &bc, u, &sd, &info);
        err = info.norm;
    }
    /* time it: each run starts from the previous frame's solution */
    warm_rep w = { g, f2, &bc, u, u1, n * 4, { 0 }, &info };
    w.sd.max_cycles = cycles;
    w.sd.warm_start = 1;
    w.sd.skip_input_check = 1;
    double ms = bench_event_median_ms(3, reps, warm_copy, warm_solve, &w);
    add_row(N, HOMG_FLOAT32, name, cycles, ms, err, info.work_units, info.launches, info.bytes, info.host_syncs);
    printf("  %s float32 %5d^2: %2d cycles  %8.4f ms  error %.2e (from %.1e)  %.1f WU  %ld launches\n", name, N, cycles,
           ms, err, homg_rel_diff(p1->u_star, p2->u_star, n), info.work_units, info.launches);
    homg_grid_destroy(g);
    homg_free(ctx, f2);
    homg_free(ctx, ur2);
    homg_free(ctx, u1);
    homg_free(ctx, u);
    homg_test_free_boundary(ctx, &bc);
    homg_p2_free(p1);
    homg_p2_free(p2);
}

static void write_table(FILE *o, const char *device, const char *date)
{
    fprintf(o, "# homg structured benchmark\n\n");
    fprintf(o, "Device: %s. Date: %s. Build: homg %s, %s.\n", device, date, homg_version_string(),
#ifdef HOMG_BUILD_ID
            HOMG_BUILD_ID
#else
            "unknown commit"
#endif
    );
    fprintf(o, "Measured device-to-device copy bandwidth: %.0f GB/s (bytes read + written).\n\n", copy_gbs);
    fprintf(o,
            "2D Poisson, cell-centred 5-point, exact discrete solution (smooth + noise, Dirichlet data), from u = 0\n"
            "to the error target (||u-u*||/||u*||): 1e-4 in float32, 1e-8 in float64. Time: median of the runs,\n"
            "CUDA events around one graph launch, inputs rotated beyond L2. GB/s: ideal traffic / time.\n"
            "Host syncs: device-to-host waits inside the timed solve, as the solve info counts them (- : the\n"
            "bench's own FFT). The timed solves run a fixed number of cycles (tol = 0), except the \"tol\" rows:\n"
            "to the error target with the test on the device (the cycles loop in the graph) or on the host\n"
            "(HOMG_GRID_DEVICE_LOOP=0: a read after each cycle).\n\n");
    fprintf(o, "| N | precision | method | cycles | time (ms) | error | WU | launches | host syncs | GB/s | %% of copy "
               "| vs FFT |\n");
    fprintf(o, "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < nrows; i++) {
        row *r = &rows[i];
        char vs[32] = "";
        if (r->vs_fft > 0)
            snprintf(vs, sizeof vs, "%.2fx", r->vs_fft);
        char syncs[16] = "-";
        if (r->syncs >= 0)
            snprintf(syncs, sizeof syncs, "%d", r->syncs);
        fprintf(o, "| %d^2 | %s | %s | %d | %.4f | %.1e | %.1f | %ld | %s | %.0f | %.0f%% | %s |\n", r->n, r->prec,
                r->method, r->cycles, r->ms, r->err, r->wu, r->launches, syncs, r->gbs, r->pct, vs);
    }
    fprintf(o, "\nvs FFT: the FFT solve's time divided by the method's (above 1: faster than the FFT).\n");
}

int main(int argc, char **argv)
{
    int sizes[8] = { 256, 512, 1024, 2048, 4096 }, nsizes = 5, reps = 21, general = 0, max3d = 512;
    const char *out = NULL, *cases = NULL;
    char device[256], date[64];
    FILE *file;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--sizes") && a + 1 < argc) {
            char *s = argv[++a];
            nsizes = 0;
            for (char *tok = strtok(s, ","); tok && nsizes < 8; tok = strtok(NULL, ","))
                sizes[nsizes++] = atoi(tok);
        } else if (!strcmp(argv[a], "--reps") && a + 1 < argc) {
            reps = atoi(argv[++a]);
        } else if (!strcmp(argv[a], "--out") && a + 1 < argc) {
            out = argv[++a];
        } else if (!strcmp(argv[a], "--methods") && a + 1 < argc) {
            only = argv[++a];
        } else if (!strcmp(argv[a], "--general")) {
            general = 1;
        } else if (!strcmp(argv[a], "--max3d") && a + 1 < argc) {
            max3d = atoi(argv[++a]);
        } else if (!strcmp(argv[a], "--cases") && a + 1 < argc) {
            cases = argv[++a];
        } else {
            fprintf(stderr, "usage: bench_grid [--sizes 256,512,...] [--reps R] [--methods "
                            "fft,fmg,fused-v,vcycle,fcycle,homg,warm] "
                            "[--out FILE] [--general [--max3d N] [--cases 0,1,...]]\n");
            return 2;
        }
    }
    if (!homg_cuda_available()) {
        printf("bench_grid: needs a CUDA device (none found); nothing measured\n");
        return 0;
    }
    file = table_out_open(out, "bench_grid");
    if (out && !file)
        return 1;
    /* --general's bytes per unknown come from cudaMemGetInfo: without the ctx's
     * pool (its idle memory would count as used before a create and be reused by it) */
    if (general)
        setenv("HOMG_CUDA_POOL", "0", 0);
    homg_ctx *ctx = homg_test_ctx(HOMG_BACKEND_CUDA);
    snprintf(device, sizeof device, "%s", homg_ctx_device_name(ctx));
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    copy_gbs = bench_copy_gbs();
    printf("bench_grid on %s, %s; copy bandwidth %.0f GB/s\n", device, date, copy_gbs);
    if (general) {
        if (file)
            fprintf(file, "# homg general structured benchmark\n\nDevice: %s. Date: %s. Build: homg %s.\n", device,
                    date, homg_version_string());
        bench_grid_general(ctx, reps < 9 ? reps : 9, max3d, cases, only, file);
        table_out_close(file, out);
        homg_ctx_destroy(ctx);
        return 0;
    }

    for (int s = 0; s < nsizes; s++) {
        int N = sizes[s];
        homg_p2 *p = homg_p2_exact(N, N, 0, 0.1, 1, 2026);
        for (int pr = HOMG_FLOAT32; pr <= HOMG_FLOAT64; pr++) {
            homg_precision prec = (homg_precision)pr;
            double target = prec == HOMG_FLOAT64 ? 1e-8 : 1e-4;
            inputs in = make_inputs(ctx, p, prec);
            int first = nrows;
            const double fft_ms = bench_fft(p, prec, reps);
            bench_method(ctx, p, &in, prec, HOMG_METHOD_FMG, "fmg", target, reps, 0);
            bench_method(ctx, p, &in, prec, HOMG_METHOD_FMG, "fused-v", target, reps, 1);
            bench_tolerance(ctx, p, &in, prec, target, reps);
            if (prec == HOMG_FLOAT32) { /* the settings the defaults were chosen from */
                bench_env(ctx, p, &in, "fused-v V(3,3)", target, reps, v33_env);
                bench_env(ctx, p, &in, "fused-v V(3,2)", target, reps, v32_env);
                bench_env(ctx, p, &in, "fused-v V(2,3)", target, reps, v23_env);
                bench_env(ctx, p, &in, "fused-v V(1,1)", target, reps, v11_env);
                bench_env(ctx, p, &in, "fused-v main", target, reps, main_env);
                bench_env(ctx, p, &in, "fused-v s5", target, reps, s5_env);
                bench_env(ctx, p, &in, "fused-v wide<=256^2", target, reps, wide256_env);
                bench_env(ctx, p, &in, "fused-v wide<=1024^2", target, reps, wide1024_env);
                bench_env(ctx, p, &in, "fused-v big-tile", target, reps, big_tile_env);
                bench_env(ctx, p, &in, "fused-v no-pdl", target, reps, no_pdl_env);
                bench_env(ctx, p, &in, "fused-v mid-off", target, reps, mid_off_env);
                bench_env(ctx, p, &in, "fused-v mid-T8", target, reps, mid_t8_env);
                bench_env(ctx, p, &in, "fused-v mid-T10", target, reps, mid_t10_env);
                bench_env(ctx, p, &in, "fused-v mid-T16", target, reps, mid_t16_env);
                bench_env(ctx, p, &in, "fused-v textbook<2048^2", target, reps, textbook_env);
                bench_env(ctx, p, &in, "fused-v owned-off", target, reps, owned_off_env);
                bench_env(ctx, p, &in, "fused-v owned<=256^2", target, reps, owned256_env);
                bench_env(ctx, p, &in, "fused-v owned<=1024^2", target, reps, owned1024_env);
                bench_env(ctx, p, &in, "fused-v rows-off", target, reps, rows_off_env);
                bench_env(ctx, p, &in, "fused-v rows>=512^2", target, reps, rows512_env);
                bench_env(ctx, p, &in, "fused-v rows T8", target, reps, rows_t8_env);
                bench_env(ctx, p, &in, "fused-v rows T10", target, reps, rows_t10_env);
                bench_env(ctx, p, &in, "fused-v rows T16", target, reps, rows_t16_env);
                bench_env(ctx, p, &in, "fused-v 22", target, reps, sched22_env);
                bench_env(ctx, p, &in, "fused-v 21.22", target, reps, sched21_env);
                bench_env(ctx, p, &in, "fused-v 21.21", target, reps, sched2121_env);
                bench_env(ctx, p, &in, "fused-v 22;11.22", target, reps, sched1122_env);
                bench_env(ctx, p, &in, "fused-v 22;11.21", target, reps, sched1121_env);
                bench_env(ctx, p, &in, "fused-v 21.22;11.22", target, reps, sched2111_env);
            }
            bench_method(ctx, p, &in, prec, HOMG_METHOD_VCYCLE, "vcycle", target, reps, 0);
            bench_method(ctx, p, &in, prec, HOMG_METHOD_FCYCLE, "fcycle", target, reps, 0);
            if (N <= 2048 || prec == HOMG_FLOAT32)
                bench_method(ctx, p, &in, prec, HOMG_METHOD_HOMG, "homg", target, N >= 2048 ? 5 : reps, 0);
            for (int i = first + (fft_ms > 0); fft_ms > 0 && i < nrows; i++)
                rows[i].vs_fft = fft_ms / rows[i].ms;
            free_inputs(ctx, &in);
        }
        homg_p2_free(p);
        if (N == 1024) {
            bench_warm(ctx, 1024, reps, HOMG_METHOD_DEFAULT, "default, warm");
            bench_warm(ctx, 1024, reps, HOMG_METHOD_FMG, "fused, warm");
            static const struct {
                const char *const *env;
                const char *name;
            } warm_rows[] = {
                { main_env, "fused, warm, main" },           { s5_env, "fused, warm, s5" },
                { owned_off_env, "fused, warm, owned-off" }, { rows_off_env, "fused, warm, rows-off" },
                { rows512_env, "fused, warm, rows>=512^2" }, { rows_t8_env, "fused, warm, rows T8" },
                { sched21_env, "fused, warm, 21.22" },       { sched2121_env, "fused, warm, 21.21" },
                { sched22_env, "fused, warm, 22" },
            };
            for (size_t w = 0; w < sizeof warm_rows / sizeof warm_rows[0]; w++) {
                char *old[HOMG_TEST_MAX_ENV];
                homg_test_env_set(warm_rows[w].env, old);
                bench_warm(ctx, 1024, reps, HOMG_METHOD_FMG, warm_rows[w].name);
                homg_test_env_restore(warm_rows[w].env, old);
            }
        }
    }

    if (file) {
        write_table(file, device, date);
        table_out_close(file, out);
    }
    printf("\n");
    write_table(stdout, device, date);
    homg_ctx_destroy(ctx);
    return 0;
}
#else
int main(void)
{
    printf("bench_grid: built without CUDA (CUDA=0); nothing measured\n");
    return 0;
}
#endif
