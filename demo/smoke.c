/* smoke.c -- 2D smoke (stable fluids) with obstacles you draw, its pressure
 * projection solved by homg every frame at 1024^2 and drawn from the GPU.
 *
 * Each frame:
 *   1. the left mouse button injects smoke and momentum along the drag, as
 *      Gaussian splats computed on the device (homg_fluid_splat); the right
 *      button draws walls into a host mask whose changed rows are copied and
 *      become solid cells (homg_fluid_set_solid: the pressure grid's flags);
 *   2. homg_view_write puts the density (or, key d, the divergence left after
 *      the projection) into a GL_RGBA8 texture through the colour map;
 *   3. homg_fluid_step advects, projects (zero-flux walls and obstacles, to a
 *      relative divergence of 1e-3 by V(1,2) cycles warm-started from the pressure
 *      extrapolated from the last two steps) and
 *      advects the smoke;
 *   4. a quad samples the texture; solid cells come from a small mask texture.
 * Keys: m cycles the projection: homg's methods, or 40 Jacobi sweeps as many
 * engines do (then d shows what that leaves); d toggles the divergence view;
 * c clears the walls.
 * The overlay's "step" figure (and --stats') is the whole of step 3 (advection,
 * projection, advection) between CUDA events: a span of the GPU's time, which holds
 * the GL work that runs inside it (see demo/harness/timing.c); bench_fluid --demo
 * times the same step with no GL beside it. */
#include "harness/harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct projection {
    const char *name;
    homg_method method;
    int jacobi;
} projection;

static const projection projections[] = { { "default", HOMG_METHOD_DEFAULT, 0 },
                                          { "vcycle", HOMG_METHOD_VCYCLE, 0 },
                                          { "fmg", HOMG_METHOD_FMG, 0 },
                                          { "40 Jacobi sweeps", HOMG_METHOD_DEFAULT, 40 } };

typedef struct smoke {
    int n, projection, show_divergence;
    homg_fluid *fluid;
    unsigned char *solid_host; /* walls, drawn on the host */
    void *solid;               /* and their copy in the ctx's space */
    demo_rows dirty;           /* rows of solid_host not yet copied */
    double last_x, last_y;     /* the cursor at the last frame, for the push and walls */
    int walling;               /* the right button was down at the last frame */
    GLuint texture, mask;
    demo_quad quad;
    homg_view *view;
} smoke;

static smoke S;

static const char *fragment_src = "#version 330 core\n"
                                  "in vec2 uv;\n"
                                  "uniform sampler2D field;\n"
                                  "uniform sampler2D walls;\n"
                                  "out vec4 colour;\n"
                                  "void main() {\n"
                                  "    vec4 c = texture(field, uv);\n"
                                  "    colour = texture(walls, uv).r > 0.0 ? vec4(0.55, 0.55, 0.6, 1) : c;\n"
                                  "}\n";

static homg_fluid_desc fluid_desc(void)
{
    homg_fluid_desc fd = { 0 };
    const projection *p = &projections[S.projection];
    fd.nx = fd.ny = S.n;
    fd.method = p->method;
    fd.jacobi = p->jacobi;
    fd.tol = 1e-3;
    fd.density_decay = 0.05;
    return fd;
}

static void make_view(demo *d)
{
    homg_view_desc vd = { 0 };
    homg_view_info info;
    vd.get_proc_address = d->gl_loader;
    vd.target = HOMG_VIEW_TEXTURE_2D;
    vd.gl_name = S.texture;
    vd.path = d->path;
    vd.latency = d->latency > 0; /* --latency 1: GL may draw a frame or two old (the SHARED ring) */
    demo_check(d, homg_view_create(d->ctx, &vd, &S.view), "homg_view_create");
    homg_view_get_info(S.view, &info);
    printf("smoke: view path %s: %s\n", homg_view_path_name(info.path), info.reason);
    snprintf(d->detail, sizeof d->detail, "%d x %d   view: %s", S.n, S.n, homg_view_path_name(info.path));
}

