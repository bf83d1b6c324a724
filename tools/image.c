/* image.c -- the image commands of the `homg` tool: clone, inpaint, smooth and
 * integrate.  Each reads its images (stb_image), moves them to the context's
 * memory, makes one library call and writes the result by the name's extension. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tool.h"

typedef struct img_opts {
    const char *cmd, *in, *src, *dst, *mask, *out, *backend;
    int x, y, at_set, opencv, time, gradient, flip_y;
    homg_clone_mode mode;
    double lambda, scale, tol;
} img_opts;

static const char *const HELP_CLONE =
    "usage: homg clone --src S --dst D --mask M --at X,Y --out O [options]\n\n"
    "Seamless cloning: the part of S under the mask M (S's size; white = in, its first channel\n"
    "is read) blended into D with S's top-left corner at pixel (X, Y) of D (Perez et al. 2003:\n"
    "unknowns at the mask's pixels, D fixed around them; the mask is clipped at D's border).\n"
    "  --mode normal|mixed|mono   the guidance: S's gradient (default), the stronger of S's and\n"
    "                             D's, or the gradient of S's luma in every channel\n"
    "  --opencv                   OpenCV 4 seamlessClone's formulation and placement: (X, Y) is\n"
    "                             where the centre of the mask's bounding box goes, the whole box\n"
    "                             is solved with its frame fixed, the mask eroded by 3 pixels,\n"
    "                             results truncated (within one level of OpenCV's)\n";
static const char *const HELP_INPAINT =
    "usage: homg inpaint IMG --mask M --out O [options]\n\n"
    "Membrane inpainting: the pixels of IMG under the mask M (IMG's size; white = in) replaced by\n"
    "the smooth (harmonic) fill of the pixels around them.\n";
static const char *const HELP_SMOOTH =
    "usage: homg smooth IMG --lambda L --out O [--scale S] [options]\n\n"
    "Gradient-domain smoothing or sharpening (screened Poisson): the image u that minimises\n"
    "L |u - IMG|^2 + |grad u - S grad IMG|^2 (zero flux at the border).  L > 0: the larger, the\n"
    "closer to IMG; S = 0 (default) smooths, S > 1 sharpens.\n";
static const char *const HELP_INTEGRATE =
    "usage: homg integrate NORMALS --out HEIGHT [options]\n\n"
    "A height map from a tangent-space normal map (n = 2 v - 1, green up as in OpenGL), or with\n"
    "--gradient from a gradient image (channels 0, 1: dh/dx, dh/dy, y down; float, e.g. .hdr):\n"
    "the least-squares height (Neumann sides, mean zero, pixel units).  HEIGHT: .hdr keeps the\n"
    "heights as floats, shifted so that the lowest is 0 (HDR holds no negative values; the shift\n"
    "is printed); .png is 16-bit with the range mapped to 0..65535 (printed).\n"
    "  --flip-y                   green down (DirectX normal maps)\n"
    "  --gradient                 the input is a gradient image\n";
static const char *const HELP_COMMON = "  --tol T                    relative residual of the solve (default 1e-5)\n"
                                       "  --backend B                auto|cpu|cuda (default auto)\n"
                                       "  --time                     print the time of each step\n"
                                       "  --help                     this text\n"
                                       "Images: PNG (8/16-bit), JPEG, BMP, TGA, PSD, HDR in; .png, .jpg, .hdr out.\n";

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static void usage(FILE *f, const char *cmd)
{
    const char *h = !strcmp(cmd, "clone")     ? HELP_CLONE
                    : !strcmp(cmd, "inpaint") ? HELP_INPAINT
                    : !strcmp(cmd, "smooth")  ? HELP_SMOOTH
                                              : HELP_INTEGRATE;
    fprintf(f, "%s%s", h, HELP_COMMON);
}

static int bad(const img_opts *o, const char *opt, const char *value, const char *why)
{
    fprintf(stderr, "homg %s: %s%s%s: %s\n", o->cmd, opt, value ? " " : "", value ? value : "", why);
    return 2;
}

static int parse_double(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return end != s && !*end && !errno && isfinite(*v);
}

static int parse_at(const char *s, int *x, int *y)
{
    char *end;
    long a, b;
    errno = 0;
    a = strtol(s, &end, 10);
    if (end == s || *end != ',' || errno || a < INT_MIN || a > INT_MAX)
        return 0;
    s = end + 1;
    b = strtol(s, &end, 10);
    if (end == s || *end || errno || b < INT_MIN || b > INT_MAX)
        return 0;
    *x = (int)a, *y = (int)b;
    return 1;
}

/* Options with a value; returns 2 on a bad one, 0 when it was not one of them, 1 when taken. */
static int value_option(img_opts *o, const char *arg, const char *val)
{
    const char **str = !strcmp(arg, "--src")       ? &o->src
                       : !strcmp(arg, "--dst")     ? &o->dst
                       : !strcmp(arg, "--mask")    ? &o->mask
                       : !strcmp(arg, "--out")     ? &o->out
                       : !strcmp(arg, "--backend") ? &o->backend
                                                   : NULL;
    if (str) {
        *str = val;
        return 1;
    }
    if (!strcmp(arg, "--at"))
        return parse_at(val, &o->x, &o->y) ? (o->at_set = 1) : bad(o, arg, val, "expected X,Y (integers)");
    if (!strcmp(arg, "--mode")) {
        o->mode = !strcmp(val, "normal")  ? HOMG_CLONE_NORMAL
                  : !strcmp(val, "mixed") ? HOMG_CLONE_MIXED
                  : !strcmp(val, "mono")  ? HOMG_CLONE_MONOCHROME
                                          : (homg_clone_mode)-1;
        return (int)o->mode >= 0 ? 1 : bad(o, arg, val, "expected normal, mixed or mono");
    }
    if (!strcmp(arg, "--lambda"))
        return parse_double(val, &o->lambda) && o->lambda > 0 ? 1 : bad(o, arg, val, "expected a number > 0");
    if (!strcmp(arg, "--scale"))
        return parse_double(val, &o->scale) && o->scale >= 0 ? 1 : bad(o, arg, val, "expected a number >= 0");
    if (!strcmp(arg, "--tol"))
        return parse_double(val, &o->tol) && o->tol >= 0 ? 1 : bad(o, arg, val, "expected a number >= 0");
    return 0;
}

