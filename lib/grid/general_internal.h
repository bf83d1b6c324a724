/* general_internal.h -- what the general structured solver's files share (general.c:
 * the levels and the operator; general_plan.c: what a cycle runs; general_cycle.c: the
 * cycles; general_steps.c: CG's and the plain cycles' steps; general_lanes.c: the
 * right-hand sides' lanes; general_solve.c: the solve; general_loop.c: its device loop;
 * general_bytes.c: the memory it needs).  Not a user API. */
#ifndef HOMG_GENERAL_INTERNAL_H
#define HOMG_GENERAL_INTERNAL_H

#include "grid_internal.h"
#include "grid/cube_cluster.h"
#include "grid/cube_exact.h"
#include "grid/cube_kernels.h"
#include "grid/cube_sep.h"
#include "grid/gen_kernels.h"

#define HOMG_GEN_MAX_LEVELS 24
#define HOMG_GEN_TWO_PASS   2 /* desc.two_pass = 0 with a sigma jump: level 2 alone (general_plan.c) */

/* One lane's work arrays: the right-hand sides of a solve run HOMG_EXEC_LANES at a
 * time side by side on CUDA (kernels.h: memory fork/lane/join), each lane with
 * its own vectors, coarse levels' x and b, two-pass vectors and weights, scalars,
 * island sums and history; the solve's steps use the selected lane's (homg__gen_use_lane). */
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
    int cube;            /* the cube kernels on (HOMG_GEN_CUBE, homg__gen_cube_of) */
    int plain, plain_f1; /* plain cycles (plain_on); first an F-cycle (-1: method) */
    float omega;         /* plain cycles' SOR weight on cube levels (HOMG_CUBE_OMEGA) */
    int sym;             /* plain cycles' way up from colour 1 (HOMG_CUBE_SYM=1), else from colour 0 */
    int split;           /* plain cycles keep the finest level split by colour (HOMG_CUBE_SPLIT, split_of) */
    int split1;          /* ... and level 1 (HOMG_CUBE_SPLIT1, split1_of) */
    int fold; /* a cold solve splits f in the finest level's pass from zero (HOMG_CUBE_FOLD, homg__gen_split_start) */
    int keep; /* a quiet solve's cycles before its last leave u split (HOMG_CUBE_KEEP, runs_iterate) */
    int planned; /* plain V-cycles take their sweeps from plan (HOMG_CUBE_SCHED, cycle_sweeps) */
    /* plan[later cycle][level][way up]: sweeps */
    unsigned char plan[2][HOMG_GEN_MAX_LEVELS][2];
    int blk;             /* first level of block_vcycle (0: none) */
    int cblk;            /* first level of the cube block (cube_block_cycle; 0: none) */
    int xl;              /* level solved exactly (exact_cycle, homg__gen_plan_exact; 0: none) */
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

/* Cells of a level. */
static inline size_t cells(const gen_level *L) { return (size_t)L->nx * L->ny * L->nz; }

/* general.c */
/* The level sizes of desc d (dims_out), returns how many. */
int homg__gen_plan_levels(const homg_grid_desc *d, int dims_out[HOMG_GEN_MAX_LEVELS][3]);

/* general_plan.c, per operator: the schedule's switches, the two-pass levels (and their
 * work arrays), the block levels and the level solved exactly. */
void homg__gen_schedule_env(grid_general *G);
homg_status homg__gen_plan_two_pass(homg_grid *g, const homg_grid_operator *op);
homg_status homg__gen_two_pass_arrays(homg_grid *g, void **kz, void **kq, double **kw);
void homg__gen_plan_block(grid_general *G);
homg_status homg__gen_plan_exact(homg_grid *g);

