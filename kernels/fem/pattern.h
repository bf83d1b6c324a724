/* pattern.h -- the pattern's row merge, shared word for word by pattern.c and
 * pattern.cu (HOMG_HD): row i of the sorted unique keys row << shift | col
 * from the U sorted upper keys (a < b) and their U sorted transposes -- its
 * lower part, the diagonal, its upper part -- written from out + l0 + u0 + i
 * (l0, u0: the keys of rows before i in either list). */
#ifndef HOMG_FEM_PATTERN_H
#define HOMG_FEM_PATTERN_H

#include "core/search.h"
#include "fem_kernels.h"

HOMG_HD void fem_pattern_merge_row(const uint64_t *upper, const uint64_t *lower, int32_t u, int shift, int64_t i,
                                   uint64_t *out)
{
    int32_t l0 = sorted_lower_u64(lower, 0, u, (uint64_t)i << shift),
            l1 = sorted_lower_u64(lower, l0, u, (uint64_t)(i + 1) << shift),
            u0 = sorted_lower_u64(upper, 0, u, (uint64_t)i << shift),
            u1 = sorted_lower_u64(upper, u0, u, (uint64_t)(i + 1) << shift);
    int64_t at = (int64_t)l0 + u0 + i;
    for (int32_t k = l0; k < l1; k++)
        out[at++] = lower[k];
    out[at++] = ((uint64_t)i << shift) | (uint64_t)i;
    for (int32_t k = u0; k < u1; k++)
        out[at++] = upper[k];
}

/* Edge k (a << 32 | b, a < b: the refinement's sorted edges) as an upper key
 * a << shift | b (the same order), and its transpose b << shift | a. */
HOMG_HD uint64_t fem_pattern_edge_upper(uint64_t e, int shift) { return ((e >> 32) << shift) | (e & 0xffffffffu); }

HOMG_HD uint64_t fem_pattern_edge_lower(uint64_t e, int shift) { return ((e & 0xffffffffu) << shift) | (e >> 32); }

#endif
