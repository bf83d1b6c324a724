/* test_view_gpu.c -- homg_view on the CUDA backend in a headless EGL context on
 * the NVIDIA GPU (SKIP without a GPU): the write and range kernels against their
 * CPU twins on random fields; every path (MAP, SHARED with semaphores, SHARED
 * ordered by the host, UPLOAD) into an R32F texture, an RGBA8 texture, the
 * application's buffers and a view-owned buffer, each read back through GL
 * (exact for R32F, within one colour-map step for RGBA8), three frames in a row
 * (SHARED's two slots each written, then the first again); frames queued back to
 * back without a host wait, each captured by GL into a pixel buffer as GL reaches
 * it (a write must not overtake GL's use of the last one); the SHARED ring (desc.latency) with its slots
 * as textures (no copy) and with the copy, each read of homg_view_gl_texture exactly the write info.shown
 * names; AUTO's measurement; the device check; bad input with a CUDA context.
 * "quick" (compute-sanitizer runs): small pictures. */
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

#if HOMG_HAVE_CUDA && HOMG_HAVE_DEMO_GL
#include <GL/glew.h>

#include "core/internal.h"
#include "harness/egl.h"
#include "harness/harness.h"
#include "view/view_internal.h"
#include "view_gl.h"
#include "view_ref.h"

#define gpu homg_test_gpu /* the pair homg_test_setup_pair makes (testutil.h) */
#define cpu homg_test_cpu
static int quick;

static int setup(void **state)
{
    char err[256];
    homg_test_require_gpu("test_view_gpu");
    if (demo_egl_begin(64, 64, 1, err, sizeof err) != 0 || demo_glew_init(err, sizeof err) != 0) {
        fprintf(stderr, "test_view_gpu: no headless GL context: %s\n", err);
        return -1;
    }
    printf("GL: %s | %s | EGL vendor %s\n", glGetString(GL_VERSION), glGetString(GL_RENDERER), demo_egl_vendor());
    homg_test_setup_pair(state);
    printf("CUDA: %s\n", homg_ctx_device_name(gpu));
    return 0;
}

static int teardown(void **state)
{
    homg_test_teardown_pair(state);
    demo_egl_end();
    return 0;
}

/* ---------------------------------------------------------------- helpers */

static void *up(homg_ctx *ctx, const void *host, size_t bytes)
{
    void *d = NULL;
    assert_int_equal(homg_alloc(ctx, bytes, &d), HOMG_OK);
    assert_int_equal(homg_copy_from_host(ctx, d, host, bytes), HOMG_OK);
    return d;
}

static void down(homg_ctx *ctx, void *host, const void *dev, size_t bytes)
{
    assert_int_equal(homg_ctx_synchronize(ctx), HOMG_OK);
    assert_int_equal(homg_copy_to_host(ctx, host, dev, bytes), HOMG_OK);
}

/* ---------------------------------------------------------------- kernels against the CPU twins */

static void kernels_match_cpu(void **state)
{
    const view_kernels *ck = &homg_cpu_view_kernels, *gk = &homg_cuda_view_kernels;
    int w = quick ? 61 : 1000, h = quick ? 17 : 333, nz = 3;
    size_t n = (size_t)w * h * nz;
    (void)state;
    for (int prec = 0; prec < 2; prec++)
        for (int axis = 0; axis < 3; axis++) {
            double *v = view_ref_field(n, 10 + prec + 2 * axis);
            float *vf = malloc(n * sizeof *vf);
            void *host = prec ? (void *)v : (void *)vf, *dev;
            size_t vb = prec ? 8 : 4;
            /* a plane of a w x h x nz field: Z, then Y, then X */
            view_src s = { NULL, prec ? HOMG_FLOAT64 : HOMG_FLOAT32, 0, 1, w, w, h };
            if (axis == 1)
                s.offset = (int64_t)w * 5, s.sy = (int64_t)w * h, s.h = nz;
            if (axis == 2)
                s.offset = 7, s.sx = w, s.sy = (int64_t)w * h, s.w = h, s.h = nz;
            if (axis == 0)
                s.offset = (int64_t)w * h;
            for (size_t k = 0; k < n; k++)
                vf[k] = (float)v[k];
            dev = up(gpu, host, n * vb);
            {
                size_t m = (size_t)s.w * s.h;
                int32_t crange[2], grange[2], *drange = up(gpu, crange, sizeof crange);
                float *cout = malloc(m * 4), *gout = malloc(m * 4), *dout;
                view_src cs = s, gs = s;
                view_dst cd = { 0, cout, 0, 0, 0, NULL }, gd = { 0, NULL, 0, 0, 0, NULL };
                size_t bad = 0;
                cs.values = host;
                gs.values = dev;
                assert_int_equal(homg_alloc(gpu, m * 4, (void **)&dout), HOMG_OK);
                assert_int_equal(ck->range(&cpu->ex, &cs, crange), HOMG_OK);
                assert_int_equal(gk->range(&gpu->ex, &gs, drange), HOMG_OK);
                down(gpu, grange, drange, sizeof grange);
                assert_memory_equal(crange, grange, sizeof crange);
                /* raw: bit for bit */
                gd.ptr = dout;
                assert_int_equal(ck->write(&cpu->ex, &cs, &cd), HOMG_OK);
                assert_int_equal(gk->write(&gpu->ex, &gs, &gd), HOMG_OK);
                down(gpu, gout, dout, m * 4);
                assert_memory_equal(cout, gout, m * 4);
                /* colours: the found range (device) and a given one; within one step */
                cd.rgba8 = gd.rgba8 = 1;
                cd.range = crange;
                gd.range = drange;
                assert_int_equal(ck->write(&cpu->ex, &cs, &cd), HOMG_OK);
                assert_int_equal(gk->write(&gpu->ex, &gs, &gd), HOMG_OK);
                down(gpu, gout, dout, m * 4);
                for (size_t k = 0; k < 4 * m; k++)
                    bad += abs(((unsigned char *)cout)[k] - ((unsigned char *)gout)[k]) > 1;
                assert_int_equal(bad, 0);
                cd.range = gd.range = NULL;
                cd.lo = gd.lo = 2.0f;
                cd.hi = gd.hi = -1.0f;
                assert_int_equal(ck->write(&cpu->ex, &cs, &cd), HOMG_OK);
                assert_int_equal(gk->write(&gpu->ex, &gs, &gd), HOMG_OK);
                down(gpu, gout, dout, m * 4);
                for (size_t k = 0; k < 4 * m; k++)
                    bad += abs(((unsigned char *)cout)[k] - ((unsigned char *)gout)[k]) > 1;
                assert_int_equal(bad, 0);
                homg_free(gpu, dout);
                homg_free(gpu, drange);
                free(cout);
                free(gout);
            }
            homg_free(gpu, dev);
            free(v);
            free(vf);
        }
}

