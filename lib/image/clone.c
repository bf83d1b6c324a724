/* clone.c -- seamless cloning and membrane inpainting on a grid laid over the
 * mask's bounding box.
 *
 * The problems (images in [0, 1], pixel units, N_p = the 4-neighbours of p that
 * lie inside the destination; at its border the flux is zero):
 *
 * Textbook (Perez, Gangnet, Blake 2003, eq. 7): unknowns f_p at the mask's pixels
 * Omega (the mask placed in the destination, clipped to it),
 *   |N_p| f_p - sum_{q in N_p and Omega} f_q = sum_{q in N_p \ Omega} f*_q + sum_{q in N_p} v_pq,
 * f* the destination.  v_pq (image_point.h, clone_guidance): normal g_p - g_q
 * (g the source; 0 where q's source pixel is outside the source), monochrome the
 * same of the source's Rec. 601 luma, mixed whichever of g_p - g_q and
 * f*_p - f*_q has the larger magnitude, per channel.  Inpainting: v = 0.
 *   On the grid: cells are ACTIVE in Omega, FIXED (value f*) elsewhere in the
 * destination, SOLID beyond it; the grid is the box plus a ring of one cell.
 *
 * OpenCV (4.x seamlessClone): the mask with its outer frame of one pixel
 * cleared, its bounding box R placed with R's corner at p - size / 2; unknowns
 * at R's interior, R's frame fixed to the destination, and
 *   -Laplacian f = -div G, G = the destination's forward differences where the
 * mask eroded by a 7 x 7 square (three 3 x 3 erosions) is 0, the source patch's
 * (the source where the mask is set, 0 elsewhere) where it is 1, and for mixed
 * the patch's only where |pgx - pgy| > |dgx - dgy| at that pixel (OpenCV's rule);
 * monochrome takes the patch's gray (COLOR_BGR2GRAY, rounded to 8 bits).  The
 * result is truncated to 8 bits, as OpenCV's solver does, and the rest of R
 * (its frame, the pixels outside the mask) is part of the solution.  Where R
 * crosses the destination's border (OpenCV refuses) the cells beyond are SOLID.
 *
 * The same placement again (dragging) keeps the grid and starts from the last
 * solution: the grid moves with the mask, so the last solution is aligned. */
#include "image/image_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct homg_clone {
    homg_ctx *ctx;
    homg_clone_desc desc;
    image_problem problem;
    homg_image src, mask;
    int dw, dh;
    int bx, by, bw, bh;    /* the mask's bounding box in the source */
    int sx, sy;            /* the source pixel of grid cell (0, 0) */
    int32_t *sat;          /* host: summed-area table of the mask over the box, (bw+1) x (bh+1) */
    unsigned char *eroded; /* OPENCV: the eroded mask over the grid (ctx space) */
    image_grid g;
    int clip[4]; /* the grid cells inside the destination at the last placement: [i0, i1) x [j0, j1) */
    int warm;
};

static const char *problem_fn(image_problem p) { return p == IMAGE_INPAINT ? "homg_image_inpaint" : "homg_clone"; }

homg_clone_desc homg_clone_desc_defaults(const homg_clone_desc *desc)
{
    homg_clone_desc d;
    homg__desc_start(&d, desc, sizeof d);
    HOMG_DEFAULT(d.tol, 1e-5);
    HOMG_DEFAULT(d.max_cycles, 50);
    return d;
}

/* The mask (ctx space) on the host, 1 byte per pixel: in or out (OpenCV: frame cleared). */
static unsigned char *host_mask(homg_clone *cl)
{
    const homg_image *m = &cl->mask;
    size_t pitch = homg__image_pitch(m), bytes = pitch * (m->height - 1) + (size_t)m->width * m->channels;
    unsigned char *raw = (unsigned char *)homg__host_alloc(cl->ctx, bytes, "mask"), *in;
    if (!raw)
        return NULL;
    if (homg_copy_to_host(cl->ctx, raw, m->data, bytes) != HOMG_OK) {
        free(raw);
        return NULL;
    }
    in = (unsigned char *)homg__host_array(cl->ctx, (size_t)m->width * m->height, 1, "mask");
    if (in)
        for (int y = 0; y < m->height; y++)
            for (int x = 0; x < m->width; x++) {
                int frame = x == 0 || y == 0 || x == m->width - 1 || y == m->height - 1;
                in[(size_t)y * m->width + x] =
                    raw[y * pitch + (size_t)x * m->channels] != 0 && !(cl->problem == IMAGE_CLONE_CV && frame);
            }
    free(raw);
    return in;
}

