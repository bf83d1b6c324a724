/* grid_cycles.c -- geometric multigrid cycles on the cell-centred hierarchy:
 * V- and F-cycles (HOMG_METHOD_VCYCLE / FCYCLE) and full multigrid
 * (HOMG_METHOD_FMG).  Each cycle is a fixed sequence of kernel-table
 * calls, so the CUDA backend captures it once into a graph.
 *
 * The pieces: a down-leg step (optional initialisation, `pre` red-black
 * Gauss-Seidel sweeps, residual, restriction to the next level), an up-leg step
 * (prolongate and add the correction, `post` sweeps), and the coarsest level
 * (at most 32 x 32) solved exactly by a dense sine transform in one thread
 * block -- or, for long thin rectangles that reach a side of 2 first, by
 * HOMG_COARSE_SWEEPS sweeps, which contract by about 1/9 each because every
 * cell then touches a Dirichlet edge.
 * VCYCLE and FCYCLE are the textbook cycles, one kernel per operation (a
 * colour of a sweep, residual + restriction, prolongation): the conventional
 * GPU multigrid homg is compared with.  FMG uses the fused steps, each one pass
 * over memory on the CUDA backend (kernels/grid/grid_fused.cu; large float32
 * levels: kernels/grid/grid_rows.cu from 1024^2).  A fixed sequence of cycles with
 * nothing read between them (homg__mg_sequence) fuses the finest level's up step and
 * the next cycle's down step where the backend has such a step.
 *
 * Work units: every whole-level pass (sweep, residual, prolongation) counts its
 * level's share of the finest grid (1/4 per level down); a fused step counts the
 * passes it replaces.  Bytes: the ideal traffic, each array read or written once
 * per kernel that touches it. */
#include "grid_internal.h"

#include <stdlib.h>
#include <string.h>

static double level_share(const homg_grid *g, int k) { return 1.0 / (double)(1ull << (2 * k)); }

void homg__account(homg_grid *g, long launches, double wu, double values)
{
    g->launches += launches;
    g->wu += wu;
    g->values_moved += values;
}

homg_count homg__counted(const homg_grid *g)
{
    homg_count c = { g->launches, g->wu, g->values_moved };
    return c;
}

homg_count homg__counted_since(const homg_grid *g, homg_count before)
{
    homg_count c = { g->launches - before.launches, g->wu - before.wu, g->values_moved - before.values_moved };
    return c;
}

homg_status homg__k_fail(homg_grid *g, homg_status st, const char *what)
{
    return homg__backend_fail(g->ctx, st, what);
}

/* One cycle's view of the hierarchy: level 0 is the caller's arrays and data,
 * coarser levels the grid's own, with homogeneous data unless FMG sets some.
 * The fused steps are out of place: on each level the down step writes x[k]
 * (from y[k] when it keeps the current value) and the up step reads x[k] and
 * writes y[k], which is where a level's result lives (the caller's u on level
 * 0).  The textbook steps work in place, so for them x[k] == y[k]. */
typedef struct cycle {
    homg_grid *g;
    grid_level lev[HOMG_GRID_MAX_LEVELS];
    void *x[HOMG_GRID_MAX_LEVELS], *y[HOMG_GRID_MAX_LEVELS];
    const void *f0;
    int pre[HOMG_GRID_MAX_LEVELS], post[HOMG_GRID_MAX_LEVELS]; /* sweeps per level (sweeps_of) */
} cycle;

static const void *f_of(cycle *c, int k) { return k == 0 ? c->f0 : c->g->f[k]; }

static double level_values(const cycle *c, int k) { return (double)c->lev[k].nx * c->lev[k].ny; }

/* FMG runs a level with the fused steps from g->fused_min cells up (every level by
 * default since the fused kernels take small tiles on small levels), below with the
 * textbook ones (measured on the H100, bench/results/h100.md). */