/* ---------------------------------------------------------------- every path, every target */

typedef struct target_case {
    const char *name;
    homg_view_target target;
    GLenum internal; /* textures */
    homg_view_format format;
    int owned; /* buffer made by the view */
} target_case;

static const target_case targets[] = {
    { "texture R32F", HOMG_VIEW_TEXTURE_2D, GL_R32F, HOMG_VIEW_FORMAT_DEFAULT, 0 },
    { "texture RGBA8", HOMG_VIEW_TEXTURE_2D, GL_RGBA8, HOMG_VIEW_FORMAT_DEFAULT, 0 },
    { "buffer R32F", HOMG_VIEW_BUFFER, 0, HOMG_VIEW_R32F, 0 },
    { "buffer RGBA8", HOMG_VIEW_BUFFER, 0, HOMG_VIEW_RGBA8, 0 },
    { "view's buffer R32F", HOMG_VIEW_BUFFER, 0, HOMG_VIEW_R32F, 1 },
    { "view's buffer RGBA8", HOMG_VIEW_BUFFER, 0, HOMG_VIEW_RGBA8, 1 },
};

typedef struct path_case {
    const char *name;
    homg_view_path path;
    int no_semaphores;
    int latency; /* the ring: homg_view_flush before each read */
} path_case;

static const path_case paths[] = {
    { "map", HOMG_VIEW_PATH_MAP, 0, 0 },
    { "shared", HOMG_VIEW_PATH_SHARED, 0, 0 },
    { "shared, host-ordered", HOMG_VIEW_PATH_SHARED, 1, 0 },
    { "upload", HOMG_VIEW_PATH_UPLOAD, 0, 0 },
    { "shared ring (latency)", HOMG_VIEW_PATH_SHARED, 0, 1 },
};

/* One path, one target: three frames of different fields, each read back. */
static void one(const path_case *p, const target_case *t, int w, int h)
{
    size_t n = (size_t)w * h;
    homg_view_desc d = { 0 };
    homg_view *v = NULL;
    homg_view_info info;
    GLuint name = 0;
    int rgba8 = t->internal == GL_RGBA8 || t->format == HOMG_VIEW_RGBA8;
    homg_status st;
    if (t->target == HOMG_VIEW_TEXTURE_2D)
        name = view_gl_texture(t->internal, w, h);
    else if (!t->owned)
        name = view_gl_buffer(n * 4);
    d.get_proc_address = demo_egl_proc;
    d.target = t->target;
    d.gl_name = name;
    d.format = t->format;
    d.count = t->owned ? (int)n : 0;
    d.path = p->path;
    d.no_semaphores = p->no_semaphores;
    d.latency = p->latency;
    st = homg_view_create(gpu, &d, &v);
    if (st != HOMG_OK) {
        print_error("%s into %s: %s: %s\n", p->name, t->name, homg_status_string(st), homg_ctx_last_error(gpu));
        fail();
    }
    homg_view_get_info(v, &info);
    printf("  %-22s %-20s path %s, semaphores %d, host waits %d, slot textures %d (%s)\n", p->name, t->name,
           homg_view_path_name(info.path), info.semaphores, info.host_waits, info.direct, info.reason);
    assert_int_equal(info.path, p->path);
    for (int frame = 0; frame < 3; frame++) {
        double *v64 = view_ref_field(n, 100 + frame), lo, hi, glo, ghi;
        void *dev = up(gpu, v64, n * 8);
        homg_view_write_desc wd = { 0 };
        void *back;
        size_t bad;
        wd.precision = HOMG_FLOAT64;
        wd.nx = w;
        wd.ny = h;
        if (frame == 1 && rgba8)
            wd.lo = -0.5, wd.hi = 1.0; /* a given range on the second frame */
        assert_int_equal(homg_view_write(v, dev, &wd), HOMG_OK);
        if (p->latency)
            assert_int_equal(homg_view_flush(v), HOMG_OK);
        assert_int_equal(glGetError(), GL_NO_ERROR);
        back = t->target == HOMG_VIEW_TEXTURE_2D ? view_gl_read_texture(homg_view_gl_texture(v), w, h, rgba8)
                                                 : view_gl_read_buffer(homg_view_gl_name(v), n * 4);
        if (rgba8) {
            view_ref_range(v64, n, &lo, &hi);
            if (frame == 1)
                lo = -0.5, hi = 1.0;
            assert_int_equal(homg_view_range_to_host(v, &glo, &ghi), HOMG_OK);
            assert_true(glo == lo && ghi == hi);
            bad = view_ref_colour_errors(back, v64, n, lo, hi);
        } else
            bad = view_ref_float_errors(back, v64, n);
        if (bad) {
            print_error("%s into %s, frame %d: %zu of %zu values wrong\n", p->name, t->name, frame, bad, n);
            fail();
        }
        free(back);
        homg_free(gpu, dev);
        free(v64);
    }
    homg_view_destroy(v);
    if (t->target == HOMG_VIEW_TEXTURE_2D)
        glDeleteTextures(1, &name);
    else if (name)
        glDeleteBuffers(1, &name);
    assert_int_equal(glGetError(), GL_NO_ERROR);
}

static void every_path_every_target(void **state)
{
    int w = quick ? 40 : 1024, h = quick ? 24 : 512;
    (void)state;
    for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++)
        for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++)
            one(&paths[p], &targets[t], w, h);
}

