/* grid_kernels.h -- data-parallel primitives of the structured solvers.
 *
 * All arrays are nx*ny values of the given precision, row-major (i fastest), in
 * the backend's memory.  The operator on a level is the cell-centred 5-point
 * stencil  (A u)_ij = (4 u_ij - sum of the 4 neighbours) / h^2 + lambda u_ij  with
 * Dirichlet data on the cell faces entering through the ghost value 2g - u_edge:
 * a cell on an edge gets +1/h^2 on its diagonal and +2g/h^2 on its right-hand
 * side per edge it touches.  Coarse levels carry homogeneous data (bc == NULL).
 *
 * Residuals are always accumulated in double (float32 storage would otherwise
 * lose about eps*cond(A) in the subtraction f - A u).
 *
 * Level k+1 is level k coarsened 2x2 -> 1 (cell-centred); restriction is the
 * average of the four children, prolongation the bilinear cell-centred one
 * (9/16, 3/16, 3/16, 1/16; ghost -e beyond the edge).
 */
#ifndef HOMG_GRID_KERNELS_H
#define HOMG_GRID_KERNELS_H

#include "kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The box solver's launch choices for the CUDA fused steps (kernels/grid/grid_fused.cu,
 * grid_rows.cu, grid_owned.cu), read once on the host (lib/grid/box.c, HOMG_BOX_* environment
 * variables of the same names, the benchmark's and the tests' knobs) and passed down with the
 * levels; a level without one (tune NULL) takes the defaults below.  Level sizes in cells. */
typedef struct grid_tune {
    double owned_cells; /* owned-cell steps (grid_owned.cu) on levels up to this size */
    double wide_cells;  /* else the wide tile up to this size, */
    double tile_cells;  /* the small tile up to this size, the big tile above */
    double rows_cells;  /* float32 row-block steps (grid_rows.cu) from this size (before the above) */
    int rows_t;         /* the row blocks' thread rows a block (down and up steps) */
    int rows_mid_t;     /* and of the mid step (prolong_smooth_restrict) */
    int pdl;            /* 0: plain launches instead of programmatic dependent ones */
} grid_tune;

/* On the H100 (bench/results/h100_box2_s5.md): the wide tile up to 512^2 took the small
 * levels' kernels from 8.5-9.7 to 6.2-6.7 us; up to 512^2 beat up to 256^2 at every size
 * (256^2..4096^2), up to 1024^2 lost at 1024^2 (+9%). */
#define HOMG_BOX_WIDE_CELLS (512.0 * 512)
#define HOMG_BOX_TILE_CELLS (1024.0 * 1024)
/* bench/results/h100.md, Session 10 box2d: a small level's step took 4.7-5.9 us instead of
 * 6.2-9.1 (ncu), the 256^2 solve 0.083 ms instead of 0.118, 1024^2 0.261 instead of 0.321;
 * up to 256^2 only: 1024^2 0.287; up to 1024^2 (instead of the streamed steps there): 0.304. */
#define HOMG_BOX_OWNED_CELLS (512.0 * 512)
/* h100.md, Sessions 11 twod and twod2: the 1024^2 solve took 0.187 ms against 0.263 with the
 * streamed steps (since removed, s15-tidy2), 2048^2 0.375 against 0.498, 4096^2 0.963 against
 * 1.451; from 512^2 (instead of the owned steps there) changed nothing. */
#define HOMG_BOX_ROWS_CELLS (1024.0 * 1024)
/* 12 thread rows (432 threads, boxes of 144 x 48; 2 blocks an SM): the 1024^2 solve took
 * 0.1874 ms with 12, 0.1897 with 10, 0.1923 with 8, 0.2082 with 16 (h100.md, Session 11 twod);
 * 12 also at 2048^2 and 4096^2 (twod2), and for the mid step (Session 14 twod5: T10 / T16
 * slower at 2048^2 and 4096^2). */
#define HOMG_BOX_ROWS_T 12