static int fused_at(const homg_grid *g, int k)
{
    return g->run == HOMG_METHOD_FMG && (double)g->lv[k].nx * g->lv[k].ny >= g->fused_min;
}

/* The coarsest level: exactly by the sine transform when it is small enough,
 * else by sweeps (long thin rectangles, where every cell is near an edge). */
static homg_status coarse(cycle *c, int k)
{
    homg_grid *g = c->g;
    if (g->coarse_w) { /* wider than 32 a side: two launches of many blocks */
        grid_exact_wide W;
        W.qx = g->coarse_qx;
        W.qxt = g->coarse_qxt;
        W.qy = g->coarse_qy;
        W.qyt = g->coarse_qyt;
        W.inv_eig = g->coarse_inv_eig;
        W.w = g->coarse_w;
        W.rows = g->exact_rows;
        W.split = g->exact_split;
        HOMG_TRY_BACKEND(g->ctx, g->k->exact_wide(&g->ctx->ex, g->desc.precision, &c->lev[k], c->y[k], f_of(c, k), &W),
                         "coarse solve");
        homg__account(g, 2, 4 * level_share(g, k), 4 * level_values(c, k));
        return HOMG_OK;
    }
    if (g->coarse_qx) {
        HOMG_TRY_BACKEND(g->ctx,
                         g->k->coarse_exact(&g->ctx->ex, g->desc.precision, &c->lev[k], c->y[k], f_of(c, k),
                                            g->coarse_qx, g->coarse_qy, g->coarse_inv_eig),
                         "coarse solve");
        homg__account(g, 1, 2 * level_share(g, k), 3 * level_values(c, k));
        return HOMG_OK;
    }
    HOMG_TRY_BACKEND(
        g->ctx, g->k->coarse_solve(&g->ctx->ex, g->desc.precision, &c->lev[k], c->y[k], f_of(c, k), HOMG_COARSE_SWEEPS),
        "coarse solve");
    homg__account(g, 1, HOMG_COARSE_SWEEPS * level_share(g, k), 2 * level_values(c, k));
    return HOMG_OK;
}

/* Textbook steps (VCYCLE, FCYCLE): one kernel per colour sweep, residual and
 * restriction, prolongation; fused steps (FMG): one pass each. Ideal traffic in
 * values: a colour half-sweep reads u and half of f and writes half of u. */
static homg_status smooth(cycle *c, int k, int sweeps)
{
    homg_grid *g = c->g;
    HOMG_TRY_BACKEND(g->ctx, g->k->smooth(&g->ctx->ex, g->desc.precision, &c->lev[k], c->y[k], f_of(c, k), sweeps),
                     "smoothing");
    homg__account(g, 2 * sweeps, sweeps * level_share(g, k), 4.0 * sweeps * level_values(c, k));
    return HOMG_OK;
}

static homg_status down(cycle *c, int k, int init)
{
    homg_grid *g = c->g;
    kernel_exec *ex = &g->ctx->ex;
    const int pre = c->pre[k];
    const double n = level_values(c, k);
    if (fused_at(g, k)) {
        HOMG_TRY_BACKEND(g->ctx,
                         g->k->smooth_restrict(ex, g->desc.precision, &c->lev[k], c->y[k], c->x[k], f_of(c, k),
                                               g->f[k + 1], pre, init, c->y[k + 1]),
                         "smoothing and restriction");
        homg__account(g, 1, (pre + 1 + (init == HOMG_INIT_PROLONG)) * level_share(g, k),
                      n * (2.25 + (init == HOMG_INIT_KEEP) + 0.25 * (init == HOMG_INIT_PROLONG)));
        return HOMG_OK;
    }
    if (init == HOMG_INIT_ZERO) {
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(ex, c->y[k], (size_t)n * g->elem), "zeroing a level");
        homg__account(g, 1, 0, n);
    } else if (init == HOMG_INIT_PROLONG) {
        HOMG_TRY_BACKEND(g->ctx, g->k->prolong(ex, g->desc.precision, &c->lev[k], c->y[k + 1], c->y[k], 1),
                         "interpolation");
        homg__account(g, 1, level_share(g, k), 1.25 * n);
    }
    HOMG_TRY(smooth(c, k, pre));
    HOMG_TRY_BACKEND(g->ctx,
                     g->k->residual_restrict(ex, g->desc.precision, &c->lev[k], c->y[k], f_of(c, k), g->f[k + 1]),
                     "residual and restriction");
    homg__account(g, 1, level_share(g, k), 2.25 * n);
    return HOMG_OK;
}

