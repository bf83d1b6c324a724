/* tol_check.h -- the convergence test of a tolerance solve, shared by the CPU loop and
 * the CUDA graph's loop (grid_kernels.tol_check): after `count` cycles whose last
 * monitored norm is `norm`, go on while the norm is finite, above tol, and cycles are
 * left. */
#ifndef HOMG_TOL_CHECK_H
#define HOMG_TOL_CHECK_H

#include <math.h>

#include "kernels.h" /* HOMG_HD */

/* tol_check's out[]: the last monitored norm, the cycles done, and 1 to go on. */
enum { HOMG_TOL_NORM = 0, HOMG_TOL_CYCLES, HOMG_TOL_GO, HOMG_TOL_OUT };

HOMG_HD int homg_tol_continue(double norm, int count, double tol, int max_cycles)
{
    return count < max_cycles && norm > tol && norm < INFINITY; /* NaN compares false */
}

#endif
