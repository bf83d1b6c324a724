/* image_ref.c -- see image_ref.h.  Written from the definitions, sharing no code
 * with lib/image or kernels/image. */
#include "image_ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static size_t psize(homg_pixel_type t) { return t == HOMG_PIXEL_U8 ? 1 : t == HOMG_PIXEL_U16 ? 2 : 4; }
static size_t pitch_of(const homg_image *im)
{
    return im->pitch ? im->pitch : (size_t)im->width * im->channels * psize(im->type);
}

homg_image ref_image_alloc(int w, int h, int channels, homg_pixel_type type)
{
    homg_image im = { 0 };
    im.width = w, im.height = h, im.channels = channels, im.type = type;
    im.data = calloc((size_t)w * h * channels, psize(type));
    return im;
}

double ref_get(const homg_image *im, int x, int y, int c)
{
    const char *row = (const char *)im->data + (size_t)y * pitch_of(im);
    size_t k = (size_t)x * im->channels + c;
    if (im->type == HOMG_PIXEL_U8)
        return ((const unsigned char *)row)[k] / 255.0;
    if (im->type == HOMG_PIXEL_U16)
        return ((const unsigned short *)row)[k] / 65535.0;
    return ((const float *)row)[k];
}

static void ref_set(homg_image *im, int x, int y, int c, double v)
{
    char *row = (char *)im->data + (size_t)y * pitch_of(im);
    size_t k = (size_t)x * im->channels + c;
    if (im->type == HOMG_PIXEL_U8)
        ((unsigned char *)row)[k] = (unsigned char)lround(fmin(fmax(v, 0), 1) * 255);
    else if (im->type == HOMG_PIXEL_U16)
        ((unsigned short *)row)[k] = (unsigned short)lround(fmin(fmax(v, 0), 1) * 65535);
    else
        ((float *)row)[k] = (float)v;
}

homg_image ref_random_image(homg_rng *r, int w, int h, int channels, homg_pixel_type type, int pad)
{
    homg_image im = { 0 };
    im.width = w, im.height = h, im.channels = channels, im.type = type;
    im.pitch = (size_t)w * channels * psize(type) + (size_t)pad * psize(type);
    im.data = calloc(im.pitch, (size_t)h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int c = 0; c < channels; c++)
                ref_set(&im, x, y, c, homg_rng_uniform(r));
    return im;
}

homg_image ref_smooth_image(homg_rng *r, int w, int h, int channels, homg_pixel_type type)
{
    homg_image im = ref_image_alloc(w, h, channels, type);
    double a[4][3];
    for (int c = 0; c < 4; c++)
        for (int k = 0; k < 3; k++)
            a[c][k] = homg_rng_uniform(r);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int c = 0; c < channels; c++)
                ref_set(&im, x, y, c,
                        0.5 + 0.3 * sin(0.3 * x * a[c][0] + 0.2 * y * a[c][1] + 6 * a[c][2]) +
                            0.1 * homg_rng_uniform(r));
    return im;
}

homg_image ref_mask(const char *shape, int w, int h, homg_rng *r)
{
    homg_image m = ref_image_alloc(w, h, 1, HOMG_PIXEL_U8);
    unsigned char *p = (unsigned char *)m.data;
    double cx = (w - 1) / 2.0, cy = (h - 1) / 2.0, R = (w < h ? w : h) / 2.0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double d = hypot(x - cx, y - cy);
            int in = 0;
            if (!strcmp(shape, "disk_hole"))
                in = d < R - 0.5 && d > R / 3;
            else if (!strcmp(shape, "two"))
                in = (x < w / 3 && y > 1 && y < h - 2) || (x > w / 2 && y < h / 2);
            else if (!strcmp(shape, "one"))
                in = x == w / 2 && y == h / 2;
            else if (!strcmp(shape, "full"))
                in = 1;
            else if (!strcmp(shape, "ring"))
                in = d < R && d > R - 2.5;
            else
                in = homg_rng_uniform(r) < 0.6;
            p[(size_t)y * w + x] = in ? 255 : 0;
        }
    return m;
}

int ref_level(double v, int truncate)
{
    double s = fmin(fmax(v, 0), 1) * 255;
    return truncate ? (int)s : (int)(s + 0.5);
}

/* ---- a symmetric positive definite band matrix, Cholesky in double */
typedef struct band {
    int n, bw;
    double *l; /* l[i * (bw + 1) + (i - j)] for i - bw <= j <= i */
} band;

static band band_new(int n, int bw)
{
    band b = { n, bw, calloc((size_t)n * (bw + 1), sizeof(double)) };
    return b;
}

