/* test_fluid_gpu.c -- the fluid kernels on CUDA (kernels/fluid/fluid.cu)
 * against their CPU twins (fluid.c) on random fields, random obstacles and
 * several box shapes, then whole steps of homg_fluid on both backends.  Skips
 * (exit 77) without a CUDA device. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fluid/fluid_kernels.h"
#include "testutil.h"

#if HOMG_HAVE_CUDA
#include "core/internal.h"

#define gpu homg_test_gpu /* the pair homg_test_setup_pair makes (testutil.h) */
#define cpu homg_test_cpu

typedef struct twin_arrays {
    int nx, ny;
    size_t nu, nv, nc;
    float *u, *v, *q, *p, *f; /* host */
    uint8_t *solid;
    float *du, *dv, *dq, *dp, *df, *dout; /* device */
    uint8_t *dsolid;
} twin_arrays;

static void *to_device(const void *host, size_t bytes)
{
    void *d;
    assert_int_equal(homg_alloc(gpu, bytes ? bytes : 1, &d), HOMG_OK);
    assert_int_equal(homg_copy_from_host(gpu, d, host, bytes), HOMG_OK);
    return d;
}

static void fill(float *a, size_t n, homg_rng *r, double scale)
{
    for (size_t k = 0; k < n; k++)
        a[k] = (float)(scale * (homg_rng_uniform(r) - 0.5));
}

static twin_arrays make(int nx, int ny, uint64_t seed)
{
    twin_arrays t = {
        .nx = nx, .ny = ny, .nu = (size_t)(nx + 1) * ny, .nv = (size_t)nx * (ny + 1), .nc = (size_t)nx * ny
    };
    homg_rng r = homg_rng_seed(seed);
    t.u = malloc(4 * t.nu), t.v = malloc(4 * t.nv), t.q = malloc(4 * t.nc), t.p = malloc(4 * t.nc);
    t.f = malloc(4 * t.nc), t.solid = malloc(t.nc);
    fill(t.u, t.nu, &r, 6), fill(t.v, t.nv, &r, 6), fill(t.q, t.nc, &r, 1), fill(t.p, t.nc, &r, 1);
    fill(t.f, t.nc, &r, 1);
    for (size_t c = 0; c < t.nc; c++)
        t.solid[c] = homg_rng_uniform(&r) < 0.15;
    t.du = to_device(t.u, 4 * t.nu), t.dv = to_device(t.v, 4 * t.nv), t.dq = to_device(t.q, 4 * t.nc);
    t.dp = to_device(t.p, 4 * t.nc), t.df = to_device(t.f, 4 * t.nc), t.dsolid = to_device(t.solid, t.nc);
    assert_int_equal(homg_alloc(gpu, 4 * (t.nu > t.nv ? t.nu : t.nv), (void **)&t.dout), HOMG_OK);
    return t;
}

static void release(twin_arrays *t)
{
    free(t->u), free(t->v), free(t->q), free(t->p), free(t->f), free(t->solid);
    void *d[] = { t->du, t->dv, t->dq, t->dp, t->df, t->dout, t->dsolid };
    for (size_t k = 0; k < sizeof d / sizeof d[0]; k++)
        homg_free(gpu, d[k]);
}

/* The device array `dev` (n floats) against the host result `want`. */
static void compare(const char *what, const float *dev, const float *want, size_t n, double tol)
{
    float *got = malloc(4 * n);
    double worst = 0;
    assert_int_equal(homg_copy_to_host(gpu, got, dev, 4 * n), HOMG_OK);
    for (size_t k = 0; k < n; k++)
        worst = fmax(worst, fabs((double)got[k] - want[k]) / (1 + fabs(want[k])));
    print_message("%-18s max relative difference %.2g\n", what, worst);
    assert_true(worst <= tol);
    free(got);
}

