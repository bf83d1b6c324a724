/* general_steps.c -- the steps a general solve queues, each a captured graph on CUDA
 * (homg__gen_run_seq): CG's restart and iteration halves, and the plain cycles on the
 * uniform 3D box (no CG around the cycle). */
#include "general_internal.h"
#include "grid/cube_split.h"

#include <stdlib.h>
#include <string.h>

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
    if (env < 0) /* read once */
        env = homg__knob("HOMG_GEN_PROJECT_Z", 1) != 0;
    return env;
}

/* z = M r (projected unless project_z says not), r.z and q.z, then p = z + beta p with
 * beta by step (GEN_STEP_START: 0, a restart's; GEN_STEP_BETA: CG's). */
static homg_status direction(homg_grid *g, int step)
{
    grid_general *G = g->gen;
    kernel_exec *ex = &g->ctx->ex;
    const homg_precision pr = g->desc.precision;
    const size_t n = cells(&G->lv[0]);
    HOMG_TRY(homg__gen_precondition(g));
    if (project_z())
        HOMG_TRY(homg__gen_project(g, G->z, NULL));
    /* q: anything finite after a restart */
    HOMG_TRY_BACKEND(g->ctx, G->k->dot2(ex, pr, n, G->q, G->z, G->r, G->s + GEN_ZQ), "dot products");
    HOMG_TRY_BACKEND(g->ctx, G->k->scalars(ex, G->s, step, 0, NULL, NULL), "scalars");
    HOMG_TRY_BACKEND(g->ctx, G->k->update_p(ex, pr, n, G->z, G->p, G->s), "search direction");
    return HOMG_OK;
}

/* r = projected (f + face terms - A u); p = 0 (a restart). */
homg_status homg__gen_restart(homg_grid *g, const gen_rhs *x, int first)
{
    grid_general *G = g->gen;
    const size_t n = cells(&G->lv[0]);
    HOMG_TRY_BACKEND(g->ctx, homg__gen_residual_fine(g, x->u, x->f, G->r, NULL), "residual");
    HOMG_TRY(homg__gen_project(g, G->r, first ? G->s + GEN_PROJ : NULL));
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(&g->ctx->ex, G->p, n * g->elem), "restart");
    HOMG_TRY(direction(g, GEN_STEP_START));
    homg__account(g, 5, 2, 8.0 * n);
    return HOMG_OK;
}

/* A preconditioned CG iteration in two halves: the update of u and r (its norm
 * recorded in the history unless quiet), then the next search direction.  The last
 * iteration of a solve needs no next direction (one cycle of the
 * preconditioner saved), and a restart makes its own. */
homg_status homg__gen_iterate_update(homg_grid *g, const gen_rhs *x)
{
    grid_general *G = g->gen;
    kernel_exec *ex = &g->ctx->ex;
    const homg_precision pr = g->desc.precision;
    const size_t n = cells(&G->lv[0]);
    HOMG_TRY_BACKEND(g->ctx, homg__gen_apply_level(g, 0, G->p, G->q, G->s + GEN_PQ), "operator");
    HOMG_TRY_BACKEND(g->ctx, G->k->scalars(ex, G->s, GEN_STEP_ALPHA, 0, NULL, NULL), "scalars");
    HOMG_TRY_BACKEND(g->ctx, G->k->update_ur(ex, pr, n, G->lv[0].flag, x->u, G->p, G->r, G->q, G->s), "update");
    if (x->u_ref)
        HOMG_TRY_BACKEND(g->ctx, G->k->error_norm(ex, pr, n, G->lv[0].flag, x->u, x->u_ref, G->s), "error norm");
    if (!x->quiet)
        HOMG_TRY_BACKEND(g->ctx, G->k->scalars(ex, G->s, GEN_STEP_RECORD, x->u_ref != NULL, G->hist, G->hist_count),
                         "monitor");
    homg__account(g, 3 + !x->quiet + (x->u_ref != NULL), 1, 7.0 * n);
    return HOMG_OK;
}

homg_status homg__gen_iterate_direction(homg_grid *g, const gen_rhs *x)
{
    HOMG_TRY(direction(g, GEN_STEP_BETA));
    homg__account(g, 3, 1, 5.0 * (double)cells(&g->gen->lv[0]));
    return HOMG_OK;
}

/* ---- plain multigrid on the uniform 3D box (no CG around the cycle) ---- */

/* Whether plain cycles on x keep the finest level split by colour (kernels/grid/cube_split.h:
 * a half-sweep moves 6-8 bytes a cell instead of 12), and then its K: a cube level whose
 * colour rows are float4s, the fused first passes down and up (pre, prolong_smooth), level 1's
 * arrays 16-byte aligned; u split in z and f in p (work vectors plain cycles do not use).
 * HOMG_CUBE_SPLIT=0: the natural layout (homg__gen_schedule_env). */
static int split_of(const homg_grid *g, const gen_rhs *x, cube_level *K)
{
    const grid_general *G = g->gen;
    return G->split && G->nlev > 1 && g->desc.pre > 0 && g->desc.post > 0 && homg__gen_fused() &&
           homg__gen_cube_of(g, 0, x->u, x->f, K) && cube_split_fits(K) && !((size_t)G->x[1] % 16) &&
           !((size_t)G->b[1] % 16);
}

/* Whether a plain cycle whose finest level splits (split_of) keeps level 1 split too, in its
 * own x and b (no other array: the restriction writes b split, the prolongation reads x split,
 * level 1's passes are the split kernels, kernels/grid/cube_split.h's cs): level 1 a cube level
 * that splits, with sweeps both ways, run step by step (not in a block: homg__gen_plan_block), above the
 * coarsest, level 2's arrays 16-byte aligned.  HOMG_CUBE_SPLIT1=0: level 1 natural. */
