/* bench_view.c -- what drawing a solution in place costs, on the GPU machine
 * (headless EGL on the NVIDIA GPU, the CUDA backend):
 *   A. the bare write kernel (GPU time, CUDA events): raw float, colours with a
 *      given range, colours with the range found on the device;
 *   B. the hand-over floor: a cudaGraphicsMapResources + Unmap pair, nothing written;
 *   C. every path x target at 1024^2 and 2048^2: the write + hand-over + GL's
 *      first use (a draw sampling the object) with glFinish, per frame (median);
 *      the host time inside homg_view_write; frames queued back to back (mean);
 *      and what AUTO picks;
 *   D. a `heat` frame at 1024^2 (a source moving each frame, warm V-cycles to a
 *      relative residual of 1e-3, colour map): GPU time, and the frame loop serial
 *      (solve, write, draw, glFinish) against pipelined (write, the next solve
 *      queued without host waits, draw);
 *   E. a `mesh` frame on hole2d refined to 1.24M triangles as demo/mesh.c does
 *      it: vertex colours of the last solution, homg_mesh_splat, right-hand side
 *      re-assembled alone, GMG-PCG warm to 1e-5, a coarser level's triangles
 *      drawn; beside it the finest level drawn, and the first demo's AMG path;
 *   F. the hand-over taken apart: GL alone, CUDA alone, map + unmap alone, CUDA
 *      and GL work with nothing shared, the map of an object GL does not draw,
 *      2 or 3 textures in turn, one map call for two objects; GL timer queries
 *      and CUDA events for each side's GPU time (D then takes the pipelined heat
 *      loop apart the same way).
 * Prints the table last; --out FILE also writes it to FILE (nothing is written by
 * default: bench/results/h100_view.md is edited by hand); --sections DE runs only
 * those sections. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "homg.h"
#include "testutil.h"

#ifndef HOMG_BUILD_ID
#define HOMG_BUILD_ID "unknown commit"
#endif

#if HOMG_HAVE_CUDA && HOMG_HAVE_DEMO_GL
#include <GL/glew.h>

#include "core/internal.h"
#include "harness/egl.h"
#include "harness/harness.h"
#include "view/view_internal.h"
#include "gl_map_all.h"
#include "table_out.h"

enum { REPS = 50, WARM = 5, FB = 1024 };

static homg_ctx *gpu;
static char table[1 << 16];
static size_t used;

#define ROW(...) homg__append(table, sizeof table, &used, __VA_ARGS__)

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void check(homg_status st, const char *what)
{
    if (st != HOMG_OK) {
        fprintf(stderr, "bench_view: %s: %s: %s\n", what, homg_status_string(st), homg_ctx_last_error(gpu));
        exit(1);
    }
}

/* ---------------------------------------------------------------- GL: the "first use" */

static GLuint prog_tex, prog_buf, vao, tbo_tex;

static const char *vs = "#version 330 core\n"
                        "out vec2 uv;\n"
                        "void main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1); uv = p;\n"
                        "              gl_Position = vec4(2.0 * p - 1.0, 0, 1); }\n";
static const char *fs_tex = "#version 330 core\n"
                            "in vec2 uv; uniform sampler2D t; out vec4 c;\n"
                            "void main() { c = vec4(texture(t, uv).rgb, 1); }\n";
static const char *fs_buf = "#version 330 core\n"
                            "in vec2 uv; uniform samplerBuffer t; uniform int n; out vec4 c;\n"
                            "void main() { int i = int(gl_FragCoord.x) + 1024 * int(gl_FragCoord.y);\n"
                            "              c = vec4(texelFetch(t, i % n).rgb, 1); }\n";

static void gl_setup(void)
{
    prog_tex = demo_program(vs, fs_tex);
    prog_buf = demo_program(vs, fs_buf);
    glGenVertexArrays(1, &vao);
    glGenTextures(1, &tbo_tex);
    glViewport(0, 0, FB, FB);
}

/* A draw over the whole pbuffer that samples the object (texture, or buffer as a texture buffer). */
static void first_use(GLuint name, int is_buffer, int rgba8, int n)
{
    glBindVertexArray(vao);
    if (is_buffer) {
        glUseProgram(prog_buf);
        glUniform1i(glGetUniformLocation(prog_buf, "n"), n);
        glBindTexture(GL_TEXTURE_BUFFER, tbo_tex);
        glTexBuffer(GL_TEXTURE_BUFFER, rgba8 ? GL_RGBA8 : GL_R32F, name);
    } else {
        glUseProgram(prog_tex);
        glBindTexture(GL_TEXTURE_2D, name);
    }
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

/* ---------------------------------------------------------------- fields */

static void *device_field(int n, uint64_t seed)
{
    size_t m = (size_t)n * n;
    float *h = malloc(m * sizeof *h);
    void *d = NULL;
    homg_rng r = homg_rng_seed(seed);
    for (size_t k = 0; k < m; k++)
        h[k] = (float)homg_rng_uniform(&r);
    check(homg_alloc(gpu, m * 4, &d), "homg_alloc");
    check(homg_copy_from_host(gpu, d, h, m * 4), "homg_copy_from_host");
    free(h);
    return d;
}

/* ---------------------------------------------------------------- A, B */

static void bare_kernel(int n)
{
    const view_kernels *k = &homg_cuda_view_kernels;
    void *src = device_field(n, 1), *dst = NULL;
    int32_t *range = NULL;
    homg_timer *t;
    double ms[3][REPS];
    view_src s = { src, HOMG_FLOAT32, 0, 1, n, n, n };
    check(homg_alloc(gpu, (size_t)n * n * 4, &dst), "homg_alloc");
    check(homg_alloc(gpu, 8, (void **)&range), "homg_alloc");
    check(homg_timer_create(gpu, &t), "homg_timer_create");
    for (int v = 0; v < 3; v++)
        for (int r = -WARM; r < REPS; r++) {
            view_dst d = { v > 0, dst, 0, 0.0f, 1.0f, NULL };
            homg_timer_start(t);
            if (v == 2) {
                k->range(&gpu->ex, &s, range);
                d.range = range;
            }
            k->write(&gpu->ex, &s, &d);
            homg_timer_stop(t);
            if (r >= 0)
                check(homg_timer_ms(t, &ms[v][r]), "homg_timer_ms");
        }
    ROW("| %d^2 | %.4f | %.4f | %.4f | %.0f |\n", n, median(ms[0], REPS), median(ms[1], REPS), median(ms[2], REPS),
        2.0 * n * n * 4 / (median(ms[0], REPS) * 1e6));
    homg_timer_destroy(t);
    homg_free(gpu, src);
    homg_free(gpu, dst);
    homg_free(gpu, range);
}

static void handover_floor(int n)
{
    const view_kernels *k = &homg_cuda_view_kernels;
    GLuint tex;
    void *res = NULL;
    double host[REPS], total[REPS];
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, n, n);
    check(k->gl_register(&gpu->ex, tex, 1, &res), "register");
    for (int r = -WARM; r < REPS; r++) {
        view_dst d = { 1, NULL, 0, 0, 1, NULL };
        size_t bytes;
        double t0 = now_ms(), t1;
        check(k->gl_map(&gpu->ex, res, 1, &d, &bytes), "map");
        check(k->gl_unmap(&gpu->ex, res, &d), "unmap");
        t1 = now_ms();
        first_use(tex, 0, 1, 0);
        glFinish();
        check(homg_ctx_synchronize(gpu), "sync");
        if (r >= 0) {
            host[r] = t1 - t0;
            total[r] = now_ms() - t0;
        }
    }
    ROW("| %d^2 | %.3f | %.3f |\n", n, median(host, REPS), median(total, REPS));
    k->gl_unregister(res);
    glDeleteTextures(1, &tex);
}

/* ---------------------------------------------------------------- C */

typedef struct target {
    const char *name;
    int is_buffer, rgba8;
} target;

static void path_case(int n, homg_view_path path, int no_sem, const target *tg, void *field)
{
    homg_view_desc d = { 0 };
    homg_view_write_desc wd = { 0 };
    homg_view *v = NULL;
    homg_view_info info;
    GLuint tex = 0, name;
    double serial[REPS], host[REPS], t0, queued_host = 0;
    const char *pname = path == HOMG_VIEW_PATH_AUTO ? "auto" : homg_view_path_name(path);
    homg_status st;
    if (!tg->is_buffer) {
        glGenTextures(1, &tex);
        glBindTexture(GL_TEXTURE_2D, tex);
        glTexStorage2D(GL_TEXTURE_2D, 1, tg->rgba8 ? GL_RGBA8 : GL_R32F, n, n);
        glBindTexture(GL_TEXTURE_2D, 0);
    }
    d.get_proc_address = demo_egl_proc;
    d.target = tg->is_buffer ? HOMG_VIEW_BUFFER : HOMG_VIEW_TEXTURE_2D;
    d.gl_name = tex;
    d.format = tg->rgba8 ? HOMG_VIEW_RGBA8 : HOMG_VIEW_R32F;
    d.count = tg->is_buffer ? n * n : 0;
    d.path = path;
    d.no_semaphores = no_sem;
    st = homg_view_create(gpu, &d, &v);
    if (st != HOMG_OK) {
        ROW("| %d^2 | %s | %s%s | unavailable: %s | | | | | |\n", n, tg->name, pname, no_sem ? " (host-ordered)" : "",
            homg_ctx_last_error(gpu));
        if (tex)
            glDeleteTextures(1, &tex);
        return;
    }
    homg_view_get_info(v, &info);
    name = homg_view_gl_name(v);
    wd.nx = wd.ny = n; /* float32, range found on the device for RGBA8 */
    for (int r = -WARM; r < REPS; r++) {
        double t1;
        t0 = now_ms();
        check(homg_view_write(v, field, &wd), "homg_view_write");
        t1 = now_ms();
        first_use(name, tg->is_buffer, tg->rgba8, n * n);
        glFinish();
        check(homg_ctx_synchronize(gpu), "sync");
        if (r >= 0) {
            host[r] = t1 - t0;
            serial[r] = now_ms() - t0;
        }
    }
    t0 = now_ms();
    for (int r = 0; r < REPS; r++) {
        double w0 = now_ms();
        check(homg_view_write(v, field, &wd), "homg_view_write");
        queued_host += now_ms() - w0;
        first_use(name, tg->is_buffer, tg->rgba8, n * n);
    }
    glFinish();
    check(homg_ctx_synchronize(gpu), "sync");
    ROW("| %d^2 | %s | %s%s | %s%s | %.3f | %.3f | %.3f | %.3f | %s |\n", n, tg->name, pname,
        no_sem ? " (host-ordered)" : "", homg_view_path_name(info.path),
        info.path == HOMG_VIEW_PATH_SHARED ? (info.semaphores ? " + semaphores" : " + host order") : "",
        median(serial, REPS), median(host, REPS), (now_ms() - t0) / REPS, queued_host / REPS,
        path == HOMG_VIEW_PATH_AUTO ? info.reason : "");
    homg_view_destroy(v);
    if (tex)
        glDeleteTextures(1, &tex);
}