/* The defaults of grid_tune. */
static inline grid_tune homg_grid_tune_default(void)
{
    grid_tune t;
    t.owned_cells = HOMG_BOX_OWNED_CELLS;
    t.wide_cells = HOMG_BOX_WIDE_CELLS;
    t.tile_cells = HOMG_BOX_TILE_CELLS;
    t.rows_cells = HOMG_BOX_ROWS_CELLS;
    t.rows_t = HOMG_BOX_ROWS_T;
    t.rows_mid_t = HOMG_BOX_ROWS_T;
    t.pdl = 1;
    return t;
}

typedef struct grid_level {
    int nx, ny;
    double inv_h2; /* 1/h^2 of this level */
    double lambda;
    const void *bc[4];     /* Dirichlet values on the W, E (ny each), S, N (nx each) faces; NULL = 0 */
    const grid_tune *tune; /* host memory, read by the launch code alone; NULL: the defaults */
} grid_level;

enum { HOMG_W = 0, HOMG_E, HOMG_S, HOMG_N };
enum { HOMG_INIT_KEEP = 0, HOMG_INIT_ZERO, HOMG_INIT_PROLONG };
#define HOMG_COARSE_EXACT_MAX 32

/* The coarsest level solved exactly in two passes of many blocks (s15-twod7, exact_wide):
 *   pass 1  w = (Qy^T (f + bterm) Qx) .* inv_eig,   pass 2  u = Qy w Qx^T,
 * each pass out[r][c] = sc[r][c] * sum_i (sum_j lm[r][j] in[j][i]) rm[i][c] with row-major
 * tables (pass 1: lm = qyt, rm = qx, sc = inv_eig; pass 2: lm = qy, rm = qxt, no sc), so a
 * block takes `rows` rows of out and reads in, lm's rows and rm whole (L2).  Each inner
 * sum runs in `split` consecutive ranges of j (then of i), summed in order 0..split-1:
 * the CUDA threads' grouping, which the CPU twin repeats.  nx, ny <= HOMG_EXACT_WIDE_MAX. */
#define HOMG_EXACT_WIDE_MAX   128
#define HOMG_EXACT_WIDE_SPLIT 8 /* most ranges a sum */
typedef struct grid_exact_wide {
    const void *qx, *qxt, *qy, *qyt; /* qx[i*nx+k] = basis k at cell i; qxt its transpose */
    const void *inv_eig;             /* nx*ny, index kx + nx*ky */
    void *w;                         /* nx*ny scratch in the backend's memory */
    int rows, split;                 /* CUDA rows a block (1, 2, 4); ranges a sum (1..HOMG_EXACT_WIDE_SPLIT) */
} grid_exact_wide;

/* What homg_iterate needs to find the marked points of HOMG level m (lib/grid/mfmg.c). */
typedef struct mfmg_level {
    int m; /* level; stencil spacing l = 2^m */
    int l;
    int cx; /* entries per axis of the compact f_m array: 2 * (n/(2l) + 1) (x) */
    int cy;
    double omega; /* damped-Jacobi weight */
} mfmg_level;

/* HOMG level m of an nx x ny grid, relaxing with weight omega. */
static inline mfmg_level homg_mfmg_level(int nx, int ny, int m, double omega)
{
    mfmg_level H;
    H.m = m;
    H.l = 1 << m;
    H.cx = 2 * (nx / (2 * H.l) + 1);
    H.cy = 2 * (ny / (2 * H.l) + 1);
    H.omega = omega;
    return H;
}