/* Returns -1 to go on, else the exit status. */
static int parse(int argc, char **argv, img_opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        int r;
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            usage(stdout, o->cmd);
            return 0;
        }
        if (!strcmp(arg, "--opencv") || !strcmp(arg, "--time") || !strcmp(arg, "--gradient") ||
            !strcmp(arg, "--flip-y")) {
            *(arg[2] == 'o' ? &o->opencv : arg[2] == 't' ? &o->time : arg[2] == 'g' ? &o->gradient : &o->flip_y) = 1;
            continue;
        }
        if (arg[0] != '-' && !o->in && strcmp(o->cmd, "clone")) {
            o->in = arg;
            continue;
        }
        if (arg[0] != '-' || i + 1 >= argc) {
            fprintf(stderr, "homg %s: %s: %s\n\n", o->cmd, arg,
                    arg[0] == '-' ? "needs a value" : "unexpected argument");
            usage(stderr, o->cmd);
            return 2;
        }
        r = value_option(o, arg, argv[++i]);
        if (r == 2)
            return 2;
        if (r == 0) {
            fprintf(stderr, "homg %s: unknown option %s\n\n", o->cmd, arg);
            usage(stderr, o->cmd);
            return 2;
        }
    }
    return -1;
}

static int need(const img_opts *o, const char *what, const char *name)
{
    if (what)
        return 0;
    fprintf(stderr, "homg %s: %s is required (homg %s --help)\n", o->cmd, name, o->cmd);
    return 2;
}

/* ---- images between files, host and the context */

typedef struct job {
    img_opts *o;
    homg_ctx *ctx;
    double t0;
    homg_image host[4]; /* read from files (data: free) */
    homg_image dev[4];  /* in the ctx's space (homg_free), or the host ones on the CPU backend */
} job;

static int fail(job *j, const char *what)
{
    fprintf(stderr, "homg %s: %s: %s\n", j->o->cmd, what, homg_ctx_last_error(j->ctx));
    return 1;
}

static void step(job *j, const char *what)
{
    double t = now_ms();
    if (j->o->time)
        fprintf(stderr, "%-10s %9.3f ms\n", what, t - j->t0);
    j->t0 = t;
}

static size_t bytes_of(const homg_image *im) { return im->pitch * im->height; }

static int read_image(job *j, int k, const char *path, int channels)
{
    if (homg_image_read(j->ctx, path, channels, 0, &j->host[k]) != HOMG_OK)
        return fail(j, "reading");
    return 0;
}