/* ---------------------------------------------------------------- F: where the hand-over goes */

/* Frames of one experiment at 1024^2 (RGBA8): `step` queues frame k.  Serial: each
 * frame then glFinish + the stream synchronised (median, host clock); queued: REPS
 * frames back to back, one glFinish + sync at the end (mean).  In the queued run a
 * GL_TIME_ELAPSED query brackets each frame's draw(s) and a pair of CUDA events the
 * frame's CUDA work from before the map (the map's GPU-side wait included). */
enum { FX_N = 1024 };

typedef struct fx {
    GLuint tex[3], plain; /* tex[] registered with CUDA, plain never */
    void *res[3];
    void *field, *buf;
    int32_t *range;
    GLuint query[REPS];
    homg_timer *cuda[REPS];
    int k, timed; /* the frame, and whether its timers run */
} fx;

typedef void (*fx_step)(fx *x);

static void fx_draw(fx *x, GLuint tex)
{
    if (x->timed)
        glBeginQuery(GL_TIME_ELAPSED, x->query[x->k]);
    first_use(tex, 0, 1, 0);
    if (x->timed)
        glEndQuery(GL_TIME_ELAPSED);
}

static void fx_cuda_begin(fx *x)
{
    if (x->timed)
        homg_timer_start(x->cuda[x->k]);
}

static void fx_cuda_end(fx *x)
{
    if (x->timed)
        homg_timer_stop(x->cuda[x->k]);
}

static void fx_kernels(fx *x, view_dst *d)
{
    const view_kernels *k = &homg_cuda_view_kernels;
    view_src s = { x->field, HOMG_FLOAT32, 0, 1, FX_N, FX_N, FX_N };
    k->range(&gpu->ex, &s, x->range);
    d->range = x->range;
    k->write(&gpu->ex, &s, d);
}

/* map resources[0..n), the write into the first (when `write`), unmap */
static void fx_handover(fx *x, void **res, int n, int write)
{
    const view_kernels *k = &homg_cuda_view_kernels;
    view_dst d = { 1, NULL, 0, 0, 1, NULL };
    size_t bytes;
    if (n == 1) {
        check(k->gl_map(&gpu->ex, res[0], 1, &d, &bytes), "map");
        if (write)
            fx_kernels(x, &d);
        check(k->gl_unmap(&gpu->ex, res[0], &d), "unmap");
        return;
    }
    /* one cudaGraphicsMapResources for all: through the runtime, as kernels/view would */
    if (bench_gl_map_all(res, n, 1, gpu->ex.stream) || bench_gl_map_all(res, n, 0, gpu->ex.stream)) {
        fprintf(stderr, "bench_view: mapping %d resources in one call failed\n", n);
        exit(1);
    }
}

static void fx_gl_plain(fx *x) { fx_draw(x, x->plain); }
static void fx_gl_registered(fx *x) { fx_draw(x, x->tex[0]); }

static void fx_cuda_write(fx *x)
{
    view_dst d = { 1, x->buf, 0, 0, 1, NULL };
    fx_cuda_begin(x);
    fx_kernels(x, &d);
    fx_cuda_end(x);
}

static void fx_map_only(fx *x)
{
    fx_cuda_begin(x);
    fx_handover(x, x->res, 1, 0);
    fx_cuda_end(x);
}

static void fx_map_write(fx *x)
{
    fx_cuda_begin(x);
    fx_handover(x, x->res, 1, 1);
    fx_cuda_end(x);
}

static void fx_unshared(fx *x)
{
    fx_cuda_write(x);
    fx_draw(x, x->plain);
    glFlush();
}

static void fx_full(fx *x)
{
    fx_map_write(x);
    fx_draw(x, x->tex[0]);
    glFlush();
}

static void fx_floor(fx *x)
{
    fx_map_only(x);
    fx_draw(x, x->tex[0]);
    glFlush();
}

/* the map and unmap of tex[0] while GL draws only the plain texture: does the map wait for all GL work? */
static void fx_map_other(fx *x)
{
    fx_map_only(x);
    fx_draw(x, x->plain);
    glFlush();
}

static void fx_ring(fx *x, int n)
{
    int i = x->k % n;
    fx_cuda_begin(x);
    fx_handover(x, &x->res[i], 1, 1);
    fx_cuda_end(x);
    fx_draw(x, x->tex[i]);
    glFlush();
}

static void fx_ring2(fx *x) { fx_ring(x, 2); }
static void fx_ring3(fx *x) { fx_ring(x, 3); }

/* two objects a frame: one map call for both, or a pair each; both drawn */
static void fx_two(fx *x, int together)
{
    fx_cuda_begin(x);
    if (together)
        fx_handover(x, x->res, 2, 0);
    else {
        fx_handover(x, &x->res[0], 1, 0);
        fx_handover(x, &x->res[1], 1, 0);
    }
    fx_cuda_end(x);
    if (x->timed)
        glBeginQuery(GL_TIME_ELAPSED, x->query[x->k]);
    first_use(x->tex[0], 0, 1, 0);
    first_use(x->tex[1], 0, 1, 0);
    if (x->timed)
        glEndQuery(GL_TIME_ELAPSED);
    glFlush();
}

static void fx_two_together(fx *x) { fx_two(x, 1); }
static void fx_two_apart(fx *x) { fx_two(x, 0); }

static void fx_finish(void)
{
    glFinish();
    check(homg_ctx_synchronize(gpu), "sync");
}

static void fx_row(fx *x, const char *name, fx_step step, int has_cuda, int has_gl)
{
    double serial[REPS], cuda[REPS], gl[REPS], t0, queued;
    x->timed = 0;
    for (int r = -WARM; r < REPS; r++) {
        x->k = r < 0 ? r + WARM : r;
        t0 = now_ms();
        step(x);
        fx_finish();
        if (r >= 0)
            serial[r] = now_ms() - t0;
    }
    x->timed = 1;
    t0 = now_ms();
    for (x->k = 0; x->k < REPS; x->k++)
        step(x);
    fx_finish();
    queued = (now_ms() - t0) / REPS;
    for (int r = 0; r < REPS; r++) {
        GLuint64 ns = 0;
        cuda[r] = gl[r] = 0;
        if (has_cuda)
            check(homg_timer_ms(x->cuda[r], &cuda[r]), "timer");
        if (has_gl) {
            glGetQueryObjectui64v(x->query[r], GL_QUERY_RESULT, &ns);
            gl[r] = ns * 1e-6;
        }
    }
    char c[16] = "-", g[16] = "-";
    if (has_cuda)
        snprintf(c, sizeof c, "%.3f", median(cuda, REPS));
    if (has_gl)
        snprintf(g, sizeof g, "%.3f", median(gl, REPS));
    ROW("| %s | %.3f | %.3f | %s | %s |\n", name, median(serial, REPS), queued, c, g);
}

/* The rows of section F: each frame's work, and whether it has CUDA work and a draw to time. */
static const struct {
    const char *name;
    fx_step step;
    int cuda, gl;
} fx_rows[] = {
    { "GL alone: a draw of an unregistered texture", fx_gl_plain, 0, 1 },
    { "GL alone: a draw of a registered texture, never mapped", fx_gl_registered, 0, 1 },
    { "CUDA alone: colour range + write kernel into device memory", fx_cuda_write, 1, 0 },
    { "CUDA alone: map + unmap, no draw", fx_map_only, 1, 0 },
    { "CUDA alone: map + range + write + unmap, no draw", fx_map_write, 1, 0 },
    { "CUDA write into device memory + GL draw of another texture, nothing shared", fx_unshared, 1, 1 },
    { "map + unmap of texture 0, GL draws only another texture", fx_map_other, 1, 1 },
    { "map + unmap (nothing written) + a draw of it: section B's floor", fx_floor, 1, 1 },
    { "the hand-over: map + write + unmap + a draw of it", fx_full, 1, 1 },
    { "the same, 2 textures written and drawn in turn", fx_ring2, 1, 1 },
    { "the same, 3 textures in turn", fx_ring3, 1, 1 },
    { "2 textures each frame: one map call for both, both drawn", fx_two_together, 1, 1 },
    { "2 textures each frame: a map/unmap pair each, both drawn", fx_two_apart, 1, 1 },
};

static void handover_parts(void)
{
    const view_kernels *k = &homg_cuda_view_kernels;
    fx x = { 0 };
    x.field = device_field(FX_N, 3);
    check(homg_alloc(gpu, 4 * (size_t)FX_N * FX_N, &x.buf), "homg_alloc");
    check(homg_alloc(gpu, 8, (void **)&x.range), "homg_alloc");
    glGenTextures(3, x.tex);
    glGenTextures(1, &x.plain);
    for (int i = 0; i < 4; i++) {
        glBindTexture(GL_TEXTURE_2D, i < 3 ? x.tex[i] : x.plain);
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, FX_N, FX_N);
        if (i < 3)
            check(k->gl_register(&gpu->ex, x.tex[i], 1, &x.res[i]), "register");
    }
    glGenQueries(REPS, x.query);
    for (int r = 0; r < REPS; r++)
        check(homg_timer_create(gpu, &x.cuda[r]), "timer");
    ROW("\n## F. Where the hand-over goes (RGBA8 texture %d^2, a %dx%d draw sampling it)\n\n", FX_N, FB, FB);
    ROW("serial = the frame, then glFinish + stream synchronised (median of %d, host clock); queued = %d frames back "
        "to back, one glFinish + sync (mean per frame); CUDA GPU ms = events before the map (or the kernels) and "
        "after the unmap, queued (median; the map's GPU-side wait for GL is inside); GL GPU ms = GL_TIME_ELAPSED "
        "around the frame's draw(s), queued (median; a wait for CUDA at the draw is inside); "
        "\"-\": not in that row.\n\n"
        "| frame | serial ms | queued ms/frame | CUDA GPU ms | GL GPU ms |\n|---|---|---|---|---|\n",
        REPS, REPS);
    for (size_t i = 0; i < sizeof fx_rows / sizeof *fx_rows; i++)
        fx_row(&x, fx_rows[i].name, fx_rows[i].step, fx_rows[i].cuda, fx_rows[i].gl);
    for (int r = 0; r < REPS; r++)
        homg_timer_destroy(x.cuda[r]);
    glDeleteQueries(REPS, x.query);
    for (int i = 0; i < 3; i++)
        k->gl_unregister(x.res[i]);
    glDeleteTextures(3, x.tex);
    glDeleteTextures(1, &x.plain);
    homg_free(gpu, x.field);
    homg_free(gpu, x.buf);
    homg_free(gpu, x.range);
}

/* ---------------------------------------------------------------- D: heat */

/* The source of frame r (one of SOURCES precomputed, a Gaussian a few cells further
 * round a circle each frame) copied into the one f the grid sees: a solve's graph is
 * kept for its arrays, as in the demo. */