typedef struct grid_kernels {
    /* r = f + bterm - A u  (u == NULL: u = 0) */
    homg_status (*residual)(kernel_exec *ex, homg_precision p, const grid_level *L, const void *u, const void *f,
                            void *r);
    /* fc = R (f + bterm - A u) on the next coarser level (u == NULL: u = 0) */
    homg_status (*residual_restrict)(kernel_exec *ex, homg_precision p, const grid_level *L, const void *u,
                                     const void *f, void *fc);
    /* u (+)= P ec; ec lives on the level coarser than L */
    homg_status (*prolong)(kernel_exec *ex, homg_precision p, const grid_level *L, const void *ec, void *u, int assign);
    /* `sweeps` red-black Gauss-Seidel sweeps (red: (i+j) even first) */
    homg_status (*smooth)(kernel_exec *ex, homg_precision p, const grid_level *L, void *u, const void *f, int sweeps);
    /* Fused down-leg step, out of place (blocks read halos of u_in while others write
     * u_out, so the two must differ): u_out = initial u (HOMG_INIT_KEEP: u_in, _ZERO: 0,
     * _PROLONG: P ec, ec on the next coarser level) after `sweeps` RBGS sweeps, and
     * fc = R(f + bterm - A u_out). */
    homg_status (*smooth_restrict)(kernel_exec *ex, homg_precision p, const grid_level *L, const void *u_in,
                                   void *u_out, const void *f, void *fc, int sweeps, int init, const void *ec);
    /* Fused up-leg step, out of place: u_out = (u_in + P ec, or P ec when assign) after
     * `sweeps` RBGS sweeps. */
    homg_status (*prolong_smooth)(kernel_exec *ex, homg_precision p, const grid_level *L, const void *ec,
                                  const void *u_in, void *u_out, const void *f, int sweeps, int assign);
    /* The coarsest level: u = 0, then `sweeps` RBGS sweeps (one thread block on CUDA). */
    homg_status (*coarse_solve)(kernel_exec *ex, homg_precision p, const grid_level *L, void *u, const void *f,
                                int sweeps);
    /* The coarsest level solved exactly: u = Qy [(Qy^T (f + bterm) Qx) ./ eig] Qx^T with the
     * orthonormal sine bases qx (nx*nx, qx[i*nx+k] = basis k at cell i), qy (ny*ny) and
     * inv_eig (nx*ny, 1 / eigenvalue, index kx + nx*ky) of the cell-centred Dirichlet
     * operator.  One thread block on CUDA; nx, ny <= HOMG_COARSE_EXACT_MAX. */
    homg_status (*coarse_exact)(kernel_exec *ex, homg_precision p, const grid_level *L, void *u, const void *f,
                                const void *qx, const void *qy, const void *inv_eig);
    /* The coarsest level exactly in two passes (grid_exact_wide above; CUDA: two launches). */
    homg_status (*exact_wide)(kernel_exec *ex, homg_precision p, const grid_level *L, void *u, const void *f,
                              const grid_exact_wide *W);
    /* The Dirichlet data of level L restricted to the next coarser level: out[s][J] = mean of
     * L->bc[s][2J], L->bc[s][2J+1]; sides whose L->bc[s] is NULL are skipped. */
    homg_status (*restrict_boundary)(kernel_exec *ex, homg_precision p, const grid_level *L, void *const out[4]);
    /* y += x over n values */
    homg_status (*add)(kernel_exec *ex, homg_precision p, size_t n, const void *x, void *y);

    /* Monitoring: appends to hist[*count] and increments *count (both backend memory):
     *   u_ref != NULL: ||u - u_ref|| / ||u_ref||;  else ||f + bterm - A u|| / ||f + bterm||.
     * scratch: 2 doubles of backend memory.  Two launches on CUDA. */
    homg_status (*monitor)(kernel_exec *ex, homg_precision p, const grid_level *L, const void *u, const void *f,
                           const void *u_ref, double *scratch, double *hist, int *count);
    /* flag[0] = 1 + index of the first non-finite value among n (0 if all finite); flag is
     * backend memory; the call ORs into an already set flag, so several arrays can share one. */
    homg_status (*find_nonfinite)(kernel_exec *ex, homg_precision p, size_t n, const void *x, long long *flag);

    /* ---- HOMG (seed 003) ---- */
    /* dst = (1,2,1)/4 x (1,2,1)/4 filter of src with stencil spacing s (whole grid), taps outside
     * the grid dropped and the weights renormalised.  With compact (and H) not NULL the
     * filtered values at H's marked points also go to compact, as homg_gather of dst would
     * copy them (the gather fused: one pass, dst not re-read).  With zero_dst, dst is set to 0
     * instead of the values (they are kept in compact only): the coarsest level's filter,
     * whose grid is then the iteration's zero start (no separate zeroing pass). */
    homg_status (*homg_filter)(kernel_exec *ex, homg_precision p, int nx, int ny, int s, const void *src, void *dst,
                               const mfmg_level *H, void *compact, int zero_dst);
    /* Compact copy of src at the marked points of a level (see lib/grid/mfmg.c). */
    homg_status (*homg_gather)(kernel_exec *ex, homg_precision p, int nx, int ny, const mfmg_level *H, const void *src,
                               void *compact);
    /* One whole-grid HOMG iteration on the residual equation (homogeneous Dirichlet):
     * marked points of level H relax (damped Jacobi, spacing l, rhs fm), the others interpolate
     * bilinearly from the marked points of their quadrant; reads u_in, writes u_out. fm is the
     * compact restricted right-hand side (for m = 0: the full-grid rhs). */
    homg_status (*homg_iterate)(kernel_exec *ex, homg_precision p, const grid_level *L, const mfmg_level *H,
                                const void *fm, const void *u_in, void *u_out);
    /* The same iteration at level H (m >= 1) written only where an iteration of level W reads
     * (homg_read_coord's (W->cx + 2) x (W->cy + 2) points, grid_point.h; needs
     * homg_read_set_holds on both axes): W = H for the next iteration of the same level, or
     * level m-1 after H's last.  The same values there, u_out's other points kept. */
    homg_status (*homg_iterate_marked)(kernel_exec *ex, homg_precision p, const grid_level *L, const mfmg_level *H,
                                       const mfmg_level *W, const void *fm, const void *u_in, void *u_out);

    /* A tolerance solve's test after a cycle (kernels/grid/tol_check.h): out[HOMG_TOL_*] = the
     * last norm hist[*count - 1], the count, and whether to go on; on CUDA with loop != 0 (a
     * memory loop_handle) it also sets that loop's condition.  One thread; backend memory. */
    homg_status (*tol_check)(kernel_exec *ex, const double *hist, const int *count, double tol, int max_cycles,
                             unsigned long long loop, double *out);

    /* ---- a cycle boundary of a fixed sequence (lib/grid/cycles.c homg__mg_sequence) ----
     * The up step of one cycle and the down step of the next in one pass, out of place:
     * u_out = u_in + P ec after `sweeps` RBGS sweeps (the post sweeps and the next pre sweeps
     * in one run: the same half-sweeps in the same order), fc = R(f + bterm - A u_out).
     * mid_fits: 1 when the backend's prolong_smooth_restrict takes these arguments (ptrs:
     * u_in, u_out, f, fc), else the caller queues prolong_smooth and smooth_restrict.  Which
     * boundaries are fused is the caller's rule, the same on every backend (lib/grid/box.c,
     * mid_min); this says only what the kernel can take. */
    int (*mid_fits)(homg_precision p, const grid_level *L, int sweeps, const void *const ptrs[4]);
    homg_status (*prolong_smooth_restrict)(kernel_exec *ex, homg_precision p, const grid_level *L, const void *ec,
                                           const void *u_in, void *u_out, const void *f, void *fc, int sweeps);
} grid_kernels;

homg_status homg_cpu_grid_tol_check(kernel_exec *ex, const double *hist, const int *count, double tol, int max_cycles,
                                    unsigned long long loop, double *out);
#if HOMG_HAVE_CUDA
homg_status homg_cuda_grid_tol_check(kernel_exec *ex, const double *hist, const int *count, double tol, int max_cycles,
                                     unsigned long long loop, double *out);
#endif

extern const grid_kernels homg_cpu_grid_kernels;
#if HOMG_HAVE_CUDA
homg_status homg_cuda_grid_exact_wide(kernel_exec *ex, homg_precision p, const grid_level *L, void *u, const void *f,
                                      const grid_exact_wide *W);
extern const grid_kernels homg_cuda_grid_kernels;
#endif

#ifdef __cplusplus
}
#endif
#endif
