/* test_grid.c -- the structured solvers on the CPU backend, checked against
 * exact discrete solutions (f = A u* computed independently in double, see
 * tests/util/poisson2d.c), an analytic solution (seed 003's problem) and its
 * O(h^2) convergence, and bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "homg.h"
#include "poisson2d.h"
#include "testutil.h"
#include "grid/grid_internal.h" /* homg__homg_partial_for_tests */

#define ctx homg_test_cpu /* homg_test_setup_cpu makes it (testutil.h) */

/* Solves p with `method` from u = 0 until the error against u* stops improving
 * (or max_cycles); returns the final error. */
static double solve_exact(const homg_p2 *p, homg_method method, homg_precision prec, int max_cycles, int *cycles)
{
    size_t n = (size_t)p->nx * p->ny;
    void *f = homg_test_upload(ctx, p->f, n, prec), *ur = homg_test_upload(ctx, p->u_star, n, prec), *u = NULL;
    homg_boundary bc = homg_test_boundary(ctx, p, prec);
    homg_grid_desc gd = { 0 };
    homg_grid *g = NULL;
    homg_solve_desc sd = { 0 };
    homg_solve_info info;
    double err;
    gd.nx = p->nx;
    gd.ny = p->ny;
    gd.method = method;
    gd.precision = prec;
    assert_int_equal(homg_alloc(ctx, n * (prec == HOMG_FLOAT64 ? 8 : 4), &u), HOMG_OK);
    assert_int_equal(homg_grid_create(ctx, &gd, &g), HOMG_OK);
    homg_grid_operator op = { 0 };
    op.lambda = p->lambda;
    assert_int_equal(homg_grid_set_operator(g, &op), HOMG_OK);
    sd.max_cycles = max_cycles;
    sd.u_ref = ur;
    /* stop a decade below the bound the test asserts */
    sd.tol = prec == HOMG_FLOAT64 ? 1e-11 : (p->nx * p->ny > (1 << 20) ? 5e-6 : 1e-6);
    homg_status st = homg_grid_solve(g, f, &bc, u, &sd, &info);
    assert_true(st == HOMG_OK || st == HOMG_ERROR_NOT_CONVERGED);
    err = info.norm;
    if (cycles)
        *cycles = info.cycles;
    homg_grid_destroy(g);
    homg_free(ctx, f);
    homg_free(ctx, ur);
    homg_free(ctx, u);
    homg_test_free_boundary(ctx, &bc);
    return err;
}

static void exact_discrete_solutions(homg_method method, const char *name, int nmax, int homg_cycles)
{
    for (int e = 2; e <= nmax; e++) {
        int N = 1 << e, c32 = 0, c64 = 0;
        homg_p2 *p = homg_p2_exact(N, N, 0, 0.1, 1, 1000 + e);
        int cyc = method == HOMG_METHOD_HOMG ? homg_cycles : 30;
        double e32 = solve_exact(p, method, HOMG_FLOAT32, cyc, &c32);
        double e64 = solve_exact(p, method, HOMG_FLOAT64, cyc, &c64);
        printf("  %-6s %5d^2: float32 error %.2e (%d cycles), float64 %.2e (%d cycles)\n", name, N, e32, c32, e64, c64);
        assert_true(e32 <= (e <= 10 ? 1e-5 : 5e-5));
        assert_true(e64 <= 1e-10);
        homg_p2_free(p);
    }
}

/* n = 2..11 for every method runs in tests/test_grid_gpu.c; the CPU keeps CI short. */
static void fmg_exact_solutions(void **state)
{
    (void)state;
    exact_discrete_solutions(HOMG_METHOD_FMG, "fmg", 10, 0);
}
static void vcycle_exact_solutions(void **state)
{
    (void)state;
    exact_discrete_solutions(HOMG_METHOD_VCYCLE, "vcycle", 9, 0);
}
static void fcycle_exact_solutions(void **state)
{
    (void)state;
    exact_discrete_solutions(HOMG_METHOD_FCYCLE, "fcycle", 8, 0);
}
static void homg_exact_solutions(void **state)
{
    (void)state;
    exact_discrete_solutions(HOMG_METHOD_HOMG, "homg", 9, 100);
}

/* A new constant sigma or lambda refreshes the exact coarsest level's eigenvalues in place
 * (box.c upload_inv_eig): a 256^2 grid (its exact level 128^2, two launches) created with
 * sigma 1, lambda 0 and set to sigma 3, lambda 600 solves 3 (-Laplace u + 200 u) = 3 f to
 * 1e-3 in 2 cycles (1.0e-4 on the CPU), float32 and float64; with the old eigenvalues the
 * coarse correction of the smooth modes is ~10x too large (error 1.4e4 after 2 cycles). */
