/* clone.c -- drag a source patch over a destination picture with the mouse; the
 * seamless clone is solved on the GPU every frame and drawn from there.
 *
 * The pictures are made here: the destination (size x size, float RGB) has
 * waves and a checkerboard, the source (size/3 square, 8-bit RGB) waves and
 * noise, its mask a ring with a bar.  One homg_clone keeps the grid laid over the
 * mask; each frame:
 *   1. homg_clone_apply places the source with the centre of the mask's box under
 *      the cursor, sets up the guidance and the fixed destination pixels, and
 *      solves a fixed number of V-cycles starting from the last placement's
 *      solution (the grid moves with the mask, so the last solution is aligned):
 *      no host wait;
 *   2. homg_view_write copies the blended float picture into a buffer the view
 *      owns (CUDA-GL interop), which the fragment shader reads as a texture buffer;
 *   3. a quad shows it.
 * Keys: left drag moves the patch; m: mode (normal, mixed, monochrome); o: the
 * OpenCV formulation on / off; c: cycles per frame (1, 2, 4). */
#include "harness/harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *mode_names[] = { "normal", "mixed", "monochrome" };

typedef struct clone_demo {
    int n, s; /* destination and source sides */
    int mode, opencv, cycles;
    homg_image src, mask, dst, out; /* in the context's memory */
    homg_clone *clone;
    int x, y; /* the placement: the mask box's centre */
    GLuint tbo;
    demo_quad quad;
    homg_view *view;
} clone_demo;

static clone_demo C;

/* The picture's rows run top down; pixel (x, y) channel c is float 3 (x + n y) + c. */
static const char *fragment_src = "#version 330 core\n"
                                  "in vec2 uv;\n"
                                  "uniform samplerBuffer picture;\n"
                                  "uniform int n;\n"
                                  "out vec4 colour;\n"
                                  "void main() {\n"
                                  "    int x = min(int(uv.x * n), n - 1), y = min(int((1.0 - uv.y) * n), n - 1);\n"
                                  "    int k = 3 * (x + n * y);\n"
                                  "    colour = vec4(texelFetch(picture, k).r, texelFetch(picture, k + 1).r,\n"
                                  "                  texelFetch(picture, k + 2).r, 1.0);\n"
                                  "}\n";

/* A host picture: waves (+ a checkerboard for the destination) + noise, float or 8-bit RGB. */
static void *picture(int n, int dest, homg_pixel_type type)
{
    size_t count = (size_t)n * n * 3;
    float *f = malloc(count * sizeof(float));
    unsigned char *b = type == HOMG_PIXEL_U8 ? malloc(count) : NULL;
    unsigned seed = dest ? 7 : 3;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
            for (int c = 0; c < 3; c++) {
                double v = dest ? 0.45 + 0.25 * sin((x + 2.0 * y) / (n / 7.0) + 2 * c) +
                                      0.12 * (((x * 16 / n) + (y * 16 / n)) % 2)
                                : 0.5 + 0.35 * sin(x / (n / 14.0) + c) * cos(y / (n / 11.0) - c);
                seed = seed * 1103515245u + 12345u;
                v += (dest ? 0.02 : 0.06) * ((seed >> 16 & 0x7fff) / 32767.0 - 0.5);
                v = v < 0 ? 0 : v > 1 ? 1 : v;
                f[((size_t)y * n + x) * 3 + c] = (float)v;
                if (b)
                    b[((size_t)y * n + x) * 3 + c] = (unsigned char)(v * 255 + 0.5);
            }
    if (b) {
        free(f);
        return b;
    }
    return f;
}

static unsigned char *ring_mask(int s)
{
    unsigned char *m = malloc((size_t)s * s);
    double c = (s - 1) / 2.0;
    for (int y = 0; y < s; y++)
        for (int x = 0; x < s; x++) {
            double r = hypot(x - c, y - c);
            m[(size_t)y * s + x] =
                ((r < 0.45 * s && r > 0.14 * s) || (fabs(y - c) < 0.05 * s && fabs(x - c) < 0.47 * s)) ? 255 : 0;
        }
    return m;
}

/* An image in the context's memory, filled from host data (NULL: left as is). */
static homg_image ctx_image(demo *d, int n, int channels, homg_pixel_type type, const void *host)
{
    homg_image im = { 0 };
    size_t bytes = (size_t)n * n * channels * (type == HOMG_PIXEL_F32 ? 4 : 1);
    im.width = im.height = n, im.channels = channels, im.type = type;
    demo_check(d, homg_alloc(d->ctx, bytes, &im.data), "homg_alloc");
    if (host)
        demo_check(d, homg_copy_from_host(d->ctx, im.data, host, bytes), "homg_copy_from_host");
    return im;
}

static void make_clone(demo *d)
{
    homg_clone_desc cd = { 0 };
    homg_clone_destroy(C.clone);
    cd.mode = (homg_clone_mode)C.mode;
    cd.formulation = C.opencv ? HOMG_CLONE_OPENCV : HOMG_CLONE_TEXTBOOK;
    cd.centered = 1;
    cd.tol = -1; /* exactly C.cycles V-cycles: no host wait */
    cd.max_cycles = C.cycles;
    demo_check(d, homg_clone_create(d->ctx, &C.src, &C.mask, C.n, C.n, &cd, &C.clone), "homg_clone_create");
}

