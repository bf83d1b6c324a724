/* test_image_poisson.c -- seamless cloning, inpainting, smoothing and integration
 * (lib/image) against the same discrete problems assembled from their
 * definitions as sparse matrices and solved directly in double
 * (tests/util/image_ref.c): every mode, both formulations, masks with holes,
 * several pieces, one pixel, touching and crossing the destination's border, odd
 * sizes, 1-4 channels, 8/16-bit and float images; 8-bit output within one level.
 * The guidance (the right-hand side the kernels build) is also checked against
 * the definition directly, without the solver.  Bad input: clear statuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "homg.h"
#include "image/image_kernels.h"
#include "image_ref.h"
#include "testutil.h"

#define ctx homg_test_cpu /* homg_test_setup_cpu makes it (testutil.h) */

static const char *MODES[] = { "normal", "mixed", "mono" };

/* Whether the grid solves what a kind of call needs (0 textbook clone, 1 OpenCV clone,
 * 2 smoothing, 3 integration): a tiny call of that kind, once.  Where the grid answers
 * UNSUPPORTED (its general solver not merged yet) the test is skipped, loudly, before it
 * allocates anything. */
static int grid_ready(int kind)
{
    static int known[4], ok[4];
    static const char *names[] = { "textbook clone", "OpenCV clone", "smoothing", "integration" };
    if (!known[kind]) {
        unsigned char px[11 * 11 * 3] = { 0 }, m[7 * 7], out[11 * 11 * 3];
        float g[5 * 5 * 2] = { 0 }, h[5 * 5];
        homg_image src = { px, 7, 7, 3, HOMG_PIXEL_U8, 0 }, mask = { m, 7, 7, 1, HOMG_PIXEL_U8, 0 };
        homg_image dst = { px, 11, 11, 3, HOMG_PIXEL_U8, 0 }, o = { out, 11, 11, 3, HOMG_PIXEL_U8, 0 };
        homg_image gi = { g, 5, 5, 2, HOMG_PIXEL_F32, 0 }, ho = { h, 5, 5, 1, HOMG_PIXEL_F32, 0 };
        homg_clone_desc cd = { 0 };
        homg_image_desc id = { 0 };
        homg_status st;
        memset(m, 255, sizeof m);
        cd.formulation = kind == 1 ? HOMG_CLONE_OPENCV : HOMG_CLONE_TEXTBOOK;
        cd.x = cd.y = 2;
        id.lambda = 1;
        st = kind < 2    ? homg_image_clone(ctx, &src, &mask, &dst, &o, &cd, NULL)
             : kind == 2 ? homg_image_smooth(ctx, &dst, &o, &id, NULL)
                         : homg_image_integrate(ctx, &gi, &ho, &id, NULL);
        known[kind] = 1;
        ok[kind] = st != HOMG_ERROR_UNSUPPORTED;
        if (!ok[kind])
            printf("SKIP %s against the direct solve: %s\n", names[kind], homg_ctx_last_error(ctx));
    }
    return ok[kind];
}

#define REQUIRE_GRID(kind)     \
    do {                       \
        if (!grid_ready(kind)) \
            skip();            \
    } while (0)

/* Largest difference in levels (8-bit: 255 per unit; else 1/255 units) between out and the
 * reference u (planes of w*h); pixels outside the solved set must equal dst exactly. */
static double max_level_error(const homg_image *out, const double *u, int truncate, int *exact)
{
    int w = out->width, h = out->height;
    double worst = 0;
    *exact = 0;
    for (int c = 0; c < out->channels; c++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                double ref = u[(size_t)w * h * c + (size_t)y * w + x], got = ref_get(out, x, y, c), e;
                if (out->type == HOMG_PIXEL_U8)
                    e = fabs(got * 255 - ref_level(ref, truncate));
                else if (out->type == HOMG_PIXEL_U16)
                    e = fabs(got - fmin(fmax(ref, 0), 1)) * 255;
                else
                    e = fabs(got - ref) * 255;
                *exact += e < 0.5;
                worst = e > worst ? e : worst;
            }
    return worst;
}

