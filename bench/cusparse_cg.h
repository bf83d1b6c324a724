/* cusparse_cg.h -- the GPU baselines of bench_amg: unpreconditioned CG and
 * Jacobi-PCG in double, written the usual way with cuSPARSE SpMV and cuBLAS
 * (dot products come to the host), independent of homg's kernels. */
#ifndef HOMG_CUSPARSE_CG_H
#define HOMG_CUSPARSE_CG_H

#include "homg.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct homg_cusparse_cg_result {
    int iterations;
    double solve_ms;     /* median over the repetitions, CUDA events */
    double rel_residual; /* recursive ||r|| / ||b|| at the end */
    double upload_ms;
} homg_cusparse_cg_result;

/* Solves a x = b (host arrays, uploaded once) `reps` times from x = 0 to
 * ||r|| / ||b|| <= tol; jacobi != 0: Jacobi-preconditioned.  x receives the
 * last solution.  Returns 0, or -1 with a message in `why`. */
int homg_cusparse_cg(const homg_host_csr *a, const double *b, double tol, int max_iter, int jacobi, int reps, double *x,
                     homg_cusparse_cg_result *out, char *why, size_t whylen);

#ifdef __cplusplus
}
#endif
#endif