static homg_status up(cycle *c, int k)
{
    homg_grid *g = c->g;
    const int post = c->post[k];
    const double n = level_values(c, k);
    if (fused_at(g, k)) {
        HOMG_TRY_BACKEND(g->ctx,
                         g->k->prolong_smooth(&g->ctx->ex, g->desc.precision, &c->lev[k], c->y[k + 1], c->x[k], c->y[k],
                                              f_of(c, k), post, 0),
                         "prolongation and smoothing");
        homg__account(g, 1, (post + 1) * level_share(g, k), 3.25 * n);
        return HOMG_OK;
    }
    HOMG_TRY_BACKEND(g->ctx, g->k->prolong(&g->ctx->ex, g->desc.precision, &c->lev[k], c->y[k + 1], c->y[k], 0),
                     "prolongation");
    homg__account(g, 1, level_share(g, k), 2.25 * n);
    return smooth(c, k, post);
}

/* Improves u_k for A_k u_k = f_k by one V- or F-cycle (u_k starts at 0 when init is
 * HOMG_INIT_ZERO). */
static homg_status visit(cycle *c, int k, int init, int fcycle)
{
    if (k == c->g->nlevels - 1)
        return coarse(c, k);
    HOMG_TRY(down(c, k, init));
    if (fcycle) {
        HOMG_TRY(visit(c, k + 1, HOMG_INIT_ZERO, 1));
        HOMG_TRY(visit(c, k + 1, HOMG_INIT_KEEP, 0));
    } else {
        HOMG_TRY(visit(c, k + 1, HOMG_INIT_ZERO, 0));
    }
    return up(c, k);
}

/* Full multigrid from u = 0.  The right-hand side and the Dirichlet data are
 * restricted separately to every level (restricting f + boundary terms would
 * double the data's weight on coarse edges: 2g/h^2 averaged over two children
 * is g/h^2 = 4g/(2h)^2, not 2g/(2h)^2), each level is a rediscretisation of the
 * whole problem; the coarsest is solved, then on each finer level the coarser
 * solution is interpolated (fused into the first smoothing pass) and improved by
 * one V-cycle on the correction equation. */
static homg_status fmg(cycle *c)
{
    homg_grid *g = c->g;
    kernel_exec *ex = &g->ctx->ex;
    const int last = g->nlevels - 1;
    grid_level plain;
    int has_bc = 0;
    for (int s = 0; s < 4; s++)
        has_bc |= c->lev[0].bc[s] != NULL;
    for (int k = 0; k < last; k++) {
        plain = c->lev[k];
        plain.bc[0] = plain.bc[1] = plain.bc[2] = plain.bc[3] = NULL;
        HOMG_TRY_BACKEND(g->ctx, g->k->residual_restrict(ex, g->desc.precision, &plain, NULL, f_of(c, k), g->f[k + 1]),
                         "restriction of the right-hand side");
        homg__account(g, 1, level_share(g, k), 1.25 * level_values(c, k));
        if (has_bc) {
            void *const *out = g->gbc[k + 1];
            HOMG_TRY_BACKEND(g->ctx, g->k->restrict_boundary(ex, g->desc.precision, &c->lev[k], out),
                             "restriction of the boundary");
            homg__account(g, 1, 0, 1.5 * (c->lev[k].nx + c->lev[k].ny));
            for (int s = 0; s < 4; s++)
                c->lev[k + 1].bc[s] = c->lev[0].bc[s] ? out[s] : NULL;
        }
    }
    HOMG_TRY(coarse(c, last));
    for (int k = last - 1; k >= 0; k--) {
        for (int j = k + 1; j <= last; j++) /* coarser levels now hold corrections */
            c->lev[j].bc[0] = c->lev[j].bc[1] = c->lev[j].bc[2] = c->lev[j].bc[3] = NULL;
        HOMG_TRY(down(c, k, HOMG_INIT_PROLONG));
        HOMG_TRY(visit(c, k + 1, HOMG_INIT_ZERO, 0));
        HOMG_TRY(up(c, k));
    }
    return HOMG_OK;
}

