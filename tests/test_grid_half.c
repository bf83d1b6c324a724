/* test_grid_half.c -- float16 grids (HOMG_FLOAT16, lib/homg.h) on the CPU: the
 * float <-> half conversion (kernels/grid/gen_half.h) against a table of exact
 * cases and every half value round-tripped, random floats against the bracketing
 * halves; half solves against the double reference (the same case solved in
 * float64 to 1e-10) to error <= 1e-3 on a 2D Dirichlet box, a pure-Neumann box
 * with solid discs (singular: mean zero per island) and a 3D box; a 1024^2 smooth
 * right-hand side whose coarse sums would pass 65504 unscaled; and the arguments a
 * float16 grid refuses (HOMG and FFT methods, per-cell sigma / lambda, NaN input). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridcase.h"
#include "grid/gen_half.h"
#include "homg.h"
#include "testutil.h"

#define ctx homg_test_cpu /* homg_test_setup_cpu makes it (testutil.h) */

static void conversion_table(void **state)
{
    static const struct {
        float f;
        uint16_t h;
    } t[] = {
        { 0.0f, 0x0000 },
        { -0.0f, 0x8000 },
        { 1.0f, 0x3c00 },
        { -2.0f, 0xc000 },
        { 0.5f, 0x3800 },
        { 65504.0f, 0x7bff },                 /* largest finite */
        { 65519.0f, 0x7bff },                 /* below the midpoint to 65536 */
        { 65520.0f, 0x7c00 },                 /* the midpoint: ties to even = inf */
        { 1e10f, 0x7c00 },                    /* overflow */
        { -1e10f, 0xfc00 },                   /* */
        { 6.103515625e-05f, 0x0400 },         /* 2^-14, smallest normal */
        { 5.9604644775390625e-08f, 0x0001 },  /* 2^-24, smallest denormal */
        { 2.98023223876953125e-08f, 0x0000 }, /* 2^-25: ties to even = 0 */
        { 4.4703483581542969e-08f, 0x0001 },  /* 1.5 * 2^-25: rounds up */
        { 8.9406967163085938e-08f, 0x0002 },  /* 1.5 * 2^-24: tie, up to even 2 */
        { 1e-30f, 0x0000 },                   /* underflow */
        { 1.00048828125f, 0x3c00 },           /* 1 + 2^-11: tie, down to even */
        { 1.00146484375f, 0x3c02 },           /* 1 + 3 * 2^-11: tie, up to even */
        { 1.0009765625f, 0x3c01 },            /* 1 + 2^-10: exact */
        { 3.140625f, 0x4248 },                /* */
        { 6.0975551605224609e-05f, 0x03ff },  /* largest denormal */
    };
    (void)state;
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
        uint16_t h = gen_float_to_half(t[k].f);
        if (h != t[k].h)
            printf("  %.9g -> 0x%04x, want 0x%04x\n", (double)t[k].f, h, t[k].h);
        assert_int_equal(h, t[k].h);
    }
    assert_true(isinf(gen_half_to_float(0x7c00)) && gen_half_to_float(0x7c00) > 0);
    assert_true(isinf(gen_half_to_float(0xfc00)) && gen_half_to_float(0xfc00) < 0);
    assert_true(isnan(gen_half_to_float(gen_float_to_half(NAN))));
    assert_true(gen_half_to_float(0x0001) == 5.9604644775390625e-08f);
    assert_true(gen_half_to_float(0x3555) == 0.333251953125f);
}

static void conversion_round_trips(void **state)
{
    uint64_t s = 12345;
    (void)state;
    for (uint32_t h = 0; h < 65536; h++) { /* every half: exact round trip (NaN stays NaN) */
        float f = gen_half_to_float((uint16_t)h);
        if ((h & 0x7c00u) == 0x7c00u && (h & 0x3ffu))
            assert_true(isnan(f) && (gen_float_to_half(f) & 0x7c00u) == 0x7c00u && (gen_float_to_half(f) & 0x3ffu));
        else
            assert_int_equal(gen_float_to_half(f), h);
    }
    for (int k = 0; k < 1000000; k++) { /* random finite floats: the nearer bracketing half, ties even */
        uint32_t bits;
        float f, lo, hi, r;
        uint16_t h;
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        bits = (uint32_t)(s >> 32);
        memcpy(&f, &bits, sizeof f);
        if (!isfinite(f) || fabsf(f) >= 65504.0f)
            continue;
        h = gen_float_to_half(f);
        r = gen_half_to_float(h);
        /* neighbours of h toward zero and away (same sign) */
        lo = gen_half_to_float((uint16_t)((h & 0x7fffu) ? h - 1 : h));
        hi = gen_half_to_float((uint16_t)(h + 1));
        assert_true(fabs((double)f - r) <= fabs((double)f - lo) && fabs((double)f - r) <= fabs((double)f - hi));
    }
}