static int clone_init(demo *d)
{
    homg_view_desc vd = { 0 };
    homg_view_info info;
    void *hd, *hs;
    unsigned char *hm;
    C.n = d->size;
    C.s = C.n / 3 > 8 ? C.n / 3 : 8;
    C.cycles = C.cycles ? C.cycles : 2;
    hd = picture(C.n, 1, HOMG_PIXEL_F32);
    hs = picture(C.s, 0, HOMG_PIXEL_U8);
    hm = ring_mask(C.s);
    C.dst = ctx_image(d, C.n, 3, HOMG_PIXEL_F32, hd);
    C.out = ctx_image(d, C.n, 3, HOMG_PIXEL_F32, hd);
    C.src = ctx_image(d, C.s, 3, HOMG_PIXEL_U8, hs);
    C.mask = ctx_image(d, C.s, 1, HOMG_PIXEL_U8, hm);
    free(hd), free(hs), free(hm);
    C.x = C.n / 2, C.y = C.n / 2;
    make_clone(d);

    /* the view owns a buffer of 3 floats per pixel; GL reads it as a texture buffer */
    vd.get_proc_address = d->gl_loader;
    vd.target = HOMG_VIEW_BUFFER;
    vd.format = HOMG_VIEW_R32F;
    vd.count = C.n * C.n * 3;
    vd.path = d->path;
    demo_check(d, homg_view_create(d->ctx, &vd, &C.view), "homg_view_create");
    homg_view_get_info(C.view, &info);
    printf("clone: view path %s: %s\n", homg_view_path_name(info.path), info.reason);
    glGenTextures(1, &C.tbo);
    glBindTexture(GL_TEXTURE_BUFFER, C.tbo);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_R32F, homg_view_gl_name(C.view));
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    demo_quad_init(&C.quad, fragment_src);
    return 0;
}

static void clone_fini(demo *d)
{
    homg_ctx_synchronize(d->ctx);
    homg_view_destroy(C.view);
    homg_clone_destroy(C.clone);
    homg_free(d->ctx, C.src.data), homg_free(d->ctx, C.mask.data);
    homg_free(d->ctx, C.dst.data), homg_free(d->ctx, C.out.data);
    glDeleteTextures(1, &C.tbo);
    demo_quad_fini(&C.quad);
    C.view = NULL, C.clone = NULL;
}

static void clone_frame(demo *d)
{
    homg_view_write_desc wd = { 0 };
    homg_image_info info;
    if (!d->paused && d->mouse_button == 1) { /* the patch follows the cursor (y up in the window) */
        C.x = (int)(d->mouse_x * C.n);
        C.y = (int)((1 - d->mouse_y) * C.n);
    }
    if (!d->paused) {
        demo_solve_begin(d);
        demo_check(d, homg_clone_apply(C.clone, &C.dst, C.x, C.y, &C.out, &info), "homg_clone_apply");
        demo_solve_end(d);
        d->iterations = info.cycles;
        d->residual = -1;
    }
    wd.precision = HOMG_FLOAT32;
    wd.nx = C.n * C.n * 3;
    wd.ny = 1;
    demo_view_write(d, C.view, C.out.data, &wd);
    snprintf(d->method, sizeof d->method, "%s, %s, %d cycle%s", mode_names[C.mode], C.opencv ? "OpenCV" : "textbook",
             C.cycles, C.cycles > 1 ? "s" : "");
    snprintf(d->detail, sizeof d->detail, "%d x %d, patch %d x %d at (%d, %d)", C.n, C.n, C.s, C.s, C.x, C.y);

    glUseProgram(C.quad.program);
    glUniform1i(glGetUniformLocation(C.quad.program, "n"), C.n);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_BUFFER, C.tbo);
    demo_quad_draw(&C.quad, d);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
}

static void clone_key(demo *d, int key)
{
    if (key == 'm')
        C.mode = (C.mode + 1) % 3;
    else if (key == 'o')
        C.opencv = !C.opencv;
    else if (key == 'c')
        C.cycles = C.cycles >= 4 ? 1 : 2 * C.cycles;
    else
        return;
    homg_ctx_synchronize(d->ctx);
    make_clone(d);
}

/* Headless runs: the patch dragged on an arc from the upper left to the lower right. */
static void clone_script(demo *d, int frame)
{
    double t = frame / 20.0 > 1 ? 1 : frame / 20.0;
    d->mouse_button = 1;
    d->mouse_x = 0.3 + 0.4 * t;
    d->mouse_y = 0.7 - 0.4 * t + 0.12 * sin(3.14159 * t);
}

int main(int argc, char **argv)
{
    static const demo_app app = {
        .name = "clone",
        .summary = "drag a source patch over a picture; the seamless clone is solved on the GPU every frame",
        .keys = "  left drag: move the patch   m: mode (normal, mixed, monochrome)\n"
                "  o: OpenCV's formulation on / off   c: V-cycles per frame (1, 2, 4)",
        .width = 800,
        .height = 800,
        .size = 1024,
        .min_size = 32,
        .max_size = 4096,
        .init = clone_init,
        .fini = clone_fini,
        .frame = clone_frame,
        .key = clone_key,
        .script = clone_script,
    };
    return demo_run(argc, argv, &app);
}