enum { HEAT_N = 1024, SOURCES = 16, FRAMES = 100 };

static void *heat_f[SOURCES], *heat_ref[SOURCES], *heat_fcur, *heat_u;

static void heat_source(int r)
{
    check(gpu->mem->copy(&gpu->ex, heat_fcur, heat_f[r % SOURCES], sizeof(float) * HEAT_N * HEAT_N, HOMG_D2D), "copy");
}

/* Sources and their solutions (ten V-cycles from zero: error about 1e-6, the reference
 * the frames' error is measured against). */
static void heat_setup(homg_grid *grid)
{
    float *h = malloc(sizeof *h * HEAT_N * HEAT_N);
    homg_boundary bc = { 0 };
    homg_solve_desc sd = { 0 };
    homg_solve_info info;
    size_t bytes = sizeof *h * HEAT_N * HEAT_N;
    for (int s = 0; s < SOURCES; s++) {
        double cx = 0.5 + 0.25 * cos(0.05 * s), cy = 0.5 + 0.25 * sin(0.05 * s);
        for (int j = 0; j < HEAT_N; j++)
            for (int i = 0; i < HEAT_N; i++) {
                double dx = (i + 0.5) / HEAT_N - cx, dy = (j + 0.5) / HEAT_N - cy;
                h[i + HEAT_N * j] = (float)(1000 * exp(-(dx * dx + dy * dy) / (2 * 0.02 * 0.02)));
            }
        check(homg_alloc(gpu, bytes, &heat_f[s]), "homg_alloc");
        check(homg_alloc(gpu, bytes, &heat_ref[s]), "homg_alloc");
        check(homg_copy_from_host(gpu, heat_f[s], h, bytes), "copy");
        sd.max_cycles = 10;
        check(homg_grid_solve(grid, heat_f[s], &bc, heat_ref[s], &sd, &info), "reference solve");
    }
    check(homg_alloc(gpu, bytes, &heat_fcur), "homg_alloc");
    check(homg_alloc(gpu, bytes, &heat_u), "homg_alloc");
    check(gpu->mem->copy(&gpu->ex, heat_u, heat_ref[0], bytes, HOMG_D2D), "copy");
    free(h);
}

/* The pipelined frame loop (one cycle per frame, no host waits) taken apart, mean
 * ms per frame over FRAMES frames queued back to back: `views` > 0 writes through
 * that many views on as many textures in turn; `first` queues the solve before the
 * write; `gl` draws (the texture written, or with views = 0 an unrelated one);
 * `colours` writes the colour map into device memory when views = 0. */
typedef struct loop_variant {
    const char *name;
    int views, first, gl, colours;
    homg_view_path path;
    const char *env; /* NAME=VALUE ... (space-separated) set while the views are made, or NULL */
    int latency;     /* homg_view_desc.latency (SHARED: the ring) */
    int other;       /* with views: draw an unrelated texture (GL never touches the view's memory) */
    int sync;        /* views = 0: the ring's host calls on unrelated objects (SYNC_*) */
    int trace;       /* s9-view7: print the untimed pass's host timeline of its first TRACE frames */
} loop_variant;

/* The ring's host calls with nothing shared: an event recorded after the colours
 * and the one of 2 frames back queried; a fence after the frame's GL work and the
 * one of 1 frame back polled (zero timeout, flush bit); with SYNC_WAIT the host
 * first waits for the event and the fence of SYNC_BACK frames back (the ring's
 * 3 slots, its depth before s8-view5: how far ahead it lets the host run). */
enum { SYNC_EVENT = 1, SYNC_FENCE = 2, SYNC_WAIT = 4, SYNC_BACK = 3 };
/* s9-view7: SYNC_PACE1, nothing shared paced at 1 as the ring's AHEAD=1: before the colours the host waits for
 * the event recorded after the previous frame's colours (no fences). */
enum { SYNC_PACE1 = 8 };
static void *sync_ev[SYNC_BACK];
static GLsync sync_fence[SYNC_BACK];

static void sync_frame(int sync, int f)
{
    const view_kernels *k = &homg_cuda_view_kernels;
    int i = f % SYNC_BACK, done = 0;
    if (sync & SYNC_WAIT) {
        if (sync_ev[i])
            check(k->event_done(&gpu->ex, sync_ev[i], 1, &done), "event wait");
        if (sync_fence[i])
            glClientWaitSync(sync_fence[i], GL_SYNC_FLUSH_COMMANDS_BIT, 10000000000ull);
    }
    if (sync & SYNC_EVENT) {
        if (!sync_ev[i])
            check(k->event_create(&gpu->ex, 0, &sync_ev[i]), "event");
        check(k->event_record(&gpu->ex, sync_ev[i]), "event record");
        if (sync_ev[(f + 1) % SYNC_BACK])
            check(k->event_done(&gpu->ex, sync_ev[(f + 1) % SYNC_BACK], 0, &done), "event query");
    }
    if (sync & SYNC_FENCE) {
        GLsync prev = sync_fence[(f + SYNC_BACK - 1) % SYNC_BACK];
        if (sync_fence[i])
            glDeleteSync(sync_fence[i]);
        sync_fence[i] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        if (prev)
            glClientWaitSync(prev, GL_SYNC_FLUSH_COMMANDS_BIT, 0);
    }
}

static void sync_end(void)
{
    for (int i = 0; i < SYNC_BACK; i++) {
        if (sync_fence[i])
            glDeleteSync(sync_fence[i]);
        homg_cuda_view_kernels.event_destroy(sync_ev[i]);
        sync_fence[i] = NULL;
        sync_ev[i] = NULL;
    }
}

/* Sets (on = 1) or unsets the variables of "NAME=VALUE NAME=VALUE ...". */
static void set_env(const char *list, int on)
{
    char buf[256], *save = NULL;
    snprintf(buf, sizeof buf, "%s", list ? list : "");
    for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(t, '=');
        if (!eq)
            continue;
        *eq = 0;
        if (on)
            setenv(t, eq + 1, 1);
        else
            unsetenv(t);
    }
}

static double loop_t0;                       /* the loop's clock: after the warm-up frames */
static long long loop_lag;                   /* the last loop's writes minus the write its view showed at the end */
static int loop_direct;                      /* the last loop's view drew the ring's slots as textures (no copy) */
static double loop_gl_write, loop_gl_draw;   /* GL GPU ms (median) inside homg_view_write, of the draw */
static double loop_gl_write_mean, loop_cuda; /* GL GPU ms in the write (mean); CUDA ms write + solve (median) */
static int loop_hands;                       /* the timed pass's hand-overs: writes shown (view 0) */
static long long loop_wait_n[2];             /* the untimed pass's host waits in the ring (view 0): GL fence, CUDA */
static double loop_wait_ms[2];
static double loop_host_write; /* the untimed pass's host ms inside homg_view_write, per frame */
static homg_timer *loop_timer[FRAMES];
/* s9-view7: GL's queue depth -- the GPU time a draw starts minus GL's time when the host queued it (ms) */
static double loop_gl_lag, loop_gl_lag_max;
/* s9-view7: the untimed pass's host timeline, frames 0 .. TRACE - 1 (ms; t from the loop's clock) */
enum { TRACE = 12 };
static double tr_t[TRACE], tr_write[TRACE], tr_gl[TRACE], tr_cuda[TRACE], tr_solve[TRACE], tr_draw[TRACE];
static int tr_drop[TRACE];
static GLint64 loop_gl_ts[FRAMES]; /* GL's time when the draw of frame r was queued (timed pass) */
static long long loop_drops;       /* the untimed pass's writes dropped (knobs.poll = 2; view 0) */

/* One pass of the loop: FRAMES frames after WARM; with `q` (2 * FRAMES query
 * names) a GL_TIME_ELAPSED query around each write and each draw. */
static void heat_pass(homg_grid *grid, homg_solve_desc *sd, const loop_variant *lv, homg_view **v, GLuint plain,
                      void *colours, int32_t *range, const GLuint *q)
{
    const view_kernels *k = &homg_cuda_view_kernels;
    homg_boundary bc = { 0 };
    homg_solve_info info;
    view_src s = { heat_u, HOMG_FLOAT32, 0, 1, HEAT_N, HEAT_N, HEAT_N };
    view_dst d = { 1, colours, 0, 0, 0, range };
    long long last = -1;
    loop_hands = 0;
    for (int r = -WARM; r < FRAMES; r++) {
        homg_view_write_desc wd = { 0 };
        int i = lv->views ? (r + WARM) % lv->views : 0, timed = q && r >= 0;
        wd.nx = wd.ny = HEAT_N;
        if (timed)
            homg_timer_start(loop_timer[r]);
        if (lv->first) {
            heat_source(r + WARM);
            check(homg_grid_solve(grid, heat_fcur, &bc, heat_u, sd, &info), "solve");
        }
        if (timed)
            glBeginQuery(GL_TIME_ELAPSED, q[r]);
        if (!q && r >= 0 && r < TRACE)
            tr_t[r] = now_ms() - loop_t0;
        if (lv->views) {
            double w0 = now_ms(), g0 = v[i]->waits_gl_ms, c0 = v[i]->waits_cuda_ms;
            long long d0 = v[i]->waits_drop;
            check(homg_view_write(v[i], heat_u, &wd), "write");
            if (!q && r >= 0)
                loop_host_write += now_ms() - w0;
            if (!q && r >= 0 && r < TRACE) {
                tr_write[r] = now_ms() - w0;
                tr_gl[r] = v[i]->waits_gl_ms - g0;
                tr_cuda[r] = v[i]->waits_cuda_ms - c0;
                tr_drop[r] = (int)(v[i]->waits_drop - d0);
            }
        } else if (lv->colours) {
            int f = r + WARM, done = 0;
            double w0 = now_ms();
            if ((lv->sync & SYNC_PACE1) && sync_ev[(f + SYNC_BACK - 1) % SYNC_BACK])
                check(k->event_done(&gpu->ex, sync_ev[(f + SYNC_BACK - 1) % SYNC_BACK], 1, &done), "event wait");
            if (!q && r >= 0 && r < TRACE)
                tr_cuda[r] = now_ms() - w0;
            k->range(&gpu->ex, &s, range);
            k->write(&gpu->ex, &s, &d);
            if (!q && r >= 0 && r < TRACE)
                tr_write[r] = now_ms() - w0;
            if (lv->sync & SYNC_PACE1) {
                if (!sync_ev[f % SYNC_BACK])
                    check(k->event_create(&gpu->ex, 0, &sync_ev[f % SYNC_BACK]), "event");
                check(k->event_record(&gpu->ex, sync_ev[f % SYNC_BACK]), "event record");
            }
        }
        if (lv->sync && !lv->gl)
            sync_frame(lv->sync, r + WARM);
        if (timed)
            glEndQuery(GL_TIME_ELAPSED);
        if (!lv->first) {
            double s0 = now_ms();
            heat_source(r + WARM);
            check(homg_grid_solve(grid, heat_fcur, &bc, heat_u, sd, &info), "solve");
            if (!q && r >= 0 && r < TRACE)
                tr_solve[r] = now_ms() - s0;
        }
        if (timed)
            homg_timer_stop(loop_timer[r]);
        if (timed && lv->views == 1) {
            homg_view_info vi;
            homg_view_get_info(v[0], &vi);
            loop_hands += vi.shown != last;
            last = vi.shown;
        }
        if (lv->gl) {
            double d0 = now_ms();
            if (timed) {
                GLint64 host_ts = 0;
                glQueryCounter(q[2 * FRAMES + r], GL_TIMESTAMP);
                glGetInteger64v(GL_TIMESTAMP, &host_ts);
                loop_gl_ts[r] = host_ts;
                glBeginQuery(GL_TIME_ELAPSED, q[FRAMES + r]);
            }
            first_use(lv->views && !lv->other ? homg_view_gl_texture(v[i]) : plain, 0, 1, 0);
            if (timed)
                glEndQuery(GL_TIME_ELAPSED);
            if (lv->sync)
                sync_frame(lv->sync, r + WARM);
            glFlush();
            if (!q && r >= 0 && r < TRACE)
                tr_draw[r] = now_ms() - d0;
        }
        if (r == -1) { /* the clock starts after the warm-up */
            loop_t0 = now_ms();
            if (lv->views && !q) { /* the untimed pass's waits after its warm-up */
                loop_wait_n[0] = -v[0]->waits_gl, loop_wait_n[1] = -v[0]->waits_cuda;
                loop_drops = -v[0]->waits_drop;
                loop_wait_ms[0] = -v[0]->waits_gl_ms, loop_wait_ms[1] = -v[0]->waits_cuda_ms;
            }
        }
    }
    if (lv->views && !q) {
        loop_drops += v[0]->waits_drop;
        loop_wait_n[0] += v[0]->waits_gl, loop_wait_n[1] += v[0]->waits_cuda;
        loop_wait_ms[0] += v[0]->waits_gl_ms, loop_wait_ms[1] += v[0]->waits_cuda_ms;
    }
}