/* The bounding box and its summed-area table; INVALID_ARGUMENT for an empty mask. */
static homg_status mask_box(homg_clone *cl, const unsigned char *in)
{
    int w = cl->mask.width, h = cl->mask.height, x0 = w, y0 = h, x1 = -1, y1 = -1;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if (in[(size_t)y * w + x]) {
                x0 = x < x0 ? x : x0;
                x1 = x > x1 ? x : x1;
                y0 = y < y0 ? y : y0;
                y1 = y > y1 ? y : y1;
            }
    if (x1 < 0)
        return homg__fail(cl->ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: mask is empty (no non-zero pixel%s)",
                          problem_fn(cl->problem), cl->problem == IMAGE_CLONE_CV ? " inside its outer frame" : "");
    cl->bx = x0, cl->by = y0, cl->bw = x1 - x0 + 1, cl->bh = y1 - y0 + 1;
    cl->sat = (int32_t *)homg__host_array(cl->ctx, (size_t)(cl->bw + 1) * (cl->bh + 1), sizeof(int32_t), "mask");
    if (!cl->sat)
        return HOMG_ERROR_OUT_OF_MEMORY;
    for (int j = 0; j <= cl->bh; j++)
        for (int i = 0; i <= cl->bw; i++) {
            size_t k = (size_t)j * (cl->bw + 1) + i;
            cl->sat[k] = i && j ? in[(size_t)(y0 + j - 1) * w + x0 + i - 1] + cl->sat[k - 1] + cl->sat[k - cl->bw - 1] -
                                      cl->sat[k - cl->bw - 2]
                                : 0;
        }
    return HOMG_OK;
}

/* Mask pixels in the box's cells [i0, i1) x [j0, j1). */
static long box_count(const homg_clone *cl, int i0, int j0, int i1, int j1)
{
    int W = cl->bw + 1;
    if (i0 >= i1 || j0 >= j1)
        return 0;
    return (long)cl->sat[(size_t)j1 * W + i1] - cl->sat[(size_t)j0 * W + i1] - cl->sat[(size_t)j1 * W + i0] +
           cl->sat[(size_t)j0 * W + i0];
}

static int clampi(long long v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : (int)v; }

static homg_status check_inputs(homg_ctx *ctx, const char *fn, image_problem p, const homg_image *src,
                                const homg_image *mask, int dw, int dh)
{
    HOMG_TRY(homg__check_image_ctx(ctx, fn, p == IMAGE_INPAINT ? "img" : "src", src, 0));
    HOMG_TRY(homg__check_mask(ctx, fn, mask));
    if (mask->width != src->width || mask->height != src->height)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "%s: mask is %d x %d but %s is %d x %d; the mask must have its size", fn, mask->width,
                          mask->height, p == IMAGE_INPAINT ? "img" : "src", src->width, src->height);
    if (dw < 1 || dh < 1 || dw > HOMG_IMAGE_MAX_SIDE || dh > HOMG_IMAGE_MAX_SIDE ||
        (size_t)dw * dh > HOMG_IMAGE_MAX_PIXELS)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "%s: the destination is %d x %d pixels: each side must be "
                          "1..%d and width*height at most 2^28",
                          fn, dw, dh, HOMG_IMAGE_MAX_SIDE);
    return HOMG_OK;
}

/* The plan without its grid: checks, the mask's box and summed-area table. */
static homg_status plan_create(homg_ctx *ctx, image_problem problem, const homg_image *src, const homg_image *mask,
                               int dw, int dh, const homg_clone_desc *desc, homg_clone **out)
{
    const char *fn = problem_fn(problem);
    homg_clone *cl;
    unsigned char *in;
    homg_status st;
    HOMG_TRY(check_inputs(ctx, fn, problem, src, mask, dw, dh));
    cl = (homg_clone *)homg__host_alloc(ctx, sizeof *cl, fn);
    if (!cl)
        return HOMG_ERROR_OUT_OF_MEMORY;
    memset(cl, 0, sizeof *cl);
    cl->ctx = ctx;
    cl->desc = homg_clone_desc_defaults(desc);
    cl->problem = problem == IMAGE_CLONE && cl->desc.formulation == HOMG_CLONE_OPENCV ? IMAGE_CLONE_CV : problem;
    cl->src = *src;
    cl->mask = *mask;
    cl->dw = dw, cl->dh = dh;
    in = host_mask(cl);
    st = in ? mask_box(cl, in) : HOMG_ERROR_OUT_OF_MEMORY;
    free(in);
    if (st != HOMG_OK) {
        homg_clone_destroy(cl);
        return st;
    }
    /* the grid's cell (0, 0): the box's corner, less a ring of one cell for the textbook problem */
    cl->sx = cl->bx - (cl->problem == IMAGE_CLONE_CV ? 0 : 1);
    cl->sy = cl->by - (cl->problem == IMAGE_CLONE_CV ? 0 : 1);
    *out = cl;
    return HOMG_OK;
}