/* Host doubles to float16 in the ctx's space. */
static void *upload_half(const double *x, size_t n)
{
    uint16_t *h = (uint16_t *)malloc(n * 2);
    void *d = NULL;
    for (size_t k = 0; k < n; k++)
        h[k] = gen_float_to_half((float)x[k]);
    assert_int_equal(homg_alloc(ctx, n * 2, &d), HOMG_OK);
    assert_int_equal(homg_copy_from_host(ctx, d, h, n * 2), HOMG_OK);
    free(h);
    return d;
}

/* c solved in float16 (tol 0: exactly `cycles` cycles, or to tol); returns
 * ||u - ref|| / ||ref|| over active cells, ref the float64 solve. */
static double half_error(const grid_case *c, int cycles, double tol, const char *name)
{
    const size_t n = grid_case_cells(c);
    grid_case r = *c;
    double *ref = (double *)malloc(n * sizeof(double)), e2 = 0, r2 = 0, err;
    uint16_t *hu = (uint16_t *)malloc(n * 2);
    homg_solve_desc sd = { 0 };
    homg_solve_info info;
    homg_grid *g = NULL;
    homg_grid_operator op = { 0 };
    homg_boundary bc = { { 0 } };
    void *f, *u, *fl = NULL;
    homg_status st;
    r.d.precision = HOMG_FLOAT64;
    sd.tol = 1e-10;
    sd.max_cycles = 200;
    assert_int_equal(grid_case_solve(ctx, &r, &sd, ref, &info, NULL, NULL), HOMG_OK);

    assert_int_equal(c->d.precision, HOMG_FLOAT16);
    assert_int_equal(homg_grid_create(ctx, &c->d, &g), HOMG_OK);
    op.sigma = c->sigma;
    op.lambda = c->lambda;
    if (c->flags) {
        assert_int_equal(homg_alloc(ctx, n, &fl), HOMG_OK);
        homg_copy_from_host(ctx, fl, c->flags, n);
        op.flags = (const unsigned char *)fl;
    }
    assert_int_equal(homg_grid_set_operator(g, &op), HOMG_OK);
    f = upload_half(c->f, n);
    u = upload_half(c->u0, n);
    for (int s = 0; s < 6; s++)
        if (c->face[s])
            bc.face[s] = upload_half(c->face[s], grid_case_face_len(c, s));
    sd.tol = tol;
    sd.max_cycles = cycles;
    st = homg_grid_solve(g, f, &bc, u, &sd, &info);
    if (st != HOMG_OK)
        printf("  %s: %s\n", name, homg_ctx_last_error(ctx));
    assert_int_equal(st, HOMG_OK);
    homg_copy_to_host(ctx, hu, u, n * 2);
    for (size_t k = 0; k < n; k++) {
        double d;
        if (c->flags && c->flags[k])
            continue;
        d = gen_half_to_float(hu[k]) - ref[k];
        e2 += d * d;
        r2 += ref[k] * ref[k];
    }
    err = sqrt(e2 / r2);
    printf("  %-36s %4d x %4d x %3d float16: %2d cycles, error vs float64 %.2e (norm %.2e)\n", name, c->d.nx, c->d.ny,
           c->d.nz, info.cycles, err, info.norm);
    homg_grid_destroy(g);
    homg_free(ctx, f);
    homg_free(ctx, u);
    homg_free(ctx, fl);
    for (int s = 0; s < 6; s++)
        homg_free(ctx, (void *)bc.face[s]);
    free(ref);
    free(hu);
    return err;
}

static grid_case *mk(int nx, int ny, int nz, homg_bc_kind kind, uint64_t seed)
{
    grid_case *c = grid_case_new(nx, ny, nz, 1, seed);
    for (int s = 0; s < 6; s++)
        c->d.bc[s] = kind;
    c->d.precision = HOMG_FLOAT16;
    c->d.method = HOMG_METHOD_VCYCLE;
    return c;
}