static void set_operator_refreshes_exact_level(void **state)
{
    (void)state;
    homg_p2 *p = homg_p2_exact(256, 256, 200.0, 0.1, 1, 61);
    const size_t n = (size_t)p->nx * p->ny;
    double *f3 = malloc(n * sizeof(double)), *u = malloc(n * sizeof(double));
    for (size_t k = 0; k < n; k++)
        f3[k] = 3 * p->f[k];
    for (int pi = HOMG_FLOAT32; pi <= HOMG_FLOAT64; pi++) {
        const homg_precision prec = (homg_precision)pi;
        void *f = homg_test_upload(ctx, f3, n, prec), *du = NULL;
        homg_boundary bc = homg_test_boundary(ctx, p, prec);
        homg_grid_desc gd = { 0 };
        homg_grid_operator op = { 0 };
        homg_solve_desc sd = { 0 };
        homg_grid *g = NULL;
        gd.nx = p->nx;
        gd.precision = prec;
        gd.method = HOMG_METHOD_FMG;
        assert_int_equal(homg_grid_create(ctx, &gd, &g), HOMG_OK);
        op.sigma = 3;
        op.lambda = 600;
        assert_int_equal(homg_grid_set_operator(g, &op), HOMG_OK);
        assert_int_equal(homg_alloc(ctx, n * (prec == HOMG_FLOAT64 ? 8 : 4), &du), HOMG_OK);
        memset(du, 0, n * (prec == HOMG_FLOAT64 ? 8 : 4));
        sd.max_cycles = 2;
        assert_int_equal(homg_grid_solve(g, f, &bc, du, &sd, NULL), HOMG_OK);
        homg_test_download(ctx, du, n, prec, u);
        const double err = homg_rel_diff(u, p->u_star, n);
        printf("  %s: sigma 3, lambda 600 after create: error %.2e after 2 cycles\n",
               prec == HOMG_FLOAT64 ? "float64" : "float32", err);
        assert_true(err < 1e-3);
        homg_grid_destroy(g);
        homg_free(ctx, f);
        homg_free(ctx, du);
        homg_test_free_boundary(ctx, &bc);
    }
    free(f3);
    free(u);
    homg_p2_free(p);
}

/* Rectangles and lambda > 0 go through the same code paths. */
static void rectangles_and_lambda(void **state)
{
    (void)state;
    const int shapes[3][2] = { { 64, 16 }, { 32, 128 }, { 256, 64 } };
    for (int s = 0; s < 3; s++)
        for (int m = HOMG_METHOD_HOMG; m <= HOMG_METHOD_FMG; m++) {
            homg_p2 *p = homg_p2_exact(shapes[s][0], shapes[s][1], s == 1 ? 0 : 5.0, 0.1, 1, 77 + s);
            double e = solve_exact(p, (homg_method)m, HOMG_FLOAT64, m == HOMG_METHOD_HOMG ? 300 : 40, NULL);
            printf("  %3d x %3d lambda %g method %d: float64 error %.2e\n", p->nx, p->ny, p->lambda, m, e);
            assert_true(e <= 1e-10);
            homg_p2_free(p);
        }
}

/* The exact solve of coarse levels wider than 32 a side (exact_wide, HOMG_BOX_EXACT_MAX up to
 * 128; the default from 64 x 64 up to 4096 a side): the solves reach the errors the 32^2
 * one-block solve reaches, in no more cycles; the finest level stays a cycle's (never solved
 * whole: at least two levels). */
static void exact_wide_levels(void **state)
{
    (void)state;
    const int shapes[][2] = { { 128, 128 }, { 128, 64 }, { 256, 128 }, { 512, 512 } };
    for (int s = 0; s < 4; s++) {
        homg_p2 *p = homg_p2_exact(shapes[s][0], shapes[s][1], s == 1 ? 5.0 : 0, 0.1, 1, 300 + s);
        int c32 = 0;
        for (int m = 32; m <= 128; m *= 2) {
            char v[8];
            int c = 0, cf = 0;
            snprintf(v, sizeof v, "%d", m);
            setenv("HOMG_BOX_EXACT_MAX", v, 1);
            double e = solve_exact(p, HOMG_METHOD_FMG, HOMG_FLOAT64, 40, &c);
            double ef = solve_exact(p, HOMG_METHOD_FMG, HOMG_FLOAT32, 40, &cf);
            printf("  %3d x %3d exact from %3d: float64 error %.2e (%d cycles), float32 %.2e (%d cycles)\n", p->nx,
                   p->ny, m, e, c, ef, cf);
            assert_true(e <= 1e-10);
            assert_true(ef <= 1e-5);
            assert_true(c > 1);
            if (m == 32)
                c32 = c;
            else
                assert_true(c <= c32);
        }
        unsetenv("HOMG_BOX_EXACT_MAX");
        homg_p2_free(p);
    }
}

/* HOMG with the iterations that write only the points the next one reads
 * (lib/grid/mfmg.c, default) against every iteration over the whole grid
 * (homg__homg_partial_for_tests whole): the same u bit for bit after three restarts, both
 * precisions, with face data and lambda, squares and rectangles (HOMG takes power-of-two
 * sides, on which every level's partial writes apply).  The same launches, and from 32^2 up
 * fewer bytes.  Then the last iterations in part too (last_from k: each level's last from
 * k up writes only level m-1's read set; the default k = 3, and k = 2): the same u again,
 * fewer bytes still. */
static void homg_solve_run(const homg_p2 *p, homg_precision prec, void *u, homg_solve_info *info, int whole,
                           int last_from)
{
    size_t n = (size_t)p->nx * p->ny, bytes = n * (prec == HOMG_FLOAT64 ? 8 : 4);
    void *f = homg_test_upload(ctx, p->f, n, prec);
    homg_boundary bc = homg_test_boundary(ctx, p, prec);
    homg_grid_desc gd = { 0 };
    homg_grid_operator op = { 0 };
    homg_solve_desc sd = { 0 };
    homg_grid *g = NULL;
    gd.nx = p->nx;
    gd.ny = p->ny;
    gd.method = HOMG_METHOD_HOMG;
    gd.precision = prec;
    assert_int_equal(homg_grid_create(ctx, &gd, &g), HOMG_OK);
    homg__homg_partial_for_tests(g, whole, last_from);
    op.lambda = p->lambda;
    assert_int_equal(homg_grid_set_operator(g, &op), HOMG_OK);
    memset(u, 0, bytes);
    sd.max_cycles = 3;
    assert_int_equal(homg_grid_solve(g, f, &bc, u, &sd, info), HOMG_OK);
    homg_grid_destroy(g);
    homg_free(ctx, f);
    homg_test_free_boundary(ctx, &bc);
}

