/* test_cube_split.c -- the plain cycle's finest level split by colour (kernels/grid/cube_split*,
 * CPU): every split kernel against the natural cube kernels (cube.c) on random input, bit for
 * bit after unsplitting -- a half-sweep of each colour (Gauss-Seidel and SOR 1.1, and its
 * natural copy), the pass from zero, the prolongation with either colour (the other colour
 * untouched), residual and restriction, split / unsplit a round trip -- on the levels of
 * tests/util/cubecase.c that split (nx a multiple of 8) and two more; then whole solves with
 * and without the split (HOMG_CUBE_SPLIT=0): the same u bit for bit and the same cycles (V,
 * F-cycle first, warm start, Neumann + lambda, a box whose finest level does not split), and
 * level 1 split too (the default where it fits) or not (HOMG_CUBE_SPLIT1=0: fewer bytes with it);
 * the kernels with the level below split (cs) against the natural ones after unsplitting; the pass
 * from zero splitting f on the way (fn; a cold solve's default) or not (HOMG_CUBE_FOLD=0); a quiet
 * solve (tol 0, no history) whose cycles before the last leave u split (or not: HOMG_CUBE_KEEP=0);
 * the plain V-cycles' sweeps per level and cycle (HOMG_CUBE_SCHED: the default plan, session 10's
 * V(2,2) everywhere "0", and one with 3 sweeps in the cube block and 1 on the finest). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "cubecase.h"
#include "gridcase.h"
#include "grid/cube_kernels.h"
#include "grid/cube_point.h"
#include "grid/cube_split.h"
#include "testutil.h"

#define cpu homg_test_cpu /* homg_test_setup_cpu makes it (testutil.h) */
static int bad;

static float *dup(const float *v, size_t n)
{
    float *w = (float *)malloc(n * sizeof(float));
    memcpy(w, v, n * sizeof(float));
    return w;
}

static void same(const char *what, const cube_level *K, float omega, const float *a, const float *b, size_t n)
{
    if (!memcmp(a, b, n * sizeof(float)))
        return;
    printf("  %s (%d x %d x %d, omega %g): split differs from natural\n", what, K->nx, K->ny, K->nz, omega);
    bad++;
}

