/* hypre_pcg.h -- the CPU baseline of bench_amg: hypre's BoomerAMG-preconditioned
 * CG (Debian's libhypre-dev), serial, as seed 000 measured it (PMIS coarsening,
 * hybrid Gauss-Seidel).  Without hypre at build time the calls say so. */
#ifndef HOMG_HYPRE_PCG_H
#define HOMG_HYPRE_PCG_H

#include "homg.h"

typedef struct homg_hypre_result {
    int iterations;
    double setup_ms, solve_ms;
    double rel_residual; /* hypre's final relative residual norm */
} homg_hypre_result;

/* Non-zero when the bench was built against hypre. */
int homg_hypre_available(void);
/* Solves a x = b to ||r|| / ||b|| <= tol by PCG, BoomerAMG-preconditioned when
 * amg != 0, plain CG otherwise; x (host, n values) receives the solution.
 * Returns 0, or -1 (no hypre, or a hypre error) with a message in `why`. */
int homg_hypre_pcg(const homg_host_csr *a, const double *b, double tol, int max_iter, int amg, double *x,
                   homg_hypre_result *out, char *why, size_t whylen);
/* MPI_Finalize when the bench started MPI. */
void homg_hypre_finish(void);

#endif
