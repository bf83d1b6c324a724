/* test_cube_split_gpu.c -- the split finest level's CUDA kernels (kernels/grid/cube_split.cu)
 * against their CPU twins (cube_split.c) on random split input, Gauss-Seidel and SOR 1.1:
 * split, unsplit, a half-sweep of each colour (with its natural copy), the pass from zero
 * (f split or natural, split on the way), the prolongation with either colour and residual and
 * restriction (the level below natural, and split where it fits), on the levels of
 * tests/util/cubecase.c that split, on a 128 x 64 x 32 level and on one big enough for several
 * planes per thread with a short last chunk; then GPU solves with and without the split
 * (HOMG_CUBE_SPLIT=0) and the CPU's: same cycles, the same solution to float rounding; three
 * right-hand sides in one call (the lanes) against each alone.  Argument "small": the kernels on
 * the cubecase levels only (compute-sanitizer).  Skips (exit 77) without a CUDA device. */
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
#include "devcopy.h"
#include "gridcase.h"
#include "groups.h"
#include "grid/cube_kernels.h"
#include "grid/cube_point.h"
#include "grid/cube_split.h"
#include "testutil.h"

#if HOMG_HAVE_CUDA
#define gpu homg_test_gpu /* the pair homg_test_setup_pair makes (testutil.h) */
#define cpu homg_test_cpu
static int small_only, bad;

static float *up(const float *h, size_t n) { return (float *)homg_test_up(gpu, h, n * sizeof(float)); }

static void reset(float *d, const float *h, size_t n)
{
    assert_int_equal(homg_copy_from_host(gpu, d, h, n * sizeof(float)), HOMG_OK);
}

static double diff(const float *d, const float *h, size_t n) { return homg_test_diff_f(gpu, d, h, n); }

static void expect(const char *what, const cube_level *K, double d)
{
    if (d <= 1e-6)
        return;
    printf("  %s (%d x %d x %d, omega %g): CUDA vs CPU %.3e\n", what, K->nx, K->ny, K->nz, K->omega, d);
    bad++;
}

/* Every split kernel on level K (omega: the half-sweeps' weight). */
static void check_level(const cube_level *K0, uint64_t seed, float omega)
{
    const cubesplit_kernels *SG = &homg_cuda_cubesplit_kernels, *SC = &homg_cpu_cubesplit_kernels;
    kernel_exec *eg = &gpu->ex, *ec_ = &cpu->ex;
    const size_t n = (size_t)K0->nx * K0->ny * K0->nz, nc = n / 8;
    homg_rng rng = homg_rng_seed(seed);
    cube_level K = *K0;
    K.omega = omega;
    float *u = cube_case_random(n, &rng), *f = cube_case_random(n, &rng), *ec = cube_case_random(nc, &rng);
    float *fc = cube_case_random(nc, &rng), *hu = (float *)malloc(n * sizeof(float));
    float *hn = (float *)malloc(n * sizeof(float)), *hs = (float *)malloc(n * sizeof(float));
    float *du = up(u, n), *df = up(f, n), *dec = up(ec, nc), *dfc = up(fc, nc), *dn = up(u, n), *ds = up(u, n);
    assert_int_equal(SG->split(eg, &K, du, ds), HOMG_OK);
    assert_int_equal(SC->split(ec_, &K, u, hs), HOMG_OK);
    expect("split", &K, diff(ds, hs, n));
    assert_int_equal(SG->unsplit(eg, &K, df, dn), HOMG_OK); /* f as if split */
    assert_int_equal(SC->unsplit(ec_, &K, f, hn), HOMG_OK);
    expect("unsplit", &K, diff(dn, hn, n));
    for (int colour = 0; colour < 2; colour++) { /* u and f taken as split arrays */
        memcpy(hu, u, n * sizeof(float));
        reset(du, u, n);
        assert_int_equal(SG->sweep(eg, &K, du, df, colour, colour ? dn : NULL), HOMG_OK);
        assert_int_equal(SC->sweep(ec_, &K, hu, f, colour, colour ? hn : NULL), HOMG_OK);
        expect(colour ? "half-sweep colour 1" : "half-sweep colour 0", &K, diff(du, hu, n));
        if (colour)
            expect("half-sweep's natural u", &K, diff(dn, hn, n));
    }
    assert_int_equal(SG->pre(eg, &K, du, df, NULL), HOMG_OK);
    assert_int_equal(SC->pre(ec_, &K, hu, f, NULL), HOMG_OK);
    expect("from zero + sweep", &K, diff(du, hu, n));
    assert_int_equal(SG->pre(eg, &K, du, ds, df), HOMG_OK); /* f natural (df), split on the way into ds */
    assert_int_equal(SC->pre(ec_, &K, hu, hs, f), HOMG_OK);
    expect("from zero + sweep, f natural", &K, diff(du, hu, n));
    expect("from zero, f split on the way", &K, diff(ds, hs, n));
    for (int cs = 0; cs < 1 + cube_split_coarse_fits(&K); cs++) { /* the coarse arrays natural, split */
        for (int colour = 0; colour < 2; colour++) {
            memcpy(hu, u, n * sizeof(float));
            reset(du, u, n);
            assert_int_equal(SG->prolong_smooth(eg, &K, dec, du, df, colour, cs), HOMG_OK);
            assert_int_equal(SC->prolong_smooth(ec_, &K, ec, hu, f, colour, cs), HOMG_OK);
            expect(colour ? (cs ? "prolongation (ec split) + colour 1" : "prolongation + colour 1")
                          : (cs ? "prolongation (ec split) + colour 0" : "prolongation + colour 0"),
                   &K, diff(du, hu, n));
        }
        assert_int_equal(SG->residual_restrict(eg, &K, du, df, dfc, cs), HOMG_OK);
        assert_int_equal(SC->residual_restrict(ec_, &K, hu, f, fc, cs), HOMG_OK);
        expect(cs ? "residual + restriction (fc split)" : "residual + restriction", &K, diff(dfc, fc, nc));
    }
    assert_int_equal(SC->residual_restrict(ec_, &K, hu, f, fc, 0), HOMG_OK);
    setenv("HOMG_CSP_RBLK", "0", 1); /* the quads: each child row's neighbours loaded anew */
    reset(dfc, ec, nc);
    assert_int_equal(SG->residual_restrict(eg, &K, du, df, dfc, 0), HOMG_OK);
    unsetenv("HOMG_CSP_RBLK");
    expect("residual + restriction (quads)", &K, diff(dfc, fc, nc));
    for (int cs = 0; cs < 1 + cube_split_coarse_fits(&K); cs++) /* each child row loaded once, every build */
        for (int nb = 1; nb <= 4; nb++) {
            char v[4], what[96];
            snprintf(v, sizeof v, "%d", nb);
            snprintf(what, sizeof what, "residual + restriction (block, __launch_bounds__ min %d%s)", nb,
                     cs ? ", fc split" : "");
            setenv("HOMG_CSP_RBLK", v, 1);
            reset(dfc, ec, nc);
            assert_int_equal(SG->residual_restrict(eg, &K, du, df, dfc, cs), HOMG_OK);
            assert_int_equal(SC->residual_restrict(ec_, &K, hu, f, fc, cs), HOMG_OK);
            unsetenv("HOMG_CSP_RBLK");
            expect(what, &K, diff(dfc, fc, nc));
        }
    homg_free(gpu, du), homg_free(gpu, df), homg_free(gpu, dec), homg_free(gpu, dfc), homg_free(gpu, dn);
    homg_free(gpu, ds);
    free(u), free(f), free(ec), free(fc), free(hu), free(hn), free(hs);
}

