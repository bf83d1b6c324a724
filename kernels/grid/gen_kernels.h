/* gen_kernels.h -- data-parallel primitives of the general structured multigrid
 * (lib/grid/general*.c): per-cell coefficients, flags, any sizes, 2D and 3D,
 * every side kind.
 *
 * A level is nx x ny x nz cells (nz = 1 in 2D), index i + nx*(j + ny*k), with
 *   gx[c], gy[c], gz[c]  the conductance of the face between c and its +x (+y, +z)
 *                        neighbour (wrapped on a periodic axis; 0 on a wall, a
 *                        solid cell's face, or an axis of one cell);
 *   self[c]              lam[c] + the Dirichlet walls (on coarse levels the Galerkin
 *                        walls, faces to FIXED cells included); the diagonal is
 *                        self + the cell's faces, summed in double where used;
 *   lam[c]               the lambda part of self;
 *   flag[c]              0 active (an unknown), else inactive (1 fixed, 2 solid;
 *                        coarse cells: 2 when no child is active); NULL: all active.
 * A uniform level (constant sigma and lambda) stores none of gx..lam: a face is
 * g0[axis] unless it has a solid cell on either side (or no neighbour), self is
 * lam0 + wall[s] for each side s the cell touches (0 at an inactive cell), lam
 * is lam0 (0 at an inactive cell); each value is rounded to the storage type as
 * a stored one would be.  A coarse level of a uniform flag-free level whose axes
 * are even (or of one cell) is uniform again (general.c works out its constants).
 *   (A u)_c = self_c u_c + sum over the six faces of g (u_c - u_neighbour)  (active c).
 * Inactive cells are not unknowns; on coarse levels their values stay 0, on the
 * finest a FIXED cell's value is the caller's (it enters A u through its face).
 *
 * Coarsening (coarsen): cells aggregate 2 per axis (the last cell of an odd axis
 * stays alone, an axis of one cell stays); the coarse operator is the
 * piecewise-constant Galerkin product with the face conductances (and walls)
 * scaled by 1/2 per coarsened axis, the rediscretisation of the same problem on
 * cells twice as wide; lam is summed.  Where the last aggregate is wider (odd
 * axes, gen_level.last) the scale is the geometric one instead: a face's by the
 * ratio of the distances between the cells' centres, a wall's by the ratio of the
 * widths (gen_face_scale, gen_wall_scale; 1/2 where the cells are regular). Restriction sums the children (the
 * transpose of piecewise-constant prolongation), so the preconditioner is
 * symmetric.
 *
 * Scalars of the preconditioned CG live in device memory (gen_scalars), so a
 * cycle never waits for the host.  All sums are accumulated in double.
 */
#ifndef HOMG_GEN_KERNELS_H
#define HOMG_GEN_KERNELS_H

#include "kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gen_level {
    int nx, ny, nz;
    int periodic[3];                 /* axis x, y, z wraps */
    void *gx, *gy, *gz, *self, *lam; /* NULL on a uniform level */
    unsigned char *flag;             /* NULL: every cell active */
    int uniform;
    double g0[3], lam0, wall[6]; /* a uniform level's constants */
    int down;                    /* coarse level: its vectors are stored 2^-down times the sums restriction makes (its
                 prolongation adds 2^down times them); 0 but on float16 grids, whose b would grow 4x
                 (2D) or 8x (3D) per level past half's 65504 (general.c level_scales) */
    double last[3]; /* the last cell's width per axis in the level's other cells' (0 or 1: the same; below an odd
                       axis narrower or wider: gen_coarse_last, set by general.c gen_create) */
} gen_level;

/* What the finest level adds: the face terms of the right-hand side. */
typedef struct gen_fine {
    double h;
    int kind[6];            /* homg_bc_kind per side W,E,S,N,B,T */
    const void *face[6];    /* face data (NULL = 0), one right-hand side's block */
    const void *sigma_cell; /* NULL: sigma */
    double sigma;
} gen_fine;

/* The coarse levels of a V-cycle in one launch (block_vcycle): lv[0] down to the
 * coarsest, their x and b (lib/grid/general_plan.c homg__gen_plan_block says when it runs). */
#define GEN_BLOCK_MAX 12
typedef struct gen_block {
    int n;         /* levels, 2..GEN_BLOCK_MAX; lv[n-1] is the coarsest */
    int pre, post; /* sweeps per level on the way down and up */
    int sweeps;    /* the coarsest level's (coarse_solve) */
    gen_level lv[GEN_BLOCK_MAX];
    void *x[GEN_BLOCK_MAX]; /* x[0]: the result; x[1..]: the coarse corrections */
    void *b[GEN_BLOCK_MAX]; /* b[0]: the right-hand side (read); b[1..]: written */
} gen_block;

