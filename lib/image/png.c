/* png.c -- scalar fields as PNG pictures: a perceptual colour map, the flip
 * from grid rows (bottom first) to image rows (top first), and stb_image_write
 * (Debian's libstb-dev; the implementation is compiled into libstb). */
#include "core/internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <stb/stb_image_write.h>

#define MAX_SIDE   65536
#define MAX_PIXELS ((size_t)1 << 28) /* keeps stb's int arithmetic ((3 nx + 1) ny bytes) far from overflow */

/* Viridis-like: samples of matplotlib's viridis map (public domain, CC0) at
 * t = 0, 1/8, ..., 1; the map is linear in between. */
enum { NUM_STOPS = 9 };
static const unsigned char stops[NUM_STOPS][3] = {
    { 68, 1, 84 },    { 71, 45, 123 }, { 59, 82, 139 },  { 44, 114, 142 }, { 33, 144, 140 },
    { 39, 173, 129 }, { 93, 200, 99 }, { 170, 220, 50 }, { 253, 231, 37 },
};

/* Position of v on the map, in [0, 1]. */
static double position(double v, double lo, double hi)
{
    double t;
    if (lo == hi)
        return v > hi ? 1 : v < lo ? 0 : 0.5;
    t = (0.5 * v - 0.5 * lo) / (0.5 * hi - 0.5 * lo); /* halves: hi - lo cannot overflow */
    return t > 1 ? 1 : t > 0 ? t : 0;
}

static void colour(double t, unsigned char rgb[3])
{
    double x = t * (NUM_STOPS - 1);
    int k = (int)x;
    if (k > NUM_STOPS - 2)
        k = NUM_STOPS - 2;
    x -= k;
    for (int c = 0; c < 3; c++)
        rgb[c] = (unsigned char)(stops[k][c] + x * (stops[k + 1][c] - stops[k][c]) + 0.5);
}

/* min and max of the finite values (0, 0 if there are none). */
static void finite_range(const double *v, size_t n, double *lo, double *hi)
{
    int any = 0;
    *lo = *hi = 0;
    for (size_t k = 0; k < n; k++) {
        if (!isfinite(v[k]))
            continue;
        if (!any || v[k] < *lo)
            *lo = v[k];
        if (!any || v[k] > *hi)
            *hi = v[k];
        any = 1;
    }
}

static void paint(const double *v, int nx, int ny, double lo, double hi, unsigned char *rgb)
{
    for (int row = 0; row < ny; row++) {
        const double *src = v + (size_t)nx * (size_t)(ny - 1 - row);
        unsigned char *dst = rgb + (size_t)3 * nx * row;
        for (int i = 0; i < nx; i++, dst += 3) {
            if (isnan(src[i]))
                dst[0] = dst[1] = dst[2] = 0;
            else
                colour(position(src[i], lo, hi), dst);
        }
    }
}

static void write_to_file(void *file, void *data, int size) { fwrite(data, 1, (size_t)size, (FILE *)file); }

homg_status homg_write_png(homg_ctx *ctx, const char *path, const double *host_values, int nx, int ny, double lo,
                           double hi)
{
    unsigned char *rgb;
    FILE *f;
    int encoded;
    HOMG_TRY(homg__begin(ctx, "homg_write_png", !path ? "path" : !host_values ? "host_values" : NULL));
    if (!path[0])
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_write_png: path is empty");
    if (nx < 1 || ny < 1 || nx > MAX_SIDE || ny > MAX_SIDE || (size_t)nx * (size_t)ny > MAX_PIXELS)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_write_png: %d x %d pixels: each side must be 1..%d and nx*ny at most 2^28", nx, ny,
                          MAX_SIDE);
    if (!isfinite(lo) || !isfinite(hi))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_write_png: lo = %g, hi = %g: must be finite", lo, hi);
    if (lo == hi)
        finite_range(host_values, (size_t)nx * (size_t)ny, &lo, &hi);
    rgb = (unsigned char *)homg__host_alloc(ctx, (size_t)3 * nx * ny, "homg_write_png");
    if (!rgb)
        return HOMG_ERROR_OUT_OF_MEMORY;
    f = fopen(path, "wb");
    if (!f) {
        free(rgb);
        return homg__fail(ctx, HOMG_ERROR_IO, "%s: cannot create: %s", path, strerror(errno));
    }
    paint(host_values, nx, ny, lo, hi, rgb);
    encoded = stbi_write_png_to_func(write_to_file, f, nx, ny, 3, rgb, 3 * nx);
    free(rgb);
    if (!encoded) {
        fclose(f);
        homg__remove_partial(path);
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "%s: stb_image_write could not encode the PNG (out of memory)",
                          path);
    }
    return homg__finish_file(ctx, path, f);
}