static void kernels_match_cpu(void **state)
{
    gen_level L, C;
    cube_level K;
    int levels = 0;
    (void)state;
    bad = 0;
    for (int t = 0; t < cube_case_count(); t++) {
        cube_case_level(t, &L, &C);
        memset(&K, 0, sizeof K);
        assert_true(cube_from_gen(&L, &K));
        if (!cube_split_fits(&K))
            continue;
        levels++;
        check_level(&K, 500 + (uint64_t)t, 1.0f);
        check_level(&K, 550 + (uint64_t)t, 1.1f);
    }
    if (!small_only) { /* one plane a thread, 16 rows along x */
        cube_case_level(1, &L, &C);
        L.nx = 128, L.ny = 64, L.nz = 32;
        assert_true(cube_from_gen(&L, &K));
        check_level(&K, 610, 1.1f);
        levels++;
    }
    if (!small_only) { /* 3 planes per thread (cube_split.cu csp_chunk): 110 = 36 * 3 + 2 */
        cube_case_level(1, &L, &C);
        L.nx = 256, L.ny = 256, L.nz = 110;
        assert_true(cube_from_gen(&L, &K));
        check_level(&K, 600, 1.0f);
        check_level(&K, 601, 1.1f);
        levels++;
    }
    printf("  %d levels, %d mismatches\n", levels, bad);
    assert_int_equal(bad, 0);
}

/* GPU solves split (the default: levels 0 and 1, f split by the pass from zero) and natural against
 * the CPU's: same cycles, the same solution to float rounding, as many launches; then a quiet one
 * (tol 0, no history: u left split between cycles) against the monitored. */
