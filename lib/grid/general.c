/* general.c -- multigrid for the general structured operator: per-cell sigma
 * (harmonic face means), lambda and flags (ACTIVE / FIXED / SOLID), any sizes,
 * 2D and 3D, Dirichlet / Neumann / periodic sides, nrhs right-hand sides.
 *
 * Method: conjugate gradients preconditioned by one multigrid cycle (V for
 * VCYCLE, F for FCYCLE and FMG) on a cell-centred aggregation hierarchy
 * (kernels/grid/gen_kernels.h: 2 cells per axis, the last cell of an odd axis
 * alone, rediscretised coarse conductances on the cells' real widths, symmetric red-black
 * Gauss-Seidel, the coarsest level of at most HOMG_GEN_COARSEST cells by sweeps
 * in one block).  The Krylov step makes one cycle robust where plain cycles
 * stall with piecewise-constant transfers, coefficient jumps and obstacles; the
 * flexible (Polak-Ribiere) beta keeps F-cycles usable.  With a sigma jump or
 * SOLID cells (desc.two_pass, plan_two_pass), VCYCLE solves the coarse correction
 * of one level in two damped passes (a W-cycle there, two_pass_solve): 8-cell 1e4
 * checkerboard factor 0.36 -> 0.13, 20% solid discs 0.15 -> 0.075.  Each "cycle" of the
 * solve info is one preconditioned CG iteration.  Scalars stay on the device;
 * with tol = 0 nothing waits for the host.  Exception, the plain 3D box (float32,
 * constant sigma and lambda, no flags, islands, two-pass levels or face data;
 * plain_on): the cycles run on u alone, without CG, each "cycle" one V-cycle
 * (F-cycle for FCYCLE, the first for FMG): the Krylov step pays for jumps and
 * obstacles, not there (H100 2026-11-26: 256^3 to error 1e-4 from zero in 4 plain
 * V(2,2) cycles, 3.51 ms, against 4 CG iterations, 5.01 ms; bench/results/h100_cube.md).
 * The plain cycles' cube levels relax by SOR (omega 1.1) and go up from colour 0, the
 * order of the way down (H100 2026-11-27: 3 cycles, 2.63 ms; correct_and_sweep); their
 * finest level keeps u and f split by colour in the work vectors z and p (split_of,
 * kernels/grid/cube_split.h: a half-sweep moves 8 bytes a cell instead of 12; H100
 * 2026-11-27: 256^3 2.61 -> 2.04 ms, 512^3 17.9 -> 13.8, 128^3 0.421 -> 0.387), and so does
 * level 1 in its own x and b (split1_of); a cold solve's f is split by the finest pass from
 * zero, and a quiet solve's cycles before its last leave u split (H100 2026-11-27, each off
 * alone: 256^3 +82, +24, +51 us, 512^3 +0.78, +0.13, +0.45 ms; bench/results/h100_cube.md
 * "Session 10 cube9").  A plain V-cycle of the default V(2,2) takes its sweeps per level from a
 * plan (HOMG_CUBE_SCHED_DEFAULT "12,32,22"; cycle_sweeps): V(1,2) on the finest, V(3,2) on level
 * 1, V(2,2) below -- the coarse correction, not the finest smoother, limits the cycle (CPU
 * tools/dev/cube_schedules.c, bench/results/cpu_cube_schedules.md; H100 2026-11-27, 3 cycles
 * either way, error 6.5e-5 / 6.9e-5 / 5.7e-5: 0.329 -> 0.321, 1.728 -> 1.454, 11.76 -> 9.91 ms at
 * 128^3 / 256^3 / 512^3, bench/results/h100_cube.md "Session 11 cube10").  A uniform box's first
 * level of at most 16^3 from level 2 down is solved exactly in one launch instead of cycled on
 * (plan_exact, exact_cycle, kernels/grid/cube_exact.h), and then the plan is
 * HOMG_CUBE_SCHED_EXACT "12,22" (V(2,2) on level 1: the exact coarse correction makes up for it;
 * H100 2026-11-27, 3 cycles either way, error 6.5e-5 / 6.2e-5 / 5.2e-5: 0.301 -> 0.267, 1.418 ->
 * 1.365, 9.57 -> 9.25 ms at 128^3 / 256^3 / 512^3, bench/results/h100_cube.md "Session 12 cube13").
 *
 * Precision: u, f and the work vectors are stored in the grid's precision, every
 * sum is accumulated in double, and the residual is recomputed from f and u
 * (in double) every HOMG_GEN_RESTART_* iterations, a restart on the residual
 * equation, so float32 storage does not drift.
 *
 * Singular islands (connected active cells, lambda = 0, touching no FIXED cell
 * and no Dirichlet side) are labelled on the device once per
 * homg_grid_set_operator (lib/grid/islands.c; not with op.no_islands); the rhs is projected per island (the
 * preconditioned residual only where the error is monitored: project_z), and u gets mean zero per island at
 * the end. */
#include "grid_internal.h"
#include "general_loop.h"
#include "grid/cube_coarse.h"
#include "grid/cube_exact.h"
#include "grid/cube_cluster.h"
#include "grid/cube_sep.h"
#include "grid/cube_kernels.h"
#include "grid/cube_point.h"
#include "grid/cube_split.h"
#include "grid/gen_kernels.h"
#include "grid/gen_loop.h"
#include "grid/gen_point.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOMG_GEN_MAX_LEVELS     24
#define HOMG_GEN_COARSEST       64
#define HOMG_CUBE_OMEGA_DEFAULT 1.1f  /* plain cycles' SOR weight (schedule_env, correct_and_sweep) */
#define HOMG_GEN_COARSE_SWEEPS  40    /* the coarsest level's sweeps */
#define HOMG_GEN_TWO_PASS       2     /* desc.two_pass = 0 with a sigma jump: level 2 alone */
#define HOMG_GEN_TWO_PASS_SOLID 16384 /* ... with SOLID cells: the first level of at most this many cells */
#define HOMG_GEN_RESTART_F32    10
#define HOMG_GEN_RESTART_F64    50

/* plain V-cycles' sweeps (schedule_env, cycle_sweeps) */
#define HOMG_CUBE_SCHED_DEFAULT "12,32,22"
#define HOMG_CUBE_SCHED_EXACT   "12,22" /* the default where a level is solved exactly (plan_exact) */

/* One lane's work arrays: the right-hand sides of a solve run HOMG_EXEC_LANES at a
 * time side by side on CUDA (kernels.h: memory fork/lane/join), each lane with
 * its own vectors, coarse levels' x and b, two-pass vectors and weights, scalars,
 * island sums and history; the solve's steps use the selected lane's (use_lane). */
typedef struct gen_lane {
    void *r, *z, *p, *q;
    void *x[HOMG_GEN_MAX_LEVELS], *b[HOMG_GEN_MAX_LEVELS];
    void *kz[HOMG_GEN_MAX_LEVELS], *kq[HOMG_GEN_MAX_LEVELS];
    double *kw;
    double *s, *sums, *hist; /* GEN_NSCALARS, nsums, HOMG_GRID_HIST_MAX doubles */
    int *count;              /* history length */
    int nsums;
} gen_lane;

struct grid_general {
    const gen_kernels *k;
    int nlev, dims;
    gen_level lv[HOMG_GEN_MAX_LEVELS];                       /* the levels as the kernels see them */
    gen_level mem[HOMG_GEN_MAX_LEVELS];                      /* the arrays allocated so far (kept across operators) */
    void *x[HOMG_GEN_MAX_LEVELS], *b[HOMG_GEN_MAX_LEVELS];   /* levels >= 1: correction, rhs */
    void *kz[HOMG_GEN_MAX_LEVELS], *kq[HOMG_GEN_MAX_LEVELS]; /* two-pass levels' work vectors */
    unsigned kmask;                                          /* bit m: level m solved in two passes */
    int cube;                                                /* the cube kernels on (HOMG_GEN_CUBE, cube_of) */
    int plain, plain_f1; /* plain cycles (plain_on); first an F-cycle (-1: method) */
    float omega;         /* plain cycles' SOR weight on cube levels (HOMG_CUBE_OMEGA) */
    int sym;             /* plain cycles' way up from colour 1 (HOMG_CUBE_SYM=1), else from colour 0 */
    int split;           /* plain cycles keep the finest level split by colour (HOMG_CUBE_SPLIT, split_of) */
    int split1;          /* ... and level 1 (HOMG_CUBE_SPLIT1, split1_of) */
    int fold;            /* a cold solve splits f in the finest level's pass from zero (HOMG_CUBE_FOLD, split_start) */
    int keep;            /* a quiet solve's cycles before its last leave u split (HOMG_CUBE_KEEP, runs_iterate) */
    int planned;         /* plain V-cycles take their sweeps from plan (HOMG_CUBE_SCHED, cycle_sweeps) */
    /* plan[later cycle][level][way up]: sweeps */
    unsigned char plan[2][HOMG_GEN_MAX_LEVELS][2];
    int blk;             /* first level of block_vcycle (0: none) */
    int cblk;            /* first level of the cube block (cube_block_cycle; 0: none) */
    int xl;              /* level solved exactly (exact_cycle, plan_exact; 0: none) */
    cube_exact xe;       /* its operator's eigen-decomposition (cube_exact.h) ... */
    cube_sep xp;         /* ... or, more than CUBE_EXACT_N a side, cube_sep.h's (xp.t: G->xt) */
    void *xt;            /* cube_sep's tables (CUBE_SEP_FLOATS), then a scratch per lane, in the backend's memory */
    size_t xtn;          /* xt's floats */
    int xcs;             /* xp's level solved in one launch on a cluster of xcs blocks instead (0: three launches) */
    cube_clu xc;         /* ... with these tables (cube_cluster.h; xc.t: after xp's scratch in G->xt) */
    double *kw;          /* device doubles: GEN_NSCALARS per level */
    void *r, *z, *p, *q; /* finest work vectors */
    void *sig;           /* own copy of sigma_cell */
    void *cm;            /* the coarsest level's solve as a matrix, or NULL */
    gen_fine F;          /* constants of the finest level */
    double *s;           /* GEN_NSCALARS device doubles */
    grid_islands isl;    /* singular islands */
    double *hist;        /* the selected lane's history */
    int *hist_count;
    gen_lane lane[HOMG_EXEC_LANES]; /* lane 0: the arrays above (snapshot per solve); 1..: own */
    int lanes;                      /* lanes of the last solve */
    int cur;                        /* the selected lane */
};

#define GQ(g, call, what)                          \
    do {                                           \
        homg_status st_ = (call);                  \
        if (st_ != HOMG_OK)                        \
            return homg__k_fail((g), st_, (what)); \
    } while (0)

static size_t cells(const gen_level *L) { return (size_t)L->nx * L->ny * L->nz; }

/* The level sizes: coarsen while a level has more than HOMG_GEN_COARSEST cells
 * and an axis of two or more. */
static int plan_levels(const homg_grid_desc *d, int dims_out[HOMG_GEN_MAX_LEVELS][3])
{
    int n[3] = { d->nx, d->ny, d->nz }, nl = 0;
    for (;;) {
        dims_out[nl][0] = n[0];
        dims_out[nl][1] = n[1];
        dims_out[nl][2] = n[2];
        nl++;
        if ((double)n[0] * n[1] * n[2] <= HOMG_GEN_COARSEST || nl == HOMG_GEN_MAX_LEVELS ||
            (n[0] < 2 && n[1] < 2 && n[2] < 2))
            return nl;
        for (int a = 0; a < 3; a++)
            n[a] = n[a] >= 2 ? (n[a] + 1) / 2 : 1;
    }
}

/* float16 grids: restriction sums 2^dims children a level, so a smooth residual's
 * coarse b grows 4x (2D) or 8x (3D) per level, past half's 65504 within 8 levels
 * (2D) of an O(1) rhs; while the coarse x stay O(error).  Each coarse level stores
 * its vectors 2^-(coarsened axes so far / 2) times (an exact power of two: the V-cycle
 * preconditioner is the same linear map), b and x growing and shrinking by
 * sqrt(2^dims) a level. */
static void level_scales(grid_general *G, int dims[HOMG_GEN_MAX_LEVELS][3], homg_precision p)
{
    int axes = 0, done = 0;
    G->lv[0].down = 0;
    for (int l = 1; l < G->nlev; l++) {
        for (int a = 0; a < 3; a++)
            axes += dims[l - 1][a] >= 2;
        G->lv[l].down = p == HOMG_FLOAT16 ? axes / 2 - done : 0;
        done = axes / 2;
    }
}

/* Bytes the general solver may allocate for this desc (the check before any allocation): every
 * level stored, with flags, the most an operator can need (uniform levels store less). */
double homg__gen_bytes(const homg_grid_desc *d)
{
    int dims[HOMG_GEN_MAX_LEVELS][3];
    const int nl = plan_levels(d, dims), three = d->nz > 1;
    const double e = d->precision == HOMG_FLOAT64 ? 8 : 4; /* coefficients: float16 grids store float */
    const double v = d->precision == HOMG_FLOAT16 ? 2 : e; /* vectors */
    double total = 0;
    for (int l = 0; l < nl; l++) {
        double n = (double)dims[l][0] * dims[l][1] * dims[l][2];
        total += n * (e * (4 + three) + 1); /* faces, self, lam, flags */
        total += n * v * (l == 0 ? 4 : 2);  /* r z p q, or x b */
        if (l == nl - 1 && n <= GEN_COARSE_MATRIX_CELLS)
            total += n * n * v; /* the coarsest level's matrix */
        if (l >= 1 && l <= (d->two_pass > 0 ? d->two_pass : d->two_pass == 0 ? HOMG_GEN_TWO_PASS : 0))
            total += n * v * 2; /* two-pass work vectors */
    }
    return total;
}