static void homg_partial_iterations_same_values(void **state)
{
    (void)state;
    const int shapes[][2] = { { 64, 64 }, { 128, 32 }, { 32, 256 }, { 4, 16 }, { 8, 8 }, { 256, 256 } };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int pi = HOMG_FLOAT32; pi <= HOMG_FLOAT64; pi++) {
            const homg_precision prec = (homg_precision)pi;
            homg_p2 *p = homg_p2_exact(shapes[s][0], shapes[s][1], s & 1 ? 2.0 : 0, 0.1, 1, 300 + s);
            size_t bytes = (size_t)p->nx * p->ny * (prec == HOMG_FLOAT64 ? 8 : 4);
            void *u[4] = { NULL, NULL, NULL, NULL }; /* whole, part, last from 3 (default), from 2 */
            const int last[4] = { -1, -1, 0, 2 };    /* none, none, the default, from 2 */
            homg_solve_info in[4];
            for (int k = 0; k < 4; k++) {
                assert_int_equal(homg_alloc(ctx, bytes, &u[k]), HOMG_OK);
                homg_solve_run(p, prec, u[k], &in[k], k == 0, last[k]);
            }
            printf("  %3d x %3d %s: bytes %.4g whole, %.4g partial, %.4g last from 3, %.4g from 2; launches %ld\n",
                   p->nx, p->ny, prec == HOMG_FLOAT64 ? "float64" : "float32", in[0].bytes, in[1].bytes, in[2].bytes,
                   in[3].bytes, in[0].launches);
            for (int k = 1; k < 4; k++) {
                assert_memory_equal(u[0], u[k], bytes);
                assert_int_equal(in[0].launches, in[k].launches);
                assert_true(in[k].work_units == in[0].work_units);
            }
            if (p->nx >= 32 && p->ny >= 32) /* tiny grids: R x R is most of the grid */
                assert_true(in[3].bytes < in[1].bytes && in[2].bytes <= in[1].bytes && in[1].bytes < in[0].bytes);
            for (int k = 0; k < 4; k++)
                homg_free(ctx, u[k]);
            homg_p2_free(p);
        }
}

/* ---- seed 003's problem: eqs. 4-7 ---- */

static double seed003_u(double x, double y) { return -x * x * y * y * (1 - x * x) * (1 - y * y); }
/* eq. 6 is lap(u); homg solves -lap(u) = f, so f = -(eq. 6). */
static double seed003_f(double x, double y)
{
    return 2 * (y * y * (1 - 6 * x * x) * (1 - y * y) + x * x * (1 - 6 * y * y) * (1 - x * x));
}

/* Normalised L1 error (eq. 7) of u (host, N^2) against the analytic solution. */
static double seed003_l1(const double *u, int N)
{
    double num = 0, den = 0, h = 1.0 / N;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) {
            double ue = seed003_u((i + 0.5) * h, (j + 0.5) * h);
            num += fabs(ue - u[(size_t)j * N + i]);
            den += fabs(ue);
        }
    return num / den;
}

static double seed003_solve(int N, homg_method method, int maxi, int cycles, int *out_its)
{
    size_t n = (size_t)N * N;
    double *fh = (double *)malloc(n * sizeof(double)), *uh = (double *)malloc(n * sizeof(double)), l1;
    homg_grid_desc gd = { 0 };
    homg_solve_desc sd = { 0 };
    homg_solve_info info;
    homg_grid *g = NULL;
    void *f, *u = NULL;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            fh[(size_t)j * N + i] = seed003_f((i + 0.5) / N, (j + 0.5) / N);
    f = homg_test_upload(ctx, fh, n, HOMG_FLOAT64);
    assert_int_equal(homg_alloc(ctx, n * sizeof(double), &u), HOMG_OK);
    gd.nx = N;
    gd.method = method;
    gd.maxi = maxi;
    gd.precision = HOMG_FLOAT64;
    assert_int_equal(homg_grid_create(ctx, &gd, &g), HOMG_OK);
    sd.max_cycles = cycles;
    assert_int_equal(homg_grid_solve(g, f, NULL, u, &sd, &info), HOMG_OK);
    homg_test_download(ctx, u, n, HOMG_FLOAT64, uh);
    l1 = seed003_l1(uh, N);
    if (out_its)
        *out_its = (int)info.work_units;
    homg_grid_destroy(g);
    homg_free(ctx, f);
    homg_free(ctx, u);
    free(fh);
    free(uh);
    return l1;
}

/* One MFMG cycle's L1 error, next to seed 003's figure 4.  Our reading of the
 * paper (lib/grid/mfmg.c) gives larger errors than the paper's 5% and 1.6%:
 * an MFMG cycle is nested iteration with damped Jacobi only, and its coarse
 * levels never correct the fine-level error; DESIGN.md's independent float64
 * reading found 23-29% at MaxI = 4.  The bounds below pin our measured values
 * (printed) so a change of the algorithm shows up. */