/* One textbook clone against the reference; returns the worst level error. */
static double check_clone(int sw, int sh, int dw, int dh, int channels, homg_pixel_type type, const char *shape, int x,
                          int y, int mode, uint64_t seed)
{
    homg_rng r = homg_rng_seed(seed);
    homg_image src = ref_smooth_image(&r, sw, sh, channels, type),
               dst = ref_random_image(&r, dw, dh, channels, type, 3);
    homg_image mask = ref_mask(shape, sw, sh, &r), out = ref_image_alloc(dw, dh, channels, type);
    homg_clone_desc d = { 0 };
    homg_image_info info;
    double *u = ref_clone(&src, &mask, &dst, x, y, mode, 0), worst;
    int exact;
    d.mode = (homg_clone_mode)mode;
    d.x = x, d.y = y;
    homg_status st = homg_image_clone(ctx, &src, &mask, &dst, &out, &d, &info);
    if (st != HOMG_OK) {
        print_error("clone %s %s %dx%d in %dx%d at (%d,%d), %d ch: %s: %s\n", shape, MODES[mode], sw, sh, dw, dh, x, y,
                    channels, homg_status_string(st), homg_ctx_last_error(ctx));
        fail();
    }
    worst = max_level_error(&out, u, 0, &exact);
    if (worst > 1) {
        print_error("clone %s %s %dx%d in %dx%d at (%d,%d), %d ch, type %d: max error %.3f levels\n", shape,
                    MODES[mode], sw, sh, dw, dh, x, y, channels, (int)type, worst);
        fail();
    }
    free(src.data), free(dst.data), free(mask.data), free(out.data), free(u);
    return worst;
}

/* Every mode, mask classes (holes, pieces, one pixel, ring), 1-4 channels, odd sizes, inside the destination. */
static void clone_textbook_vs_direct(void **state)
{
    REQUIRE_GRID(0);
    static const char *shapes[] = { "disk_hole", "two", "one", "ring", "random" };
    (void)state;
    for (int m = 0; m < 3; m++)
        for (int s = 0; s < 5; s++)
            for (int ch = 1; ch <= 4; ch++)
                check_clone(13 + 2 * s, 11 + s, 31, 27, ch, HOMG_PIXEL_U8, shapes[s], 5 + ch, 4 + m, m,
                            100 * m + 10 * s + ch);
}

/* Masks touching and crossing every side of the destination, and a mask as large as it. */
static void clone_textbook_border(void **state)
{
    REQUIRE_GRID(0);
    static const int at[][2] = { { -4, 3 },  { 20, 5 },  { 6, -5 }, { 7, 18 },
                                 { -3, -3 }, { 22, 19 }, { 0, 0 },  { 15, 14 } };
    (void)state;
    for (int k = 0; k < 8; k++)
        for (int m = 0; m < 3; m++)
            check_clone(15, 13, 29, 25, 3, HOMG_PIXEL_U8, k % 2 ? "disk_hole" : "full", at[k][0], at[k][1], m,
                        7 * k + m);
}

/* 16-bit and float images, a pitch with padding. */
static void clone_types(void **state)
{
    REQUIRE_GRID(0);
    (void)state;
    check_clone(17, 15, 33, 29, 3, HOMG_PIXEL_U16, "disk_hole", 8, 6, HOMG_CLONE_NORMAL, 1);
    check_clone(17, 15, 33, 29, 2, HOMG_PIXEL_F32, "two", 3, 9, HOMG_CLONE_MIXED, 2);
    check_clone(17, 15, 33, 29, 4, HOMG_PIXEL_F32, "random", 12, 10, HOMG_CLONE_MONOCHROME, 3);
}

