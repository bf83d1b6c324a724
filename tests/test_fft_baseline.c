/* test_fft_baseline.c -- the FFT baseline's algorithm, through its plain-C twin
 * (bench/fft_poisson_ref.c): the sine transforms against naive O(N^2) sums, and the
 * solve against exact discrete solutions of homg's structured operator. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../bench/fft_poisson_ref.h"
#include "poisson2d.h"
#include "testutil.h"

static const double pi = 3.14159265358979323846;

static double *vec(size_t n)
{
    double *p = malloc(sizeof(double) * (n ? n : 1));
    assert_non_null(p);
    return p;
}

static void random_fill(double *x, size_t n, uint64_t seed)
{
    homg_rng r = homg_rng_seed(seed);
    for (size_t i = 0; i < n; i++)
        x[i] = 2 * homg_rng_uniform(&r) - 1;
}

/* s[k-1] = sum_i x_i sin(pi k (i+1/2)/n) along one direction of an nx x ny array
 * (dir 0: along i, dir 1: along j), the definition written out. */
static void naive_dst2(int nx, int ny, int dir, const double *x, double *s)
{
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            int n = dir ? ny : nx, k = (dir ? j : i) + 1;
            double acc = 0;
            for (int m = 0; m < n; m++)
                acc += x[dir ? i + (size_t)nx * m : m + (size_t)nx * j] * sin(pi * k * (m + 0.5) / n);
            s[i + (size_t)nx * j] = acc;
        }
}

/* The inverse along one direction: x_m = (2/n) sum_k c_k s_k sin(pi k (m+1/2)/n), c_n = 1/2. */
static void naive_dst3(int nx, int ny, int dir, const double *s, double *x)
{
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            int n = dir ? ny : nx, m = dir ? j : i;
            double acc = 0;
            for (int k = 1; k <= n; k++)
                acc += (k == n ? 0.5 : 1.0) * s[dir ? i + (size_t)nx * (k - 1) : (k - 1) + (size_t)nx * j] *
                       sin(pi * k * (m + 0.5) / n);
            x[i + (size_t)nx * j] = 2.0 / n * acc;
        }
}

static void dst_1d_matches_naive_sums(void **state)
{
    (void)state;
    const int sizes[] = { 2, 4, 8, 16, 64, 256, 1024 };
    for (size_t c = 0; c < sizeof sizes / sizeof *sizes; c++) {
        int n = sizes[c];
        double *x = vec(n), *s = vec(n), *ref = vec(n), *back = vec(n);
        random_fill(x, n, 10 + c);
        assert_int_equal(fft_ref_dst2(n, x, s), 0);
        naive_dst2(n, 1, 0, x, ref);
        double e2 = homg_rel_diff(s, ref, n);
        assert_int_equal(fft_ref_dst3(n, s, back), 0);
        naive_dst3(n, 1, 0, s, ref);
        double e3 = homg_rel_diff(back, ref, n), e0 = homg_rel_diff(back, x, n);
        printf("  n = %4d: DST-II %.1e, DST-III %.1e, round trip %.1e\n", n, e2, e3, e0);
        assert_true(e2 < 1e-12 && e3 < 1e-12 && e0 < 1e-14);
        free(x), free(s), free(ref), free(back);
    }
}

static void dst_2d_matches_naive_sums(void **state)
{
    (void)state;
    const int sizes[][2] = { { 2, 2 }, { 4, 8 }, { 16, 4 }, { 2, 32 }, { 32, 32 }, { 128, 16 }, { 8, 1 } };
    for (size_t c = 0; c < sizeof sizes / sizeof *sizes; c++) {
        int nx = sizes[c][0], ny = sizes[c][1];
        size_t n = (size_t)nx * ny;
        double *x = vec(n), *s = vec(n), *t = vec(n), *ref = vec(n), *back = vec(n);
        random_fill(x, n, 100 + c);
        assert_int_equal(fft_ref_forward(nx, ny, x, s), 0);
        naive_dst2(nx, ny, 0, x, t);
        naive_dst2(nx, ny, 1, t, ref);
        double e2 = homg_rel_diff(s, ref, n);
        assert_int_equal(fft_ref_inverse(nx, ny, s, back), 0);
        naive_dst3(nx, ny, 0, s, t);
        naive_dst3(nx, ny, 1, t, ref);
        double e3 = homg_rel_diff(back, ref, n), e0 = homg_rel_diff(back, x, n);
        printf("  %4d x %-4d: DST-II %.1e, DST-III %.1e, round trip %.1e\n", nx, ny, e2, e3, e0);
        assert_true(e2 < 1e-12 && e3 < 1e-12 && e0 < 1e-14);
        free(x), free(s), free(t), free(ref), free(back);
    }
}