static void seed003_one_mfmg_cycle(void **state)
{
    (void)state;
    const int sizes[2] = { 128, 512 }, maxis[2] = { 4, 32 };
    const double paper[2] = { 0.05, 0.016 };
    double l1[2][2];
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++) {
            int wu = 0;
            l1[a][b] = seed003_solve(sizes[a], HOMG_METHOD_HOMG, maxis[b], 1, &wu);
            printf("  seed 003, %d^2, MaxI = %2d: one MFMG cycle, L1 error %5.1f%% (paper: %.1f%%), %d WU\n", sizes[a],
                   maxis[b], 100 * l1[a][b], 100 * paper[b], wu);
        }
    /* larger MaxI reaches a lower error, and the error is resolution-independent
     * to within a factor of 2 (the paper's "same convergence path") */
    for (int a = 0; a < 2; a++)
        assert_true(l1[a][1] < l1[a][0]);
    for (int b = 0; b < 2; b++)
        assert_true(l1[1][b] < 2 * l1[0][b] && l1[0][b] < 2 * l1[1][b]);
    /* the values measured with this reading (see the printout) */
    assert_true(l1[0][0] > 0.20 && l1[0][0] < 0.35);
    assert_true(l1[1][0] > 0.20 && l1[1][0] < 0.35);
    assert_true(l1[0][1] > 0.10 && l1[0][1] < 0.25);
    assert_true(l1[1][1] > 0.10 && l1[1][1] < 0.25);
}

/* Restarted to convergence, every method's error against the analytic solution
 * falls as O(h^2). */
static void seed003_second_order(void **state)
{
    (void)state;
    for (int m = HOMG_METHOD_HOMG; m <= HOMG_METHOD_FMG; m += 3) {
        double prev = 0;
        for (int N = 32; N <= 256; N *= 2) {
            double e = seed003_solve(N, (homg_method)m, 4, m == HOMG_METHOD_HOMG ? 150 : 12, NULL);
            printf("  method %d, %3d^2: L1 error vs analytic %.3e%s", m, N, e, prev ? "" : "\n");
            if (prev) {
                printf(", ratio %.2f\n", prev / e);
                assert_true(prev / e > 3.6 && prev / e < 4.4);
            }
            prev = e;
        }
    }
}

/* Warm start: the previous solution of a slightly changed problem needs fewer
 * cycles than a cold start to the same error. */
static void warm_start_helps(void **state)
{
    (void)state;
    const int N = 256;
    size_t n = (size_t)N * N;
    homg_p2 *p = homg_p2_exact(N, N, 0, 0.1, 1, 5);
    homg_grid_desc gd = { 0 };
    homg_grid *g = NULL;
    homg_solve_desc sd = { 0 };
    homg_solve_info cold, warm;
    homg_boundary bc = homg_test_boundary(ctx, p, HOMG_FLOAT64);
    double *f2 = (double *)malloc(n * sizeof(double));
    void *f, *f2d, *u = NULL;
    gd.nx = N;
    gd.precision = HOMG_FLOAT64;
    gd.method = HOMG_METHOD_VCYCLE; /* DEFAULT is the FFT's direct solve here */
    assert_int_equal(homg_grid_create(ctx, &gd, &g), HOMG_OK);
    f = homg_test_upload(ctx, p->f, n, HOMG_FLOAT64);
    assert_int_equal(homg_alloc(ctx, n * sizeof(double), &u), HOMG_OK);
    sd.max_cycles = 20;
    sd.tol = 1e-12;
    assert_int_equal(homg_grid_solve(g, f, &bc, u, &sd, NULL), HOMG_OK);
    /* the next "frame": f changed by 1% of a smooth field */
    for (size_t k = 0; k < n; k++)
        f2[k] = p->f[k] * 1.01;
    f2d = homg_test_upload(ctx, f2, n, HOMG_FLOAT64);
    sd.tol = 1e-6;
    sd.warm_start = 1;
    assert_int_equal(homg_grid_solve(g, f2d, &bc, u, &sd, &warm), HOMG_OK);
    sd.warm_start = 0;
    assert_int_equal(homg_grid_solve(g, f2d, &bc, u, &sd, &cold), HOMG_OK);
    printf("  cycles to relative residual 1e-6: warm %d, cold %d\n", warm.cycles, cold.cycles);
    assert_true(warm.cycles < cold.cycles);
    homg_grid_destroy(g);
    homg_free(ctx, f);
    homg_free(ctx, f2d);
    homg_free(ctx, u);
    homg_test_free_boundary(ctx, &bc);
    free(f2);
    homg_p2_free(p);
}

/* FMG's history with its levels run two ways: textbook steps below the fused size (the
 * default) and fused steps everywhere (HOMG_BOX_FUSED_CELLS, lib/grid/box.c).  On the CPU
 * both are the same composition of plain kernels, so the errors agree. */
