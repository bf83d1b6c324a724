/* colormap.h -- the colour map both backends apply, as inline functions for C
 * and CUDA alike: the viridis-like map of homg_write_png (lib/image/png.c: nine
 * samples of matplotlib's viridis, CC0, linear in between), computed in float.
 * NaN is black; values beyond the range take the colour of the end they pass;
 * lo == hi maps that value to the middle colour; alpha is 255. */
#ifndef HOMG_VIEW_COLORMAP_H
#define HOMG_VIEW_COLORMAP_H

#include <stdint.h>
#include <string.h>

#ifdef __CUDACC__
#define VIEW_HD __host__ __device__ __forceinline__
#else
#define VIEW_HD static inline
#endif

/* The nine stops, as an initialiser (each backend keeps its own copy: CUDA in
 * constant memory). */
#define VIEW_COLORMAP_STOPS                                                                                    \
    {                                                                                                          \
        { 68, 1, 84 }, { 71, 45, 123 }, { 59, 82, 139 }, { 44, 114, 142 }, { 33, 144, 140 }, { 39, 173, 129 }, \
            { 93, 200, 99 }, { 170, 220, 50 }, { 253, 231, 37 },                                               \
    }
#define VIEW_COLORMAP_NUM_STOPS 9

/* Floats as integers that compare in the same order (atomic min/max of floats). */
VIEW_HD int32_t view_float_key(float f)
{
    int32_t i;
    memcpy(&i, &f, sizeof i);
    return i >= 0 ? i : i ^ 0x7fffffff;
}

VIEW_HD float view_key_float(int32_t k)
{
    float f;
    int32_t i = k >= 0 ? k : k ^ 0x7fffffff;
    memcpy(&f, &i, sizeof f);
    return f;
}

/* The empty range before any value is seen; a range still empty afterwards
 * (no finite value) reads as lo = hi = 0. */
#define VIEW_RANGE_EMPTY_LO INT32_MAX
#define VIEW_RANGE_EMPTY_HI INT32_MIN

VIEW_HD void view_range_read(const int32_t *range, float *lo, float *hi)
{
    if (range[0] > range[1]) {
        *lo = *hi = 0;
        return;
    }
    *lo = view_key_float(range[0]);
    *hi = view_key_float(range[1]);
}

/* Packs the colour of v as R | G << 8 | B << 16 | A << 24 (RGBA8 bytes in memory order). */
VIEW_HD uint32_t view_colour(const unsigned char (*stops)[3], float v, float lo, float hi)
{
    float t, x;
    int k;
    uint32_t rgba = 0xff000000u;
    if (v != v)
        return rgba;
    if (lo == hi)
        t = v > hi ? 1.0f : v < lo ? 0.0f : 0.5f;
    else {
        t = (0.5f * v - 0.5f * lo) / (0.5f * hi - 0.5f * lo); /* halves: hi - lo cannot overflow */
        t = t > 1.0f ? 1.0f : t > 0.0f ? t : 0.0f;
    }
    x = t * (VIEW_COLORMAP_NUM_STOPS - 1);
    k = (int)x;
    if (k > VIEW_COLORMAP_NUM_STOPS - 2)
        k = VIEW_COLORMAP_NUM_STOPS - 2;
    x -= (float)k;
    for (int c = 0; c < 3; c++) {
        float a = stops[k][c], b = stops[k + 1][c];
        rgba |= (uint32_t)(unsigned char)(a + x * (b - a) + 0.5f) << (8 * c);
    }
    return rgba;
}

#endif