/* Slots of the device scalars (doubles). */
enum {
    GEN_RZ = 0, /* r.z */
    GEN_PQ,     /* p.q */
    GEN_RR,     /* r.r */
    GEN_ZQ,     /* z.q (flexible beta) */
    GEN_RZN,    /* new r.z */
    GEN_BB,     /* ||f + face terms||^2 */
    GEN_ALPHA,
    GEN_BETA,
    GEN_E2,   /* ||u - u_ref||^2 */
    GEN_R2,   /* ||u_ref||^2 */
    GEN_PROJ, /* largest |mean| removed */
    /* a tolerance solve's iterations on the device (gen_loop.h), read with GEN_PROJ after them: */
    GEN_LOOP_NORM,    /* the last monitored norm */
    GEN_LOOP_CYCLES,  /* the iterations done (0 at the solve's start) */
    GEN_LOOP_GO,      /* 1: another iteration */
    GEN_LOOP_RESTART, /* 1: it starts with a restart, 0: with CG's next direction */
    GEN_NSCALARS
};
/* Steps of the scalar kernel. */
enum {
    GEN_STEP_ALPHA = 0, /* alpha = RZ/PQ; RR = 0 */
    GEN_STEP_BETA,      /* beta = -alpha ZQ/RZ; RZ = RZN; PQ = ZQ = RZN = 0 */
    GEN_STEP_RECORD,    /* hist[*count] = sqrt(RR/BB) (or sqrt(E2/R2) when ref); count++; E2 = R2 = 0 */
    GEN_STEP_START,     /* RZ = RZN; PQ = ZQ = RZN = 0 */
    GEN_STEP_PASS       /* two-pass weight: ALPHA = min(GEN_PASS_WEIGHT, GEN_PASS_GUARD RZ/PQ) (PQ <= 0: */
                        /* GEN_PASS_WEIGHT); RZ = PQ = RR = 0 */
};
/* The largest weight of a two-pass coarse correction (lib/grid/general_cycle.c, two_pass_solve). */
#define GEN_PASS_WEIGHT 0.85
/* ... and at most GEN_PASS_GUARD times the pass's CG step (a bound for over-correcting V-cycles). */
#define GEN_PASS_GUARD 1.6
/* The largest level whose sweeps run in one block on CUDA (sweeps); 0: none, every
 * half-sweep its own launch.  Off: on the H100 (2026-11-26 15:08, bench/results/
 * h100_gen_s5.md) one 1024-thread block for the levels of <= 4096 cells made the 2048^2
 * disc solve slower (3.692 -> 3.853 ms; 16384 cells: 4.501): a half-sweep in one block
 * waits ~3 us on L2 round trips, about what a launch costs in a graph with programmatic
 * dependent launch.  HOMG_GEN_SWEEP_BLOCK=n (environment) sets it for measurements. */
#define GEN_SWEEP_BLOCK_CELLS 0
/* The largest coarsest level whose coarse_solve is stored as a matrix (coarse_matrix / coarse_apply;
 * general.c's coarsest has at most 64 cells). */
#define GEN_COARSE_MATRIX_CELLS 256
/* A sigma GEN_JUMP_RATIO times the first cell's, or 1/GEN_JUMP_RATIO, is a jump (check_operator). */
#define GEN_JUMP_RATIO 10.0