/* Fields queued as frames: `count` different fields (seeds seed, seed + 1, ...)
 * on the device and as float64 on the host, and `reads` pixel-pack buffers, each
 * receiving a GL read of a texture queued after a write. */
enum { MAX_FRAMES = 11 };
typedef struct frames {
    int count, reads;
    size_t n;
    void *dev[MAX_FRAMES];
    double *v64[MAX_FRAMES];
    GLuint pbo[MAX_FRAMES];
} frames;

static void frames_setup(frames *fr, int count, int reads, size_t n, int seed)
{
    fr->count = count;
    fr->reads = reads;
    fr->n = n;
    glGenBuffers(reads, fr->pbo);
    for (int f = 0; f < reads; f++) {
        if (f < count) {
            fr->v64[f] = view_ref_field(n, seed + f);
            fr->dev[f] = up(gpu, fr->v64[f], n * 8);
        }
        glBindBuffer(GL_PIXEL_PACK_BUFFER, fr->pbo[f]);
        glBufferData(GL_PIXEL_PACK_BUFFER, (GLsizeiptr)(n * 4), NULL, GL_STREAM_READ);
    }
    assert_int_equal(homg_ctx_synchronize(gpu), HOMG_OK);
    glFinish();
}

/* GL's read of R32F texture `tex` into buffer r, queued: glGetTexImage, or with
 * `w` > 0 a draw whose shader samples it (texelFetch: the texture units and their
 * caches, as an application's draw) into a w x h R32F framebuffer, read back. */
static void frames_read(frames *fr, int r, GLuint tex, int w, int h)
{
    static const char *vs = "#version 330 core\n"
                            "void main() { gl_Position = vec4(gl_VertexID == 1 ? 3.0 : -1.0, "
                            "gl_VertexID == 2 ? 3.0 : -1.0, 0.0, 1.0); }\n";
    static const char *fs = "#version 330 core\n"
                            "uniform sampler2D field;\n"
                            "out vec4 c;\n"
                            "void main() { c = texelFetch(field, ivec2(gl_FragCoord.xy), 0); }\n";
    static GLuint prog, vao;
    GLuint fbo, rb;
    GLint viewport[4];
    glBindTexture(GL_TEXTURE_2D, tex);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, fr->pbo[r]);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    if (w <= 0) {
        glGetTexImage(GL_TEXTURE_2D, 0, GL_RED, GL_FLOAT, (void *)0);
        glFlush();
        return;
    }
    if (!prog) {
        prog = demo_program(vs, fs);
        glGenVertexArrays(1, &vao);
    }
    glGetIntegerv(GL_VIEWPORT, viewport);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_R32F, w, h);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    glViewport(0, 0, w, h);
    glUseProgram(prog);
    glBindVertexArray(vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glReadPixels(0, 0, w, h, GL_RED, GL_FLOAT, (void *)0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    glDeleteRenderbuffers(1, &rb);
    glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
    glFlush();
}

/* How many values of buffer r differ from field f. */
static size_t frames_check(frames *fr, int r, int f)
{
    const float *got;
    size_t bad;
    glBindBuffer(GL_PIXEL_PACK_BUFFER, fr->pbo[r]);
    got = (const float *)glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, (GLsizeiptr)(fr->n * 4), GL_MAP_READ_BIT);
    assert_non_null(got);
    bad = view_ref_float_errors(got, fr->v64[f], fr->n);
    glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
    return bad;
}

static void frames_free(frames *fr)
{
    for (int f = 0; f < fr->count; f++) {
        homg_free(gpu, fr->dev[f]);
        free(fr->v64[f]);
    }
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glDeleteBuffers(fr->reads, fr->pbo);
}

/* FRAMES writes of different fields queued with no host wait between them, each
 * followed by GL's read of the texture into its own pixel buffer (queued too):
 * each buffer must hold its frame's field, so no write overtook GL's read of the
 * one before. */
static void queued_frames_in_order(void **state)
{
    enum { FRAMES = 6 };
    int w = quick ? 40 : 512, h = quick ? 24 : 256;
    (void)state;
    for (size_t p = 0; p < 3; p++) {
        homg_view_desc d = { 0 };
        homg_view *v = NULL;
        GLuint tex = view_gl_texture(GL_R32F, w, h);
        homg_view_write_desc wd = { 0 };
        frames fr;
        d.get_proc_address = demo_egl_proc;
        d.target = HOMG_VIEW_TEXTURE_2D;
        d.gl_name = tex;
        d.path = paths[p].path;
        d.no_semaphores = paths[p].no_semaphores;
        assert_int_equal(homg_view_create(gpu, &d, &v), HOMG_OK);
        frames_setup(&fr, FRAMES, FRAMES, (size_t)w * h, 300);
        wd.precision = HOMG_FLOAT64;
        wd.nx = w;
        wd.ny = h;
        for (int f = 0; f < FRAMES; f++) {
            assert_int_equal(homg_view_write(v, fr.dev[f], &wd), HOMG_OK);
            frames_read(&fr, f, tex, 0, 0);
        }
        for (int f = 0; f < FRAMES; f++) {
            size_t bad = frames_check(&fr, f, f);
            if (bad) {
                print_error("%s, queued frame %d: %zu of %zu values wrong\n", paths[p].name, f, bad, fr.n);
                fail();
            }
        }
        frames_free(&fr);
        homg_view_destroy(v);
        glDeleteTextures(1, &tex);
        assert_int_equal(glGetError(), GL_NO_ERROR);
        printf("  %-22s %d frames queued, each captured by GL in order\n", paths[p].name, FRAMES);
    }
}

/* Sets (on) or unsets the variables of "NAME=value NAME=value ...". */
static void env_list(const char *list, int on)
{
    char buf[256], *tok, *save = NULL;
    snprintf(buf, sizeof buf, "%s", list ? list : "");
    for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq)
            continue;
        *eq = 0;
        if (on)
            setenv(tok, eq + 1, 1);
        else
            unsetenv(tok);
    }
}

