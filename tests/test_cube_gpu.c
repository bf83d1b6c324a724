/* test_cube_gpu.c -- the uniform 3D levels' CUDA kernels (kernels/grid/cube.cu)
 * against their CPU twins (cube.c) on random input, Gauss-Seidel and SOR (omega 1.1), the
 * prolongation with either colour: every kernel on every level of
 * tests/util/cubecase.c (the finest residual with and without u) and on one level big enough for several planes per thread
 * with a short last chunk; then GPU solves of power-of-two boxes with and without
 * the cube kernels (HOMG_GEN_CUBE=0) against the CPU's.  Argument "small": the
 * kernels on the cubecase levels only (compute-sanitizer); "block": the one-block coarse cycle
 * (cube_coarse.cu) against its CPU twin and the launches alone; "exact": the exact solve of a
 * small level (cube_exact.cu) against its CPU twin; "clu" / "clusmall": the one-launch cluster
 * exact solve (cube_cluster.cu) with / without its solves.  Skips (exit 77) without a CUDA device. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "cubeblock.h"
#include "cubecase.h"
#include "devcopy.h"
#include "gridcase.h"
#include "groups.h"
#include "grid/cube_cluster.h"
#include "grid/cube_exact.h"
#include "grid/cube_kernels.h"
#include "grid/cube_point.h"
#include "testutil.h"

#if HOMG_HAVE_CUDA
#define gpu homg_test_gpu /* the pair homg_test_setup_pair makes (testutil.h) */
#define cpu homg_test_cpu
static int small_only, bad;

static float *up(const float *h, size_t n) { return (float *)homg_test_up(gpu, h, n * sizeof(float)); }

static double diff(const float *d, const float *h, size_t n) { return homg_test_diff_f(gpu, d, h, n); }

static void expect(const char *what, const cube_level *K, double d)
{
    if (d <= 1e-6)
        return;
    printf("  %s (%d x %d x %d): CUDA vs CPU %.3e\n", what, K->nx, K->ny, K->nz, d);
    bad++;
}

