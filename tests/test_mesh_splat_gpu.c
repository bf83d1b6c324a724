/* test_mesh_splat_gpu.c -- homg_mesh_splat on CUDA (kernels/mesh/splat.cu)
 * against its CPU twin on random splats over 2D and 3D meshes, both precisions,
 * accumulate or not; a host pointer for f is refused.  Skips (exit 77) without
 * a CUDA device. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#if HOMG_HAVE_CUDA
#define gpu homg_test_gpu /* the pair homg_test_setup_pair makes (testutil.h) */
#define cpu homg_test_cpu

/* The same mesh (generated identically) on both contexts, f on each side. */
static void twin(int dim, int cells, homg_precision prec, int num_splats, int acc, uint64_t seed)
{
    homg_mesh_generate_desc gd = { .cells = cells };
    homg_mesh *mg, *mc;
    homg_rng r = homg_rng_seed(seed);
    homg_splat s[40];
    size_t es = prec == HOMG_FLOAT64 ? 8 : 4;
    if (dim == 2) {
        assert_int_equal(homg_mesh_generate_square(gpu, &gd, &mg), HOMG_OK);
        assert_int_equal(homg_mesh_generate_square(cpu, &gd, &mc), HOMG_OK);
    } else {
        assert_int_equal(homg_mesh_generate_cube(gpu, &gd, &mg), HOMG_OK);
        assert_int_equal(homg_mesh_generate_cube(cpu, &gd, &mc), HOMG_OK);
    }
    int32_t n = homg_mesh_num_nodes(mg);
    for (int i = 0; i < num_splats; i++) {
        for (int c = 0; c < 3; c++)
            s[i].center[c] = 1.2 * homg_rng_uniform(&r) - 0.1;
        s[i].width = 0.01 + 0.2 * homg_rng_uniform(&r);
        s[i].amount = 100 * homg_rng_uniform(&r) - 50;
    }
    unsigned char *start = malloc(es * (size_t)n), *fc = malloc(es * (size_t)n), *fg = malloc(es * (size_t)n);
    double *a = malloc(sizeof(double) * (size_t)n), *b = malloc(sizeof(double) * (size_t)n);
    void *dev;
    assert_true(start && fc && fg && a && b);
    for (int32_t k = 0; k < n; k++) {
        double v = homg_rng_uniform(&r);
        if (prec == HOMG_FLOAT64)
            ((double *)start)[k] = v;
        else
            ((float *)start)[k] = (float)v;
    }
    memcpy(fc, start, es * (size_t)n);
    assert_int_equal(homg_alloc(gpu, es * (size_t)n, &dev), HOMG_OK);
    assert_int_equal(homg_copy_from_host(gpu, dev, start, es * (size_t)n), HOMG_OK);
    assert_int_equal(homg_mesh_splat(mg, s, num_splats, prec, acc, dev), HOMG_OK);
    assert_int_equal(homg_mesh_splat(mc, s, num_splats, prec, acc, fc), HOMG_OK);
    assert_int_equal(homg_copy_to_host(gpu, fg, dev, es * (size_t)n), HOMG_OK);
    for (int32_t k = 0; k < n; k++) {
        a[k] = prec == HOMG_FLOAT64 ? ((double *)fg)[k] : ((float *)fg)[k];
        b[k] = prec == HOMG_FLOAT64 ? ((double *)fc)[k] : ((float *)fc)[k];
    }
    double d = homg_rel_diff(a, b, (size_t)n);
    if (!(d <= (prec == HOMG_FLOAT64 ? 1e-13 : 1e-6)))
        fail_msg("%dD %d nodes, %d splats, %s, accumulate %d: CUDA vs CPU %.2e", dim, n, num_splats,
                 prec == HOMG_FLOAT64 ? "float64" : "float32", acc, d);
    homg_free(gpu, dev);
    homg_mesh_destroy(mg);
    homg_mesh_destroy(mc);
    free(start), free(fc), free(fg), free(a), free(b);
}

static void cuda_matches_cpu(void **state)
{
    (void)state;
    for (int p = 0; p < 2; p++)
        for (int acc = 0; acc < 2; acc++) {
            homg_precision prec = p ? HOMG_FLOAT64 : HOMG_FLOAT32;
            twin(2, 60, prec, 1, acc, 1 + p);
            twin(2, 33, prec, 37, acc, 3 + p);
            twin(3, 12, prec, 17, acc, 5 + p);
        }
}

static void host_pointer_refused(void **state)
{
    homg_mesh *m;
    homg_splat s = { { 0.5, 0.5, 0.5 }, 0.1, 1 };
    double f[9];
    (void)state;
    assert_int_equal(homg_mesh_generate_square(gpu, &(homg_mesh_generate_desc){ .cells = 2 }, &m), HOMG_OK);
    assert_int_equal(homg_mesh_splat(m, &s, 1, HOMG_FLOAT64, 0, f), HOMG_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(homg_ctx_last_error(gpu), "homg_mesh_splat: f"));
    homg_mesh_destroy(m);
}
#endif

int main(void)
{
    homg_test_require_gpu("test_mesh_splat_gpu");
#if HOMG_HAVE_CUDA
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cuda_matches_cpu),
        cmocka_unit_test(host_pointer_refused),
    };
    return cmocka_run_group_tests(tests, homg_test_setup_pair, homg_test_teardown_pair);
#else
    return HOMG_TEST_SKIP;
#endif
}
