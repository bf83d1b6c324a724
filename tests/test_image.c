/* test_image.c -- homg_write_png: the colour map's end points and middle, the flip
 * to image rows, the automatic range, NaN and Inf, and bad input.  Pictures are read
 * back with stb_image (libstb), independently of the writer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <stb/stb_image.h>

#include "homg.h"
#include "testutil.h"

/* The three colours homg.h promises: low end, middle, high end. */
static const unsigned char LOW[3] = { 68, 1, 84 }, MID[3] = { 33, 144, 140 }, HIGH[3] = { 253, 231, 37 },
                           BLACK[3] = { 0, 0, 0 };

#define ctx homg_test_cpu /* homg_test_setup_cpu_dir makes both (testutil.h) */
#define dir homg_test_dir

static int exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* Writes v (nx x ny) and reads the picture back as RGB; checks its size. */
static unsigned char *write_and_read(const double *v, int nx, int ny, double lo, double hi)
{
    const char *path = homg_test_tmp("t.png");
    int w = 0, h = 0, comp = 0;
    unsigned char *img;
    assert_int_equal(homg_write_png(ctx, path, v, nx, ny, lo, hi), HOMG_OK);
    assert_string_equal(homg_ctx_last_error(ctx), "");
    img = stbi_load(path, &w, &h, &comp, 3);
    assert_non_null(img);
    assert_int_equal(w, nx);
    assert_int_equal(h, ny);
    assert_int_equal(comp, 3);
    assert_int_equal(remove(path), 0);
    return img;
}

/* Pixel (x, row) of an RGB image of width w, row 0 at the top. */
static void assert_pixel(const unsigned char *img, int w, int x, int row, const unsigned char rgb[3])
{
    const unsigned char *p = img + 3 * ((size_t)row * w + x);
    if (p[0] != rgb[0] || p[1] != rgb[1] || p[2] != rgb[2]) {
        print_error("pixel (%d, %d) is (%d, %d, %d), expected (%d, %d, %d)\n", x, row, p[0], p[1], p[2], rgb[0], rgb[1],
                    rgb[2]);
        fail();
    }
}

/* A gradient in x over [0, 8] with lo = 0, hi = 8: the ends and the middle are the
 * promised colours; brightness (Rec. 601 luma) rises strictly along the map. */
static void gradient_end_points_and_middle(void **state)
{
    enum { NX = 257, NY = 3 };
    double v[NX * NY];
    unsigned char *img;
    (void)state;
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++)
            v[i + NX * j] = 8.0 * i / (NX - 1);
    img = write_and_read(v, NX, NY, 0, 8);
    for (int row = 0; row < NY; row++) {
        assert_pixel(img, NX, 0, row, LOW);
        assert_pixel(img, NX, NX / 2, row, MID);
        assert_pixel(img, NX, NX - 1, row, HIGH);
    }
    for (int i = 8; i < NX; i += 8) {
        const unsigned char *a = img + 3 * (i - 8), *b = img + 3 * i;
        assert_true(299 * b[0] + 587 * b[1] + 114 * b[2] > 299 * a[0] + 587 * a[1] + 114 * a[2]);
    }
    stbi_image_free(img);
}

/* Row j = 0 is the bottom of the domain: the image's first row is the top (j = ny-1). */
static void rows_are_flipped(void **state)
{
    const double v[2 * 3] = { 0, 0, 1, 1, 2, 2 }; /* v = j */
    unsigned char *img;
    (void)state;
    img = write_and_read(v, 2, 3, 0, 2);
    for (int x = 0; x < 2; x++) {
        assert_pixel(img, 2, x, 0, HIGH);
        assert_pixel(img, 2, x, 1, MID);
        assert_pixel(img, 2, x, 2, LOW);
    }
    stbi_image_free(img);
}

/* lo == hi: the range of the finite values; NaN and Inf neither widen it nor break it. */
static void auto_range_ignores_non_finite(void **state)
{
    const double v[7] = { -3, NAN, 1, INFINITY, 5, -INFINITY, 5 };
    unsigned char *img;
    (void)state;
    img = write_and_read(v, 7, 1, 0, 0);
    assert_pixel(img, 7, 0, 0, LOW);
    assert_pixel(img, 7, 1, 0, BLACK);
    assert_pixel(img, 7, 2, 0, MID);
    assert_pixel(img, 7, 3, 0, HIGH);
    assert_pixel(img, 7, 4, 0, HIGH);
    assert_pixel(img, 7, 5, 0, LOW);
    assert_pixel(img, 7, 6, 0, HIGH);
    stbi_image_free(img);
    /* the same field with lo = -3, hi = 5 given explicitly */
    img = write_and_read(v, 7, 1, -3, 5);
    assert_pixel(img, 7, 0, 0, LOW);
    assert_pixel(img, 7, 2, 0, MID);
    assert_pixel(img, 7, 4, 0, HIGH);
    stbi_image_free(img);
}