/* Every kernel on level L (omega: the half-sweeps' weight, 1 or SOR's). */
static void check_level(const gen_level *L, uint64_t seed, float omega)
{
    const cube_kernels *QG = &homg_cuda_cube_kernels, *QC = &homg_cpu_cube_kernels;
    const size_t n = (size_t)L->nx * L->ny * L->nz, nc = n / 8;
    homg_rng rng = homg_rng_seed(seed);
    cube_level K;
    assert_true(cube_from_gen(L, &K));
    K.omega = omega;
    float *u = cube_case_random(n, &rng), *f = cube_case_random(n, &rng), *ec = cube_case_random(nc, &rng);
    float *fc = cube_case_random(nc, &rng), *hu = (float *)malloc(n * sizeof(float));
    float *du = up(u, n), *df = up(f, n), *dec = up(ec, nc), *dfc = up(fc, nc);
    for (int colour = 0; colour < 2; colour++) {
        memcpy(hu, u, n * sizeof(float));
        assert_int_equal(homg_copy_from_host(gpu, du, u, n * sizeof(float)), HOMG_OK);
        assert_int_equal(QG->sweep(&gpu->ex, &K, du, df, colour), HOMG_OK);
        assert_int_equal(QC->sweep(&cpu->ex, &K, hu, f, colour), HOMG_OK);
        expect(colour ? "half-sweep colour 1" : "half-sweep colour 0", &K, diff(du, hu, n));
    }
    assert_int_equal(QG->pre(&gpu->ex, &K, du, df), HOMG_OK);
    assert_int_equal(QC->pre(&cpu->ex, &K, hu, f), HOMG_OK);
    expect("from zero + sweep", &K, diff(du, hu, n));
    for (int colour = 0; colour < 2; colour++) {
        memcpy(hu, u, n * sizeof(float));
        assert_int_equal(homg_copy_from_host(gpu, du, u, n * sizeof(float)), HOMG_OK);
        assert_int_equal(QG->prolong_smooth(&gpu->ex, &K, dec, du, df, colour), HOMG_OK);
        assert_int_equal(QC->prolong_smooth(&cpu->ex, &K, ec, hu, f, colour), HOMG_OK);
        expect(colour ? "prolongation + colour 1" : "prolongation + colour 0", &K, diff(du, hu, n));
    }
    assert_int_equal(QG->residual_restrict(&gpu->ex, &K, du, df, dfc), HOMG_OK);
    assert_int_equal(QC->residual_restrict(&cpu->ex, &K, hu, f, fc), HOMG_OK);
    expect("residual + restriction", &K, diff(dfc, fc, nc));
    {
        double xq[2] = { 0, 0 }, *dxq = NULL;
        assert_int_equal(homg_alloc(gpu, sizeof(double), (void **)&dxq), HOMG_OK);
        assert_int_equal(homg_copy_from_host(gpu, dxq, xq, sizeof(double)), HOMG_OK);
        assert_int_equal(QG->apply(&gpu->ex, &K, df, du, dxq), HOMG_OK);
        assert_int_equal(QC->apply(&cpu->ex, &K, f, hu, &xq[1]), HOMG_OK);
        expect("operator", &K, diff(du, hu, n));
        assert_int_equal(homg_copy_to_host(gpu, xq, dxq, sizeof(double)), HOMG_OK);
        expect("operator's x.q", &K, fabs(xq[0] - xq[1]) / fabs(xq[1]));
        for (int with_u = 0; with_u < 2; with_u++) { /* r into a fresh array; u: the operator's q */
            float *dr = up(u, n), *hr = (float *)malloc(n * sizeof(float));
            xq[0] = xq[1] = 0;
            assert_int_equal(homg_copy_from_host(gpu, dxq, xq, sizeof(double)), HOMG_OK);
            assert_int_equal(QG->residual(&gpu->ex, &K, with_u ? du : NULL, df, dr, dxq), HOMG_OK);
            assert_int_equal(QC->residual(&cpu->ex, &K, with_u ? hu : NULL, f, hr, &xq[1]), HOMG_OK);
            expect(with_u ? "residual" : "residual (u NULL)", &K, diff(dr, hr, n));
            assert_int_equal(homg_copy_to_host(gpu, xq, dxq, sizeof(double)), HOMG_OK);
            expect("residual's r.r", &K, fabs(xq[0] - xq[1]) / fabs(xq[1]));
            homg_free(gpu, dr);
            free(hr);
        }
        homg_free(gpu, dxq);
    }
    homg_free(gpu, du), homg_free(gpu, df), homg_free(gpu, dec), homg_free(gpu, dfc);
    free(u), free(f), free(ec), free(fc), free(hu);
}

static void kernels_match_cpu(void **state)
{
    gen_level L, C;
    (void)state;
    bad = 0;
    for (int t = 0; t < cube_case_count(); t++) {
        cube_case_level(t, &L, &C);
        check_level(&L, 200 + (uint64_t)t, 1.0f);
        check_level(&L, 250 + (uint64_t)t, 1.1f); /* SOR (the plain cycles') */
    }
    if (!small_only) { /* 3 planes per thread (cube.cu cube_chunk), 130 = 43 * 3 + 1 */
        cube_case_level(1, &L, &C);
        L.nx = 160, L.ny = 160, L.nz = 130;
        check_level(&L, 300, 1.0f);
        check_level(&L, 301, 1.1f);
    }
    assert_int_equal(bad, 0);
}

/* GPU solves with the cube kernels equal the CPU's and take the gen kernels' cycles, with
 * plain cycles (the default on these boxes) and with CG around the cycle (HOMG_CUBE_PLAIN=0). */