/* Median GL ms of queries q[0..FRAMES); their mean into *mean. */
static double query_median(const GLuint *q, double *mean)
{
    double ms[FRAMES], sum = 0;
    for (int r = 0; r < FRAMES; r++) {
        GLuint64 ns = 0;
        glGetQueryObjectui64v(q[r], GL_QUERY_RESULT, &ns);
        ms[r] = ns * 1e-6;
        sum += ms[r];
    }
    *mean = sum / FRAMES;
    return median(ms, FRAMES);
}

static double timers_median(void)
{
    double ms[FRAMES];
    for (int r = 0; r < FRAMES; r++)
        check(homg_timer_ms(loop_timer[r], &ms[r]), "timer");
    return median(ms, FRAMES);
}

static double heat_loop(homg_grid *grid, homg_solve_desc *sd, const loop_variant *lv, void *colours, int32_t *range)
{
    homg_view *v[3] = { NULL, NULL, NULL };
    GLuint tex[3] = { 0, 0, 0 }, plain, q[3 * FRAMES];
    double ms;
    glGenTextures(3, tex);
    glGenTextures(1, &plain);
    glGenQueries(3 * FRAMES, q);
    for (int i = 0; i < 4; i++) {
        glBindTexture(GL_TEXTURE_2D, i < 3 ? tex[i] : plain);
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, HEAT_N, HEAT_N);
    }
    for (int i = 0; i < lv->views; i++) {
        homg_view_desc vd = { 0 };
        vd.get_proc_address = demo_egl_proc;
        vd.gl_name = tex[i];
        vd.path = lv->path;
        vd.latency = lv->latency;
        set_env(lv->env, 1);
        check(homg_view_create(gpu, &vd, &v[i]), "homg_view_create");
        set_env(lv->env, 0);
    }
    check(homg_ctx_synchronize(gpu), "sync");
    glFinish();
    loop_wait_n[0] = loop_wait_n[1] = 0;
    loop_wait_ms[0] = loop_wait_ms[1] = 0;
    loop_drops = 0;
    loop_host_write = 0;
    memset(tr_write, 0, sizeof tr_write), memset(tr_gl, 0, sizeof tr_gl), memset(tr_cuda, 0, sizeof tr_cuda);
    memset(tr_solve, 0, sizeof tr_solve), memset(tr_draw, 0, sizeof tr_draw), memset(tr_drop, 0, sizeof tr_drop);
    heat_pass(grid, sd, lv, v, plain, colours, range, NULL); /* the frame time: no queries */
    glFinish();
    check(homg_ctx_synchronize(gpu), "sync");
    ms = (now_ms() - loop_t0) / FRAMES;
    sync_end();
    loop_lag = 0;
    loop_direct = 0;
    if (lv->views == 1) {
        homg_view_info info;
        homg_view_get_info(v[0], &info);
        loop_lag = FRAMES + WARM - info.shown;
        loop_direct = info.direct;
    }
    heat_pass(grid, sd, lv, v, plain, colours, range, q); /* GL's GPU time in the write and of the draw */
    glFinish();
    check(homg_ctx_synchronize(gpu), "sync");
    sync_end();
    {
        double unused;
        loop_gl_write = query_median(q, &loop_gl_write_mean);
        loop_gl_draw = lv->gl ? query_median(q + FRAMES, &unused) : 0;
        loop_gl_lag = loop_gl_lag_max = 0;
        if (lv->gl) {
            double lag[FRAMES];
            for (int r = 0; r < FRAMES; r++) {
                GLuint64 ts = 0;
                glGetQueryObjectui64v(q[2 * FRAMES + r], GL_QUERY_RESULT, &ts);
                lag[r] = ((double)ts - (double)loop_gl_ts[r]) * 1e-6;
                loop_gl_lag_max = lag[r] > loop_gl_lag_max ? lag[r] : loop_gl_lag_max;
            }
            loop_gl_lag = median(lag, FRAMES);
        }
        loop_cuda = timers_median();
    }
    for (int i = 0; i < lv->views; i++)
        homg_view_destroy(v[i]);
    glDeleteQueries(3 * FRAMES, q);
    glDeleteTextures(3, tex);
    glDeleteTextures(1, &plain);
    return ms;
}

static char traces[1 << 14];
static size_t traces_used;

/* One row's host timeline into `traces` (printed after the table). */
static void trace_row(const char *name, double ms)
{
    homg__append(traces, sizeof traces, &traces_used, "- %s (%.3f ms a frame):", name, ms);
    for (int r = 0; r < TRACE; r++)
        homg__append(traces, sizeof traces, &traces_used,
                     " [t %.3f write %.3f GL %.3f CUDA %.3f%s solve %.3f draw %.3f]", tr_t[r], tr_write[r], tr_gl[r],
                     tr_cuda[r], tr_drop[r] ? " d" : "", tr_solve[r], tr_draw[r]);
    homg__append(traces, sizeof traces, &traces_used, "\n");
}

