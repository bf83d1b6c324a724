/* test_cube.c -- the uniform 3D levels' kernels (kernels/grid/cube*, CPU) against
 * the general multigrid's kernels (kernels/grid/gen*, an independent code of the
 * same operator, summing in double) on random input: a half-sweep of each colour,
 * the pass from zero (= smooth_from_zero + the colour-1 half-sweep), prolongation
 * with the colour-1 half-sweep, residual and restriction, the operator (and x.q), the
 * finest residual (and r.r); with SOR (omega 1.1, the plain cycles') a half-sweep, the pass
 * from zero and the prolongation with either colour against u + omega (gen's Gauss-Seidel
 * value - u); every size and side kind of tests/util/cubecase.c.  Which levels cube_from_gen takes, and whole solves
 * (residual from the definition, cycles beside the gen kernels'). */
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
#include "gridcase.h"
#include "grid/cube_exact.h"
#include "grid/cube_kernels.h"
#include "grid/cube_point.h"
#include "grid/gen_kernels.h"
#include "testutil.h"

#define cpu homg_test_cpu /* homg_test_setup_cpu makes it (testutil.h) */

/* ||a - b|| / ||b|| over n floats. */
static double diff(const float *a, const float *b, size_t n)
{
    double *x = (double *)malloc(n * sizeof(double)), *y = (double *)malloc(n * sizeof(double)), d;
    for (size_t k = 0; k < n; k++)
        x[k] = a[k], y[k] = b[k];
    d = homg_rel_diff(x, y, n);
    free(x);
    free(y);
    return d;
}

static float *dup(const float *v, size_t n)
{
    float *w = (float *)malloc(n * sizeof(float));
    memcpy(w, v, n * sizeof(float));
    return w;
}

static int bad;

static void expect(const char *what, int t, const gen_level *L, double d)
{
    if (d <= 2e-6)
        return;
    printf("  %s, case %d (%d x %d x %d): cube vs gen %.3e\n", what, t, L->nx, L->ny, L->nz, d);
    bad++;
}

static void check_case(int t)
{
    const gen_kernels *G = &homg_cpu_gen_kernels;
    const cube_kernels *Q = &homg_cpu_cube_kernels;
    kernel_exec *ex = &cpu->ex;
    gen_level L, C;
    cube_level K;
    homg_rng rng = homg_rng_seed(100 + (uint64_t)t);
    cube_case_level(t, &L, &C);
    assert_true(cube_from_gen(&L, &K));
    const size_t n = (size_t)L.nx * L.ny * L.nz, nc = (size_t)C.nx * C.ny * C.nz;
    float *u = cube_case_random(n, &rng), *f = cube_case_random(n, &rng), *ec = cube_case_random(nc, &rng);
    float *a = dup(u, n), *b = dup(u, n), *fa = cube_case_random(nc, &rng), *fb = dup(fa, nc);
    for (int colour = 0; colour < 2; colour++) {
        memcpy(a, u, n * sizeof(float));
        memcpy(b, u, n * sizeof(float));
        assert_int_equal(Q->sweep(ex, &K, a, f, colour), HOMG_OK);
        assert_int_equal(G->smooth(ex, HOMG_FLOAT32, &L, b, f, colour), HOMG_OK);
        expect(colour ? "half-sweep colour 1" : "half-sweep colour 0", t, &L, diff(a, b, n));
    }
    memcpy(a, u, n * sizeof(float)); /* garbage before: every cell is written */
    assert_int_equal(Q->pre(ex, &K, a, f), HOMG_OK);
    assert_int_equal(G->smooth_from_zero(ex, HOMG_FLOAT32, &L, b, f), HOMG_OK);
    assert_int_equal(G->smooth(ex, HOMG_FLOAT32, &L, b, f, 1), HOMG_OK);
    expect("from zero + colour 1", t, &L, diff(a, b, n));
    memcpy(a, u, n * sizeof(float));
    memcpy(b, u, n * sizeof(float));
    assert_int_equal(Q->prolong_smooth(ex, &K, ec, a, f, 1), HOMG_OK);
    assert_int_equal(G->prolong_smooth(ex, HOMG_FLOAT32, &L, &C, ec, b, f), HOMG_OK);
    expect("prolongation + colour 1", t, &L, diff(a, b, n));
    assert_int_equal(Q->residual_restrict(ex, &K, u, f, fa), HOMG_OK);
    assert_int_equal(G->residual_restrict(ex, HOMG_FLOAT32, &L, &C, u, f, fb), HOMG_OK);
    expect("residual + restriction", t, &L, diff(fa, fb, nc));
    {
        double xq[2] = { 0, 0 };
        assert_int_equal(Q->apply(ex, &K, u, a, &xq[0]), HOMG_OK);
        assert_int_equal(G->apply(ex, HOMG_FLOAT32, &L, u, b, &xq[1]), HOMG_OK);
        expect("operator", t, &L, diff(a, b, n));
        expect("operator's x.q", t, &L, fabs(xq[0] - xq[1]) / fabs(xq[1]));
    }
    for (int with_u = 0; with_u < 2; with_u++) {
        double rr[2] = { 0, 0 };
        gen_fine F;
        memset(&F, 0, sizeof F); /* no face data, no sigma_cell */
        F.h = 1;
        assert_int_equal(Q->residual(ex, &K, with_u ? u : NULL, f, a, &rr[0]), HOMG_OK);
        assert_int_equal(G->residual(ex, HOMG_FLOAT32, &L, &F, with_u ? u : NULL, f, b, &rr[1]), HOMG_OK);
        expect(with_u ? "residual" : "residual (u NULL)", t, &L, diff(a, b, n));
        expect("residual's r.r", t, &L, fabs(rr[0] - rr[1]) / fabs(rr[1]));
    }
    free(u), free(f), free(ec), free(a), free(b), free(fa), free(fb);
}