static void solves_match_cpu(void **state)
{
    static const int dims[][3] = { { 64, 64, 64 }, { 32, 16, 64 } };
    (void)state;
    for (int t = 0; t < 2; t++) {
        grid_case *c = grid_case_new(dims[t][0], dims[t][1], dims[t][2], 1, 17 + t);
        const size_t n = grid_case_cells(c);
        static const char *const gen[] = { "HOMG_GEN_CUBE", "0", NULL }, *const cg[] = { "HOMG_CUBE_PLAIN", "0", NULL };
        /* CUDA, CUDA without the cube kernels, CPU; with CG: CUDA, CPU */
        homg_ctx *const on[5] = { gpu, gpu, cpu, gpu, cpu };
        const char *const *const env[5] = { NULL, gen, NULL, cg, cg };
        double *u[5], res[5];
        homg_solve_info info[5];
        if (t) {
            c->d.bc[0] = c->d.bc[3] = HOMG_BC_NEUMANN;
            c->lambda = 0.2;
        }
        assert_int_equal(grid_case_solves(c, 5, on, env, u, info), HOMG_OK);
        for (int r = 0; r < 5; r++)
            res[r] = grid_case_residual(c, u[r], 0);
        printf("  %d x %d x %d: CUDA %d cycles res %.2e, CUDA gen kernels %d cycles res %.2e, CPU %d cycles res %.2e, "
               "CUDA vs CPU %.2e; CG: CUDA %d cycles res %.2e, CPU %d, CUDA vs CPU %.2e\n",
               c->d.nx, c->d.ny, c->d.nz, info[0].cycles, res[0], info[1].cycles, res[1], info[2].cycles, res[2],
               homg_rel_diff(u[0], u[2], n), info[3].cycles, res[3], info[4].cycles, homg_rel_diff(u[3], u[4], n));
        assert_true(info[0].cycles == info[2].cycles && info[0].cycles <= info[1].cycles);
        assert_true(res[0] < 3e-5 && homg_rel_diff(u[0], u[2], n) < 1e-5);
        assert_true(info[3].cycles == info[4].cycles && res[3] < 3e-5 && homg_rel_diff(u[3], u[4], n) < 1e-5);
        for (int r = 0; r < 5; r++)
            free(u[r]);
        grid_case_free(c);
    }
}

/* ---- the coarse levels' V-cycle in one block (kernels/grid/cube_coarse.cu) ---- */

/* H's arrays on the GPU (D: the same table with device pointers). */
static void block_up(const cube_block *H, cube_block *D)
{
    *D = *H;
    for (int q = 0; q < H->n; q++) {
        D->x[q] = up(H->x[q], cube_block_cells(H, q));
        D->b[q] = up(H->b[q], cube_block_cells(H, q));
    }
    D->cm = up(H->cm, cube_block_cells(H, H->n - 1) * cube_block_cells(H, H->n - 1));
}

static void block_free(cube_block *D)
{
    for (int q = 0; q < D->n; q++)
        homg_free(gpu, D->x[q]), homg_free(gpu, D->b[q]);
    homg_free(gpu, (void *)D->cm);
}

/* The one-block cycle against its CPU twin and against the cube kernels' launches on
 * every table of tests/util/cubeblock.c; bad tables refused with nothing written. */
static void block_matches_cpu(void **state)
{
    (void)state;
    bad = 0;
    for (int i = 0; i < cube_block_count(); i++) {
        cube_block H, D, E;
        assert_true(cube_block_nth(&cpu->ex, i, 500 + (uint64_t)i, &H));
        const size_t n = cube_block_cells(&H, 0);
        block_up(&H, &D);
        block_up(&H, &E);
        assert_int_equal(homg_cuda_cubeblk_kernels.vcycle(&gpu->ex, &D), HOMG_OK);
        assert_int_equal(cube_block_steps(&gpu->ex, &homg_cuda_cube_kernels, &homg_cuda_gen_kernels, &E), HOMG_OK);
        assert_int_equal(homg_cpu_cubeblk_kernels.vcycle(&cpu->ex, &H), HOMG_OK);
        float *el = (float *)malloc(n * sizeof(float)); /* the launches' x[0] on the host (diff: device vs host) */
        assert_int_equal(homg_copy_to_host(gpu, el, E.x[0], n * sizeof(float)), HOMG_OK);
        const double dc = diff(D.x[0], H.x[0], n), dl = diff(D.x[0], el, n), lc = diff(E.x[0], H.x[0], n);
        free(el);
        printf("  block %d (%d x %d x %d, %d levels, omega %.1f, first %d, V(%d,%d)): CUDA block vs CPU %.2e, vs "
               "CUDA launches %.2e (launches vs CPU %.2e)\n",
               i, H.K[0].nx, H.K[0].ny, H.K[0].nz, H.n, H.K[0].omega, H.first, H.pre[0], H.post[0], dc, dl, lc);
        if (dc > 1e-5 || dl > 1e-5)
            bad++;
        block_free(&D);
        block_free(&E);
        cube_block_case_free(&H);
    }
    { /* bad tables: one level; b misaligned; x[0] untouched */
        cube_block H, D;
        assert_true(cube_block_nth(&cpu->ex, 0, 600, &H));
        block_up(&H, &D);
        D.n = 1;
        assert_int_equal(homg_cuda_cubeblk_kernels.vcycle(&gpu->ex, &D), HOMG_ERROR_INVALID_ARGUMENT);
        D.n = H.n;
        D.b[0] = D.b[0] + 1;
        assert_int_equal(homg_cuda_cubeblk_kernels.vcycle(&gpu->ex, &D), HOMG_ERROR_INVALID_ARGUMENT);
        D.b[0] = D.b[0] - 1;
        assert_true(diff(D.x[0], H.x[0], cube_block_cells(&H, 0)) == 0.0);
        block_free(&D);
        cube_block_case_free(&H);
    }
    assert_int_equal(bad, 0);
}