/* Bytes of one lane's work arrays (lane_ready): r z p q, the coarse levels' x and b, two-pass vectors. */
static double lane_bytes(const homg_grid_desc *d)
{
    int dims[HOMG_GEN_MAX_LEVELS][3];
    const int nl = plan_levels(d, dims);
    double total = 0;
    for (int l = 0; l < nl; l++) {
        const int two = l >= 1 && l <= (d->two_pass > 0 ? d->two_pass : d->two_pass == 0 ? HOMG_GEN_TWO_PASS : 0);
        total += (double)dims[l][0] * dims[l][1] * dims[l][2] *
                 (d->precision == HOMG_FLOAT64   ? 8
                  : d->precision == HOMG_FLOAT16 ? 2
                                                 : 4) *
                 (l == 0 ? 4
                  : two  ? 4
                         : 2); /* + the two-pass vectors */
    }
    return total;
}

/* Allocates level l's stored coefficients (stored) and flags (flags) where not
 * yet there, and points the level at them (NULL where not used). */
static homg_status level_arrays(homg_grid *g, int l, int stored, int flags)
{
    grid_general *G = g->gen;
    gen_level *L = &G->lv[l], *M = &G->mem[l];
    const size_t n = cells(L), e = g->desc.precision == HOMG_FLOAT64 ? 8 : 4; /* float16 grids: float */
    if (stored) {
        void **a[5] = { &M->gx, &M->gy, &M->gz, &M->self, &M->lam };
        for (int q = 0; q < 5; q++)
            if (!*a[q] && (q != 2 || G->dims == 3))
                HOMG_TRY(homg__alloc(g->ctx, n * e, a[q], "multigrid level"));
    }
    if (flags && !M->flag)
        HOMG_TRY(homg__alloc(g->ctx, n, (void **)&M->flag, "multigrid level"));
    L->gx = stored ? M->gx : NULL;
    L->gy = stored ? M->gy : NULL;
    L->gz = stored ? M->gz : NULL;
    L->self = stored ? M->self : NULL;
    L->lam = stored ? M->lam : NULL;
    L->flag = flags ? M->flag : NULL;
    L->uniform = !stored;
    return HOMG_OK;
}

/* HOMG_GEN_TWO_PASS_LEVELS=mask (bit m: level m) restricts the two-pass levels that
 * desc.two_pass chooses, for the benchmark's comparison (e.g. 4: level 2 alone); the
 * library documents no such variable. */
static unsigned levels_env(void)
{
    const char *env = getenv("HOMG_GEN_TWO_PASS_LEVELS");
    return env ? (unsigned)strtoul(env, NULL, 0) : ~0u;
}

/* The two-pass work vectors of the levels in kmask and their weights, where not
 * yet there: the solver's own (lane 0) or another right-hand side's. */
static homg_status two_pass_arrays(homg_grid *g, void **kz, void **kq, double **kw)
{
    grid_general *G = g->gen;
    for (int m = 1; m < G->nlev; m++) {
        const size_t bytes = cells(&G->lv[m]) * g->elem;
        if (!(G->kmask >> m & 1))
            continue;
        if (!kz[m])
            HOMG_TRY(homg__alloc(g->ctx, bytes, &kz[m], "two-pass vector"));
        if (!kq[m])
            HOMG_TRY(homg__alloc(g->ctx, bytes, &kq[m], "two-pass vector"));
    }
    if (G->kmask && !*kw) {
        const size_t bytes = (size_t)G->nlev * GEN_NSCALARS * sizeof(double);
        HOMG_TRY(homg__alloc(g->ctx, bytes, (void **)kw, "two-pass scalars"));
        GQ(g, g->ctx->mem->zero(&g->ctx->ex, *kw, bytes), "two-pass scalars");
    }
    return HOMG_OK;
}

/* Levels 1..k solve their coarse correction in two passes (two_pass): k from
 * desc.two_pass; automatic (0): level HOMG_GEN_TWO_PASS alone where sigma_cell has a
 * jump (a cell 10x off the first, found by set_operator's check; with skip_check the
 * last check's finding, on if there was none), and where the flags have SOLID cells
 * the first level of at most HOMG_GEN_TWO_PASS_SOLID cells alone (2048^2 with 20%
 * solid discs: 6 -> 4 cycles, levels 3, 4 or 5 alike, CPU float32 2026-11-26; that
 * level and those below are cheap, with block_vcycle one launch).  On a jump a
 * deeper level does not do (level 3 alone: 9 cycles).  Only there it wins: on the H100 a
 * two-pass cycle at levels 1..2 costs 2x a V-cycle at 2048^2 (the coarse levels are
 * launch-bound and run 4x), which the 8-cell jump repays (8 -> 4 cycles, 0.356 ->
 * 0.032) and a plain per-cell sigma = 1 or 20% solid discs do not (3 -> 3 cycles;
 * 6 -> 4); level 2 alone runs the coarse levels twice, not 4 times: 5 cycles, 0.125,
 * 5.51 ms against 6.80 ms for levels 1..2 (bench/results/h100_grid_general.md, 11:20).
 * Work vectors are allocated on first use; the weights live on the device. */
static homg_status plan_two_pass(homg_grid *g, const homg_grid_operator *op)
{
    grid_general *G = g->gen;
    const homg_grid_desc *d = &g->desc;
    int k = d->two_pass, from = 1;
    if (k == 0 && op->sigma_cell && g->sigma_jump != 0 && G->nlev >= 4) /* a jump (or never checked) */
        k = from = HOMG_GEN_TWO_PASS;
    else if (k == 0 && op->flags && g->solid_cells != 0) { /* obstacles (or never checked) */
        for (k = 1; k < G->nlev - 1 && (double)cells(&G->lv[k]) > HOMG_GEN_TWO_PASS_SOLID; k++)
            ;
        from = k;
    } else if (k == 0)
        k = -1;
    if (d->method == HOMG_METHOD_FCYCLE || d->method == HOMG_METHOD_FMG)
        k = -1;
    G->kmask = 0;
    for (int m = from > 1 ? from : 1; m <= k && m < G->nlev - 1; m++)
        if (levels_env() >> m & 1)
            G->kmask |= 1u << m;
    return two_pass_arrays(g, G->kz, G->kq, &G->kw);
}

/* The first level of the cube block (cube_block_cycle): the first below the finest of at
 * most HOMG_CUBE_BLOCK_CELLS cells (environment, the benchmark times against it; 0: off)
 * with no two-pass level below; cube_block_of checks the rest per cycle.  Default 512 (8^3
 * down): on the H100 (2026-11-27, bench/results/h100_cube.md "Session 9 cube6") 3 V(2,2)
 * cycles took 0.207 / 0.442 ms at 64^3 / 128^3 against 0.221 / 0.455 with a launch per
 * step; from 16^3 (4096) the block costs what the launches it replaces cost (0.224 / 0.457
 * ms: its 16^3 steps on one SM take as long as PDL launches spread over the device). */
#define HOMG_CUBE_BLOCK_DEFAULT 512
static void plan_cube_block(grid_general *G)
{
    const char *env = getenv("HOMG_CUBE_BLOCK_CELLS");
    const double most = env ? atof(env) : HOMG_CUBE_BLOCK_DEFAULT;
    int l = 1;
    while (l < G->nlev && ((double)cells(&G->lv[l]) > most || (G->kmask >> l) != 0))
        l++;
    G->cblk = most > 0 && l < G->nlev - 1 && G->nlev - l <= CUBE_BLOCK_MAX ? l : 0;
}

/* The levels a V-cycle runs in one launch (block_vcycle): from the first of at most
 * HOMG_GEN_BLOCK_CELLS=n cells (environment) below every two-pass level down to the
 * coarsest.  Off by default: on the H100 (2026-11-26, bench/results/h100_grid_general.md)
 * one 512-thread block from 64^2 (16^3) down was slower than a launch per step with
 * programmatic dependent launch in a graph (256^3 9.83 -> 10.14 ms, 2048^2 discs
 * 4.14 -> 4.62): each of its steps waits on L2 round trips on one SM.  Kept for
 * smaller thresholds (and the two-pass levels, run twice) to be measured; the library
 * documents no such variable. */
static void plan_block(grid_general *G)
{
    const char *env = getenv("HOMG_GEN_BLOCK_CELLS");
    const double most = env ? atof(env) : 0;
    int l = 1;
    while (l < G->nlev && ((double)cells(&G->lv[l]) > most || (G->kmask >> l) != 0))
        l++;
    G->blk = l < G->nlev - 1 && G->nlev - l <= GEN_BLOCK_MAX ? l : 0;
    plan_cube_block(G);
}

static int coarse_sweeps(void);

/* The coarsest level's solve (coarse_solve: from zero, coarse_sweeps() symmetric sweeps)
 * is linear in its right-hand side, so set_operator stores it as a matrix (coarse_matrix:
 * the sweeps of each unit vector, one block a column) and a cycle applies it in one
 * mat-vec (coarse_apply): the same preconditioner to rounding.  On the H100 the 40
 * sweeps of the 8 x 8 level were ~24 us a launch, latency-bound, twice a smoke-demo
 * cycle.  A coarsest level of more than GEN_COARSE_MATRIX_CELLS cells (the level
 * count's cap) keeps the sweeps. */

static homg_status gen_create(homg_grid *g)
{
    const homg_grid_desc *d = &g->desc;
    grid_general *G;
    int dims[HOMG_GEN_MAX_LEVELS][3];
    const size_t n = (size_t)d->nx * d->ny * d->nz;
    G = (grid_general *)calloc(1, sizeof *G);
    if (!G)
        return homg__fail(g->ctx, HOMG_ERROR_OUT_OF_MEMORY, "general multigrid: out of host memory");
    g->gen = G;
    G->k = HOMG_KERNELS(&g->ctx->ex, gen);
    G->dims = homg__grid_dims(d);
    G->nlev = plan_levels(d, dims);
    level_scales(G, dims, d->precision);
    for (int l = 0; l < G->nlev; l++) {
        gen_level *L = &G->lv[l];
        L->nx = dims[l][0];
        L->ny = dims[l][1];
        L->nz = dims[l][2];
        for (int a = 0; a < G->dims; a++)
            L->periodic[a] = d->bc[2 * a] == HOMG_BC_PERIODIC;
        for (int a = 0; a < 3; a++) /* the last aggregate's width (an odd axis above: wider) */
            L->last[a] = l > 0 ? gen_coarse_last(&G->lv[l - 1], L, a) : 1.0;
        if (l > 0) {
            HOMG_TRY(homg__alloc(g->ctx, cells(L) * g->elem, &G->x[l], "multigrid level"));
            HOMG_TRY(homg__alloc(g->ctx, cells(L) * g->elem, &G->b[l], "multigrid level"));
        }
    }
    if (cells(&G->lv[G->nlev - 1]) <= GEN_COARSE_MATRIX_CELLS)
        HOMG_TRY(homg__alloc(g->ctx, cells(&G->lv[G->nlev - 1]) * cells(&G->lv[G->nlev - 1]) * g->elem, &G->cm,
                             "coarsest level's matrix"));
    /* r and z are the island labelling's int scratch too (find_islands): 4 bytes a cell at least */
    HOMG_TRY(homg__alloc(g->ctx, n * (g->elem < sizeof(int) ? sizeof(int) : g->elem), &G->r, "multigrid work vector"));
    HOMG_TRY(homg__alloc(g->ctx, n * (g->elem < sizeof(int) ? sizeof(int) : g->elem), &G->z, "multigrid work vector"));
    HOMG_TRY(homg__alloc(g->ctx, n * g->elem, &G->p, "multigrid work vector"));
    HOMG_TRY(homg__alloc(g->ctx, n * g->elem, &G->q, "multigrid work vector"));
    HOMG_TRY(homg__alloc(g->ctx, GEN_NSCALARS * sizeof(double), (void **)&G->s, "multigrid scalars"));
    G->F.h = d->h;
    for (int s = 0; s < 6; s++)
        G->F.kind[s] = s < 2 * G->dims ? (int)d->bc[s] : HOMG_BC_PERIODIC; /* 2D: no z sides */
    return HOMG_OK;
}

static void lane_free(homg_grid *g, gen_lane *a)
{
    void *v[] = { a->r, a->z, a->p, a->q, a->s, a->sums, a->hist, a->count, a->kw };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        homg__free(g->ctx, v[i]);
    for (int l = 0; l < HOMG_GEN_MAX_LEVELS; l++) {
        homg__free(g->ctx, a->x[l]);
        homg__free(g->ctx, a->b[l]);
        homg__free(g->ctx, a->kz[l]);
        homg__free(g->ctx, a->kq[l]);
    }
    memset(a, 0, sizeof *a);
}

void homg__gen_free(homg_grid *g)
{
    grid_general *G = g->gen;
    if (!G)
        return;
    for (int l = 0; l < G->nlev; l++) {
        gen_level *L = &G->mem[l];
        homg__free(g->ctx, L->gx);
        homg__free(g->ctx, L->gy);
        homg__free(g->ctx, L->gz);
        homg__free(g->ctx, L->self);
        homg__free(g->ctx, L->lam);
        homg__free(g->ctx, L->flag);
        homg__free(g->ctx, G->x[l]);
        homg__free(g->ctx, G->b[l]);
        homg__free(g->ctx, G->kz[l]);
        homg__free(g->ctx, G->kq[l]);
    }
    homg__free(g->ctx, G->r);
    homg__free(g->ctx, G->z);
    homg__free(g->ctx, G->p);
    homg__free(g->ctx, G->q);
    homg__free(g->ctx, G->sig);
    homg__free(g->ctx, G->cm);
    homg__free(g->ctx, G->xt);
    homg__free(g->ctx, G->s);
    homg__free(g->ctx, G->kw);
    homg__grid_islands_free(g, &G->isl);
    for (int i = 1; i < HOMG_EXEC_LANES; i++)
        lane_free(g, &G->lane[i]);
    free(G);
    g->gen = NULL;
}

