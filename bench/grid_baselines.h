/* grid_baselines.h -- issue 9's solvers of the assembled matrix beside the grid's rows:
 * homg's AMG-PCG and cuSPARSE's Jacobi-PCG on the operator assembled cell by cell. */
#ifndef HOMG_GRID_BASELINES_H
#define HOMG_GRID_BASELINES_H

#include "grid_ref.h"
#include "homg.h"

typedef struct grid_baseline {
    int ok;          /* reached the error target */
    int iterations;  /* PCG iterations of the timed solves */
    double tol;      /* the relative residual they were run to */
    double setup_ms; /* AMG set-up (median), 0 for cuSPARSE */
    double solve_ms; /* solve (median) */
    double err;      /* ||u - u_ref|| / ||u_ref|| over all cells */
} grid_baseline;

/* Assembles problem p (grid_ref_build) with right-hand side f (ncell values, zero face
 * data) and solves it from zero with homg's AMG-PCG (amg != 0) or cuSPARSE's Jacobi-PCG,
 * (cuSPARSE: at most 5000 iterations) to the loosest relative residual of 1e-4 ... 1e-9 within
 * error `target` of u_ref (ncell values); reps timed solves.  0, or -1 with a message. */
int grid_baseline_run(homg_ctx *ctx, const grid_ref_problem *p, const double *f, const double *u_ref, double target,
                      int amg, int reps, grid_baseline *out);

#endif
