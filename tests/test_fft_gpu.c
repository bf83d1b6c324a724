/* test_fft_gpu.c -- the CUDA FFT solves (kernels/fft/fft.cu) against their CPU
 * twins on random inputs: every pair of side kinds at odd and even sizes, 2D and 3D,
 * float32 and float64, several right-hand sides, the projected means; a solve
 * captured in a CUDA graph; launch counts; bad input and a size beyond the device's
 * memory.  Skips (exit 77) without a CUDA device.  `quick` (compute-sanitizer runs):
 * small sizes only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fftcase.h"
#include "poisson2d.h"
#include "testutil.h"

#if HOMG_HAVE_CUDA
#include <cuda_runtime.h>

#define gpu homg_test_gpu /* the pair homg_test_setup_pair makes (testutil.h) */
#define cpu homg_test_cpu
static int quick;
static const char *const pairs[5] = { "DD", "NN", "PP", "DN", "ND" };

/* CUDA against the CPU twin (same algorithm) and the CPU r2r solve (FFTW's transforms),
 * both against the float64 CPU solve of the same (rounded) inputs. */
static void compare(fft_case *c, const char *label)
{
    size_t n = c->ncell * c->p.nrhs;
    int dbl = c->p.precision == HOMG_FLOAT64, nr = c->p.nrhs;
    double *u64 = malloc(sizeof(double) * n), *ug = malloc(sizeof(double) * n), *ut = malloc(sizeof(double) * n);
    double *ur = malloc(sizeof(double) * n), *mg = malloc(sizeof(double) * nr), *mt = malloc(sizeof(double) * nr);
    double *m64 = malloc(sizeof(double) * nr);
    assert_true(u64 && ug && ut && ur && mg && mt && m64);
    if (!dbl) { /* the inputs as the float32 solves see them */
        for (size_t k = 0; k < n; k++)
            c->f[k] = (float)c->f[k];
        for (int s = 0; s < 6; s++)
            for (size_t k = 0; c->face[s] && k < fft_case_face_n(&c->p, s) * nr; k++)
                c->face[s][k] = (float)c->face[s][k];
    }
    homg_precision prec = c->p.precision;
    c->p.precision = HOMG_FLOAT64;
    assert_int_equal(fft_case_solve(cpu, c, FFT_ALGO_R2R, u64, m64), HOMG_OK);
    c->p.precision = prec;
    if (fft_case_solve(gpu, c, FFT_ALGO_DEFAULT, ug, mg) != HOMG_OK)
        fail_msg("%s: %s", label, homg_ctx_last_error(gpu));
    assert_int_equal(fft_case_solve(cpu, c, FFT_ALGO_MAKHOUL, ut, mt), HOMG_OK);
    assert_int_equal(fft_case_solve(cpu, c, FFT_ALGO_R2R, ur, mt), HOMG_OK);
    double scale = 0;
    for (size_t k = 0; k < n; k++)
        scale = fmax(scale, fabs(u64[k]));
    double eg = homg_rel_diff(ug, u64, n), et = homg_rel_diff(ut, u64, n), er = homg_rel_diff(ur, u64, n);
    double twin = homg_rel_diff(ug, ut, n), tol = dbl ? 1e-10 : 3e-5;
    if (scale > 1e-12 && !(eg <= tol && eg <= 4 * fmax(et, er) + (dbl ? 1e-13 : 1e-6)))
        fail_msg("%s %s: CUDA error %.2e (CPU twin %.2e, r2r %.2e, CUDA vs twin %.2e)", label,
                 dbl ? "float64" : "float32", eg, et, er, twin);
    for (int q = 0; q < nr; q++)
        if (fabs(mg[q] - m64[q]) > (dbl ? 1e-9 : 1e-4) * (1 + fabs(m64[q])))
            fail_msg("%s: CUDA mean %.9g, CPU %.9g", label, mg[q], m64[q]);
    free(u64), free(ug), free(ut), free(ur), free(mg), free(mt), free(m64);
}