/* a = u + w (b - u): SOR's value from u and Gauss-Seidel's b (b = u where b's kernel left u). */
static void sor_of(float *a, const float *u, const float *b, size_t n, float w)
{
    for (size_t k = 0; k < n; k++)
        a[k] = u[k] + w * (b[k] - u[k]);
}

/* The cube kernels with SOR (omega 1.1) and prolongation with the colour-0 half-sweep (plain
 * cycles, general_steps.c) against gen's Gauss-Seidel steps: u + omega (GS value - u) per relaxed cell. */
static void check_sor_case(int t)
{
    const gen_kernels *G = &homg_cpu_gen_kernels;
    const cube_kernels *Q = &homg_cpu_cube_kernels;
    kernel_exec *ex = &cpu->ex;
    const float w = 1.1f;
    gen_level L, C;
    cube_level K;
    homg_rng rng = homg_rng_seed(400 + (uint64_t)t);
    cube_case_level(t, &L, &C);
    assert_true(cube_from_gen(&L, &K));
    K.omega = w;
    const size_t n = (size_t)L.nx * L.ny * L.nz, nc = (size_t)C.nx * C.ny * C.nz;
    float *u = cube_case_random(n, &rng), *f = cube_case_random(n, &rng), *ec = cube_case_random(nc, &rng);
    float *a = dup(u, n), *b = dup(u, n), *v = dup(u, n), *e = dup(u, n);
    for (int colour = 0; colour < 2; colour++) { /* a half-sweep */
        memcpy(a, u, n * sizeof(float));
        memcpy(b, u, n * sizeof(float));
        assert_int_equal(Q->sweep(ex, &K, a, f, colour), HOMG_OK);
        assert_int_equal(G->smooth(ex, HOMG_FLOAT32, &L, b, f, colour), HOMG_OK);
        sor_of(e, u, b, n, w);
        expect(colour ? "SOR half-sweep colour 1" : "SOR half-sweep colour 0", t, &L, diff(a, e, n));
    }
    /* from zero: colour 0 gives omega f / diagonal, then colour 1 SOR from there */
    assert_int_equal(Q->pre(ex, &K, a, f), HOMG_OK);
    assert_int_equal(G->smooth_from_zero(ex, HOMG_FLOAT32, &L, b, f), HOMG_OK);
    for (size_t k = 0; k < n; k++)
        v[k] = w * b[k], b[k] = v[k];
    assert_int_equal(G->smooth(ex, HOMG_FLOAT32, &L, b, f, 1), HOMG_OK);
    sor_of(e, v, b, n, w);
    expect("SOR from zero + colour 1", t, &L, diff(a, e, n));
    for (int sor = 0; sor < 2; sor++) /* v = u + P ec; the cells of colour relaxed from v, the others keep u */
        for (int colour = 0; colour < 2; colour++) {
            K.omega = sor ? w : 1.0f;
            memcpy(a, u, n * sizeof(float));
            memcpy(v, u, n * sizeof(float));
            assert_int_equal(Q->prolong_smooth(ex, &K, ec, a, f, colour), HOMG_OK);
            assert_int_equal(G->prolong_add(ex, HOMG_FLOAT32, &L, &C, ec, v), HOMG_OK);
            memcpy(b, v, n * sizeof(float));
            assert_int_equal(G->smooth(ex, HOMG_FLOAT32, &L, b, f, colour), HOMG_OK);
            sor_of(e, v, b, n, K.omega);
            for (int k = 0; k < L.nz; k++)
                for (int j = 0; j < L.ny; j++)
                    for (int i = 0; i < L.nx; i++) {
                        const size_t c = (size_t)i + (size_t)L.nx * ((size_t)j + (size_t)L.ny * k);
                        if ((i + j + k) % 2 != colour)
                            e[c] = u[c];
                    }
            expect(sor ? "SOR prolongation + a colour" : "prolongation + a colour", t, &L, diff(a, e, n));
        }
    free(u), free(f), free(ec), free(a), free(b), free(v), free(e);
}

static void kernels_match_gen(void **state)
{
    (void)state;
    bad = 0;
    for (int t = 0; t < cube_case_count(); t++) {
        check_case(t);
        check_sor_case(t);
    }
    assert_int_equal(bad, 0);
}

