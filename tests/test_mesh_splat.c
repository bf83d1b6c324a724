/* test_mesh_splat.c -- homg_mesh_splat on the CPU backend against the
 * definition evaluated here node by node: 2D and 3D generated meshes, random
 * splats (more than one launch's batch), both precisions, accumulate or not;
 * bad input leaves f untouched. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static homg_splat random_splat(homg_rng *r)
{
    homg_splat s;
    for (int c = 0; c < 3; c++)
        s.center[c] = 1.4 * homg_rng_uniform(r) - 0.2;
    s.width = 0.02 + 0.3 * homg_rng_uniform(r);
    s.amount = 200 * homg_rng_uniform(r) - 100;
    return s;
}

/* sum_s amount exp(-|x - c|^2 / (2 w^2)) at node k, straight from the header's words */
static double expected(const homg_mesh *m, int32_t k, const homg_splat *s, int n)
{
    int dim = homg_mesh_dim(m);
    const double *x = homg_mesh_coords(m) + (size_t)dim * k;
    double v = 0;
    for (int i = 0; i < n; i++) {
        double r2 = 0;
        for (int c = 0; c < dim; c++)
            r2 += (x[c] - s[i].center[c]) * (x[c] - s[i].center[c]);
        v += s[i].amount * exp(-r2 / (2 * s[i].width * s[i].width));
    }
    return v;
}

static void check_mesh(homg_ctx *ctx, homg_mesh *m, homg_precision prec, int num_splats, uint64_t seed)
{
    homg_rng r = homg_rng_seed(seed);
    int32_t n = homg_mesh_num_nodes(m);
    homg_splat *s = malloc(sizeof *s * (size_t)(num_splats ? num_splats : 1));
    double *f = malloc(sizeof(double) * (size_t)n), *g = malloc(sizeof(double) * (size_t)n);
    float *f32 = (float *)f;
    assert_true(s && f && g);
    for (int i = 0; i < num_splats; i++)
        s[i] = random_splat(&r);
    for (int32_t k = 0; k < n; k++)
        g[k] = homg_rng_uniform(&r); /* what accumulate adds to */
    for (int acc = 0; acc < 2; acc++) {
        for (int32_t k = 0; k < n; k++)
            if (prec == HOMG_FLOAT64)
                f[k] = g[k];
            else
                f32[k] = (float)g[k];
        assert_int_equal(homg_mesh_splat(m, s, num_splats, prec, acc, f), HOMG_OK);
        for (int32_t k = 0; k < n; k++) {
            double want = (acc ? (prec == HOMG_FLOAT64 ? g[k] : (float)g[k]) : 0) + expected(m, k, s, num_splats);
            double got = prec == HOMG_FLOAT64 ? f[k] : f32[k];
            double tol = prec == HOMG_FLOAT64 ? 1e-12 * (1 + fabs(want)) : 2e-6 * (1 + fabs(want));
            if (fabs(got - want) > tol)
                fail_msg("node %d, %d splats, accumulate %d: %.9g, want %.9g", k, num_splats, acc, got, want);
        }
    }
    (void)ctx;
    free(s);
    free(f);
    free(g);
}

static void matches_definition(void **state)
{
    homg_ctx *ctx = homg_test_ctx(HOMG_BACKEND_CPU);
    homg_mesh_generate_desc gd = { 0 };
    homg_mesh *sq, *cube;
    (void)state;
    gd.cells = 9;
    assert_int_equal(homg_mesh_generate_square(ctx, &gd, &sq), HOMG_OK);
    gd.cells = 5;
    assert_int_equal(homg_mesh_generate_cube(ctx, &gd, &cube), HOMG_OK);
    static const int counts[] = { 0, 1, 3, 16, 17, 37 }; /* around the batch size */
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++)
        for (int p = 0; p < 2; p++) {
            check_mesh(ctx, sq, p ? HOMG_FLOAT64 : HOMG_FLOAT32, counts[i], 10 + i);
            check_mesh(ctx, cube, p ? HOMG_FLOAT64 : HOMG_FLOAT32, counts[i], 20 + i);
        }
    homg_mesh_destroy(sq);
    homg_mesh_destroy(cube);
    homg_ctx_destroy(ctx);
}

/* Each bad argument: INVALID_ARGUMENT, a message naming it, f untouched. */
static void bad_input(void **state)
{
    homg_ctx *ctx = homg_test_ctx(HOMG_BACKEND_CPU);
    homg_mesh *m;
    homg_splat s[2] = { { { 0.5, 0.5, 0 }, 0.1, 1 }, { { 0.5, 0.5, 0 }, 0.1, 1 } };
    double f[16];
    (void)state;
    assert_int_equal(homg_mesh_generate_square(ctx, &(homg_mesh_generate_desc){ .cells = 2 }, &m), HOMG_OK);
    struct {
        int which; /* 0 width, 1 centre, 2 amount, 3 count, 4 NULL splats, 5 precision */
        const char *says;
    } cases[] = { { 0, "splats[1].width" },  { 1, "splats[1].center[1]" }, { 2, "splats[1].amount" },
                  { 3, "num_splats is -1" }, { 4, "splats NULL" },         { 5, "precision 7" } };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        homg_splat t[2] = { s[0], s[1] };
        int n = 2;
        homg_precision prec = HOMG_FLOAT64;
        const homg_splat *arg = t;
        for (int k = 0; k < 16; k++)
            f[k] = 42;
        if (cases[i].which == 0)
            t[1].width = 0;
        else if (cases[i].which == 1)
            t[1].center[1] = NAN;
        else if (cases[i].which == 2)
            t[1].amount = INFINITY;
        else if (cases[i].which == 3)
            n = -1;
        else if (cases[i].which == 4)
            arg = NULL;
        else
            prec = (homg_precision)7;
        assert_int_equal(homg_mesh_splat(m, arg, n, prec, 0, f), HOMG_ERROR_INVALID_ARGUMENT);
        if (!strstr(homg_ctx_last_error(ctx), cases[i].says))
            fail_msg("case %zu: message \"%s\" does not name %s", i, homg_ctx_last_error(ctx), cases[i].says);
        for (int k = 0; k < 9; k++)
            assert_true(f[k] == 42);
    }
    assert_int_equal(homg_mesh_splat(m, s, 2, HOMG_FLOAT64, 0, NULL), HOMG_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "f is NULL"));
    assert_int_equal(homg_mesh_splat(NULL, s, 2, HOMG_FLOAT64, 0, f), HOMG_ERROR_INVALID_ARGUMENT);
    homg_mesh_destroy(m);
    homg_ctx_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(matches_definition),
        cmocka_unit_test(bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