/* ------------------------------------------------------------ the operator */

/* A value as the grid's precision stores it. */
static double stored(const homg_grid *g, double x) { return g->desc.precision == HOMG_FLOAT64 ? x : (double)(float)x; }

/* The finest level's constants when sigma and lambda are constant. */
static void uniform_fine(homg_grid *g, gen_level *L, const homg_grid_operator *op)
{
    const double h2 = g->desc.h * g->desc.h;
    for (int a = 0; a < 3; a++)
        L->g0[a] = stored(g, gen_harmonic(op->sigma, op->sigma) / h2);
    for (int s = 0; s < 6; s++)
        L->wall[s] = g->gen->F.kind[s] == HOMG_BC_DIRICHLET && (s < 4 || L->nz > 1) ? 2.0 * op->sigma / h2 : 0.0;
    L->lam0 = op->lambda; /* rounded where used, after the walls are added (as setup_fine does) */
}

/* Builds every level on the device from the operator: the finest stores no
 * coefficients when sigma and lambda are constant, coarse levels of a uniform
 * flag-free level none where they are uniform too (gen_kernels.h). */
/* The schedule's switches from the environment, read once per operator (the benchmark and
 * tests/test_cube.c time and check against them; the library documents no such variable):
 * HOMG_GEN_CUBE=0 the gen kernels on cube levels, HOMG_CUBE_PLAIN=0 CG around the cycle on
 * the plain box, HOMG_CUBE_F1=0/1 its first cycle a V- / F-cycle (unset: by the method);
 * the plain cycles' cube levels: HOMG_CUBE_OMEGA=w their SOR weight (default
 * HOMG_CUBE_OMEGA_DEFAULT), HOMG_CUBE_SYM=1 the way up from colour 1 (the symmetric order the
 * CG needs; session 7's plain default), HOMG_CUBE_SPLIT=0 the finest level in the natural
 * layout (split_of), HOMG_CUBE_SPLIT1=0 level 1 in the natural layout (split1_of),
 * HOMG_CUBE_FOLD=0 a cold solve's f split by a pass of its own (split_start), HOMG_CUBE_KEEP=0 every
 * plain cycle of a quiet solve also writes u naturally (runs_iterate), HOMG_CUBE_SCHED the plain
 * V-cycles' sweeps (homg__sweep_plan_parse; "0": desc.pre / desc.post on every level, session 10's). */
static void schedule_env(grid_general *G)
{
    const char *c = getenv("HOMG_GEN_CUBE"), *p = getenv("HOMG_CUBE_PLAIN"), *f = getenv("HOMG_CUBE_F1");
    const char *w = getenv("HOMG_CUBE_OMEGA"), *y = getenv("HOMG_CUBE_SYM"), *sp = getenv("HOMG_CUBE_SPLIT");
    const char *s1 = getenv("HOMG_CUBE_SPLIT1"), *fo = getenv("HOMG_CUBE_FOLD"), *ke = getenv("HOMG_CUBE_KEEP");
    G->cube = !(c && !strcmp(c, "0"));
    G->plain = !(p && !strcmp(p, "0"));
    G->plain_f1 = f ? atoi(f) != 0 : -1;
    G->omega = w && atof(w) > 0 && atof(w) < 2 ? (float)atof(w) : HOMG_CUBE_OMEGA_DEFAULT;
    G->sym = y && atoi(y) != 0;
    G->split = !(sp && !strcmp(sp, "0"));
    G->split1 = !(s1 && !strcmp(s1, "0"));
    G->fold = !(fo && !strcmp(fo, "0"));
    G->keep = !(ke && !strcmp(ke, "0"));
    G->planned = homg__sweep_plan_parse(getenv("HOMG_CUBE_SCHED") ? getenv("HOMG_CUBE_SCHED") : HOMG_CUBE_SCHED_DEFAULT,
                                        '1', '9', HOMG_GEN_MAX_LEVELS, G->plan[0][0], G->plan[1][0]);
}

/* Blocks of the cluster that solves a three-launch exact level of at most CUBE_CLUSTER_N a side in
 * one launch instead (cube_cluster.h): HOMG_CUBE_CLUSTER=0 / 8 / 16 (1: 16; 0: cube_sep's three
 * launches; environment, the benchmark times against it, the library documents no such
 * variable), default HOMG_CUBE_CLUSTER_DEFAULT: 0 (H100 2026-11-27, bench/results/h100_cube.md:
 * against session 12's passes the cluster won, 128^3 0.229-0.230 -> 0.220-0.222 ms, "Session 13
 * cube17"; cube16's faster passes took 0.195 in the same hour, "Session 13 cube16"). */
#define HOMG_CUBE_CLUSTER_DEFAULT 0
static int cluster_blocks(void)
{
    const char *e = getenv("HOMG_CUBE_CLUSTER");
    const int v = e ? atoi(e) : HOMG_CUBE_CLUSTER_DEFAULT;
    return v == 8 || v == 16 ? v : v == 1 ? 16 : 0;
}

/* The cluster's tables of level K (cube_cluster_tables) at G->xt + at, and G->xcs where they take
 * it on cluster_blocks() blocks.  HOMG_CUBE_CLUSTER_HALF=0 (environment; the benchmark times
 * against it, the library documents no such variable): full transforms on every axis. */
static homg_status plan_cluster(homg_grid *g, const cube_level *K, size_t at)
{
    grid_general *G = g->gen;
    const int cs = cluster_blocks();
    float *t = (float *)malloc(sizeof(float) * CUBE_CLUSTER_FLOATS);
    homg_status st = HOMG_OK;
    if (!t)
        return homg__fail(g->ctx, HOMG_ERROR_OUT_OF_MEMORY, "exact solve's tables");
    const char *hv = getenv("HOMG_CUBE_CLUSTER_HALF");
    if (cube_cluster_tables(K, !(hv && !strcmp(hv, "0")), t, &G->xc)) {
        G->xc.t = (const float *)G->xt + at;
        if (cube_cluster_fits(&G->xc, cs)) {
            st = g->ctx->mem->copy(&g->ctx->ex, (float *)G->xt + at, t, sizeof(float) * CUBE_CLUSTER_FLOATS, HOMG_H2D);
            G->xcs = st == HOMG_OK ? cs : 0;
        }
    }
    free(t);
    return st;
}

/* plan_exact's level l (K) of more than CUBE_EXACT_N a side: its tables (cube_sep_tables) into
 * G->xt, and G->xl = l where they take it; with cluster_blocks(), the cluster's tables after
 * them (plan_cluster).  HOMG_CUBE_SEP_TW=8 / 16 / 32 / 64 and HOMG_CUBE_SEP_TT=1 / 11 / 21 / 22 /
 * 44 (environment; the benchmark times against them, the library documents no such variables):
 * the CUDA passes' tile and outputs a thread (cube_sep.h). */
static homg_status plan_sep(homg_grid *g, int l, const cube_level *K)
{
    grid_general *G = g->gen;
    float *t = (float *)malloc(sizeof(float) * CUBE_SEP_FLOATS);
    homg_status st = HOMG_OK;
    if (!t)
        return homg__fail(g->ctx, HOMG_ERROR_OUT_OF_MEMORY, "exact solve's tables");
    if (cube_sep_tables(K, t)) {
        const char *tw = getenv("HOMG_CUBE_SEP_TW"), *tt = getenv("HOMG_CUBE_SEP_TT");
        const size_t at = CUBE_SEP_FLOATS + (size_t)HOMG_EXEC_LANES * K->nx * K->ny * K->nz;
        const size_t floats = at + (cluster_blocks() ? CUBE_CLUSTER_FLOATS : 0);
        if (G->xt && G->xtn != floats) {
            homg__free(g->ctx, G->xt);
            G->xt = NULL;
        }
        if (!G->xt) /* the tables, a scratch per lane for the CUDA passes, the cluster's tables (all aligned) */
            st = homg__alloc(g->ctx, sizeof(float) * floats, &G->xt, "exact solve's tables");
        G->xtn = st == HOMG_OK ? floats : 0;
        if (st == HOMG_OK)
            st = g->ctx->mem->copy(&g->ctx->ex, G->xt, t, sizeof(float) * CUBE_SEP_FLOATS, HOMG_H2D);
        G->xp = (cube_sep){ .n = { K->nx, K->ny, K->nz },
                            .lam = K->lam,
                            .t = (const float *)G->xt,
                            .w = (float *)G->xt + CUBE_SEP_FLOATS,
                            .tw = tw ? atoi(tw) : 0,
                            .tt = tt ? atoi(tt) : 0 };
        G->xl = st == HOMG_OK ? l : 0;
        if (st == HOMG_OK && cluster_blocks())
            st = plan_cluster(g, K, at);
    }
    free(t);
    return st;
}

/* The level a plain or preconditioning V-cycle solves exactly instead of cycling on (exact_cycle,
 * kernels/grid/cube_exact.h, cube_sep.h): the first from level 2 down of at most
 * HOMG_CUBE_EXACT_MAX_DEFAULT cells a side, in three launches where it has more than CUBE_EXACT_N
 * (sides multiples of 4; one launch on a cluster where it fits one: cluster_blocks, plan_cluster)
 * and only down to level HOMG_CUBE_SEP_DEEPEST (128^3: 32^3 = level 2,
 * 256^3: level 3; 512^3 keeps the 16^3 level: H100 2026-11-27, bench/results/h100_cube.md
 * "Session 12 cube15"; with cube16's faster passes still: 512^3 9.24 vs 9.30 ms with 32^3, the
 * 64^3 level 0.194 vs 0.195 at 128^3 but 1.316 vs 1.302 at 256^3, "Session 13 cube16") -- or with HOMG_CUBE_EXACT_MAX=m (16..CUBE_SEP_N) the first from level
 * 1 (m 16: 2) down of at most m a side -- when it has levels below it, is a uniform cube level in
 * float32 with no two-pass level at or below it and is not (nearly) singular.
 * HOMG_CUBE_EXACT=0 / 1 (environment; the benchmark times against it, the library documents no
 * such variable) off / on, default HOMG_CUBE_EXACT_DEFAULT (on: H100 2026-11-27,
 * bench/results/h100_cube.md "Session 12 cube13").  With it, and no HOMG_CUBE_SCHED, the plain
 * V-cycles' plan is HOMG_CUBE_SCHED_EXACT. */
#define HOMG_CUBE_EXACT_DEFAULT     1
#define HOMG_CUBE_EXACT_MAX_DEFAULT 32
#define HOMG_CUBE_SEP_DEEPEST       3
static homg_status plan_exact(homg_grid *g)
{
    grid_general *G = g->gen;
    const char *env = getenv("HOMG_CUBE_EXACT"), *ms = getenv("HOMG_CUBE_EXACT_MAX");
    const int me = ms && atoi(ms) >= CUBE_EXACT_N && atoi(ms) <= CUBE_SEP_N ? atoi(ms) : 0;
    const int most = me ? me : HOMG_CUBE_EXACT_MAX_DEFAULT;
    const int deepest = me ? G->nlev : HOMG_CUBE_SEP_DEEPEST; /* a three-launch level no lower than this */
    cube_level K;
    G->xl = 0;
    G->xp.t = NULL;
    G->xcs = 0;
    if (!(env ? atoi(env) != 0 : HOMG_CUBE_EXACT_DEFAULT) || !G->cube || g->desc.precision != HOMG_FLOAT32)
        return HOMG_OK;
    for (int l = me > CUBE_EXACT_N ? 1 : 2; l + 1 < G->nlev; l++) {
        const gen_level *L = &G->lv[l];
        const int one_block = L->nx <= CUBE_EXACT_N && L->ny <= CUBE_EXACT_N && L->nz <= CUBE_EXACT_N;
        if (L->nx > most || L->ny > most || L->nz > most || (!one_block && l > deepest))
            continue;
        if ((G->kmask >> l) != 0 || !cube_from_gen(L, &K))
            break;
        if (one_block) {
            G->xl = cube_exact_of(&K, &G->xe) ? l : 0;
        } else
            HOMG_TRY(plan_sep(g, l, &K));
        break;
    }
    if (G->xl > 0 && !getenv("HOMG_CUBE_SCHED"))
        G->planned =
            homg__sweep_plan_parse(HOMG_CUBE_SCHED_EXACT, '1', '9', HOMG_GEN_MAX_LEVELS, G->plan[0][0], G->plan[1][0]);
    return HOMG_OK;
}

static homg_status build_levels(homg_grid *g, const homg_grid_operator *op)
{
    grid_general *G = g->gen;
    kernel_exec *ex = &g->ctx->ex;
    const size_t n = cells(&G->lv[0]);
    /* HOMG_GEN_STORED=1: store every level (the benchmark times uniform levels against
     * it; the library documents no such variable) */
    const char *env = getenv("HOMG_GEN_STORED");
    const int uniform = !op->sigma_cell && !op->lambda_cell && !(env && atoi(env));
    G->F.sigma = op->sigma;
    G->F.sigma_cell = NULL;
    if (op->sigma_cell) {
        if (!G->sig)
            HOMG_TRY(homg__alloc(g->ctx, n * g->elem, &G->sig, "sigma copy"));
        GQ(g, g->ctx->mem->copy(ex, G->sig, op->sigma_cell, n * g->elem, HOMG_D2D), "copying sigma");
        G->F.sigma_cell = G->sig;
    }
    schedule_env(G);
    HOMG_TRY(plan_two_pass(g, op));
    plan_block(G);
    HOMG_TRY(level_arrays(g, 0, !uniform, op->flags != NULL));
    if (uniform)
        uniform_fine(g, &G->lv[0], op);
    if (!uniform || op->flags)
        GQ(g, G->k->setup_fine(ex, g->desc.precision, &G->lv[0], &G->F, op->lambda_cell, op->lambda, op->flags),
           "finest level");
    for (int l = 1; l < G->nlev; l++) {
        const gen_level *L = &G->lv[l - 1];
        if (gen_uniform_coarse(L, &G->lv[l], g->desc.precision == HOMG_FLOAT64)) {
            HOMG_TRY(level_arrays(g, l, 0, 0));
            continue;
        }
        HOMG_TRY(level_arrays(g, l, 1, L->flag != NULL));
        GQ(g, G->k->coarsen(ex, g->desc.precision, L, &G->lv[l]), "coarsening");
    }
    if (G->cm)
        GQ(g, G->k->coarse_matrix(ex, g->desc.precision, &G->lv[G->nlev - 1], coarse_sweeps(), G->cm),
           "the coarsest level's matrix");
    return plan_exact(g);
}