/* OpenCV's formulation: bounding box, eroded mask, its mixed rule, truncation. */
static void check_clone_cv(int sw, int sh, int channels, const char *shape, int x, int y, int mode, uint64_t seed)
{
    homg_rng r = homg_rng_seed(seed);
    int dw = 41, dh = 37, rx, ry, rw, rh, exact;
    homg_image src = ref_smooth_image(&r, sw, sh, channels, HOMG_PIXEL_U8),
               dst = ref_random_image(&r, dw, dh, channels, HOMG_PIXEL_U8, 0);
    homg_image mask = ref_mask(shape, sw, sh, &r), out = ref_image_alloc(dw, dh, channels, HOMG_PIXEL_U8);
    homg_clone_desc d = { 0 };
    double *u = ref_clone_cv(&src, &mask, &dst, x, y, mode, &rx, &ry, &rw, &rh, NULL), worst;
    d.mode = (homg_clone_mode)mode;
    d.formulation = HOMG_CLONE_OPENCV;
    d.x = x, d.y = y;
    assert_int_equal(homg_image_clone(ctx, &src, &mask, &dst, &out, &d, NULL), HOMG_OK);
    worst = max_level_error(&out, u, 1, &exact);
    if (worst > 1 || exact < 0.9 * dw * dh * channels) {
        print_error("opencv clone %s %s: max error %.0f levels, %d of %d exact\n", shape, MODES[mode], worst, exact,
                    dw * dh * channels);
        fail();
    }
    free(src.data), free(dst.data), free(mask.data), free(out.data), free(u);
}

static void clone_opencv_vs_direct(void **state)
{
    REQUIRE_GRID(1);
    (void)state;
    for (int m = 0; m < 3; m++) {
        check_clone_cv(25, 23, 3, "disk_hole", 6, 5, m, 11 + m);
        check_clone_cv(27, 21, 3, "two", 4, 9, m, 21 + m);
        check_clone_cv(19, 19, 1 + 3 * (m == 1), "full", 10, 12, m == 2 ? 0 : m, 31 + m);
    }
}

/* OpenCV's p (centre of the bounding box) gives the clone at the matching corner. */
static void clone_centered_placement(void **state)
{
    REQUIRE_GRID(0);
    homg_rng r = homg_rng_seed(5);
    homg_image src = ref_smooth_image(&r, 21, 17, 3, HOMG_PIXEL_U8),
               dst = ref_random_image(&r, 40, 36, 3, HOMG_PIXEL_U8, 0);
    homg_image mask = ref_mask("disk_hole", 21, 17, &r), a = ref_image_alloc(40, 36, 3, HOMG_PIXEL_U8),
               b = ref_image_alloc(40, 36, 3, HOMG_PIXEL_U8);
    homg_clone_desc d = { 0 };
    int bx = 21, by = 17, ex = 0, ey = 0;
    (void)state;
    for (int y = 0; y < 17; y++)
        for (int x = 0; x < 21; x++)
            if (((unsigned char *)mask.data)[y * 21 + x])
                bx = x < bx ? x : bx, by = y < by ? y : by, ex = x > ex ? x : ex, ey = y > ey ? y : ey;
    d.x = 7, d.y = 9;
    assert_int_equal(homg_image_clone(ctx, &src, &mask, &dst, &a, &d, NULL), HOMG_OK);
    d.centered = 1;
    d.x = 7 + bx + (ex - bx + 1) / 2, d.y = 9 + by + (ey - by + 1) / 2;
    assert_int_equal(homg_image_clone(ctx, &src, &mask, &dst, &b, &d, NULL), HOMG_OK);
    assert_memory_equal(a.data, b.data, 40 * 36 * 3);
    free(src.data), free(dst.data), free(mask.data), free(a.data), free(b.data);
}

