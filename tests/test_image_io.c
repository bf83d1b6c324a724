/* test_image_io.c -- image files (lib/image/io.c): round trips through PNG (8 and
 * 16-bit, 1-4 channels, a padded pitch), JPEG and HDR; BMP, TGA, PSD and PGM
 * files made by stb_image_write or by hand (tests/fuzz/corpus/image, from
 * tools/dev/image_corpus.c) read back; 16-bit PNGs checked with stb_image
 * independently of homg's writer; unreadable, empty, truncated and oversized files
 * (a 65536 x 65536 header refused before any allocation), bad arguments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stb/stb_image.h>
#include <stb/stb_image_write.h>

#include "homg.h"
#include "image_ref.h"
#include "testutil.h"

#define CORPUS "tests/fuzz/corpus/image/"

#define ctx homg_test_cpu /* homg_test_setup_cpu_dir makes both (testutil.h) */
#define dir homg_test_dir

static void expect(homg_status got, homg_status want, const char *words)
{
    if (got != want || !strstr(homg_ctx_last_error(ctx), words)) {
        print_error("status %s, message '%s'; expected %s with '%s'\n", homg_status_string(got),
                    homg_ctx_last_error(ctx), homg_status_string(want), words);
        fail();
    }
}

/* Largest |a - b| over all pixels, in units of the type's level (8-bit: 1/255). */
static double max_diff(const homg_image *a, const homg_image *b)
{
    double worst = 0, unit = a->type == HOMG_PIXEL_U16 ? 65535 : 255;
    assert_int_equal(a->width, b->width);
    assert_int_equal(a->height, b->height);
    assert_int_equal(a->channels, b->channels);
    for (int y = 0; y < a->height; y++)
        for (int x = 0; x < a->width; x++)
            for (int c = 0; c < a->channels; c++)
                worst = fmax(worst, fabs(ref_get(a, x, y, c) - ref_get(b, x, y, c)) * unit);
    return worst;
}

static void png_round_trips(void **state)
{
    (void)state;
    for (int ch = 1; ch <= 4; ch++)
        for (int t = 0; t < 2; t++) {
            homg_rng r = homg_rng_seed(ch + 10 * t);
            homg_pixel_type type = t ? HOMG_PIXEL_U16 : HOMG_PIXEL_U8;
            homg_image img = ref_random_image(&r, 13, 7, ch, type, 3), back;
            const char *path = homg_test_tmp("rt.png");
            assert_int_equal(homg_image_write(ctx, path, &img), HOMG_OK);
            assert_int_equal(homg_image_read(ctx, path, 0, 0, &back), HOMG_OK);
            assert_int_equal(back.type, type);
            assert_true(max_diff(&img, &back) == 0);
            if (t) { /* stb_image reads homg's 16-bit PNG the same */
                int w, h, n;
                unsigned short *s = stbi_load_16(path, &w, &h, &n, 0);
                assert_non_null(s);
                assert_int_equal(n, ch);
                assert_memory_equal(s, back.data, (size_t)13 * 7 * ch * 2);
                stbi_image_free(s);
            }
            free(back.data), free(img.data);
            assert_int_equal(remove(path), 0);
        }
}

/* JPEG (lossy: a smooth picture within a few levels on average) and HDR (RGBE: 1%). */
static void jpeg_and_hdr(void **state)
{
    homg_rng r = homg_rng_seed(4);
    homg_image img = ref_smooth_image(&r, 32, 24, 3, HOMG_PIXEL_U8), back,
               f = ref_smooth_image(&r, 9, 5, 3, HOMG_PIXEL_F32);
    const char *path = homg_test_tmp("a.jpg");
    double sum = 0;
    (void)state;
    assert_int_equal(homg_image_write(ctx, path, &img), HOMG_OK);
    assert_int_equal(homg_image_read(ctx, path, 3, 0, &back), HOMG_OK);
    for (int k = 0; k < 32 * 24 * 3; k++)
        sum += fabs((double)((unsigned char *)img.data)[k] - ((unsigned char *)back.data)[k]);
    assert_true(sum / (32 * 24 * 3) < 4);
    free(back.data);
    assert_int_equal(remove(path), 0);
    path = homg_test_tmp("a.hdr");
    assert_int_equal(homg_image_write(ctx, path, &f), HOMG_OK);
    assert_int_equal(homg_image_read(ctx, path, 0, 0, &back), HOMG_OK);
    assert_int_equal(back.type, HOMG_PIXEL_F32);
    for (int k = 0; k < 9 * 5 * 3; k++)
        assert_true(fabs(((float *)f.data)[k] - ((float *)back.data)[k]) <= 0.01 * fabs(((float *)f.data)[k]) + 1e-6);
    free(back.data), free(img.data), free(f.data);
    assert_int_equal(remove(path), 0);
}