/* Adds v at (i, j); only the lower half is stored (the matrix is symmetric). */
static void band_add(band *b, int i, int j, double v)
{
    if (j <= i) {
        if (i - j > b->bw)
            abort();
        b->l[(size_t)i * (b->bw + 1) + (i - j)] += v;
    }
}

#define L(b, i, j) (b)->l[(size_t)(i) * ((b)->bw + 1) + ((i) - (j))]

static void band_factor(band *b)
{
    for (int i = 0; i < b->n; i++) {
        int j0 = i - b->bw > 0 ? i - b->bw : 0;
        for (int j = j0; j <= i; j++) {
            double s = L(b, i, j);
            int k0 = (j - b->bw > j0 ? j - b->bw : j0);
            for (int k = k0; k < j; k++)
                s -= L(b, i, k) * L(b, j, k);
            if (i == j) {
                if (!(s > 0))
                    abort();
                L(b, i, i) = sqrt(s);
            } else
                L(b, i, j) = s / L(b, j, j);
        }
    }
}

static void band_solve(const band *b, double *x)
{
    for (int i = 0; i < b->n; i++) {
        int j0 = i - b->bw > 0 ? i - b->bw : 0;
        for (int j = j0; j < i; j++)
            x[i] -= L(b, i, j) * x[j];
        x[i] /= L(b, i, i);
    }
    for (int i = b->n - 1; i >= 0; i--) {
        x[i] /= L(b, i, i);
        for (int j = (i - b->bw > 0 ? i - b->bw : 0); j < i; j++)
            x[j] -= L(b, i, j) * x[i];
    }
}

static const int DX[4] = { -1, 1, 0, 0 }, DY[4] = { 0, 0, -1, 1 };

static int inside(const homg_image *im, int x, int y) { return x >= 0 && y >= 0 && x < im->width && y < im->height; }

static int in_mask(const homg_image *mask, int x, int y)
{
    return inside(mask, x, y) &&
           ((const unsigned char *)mask->data)[(size_t)y * pitch_of(mask) + (size_t)x * mask->channels];
}

static double luma(const homg_image *im, int x, int y)
{
    if (im->channels < 3)
        return ref_get(im, x, y, 0);
    return 0.299 * ref_get(im, x, y, 0) + 0.587 * ref_get(im, x, y, 1) + 0.114 * ref_get(im, x, y, 2);
}

double ref_clone_guidance_sum(const homg_image *src, const homg_image *mask, const homg_image *dst, int x, int y,
                              int mode, int inpaint, int px, int py, int c)
{
    double f = 0;
    int sx = px - x, sy = py - y;
    (void)mask; /* p is in the mask: the caller asks only there */
    for (int e = 0; e < 4; e++) {
        int qx = px + DX[e], qy = py + DY[e];
        double g, d;
        if (!inside(dst, qx, qy) || inpaint || !inside(src, sx + DX[e], sy + DY[e]))
            continue;
        if (mode == HOMG_CLONE_MONOCHROME && c < 3)
            g = luma(src, sx, sy) - luma(src, sx + DX[e], sy + DY[e]);
        else
            g = ref_get(src, sx, sy, c) - ref_get(src, sx + DX[e], sy + DY[e], c);
        d = ref_get(dst, px, py, c) - ref_get(dst, qx, qy, c);
        f += mode == HOMG_CLONE_MIXED && fabs(d) > fabs(g) + 1e-9 ? d : g; /* ties: the source's */
    }
    return f;
}

/* Solves the Dirichlet problem "sum over the inside neighbours of (u_p - u_q) = rhs_p" for
 * the unknown pixels (index[p] >= 0) of a w x h field u whose other pixels are known;
 * lambda adds lambda u_p.  Rows are assembled from the definition, then factored. */
static void solve_field(int w, int h, const int *index, int n, double lambda, const double *rhs, double *u)
{
    band b = band_new(n, w + 1);
    double *x = calloc((size_t)n + 1, sizeof(double));
    for (int p = 0; p < w * h; p++) {
        int i = index[p], px = p % w, py = p / w;
        if (i < 0)
            continue;
        x[i] = rhs[p];
        band_add(&b, i, i, lambda);
        for (int e = 0; e < 4; e++) {
            int qx = px + DX[e], qy = py + DY[e], q;
            if (qx < 0 || qy < 0 || qx >= w || qy >= h)
                continue;
            q = qy * w + qx;
            band_add(&b, i, i, 1);
            if (index[q] >= 0)
                band_add(&b, i, index[q], -1);
            else
                x[i] += u[q];
        }
    }
    band_factor(&b);
    band_solve(&b, x);
    for (int p = 0; p < w * h; p++)
        if (index[p] >= 0)
            u[p] = x[index[p]];
    free(b.l);
    free(x);
}