/* The singular islands (lib/grid/islands.c), labelled on the device; r and z
 * (at least n ints each) are free between solves. */
static homg_status find_islands(homg_grid *g, const homg_grid_operator *op)
{
    return homg__grid_islands(g, op, &g->gen->isl, g->gen->r, g->gen->z);
}

/* What a captured step holds by value (kernel arguments): the levels, the finest
 * level's constants, the islands' count and arrays, and which steps it has (the
 * two-pass and block levels).  New coefficients in the
 * same arrays change none of it, so the graphs stay (a new operator per frame,
 * e.g. a clone dragged across the destination's border, does not re-capture). */
typedef struct gen_captured {
    gen_level lv[HOMG_GEN_MAX_LEVELS];
    gen_fine F;
    grid_islands isl;
    unsigned kmask; /* the two-pass levels (a jump or SOLID cells appearing or gone) */
    int blk;
    int cube, plain, plain_f1, sym; /* the schedule (schedule_env) */
    float omega;
} gen_captured;

static void captured(const grid_general *G, gen_captured *c)
{
    memset(c, 0, sizeof *c);
    memcpy(c->lv, G->lv, sizeof c->lv);
    memcpy(&c->F, &G->F, sizeof c->F);
    memcpy(&c->isl, &G->isl, sizeof c->isl);
    c->kmask = G->kmask;
    c->blk = G->blk;
    c->cube = G->cube;
    c->plain = G->plain;
    c->plain_f1 = G->plain_f1;
    c->sym = G->sym;
    c->omega = G->omega;
}

homg_status homg__gen_set_operator(homg_grid *g, const homg_grid_operator *op)
{
    gen_captured before, after;
    homg_status st;
    HOMG_TRY(homg__gen_prepare(g));
    captured(g->gen, &before);
    st = build_levels(g, op);
    if (st == HOMG_OK)
        st = find_islands(g, op);
    captured(g->gen, &after);
    if (st != HOMG_OK || memcmp(&before, &after, sizeof before))
        homg__grid_graphs_drop(g); /* the islands and the sigma copy change what a step launches */
    return st;
}

homg_status homg__gen_prepare(homg_grid *g)
{
    homg_grid_operator op;
    if (g->gen)
        return HOMG_OK;
    HOMG_TRY(gen_create(g));
    /* the constant operator until set_operator gives another */
    memset(&op, 0, sizeof op);
    op.sigma = g->sigma;
    op.lambda = g->lambda;
    HOMG_TRY(build_levels(g, &op));
    return find_islands(g, &op);
}

/* ------------------------------------------------------------ cycles */

typedef struct gen_cycle {
    homg_grid *g;
    const homg_solve_desc *sd;
    void *xs[HOMG_GEN_MAX_LEVELS];
    const void *bs[HOMG_GEN_MAX_LEVELS];
    int plain;       /* a plain cycle (plain_cycle): SOR and the way up from colour 0 on cube levels */
    float *su, *sf;  /* level 0's u and f split by colour (split_of), or NULL: the natural xs[0], bs[0] */
    int split1;      /* level 1's own x and b hold its values split by colour (split1_of) */
    const float *fn; /* not NULL: level 0's pass from zero splits f from here into sf (split_start) */
    int keep;        /* split: u stays split (a quiet solve's cycle before its last): no natural copy */
    float *nat;      /* split: the last half-sweep also writes u here, naturally (correct_and_sweep) */
    int nat_done;    /* it did */
    int planned;     /* its sweeps from G->plan (plain_cycle, cycle_sweeps) */
    int later;       /* not the solve's first cycle (plan's second row) */
} gen_cycle;

/* A cycle on level 0's (x0, b0), the coarse levels on the grid's own x and b. */
static void cycle_start(gen_cycle *c, homg_grid *g, void *x0, const void *b0)
{
    const grid_general *G = g->gen;
    memset(c, 0, sizeof *c);
    c->g = g;
    c->xs[0] = x0;
    c->bs[0] = b0;
    for (int l = 1; l < G->nlev; l++) {
        c->xs[l] = G->x[l];
        c->bs[l] = G->b[l];
    }
}

static double share(const grid_general *G, int l) { return (double)cells(&G->lv[l]) / (double)cells(&G->lv[0]); }

/* ---- the uniform 3D levels' fast path (kernels/grid/cube*, cube_kernels.h) ---- */

/* Whether level l (with x and b) runs the cube kernels, and then K: float32, a cube
 * level, 16-byte aligned arrays.  HOMG_GEN_CUBE=0 turns them off (the benchmark times
 * against it; the library documents no such variable). */
static int cube_of(const homg_grid *g, int l, const void *x, const void *b, cube_level *K)
{
    return g->gen->cube && g->desc.precision == HOMG_FLOAT32 && !((size_t)x % 16) && !((size_t)b % 16) &&
           cube_from_gen(&g->gen->lv[l], K);
}

/* cube_of for the cycle's level l: in a plain cycle with the plain cycles' SOR weight. */
static int cube_at(const gen_cycle *c, int l, cube_level *K)
{
    if (!cube_of(c->g, l, c->xs[l], c->bs[l], K))
        return 0;
    if (c->plain)
        K->omega = c->g->gen->omega;
    return 1;
}

/* Whether the cycle keeps level l split by colour, and then its u and f there: level 0's in
 * su, sf (the natural xs[0], bs[0] are the caller's), level 1's in its own xs[1], bs[1]. */
static int split_at(const gen_cycle *c, int l, float **u, float **f)
{
    if (!(l == 0 && c->su) && !(l == 1 && c->split1))
        return 0;
    *u = l ? (float *)c->xs[1] : c->su;
    *f = l ? (float *)c->bs[1] : c->sf;
    return 1;
}

/* n symmetric sweeps as half-sweep launches, the first `skip` half-sweeps done already.
 * skip 1 (after a fused prolongation, whose other colour kept the uncorrected u): the
 * next half-sweep Gauss-Seidel even in SOR (which would read that stale own value; the
 * error after 3 plain cycles at 128^3: 6.9e-5, against 6.0e-5 with exact SOR and 1e-1
 * with the stale one, bench/results/cpu_cube_schedules.md). */
static homg_status cube_sweeps(gen_cycle *c, int l, const cube_level *K, int n, int reverse, int skip)
{
    homg_grid *g = c->g;
    const cube_kernels *ck = HOMG_KERNELS(&g->ctx->ex, cube);
    const double nl = (double)cells(&g->gen->lv[l]), share_l = nl / (double)cells(&g->gen->lv[0]);
    double values = 0; /* the info's traffic */
    cube_level gs = *K;
    float *su = NULL, *sf = NULL;
    const int split = split_at(c, l, &su, &sf);
    gs.omega = 1.0f;
    for (int h = skip; h < 2 * n; h++) {
        const cube_level *Kh = skip == 1 && h == 1 ? &gs : K;
        if (split) { /* half of each array; Gauss-Seidel does not read its own u */
            float *nat = h == 2 * n - 1 && l == 0 ? c->nat : NULL;
            GQ(g, HOMG_KERNELS(&g->ctx->ex, cubesplit)->sweep(&g->ctx->ex, Kh, su, sf, (h + reverse) & 1, nat),
               "smoothing");
            c->nat_done |= nat != NULL;
            values += (Kh->omega != 1.0f ? 2.0 : 1.5) * nl + (nat ? nl : 0.0);
        } else {
            GQ(g, ck->sweep(&g->ctx->ex, Kh, (float *)c->xs[l], (const float *)c->bs[l], (h + reverse) & 1),
               "smoothing");
            values += 3.0 * nl; /* u read, f read, u written */
        }
    }
    if (2 * n > skip)
        homg__account(g, 2L * n - skip, (2 * n - skip) * 0.5 * share_l, values);
    return HOMG_OK;
}

/* Level l's residual restricted to level l + 1's rhs: cube kernels where level l is a cube level. */
static homg_status residual_restrict(gen_cycle *c, int l)
{
    homg_grid *g = c->g;
    grid_general *G = g->gen;
    cube_level K;
    float *su, *sf;
    if (split_at(c, l, &su, &sf) && cube_of(g, l, c->xs[l], c->bs[l], &K)) /* level 1's b split too: cs */
        return HOMG_KERNELS(&g->ctx->ex, cubesplit)
            ->residual_restrict(&g->ctx->ex, &K, su, sf, (float *)G->b[l + 1], l == 0 && c->split1);
    if (cube_of(g, l, c->xs[l], c->bs[l], &K) && !((size_t)G->b[l + 1] % 8))
        return HOMG_KERNELS(&g->ctx->ex, cube)
            ->residual_restrict(&g->ctx->ex, &K, (const float *)c->xs[l], (const float *)c->bs[l],
                                (float *)G->b[l + 1]);
    return G->k->residual_restrict(&g->ctx->ex, g->desc.precision, &G->lv[l], &G->lv[l + 1], c->xs[l], c->bs[l],
                                   G->b[l + 1]);
}

/* q = A_l x, *xq += x.q: cube kernels where level l is a cube level. */
static homg_status apply_level(homg_grid *g, int l, const void *x, void *q, double *xq)
{
    grid_general *G = g->gen;
    cube_level K;
    if (cube_of(g, l, x, q, &K))
        return HOMG_KERNELS(&g->ctx->ex, cube)->apply(&g->ctx->ex, &K, (const float *)x, (float *)q, xq);
    return G->k->apply(&g->ctx->ex, g->desc.precision, &G->lv[l], x, q, xq);
}

/* r = f + face terms - A_0 u (u NULL: 0), *rr += r.r: the cube kernel (in double, like
 * gen's) where the finest level is a cube level and the sides carry no data. */
static homg_status residual_fine(homg_grid *g, const void *u, const void *f, void *r, double *rr)
{
    grid_general *G = g->gen;
    cube_level K;
    int faces = G->F.sigma_cell != NULL;
    for (int s = 0; s < 6; s++)
        faces |= G->F.face[s] != NULL;
    if (!faces && !((size_t)u % 16) && cube_of(g, 0, f, r, &K))
        return HOMG_KERNELS(&g->ctx->ex, cube)
            ->residual(&g->ctx->ex, &K, (const float *)u, (const float *)f, (float *)r, rr);
    return G->k->residual(&g->ctx->ex, g->desc.precision, &G->lv[0], &G->F, u, f, r, rr);
}

/* n symmetric sweeps (reverse: colour 1 first), from the second half-sweep on
 * when the first was fused into the launch before (skip; 2 on a cube level after
 * cube_pre: the first two). */
static homg_status sweeps(gen_cycle *c, int l, int n, int reverse, int skip)
{
    homg_grid *g = c->g;
    grid_general *G = g->gen;
    cube_level K;
    if (cube_at(c, l, &K))
        return cube_sweeps(c, l, &K, n, reverse, skip);
    GQ(g, G->k->sweeps(&g->ctx->ex, g->desc.precision, &G->lv[l], c->xs[l], c->bs[l], n, reverse, skip), "smoothing");
    homg__account(g, 2L * n - (n > 0 && skip), n * share(G, l), 4.0 * n * cells(&G->lv[l]));
    return HOMG_OK;
}

/* n sweeps from colour 0 (the first `skip` half-sweeps done), then level l's residual
 * restricted.  (s6-cube2's sweep_restrict and pre3 kernels, which fused the last
 * half-sweep with the restriction and the first three half-sweeps from zero, were
 * slower on the H100 -- 160 and 472 us at 256^3 against 128 and 161 for the launches
 * they replace, bench/results/h100_cube.md -- and are gone.) */
static homg_status sweeps_restrict(gen_cycle *c, int l, int n, int skip)
{
    homg_grid *g = c->g;
    grid_general *G = g->gen;
    HOMG_TRY(sweeps(c, l, n, 0, skip));
    GQ(g, residual_restrict(c, l), "residual and restriction");
    homg__account(g, 1, share(G, l), 2.0 * cells(&G->lv[l]) + cells(&G->lv[l + 1]));
    return HOMG_OK;
}

static homg_status two_pass_rest(gen_cycle *c, int l);

/* Whether prolongation and the first half-sweep from zero run fused (HOMG_GEN_NOFUSE=1:
 * separate launches, which the benchmark times against; the library documents no such
 * variable). */
static int fused(void)
{
    const char *env = getenv("HOMG_GEN_NOFUSE");
    return !(env && atoi(env));
}

/* x_l = x_l + the coarse correction, then n symmetric sweeps from colour 1 (a plain
 * cycle's cube level: from colour 0, the order of the way down -- the error after 3
 * cycles of V(2,2) with SOR 1.1 from zero: 6.0e-5 against 6.9e-4 symmetric, GS, at 128^3,
 * tools/dev/cube_schedules.c, bench/results/cpu_cube_schedules.md): with n >= 1 the
 * prolongation and the first half-sweep are one pass (prolong_smooth). */