/* general_cycle.c: a cycle on level 0's (x, b) and the coarse levels' arrays. */
typedef struct gen_cycle {
    homg_grid *g;
    const homg_solve_desc *sd;
    void *xs[HOMG_GEN_MAX_LEVELS];
    const void *bs[HOMG_GEN_MAX_LEVELS];
    int plain;       /* a plain cycle (homg__gen_plain_cycle): SOR and the way up from colour 0 on cube levels */
    float *su, *sf;  /* level 0's u and f split by colour (split_of), or NULL: the natural xs[0], bs[0] */
    int split1;      /* level 1's own x and b hold its values split by colour (split1_of) */
    const float *fn; /* not NULL: level 0's pass from zero splits f from here into sf (homg__gen_split_start) */
    int keep;        /* split: u stays split (a quiet solve's cycle before its last): no natural copy */
    float *nat;      /* split: the last half-sweep also writes u here, naturally (correct_and_sweep) */
    int nat_done;    /* it did */
    int planned;     /* its sweeps from G->plan (homg__gen_plain_cycle, cycle_sweeps) */
    int later;       /* not the solve's first cycle (plan's second row) */
} gen_cycle;

void homg__gen_cycle_start(gen_cycle *c, homg_grid *g, void *x0, const void *b0);
/* x_l improves A_l x_l = b_l from x_l = 0 (zero; else from x_l) by one V- or F-cycle. */
homg_status homg__gen_visit(gen_cycle *c, int l, int fcycle, int zero);
/* z = M r: one cycle from zero. */
homg_status homg__gen_precondition(homg_grid *g);
/* x -= island means (proj: also record the largest |mean|). */
homg_status homg__gen_project(homg_grid *g, void *x, double *proj);
/* q = A_l x, *xq += x.q. */
homg_status homg__gen_apply_level(homg_grid *g, int l, const void *x, void *q, double *xq);
/* r = f + face terms - A_0 u (u NULL: 0), *rr += r.r. */
homg_status homg__gen_residual_fine(homg_grid *g, const void *u, const void *f, void *r, double *rr);
/* Whether level l (with x and b) runs the cube kernels, and then K. */
int homg__gen_cube_of(const homg_grid *g, int l, const void *x, const void *b, cube_level *K);
int homg__gen_fused(void);         /* prolongation and the first half-sweep in one pass */
int homg__gen_coarse_sweeps(void); /* the coarsest level's sweeps */
int homg__gen_level_sweeps(const homg_grid *g, int l, int post);

/* general_steps.c: one right-hand side's arrays, and the steps a solve queues. */
typedef struct gen_rhs {
    const void *f;
    void *u;
    const void *u_ref;
    int quiet; /* nothing monitored: tol = 0, no u_ref, desc.no_history */
} gen_rhs;

/* Restarts and iteration halves as captured graphs on CUDA (keyed by the arrays). */
enum {
    GEN_SEQ_RESTART_FIRST = 100,
    GEN_SEQ_RESTART,
    GEN_SEQ_UPDATE,
    GEN_SEQ_DIRECTION,
    GEN_SEQ_PLAIN_ZERO,
    GEN_SEQ_PLAIN,
    GEN_SEQ_PLAIN_ZERO_KEEP, /* the two above, u left split (homg__gen_plain_cycle's keep) */
    GEN_SEQ_PLAIN_KEEP,
    GEN_SEQ_LOOP,           /* a tolerance solve's iterations in a device loop (general_loop.c): CG, */
    GEN_SEQ_LOOP_PLAIN,     /* plain cycles, */
    GEN_SEQ_LOOP_PLAIN_ZERO /* plain cycles from u = 0 */
};

homg_status homg__gen_restart(homg_grid *g, const gen_rhs *x, int first);
homg_status homg__gen_iterate_update(homg_grid *g, const gen_rhs *x);
homg_status homg__gen_iterate_direction(homg_grid *g, const gen_rhs *x);
homg_status homg__gen_split_start(homg_grid *g, const gen_rhs *x, int warm);
homg_status homg__gen_plain_cycle(homg_grid *g, const gen_rhs *x, int zero, int keep);
/* Queues a step (GEN_SEQ_* but the loops) as a captured graph on CUDA, keyed by the arrays. */
homg_status homg__gen_run_seq(homg_grid *g, const gen_rhs *x, int kind);

/* general_lanes.c */
void homg__gen_lane_free(homg_grid *g, gen_lane *a);
void homg__gen_use_lane(homg_grid *g, int i);
homg_status homg__gen_lanes_ready(homg_grid *g);

#endif