/* GPU solves with the cube block (the default) and with a launch per step
 * (HOMG_CUBE_BLOCK_CELLS=0) and the CPU's: same cycles, same solution to float
 * rounding, fewer launches; plain cycles and CG. */
static void block_solves(void **state)
{
    static const int dims[][3] = { { 64, 64, 64 }, { 32, 16, 64 } };
    (void)state;
    setenv("HOMG_CUBE_EXACT", "0", 1); /* the block's levels, not the exact solve's */
    for (int t = 0; t < 4; t++) {
        grid_case *c = grid_case_new(dims[t % 2][0], dims[t % 2][1], dims[t % 2][2], 1, 41 + t);
        const size_t n = grid_case_cells(c);
        static const char *const launches[] = { "HOMG_CUBE_BLOCK_CELLS", "0", NULL };
        static const char *const cg[] = { "HOMG_CUBE_PLAIN", "0", NULL };
        static const char *const cg_launches[] = { "HOMG_CUBE_PLAIN", "0", "HOMG_CUBE_BLOCK_CELLS", "0", NULL };
        const char *const *const env[3] = { t >= 2 ? cg : NULL, t >= 2 ? cg_launches : launches, t >= 2 ? cg : NULL };
        homg_ctx *const on[3] = { gpu, gpu, cpu }; /* CUDA block, CUDA launches, CPU */
        double *u[3];
        homg_solve_info info[3];
        if (t % 2) {
            c->d.bc[1] = c->d.bc[2] = HOMG_BC_NEUMANN;
            c->lambda = 0.2;
        }
        assert_int_equal(grid_case_solves(c, 3, on, env, u, info), HOMG_OK);
        printf("  %d x %d x %d%s: CUDA block %d cycles %ld launches, CUDA launches %d cycles %ld launches, CPU %d "
               "cycles; block vs launches %.2e, block vs CPU %.2e\n",
               c->d.nx, c->d.ny, c->d.nz, t >= 2 ? " CG" : "", info[0].cycles, info[0].launches, info[1].cycles,
               info[1].launches, info[2].cycles, homg_rel_diff(u[0], u[1], n), homg_rel_diff(u[0], u[2], n));
        assert_true(info[0].converged && info[0].cycles == info[1].cycles && info[0].cycles == info[2].cycles);
        assert_true(info[0].launches < info[1].launches);
        assert_true(homg_rel_diff(u[0], u[1], n) < 1e-5 && homg_rel_diff(u[0], u[2], n) < 1e-5);
        for (int r = 0; r < 3; r++)
            free(u[r]);
        grid_case_free(c);
    }
    unsetenv("HOMG_CUBE_EXACT");
}

/* The exact solve of a small cube level (cube_exact.cu) against its CPU twin on every case
 * level of tests/util/cubecase.c (and its coarse level) of at most CUBE_EXACT_N cells a side
 * that cube_exact_of takes, random b: the same floats (fmaf and the division in the same order). */
