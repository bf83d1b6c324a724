/* image_point.h -- the per-pixel formulas of the image Poisson problems, shared
 * word for word by the CPU (image.c) and CUDA (image.cu) kernels.  Values are in
 * [0, 1] for integer pixels (v / 255, v / 65535), as they are for float ones.
 * lib/image/image.c states the problems these formulas build. */
#ifndef HOMG_IMAGE_POINT_H
#define HOMG_IMAGE_POINT_H

#include "image/image_kernels.h"

#include <math.h>

/* Cell flags as homg_grid_operator.flags takes them. */
enum { IMG_ACTIVE = HOMG_CELL_ACTIVE, IMG_FIXED = HOMG_CELL_FIXED, IMG_SOLID = HOMG_CELL_SOLID };

HOMG_HD size_t img_pixel_size(int type) { return type == HOMG_PIXEL_U8 ? 1 : type == HOMG_PIXEL_U16 ? 2 : 4; }

HOMG_HD size_t img_pitch(const homg_image *im)
{
    return im->pitch ? im->pitch : (size_t)im->width * im->channels * img_pixel_size(im->type);
}

HOMG_HD int img_inside(const homg_image *im, int x, int y)
{
    return x >= 0 && y >= 0 && x < im->width && y < im->height;
}

/* Channel c of pixel (x, y), inside the image. */
HOMG_HD double img_get(const homg_image *im, int x, int y, int c)
{
    const char *row = (const char *)im->data + (size_t)y * img_pitch(im);
    size_t k = (size_t)x * im->channels + c;
    if (im->type == HOMG_PIXEL_U8)
        return ((const unsigned char *)row)[k] * (1.0 / 255);
    if (im->type == HOMG_PIXEL_U16)
        return ((const unsigned short *)row)[k] * (1.0 / 65535);
    return ((const float *)row)[k];
}

/* Integer pixels: clamped to [0, 1], rounded to the nearest level, or truncated
 * as OpenCV's seamlessClone does (its levels computed in float). */
HOMG_HD void img_put(const homg_image *im, int x, int y, int c, double v, int truncate)
{
    char *row = (char *)im->data + (size_t)y * img_pitch(im);
    size_t k = (size_t)x * im->channels + c;
    double top = im->type == HOMG_PIXEL_U8 ? 255 : 65535, s;
    if (im->type == HOMG_PIXEL_F32) {
        ((float *)row)[k] = (float)v;
        return;
    }
    s = v * top;
    s = s > 0 ? (s < top ? s : top) : 0; /* NaN goes to 0 */
    s = truncate ? (double)(float)s : s + 0.5;
    if (im->type == HOMG_PIXEL_U8)
        ((unsigned char *)row)[k] = (unsigned char)s;
    else
        ((unsigned short *)row)[k] = (unsigned short)s;
}

HOMG_HD int img_in_mask(const homg_image *mask, int x, int y)
{
    return img_inside(mask, x, y) &&
           ((const unsigned char *)mask->data)[(size_t)y * img_pitch(mask) + (size_t)x * mask->channels] != 0;
}

HOMG_HD void field_put(void *f, homg_precision p, size_t k, double v)
{
    if (p == HOMG_FLOAT64)
        ((double *)f)[k] = v;
    else
        ((float *)f)[k] = (float)v;
}

HOMG_HD double field_get(const void *f, homg_precision p, size_t k)
{
    return p == HOMG_FLOAT64 ? ((const double *)f)[k] : (double)((const float *)f)[k];
}

/* Rec. 601 luma of the colour channels (the one channel of 1-2 channel images). */
HOMG_HD double img_luma(const homg_image *im, int x, int y)
{
    if (im->channels < 3)
        return img_get(im, x, y, 0);
    return 0.299 * img_get(im, x, y, 0) + 0.587 * img_get(im, x, y, 1) + 0.114 * img_get(im, x, y, 2);
}

/* OpenCV's COLOR_BGR2GRAY of an RGB pixel: fixed point, rounded to 8 bits for
 * 8-bit images; channel 0 is red (pass OpenCV BGR images reversed). */
HOMG_HD double img_luma_cv(const homg_image *im, int x, int y)
{
    int r, g, b;
    if (im->type != HOMG_PIXEL_U8 || im->channels < 3)
        return img_luma(im, x, y);
    r = (int)(img_get(im, x, y, 0) * 255 + 0.5);
    g = (int)(img_get(im, x, y, 1) * 255 + 0.5);
    b = (int)(img_get(im, x, y, 2) * 255 + 0.5);
    return ((4899 * r + 9617 * g + 1868 * b + 8192) >> 14) * (1.0 / 255);
}

/* Mixed gradients: a tie (equal magnitudes, common in 8-bit images) goes to the
 * source (OpenCV: to the destination), whatever the rounding of v / 255. */
#define MIX_TIE 1e-9