/* Only uniform, flag-free, non-periodic levels with nx % 4 == 0 and even ny, nz. */
static void levels_taken(void **state)
{
    gen_level L, C;
    cube_level K;
    unsigned char flag = 0;
    (void)state;
    cube_case_level(3, &L, &C);
    assert_true(cube_from_gen(&L, &K));
    assert_true(K.dmid[0] == (float)(2 * L.g0[0]) && K.dlo[2] == (float)L.g0[2] + (float)L.wall[4]);
    L.nx = 6;
    assert_false(cube_from_gen(&L, &K));
    L.nx = 16, L.nz = 1;
    assert_false(cube_from_gen(&L, &K));
    L.nz = 15;
    assert_false(cube_from_gen(&L, &K));
    L.nz = 16, L.periodic[1] = 1;
    assert_false(cube_from_gen(&L, &K));
    L.periodic[1] = 0, L.flag = &flag;
    assert_false(cube_from_gen(&L, &K));
    L.flag = NULL, L.uniform = 0;
    assert_false(cube_from_gen(&L, &K));
}

/* Solves of power-of-two boxes (the cube kernels on every level but the coarsest)
 * reach the definition's residual and take the cycles the gen kernels take, in every
 * schedule: plain cycles (the default on these boxes), the levels of <= 4096 cells in
 * one block (HOMG_GEN_BLOCK_CELLS), CG around the cycle (HOMG_CUBE_PLAIN=0), the first cycle an F-cycle, and with
 * face data (plain cycles do not take it: CG); then a warm start from the solution. */
static void solves_match_gen(void **state)
{
    static const int dims[][3] = { { 32, 32, 16 }, { 16, 64, 32 } };
    static const char *const env[][2] = { { NULL, NULL },
                                          { "HOMG_GEN_CUBE", "0" },
                                          { "HOMG_GEN_BLOCK_CELLS", "4096" },
                                          { "HOMG_CUBE_PLAIN", "0" },
                                          { "HOMG_CUBE_F1", "1" },
                                          { NULL, NULL } };
    enum { RUNS = 6 };
    (void)state;
    for (int t = 0; t < 4; t++) {
        grid_case *c = grid_case_new(dims[t / 2][0], dims[t / 2][1], dims[t / 2][2], 1, 7 + t);
        const size_t n = grid_case_cells(c);
        double *u = (double *)malloc(n * sizeof(double)), res[RUNS];
        homg_solve_desc sd;
        homg_solve_info info[RUNS], warm;
        c->d.method = HOMG_METHOD_VCYCLE;
        c->d.precision = HOMG_FLOAT32;
        if (t & 1) { /* Neumann on three sides, lambda > 0 */
            c->d.bc[1] = c->d.bc[2] = c->d.bc[5] = HOMG_BC_NEUMANN;
            c->lambda = 0.3;
        }
        memset(&sd, 0, sizeof sd);
        sd.tol = 1e-5;
        for (int run = 0; run < RUNS; run++) {
            if (env[run][0])
                setenv(env[run][0], env[run][1], 1);
            if (run == RUNS - 1)
                grid_case_random_faces(c, 11 + t);
            assert_int_equal(grid_case_solve(cpu, c, &sd, u, &info[run], NULL, NULL), HOMG_OK);
            res[run] = grid_case_residual(c, u, 0);
            if (run == 0) /* the warm start below */
                memcpy(c->u0, u, n * sizeof(double));
            if (env[run][0])
                unsetenv(env[run][0]);
        }
        printf(
            "  %d x %d x %d%s: plain cycles %d, residual %.2e; gen kernels %d, %.2e; one-block coarse V from 16^3 %d, "
            "%.2e; CG %d, %.2e; F-cycle first %d, %.2e; face data %d, %.2e\n",
            c->d.nx, c->d.ny, c->d.nz, t & 1 ? " (Neumann, lambda)" : "", info[0].cycles, res[0], info[1].cycles,
            res[1], info[2].cycles, res[2], info[3].cycles, res[3], info[4].cycles, res[4], info[5].cycles, res[5]);
        for (int run = 0; run < RUNS; run++) {
            assert_true(info[run].converged && res[run] < 3e-5);
            assert_true(info[run].cycles <= info[1].cycles + (run == RUNS - 1)); /* face data: CG's cycles */
        }
        /* warm: from the first run's solution, without face data (plain cycles from u) */
        for (int k = 0; k < 6; k++) {
            free(c->face[k]);
            c->face[k] = NULL;
        }
        sd.warm_start = 1;
        assert_int_equal(grid_case_solve(cpu, c, &sd, u, &warm, NULL, NULL), HOMG_OK);
        assert_true(warm.converged && warm.cycles <= 2 && grid_case_residual(c, u, 0) < 3e-5);
        grid_case_free(c);
        free(u);
    }
}

/* ---- the coarse levels' V-cycle in one launch (kernels/grid/cube_coarse.h) ---- */

