/* heat.c -- paint heat sources and sinks with the mouse and watch the steady
 * temperature follow, solved on a 1024 x 1024 grid every frame and drawn
 * straight from the GPU.
 *
 * The problem is -div(grad u) = f on the unit square with u = 0 on its edges
 * (homg_grid's cell-centred 5-point Poisson problem).  Each frame:
 *   1. the strokes of the mouse change f in a few rows of a host copy, and only
 *      those rows are copied to the device;
 *   2. homg_view_write puts the last solution into a GL_RGBA8 texture through
 *      the colour map, its range found on the GPU (no host round trip);
 *   3. homg_grid_solve starts from the last solution (warm start): either to a
 *      relative residual of 1e-3 (a host wait per cycle to read the norm), or,
 *      pipelined (key p), one cycle with no host wait at all, so the solve of
 *      the next frame runs while GL draws this one;
 *   4. a quad samples the texture (homg_view_gl_texture: with --latency 1 the
 *      ring's slot CUDA wrote, no copy).
 * Keys: left drag paints sources, right drag sinks; m cycles the multigrid
 * method; p toggles pipelined; c clears the sources. */
#include "harness/harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const homg_method methods[] = { HOMG_METHOD_VCYCLE, HOMG_METHOD_DEFAULT, HOMG_METHOD_FCYCLE, HOMG_METHOD_FMG,
                                       HOMG_METHOD_HOMG };
static const char *method_names[] = { "vcycle", "default (fft here)", "fcycle", "fmg", "homg (seed 003)" };

typedef struct heat {
    int n; /* grid side */
    int method, pipelined;
    homg_grid *grid;
    float *f_host;   /* the source, painted on the host */
    void *f, *u;     /* source and solution in the context's memory */
    demo_rows dirty; /* rows of f_host not yet copied */
    GLuint texture;
    demo_quad quad;
    homg_view *view;
} heat;

static heat H;

static const char *fragment_src = "#version 330 core\n"
                                  "in vec2 uv;\n"
                                  "uniform sampler2D field;\n"
                                  "out vec4 colour;\n"
                                  "void main() { colour = texture(field, uv); }\n";

/* The view on H.texture.  --latency not given: the SHARED ring (latency 1) while
 * pipelined, where CUDA and GL overlap and the ring waits on neither; MAP's
 * measure otherwise (a host wait per cycle: frames do not overlap). */
static void make_view(demo *d)
{
    homg_view_desc vd = { 0 };
    homg_view_info info;
    vd.get_proc_address = d->gl_loader;
    vd.target = HOMG_VIEW_TEXTURE_2D;
    vd.gl_name = H.texture;
    vd.path = d->path;
    vd.latency = d->latency >= 0 ? d->latency : H.pipelined; /* 1: GL may draw a frame or two old */
    demo_check(d, homg_view_create(d->ctx, &vd, &H.view), "homg_view_create");
    homg_view_get_info(H.view, &info);
    printf("heat: view path %s (latency %d): %s\n", homg_view_path_name(info.path), vd.latency, info.reason);
    snprintf(d->detail, sizeof d->detail, "%d x %d   view: %s%s", H.n, H.n, homg_view_path_name(info.path),
             info.path == HOMG_VIEW_PATH_SHARED ? (info.semaphores   ? " (semaphores)"
                                                   : info.host_waits ? " (host-ordered)"
                                                   : info.direct     ? " (ring, no copy)"
                                                                     : " (ring)")
                                                : "");
}

static int heat_init(demo *d)
{
    homg_grid_desc gd = { 0 };
    size_t bytes;
    H.n = d->size;
    bytes = (size_t)H.n * H.n * sizeof(float);

    /* the grid and its two fields */
    gd.nx = gd.ny = H.n;
    gd.method = methods[H.method];
    demo_check(d, homg_grid_create(d->ctx, &gd, &H.grid), "homg_grid_create");
    demo_check(d, homg_alloc(d->ctx, bytes, &H.f), "homg_alloc f");
    demo_check(d, homg_alloc(d->ctx, bytes, &H.u), "homg_alloc u");
    H.f_host = calloc((size_t)H.n * H.n, sizeof(float));
    demo_check(d, homg_copy_from_host(d->ctx, H.f, H.f_host, bytes), "zeroing f");
    demo_check(d, homg_copy_from_host(d->ctx, H.u, H.f_host, bytes), "zeroing u");
    demo_rows_none(&H.dirty, H.n);

    /* the texture the solution is drawn from: the view writes it */
    H.texture = demo_texture(GL_RGBA8, H.n, H.n, GL_LINEAR);
    make_view(d);
    demo_quad_init(&H.quad, fragment_src);
    return 0;
}

static void heat_fini(demo *d)
{
    homg_ctx_synchronize(d->ctx);
    homg_view_destroy(H.view);
    homg_grid_destroy(H.grid);
    homg_free(d->ctx, H.f);
    homg_free(d->ctx, H.u);
    free(H.f_host);
    glDeleteTextures(1, &H.texture);
    demo_quad_fini(&H.quad);
    H.view = NULL;
}

