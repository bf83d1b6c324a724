/* krylov_kernels.h -- the fused vector kernels of the conjugate gradient
 * method: the backend table.
 *
 * Scalars of a CG solve stay in device memory (cg_state), so a solve needs no
 * host round trip per iteration beyond the convergence flag.  The `handle` is
 * the sparse table's (sparse_kernels.h: handle_create).
 *
 * Implementations: kernels/krylov/krylov.c and krylov.cu.  Picked with
 * HOMG_KERNELS(ex, krylov).
 */
#ifndef HOMG_KRYLOV_KERNELS_H
#define HOMG_KRYLOV_KERNELS_H

#include "sparse/sparse_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Device-resident scalars of one CG solve.  Written by the kernels below; the
 * host reads `done` (and the rest once the solve has ended). */
typedef struct cg_state {
    double bb;     /* b.b */
    double rr;     /* r.r of the current residual */
    double rz;     /* r.z of the current iterate */
    double rz_old; /* r.z of the previous iterate */
    double pq;     /* p.A p */
    double zq;     /* z.A p (flexible CG) */
    double alpha, beta;
    double tol2;  /* (tol * ||b||)^2 once bb is known; input: tol^2 */
    int32_t iter; /* iterations done */
    int32_t done; /* 0 running, 1 converged, 2 breakdown (p.Ap <= 0, r.z <= 0 or NaN) */
    int32_t why;  /* breakdown: HOMG_CG_WHY_* (the values of homg_pcg_breakdown) */
    int32_t flexible;
    int32_t max_iter;
} cg_state;

#define HOMG_CG_RUNNING   0
#define HOMG_CG_CONVERGED 1
#define HOMG_CG_BREAKDOWN 2

#define HOMG_CG_WHY_PAP       1 /* p.Ap <= 0 */
#define HOMG_CG_WHY_RZ        2 /* r.z <= 0 */
#define HOMG_CG_WHY_NONFINITE 3 /* NaN or Inf */

/* Double vectors of length a->nrows (n). */
#define KRYLOV_KERNELS(X)                                                                                       \
    /* state->tol2 holds tol^2 on entry.  r = b - A x (x = 0 first unless warm); */                             \
    /* state: bb, rr, tol2 *= bb, iter = 0, done = converged if rr <= tol2; */                                  \
    /* history[0] = sqrt(rr / bb). */                                                                           \
    X(homg_status, krylov, cg_start,                                                                            \
      (kernel_exec * ex, void *handle, const csr_matrix *a, const double *b, double *x, double *r, int warm,    \
       cg_state *state, double *history))                                                                       \
    /* z = dinv .* r (dinv NULL: z = r). */                                                                     \
    X(homg_status, krylov, cg_diag_precond,                                                                     \
      (kernel_exec * ex, const double *dinv, const double *r, double *z, int32_t n))                            \
    /* rz = r.z, zq = z.q; on the first iteration (state->iter == 0) p = z, */                                  \
    /* otherwise beta from the (flexible) formula and p = z + beta p.  Does */                                  \
    /* nothing once state->done. */                                                                             \
    X(homg_status, krylov, cg_direction,                                                                        \
      (kernel_exec * ex, void *handle, const double *r, const double *z, const double *q, double *p, int32_t n, \
       cg_state *state))                                                                                        \
    /* q = A p, pq = p.q, alpha = rz / pq (breakdown when pq <= 0 or not finite). */                            \
    X(homg_status, krylov, cg_spmv_dot,                                                                         \
      (kernel_exec * ex, void *handle, const csr_matrix *a, const double *p, double *q, cg_state *state))       \
    /* x += alpha p, r -= alpha q, rr = r.r, iter++, history[iter] = */                                         \
    /* sqrt(rr / bb), done when rr <= tol2 (or iter == max_iter stops nothing: */                               \
    /* the host loop ends there).  Does nothing once state->done. */                                            \
    X(homg_status, krylov, cg_update,                                                                           \
      (kernel_exec * ex, void *handle, double *x, double *r, const double *p, const double *q, int32_t n,       \
       cg_state *state, double *history))

typedef struct krylov_kernels {
    KRYLOV_KERNELS(HOMG_KERNEL_MEMBER)
} krylov_kernels;
KRYLOV_KERNELS(HOMG_KERNEL_CPU_PROTO)
#if HOMG_HAVE_CUDA
KRYLOV_KERNELS(HOMG_KERNEL_CUDA_PROTO)
#endif

extern const krylov_kernels homg_cpu_krylov_kernels;
#if HOMG_HAVE_CUDA
extern const krylov_kernels homg_cuda_krylov_kernels;
#endif

#ifdef __cplusplus
}
#endif
#endif
