/* view_ref.c -- references for the view's tests (view_ref.h). */
#include "view_ref.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* matplotlib's viridis at t = 0, 1/8, ..., 1 (homg_write_png documents the ends). */
static const double viridis[9][3] = {
    { 68, 1, 84 },    { 71, 45, 123 }, { 59, 82, 139 },  { 44, 114, 142 }, { 33, 144, 140 },
    { 39, 173, 129 }, { 93, 200, 99 }, { 170, 220, 50 }, { 253, 231, 37 },
};

void view_ref_colour(double v, double lo, double hi, unsigned char out[4])
{
    double t, x;
    int k;
    out[3] = 255;
    if (isnan(v)) {
        out[0] = out[1] = out[2] = 0;
        return;
    }
    t = lo == hi ? (v > hi ? 1 : v < lo ? 0 : 0.5) : (v - lo) / (hi - lo);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    x = t * 8;
    k = x >= 8 ? 7 : (int)x;
    for (int c = 0; c < 3; c++)
        out[c] = (unsigned char)floor(viridis[k][c] + (x - k) * (viridis[k + 1][c] - viridis[k][c]) + 0.5);
}

double *view_ref_field(size_t n, uint64_t seed)
{
    homg_rng r = homg_rng_seed(seed);
    double *v = malloc(n * sizeof *v);
    for (size_t k = 0; k < n; k++)
        v[k] = 4 * homg_rng_uniform(&r) - 1.5;
    if (n > 10) {
        v[3] = NAN;
        v[5] = INFINITY;
        v[7] = -INFINITY;
    }
    return v;
}

void view_ref_range(const double *v, size_t n, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t k = 0; k < n; k++)
        if (isfinite(v[k])) {
            *lo = fmin(*lo, (float)v[k]);
            *hi = fmax(*hi, (float)v[k]);
        }
}

size_t view_ref_colour_errors(const unsigned char *got, const double *v, size_t n, double lo, double hi)
{
    size_t bad = 0;
    for (size_t k = 0; k < n; k++) {
        unsigned char want[4];
        int off = 0;
        view_ref_colour((float)v[k], lo, hi, want);
        for (int c = 0; c < 4; c++)
            off |= abs((int)got[4 * k + c] - (int)want[c]) > 1;
        if (off && !bad++)
            printf("  value %zu = %g: read back %d %d %d %d, want %d %d %d %d (range %g..%g)\n", k, v[k], got[4 * k],
                   got[4 * k + 1], got[4 * k + 2], got[4 * k + 3], want[0], want[1], want[2], want[3], lo, hi);
    }
    return bad;
}

size_t view_ref_float_errors(const float *got, const double *v, size_t n)
{
    size_t bad = 0;
    for (size_t k = 0; k < n; k++) {
        float want = (float)v[k];
        int off = isnan(want) ? !isnan(got[k]) : memcmp(&got[k], &want, 4) != 0;
        if (off && !bad++)
            printf("  value %zu: read back %.9g, wrote %.9g\n", k, got[k], want);
    }
    return bad;
}