static void solves(void **state)
{
    grid_case *c;
    (void)state;
    c = mk(128, 128, 1, HOMG_BC_DIRICHLET, 1); /* the power-of-two box: the general path in float16 */
    grid_case_random_faces(c, 2);
    assert_true(half_error(c, 20, 0, "Dirichlet box, random faces") <= 1e-3);
    grid_case_free(c);
    c = mk(100, 77, 1, HOMG_BC_NEUMANN, 3);
    grid_case_discs(c, 0.2, 5, 4);
    assert_true(half_error(c, 30, 0, "pure Neumann, 20% solid discs") <= 1e-3);
    grid_case_free(c);
    c = mk(40, 36, 32, HOMG_BC_DIRICHLET, 5);
    c->d.bc[HOMG_SIDE_W] = c->d.bc[HOMG_SIDE_E] = HOMG_BC_NEUMANN;
    grid_case_random_faces(c, 6);
    assert_true(half_error(c, 20, 0, "3D box, Dirichlet/Neumann") <= 1e-3);
    grid_case_free(c);
}

/* A smooth rhs of size 1 on 1024^2: restriction's sums reach 4^7 |r| on the coarsest
 * level; unscaled they would overflow half (gen_level.down).  (The relative residual
 * of a half u floors near 1e-2 here: half grids are judged by the error.) */
static void smooth_rhs_no_overflow(void **state)
{
    grid_case *c = mk(1024, 1024, 1, HOMG_BC_NEUMANN, 7);
    const double pi = 3.14159265358979323846;
    (void)state;
    for (int j = 0; j < 1024; j++)
        for (int i = 0; i < 1024; i++)
            c->f[i + 1024 * j] = 8.0 * cos(pi * (i + 0.5) / 1024) * cos(pi * (j + 0.5) / 1024);
    assert_true(half_error(c, 20, 0, "1024^2 Neumann, smooth rhs 8 cos cos") <= 1e-3);
    grid_case_free(c);
}

static void refused(void **state)
{
    homg_grid_desc d = { 0 };
    homg_grid *g = NULL;
    homg_grid_operator op = { 0 };
    void *sig = NULL, *f = NULL, *u = NULL;
    double x[64];
    homg_solve_desc sd = { 0 };
    (void)state;
    d.nx = d.ny = 8;
    d.precision = HOMG_FLOAT16;
    d.method = HOMG_METHOD_FFT;
    assert_int_equal(homg_grid_create(ctx, &d, &g), HOMG_ERROR_UNSUPPORTED);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "desc.method"));
    d.method = HOMG_METHOD_HOMG;
    assert_int_equal(homg_grid_create(ctx, &d, &g), HOMG_ERROR_UNSUPPORTED);
    d.method = HOMG_METHOD_DEFAULT;
    assert_int_equal(homg_grid_create(ctx, &d, &g), HOMG_OK);
    for (int k = 0; k < 64; k++)
        x[k] = 1.0 + k;
    sig = upload_half(x, 64);
    op.sigma_cell = sig;
    assert_int_equal(homg_grid_set_operator(g, &op), HOMG_ERROR_UNSUPPORTED);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "op.sigma_cell"));
    op.sigma_cell = NULL;
    op.lambda_cell = sig;
    assert_int_equal(homg_grid_set_operator(g, &op), HOMG_ERROR_UNSUPPORTED);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "op.lambda_cell"));
    x[37] = 1e6; /* inf in half */
    f = upload_half(x, 64);
    x[37] = 0;
    u = upload_half(x, 64);
    sd.max_cycles = 3;
    assert_int_equal(homg_grid_solve(g, f, NULL, u, &sd, NULL), HOMG_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "(5, 4, 0)"));
    homg_grid_destroy(g);
    homg_free(ctx, sig);
    homg_free(ctx, f);
    homg_free(ctx, u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(conversion_table), cmocka_unit_test(conversion_round_trips),
        cmocka_unit_test(solves),           cmocka_unit_test(smooth_rhs_no_overflow),
        cmocka_unit_test(refused),
    };
    return cmocka_run_group_tests(tests, homg_test_setup_cpu, homg_test_teardown_cpu);
}