static void kernels_match_cpu(void **state)
{
    (void)state;
    const int sizes[][2] = { { 2, 2 }, { 17, 9 }, { 64, 64 }, { 129, 70 } };
    for (int s = 0; s < 4; s++) {
        int nx = sizes[s][0], ny = sizes[s][1];
        twin_arrays t = make(nx, ny, 40 + s);
        kernel_exec *ex = &gpu->ex;
        float *want = malloc(4 * (t.nu > t.nv ? t.nu : t.nv));
        fluid_field hu = { t.u, nx + 1, ny, 0, 0.5f }, hv = { t.v, nx, ny + 1, 0.5f, 0 },
                    hq = { t.q, nx, ny, 0.5f, 0.5f };
        fluid_field du = hu, dv = hv, dq = hq;
        du.q = t.du, dv.q = t.dv, dq.q = t.dq;
        fluid_field targets[3][2] = { { hq, dq }, { hu, du }, { hv, dv } };
        for (int k = 0; k < 3; k++) {
            homg_cpu_fluid_advect(NULL, nx, ny, t.solid, targets[k][0], hu, hv, 1.7f, 0.9f, want);
            assert_int_equal(homg_cuda_fluid_advect(ex, nx, ny, t.dsolid, targets[k][1], du, dv, 1.7f, 0.9f, t.dout),
                             HOMG_OK);
            /* the back-trace is contracted into FMAs on the GPU: the sample point moves by ~1e-7
             * cells per step of a trace up to 5 cells long through this random (not smooth) velocity,
             * times the field's slope of up to 6 per cell; measured on the H100: up to 1.8e-4 */
            compare("advect", t.dout, want, (size_t)targets[k][0].mx * targets[k][0].my, 1e-3);
        }
        { /* u and v in one pass: advect's values on each backend */
            float *dv2, *want_v = malloc(4 * t.nv), *sep = malloc(4 * t.nv), *got = malloc(4 * t.nv);
            assert_int_equal(homg_alloc(gpu, 4 * t.nv, (void **)&dv2), HOMG_OK);
            homg_cpu_fluid_advect_velocity(NULL, nx, ny, hu, hv, 1.7f, want, want_v);
            homg_cpu_fluid_advect(NULL, nx, ny, t.solid, hv, hu, hv, 1.7f, 1.0f, sep);
            assert_memory_equal(sep, want_v, 4 * t.nv);
            assert_int_equal(homg_cuda_fluid_advect_velocity(ex, nx, ny, du, dv, 1.7f, t.dout, dv2), HOMG_OK);
            compare("advect_velocity u", t.dout, want, t.nu, 1e-3);
            compare("advect_velocity v", dv2, want_v, t.nv, 1e-3);
            assert_int_equal(homg_copy_to_host(gpu, got, dv2, 4 * t.nv), HOMG_OK);
            assert_int_equal(homg_cuda_fluid_advect(ex, nx, ny, t.dsolid, dv, du, dv, 1.7f, 1.0f, dv2), HOMG_OK);
            assert_int_equal(homg_copy_to_host(gpu, sep, dv2, 4 * t.nv), HOMG_OK);
            assert_memory_equal(got, sep, 4 * t.nv); /* the same device values as two advect launches */
            homg_free(gpu, dv2);
            free(want_v), free(sep), free(got);
        }
        homg_cpu_fluid_divergence(NULL, nx, ny, t.solid, t.u, t.v, -3.0f, want);
        assert_int_equal(homg_cuda_fluid_divergence(ex, nx, ny, t.dsolid, t.du, t.dv, -3.0f, t.dout), HOMG_OK);
        compare("divergence", t.dout, want, t.nc, 1e-6);
        homg_cpu_fluid_jacobi(NULL, nx, ny, t.solid, t.p, t.f, 0.01f, want);
        assert_int_equal(homg_cuda_fluid_jacobi(ex, nx, ny, t.dsolid, t.dp, t.df, 0.01f, t.dout), HOMG_OK);
        compare("jacobi", t.dout, want, t.nc, 1e-6);
        homg_cpu_fluid_subtract_gradient(NULL, nx, ny, t.solid, t.p, 5.0f, t.u, t.v);
        assert_int_equal(homg_cuda_fluid_subtract_gradient(ex, nx, ny, t.dsolid, t.dp, 5.0f, t.du, t.dv), HOMG_OK);
        compare("gradient u", t.du, t.u, t.nu, 1e-6);
        compare("gradient v", t.dv, t.v, t.nv, 1e-6);
        /* the divergence with the pressure extrapolated (f as the step before's pressure): the
         * divergence as divergence's, p and p_prev bit for bit (one rounding on both backends).
         * From the host's u and v on both sides: the gradient's FMA leaves the device's ~1e-7 off
         * (H100, 3cb1269: 1.1e-6 then at 129 x 70) */
        assert_int_equal(homg_copy_from_host(gpu, t.du, t.u, 4 * t.nu), HOMG_OK);
        assert_int_equal(homg_copy_from_host(gpu, t.dv, t.v, 4 * t.nv), HOMG_OK);
        homg_cpu_fluid_divergence_extrapolate(NULL, nx, ny, t.solid, t.u, t.v, -3.0f, want, t.p, t.f);
        assert_int_equal(
            homg_cuda_fluid_divergence_extrapolate(ex, nx, ny, t.dsolid, t.du, t.dv, -3.0f, t.dout, t.dp, t.df),
            HOMG_OK);
        compare("divergence_extrap", t.dout, want, t.nc, 1e-6);
        compare("extrapolated p", t.dp, t.p, t.nc, 0);
        compare("previous p", t.df, t.f, t.nc, 0);
        homg_splat sp[19];
        homg_rng r = homg_rng_seed(s);
        for (int k = 0; k < 19; k++)
            sp[k] = (homg_splat){ { homg_rng_uniform(&r), homg_rng_uniform(&r), 0 },
                                  0.02 + 0.2 * homg_rng_uniform(&r),
                                  homg_rng_uniform(&r) - 0.5 };
        splat_batch b;
        for (int first = 0; first < 19;) {
            first = splat_batch_fill(&b, sp, 19, first);
            homg_cpu_fluid_splat(NULL, nx + 1, ny, 0, 0.5f, 1.0 / nx, &b, t.u);
            assert_int_equal(homg_cuda_fluid_splat(ex, nx + 1, ny, 0, 0.5f, 1.0 / nx, &b, t.du), HOMG_OK);
        }
        compare("splat", t.du, t.u, t.nu, 1e-5);
        uint8_t *flags = malloc(t.nc), *got = malloc(t.nc);
        int64_t count = 0, got_count = 0, solid_cells = 0;
        int64_t *dcount = (int64_t *)((char *)t.dout + ((t.nc + 7) & ~(size_t)7)); /* after the flags */
        for (size_t c = 0; c < t.nc; c++)
            solid_cells += t.solid[c] != 0;
        homg_cpu_fluid_flags(NULL, (int64_t)t.nc, t.solid, 2, flags, &count);
        assert_int_equal(homg_copy_from_host(gpu, dcount, &got_count, sizeof got_count), HOMG_OK);
        assert_int_equal(homg_cuda_fluid_flags(ex, (int64_t)t.nc, t.dsolid, 2, (uint8_t *)t.dout, dcount), HOMG_OK);
        assert_int_equal(homg_copy_to_host(gpu, got, t.dout, t.nc), HOMG_OK);
        assert_int_equal(homg_copy_to_host(gpu, &got_count, dcount, sizeof got_count), HOMG_OK);
        assert_memory_equal(got, flags, t.nc);
        assert_int_equal(count, solid_cells);
        assert_int_equal(got_count, solid_cells);
        free(flags), free(got), free(want);
        release(&t);
    }
}