static void heat_loops(homg_grid *grid, double solve_colour_gpu, void *colours, int32_t *range)
{
#define one_slot "HOMG_VIEW_SHARED_SLOTS=1"
    /* (s6-view's MAP side-stream rows, 2.6 ms a frame, are kept in bench/results/h100_view.md; the variant is gone) */
    /* the ring's rows: R(name, env, draw: 0 none, 1 another texture, 2 the slot's) */
#define R(name, env, draw)                                                      \
    {                                                                           \
        name, 1, 0, draw > 0, 0, HOMG_VIEW_PATH_SHARED, env, 1, draw == 1, 0, 0 \
    }
#define N(name, gl, sync)                                           \
    {                                                               \
        name, 0, 0, gl, 1, HOMG_VIEW_PATH_AUTO, NULL, 0, 0, sync, 0 \
    }
    static const loop_variant lv[] = {
        { "solve alone (source copy + 1 V-cycle)", 0, 0, 0, 0, HOMG_VIEW_PATH_AUTO, NULL, 0, 0, 0, 0 },
        N("solve + colour map into device memory, no GL", 0, 0),
        N("the same + a draw of another texture each frame (nothing shared)", 1, 0),
        { "map (in place on the ctx's stream): write, solve, draw", 1, 0, 1, 0, HOMG_VIEW_PATH_MAP, NULL, 0, 0, 0, 0 },
        { "map, solve queued first", 1, 1, 1, 0, HOMG_VIEW_PATH_MAP, NULL, 0, 0, 0, 0 },
        { "map, 2 textures (2 views) in turn", 2, 0, 1, 0, HOMG_VIEW_PATH_MAP, NULL, 0, 0, 0, 0 },
        { "shared path, one slot (semaphores both ways)", 1, 0, 1, 0, HOMG_VIEW_PATH_SHARED, one_slot, 0, 0, 0, 0 },
        { "shared path, two slots (CUDA -> GL semaphore only)", 1, 0, 1, 0, HOMG_VIEW_PATH_SHARED, NULL, 0, 0, 0, 0 },
        R("shared ring, latency 1, copy into the texture (HOMG_VIEW_RING_COPY=1; main's ring)", "HOMG_VIEW_RING_COPY=1",
          2),
        R("**shared ring, latency 1, GL draws the slot's texture (no copy): write, solve, draw**", NULL, 2),
        { "shared ring (no copy), solve queued first", 1, 1, 1, 0, HOMG_VIEW_PATH_SHARED, NULL, 1, 0, 0, 0 },
        { "auto with latency 1 (the demos' loop)", 1, 0, 1, 0, HOMG_VIEW_PATH_AUTO, NULL, 1, 0, 0, 0 },
        /* s8-view4: nothing shared with the ring's host calls on unrelated objects */
        N("nothing shared, no GL draw, + an event recorded and one queried per frame", 0, SYNC_EVENT),
        N("nothing shared, no GL draw, + a fence made and one polled (flush bit) per frame", 0, SYNC_FENCE),
        N("nothing shared, no GL draw, + event and fence, host waits for those of 3 frames back", 0,
          SYNC_EVENT | SYNC_FENCE | SYNC_WAIT),
        N("nothing shared, draw + glFlush, + event and fence polled per frame", 1, SYNC_EVENT | SYNC_FENCE),
        N("nothing shared, draw + glFlush, + event and fence, host waits for those of 3 frames back", 1,
          SYNC_EVENT | SYNC_FENCE | SYNC_WAIT),
        /* s8-view4: the ring with one piece switched off (lib/view/knobs.c), no GL draw; since s8-view5 at the
           default depth (16 slots since s9-view7; 8 from s9-view6, 6 from s8-view5, 3 before) unless a row names HOMG_VIEW_RING_SLOTS */
        R("ring, no GL draw at all", NULL, 0),
        R("ring, no GL draw, (a) no fences (HOMG_VIEW_RING_FENCE=0)", "HOMG_VIEW_RING_FENCE=0", 0),
        R("ring, no GL draw, (a) fences polled without the flush bit (FENCE=2)", "HOMG_VIEW_RING_FENCE=2", 0),
        R("ring, no GL draw, (b) no events (HOMG_VIEW_RING_EVENT=0)", "HOMG_VIEW_RING_EVENT=0", 0),
        R("ring, no GL draw, (a)+(b) no fences, no events", "HOMG_VIEW_RING_FENCE=0 HOMG_VIEW_RING_EVENT=0", 0),
        R("ring, no GL draw, (c) CUDA writes linear slot memory (HOMG_VIEW_RING_LINEAR=1)", "HOMG_VIEW_RING_LINEAR=1",
          0),
        R("ring, no GL draw, (c) no CUDA arrays at all (RING_COPY=1: linear, GL copies)", "HOMG_VIEW_RING_COPY=1", 0),
        R("ring, no GL draw, (d) slots in cudaMalloc memory (HOMG_VIEW_RING_PLAIN=1)", "HOMG_VIEW_RING_PLAIN=1", 0),
        R("ring, no GL draw, (d) exportable memory, not imported (PLAIN=2)", "HOMG_VIEW_RING_PLAIN=2", 0),
        R("ring, no GL draw, (e) timing events (HOMG_VIEW_RING_EVENT_FLAGS=1)", "HOMG_VIEW_RING_EVENT_FLAGS=1", 0),
        R("ring, no GL draw, (e) blocking-sync events (EVENT_FLAGS=2)", "HOMG_VIEW_RING_EVENT_FLAGS=2", 0),
        R("ring, no GL draw, host polls instead of blocking (HOMG_VIEW_RING_SPIN=1)", "HOMG_VIEW_RING_SPIN=1", 0),
        R("ring, no GL draw, 4 slots (HOMG_VIEW_RING_SLOTS=4)", "HOMG_VIEW_RING_SLOTS=4", 0),
        R("ring, no GL draw, 3 slots (the default before s8-view5)", "HOMG_VIEW_RING_SLOTS=3", 0),
        R("ring, no GL draw, 6 slots (the default s8-view5 .. s9-view6)", "HOMG_VIEW_RING_SLOTS=6", 0),
        R("ring, no GL draw, (d) cudaMalloc slots, no fences", "HOMG_VIEW_RING_PLAIN=1 HOMG_VIEW_RING_FENCE=0", 0),
        /* the same, GL drawing another texture */
        R("ring, GL draws another texture", NULL, 1),
        R("ring, other texture, (a) no fences", "HOMG_VIEW_RING_FENCE=0", 1),
        R("ring, other texture, (a) fences polled without the flush bit", "HOMG_VIEW_RING_FENCE=2", 1),
        R("ring, other texture, (b) no events", "HOMG_VIEW_RING_EVENT=0", 1),
        R("ring, other texture, (a)+(b) no fences, no events", "HOMG_VIEW_RING_FENCE=0 HOMG_VIEW_RING_EVENT=0", 1),
        R("ring, other texture, (c) CUDA writes linear slot memory", "HOMG_VIEW_RING_LINEAR=1", 1),
        R("ring, other texture, (d) slots in cudaMalloc memory", "HOMG_VIEW_RING_PLAIN=1", 1),
        R("ring, other texture, (d) exportable memory, not imported", "HOMG_VIEW_RING_PLAIN=2", 1),
        R("ring, other texture, (e) timing events", "HOMG_VIEW_RING_EVENT_FLAGS=1", 1),
        R("ring, other texture, (e) blocking-sync events", "HOMG_VIEW_RING_EVENT_FLAGS=2", 1),
        R("ring, other texture, host polls instead of blocking", "HOMG_VIEW_RING_SPIN=1", 1),
        R("ring, other texture, 4 slots", "HOMG_VIEW_RING_SLOTS=4", 1),
        R("ring, other texture, 3 slots", "HOMG_VIEW_RING_SLOTS=3", 1),
        R("ring, other texture, 6 slots", "HOMG_VIEW_RING_SLOTS=6", 1),
        /* candidate fixes in the real loop (GL draws the slot's texture) */
        R("ring, slot's texture, fences polled without the flush bit", "HOMG_VIEW_RING_FENCE=2", 2),
        R("ring, slot's texture, host polls instead of blocking", "HOMG_VIEW_RING_SPIN=1", 2),
        R("ring, slot's texture, 4 slots", "HOMG_VIEW_RING_SLOTS=4", 2),
        R("ring, slot's texture, 3 slots", "HOMG_VIEW_RING_SLOTS=3", 2),
        R("ring, slot's texture, 6 slots", "HOMG_VIEW_RING_SLOTS=6", 2),
        R("ring, slot's texture, blocking-sync events", "HOMG_VIEW_RING_EVENT_FLAGS=2", 2),
        R("ring, slot's texture, (timing only) no fences", "HOMG_VIEW_RING_FENCE=0", 2),
        /* s9-view6: the pace (HOMG_VIEW_RING_AHEAD: writes queued and not yet seen done before a write waits for
           the oldest; default min(3, (slots - 1) / 2) from 5 slots (s9-view6: (slots - 1) / 2), 0 = none, as before s9-view6; s8-view4's DROP rows are gone) */
        R("ring, slot's texture, AHEAD=0 (no pace, as before s9-view6)", "HOMG_VIEW_RING_AHEAD=0", 2),
        R("ring, slot's texture, AHEAD=1", "HOMG_VIEW_RING_AHEAD=1", 2),
        R("ring, slot's texture, AHEAD=2", "HOMG_VIEW_RING_AHEAD=2", 2),
        R("ring, slot's texture, 6 slots, AHEAD=0 (main's default before s9-view6)",
          "HOMG_VIEW_RING_SLOTS=6 HOMG_VIEW_RING_AHEAD=0", 2),
        R("ring, slot's texture, 6 slots, AHEAD=3", "HOMG_VIEW_RING_SLOTS=6 HOMG_VIEW_RING_AHEAD=3", 2),
        R("ring, slot's texture, 3 slots, AHEAD=1", "HOMG_VIEW_RING_SLOTS=3 HOMG_VIEW_RING_AHEAD=1", 2),
        R("ring, copy (RING_COPY=1; never paced by default), AHEAD=3", "HOMG_VIEW_RING_COPY=1 HOMG_VIEW_RING_AHEAD=3",
          2),
        R("ring, other texture, AHEAD=0", "HOMG_VIEW_RING_AHEAD=0", 1),
        R("ring, no GL draw, AHEAD=0", "HOMG_VIEW_RING_AHEAD=0", 0),
        /* s9-view7: deeper rings (memory: slots x the picture rounded up to 2 MiB: 40, 48, 64 MiB at 1024^2 RGBA8),
           paced at (slots - 1) / 2 (s9-view6's default), at 3 (s9-view7's), and unpaced */
        R("ring, slot's texture, 8 slots, AHEAD=3 (the default s9-view6)",
          "HOMG_VIEW_RING_SLOTS=8 HOMG_VIEW_RING_AHEAD=3", 2),
        R("ring, slot's texture, 10 slots, AHEAD=4", "HOMG_VIEW_RING_SLOTS=10 HOMG_VIEW_RING_AHEAD=4", 2),
        R("ring, slot's texture, 10 slots, AHEAD=3", "HOMG_VIEW_RING_SLOTS=10 HOMG_VIEW_RING_AHEAD=3", 2),
        R("ring, slot's texture, 10 slots, AHEAD=0", "HOMG_VIEW_RING_SLOTS=10 HOMG_VIEW_RING_AHEAD=0", 2),
        R("ring, slot's texture, 12 slots, AHEAD=5", "HOMG_VIEW_RING_SLOTS=12 HOMG_VIEW_RING_AHEAD=5", 2),
        R("ring, slot's texture, 12 slots, AHEAD=3", "HOMG_VIEW_RING_SLOTS=12 HOMG_VIEW_RING_AHEAD=3", 2),
        R("ring, slot's texture, 12 slots, AHEAD=0", "HOMG_VIEW_RING_SLOTS=12 HOMG_VIEW_RING_AHEAD=0", 2),
        R("ring, slot's texture, 16 slots, AHEAD=7", "HOMG_VIEW_RING_SLOTS=16 HOMG_VIEW_RING_AHEAD=7", 2),
        R("ring, slot's texture, 16 slots, AHEAD=3 (the default since s9-view7)",
          "HOMG_VIEW_RING_SLOTS=16 HOMG_VIEW_RING_AHEAD=3", 2),
        R("ring, slot's texture, 16 slots, AHEAD=0", "HOMG_VIEW_RING_SLOTS=16 HOMG_VIEW_RING_AHEAD=0", 2),
        /* s9-view7: every slot taken -- poll every fence (zero timeout) and take the first freed, or drop the
           oldest write not yet shown instead of waiting */
        R("ring, slot's texture, POLL=1 (poll, first freed)", "HOMG_VIEW_RING_POLL=1", 2),
        R("ring, slot's texture, POLL=2 (drop, no GL wait)", "HOMG_VIEW_RING_POLL=2", 2),
        R("ring, slot's texture, 16 slots, POLL=1", "HOMG_VIEW_RING_SLOTS=16 HOMG_VIEW_RING_POLL=1", 2),
        R("ring, slot's texture, 16 slots, POLL=2", "HOMG_VIEW_RING_SLOTS=16 HOMG_VIEW_RING_POLL=2", 2),
        R("ring, slot's texture, 6 slots, POLL=2", "HOMG_VIEW_RING_SLOTS=6 HOMG_VIEW_RING_POLL=2", 2),
        /* s9-view7: why paced at 1 is slow -- the same pace with nothing shared, without the draw, drawing
           another texture, and without fences; each with its host timeline */
        { "nothing shared + draw, host waits each frame for the previous frame's colours (paced 1, no fences)", 0, 0, 1,
          1, HOMG_VIEW_PATH_AUTO, NULL, 0, 0, SYNC_PACE1, 1 },
        { "nothing shared, no draw, paced 1 (the same, no GL)", 0, 0, 0, 1, HOMG_VIEW_PATH_AUTO, NULL, 0, 0, SYNC_PACE1,
          1 },
        { "ring AHEAD=1, slot's texture (traced)", 1, 0, 1, 0, HOMG_VIEW_PATH_SHARED, "HOMG_VIEW_RING_AHEAD=1", 1, 0, 0,
          1 },
        R("ring AHEAD=1, GL draws another texture", "HOMG_VIEW_RING_AHEAD=1", 1),
        R("ring AHEAD=1, no GL draw", "HOMG_VIEW_RING_AHEAD=1", 0),
        R("ring AHEAD=1, slot's texture, (timing only) no fences", "HOMG_VIEW_RING_AHEAD=1 HOMG_VIEW_RING_FENCE=0", 2),
        { "nothing shared + draw (traced)", 0, 0, 1, 1, HOMG_VIEW_PATH_AUTO, NULL, 0, 0, 0, 1 },
        { "ring, the default (traced)", 1, 0, 1, 0, HOMG_VIEW_PATH_SHARED, NULL, 1, 0, 0, 1 },
        { "ring, 16 slots (traced)", 1, 0, 1, 0, HOMG_VIEW_PATH_SHARED, "HOMG_VIEW_RING_SLOTS=16", 1, 0, 0, 1 },
        /* the baseline and the default once more (noise) */
        N("again: solve + colours + a draw of another texture (nothing shared)", 1, 0),
        R("again: **ring, GL draws the slot's texture (the default)**", NULL, 2),
    };
#undef R
#undef N
#undef one_slot
    homg_solve_desc sd = { 0 };
    sd.warm_start = 1;
    sd.skip_input_check = 1;
    sd.max_cycles = 1;
    ROW("\nThe pipelined loop taken apart (1 cycle per frame, no host waits, %d frames queued after %d, mean ms per "
        "frame; solve + colour map GPU time %.3f ms from the table above; map path unless named; then the same "
        "loop again with a GL_TIME_ELAPSED query around each homg_view_write and each draw, medians; slot "
        "textures: info.direct):\n\n"
        "| loop | ms per frame | minus solve + colours GPU | writes not yet shown at the end | slot textures | GL "
        "GPU ms in the write: median, mean | GL GPU ms of the draw | CUDA GPU ms write + solve (events) | writes "
        "handed to GL (of %d) | host waits on GL fences: n, ms per frame | on CUDA events: n, ms per frame | host ms "
        "in the write per frame (waits included) | GL queue depth at the draw, ms: median, max (s9-view7) | writes "
        "dropped (POLL=2) |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
        FRAMES, WARM, solve_colour_gpu, FRAMES);
    for (int r = 0; r < FRAMES; r++)
        check(homg_timer_create(gpu, &loop_timer[r]), "homg_timer_create");
    for (size_t i = 0; i < sizeof lv / sizeof *lv; i++) {
        double ms = heat_loop(grid, &sd, &lv[i], colours, range);
        ROW("| %s | %.3f | %+.3f | %lld | %d | %.4f, %.4f | %.4f | %.4f | %d | %lld, %.3f | %lld, %.3f | %.3f | %.3f, "
            "%.3f | %lld |\n",
            lv[i].name, ms, ms - solve_colour_gpu, loop_lag, loop_direct, loop_gl_write, loop_gl_write_mean,
            loop_gl_draw, loop_cuda, lv[i].views == 1 ? loop_hands : FRAMES, loop_wait_n[0], loop_wait_ms[0] / FRAMES,
            loop_wait_n[1], loop_wait_ms[1] / FRAMES, loop_host_write / FRAMES, loop_gl_lag, loop_gl_lag_max,
            loop_drops);
        if (lv[i].trace)
            trace_row(lv[i].name, ms);
    }
    ROW("\nHost timelines (s9-view7; the untimed pass, its first %d frames after the warm-up; ms): t = the frame's "
        "start on the loop's clock; write = host ms in homg_view_write (or the colours), of it GL = waiting for GL's "
        "fences, CUDA = waiting for CUDA's events, d = writes dropped; solve = host ms queueing the source copy + the "
        "V-cycle; draw = host ms queueing the draw + glFlush.\n\n%s",
        TRACE, traces);
    for (int r = 0; r < FRAMES; r++)
        homg_timer_destroy(loop_timer[r]);
}

