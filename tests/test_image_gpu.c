/* test_image_gpu.c -- the image kernels on CUDA (kernels/image/image.cu) against
 * their CPU twins (image.c) on random images: the set-up of every problem
 * (textbook and OpenCV clones in every mode, inpainting) with placements that
 * cross the destination's border, 8/16-bit and float pixels with padded pitches,
 * both precisions; OpenCV's erosion; writing a field into an image (rounded,
 * truncated, with and without flags); the pitched copy; smoothing's and
 * integration's right-hand sides.  A clone dragged on CUDA (across the border and
 * back, warm started) against the direct solution of each placement.  Skips
 * (exit 77) without a CUDA device. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "image/image_kernels.h"
#include "image/image_point.h"
#include "image_ref.h"
#include "testutil.h"

#if HOMG_HAVE_CUDA
#define gpu homg_test_gpu /* the pair homg_test_setup_pair makes (testutil.h) */
#define cpu homg_test_cpu

/* pitch 0 means rows packed: the resolved pitch, as the kernels use it */
static size_t bytes_of(const homg_image *im) { return img_pitch(im) * (size_t)im->height; }

/* A device copy of a host image (same pitch). */
static homg_image to_gpu(const homg_image *h)
{
    homg_image d = *h;
    assert_int_equal(homg_alloc(gpu, bytes_of(h), &d.data), HOMG_OK);
    assert_int_equal(homg_copy_from_host(gpu, d.data, h->data, bytes_of(h)), HOMG_OK);
    return d;
}

static void *dev_alloc(size_t bytes)
{
    void *p, *zero = calloc(bytes, 1);
    assert_int_equal(homg_alloc(gpu, bytes, &p), HOMG_OK);
    assert_int_equal(homg_copy_from_host(gpu, p, zero, bytes), HOMG_OK);
    free(zero);
    return p;
}

static void *from_gpu(const void *d, size_t bytes)
{
    void *h = malloc(bytes);
    assert_int_equal(homg_copy_to_host(gpu, h, d, bytes), HOMG_OK);
    return h;
}

static void compare_fields(const char *what, const void *a, const void *b, size_t n, homg_precision p)
{
    double tol = p == HOMG_FLOAT64 ? 1e-12 : 1e-5;
    for (size_t k = 0; k < n; k++) {
        double x = p == HOMG_FLOAT64 ? ((const double *)a)[k] : ((const float *)a)[k];
        double y = p == HOMG_FLOAT64 ? ((const double *)b)[k] : ((const float *)b)[k];
        if (!(fabs(x - y) <= tol * (1 + fabs(y))))
            fail_msg("%s[%zu]: CUDA %.17g, CPU %.17g", what, k, x, y);
    }
}

/* Two images written by the store kernel: the same but for rounding at exact half levels
 * (a fused multiply-add on the GPU): at most one level apart, in at most 0.1% of the values. */
static void compare_images(const homg_image *cpu_img, const void *gpu_bytes)
{
    homg_image g = *cpu_img;
    size_t off = 0, n = 0;
    g.data = (void *)gpu_bytes;
    for (int y = 0; y < g.height; y++)
        for (int x = 0; x < g.width; x++)
            for (int c = 0; c < g.channels; c++) {
                double a = ref_get(&g, x, y, c), b = ref_get(cpu_img, x, y, c);
                double level = g.type == HOMG_PIXEL_U8 ? 1 / 255.0 : g.type == HOMG_PIXEL_U16 ? 1 / 65535.0 : 0;
                n++;
                if (a == b)
                    continue;
                if (level == 0 || fabs(a - b) > level * 1.0001)
                    fail_msg("store: pixel (%d, %d) channel %d: CUDA %.9g, CPU %.9g", x, y, c, a, b);
                off++;
            }
    if (off > n / 1000)
        fail_msg("store: %zu of %zu values one level apart", off, n);
}

