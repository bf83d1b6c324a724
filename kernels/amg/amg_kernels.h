/* amg_kernels.h -- the algebraic multigrid backend table: aggregation (distance-2
 * maximal independent sets, Suitor matching), prolongators, smoothers (damped
 * and l1 Jacobi, patch block Jacobi), the dense coarse solve.
 *
 * Every entry is one data-parallel step over a level; the orchestration (which
 * step, how many rounds) is in lib/amg_*.c and the same for both backends.
 * Steps whose result decides the hierarchy are synchronous and deterministic
 * (no dependence on thread order), so the CPU and CUDA backends build the same
 * aggregates from the same matrix.  Level matrices are float.
 *
 * Implementations: kernels/amg/NAME.c and NAME.cu.  Picked with
 * HOMG_KERNELS(ex, amg).
 */
#ifndef HOMG_AMG_KERNELS_H
#define HOMG_AMG_KERNELS_H

#include "sparse/sparse_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The patch partition of one level in the patchSPM layout (seed 000, 5.2.2):
 * A = inner (entries inside a patch, off the diagonal) + diagonal + boundary
 * (entries between patches).  Inner rows are stored in patch order with
 * columns local to the patch; boundary rows in the level's own row order. */
/* Largest patch: one CUDA block of threads, its vectors in shared memory. */
#define HOMG_PATCH_MAX 1024

/* The inner Jacobi divisor of a patch row is at least this fraction of the
 * row's l1 norm inside the block, so rho(D^-1 B) <= 1 / 0.55 < 2 and the
 * inexact block solve stays symmetric positive definite (see lib/amg/cycle.c). */
#define HOMG_PATCH_L1_FRACTION 0.55f

typedef struct amg_patches {
    int32_t count;      /* patches */
    int32_t max_size;   /* rows of the largest patch */
    int32_t inner_nnz;  /* entries of the inner part */
    int32_t *start;     /* count + 1: patch p holds positions start[p] .. start[p+1]-1 */
    int32_t *perm;      /* n: row of the level at each position */
    int32_t *inner_ptr; /* n + 1, by position */
    int32_t *inner_col; /* local column (position - start[p]) */
    float *inner_val;
    float *diag;         /* n, by position: a_ii */
    float *block_diag;   /* n, by position: a_ii (+ sum_j |a_ij| over the boundary entries: l1 block) */
    float *jac_inv;      /* n, by position: 1 / max(block_diag, 0.55 (block_diag + sum |inner a_ij|)) */
    csr_matrix boundary; /* n x n, level order */
    int32_t *patch_of;   /* n: patch of each row (set-up and re-setup only) */
    int32_t *pos;        /* n: position of each row */
} amg_patches;