/* A ctx-space copy of host[k] (or a fresh one of its size when blank). */
static int upload(job *j, int k, int blank)
{
    j->dev[k] = j->host[k];
    j->dev[k].data = NULL;
    if (homg_alloc(j->ctx, bytes_of(&j->host[k]), &j->dev[k].data) != HOMG_OK ||
        (!blank && homg_copy_from_host(j->ctx, j->dev[k].data, j->host[k].data, bytes_of(&j->host[k])) != HOMG_OK))
        return fail(j, "moving an image to the device");
    return 0;
}

static void mask_from_first_channel(homg_image *m)
{
    unsigned char *p = (unsigned char *)m->data;
    for (size_t k = 0; k < (size_t)m->width * m->height; k++)
        p[k] = p[k * m->channels] > 127 ? 255 : 0;
    m->channels = 1;
    m->pitch = (size_t)m->width;
}

/* Heights for the file: .png 16-bit, the range mapped to 0..65535 (in place: floats to
 * shorts); .hdr shifted so that the lowest is 0 (RGBE holds no negative values). */
static void heights_for_file(job *j)
{
    homg_image *h = &j->host[3];
    float *v = (float *)h->data, lo = INFINITY, hi = -INFINITY;
    unsigned short *s = (unsigned short *)h->data;
    size_t n = (size_t)h->width * h->height, len = strlen(j->o->out);
    if (strcmp(j->o->cmd, "integrate") || len < 4)
        return;
    for (size_t k = 0; k < n; k++)
        lo = v[k] < lo ? v[k] : lo, hi = v[k] > hi ? v[k] : hi;
    if (!strcmp(j->o->out + len - 4, ".hdr")) {
        for (size_t k = 0; k < n; k++)
            v[k] -= lo;
        printf("homg integrate: heights %g .. %g (pixel units, mean 0) written shifted by %g (HDR holds no negative "
               "values)\n",
               lo, hi, -lo);
        return;
    }
    if (strcmp(j->o->out + len - 4, ".png"))
        return;
    for (size_t k = 0; k < n; k++) /* s[k] overlaps v[k / 2] only, already read */
        s[k] = (unsigned short)lroundf(hi > lo ? (v[k] - lo) / (hi - lo) * 65535 : 32768);
    h->type = HOMG_PIXEL_U16, h->pitch = (size_t)h->width * 2;
    printf("homg integrate: heights %g .. %g (pixel units) mapped to 0 .. 65535\n", lo, hi);
}

static int write_out(job *j, int k, homg_image_info *info)
{
    char res[40] = "";
    if (homg_copy_to_host(j->ctx, j->host[k].data, j->dev[k].data, bytes_of(&j->host[k])) != HOMG_OK)
        return fail(j, "copying the result back");
    step(j, "download");
    heights_for_file(j);
    if (homg_image_write(j->ctx, j->o->out, &j->host[k]) != HOMG_OK)
        return fail(j, "writing");
    step(j, "write");
    if (info->residual >= 0) /* -1: the solve computed none (a direct solve) */
        snprintf(res, sizeof res, ", residual %.2g", info->residual);
    printf("homg %s: %s written (%d x %d, %d unknowns per channel on a %d x %d grid, %d cycle%s%s, %.3f ms in the "
           "library)\n",
           j->o->cmd, j->o->out, j->host[k].width, j->host[k].height, info->unknowns, info->grid_nx, info->grid_ny,
           info->cycles, info->cycles == 1 ? "" : "s", res, info->time_ms);
    return 0;
}

static void release(job *j)
{
    for (int k = 0; k < 4; k++) {
        homg_free(j->ctx, j->dev[k].data);
        free(j->host[k].data);
    }
    homg_ctx_destroy(j->ctx);
}

