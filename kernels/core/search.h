/* search.h -- binary search in sorted arrays (CSR rows, sorted keys), one
 * source for the CPU and CUDA kernels and the host code. */
#ifndef HOMG_SEARCH_H
#define HOMG_SEARCH_H

#include <stdint.h>

#include "kernels.h" /* HOMG_HD */

/* The first index in [lo, hi) whose value is not below v (hi when none is). */
HOMG_HD int32_t sorted_lower_i32(const int32_t *a, int32_t lo, int32_t hi, int32_t v)
{
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (a[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The index of v in the sorted a[lo, hi), or -1. */
HOMG_HD int32_t sorted_find_i32(const int32_t *a, int32_t lo, int32_t hi, int32_t v)
{
    int32_t k = sorted_lower_i32(a, lo, hi, v);
    return k < hi && a[k] == v ? k : -1;
}

/* The first index in [lo, hi) whose key is not below v (hi when none is). */
HOMG_HD int32_t sorted_lower_u64(const uint64_t *a, int32_t lo, int32_t hi, uint64_t v)
{
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (a[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

#endif