/* The grid over the box (plus a ring of one cell for the textbook problem) and OpenCV's eroded mask. */
static homg_status plan_grid(homg_clone *cl)
{
    homg_ctx *ctx = cl->ctx;
    int ring = cl->problem == IMAGE_CLONE_CV ? 0 : 1;
    HOMG_TRY(homg__image_grid_create(ctx, cl->bw + 2 * ring, cl->bh + 2 * ring, cl->src.channels, cl->desc.precision, 1,
                                     &cl->g));
    /* An active set C with no FIXED neighbour has, inside the destination, only
     * neighbours in C (active cells never lie on the grid's edge: the ring, or
     * OpenCV's fixed frame), so C is the whole destination, which place() refuses:
     * no island is singular and the grid need not search for them. */
    cl->g.no_islands = 1;
    if (cl->problem != IMAGE_CLONE_CV)
        return HOMG_OK;
    HOMG_TRY(homg__alloc_array(ctx, (size_t)cl->g.gw * cl->g.gh, 1, (void **)&cl->eroded, "eroded mask"));
    HOMG_TRY_BACKEND(
        ctx, HOMG_KERNELS(&ctx->ex, image)->erode(&ctx->ex, cl->mask, cl->sx, cl->sy, cl->g.gw, cl->g.gh, cl->eroded),
        "image erode");
    return HOMG_OK;
}

static homg_status create(homg_ctx *ctx, image_problem problem, const homg_image *src, const homg_image *mask, int dw,
                          int dh, const homg_clone_desc *desc, homg_clone **out)
{
    homg_status st;
    HOMG_TRY(plan_create(ctx, problem, src, mask, dw, dh, desc, out));
    st = plan_grid(*out);
    if (st != HOMG_OK) {
        homg_clone_destroy(*out);
        *out = NULL;
    }
    return st;
}

homg_status homg_clone_create(homg_ctx *ctx, const homg_image *src, const homg_image *mask, int dst_width,
                              int dst_height, const homg_clone_desc *desc, homg_clone **out)
{
    int saved;
    homg_status st;
    HOMG_TRY(homg__begin(ctx, "homg_clone_create", !out ? "out" : NULL));
    *out = NULL;
    HOMG_TRY(homg__enter(ctx, &saved));
    st = create(ctx, IMAGE_CLONE, src, mask, dst_width, dst_height, desc, out);
    homg__leave(ctx, saved);
    return st;
}

void homg_clone_destroy(homg_clone *cl)
{
    int saved;
    if (!cl)
        return;
    if (homg__enter(cl->ctx, &saved) == HOMG_OK) {
        homg__image_grid_destroy(&cl->g);
        homg__free(cl->ctx, cl->eroded);
        homg__leave(cl->ctx, saved);
    }
    free(cl->sat);
    free(cl);
}