/* Dragging: one clone applied at several placements (warm start) gives each one-shot result. */
static void clone_drag_warm_start(void **state)
{
    REQUIRE_GRID(0);
    homg_rng r = homg_rng_seed(9);
    homg_image src = ref_smooth_image(&r, 19, 15, 3, HOMG_PIXEL_U8),
               dst = ref_random_image(&r, 48, 40, 3, HOMG_PIXEL_U8, 0);
    homg_image mask = ref_mask("disk_hole", 19, 15, &r), out = ref_image_alloc(48, 40, 3, HOMG_PIXEL_U8);
    homg_clone_desc d = { 0 };
    homg_clone *cl;
    int exact;
    (void)state;
    assert_int_equal(homg_clone_create(ctx, &src, &mask, 48, 40, &d, &cl), HOMG_OK);
    /* across the border (a new operator), inside (kept: the same flags), and back */
    static const int at[][2] = {
        { -6, 3 }, { 1, 7 }, { 8, 11 }, { 10, 12 }, { 15, 15 }, { 22, 10 }, { -6, 3 }, { 9, 9 }
    };
    for (int k = 0; k < 8; k++) {
        int x = at[k][0], y = at[k][1];
        double *u = ref_clone(&src, &mask, &dst, x, y, HOMG_CLONE_NORMAL, 0);
        assert_int_equal(homg_clone_apply(cl, &dst, x, y, &out, NULL), HOMG_OK);
        assert_true(max_level_error(&out, u, 0, &exact) <= 1);
        free(u);
    }
    assert_int_equal(homg_clone_set_mode(cl, HOMG_CLONE_MIXED), HOMG_OK);
    {
        double *u = ref_clone(&src, &mask, &dst, 5, 6, HOMG_CLONE_MIXED, 0);
        assert_int_equal(homg_clone_apply(cl, &dst, 5, 6, &out, NULL), HOMG_OK);
        assert_true(max_level_error(&out, u, 0, &exact) <= 1);
        free(u);
    }
    homg_clone_destroy(cl);
    free(src.data), free(dst.data), free(mask.data), free(out.data);
}

/* out may be dst: the blend is done in place. */
static void clone_in_place(void **state)
{
    REQUIRE_GRID(0);
    homg_rng r = homg_rng_seed(13);
    homg_image src = ref_smooth_image(&r, 15, 15, 3, HOMG_PIXEL_U8),
               dst = ref_random_image(&r, 30, 30, 3, HOMG_PIXEL_U8, 0);
    homg_image mask = ref_mask("disk_hole", 15, 15, &r);
    homg_clone_desc d = { 0 };
    double *u = ref_clone(&src, &mask, &dst, 8, 8, HOMG_CLONE_NORMAL, 0);
    int exact;
    (void)state;
    d.x = d.y = 8;
    assert_int_equal(homg_image_clone(ctx, &src, &mask, &dst, &dst, &d, NULL), HOMG_OK);
    assert_true(max_level_error(&dst, u, 0, &exact) <= 1);
    free(src.data), free(dst.data), free(mask.data), free(u);
}

static void inpaint_vs_direct(void **state)
{
    REQUIRE_GRID(0);
    (void)state;
    for (int ch = 1; ch <= 4; ch += 3) {
        homg_rng r = homg_rng_seed(40 + ch);
        homg_image img = ref_random_image(&r, 27, 23, ch, HOMG_PIXEL_U8, 1), mask = ref_mask("two", 27, 23, &r);
        homg_image out = ref_image_alloc(27, 23, ch, HOMG_PIXEL_U8);
        homg_image_desc d = { 0 };
        double *u = ref_clone(&img, &mask, &img, 0, 0, 0, 1);
        int exact;
        assert_int_equal(homg_image_inpaint(ctx, &img, &mask, &out, &d, NULL), HOMG_OK);
        assert_true(max_level_error(&out, u, 0, &exact) <= 1);
        free(img.data), free(mask.data), free(out.data), free(u);
    }
}