/* What the ring's hand-over costs GL alone (CUDA idle): GL_TIME_ELAPSED, median
 * of REPS queued, of GL's copy of a 1024^2 RGBA8 slot into the application's
 * texture (the copy path) against the same copy from a plain GL buffer, and a
 * draw sampling a slot's own texture (linear tiling on the imported memory)
 * against one sampling the application's texture. */
static double gl_alone(int what, homg_view *copy, homg_view *direct, GLuint tex, GLuint plain_pbo, GLuint dst)
{
    GLuint q[REPS];
    double ms[REPS];
    glGenQueries(REPS, q);
    glFinish();
    for (int r = -WARM; r < REPS; r++) {
        if (r >= 0)
            glBeginQuery(GL_TIME_ELAPSED, q[r]);
        if (what <= 1) { /* glTexSubImage2D from a pixel-unpack buffer */
            glBindBuffer(GL_PIXEL_UNPACK_BUFFER, what ? copy->shared_buffer : plain_pbo);
            glBindTexture(GL_TEXTURE_2D, tex);
            glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, HEAT_N, HEAT_N, GL_RGBA, GL_UNSIGNED_BYTE,
                            (void *)(what ? copy->slot_bytes : 0));
            glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
        } else if (what == 2) { /* the slot's bytes into a plain buffer */
            glBindBuffer(GL_COPY_READ_BUFFER, copy->shared_buffer);
            glBindBuffer(GL_COPY_WRITE_BUFFER, dst);
            glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, (GLintptr)copy->slot_bytes, 0,
                                4 * HEAT_N * HEAT_N);
        } else
            first_use(what == 3 ? tex : direct->slot_tex[1], 0, 1, 0);
        if (r >= 0)
            glEndQuery(GL_TIME_ELAPSED);
    }
    glFinish();
    for (int r = 0; r < REPS; r++) {
        GLuint64 ns = 0;
        glGetQueryObjectui64v(q[r], GL_QUERY_RESULT, &ns);
        ms[r] = ns * 1e-6;
    }
    glDeleteQueries(REPS, q);
    return median(ms, REPS);
}

static void ring_parts(void)
{
    static const char *rows[] = {
        "glTexSubImage2D 1024^2 RGBA8 into a texture from a plain GL buffer (pixel-unpack)",
        "the same from a ring slot (imported CUDA VMM memory): the ring's copy",
        "glCopyBufferSubData of the slot's 4 MiB into a plain GL buffer",
        "a 1024x1024 draw sampling the application's texture",
        "the same draw sampling a ring slot's own texture (on the imported memory)",
    };
    homg_view_desc vd = { 0 };
    homg_view *copy = NULL, *direct = NULL;
    GLuint tex[2], pbo[2];
    glGenTextures(2, tex);
    for (int i = 0; i < 2; i++) {
        glBindTexture(GL_TEXTURE_2D, tex[i]);
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, HEAT_N, HEAT_N);
    }
    glGenBuffers(2, pbo);
    for (int i = 0; i < 2; i++) {
        glBindBuffer(GL_COPY_WRITE_BUFFER, pbo[i]);
        glBufferData(GL_COPY_WRITE_BUFFER, 4 * HEAT_N * HEAT_N, NULL, GL_STATIC_DRAW);
    }
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    vd.get_proc_address = demo_egl_proc;
    vd.path = HOMG_VIEW_PATH_SHARED;
    vd.latency = 1;
    vd.gl_name = tex[0];
    setenv("HOMG_VIEW_RING_COPY", "1", 1);
    check(homg_view_create(gpu, &vd, &copy), "homg_view_create (ring, copy)");
    unsetenv("HOMG_VIEW_RING_COPY");
    vd.gl_name = tex[1];
    check(homg_view_create(gpu, &vd, &direct), "homg_view_create (ring)");
    check(homg_ctx_synchronize(gpu), "sync");
    ROW("\nThe ring's hand-over on GL alone (CUDA idle; GL_TIME_ELAPSED around each, %d queued after %d, median):\n\n"
        "| GL work | GL GPU ms |\n|---|---|\n",
        REPS, WARM);
    for (int w = 0; w < 5; w++) {
        if (w == 4 && !direct->direct) {
            ROW("| %s | (no slot textures: %s) |\n", rows[w], direct->slots_why);
            continue;
        }
        ROW("| %s%s | %.4f |\n", rows[w], w == 4 ? (direct->direct == 1 ? " (linear tiling)" : " (CUDA arrays)") : "",
            gl_alone(w, copy, direct, tex[0], pbo[0], pbo[1]));
    }
    homg_view_destroy(copy);
    homg_view_destroy(direct);
    glDeleteTextures(2, tex);
    glDeleteBuffers(2, pbo);
}

