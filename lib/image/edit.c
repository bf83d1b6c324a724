/* edit.c -- the whole-image problems on a grid of the image's size, Neumann
 * (zero-flux) sides, pixel units (image_point.h has the per-pixel formulas):
 *
 * Smoothing / sharpening (gradient-domain, screened Poisson): u minimises
 *   lambda |u - I|^2 + |grad u - s grad I|^2,  i.e.  (lambda + A) u = lambda I + s A I,
 * A = the 5-point -Laplacian over the neighbours inside the image.  s = 0 is plain
 * smoothing (the larger lambda, the closer to I), s > 1 sharpens.
 *
 * Integration: a per-pixel gradient g (2 channels: dh/dx, dh/dy, y down) or a
 * tangent-space normal map (dh/dx = -nx / nz, dh/dy = ny / nz with OpenGL's green
 * up, -ny with flip_y; nz clamped to >= 0.05; n = 2 v - 1 for integer images)
 * gives the edge differences h_q - h_p = (g_p + g_q) / 2 . (q - p); the height
 * solves A h = -div g (sum over the inside neighbours of the edge values), whose
 * right-hand side sums to zero, and has mean zero (the grid's singular case). */
#include "image/image_internal.h"

#include <string.h>

static homg_status start(homg_ctx *ctx, const char *fn, const homg_image *img, const homg_image *out, int out_channels,
                         int *saved)
{
    HOMG_TRY(homg__begin(ctx, fn, NULL));
    HOMG_TRY(homg__check_image_ctx(ctx, fn, "img", img, 0));
    HOMG_TRY(homg__check_image_ctx(ctx, fn, "out", out, out_channels));
    HOMG_TRY(homg__check_same_size(ctx, fn, "img", img, "out", out, out_channels == 0));
    return homg__enter(ctx, saved);
}

/* Writes u into out unless the solve failed (not converged: written, and said); releases the grid. */
static homg_status store_result(homg_ctx *ctx, image_grid *g, const homg_image *out, homg_status solved)
{
    homg_status st = solved;
    if (solved == HOMG_OK || solved == HOMG_ERROR_NOT_CONVERGED) {
        st = HOMG_KERNELS(&ctx->ex, image)->store(&ctx->ex, g->u, g->precision, g->gw, g->gh, NULL, 0, 0, *out, 0);
        st = st != HOMG_OK ? homg__backend_fail(ctx, st, "image store") : solved;
    }
    homg__image_grid_destroy(g);
    return st;
}

static image_solve solve_knobs(const homg_image_desc *desc)
{
    image_solve s = { 1e-5, 50, HOMG_FLOAT32 };
    if (desc) {
        s.tol = desc->tol ? desc->tol : s.tol;
        s.max_cycles = desc->max_cycles ? desc->max_cycles : s.max_cycles;
        s.precision = desc->precision;
    }
    return s;
}

static homg_status smooth(homg_ctx *ctx, const homg_image *img, const homg_image *out, const homg_image_desc *desc,
                          homg_image_info *info)
{
    const image_kernels *k = HOMG_KERNELS(&ctx->ex, image);
    image_solve s = solve_knobs(desc);
    image_grid g;
    homg_status st;
    HOMG_TRY(homg__image_grid_create(ctx, img->width, img->height, img->channels, s.precision, 0, &g));
    st = k->smooth_setup(&ctx->ex, *img, desc->lambda, desc->scale, s.precision, g.f, g.u);
    if (st != HOMG_OK)
        homg__backend_fail(ctx, st, "image smooth setup");
    if (st == HOMG_OK)
        st = homg__image_grid_solve(&g, desc->lambda, &s, info);
    return store_result(ctx, &g, out, st);
}

homg_status homg_image_smooth(homg_ctx *ctx, const homg_image *img, const homg_image *out, const homg_image_desc *desc,
                              homg_image_info *info)
{
    int saved;
    homg_status st;
    double t0 = homg__image_now_ms();
    if (info)
        memset(info, 0, sizeof *info);
    HOMG_TRY(homg__begin(ctx, "homg_image_smooth", !desc ? "desc" : NULL));
    if (!(desc->lambda > 0) || desc->lambda > 1e12)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_image_smooth: desc.lambda is %g; it must be > 0 (and at most 1e12)", desc->lambda);
    if (!(desc->scale >= 0) || desc->scale > 1e6)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_image_smooth: desc.scale is %g; it must be in 0..1e6",
                          desc->scale);
    HOMG_TRY(start(ctx, "homg_image_smooth", img, out, 0, &saved));
    st = smooth(ctx, img, out, desc, info);
    homg__leave(ctx, saved);
    if (info) {
        info->unknowns = img->width * img->height;
        info->time_ms = homg__image_now_ms() - t0;
    }
    return st;
}

static homg_status integrate(homg_ctx *ctx, const homg_image *img, const homg_image *out, const homg_image_desc *desc,
                             homg_image_info *info)
{
    const image_kernels *k = HOMG_KERNELS(&ctx->ex, image);
    image_solve s = solve_knobs(desc);
    image_grid g;
    homg_status st;
    int normal_map = desc && desc->normal_map, flip_y = desc && desc->flip_y;
    HOMG_TRY(homg__image_grid_create(ctx, img->width, img->height, 1, s.precision, 0, &g));
    st = k->integrate_setup(&ctx->ex, *img, normal_map, flip_y, s.precision, g.f);
    if (st != HOMG_OK)
        homg__backend_fail(ctx, st, "image integrate setup");
    if (st == HOMG_OK)
        st = homg__image_grid_solve(&g, 0, &s, info);
    return store_result(ctx, &g, out, st);
}

homg_status homg_image_integrate(homg_ctx *ctx, const homg_image *grad, const homg_image *out,
                                 const homg_image_desc *desc, homg_image_info *info)
{
    int saved, normal_map = desc && desc->normal_map;
    homg_status st;
    double t0 = homg__image_now_ms();
    if (info)
        memset(info, 0, sizeof *info);
    HOMG_TRY(homg__begin(ctx, "homg_image_integrate", NULL));
    if (grad && (normal_map ? grad->channels < 3 : grad->channels != 2))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_image_integrate: grad.channels is %d; %s",
                          grad->channels,
                          normal_map ? "a normal map has 3 or 4" : "a gradient field has 2 (dh/dx, dh/dy)");
    if (out && out->type != HOMG_PIXEL_F32)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_image_integrate: out.type must be HOMG_PIXEL_F32");
    HOMG_TRY(start(ctx, "homg_image_integrate", grad, out, 1, &saved));
    st = integrate(ctx, grad, out, desc, info);
    homg__leave(ctx, saved);
    if (info) {
        info->unknowns = grad->width * grad->height;
        info->time_ms = homg__image_now_ms() - t0;
    }
    return st;
}