/* desc.latency (the SHARED ring): FRAMES writes queued with no host wait, each
 * followed by GL's read of homg_view_gl_texture (a ring slot's own texture with
 * info.direct, else the application's) into its own pixel buffer, in turn by
 * glGetTexImage and by a draw sampling it; each buffer
 * must hold exactly the field of the write info.shown named then (a complete
 * frame, never a half-written slot, never one CUDA overwrote before GL's read
 * of it ran), shown never goes back, and after homg_view_flush the last write is
 * there.  A 2048^2 float64 field makes the writes slow enough for GL to run
 * ahead of CUDA.  Run with the slots as textures (no copy), with
 * HOMG_VIEW_RING_COPY=1 (the copy into the application's texture), and with
 * HOMG_VIEW_RING_AHEAD=0 (no pace: the host fills every free slot before it
 * waits, as before s9-view6) and =1, and with HOMG_VIEW_RING_POLL=1 (every slot
 * taken: poll all fences) and =2 (drop the oldest unshown write instead).  */
static void ring_once(int copy, const char *knobs)
{
    enum { FRAMES = 10 };
    int w = quick ? 256 : 2048, h = quick ? 128 : 2048;
    homg_view_desc d = { 0 };
    homg_view *v = NULL;
    homg_view_info info;
    homg_view_write_desc wd = { 0 };
    GLuint tex = view_gl_texture(GL_R32F, w, h), drawn[FRAMES + 1];
    long long shown[FRAMES + 1], last = 0;
    int behind = 0, direct;
    frames fr;
    d.get_proc_address = demo_egl_proc;
    d.gl_name = tex;
    d.path = HOMG_VIEW_PATH_SHARED;
    d.latency = 1;
    if (copy)
        setenv("HOMG_VIEW_RING_COPY", "1", 1);
    env_list(knobs, 1);
    assert_int_equal(homg_view_create(gpu, &d, &v), HOMG_OK);
    unsetenv("HOMG_VIEW_RING_COPY");
    env_list(knobs, 0);
    homg_view_get_info(v, &info);
    direct = info.direct;
    printf("  shared ring: %s\n", info.reason);
    assert_int_equal(info.host_waits, 0);
    assert_int_equal(info.shown, 0);
    assert_true(!copy || !direct);
    assert_int_equal(homg_view_gl_texture(v), tex); /* nothing shown yet: the application's */
    frames_setup(&fr, FRAMES, FRAMES + 1, (size_t)w * h, 700);
    wd.precision = HOMG_FLOAT64;
    wd.nx = w;
    wd.ny = h;
    for (int f = 0; f <= FRAMES; f++) {
        if (f < FRAMES)
            assert_int_equal(homg_view_write(v, fr.dev[f], &wd), HOMG_OK);
        else
            assert_int_equal(homg_view_flush(v), HOMG_OK);
        homg_view_get_info(v, &info);
        shown[f] = info.shown;
        assert_true(shown[f] >= last && shown[f] >= 1 && shown[f] <= (f < FRAMES ? f + 1 : FRAMES));
        last = shown[f];
        behind += shown[f] < (f < FRAMES ? f + 1 : FRAMES);
        drawn[f] = homg_view_gl_texture(v);
        assert_true(direct ? drawn[f] != tex : drawn[f] == tex);
        frames_read(&fr, f, drawn[f], f % 2 ? w : 0, h); /* sampled by a draw, or glGetTexImage */
    }
    assert_int_equal(shown[FRAMES], FRAMES);
    for (int f = 0; f <= FRAMES; f++) {
        size_t bad = frames_check(&fr, f, (int)shown[f] - 1);
        if (bad) {
            print_error("ring (%s), read after %s %d: %zu of %zu values differ from write %lld\n",
                        direct ? "slot textures" : "copy", f < FRAMES ? "write" : "flush", f + 1, bad, fr.n, shown[f]);
            fail();
        }
    }
    frames_free(&fr);
    homg_view_destroy(v);
    glDeleteTextures(1, &tex);
    assert_int_equal(glGetError(), GL_NO_ERROR);
    printf("  shared ring, %s%s%s: %d writes queued, shown after each:",
           direct ? "slots are textures (no copy)" : "copy into the texture", knobs ? ", " : "", knobs ? knobs : "",
           FRAMES);
    for (int f = 0; f <= FRAMES; f++)
        printf(" %lld", shown[f]);
    printf(" (%d reads saw an earlier write), each exactly that write's field\n", behind);
}

static void ring_shows_complete_frames(void **state)
{
    (void)state;
    ring_once(0, NULL);
    ring_once(1, NULL);
    ring_once(0, "HOMG_VIEW_RING_AHEAD=0");
    ring_once(0, "HOMG_VIEW_RING_AHEAD=1");
    /* s9-view7: every slot taken -- poll all fences, or drop the oldest unshown write (3 slots, no pace: it happens) */
    ring_once(0, "HOMG_VIEW_RING_POLL=1 HOMG_VIEW_RING_SLOTS=3 HOMG_VIEW_RING_AHEAD=0");
    ring_once(0, "HOMG_VIEW_RING_POLL=2 HOMG_VIEW_RING_SLOTS=3 HOMG_VIEW_RING_AHEAD=0");
    ring_once(0, "HOMG_VIEW_RING_POLL=2 HOMG_VIEW_RING_SLOTS=16");
}

/* ---------------------------------------------------------------- the ring at every depth */

/* The ring (desc.latency) at `slots` slots into one target of w x h, with the
 * benchmark knobs in `env` ("NAME=value ..." set at create): slots + 2 writes of
 * different fields queued, after each GL's read of what it draws (exactly the
 * write info.shown names), then a flush and the last write; then GL's
 * raw bytes of the shared memory (its buffer on the imported memory, copied by
 * GL) against CUDA's (the allocation's own mapping), slot by slot: two views of
 * one memory, so they must agree whatever the slots' layout, and a slot written
 * is not all zeros.  Prints one row; returns the number of failures (wrong reads,
 * slots that differ); *fallback += 1 when the probe found a slot texture reading
 * back other values than CUDA wrote (the ring then copies: pictures still right). */