/* Files of every input format (made by tools/dev/image_corpus.c) and their pixels. */
static void formats_read(void **state)
{
    static const char *names[] = { "rgb.png", "rgb.bmp", "rgba.tga", "rgb.psd",
                                   "rgb.hdr", "rgb.jpg", "gray.pgm", "one.png" };
    static const int channels[] = { 3, 3, 4, 4, 3, 3, 1, 4 }; /* stb reads PSD as RGBA */
    (void)state;
    for (int k = 0; k < 8; k++) {
        char path[128];
        homg_image img;
        snprintf(path, sizeof path, CORPUS "%s", names[k]);
        assert_int_equal(homg_image_read(ctx, path, 0, 0, &img), HOMG_OK);
        assert_int_equal(img.channels, channels[k]);
        assert_int_equal(img.width, k == 6 ? 3 : k == 7 ? 1 : 12);
        if (k < 3) /* lossless 8-bit: the generator's pixels */
            for (int i = 0; i < 12 * 9 * channels[k]; i++)
                assert_int_equal(((unsigned char *)img.data)[i], (unsigned char)(i * 29 + (i / 7) * 13));
        if (k == 3) /* PSD: planar data, interleaved on reading */
            for (int i = 0; i < 12 * 9; i++)
                for (int c = 0; c < 3; c++)
                    assert_int_equal(((unsigned char *)img.data)[4 * i + c], (i * 37 + c * 91) & 255);
        free(img.data);
        assert_int_equal(homg_image_read(ctx, path, 2, 0, &img), HOMG_OK); /* converted on reading */
        assert_int_equal(img.channels, 2);
        free(img.data);
    }
}

static void bad_files(void **state)
{
    homg_image img;
    homg_rng r = homg_rng_seed(1);
    homg_image ok = ref_random_image(&r, 4, 3, 3, HOMG_PIXEL_U8, 0);
    (void)state;
    expect(homg_image_read(ctx, "tests/no/such.png", 0, 0, &img), HOMG_ERROR_IO, "tests/no/such.png: cannot open");
    expect(homg_image_read(ctx, CORPUS "huge_65536.png", 0, 0, &img), HOMG_ERROR_PARSE, "65536 x 65536");
    expect(homg_image_read(ctx, CORPUS "rgb.png", 0, 100, &img), HOMG_ERROR_PARSE,
           "12 x 9 pixels: too large (the limit: 100");
    expect(homg_image_read(ctx, CORPUS "zero_width.png", 0, 0, &img), HOMG_ERROR_PARSE, "0 x 9 pixels: an empty image");
    expect(homg_image_read(ctx, CORPUS "truncated.png", 0, 0, &img), HOMG_ERROR_PARSE, "truncated.png");
    expect(homg_image_read(ctx, CORPUS "truncated.bmp", 0, 0, &img), HOMG_ERROR_PARSE, "truncated.bmp");
    expect(homg_image_read(ctx, CORPUS "truncated.psd", 0, 0, &img), HOMG_ERROR_PARSE, "truncated.psd");
    expect(homg_image_read(ctx, CORPUS "truncated.tga", 0, 0, &img), HOMG_ERROR_PARSE,
           "truncated.tga: truncated: the TGA's pixel data needs");
    expect(homg_image_read(ctx, CORPUS "garbage.bin", 0, 0, &img), HOMG_ERROR_PARSE, "not a readable image");
    expect(homg_image_read(ctx, "tests", 0, 0, &img), HOMG_ERROR_IO, "tests");
    expect(homg_image_read(ctx, CORPUS "rgb.png", 5, 0, &img), HOMG_ERROR_INVALID_ARGUMENT, "channels is 5");
    expect(homg_image_decode(ctx, "mem", "", 0, 0, 0, &img), HOMG_ERROR_PARSE, "mem: 0 bytes");
    expect(homg_image_write(ctx, homg_test_tmp("x.gif"), &ok), HOMG_ERROR_INVALID_ARGUMENT, "unknown extension");
    expect(homg_image_write(ctx, "/nonexistent-dir/x.png", &ok), HOMG_ERROR_IO, "cannot create");
    ok.channels = 2;
    expect(homg_image_write(ctx, homg_test_tmp("x.hdr"), &ok), HOMG_ERROR_INVALID_ARGUMENT, "HDR takes");
    ok.channels = 0;
    expect(homg_image_write(ctx, homg_test_tmp("x.png"), &ok), HOMG_ERROR_INVALID_ARGUMENT, "img.channels is 0");
    ok.channels = 3, ok.width = 70000;
    expect(homg_image_write(ctx, homg_test_tmp("x.png"), &ok), HOMG_ERROR_INVALID_ARGUMENT, "70000 x 3");
    assert_int_equal(access(homg_test_tmp("x.png"), F_OK), -1); /* nothing written */
    free(ok.data);
}