static homg_status correct_and_sweep(gen_cycle *c, int l, int n)
{
    homg_grid *g = c->g;
    grid_general *G = g->gen;
    kernel_exec *ex = &g->ctx->ex;
    const homg_precision p = g->desc.precision;
    const int fuse = n > 0 && fused();
    cube_level K;
    const int cube = cube_at(c, l, &K), fast = fuse && cube && !((size_t)G->x[l + 1] % 8);
    const int first = (fast || !fuse) && cube && c->plain && !G->sym ? 0 : 1; /* the way up's first colour */
    homg_status st;
    float *su, *sf;
    if (fast && split_at(c, l, &su, &sf)) /* level 1's x split too: cs */
        GQ(g,
           HOMG_KERNELS(ex, cubesplit)
               ->prolong_smooth(ex, &K, (const float *)G->x[l + 1], su, sf, first, l == 0 && c->split1),
           "prolongation");
    else if (fast)
        GQ(g,
           HOMG_KERNELS(ex, cube)->prolong_smooth(ex, &K, (const float *)G->x[l + 1], (float *)c->xs[l],
                                                  (const float *)c->bs[l], first),
           "prolongation");
    else if (fuse)
        GQ(g, G->k->prolong_smooth(ex, p, &G->lv[l], &G->lv[l + 1], G->x[l + 1], c->xs[l], c->bs[l]), "prolongation");
    else
        GQ(g, G->k->prolong_add(ex, p, &G->lv[l], &G->lv[l + 1], G->x[l + 1], c->xs[l]), "prolongation");
    homg__account(g, 1, share(G, l), 2.0 * cells(&G->lv[l]));
    c->nat = l == 0 && c->su && !c->keep ? (float *)c->xs[0] : NULL; /* the cycle's last half-sweep writes u */
    st = sweeps(c, l, n, first, fuse);
    c->nat = NULL;
    return st;
}

/* The coarsest level's sweeps: HOMG_GEN_COARSE_SWEEPS, or HOMG_GEN_COARSE_SWEEPS=n
 * from the environment (the benchmark times against it; the library documents no
 * such variable).  20 where the level is <= 8 cells a side (s5-gen2) saved 24 us a
 * smoke frame but cost the 2048^2 per-cell-sigma solve a cycle (factor 0.037 ->
 * 0.064: 3 -> 4 cycles, 2.20 -> 2.88 ms) and the 256^3 warm Neumann projection one
 * (H100, 2026-11-26 16:30, bench/results/h100_grid_general.md): 40 everywhere. */
static int coarse_sweeps(void)
{
    static int env = -1;
    if (env < 0) {
        const char *e = getenv("HOMG_GEN_COARSE_SWEEPS");
        env = e && atoi(e) > 0 ? atoi(e) : 0;
    }
    return env ? env : HOMG_GEN_COARSE_SWEEPS;
}

/* Level l's sweeps on the way down (post = 0) or up: desc.pre / desc.post, or
 * HOMG_GEN_SMALL_SWEEPS=s on the coarse levels of at most HOMG_GEN_SMALL_CELLS=n
 * cells (environment; the benchmark times against it, the library documents no such
 * variable): below 512^2 a level costs a launch per half-sweep, ~4 us each on the
 * H100 whatever its size.  Off by default: V(1,1) on the levels of <= 1024 cells gave
 * the smoke demo 0.959 -> 0.930 ms a frame (3.35 -> 3.49 cycles, H100 2026-11-26,
 * bench/results/h100_gen3_s5.md) but fails test_grid_ref's 1e4 sigma-jump targets. */
static int level_sweeps(const homg_grid *g, int l, int post)
{
    static double most = -1;
    static int small = 0;
    if (most < 0) {
        const char *e = getenv("HOMG_GEN_SMALL_CELLS"), *n = getenv("HOMG_GEN_SMALL_SWEEPS");
        most = e ? atof(e) : 0;
        small = n && atoi(n) > 0 ? atoi(n) : 0;
    }
    if (l > 0 && small > 0 && (double)cells(&g->gen->lv[l]) <= most)
        return small;
    return post ? g->desc.post : g->desc.pre;
}

/* Level l's sweeps in cycle c: the plan's where c is planned (plain_cycle: a plain V-cycle of a
 * V-cycle solve with the default V(2,2); HOMG_CUBE_SCHED, schedule_env; HOMG_GEN_SMALL_SWEEPS does
 * not apply there), else level_sweeps'. */
static int cycle_sweeps(const gen_cycle *c, int l, int post)
{
    return c->planned ? c->g->gen->plan[c->later][l][post] : level_sweeps(c->g, l, post);
}

/* Levels l .. the coarsest of a V-cycle from zero in one launch (block_vcycle: the
 * steps of visit below, same order); accounted as the steps it replaces, one launch. */
static homg_status block_cycle(gen_cycle *c, int l)
{
    homg_grid *g = c->g;
    grid_general *G = g->gen;
    gen_block B;
    double wu = 0, bytes = 0;
    memset(&B, 0, sizeof B);
    B.n = G->nlev - l;
    B.pre = g->desc.pre;
    B.post = g->desc.post;
    B.sweeps = coarse_sweeps();
    for (int q = 0; q < B.n; q++) {
        const int m = l + q;
        const double n = (double)cells(&G->lv[m]);
        B.lv[q] = G->lv[m];
        B.x[q] = c->xs[m];
        B.b[q] = (void *)c->bs[m];
        if (q == B.n - 1) {
            wu += B.sweeps * share(G, m);
            bytes += 2.0 * n;
        } else {
            wu += (B.pre + B.post + 2) * share(G, m);
            bytes += 4.0 * (B.pre + B.post) * n + 4.0 * n + (double)cells(&G->lv[m + 1]);
        }
    }
    GQ(g, G->k->block_vcycle(&g->ctx->ex, g->desc.precision, &B), "coarse levels");
    homg__account(g, 1, wu, bytes);
    return HOMG_OK;
}

/* B: levels l .. the coarsest as the cube block (kernels/grid/cube_coarse.h) runs them, when
 * it can: fused steps, every level above the coarsest a cube level (cube_at) with sweeps
 * both ways, the coarsest solved by its matrix, the shared memory there on CUDA. */
static int cube_block_of(gen_cycle *c, int l, cube_block *B)
{
    homg_grid *g = c->g;
    grid_general *G = g->gen;
    const gen_level *C = &G->lv[G->nlev - 1];
    memset(B, 0, sizeof *B);
    if (!fused() || !G->cm || C->flag || !C->uniform)
        return 0;
    B->n = G->nlev - l;
    B->first = c->plain && !G->sym ? 0 : 1; /* correct_and_sweep's */
    B->coarsest = *C;
    B->cm = (const float *)G->cm;
    for (int q = 0; q < B->n; q++) {
        B->x[q] = (float *)c->xs[l + q];
        B->b[q] = (float *)c->bs[l + q];
    }
    for (int q = 0; q + 1 < B->n; q++) {
        B->pre[q] = cycle_sweeps(c, l + q, 0);
        B->post[q] = cycle_sweeps(c, l + q, 1);
        if (!cube_at(c, l + q, &B->K[q]) || (size_t)B->x[q + 1] % 8 || (size_t)B->b[q + 1] % 8 || B->pre[q] < 1 ||
            B->post[q] < 1)
            return 0;
    }
    return g->ctx->ex.backend != HOMG_BACKEND_CUDA ||
           cube_block_floats(B) * sizeof(float) <= g->ctx->ex.shared_per_block;
}

/* Levels l .. the coarsest of a V-cycle from zero in one launch (the cube block: the
 * steps of visit below on those levels, same order); accounted as the steps it replaces'
 * work, one launch and its own global traffic (b_l, x_l and the matrix). */
static homg_status cube_block_cycle(gen_cycle *c, int l, const cube_block *B)
{
    homg_grid *g = c->g;
    grid_general *G = g->gen;
    const double nc = (double)cells(&G->lv[G->nlev - 1]);
    double wu = share(G, G->nlev - 1);
    for (int q = 0; q + 1 < B->n; q++)
        wu += (B->pre[q] + B->post[q] + 2) * share(G, l + q);
    GQ(g, HOMG_KERNELS(&g->ctx->ex, cubeblk)->vcycle(&g->ctx->ex, B), "coarse levels");
    homg__account(g, 1, wu, 2.0 * cells(&G->lv[l]) + nc * nc);
    return HOMG_OK;
}

/* x_l = A_l^-1 b_l (plan_exact's level) in one launch (cube_exact.h; cube_cluster.h where
 * G->xcs) or three (cube_sep.h), in place of the V-cycle from level l down; accounted as those
 * launches reading b_l and writing x_l (and the scratch). */
static homg_status exact_cycle(gen_cycle *c, int l)
{
    homg_grid *g = c->g;
    grid_general *G = g->gen;
    if (G->xcs)
        GQ(g,
           HOMG_KERNELS(&g->ctx->ex, cubeclu)
               ->solve(&g->ctx->ex, &G->xc, G->xcs, (float *)c->xs[l], (const float *)c->bs[l]),
           "exact coarse solve");
    else if (G->xp.t) {
        cube_sep P = G->xp; /* the selected lane's scratch: lanes run side by side */
        P.w += (size_t)G->cur * P.n[0] * P.n[1] * P.n[2];
        GQ(g, HOMG_KERNELS(&g->ctx->ex, cubesep)->solve(&g->ctx->ex, &P, (float *)c->xs[l], (const float *)c->bs[l]),
           "exact coarse solve");
    } else
        GQ(g,
           HOMG_KERNELS(&g->ctx->ex, cubeexact)->solve(&g->ctx->ex, &G->xe, (float *)c->xs[l], (const float *)c->bs[l]),
           "exact coarse solve");
    homg__account(g, G->xp.t && !G->xcs ? 3 : 1, 6.0 * share(G, l),
                  (G->xp.t && !G->xcs ? 6.0 : 2.0) * cells(&G->lv[l]));
    return HOMG_OK;
}

/* x_l improves A_l x_l = b_l from x_l = 0 (zero; else from x_l) by one V- or F-cycle. */
static homg_status visit(gen_cycle *c, int l, int fcycle, int zero)
{
    homg_grid *g = c->g;
    grid_general *G = g->gen;
    kernel_exec *ex = &g->ctx->ex;
    const homg_precision p = g->desc.precision;
    const int pre = cycle_sweeps(c, l, 0), from_zero = zero && pre > 0 && fused();
    cube_level K;
    int done = from_zero; /* half-sweeps done by the launch from zero */
    cube_block B;
    float *su, *sf;
    if (G->xl > 0 && l == G->xl && zero && !fcycle)
        return exact_cycle(c, l);
    if (G->blk > 0 && l == G->blk && zero && !fcycle)
        return block_cycle(c, l);
    if (G->cblk > 0 && l == G->cblk && zero && !fcycle && cube_block_of(c, l, &B))
        return cube_block_cycle(c, l, &B);
    if (l == G->nlev - 1 && G->cm) { /* the same map as coarse_solve's sweeps, one mat-vec */
        GQ(g, G->k->coarse_apply(ex, p, &G->lv[l], G->cm, c->xs[l], c->bs[l]), "coarse solve");
        homg__account(g, 1, share(G, l), (cells(&G->lv[l]) + 2.0) * cells(&G->lv[l]));
        return HOMG_OK;
    }
    if (l == G->nlev - 1) { /* coarse_solve starts from zero itself */
        GQ(g, G->k->coarse_solve(ex, p, &G->lv[l], c->xs[l], c->bs[l], coarse_sweeps()), "coarse solve");
        homg__account(g, 1, coarse_sweeps() * share(G, l), 2.0 * cells(&G->lv[l]));
        return HOMG_OK;
    }
    if (from_zero && cube_at(c, l, &K) && split_at(c, l, &su, &sf)) { /* the same, split */
        GQ(g, HOMG_KERNELS(ex, cubesplit)->pre(ex, &K, su, sf, l ? NULL : c->fn), "smoothing");
        homg__account(g, 1, share(G, l), (l || !c->fn ? 2.0 : 3.0) * cells(&G->lv[l]));
        done = 2;
    } else if (from_zero && cube_at(c, l, &K)) { /* zeroing and the first sweep in one pass */
        GQ(g, HOMG_KERNELS(ex, cube)->pre(ex, &K, (float *)c->xs[l], (const float *)c->bs[l]), "smoothing");
        homg__account(g, 1, share(G, l), 2.0 * cells(&G->lv[l]));
        done = 2;
    } else if (from_zero) { /* zeroing and the first half-sweep in one pass */
        GQ(g, G->k->smooth_from_zero(ex, p, &G->lv[l], c->xs[l], c->bs[l]), "smoothing");
    } else if (zero) {
        GQ(g, g->ctx->mem->zero(ex, c->xs[l], cells(&G->lv[l]) * g->elem), "zeroing a level");
        homg__account(g, 1, 0, (double)cells(&G->lv[l]));
    }
    HOMG_TRY(sweeps_restrict(c, l, pre, done));
    if (G->kmask >> (l + 1) & 1)
        return two_pass_rest(c, l);
    HOMG_TRY(visit(c, l + 1, fcycle, 1));
    if (fcycle) {
        /* the F-cycle's second visit: a V-cycle on the coarse correction's residual */
        HOMG_TRY(correct_and_sweep(c, l, 1));
        HOMG_TRY(sweeps(c, l, 1, 0, 0));
        GQ(g, residual_restrict(c, l), "residual and restriction");
        HOMG_TRY(visit(c, l + 1, 0, 1));
    }
    return correct_and_sweep(c, l, cycle_sweeps(c, l, 1));
}

