/* test_view.c -- homg_view on the CPU backend (the UPLOAD path) in a headless
 * EGL context (Mesa's software renderer here, whatever EGL offers elsewhere):
 * every value read back through GL against references computed here --
 * R32F exactly, RGBA8 within one step of the colour map computed in double from
 * viridis' samples; planes of a 3D field; buffers; the colour range found;
 * the GL state the view must leave as it was; bad input (each a clear status,
 * no GL error left behind); the device-match rule of the CUDA paths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "homg.h"
#include "testutil.h"

#if HOMG_HAVE_DEMO_GL
#include <GL/glew.h>

#include "harness/egl.h"
#include "view/view_internal.h"
#include "view_gl.h"
#include "view_ref.h"

static homg_ctx *ctx;

static void assert_colours(const unsigned char *got, const double *v, size_t n, double lo, double hi)
{
    assert_int_equal(view_ref_colour_errors(got, v, n, lo, hi), 0);
}

static void assert_floats(const float *got, const double *v, size_t n)
{
    assert_int_equal(view_ref_float_errors(got, v, n), 0);
}

/* ---------------------------------------------------------------- GL helpers */

static homg_view *view_of(homg_view_target target, GLuint name, int count)
{
    homg_view_desc d = { 0 };
    homg_view *v = NULL;
    d.get_proc_address = demo_egl_proc;
    d.target = target;
    d.gl_name = name;
    d.count = count;
    if (target == HOMG_VIEW_BUFFER && count < 0)
        d.format = HOMG_VIEW_RGBA8, d.count = -count;
    if (homg_view_create(ctx, &d, &v) != HOMG_OK)
        print_error("%s\n", homg_ctx_last_error(ctx));
    assert_non_null(v);
    return v;
}

static homg_view_write_desc wd2(int nx, int ny)
{
    homg_view_write_desc w = { 0 };
    w.precision = HOMG_FLOAT64;
    w.nx = nx;
    w.ny = ny;
    return w;
}