/* Every split kernel on level K against the natural ones (s: split scratch, n cells). */
static void check_level(const cube_level *K0, uint64_t seed, float omega)
{
    const cube_kernels *Q = &homg_cpu_cube_kernels;
    const cubesplit_kernels *S = &homg_cpu_cubesplit_kernels;
    kernel_exec *ex = &cpu->ex;
    const size_t n = (size_t)K0->nx * K0->ny * K0->nz, nc = n / 8;
    homg_rng rng = homg_rng_seed(seed);
    cube_level K = *K0;
    K.omega = omega;
    float *u = cube_case_random(n, &rng), *f = cube_case_random(n, &rng), *ec = cube_case_random(nc, &rng);
    float *a = dup(u, n), *b = dup(u, n), *su = dup(u, n), *sf = dup(u, n), *nat = dup(u, n);
    float *fa = cube_case_random(nc, &rng), *fb = dup(fa, nc), *sc = dup(fa, nc);
    cube_level Kc = K; /* the level below's sizes (split / unsplit read no more of it) */
    Kc.nx /= 2, Kc.ny /= 2, Kc.nz /= 2;
    assert_int_equal(S->split(ex, &K, f, sf), HOMG_OK);
    assert_int_equal(S->split(ex, &K, u, su), HOMG_OK);
    assert_int_equal(S->unsplit(ex, &K, su, b), HOMG_OK);
    same("split, unsplit", &K, omega, b, u, n);
    for (int colour = 0; colour < 2; colour++) {
        memcpy(a, u, n * sizeof(float));
        assert_int_equal(S->split(ex, &K, u, su), HOMG_OK);
        assert_int_equal(Q->sweep(ex, &K, a, f, colour), HOMG_OK);
        assert_int_equal(S->sweep(ex, &K, su, sf, colour, colour ? nat : NULL), HOMG_OK);
        assert_int_equal(S->unsplit(ex, &K, su, b), HOMG_OK);
        same(colour ? "half-sweep colour 1" : "half-sweep colour 0", &K, omega, b, a, n);
        if (colour)
            same("half-sweep's natural u", &K, omega, nat, a, n);
    }
    assert_int_equal(Q->pre(ex, &K, a, f), HOMG_OK);
    assert_int_equal(S->pre(ex, &K, su, sf, NULL), HOMG_OK);
    assert_int_equal(S->unsplit(ex, &K, su, b), HOMG_OK);
    same("from zero + colour 1", &K, omega, b, a, n);
    memcpy(b, u, n * sizeof(float)); /* f natural, split on the way into b */
    assert_int_equal(S->pre(ex, &K, su, b, f), HOMG_OK);
    same("from zero, f split on the way", &K, omega, b, sf, n);
    assert_int_equal(S->unsplit(ex, &K, su, b), HOMG_OK);
    same("from zero + colour 1, f natural", &K, omega, b, a, n);
    for (int colour = 0; colour < 2; colour++) {
        memcpy(a, u, n * sizeof(float));
        assert_int_equal(S->split(ex, &K, u, su), HOMG_OK);
        assert_int_equal(Q->prolong_smooth(ex, &K, ec, a, f, colour), HOMG_OK);
        assert_int_equal(S->prolong_smooth(ex, &K, ec, su, sf, colour, 0), HOMG_OK);
        assert_int_equal(S->unsplit(ex, &K, su, b), HOMG_OK);
        same(colour ? "prolongation + colour 1" : "prolongation + colour 0", &K, omega, b, a, n);
        if (!cube_split_coarse_fits(&K))
            continue;
        assert_int_equal(S->split(ex, &Kc, ec, sc), HOMG_OK); /* the level below split too */
        assert_int_equal(S->split(ex, &K, u, su), HOMG_OK);
        assert_int_equal(S->prolong_smooth(ex, &K, sc, su, sf, colour, 1), HOMG_OK);
        assert_int_equal(S->unsplit(ex, &K, su, b), HOMG_OK);
        same(colour ? "prolongation (ec split) + colour 1" : "prolongation (ec split) + colour 0", &K, omega, b, a, n);
    }
    assert_int_equal(S->split(ex, &K, u, su), HOMG_OK);
    assert_int_equal(Q->residual_restrict(ex, &K, u, f, fa), HOMG_OK);
    assert_int_equal(S->residual_restrict(ex, &K, su, sf, fb, 0), HOMG_OK);
    same("residual + restriction", &K, omega, fb, fa, nc);
    if (cube_split_coarse_fits(&K)) {
        assert_int_equal(S->residual_restrict(ex, &K, su, sf, sc, 1), HOMG_OK);
        assert_int_equal(S->unsplit(ex, &Kc, sc, fb), HOMG_OK);
        same("residual + restriction (fc split)", &K, omega, fb, fa, nc);
    }
    setenv("HOMG_CSP_RBLK", "0", 1); /* each child row's neighbours loaded anew (the default: loaded once) */
    memset(fb, 0, nc * sizeof(float));
    assert_int_equal(S->residual_restrict(ex, &K, su, sf, fb, 0), HOMG_OK);
    same("residual + restriction (quads)", &K, omega, fb, fa, nc);
    if (cube_split_coarse_fits(&K)) {
        assert_int_equal(S->residual_restrict(ex, &K, su, sf, sc, 1), HOMG_OK);
        assert_int_equal(S->unsplit(ex, &Kc, sc, fb), HOMG_OK);
        same("residual + restriction (quads, fc split)", &K, omega, fb, fa, nc);
    }
    unsetenv("HOMG_CSP_RBLK");
    free(u), free(f), free(ec), free(a), free(b), free(su), free(sf), free(nat), free(fa), free(fb), free(sc);
}

static void kernels_match_natural(void **state)
{
    static const int more[][3] = { { 24, 10, 14 }, { 40, 6, 2 } };
    int levels = 0;
    (void)state;
    bad = 0;
    for (int t = 0; t < cube_case_count() + 2; t++) {
        gen_level L, C;
        cube_level K;
        cube_case_level(t < cube_case_count() ? t : 1, &L, &C);
        if (t >= cube_case_count())
            L.nx = more[t - cube_case_count()][0], L.ny = more[t - cube_case_count()][1],
            L.nz = more[t - cube_case_count()][2];
        memset(&K, 0, sizeof K);
        assert_true(cube_from_gen(&L, &K));
        if (!cube_split_fits(&K))
            continue;
        levels++;
        check_level(&K, 300 + (uint64_t)t, 1.0f);
        check_level(&K, 400 + (uint64_t)t, 1.1f);
    }
    printf("  %d levels, %d mismatches\n", levels, bad);
    assert_true(levels >= 11);
    assert_int_equal(bad, 0);
}