static void heat_frames(void)
{
    homg_grid_desc gd = { 0 };
    homg_grid *grid;
    homg_boundary bc = { 0 };
    homg_solve_desc sd = { 0 };
    homg_solve_info info;
    void *colours;
    int32_t *range;
    homg_timer *t;
    double gpu_ms[FRAMES], gpu1_ms[FRAMES], cycles = 0, worst = 0, worst1 = 0;
    const view_kernels *k = &homg_cuda_view_kernels;
    view_src s;
    view_dst d = { 1, NULL, 0, 0, 0, NULL };
    gd.nx = gd.ny = HEAT_N;
    gd.method = HOMG_METHOD_VCYCLE;
    check(homg_grid_create(gpu, &gd, &grid), "homg_grid_create");
    heat_setup(grid);
    check(homg_alloc(gpu, 4 * (size_t)HEAT_N * HEAT_N, &colours), "homg_alloc");
    check(homg_alloc(gpu, 8, (void **)&range), "homg_alloc");
    check(homg_timer_create(gpu, &t), "homg_timer_create");
    s = (view_src){ heat_u, HOMG_FLOAT32, 0, 1, HEAT_N, HEAT_N, HEAT_N };
    d.ptr = colours;
    d.range = range;
    sd.warm_start = 1;
    sd.skip_input_check = 1;
    /* (a) to an error of 1e-3 against the source's reference, (b) one cycle */
    for (int r = 0; r < 2 * FRAMES; r++) {
        int one = r >= FRAMES, src = (r + 1) % SOURCES;
        heat_source(src);
        sd.u_ref = heat_ref[src];
        sd.tol = one ? 0 : 1e-3;
        sd.max_cycles = one ? 1 : 10;
        homg_timer_start(t);
        check(homg_grid_solve(grid, heat_fcur, &bc, heat_u, &sd, &info), "solve");
        k->range(&gpu->ex, &s, range);
        k->write(&gpu->ex, &s, &d);
        homg_timer_stop(t);
        check(homg_timer_ms(t, one ? &gpu1_ms[r - FRAMES] : &gpu_ms[r]), "timer");
        if (one)
            worst1 = fmax(worst1, info.norm);
        else {
            cycles += info.cycles;
            worst = fmax(worst, info.norm);
        }
    }
    ROW("\n## D. `heat` frame at 1024^2 (V-cycle, warm start, the source moving 0.0125 each frame)\n\n");
    ROW("GPU time (CUDA events) of the solve + the colour map (range found + write kernel), median of %d frames; "
        "error = ||u - u*|| / ||u*|| against ten cycles from zero (float32 residuals stall near 6e-4 at this "
        "size, so the error is monitored, one norm per cycle, each read by the host):\n\n",
        FRAMES);
    ROW("| solve | cycles per frame (mean) | worst error | GPU ms per frame | target |\n|---|---|---|---|---|\n");
    ROW("| to error 1e-3 | %.2f | %.1e | %.3f | <= 0.3 ms |\n", cycles / FRAMES, worst, median(gpu_ms, FRAMES));
    ROW("| 1 cycle, error measured after it | 1 | %.1e | %.3f | |\n\n", worst1, median(gpu1_ms, FRAMES));

    /* frame loops with a view and a draw */
    ROW("Frame loop with the view (RGBA8 texture 1024^2, range found) and a %dx%d draw, mean of %d frames; host = "
        "time inside homg_view_write:\n\n",
        FB, FB, FRAMES);
    ROW("| view path | serial: solve to error 1e-3, write, draw, glFinish (ms) | pipelined: write, 1 cycle queued, "
        "draw, no glFinish (ms) | pipelined host ms in write |\n|---|---|---|---|\n");
    for (int p = 0; p < 3; p++) {
        homg_view_path path = p == 0 ? HOMG_VIEW_PATH_MAP : p == 1 ? HOMG_VIEW_PATH_SHARED : HOMG_VIEW_PATH_AUTO;
        homg_view_desc vd = { 0 };
        homg_view_write_desc wd = { 0 };
        homg_view *v = NULL;
        homg_view_info vi;
        GLuint tex;
        double t0, serial, piped, host = 0;
        glGenTextures(1, &tex);
        glBindTexture(GL_TEXTURE_2D, tex);
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, HEAT_N, HEAT_N);
        vd.get_proc_address = demo_egl_proc;
        vd.gl_name = tex;
        vd.path = path;
        if (homg_view_create(gpu, &vd, &v) != HOMG_OK) {
            ROW("| %s | unavailable: %s | | |\n", homg_view_path_name(path), homg_ctx_last_error(gpu));
            glDeleteTextures(1, &tex);
            continue;
        }
        homg_view_get_info(v, &vi);
        wd.nx = wd.ny = HEAT_N;
        t0 = now_ms();
        for (int r = 0; r < FRAMES; r++) {
            heat_source(r);
            sd.u_ref = heat_ref[r % SOURCES];
            sd.tol = 1e-3;
            sd.max_cycles = 10;
            check(homg_grid_solve(grid, heat_fcur, &bc, heat_u, &sd, &info), "solve");
            check(homg_view_write(v, heat_u, &wd), "write");
            first_use(tex, 0, 1, 0);
            glFinish();
        }
        serial = (now_ms() - t0) / FRAMES;
        sd.u_ref = NULL;
        sd.tol = 0;
        sd.max_cycles = 1;
        t0 = now_ms();
        for (int r = 0; r < FRAMES; r++) {
            double w0 = now_ms();
            check(homg_view_write(v, heat_u, &wd), "write");
            host += now_ms() - w0;
            heat_source(r);
            check(homg_grid_solve(grid, heat_fcur, &bc, heat_u, &sd, &info), "solve");
            first_use(tex, 0, 1, 0);
            glFlush();
        }
        glFinish();
        check(homg_ctx_synchronize(gpu), "sync");
        piped = (now_ms() - t0) / FRAMES;
        ROW("| %s%s%s | %.3f | %.3f | %.3f |\n", p == 2 ? "auto -> " : "", homg_view_path_name(vi.path),
            vi.path == HOMG_VIEW_PATH_SHARED ? (vi.semaphores ? " + semaphores" : " + host order") : "", serial, piped,
            host / FRAMES);
        homg_view_destroy(v);
        glDeleteTextures(1, &tex);
    }
    heat_loops(grid, median(gpu1_ms, FRAMES), colours, range);
    ring_parts();
    homg_timer_destroy(t);
    for (int i = 0; i < SOURCES; i++) {
        homg_free(gpu, heat_f[i]);
        homg_free(gpu, heat_ref[i]);
    }
    homg_free(gpu, heat_fcur);
    homg_free(gpu, heat_u);
    homg_free(gpu, colours);
    homg_free(gpu, range);
    homg_grid_destroy(grid);
}

/* ---------------------------------------------------------------- E: mesh */

/* One variant of the mesh frame: the preconditioner (the demo's GMG-PCG, or
 * AMG-PCG as the demo had it first), re-assembly of the right-hand side only or
 * of matrix and rhs, CG's tolerance, and the level of the hierarchy drawn. */
typedef struct mesh_variant {
    const char *name;
    int amg, rhs_only;
    double tol;
    int level; /* drawn: 0 the finest, 2 the demo's choice for a 1024^2 framebuffer */
} mesh_variant;

typedef struct mesh_setup {
    homg_mesh *coarse, *mesh; /* the mesh of assets/, the finest level (the gmg's) */
    homg_gmg *gmg;
    homg_fem *fem;
    homg_amg *amg;
    homg_view *view;
    homg_timer *timer;
    void *f, *x, *xref;
    double *xh, *rh;
    int32_t nn, ne, level_tris[3];
    GLuint prog, vao, pos, idx[3];
} mesh_setup;

static const char *mesh_vs = "#version 330 core\n"
                             "layout(location = 0) in vec2 p; layout(location = 1) in vec4 col; out vec4 c;\n"
                             "void main() { c = col; gl_Position = vec4(2.0 * p - 1.0, 0, 1); }\n";
static const char *mesh_fs = "#version 330 core\n"
                             "in vec4 c; out vec4 o; void main() { o = c; }\n";

/* Positions normalised to the bounding box, the view's buffer as the colours, and the
 * triangles of levels 0..2 (their nodes are the finest level's first: homg_mesh_refine appends). */
static void mesh_gl(mesh_setup *m)
{
    const double *xy = homg_mesh_coords(m->mesh);
    double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
    float *p = malloc(sizeof(float) * 2 * (size_t)m->nn);
    for (int32_t k = 0; k < m->nn; k++)
        for (int c = 0; c < 2; c++)
            lo[c] = fmin(lo[c], xy[2 * k + c]), hi[c] = fmax(hi[c], xy[2 * k + c]);
    for (int32_t k = 0; k < m->nn; k++)
        for (int c = 0; c < 2; c++)
            p[2 * k + c] = (float)((xy[2 * k + c] - lo[c]) / (hi[c] - lo[c]));
    m->prog = demo_program(mesh_vs, mesh_fs);
    glGenVertexArrays(1, &m->vao);
    glBindVertexArray(m->vao);
    glGenBuffers(1, &m->pos);
    glBindBuffer(GL_ARRAY_BUFFER, m->pos);
    glBufferData(GL_ARRAY_BUFFER, sizeof(float) * 2 * (size_t)m->nn, p, GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, (void *)0);
    glBindBuffer(GL_ARRAY_BUFFER, homg_view_gl_name(m->view));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, 0, (void *)0);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glGenBuffers(3, m->idx);
    for (int l = 0; l < 3; l++) {
        const homg_mesh *ml = homg_gmg_mesh(m->gmg, l);
        m->level_tris[l] = homg_mesh_num_elements(ml);
        glBindBuffer(GL_COPY_WRITE_BUFFER, m->idx[l]);
        glBufferData(GL_COPY_WRITE_BUFFER, sizeof(int32_t) * 3 * (size_t)m->level_tris[l], homg_mesh_elements(ml),
                     GL_STATIC_DRAW);
    }
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    free(p);
}

static void mesh_draw(const mesh_setup *m, int level)
{
    glUseProgram(m->prog);
    glBindVertexArray(m->vao);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, m->idx[level]);
    glDrawElements(GL_TRIANGLES, 3 * m->level_tris[level], GL_UNSIGNED_INT, (void *)0);
    glBindVertexArray(0);
}

/* Largest difference from the converged solution, in steps of the 8-bit colour map over its range. */
static double colour_steps(mesh_setup *m, homg_pcg *exact)
{
    homg_pcg_info pi;
    double lo = INFINITY, hi = -INFINITY, d = 0;
    check(homg_copy_to_host(gpu, m->xh, m->x, (size_t)m->nn * 8), "x to host");
    check(homg_copy_from_host(gpu, m->xref, m->xh, (size_t)m->nn * 8), "xref");
    check(homg_pcg_solve(exact, homg_fem_rhs(m->fem), m->xref, &pi), "reference solve");
    check(homg_copy_to_host(gpu, m->rh, m->xref, (size_t)m->nn * 8), "xref to host");
    for (int32_t k = 0; k < m->nn; k++) {
        lo = fmin(lo, m->rh[k]);
        hi = fmax(hi, m->rh[k]);
        d = fmax(d, fabs(m->xh[k] - m->rh[k]));
    }
    return hi > lo ? 255 * d / (hi - lo) : 0;
}

/* The demo's frame: the last solution's colours written (the hand-over), the source
 * splatted on the device, re-assembly, warm PCG, then the draw and glFinish. */
static void mesh_variant_row(mesh_setup *m, const mesh_variant *v, homg_pcg *exact)
{
    enum { MESH_FRAMES = 20 };
    homg_pcg_desc pd = { 0 };
    homg_pcg *pcg;
    double solve_gpu[MESH_FRAMES], view_gpu[MESH_FRAMES], wall[MESH_FRAMES], its = 0, worst = 0, steps = 0;
    homg_timer *tv;
    pd.tol = v->tol;
    pd.warm_start = 1;
    if (v->amg) {
        check(homg_pcg_create(gpu, NULL, m->amg, &pd, &pcg), "pcg");
    } else {
        pd.gmg = m->gmg;
        check(homg_pcg_create(gpu, NULL, NULL, &pd, &pcg), "pcg");
    }
    check(homg_timer_create(gpu, &tv), "timer");
    check(homg_mesh_splat(m->mesh, NULL, 0, HOMG_FLOAT64, 0, m->x), "zero x");
    for (int r = -3; r < MESH_FRAMES; r++) {
        homg_fem_coeffs c = { .f_node = m->f, .skip_check = 1, .rhs_only = v->rhs_only }; /* no host sync */
        homg_pcg_info pi;
        homg_view_write_desc wd = { .precision = HOMG_FLOAT64, .nx = m->nn };
        double a = 0.06 * r, t0 = now_ms();
        homg_splat s = { { 1.35 + 0.35 * cos(a), 0.5 + 0.28 * sin(a), 0 }, 0.05, 400.0 };
        homg_timer_start(tv);
        check(homg_view_write(m->view, m->x, &wd), "write");
        homg_timer_stop(tv);
        homg_timer_start(m->timer);
        check(homg_mesh_splat(m->mesh, &s, 1, HOMG_FLOAT64, 0, m->f), "homg_mesh_splat");
        check(homg_fem_assemble(m->fem, &c), "assemble");
        homg_status st = homg_pcg_solve(pcg, homg_fem_rhs(m->fem), m->x, &pi);
        if (st != HOMG_OK && st != HOMG_ERROR_NOT_CONVERGED)
            check(st, "pcg");
        homg_timer_stop(m->timer);
        mesh_draw(m, v->level);
        glFinish();
        if (r < 0)
            continue;
        wall[r] = now_ms() - t0;
        check(homg_timer_ms(m->timer, &solve_gpu[r]), "timer");
        check(homg_timer_ms(tv, &view_gpu[r]), "timer");
        its += pi.iterations;
        worst = fmax(worst, pi.rel_residual);
        if (r % 5 == 4) /* outside the timed frame */
            steps = fmax(steps, colour_steps(m, exact));
    }
    double sm = median(solve_gpu, MESH_FRAMES), vm = median(view_gpu, MESH_FRAMES);
    ROW("| %s | %d | %.0e | %.3f | %.1f | %.1e | %.2f | %.3f | %.3f | %.3f | <= 5 ms |\n", v->name,
        m->level_tris[v->level], v->tol, sm, its / MESH_FRAMES, worst, steps, vm, sm + vm, median(wall, MESH_FRAMES));
    homg_timer_destroy(tv);
    homg_pcg_destroy(pcg);
}