static int ring_row(const char *env, int slots, const target_case *t, int w, int h, int *fallback)
{
    size_t n = (size_t)w * h;
    int rgba8 = t->internal == GL_RGBA8 || t->format == HOMG_VIEW_RGBA8, fails = 0, frames = slots + 2;
    char buf[256], *tok, *save = NULL, names[8][48], wrong[160] = "", differ[128] = "";
    int nnames = 0;
    homg_view_desc d = { 0 };
    homg_view *v = NULL;
    homg_view_info info;
    GLuint name = 0;
    const char *was = getenv("HOMG_VIEW_RING_SLOTS");
    char before[16] = "";
    if (was)
        snprintf(before, sizeof before, "%s", was); /* the caller's, put back after */
    snprintf(buf, sizeof buf, "%s", env);
    for (tok = strtok_r(buf, " ", &save); tok && nnames < 8; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq)
            continue;
        *eq = 0;
        snprintf(names[nnames++], sizeof names[0], "%s", tok);
        setenv(tok, eq + 1, 1);
    }
    snprintf(buf, sizeof buf, "%d", slots);
    setenv("HOMG_VIEW_RING_SLOTS", buf, 1);
    if (t->target == HOMG_VIEW_TEXTURE_2D)
        name = view_gl_texture(t->internal, w, h);
    else
        name = view_gl_buffer(n * 4);
    d.get_proc_address = demo_egl_proc;
    d.target = t->target;
    d.gl_name = name;
    d.format = t->format;
    d.path = HOMG_VIEW_PATH_SHARED;
    d.latency = 1;
    assert_int_equal(homg_view_create(gpu, &d, &v), HOMG_OK);
    for (int k = 0; k < nnames; k++)
        unsetenv(names[k]);
    if (*before)
        setenv("HOMG_VIEW_RING_SLOTS", before, 1);
    else
        unsetenv("HOMG_VIEW_RING_SLOTS");
    homg_view_get_info(v, &info);
    assert_int_equal(v->nring, slots);
    if (strstr(info.reason, "wrong from"))
        ++*fallback; /* the probe found a slot texture that does not read what CUDA wrote */
    { /* writes queued (fields all on the device first), each read back as info.shown names it; then flushed */
        double *v64[VIEW_RING_MAX + 2];
        void *dev[VIEW_RING_MAX + 2];
        homg_view_write_desc wd = { 0 };
        wd.precision = HOMG_FLOAT64;
        wd.nx = w;
        wd.ny = h;
        for (int f = 0; f < frames; f++) {
            v64[f] = view_ref_field(n, 900 + f);
            dev[f] = up(gpu, v64[f], n * 8);
        }
        assert_int_equal(homg_ctx_synchronize(gpu), HOMG_OK);
        for (int f = 0; f <= frames; f++) {
            double lo, hi;
            const double *want;
            void *back;
            size_t bad;
            if (f < frames)
                assert_int_equal(homg_view_write(v, dev[f], &wd), HOMG_OK);
            else
                assert_int_equal(homg_view_flush(v), HOMG_OK);
            homg_view_get_info(v, &info);
            assert_true(info.shown >= 1 && info.shown <= (f < frames ? f + 1 : frames));
            want = v64[info.shown - 1];
            back = t->target == HOMG_VIEW_TEXTURE_2D ? view_gl_read_texture(homg_view_gl_texture(v), w, h, rgba8)
                                                     : view_gl_read_buffer(homg_view_gl_name(v), n * 4);
            if (rgba8) {
                view_ref_range(want, n, &lo, &hi);
                bad = view_ref_colour_errors(back, want, n, lo, hi);
            } else
                bad = view_ref_float_errors(back, want, n);
            fails += bad != 0;
            snprintf(wrong + strlen(wrong), sizeof wrong - strlen(wrong), " %zu", bad);
            free(back);
        }
        assert_int_equal(info.shown, frames);
        for (int f = 0; f < frames; f++) {
            homg_free(gpu, dev[f]);
            free(v64[f]);
        }
    }
    { /* GL's bytes of the memory against CUDA's, slot by slot */
        size_t all = (size_t)slots * v->slot_bytes;
        unsigned char *gl_bytes = view_gl_read_buffer(v->shared_buffer, all), *cu_bytes = malloc(all);
        assert_non_null(cu_bytes);
        assert_int_equal(homg_ctx_synchronize(gpu), HOMG_OK);
        assert_int_equal(gpu->mem->copy(&gpu->ex, cu_bytes, v->sh.ptr, all, HOMG_D2H), HOMG_OK);
        for (int s = 0; s < slots; s++) {
            size_t diff = 0, zero = v->rs[s].seq > 0, off = (size_t)s * v->slot_bytes; /* written: not all 0 */
            for (size_t i = 0; i < n * 4; i++) {
                diff += gl_bytes[off + i] != cu_bytes[off + i];
                zero &= cu_bytes[off + i] == 0;
            }
            fails += diff != 0 || zero;
            snprintf(differ + strlen(differ), sizeof differ - strlen(differ), " %zu%s", diff,
                     zero           ? "z"
                     : v->rs[s].seq ? ""
                                    : "-");
        }
        free(gl_bytes);
        free(cu_bytes);
    }
    printf("  %-44s slots %d %-13s %4dx%-4d slot %7zu B, alloc %7zu B, direct %d | wrong per read (shown):%s | "
           "GL!=CUDA bytes per slot (z: written, all 0; -: never written):%s | %s%s\n",
           *env ? env : "(defaults)", slots, t->name, w, h, v->slot_bytes, v->sh.bytes, info.direct, wrong, differ,
           fails ? "FAIL " : "ok ", info.reason);
    homg_view_destroy(v);
    if (t->target == HOMG_VIEW_TEXTURE_2D)
        glDeleteTextures(1, &name);
    else
        glDeleteBuffers(1, &name);
    assert_int_equal(glGetError(), GL_NO_ERROR);
    return fails;
}

/* Every depth (VIEW_RING_MIN .. VIEW_RING_MAX slots) into every target at several sizes (small, odd, a
 * 2 MiB multiple and not), buffers first (no view before them), then textures, then buffers again. */