/* The CPU twin equals the steps run one by one (cube_block_steps: visit()'s order), bit for
 * bit, on every level's arrays. */
static void block_twin_matches_steps(void **state)
{
    (void)state;
    for (int i = 0; i < cube_block_count(); i++) {
        cube_block A, S;
        assert_true(cube_block_nth(&cpu->ex, i, 400 + (uint64_t)i, &A));
        assert_true(cube_block_nth(&cpu->ex, i, 400 + (uint64_t)i, &S));
        assert_int_equal(homg_cpu_cubeblk_kernels.vcycle(&cpu->ex, &A), HOMG_OK);
        assert_int_equal(cube_block_steps(&cpu->ex, &homg_cpu_cube_kernels, &homg_cpu_gen_kernels, &S), HOMG_OK);
        for (int q = 0; q < A.n; q++) {
            const size_t n = cube_block_cells(&A, q);
            assert_memory_equal(A.x[q], S.x[q], n * sizeof(float));
            assert_memory_equal(A.b[q], S.b[q], n * sizeof(float));
        }
        assert_true(diff(A.x[0], A.b[0], cube_block_cells(&A, 0)) > 0.1); /* it did something */
        cube_block_case_free(&A);
        cube_block_case_free(&S);
    }
    {
        cube_block A;
        assert_true(cube_block_case(&cpu->ex, 3, 16, 16, 16, 3, 1.0f, 0, 2, 2, 7, &A));
        A.n = 1;
        assert_int_equal(homg_cpu_cubeblk_kernels.vcycle(&cpu->ex, &A), HOMG_ERROR_INVALID_ARGUMENT);
        A.n = 3;
        cube_block_case_free(&A);
    }
}

/* Plain V-cycles' sweeps from HOMG_CUBE_SCHED (lib/grid/general_plan.c, general_cycle.c cycle_sweeps):
 * "0", V(2,2) on every level written out ("22", "22;22") and strings that are no plan ("2x",
 * "22,", "", "22;", "22;1") run session 10's schedule (desc.pre / post on every level) bit for
 * bit; the default equals its own string written out, differs from "0" and converges in no more
 * cycles; "11" takes 4 launches fewer a cycle on each level run step by step (pre, restriction
 * and prolongation, half-sweep instead of pre, 2 half-sweeps, restriction, prolongation, 3
 * half-sweeps; 32^3: 32^3 and 16^3, the block from 8^3 one launch either way).  Without the
 * exact solve (HOMG_CUBE_EXACT=0; exact_solves_match checks the default plan with it). */
static void schedules_plan(void **state)
{
    static const char *const plan[] = { "0", "22", "22;22", "2x", "22,", "", "22;", "22;1", NULL, "12,32,22", "11" };
    enum { PLANS = sizeof plan / sizeof plan[0], DEFAULT = 8, ELEVEN = 10 };
    grid_case *c = grid_case_new(32, 32, 32, 1, 41);
    const size_t n = grid_case_cells(c);
    double *u[PLANS], *w = (double *)malloc(n * sizeof(double)), res[2];
    homg_solve_info quiet[PLANS], tol[2];
    homg_solve_desc sd;
    (void)state;
    c->d.method = HOMG_METHOD_VCYCLE;
    c->d.precision = HOMG_FLOAT32;
    setenv("HOMG_CUBE_EXACT", "0", 1); /* the plans on every level, the block from 8^3 */
    for (int k = 0; k < PLANS; k++) {
        u[k] = (double *)malloc(n * sizeof(double));
        if (plan[k])
            setenv("HOMG_CUBE_SCHED", plan[k], 1);
        memset(&sd, 0, sizeof sd); /* quiet: 3 cycles from zero */
        sd.max_cycles = 3;
        sd.no_history = 1;
        assert_int_equal(grid_case_solve(cpu, c, &sd, u[k], &quiet[k], NULL, NULL), HOMG_OK);
        if (k == 0 || k == DEFAULT) { /* to the tolerance */
            memset(&sd, 0, sizeof sd);
            sd.tol = 1e-5;
            assert_int_equal(grid_case_solve(cpu, c, &sd, w, &tol[k != 0], NULL, NULL), HOMG_OK);
            res[k != 0] = grid_case_residual(c, w, 0);
        }
        unsetenv("HOMG_CUBE_SCHED");
    }
    printf(
        "  32^3: 3 cycles, launches %ld (\"0\"), %ld (default), %ld (\"11\"); to 1e-5: \"0\" %d cycles %.2e, default "
        "%d cycles %.2e\n",
        quiet[0].launches, quiet[DEFAULT].launches, quiet[ELEVEN].launches, tol[0].cycles, res[0], tol[1].cycles,
        res[1]);
    for (int k = 1; k < DEFAULT; k++) {
        assert_memory_equal(u[k], u[0], n * sizeof(double));
        assert_int_equal(quiet[k].launches, quiet[0].launches);
    }
    assert_memory_equal(u[DEFAULT + 1], u[DEFAULT], n * sizeof(double));
    assert_true(homg_rel_diff(u[DEFAULT], u[0], n) > 0.0);
    assert_true(tol[1].converged && res[1] < 3e-5 && tol[1].cycles <= tol[0].cycles);
    assert_int_equal(quiet[0].launches - quiet[ELEVEN].launches, 4 * 3 * 2);
    unsetenv("HOMG_CUBE_EXACT");
    for (int k = 0; k < PLANS; k++)
        free(u[k]);
    free(w);
    grid_case_free(c);
}

