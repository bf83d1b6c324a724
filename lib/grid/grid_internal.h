/* grid_internal.h -- the structured-grid solver object shared by grid.c (object,
 * solve driver), grid_cycles.c (multigrid cycles) and homg_method.c (seed 003). */
#ifndef HOMG_GRID_INTERNAL_H
#define HOMG_GRID_INTERNAL_H

#include "grid/grid_kernels.h"
#include "grid/tol_check.h"
#include "core/internal.h"

#define HOMG_GRID_MAX_LEVELS 16
#define HOMG_GRID_HIST_MAX   1000
#define HOMG_GRID_GRAPHS     16 /* graphs cached, + 4 per right-hand side (graphs.c) */
#define HOMG_COARSE_SWEEPS   16
/* The coarsest level solved exactly: the first level below the finest with at most
 * HOMG_BOX_EXACT_MAX cells a side (32: one block, coarse_exact; up to HOMG_EXACT_WIDE_MAX: two
 * launches of many blocks, exact_wide), the finest itself only up to 32 a side (box.c
 * exact_fits).  The default: 128 where the finest level's longer side is at most
 * HOMG_BOX_EXACT_WIDE_TOP (the sizes measured), else 32; exact_wide's blocks take 4 rows in
 * float32, 2 in float64, its sums 8 ranges.  H100 2026-11-27, float32 to 1e-4 in 3 cycles
 * (bench/results/h100.md "Session 15 twod7", "Session 15 twod8"): 256^2 0.0729 (main before
 * twod7) -> 0.0715 (twod7) -> 0.0577 ms (twod8, rows 4), 512^2 0.1137 -> 0.1145 -> 0.0959,
 * 1024^2 0.1634 -> 0.1624 -> 0.1473, the warm 1024^2 frame 0.0546 -> 0.0546 -> 0.0495; with
 * twod8's passes the exact 128^2 also pays at 2048^2 (0.3331 -> 0.3181) and 4096^2 (0.8481 ->
 * 0.8326); float64 rows 2: 256^2 0.1268 -> 0.1005, 512^2 0.3007 -> 0.2699, 1024^2 0.7214 -> 0.6862. */
#define HOMG_BOX_EXACT_MAX      32
#define HOMG_BOX_EXACT_WIDE_TOP 4096
#define HOMG_BOX_EXACT_ROWS     4
#define HOMG_BOX_EXACT_ROWS_F64 2
#define HOMG_BOX_EXACT_SPLIT    8
#define HOMG_BOX_FUSED_CELLS    0 /* FMG: fused steps on levels of at least this many cells (all: small tiles, PDL) */

/* What one queued sequence of cycles looks like; a captured CUDA graph is reused
 * while the key matches. */
typedef struct homg_seq_key {
    int first_kind, count, monitor, lane; /* lane: the general solver's lane whose arrays it holds */
    int check; /* a tolerance solve's max_cycles: each cycle's test (tol_check) after the monitor */
    int loop;  /* the cycles after the first in a loop on the device, up to count */
    const void *f, *u, *u_ref, *bc[6];
    double tol;
} homg_seq_key;

/* Queued work as homg__account counts it: launches, work units, values moved. */
typedef struct homg_count {
    long launches;
    double wu, values_moved;
} homg_count;

/* What one pass of a device loop's body queues (box.c, general_loop.c), for the
 * accounting of the passes the device decided on: all of it, and of it the body's two
 * branches (general_loop.c: a restart, CG's next direction), of which a pass runs one. */
typedef struct homg_queued {
    homg_count all, branch[2];
} homg_queued;

typedef struct homg_graph_entry {
    homg_seq_key key;
    void *graph;
    homg_count cost;  /* what the captured sequence counts at each launch */
    homg_queued body; /* a loop's body (zero without a loop) */
    unsigned long long used;
} homg_graph_entry;

/* HOMG_CYCLE_FIRST: a plain cycle that is a solve's first (the sweep plan's first row). */
enum { HOMG_CYCLE_NORMAL = 0, HOMG_CYCLE_FMG, HOMG_CYCLE_FIRST };

#define HOMG_GRID_CHECK_FLAGS 8

/* Which solver runs a solve (chosen from the method, the desc and the operator). */
typedef enum grid_path { GRID_PATH_NONE = 0, GRID_PATH_BOX, GRID_PATH_FFT, GRID_PATH_GENERAL } grid_path;

typedef struct grid_general grid_general; /* general_internal.h */
struct fft_plan;

struct homg_grid {
    homg_ctx *ctx;
    const grid_kernels *k;
    homg_grid_desc desc;
    size_t elem;     /* bytes per value */
    homg_method run; /* the box solvers' method (desc.method with DEFAULT resolved) */