static int setup(void **state)
{
    char err[256];
    (void)state;
    if (demo_egl_begin(64, 64, 0, err, sizeof err) != 0) {
        printf("SKIP test_view: no headless GL context: %s\n", err);
        exit(HOMG_TEST_SKIP);
    }
    if (demo_glew_init(err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    printf("GL: %s | %s\n", glGetString(GL_VERSION), glGetString(GL_RENDERER));
    ctx = homg_test_ctx(HOMG_BACKEND_CPU);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    homg_ctx_destroy(ctx);
    demo_egl_end();
    return 0;
}

/* ---------------------------------------------------------------- tests */

static void r32f_texture_exact(void **state)
{
    int w = 37, h = 23;
    double *v = view_ref_field((size_t)w * h, 1);
    GLuint t = view_gl_texture(GL_R32F, w, h);
    homg_view *view = view_of(HOMG_VIEW_TEXTURE_2D, t, 0);
    homg_view_info info;
    homg_view_write_desc d = wd2(w, h);
    float *back;
    (void)state;
    assert_int_equal(homg_view_get_info(view, &info), HOMG_OK);
    assert_int_equal(info.path, HOMG_VIEW_PATH_UPLOAD);
    assert_int_equal(info.format, HOMG_VIEW_R32F);
    assert_int_equal(info.width, w);
    assert_int_equal(info.height, h);
    assert_non_null(strstr(info.reason, "CPU"));
    assert_int_equal(homg_view_write(view, v, &d), HOMG_OK);
    assert_int_equal(glGetError(), GL_NO_ERROR);
    back = view_gl_read_texture(t, w, h, 0);
    assert_floats(back, v, (size_t)w * h);
    /* float input too */
    {
        float *f = malloc((size_t)w * h * 4);
        for (int k = 0; k < w * h; k++)
            f[k] = (float)v[k] * 3;
        d.precision = HOMG_FLOAT32;
        assert_int_equal(homg_view_write(view, f, &d), HOMG_OK);
        free(back);
        back = view_gl_read_texture(t, w, h, 0);
        for (int k = 0; k < w * h; k++)
            v[k] = f[k];
        assert_floats(back, v, (size_t)w * h);
        free(f);
    }
    homg_view_destroy(view);
    glDeleteTextures(1, &t);
    free(back);
    free(v);
}

static void rgba8_texture_within_one_step(void **state)
{
    int w = 64, h = 50;
    size_t n = (size_t)w * h;
    double *v = view_ref_field(n, 2), lo, hi, glo, ghi;
    GLuint t = view_gl_texture(GL_RGBA8, w, h);
    homg_view *view = view_of(HOMG_VIEW_TEXTURE_2D, t, 0);
    homg_view_write_desc d = wd2(w, h);
    unsigned char *back;
    (void)state;
    /* the range found where the values are */
    assert_int_equal(homg_view_write(view, v, &d), HOMG_OK);
    view_ref_range(v, n, &lo, &hi);
    assert_int_equal(homg_view_range_to_host(view, &glo, &ghi), HOMG_OK);
    assert_true(glo == lo && ghi == hi);
    back = view_gl_read_texture(t, w, h, 1);
    assert_colours(back, v, n, lo, hi);
    free(back);
    /* a given range, reversed */
    d.lo = 1.5;
    d.hi = -0.5;
    assert_int_equal(homg_view_write(view, v, &d), HOMG_OK);
    back = view_gl_read_texture(t, w, h, 1);
    assert_colours(back, v, n, 1.5, -0.5);
    free(back);
    /* a constant field maps to the middle colour */
    for (size_t k = 0; k < n; k++)
        v[k] = 0.25;
    d.lo = d.hi = 0;
    assert_int_equal(homg_view_write(view, v, &d), HOMG_OK);
    back = view_gl_read_texture(t, w, h, 1);
    assert_colours(back, v, n, 0.25, 0.25);
    assert_int_equal(back[0], 33);
    assert_int_equal(back[1], 144);
    assert_int_equal(back[2], 140);
    free(back);
    homg_view_destroy(view);
    glDeleteTextures(1, &t);
    free(v);
}

/* Planes of a 3D field: value (x, y, z) = x + 10 y + 100 z, each texel checked. */
static void planes_of_a_3d_field(void **state)
{
    int nx = 5, ny = 6, nz = 7;
    double *v = malloc(sizeof *v * nx * ny * nz);
    (void)state;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++)
                v[x + nx * (y + ny * z)] = x + 10 * y + 100 * z;
    for (int axis = 0; axis < 3; axis++) {
        int w = axis == HOMG_VIEW_SLICE_X ? ny : nx, h = axis == HOMG_VIEW_SLICE_Z ? ny : nz;
        int slice = axis == HOMG_VIEW_SLICE_Z ? 4 : axis == HOMG_VIEW_SLICE_Y ? 2 : 3;
        GLuint t = view_gl_texture(GL_R32F, w, h);
        homg_view *view = view_of(HOMG_VIEW_TEXTURE_2D, t, 0);
        homg_view_write_desc d = wd2(nx, ny);
        float *back;
        d.nz = nz;
        d.slice_axis = (homg_view_axis)axis;
        d.slice = slice;
        assert_int_equal(homg_view_write(view, v, &d), HOMG_OK);
        back = view_gl_read_texture(t, w, h, 0);
        for (int j = 0; j < h; j++)
            for (int i = 0; i < w; i++) {
                double want = axis == HOMG_VIEW_SLICE_Z   ? i + 10 * j + 100 * slice
                              : axis == HOMG_VIEW_SLICE_Y ? i + 10 * slice + 100 * j
                                                          : slice + 10 * i + 100 * j;
                assert_true(back[i + w * j] == (float)want);
            }
        free(back);
        homg_view_destroy(view);
        glDeleteTextures(1, &t);
    }
    free(v);
}

static void buffers(void **state)
{
    int n = 1000;
    double *v = view_ref_field((size_t)n, 3), lo, hi;
    GLuint b = view_gl_buffer((size_t)n * 4 + 64); /* larger than needed: the first n values are written */
    homg_view_write_desc d = wd2(n, 1);
    homg_view *view = view_of(HOMG_VIEW_BUFFER, b, 0);
    void *back;
    (void)state;
    assert_int_equal(homg_view_gl_name(view), b);
    assert_int_equal(homg_view_write(view, v, &d), HOMG_OK);
    back = view_gl_read_buffer(b, (size_t)n * 4);
    assert_floats(back, v, (size_t)n);
    free(back);
    homg_view_destroy(view);
    /* RGBA8 into the application's buffer, and a 2D field into a buffer (row after row) */
    {
        homg_view_desc vd = { 0 };
        homg_view *cv = NULL;
        vd.get_proc_address = demo_egl_proc;
        vd.target = HOMG_VIEW_BUFFER;
        vd.gl_name = b;
        vd.format = HOMG_VIEW_RGBA8;
        assert_int_equal(homg_view_create(ctx, &vd, &cv), HOMG_OK);
        d = wd2(40, 25);
        assert_int_equal(homg_view_write(cv, v, &d), HOMG_OK);
        view_ref_range(v, (size_t)n, &lo, &hi);
        back = view_gl_read_buffer(b, (size_t)n * 4);
        assert_colours(back, v, (size_t)n, lo, hi);
        free(back);
        homg_view_destroy(cv);
    }
    glDeleteBuffers(1, &b);
    /* a buffer the view makes and owns */
    view = view_of(HOMG_VIEW_BUFFER, 0, -n);
    assert_true(homg_view_gl_name(view) != 0);
    assert_true(glIsBuffer(homg_view_gl_name(view)));
    d = wd2(n, 1);
    assert_int_equal(homg_view_write(view, v, &d), HOMG_OK);
    back = view_gl_read_buffer(homg_view_gl_name(view), (size_t)n * 4);
    assert_colours(back, v, (size_t)n, lo, hi);
    free(back);
    {
        GLuint owned = homg_view_gl_name(view);
        homg_view_destroy(view);
        assert_false(glIsBuffer(owned));
    }
    free(v);
}

/* Bindings and pixel-store settings the application had are there afterwards. */
static void gl_state_restored(void **state)
{
    int w = 16, h = 16;
    double *v = view_ref_field((size_t)w * h, 4);
    GLuint t = view_gl_texture(GL_R32F, w, h), other = view_gl_texture(GL_RGBA8, 4, 4), pbo = view_gl_buffer(64),
           cr = view_gl_buffer(16), cw = view_gl_buffer(16);
    homg_view *view = view_of(HOMG_VIEW_TEXTURE_2D, t, 0);
    homg_view_write_desc d = wd2(w, h);
    GLint got;
    (void)state;
    glBindTexture(GL_TEXTURE_2D, other);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo);
    glBindBuffer(GL_COPY_READ_BUFFER, cr);
    glBindBuffer(GL_COPY_WRITE_BUFFER, cw);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 7);
    assert_int_equal(homg_view_write(view, v, &d), HOMG_OK);
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &got);
    assert_int_equal(got, other);
    glGetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &got);
    assert_int_equal(got, pbo);
    glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &got);
    assert_int_equal(got, cr);
    glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &got);
    assert_int_equal(got, cw);
    glGetIntegerv(GL_UNPACK_ALIGNMENT, &got);
    assert_int_equal(got, 1);
    glGetIntegerv(GL_UNPACK_ROW_LENGTH, &got);
    assert_int_equal(got, 7);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    homg_view_destroy(view);
    GLuint del[] = { pbo, cr, cw };
    glDeleteBuffers(3, del);
    glDeleteTextures(1, &t);
    glDeleteTextures(1, &other);
    assert_int_equal(glGetError(), GL_NO_ERROR);
    free(v);
}