static void exact_matches_cpu(void **state)
{
    int taken = 0;
    homg_rng rng = homg_rng_seed(88);
    (void)state;
    bad = 0;
    for (int t = 0; t < cube_case_count(); t++)
        for (int q = 0; q < 2; q++) {
            cube_level K;
            cube_exact E;
            if (cube_case_exact(t, q, &K, &E) <= 0)
                continue;
            const size_t n = (size_t)K.nx * K.ny * K.nz;
            float *b = cube_case_random(n, &rng), *x = (float *)malloc(n * sizeof(float));
            float *db = up(b, n), *dx = up(b, n);
            assert_int_equal(homg_cuda_cubeexact_solve(&gpu->ex, &E, dx, db), HOMG_OK);
            assert_int_equal(homg_cpu_cubeexact_solve(&cpu->ex, &E, x, b), HOMG_OK);
            const double d = diff(dx, x, n);
            printf("  exact %d.%d (%d x %d x %d): CUDA vs CPU %.2e\n", t, q, K.nx, K.ny, K.nz, d);
            if (d > 1e-6)
                bad++;
            taken++;
            homg_free(gpu, db), homg_free(gpu, dx);
            free(b), free(x);
        }
    assert_true(taken >= 4);
    assert_int_equal(bad, 0);
}

/* Solves of 64^3 and 32 x 64 x 32 boxes (Dirichlet; Neumann sides and lambda), plain cycles and CG:
 * on the GPU with var = with, on the GPU with var = without (NULL: unset, the default), on the CPU
 * with var = with.  The first converges in the CPU's cycles and no more than the second's, with
 * fewer launches, and all three agree to float rounding. */
static void exact_level_solves(const char *var, const char *with, const char *without, unsigned seed)
{
    static const int dims[][3] = { { 64, 64, 64 }, { 32, 64, 32 } };
    for (int t = 0; t < 4; t++) {
        grid_case *c = grid_case_new(dims[t % 2][0], dims[t % 2][1], dims[t % 2][2], 1, seed + t);
        const size_t n = grid_case_cells(c);
        const char *w[] = { "HOMG_CUBE_PLAIN", "0", var, with, NULL };
        const char *o[] = { "HOMG_CUBE_PLAIN", "0", without ? var : NULL, without, NULL };
        const int first = t >= 2 ? 0 : 2; /* CG: HOMG_CUBE_PLAIN=0 too */
        const char *const *const env[3] = { w + first, o + first, w + first };
        homg_ctx *const on[3] = { gpu, gpu, cpu };
        double *u[3];
        homg_solve_info info[3];
        if (t % 2) {
            c->d.bc[1] = c->d.bc[2] = HOMG_BC_NEUMANN;
            c->lambda = 0.2;
        }
        assert_int_equal(grid_case_solves(c, 3, on, env, u, info), HOMG_OK);
        printf("  %d x %d x %d%s: CUDA %s=%s %d cycles %ld launches, CUDA %s=%s %d cycles %ld launches, CPU %d "
               "cycles; vs the second %.2e, vs CPU %.2e\n",
               c->d.nx, c->d.ny, c->d.nz, t >= 2 ? " CG" : "", var, with, info[0].cycles, info[0].launches, var,
               without ? without : "(default)", info[1].cycles, info[1].launches, info[2].cycles,
               homg_rel_diff(u[0], u[1], n), homg_rel_diff(u[0], u[2], n));
        assert_true(info[0].converged && info[0].cycles <= info[1].cycles && info[0].cycles == info[2].cycles);
        assert_true(info[0].launches < info[1].launches);
        assert_true(homg_rel_diff(u[0], u[1], n) < 1e-4 && homg_rel_diff(u[0], u[2], n) < 1e-5);
        for (int r = 0; r < 3; r++)
            free(u[r]);
        grid_case_free(c);
    }
}

/* GPU solves with the exact solve from the first level of <= 16^3 (HOMG_CUBE_EXACT=1), the GPU's
 * without it (HOMG_CUBE_EXACT=0) and the CPU's with it: converged, the same cycles as the CPU and no
 * more than without, fewer launches, the same solution to float rounding; plain cycles and CG. */
static void exact_solves(void **state)
{
    (void)state;
    exact_level_solves("HOMG_CUBE_EXACT", "1", "0", 71);
}

/* The three-launch exact solve (cube_sep.cu) against its CPU twin on cube_sep_case's levels
 * (64^3 .. 4 x 8 x 12, Dirichlet / Neumann + lambda / mixed), random b, at every tile width and
 * outputs a thread: the same floats (fmaf over the same order in every tile, the same division). */