/* CPU solves with the coarse levels as the cube block (the default, from 8^3; and from
 * 16^3, HOMG_CUBE_BLOCK_CELLS=4096) equal those with a launch per step
 * (HOMG_CUBE_BLOCK_CELLS=0) bit for bit, plain cycles and CG, one launch for the 9 (17)
 * it replaces per cycle. */
static void block_solves_match(void **state)
{
    static const int dims[][3] = { { 32, 32, 16 }, { 16, 64, 32 } };
    (void)state;
    setenv("HOMG_CUBE_EXACT", "0", 1); /* the block's levels, not the exact solve's */
    for (int t = 0; t < 4; t++) {
        grid_case *c = grid_case_new(dims[t % 2][0], dims[t % 2][1], dims[t % 2][2], 1, 31 + t);
        const size_t n = grid_case_cells(c);
        static const char *const steps[] = { "HOMG_CUBE_BLOCK_CELLS", "0", NULL };
        static const char *const from16[] = { "HOMG_CUBE_BLOCK_CELLS", "4096", NULL };
        static const char *const cg[] = { "HOMG_CUBE_PLAIN", "0", NULL };
        static const char *const cg_steps[] = { "HOMG_CUBE_PLAIN", "0", "HOMG_CUBE_BLOCK_CELLS", "0", NULL };
        static const char *const cg_from16[] = { "HOMG_CUBE_PLAIN", "0", "HOMG_CUBE_BLOCK_CELLS", "4096", NULL };
        const char *const *const env[3] = { t >= 2 ? cg : NULL, t >= 2 ? cg_steps : steps,
                                            t >= 2 ? cg_from16 : from16 };
        homg_ctx *const on[3] = { cpu, cpu, cpu };
        double *u[3];
        homg_solve_info info[3];
        if (t % 2) {
            c->d.bc[0] = c->d.bc[4] = HOMG_BC_NEUMANN;
            c->lambda = 0.1;
        }
        assert_int_equal(grid_case_solves(c, 3, on, env, u, info), HOMG_OK);
        printf("  %d x %d x %d%s: block from 8^3 %d cycles %ld launches, steps %d cycles %ld launches, block from "
               "16^3 %d cycles %ld launches, diff %.2e %.2e\n",
               c->d.nx, c->d.ny, c->d.nz, t >= 2 ? " CG" : "", info[0].cycles, info[0].launches, info[1].cycles,
               info[1].launches, info[2].cycles, info[2].launches, homg_rel_diff(u[0], u[1], n),
               homg_rel_diff(u[2], u[1], n));
        assert_true(info[0].converged && info[0].cycles == info[1].cycles && info[2].cycles == info[1].cycles);
        assert_true(info[2].launches < info[0].launches && info[0].launches < info[1].launches);
        assert_true(homg_rel_diff(u[0], u[1], n) == 0.0 && homg_rel_diff(u[2], u[1], n) == 0.0);
        free(u[0]), free(u[1]), free(u[2]);
        grid_case_free(c);
    }
    unsetenv("HOMG_CUBE_EXACT");
}

/* The exact solve of a small cube level (kernels/grid/cube_exact.h, CPU): on every case level
 * of tests/util/cubecase.c of at most CUBE_EXACT_N cells a side that cube_exact_of takes, and on
 * their coarse levels, x = A^-1 b for random b to float rounding (the residual b - A x from the
 * definition, cube residual, below 2e-5 of b); the all-Neumann level with lambda 0 refused. */
static void exact_solves_levels(void **state)
{
    int taken = 0, refused = 0;
    double worst = 0.0;
    homg_rng rng = homg_rng_seed(77);
    (void)state;
    for (int t = 0; t < cube_case_count(); t++)
        for (int q = 0; q < 2; q++) {
            cube_level K;
            cube_exact E;
            const int took = cube_case_exact(t, q, &K, &E);
            refused += took < 0;
            if (took <= 0)
                continue;
            const size_t n = (size_t)K.nx * K.ny * K.nz;
            float *b = cube_case_random(n, &rng), *x = (float *)malloc(n * sizeof(float));
            float *r = (float *)malloc(n * sizeof(float));
            double rr = 0.0, bb = 0.0;
            assert_int_equal(homg_cpu_cubeexact_solve(&cpu->ex, &E, x, b), HOMG_OK);
            assert_int_equal(homg_cpu_cube_residual(&cpu->ex, &K, x, b, r, &rr), HOMG_OK);
            for (size_t k = 0; k < n; k++)
                bb += (double)b[k] * b[k];
            worst = sqrt(rr / bb) > worst ? sqrt(rr / bb) : worst;
            if (sqrt(rr / bb) > 2e-5)
                printf("  case %d level %d (%d x %d x %d): residual %.2e\n", t, q, K.nx, K.ny, K.nz, sqrt(rr / bb));
            assert_true(sqrt(rr / bb) <= 2e-5);
            taken++;
            free(b), free(x), free(r);
        }
    { /* every side Neumann, lambda 0: singular */
        cube_level K = { 8, 8, 8, { 1, 1, 1 }, 0, 1, { 1, 1, 1 }, { 2, 2, 2 }, { 1, 1, 1 } };
        cube_exact E;
        assert_int_equal(cube_exact_of(&K, &E), 0);
        K.lam = 0.1f;
        assert_int_equal(cube_exact_of(&K, &E), 1);
    }
    printf("  %d levels solved exactly (worst residual %.2e), %d refused as singular\n", taken, worst, refused);
    assert_true(taken >= 4);
}