static void fmg_level_kinds_agree(void **state)
{
    (void)state;
    /* a forced HOMG_BOX_SCHED would change the fused levels only, so both kinds run with
     * the default plan here */
    const char *forced = getenv("HOMG_BOX_SCHED");
    char *saved = forced ? strdup(forced) : NULL;
    unsetenv("HOMG_BOX_SCHED");
    const int shapes[][2] = { { 128, 128 }, { 256, 8 }, { 64, 64 } };
    const char *env[2][2] = { { NULL, NULL }, { "HOMG_BOX_FUSED_CELLS", "0" } };
    for (int s = 0; s < 3; s++) {
        const int nx = shapes[s][0], ny = shapes[s][1];
        const size_t n = (size_t)nx * ny;
        homg_p2 *p = homg_p2_exact(nx, ny, 0.5, 0.1, 1, 40 + s);
        homg_boundary bc = homg_test_boundary(ctx, p, HOMG_FLOAT64);
        void *f = homg_test_upload(ctx, p->f, n, HOMG_FLOAT64), *ur = homg_test_upload(ctx, p->u_star, n, HOMG_FLOAT64);
        void *u = NULL;
        double hist[2][4];
        assert_int_equal(homg_alloc(ctx, n * sizeof(double), &u), HOMG_OK);
        for (int k = 0; k < 2; k++) {
            homg_grid_desc gd = { 0 };
            homg_grid_operator op = { 0 };
            homg_solve_desc sd = { 0 };
            homg_grid *g = NULL;
            gd.nx = nx;
            gd.ny = ny;
            gd.h = p->h;
            gd.precision = HOMG_FLOAT64;
            gd.method = HOMG_METHOD_FMG;
            if (env[k][0])
                setenv(env[k][0], env[k][1], 1);
            assert_int_equal(homg_grid_create(ctx, &gd, &g), HOMG_OK);
            if (env[k][0])
                unsetenv(env[k][0]);
            op.lambda = 0.5;
            assert_int_equal(homg_grid_set_operator(g, &op), HOMG_OK);
            sd.max_cycles = 4;
            sd.u_ref = ur;
            assert_int_equal(homg_grid_solve(g, f, &bc, u, &sd, NULL), HOMG_OK);
            assert_int_equal(homg_grid_history(g, hist[k], 4), 4);
            homg_grid_destroy(g);
        }
        printf("  %d x %d: errors after 4 FMG cycles %.3e (textbook levels), %.3e (fused)\n", nx, ny, hist[0][3],
               hist[1][3]);
        for (int c = 0; c < 4; c++)
            assert_true(fabs(hist[1][c] - hist[0][c]) <= 1e-9 * hist[0][c] + 1e-15);
        homg_free(ctx, f);
        homg_free(ctx, ur);
        homg_free(ctx, u);
        homg_test_free_boundary(ctx, &bc);
        homg_p2_free(p);
    }
    if (saved)
        setenv("HOMG_BOX_SCHED", saved, 1);
    free(saved);
}

/* The fused cycles' errors after 1..3 cycles from u = 0 under the sweep plan `plan`
 * (HOMG_BOX_SCHED, lib/grid/box.c; NULL: the default). */
static void plan_history(const homg_p2 *p, const char *plan, int warm, double hist[3])
{
    const size_t n = (size_t)p->nx * p->ny;
    homg_boundary bc = homg_test_boundary(ctx, p, HOMG_FLOAT64);
    void *f = homg_test_upload(ctx, p->f, n, HOMG_FLOAT64), *ur = homg_test_upload(ctx, p->u_star, n, HOMG_FLOAT64);
    double *zero = calloc(n, sizeof(double));
    void *u = homg_test_upload(ctx, zero, n, HOMG_FLOAT64);
    homg_grid_desc gd = { 0 };
    homg_solve_desc sd = { 0 };
    homg_grid *g = NULL;
    gd.nx = p->nx;
    gd.ny = p->ny;
    gd.h = p->h;
    gd.precision = HOMG_FLOAT64;
    gd.method = HOMG_METHOD_FMG;
    if (plan)
        setenv("HOMG_BOX_SCHED", plan, 1);
    assert_int_equal(homg_grid_create(ctx, &gd, &g), HOMG_OK);
    if (plan)
        unsetenv("HOMG_BOX_SCHED");
    sd.max_cycles = 3;
    sd.u_ref = ur;
    sd.warm_start = warm; /* 1: the fused V-cycles from u = 0 (no full-multigrid first cycle) */
    assert_int_equal(homg_grid_solve(g, f, &bc, u, &sd, NULL), HOMG_OK);
    assert_int_equal(homg_grid_history(g, hist, 3), 3);
    homg_grid_destroy(g);
    free(zero);
    homg_free(ctx, f);
    homg_free(ctx, ur);
    homg_free(ctx, u);
    homg_test_free_boundary(ctx, &bc);
}

/* The sweep plan reaches the cycles: V(2,2) on every level is the desc's V(2,2) ("0"), V(2,1)
 * on the finest changes every cycle, "22;11,22" the later cycles alone; each still contracts. */
static void fmg_sweep_plans(void **state)
{
    (void)state;
    homg_p2 *p = homg_p2_exact(128, 128, 0, 0.1, 1, 77);
    const char *plans[] = { "0", "22", "21,22", "22;11,22" };
    double h[4][3];
    for (int k = 0; k < 4; k++) {
        plan_history(p, plans[k], 1, h[k]);
        printf("  plan %-9s errors %.3e %.3e %.3e\n", plans[k], h[k][0], h[k][1], h[k][2]);
        for (int c = 1; c < 3; c++)
            assert_true(h[k][c] < 0.1 * h[k][c - 1]);
    }
    for (int c = 0; c < 3; c++) {
        assert_true(h[1][c] == h[0][c]);
        assert_true(h[2][c] != h[0][c]);
        assert_true(c == 0 ? h[3][c] == h[0][c] : h[3][c] != h[0][c]);
    }
    /* from a cold start the full-multigrid cycle keeps desc's V(2,2) whatever the plan; the
     * plain cycles after it take the plan */
    plan_history(p, "0", 0, h[0]);
    plan_history(p, "21", 0, h[1]);
    printf("  cold FMG: plan 0 errors %.3e %.3e %.3e, plan 21 %.3e %.3e %.3e\n", h[0][0], h[0][1], h[0][2], h[1][0],
           h[1][1], h[1][2]);
    assert_true(h[1][0] == h[0][0] && h[1][1] != h[0][1]);
    homg_p2_free(p);
}