static void solves_match_cpu(void **state)
{
    static const int dims[][3] = { { 64, 64, 64 }, { 32, 16, 64 }, { 128, 128, 128 } };
    (void)state;
    for (int t = 0; t < 3; t++) {
        grid_case *c = grid_case_new(dims[t][0], dims[t][1], dims[t][2], 1, 27 + t);
        const size_t n = grid_case_cells(c);
        static const char *const natural[] = { "HOMG_CUBE_SPLIT", "0", NULL };
        homg_ctx *const on[3] = { gpu, gpu, cpu }; /* CUDA split, CUDA natural, CPU split */
        const char *const *const env[3] = { NULL, natural, NULL };
        double *u[3], res[3], *uq = (double *)malloc(n * sizeof(double));
        homg_solve_desc sd;
        homg_solve_info info[3], quiet;
        if (t == 1) {
            c->d.bc[0] = c->d.bc[3] = HOMG_BC_NEUMANN;
            c->lambda = 0.2;
        }
        assert_int_equal(grid_case_solves(c, 3, on, env, u, info), HOMG_OK);
        for (int r = 0; r < 3; r++)
            res[r] = grid_case_residual(c, u[r], 0);
        printf("  %d x %d x %d: CUDA split %d cycles %ld launches res %.2e, natural %d cycles %ld launches res %.2e, "
               "CPU %d cycles; split vs natural %.2e, vs CPU %.2e\n",
               c->d.nx, c->d.ny, c->d.nz, info[0].cycles, info[0].launches, res[0], info[1].cycles, info[1].launches,
               res[1], info[2].cycles, homg_rel_diff(u[0], u[1], n), homg_rel_diff(u[0], u[2], n));
        assert_true(info[0].converged && info[0].cycles == info[1].cycles && info[0].cycles == info[2].cycles);
        assert_true(info[0].launches == info[1].launches && res[0] < 3e-5);
        assert_true(homg_rel_diff(u[0], u[1], n) < 1e-5 && homg_rel_diff(u[0], u[2], n) < 1e-5);
        memset(&sd, 0, sizeof sd); /* quiet, as a frame loop runs it: u split until the last cycle */
        sd.max_cycles = info[0].cycles;
        sd.no_history = 1;
        assert_int_equal(grid_case_solve(gpu, c, &sd, uq, &quiet, NULL, NULL), HOMG_OK);
        printf("  quiet CUDA solve, %d cycles: vs the monitored %.2e\n", quiet.cycles, homg_rel_diff(uq, u[0], n));
        assert_true(quiet.cycles == info[0].cycles && homg_rel_diff(uq, u[0], n) < 1e-6);
        free(uq);
        for (int r = 0; r < 3; r++)
            free(u[r]);
        grid_case_free(c);
    }
}

/* Three right-hand sides in one call (the CUDA lanes, each with its own split vectors and
 * level-1 arrays) against each solved alone, quiet and monitored, and against the CPU's
 * three: the same cycles and the same solution to float rounding. */
static void lanes_match_single(void **state)
{
    const int nrhs = 3;
    grid_case *c = grid_case_new(48, 32, 40, nrhs, 61);
    const size_t n = grid_case_cells(c);
    double *all = (double *)malloc(n * nrhs * sizeof(double)), *one = (double *)malloc(n * nrhs * sizeof(double));
    double *ref = (double *)malloc(n * nrhs * sizeof(double));
    (void)state;
    c->d.method = HOMG_METHOD_VCYCLE;
    c->d.precision = HOMG_FLOAT32;
    c->d.bc[2] = HOMG_BC_NEUMANN;
    for (int quiet = 0; quiet < 2; quiet++) {
        homg_solve_desc sd = { 0 };
        homg_solve_info info;
        sd.max_cycles = quiet ? 3 : 20;
        sd.tol = quiet ? 0 : 1e-5;
        sd.no_history = quiet;
        assert_int_equal(grid_case_solve(gpu, c, &sd, all, &info, NULL, NULL), HOMG_OK);
        assert_int_equal(grid_case_solve(cpu, c, &sd, ref, &info, NULL, NULL), HOMG_OK);
        for (int k = 0; k < nrhs; k++) {
            grid_case single = *c;
            single.d.nrhs = 1;
            single.f = c->f + k * n;
            single.u0 = c->u0 + k * n;
            assert_int_equal(grid_case_solve(gpu, &single, &sd, one + k * n, &info, NULL, NULL), HOMG_OK);
        }
        printf("  48 x 32 x 40, nrhs %d%s: lanes vs alone %.2e, vs CPU %.2e\n", nrhs, quiet ? " (quiet)" : "",
               homg_rel_diff(all, one, n * nrhs), homg_rel_diff(all, ref, n * nrhs));
        assert_true(homg_rel_diff(all, one, n * nrhs) < 1e-6);
        assert_true(homg_rel_diff(all, ref, n * nrhs) < 1e-5);
    }
    free(all), free(one), free(ref);
    grid_case_free(c);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernels_match_cpu),
        cmocka_unit_test(solves_match_cpu),
        cmocka_unit_test(lanes_match_single),
    };
    const struct CMUnitTest small[] = {
        cmocka_unit_test(kernels_match_cpu),
    };
    /* the first argument picks a group (none: all) */
    const homg_test_group groups[] = {
        HOMG_TEST_GROUP("all", tests, "every test"),
        HOMG_TEST_GROUP("small", small, "the kernels on the cubecase levels only (compute-sanitizer)"),
    };
    const homg_test_group *g = homg_test_group_pick(groups, sizeof groups / sizeof groups[0], argc, argv);
    if (!g)
        return 2;
    homg_test_require_gpu("test_cube_split_gpu");
    small_only = g->tests == small;
    return homg_test_run_group(g, homg_test_setup_pair, homg_test_teardown_pair);
}
#else
int main(void)
{
    homg_test_require_gpu("test_cube_split_gpu (built without CUDA)");
    return HOMG_TEST_SKIP;
}
#endif