/* The sweeps of each level in a cycle of that kind: the plan's first row in a solve's first
 * plain cycle, its second in later ones, where the grid has a plan (box.c, HOMG_BOX_SCHED);
 * else, and in FMG's full-multigrid cycle, desc.pre / desc.post.  (With V(2,1) in the
 * full-multigrid cycle a cold 4096^2 float32 solve needs a 4th cycle: 1.13e-4 after 3 against
 * 8.6e-5 with V(2,2) there, CPU, bench/results/cpu_box_schedules.md "Session 12 lead".) */
static void sweeps_of(cycle *c, int kind)
{
    const homg_grid *g = c->g;
    const int later = kind == HOMG_CYCLE_NORMAL, planned = g->planned && kind != HOMG_CYCLE_FMG;
    for (int k = 0; k < HOMG_GRID_MAX_LEVELS; k++) {
        c->pre[k] = planned ? g->plan[later][k][0] : g->desc.pre;
        c->post[k] = planned ? g->plan[later][k][1] : g->desc.post;
    }
}

static void cycle_init(cycle *c, homg_grid *g, const grid_level *L0, const void *f, void *u, int kind)
{
    c->g = g;
    c->f0 = f;
    memcpy(c->lev, g->lv, sizeof c->lev);
    c->lev[0] = *L0;
    sweeps_of(c, kind);
    for (int k = 0; k < g->nlevels; k++) {
        c->y[k] = k == 0 ? u : g->u[k];
        c->x[k] = !fused_at(g, k) ? c->y[k] : k == 0 ? g->u0_scratch : g->u2[k];
    }
}

homg_status homg__mg_cycle(homg_grid *g, const grid_level *L0, const void *f, void *u, int kind)
{
    cycle c;
    cycle_init(&c, g, L0, f, u, kind);
    if (kind == HOMG_CYCLE_FMG)
        return fmg(&c);
    return visit(&c, 0, HOMG_INIT_KEEP, g->run == HOMG_METHOD_FCYCLE);
}

/* ------------------------------------------------- fused cycle boundaries */

/* Cycle a's up step on level 0 and cycle b's down step in one pass (the kernel table's
 * prolong_smooth_restrict): reads x[0] and the correction y[1], writes y[0] and f[1], so
 * level 0's two buffers trade roles for cycle b.  The sweeps: a's post, then b's pre. */
static homg_status mid(cycle *a, const cycle *b)
{
    homg_grid *g = a->g;
    const int sweeps = a->post[0] + b->pre[0];
    const double n = level_values(a, 0);
    HOMG_TRY_BACKEND(g->ctx,
                     g->k->prolong_smooth_restrict(&g->ctx->ex, g->desc.precision, &a->lev[0], a->y[1], a->x[0],
                                                   a->y[0], f_of(a, 0), g->f[1], sweeps),
                     "prolongation, smoothing and restriction");
    homg__account(g, 1, (sweeps + 2) * level_share(g, 0), 3.5 * n);
    return HOMG_OK;
}