static int run_clone(job *j, homg_image_info *info)
{
    img_opts *o = j->o;
    homg_clone_desc d = { 0 };
    if (read_image(j, 1, o->dst, 0) || read_image(j, 0, o->src, j->host[1].channels) || read_image(j, 2, o->mask, 0))
        return 1;
    mask_from_first_channel(&j->host[2]);
    if (j->host[0].type != j->host[1].type) /* src in dst's type: read again as 8-bit or compare in [0, 1] */
        fprintf(stderr, "homg clone: note: src and dst differ in bit depth; values compare in [0, 1]\n");
    j->host[3] = j->host[1];
    j->host[3].data = malloc(bytes_of(&j->host[1]));
    if (!j->host[3].data)
        return fprintf(stderr, "homg clone: out of memory\n"), 1;
    step(j, "read");
    if (upload(j, 0, 0) || upload(j, 1, 0) || upload(j, 2, 0) || upload(j, 3, 1))
        return 1;
    step(j, "upload");
    d.mode = o->mode, d.x = o->x, d.y = o->y, d.tol = o->tol;
    if (o->opencv)
        d.formulation = HOMG_CLONE_OPENCV, d.centered = 1;
    if (homg_image_clone(j->ctx, &j->dev[0], &j->dev[2], &j->dev[1], &j->dev[3], &d, info) != HOMG_OK)
        return fail(j, "clone");
    homg_ctx_synchronize(j->ctx);
    step(j, "clone");
    return write_out(j, 3, info);
}

static int run_edit(job *j, homg_image_info *info)
{
    img_opts *o = j->o;
    homg_image_desc d = { 0 };
    int integ = !strcmp(o->cmd, "integrate"), inpaint = !strcmp(o->cmd, "inpaint");
    homg_status st;
    if (read_image(j, 0, o->in, integ && !o->gradient ? 3 : 0) || (inpaint && read_image(j, 2, o->mask, 0)))
        return 1;
    if (inpaint)
        mask_from_first_channel(&j->host[2]);
    j->host[3] = j->host[0];
    if (integ)
        j->host[3].channels = 1, j->host[3].type = HOMG_PIXEL_F32, j->host[3].pitch = (size_t)j->host[0].width * 4;
    j->host[3].data = malloc(bytes_of(&j->host[3]));
    if (!j->host[3].data)
        return fprintf(stderr, "homg %s: out of memory\n", o->cmd), 1;
    step(j, "read");
    if (upload(j, 0, 0) || (inpaint && upload(j, 2, 0)) || upload(j, 3, 1))
        return 1;
    step(j, "upload");
    d.tol = o->tol, d.lambda = o->lambda, d.scale = o->scale, d.normal_map = !o->gradient, d.flip_y = o->flip_y;
    st = inpaint ? homg_image_inpaint(j->ctx, &j->dev[0], &j->dev[2], &j->dev[3], &d, info)
         : integ ? homg_image_integrate(j->ctx, &j->dev[0], &j->dev[3], &d, info)
                 : homg_image_smooth(j->ctx, &j->dev[0], &j->dev[3], &d, info);
    if (st != HOMG_OK)
        return fail(j, o->cmd);
    homg_ctx_synchronize(j->ctx);
    step(j, o->cmd);
    return write_out(j, 3, info);
}

static int run(int argc, char **argv, const char *cmd)
{
    img_opts o;
    job j;
    homg_image_info info = { 0 };
    int rc;
    memset(&o, 0, sizeof o);
    memset(&j, 0, sizeof j);
    o.cmd = cmd;
    o.mode = HOMG_CLONE_NORMAL;
    if ((rc = parse(argc, argv, &o)) >= 0)
        return rc;
    if (!strcmp(cmd, "clone"))
        rc = need(&o, o.src, "--src") || need(&o, o.dst, "--dst") || need(&o, o.mask, "--mask") ||
             need(&o, o.at_set ? "" : NULL, "--at X,Y");
    else
        rc = need(&o, o.in, "the input image") || (!strcmp(cmd, "inpaint") && need(&o, o.mask, "--mask")) ||
             (!strcmp(cmd, "smooth") && need(&o, o.lambda > 0 ? "" : NULL, "--lambda L"));
    if (rc || need(&o, o.out, "--out"))
        return 2;
    j.o = &o;
    j.ctx = homg_tool_ctx(o.backend);
    if (!j.ctx)
        return 1;
    j.t0 = now_ms();
    if (o.time)
        fprintf(stderr, "backend: %s\n", homg_ctx_device_name(j.ctx));
    if (!strcmp(cmd, "clone"))
        rc = run_clone(&j, &info);
    else
        rc = run_edit(&j, &info);
    release(&j);
    return rc;
}

int homg_cmd_clone(int argc, char **argv) { return run(argc, argv, "clone"); }
int homg_cmd_inpaint(int argc, char **argv) { return run(argc, argv, "inpaint"); }
int homg_cmd_smooth(int argc, char **argv) { return run(argc, argv, "smooth"); }
int homg_cmd_integrate(int argc, char **argv) { return run(argc, argv, "integrate"); }