static int ring_depths(const char *env, int big, int deepest, int *fallbacks)
{
    static const int depths[] = { 3, 4, 5, 6, 7, 8, 10, 12, 16 }; /* s9-view7: 10 .. 16 */
    static const struct {
        int t, w, h;
    } rows[] = { { 2, 40, 24 },     { 3, 97, 61 },   { 2, 512, 256 }, { 0, 40, 24 },   { 1, 97, 61 },
                 { 0, 256, 128 },   { 1, 256, 128 }, { 0, 333, 199 }, { 1, 512, 512 }, { 0, 1024, 1024 },
                 { 1, 1024, 1024 }, { 2, 40, 24 },   { 3, 256, 128 } };
    int fails = 0;
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
        for (size_t d = 0; d < sizeof depths / sizeof *depths && depths[d] <= deepest; d++)
            if (big || rows[r].w < 1024)
                fails += ring_row(env, depths[d], &targets[rows[r].t], rows[r].w, rows[r].h, fallbacks);
    return fails;
}

/* Probe fallbacks are printed, not failed, here: on the H100 (driver 580.159.04) some slot textures
 * read back other values than CUDA wrote only after other views ran in the process (after every path's
 * views; never in `matrix` alone; bench/results/h100_view.md J); the probe catches them and the
 * ring copies, so the pictures stay right. */
static void ring_every_depth(void **state)
{
    int fallbacks = 0;
    (void)state;
    assert_int_equal(ring_depths("", !quick, VIEW_RING_MAX, &fallbacks), 0);
    printf("  ring at every depth: every read and every slot's bytes right; %d view(s) fell back to the copy\n",
           fallbacks);
}

static void every_path_every_target(void **state);
static void queued_frames_in_order(void **state);

/* `test_view_gpu matrix "KNOB=value ..." [HISTORY]`: ring_depths alone, all sizes, with those knobs,
 * after HISTORY (small pictures): map, sem (SHARED with semaphores), host (SHARED ordered by the
 * host), upload, every (every_path_every_target), queued (queued_frames_in_order); without one no
 * probe may fall back either. */
static const char *matrix_env = "", *matrix_history = "";

/* s9-view7's histories, to learn which Vulkan object leaves GL misreading slot textures: vkdev (the Vulkan
 * device alone, made through a host-ordered view), vksem (+ two exportable semaphores, imported nowhere),
 * semnosig (a SHARED view with semaphores imported into CUDA and GL, never written: never signalled),
 * semgone (`sem`, then every Vulkan device destroyed before the ring is made), vkgone (vkdev, then destroyed). */
static void history_vulkan(const char *h)
{
    homg_view_desc d = { 0 };
    homg_view *v = NULL;
    unsigned char uuid[16];
    GLuint tex = view_gl_texture(GL_R32F, 40, 24);
    int vk = !strcmp(h, "vkdev") || !strcmp(h, "vksem") || !strcmp(h, "vkgone");
    d.get_proc_address = demo_egl_proc;
    d.gl_name = tex;
    d.path = HOMG_VIEW_PATH_SHARED;
    d.no_semaphores = vk;
    if (vk || !strcmp(h, "semnosig")) {
        assert_int_equal(homg_view_create(gpu, &d, &v), HOMG_OK);
        assert_int_equal(v->k->uuid(&gpu->ex, uuid), HOMG_OK);
        if (!strcmp(h, "vksem")) {
            view_vk *sem = NULL;
            assert_int_equal(homg__view_vk_create(v, uuid, &sem), HOMG_OK);
            homg__view_vk_destroy(sem);
        } else if (vk)
            assert_int_equal(homg__view_vk_device(v, uuid), HOMG_OK);
        printf("  history %s: semaphores %d\n", h, v->semaphores);
        homg_view_destroy(v);
    }
    if (!strcmp(h, "semgone") || !strcmp(h, "vkgone"))
        homg__view_vk_drop_devices();
    glDeleteTextures(1, &tex);
    assert_int_equal(glGetError(), GL_NO_ERROR);
}

static void ring_matrix(void **state)
{
    int fails, fallbacks = 0;
    const char *h = matrix_history;
    (void)state;
    quick = 1;
    for (int p = 0; p < 4; p++)
        if (!strcmp(h, (const char *[]){ "map", "sem", "host", "upload" }[p]) || (p == 1 && !strcmp(h, "semgone")))
            for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++)
                one(&paths[p], &targets[t], 40, 24);
    if (!strcmp(h, "every"))
        every_path_every_target(NULL);
    if (!strcmp(h, "queued"))
        queued_frames_in_order(NULL);
    history_vulkan(h);
    fails = ring_depths(matrix_env, 1, 8, &fallbacks); /* 3 .. 8 slots, as s8-view5 and s9-view6 */
    printf("MATRIX %s after '%s': %d failure(s), %d probe fallback(s)\n", *matrix_env ? matrix_env : "(defaults)", h,
           fails, fallbacks);
    assert_int_equal(fails, 0);
    if (!*h)
        assert_int_equal(fallbacks, 0);
}