/* The two-pass coarse solve of the top levels: x_m = a z1 + a z2 with z1 = V(b),
 * z2 = V(b - a A_m z1): a W-cycle at level m with damped passes.  The weight is
 * a = min(0.85, 1.6 z1.b / z1.A z1) (GEN_PASS_*): the fixed 0.85 keeps the
 * preconditioner linear and symmetric, so the outer CG keeps its Krylov
 * acceleration (Notay's K-cycle, whose free CG step per pass lost it on
 * misaligned jumps: factor 0.87 -> 0.97 at 256^2, bench/results/cpu_grid_jump.md);
 * the bound engages only where V over-corrects so much that a fixed weight would
 * make the preconditioner indefinite (an 8-cell checkerboard with two passes on
 * level 1 alone stalled at 0.85 and converges with the bound).  The scalars of
 * level m are the device block kw + m GEN_NSCALARS; b_m ends as b - a A_m z1. */
static homg_status two_pass_solve(gen_cycle *c, int m)
{
    homg_grid *g = c->g;
    grid_general *G = g->gen;
    kernel_exec *ex = &g->ctx->ex;
    const homg_precision p = g->desc.precision;
    const gen_level *L = &G->lv[m];
    const size_t n = cells(L);
    double *s = G->kw + (size_t)m * GEN_NSCALARS;
    void *x = c->xs[m], *b = (void *)c->bs[m];
    c->xs[m] = G->kz[m];
    HOMG_TRY(visit(c, m, 0, 1));
    GQ(g, G->k->dot2(ex, p, n, G->kz[m], b, NULL, s + GEN_RZ), "two-pass weight");
    GQ(g, apply_level(g, m, G->kz[m], G->kq[m], s + GEN_PQ), "two-pass operator");
    GQ(g, G->k->scalars(ex, s, GEN_STEP_PASS, 0, NULL, NULL), "two-pass weight");
    GQ(g, g->ctx->mem->zero(ex, x, n * g->elem), "zeroing a level");
    GQ(g, G->k->update_ur(ex, p, n, L->flag, x, G->kz[m], b, G->kq[m], s), "two-pass update");
    HOMG_TRY(visit(c, m, 0, 1));
    GQ(g, G->k->update_ur(ex, p, n, L->flag, x, G->kz[m], b, G->kq[m], s), "two-pass update");
    c->xs[m] = x;
    homg__account(g, 6, 2 * share(G, m), 15.0 * n);
    return HOMG_OK;
}

/* The rest of visit(l) when level l + 1 takes two passes: solve, prolong, smooth. */
static homg_status two_pass_rest(gen_cycle *c, int l)
{
    HOMG_TRY(two_pass_solve(c, l + 1));
    return correct_and_sweep(c, l, cycle_sweeps(c, l, 1));
}

/* z = M r: one cycle from zero, projected on the singular islands. */
static homg_status precondition(homg_grid *g)
{
    grid_general *G = g->gen;
    gen_cycle c;
    cycle_start(&c, g, G->z, G->r);
    HOMG_TRY(visit(&c, 0, g->desc.method == HOMG_METHOD_FCYCLE || g->desc.method == HOMG_METHOD_FMG, 1));
    return HOMG_OK;
}

/* x -= island means (proj: also record the largest |mean|). */
static homg_status project(homg_grid *g, void *x, double *proj)
{
    grid_general *G = g->gen;
    kernel_exec *ex = &g->ctx->ex;
    const size_t n = cells(&G->lv[0]);
    if (G->isl.n == 0)
        return HOMG_OK;
    GQ(g, g->ctx->mem->zero(ex, G->isl.sums, (size_t)G->isl.n * sizeof(double)), "island sums");
    GQ(g, G->k->island_sum(ex, g->desc.precision, n, G->isl.label, x, G->isl.sums), "island sums");
    GQ(g, G->k->island_sub(ex, g->desc.precision, n, G->isl.label, x, G->isl.sums, G->isl.inv, G->isl.n, proj),
       "island projection");
    homg__account(g, 3, 0, 3.0 * n);
    return HOMG_OK;
}

/* ------------------------------------------------------------ the solve */

typedef struct gen_rhs {
    const void *f;
    void *u;
    const void *u_ref;
    int quiet; /* nothing monitored: tol = 0, no u_ref, desc.no_history */
} gen_rhs;

/* Whether z = M r is projected on the singular islands each cycle: yes, unless
 * HOMG_GEN_PROJECT_Z=0 (the benchmark times against it; the library documents no
 * such variable).  Unprojected, z differs by a constant per island, which in exact
 * arithmetic changes no residual (r and A p are orthogonal to it); in float32 the
 * constant grows in p and u and A p loses its digits to cancellation: the 256^3 warm
 * Neumann projection took 3 cycles instead of 1 (7.3 vs 3.2 ms, H100 2026-11-26
 * 16:30), for 38 us saved a smoke frame. */
static int project_z(void)
{
    static int env = -1;
    if (env < 0) {
        const char *e = getenv("HOMG_GEN_PROJECT_Z");
        env = !(e && !strcmp(e, "0"));
    }
    return env;
}

/* r = projected (f + face terms - A u); p = 0 (a restart). */
static homg_status restart(homg_grid *g, const gen_rhs *x, int first)
{
    grid_general *G = g->gen;
    kernel_exec *ex = &g->ctx->ex;
    const homg_precision pr = g->desc.precision;
    const size_t n = cells(&G->lv[0]);
    GQ(g, residual_fine(g, x->u, x->f, G->r, NULL), "residual");
    HOMG_TRY(project(g, G->r, first ? G->s + GEN_PROJ : NULL));
    GQ(g, g->ctx->mem->zero(ex, G->p, n * g->elem), "restart");
    HOMG_TRY(precondition(g));
    if (project_z())
        HOMG_TRY(project(g, G->z, NULL));
    GQ(g, G->k->dot2(ex, pr, n, G->q, G->z, G->r, G->s + GEN_ZQ), "dot products"); /* q: anything finite */
    GQ(g, G->k->scalars(ex, G->s, GEN_STEP_START, 0, NULL, NULL), "scalars");
    GQ(g, G->k->update_p(ex, pr, n, G->z, G->p, G->s), "search direction");
    homg__account(g, 5, 2, 8.0 * n);
    return HOMG_OK;
}

/* A preconditioned CG iteration in two halves: the update of u and r (its norm
 * recorded in the history unless quiet), then the next search direction.  The last
 * iteration of a solve needs no next direction (one cycle of the
 * preconditioner saved), and a restart makes its own. */
static homg_status iterate_update(homg_grid *g, const gen_rhs *x)
{
    grid_general *G = g->gen;
    kernel_exec *ex = &g->ctx->ex;
    const homg_precision pr = g->desc.precision;
    const size_t n = cells(&G->lv[0]);
    GQ(g, apply_level(g, 0, G->p, G->q, G->s + GEN_PQ), "operator");
    GQ(g, G->k->scalars(ex, G->s, GEN_STEP_ALPHA, 0, NULL, NULL), "scalars");
    GQ(g, G->k->update_ur(ex, pr, n, G->lv[0].flag, x->u, G->p, G->r, G->q, G->s), "update");
    if (x->u_ref)
        GQ(g, G->k->error_norm(ex, pr, n, G->lv[0].flag, x->u, x->u_ref, G->s), "error norm");
    if (!x->quiet)
        GQ(g, G->k->scalars(ex, G->s, GEN_STEP_RECORD, x->u_ref != NULL, G->hist, G->hist_count), "monitor");
    homg__account(g, 3 + !x->quiet + (x->u_ref != NULL), 1, 7.0 * n);
    return HOMG_OK;
}

static homg_status iterate_direction(homg_grid *g, const gen_rhs *x)
{
    grid_general *G = g->gen;
    kernel_exec *ex = &g->ctx->ex;
    const homg_precision pr = g->desc.precision;
    const size_t n = cells(&G->lv[0]);
    HOMG_TRY(precondition(g));
    if (project_z())
        HOMG_TRY(project(g, G->z, NULL));
    GQ(g, G->k->dot2(ex, pr, n, G->q, G->z, G->r, G->s + GEN_ZQ), "dot products");
    GQ(g, G->k->scalars(ex, G->s, GEN_STEP_BETA, 0, NULL, NULL), "scalars");
    GQ(g, G->k->update_p(ex, pr, n, G->z, G->p, G->s), "search direction");
    homg__account(g, 3, 1, 5.0 * n);
    return HOMG_OK;
}

/* ---- plain multigrid on the uniform 3D box (no CG around the cycle) ---- */

/* Whether plain cycles on x keep the finest level split by colour (kernels/grid/cube_split.h:
 * a half-sweep moves 6-8 bytes a cell instead of 12), and then its K: a cube level whose
 * colour rows are float4s, the fused first passes down and up (pre, prolong_smooth), level 1's
 * arrays 16-byte aligned; u split in z and f in p (work vectors plain cycles do not use).
 * HOMG_CUBE_SPLIT=0: the natural layout (schedule_env). */
static int split_of(const homg_grid *g, const gen_rhs *x, cube_level *K)
{
    const grid_general *G = g->gen;
    return G->split && G->nlev > 1 && g->desc.pre > 0 && g->desc.post > 0 && fused() && cube_of(g, 0, x->u, x->f, K) &&
           cube_split_fits(K) && !((size_t)G->x[1] % 16) && !((size_t)G->b[1] % 16);
}

/* Whether a plain cycle whose finest level splits (split_of) keeps level 1 split too, in its
 * own x and b (no other array: the restriction writes b split, the prolongation reads x split,
 * level 1's passes are the split kernels, kernels/grid/cube_split.h's cs): level 1 a cube level
 * that splits, with sweeps both ways, run step by step (not in a block: plan_block), above the
 * coarsest, level 2's arrays 16-byte aligned.  HOMG_CUBE_SPLIT1=0: level 1 natural. */
static int split1_of(const homg_grid *g)
{
    const grid_general *G = g->gen;
    cube_level K;
    return G->split1 && G->nlev > 2 && G->xl != 1 && G->blk != 1 && G->cblk != 1 && level_sweeps(g, 1, 0) > 0 &&
           level_sweeps(g, 1, 1) > 0 && cube_of(g, 1, G->x[1], G->b[1], &K) && cube_split_fits(&K) &&
           !((size_t)G->x[2] % 16) && !((size_t)G->b[2] % 16);
}

/* A plain solve's start where split_of: f split into p (a cold start: by the first cycle's pass
 * from zero, unless HOMG_CUBE_FOLD=0; plain_cycle), and a warm start's u into z. */
static homg_status split_start(homg_grid *g, const gen_rhs *x, int warm)
{
    grid_general *G = g->gen;
    kernel_exec *ex = &g->ctx->ex;
    cube_level K;
    memset(&K, 0, sizeof K);
    if (!split_of(g, x, &K) || (!warm && G->fold))
        return HOMG_OK;
    GQ(g, HOMG_KERNELS(ex, cubesplit)->split(ex, &K, (const float *)x->f, (float *)G->p), "f");
    if (warm)
        GQ(g, HOMG_KERNELS(ex, cubesplit)->split(ex, &K, (const float *)x->u, (float *)G->z), "u");
    homg__account(g, 1 + warm, 0, 2.0 * (1 + warm) * cells(&G->lv[0]));
    return HOMG_OK;
}

/* One plain cycle on u for A u = f (from u = 0 when zero: the cycle's first pass writes
 * every cell), then the monitored norm recorded: the error against u_ref, or the
 * residual (one more pass) relative to ||f||.  desc.method FCYCLE: F-cycles; FMG: the
 * first an F-cycle, then V-cycles (HOMG_CUBE_F1=1 / 0: the first an F- / V-cycle).
 * keep (x quiet, another cycle to follow): where the finest level is split, u stays split
 * there, unwritten (the next cycle reads the split u; nothing reads x->u before the last). */
static homg_status plain_cycle(homg_grid *g, const gen_rhs *x, int zero, int keep)
{
    grid_general *G = g->gen;
    kernel_exec *ex = &g->ctx->ex;
    const homg_precision pr = g->desc.precision;
    const size_t n = cells(&G->lv[0]);
    const int fall = g->desc.method == HOMG_METHOD_FCYCLE;
    const int f1 = G->plain_f1 >= 0 ? G->plain_f1 : fall || g->desc.method == HOMG_METHOD_FMG;
    gen_cycle c;
    cube_level K;
    memset(&K, 0, sizeof K);
    cycle_start(&c, g, x->u, x->f);
    c.plain = 1;
    c.planned = G->planned && !fall && !f1 && g->desc.pre == 2 && g->desc.post == 2 && !G->blk;
    c.later = !zero;
    if (split_of(g, x, &K)) { /* run_start split f (and a warm u) into p (and z) */
        c.su = (float *)G->z;
        c.sf = (float *)G->p;
        c.split1 = split1_of(g);
        c.fn = zero && G->fold ? (const float *)x->f : NULL; /* split_start left f to the pass from zero */
        c.keep = keep;                                       /* runs_iterate asks it of quiet solves only */
    }
    if (zero && !(g->desc.pre > 0 && fused())) /* the cycle's first pass does not write every cell */
        GQ(g, g->ctx->mem->zero(ex, x->u, n * g->elem), "zeroing u");
    HOMG_TRY(visit(&c, 0, zero ? f1 : fall, zero));
    if (c.su && !c.nat_done && !c.keep) {
        GQ(g, HOMG_KERNELS(ex, cubesplit)->unsplit(ex, &K, c.su, (float *)x->u), "u");
        homg__account(g, 1, 0, 2.0 * n);
    }
    if (x->quiet)
        return HOMG_OK;
    if (x->u_ref) {
        GQ(g, G->k->error_norm(ex, pr, n, G->lv[0].flag, x->u, x->u_ref, G->s), "error norm");
    } else {
        GQ(g, g->ctx->mem->zero(ex, G->s + GEN_RR, sizeof(double)), "scalars");
        GQ(g, residual_fine(g, x->u, x->f, G->r, G->s + GEN_RR), "residual");
    }
    GQ(g, G->k->scalars(ex, G->s, GEN_STEP_RECORD, x->u_ref != NULL, G->hist, G->hist_count), "monitor");
    homg__account(g, 2 + (x->u_ref == NULL), 0, 3.0 * n);
    return HOMG_OK;
}