static const int sep_tiles[][2] = { /* (tile width, outputs a thread: cube_sep.h's tt) */
                                    { 16, 1 },  { 32, 1 },  { 64, 1 },  { 8, 11 },  { 8, 21 },
                                    { 8, 22 },  { 8, 44 },  { 16, 11 }, { 16, 21 }, { 16, 22 },
                                    { 16, 44 }, { 32, 11 }, { 32, 21 }, { 32, 22 }, { 32, 44 }
};

static void sep_matches_cpu(void **state)
{
    int taken = 0;
    homg_rng rng = homg_rng_seed(89);
    float *t = (float *)malloc(sizeof(float) * CUBE_SEP_FLOATS);
    (void)state;
    bad = 0;
    for (int c = 0; c < cube_sep_count(); c++) {
        cube_level K;
        if (!cube_sep_case(c, &K, t) || (small_only && (size_t)K.nx * K.ny * K.nz > 32 * 32 * 32))
            continue;
        const size_t n = (size_t)K.nx * K.ny * K.nz;
        float *b = cube_case_random(n, &rng), *x = (float *)malloc(n * sizeof(float));
        float *db = up(b, n), *dx = up(b, n), *dt = up(t, CUBE_SEP_FLOATS), *dw = up(b, n);
        const cube_sep P = { { K.nx, K.ny, K.nz }, K.lam, t, NULL, 0, 0 };
        assert_int_equal(homg_cpu_cubesep_solve(&cpu->ex, &P, x, b), HOMG_OK);
        for (size_t f = 0; f < sizeof sep_tiles / sizeof sep_tiles[0]; f++) { /* every tile the CUDA passes take */
            const int w = sep_tiles[f][0], tt = sep_tiles[f][1];
            const cube_sep D = { { K.nx, K.ny, K.nz }, K.lam, dt, dw, w, tt };
            homg_free(gpu, dx); /* a fresh x each time: no tile passes on another's output */
            dx = up(b, n);
            assert_int_equal(homg_cuda_cubesep_solve(&gpu->ex, &D, dx, db), HOMG_OK);
            const double d = diff(dx, x, n);
            printf("  sep %d (%d x %d x %d, tile %d, thread %d): CUDA vs CPU %.2e\n", c, K.nx, K.ny, K.nz, w, tt, d);
            bad += d > 0.0;
        }
        taken++;
        homg_free(gpu, db), homg_free(gpu, dx), homg_free(gpu, dt), homg_free(gpu, dw);
        free(b), free(x);
    }
    free(t);
    assert_true(taken >= (small_only ? 6 : 10));
    assert_int_equal(bad, 0);
}

/* GPU solves with level 1 solved exactly in three launches (HOMG_CUBE_EXACT_MAX=64), the GPU's
 * with the default (cube13's 16^3 exact level) and the CPU's with it: converged, the same cycles as
 * the CPU and no more than the default, fewer launches, the same solution to float rounding; plain
 * cycles and CG. */
static void sep_solves(void **state)
{
    (void)state;
    exact_level_solves("HOMG_CUBE_EXACT_MAX", "64", NULL, 81);
}

/* The one-launch cluster solve (cube_cluster.cu) against its CPU twin (cube_cluster.c) on
 * cube_clu_case's levels (32^3 .. 8^3, Dirichlet / Neumann + lambda / mixed: half and full
 * transforms) on clusters of 8 and 16 blocks where they fit, random b: the same floats. */
static void cluster_matches_cpu(void **state)
{
    int taken = 0;
    homg_rng rng = homg_rng_seed(97);
    float *t = (float *)malloc(sizeof(float) * CUBE_CLUSTER_FLOATS);
    (void)state;
    bad = 0;
    for (int c = 0; c < cube_clu_count(); c++) {
        cube_level K;
        cube_clu C;
        if (!cube_clu_case(c, &K, t, &C))
            continue;
        const size_t n = (size_t)K.nx * K.ny * K.nz;
        float *b = cube_case_random(n, &rng), *x = (float *)malloc(n * sizeof(float));
        float *db = up(b, n), *dx = up(b, n), *dt = up(t, CUBE_CLUSTER_FLOATS);
        C.t = t;
        assert_int_equal(homg_cpu_cubeclu_solve(&cpu->ex, &C, 8, x, b), HOMG_OK);
        C.t = dt;
        for (int cs = 8; cs <= 16; cs *= 2) {
            if (!cube_cluster_fits(&C, cs))
                continue;
            homg_free(gpu, dx); /* a fresh x each time */
            dx = up(b, n);
            assert_int_equal(homg_cuda_cubeclu_solve(&gpu->ex, &C, cs, dx, db), HOMG_OK);
            const double d = diff(dx, x, n);
            printf("  cluster %d (%d x %d x %d, half %d%d%d, %d blocks): CUDA vs CPU %.2e\n", c, K.nx, K.ny, K.nz,
                   C.half[0], C.half[1], C.half[2], cs, d);
            bad += d > 0.0;
            taken++;
        }
        homg_free(gpu, db), homg_free(gpu, dx), homg_free(gpu, dt);
        free(b), free(x);
    }
    free(t);
    assert_true(taken >= 20);
    assert_int_equal(bad, 0);
}

