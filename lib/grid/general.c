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
 * SOLID cells (desc.two_pass, homg__gen_plan_two_pass), VCYCLE solves the coarse correction
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
 * (homg__gen_plan_exact, exact_cycle, kernels/grid/cube_exact.h), and then the plan is
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
 * the end.
 *
 * This file: the levels (sizes, scales, arrays) and the operator on them (build_levels,
 * set_operator); the rest in general_*.c (general_internal.h lists them). */
#include "general_internal.h"
#include "grid/gen_point.h"

#include <stdlib.h>
#include <string.h>

#define HOMG_GEN_COARSEST 64

/* The level sizes: coarsen while a level has more than HOMG_GEN_COARSEST cells
 * and an axis of two or more. */
int homg__gen_plan_levels(const homg_grid_desc *d, int dims_out[HOMG_GEN_MAX_LEVELS][3])
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

/* The coarsest level's solve (coarse_solve: from zero, homg__gen_coarse_sweeps() symmetric sweeps)
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
    G->nlev = homg__gen_plan_levels(d, dims);
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
        homg__gen_lane_free(g, &G->lane[i]);
    free(G);
    g->gen = NULL;
}

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
static homg_status build_levels(homg_grid *g, const homg_grid_operator *op)
{
    grid_general *G = g->gen;
    kernel_exec *ex = &g->ctx->ex;
    const size_t n = cells(&G->lv[0]);
    /* HOMG_GEN_STORED=1: store every level (the benchmark times uniform levels against
     * it; the library documents no such variable) */
    const int uniform = !op->sigma_cell && !op->lambda_cell && !(int)homg__knob("HOMG_GEN_STORED", 0);
    G->F.sigma = op->sigma;
    G->F.sigma_cell = NULL;
    if (op->sigma_cell) {
        if (!G->sig)
            HOMG_TRY(homg__alloc(g->ctx, n * g->elem, &G->sig, "sigma copy"));
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->copy(ex, G->sig, op->sigma_cell, n * g->elem, HOMG_D2D), "copying sigma");
        G->F.sigma_cell = G->sig;
    }
    homg__gen_schedule_env(G);
    HOMG_TRY(homg__gen_plan_two_pass(g, op));
    homg__gen_plan_block(G);
    HOMG_TRY(level_arrays(g, 0, !uniform, op->flags != NULL));
    if (uniform)
        uniform_fine(g, &G->lv[0], op);
    if (!uniform || op->flags)
        HOMG_TRY_BACKEND(
            g->ctx, G->k->setup_fine(ex, g->desc.precision, &G->lv[0], &G->F, op->lambda_cell, op->lambda, op->flags),
            "finest level");
    for (int l = 1; l < G->nlev; l++) {
        const gen_level *L = &G->lv[l - 1];
        if (gen_uniform_coarse(L, &G->lv[l], g->desc.precision == HOMG_FLOAT64)) {
            HOMG_TRY(level_arrays(g, l, 0, 0));
            continue;
        }
        HOMG_TRY(level_arrays(g, l, 1, L->flag != NULL));
        HOMG_TRY_BACKEND(g->ctx, G->k->coarsen(ex, g->desc.precision, L, &G->lv[l]), "coarsening");
    }
    if (G->cm)
        HOMG_TRY_BACKEND(
            g->ctx, G->k->coarse_matrix(ex, g->desc.precision, &G->lv[G->nlev - 1], homg__gen_coarse_sweeps(), G->cm),
            "the coarsest level's matrix");
    return homg__gen_plan_exact(g);
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
    int cube, plain, plain_f1, sym; /* the schedule (homg__gen_schedule_env) */
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
