/* test_fft_baseline_gpu.c -- the benchmark's FFT baseline (bench/fft_poisson.c, now
 * the library's FFT solve behind the old interface) on the GPU: exact discrete
 * solutions of the structured operator as tests/util/poisson2d.c applies it (written
 * independently of lib/fft), float and double, squares and rectangles up to 2048^2,
 * in place, repeatability, bad arguments.  Skips (exit 77) where no CUDA device is
 * usable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench/fft_poisson.h"
#include "poisson2d.h"
#include "testutil.h"

#if HOMG_HAVE_CUDA
#include <cuda_runtime.h>

static const double pi = 3.14159265358979323846;

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

/* A smooth part plus noise, so every mode is present. */
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

/* Host doubles to and from the device array of the precision under test. */
static void to_device(void *dst, const double *src, size_t n, int use_double)
{
    size_t es = use_double ? sizeof(double) : sizeof(float);
    void *h = malloc(n * es);
    assert_non_null(h);
    for (size_t i = 0; i < n; i++) {
        if (use_double)
            ((double *)h)[i] = src[i];
        else
            ((float *)h)[i] = (float)src[i];
    }
    assert_int_equal(cudaMemcpy(dst, h, n * es, cudaMemcpyHostToDevice), cudaSuccess);
    free(h);
}

static void from_device(double *dst, const void *src, size_t n, int use_double)
{
    size_t es = use_double ? sizeof(double) : sizeof(float);
    void *h = malloc(n * es);
    assert_non_null(h);
    assert_int_equal(cudaMemcpy(h, src, n * es, cudaMemcpyDeviceToHost), cudaSuccess);
    for (size_t i = 0; i < n; i++)
        dst[i] = use_double ? ((double *)h)[i] : (double)((float *)h)[i];
    free(h);
}

static void check_case(int nx, int ny, double h, double lambda, int use_double, cudaStream_t stream)
{
    size_t n = (size_t)nx * ny, es = use_double ? sizeof(double) : sizeof(float);
    double tol = use_double ? 1e-10 : 5e-5;
    double *ustar = malloc(n * sizeof(double)), *f = malloc(n * sizeof(double));
    double *u = malloc(n * sizeof(double)), *u2 = malloc(n * sizeof(double));
    void *df = NULL, *du = NULL;
    fft_poisson *p = NULL;
    fft_poisson_cost cost;
    assert_true(ustar && f && u && u2);
    exact_solution(nx, ny, ustar, (uint64_t)nx * 31 + ny);
    apply_operator(nx, ny, h, lambda, ustar, f);
    assert_int_equal(cudaMalloc(&df, n * es), cudaSuccess);
    assert_int_equal(cudaMalloc(&du, n * es), cudaSuccess);
    to_device(df, f, n, use_double);
    assert_int_equal(cudaMemset(du, 0xff, n * es), cudaSuccess); /* NaNs: every value must be written */

    assert_int_equal(fft_poisson_create(nx, ny, h, lambda, use_double, stream, &p), FFT_POISSON_OK);
    assert_non_null(p);
    assert_int_equal(fft_poisson_solve(p, df, du), FFT_POISSON_OK);
    assert_int_equal(cudaStreamSynchronize(stream), cudaSuccess);
    from_device(u, du, n, use_double);
    double err = homg_rel_diff(u, ustar, n);
    fft_poisson_get_cost(p, &cost);
    printf("  %-6s %4d x %-4d lambda = %-4g: error %.2e (limit %.0e), %d launches (%s), %.1f MB modelled\n",
           use_double ? "double" : "float", nx, ny, lambda, err, tol, cost.launches,
           cost.launches_counted ? "counted" : "assumed", cost.bytes / 1e6);
    assert_true(err <= tol);
    assert_true(cost.launches >= 5 && cost.own_kernels == 3 && cost.fft_kernels == cost.launches - 3);
    assert_true(cost.bytes >= 4.0 * n * es);

    /* The same again, and in place (u == f): the same numbers, bit for bit. */
    assert_int_equal(fft_poisson_solve(p, df, du), FFT_POISSON_OK);
    assert_int_equal(fft_poisson_solve(p, df, df), FFT_POISSON_OK);
    assert_int_equal(cudaStreamSynchronize(stream), cudaSuccess);
    from_device(u2, du, n, use_double);
    assert_memory_equal(u, u2, n * sizeof(double));
    from_device(u2, df, n, use_double);
    assert_memory_equal(u, u2, n * sizeof(double));

    fft_poisson_destroy(p);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    cudaFree(df);
    cudaFree(du);
    free(ustar), free(f), free(u), free(u2);
}

static const struct {
    int nx, ny;
    double h, lambda;
} cases[] = {
    { 8, 8, 1.0 / 8, 0 },          { 16, 256, 0.01, 2 },
    { 256, 256, 1.0 / 256, 0 },    { 512, 128, 0.3, 10 },
    { 1024, 1024, 1.0 / 1024, 0 }, { 256, 2048, 1.0 / 2048, 1 },
    { 2048, 2048, 1.0 / 2048, 0 }, { 300, 201, 1.0 / 300, 0 },
    { 1920, 1080, 1.0 / 1920, 0 }, { 7, 1, 0.5, 0.5 },
};

static void float_solves_are_exact_to_rounding(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        check_case(cases[c].nx, cases[c].ny, cases[c].h, cases[c].lambda, 0, NULL);
}

static void double_solves_are_exact_to_rounding(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        check_case(cases[c].nx, cases[c].ny, cases[c].h, cases[c].lambda, 1, NULL);
}

static void callers_stream_is_used(void **state)
{
    (void)state;
    cudaStream_t s;
    assert_int_equal(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    check_case(512, 256, 1.0 / 512, 0.5, 0, s);
    check_case(128, 512, 1.0 / 512, 0, 1, s);
    assert_int_equal(cudaStreamDestroy(s), cudaSuccess);
}

static void bad_arguments_are_refused(void **state)
{
    (void)state;
    fft_poisson *p = (fft_poisson *)0x1;
    assert_int_equal(fft_poisson_create(0, 256, 1, 0, 0, NULL, &p), FFT_POISSON_EINVAL);
    assert_null(p);
    assert_int_equal(fft_poisson_create(256, -1, 1, 0, 0, NULL, &p), FFT_POISSON_EINVAL);
    assert_int_equal(fft_poisson_create(256, 256, 0, 0, 0, NULL, &p), FFT_POISSON_EINVAL);
    assert_int_equal(fft_poisson_create(256, 256, 1, -1, 0, NULL, &p), FFT_POISSON_EINVAL);
    assert_int_equal(fft_poisson_create(256, 256, 1, NAN, 0, NULL, &p), FFT_POISSON_EINVAL);
    assert_int_equal(fft_poisson_create(256, 256, 1, 0, 0, NULL, NULL), FFT_POISSON_EINVAL);
    assert_int_equal(fft_poisson_solve(NULL, (void *)8, (void *)8), FFT_POISSON_EINVAL);
    fft_poisson_destroy(NULL);
}
#endif

int main(void)
{
    homg_test_require_gpu("test_fft_baseline_gpu");
#if HOMG_HAVE_CUDA
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(float_solves_are_exact_to_rounding),
        cmocka_unit_test(double_solves_are_exact_to_rounding),
        cmocka_unit_test(callers_stream_is_used),
        cmocka_unit_test(bad_arguments_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
#else
    return HOMG_TEST_SKIP;
#endif
}