/* A fixed sequence's fused cycle boundaries (cycles.c homg__mg_sequence, the kernel table's
 * prolong_smooth_restrict) give u equal to the last bit to the separate steps' u, for 1..5
 * cycles, warm and cold starts and two sweep plans; an even number of boundaries is fused,
 * one launch each (3 cycles from a warm start: 2 fewer launches, one boundary each).  Below
 * HOMG_BOX_MID_CELLS (box.c's rule, 2048^2 by default, the same on every backend) none is. */
static void fmg_mid_steps_equal(void **state)
{
    (void)state;
    homg_p2 *p = homg_p2_exact(128, 64, 0.3, 0.1, 1, 21);
    const size_t n = (size_t)p->nx * p->ny;
    const char *plans[2] = { "21", "22;11,21" }; /* the sweeps a mid step takes (<= 3) */
    float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
    /* the default threshold: the two steps at every boundary of this small level */
    assert_int_equal(homg_test_mid_solve(ctx, p, NULL, 1, 1, 3, a, NULL),
                     homg_test_mid_solve(ctx, p, NULL, 0, 1, 3, b, NULL));
    setenv("HOMG_BOX_MID_CELLS", "0", 1);
    for (int pl = 0; pl < 2; pl++)
        for (int warm = 0; warm <= 1; warm++)
            for (int count = 1; count <= 5; count++) {
                const long la = homg_test_mid_solve(ctx, p, plans[pl], 1, warm, count, a, NULL);
                const long lb = homg_test_mid_solve(ctx, p, plans[pl], 0, warm, count, b, NULL);
                assert_true(la >= 0 && lb >= 0);
                /* boundaries between plain cycles (not after FMG's first), an even number fused */
                const int plain = count - 1 - !warm, fused = plain > 0 ? plain - (plain & 1) : 0;
                assert_int_equal(memcmp(a, b, n * sizeof(float)), 0);
                assert_int_equal(lb - la, fused);
            }
    unsetenv("HOMG_BOX_MID_CELLS");
    free(a);
    free(b);
    homg_p2_free(p);
}

/* Float32's default sweep plan by size (box.c default_plan): V(2,2) up to 256^2 cells, V(3,2)
 * up to 512^2, V(2,1) above -- the default's u equals the named plan's bit for bit and differs
 * from another plan's, two cycles from a warm start. */
static void fmg_default_plan_by_size(void **state)
{
    (void)state;
    const int shapes[3][2] = { { 256, 128 }, { 512, 256 }, { 1024, 512 } };
    const char *expect[3] = { "22", "32", "21" }, *other[3] = { "21", "21", "22" };
    for (int k = 0; k < 3; k++) {
        homg_p2 *p = homg_p2_exact(shapes[k][0], shapes[k][1], 0.3, 0.1, 1, 5 + (uint64_t)k);
        const size_t n = (size_t)p->nx * p->ny;
        float *d = malloc(n * sizeof(float)), *e = malloc(n * sizeof(float)), *o = malloc(n * sizeof(float));
        assert_true(homg_test_mid_solve(ctx, p, NULL, 1, 1, 2, d, NULL) >= 0);
        assert_true(homg_test_mid_solve(ctx, p, expect[k], 1, 1, 2, e, NULL) >= 0);
        assert_true(homg_test_mid_solve(ctx, p, other[k], 1, 1, 2, o, NULL) >= 0);
        assert_int_equal(memcmp(d, e, n * sizeof(float)), 0);
        assert_int_not_equal(memcmp(d, o, n * sizeof(float)), 0);
        printf("  %d x %d: the default plan is %s\n", shapes[k][0], shapes[k][1], expect[k]);
        free(d);
        free(e);
        free(o);
        homg_p2_free(p);
    }
}

/* The info struct and the device history agree and make sense. */
static void info_and_history(void **state)
{
    (void)state;
    homg_p2 *p = homg_p2_exact(64, 64, 0, 0.1, 0, 9);
    size_t n = 64 * 64;
    void *f = homg_test_upload(ctx, p->f, n, HOMG_FLOAT32), *u = NULL;
    homg_grid_desc gd = { 0 };
    homg_grid *g = NULL;
    homg_solve_desc sd = { 0 };
    homg_solve_info info;
    double hist[16];
    gd.nx = 64;
    gd.method = HOMG_METHOD_VCYCLE;
    /* the counts below are the 64^2 -> exact 32^2 hierarchy's: pinned whatever the
     * environment's HOMG_BOX_EXACT_MAX (16 would add a level), restored after */
    const char *env = getenv("HOMG_BOX_EXACT_MAX");
    char *saved = env ? strdup(env) : NULL;
    setenv("HOMG_BOX_EXACT_MAX", "32", 1);
    assert_int_equal(homg_grid_create(ctx, &gd, &g), HOMG_OK);
    if (saved)
        setenv("HOMG_BOX_EXACT_MAX", saved, 1);
    else
        unsetenv("HOMG_BOX_EXACT_MAX");
    free(saved);
    assert_int_equal(homg_alloc(ctx, n * 4, &u), HOMG_OK);
    sd.max_cycles = 5;
    sd.tol = 1e-30; /* never reached: runs all 5 cycles and says so */
    assert_int_equal(homg_grid_solve(g, f, NULL, u, &sd, &info), HOMG_ERROR_NOT_CONVERGED);
    assert_int_equal(info.cycles, 5);
    /* the input check's read, then one a cycle -- or, on CUDA, one after the device's loop */
    assert_int_equal(info.host_syncs, homg_ctx_backend(ctx) == HOMG_BACKEND_CUDA ? 2 : 1 + 5);
    assert_int_equal(homg_grid_history(g, hist, 16), 5);
    for (int c = 1; c < 5; c++)
        assert_true(hist[c] < hist[c - 1] || hist[c] < 1e-6);
    assert_true(fabs(hist[4] - info.norm) <= 1e-15 * info.norm);
    /* V(2,2) on 64^2: the 64^2 level, then 32^2 solved exactly. Per cycle: (2+1) + (1+2) WU on
     * the fine level, the exact solve counted as 2 passes of its level (1/4), one monitor pass */
    double per = 6 + 2 * 0.25 + 1;
    assert_true(fabs(info.work_units - 5 * per) < 1e-9);
    assert_true(info.launches >= 5 * 11);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "not converged"));
    /* a fixed number of cycles reads nothing; the input check, once */
    sd.tol = 0;
    assert_int_equal(homg_grid_solve(g, f, NULL, u, &sd, &info), HOMG_OK);
    assert_int_equal(info.host_syncs, 1);
    sd.skip_input_check = 1;
    assert_int_equal(homg_grid_solve(g, f, NULL, u, &sd, &info), HOMG_OK);
    assert_int_equal(info.host_syncs, 0);
    /* converged before max_cycles: stops at the first cycle below tol */
    sd.tol = 1e-3;
    sd.max_cycles = 30;
    assert_int_equal(homg_grid_solve(g, f, NULL, u, &sd, &info), HOMG_OK);
    assert_int_equal(homg_grid_history(g, hist, 16), info.cycles);
    assert_true(info.converged && info.norm <= 1e-3 && info.cycles < 30);
    assert_true(info.cycles == 1 || hist[info.cycles - 2] > 1e-3);
    homg_grid_destroy(g);
    homg_free(ctx, f);
    homg_free(ctx, u);
    homg_p2_free(p);
}