/* A disc of source (+) or sink (-) under the cursor, radius n/48 cells. */
static void paint(demo *d)
{
    float s = d->mouse_button == 1 ? 2000.0f : -2000.0f;
    if (d->mouse_button)
        demo_stamp_disc(H.f_host, sizeof s, &s, H.n, d->mouse_x, d->mouse_y, H.n / 48 > 1 ? H.n / 48 : 1, &H.dirty);
}

/* Rows are contiguous: the painted band is one copy. */
static void upload_strokes(demo *d)
{
    size_t first, count;
    if (H.dirty.lo > H.dirty.hi)
        return;
    first = (size_t)H.dirty.lo * H.n;
    count = (size_t)(H.dirty.hi - H.dirty.lo + 1) * H.n;
    demo_check(d, homg_copy_from_host(d->ctx, (float *)H.f + first, H.f_host + first, count * sizeof(float)),
               "copying the strokes");
    demo_rows_none(&H.dirty, H.n);
}

static void heat_frame(demo *d)
{
    homg_view_write_desc wd = { 0 };
    homg_solve_desc sd = { 0 };
    homg_solve_info info;
    homg_boundary bc = { 0 }; /* u = 0 on every edge */

    if (!d->paused) {
        paint(d);
        upload_strokes(d);
    }

    /* this frame's picture: the last solution through the colour map, range found on the GPU */
    wd.precision = HOMG_FLOAT32;
    wd.nx = wd.ny = H.n;
    demo_view_write(d, H.view, H.u, &wd);

    /* the next solution, queued now: it runs while GL draws this frame */
    if (!d->paused) {
        sd.warm_start = 1;
        sd.skip_input_check = 1;
        sd.tol = H.pipelined ? 0 : 1e-3;
        sd.max_cycles = H.pipelined ? 1 : 10;
        demo_solve_begin(d);
        demo_check(d, homg_grid_solve(H.grid, H.f, &bc, H.u, &sd, &info), "homg_grid_solve");
        demo_solve_end(d);
        d->iterations = info.cycles;
        d->residual = info.norm;
    }
    snprintf(d->method, sizeof d->method, "%s%s", method_names[H.method], H.pipelined ? ", pipelined" : "");

    /* draw the square grid centred in the window */
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, homg_view_gl_texture(H.view)); /* the ring's slot, or H.texture */
    demo_quad_draw(&H.quad, d);
}

static void heat_key(demo *d, int key)
{
    if (key == 'm') {
        H.method = (H.method + 1) % (int)(sizeof methods / sizeof methods[0]);
        homg_ctx_synchronize(d->ctx);
        homg_grid_destroy(H.grid);
        homg_grid_desc gd = { 0 };
        gd.nx = gd.ny = H.n;
        gd.method = methods[H.method];
        demo_check(d, homg_grid_create(d->ctx, &gd, &H.grid), "homg_grid_create");
    } else if (key == 'p') {
        H.pipelined = !H.pipelined;
        if (d->latency < 0) { /* the demo's choice of latency follows */
            homg_ctx_synchronize(d->ctx);
            homg_view_destroy(H.view);
            make_view(d);
        }
    } else if (key == 'c') {
        memset(H.f_host, 0, (size_t)H.n * H.n * sizeof(float));
        demo_rows_all(&H.dirty, H.n);
    }
}

/* Headless runs: a source arc on the left, a sink stroke on the right, then a
 * short source stroke below; afterwards the solution settles. */
static void heat_script(demo *d, int frame)
{
    d->mouse_button = 0;
    if (frame < 16) {
        double a = 3.6 + 2.4 * frame / 15.0;
        d->mouse_x = 0.3 + 0.16 * cos(a);
        d->mouse_y = 0.42 + 0.16 * sin(a);
        d->mouse_button = 1;
    } else if (frame < 28) {
        d->mouse_x = 0.58 + 0.3 * (frame - 16) / 11.0;
        d->mouse_y = 0.62 - 0.25 * (frame - 16) / 11.0;
        d->mouse_button = 2;
    } else if (frame < 34) {
        d->mouse_x = 0.55 + 0.04 * (frame - 28);
        d->mouse_y = 0.15;
        d->mouse_button = 1;
    }
}

int main(int argc, char **argv)
{
    static const demo_app app = {
        .name = "heat",
        .summary = "paint heat sources and sinks; the steady temperature is solved on the GPU every frame",
        .keys = "  left drag: sources   right drag: sinks   c: clear   p: pipelined (1 cycle, no host wait)\n"
                "  m: multigrid method (default, vcycle, fcycle, fmg, homg)",
        .width = 800,
        .height = 800,
        .size = 1024,
        .min_size = 32,
        .max_size = 4096,
        .init = heat_init,
        .fini = heat_fini,
        .frame = heat_frame,
        .key = heat_key,
        .script = heat_script,
    };
    return demo_run(argc, argv, &app);
}
