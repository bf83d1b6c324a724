/* mirror.h -- the transpose of a matrix on a structurally symmetric pattern
 * with sorted rows, per entry: shared word for word by gmg.c and gmg.cu. */
#ifndef HOMG_GMG_MIRROR_H
#define HOMG_GMG_MIRROR_H

#include "gmg_kernels.h"

/* The value at (j, i) where entry p is (i, j): binary search for column i in
 * row j (sorted); 0 where the pattern lacks (j, i). */
HOMG_HD double mirror_value(const int32_t *rp, const int32_t *ci, const double *v, int32_t i, int32_t p)
{
    int32_t j = ci[p], lo = rp[j], hi = rp[j + 1];
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (ci[mid] < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < rp[j + 1] && ci[lo] == i ? v[lo] : 0.0;
}

#endif