/* ---- bad input: a clear status and message, nothing written to u ---- */

static void bad_descs(void **state)
{
    (void)state;
    homg_grid *g = (homg_grid *)0x1;
    homg_grid_desc gd = { 0 };
    homg_grid_operator op = { 0 };
    const int bad_sizes[] = { 0, -8 };
    for (size_t k = 0; k < sizeof bad_sizes / sizeof bad_sizes[0]; k++) {
        gd.nx = bad_sizes[k];
        assert_int_equal(homg_grid_create(ctx, &gd, &g), HOMG_ERROR_INVALID_ARGUMENT);
        assert_null(g);
        assert_non_null(strstr(homg_ctx_last_error(ctx), "must be >= 1"));
    }
    gd.nx = 64;
    gd.nz = -1;
    assert_int_equal(homg_grid_create(ctx, &gd, &g), HOMG_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "desc.nz = -1"));
    gd.nz = 0;
    gd.bc[HOMG_SIDE_W] = HOMG_BC_PERIODIC; /* unpaired */
    assert_int_equal(homg_grid_create(ctx, &gd, &g), HOMG_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "periodic opposite side"));
    gd.bc[HOMG_SIDE_W] = (homg_bc_kind)7;
    assert_int_equal(homg_grid_create(ctx, &gd, &g), HOMG_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "desc.bc[0] (W) = 7"));
    gd.bc[HOMG_SIDE_W] = HOMG_BC_DIRICHLET;
    gd.method = (homg_method)99;
    assert_int_equal(homg_grid_create(ctx, &gd, &g), HOMG_ERROR_INVALID_ARGUMENT);
    gd.method = HOMG_METHOD_VCYCLE;
    gd.nrhs = -1;
    assert_int_equal(homg_grid_create(ctx, &gd, &g), HOMG_ERROR_INVALID_ARGUMENT);
    gd.nrhs = 0;
    gd.h = -1;
    assert_int_equal(homg_grid_create(ctx, &gd, &g), HOMG_ERROR_INVALID_ARGUMENT);
    gd.h = 0;
    assert_int_equal(homg_grid_create(ctx, NULL, &g), HOMG_ERROR_INVALID_ARGUMENT);
    assert_int_equal(homg_grid_create(NULL, &gd, &g), HOMG_ERROR_INVALID_ARGUMENT);
    /* constants of the operator */
    assert_int_equal(homg_grid_create(ctx, &gd, &g), HOMG_OK);
    op.lambda = -1;
    assert_int_equal(homg_grid_set_operator(g, &op), HOMG_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "lambda"));
    op.lambda = NAN;
    assert_int_equal(homg_grid_set_operator(g, &op), HOMG_ERROR_INVALID_ARGUMENT);
    op.lambda = 0;
    op.sigma = -2;
    assert_int_equal(homg_grid_set_operator(g, &op), HOMG_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "sigma"));
    assert_int_equal(homg_grid_set_operator(g, NULL), HOMG_ERROR_INVALID_ARGUMENT);
    homg_grid_destroy(g);
}

/* A grid too large for memory fails with OUT_OF_MEMORY, not a crash. */
static void too_large_for_memory(void **state)
{
    (void)state;
    homg_ctx_desc cd = { 0 };
    homg_ctx *small = NULL;
    homg_grid *g = NULL;
    homg_grid_desc gd = { 0 };
    cd.backend = HOMG_BACKEND_CPU;
    assert_int_equal(homg_ctx_create(&cd, &small), HOMG_OK);
    gd.nx = 65536; /* 16 GiB per float64 array */
    gd.precision = HOMG_FLOAT64;
    homg_status st = homg_grid_create(small, &gd, &g);
    if (st == HOMG_OK) { /* this machine could: nothing to test */
        homg_grid_destroy(g);
    } else {
        assert_int_equal(st, HOMG_ERROR_OUT_OF_MEMORY);
        assert_null(g);
        assert_non_null(strstr(homg_ctx_last_error(small), "65536 x 65536"));
    }
    gd.nx = 1 << 17;
    st = homg_grid_create(small, &gd, &g);
    assert_true(st == HOMG_ERROR_OUT_OF_MEMORY || st == HOMG_ERROR_UNSUPPORTED);
    assert_null(g);
    homg_ctx_destroy(small);
}