    /* the operator (homg_grid_set_operator) */
    double sigma, lambda;         /* constants (where no per-cell array is given) */
    int op_arrays;                /* per-cell sigma, lambda or flags were given */
    int sigma_jump;               /* the last checked sigma_cell jumps (gen_jump): 1 / 0; -1 never checked */
    int solid_cells;              /* the last checked flags have a SOLID cell: 1 / 0; -1 never checked */
    int box_ready;                /* the box hierarchy is allocated */
    grid_general *gen;            /* general multigrid, NULL until needed */
    struct fft_plan *fft;         /* FFT plan, NULL until needed */
    double fft_sigma, fft_lambda; /* the constants the plan was made for */
    int nlevels;                  /* multigrid levels, 0 = finest */
    grid_level lv[HOMG_GRID_MAX_LEVELS];
    void *u[HOMG_GRID_MAX_LEVELS], *f[HOMG_GRID_MAX_LEVELS]; /* levels >= 1 */
    void *u2[HOMG_GRID_MAX_LEVELS];               /* FMG: the second buffer of levels >= 1 (out-of-place steps) */
    void *u0_scratch;                             /* FMG: the finest level's second buffer */
    void *gbc[HOMG_GRID_MAX_LEVELS][4];           /* FMG: Dirichlet data restricted to levels >= 1 */
    void *coarse_qx, *coarse_qy, *coarse_inv_eig; /* exact coarsest solve; NULL: sweeps instead */
    void *coarse_qxt, *coarse_qyt, *coarse_w;     /* and, where it is wider than 32 a side, exact_wide's */
    int exact_max;  /* the exact solve takes levels up to this side (HOMG_BOX_EXACT_MAX) */
    int exact_rows; /* exact_wide's rows a block and ranges a sum (HOMG_BOX_EXACT_ROWS, _SPLIT) */
    int exact_split;
    double fused_min; /* FMG: levels of at least this many cells run the fused steps */
    int planned;      /* FMG: the fused cycles take their sweeps from plan (HOMG_BOX_SCHED, box.c) */
    unsigned char plan[2][HOMG_GRID_MAX_LEVELS][2]; /* [later cycle][level][way up]: sweeps */
    int fuse_mid;   /* FMG: fixed sequences fuse the finest level's cycle boundaries (HOMG_BOX_MID, box.c) */
    double mid_min; /* FMG: of a float32 finest level of at least this many cells (HOMG_BOX_MID_CELLS) */
    grid_tune tune; /* the CUDA fused steps' launch choices, the levels' tune (box.c) */

    /* HOMG (seed 003) */
    int homg_m;                     /* coarsest HOMG level M */
    int homg_whole, homg_last_from; /* 0: HOMG's partial iterations as mfmg.c chose (homg__homg_partial_for_tests) */
    mfmg_level hl[HOMG_GRID_MAX_LEVELS];
    void *fm[HOMG_GRID_MAX_LEVELS]; /* compact restricted rhs, m >= 1 */
    void *r, *ea, *eb, *ta;         /* full-size work arrays */

    /* monitoring */
    double *hist;       /* HOMG_GRID_HIST_MAX doubles, backend memory */
    int *hist_count;    /* backend memory */
    int hist_lanes;     /* > 1: the last solve's history is in the general solver's lanes (homg__gen_lanes) */
    double *scratch;    /* 2 doubles for the monitor, then HOMG_TOL_OUT for tol_check; backend memory */
    int no_device_loop; /* the device could not run a loop graph: tolerance solves loop on the host */
    homg_queued body;   /* the last graph run's loop body (graphs.c) */
    long long *flags;   /* HOMG_GRID_CHECK_FLAGS input-check flags, backend memory */

    /* accounting of what is queued */
    long launches;
    double wu;
    double values_moved; /* ideal device-memory traffic, in values */

    homg_graph_entry *graphs; /* ngraphs entries, allocated on the first capture */
    int ngraphs;
    unsigned long long graph_clock;
    long graph_captures; /* graphs captured so far (tests: a repeated solve captures none) */
};

/* Multigrid (grid_cycles.c): queue one cycle of the grid's method on level 0. */
homg_status homg__mg_cycle(homg_grid *g, const grid_level *L0, const void *f, void *u, int kind);
/* Multigrid: queue `count` cycles (the first of kind first_kind, then HOMG_CYCLE_NORMAL) with no
 * monitor between them, the finest level's cycle boundaries fused where the backend can. */
homg_status homg__mg_sequence(homg_grid *g, const grid_level *L0, const void *f, void *u, int count, int first_kind);
/* HOMG (homg_method.c): queue one MFMG restart on the residual equation. */
homg_status homg__homg_restart(homg_grid *g, const grid_level *L0, const void *f, void *u);
homg_status homg__homg_alloc(homg_grid *g);
int homg__homg_iterations(const homg_grid *g, int m);
/* mfmg.c, test_grid's control: whole = 1 every iteration over the whole grid; last_from > 0
 * each level's last iteration in part from that level up (>= 2), < 0 none, 0 mfmg.c's default. */