/* Restarts and iteration halves as captured graphs on CUDA (keyed by the arrays). */
enum {
    GEN_SEQ_RESTART_FIRST = 100,
    GEN_SEQ_RESTART,
    GEN_SEQ_UPDATE,
    GEN_SEQ_DIRECTION,
    GEN_SEQ_PLAIN_ZERO,
    GEN_SEQ_PLAIN,
    GEN_SEQ_PLAIN_ZERO_KEEP, /* the two above, u left split (plain_cycle's keep) */
    GEN_SEQ_PLAIN_KEEP,
    GEN_SEQ_LOOP,           /* a tolerance solve's iterations in a device loop (general_loop.c): CG, */
    GEN_SEQ_LOOP_PLAIN,     /* plain cycles, */
    GEN_SEQ_LOOP_PLAIN_ZERO /* plain cycles from u = 0 */
};

typedef struct gen_seq {
    const gen_rhs *x;
    int kind;
} gen_seq;

static homg_status queue_seq(homg_grid *g, void *arg)
{
    const gen_seq *q = (const gen_seq *)arg;
    if (q->kind == GEN_SEQ_UPDATE)
        return iterate_update(g, q->x);
    if (q->kind == GEN_SEQ_DIRECTION)
        return iterate_direction(g, q->x);
    if (q->kind >= GEN_SEQ_PLAIN_ZERO)
        return plain_cycle(g, q->x, q->kind == GEN_SEQ_PLAIN_ZERO || q->kind == GEN_SEQ_PLAIN_ZERO_KEEP,
                           q->kind >= GEN_SEQ_PLAIN_ZERO_KEEP);
    return restart(g, q->x, q->kind == GEN_SEQ_RESTART_FIRST);
}

static homg_status run_seq(homg_grid *g, const gen_rhs *x, int kind)
{
    homg_seq_key key;
    gen_seq q;
    memset(&key, 0, sizeof key);
    key.first_kind = kind;
    key.count = 1;
    key.monitor = x->quiet ? 2 : x->u_ref != NULL; /* none, the residual, the error */
    key.f = x->f;
    key.u = x->u;
    key.u_ref = x->u_ref;
    key.lane = g->gen->cur; /* the lane's arrays it holds */
    memcpy(key.bc, g->gen->F.face, sizeof key.bc);
    q.x = x;
    q.kind = kind;
    return homg__grid_graph_run(g, &key, queue_seq, &q);
}

static homg_status read_hist(homg_grid *g, int count, double *norm)
{
    int at = count <= HOMG_GRID_HIST_MAX ? count - 1 : HOMG_GRID_HIST_MAX - 1;
    HOMG_TRY(homg__read(g->ctx, norm, g->gen->hist + at, sizeof *norm));
    return HOMG_OK;
}

/* ------------------------------------------------------------ lanes */

/* Lane i's arrays where not yet there (lane 0 is the solver's own), island sums
 * for the operator's islands (new ones drop the graphs that held the old). */
static homg_status lane_ready(homg_grid *g, int i)
{
    grid_general *G = g->gen;
    gen_lane *a = &G->lane[i];
    const size_t n = cells(&G->lv[0]), e = g->elem;
    void **v[4] = { &a->r, &a->z, &a->p, &a->q };
    for (int q = 0; q < 4; q++)
        if (!*v[q])
            HOMG_TRY(homg__alloc(g->ctx, n * e, v[q], "work vector of a right-hand side"));
    for (int l = 1; l < G->nlev; l++) {
        if (!a->x[l])
            HOMG_TRY(homg__alloc(g->ctx, cells(&G->lv[l]) * e, &a->x[l], "multigrid level of a right-hand side"));
        if (!a->b[l])
            HOMG_TRY(homg__alloc(g->ctx, cells(&G->lv[l]) * e, &a->b[l], "multigrid level of a right-hand side"));
    }
    HOMG_TRY(two_pass_arrays(g, a->kz, a->kq, &a->kw));
    if (!a->s)
        HOMG_TRY(homg__alloc(g->ctx, GEN_NSCALARS * sizeof(double), (void **)&a->s, "scalars of a right-hand side"));
    if (!a->hist)
        HOMG_TRY(homg__alloc(g->ctx, HOMG_GRID_HIST_MAX * sizeof(double), (void **)&a->hist, "history"));
    if (!a->count)
        HOMG_TRY(homg__alloc(g->ctx, sizeof(int), (void **)&a->count, "history"));
    if (a->nsums < G->isl.n) {
        homg__free(g->ctx, a->sums);
        a->sums = NULL;
        a->nsums = 0;
        homg__grid_graphs_drop(g);
        HOMG_TRY(homg__alloc(g->ctx, (size_t)G->isl.n * sizeof(double), (void **)&a->sums, "island sums"));
        a->nsums = G->isl.n;
    }
    return HOMG_OK;
}

/* Queues what follows on lane i with lane i's arrays. */
static void use_lane(homg_grid *g, int i)
{
    grid_general *G = g->gen;
    const gen_lane *a = &G->lane[i];
    G->r = a->r;
    G->z = a->z;
    G->p = a->p;
    G->q = a->q;
    for (int l = 1; l < G->nlev; l++) {
        G->x[l] = a->x[l];
        G->b[l] = a->b[l];
        G->kz[l] = a->kz[l];
        G->kq[l] = a->kq[l];
    }
    G->kw = a->kw;
    G->s = a->s;
    G->isl.sums = a->sums;
    G->hist = a->hist;
    G->hist_count = a->count;
    G->cur = i;
    if (G->lanes > 1)
        g->ctx->mem->lane(&g->ctx->ex, i);
}

/* How many lanes a solve runs (CUDA, several right-hand sides), with their
 * arrays ready; lane 0 is a snapshot of the solver's own arrays. */
static homg_status lanes_ready(homg_grid *g)
{
    grid_general *G = g->gen;
    gen_lane *a = &G->lane[0];
    /* HOMG_GEN_LANES=1: one right-hand side after another (the benchmark times lanes against
     * it; the library documents no such variable) */
    const char *env = getenv("HOMG_GEN_LANES");
    const int most = env && atoi(env) >= 1 ? atoi(env) : HOMG_EXEC_LANES;
    const int n = g->ctx->ex.backend != HOMG_BACKEND_CUDA ? 1 : g->desc.nrhs < most ? g->desc.nrhs : most;
    a->r = G->r;
    a->z = G->z;
    a->p = G->p;
    a->q = G->q;
    for (int l = 1; l < G->nlev; l++) {
        a->x[l] = G->x[l];
        a->b[l] = G->b[l];
        a->kz[l] = G->kz[l];
        a->kq[l] = G->kq[l];
    }
    a->kw = G->kw;
    a->s = G->s;
    a->sums = G->isl.sums;
    a->hist = g->hist;
    a->count = g->hist_count;
    G->lanes = 1;
    G->cur = 0;
    for (int i = 1; i < n && i < HOMG_EXEC_LANES; i++) {
        HOMG_TRY(lane_ready(g, i));
        G->lanes = i + 1;
    }
    for (int i = 0; i < G->lanes; i++)
        GQ(g, g->ctx->mem->zero(&g->ctx->ex, G->lane[i].count, sizeof(int)), "history");
    return HOMG_OK;
}

int homg__gen_lanes(const homg_grid *g, double **hist, int **count)
{
    const grid_general *G = g->gen;
    if (!G)
        return 0;
    for (int i = 0; i < G->lanes; i++) {
        hist[i] = G->lane[i].hist;
        count[i] = G->lane[i].count;
    }
    return G->lanes;
}

/* ------------------------------------------------------------ the solve */

/* One right-hand side's progress. */
typedef struct gen_run {
    gen_rhs x;
    const void *face[6];
    int count, cycles, converged, active;
    int plain, zero; /* plain cycles (plain_on); u = 0 before the next cycle */
    int restart;     /* a tolerance solve: the next direction is a restart (the test's choice) */
    double norm;
    double proj;      /* s[GEN_PROJ] where read with the test's outcome, else -1 */
    homg_queued body; /* the device loop's body (general_loop.c) */
} gen_run;

/* Whether the solve runs plain cycles: a 3D float32 uniform finest level (the cube
 * kernels' operator: constant sigma and lambda, no flags) with no singular island, no
 * two-pass level and no face data, where the Krylov step buys nothing that a cycle does
 * not (it pays for jumps and obstacles).  HOMG_CUBE_PLAIN=0 keeps CG (the benchmark times
 * against it; the library documents no such variable). */
static int plain_on(const homg_grid *g, const gen_run *r)
{
    const grid_general *G = g->gen;
    cube_level K;
    for (int s = 0; s < 6; s++)
        if (r->face[s])
            return 0;
    return G->plain && G->dims == 3 && G->isl.n == 0 && !G->kmask && !G->F.sigma_cell &&
           g->desc.precision == HOMG_FLOAT32 && cube_from_gen(&G->lv[0], &K);
}

static const void *offset(const void *p, size_t bytes) { return p ? (const char *)p + bytes : NULL; }

/* Selects run i's lane (the batch's i-th) and its boundary faces. */
static void select_run(homg_grid *g, const gen_run *r, int i)
{
    use_lane(g, i);
    memcpy(g->gen->F.face, r->face, sizeof r->face);
}

/* Queues a right-hand side's start: zero scalars, u and the rhs norm, the first restart. */
static homg_status run_start(homg_grid *g, gen_run *r, const homg_solve_desc *sd)
{
    grid_general *G = g->gen;
    kernel_exec *ex = &g->ctx->ex;
    const size_t n = cells(&G->lv[0]);
    GQ(g, g->ctx->mem->zero(ex, G->s, GEN_NSCALARS * sizeof(double)), "scalars");
    r->plain = plain_on(g, r);
    if (!sd->warm_start && !r->plain) /* plain: the first cycle starts from zero itself */
        GQ(g, G->k->zero_active(ex, g->desc.precision, n, G->lv[0].flag, r->x.u), "zeroing u");
    /* ||f + face terms||^2 for the relative residual (plain with a reference or quiet: not needed) */
    if (!r->plain || !(r->x.u_ref || r->x.quiet))
        GQ(g, residual_fine(g, NULL, r->x.f, G->r, G->s + GEN_BB), "rhs norm");
    if (!r->plain)
        HOMG_TRY(run_seq(g, &r->x, GEN_SEQ_RESTART_FIRST));
    else
        HOMG_TRY(split_start(g, &r->x, sd->warm_start));
    r->zero = !sd->warm_start;
    r->converged = 0;
    r->cycles = 0;
    r->active = 1;
    return HOMG_OK;
}

/* Restarts every this many CG iterations (none in plain cycles). */
static int restart_every(const homg_grid *g, const gen_run *r)
{
    if (r->plain)
        return 0;
    return g->desc.precision == HOMG_FLOAT64 ? HOMG_GEN_RESTART_F64 : HOMG_GEN_RESTART_F32;
}

/* A tolerance solve's outcome after its iterations (the last norm, whether converged), or the
 * failure of a norm that is not finite. */
static homg_status outcome(homg_grid *g, gen_run *r, double tol)
{
    if (!isfinite(r->norm))
        return homg__fail(g->ctx, HOMG_ERROR_NUMERIC, "the monitored norm became %g after cycle %d", r->norm,
                          r->cycles);
    r->converged = r->norm <= tol;
    return HOMG_OK;
}

/* The device loop's outcome, read with s[GEN_PROJ] in one read. */
static homg_status read_loop(homg_grid *g, gen_run *r, double tol)
{
    double out[GEN_LOOP_RESTART - GEN_PROJ + 1];
    HOMG_TRY(homg__read(g->ctx, out, g->gen->s + GEN_PROJ, sizeof out));
    r->proj = out[0];
    r->norm = out[GEN_LOOP_NORM - GEN_PROJ];
    r->cycles = (int)out[GEN_LOOP_CYCLES - GEN_PROJ];
    return outcome(g, r, tol);
}

/* The device loop's steps (general_loop.h) for the run in arg. */
static homg_status loop_step(homg_grid *g, void *arg, int step)
{
    const gen_run *r = (const gen_run *)arg;
    if (step == GEN_LOOP_STEP_RESTART)
        return restart(g, &r->x, 0);
    if (step == GEN_LOOP_STEP_DIRECTION)
        return iterate_direction(g, &r->x);
    if (!r->plain)
        return iterate_update(g, &r->x);
    return plain_cycle(g, &r->x, step == GEN_LOOP_STEP_FIRST && r->zero, 0);
}

typedef struct gen_loop_seq {
    gen_run *r;
    gen_loop_spec spec;
} gen_loop_seq;

static homg_status queue_loop(homg_grid *g, void *arg) { return homg__gen_loop_queue(g, &((gen_loop_seq *)arg)->spec); }

