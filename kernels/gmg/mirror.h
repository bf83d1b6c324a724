/* mirror.h -- the transpose of a matrix on a structurally symmetric pattern
 * with sorted rows, per entry: shared word for word by gmg.c and gmg.cu. */
#ifndef HOMG_GMG_MIRROR_H
#define HOMG_GMG_MIRROR_H

#include "gmg_kernels.h"

/* The index of column i in the sorted cols[0 .. len), -1 where it is absent
 * (binary search). */
HOMG_HD int32_t mirror_index(const int32_t *cols, int32_t len, int32_t i)
{
    int32_t lo = 0, hi = len;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (cols[mid] < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < len && cols[lo] == i ? lo : -1;
}

/* The value at (j, i) where entry p is (i, j): column i searched in row j
 * (sorted); 0 where the pattern lacks (j, i). */
HOMG_HD double mirror_value(const int32_t *rp, const int32_t *ci, const double *v, int32_t i, int32_t p)
{
    int32_t j = ci[p], k = mirror_index(ci + rp[j], rp[j + 1] - rp[j], i);
    return k >= 0 ? v[rp[j] + k] : 0.0;
}

#endif
