/* gen_loop.h -- the test of a general (CG) tolerance solve's iterations, shared by the
 * CPU twin and the one-thread CUDA kernel that ends each pass of the device loop
 * (lib/grid/general_loop.c): go on while the last norm is finite, above tol, and
 * iterations are left, and say whether the next one starts with a restart. */
#ifndef HOMG_GEN_LOOP_H
#define HOMG_GEN_LOOP_H

#include "gen_kernels.h"
#include "tol_check.h" /* homg_tol_continue */

/* The history's length (lib/grid/grid_internal.h HOMG_GRID_HIST_MAX; gen_scalar_step records no more). */
#define GEN_LOOP_HIST_MAX 1000

/* After an iteration: s[GEN_LOOP_*] from the last recorded norm (hist[*count - 1], or the
 * last kept) and one more iteration; a restart every `every` iterations. */
HOMG_HD void gen_loop_test(double *s, const double *hist, const int *count, double tol, int max_cycles, int every)
{
    const int n = *count;
    const double norm = hist[(n <= GEN_LOOP_HIST_MAX ? n : GEN_LOOP_HIST_MAX) - 1];
    const int c = (int)s[GEN_LOOP_CYCLES] + 1;
    s[GEN_LOOP_NORM] = norm;
    s[GEN_LOOP_CYCLES] = c;
    s[GEN_LOOP_GO] = homg_tol_continue(norm, c, tol, max_cycles);
    s[GEN_LOOP_RESTART] = every > 0 && c % every == 0;
}

#endif