/* One set-up on both backends with the same arguments. */
static void setup_twin(image_problem problem, int mode, homg_pixel_type type, homg_precision prec, int ox, int oy,
                       uint64_t seed)
{
    homg_rng r = homg_rng_seed(seed);
    int ch = 1 + (int)(seed % 4), gw = 37, gh = 29, sx = -1, sy = -1;
    homg_image src = ref_random_image(&r, 35, 27, ch, type, 5), dst = ref_random_image(&r, 61, 45, ch, type, 3);
    homg_image mask = ref_mask(seed % 2 ? "random" : "disk_hole", 35, 27, &r);
    size_t n = (size_t)gw * gh, es = prec == HOMG_FLOAT64 ? 8 : 4;
    image_setup_args a, g;
    memset(&a, 0, sizeof a);
    a.problem = problem, a.mode = mode, a.src = src, a.mask = mask, a.dst = dst;
    a.gw = gw, a.gh = gh, a.ox = ox, a.oy = oy, a.sx = problem == IMAGE_CLONE_CV ? 0 : sx,
    a.sy = problem == IMAGE_CLONE_CV ? 0 : sy;
    a.precision = prec, a.init_active = (int)(seed % 3 == 0), a.start_src = (int)(seed % 2);
    a.flags = calloc(n, 1), a.f = calloc(n * ch, es), a.u = calloc(n * ch, es), a.eroded = calloc(n, 1);
    g = a;
    g.src = to_gpu(&src), g.mask = to_gpu(&mask), g.dst = to_gpu(&dst);
    g.flags = dev_alloc(n), g.f = dev_alloc(n * ch * es), g.u = dev_alloc(n * ch * es), g.eroded = dev_alloc(n);
    assert_int_equal(homg_cpu_image_erode(&cpu->ex, mask, a.sx, a.sy, gw, gh, (unsigned char *)a.eroded), HOMG_OK);
    assert_int_equal(homg_cuda_image_erode(&gpu->ex, g.mask, a.sx, a.sy, gw, gh, (unsigned char *)g.eroded), HOMG_OK);
    assert_int_equal(homg_cpu_image_setup(&cpu->ex, &a), HOMG_OK);
    assert_int_equal(homg_cuda_image_setup(&gpu->ex, &g), HOMG_OK);
    {
        unsigned char *fl = from_gpu(g.flags, n), *er = from_gpu(g.eroded, n);
        void *f = from_gpu(g.f, n * ch * es), *u = from_gpu(g.u, n * ch * es);
        assert_memory_equal(fl, a.flags, n);
        assert_memory_equal(er, a.eroded, n);
        compare_fields("f", f, a.f, n * ch, prec);
        compare_fields("u", u, a.u, n * ch, prec);
        free(fl), free(er), free(f), free(u);
    }
    homg_free(gpu, g.src.data), homg_free(gpu, g.mask.data), homg_free(gpu, g.dst.data);
    homg_free(gpu, g.flags), homg_free(gpu, g.f), homg_free(gpu, g.u), homg_free(gpu, (void *)g.eroded);
    free(a.flags), free(a.f), free(a.u), free((void *)a.eroded), free(src.data), free(dst.data), free(mask.data);
}

static void setup_matches_cpu(void **state)
{
    static const int at[][2] = { { 10, 8 }, { -9, -7 }, { 40, 30 }, { 3, 25 } };
    uint64_t seed = 1;
    (void)state;
    for (int pb = 0; pb < 3; pb++)
        for (int m = 0; m < 3; m++)
            for (int t = 0; t < 3; t++)
                for (int k = 0; k < 4; k++, seed++)
                    setup_twin((image_problem)pb, m, (homg_pixel_type)t, (k % 2) ? HOMG_FLOAT64 : HOMG_FLOAT32,
                               at[k][0], at[k][1], seed);
}

