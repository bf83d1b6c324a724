/* search.h -- binary search in sorted arrays (CSR rows, sorted keys), one
 * source for the CPU and CUDA kernels and the host code. */
#ifndef HOMG_SEARCH_H
#define HOMG_SEARCH_H

#include <stdint.h>

#include "kernels.h" /* HOMG_HD */

/* sorted_lower_<T>(a, lo, hi, v): the first index in [lo, hi) whose value is
 * not below v (hi when none is), for int32 columns and uint64 keys. */
#define HOMG_SORTED_LOWER(T, name)                                \
    HOMG_HD int32_t name(const T *a, int32_t lo, int32_t hi, T v) \
    {                                                             \
        while (lo < hi) {                                         \
            int32_t mid = lo + (hi - lo) / 2;                     \
            if (a[mid] < v)                                       \
                lo = mid + 1;                                     \
            else                                                  \
                hi = mid;                                         \
        }                                                         \
        return lo;                                                \
    }
HOMG_SORTED_LOWER(int32_t, sorted_lower_i32)
HOMG_SORTED_LOWER(uint64_t, sorted_lower_u64)

/* The index of v in the sorted a[lo, hi), or -1. */
HOMG_HD int32_t sorted_find_i32(const int32_t *a, int32_t lo, int32_t hi, int32_t v)
{
    int32_t k = sorted_lower_i32(a, lo, hi, v);
    return k < hi && a[k] == v ? k : -1;
}

#endif