/* The three-pass exact solve (kernels/grid/cube_sep.h, CPU) on cube_sep_case's levels (64^3 ..
 * 4 x 8 x 12, Dirichlet / Neumann + lambda / mixed): x = A^-1 b for random b to float rounding (the
 * residual b - A x from the definition, cube residual, below 2e-5 of b); a side not a multiple of 4,
 * one over CUBE_SEP_N and the all-Neumann level with lambda 0 refused. */
static void sep_solves_levels(void **state)
{
    int taken = 0;
    double worst = 0.0;
    homg_rng rng = homg_rng_seed(78);
    float *t = (float *)malloc(sizeof(float) * CUBE_SEP_FLOATS);
    (void)state;
    for (int c = 0; c < cube_sep_count(); c++) {
        cube_level K;
        if (!cube_sep_case(c, &K, t))
            continue;
        const size_t n = (size_t)K.nx * K.ny * K.nz;
        const cube_sep P = { { K.nx, K.ny, K.nz }, K.lam, t, NULL, 0, 0 };
        float *b = cube_case_random(n, &rng), *x = (float *)malloc(n * sizeof(float));
        float *r = (float *)malloc(n * sizeof(float));
        double rr = 0.0, bb = 0.0;
        assert_int_equal(homg_cpu_cubesep_solve(&cpu->ex, &P, x, b), HOMG_OK);
        assert_int_equal(homg_cpu_cube_residual(&cpu->ex, &K, x, b, r, &rr), HOMG_OK);
        for (size_t k = 0; k < n; k++)
            bb += (double)b[k] * b[k];
        worst = sqrt(rr / bb) > worst ? sqrt(rr / bb) : worst;
        printf("  case %d (%d x %d x %d): residual %.2e\n", c, K.nx, K.ny, K.nz, sqrt(rr / bb));
        assert_true(sqrt(rr / bb) <= 2e-5);
        taken++;
        free(b), free(x), free(r);
    }
    {
        cube_level K = { 8, 8, 8, { 1, 1, 1 }, 0, 1, { 1, 1, 1 }, { 2, 2, 2 }, { 1, 1, 1 } };
        assert_int_equal(cube_sep_tables(&K, t), 0); /* singular */
        K.lam = 0.1f;
        assert_int_equal(cube_sep_tables(&K, t), 1);
        K.ny = 6;
        assert_int_equal(cube_sep_tables(&K, t), 0);
        K.ny = 68;
        assert_int_equal(cube_sep_tables(&K, t), 0);
    }
    free(t);
    printf("  %d levels solved exactly (worst residual %.2e)\n", taken, worst);
    assert_true(taken >= 10);
}

/* CPU solves with the exact solve from the first level of <= 16^3 (HOMG_CUBE_EXACT=1) against
 * those without (HOMG_CUBE_EXACT=0): converged to 1e-5 in no more cycles, fewer launches, the same
 * solution to the tolerance; plain cycles and CG, Dirichlet and two Neumann sides with lambda.  The
 * default equals the exact solve with HOMG_CUBE_SCHED=12,22 bit for bit (2 launches a cycle fewer
 * than with 12,32,22). */