/* A plane of a 3D field through MAP and SHARED into an R32F texture: x + 10 y + 100 z. */
static void planes_on_the_gpu(void **state)
{
    int nx = 24, ny = 20, nz = 16;
    float *v = malloc(sizeof *v * nx * ny * nz);
    void *dev;
    (void)state;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++)
                v[x + nx * (y + ny * z)] = (float)(x + 10 * y + 100 * z);
    dev = up(gpu, v, sizeof *v * nx * ny * nz);
    for (int p = 0; p < 2; p++)
        for (int axis = 0; axis < 3; axis++) {
            int w = axis == HOMG_VIEW_SLICE_X ? ny : nx, h = axis == HOMG_VIEW_SLICE_Z ? ny : nz, slice = 5;
            GLuint t = view_gl_texture(GL_R32F, w, h);
            homg_view_desc d = { 0 };
            homg_view_write_desc wd = { 0 };
            homg_view *view = NULL;
            float *back;
            d.get_proc_address = demo_egl_proc;
            d.gl_name = t;
            d.path = p ? HOMG_VIEW_PATH_SHARED : HOMG_VIEW_PATH_MAP;
            assert_int_equal(homg_view_create(gpu, &d, &view), HOMG_OK);
            wd.nx = nx;
            wd.ny = ny;
            wd.nz = nz;
            wd.slice_axis = (homg_view_axis)axis;
            wd.slice = slice;
            assert_int_equal(homg_view_write(view, dev, &wd), HOMG_OK);
            back = view_gl_read_texture(t, w, h, 0);
            for (int j = 0; j < h; j++)
                for (int i = 0; i < w; i++) {
                    float want = axis == HOMG_VIEW_SLICE_Z   ? (float)(i + 10 * j + 100 * slice)
                                 : axis == HOMG_VIEW_SLICE_Y ? (float)(i + 10 * slice + 100 * j)
                                                             : (float)(slice + 10 * i + 100 * j);
                    assert_true(back[i + w * j] == want);
                }
            free(back);
            homg_view_destroy(view);
            glDeleteTextures(1, &t);
        }
    homg_free(gpu, dev);
    free(v);
}

/* AUTO measures MAP and SHARED and keeps an interop path. */
static void auto_measures(void **state)
{
    int w = quick ? 64 : 1024;
    GLuint t = view_gl_texture(GL_RGBA8, w, w);
    homg_view_desc d = { 0 };
    homg_view *v = NULL;
    homg_view_info info;
    (void)state;
    d.get_proc_address = demo_egl_proc;
    d.gl_name = t;
    assert_int_equal(homg_view_create(gpu, &d, &v), HOMG_OK);
    homg_view_get_info(v, &info);
    printf("  AUTO at %d^2 RGBA8: %s (%s); renderer %s\n", w, homg_view_path_name(info.path), info.reason,
           info.gl_renderer);
    assert_true(info.path == HOMG_VIEW_PATH_MAP || info.path == HOMG_VIEW_PATH_SHARED);
    assert_true(info.measured_ms[HOMG_VIEW_PATH_MAP] > 0);
    homg_view_destroy(v);
    d.latency = 1; /* a frame loop: writes queued, the ring for SHARED */
    assert_int_equal(homg_view_create(gpu, &d, &v), HOMG_OK);
    homg_view_get_info(v, &info);
    printf("  AUTO, latency 1: %s (%s)\n", homg_view_path_name(info.path), info.reason);
    assert_true(info.path == HOMG_VIEW_PATH_MAP || info.path == HOMG_VIEW_PATH_SHARED);
    homg_view_destroy(v);
    glDeleteTextures(1, &t);
}

/* The GL context's CUDA devices as cudaGLGetDevices sees them, and the rule applied to
 * them; a context on another GPU cannot be made with one GPU (test_view checks the rule
 * on made-up device lists). */
static void device_check(void **state)
{
    int devs[8], count = 0;
    char why[200];
    (void)state;
    assert_int_equal(homg_cuda_view_kernels.gl_devices(&gpu->ex, devs, 8, &count), HOMG_OK);
    printf("  cudaGLGetDevices: %d device(s), first %d; ctx on %d\n", count, count ? devs[0] : -1, gpu->ex.device);
    assert_true(count >= 1);
    assert_true(homg__view_device_match(gpu->ex.device, devs, count, why, sizeof why));
    {
        int other = gpu->ex.device + 1;
        assert_false(homg__view_device_match(gpu->ex.device, &other, 1, why, sizeof why));
        printf("  a context on CUDA device %d would read: %s\n", other, why);
    }
}

static void bad_input_on_cuda(void **state)
{
    GLuint t = view_gl_texture(GL_R32F, 16, 16);
    homg_view_desc d = { 0 };
    homg_view *v = NULL;
    homg_view_write_desc wd = { 0 };
    float host[256] = { 0 };
    void *dev = up(gpu, host, sizeof host);
    (void)state;
    d.get_proc_address = demo_egl_proc;
    d.gl_name = t;
    d.path = HOMG_VIEW_PATH_MAP;
    assert_int_equal(homg_view_create(gpu, &d, &v), HOMG_OK);
    wd.nx = wd.ny = 16;
    assert_int_equal(homg_view_write(v, host, &wd), HOMG_ERROR_INVALID_ARGUMENT); /* a host pointer */
    printf("  %s\n", homg_ctx_last_error(gpu));
    wd.nx = 8;
    assert_int_equal(homg_view_write(v, dev, &wd), HOMG_ERROR_INVALID_ARGUMENT);
    printf("  %s\n", homg_ctx_last_error(gpu));
    wd.nx = 16;
    demo_egl_release();
    assert_int_equal(homg_view_write(v, dev, &wd), HOMG_ERROR_INVALID_ARGUMENT);
    printf("  %s\n", homg_ctx_last_error(gpu));
    demo_egl_make_current();
    assert_int_equal(homg_view_write(v, dev, &wd), HOMG_OK);
    homg_view_destroy(v);
    demo_egl_release();
    assert_int_equal(homg_view_create(gpu, &d, &v), HOMG_ERROR_INVALID_ARGUMENT);
    printf("  %s\n", homg_ctx_last_error(gpu));
    demo_egl_make_current();
    glDeleteTextures(1, &t);
    assert_int_equal(homg_view_create(gpu, &d, &v), HOMG_ERROR_INVALID_ARGUMENT);
    printf("  %s\n", homg_ctx_last_error(gpu));
    t = view_gl_texture(GL_RGBA16F, 16, 16);
    d.gl_name = t;
    assert_int_equal(homg_view_create(gpu, &d, &v), HOMG_ERROR_INVALID_ARGUMENT);
    printf("  %s\n", homg_ctx_last_error(gpu));
    glDeleteTextures(1, &t);
    homg_free(gpu, dev);
    assert_int_equal(glGetError(), GL_NO_ERROR);
}

/* ---------------------------------------------------------------- probes
 * `test_view_gpu probe NAME`, each in its own process: does the GL context still
 * take a MAP view (register, write, read back) after NAME?  They tell which
 * teardown breaks NVIDIA's GL-CUDA interop. */

