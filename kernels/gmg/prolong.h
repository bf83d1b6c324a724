/* prolong.h -- P of a refined mesh, row by row, shared by prolong.c and
 * prolong.cu (HOMG_HD): fine node i < nc is coarse vertex i (1), node nc + k
 * the midpoint of the k-th sorted edge (a, b), a < b (1/2 at a and b); then
 * the Dirichlet masking of lib/gmg/host_csr.c's homg__gmg_mask_prolongation:
 * a fixed fine row keeps only injections into fixed coarse columns, a free row
 * drops fixed coarse columns. */
#ifndef HOMG_GMG_PROLONG_H
#define HOMG_GMG_PROLONG_H

#include "gmg_kernels.h"

/* Row i's candidate entries (1 or 2) into col/val; returns their number. */
HOMG_HD int prolong_row_candidates(int32_t nc, const uint64_t *edges, int32_t i, int32_t col[2], double val[2])
{
    if (i < nc) {
        col[0] = i;
        val[0] = 1.0;
        return 1;
    }
    col[0] = (int32_t)(edges[i - nc] >> 32);
    col[1] = (int32_t)(edges[i - nc] & 0xffffffffu);
    val[0] = val[1] = 0.5;
    return 2;
}

HOMG_HD int prolong_keep(const uint8_t *fine_fixed, const uint8_t *coarse_fixed, int32_t i, int32_t j, double v)
{
    return fine_fixed[i] ? (coarse_fixed[j] && v > 1 - 1e-9) : !coarse_fixed[j];
}

/* Row i's kept entries written at col + at, val + at (col NULL: only counted). */
HOMG_HD int32_t prolong_row(int32_t nc, const uint64_t *edges, const uint8_t *fine_fixed, const uint8_t *coarse_fixed,
                            int32_t i, int32_t at, int32_t *col, double *val)
{
    int32_t c[2], n = 0;
    double v[2];
    int k = prolong_row_candidates(nc, edges, i, c, v);
    for (int t = 0; t < k; t++) {
        if (!prolong_keep(fine_fixed, coarse_fixed, i, c[t], v[t]))
            continue;
        if (col) {
            col[at + n] = c[t];
            val[at + n] = v[t];
        }
        n++;
    }
    return n;
}

#endif