static int smoke_init(demo *d)
{
    homg_fluid_desc fd;
    size_t cells;
    S.n = d->size;
    cells = (size_t)S.n * S.n;
    fd = fluid_desc();
    demo_check(d, homg_fluid_create(d->ctx, &fd, &S.fluid), "homg_fluid_create");
    S.solid_host = calloc(cells, 1);
    demo_check(d, homg_alloc(d->ctx, cells, &S.solid), "homg_alloc solid");
    demo_check(d, homg_copy_from_host(d->ctx, S.solid, S.solid_host, cells), "zeroing the walls");
    demo_rows_none(&S.dirty, S.n);
    S.texture = demo_texture(GL_RGBA8, S.n, S.n, GL_LINEAR);
    S.mask = demo_texture(GL_R8, S.n, S.n, GL_NEAREST);
    glBindTexture(GL_TEXTURE_2D, S.mask);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, S.n, S.n, GL_RED, GL_UNSIGNED_BYTE, S.solid_host);
    glBindTexture(GL_TEXTURE_2D, 0);
    make_view(d);
    demo_quad_init(&S.quad, fragment_src);
    glUseProgram(S.quad.program);
    glUniform1i(glGetUniformLocation(S.quad.program, "field"), 0);
    glUniform1i(glGetUniformLocation(S.quad.program, "walls"), 1);
    glUseProgram(0);
    return 0;
}

static void smoke_fini(demo *d)
{
    homg_ctx_synchronize(d->ctx);
    homg_view_destroy(S.view);
    homg_fluid_destroy(S.fluid);
    homg_free(d->ctx, S.solid);
    free(S.solid_host);
    glDeleteTextures(1, &S.texture);
    glDeleteTextures(1, &S.mask);
    demo_quad_fini(&S.quad);
    memset(&S, 0, sizeof S);
}

/* Right drag: walls along the cursor's path since the last frame (no gaps). */
static void draw_walls(demo *d)
{
    const unsigned char wall = 1;
    double dx = d->mouse_x - S.last_x, dy = d->mouse_y - S.last_y;
    int steps = (int)(sqrt(dx * dx + dy * dy) * S.n / 2) + 1, r = S.n / 64 > 1 ? S.n / 64 : 1;
    if (d->mouse_button != 2)
        return;
    if (!S.walling) /* a new stroke starts where the cursor is */
        steps = 1, dx = dy = 0;
    for (int k = 1; k <= steps; k++)
        demo_stamp_disc(S.solid_host, 1, &wall, S.n, d->mouse_x - dx * (steps - k) / steps,
                        d->mouse_y - dy * (steps - k) / steps, r, &S.dirty);
}

/* The changed rows of walls: one copy to the fluid, one to the mask texture. */
static void upload_walls(demo *d)
{
    int lo = S.dirty.lo, rows = S.dirty.hi - S.dirty.lo + 1;
    size_t first = (size_t)lo * S.n;
    if (rows <= 0)
        return;
    demo_check(d,
               homg_copy_from_host(d->ctx, (unsigned char *)S.solid + first, S.solid_host + first, (size_t)rows * S.n),
               "copying the walls");
    demo_check(d, homg_fluid_set_solid(S.fluid, S.solid), "homg_fluid_set_solid");
    glBindTexture(GL_TEXTURE_2D, S.mask);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, lo, S.n, rows, GL_RED, GL_UNSIGNED_BYTE, S.solid_host + first);
    glBindTexture(GL_TEXTURE_2D, 0);
    demo_rows_none(&S.dirty, S.n);
}

/* Left drag: smoke at the cursor and a push along the drag (at least upwards a little). */
static void inject(demo *d)
{
    double width = 0.02, dx = d->mouse_x - S.last_x, dy = d->mouse_y - S.last_y;
    homg_splat s = { { d->mouse_x, d->mouse_y, 0 }, width, 0.6 };
    S.last_x = d->mouse_x;
    S.last_y = d->mouse_y;
    if (d->mouse_button != 1)
        return;
    demo_check(d, homg_fluid_splat(S.fluid, HOMG_FLUID_DENSITY, &s, 1), "homg_fluid_splat density");
    s.amount = 20 * dx;
    demo_check(d, homg_fluid_splat(S.fluid, HOMG_FLUID_VELOCITY_X, &s, 1), "homg_fluid_splat velocity");
    s.amount = 20 * dy + 1.0;
    demo_check(d, homg_fluid_splat(S.fluid, HOMG_FLUID_VELOCITY_Y, &s, 1), "homg_fluid_splat velocity");
}