static const int32_t mesh_cold[] = { 1, 2, 4 };

/* The demo's set-up: the gmg refines the mesh and keeps every level; fem on the finest;
 * its matrix assembled once; AMG on it for the comparison row. */
static void mesh_open(mesh_setup *m, const char *path, int refine)
{
    homg_gmg_desc gd = { .levels = refine,
                         .dirichlet_tags = mesh_cold,
                         .num_dirichlet_tags = 3,
                         .coarse_solver = HOMG_GMG_COARSE_SOLVER_CHOLESKY };
    homg_fem_desc fd = { .precision = HOMG_FLOAT64, .dirichlet_tags = mesh_cold, .num_dirichlet_tags = 3 };
    homg_amg_desc ad = { 0 };
    homg_view_desc vd = { 0 };
    homg_fem_coeffs c = { 0 };
    homg_csr a;
    check(homg_mesh_read(gpu, path, &m->coarse), path);
    check(homg_gmg_create(m->coarse, &gd, &m->gmg), "homg_gmg_create");
    m->mesh = homg_gmg_mesh(m->gmg, 0);
    m->nn = homg_mesh_num_nodes(m->mesh);
    m->ne = homg_mesh_num_elements(m->mesh);
    m->xh = calloc((size_t)m->nn, sizeof(double));
    m->rh = calloc((size_t)m->nn, sizeof(double));
    check(homg_alloc(gpu, (size_t)m->nn * 8, &m->f), "alloc");
    check(homg_alloc(gpu, (size_t)m->nn * 8, &m->x), "alloc");
    check(homg_alloc(gpu, (size_t)m->nn * 8, &m->xref), "alloc");
    check(homg_mesh_splat(m->mesh, NULL, 0, HOMG_FLOAT64, 0, m->f), "zero f");
    check(homg_fem_create(m->mesh, &fd, &m->fem), "homg_fem_create");
    c.f_node = m->f;
    check(homg_fem_assemble(m->fem, &c), "assemble");
    a = homg_fem_matrix(m->fem);
    check(homg_amg_create(gpu, &a, &ad, &m->amg), "amg");
    vd.get_proc_address = demo_egl_proc;
    vd.target = HOMG_VIEW_BUFFER;
    vd.format = HOMG_VIEW_RGBA8;
    vd.count = m->nn;
    check(homg_view_create(gpu, &vd, &m->view), "view");
    check(homg_timer_create(gpu, &m->timer), "timer");
    mesh_gl(m);
    check(homg_ctx_synchronize(gpu), "sync");
}

static void mesh_close(mesh_setup *m)
{
    glDeleteBuffers(3, m->idx);
    glDeleteBuffers(1, &m->pos);
    glDeleteVertexArrays(1, &m->vao);
    glDeleteProgram(m->prog);
    homg_timer_destroy(m->timer);
    homg_view_destroy(m->view);
    homg_amg_destroy(m->amg);
    homg_fem_destroy(m->fem);
    homg_gmg_destroy(m->gmg);
    homg_mesh_destroy(m->coarse);
    homg_free(gpu, m->f);
    homg_free(gpu, m->x);
    homg_free(gpu, m->xref);
    free(m->xh);
    free(m->rh);
}

static void mesh_frames(const char *path, int refine)
{
    static const mesh_variant variants[] = {
        { "GMG-PCG, rhs only, level 2 drawn (the demo)", 0, 1, 1e-5, 2 },
        { "GMG-PCG, rhs only, finest drawn (key l)", 0, 1, 1e-5, 0 },
        { "AMG-PCG (SA, Chebyshev), matrix + rhs, finest drawn (the demo before)", 1, 0, 1e-6, 0 },
    };
    mesh_setup m = { 0 };
    homg_pcg_desc ed = { .tol = 1e-11, .warm_start = 1, .max_iter = 400 };
    homg_pcg *exact;
    homg_view_info vi;
    double t0 = now_ms(), setup_ms;
    mesh_open(&m, path, refine);
    setup_ms = now_ms() - t0;
    homg_view_get_info(m.view, &vi);
    ed.gmg = m.gmg;
    check(homg_pcg_create(gpu, NULL, NULL, &ed, &exact), "pcg");
    glViewport(0, 0, FB, FB);
    ROW("\n## E. `mesh` frame as the demo does it: %s refined %d times, %d nodes, %d triangles\n\n", path, refine, m.nn,
        m.ne);
    ROW("Set-up (GMG hierarchy with dense Cholesky coarse level, fem and first assembly, AMG for the last row, view, "
        "GL buffers) %.1f ms. Per frame (median of 20; the source moves 0.02 each frame, a quick drag): the last "
        "solution's vertex colours written (view ms: CUDA events, the hand-over included), then homg_mesh_splat + "
        "re-assembly + PCG warm-started to the tolerance (solve ms: CUDA events, CG's host waits included), then the "
        "triangles of the level drawn with the view's buffer as their colours and glFinish (whole frame, host "
        "clock). Colour error: the largest difference from the solution to 1e-11, in steps of the 8-bit colour "
        "map over the solution's range, every 5th frame. View path: %s (%s).\n\n",
        setup_ms, homg_view_path_name(vi.path), vi.reason);
    ROW("| frame | triangles drawn | CG tol | solve GPU ms | CG iterations (mean) | worst residual | colour error "
        "(steps) | view write GPU ms | solve + view GPU ms | whole frame ms | target |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (size_t k = 0; k < sizeof variants / sizeof *variants; k++)
        mesh_variant_row(&m, &variants[k], exact);
    homg_pcg_destroy(exact);
    mesh_close(&m);
}

int main(int argc, char **argv)
{
    char err[256], date[64];
    time_t now = time(NULL);
    FILE *md;
    const char *renderer;
    static const target targets[] = { { "texture R32F", 0, 0 },
                                      { "texture RGBA8", 0, 1 },
                                      { "view's buffer RGBA8", 1, 1 } };
    static const int sizes[] = { 1024, 2048 };
    const char *sections = "ABCFDE", *out_path = NULL;
    for (int i = 1; i + 1 < argc; i += 2) /* --sections DE: only those; --out FILE: the table there */
        if (!strcmp(argv[i], "--sections"))
            sections = argv[i + 1];
        else if (!strcmp(argv[i], "--out"))
            out_path = argv[i + 1];
    homg_test_require_gpu("bench_view");
    md = table_out_open(out_path, "bench_view");
    if (out_path && !md)
        return 1;
    if (demo_egl_begin(FB, FB, 1, err, sizeof err) != 0 || demo_glew_init(err, sizeof err) != 0) {
        fprintf(stderr, "bench_view: no headless GL context: %s\n", err);
        return 1;
    }
    gpu = homg_test_ctx(HOMG_BACKEND_CUDA);
    gl_setup();
    renderer = (const char *)glGetString(GL_RENDERER);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    ROW("# GL views on %s\n\n%s, homg %s, %s, `bench/bench_view`; GL: %s (%s) through headless EGL, a %dx%d "
        "pbuffer. Medians of %d frames after %d warm-ups unless a table says otherwise.\n\n",
        homg_ctx_device_name(gpu), date, homg_version_string(), HOMG_BUILD_ID, renderer, glGetString(GL_VERSION), FB,
        FB, REPS, WARM);
    if (strchr(sections, 'A'))
        ROW("## A. The bare write kernel (GPU ms, CUDA events)\n\n| size | R32F | RGBA8, range given | RGBA8, range "
            "found "
            "(2 more launches) | R32F GB/s |\n|---|---|---|---|---|\n");
    for (int s = 0; s < 2 && strchr(sections, 'A'); s++)
        bare_kernel(sizes[s]);
    if (strchr(sections, 'B'))
        ROW("\n## B. The hand-over floor: cudaGraphicsMapResources + Unmap of an RGBA8 texture, nothing written\n\n"
            "| size | host ms in map + unmap | with a draw sampling it + glFinish |\n|---|---|---|\n");
    for (int s = 0; s < 2 && strchr(sections, 'B'); s++)
        handover_floor(sizes[s]);
    if (strchr(sections, 'C'))
        ROW("\n## C. Every path: homg_view_write of a float field + a draw sampling the object\n\n"
            "serial = write + hand-over + the draw + glFinish, per frame; host = time inside homg_view_write then; "
            "queued = %d frames of write + draw back to back, then one glFinish, per frame, and the mean time inside "
            "homg_view_write there.\n\n"
            "| size | target | asked | runs | serial ms | host ms | queued ms/frame | queued host ms | AUTO's reason "
            "|\n"
            "|---|---|---|---|---|---|---|---|---|\n",
            REPS);
    for (int s = 0; s < 2 && strchr(sections, 'C'); s++) {
        void *field = device_field(sizes[s], 7);
        for (int t = 0; t < 3; t++) {
            path_case(sizes[s], HOMG_VIEW_PATH_MAP, 0, &targets[t], field);
            path_case(sizes[s], HOMG_VIEW_PATH_SHARED, 0, &targets[t], field);
            path_case(sizes[s], HOMG_VIEW_PATH_SHARED, 1, &targets[t], field);
            path_case(sizes[s], HOMG_VIEW_PATH_UPLOAD, 0, &targets[t], field);
            path_case(sizes[s], HOMG_VIEW_PATH_AUTO, 0, &targets[t], field);
        }
        homg_free(gpu, field);
    }
    if (strchr(sections, 'F'))
        handover_parts();
    if (strchr(sections, 'D'))
        heat_frames();
    if (strchr(sections, 'E'))
        mesh_frames("assets/hole2d.msh", 4);
    if (md) {
        fputs(table, md);
        table_out_close(md, out_path);
    }
    fputs(table, stdout);
    homg_ctx_destroy(gpu);
    demo_egl_end();
    return 0;
}

#else
int main(void)
{
    homg_test_require_gpu("bench_view (built without CUDA, or without OpenGL, GLEW or EGL headers)");
    return HOMG_TEST_SKIP;
}
#endif