/* Runs r's iterations in one graph with a device loop (the selected lane's arrays). */
static homg_status run_loop(homg_grid *g, gen_run *r, const homg_solve_desc *sd, int max_cycles)
{
    grid_general *G = g->gen;
    homg_seq_key key;
    gen_loop_seq q;
    memset(&key, 0, sizeof key);
    memset(&q, 0, sizeof q);
    key.first_kind = !r->plain ? GEN_SEQ_LOOP : r->zero ? GEN_SEQ_LOOP_PLAIN_ZERO : GEN_SEQ_LOOP_PLAIN;
    key.count = restart_every(g, r);
    key.monitor = r->x.u_ref != NULL;
    key.check = max_cycles;
    key.loop = 1;
    key.tol = sd->tol;
    key.f = r->x.f;
    key.u = r->x.u;
    key.u_ref = r->x.u_ref;
    key.lane = G->cur;
    memcpy(key.bc, G->F.face, sizeof key.bc);
    q.r = r;
    q.spec.step = loop_step;
    q.spec.arg = r;
    q.spec.s = G->s;
    q.spec.hist = G->hist;
    q.spec.count = G->hist_count;
    q.spec.tol = sd->tol;
    q.spec.max_cycles = max_cycles;
    q.spec.every = key.count;
    HOMG_TRY(homg__grid_graph_run(g, &key, queue_loop, &q));
    r->body = g->body;
    return HOMG_OK;
}

/* Whether a tolerance solve's iterations run in a device loop: CUDA, unless
 * HOMG_GRID_DEVICE_LOOP=0 (as for the box, lib/grid/box.c) or the driver refused such a
 * graph once. */
/* A tolerance solve's iterations of m right-hand sides, one device loop per lane, every
 * lane's graph launched before the host reads any outcome (one read a lane).  A lane whose
 * graph the driver refuses (and those after it) stays active for the host's loop. */
static homg_status runs_loop(homg_grid *g, gen_run *r, int m, const homg_solve_desc *sd, int max_cycles)
{
    int launched = 0;
    for (; launched < m; launched++) {
        select_run(g, &r[launched], launched);
        if (run_loop(g, &r[launched], sd, max_cycles) != HOMG_OK) {
            if (getenv("HOMG_GRID_LOOP_VERBOSE")) /* why (the tests and benchmark ask; not documented) */
                fprintf(stderr, "homg: general device loop refused: %s\n", homg_ctx_last_error(g->ctx));
            g->no_device_loop = 1; /* e.g. a driver without conditional graph nodes */
            homg__clear_error(g->ctx);
            break;
        }
    }
    for (int i = 0; i < launched; i++) {
        select_run(g, &r[i], i);
        HOMG_TRY(read_loop(g, &r[i], sd->tol));
        r[i].count += r[i].cycles;
        r[i].zero = 0;
        r[i].active = 0;
        g->body = r[i].body;
        homg__gen_loop_account(g, r[i].cycles, restart_every(g, &r[i]));
    }
    return HOMG_OK;
}

/* The iterations of m right-hand sides, one lane each: with a tolerance in a device loop
 * per lane (runs_loop), or on the host: every CG half of an iteration is queued for all
 * lanes before the host waits for any norm (tol > 0), so the lanes overlap on the device;
 * the host's test is the device loop's (gen_loop.h). */
static homg_status runs_iterate(homg_grid *g, gen_run *r, int m, const homg_solve_desc *sd)
{
    const int max_cycles = sd->max_cycles ? sd->max_cycles : 50;
    if (sd->tol > 0 && homg__grid_device_loop(g))
        HOMG_TRY(runs_loop(g, r, m, sd, max_cycles));
    for (int busy = 1; busy;) {
        busy = 0;
        for (int i = 0; i < m; i++)
            if (r[i].active) {
                select_run(g, &r[i], i);
                /* quiet (tol 0): exactly max_cycles, u read after the last alone */
                const int keep = g->gen->keep && r[i].x.quiet && r[i].cycles + 1 < max_cycles;
                HOMG_TRY(run_seq(g, &r[i].x,
                                 !r[i].plain ? GEN_SEQ_UPDATE
                                 : r[i].zero ? (keep ? GEN_SEQ_PLAIN_ZERO_KEEP : GEN_SEQ_PLAIN_ZERO)
                                 : keep      ? GEN_SEQ_PLAIN_KEEP
                                             : GEN_SEQ_PLAIN));
                r[i].zero = 0;
                r[i].cycles++;
                r[i].count++;
            }
        for (int i = 0; i < m; i++)
            if (r[i].active) {
                const int every = restart_every(g, &r[i]);
                r[i].active = r[i].cycles < max_cycles;
                if (sd->tol > 0) {
                    select_run(g, &r[i], i);
                    HOMG_TRY(read_hist(g, r[i].count, &r[i].norm));
                    HOMG_TRY(outcome(g, &r[i], sd->tol));
                    r[i].active = homg_tol_continue(r[i].norm, r[i].cycles, sd->tol, max_cycles);
                }
                r[i].restart = every > 0 && r[i].cycles % every == 0;
            }
        for (int i = 0; i < m; i++)
            if (r[i].active) {
                busy = 1;
                if (r[i].plain)
                    continue;
                select_run(g, &r[i], i); /* the next direction: a restart's, or CG's */
                HOMG_TRY(run_seq(g, &r[i].x, r[i].restart ? GEN_SEQ_RESTART : GEN_SEQ_DIRECTION));
            }
    }
    for (int i = 0; i < m; i++) {
        select_run(g, &r[i], i);
        if (sd->tol == 0 && sd->u_ref)
            HOMG_TRY(read_hist(g, r[i].count, &r[i].norm));
        HOMG_TRY(project(g, r[i].x.u, NULL)); /* mean zero per singular island */
    }
    return HOMG_OK;
}

/* Right-hand sides k0 .. k0+m-1, lane i taking k0+i; the lanes fork from the
 * caller's stream and join back into it (no host synchronisation with tol = 0). */
static homg_status solve_batch(homg_grid *g, const void *f, const homg_boundary *bc, void *u, const homg_solve_desc *sd,
                               int k0, int m, gen_run *r)
{
    const homg_grid_desc *d = &g->desc;
    const size_t n = cells(&g->gen->lv[0]);
    homg_status st = HOMG_OK, st2 = HOMG_OK;
    for (int i = 0; i < m; i++) {
        const size_t k = (size_t)(k0 + i);
        int kept = r[i].count; /* the lane's history so far */
        memset(&r[i], 0, sizeof r[i]);
        r[i].count = kept;
        r[i].norm = -1;
        r[i].proj = -1;
        r[i].x.f = offset(f, k * n * g->elem);
        r[i].x.u = (void *)offset(u, k * n * g->elem);
        r[i].x.u_ref = offset(sd->u_ref, k * n * g->elem);
        r[i].x.quiet = sd->no_history && sd->tol == 0 && !sd->u_ref;
        for (int s = 0; s < 6; s++)
            r[i].face[s] = bc ? offset(bc->face[s], k * homg__face_len(d, s) * g->elem) : NULL;
    }
    if (g->gen->lanes > 1)
        GQ(g, g->ctx->mem->fork(&g->ctx->ex, m), "forking the right-hand sides");
    for (int i = 0; i < m && st == HOMG_OK; i++) {
        select_run(g, &r[i], i);
        st = run_start(g, &r[i], sd);
    }
    if (st == HOMG_OK)
        st = runs_iterate(g, r, m, sd);
    use_lane(g, 0);
    if (g->gen->lanes > 1)
        st2 = g->ctx->mem->join(&g->ctx->ex, m); /* also after a failure: the caller's stream stays whole */
    if (st == HOMG_OK && st2 != HOMG_OK)
        return homg__k_fail(g, st2, "joining the right-hand sides");
    return st;
}

homg_status homg__gen_solve(homg_grid *g, const void *f, const homg_boundary *bc, void *u, const homg_solve_desc *sd,
                            homg_solve_info *info)
{
    grid_general *G = g->gen;
    const homg_grid_desc *d = &g->desc;
    gen_run r[HOMG_EXEC_LANES];
    int all_converged = 1, total = 0, lanes;
    double worst = -1, proj = 0;
    memset(r, 0, sizeof r);
    HOMG_TRY(lanes_ready(g));
    lanes = G->lanes;
    g->hist_lanes = lanes;
    for (int k0 = 0; k0 < d->nrhs; k0 += lanes) {
        const int m = d->nrhs - k0 < lanes ? d->nrhs - k0 : lanes;
        HOMG_TRY(solve_batch(g, f, bc, u, sd, k0, m, r));
        for (int i = 0; i < m; i++) {
            double pk = 0;
            total = r[i].cycles > total ? r[i].cycles : total;
            worst = r[i].norm > worst ? r[i].norm : worst;
            all_converged &= r[i].converged;
            if (r[i].proj >= 0) /* read with the test's outcome */
                pk = r[i].proj;
            else if (G->isl.n > 0 && (sd->tol > 0 || sd->u_ref))
                HOMG_TRY(homg__read(g->ctx, &pk, G->lane[i].s + GEN_PROJ, sizeof pk));
            proj = pk > proj ? pk : proj;
        }
    }
    if (info) {
        info->cycles = total;
        info->norm = worst;
        info->converged = sd->tol > 0 && all_converged;
        info->two_pass = 0;
        for (int m = 0; m < G->nlev; m++)
            info->two_pass += (int)(G->kmask >> m & 1);
        info->projected = G->isl.n > 0 && sd->tol == 0 && !sd->u_ref ? -1 : proj;
    }
    if (sd->tol > 0 && !all_converged)
        return homg__fail(g->ctx, HOMG_ERROR_NOT_CONVERGED, "not converged: norm %.3e > tol %.3e after %d cycles",
                          worst, sd->tol, total);
    return HOMG_OK;
}

homg_status homg__gen_residual(homg_grid *g, const void *f, const homg_boundary *bc, const void *u, void *r)
{
    grid_general *G;
    const homg_grid_desc *d = &g->desc;
    HOMG_TRY(homg__gen_prepare(g));
    G = g->gen;
    for (int k = 0; k < d->nrhs; k++) {
        const size_t n = cells(&G->lv[0]), off = k * n * g->elem;
        for (int s = 0; s < 6; s++)
            G->F.face[s] = bc ? offset(bc->face[s], k * homg__face_len(d, s) * g->elem) : NULL;
        GQ(g,
           G->k->residual(&g->ctx->ex, d->precision, &G->lv[0], &G->F, offset(u, off), offset(f, off), (char *)r + off,
                          NULL),
           "homg_grid_residual");
    }
    return HOMG_OK;
}

/* ------------------------------------------------------------ checks */

homg_status homg__check_operator(homg_grid *g, const homg_grid_operator *op)
{
    static const char *const names[3] = { "op.sigma_cell", "op.lambda_cell", "op.flags" };
    static const char *const what[3] = { "must be finite and > 0", "must be finite and >= 0",
                                         "is not a HOMG_CELL_* value (0 active, 1 fixed, 2 solid)" };
    const gen_kernels *k = HOMG_KERNELS(&g->ctx->ex, gen);
    const homg_grid_desc *d = &g->desc;
    const size_t n = (size_t)d->nx * d->ny * d->nz;
    long long bad[5];
    if (op->sigma_cell)
        HOMG_TRY(homg__check_pointer(g->ctx, op->sigma_cell, "op.sigma_cell"));
    if (op->lambda_cell)
        HOMG_TRY(homg__check_pointer(g->ctx, op->lambda_cell, "op.lambda_cell"));
    if (op->flags)
        HOMG_TRY(homg__check_pointer(g->ctx, op->flags, "op.flags"));
    if (!op->sigma_cell)
        g->sigma_jump = 0;
    if (!op->flags)
        g->solid_cells = 0;
    if (op->skip_check || (!op->sigma_cell && !op->lambda_cell && !op->flags))
        return HOMG_OK; /* skip_check: sigma_jump stays what the last check found */
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(&g->ctx->ex, g->flags, 5 * sizeof(long long)), "operator check");
    HOMG_TRY_BACKEND(
        g->ctx, k->check_operator(&g->ctx->ex, d->precision, n, op->sigma_cell, op->lambda_cell, op->flags, g->flags),
        "operator check");
    HOMG_TRY(homg__read(g->ctx, bad, g->flags, sizeof bad));
    if (op->sigma_cell)
        g->sigma_jump = bad[3] != 0;
    if (op->flags)
        g->solid_cells = bad[4] != 0;
    for (int a = 0; a < 3; a++)
        if (bad[a]) {
            long long c = bad[a] - 1;
            return homg__fail(g->ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s at index %lld (i, j, k) = (%lld, %lld, %lld) %s",
                              names[a], c, c % d->nx, c / d->nx % d->ny, c / ((long long)d->nx * d->ny), what[a]);
        }
    return HOMG_OK;
}

/* The bytes a grid of this desc needs, checked against the memory there is
 * before anything is allocated. */
homg_status homg__check_size(homg_grid *g)
{
    const homg_grid_desc *d = &g->desc;
    const double cellsd = (double)d->nx * d->ny * d->nz, e = (double)g->elem;
    const int lanes = g->ctx->ex.backend != HOMG_BACKEND_CUDA ? 1
                      : d->nrhs < HOMG_EXEC_LANES             ? d->nrhs
                                                              : HOMG_EXEC_LANES;
    /* + the caller's f and u, + the work arrays of the lanes beyond the first */
    const double need = homg__gen_bytes(d) + 2.0 * cellsd * e * d->nrhs + (lanes - 1) * lane_bytes(d);
    const size_t avail = HOMG_KERNELS(&g->ctx->ex, gen)->memory_available(&g->ctx->ex);
    if (cellsd * d->nrhs > 2147483647.0 || (avail > 0 && need > (double)avail))
        return homg__fail(g->ctx, HOMG_ERROR_OUT_OF_MEMORY,
                          "%d x %d x %d cells need about %.0f bytes (%.1f GiB, with f and u) and %s", d->nx, d->ny,
                          d->nz, need, need / 1073741824.0,
                          cellsd * d->nrhs > 2147483647.0 ? "more than 2^31 values per array are not supported"
                                                          : "the device has less free memory");
    return HOMG_OK;
}
