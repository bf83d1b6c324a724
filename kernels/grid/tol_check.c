/* tol_check.c -- CPU twin of kernels/grid/tol_check.cu. */
#include "grid_kernels.h"
#include "tol_check.h"

homg_status homg_cpu_grid_tol_check(kernel_exec *ex, const double *hist, const int *count, double tol, int max_cycles,
                                    unsigned long long loop, double *out)
{
    (void)ex;
    (void)loop; /* the CPU backend runs no graphs: its caller loops on out */
    const int c = *count;
    out[HOMG_TOL_NORM] = hist[c - 1];
    out[HOMG_TOL_CYCLES] = c;
    out[HOMG_TOL_GO] = homg_tol_continue(hist[c - 1], c, tol, max_cycles);
    return HOMG_OK;
}
