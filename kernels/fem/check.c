/* check.c -- CPU twin of the coefficient scan: the first entry that breaks a rule. */
#include "fem_check.h"

homg_status homg_cpu_fem_check_values(kernel_exec *ex, const double *x, int64_t n, int rule, const uint8_t *mask,
                                      uint64_t *first)
{
    uint64_t best = FEM_CHECK_NONE;
    (void)ex;
#pragma omp parallel for reduction(min : best) schedule(static) if (n > HOMG_OMP_MIN)
    for (int64_t i = 0; i < n; i++)
        if ((uint64_t)i < best && (!mask || mask[i] == 1) && fem_check_bad(x, i, rule))
            best = (uint64_t)i;
    *first = best;
    return HOMG_OK;
}