static void smooth_vs_direct(void **state)
{
    REQUIRE_GRID(2);
    static const double lambda[] = { 0.05, 1, 3 }, scale[] = { 0, 0.5, 2 };
    (void)state;
    for (int k = 0; k < 3; k++) {
        homg_rng r = homg_rng_seed(50 + k);
        homg_image img = ref_smooth_image(&r, 23, 19, 3, k == 1 ? HOMG_PIXEL_F32 : HOMG_PIXEL_U8);
        homg_image out = ref_image_alloc(23, 19, 3, img.type);
        homg_image_desc d = { 0 };
        double *u = ref_smooth(&img, lambda[k], scale[k]);
        int exact;
        d.lambda = lambda[k], d.scale = scale[k];
        assert_int_equal(homg_image_smooth(ctx, &img, &out, &d, NULL), HOMG_OK);
        assert_true(max_level_error(&out, u, 0, &exact) <= 1);
        free(img.data), free(out.data), free(u);
    }
}

static void integrate_vs_direct(void **state)
{
    REQUIRE_GRID(3);
    (void)state;
    for (int k = 0; k < 3; k++) {
        homg_rng r = homg_rng_seed(60 + k);
        int w = 21 + 2 * k, h = 17 + k;
        homg_image g = k == 0 ? ref_random_image(&r, w, h, 2, HOMG_PIXEL_F32, 0)
                              : ref_smooth_image(&r, w, h, k == 1 ? 3 : 4, HOMG_PIXEL_U8);
        homg_image out = ref_image_alloc(w, h, 1, HOMG_PIXEL_F32);
        homg_image_desc d = { 0 };
        double *u = ref_integrate(&g, k > 0, k == 2), worst = 0, scale = 0;
        d.normal_map = k > 0, d.flip_y = k == 2, d.tol = 1e-9, d.precision = HOMG_FLOAT64;
        assert_int_equal(homg_image_integrate(ctx, &g, &out, &d, NULL), HOMG_OK);
        for (int p = 0; p < w * h; p++) {
            worst = fmax(worst, fabs(((float *)out.data)[p] - u[p]));
            scale = fmax(scale, fabs(u[p]));
        }
        if (worst > 1e-4 * scale + 1e-6) {
            print_error("integrate case %d: max |h - ref| %g of max |ref| %g\n", k, worst, scale);
            fail();
        }
        free(g.data), free(out.data), free(u);
    }
}

/* A known height: its tangent-space normal map (OpenGL's green up: n ~ (-dh/dx, +dh/drow, 1),
 * central differences, float) integrates back to it, mean removed, within 0.5% of its range;
 * with flip_y the map with green down does the same. */
static void integrate_known_height(void **state)
{
    REQUIRE_GRID(3);
    int w = 128, h = 96;
    homg_image nm = ref_image_alloc(w, h, 3, HOMG_PIXEL_F32), out = ref_image_alloc(w, h, 1, HOMG_PIXEL_F32);
    double *ht = malloc(sizeof(double) * w * h), mean = 0;
    (void)state;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            mean += (ht[y * w + x] = 10 * sin(x / 15.0) * cos(y / 20.0)) / (w * h);
    for (int flip = 0; flip < 2; flip++) {
        homg_image_desc d = { 0 };
        double worst = 0;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                float *n = (float *)nm.data + 3 * ((size_t)y * w + x);
                double dx = 10 / 15.0 * cos(x / 15.0) * cos(y / 20.0), dr = -10 / 20.0 * sin(x / 15.0) * sin(y / 20.0);
                double len = sqrt(dx * dx + dr * dr + 1);
                n[0] = (float)(-dx / len), n[1] = (float)((flip ? -dr : dr) / len), n[2] = (float)(1 / len);
            }
        d.normal_map = 1, d.flip_y = flip, d.precision = HOMG_FLOAT64, d.tol = 1e-10;
        assert_int_equal(homg_image_integrate(ctx, &nm, &out, &d, NULL), HOMG_OK);
        for (int k = 0; k < w * h; k++)
            worst = fmax(worst, fabs(((float *)out.data)[k] - (ht[k] - mean)));
        if (worst > 0.1)
            fail_msg("flip_y %d: max |h - h_true| = %g (range 20)", flip, worst);
    }
    free(nm.data), free(out.data), free(ht);
}