homg_status homg_clone_set_mode(homg_clone *cl, homg_clone_mode mode)
{
    if (!cl)
        return HOMG_ERROR_INVALID_ARGUMENT;
    HOMG_TRY(homg__begin(cl->ctx, "homg_clone_set_mode", NULL));
    if (mode < HOMG_CLONE_NORMAL || mode > HOMG_CLONE_MONOCHROME)
        return homg__fail(cl->ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_clone_set_mode: mode is %d", (int)mode);
    cl->desc.mode = mode;
    cl->warm = 0;
    return HOMG_OK;
}

/* The flags image_setup writes depend on the placement only through the grid
 * cells inside the destination (mask, box and grid are fixed at create): while
 * those stay, the grid keeps its operator (levels, no set_operator). */
static void track_clip(homg_clone *cl, int ox, int oy)
{
    int c[4];
    c[0] = clampi(-(long long)ox, 0, cl->g.gw), c[1] = clampi((long long)cl->dw - ox, 0, cl->g.gw);
    c[2] = clampi(-(long long)oy, 0, cl->g.gh), c[3] = clampi((long long)cl->dh - oy, 0, cl->g.gh);
    if (memcmp(c, cl->clip, sizeof c)) {
        memcpy(cl->clip, c, sizeof c);
        cl->g.op_ready = 0;
    }
}

/* Grid cell (0, 0)'s destination pixel for the placement (x, y), and the active cells there. */
static homg_status place(homg_clone *cl, int x, int y, int *ox, int *oy, long *active)
{
    const char *fn = problem_fn(cl->problem);
    /* the destination pixel of the bounding box's corner */
    long long cx = cl->desc.centered ? (long long)x - cl->bw / 2 : (long long)x + cl->bx;
    long long cy = cl->desc.centered ? (long long)y - cl->bh / 2 : (long long)y + cl->by;
    /* the box's cells inside the destination: [i0, i1) x [j0, j1) */
    int i0 = clampi(-cx, 0, cl->bw), i1 = clampi(cl->dw - cx, 0, cl->bw);
    int j0 = clampi(-cy, 0, cl->bh), j1 = clampi(cl->dh - cy, 0, cl->bh);
    *ox = clampi(cx + cl->sx - cl->bx, -(1 << 28), 1 << 28);
    *oy = clampi(cy + cl->sy - cl->by, -(1 << 28), 1 << 28);
    if (i0 >= i1 || j0 >= j1 || (cl->problem != IMAGE_CLONE_CV && box_count(cl, i0, j0, i1, j1) == 0))
        return homg__fail(cl->ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "%s: the mask placed at (%d, %d) lies entirely outside the %d x %d destination", fn, x, y,
                          cl->dw, cl->dh);
    if (cl->problem == IMAGE_CLONE_CV) { /* the rectangle's interior */
        i0 = i0 > 1 ? i0 : 1, j0 = j0 > 1 ? j0 : 1;
        i1 = i1 < cl->bw - 1 ? i1 : cl->bw - 1, j1 = j1 < cl->bh - 1 ? j1 : cl->bh - 1;
        *active = i0 < i1 && j0 < j1 ? (long)(i1 - i0) * (j1 - j0) : 0;
    } else
        *active = box_count(cl, i0, j0, i1, j1);
    if (*active == (long)cl->dw * cl->dh)
        return homg__fail(cl->ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "%s: the mask placed at (%d, %d) covers the whole %d x %d destination: no pixel around it "
                          "fixes the colours",
                          fn, x, y, cl->dw, cl->dh);
    return HOMG_OK;
}

static homg_status check_dst(homg_clone *cl, const char *fn, const homg_image *dst, const homg_image *out)
{
    HOMG_TRY(homg__check_image_ctx(cl->ctx, fn, "dst", dst, cl->src.channels));
    HOMG_TRY(homg__check_image_ctx(cl->ctx, fn, "out", out, cl->src.channels));
    if (dst->width != cl->dw || dst->height != cl->dh)
        return homg__fail(cl->ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: dst is %d x %d but the clone was made for %d x %d",
                          fn, dst->width, dst->height, cl->dw, cl->dh);
    return homg__check_same_size(cl->ctx, fn, "dst", dst, "out", out, 1);
}

/* Whether a cold start takes the source's values (image_point.h clone_start):
 * fewer cycles to 8-bit accuracy than the destination's; HOMG_CLONE_DST_START=1
 * takes the destination's, for the benchmark's comparison (the library documents
 * no such variable). */
static int start_src(void)
{
    const char *env = getenv("HOMG_CLONE_DST_START");
    return !(env && atoi(env));
}

static homg_status apply(homg_clone *cl, const homg_image *dst, int x, int y, const homg_image *out,
                         homg_image_info *info)
{
    const char *fn = problem_fn(cl->problem);
    const image_kernels *k = HOMG_KERNELS(&cl->ctx->ex, image);
    image_setup_args a;
    image_solve s = { cl->desc.tol, cl->desc.max_cycles, cl->desc.precision };
    homg_image_info inf;
    long active = 0;
    int ox, oy;
    homg_status solved = HOMG_OK;
    memset(&inf, 0, sizeof inf);
    inf.residual = -1;
    HOMG_TRY(check_dst(cl, fn, dst, out));
    HOMG_TRY(place(cl, x, y, &ox, &oy, &active));
    memset(&a, 0, sizeof a);
    a.problem = cl->problem;
    a.mode = cl->desc.mode;
    a.src = cl->src, a.mask = cl->mask, a.dst = *dst;
    a.eroded = cl->eroded;
    a.gw = cl->g.gw, a.gh = cl->g.gh, a.ox = ox, a.oy = oy, a.sx = cl->sx, a.sy = cl->sy;
    a.precision = cl->desc.precision;
    a.init_active = !cl->warm;
    a.start_src = start_src();
    a.flags = cl->g.flags, a.f = cl->g.f, a.u = cl->g.u;
    HOMG_TRY_BACKEND(cl->ctx, k->setup(&cl->ctx->ex, &a), "image setup");
    track_clip(cl, ox, oy);
    if (active > 0)
        solved = homg__image_grid_solve(&cl->g, 0, &s, &inf);
    if (solved != HOMG_OK && solved != HOMG_ERROR_NOT_CONVERGED) /* not converged: the result is still written */
        return solved;
    cl->warm = 1;
    HOMG_TRY_BACKEND(cl->ctx, k->copy(&cl->ctx->ex, *dst, *out), "image copy");
    HOMG_TRY_BACKEND(cl->ctx,
                     k->store(&cl->ctx->ex, cl->g.u, cl->desc.precision, cl->g.gw, cl->g.gh, cl->g.flags, ox, oy, *out,
                              cl->problem == IMAGE_CLONE_CV),
                     "image store");
    inf.unknowns = (int)active;
    inf.grid_nx = cl->g.gw, inf.grid_ny = cl->g.gh;
    if (info)
        *info = inf;
    return solved;
}

homg_status homg_clone_apply(homg_clone *cl, const homg_image *dst, int x, int y, const homg_image *out,
                             homg_image_info *info)
{
    int saved;
    homg_status st;
    double t0 = homg__image_now_ms();
    if (!cl)
        return HOMG_ERROR_INVALID_ARGUMENT;
    HOMG_TRY(homg__begin(cl->ctx, "homg_clone_apply", NULL));
    HOMG_TRY(homg__enter(cl->ctx, &saved));
    st = apply(cl, dst, x, y, out, info);
    homg__leave(cl->ctx, saved);
    if (info)
        info->time_ms = homg__image_now_ms() - t0;
    return st;
}

/* A clone made, applied once and released (homg_image_clone, homg_image_inpaint). */
static homg_status once(homg_ctx *ctx, image_problem problem, const homg_image *src, const homg_image *mask,
                        const homg_image *dst, const homg_image *out, const homg_clone_desc *desc,
                        homg_image_info *info)
{
    const char *fn = problem == IMAGE_INPAINT ? "homg_image_inpaint" : "homg_image_clone";
    homg_clone *cl = NULL;
    homg_status st;
    int saved;
    double t0 = homg__image_now_ms();
    HOMG_TRY(homg__begin(ctx, fn, NULL));
    HOMG_TRY(homg__check_image(ctx, fn, problem == IMAGE_INPAINT ? "img" : "dst", dst, 0));
    HOMG_TRY(homg__enter(ctx, &saved));
    /* every argument and the placement checked before the grid is made */
    st = plan_create(ctx, problem, src, mask, dst->width, dst->height, desc, &cl);
    if (st == HOMG_OK) {
        int ox, oy;
        long active;
        st = check_dst(cl, fn, dst, out);
        if (st == HOMG_OK)
            st = place(cl, cl->desc.x, cl->desc.y, &ox, &oy, &active);
        if (st == HOMG_OK)
            st = plan_grid(cl);
    }
    if (st == HOMG_OK)
        st = apply(cl, dst, cl->desc.x, cl->desc.y, out, info);
    homg_clone_destroy(cl);
    homg__leave(ctx, saved);
    if (info)
        info->time_ms = homg__image_now_ms() - t0;
    return st;
}

homg_status homg_image_clone(homg_ctx *ctx, const homg_image *src, const homg_image *mask, const homg_image *dst,
                             const homg_image *out, const homg_clone_desc *desc, homg_image_info *info)
{
    return once(ctx, IMAGE_CLONE, src, mask, dst, out, desc, info);
}

homg_status homg_image_inpaint(homg_ctx *ctx, const homg_image *img, const homg_image *mask, const homg_image *out,
                               const homg_image_desc *desc, homg_image_info *info)
{
    homg_clone_desc cd;
    memset(&cd, 0, sizeof cd);
    if (desc) {
        cd.tol = desc->tol;
        cd.max_cycles = desc->max_cycles;
        cd.precision = desc->precision;
    }
    return once(ctx, IMAGE_INPAINT, img, mask, img, out, &cd, info);
}