static int probe_map(const char *when)
{
    int n = 64, devs[4], count = 0;
    GLuint t = view_gl_texture(GL_R32F, n, n);
    homg_view_desc d = { 0 };
    homg_view_write_desc wd = { 0 };
    homg_view *v = NULL;
    double *v64 = view_ref_field((size_t)n * n, 5);
    void *dev = up(gpu, v64, (size_t)n * n * 8), *back;
    size_t bad;
    homg_cuda_view_kernels.gl_devices(&gpu->ex, devs, 4, &count);
    d.get_proc_address = demo_egl_proc;
    d.gl_name = t;
    d.path = HOMG_VIEW_PATH_MAP;
    if (homg_view_create(gpu, &d, &v) != HOMG_OK) {
        printf("  %s: cudaGLGetDevices %d; MAP view: %s\n", when, count, homg_ctx_last_error(gpu));
        return 1;
    }
    wd.precision = HOMG_FLOAT64;
    wd.nx = wd.ny = n;
    if (homg_view_write(v, dev, &wd) != HOMG_OK) {
        printf("  %s: write: %s\n", when, homg_ctx_last_error(gpu));
        return 1;
    }
    back = view_gl_read_texture(t, n, n, 0);
    bad = view_ref_float_errors(back, v64, (size_t)n * n);
    printf("  %s: cudaGLGetDevices %d; MAP view written and read back, %zu wrong\n", when, count, bad);
    homg_view_destroy(v);
    glDeleteTextures(1, &t);
    homg_free(gpu, dev);
    free(back);
    free(v64);
    return bad != 0;
}

static int probe_view(homg_view_path path, int no_sem)
{
    int n = 64;
    GLuint t = view_gl_texture(GL_RGBA8, n, n);
    homg_view_desc d = { 0 };
    homg_view_write_desc wd = { 0 };
    homg_view *v = NULL;
    homg_view_info info;
    void *dev = NULL;
    d.get_proc_address = demo_egl_proc;
    d.gl_name = t;
    d.path = path;
    d.no_semaphores = no_sem;
    if (homg_view_create(gpu, &d, &v) != HOMG_OK) {
        printf("  %s view: %s\n", homg_view_path_name(path), homg_ctx_last_error(gpu));
        return 1;
    }
    homg_view_get_info(v, &info);
    homg_alloc(gpu, (size_t)n * n * 4, &dev);
    homg_ctx_synchronize(gpu);
    wd.nx = wd.ny = n;
    if (homg_view_write(v, dev, &wd) != HOMG_OK)
        printf("  write: %s\n", homg_ctx_last_error(gpu));
    printf("  %s view made (semaphores %d), written, destroyed\n", homg_view_path_name(info.path), info.semaphores);
    homg_view_destroy(v);
    homg_free(gpu, dev);
    glDeleteTextures(1, &t);
    return 0;
}

#if HOMG_HAVE_VULKAN
#define VK_NO_PROTOTYPES
#include <dlfcn.h>
#include <vulkan/vulkan.h>
/* What vulkan.c did before: an instance made and destroyed, the loader closed. */
static int vk_teardown(void)
{
    void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    PFN_vkGetInstanceProcAddr gipa = lib ? (PFN_vkGetInstanceProcAddr)dlsym(lib, "vkGetInstanceProcAddr") : NULL;
    PFN_vkCreateInstance create = gipa ? (PFN_vkCreateInstance)gipa(NULL, "vkCreateInstance") : NULL;
    VkInstanceCreateInfo ci;
    VkInstance inst;
    memset(&ci, 0, sizeof ci);
    ci.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    if (!create || create(&ci, NULL, &inst) != VK_SUCCESS) {
        printf("  no Vulkan instance\n");
        return 1;
    }
    ((PFN_vkDestroyInstance)gipa(inst, "vkDestroyInstance"))(inst, NULL);
    dlclose(lib);
    printf("  a Vulkan instance made and destroyed, libvulkan closed\n");
    return 0;
}
#else
static int vk_teardown(void) { return 1; }
#endif

static int probe(const char *name)
{
    int rc;
    if (setup(NULL) != 0)
        return 1;
    printf("PROBE %s\n", name);
    rc = probe_map("before");
    if (!strcmp(name, "map-twice"))
        rc |= probe_view(HOMG_VIEW_PATH_MAP, 0);
    else if (!strcmp(name, "shared-host"))
        rc |= probe_view(HOMG_VIEW_PATH_SHARED, 1);
    else if (!strcmp(name, "shared-sem"))
        rc |= probe_view(HOMG_VIEW_PATH_SHARED, 0);
    else if (!strcmp(name, "vk-teardown"))
        rc |= vk_teardown();
    rc |= probe_map("after");
    printf("PROBE %s: %s\n", name, rc ? "FAIL" : "OK");
    teardown(NULL);
    return rc;
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernels_match_cpu),      cmocka_unit_test(every_path_every_target),
        cmocka_unit_test(queued_frames_in_order), cmocka_unit_test(ring_shows_complete_frames),
        cmocka_unit_test(ring_every_depth),       cmocka_unit_test(planes_on_the_gpu),
        cmocka_unit_test(auto_measures),          cmocka_unit_test(device_check),
        cmocka_unit_test(bad_input_on_cuda),
    };
    const struct CMUnitTest matrix[] = { cmocka_unit_test(ring_matrix) };
    quick = argc > 1 && !strcmp(argv[1], "quick");
    if (argc > 2 && !strcmp(argv[1], "probe"))
        return probe(argv[2]);
    if (argc > 1 && !strcmp(argv[1], "matrix")) {
        matrix_env = argc > 2 ? argv[2] : "";
        matrix_history = argc > 3 ? argv[3] : "";
        return cmocka_run_group_tests(matrix, setup, teardown);
    }
    return cmocka_run_group_tests(tests, setup, teardown);
}
#else
int main(void)
{
    homg_test_require_gpu("test_view_gpu (built without CUDA, or without OpenGL, GLEW or EGL headers)");
    return HOMG_TEST_SKIP;
}
#endif