/* 1 x 1 images: smoothing keeps the pixel, integration gives height 0. */
static void one_pixel_images(void **state)
{
    unsigned char px[3] = { 10, 200, 77 }, o[3] = { 0 };
    float g[2] = { 3, -2 }, h[1] = { 5 };
    homg_image img = { px, 1, 1, 3, HOMG_PIXEL_U8, 0 }, out = { o, 1, 1, 3, HOMG_PIXEL_U8, 0 };
    homg_image gi = { g, 1, 1, 2, HOMG_PIXEL_F32, 0 }, ho = { h, 1, 1, 1, HOMG_PIXEL_F32, 0 };
    homg_image_desc d = { 0 };
    (void)state;
    REQUIRE_GRID(2);
    d.lambda = 0.3, d.scale = 2;
    assert_int_equal(homg_image_smooth(ctx, &img, &out, &d, NULL), HOMG_OK);
    assert_memory_equal(o, px, 3);
    REQUIRE_GRID(3);
    assert_int_equal(homg_image_integrate(ctx, &gi, &ho, &d, NULL), HOMG_OK);
    assert_true(fabs(h[0]) < 1e-6);
}

/* Rec. 601 luma of an RGB pixel, from its definition. */
static double luma(const homg_image *im, int x, int y)
{
    return 0.299 * ref_get(im, x, y, 0) + 0.587 * ref_get(im, x, y, 1) + 0.114 * ref_get(im, x, y, 2);
}

/* The right-hand sides, flags and cold start the CPU kernel builds, against the definitions (no solver). */
static void guidance_vs_definition(void **state)
{
    (void)state;
    for (int m = 0; m < 3; m++)
        for (int cv = 0; cv < 2; cv++) {
            homg_rng r = homg_rng_seed(70 + m + 3 * cv);
            homg_image src = ref_random_image(&r, 24, 20, 3, HOMG_PIXEL_U8, 2),
                       dst = ref_random_image(&r, 40, 33, 3, HOMG_PIXEL_U8, 0);
            homg_image mask = ref_mask(cv ? "full" : "random", 24, 20, &r);
            int x = 9, y = 6, rx, ry, rw, rh, gw, gh, sx, sy;
            double *rhs = NULL, *u = cv ? ref_clone_cv(&src, &mask, &dst, x, y, m, &rx, &ry, &rw, &rh, &rhs) : NULL;
            image_setup_args a;
            kernel_exec ex;
            memset(&a, 0, sizeof a);
            memset(&ex, 0, sizeof ex);
            gw = cv ? rw : 26, gh = cv ? rh : 22, sx = cv ? rx - x : -1, sy = cv ? ry - y : -1;
            a.problem = cv ? IMAGE_CLONE_CV : IMAGE_CLONE;
            a.mode = m, a.src = src, a.mask = mask, a.dst = dst;
            a.gw = gw, a.gh = gh, a.sx = sx, a.sy = sy, a.ox = x + sx, a.oy = y + sy;
            a.precision = HOMG_FLOAT64, a.init_active = 1, a.start_src = 1;
            a.flags = malloc((size_t)gw * gh);
            a.f = malloc(sizeof(double) * gw * gh * 3);
            a.u = malloc(sizeof(double) * gw * gh * 3);
            a.eroded = malloc((size_t)gw * gh);
            assert_int_equal(homg_cpu_image_erode(&ex, mask, sx, sy, gw, gh, (unsigned char *)a.eroded), HOMG_OK);
            assert_int_equal(homg_cpu_image_setup(&ex, &a), HOMG_OK);
            for (int c = 0; c < 3; c++)
                for (int j = 0; j < gh; j++)
                    for (int i = 0; i < gw; i++) {
                        size_t k = (size_t)j * gw + i;
                        int px = a.ox + i, py = a.oy + j, active = a.flags[k] == HOMG_CELL_ACTIVE;
                        double f = ((double *)a.f)[k + (size_t)gw * gh * c], want;
                        if (cv) {
                            assert_int_equal(active, i > 0 && j > 0 && i < gw - 1 && j < gh - 1);
                            want = active ? rhs[(size_t)gw * gh * c + k] : 0;
                        } else {
                            int in = sx + i >= 0 && sy + j >= 0 && sx + i < 24 && sy + j < 20 &&
                                     ((unsigned char *)mask.data)[(sy + j) * 24 + sx + i];
                            assert_int_equal(active, in);
                            want = in ? ref_clone_guidance_sum(&src, &mask, &dst, x, y, m, 0, px, py, c) : 0;
                        }
                        if (fabs(f - want) > 1e-12) {
                            print_error("%s %s: f at cell (%d, %d) ch %d is %.15g, definition %.15g\n",
                                        cv ? "opencv" : "textbook", MODES[m], i, j, c, f, want);
                            fail();
                        }
                        if (a.flags[k] == HOMG_CELL_FIXED)
                            assert_true(fabs(((double *)a.u)[k + (size_t)gw * gh * c] - ref_get(&dst, px, py, c)) <
                                        1e-12);
                        if (active) /* the cold start: the source (its luma for monochrome); mixed, OpenCV: dst */
                            assert_true(fabs(((double *)a.u)[k + (size_t)gw * gh * c] -
                                             (cv || m == HOMG_CLONE_MIXED  ? ref_get(&dst, px, py, c)
                                              : m == HOMG_CLONE_MONOCHROME ? luma(&src, sx + i, sy + j)
                                                                           : ref_get(&src, sx + i, sy + j, c))) <
                                        1e-12);
                    }
            free(a.flags), free(a.f), free(a.u), free((void *)a.eroded), free(rhs), free(u);
            free(src.data), free(dst.data), free(mask.data);
        }
}