double *ref_clone(const homg_image *src, const homg_image *mask, const homg_image *dst, int x, int y, int mode,
                  int inpaint)
{
    int w = dst->width, h = dst->height, n = 0, C = dst->channels;
    int *index = malloc(sizeof(int) * w * h);
    double *u = malloc(sizeof(double) * w * h * C), *rhs = malloc(sizeof(double) * w * h);
    for (int p = 0; p < w * h; p++)
        index[p] = in_mask(mask, p % w - x, p / w - y) ? n++ : -1;
    for (int c = 0; c < C; c++) {
        double *uc = u + (size_t)w * h * c;
        for (int p = 0; p < w * h; p++) {
            uc[p] = ref_get(dst, p % w, p / w, c);
            rhs[p] = index[p] >= 0 ? ref_clone_guidance_sum(src, mask, dst, x, y, mode, inpaint, p % w, p / w, c) : 0;
        }
        solve_field(w, h, index, n, 0, rhs, uc);
    }
    free(index);
    free(rhs);
    return u;
}

/* ---- OpenCV 4's seamlessClone, step by step as its source reads (values 0..255) */
static int cv_mask(const homg_image *m, int x, int y)
{
    return x >= 1 && y >= 1 && x < m->width - 1 && y < m->height - 1 && in_mask(m, x, y);
}

static double cv_gray(const homg_image *src, int x, int y)
{
    int r = (int)lround(ref_get(src, x, y, 0) * 255), g = (int)lround(ref_get(src, x, y, 1) * 255),
        b = (int)lround(ref_get(src, x, y, 2) * 255);
    return (4899 * r + 9617 * g + 1868 * b + 8192) >> 14;
}

double *ref_clone_cv(const homg_image *src, const homg_image *mask, const homg_image *dst, int x, int y, int mode,
                     int *rx, int *ry, int *rw, int *rh, double **rhs_out)
{
    int bx = mask->width, by = mask->height, ex = -1, ey = -1, W, H, C = dst->channels, n = 0;
    for (int j = 0; j < mask->height; j++)
        for (int i = 0; i < mask->width; i++)
            if (cv_mask(mask, i, j)) {
                bx = i < bx ? i : bx, by = j < by ? j : by, ex = i > ex ? i : ex, ey = j > ey ? j : ey;
            }
    W = ex - bx + 1, H = ey - by + 1;
    *rx = x + bx, *ry = y + by, *rw = W, *rh = H;
    size_t N = (size_t)W * H;
    double *D = malloc(sizeof(double) * N), *P = malloc(sizeof(double) * N), *E = malloc(sizeof(double) * N);
    double *Gx = malloc(sizeof(double) * N), *Gy = malloc(sizeof(double) * N), *rhs = malloc(sizeof(double) * N);
    double *u = malloc(sizeof(double) * dst->width * dst->height * C), *field = malloc(sizeof(double) * N);
    int *index = malloc(sizeof(int) * N);
    if (rhs_out)
        *rhs_out = calloc(N * C, sizeof(double));
    for (int j = 0; j < H; j++) /* erode(mask, 3 x 3 ones, 3 iterations) = a 7 x 7 minimum */
        for (int i = 0; i < W; i++) {
            int all = 1;
            for (int dy = -3; dy <= 3; dy++)
                for (int dx = -3; dx <= 3; dx++)
                    all = all && cv_mask(mask, bx + i + dx, by + j + dy);
            E[j * W + i] = all;
        }
    for (int p = 0; p < (int)N; p++) {
        int i = p % W, j = p / W;
        index[p] = i > 0 && j > 0 && i < W - 1 && j < H - 1 ? n++ : -1;
    }
    for (int c = 0; c < C; c++) {
        double *uc = u + (size_t)dst->width * dst->height * c;
        for (int p = 0; p < dst->width * dst->height; p++)
            uc[p] = ref_get(dst, p % dst->width, p / dst->width, c);
        for (int j = 0; j < H; j++)
            for (int i = 0; i < W; i++) {
                int sx = bx + i, sy = by + j;
                D[j * W + i] = 255 * ref_get(dst, *rx + i, *ry + j, c);
                P[j * W + i] = !cv_mask(mask, sx, sy) ? 0
                               : mode == HOMG_CLONE_MONOCHROME && c < 3 && src->channels >= 3
                                   ? cv_gray(src, sx, sy)
                                   : 255 * ref_get(src, sx, sy, c);
            }
        for (int j = 0; j < H; j++) /* forward differences, reflect-101 at the last column / row */
            for (int i = 0; i < W; i++) {
                int i1 = i + 1 < W ? i + 1
                         : W > 1   ? W - 2
                                   : i,
                    j1 = j + 1 < H ? j + 1
                         : H > 1   ? H - 2
                                   : j,
                    k = j * W + i;
                double dgx = D[j * W + i1] - D[k], dgy = D[j1 * W + i] - D[k];
                double pgx = P[j * W + i1] - P[k], pgy = P[j1 * W + i] - P[k];
                if (mode == HOMG_CLONE_MIXED && !(fabs(pgx - pgy) > fabs(dgx - dgy) + 1e-6)) /* 0..255 units */
                    pgx = dgx, pgy = dgy;
                Gx[k] = dgx * (1 - E[k]) + pgx * E[k];
                Gy[k] = dgy * (1 - E[k]) + pgy * E[k];
            }
        for (int j = 1; j < H - 1; j++)
            for (int i = 1; i < W - 1; i++) {
                int k = j * W + i;
                double lap = Gx[k] - Gx[k - 1] + Gy[k] - Gy[k - W];
                rhs[k] = -lap / 255;
                if (rhs_out)
                    (*rhs_out)[N * c + k] = -lap / 255;
            }
        for (int p = 0; p < (int)N; p++)
            field[p] = D[p] / 255;
        solve_field(W, H, index, n, 0, rhs, field);
        for (int p = 0; p < (int)N; p++)
            uc[(size_t)(*ry + p / W) * dst->width + *rx + p % W] = field[p];
    }
    free(D), free(P), free(E), free(Gx), free(Gy), free(rhs), free(field), free(index);
    return u;
}