/* GPU solves with level 1 solved exactly in one launch on a cluster of 16 (HOMG_CUBE_EXACT_MAX=32
 * HOMG_CUBE_CLUSTER=16), the GPU's in three launches (HOMG_CUBE_CLUSTER=0) and the CPU's with
 * the cluster: converged, the same cycles, fewer launches, the same solution to float rounding. */
static void cluster_solves(void **state)
{
    (void)state;
    setenv("HOMG_CUBE_EXACT_MAX", "32", 1);
    exact_level_solves("HOMG_CUBE_CLUSTER", "16", "0", 91);
    unsetenv("HOMG_CUBE_EXACT_MAX");
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernels_match_cpu), cmocka_unit_test(solves_match_cpu),  cmocka_unit_test(block_matches_cpu),
        cmocka_unit_test(block_solves),      cmocka_unit_test(exact_matches_cpu), cmocka_unit_test(exact_solves),
        cmocka_unit_test(sep_matches_cpu),   cmocka_unit_test(sep_solves),        cmocka_unit_test(cluster_matches_cpu),
        cmocka_unit_test(cluster_solves),
    };
    const struct CMUnitTest small[] = {
        cmocka_unit_test(kernels_match_cpu),
    };
    const struct CMUnitTest block[] = {
        cmocka_unit_test(block_matches_cpu),
    };
    const struct CMUnitTest exact[] = {
        cmocka_unit_test(exact_matches_cpu),
    };
    const struct CMUnitTest sep[] = {
        cmocka_unit_test(sep_matches_cpu),
        cmocka_unit_test(sep_solves),
    };
    const struct CMUnitTest sepsmall[] = {
        cmocka_unit_test(sep_matches_cpu),
    };
    const struct CMUnitTest clu[] = {
        cmocka_unit_test(cluster_matches_cpu),
        cmocka_unit_test(cluster_solves),
    };
    const struct CMUnitTest clusmall[] = {
        cmocka_unit_test(cluster_matches_cpu),
    };
    /* the first argument picks a group (none: all); the small ones serve compute-sanitizer runs */
    const homg_test_group groups[] = {
        HOMG_TEST_GROUP("all", tests, "every test"),
        HOMG_TEST_GROUP("small", small, "the kernels on the small levels only"),
        HOMG_TEST_GROUP("block", block, "the cube block alone"),
        HOMG_TEST_GROUP("exact", exact, "the exact small-level solve alone"),
        HOMG_TEST_GROUP("sep", sep, "the three-launch exact solve: kernels and solves"),
        HOMG_TEST_GROUP("sepsmall", sepsmall, "the three-launch exact solve's kernels, levels of <= 32^3"),
        HOMG_TEST_GROUP("clu", clu, "the one-launch cluster exact solve: kernel and solves"),
        HOMG_TEST_GROUP("clusmall", clusmall, "the one-launch cluster exact solve's kernel alone"),
    };
    const homg_test_group *g = homg_test_group_pick(groups, sizeof groups / sizeof groups[0], argc, argv);
    if (!g)
        return 2;
    homg_test_require_gpu("test_cube_gpu");
    small_only = g->tests == small || g->tests == sepsmall;
    return homg_test_run_group(g, homg_test_setup_pair, homg_test_teardown_pair);
}
#else
int main(void)
{
    homg_test_require_gpu("test_cube_gpu (built without CUDA)");
    return HOMG_TEST_SKIP;
}
#endif