static void expect(homg_status got, homg_status want, const char *words)
{
    if (got != want || !strstr(homg_ctx_last_error(ctx), words)) {
        print_error("status %s, message '%s'; expected %s with '%s'\n", homg_status_string(got),
                    homg_ctx_last_error(ctx), homg_status_string(want), words);
        fail();
    }
}

static void bad_input(void **state)
{
    homg_rng r = homg_rng_seed(3);
    homg_image src = ref_random_image(&r, 10, 8, 3, HOMG_PIXEL_U8, 0),
               dst = ref_random_image(&r, 20, 16, 3, HOMG_PIXEL_U8, 0);
    homg_image mask = ref_mask("disk_hole", 10, 8, &r), empty = ref_mask("disk_hole", 10, 8, &r),
               small = ref_mask("full", 9, 8, &r);
    homg_image out = ref_image_alloc(20, 16, 3, HOMG_PIXEL_U8), out2 = ref_image_alloc(19, 16, 3, HOMG_PIXEL_U8);
    homg_image one = ref_image_alloc(1, 1, 3, HOMG_PIXEL_U8), one_mask = ref_mask("full", 1, 1, &r),
               one_out = ref_image_alloc(1, 1, 3, HOMG_PIXEL_U8);
    homg_image full_dst = ref_random_image(&r, 10, 8, 3, HOMG_PIXEL_U8, 0), full_mask = ref_mask("full", 10, 8, &r);
    homg_clone_desc d = { 0 };
    homg_image_desc id = { 0 };
    (void)state;
    memset(empty.data, 0, 80);
    expect(homg_image_clone(ctx, &src, &mask, &dst, &out2, &d, NULL), HOMG_ERROR_INVALID_ARGUMENT, "out is 19 x 16");
    expect(homg_image_clone(ctx, &src, &empty, &dst, &out, &d, NULL), HOMG_ERROR_INVALID_ARGUMENT, "mask is empty");
    expect(homg_image_clone(ctx, &src, &small, &dst, &out, &d, NULL), HOMG_ERROR_INVALID_ARGUMENT, "mask is 9 x 8");
    d.x = 30;
    expect(homg_image_clone(ctx, &src, &mask, &dst, &out, &d, NULL), HOMG_ERROR_INVALID_ARGUMENT, "entirely outside");
    d.x = -2000000000, d.y = 2000000000;
    expect(homg_image_clone(ctx, &src, &mask, &dst, &out, &d, NULL), HOMG_ERROR_INVALID_ARGUMENT, "entirely outside");
    d.x = d.y = 0;
    expect(homg_image_clone(ctx, &src, &full_mask, &full_dst, &full_dst, &d, NULL), HOMG_ERROR_INVALID_ARGUMENT,
           "covers the whole");
    expect(homg_image_clone(ctx, &one, &one_mask, &one, &one_out, &d, NULL), HOMG_ERROR_INVALID_ARGUMENT,
           "covers the whole");
    src.channels = 5;
    expect(homg_image_clone(ctx, &src, &mask, &dst, &out, &d, NULL), HOMG_ERROR_INVALID_ARGUMENT, "src.channels is 5");
    src.channels = 3;
    out.channels = 1;
    expect(homg_image_clone(ctx, &src, &mask, &dst, &out, &d, NULL), HOMG_ERROR_INVALID_ARGUMENT, "out.channels is 1");
    out.channels = 3;
    dst.pitch = 7;
    expect(homg_image_clone(ctx, &src, &mask, &dst, &out, &d, NULL), HOMG_ERROR_INVALID_ARGUMENT, "dst.pitch");
    dst.pitch = 0;
    expect(homg_image_clone(ctx, &src, &mask, NULL, &out, &d, NULL), HOMG_ERROR_INVALID_ARGUMENT, "dst is NULL");
    expect(homg_image_smooth(ctx, &dst, &out, &id, NULL), HOMG_ERROR_INVALID_ARGUMENT, "lambda is 0");
    id.lambda = NAN;
    expect(homg_image_smooth(ctx, &dst, &out, &id, NULL), HOMG_ERROR_INVALID_ARGUMENT, "lambda is nan");
    id.lambda = 1;
    expect(homg_image_integrate(ctx, &dst, &out, &id, NULL), HOMG_ERROR_INVALID_ARGUMENT, "grad.channels is 3");
    id.normal_map = 1;
    expect(homg_image_integrate(ctx, &dst, &out, &id, NULL), HOMG_ERROR_INVALID_ARGUMENT, "out.type");
    expect(homg_image_inpaint(ctx, &dst, &mask, &out, NULL, NULL), HOMG_ERROR_INVALID_ARGUMENT, "mask is 10 x 8");
    free(src.data), free(dst.data), free(mask.data), free(empty.data), free(small.data), free(out.data);
    free(out2.data), free(one.data), free(one_mask.data), free(one_out.data), free(full_dst.data), free(full_mask.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(guidance_vs_definition),
        cmocka_unit_test(bad_input),
        cmocka_unit_test(clone_textbook_vs_direct),
        cmocka_unit_test(clone_textbook_border),
        cmocka_unit_test(clone_types),
        cmocka_unit_test(clone_opencv_vs_direct),
        cmocka_unit_test(clone_centered_placement),
        cmocka_unit_test(clone_drag_warm_start),
        cmocka_unit_test(clone_in_place),
        cmocka_unit_test(inpaint_vs_direct),
        cmocka_unit_test(smooth_vs_direct),
        cmocka_unit_test(integrate_vs_direct),
        cmocka_unit_test(one_pixel_images),
        cmocka_unit_test(integrate_known_height),
    };
    return cmocka_run_group_tests(tests, homg_test_setup_cpu, homg_test_teardown_cpu);
}