/* The four neighbours, in the order W, E, N (y - 1), S (y + 1). */
HOMG_HD int nb_dx(int k) { return k == 0 ? -1 : k == 1 ? 1 : 0; }
HOMG_HD int nb_dy(int k) { return k == 2 ? -1 : k == 3 ? 1 : 0; }

/* Textbook guidance v_pq for channel c from source pixel s = (sx, sy) to its
 * neighbour s + d, destination pixels p, q: normal g_p - g_q, monochrome the same
 * of the luma (colour channels; alpha as normal), mixed the one of larger
 * magnitude of that and f*_p - f*_q.  0 where q's source pixel is outside src. */
HOMG_HD double clone_guidance(const image_setup_args *a, int c, int sx, int sy, int px, int py, int dx, int dy)
{
    double g, d;
    if (a->problem == IMAGE_INPAINT || !img_inside(&a->src, sx + dx, sy + dy))
        return 0;
    if (a->mode == HOMG_CLONE_MONOCHROME && c < 3)
        return img_luma(&a->src, sx, sy) - img_luma(&a->src, sx + dx, sy + dy);
    g = img_get(&a->src, sx, sy, c) - img_get(&a->src, sx + dx, sy + dy, c);
    if (a->mode != HOMG_CLONE_MIXED)
        return g;
    d = img_get(&a->dst, px, py, c) - img_get(&a->dst, px + dx, py + dy, c);
    return fabs(d) > fabs(g) + MIX_TIE ? d : g;
}

/* OpenCV's patch: the source where the mask (its outer frame of 1 pixel zeroed) is set, else 0. */
HOMG_HD int cv_in_mask(const homg_image *mask, int x, int y)
{
    return x >= 1 && y >= 1 && x <= mask->width - 2 && y <= mask->height - 2 && img_in_mask(mask, x, y);
}

HOMG_HD double cv_patch(const image_setup_args *a, int x, int y, int c)
{
    if (!cv_in_mask(&a->mask, x, y))
        return 0;
    return a->mode == HOMG_CLONE_MONOCHROME && c < 3 ? img_luma_cv(&a->src, x, y) : img_get(&a->src, x, y, c);
}

/* OpenCV's blended forward difference G at grid cell (i, j) along x (ax = 1) or
 * y: the destination's where the eroded mask is 0; where it is 1 the patch's
 * (normal, monochrome), or for mixed the patch's when |pgx - pgy| > |dgx - dgy|
 * at the cell (OpenCV's rule, per channel), else the destination's. */
HOMG_HD double cv_gradient(const image_setup_args *a, int c, int i, int j, int ax)
{
    int px = a->ox + i, py = a->oy + j, sx = a->sx + i, sy = a->sy + j;
    double d0 = img_get(&a->dst, px, py, c), pgx, pgy, p0;
    /* a rectangle clipped by the destination: no difference across its border */
    double dgx = img_inside(&a->dst, px + 1, py) ? img_get(&a->dst, px + 1, py, c) - d0 : 0;
    double dgy = img_inside(&a->dst, px, py + 1) ? img_get(&a->dst, px, py + 1, c) - d0 : 0;
    if (!a->eroded[(size_t)i + (size_t)a->gw * j])
        return ax ? dgx : dgy;
    p0 = cv_patch(a, sx, sy, c);
    pgx = cv_patch(a, sx + 1, sy, c) - p0;
    pgy = cv_patch(a, sx, sy + 1, c) - p0;
    if (a->mode == HOMG_CLONE_MIXED && !(fabs(pgx - pgy) > fabs(dgx - dgy) + MIX_TIE))
        return ax ? dgx : dgy;
    return ax ? pgx : pgy;
}

/* OpenCV's guidance v_pq: -G along +x/+y, +G of the neighbour along -x/-y. */
HOMG_HD double cv_guidance(const image_setup_args *a, int c, int i, int j, int k)
{
    if (k == 0)
        return cv_gradient(a, c, i - 1, j, 1);
    if (k == 1)
        return -cv_gradient(a, c, i, j, 1);
    if (k == 2)
        return cv_gradient(a, c, i, j - 1, 0);
    return -cv_gradient(a, c, i, j, 0);
}

/* The cold start of an ACTIVE cell, channel c: the destination, or with start_src
 * the image whose differences the guidance takes (normal: the source; monochrome:
 * its luma), so the first error is the harmonic correction that blends the
 * source's into the destination's border values (smooth inside) rather than the
 * source's texture itself (CPU, bench_image's 4096^2 10%: 5 -> 4 cycles to one
 * level).  Mixed guidance follows the destination where its gradient is larger:
 * it starts from the destination (1024^2 30%: 4 cycles, from the source 5).
 * Cells outside the source: the destination. */
HOMG_HD double clone_start(const image_setup_args *a, int c, int sx, int sy, int px, int py)
{
    if (!a->start_src || a->problem != IMAGE_CLONE || a->mode == HOMG_CLONE_MIXED || !img_inside(&a->src, sx, sy))
        return img_get(&a->dst, px, py, c);
    if (a->mode == HOMG_CLONE_MONOCHROME && c < 3)
        return img_luma(&a->src, sx, sy);
    return img_get(&a->src, sx, sy, c);
}