/* f = A u in double: homg's cell-centred 5-point operator with homogeneous walls. */
static void apply_operator(int nx, int ny, double h, double lambda, const double *u, double *f)
{
    homg_p2 p = { 0 };
    p.nx = nx;
    p.ny = ny;
    p.h = h;
    p.lambda = lambda;
    homg_p2_apply(&p, u, f);
}

/* An exact discrete solution: a smooth part plus noise, so every mode is present. */
static void exact_solution(int nx, int ny, double *u, uint64_t seed)
{
    homg_rng r = homg_rng_seed(seed);
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            double x = (i + 0.5) / nx, y = (j + 0.5) / ny;
            u[i + (size_t)nx * j] =
                sin(pi * x) * y * (1 - y) * 4 + 0.3 * cos(5 * x + 2 * y) + 0.1 * (homg_rng_uniform(&r) - 0.5);
        }
}

static void solve_recovers_exact_discrete_solutions(void **state)
{
    (void)state;
    const struct {
        int nx, ny;
        double h, lambda;
    } cases[] = {
        { 2, 2, 0.5, 0 },           { 4, 4, 0.25, 0 },     { 8, 32, 1.0 / 32, 0 },     { 64, 16, 0.01, 3.5 },
        { 128, 128, 1.0 / 128, 0 }, { 256, 64, 0.3, 100 }, { 512, 512, 1.0 / 512, 0 }, { 32, 1024, 1e-3, 0.25 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        int nx = cases[c].nx, ny = cases[c].ny;
        size_t n = (size_t)nx * ny;
        double *ustar = vec(n), *f = vec(n), *u = vec(n);
        exact_solution(nx, ny, ustar, 7 + c);
        apply_operator(nx, ny, cases[c].h, cases[c].lambda, ustar, f);
        assert_int_equal(fft_ref_solve(nx, ny, cases[c].h, cases[c].lambda, f, u), 0);
        double err = homg_rel_diff(u, ustar, n);
        printf("  %4d x %-4d h = %-9g lambda = %-5g: error %.2e\n", nx, ny, cases[c].h, cases[c].lambda, err);
        assert_true(err <= 1e-12);
        /* in place: f and u the same array */
        assert_int_equal(fft_ref_solve(nx, ny, cases[c].h, cases[c].lambda, f, f), 0);
        assert_true(homg_rel_diff(f, u, n) == 0);
        free(ustar), free(f), free(u);
    }
}

static void bad_arguments_are_refused(void **state)
{
    (void)state;
    double a[64] = { 0 }, b[64];
    assert_int_equal(fft_ref_solve(3, 4, 1, 0, a, b), -1);
    assert_int_equal(fft_ref_solve(4, 6, 1, 0, a, b), -1);
    assert_int_equal(fft_ref_solve(1, 4, 1, 0, a, b), -1);
    assert_int_equal(fft_ref_solve(4, 0, 1, 0, a, b), -1);
    assert_int_equal(fft_ref_solve(-8, 4, 1, 0, a, b), -1);
    assert_int_equal(fft_ref_solve(2 * FFT_REF_MAX, 1, 1, 0, a, b), -1);
    assert_int_equal(fft_ref_solve(4, 4, 0, 0, a, b), -1);
    assert_int_equal(fft_ref_solve(4, 4, NAN, 0, a, b), -1);
    assert_int_equal(fft_ref_solve(4, 4, 1, -1, a, b), -1);
    assert_int_equal(fft_ref_solve(4, 4, 1, INFINITY, a, b), -1);
    assert_int_equal(fft_ref_solve(4, 4, 1, 0, NULL, b), -1);
    assert_int_equal(fft_ref_forward(4, 4, a, NULL), -1);
    assert_int_equal(fft_ref_dst2(6, a, b), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dst_1d_matches_naive_sums),
        cmocka_unit_test(dst_2d_matches_naive_sums),
        cmocka_unit_test(solve_recovers_exact_discrete_solutions),
        cmocka_unit_test(bad_arguments_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