/* Radiance HDR with run-length scanlines (width 8, 2 rows), made byte by byte:
 * a count of 0, or data cut inside a scanline, made stb_image loop for ever
 * (fuzz_image, 2026-11-26); both are refused now, the whole file still reads. */
static void hdr_rle_that_hangs_stb_is_refused(void **state)
{
    static const char head[] = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 8\n";
    unsigned char b[128];
    size_t n = sizeof head - 1, full;
    homg_image img;
    (void)state;
    memcpy(b, head, n);
    for (int row = 0; row < 2; row++) {
        b[n++] = 2, b[n++] = 2, b[n++] = 0, b[n++] = 8;
        for (int k = 0; k < 4; k++) /* a run of 8: R = G = B = 128, exponent 129 (value 1) */
            b[n++] = 128 + 8, b[n++] = k < 3 ? 128 : 129;
    }
    full = n;
    alarm(20); /* a hang fails the test instead of stalling the suite */
    assert_int_equal(homg_image_decode(ctx, "whole", b, full, 3, 0, &img), HOMG_OK);
    assert_int_equal(img.width, 8);
    assert_int_equal(img.height, 2);
    for (int k = 0; k < 8 * 2 * 3; k++)
        assert_true(fabs(((float *)img.data)[k] - 1.0f) < 0.01f);
    free(img.data);
    expect(homg_image_decode(ctx, "cut", b, full - 5, 3, 0, &img), HOMG_ERROR_PARSE, "cut: corrupt HDR");
    b[sizeof head - 1 + 4] = 0; /* the first count of the first scanline */
    expect(homg_image_decode(ctx, "zero", b, full, 3, 0, &img), HOMG_ERROR_PARSE, "zero: corrupt HDR");
    { /* a header line that starts with a NUL ends the header for stb, as an empty line does */
        static const char nul_head[] = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\0x\n-Y 2 +X 8\n";
        unsigned char c[128];
        size_t m = sizeof nul_head - 1;
        memcpy(c, nul_head, m);
        memcpy(c + m, b + sizeof head - 1, full - (sizeof head - 1));
        expect(homg_image_decode(ctx, "nul", c, m + full - (sizeof head - 1), 3, 0, &img), HOMG_ERROR_PARSE,
               "nul: corrupt HDR");
    }
    alarm(0);
}

/* stbi_write_tga's output gathered in memory. */
typedef struct tga_buf {
    unsigned char b[4096];
    size_t n;
} tga_buf;

static void tga_put(void *ctx_, void *data, int size)
{
    tga_buf *t = (tga_buf *)ctx_;
    if (t->n + (size_t)size <= sizeof t->b)
        memcpy(t->b + t->n, data, (size_t)size);
    t->n += (size_t)size;
}

/* stb_image fills a TGA cut short with zeros; every cut of a raw and of a
 * run-length TGA (runs and literal packets, 1-4 channels) is refused now, and
 * the whole file reads back its pixels. */
static void every_cut_tga_is_refused(void **state)
{
    unsigned char px[13 * 7 * 4];
    (void)state;
    for (int i = 0; i < (int)sizeof px; i++) /* flat runs in the top half, noise below */
        px[i] = i < (int)sizeof px / 2 ? (unsigned char)(i / 40 * 50) : (unsigned char)(i * 29 + (i / 7) * 13);
    for (int rle = 0; rle < 2; rle++)
        for (int ch = 1; ch <= 4; ch++) {
            tga_buf t = { { 0 }, 0 };
            homg_image img;
            stbi_write_tga_with_rle = rle;
            assert_true(stbi_write_tga_to_func(tga_put, &t, 13, 7, ch, px));
            assert_true(t.n <= sizeof t.b);
            assert_int_equal(homg_image_decode(ctx, "whole", t.b, t.n, 0, 0, &img), HOMG_OK);
            assert_int_equal(memcmp(img.data, px, (size_t)13 * 7 * ch), 0);
            free(img.data);
            for (size_t cut = 18; cut < t.n; cut++) {
                /* stb's writer appends a 26-byte TGA 2.0 footer after the pixels */
                size_t footer = t.n >= 26 && !memcmp(t.b + t.n - 18, "TRUEVISION-XFILE.", 18) ? 26 : 0;
                if (cut >= t.n - footer)
                    break;
                expect(homg_image_decode(ctx, "cut", t.b, cut, 0, 0, &img), HOMG_ERROR_PARSE,
                       "cut: truncated: the TGA's pixel data needs");
            }
        }
    stbi_write_tga_with_rle = 1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(png_round_trips),
        cmocka_unit_test(jpeg_and_hdr),
        cmocka_unit_test(formats_read),
        cmocka_unit_test(bad_files),
        cmocka_unit_test(hdr_rle_that_hangs_stb_is_refused),
        cmocka_unit_test(every_cut_tga_is_refused),
    };
    return cmocka_run_group_tests(tests, homg_test_setup_cpu_dir, homg_test_teardown_cpu_dir);
}