void homg__homg_partial_for_tests(homg_grid *g, int whole, int last_from);

homg_status homg__k_fail(homg_grid *g, homg_status st, const char *what);

/* general_lanes.c: the lanes' histories and counts of the last solve (backend memory); returns how many. */
int homg__gen_lanes(const homg_grid *g, double **hist, int **count);
/* grid.c */
int homg__grid_box_desc(const homg_grid_desc *d);
/* Runs queue(g, arg) once: on CUDA replays the graph captured for the same key (or
 * captures one), elsewhere calls it directly; the accounting of a replay is the
 * capture's. */
int homg__grid_device_loop(const homg_grid *g);
homg_status homg__grid_graph_run(homg_grid *g, const homg_seq_key *key, homg_status (*queue)(homg_grid *, void *),
                                 void *arg);
/* Drops every captured graph (the operator or a level changed). */
void homg__grid_graphs_drop(homg_grid *g);
/* checks.c */
size_t homg__face_len(const homg_grid_desc *d, int side);
int homg__grid_dims(const homg_grid_desc *d);
homg_status homg__check_solve_args(homg_grid *g, const void *f, const homg_boundary *bc, void *u,
                                   const homg_solve_desc *sd);
homg_status homg__check_solve_values(homg_grid *g, const void *f, const homg_boundary *bc, const void *u, int check_u);
/* general_bytes.c / checks.c: sizes and bytes before any allocation, operator arrays */
homg_status homg__check_size(homg_grid *g);
homg_status homg__check_operator(homg_grid *g, const homg_grid_operator *op);
/* fftpath.c: constant coefficients without flags through lib/fft */
int homg__fft_available(void);
homg_status homg__fftpath_prepare(homg_grid *g);
void homg__fftpath_free(homg_grid *g);
homg_status homg__fftpath_solve(homg_grid *g, const void *f, const homg_boundary *bc, void *u,
                                const homg_solve_desc *sd, homg_solve_info *info);
/* general*.c (general_internal.h): per-cell operators, any sizes, 2D and 3D */
homg_status homg__gen_prepare(homg_grid *g);
double homg__gen_bytes(const homg_grid_desc *d);
void homg__gen_free(homg_grid *g);
homg_status homg__gen_set_operator(homg_grid *g, const homg_grid_operator *op);
homg_status homg__gen_solve(homg_grid *g, const void *f, const homg_boundary *bc, void *u, const homg_solve_desc *sd,
                            homg_solve_info *info);
homg_status homg__gen_residual(homg_grid *g, const void *f, const homg_boundary *bc, const void *u, void *r);
/* islands.c: the singular islands of an operator (kernels/grid/island_kernels.h) */
typedef struct grid_islands {
    int *label;         /* per finest cell: its singular island, -1 none (NULL until labelled) */
    double *sums, *inv; /* per island: sums (work), 1 / cell count */
    int n, cap;         /* islands, capacity of sums and inv */
    int *bsum, *scal;   /* work: block prefix sums, two device ints */
} grid_islands;
/* Labels op's islands into isl; scratch_a and scratch_b: n ints each of device
 * memory the caller does not need meanwhile. Allocates only the first time. */
homg_status homg__grid_islands(homg_grid *g, const homg_grid_operator *op, grid_islands *isl, void *scratch_a,
                               void *scratch_b);
void homg__grid_islands_free(homg_grid *g, grid_islands *isl);
/* box.c: the power-of-two 2D Dirichlet box with constant coefficients */
/* Orthonormal sine basis of the cell-centred Dirichlet operator on n cells (q: n x n) and its eigenvalues;
 * either may be NULL. */
void homg__grid_sine_basis(int n, double h, double *q, double *eig);
homg_status homg__box_alloc(homg_grid *g);
void homg__box_free(homg_grid *g);
homg_status homg__box_set_constants(homg_grid *g);
homg_status homg__box_solve(homg_grid *g, const void *f, const homg_boundary *bc, void *u, const homg_solve_desc *sd,
                            homg_solve_info *info);
homg_status homg__box_residual(homg_grid *g, const void *f, const homg_boundary *bc, const void *u, void *r);
/* Adds a queued kernel's launches, work units and ideal traffic (values). */
void homg__account(homg_grid *g, long launches, double wu, double values);
/* The grid's counts so far, and what was counted after such a snapshot. */
homg_count homg__counted(const homg_grid *g);
homg_count homg__counted_since(const homg_grid *g, homg_count before);

/* sweep_plan.c: a sweep plan "first;later" (one plan alone: every cycle's), each "PQ,PQ,..." =
 * V(P, Q) on level 0, 1, ... with digits lo..hi, the last pair repeated down to the coarsest,
 * into first and later (levels pairs each); 0 where s is anything else (e.g. "0"). */
int homg__sweep_plan_parse(const char *s, char lo, char hi, int levels, unsigned char *first, unsigned char *later);

#endif