/* Whole steps on both backends from the same state: the fields stay close
 * (the projections stop at tol, so not bit for bit). */
static void steps_match_cpu(void **state)
{
    (void)state;
    homg_fluid_desc d = { .nx = 96, .ny = 80, .tol = 1e-6, .max_cycles = 60 };
    homg_fluid *fg, *fc;
    homg_fluid_info ig, ic;
    homg_splat s = { { 0.5, 0.2, 0 }, 0.05, 1.0 };
    assert_int_equal(homg_fluid_create(gpu, &d, &fg), HOMG_OK);
    assert_int_equal(homg_fluid_create(cpu, &d, &fc), HOMG_OK);
    for (int k = 0; k < 10; k++) {
        assert_int_equal(homg_fluid_splat(fg, k & 1 ? HOMG_FLUID_VELOCITY_Y : HOMG_FLUID_DENSITY, &s, 1), HOMG_OK);
        assert_int_equal(homg_fluid_splat(fc, k & 1 ? HOMG_FLUID_VELOCITY_Y : HOMG_FLUID_DENSITY, &s, 1), HOMG_OK);
        assert_int_equal(homg_fluid_step(fg, 0.02, &ig), HOMG_OK);
        assert_int_equal(homg_fluid_step(fc, 0.02, &ic), HOMG_OK);
        /* the FFT projection refines while the divergence halves and stops at
         * float32's floor, which can sit above tol 1e-6 (the step is OK there):
         * 1.9e-6 on the GPU, 2.0e-6 on the CPU at step 2 on the H100 machine */
        if (k == 9 || ig.divergence_left > 1e-6 || ic.divergence_left > 1e-6)
            printf("step %d: divergence left %.2e on the GPU, %.2e on the CPU\n", k, ig.divergence_left,
                   ic.divergence_left);
        assert_true(ic.divergence_left <= 1e-5);
        assert_true(ig.divergence_left <= 1e-5);
    }
    compare("10 steps density", homg_fluid_data(fg, HOMG_FLUID_DENSITY), homg_fluid_data(fc, HOMG_FLUID_DENSITY),
            96 * 80, 1e-3);
    homg_fluid_destroy(fg);
    homg_fluid_destroy(fc);
}