#define GEN_KERNELS(X)                                                                                              \
    /* The finest level from the operator: faces (harmonic means / h^2), walls, lam, flags. */                      \
    X(homg_status, gen, setup_fine,                                                                                 \
      (kernel_exec * ex, homg_precision p, const gen_level *L, const gen_fine *F, const void *lambda_cell,          \
       double lambda, const unsigned char *flags))                                                                  \
    /* Coarse level C from fine level L (see above). */                                                             \
    X(homg_status, gen, coarsen, (kernel_exec * ex, homg_precision p, const gen_level *L, const gen_level *C))      \
    /* One colour of red-black Gauss-Seidel: active cells with (i+j+k) % 2 == colour. */                            \
    X(homg_status, gen, smooth,                                                                                     \
      (kernel_exec * ex, homg_precision p, const gen_level *L, void *u, const void *f, int colour))                 \
    /* n symmetric sweeps (reverse: colour 1 first; skip: from the second half-sweep): smooth's */                  \
    /* half-sweeps in order; on CUDA a launch each, or one block for a level of at most */                          \
    /* GEN_SWEEP_BLOCK_CELLS cells (a barrier per half-sweep instead of a launch; off by default). */               \
    X(homg_status, gen, sweeps,                                                                                     \
      (kernel_exec * ex, homg_precision p, const gen_level *L, void *u, const void *f, int n, int rev, int skip))   \
    /* u = zero, then the colour-0 half-sweep (one pass on a level without seams, gen_seam; every cell written). */ \
    X(homg_status, gen, smooth_from_zero,                                                                           \
      (kernel_exec * ex, homg_precision p, const gen_level *L, void *u, const void *f))                             \
    /* prolong_add, then the colour-1 half-sweep; on a level without seams in one pass that leaves the colour-0 */  \
    /* cells as they were (the caller's next half-sweep, colour 0, overwrites them). */                             \
    X(homg_status, gen, prolong_smooth,                                                                             \
      (kernel_exec * ex, homg_precision p, const gen_level *L, const gen_level *C, const void *ec, void *u,         \
       const void *f))                                                                                              \
    /* The coarsest level: u = 0, then `sweeps` symmetric red-black sweeps (one block on CUDA). */                  \
    X(homg_status, gen, coarse_solve,                                                                               \
      (kernel_exec * ex, homg_precision p, const gen_level *L, void *u, const void *f, int sweeps))                 \
    /* matrix (n x n, n = L's cells <= GEN_COARSE_MATRIX_CELLS, column c at matrix + c n): */                       \
    /* coarse_solve's linear map, column c = coarse_solve of the unit vector e_c */                                 \
    /* (a block per column on CUDA). */                                                                             \
    X(homg_status, gen, coarse_matrix,                                                                              \
      (kernel_exec * ex, homg_precision p, const gen_level *L, int sweeps, void *matrix))                           \
    /* u = m f (coarse_matrix's matrix; f read at active cells only; sums in double in */                           \
    /* column order): coarse_solve in one mat-vec, the same map to rounding. */                                     \
    X(homg_status, gen, coarse_apply,                                                                               \
      (kernel_exec * ex, homg_precision p, const gen_level *L, const void *m, void *u, const void *f))              \
    /* x[0] = one V-cycle on B's levels from x[0] = 0, exactly the sequence of general_cycle.c's visit() */         \
    /* (zero + colour-0 half-sweep, the rest of `pre` symmetric sweeps, residual_restrict, the level below, */      \
    /* prolong_add + `post` sweeps from colour 1; coarse_solve at the coarsest), in one block on CUDA (on the */    \
    /* H100 slower than a launch per step from 64^2 down, so off by default: general_plan.c). */                    \
    X(homg_status, gen, block_vcycle, (kernel_exec * ex, homg_precision p, const gen_block *B))                     \
    /* fc[C] = sum over C's active children of (f - A u) (u NULL: 0). */                                            \
    X(homg_status, gen, residual_restrict,                                                                          \
      (kernel_exec * ex, homg_precision p, const gen_level *L, const gen_level *C, const void *u, const void *f,    \
       void *fc))                                                                                                   \
    /* u[c] += ec[parent of c] at active c. */                                                                      \
    X(homg_status, gen, prolong_add,                                                                                \
      (kernel_exec * ex, homg_precision p, const gen_level *L, const gen_level *C, const void *ec, void *u))        \
    /* Finest level: r = f + face terms - A u at active cells (u NULL: 0), 0 elsewhere; *rr += r.r. */              \
    X(homg_status, gen, residual,                                                                                   \
      (kernel_exec * ex, homg_precision p, const gen_level *L, const gen_fine *F, const void *u, const void *f,     \
       void *r, double *rr))                                                                                        \
    /* q = A x at active cells (x 0 at inactive ones), 0 elsewhere; *xq += x.q. */                                  \
    X(homg_status, gen, apply,                                                                                      \
      (kernel_exec * ex, homg_precision p, const gen_level *L, const void *x, void *q, double *xq))                 \
    /* out[0] += a.b, and out[1] += c.b when c is not NULL (n values). */                                           \
    X(homg_status, gen, dot2,                                                                                       \
      (kernel_exec * ex, homg_precision p, size_t n, const void *a, const void *b, const void *c, double *out))     \
    /* u += alpha p at active cells (flag NULL: all); r -= alpha q; s[GEN_RR] += r.r  (alpha = s[GEN_ALPHA]). */    \
    X(homg_status, gen, update_ur,                                                                                  \
      (kernel_exec * ex, homg_precision p, size_t n, const unsigned char *flag, void *u, const void *pv, void *r,   \
       const void *q, double *s))                                                                                   \
    /* u = 0 at active cells (flag NULL: all; the others are not written). */                                       \
    X(homg_status, gen, zero_active,                                                                                \
      (kernel_exec * ex, homg_precision p, size_t n, const unsigned char *flag, void *u))                           \
    /* pv = z + s[GEN_BETA] pv. */                                                                                  \
    X(homg_status, gen, update_p,                                                                                   \
      (kernel_exec * ex, homg_precision p, size_t n, const void *z, void *pv, const double *s))                     \
    /* The scalar step (GEN_STEP_*), one thread. hist/count: monitor (RECORD), ref: error monitored. */             \
    X(homg_status, gen, scalars, (kernel_exec * ex, double *s, int step, int ref, double *hist, int *count))        \
    /* A tolerance solve's test after an iteration (gen_loop.h gen_loop_test: s[GEN_LOOP_*] from the */             \
    /* history's last norm and the iterations so far); on CUDA with loop != 0 (memory loop_handle) it */            \
    /* also sets that loop's condition.  One thread. */                                                             \
    X(homg_status, gen, loop_test,                                                                                  \
      (kernel_exec * ex, double *s, const double *hist, const int *count, double tol, int max_cycles, int every,    \
       unsigned long long loop))                                                                                    \
    /* The start of a device loop's body: sets the condition of the branch `restart` to */                          \
    /* s[GEN_LOOP_RESTART] and that of `direction` to its negation (memory branch_begin).  One */                   \
    /* thread; CUDA only (the CPU backend has no graphs). */                                                        \
    X(homg_status, gen, loop_branch,                                                                                \
      (kernel_exec * ex, const double *s, unsigned long long restart, unsigned long long direction))                \
    /* s[GEN_E2] += ||u - ref||^2, s[GEN_R2] += ||ref||^2 over active cells. */                                     \
    X(homg_status, gen, error_norm,                                                                                 \
      (kernel_exec * ex, homg_precision p, size_t n, const unsigned char *flag, const void *u, const void *ref,     \
       double *s))                                                                                                  \
    /* sums[label[c]] += x[c] for label[c] >= 0. */                                                                 \
    X(homg_status, gen, island_sum,                                                                                 \
      (kernel_exec * ex, homg_precision p, size_t n, const int *label, const void *x, double *sums))                \
    /* x[c] -= sums[l] * inv_count[l] for l = label[c] >= 0; with proj: *proj = max(*proj, max_l |mean_l|). */      \
    X(homg_status, gen, island_sub,                                                                                 \
      (kernel_exec * ex, homg_precision p, size_t n, const int *label, void *x, const double *sums,                 \
       const double *inv_count, int nislands, double *proj))                                                        \
    /* bad[0] = 1 + an index where sigma is not finite and > 0, bad[1] lambda not finite and >= 0, */               \
    /* bad[2] a flag value > 2 (0: none); NULL arrays are skipped; bad[3] = 1 + an index whose valid */             \
    /* sigma jumps against sigma[0] (gen_jump; 0: none), bad[4] = 1 + the index of a SOLID cell (0: none). */       \
    X(homg_status, gen, check_operator,                                                                             \
      (kernel_exec * ex, homg_precision p, size_t n, const void *sigma, const void *lambda,                         \
       const unsigned char *flags, long long *bad))                                                                 \
    /* float16 values (a float16 grid's input check, lib/grid/checks.c): *flag = 1 + an index where x is not */     \
    /* finite (the first on the CPU, any on CUDA), untouched where all are. */                                      \
    X(homg_status, gen, nonfinite_h, (kernel_exec * ex, size_t n, const void *x, long long *flag))                  \
    /* Free device memory in bytes (CPU: physical memory; 0 when unknown). */                                       \
    X(size_t, gen, memory_available, (kernel_exec * ex))

typedef struct gen_kernels {
    const char *name;
    GEN_KERNELS(HOMG_KERNEL_MEMBER)
} gen_kernels;
GEN_KERNELS(HOMG_KERNEL_CPU_PROTO)
extern const gen_kernels homg_cpu_gen_kernels;
#if HOMG_HAVE_CUDA
GEN_KERNELS(HOMG_KERNEL_CUDA_PROTO)
extern const gen_kernels homg_cuda_gen_kernels;
#endif

#ifdef __cplusplus
}
#endif
#endif
