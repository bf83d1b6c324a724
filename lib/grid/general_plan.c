/* general_plan.c -- what the general solver's cycles run, planned once per operator
 * (build_levels): the schedule's switches (homg__gen_schedule_env), the two-pass levels, the
 * levels run in one launch (a block, the cube block) and the level solved exactly. */
#include "general_internal.h"
#include "grid/cube_coarse.h"
#include "grid/cube_point.h"

#include <stdlib.h>
#include <string.h>

#define HOMG_CUBE_OMEGA_DEFAULT 1.1f /* plain cycles' SOR weight (homg__gen_schedule_env, correct_and_sweep) */
#define HOMG_GEN_TWO_PASS_SOLID \
    16384 /* desc.two_pass = 0 with SOLID cells: the first level of at most this many cells */

/* plain V-cycles' sweeps (homg__gen_schedule_env, cycle_sweeps) */
#define HOMG_CUBE_SCHED_DEFAULT "12,32,22"
#define HOMG_CUBE_SCHED_EXACT   "12,22" /* the default where a level is solved exactly (homg__gen_plan_exact) */

/* The schedule's switches from the environment, read once per operator (the benchmark and
 * tests/test_cube.c time and check against them; the library documents no such variable):
 * HOMG_GEN_CUBE=0 the gen kernels on cube levels, HOMG_CUBE_PLAIN=0 CG around the cycle on
 * the plain box, HOMG_CUBE_F1=0/1 its first cycle a V- / F-cycle (unset: by the method);
 * the plain cycles' cube levels: HOMG_CUBE_OMEGA=w their SOR weight (default
 * HOMG_CUBE_OMEGA_DEFAULT), HOMG_CUBE_SYM=1 the way up from colour 1 (the symmetric order the
 * CG needs; session 7's plain default), HOMG_CUBE_SPLIT=0 the finest level in the natural
 * layout (split_of), HOMG_CUBE_SPLIT1=0 level 1 in the natural layout (split1_of),
 * HOMG_CUBE_FOLD=0 a cold solve's f split by a pass of its own (homg__gen_split_start), HOMG_CUBE_KEEP=0 every
 * plain cycle of a quiet solve also writes u naturally (runs_iterate), HOMG_CUBE_SCHED the plain
 * V-cycles' sweeps (homg__sweep_plan_parse; "0": desc.pre / desc.post on every level, session 10's). */
void homg__gen_schedule_env(grid_general *G)
{
    const double f1 = homg__knob("HOMG_CUBE_F1", -1), w = homg__knob("HOMG_CUBE_OMEGA", 0);
    const char *sched = homg__knob_text("HOMG_CUBE_SCHED");
    G->cube = homg__knob("HOMG_GEN_CUBE", 1) != 0;
    G->plain = homg__knob("HOMG_CUBE_PLAIN", 1) != 0;
    G->plain_f1 = f1 < 0 ? -1 : f1 != 0;
    G->omega = w > 0 && w < 2 ? (float)w : HOMG_CUBE_OMEGA_DEFAULT;
    G->sym = homg__knob("HOMG_CUBE_SYM", 0) != 0;
    G->split = homg__knob("HOMG_CUBE_SPLIT", 1) != 0;
    G->split1 = homg__knob("HOMG_CUBE_SPLIT1", 1) != 0;
    G->fold = homg__knob("HOMG_CUBE_FOLD", 1) != 0;
    G->keep = homg__knob("HOMG_CUBE_KEEP", 1) != 0;
    G->planned = homg__sweep_plan_parse(sched ? sched : HOMG_CUBE_SCHED_DEFAULT, '1', '9', HOMG_GEN_MAX_LEVELS,
                                        G->plan[0][0], G->plan[1][0]);
}

/* HOMG_GEN_TWO_PASS_LEVELS=mask (bit m: level m) restricts the two-pass levels that
 * desc.two_pass chooses, for the benchmark's comparison (e.g. 4: level 2 alone); the
 * library documents no such variable. */
static unsigned levels_env(void)
{
    const double mask = homg__knob("HOMG_GEN_TWO_PASS_LEVELS", -1);
    return mask < 0 ? ~0u : (unsigned)mask;
}

/* The two-pass work vectors of the levels in kmask and their weights, where not
 * yet there: the solver's own (lane 0) or another right-hand side's. */
homg_status homg__gen_two_pass_arrays(homg_grid *g, void **kz, void **kq, double **kw)
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
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(&g->ctx->ex, *kw, bytes), "two-pass scalars");
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
homg_status homg__gen_plan_two_pass(homg_grid *g, const homg_grid_operator *op)
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
    return homg__gen_two_pass_arrays(g, G->kz, G->kq, &G->kw);
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
    const double most = homg__knob("HOMG_CUBE_BLOCK_CELLS", HOMG_CUBE_BLOCK_DEFAULT);
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
void homg__gen_plan_block(grid_general *G)
{
    const double most = homg__knob("HOMG_GEN_BLOCK_CELLS", 0);
    int l = 1;
    while (l < G->nlev && ((double)cells(&G->lv[l]) > most || (G->kmask >> l) != 0))
        l++;
    G->blk = l < G->nlev - 1 && G->nlev - l <= GEN_BLOCK_MAX ? l : 0;
    plan_cube_block(G);
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
    const int v = (int)homg__knob("HOMG_CUBE_CLUSTER", HOMG_CUBE_CLUSTER_DEFAULT);
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
    if (cube_cluster_tables(K, homg__knob("HOMG_CUBE_CLUSTER_HALF", 1) != 0, t, &G->xc)) {
        G->xc.t = (const float *)G->xt + at;
        if (cube_cluster_fits(&G->xc, cs)) {
            st = g->ctx->mem->copy(&g->ctx->ex, (float *)G->xt + at, t, sizeof(float) * CUBE_CLUSTER_FLOATS, HOMG_H2D);
            G->xcs = st == HOMG_OK ? cs : 0;
        }
    }
    free(t);
    return st;
}

/* homg__gen_plan_exact's level l (K) of more than CUBE_EXACT_N a side: its tables (cube_sep_tables) into
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
                            .tw = (int)homg__knob("HOMG_CUBE_SEP_TW", 0),
                            .tt = (int)homg__knob("HOMG_CUBE_SEP_TT", 0) };
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
homg_status homg__gen_plan_exact(homg_grid *g)
{
    grid_general *G = g->gen;
    const int ms = (int)homg__knob("HOMG_CUBE_EXACT_MAX", 0);
    const int me = ms >= CUBE_EXACT_N && ms <= CUBE_SEP_N ? ms : 0;
    const int most = me ? me : HOMG_CUBE_EXACT_MAX_DEFAULT;
    const int deepest = me ? G->nlev : HOMG_CUBE_SEP_DEEPEST; /* a three-launch level no lower than this */
    cube_level K;
    G->xl = 0;
    G->xp.t = NULL;
    G->xcs = 0;
    if (!(int)homg__knob("HOMG_CUBE_EXACT", HOMG_CUBE_EXACT_DEFAULT) || !G->cube || g->desc.precision != HOMG_FLOAT32)
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
    if (G->xl > 0 && !homg__knob_text("HOMG_CUBE_SCHED"))
        G->planned =
            homg__sweep_plan_parse(HOMG_CUBE_SCHED_EXACT, '1', '9', HOMG_GEN_MAX_LEVELS, G->plan[0][0], G->plan[1][0]);
    return HOMG_OK;
}