static void exact_solves_match(void **state)
{
    static const int dims[][3] = { { 64, 32, 32 }, { 32, 64, 32 } };
    (void)state;
    for (int t = 0; t < 4; t++) {
        grid_case *c = grid_case_new(dims[t % 2][0], dims[t % 2][1], dims[t % 2][2], 1, 61 + t);
        const size_t n = grid_case_cells(c);
        static const char *const on1[] = { "HOMG_CUBE_EXACT", "1", NULL }, *const off[] = { "HOMG_CUBE_EXACT", "0",
                                                                                            NULL };
        static const char *const cg1[] = { "HOMG_CUBE_PLAIN", "0", "HOMG_CUBE_EXACT", "1", NULL };
        static const char *const cg0[] = { "HOMG_CUBE_PLAIN", "0", "HOMG_CUBE_EXACT", "0", NULL };
        const char *const *const env[2] = { t >= 2 ? cg0 : off, t >= 2 ? cg1 : on1 }; /* without, exact */
        homg_ctx *const on[2] = { cpu, cpu };
        double *u[2];
        homg_solve_info info[2];
        if (t % 2) {
            c->d.bc[0] = c->d.bc[4] = HOMG_BC_NEUMANN;
            c->lambda = 0.1;
        }
        assert_int_equal(grid_case_solves(c, 2, on, env, u, info), HOMG_OK);
        printf("  %d x %d x %d%s: without %d cycles %ld launches, exact %d cycles %ld launches, diff %.2e\n", c->d.nx,
               c->d.ny, c->d.nz, t >= 2 ? " CG" : "", info[0].cycles, info[0].launches, info[1].cycles,
               info[1].launches, homg_rel_diff(u[1], u[0], n));
        assert_true(info[0].converged && info[1].converged && info[1].cycles <= info[0].cycles);
        assert_true(info[1].launches < info[0].launches);
        assert_true(homg_rel_diff(u[1], u[0], n) < 1e-4);
        free(u[0]), free(u[1]);
        grid_case_free(c);
    }
    { /* the default: the exact solve and HOMG_CUBE_SCHED_EXACT ("12,22") bit for bit, 3 quiet cycles */
        static const char *const env[3][2] = { { NULL, NULL }, { "1", "12,22" }, { "1", "12,32,22" } };
        grid_case *c = grid_case_new(64, 32, 32, 1, 65);
        const size_t n = grid_case_cells(c);
        double *u[3];
        homg_solve_info info[3];
        homg_solve_desc sd;
        c->d.method = HOMG_METHOD_VCYCLE;
        c->d.precision = HOMG_FLOAT32;
        for (int k = 0; k < 3; k++) {
            u[k] = (double *)malloc(n * sizeof(double));
            if (env[k][0])
                setenv("HOMG_CUBE_EXACT", env[k][0], 1), setenv("HOMG_CUBE_SCHED", env[k][1], 1);
            memset(&sd, 0, sizeof sd);
            sd.max_cycles = 3;
            sd.no_history = 1;
            assert_int_equal(grid_case_solve(cpu, c, &sd, u[k], &info[k], NULL, NULL), HOMG_OK);
            unsetenv("HOMG_CUBE_EXACT"), unsetenv("HOMG_CUBE_SCHED");
        }
        printf("  64 x 32 x 32, 3 cycles: default %ld launches, exact + 12,22 %ld, exact + 12,32,22 %ld\n",
               info[0].launches, info[1].launches, info[2].launches);
        assert_memory_equal(u[1], u[0], n * sizeof(double));
        assert_true(homg_rel_diff(u[2], u[0], n) > 0.0 && info[2].launches == info[0].launches + 2 * 3);
        for (int k = 0; k < 3; k++)
            free(u[k]);
        grid_case_free(c);
    }
}

/* The cluster solve's CPU twin (kernels/grid/cube_cluster.h) on cube_clu_case's levels (32^3 ..
 * 8^3, Dirichlet / Neumann + lambda / mixed: half transforms on the persymmetric axes of a
 * multiple of 8, full ones elsewhere): x = A^-1 b for random b to float rounding (residual
 * below 2e-5 of b) and within 2e-6 of cube_sep's solve (relative to its largest value); with
 * full transforms on every axis, cube_sep's solve bit for bit. */
static void cluster_solves_levels(void **state)
{
    int taken = 0, halves = 0, fulls = 0;
    homg_rng rng = homg_rng_seed(79);
    float *t = (float *)malloc(sizeof(float) * CUBE_CLUSTER_FLOATS),
          *ts = (float *)malloc(sizeof(float) * CUBE_SEP_FLOATS);
    (void)state;
    for (int c = 0; c < cube_clu_count(); c++) {
        cube_level K;
        cube_clu C;
        assert_true(cube_clu_case(c, &K, t, &C) && cube_sep_tables(&K, ts));
        C.t = t;
        const size_t n = (size_t)K.nx * K.ny * K.nz;
        const cube_sep P = { { K.nx, K.ny, K.nz }, K.lam, ts, NULL, 0, 0 };
        float *b = cube_case_random(n, &rng), *x = (float *)malloc(n * sizeof(float));
        float *y = (float *)malloc(n * sizeof(float)), *r = (float *)malloc(n * sizeof(float));
        double rr = 0.0, bb = 0.0, d = 0.0, big = 0.0;
        assert_int_equal(homg_cpu_cubeclu_solve(&cpu->ex, &C, 8, x, b), HOMG_OK);
        assert_int_equal(homg_cpu_cubesep_solve(&cpu->ex, &P, y, b), HOMG_OK);
        assert_int_equal(homg_cpu_cube_residual(&cpu->ex, &K, x, b, r, &rr), HOMG_OK);
        for (size_t k = 0; k < n; k++) {
            bb += (double)b[k] * b[k];
            d = fmax(d, fabs((double)x[k] - y[k]));
            big = fmax(big, fabs((double)y[k]));
        }
        printf("  case %d (%d x %d x %d, half %d%d%d): residual %.2e, vs cube_sep %.2e\n", c, K.nx, K.ny, K.nz,
               C.half[0], C.half[1], C.half[2], sqrt(rr / bb), d / big);
        assert_true(sqrt(rr / bb) <= 2e-5 && d <= 2e-6 * big);
        for (int a = 0; a < 3; a++)
            halves += C.half[a], fulls += !C.half[a];
        assert_true(cube_cluster_tables(&K, 0, t, &C)); /* full transforms: cube_sep's floats */
        C.t = t;
        assert_int_equal(homg_cpu_cubeclu_solve(&cpu->ex, &C, 8, x, b), HOMG_OK);
        assert_memory_equal(x, y, n * sizeof(float));
        taken++;
        free(b), free(x), free(y), free(r);
    }
    {
        cube_level K = { 16, 8, 8, { 1, 1, 1 }, 0.1f, 1, { 1, 1, 1 }, { 2, 2, 2 }, { 1, 1, 1 } };
        cube_clu C;
        assert_int_equal(cube_cluster_tables(&K, 1, t, &C), 1);
        C.t = t;
        assert_true(cube_cluster_fits(&C, 8) && !cube_cluster_fits(&C, 16)); /* ny, nz not multiples of 16 */
        K.nx = 36;
        assert_int_equal(cube_cluster_tables(&K, 1, t, &C), 0); /* over CUBE_CLUSTER_N */
    }
    free(t), free(ts);
    printf("  %d levels, %d half and %d full axes\n", taken, halves, fulls);
    assert_true(taken == cube_clu_count() && halves >= 20 && fulls >= 10);
}