/* A constant field maps to the middle; an all-NaN field is black; a 1 x 1 picture works. */
static void constant_and_nan_fields(void **state)
{
    const double c[6] = { 2.5, 2.5, 2.5, 2.5, 2.5, 2.5 }, n[4] = { NAN, NAN, NAN, NAN }, one = -7;
    unsigned char *img;
    (void)state;
    img = write_and_read(c, 3, 2, 0, 0);
    for (int k = 0; k < 6; k++)
        assert_pixel(img, 3, k % 3, k / 3, MID);
    stbi_image_free(img);
    img = write_and_read(n, 2, 2, 0, 0);
    for (int k = 0; k < 4; k++)
        assert_pixel(img, 2, k % 2, k / 2, BLACK);
    stbi_image_free(img);
    img = write_and_read(&one, 1, 1, 0, 0);
    assert_pixel(img, 1, 0, 0, MID);
    stbi_image_free(img);
}

/* Values beyond an explicit range clamp to its ends; lo > hi reverses the map. */
static void explicit_range_clamps_and_reverses(void **state)
{
    const double v[4] = { -100, 0, 1, 100 };
    unsigned char *img;
    (void)state;
    img = write_and_read(v, 4, 1, 0, 1);
    assert_pixel(img, 4, 0, 0, LOW);
    assert_pixel(img, 4, 1, 0, LOW);
    assert_pixel(img, 4, 2, 0, HIGH);
    assert_pixel(img, 4, 3, 0, HIGH);
    stbi_image_free(img);
    img = write_and_read(v, 4, 1, 1, 0);
    assert_pixel(img, 4, 0, 0, HIGH);
    assert_pixel(img, 4, 1, 0, HIGH);
    assert_pixel(img, 4, 2, 0, LOW);
    assert_pixel(img, 4, 3, 0, LOW);
    stbi_image_free(img);
}

static void expect_error(homg_status got, homg_status want, const char *msg_part)
{
    assert_int_equal(got, want);
    if (!strstr(homg_ctx_last_error(ctx), msg_part)) {
        print_error("message '%s' does not mention '%s'\n", homg_ctx_last_error(ctx), msg_part);
        fail();
    }
}

static void bad_input(void **state)
{
    const double v[4] = { 0, 1, 2, 3 };
    const char *path = homg_test_tmp("bad.png");
    (void)state;
    assert_int_equal(homg_write_png(NULL, path, v, 2, 2, 0, 0), HOMG_ERROR_INVALID_ARGUMENT);
    expect_error(homg_write_png(ctx, NULL, v, 2, 2, 0, 0), HOMG_ERROR_INVALID_ARGUMENT, "path is NULL");
    expect_error(homg_write_png(ctx, "", v, 2, 2, 0, 0), HOMG_ERROR_INVALID_ARGUMENT, "path is empty");
    expect_error(homg_write_png(ctx, path, NULL, 2, 2, 0, 0), HOMG_ERROR_INVALID_ARGUMENT, "host_values is NULL");
    expect_error(homg_write_png(ctx, path, v, 0, 2, 0, 0), HOMG_ERROR_INVALID_ARGUMENT, "0 x 2 pixels");
    expect_error(homg_write_png(ctx, path, v, 2, -1, 0, 0), HOMG_ERROR_INVALID_ARGUMENT, "2 x -1 pixels");
    expect_error(homg_write_png(ctx, path, v, 65537, 1, 0, 0), HOMG_ERROR_INVALID_ARGUMENT, "65537 x 1 pixels");
    /* 2^32 pixels: each side is allowed, the product is not (and would overflow int) */
    expect_error(homg_write_png(ctx, path, v, 65536, 65536, 0, 0), HOMG_ERROR_INVALID_ARGUMENT, "at most 2^28");
    expect_error(homg_write_png(ctx, path, v, 2, 2, NAN, 1), HOMG_ERROR_INVALID_ARGUMENT, "must be finite");
    expect_error(homg_write_png(ctx, path, v, 2, 2, 0, INFINITY), HOMG_ERROR_INVALID_ARGUMENT, "must be finite");
    assert_false(exists(path));
}

static void unwritable_paths(void **state)
{
    const double v[4] = { 0, 1, 2, 3 };
    char missing[160];
    (void)state;
    snprintf(missing, sizeof missing, "%s/no/such/dir/x.png", dir);
    expect_error(homg_write_png(ctx, missing, v, 2, 2, 0, 0), HOMG_ERROR_IO, missing);
    expect_error(homg_write_png(ctx, dir, v, 2, 2, 0, 0), HOMG_ERROR_IO, dir);
    /* a device that accepts the open and fails the write; it must not be removed */
    if (exists("/dev/full")) {
        expect_error(homg_write_png(ctx, "/dev/full", v, 2, 2, 0, 0), HOMG_ERROR_IO, "/dev/full: write failed");
        assert_true(exists("/dev/full"));
    }
    /* the context is usable afterwards and the message is cleared */
    stbi_image_free(write_and_read(v, 2, 2, 0, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gradient_end_points_and_middle),
        cmocka_unit_test(rows_are_flipped),
        cmocka_unit_test(auto_range_ignores_non_finite),
        cmocka_unit_test(constant_and_nan_fields),
        cmocka_unit_test(explicit_range_clamps_and_reverses),
        cmocka_unit_test(bad_input),
        cmocka_unit_test(unwritable_paths),
    };
    return cmocka_run_group_tests(tests, homg_test_setup_cpu_dir, homg_test_teardown_cpu_dir);
}