/* Solves with and without the split: u bit for bit, the same cycles. */
static void solves_match_natural(void **state)
{
    static const int dims[][3] = { { 32, 32, 16 }, { 16, 64, 32 }, { 24, 8, 40 }, { 12, 16, 16 } };
    static const char *const env[][2] = { { NULL, NULL },
                                          { "HOMG_CUBE_F1", "1" },
                                          { "HOMG_CUBE_OMEGA", "1" },
                                          { "HOMG_CUBE_SPLIT1", "0" },
                                          { "HOMG_CUBE_FOLD", "0" },
                                          { "HOMG_CUBE_KEEP", "0" },
                                          { "HOMG_CUBE_SCHED", "0" },
                                          { "HOMG_CUBE_SCHED", "21,13;12,33" } };
    double bytes_split1 = 0; /* the default's traffic on this box (e 0), against HOMG_CUBE_SPLIT1=0's (e 3) */
    double bytes_keep = 0;   /* the default's quiet solve's (e 0), against HOMG_CUBE_KEEP=0's (e 5) */
    (void)state;
    for (int t = 0; t < 8; t++)
        for (int e = 0; e < 8; e++) {
            grid_case *c = grid_case_new(dims[t / 2][0], dims[t / 2][1], dims[t / 2][2], 1, 17 + t);
            const size_t n = grid_case_cells(c);
            double *u[2] = { (double *)malloc(n * sizeof(double)), (double *)malloc(n * sizeof(double)) };
            double *uq[2] = { (double *)malloc(n * sizeof(double)), (double *)malloc(n * sizeof(double)) };
            homg_solve_desc sd;
            homg_solve_info info[2], warm[2], quiet[2];
            c->d.method = HOMG_METHOD_VCYCLE;
            c->d.precision = HOMG_FLOAT32;
            if (t & 1) { /* Neumann on three sides, lambda > 0 */
                c->d.bc[1] = c->d.bc[2] = c->d.bc[5] = HOMG_BC_NEUMANN;
                c->lambda = 0.3;
            }
            if (env[e][0])
                setenv(env[e][0], env[e][1], 1);
            for (int split = 0; split < 2; split++) {
                if (!split)
                    setenv("HOMG_CUBE_SPLIT", "0", 1);
                memset(&sd, 0, sizeof sd);
                sd.tol = 1e-5;
                assert_int_equal(grid_case_solve(cpu, c, &sd, u[split], &info[split], NULL, NULL), HOMG_OK);
                assert_true(info[split].converged && grid_case_residual(c, u[split], 0) < 3e-5);
                memcpy(c->u0, u[split], n * sizeof(double)); /* warm: two more cycles from the solution */
                sd.warm_start = 1;
                sd.tol = 0;
                sd.max_cycles = 2;
                assert_int_equal(grid_case_solve(cpu, c, &sd, u[split], &warm[split], NULL, NULL), HOMG_OK);
                memset(&sd, 0, sizeof sd); /* quiet: 3 cycles from zero, no norm (u split until the last) */
                sd.max_cycles = 3;
                sd.no_history = 1;
                assert_int_equal(grid_case_solve(cpu, c, &sd, uq[split], &quiet[split], NULL, NULL), HOMG_OK);
                unsetenv("HOMG_CUBE_SPLIT");
            }
            if (env[e][0])
                unsetenv(env[e][0]);
            printf("  %d x %d x %d%s%s%s%s%s: cycles %d / %d, warm %d / %d (split / natural), u %s\n", c->d.nx, c->d.ny,
                   c->d.nz, t & 1 ? " (Neumann, lambda)" : "", env[e][0] ? ", " : "", env[e][0] ? env[e][0] : "",
                   env[e][0] ? "=" : "", env[e][0] ? env[e][1] : "", info[1].cycles, info[0].cycles, warm[1].cycles,
                   warm[0].cycles, memcmp(u[0], u[1], n * sizeof(double)) ? "DIFFERS" : "the same");
            /* the split ran where the finest level splits: two launches more warm (f, u), cold one (f) with
             * HOMG_CUBE_FOLD=0, else none (the pass from zero splits f) */
            assert_int_equal(info[1].launches - info[0].launches, c->d.nx % 8 == 0 && e == 4);
            assert_int_equal(warm[1].launches - warm[0].launches, 2 * (c->d.nx % 8 == 0));
            /* level 1 split where it fits (these boxes' level 1 is above the cube block): fewer bytes */
            if (e == 0)
                bytes_split1 = info[1].bytes;
            if (e == 3 && c->d.nx % 16 == 0 && c->d.ny % 4 == 0 && c->d.nz % 4 == 0)
                assert_true(bytes_split1 < info[1].bytes);
            else if (e == 3)
                assert_true(bytes_split1 == info[1].bytes);
            assert_int_equal(info[0].cycles, info[1].cycles);
            assert_int_equal(warm[0].cycles, warm[1].cycles);
            assert_memory_equal(u[0], u[1], n * sizeof(double));
            /* a quiet solve: the same u; its cycles before the last write no natural u (fewer bytes) */
            assert_int_equal(quiet[0].cycles, 3);
            assert_int_equal(quiet[1].cycles, 3);
            assert_memory_equal(uq[0], uq[1], n * sizeof(double));
            if (e == 0)
                bytes_keep = quiet[1].bytes;
            if (e == 5)
                assert_true(c->d.nx % 8 == 0 ? bytes_keep < quiet[1].bytes : bytes_keep == quiet[1].bytes);
            grid_case_free(c);
            free(u[0]), free(u[1]), free(uq[0]), free(uq[1]);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernels_match_natural),
        cmocka_unit_test(solves_match_natural),
    };
    return cmocka_run_group_tests(tests, homg_test_setup_cpu, homg_test_teardown_cpu);
}
