/* ell.h -- ELLPACK-R from CSR, per row: shared word for word by gmg.c and
 * gmg.cu (HOMG_HD). */
#ifndef HOMG_GMG_ELL_H
#define HOMG_GMG_ELL_H

#include "gmg_kernels.h"

/* Row i of CSR (rp, ci, v) into column-major ELL (n rows, width w): entries
 * then padding (column 0, value 0), so the product reads defined memory. */
HOMG_HD void ell_row_from_csr(const int32_t *rp, const int32_t *ci, const double *v, int32_t i, int32_t n, int32_t w,
                              int32_t *col, double *val, int32_t *rl)
{
    int32_t b = rp[i], len = rp[i + 1] - b;
    for (int32_t k = 0; k < w; k++) {
        size_t at = (size_t)k * n + i;
        col[at] = k < len ? ci[b + k] : 0;
        val[at] = k < len ? v[b + k] : 0.0;
    }
    rl[i] = len;
}

#endif