/* The one-launch cluster solve (kernels/grid/cube_cluster.h) in place of the three launches
 * (HOMG_CUBE_EXACT_MAX=32: level 1 exact): 3 quiet cycles give the same solution to float
 * rounding, 2 launches a cycle fewer on a cluster of 16 or 8 (the same floats on either); a level
 * whose ny or nz is no multiple of 16 keeps the three launches on 16 (HOMG_CUBE_CLUSTER=1: 16,
 * bit for bit) and takes 8. */
static void cluster_solves_match(void **state)
{
    static const int dims[][3] = { { 64, 64, 32 }, { 64, 32, 48 } };
    static const char *const cs[] = { "0", "16", "8", "1" };
    (void)state;
    for (int t = 0; t < 2; t++) {
        grid_case *c = grid_case_new(dims[t][0], dims[t][1], dims[t][2], 1, 66 + t);
        const size_t n = grid_case_cells(c);
        double *u[4];
        homg_solve_info info[4];
        homg_solve_desc sd;
        c->d.method = HOMG_METHOD_VCYCLE;
        c->d.precision = HOMG_FLOAT32;
        for (int k = 0; k < 4; k++) {
            u[k] = (double *)malloc(n * sizeof(double));
            setenv("HOMG_CUBE_EXACT_MAX", "32", 1);
            setenv("HOMG_CUBE_CLUSTER", cs[k], 1);
            memset(&sd, 0, sizeof sd);
            sd.max_cycles = 3;
            sd.no_history = 1;
            assert_int_equal(grid_case_solve(cpu, c, &sd, u[k], &info[k], NULL, NULL), HOMG_OK);
            unsetenv("HOMG_CUBE_EXACT_MAX"), unsetenv("HOMG_CUBE_CLUSTER");
        }
        printf("  %d x %d x %d, 3 cycles: three launches %ld launches, cluster 16 / 8 / 1: %ld / %ld / %ld, "
               "diff %.2e\n",
               c->d.nx, c->d.ny, c->d.nz, info[0].launches, info[1].launches, info[2].launches, info[3].launches,
               homg_rel_diff(u[2], u[0], n));
        assert_true(homg_rel_diff(u[2], u[0], n) > 0.0 && homg_rel_diff(u[2], u[0], n) < 1e-5);
        assert_memory_equal(u[1], t ? u[0] : u[2], n * sizeof(double));
        assert_memory_equal(u[3], u[1], n * sizeof(double));
        assert_true(info[1].launches == info[0].launches - (t ? 0 : 2 * 3));
        assert_true(info[2].launches == info[0].launches - 2 * 3);
        assert_true(info[3].launches == info[1].launches);
        for (int k = 0; k < 4; k++)
            free(u[k]);
        grid_case_free(c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernels_match_gen),    cmocka_unit_test(levels_taken),
        cmocka_unit_test(solves_match_gen),     cmocka_unit_test(block_twin_matches_steps),
        cmocka_unit_test(block_solves_match),   cmocka_unit_test(schedules_plan),
        cmocka_unit_test(exact_solves_levels),  cmocka_unit_test(exact_solves_match),
        cmocka_unit_test(sep_solves_levels),    cmocka_unit_test(cluster_solves_levels),
        cmocka_unit_test(cluster_solves_match),
    };
    return cmocka_run_group_tests(tests, homg_test_setup_cpu, homg_test_teardown_cpu);
}