#define AMG_KERNELS(X)                                                                                                 \
    /* ---- distance-k maximal independent set (Bell, Dalton, Olson) ---- */                                           \
    /* key[i] packs (state, random priority, i): state undecided/in/out. */                                            \
    X(homg_status, amg, mis_init, (kernel_exec * ex, int32_t n, uint32_t seed, uint64_t * key))                        \
    /* out[i] = max of in[j] over j = i and the neighbours of i in a. */                                               \
    X(homg_status, amg, mis_max, (kernel_exec * ex, const csr_matrix *a, const uint64_t *in, uint64_t *out))           \
    /* Undecided i whose k-neighbourhood maximum is itself joins the set, one */                                       \
    /* whose maximum is in the set leaves; *undecided (device) counts the rest. */                                     \
    X(homg_status, amg, mis_update,                                                                                    \
      (kernel_exec * ex, int32_t n, uint64_t * key, const uint64_t *kmax, int32_t *undecided))                         \
    /* flag[i] = 1 for set members, else 0. */                                                                         \
    X(homg_status, amg, mis_flags, (kernel_exec * ex, int32_t n, const uint64_t *key, int32_t *flag))                  \
    /* ---- aggregates ---- */                                                                                         \
    /* agg[i] = root_id[i] for roots, root_id[j] for a neighbour j of a root */                                        \
    /* (unique for a distance-2 set), -1 otherwise. */                                                                 \
    X(homg_status, amg, agg_from_roots,                                                                                \
      (kernel_exec * ex, const csr_matrix *a, const int32_t *flag, const int32_t *root_id, int32_t *agg))              \
    /* One round: unassigned i joins the aggregate most of its assigned */                                             \
    /* neighbours (in `in`) belong to (ties: smallest id); *unassigned (device) */                                     \
    /* counts rows still without one. */                                                                               \
    X(homg_status, amg, agg_grow,                                                                                      \
      (kernel_exec * ex, const csr_matrix *a, const int32_t *in, int32_t *out, int32_t *unassigned))                   \
    /* size[a] = rows in aggregate a (size zeroed by the kernel). */                                                   \
    X(homg_status, amg, agg_sizes, (kernel_exec * ex, int32_t n, const int32_t *agg, int32_t nagg, int32_t *size))     \
    /* keep[a] = size[a] >= min_size. */                                                                               \
    X(homg_status, amg, agg_keep,                                                                                      \
      (kernel_exec * ex, int32_t nagg, const int32_t *size, int32_t min_size, int32_t *keep))                          \
    /* out[i] = keep[agg[i]] ? new_id[agg[i]] : -1. */                                                                 \
    X(homg_status, amg, agg_relabel,                                                                                   \
      (kernel_exec * ex, int32_t n, const int32_t *agg, const int32_t *keep, const int32_t *new_id, int32_t *out))     \
    /* keep[agg[i]] = 1 for every i with cur[i] < 0 (aggregates that cannot merge). */                                 \
    X(homg_status, amg, agg_restore,                                                                                   \
      (kernel_exec * ex, int32_t n, const int32_t *agg, const int32_t *cur, int32_t *keep))                            \
    /* out[i] = outer[inner[i]] (composition of two aggregations). */                                                  \
    X(homg_status, amg, agg_compose,                                                                                   \
      (kernel_exec * ex, int32_t n, const int32_t *inner, const int32_t *outer, int32_t *out))                         \
    /* ---- strength of connection (amg_strong in amg_common.h) ---- */                                                \
    /* sc[k] = the coupling of entry k (0 on the diagonal), rowmax[i] = the */                                         \
    /* largest of row i (amg_row_couplings; diag (n) holds a_ii). */                                                   \
    X(homg_status, amg, strength_coupling,                                                                             \
      (kernel_exec * ex, const csr_matrix *a, const float *diag, float *sc, float *rowmax))                            \
    /* cnt[i] = entries of row i kept in the strength graph (the diagonal and */                                       \
    /* the strong entries). */                                                                                         \
    X(homg_status, amg, strength_count,                                                                                \
      (kernel_exec * ex, const csr_matrix *a, const float *sc, const float *rowmax, double theta, int32_t *cnt))       \
    /* The strength graph s (s->row_ptr from a scan of the counts): the strong */                                      \
    /* entries of a, and on the diagonal a_ii plus the row's weak entries */                                           \
    /* (the filtered matrix of smoothed aggregation: row sums kept); *lumped */                                        \
    /* (device) = 1 when a weak entry is not 0 (s differs from a), else 0. */                                          \
    X(homg_status, amg, strength_fill,                                                                                 \
      (kernel_exec * ex, const csr_matrix *a, const float *sc, const float *rowmax, double theta, csr_matrix *s,       \
       int32_t *lumped))                                                                                               \
    /* ---- compatible weighted matching (seed 001) ---- */                                                            \
    /* w[k] for each entry k = (i, j) of a: 1 - (a_ij + a_ji) v_i v_j / (a_ii v_i^2 + a_jj v_j^2) */                   \
    /* off the diagonal when positive, else 0; diag (n) holds a_ii. */                                                 \
    X(homg_status, amg, match_weights,                                                                                 \
      (kernel_exec * ex, const csr_matrix *a, const float *diag, const float *v, float *w))                            \
    /* One synchronous Suitor round: every active vertex (no proposal yet, or */                                       \
    /* its proposal beaten) proposes to its heaviest neighbour whose held */                                           \
    /* proposal it beats; the best proposal per vertex wins (suitor[v] holds */                                        \
    /* amg_suitor_key of it, 0 none).  target[u]: u's proposal (-1 none yet, */                                        \
    /* -2 none possible); cand: scratch.  *proposals (device) counts. */                                               \
    X(homg_status, amg, suitor_round,                                                                                  \
      (kernel_exec * ex, const csr_matrix *a, const float *w, uint64_t *suitor, int32_t *target, int32_t *cand,        \
       int32_t *proposals))                                                                                            \
    /* mate[i] = j when i and j hold each other's proposals, else -1; flag[i] = */                                     \
    /* 1 when i leads its aggregate (unmatched, or the smaller of a pair). */                                          \
    X(homg_status, amg, match_pairs,                                                                                   \
      (kernel_exec * ex, const csr_matrix *a, const float *w, const uint64_t *suitor, const int32_t *target,           \
       int32_t *mate, int32_t *flag))                                                                                  \
    /* agg[i] = id[min(i, mate[i])]. */                                                                                \
    X(homg_status, amg, match_agg,                                                                                     \
      (kernel_exec * ex, int32_t n, const int32_t *mate, const int32_t *id, int32_t *agg))                             \
    /* Pairwise prolongator weights: pw[i] = v_i / sqrt(v_i^2 + v_mate^2) (1 for */                                    \
    /* singletons); vc[agg[i]] = sqrt(v_i^2 + v_mate^2) (the coarse smooth vector). */                                 \
    X(homg_status, amg, match_weights_p,                                                                               \
      (kernel_exec * ex, int32_t n, const int32_t *mate, const int32_t *agg, const float *v, float *pw, float *vc))    \
    /* out[i] = pw[i] * pw2[agg[i]]. */                                                                                \
    X(homg_status, amg, weight_compose,                                                                                \
      (kernel_exec * ex, int32_t n, const float *pw, const int32_t *agg, const float *pw2, float *out))                \
    /* ---- prolongators ---- */                                                                                       \
    /* P (n x nagg, arrays n+1, n, n): row i holds w[i] (1 when w is NULL) at agg[i]. */                               \
    X(homg_status, amg, prolong_tentative,                                                                             \
      (kernel_exec * ex, int32_t n, const int32_t *agg, const float *w, csr_matrix *p))                                \
    /* *out (device) = max_i sum_j |a_ij| / a_ii (Gershgorin bound of rho(D^-1 A)). */                                 \
    X(homg_status, amg, gershgorin, (kernel_exec * ex, const csr_matrix *a, float *out))                               \
    /* Smoothed aggregation's P = (I - (omega / *rho) D^-1 A) P_tent without P_tent */                                 \
    /* or a product (amg_sa_row): cnt[i] = distinct agg[j] over row i of a ... */                                      \
    X(homg_status, amg, prolong_sa_count, (kernel_exec * ex, const csr_matrix *a, const int32_t *agg, int32_t *cnt))   \
    /* ... and P's columns and values (p->row_ptr from a scan of the counts). */                                       \
    X(homg_status, amg, prolong_sa_fill,                                                                               \
      (kernel_exec * ex, const csr_matrix *a, const int32_t *agg, double omega, const float *rho, csr_matrix *p))      \
    /* ---- Galerkin product C = P^T A P (pt = P^T), row by row of C ---- */                                           \
    /* Row I (sums in double, columns sorted) into slab row I (cap entries */                                          \
    /* from I * cap; cap 128, 256 or 512), its length in cnt[I]; a row with */                                         \
    /* more than cap columns: cnt[I] = 0 and *overflow (device) = 1, else 0. */                                        \
    X(homg_status, amg, rap_rows,                                                                                      \
      (kernel_exec * ex, const csr_matrix *a, const csr_matrix *p, const csr_matrix *pt, int32_t cap,                  \
       int32_t *slab_col, float *slab_val, int32_t *cnt, int32_t *overflow))                                           \
    /* C's columns and values from the slab (c->row_ptr from a scan of cnt). */                                        \
    X(homg_status, amg, rap_compact,                                                                                   \
      (kernel_exec * ex, int32_t cap, const int32_t *slab_col, const float *slab_val, csr_matrix *c))                  \
    /* ---- Lanczos on B = D^-1/2 A D^-1/2 (spectral bound of D^-1 A) ---- */                                          \
    /* lz holds n2[0..k] (squared norms of the unnormalised vectors u_j) and */                                        \
    /* alpha[1..k] at lz[k + 1 + j - 1], zeroed by the caller.  Start: */                                              \
    /* u = amg_lanczos_start(i), q_prev = 0, lz[0] = ||u||^2; dscale[i] = */                                           \
    /* |a_ii|^-1/2 (0 where a_ii = 0). */                                                                              \
    X(homg_status, amg, lanczos_start,                                                                                 \
      (kernel_exec * ex, const csr_matrix *a, float *dscale, float *u, float *q_prev, double *n2_0))                   \
    /* Step j: s = 1 / sqrt(*n2_prev), w = s B u, *alpha += s u.w. */                                                  \
    X(homg_status, amg, lanczos_apply,                                                                                 \
      (kernel_exec * ex, const csr_matrix *a, const float *dscale, const double *n2_prev, const float *u, float *w,    \
       double *alpha))                                                                                                 \
    /* Step j: t = w - alpha s u - sqrt(*n2_prev) q_prev (q_prev = 0 at j = 1: */                                      \
    /* beta_{j-1} = ||u_j||), q_prev = s u, u = t, *n2 += t.t. */                                                      \
    X(homg_status, amg, lanczos_update,                                                                                \
      (kernel_exec * ex, int32_t n, const double *n2_prev, const double *alpha, float *u, float *q_prev,               \
       const float *w, double *n2))                                                                                    \
    /* ---- smoothers (float vectors) ---- */                                                                          \
    /* d[i] = a_ii (kind 0), 1 / a_ii (kind 1), 1 / sum_j |a_ij| (kind 2, l1 Jacobi). */                               \
    X(homg_status, amg, diag, (kernel_exec * ex, const csr_matrix *a, int kind, float *d))                             \
    /* r = b - A x. */                                                                                                 \
    X(homg_status, amg, residual, (kernel_exec * ex, const csr_matrix *a, const float *b, const float *x, float *r))   \
    /* r = b - A x with b in double. */                                                                                \
    X(homg_status, amg, residual_b64,                                                                                  \
      (kernel_exec * ex, const csr_matrix *a, const double *b, const float *x, float *r))                              \
    /* y = P^T x (y: P's ncols; restriction without storing R = P^T; the CUDA */                                       \
    /* twin adds with atomics, so the sums' order may differ from the CPU's). */                                       \
    X(homg_status, amg, restrict_pt, (kernel_exec * ex, const csr_matrix *p, const float *x, float *y))                \
    /* x += omega dinv .* r (zero: x = omega dinv .* r). */                                                            \
    X(homg_status, amg, jacobi_correct,                                                                                \
      (kernel_exec * ex, int32_t n, const float *dinv, double omega, const float *r, float *x, int zero))              \
    /* From x = 0: x = omega dinv .* b and r = b - A x in one pass. */                                                 \
    X(homg_status, amg, jacobi_zero_residual,                                                                          \
      (kernel_exec * ex, const csr_matrix *a, const float *dinv, double omega, const float *b, float *x, float *r))    \
    /* One Chebyshev step, the residual not stored: d = c_d d + c_r dinv (b - A x) */                                  \
    /* (first: no c_d d); zero_x (with first): x is taken as 0 and set to d. */                                        \
    /* b in float or double (level 0 reads the caller's double vector). */                                             \
    X(homg_status, amg, cheb_residual,                                                                                 \
      (kernel_exec * ex, const csr_matrix *a, const float *dinv, const void *b, homg_precision bp, float *x, float *d, \
       double c_d, double c_r, int first, int zero_x))                                                                 \
    /* x += d. */                                                                                                      \
    X(homg_status, amg, add, (kernel_exec * ex, int32_t n, const float *d, float *x))                                  \
    /* out = in - boundary * x (in may equal out). */                                                                  \
    X(homg_status, amg, patch_boundary,                                                                                \
      (kernel_exec * ex, const amg_patches *pt, const float *x, const float *in, float *out))                          \
    /* Block Jacobi over patches: per patch, `inner` weighted Jacobi sweeps */                                         \
    /* (weight w_in, divisors 1/jac_inv) on B_p g = rhs_p from g = 0, B_p = inner */                                   \
    /* + block_diag, then x_p = (zero ? 0 : x_p) + w_out g, where rhs = b (zero) */                                    \
    /* or rhs - (inner + diag) x (not zero; rhs = b - boundary x from */                                               \
    /* patch_boundary).  r non-NULL: r = b - (inner + diag) x afterwards (the */                                       \
    /* caller subtracts boundary * x). */                                                                              \
    X(homg_status, amg, patch_smooth,                                                                                  \
      (kernel_exec * ex, const amg_patches *pt, const float *b, const float *rhs, float *x, float *r, int zero,        \
       int inner, double w_in, double w_out))                                                                          \
    /* ---- patch partition ---- */                                                                                    \
    /* Sort rows by (group[i], agg[i], i) into perm. */                                                                \
    X(homg_status, amg, patch_sort,                                                                                    \
      (kernel_exec * ex, void *handle, int32_t n, const int32_t *group, const int32_t *agg, int32_t *perm))            \
    /* head[p] = 1 where a patch starts at position p: a new group, or every */                                        \
    /* chunk of a group split into ceil(size / max_size) near-equal chunks. */                                         \
    X(homg_status, amg, patch_heads,                                                                                   \
      (kernel_exec * ex, int32_t n, const int32_t *group, const int32_t *perm, int32_t max_size, int32_t *head))       \
    /* From head and its exclusive scan `id`: start[id] = p at heads, start[count] */                                  \
    /* = n, patch_of[perm[p]] = patch, pos[perm[p]] = p. */                                                            \
    X(homg_status, amg, patch_index,                                                                                   \
      (kernel_exec * ex, int32_t n, const int32_t *perm, const int32_t *head, const int32_t *id, int32_t count,        \
       int32_t *start, int32_t *patch_of, int32_t *pos))                                                               \
    /* Counts per row: inner_cnt[pos[i]] (same patch, off the diagonal) and */                                         \
    /* boundary_cnt[i] (other patches). */                                                                             \
    X(homg_status, amg, patch_count,                                                                                   \
      (kernel_exec * ex, const csr_matrix *a, const int32_t *patch_of, const int32_t *pos, int32_t *inner_cnt,         \
       int32_t *boundary_cnt))                                                                                         \
    /* Fills the inner, diagonal and boundary parts (pointers from scans of the */                                     \
    /* counts); l1 != 0 adds the boundary |a_ij| of a row to its block diagonal */                                     \
    /* (l1 block Jacobi). */                                                                                           \
    X(homg_status, amg, patch_fill,                                                                                    \
      (kernel_exec * ex, const csr_matrix *a, const int32_t *patch_of, const int32_t *pos, int l1, amg_patches *pt))   \
    /* ---- coarsest level: dense Cholesky ---- */                                                                     \
    /* inv (n*n floats, column-major) = A^-1 via a double Cholesky factorisation; */                                   \
    /* *pivot (host) = 0, or the 1-based column where A is not positive definite. */                                   \
    X(homg_status, amg, dense_inverse, (kernel_exec * ex, void *handle, const csr_matrix *a, float *inv, int *pivot))  \
    /* x = inv * b. */                                                                                                 \
    X(homg_status, amg, dense_apply, (kernel_exec * ex, int32_t n, const float *inv, const float *b, float *x))

typedef struct amg_kernels {
    AMG_KERNELS(HOMG_KERNEL_MEMBER)
} amg_kernels;
AMG_KERNELS(HOMG_KERNEL_CPU_PROTO)
#if HOMG_HAVE_CUDA
AMG_KERNELS(HOMG_KERNEL_CUDA_PROTO)
#endif

extern const amg_kernels homg_cpu_amg_kernels;
#if HOMG_HAVE_CUDA
extern const amg_kernels homg_cuda_amg_kernels;
#endif

#ifdef __cplusplus
}
#endif
#endif