/* A failed create: the status, a message that names the problem, no view, no GL error. */
static void refused(const homg_view_desc *d, homg_status want, const char *says)
{
    homg_view *v = (homg_view *)1;
    homg_status st = homg_view_create(ctx, d, &v);
    const char *msg = homg_ctx_last_error(ctx);
    printf("  create -> %s: %s\n", homg_status_string(st), msg);
    assert_int_equal(st, want);
    assert_null(v);
    if (!strstr(msg, says)) {
        print_error("the message does not say '%s'\n", says);
        fail();
    }
    assert_int_equal(glGetError(), GL_NO_ERROR);
}

static void write_refused(homg_view *v, const void *values, const homg_view_write_desc *d, const char *says)
{
    homg_status st = homg_view_write(v, values, d);
    const char *msg = homg_ctx_last_error(ctx);
    printf("  write -> %s: %s\n", homg_status_string(st), msg);
    assert_int_equal(st, HOMG_ERROR_INVALID_ARGUMENT);
    if (!strstr(msg, says)) {
        print_error("the message does not say '%s'\n", says);
        fail();
    }
    assert_int_equal(glGetError(), GL_NO_ERROR);
}

static void bad_input(void **state)
{
    homg_view_desc d = { 0 };
    homg_view *v = NULL;
    GLuint r32 = view_gl_texture(GL_R32F, 8, 8), rgb8 = view_gl_texture(GL_RGB8, 8, 8), tex3d, bare,
           gone = view_gl_texture(GL_R32F, 8, 8), b = view_gl_buffer(40);
    double *f = view_ref_field(100, 5);
    homg_view_write_desc w = wd2(8, 8);
    (void)state;
    glGenTextures(1, &tex3d);
    glBindTexture(GL_TEXTURE_3D, tex3d);
    glTexImage3D(GL_TEXTURE_3D, 0, GL_R32F, 4, 4, 4, 0, GL_RED, GL_FLOAT, NULL);
    glBindTexture(GL_TEXTURE_3D, 0);
    glGenTextures(1, &bare);
    glBindTexture(GL_TEXTURE_2D, bare); /* a 2D texture without storage */
    glBindTexture(GL_TEXTURE_2D, 0);
    glDeleteTextures(1, &gone);
    assert_int_equal(glGetError(), GL_NO_ERROR);

    assert_int_equal(homg_view_create(ctx, NULL, &v), HOMG_ERROR_INVALID_ARGUMENT);
    refused(&d, HOMG_ERROR_INVALID_ARGUMENT, "get_proc_address is NULL");
    d.get_proc_address = demo_egl_proc;
    refused(&d, HOMG_ERROR_INVALID_ARGUMENT, "name the texture");
    d.gl_name = 4242;
    refused(&d, HOMG_ERROR_INVALID_ARGUMENT, "is not a texture");
    d.gl_name = gone;
    refused(&d, HOMG_ERROR_INVALID_ARGUMENT, "is not a texture");
    d.gl_name = b; /* buffers and textures have separate names: skip where b names a texture too */
    if (!glIsTexture(b))
        refused(&d, HOMG_ERROR_INVALID_ARGUMENT, "is not a texture");
    d.gl_name = tex3d;
    refused(&d, HOMG_ERROR_INVALID_ARGUMENT, "not a GL_TEXTURE_2D");
    d.gl_name = bare;
    refused(&d, HOMG_ERROR_INVALID_ARGUMENT, "no storage");
    d.gl_name = rgb8;
    refused(&d, HOMG_ERROR_INVALID_ARGUMENT, "internal format");
    d.gl_name = r32;
    d.format = HOMG_VIEW_RGBA8;
    refused(&d, HOMG_ERROR_INVALID_ARGUMENT, "desc.format is RGBA8");
    d.format = HOMG_VIEW_FORMAT_DEFAULT;
    d.path = HOMG_VIEW_PATH_MAP;
    refused(&d, HOMG_ERROR_UNSUPPORTED, "needs the CUDA backend");
    d.path = (homg_view_path)9;
    refused(&d, HOMG_ERROR_INVALID_ARGUMENT, "desc.path");
    d.path = HOMG_VIEW_PATH_AUTO;
    d.target = HOMG_VIEW_BUFFER;
    d.gl_name = r32;
    if (!glIsBuffer(r32))
        refused(&d, HOMG_ERROR_INVALID_ARGUMENT, "is not a buffer object");
    d.gl_name = 0;
    refused(&d, HOMG_ERROR_INVALID_ARGUMENT, "count");

    /* no current GL context */
    d.target = HOMG_VIEW_TEXTURE_2D;
    d.gl_name = r32;
    demo_egl_release();
    refused(&d, HOMG_ERROR_INVALID_ARGUMENT, "no GL context is current");
    demo_egl_make_current();

    /* writes */
    assert_int_equal(homg_view_create(ctx, &d, &v), HOMG_OK);
    assert_int_equal(homg_view_write(v, f, &w), HOMG_OK);
    {
        homg_view_info info;
        homg_view_get_info(v, &info);
        assert_int_equal(info.shown, 1); /* UPLOAD: every write is what GL sees */
    }
    assert_int_equal(homg_view_flush(v), HOMG_OK); /* nothing to do off the ring */
    assert_int_equal(homg_view_flush(NULL), HOMG_ERROR_INVALID_ARGUMENT);
    assert_int_equal(homg_view_write(v, f, NULL), HOMG_ERROR_INVALID_ARGUMENT);
    write_refused(v, NULL, &w, "values is NULL");
    w.nx = 10;
    w.ny = 10;
    write_refused(v, f, &w, "texture");
    w = wd2(8, 8);
    w.precision = (homg_precision)7;
    write_refused(v, f, &w, "precision");
    w = wd2(8, 8);
    w.nx = 0;
    write_refused(v, f, &w, "field size");
    w = wd2(2, 2);
    w.nz = 2;
    w.slice = 2;
    write_refused(v, f, &w, "slice");
    w.slice_axis = (homg_view_axis)5;
    w.slice = 0;
    write_refused(v, f, &w, "slice_axis");
    demo_egl_release();
    w = wd2(8, 8);
    write_refused(v, f, &w, "no GL context is current");
    demo_egl_make_current();
    glDeleteTextures(1, &r32);
    write_refused(v, f, &w, "no longer exists");
    homg_view_destroy(v);
    assert_int_equal(glGetError(), GL_NO_ERROR);

    /* a colour range that is not finite; a buffer too small */
    {
        GLuint t = view_gl_texture(GL_RGBA8, 8, 8);
        d.target = HOMG_VIEW_TEXTURE_2D;
        d.gl_name = t;
        assert_int_equal(homg_view_create(ctx, &d, &v), HOMG_OK);
        w.lo = 0;
        w.hi = INFINITY;
        write_refused(v, f, &w, "must be finite");
        homg_view_destroy(v);
        glDeleteTextures(1, &t);
        d.target = HOMG_VIEW_BUFFER;
        d.gl_name = b;
        assert_int_equal(homg_view_create(ctx, &d, &v), HOMG_OK);
        w = wd2(11, 1);
        write_refused(v, f, &w, "holds 10");
        homg_view_destroy(v);
    }
    glDeleteTextures(1, &rgb8);
    glDeleteTextures(1, &tex3d);
    glDeleteTextures(1, &bare);
    glDeleteBuffers(1, &b);
    assert_int_equal(glGetError(), GL_NO_ERROR);
    free(f);
}