/* store, copy, smooth and integrate set-ups. */
static void whole_image_kernels_match_cpu(void **state)
{
    (void)state;
    for (int t = 0; t < 3; t++)
        for (int p = 0; p < 2; p++) {
            homg_rng r = homg_rng_seed(100 + 2 * t + p);
            homg_pixel_type type = (homg_pixel_type)t;
            homg_precision prec = p ? HOMG_FLOAT64 : HOMG_FLOAT32;
            int w = 53, h = 41, ch = 3, gw = 30, gh = 20;
            size_t n = (size_t)w * h, es = p ? 8 : 4, gn = (size_t)gw * gh;
            homg_image img = ref_random_image(&r, w, h, ch, type, 7), dimg = to_gpu(&img);
            homg_image out = ref_random_image(&r, w, h, ch, type, 1), dout = to_gpu(&out);
            void *f = calloc(n * ch, es), *u = calloc(n * ch, es), *df = dev_alloc(n * ch * es),
                 *du = dev_alloc(n * ch * es);
            unsigned char *flags = malloc(gn), *dflags;
            double *field = malloc(gn * ch * es);
            for (size_t k = 0; k < gn; k++)
                flags[k] = (unsigned char)(homg_rng_uniform(&r) * 3);
            for (size_t k = 0; k < gn * ch; k++) {
                double v = 1.4 * homg_rng_uniform(&r) - 0.2;
                if (p)
                    ((double *)field)[k] = v;
                else
                    ((float *)field)[k] = (float)v;
            }
            dflags = dev_alloc(gn);
            assert_int_equal(homg_copy_from_host(gpu, dflags, flags, gn), HOMG_OK);
            void *dfield = dev_alloc(gn * ch * es);
            assert_int_equal(homg_copy_from_host(gpu, dfield, field, gn * ch * es), HOMG_OK);
            /* smoothing */
            assert_int_equal(homg_cpu_image_smooth_setup(&cpu->ex, img, 0.7, 1.5, prec, f, u), HOMG_OK);
            assert_int_equal(homg_cuda_image_smooth_setup(&gpu->ex, dimg, 0.7, 1.5, prec, df, du), HOMG_OK);
            void *hf = from_gpu(df, n * ch * es), *hu = from_gpu(du, n * ch * es);
            compare_fields("smooth f", hf, f, n * ch, prec);
            compare_fields("smooth u", hu, u, n * ch, prec);
            free(hf), free(hu);
            /* integration (a normal map and, from channels 0-1, a gradient image) */
            for (int nm = 0; nm < 2; nm++) {
                homg_image gimg = img, dg = dimg;
                if (!nm)
                    gimg.channels = dg.channels = 2, gimg.pitch = dg.pitch = img.pitch; /* reads channels 0, 1 of 2 */
                assert_int_equal(homg_cpu_image_integrate_setup(&cpu->ex, gimg, nm, nm, prec, f), HOMG_OK);
                assert_int_equal(homg_cuda_image_integrate_setup(&gpu->ex, dg, nm, nm, prec, df), HOMG_OK);
                hf = from_gpu(df, n * es);
                compare_fields("integrate f", hf, f, n, prec);
                free(hf);
            }
            /* store into out at an offset crossing its border, rounded and truncated */
            for (int tr = 0; tr < 2; tr++) {
                assert_int_equal(
                    homg_cpu_image_store(&cpu->ex, field, prec, gw, gh, tr ? NULL : flags, 31, -5, out, tr), HOMG_OK);
                assert_int_equal(
                    homg_cuda_image_store(&gpu->ex, dfield, prec, gw, gh, tr ? NULL : dflags, 31, -5, dout, tr),
                    HOMG_OK);
                unsigned char *ho = from_gpu(dout.data, bytes_of(&out));
                compare_images(&out, ho);
                free(ho);
            }
            /* pitched copy */
            assert_int_equal(homg_cpu_image_copy(&cpu->ex, img, out), HOMG_OK);
            assert_int_equal(homg_cuda_image_copy(&gpu->ex, dimg, dout), HOMG_OK);
            {
                unsigned char *ho = from_gpu(dout.data, bytes_of(&out));
                assert_memory_equal(ho, out.data, bytes_of(&out));
                free(ho);
            }
            homg_free(gpu, dimg.data), homg_free(gpu, dout.data), homg_free(gpu, df), homg_free(gpu, du);
            homg_free(gpu, dflags), homg_free(gpu, dfield);
            free(img.data), free(out.data), free(f), free(u), free(flags), free(field);
        }
}