static void every_side_pair(void **state)
{
    (void)state;
    static const int sizes[][4] = { { 2, 7, 6, 1 }, { 2, 1, 9, 1 }, { 2, 16, 5, 1 },
                                    { 3, 5, 4, 6 }, { 3, 1, 1, 1 }, { 3, 8, 1, 3 } };
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        int dim = sizes[k][0], combos = dim == 2 ? 25 : 125;
        for (int cb = 0; cb < combos; cb += quick ? (dim == 3 ? 11 : 3) : 1) {
            char sides[7] = { 0 }, label[80];
            int q = cb;
            for (int a = 0; a < dim; a++, q /= 5)
                memcpy(sides + 2 * a, pairs[q % 5], 2);
            for (int prec = 0; prec < 2; prec++) {
                fft_case c;
                fft_case_init(&c, dim, sizes[k][1], sizes[k][2], sizes[k][3], sides, 0.3, 1.5, cb % 3 ? 0 : 0.7, 2,
                              prec ? HOMG_FLOAT64 : HOMG_FLOAT32, 1000 * k + cb);
                snprintf(label, sizeof label, "%dD %dx%dx%d %s", dim, sizes[k][1], sizes[k][2], sizes[k][3], sides);
                compare(&c, label);
                fft_case_free(&c);
            }
        }
    }
}