/* Whether the boundary after cycle a (before b) is one mid step: both plain V-cycles of the
 * fused steps that go below level 0, a float32 level 0 of at least mid_min cells (box.c: the
 * rule every backend follows, so they queue the same steps), sweeps the backend takes, either
 * buffer order. */
static int mid_fits(const cycle *a, const cycle *b, int a_kind)
{
    const homg_grid *g = a->g;
    const void *p0[4] = { a->x[0], a->y[0], a->f0, g->f[1] }, *p1[4] = { a->y[0], a->x[0], a->f0, g->f[1] };
    const int sweeps = a->post[0] + b->pre[0];
    if (!g->fuse_mid || a_kind == HOMG_CYCLE_FMG || !fused_at(g, 0) || g->nlevels < 2)
        return 0;
    if (g->desc.precision != HOMG_FLOAT32 || level_values(a, 0) < g->mid_min)
        return 0;
    return g->k->mid_fits(g->desc.precision, &a->lev[0], sweeps, p0) &&
           g->k->mid_fits(g->desc.precision, &a->lev[0], sweeps, p1);
}

static void swap_level0(cycle *c)
{
    void *t = c->x[0];
    c->x[0] = c->y[0];
    c->y[0] = t;
}

/* `count` cycles with no monitor between them: a V-cycle's levels >= 1 as usual, level 0's
 * up step and the next cycle's down step fused where mid_fits.  Each mid step swaps level 0's
 * buffers, so an even number of boundaries is fused (the first eligible one stays apart
 * when their number is odd) and the last up step writes u.  Where none fits (F-cycles,
 * textbook steps, level 0 the coarsest, HOMG_BOX_MID=0) this is homg__mg_cycle's sequence. */
homg_status homg__mg_sequence(homg_grid *g, const grid_level *L0, const void *f, void *u, int count, int first_kind)
{
    cycle c, next;
    int eligible = 0, skip, swapped = 0, fuse_in = 0;
    if (count < 2 || g->run != HOMG_METHOD_FMG) {
        for (int i = 0; i < count; i++)
            HOMG_TRY(homg__mg_cycle(g, L0, f, u, i == 0 ? first_kind : HOMG_CYCLE_NORMAL));
        return HOMG_OK;
    }
    for (int i = 0; i + 1 < count; i++) {
        cycle_init(&c, g, L0, f, u, i == 0 ? first_kind : HOMG_CYCLE_NORMAL);
        cycle_init(&next, g, L0, f, u, HOMG_CYCLE_NORMAL);
        eligible += mid_fits(&c, &next, i == 0 ? first_kind : HOMG_CYCLE_NORMAL);
    }
    skip = eligible & 1; /* drop the first eligible boundary */
    for (int i = 0; i < count; i++) {
        const int kind = i == 0 ? first_kind : HOMG_CYCLE_NORMAL;
        int fuse_out = 0;
        cycle_init(&c, g, L0, f, u, kind);
        if (swapped)
            swap_level0(&c);
        if (i + 1 < count) {
            cycle_init(&next, g, L0, f, u, HOMG_CYCLE_NORMAL);
            fuse_out = mid_fits(&c, &next, kind);
            if (fuse_out && skip) {
                fuse_out = 0;
                skip = 0;
            }
        }
        if (!fuse_in && !fuse_out) {
            HOMG_TRY(kind == HOMG_CYCLE_FMG ? fmg(&c) : visit(&c, 0, HOMG_INIT_KEEP, 0));
        } else {
            if (!fuse_in)
                HOMG_TRY(down(&c, 0, HOMG_INIT_KEEP));
            HOMG_TRY(visit(&c, 1, HOMG_INIT_ZERO, 0));
            if (fuse_out) {
                HOMG_TRY(mid(&c, &next));
                swapped = !swapped;
            } else {
                HOMG_TRY(up(&c, 0));
            }
        }
        fuse_in = fuse_out;
    }
    return HOMG_OK;
}