static void bad_solve_arguments(void **state)
{
    (void)state;
    const int N = 32;
    size_t n = (size_t)N * N;
    homg_grid_desc gd = { 0 };
    homg_grid *g = NULL;
    homg_solve_desc sd = { 0 };
    double *fh = (double *)calloc(n, sizeof(double)), *uh = (double *)malloc(n * sizeof(double));
    double bad_bc[32];
    void *f, *u, *bcd;
    homg_boundary bc = { 0 };
    gd.nx = N;
    gd.precision = HOMG_FLOAT64;
    assert_int_equal(homg_grid_create(ctx, &gd, &g), HOMG_OK);
    for (size_t k = 0; k < n; k++)
        fh[k] = 1.0;
    for (int k = 0; k < 32; k++)
        bad_bc[k] = 0;
    f = homg_test_upload(ctx, fh, n, HOMG_FLOAT64);
    for (size_t k = 0; k < n; k++)
        uh[k] = 42.0; /* poison: must survive every failed call */
    u = homg_test_upload(ctx, uh, n, HOMG_FLOAT64);

    assert_int_equal(homg_grid_solve(g, NULL, NULL, u, &sd, NULL), HOMG_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "f is NULL"));
    assert_int_equal(homg_grid_solve(g, f, NULL, NULL, &sd, NULL), HOMG_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "u is NULL"));
    assert_int_equal(homg_grid_solve(g, f, NULL, f, &sd, NULL), HOMG_ERROR_INVALID_ARGUMENT);
    sd.max_cycles = -1;
    assert_int_equal(homg_grid_solve(g, f, NULL, u, &sd, NULL), HOMG_ERROR_INVALID_ARGUMENT);
    sd.max_cycles = 0;
    sd.tol = NAN;
    assert_int_equal(homg_grid_solve(g, f, NULL, u, &sd, NULL), HOMG_ERROR_INVALID_ARGUMENT);
    sd.tol = 0;

    /* NaN / Inf in f, named with its (i, j) */
    fh[5 + 7 * N] = NAN;
    homg_copy_from_host(ctx, f, fh, n * sizeof(double));
    assert_int_equal(homg_grid_solve(g, f, NULL, u, &sd, NULL), HOMG_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "f is not finite at (i, j, k) = (5, 7, 0)"));
    fh[5 + 7 * N] = INFINITY;
    homg_copy_from_host(ctx, f, fh, n * sizeof(double));
    assert_int_equal(homg_grid_solve(g, f, NULL, u, &sd, NULL), HOMG_ERROR_INVALID_ARGUMENT);
    fh[5 + 7 * N] = 1;
    homg_copy_from_host(ctx, f, fh, n * sizeof(double));

    /* Inf in the boundary values */
    bad_bc[3] = -INFINITY;
    bcd = homg_test_upload(ctx, bad_bc, 32, HOMG_FLOAT64);
    bc.face[HOMG_SIDE_N] = bcd;
    assert_int_equal(homg_grid_solve(g, f, &bc, u, &sd, NULL), HOMG_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "bc.face[3] (N) is not finite at index 3"));

    /* NaN in the warm-start guess */
    uh[0] = NAN;
    homg_copy_from_host(ctx, u, uh, n * sizeof(double));
    sd.warm_start = 1;
    assert_int_equal(homg_grid_solve(g, f, NULL, u, &sd, NULL), HOMG_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "u (warm start)"));
    uh[0] = 42.0;
    homg_copy_from_host(ctx, u, uh, n * sizeof(double));

    /* nothing was written */
    homg_test_download(ctx, u, n, HOMG_FLOAT64, uh);
    for (size_t k = 0; k < n; k++)
        assert_true(uh[k] == 42.0);

    homg_free(ctx, bcd);
    homg_free(ctx, f);
    homg_free(ctx, u);
    homg_grid_destroy(g);
    free(fh);
    free(uh);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_descs),
        cmocka_unit_test(too_large_for_memory),
        cmocka_unit_test(bad_solve_arguments),
        cmocka_unit_test(info_and_history),
        cmocka_unit_test(fmg_exact_solutions),
        cmocka_unit_test(fmg_level_kinds_agree),
        cmocka_unit_test(fmg_sweep_plans),
        cmocka_unit_test(fmg_mid_steps_equal),
        cmocka_unit_test(fmg_default_plan_by_size),
        cmocka_unit_test(set_operator_refreshes_exact_level),
        cmocka_unit_test(vcycle_exact_solutions),
        cmocka_unit_test(fcycle_exact_solutions),
        cmocka_unit_test(homg_exact_solutions),
        cmocka_unit_test(rectangles_and_lambda),
        cmocka_unit_test(exact_wide_levels),
        cmocka_unit_test(warm_start_helps),
        cmocka_unit_test(homg_partial_iterations_same_values),
        cmocka_unit_test(seed003_one_mfmg_cycle),
        cmocka_unit_test(seed003_second_order),
    };
    return cmocka_run_group_tests(tests, homg_test_setup_cpu, homg_test_teardown_cpu);
}