static void larger_sizes(void **state)
{
    (void)state;
    static const struct {
        int dim, nx, ny, nz, nrhs;
        const char *sides;
    } cases[] = {
        { 2, 257, 130, 1, 1, "DDDD" },   { 2, 256, 256, 1, 3, "NNNN" },   { 2, 1920, 1080, 1, 1, "DNPP" },
        { 2, 1023, 64, 1, 2, "PPND" },   { 3, 64, 64, 64, 1, "DDDDDD" },  { 3, 63, 65, 31, 2, "NNPPDN" },
        { 3, 128, 96, 80, 1, "PPPPPP" }, { 3, 33, 130, 17, 1, "NDDNNN" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        if (quick && k >= 2)
            break;
        for (int prec = 0; prec < 2; prec++) {
            fft_case c;
            char label[80];
            fft_case_init(&c, cases[k].dim, cases[k].nx, cases[k].ny, cases[k].nz, cases[k].sides, 1.0 / cases[k].nx, 1,
                          0, cases[k].nrhs, prec ? HOMG_FLOAT64 : HOMG_FLOAT32, 77 + k);
            snprintf(label, sizeof label, "%dD %dx%dx%d %s nrhs %d", cases[k].dim, cases[k].nx, cases[k].ny,
                     cases[k].nz, cases[k].sides, cases[k].nrhs);
            compare(&c, label);
            printf("  %-32s %s: ok\n", label, prec ? "float64" : "float32");
            fft_case_free(&c);
        }
    }
}

/* A solve captured in a CUDA graph on the ctx's stream gives the direct solve's values. */
static void graph_capture(void **state)
{
    (void)state;
    cudaStream_t s;
    homg_ctx *sctx;
    homg_ctx_desc d = { 0 };
    fft_case c;
    fft_plan *plan;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    assert_int_equal(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    d.backend = HOMG_BACKEND_CUDA;
    d.stream = s;
    assert_int_equal(homg_ctx_create(&d, &sctx), HOMG_OK);
    fft_case_init(&c, 3, 20, 9, 14, "DDNNPP", 0.1, 1, 0, 2, HOMG_FLOAT32, 4);
    size_t n = c.ncell * 2;
    double *u1 = malloc(sizeof(double) * n), *u2 = malloc(sizeof(double) * n);
    void *df = homg_test_upload(sctx, c.f, n, HOMG_FLOAT32), *du = homg_test_upload(sctx, c.f, n, HOMG_FLOAT32);
    const void *face[6] = { 0 };
    for (int k = 0; k < 4; k++)
        face[k] = homg_test_upload(sctx, c.face[k], fft_case_face_n(&c.p, k) * 2, HOMG_FLOAT32);
    assert_int_equal(homg__fft_plan_create(sctx, &c.p, &plan), HOMG_OK);
    assert_int_equal(homg__fft_solve(plan, df, face, du), HOMG_OK);
    homg_test_download(sctx, du, n, HOMG_FLOAT32, u1);
    assert_int_equal(cudaMemsetAsync(du, 0, n * sizeof(float), s), cudaSuccess);
    assert_int_equal(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), cudaSuccess);
    assert_int_equal(homg__fft_solve(plan, df, face, du), HOMG_OK);
    assert_int_equal(cudaStreamEndCapture(s, &graph), cudaSuccess);
    assert_int_equal(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    assert_int_equal(cudaGraphLaunch(exec, s), cudaSuccess);
    assert_int_equal(cudaGraphLaunch(exec, s), cudaSuccess);
    homg_test_download(sctx, du, n, HOMG_FLOAT32, u2);
    assert_memory_equal(u1, u2, sizeof(double) * n);
    fft_cost cost;
    homg__fft_cost(plan, &cost);
    printf("  one solve: %ld launches (%s, %d own), %.2f MB modelled, workspace %zu bytes\n", cost.launches,
           cost.launches_counted ? "counted" : "assumed", cost.own_kernels, cost.bytes / 1e6, cost.workspace_bytes);
    assert_true(cost.launches_counted && cost.own_kernels == 3 && cost.launches >= 5);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    homg__fft_plan_destroy(plan);
    homg_free(sctx, df), homg_free(sctx, du);
    for (int k = 0; k < 4; k++)
        homg_free(sctx, (void *)face[k]);
    homg_ctx_destroy(sctx);
    cudaStreamDestroy(s);
    free(u1), free(u2);
    fft_case_free(&c);
}

static void bad_input(void **state)
{
    (void)state;
    fft_problem p = { 0 };
    fft_plan *plan = NULL;
    p.nx = p.ny = 8;
    p.h = p.sigma = 1;
    p.algorithm = FFT_ALGO_R2R;
    assert_int_equal(homg__fft_plan_create(gpu, &p, &plan), HOMG_ERROR_UNSUPPORTED);
    p.algorithm = FFT_ALGO_DEFAULT;
    p.side[0] = p.side[1] = FFT_PERIODIC;
    assert_int_equal(homg__fft_plan_create(gpu, &p, &plan), HOMG_OK);
    const void *face[6] = { (void *)8, NULL, NULL, NULL, NULL, NULL };
    assert_int_equal(homg__fft_solve(plan, (void *)8, face, (void *)8), HOMG_ERROR_INVALID_ARGUMENT);
    homg__fft_plan_destroy(plan);
    /* 2048^3 in float64 needs more than the device has: refused before any allocation */
    p.dim = 3;
    p.nx = p.ny = p.nz = 2048;
    p.precision = HOMG_FLOAT64;
    homg_status st = homg__fft_plan_create(gpu, &p, &plan);
    printf("  2048^3 float64: %s: %s\n", homg_status_string(st), homg_ctx_last_error(gpu));
    assert_int_equal(st, HOMG_ERROR_OUT_OF_MEMORY);
    assert_null(plan);
    assert_non_null(strstr(homg_ctx_last_error(gpu), "bytes"));
    assert_int_equal(cudaGetLastError(), cudaSuccess);
}
#endif

int main(int argc, char **argv)
{
    homg_test_require_gpu("test_fft_gpu");
#if HOMG_HAVE_CUDA
    quick = argc > 1 && strcmp(argv[1], "quick") == 0;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_side_pair),
        cmocka_unit_test(larger_sizes),
        cmocka_unit_test(graph_capture),
        cmocka_unit_test(bad_input),
    };
    return cmocka_run_group_tests(tests, homg_test_setup_pair, homg_test_teardown_pair);
#else
    (void)argc, (void)argv;
    return HOMG_TEST_SKIP;
#endif
}