static void write_picture(demo *d)
{
    homg_view_write_desc wd = { 0 };
    wd.precision = HOMG_FLOAT32;
    wd.nx = wd.ny = S.n;
    if (S.show_divergence) {
        homg_fluid_divergence(S.fluid);
        demo_view_write(d, S.view, homg_fluid_data(S.fluid, HOMG_FLUID_DIVERGENCE), &wd);
    } else {
        wd.lo = 0;
        wd.hi = 1;
        demo_view_write(d, S.view, homg_fluid_data(S.fluid, HOMG_FLUID_DENSITY), &wd);
    }
}

static void draw(demo *d)
{
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, S.mask);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, homg_view_gl_texture(S.view)); /* the ring's slot, or S.texture */
    demo_quad_draw(&S.quad, d);
}

static void smoke_frame(demo *d)
{
    homg_fluid_info info;
    if (!d->paused) {
        draw_walls(d);
        upload_walls(d);
        inject(d); /* and remembers the cursor */
        S.walling = d->mouse_button == 2;
    }
    write_picture(d);
    if (!d->paused) {
        demo_solve_begin(d);
        demo_check(d, homg_fluid_step(S.fluid, 1.0 / 60, &info), "homg_fluid_step");
        demo_solve_end(d);
        d->iterations = info.cycles;
        d->residual = info.divergence_left;
    }
    snprintf(d->method, sizeof d->method, "%s%s", projections[S.projection].name,
             S.show_divergence ? ", divergence" : "");
    draw(d);
}

static void smoke_key(demo *d, int key)
{
    if (key == 'm') {
        S.projection = (S.projection + 1) % (int)(sizeof projections / sizeof projections[0]);
        homg_fluid_desc fd = fluid_desc();
        demo_check(d, homg_fluid_configure(S.fluid, &fd), "homg_fluid_configure");
    } else if (key == 'd')
        S.show_divergence = !S.show_divergence;
    else if (key == 'c') {
        memset(S.solid_host, 0, (size_t)S.n * S.n);
        demo_rows_all(&S.dirty, S.n);
    }
}

/* Headless runs: a wall drawn across the middle, then smoke rising from the
 * bottom and swept to the right, then left. */
static void smoke_script(demo *d, int frame)
{
    d->mouse_button = 0;
    if (frame < 10) {
        d->mouse_x = 0.3 + 0.3 * frame / 9.0;
        d->mouse_y = 0.55 + 0.05 * frame / 9.0;
        d->mouse_button = 2;
    } else if (frame < 40) {
        d->mouse_x = 0.35 + 0.3 * (frame - 10) / 29.0;
        d->mouse_y = 0.12 + 0.02 * sin(frame * 0.5);
        d->mouse_button = 1;
    } else if (frame < 55) {
        d->mouse_x = 0.65 - 0.25 * (frame - 40) / 14.0;
        d->mouse_y = 0.2;
        d->mouse_button = 1;
    }
}

int main(int argc, char **argv)
{
    static const demo_app app = {
        .name = "smoke",
        .summary = "2D smoke with walls you draw; the pressure projection is solved by homg every frame",
        .keys = "  left drag: smoke and a push   right drag: walls   c: clear walls\n"
                "  m: projection (default, vcycle, fmg, 40 Jacobi sweeps)   d: show the divergence left",
        .width = 800,
        .height = 800,
        .size = 1024,
        .min_size = 32,
        .max_size = 4096,
        .init = smoke_init,
        .fini = smoke_fini,
        .frame = smoke_frame,
        .key = smoke_key,
        .script = smoke_script,
        .timed = "step",
    };
    return demo_run(argc, argv, &app);
}