/* The rule the CUDA paths apply to cudaGLGetDevices' answer (one GPU cannot show a mismatch). */
static void device_match_rule(void **state)
{
    char why[200];
    int one = 1, both[2] = { 0, 1 };
    (void)state;
    assert_true(homg__view_device_match(1, both, 2, why, sizeof why));
    assert_false(homg__view_device_match(0, &one, 1, why, sizeof why));
    assert_non_null(strstr(why, "GL context is on CUDA device 1, the ctx on CUDA device 0"));
    assert_false(homg__view_device_match(0, NULL, 0, why, sizeof why));
    assert_non_null(strstr(why, "on no CUDA device"));
}

static void timers(void **state)
{
    homg_timer *t = NULL;
    double ms = -1;
    (void)state;
    assert_int_equal(homg_timer_create(ctx, &t), HOMG_OK);
    assert_int_equal(homg_timer_ms(t, &ms), HOMG_ERROR_INVALID_ARGUMENT);
    assert_int_equal(homg_timer_start(t), HOMG_OK);
    assert_int_equal(homg_timer_stop(t), HOMG_OK);
    assert_int_equal(homg_timer_ms(t, &ms), HOMG_OK);
    assert_true(ms >= 0 && ms < 1000);
    homg_timer_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(r32f_texture_exact),   cmocka_unit_test(rgba8_texture_within_one_step),
        cmocka_unit_test(planes_of_a_3d_field), cmocka_unit_test(buffers),
        cmocka_unit_test(gl_state_restored),    cmocka_unit_test(bad_input),
        cmocka_unit_test(device_match_rule),    cmocka_unit_test(timers),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
#else
int main(void)
{
    printf("SKIP test_view: built without OpenGL, GLEW or EGL headers\n");
    return HOMG_TEST_SKIP;
}
#endif