/* Flag of cell (i, j), and for ACTIVE cells f per channel. */
HOMG_HD int setup_flag(const image_setup_args *a, int i, int j)
{
    int px = a->ox + i, py = a->oy + j;
    if (!img_inside(&a->dst, px, py))
        return IMG_SOLID;
    if (a->problem == IMAGE_CLONE_CV)
        return i == 0 || j == 0 || i == a->gw - 1 || j == a->gh - 1 ? IMG_FIXED : IMG_ACTIVE;
    return img_in_mask(&a->mask, a->sx + i, a->sy + j) ? IMG_ACTIVE : IMG_FIXED;
}

/* Everything image_setup writes for cell (i, j). */
HOMG_HD void setup_cell(const image_setup_args *a, int i, int j)
{
    size_t n = (size_t)a->gw * a->gh, k = (size_t)i + (size_t)a->gw * j;
    int flag = setup_flag(a, i, j), px = a->ox + i, py = a->oy + j;
    a->flags[k] = (unsigned char)flag;
    for (int c = 0; c < a->dst.channels; c++) {
        double f = 0;
        if (flag == IMG_ACTIVE)
            for (int e = 0; e < 4; e++) {
                int dx = nb_dx(e), dy = nb_dy(e);
                if (!img_inside(&a->dst, px + dx, py + dy))
                    continue; /* the destination's border: zero flux */
                f += a->problem == IMAGE_CLONE_CV ? cv_guidance(a, c, i, j, e)
                                                  : clone_guidance(a, c, a->sx + i, a->sy + j, px, py, dx, dy);
            }
        field_put(a->f, a->precision, k + n * c, f);
        if (flag == IMG_FIXED)
            field_put(a->u, a->precision, k + n * c, img_get(&a->dst, px, py, c));
        else if (flag == IMG_ACTIVE && a->init_active)
            field_put(a->u, a->precision, k + n * c, clone_start(a, c, a->sx + i, a->sy + j, px, py));
    }
}

/* OpenCV's eroded mask at source pixel (x, y): all of the 7 x 7 square in the mask. */
HOMG_HD unsigned char erode_pixel(const homg_image *mask, int x, int y)
{
    for (int dy = -3; dy <= 3; dy++)
        for (int dx = -3; dx <= 3; dx++)
            if (!cv_in_mask(mask, x + dx, y + dy))
                return 0;
    return 1;
}

/* f and u of smoothing at pixel (x, y), channel c: lambda I + scale sum (I_p - I_q). */
HOMG_HD void smooth_pixel(const homg_image *im, int x, int y, double lambda, double scale, homg_precision p, void *f,
                          void *u)
{
    size_t n = (size_t)im->width * im->height, k = (size_t)x + (size_t)im->width * y;
    for (int c = 0; c < im->channels; c++) {
        double v = img_get(im, x, y, c), lap = 0;
        for (int e = 0; e < 4; e++)
            if (img_inside(im, x + nb_dx(e), y + nb_dy(e)))
                lap += v - img_get(im, x + nb_dx(e), y + nb_dy(e), c);
        field_put(f, p, k + n * c, lambda * v + scale * lap);
        field_put(u, p, k + n * c, v);
    }
}

/* The per-pixel gradient (dh/dx, dh/dy with y down) of a gradient image or a normal map. */
HOMG_HD void pixel_gradient(const homg_image *im, int x, int y, int normal_map, int flip_y, double g[2])
{
    double nx, ny, nz;
    if (!normal_map) {
        g[0] = img_get(im, x, y, 0);
        g[1] = img_get(im, x, y, 1);
        return;
    }
    nx = img_get(im, x, y, 0);
    ny = img_get(im, x, y, 1);
    nz = img_get(im, x, y, 2);
    if (im->type != HOMG_PIXEL_F32) {
        nx = 2 * nx - 1;
        ny = 2 * ny - 1;
        nz = 2 * nz - 1;
    }
    nz = nz > 0.05 ? nz : 0.05;
    g[0] = -nx / nz;
    g[1] = (flip_y ? -ny : ny) / nz;
}

/* f at pixel (x, y): sum over the neighbours inside of v_pq = h_p - h_q as the
 * average of the two pixels' gradients predicts it. */
HOMG_HD double integrate_pixel(const homg_image *im, int x, int y, int normal_map, int flip_y)
{
    double gp[2], gq[2], f = 0;
    pixel_gradient(im, x, y, normal_map, flip_y, gp);
    for (int e = 0; e < 4; e++) {
        int dx = nb_dx(e), dy = nb_dy(e);
        if (!img_inside(im, x + dx, y + dy))
            continue;
        pixel_gradient(im, x + dx, y + dy, normal_map, flip_y, gq);
        f -= 0.5 * (dx * (gp[0] + gq[0]) + dy * (gp[1] + gq[1]));
    }
    return f;
}

#endif