double *ref_smooth(const homg_image *img, double lambda, double scale)
{
    int w = img->width, h = img->height, C = img->channels;
    int *index = malloc(sizeof(int) * w * h);
    double *u = malloc(sizeof(double) * w * h * C), *rhs = malloc(sizeof(double) * w * h);
    for (int p = 0; p < w * h; p++)
        index[p] = p;
    for (int c = 0; c < C; c++) {
        double *uc = u + (size_t)w * h * c;
        for (int p = 0; p < w * h; p++) {
            int x = p % w, y = p / w;
            double v = ref_get(img, x, y, c), lap = 0;
            for (int e = 0; e < 4; e++)
                if (inside(img, x + DX[e], y + DY[e]))
                    lap += v - ref_get(img, x + DX[e], y + DY[e], c);
            rhs[p] = lambda * v + scale * lap;
        }
        solve_field(w, h, index, w * h, lambda, rhs, uc);
    }
    free(index);
    free(rhs);
    return u;
}

static void grad_at(const homg_image *im, int x, int y, int normal_map, int flip_y, double g[2])
{
    if (!normal_map) {
        g[0] = ref_get(im, x, y, 0), g[1] = ref_get(im, x, y, 1);
        return;
    }
    double n[3];
    for (int c = 0; c < 3; c++)
        n[c] = im->type == HOMG_PIXEL_F32 ? ref_get(im, x, y, c) : 2 * ref_get(im, x, y, c) - 1;
    n[2] = fmax(n[2], 0.05);
    g[0] = -n[0] / n[2];
    g[1] = (flip_y ? -n[1] : n[1]) / n[2];
}

double *ref_integrate(const homg_image *img, int normal_map, int flip_y)
{
    int w = img->width, h = img->height, n = 0;
    int *index = malloc(sizeof(int) * w * h);
    double *u = calloc((size_t)w * h, sizeof(double)), *rhs = calloc((size_t)w * h, sizeof(double)), mean = 0;
    for (int p = 0; p < w * h; p++) {
        int x = p % w, y = p / w;
        double gp[2], gq[2];
        index[p] = p == 0 ? -1 : n++; /* pixel 0 pinned to 0: the problem is singular */
        grad_at(img, x, y, normal_map, flip_y, gp);
        for (int e = 0; e < 4; e++) {
            if (!inside(img, x + DX[e], y + DY[e]))
                continue;
            grad_at(img, x + DX[e], y + DY[e], normal_map, flip_y, gq);
            /* h_p - h_q predicted by the average gradient along q - p */
            rhs[p] -= 0.5 * (DX[e] * (gp[0] + gq[0]) + DY[e] * (gp[1] + gq[1]));
        }
    }
    if (n > 0)
        solve_field(w, h, index, n, 0, rhs, u);
    for (int p = 0; p < w * h; p++)
        mean += u[p] / (w * h);
    for (int p = 0; p < w * h; p++)
        u[p] -= mean;
    free(index);
    free(rhs);
    return u;
}