/* With a wall the projection is the counted multigrid (lib/fluid/step.c): on
 * the GPU as on the CPU each step meets tol with one host wait where the count
 * holds, and the densities agree (passed on the H100 at 13:11 with the DCT
 * start, the default then; the default is now the last pressure). */
static void steps_with_a_wall(homg_fluid_start start)
{
    const int nx = 96, ny = 80;
    homg_fluid_desc d = { .nx = nx, .ny = ny, .tol = 1e-3, .start = start };
    homg_fluid *fg, *fc;
    homg_fluid_info ig, ic;
    homg_splat s = { { 0.5, 0.2, 0 }, 0.05, 1.0 };
    unsigned char *wall = calloc((size_t)nx * ny, 1);
    for (int i = nx / 4; i < nx * 3 / 4; i++)
        wall[i + (size_t)nx * (ny / 2)] = wall[i + (size_t)nx * (ny / 2 + 1)] = 1;
    void *wall_dev = to_device(wall, (size_t)nx * ny);
    assert_int_equal(homg_fluid_create(gpu, &d, &fg), HOMG_OK);
    assert_int_equal(homg_fluid_create(cpu, &d, &fc), HOMG_OK);
    assert_int_equal(homg_fluid_set_solid(fg, wall_dev), HOMG_OK);
    assert_int_equal(homg_fluid_set_solid(fc, wall), HOMG_OK);
    for (int k = 0; k < 10; k++) {
        assert_int_equal(homg_fluid_splat(fg, k & 1 ? HOMG_FLUID_VELOCITY_Y : HOMG_FLUID_DENSITY, &s, 1), HOMG_OK);
        assert_int_equal(homg_fluid_splat(fc, k & 1 ? HOMG_FLUID_VELOCITY_Y : HOMG_FLUID_DENSITY, &s, 1), HOMG_OK);
        assert_int_equal(homg_fluid_step(fg, 0.02, &ig), HOMG_OK);
        assert_int_equal(homg_fluid_step(fc, 0.02, &ic), HOMG_OK);
        printf("start %d, wall step %d: GPU %d cycles %d waits %.2e, CPU %d cycles %d waits %.2e\n", (int)start, k,
               ig.cycles, ig.waits, ig.divergence_left, ic.cycles, ic.waits, ic.divergence_left);
        assert_true(ig.divergence_left >= 0 && ig.divergence_left <= 1e-3);
        assert_true(ic.divergence_left >= 0 && ic.divergence_left <= 1e-3);
        assert_int_equal(ig.method, HOMG_METHOD_VCYCLE);
    }
    compare("10 steps with a wall, density", homg_fluid_data(fg, HOMG_FLUID_DENSITY),
            homg_fluid_data(fc, HOMG_FLUID_DENSITY), (size_t)nx * ny, 1e-2);
    homg_fluid_destroy(fg);
    homg_fluid_destroy(fc);
    homg_free(gpu, wall_dev);
    free(wall);
}

static void steps_with_a_wall_match_cpu(void **state)
{
    (void)state;
    steps_with_a_wall(HOMG_FLUID_START_LAST);
}

/* The start 2 p_n - p_n-1 (the divergence's pass extrapolates): the same checks. */
static void steps_extrapolated_with_a_wall_match_cpu(void **state)
{
    (void)state;
    steps_with_a_wall(HOMG_FLUID_START_EXTRAPOLATED);
}

int main(void)
{
    homg_test_require_gpu("test_fluid_gpu");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernels_match_cpu),
        cmocka_unit_test(steps_match_cpu),
        cmocka_unit_test(steps_with_a_wall_match_cpu),
        cmocka_unit_test(steps_extrapolated_with_a_wall_match_cpu),
    };
    return cmocka_run_group_tests(tests, homg_test_setup_pair, homg_test_teardown_pair);
}
#else
int main(void) { return homg_test_no_cuda("test_fluid_gpu"); }
#endif