static int split1_of(const homg_grid *g)
{
    const grid_general *G = g->gen;
    cube_level K;
    return G->split1 && G->nlev > 2 && G->xl != 1 && G->blk != 1 && G->cblk != 1 &&
           homg__gen_level_sweeps(g, 1, 0) > 0 && homg__gen_level_sweeps(g, 1, 1) > 0 &&
           homg__gen_cube_of(g, 1, G->x[1], G->b[1], &K) && cube_split_fits(&K) && !((size_t)G->x[2] % 16) &&
           !((size_t)G->b[2] % 16);
}

/* A plain solve's start where split_of: f split into p (a cold start: by the first cycle's pass
 * from zero, unless HOMG_CUBE_FOLD=0; homg__gen_plain_cycle), and a warm start's u into z. */
homg_status homg__gen_split_start(homg_grid *g, const gen_rhs *x, int warm)
{
    grid_general *G = g->gen;
    kernel_exec *ex = &g->ctx->ex;
    cube_level K;
    memset(&K, 0, sizeof K);
    if (!split_of(g, x, &K) || (!warm && G->fold))
        return HOMG_OK;
    HOMG_TRY_BACKEND(g->ctx, HOMG_KERNELS(ex, cubesplit)->split(ex, &K, (const float *)x->f, (float *)G->p), "f");
    if (warm)
        HOMG_TRY_BACKEND(g->ctx, HOMG_KERNELS(ex, cubesplit)->split(ex, &K, (const float *)x->u, (float *)G->z), "u");
    homg__account(g, 1 + warm, 0, 2.0 * (1 + warm) * cells(&G->lv[0]));
    return HOMG_OK;
}

/* One plain cycle on u for A u = f (from u = 0 when zero: the cycle's first pass writes
 * every cell), then the monitored norm recorded: the error against u_ref, or the
 * residual (one more pass) relative to ||f||.  desc.method FCYCLE: F-cycles; FMG: the
 * first an F-cycle, then V-cycles (HOMG_CUBE_F1=1 / 0: the first an F- / V-cycle).
 * keep (x quiet, another cycle to follow): where the finest level is split, u stays split
 * there, unwritten (the next cycle reads the split u; nothing reads x->u before the last). */
homg_status homg__gen_plain_cycle(homg_grid *g, const gen_rhs *x, int zero, int keep)
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
    homg__gen_cycle_start(&c, g, x->u, x->f);
    c.plain = 1;
    c.planned = G->planned && !fall && !f1 && g->desc.pre == 2 && g->desc.post == 2 && !G->blk;
    c.later = !zero;
    if (split_of(g, x, &K)) { /* run_start split f (and a warm u) into p (and z) */
        c.su = (float *)G->z;
        c.sf = (float *)G->p;
        c.split1 = split1_of(g);
        c.fn = zero && G->fold ? (const float *)x->f : NULL; /* homg__gen_split_start left f to the pass from zero */
        c.keep = keep;                                       /* runs_iterate asks it of quiet solves only */
    }
    if (zero && !(g->desc.pre > 0 && homg__gen_fused())) /* the cycle's first pass does not write every cell */
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(ex, x->u, n * g->elem), "zeroing u");
    HOMG_TRY(homg__gen_visit(&c, 0, zero ? f1 : fall, zero));
    if (c.su && !c.nat_done && !c.keep) {
        HOMG_TRY_BACKEND(g->ctx, HOMG_KERNELS(ex, cubesplit)->unsplit(ex, &K, c.su, (float *)x->u), "u");
        homg__account(g, 1, 0, 2.0 * n);
    }
    if (x->quiet)
        return HOMG_OK;
    if (x->u_ref) {
        HOMG_TRY_BACKEND(g->ctx, G->k->error_norm(ex, pr, n, G->lv[0].flag, x->u, x->u_ref, G->s), "error norm");
    } else {
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(ex, G->s + GEN_RR, sizeof(double)), "scalars");
        HOMG_TRY_BACKEND(g->ctx, homg__gen_residual_fine(g, x->u, x->f, G->r, G->s + GEN_RR), "residual");
    }
    HOMG_TRY_BACKEND(g->ctx, G->k->scalars(ex, G->s, GEN_STEP_RECORD, x->u_ref != NULL, G->hist, G->hist_count),
                     "monitor");
    homg__account(g, 2 + (x->u_ref == NULL), 0, 3.0 * n);
    return HOMG_OK;
}

typedef struct gen_seq {
    const gen_rhs *x;
    int kind;
} gen_seq;

static homg_status queue_seq(homg_grid *g, void *arg)
{
    const gen_seq *q = (const gen_seq *)arg;
    if (q->kind == GEN_SEQ_UPDATE)
        return homg__gen_iterate_update(g, q->x);
    if (q->kind == GEN_SEQ_DIRECTION)
        return homg__gen_iterate_direction(g, q->x);
    if (q->kind >= GEN_SEQ_PLAIN_ZERO)
        return homg__gen_plain_cycle(g, q->x, q->kind == GEN_SEQ_PLAIN_ZERO || q->kind == GEN_SEQ_PLAIN_ZERO_KEEP,
                                     q->kind >= GEN_SEQ_PLAIN_ZERO_KEEP);
    return homg__gen_restart(g, q->x, q->kind == GEN_SEQ_RESTART_FIRST);
}

homg_status homg__gen_run_seq(homg_grid *g, const gen_rhs *x, int kind)
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