/* Dragging on CUDA, warm started, against the direct solution of each placement:
 * placements that cross the border (a new operator: the grid keeps its captured
 * graphs), move inside (the operator is kept) and cross back; to the default
 * tolerance and with a fixed number of cycles (no host sync). */
static void clone_drag_vs_direct(void **state)
{
    static const int at[][2] = {
        { -6, 3 }, { 1, 7 }, { 8, 11 }, { 10, 12 }, { 12, 9 }, { 33, 20 }, { -6, 3 }, { 9, 9 }
    };
    homg_rng r = homg_rng_seed(19);
    homg_image src = ref_smooth_image(&r, 19, 15, 3, HOMG_PIXEL_U8),
               dst = ref_random_image(&r, 48, 40, 3, HOMG_PIXEL_U8, 0);
    homg_image mask = ref_mask("disk_hole", 19, 15, &r), out = ref_image_alloc(48, 40, 3, HOMG_PIXEL_U8);
    homg_image dsrc = to_gpu(&src), ddst = to_gpu(&dst), dmask = to_gpu(&mask), dout = to_gpu(&out);
    (void)state;
    for (int fixed = 0; fixed < 2; fixed++) {
        homg_clone_desc d = { 0 };
        homg_clone *cl;
        d.tol = fixed ? -1 : 0, d.max_cycles = fixed ? 12 : 0;
        assert_int_equal(homg_clone_create(gpu, &dsrc, &dmask, 48, 40, &d, &cl), HOMG_OK);
        for (int k = 0; k < 8; k++) {
            double *u = ref_clone(&src, &mask, &dst, at[k][0], at[k][1], HOMG_CLONE_NORMAL, 0);
            unsigned char *h;
            assert_int_equal(homg_clone_apply(cl, &ddst, at[k][0], at[k][1], &dout, NULL), HOMG_OK);
            h = from_gpu(dout.data, bytes_of(&out));
            for (size_t q = 0; q < (size_t)48 * 40 * 3; q++) {
                int c = (int)(q % 3), x = (int)(q / 3 % 48), y = (int)(q / 3 / 48);
                int want = ref_level(u[(size_t)48 * 40 * c + (size_t)y * 48 + x], 0);
                if (abs(h[q] - want) > 1)
                    fail_msg("drag %s, placement %d (%d, %d): pixel (%d, %d) channel %d: %d, direct %d",
                             fixed ? "fixed cycles" : "to tol", k, at[k][0], at[k][1], x, y, c, h[q], want);
            }
            free(h), free(u);
        }
        homg_clone_destroy(cl);
    }
    homg_free(gpu, dsrc.data), homg_free(gpu, ddst.data), homg_free(gpu, dmask.data), homg_free(gpu, dout.data);
    free(src.data), free(dst.data), free(mask.data), free(out.data);
}
#endif

int main(void)
{
    homg_test_require_gpu("test_image_gpu");
#if HOMG_HAVE_CUDA
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(setup_matches_cpu),
        cmocka_unit_test(whole_image_kernels_match_cpu),
        cmocka_unit_test(clone_drag_vs_direct),
    };
    return cmocka_run_group_tests(tests, homg_test_setup_pair, homg_test_teardown_pair);
#else
    return HOMG_TEST_SKIP;
#endif
}
