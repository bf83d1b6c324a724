/* fem_check.h -- the per-entry rules homg_fem_assemble checks coefficient arrays
 * against, shared by the CPU and CUDA scans (check.c, check.cu). */
#ifndef HOMG_FEM_CHECK_H
#define HOMG_FEM_CHECK_H

#include "fem_kernels.h"

HOMG_HD int fem_check_finite(double v) { return v == v && v - v == 0.0; }

/* Non-zero when item i of x breaks `rule` (a fem_check_rule): entry i for the
 * scalar rules, element i's 3 (2D) or 6 (3D) tensor entries for the tensor rules
 * (symmetric positive semi-definite: every principal minor >= 0, all finite). */
HOMG_HD int fem_check_bad(const double *x, int64_t i, int rule)
{
    if (rule == FEM_CHECK_FINITE)
        return !fem_check_finite(x[i]);
    if (rule == FEM_CHECK_NONNEGATIVE)
        return !(fem_check_finite(x[i]) && x[i] >= 0);
    if (rule == FEM_CHECK_POSITIVE)
        return !(fem_check_finite(x[i]) && x[i] > 0);
    if (rule == FEM_CHECK_TENSOR2) {
        const double *s = x + 3 * i; /* xx xy yy */
        for (int k = 0; k < 3; k++)
            if (!fem_check_finite(s[k]))
                return 1;
        return !(s[0] >= 0 && s[2] >= 0 && s[0] * s[2] - s[1] * s[1] >= 0);
    }
    {
        const double *s = x + 6 * i; /* xx xy xz yy yz zz */
        double det;
        for (int k = 0; k < 6; k++)
            if (!fem_check_finite(s[k]))
                return 1;
        det = s[0] * (s[3] * s[5] - s[4] * s[4]) - s[1] * (s[1] * s[5] - s[4] * s[2]) +
              s[2] * (s[1] * s[4] - s[3] * s[2]);
        /* every principal minor >= 0 (semi-definite: sigma may vanish along a direction) */
        return !(s[0] >= 0 && s[3] >= 0 && s[5] >= 0 && s[0] * s[3] - s[1] * s[1] >= 0 &&
                 s[0] * s[5] - s[2] * s[2] >= 0 && s[3] * s[5] - s[4] * s[4] >= 0 && det >= 0);
    }
}

#endif
