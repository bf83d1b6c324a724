/* grid_cycles.c -- geometric multigrid cycles on the cell-centred hierarchy:
 * V- and F-cycles (HOMG_METHOD_VCYCLE / FCYCLE) and full multigrid
 * (HOMG_METHOD_FMG, the default).  Each cycle is a fixed sequence of kernel-table
 * calls, so the CUDA backend captures it once into a graph.
 *
 * The pieces: a down-leg step (optional initialisation, `pre` red-black
 * Gauss-Seidel sweeps, residual, restriction to the next level), an up-leg step
 * (prolongate and add the correction, `post` sweeps), and the coarsest level
 * solved by HOMG_COARSE_SWEEPS sweeps (min side 2, where Gauss-Seidel contracts
 * by about 1/9 per sweep because every cell touches a Dirichlet edge).
 * On the CUDA backend the down and up steps are each one fused pass over memory.
 *
 * Work units: every whole-level pass (sweep, residual, prolongation) counts its
 * level's share of the finest grid (1/4 per level down); a fused step counts the
 * passes it replaces. */
#include "grid_internal.h"

static double level_share(const homg_grid *g, int k)
{
    return 1.0 / (double)(1ull << (2 * k));
}

homg_status homg__k_fail(homg_grid *g, homg_status st, const char *what)
{
    return homg__backend_fail(g->ctx, st, what);
}

#define QUEUE(g, call, what)                               \
    do {                                                   \
        homg_status st_ = (call);                          \
        if (st_ != HOMG_OK)                                \
            return homg__k_fail((g), st_, (what));         \
    } while (0)

/* Level k's arrays: level 0 is the caller's. */
typedef struct level_view {
    const homg_level *L;
    void *u;
    const void *f;
} level_view;

static level_view view(homg_grid *g, int k, const homg_level *L0, const void *f0, void *u0)
{
    level_view v;
    v.L = k == 0 ? L0 : &g->lv[k];
    v.u = k == 0 ? u0 : g->u[k];
    v.f = k == 0 ? f0 : g->f[k];
    return v;
}

static homg_status coarse(homg_grid *g, int k, level_view v)
{
    QUEUE(g, g->k->coarse_solve(&g->ctx->ex, g->desc.precision, v.L, v.u, v.f, HOMG_COARSE_SWEEPS),
          "coarse solve");
    g->launches += 1;
    g->wu += HOMG_COARSE_SWEEPS * level_share(g, k);
    return HOMG_OK;
}

static homg_status down(homg_grid *g, int k, level_view v, int init)
{
    int pre = g->desc.pre;
    QUEUE(g, g->k->smooth_restrict(&g->ctx->ex, g->desc.precision, v.L, v.u, v.f, g->f[k + 1], pre, init,
                                   g->u[k + 1]),
          "smoothing and restriction");
    g->launches += 1;
    g->wu += (pre + 1 + (init == HOMG_INIT_PROLONG)) * level_share(g, k);
    return HOMG_OK;
}

static homg_status up(homg_grid *g, int k, level_view v)
{
    int post = g->desc.post;
    QUEUE(g, g->k->prolong_smooth(&g->ctx->ex, g->desc.precision, v.L, g->u[k + 1], v.u, v.f, post, 0),
          "prolongation and smoothing");
    g->launches += 1;
    g->wu += (post + 1) * level_share(g, k);
    return HOMG_OK;
}

/* Improves u_k for A_k u_k = f_k by one V- or F-cycle (u_k starts at 0 when init is
 * HOMG_INIT_ZERO). */
static homg_status visit(homg_grid *g, int k, int init, int fcycle, const homg_level *L0, const void *f0, void *u0)
{
    level_view v = view(g, k, L0, f0, u0);
    if (k == g->nlevels - 1)
        return coarse(g, k, v);
    HOMG_TRY(down(g, k, v, init));
    if (fcycle) {
        HOMG_TRY(visit(g, k + 1, HOMG_INIT_ZERO, 1, L0, f0, u0));
        HOMG_TRY(visit(g, k + 1, HOMG_INIT_KEEP, 0, L0, f0, u0));
    } else {
        HOMG_TRY(visit(g, k + 1, HOMG_INIT_ZERO, 0, L0, f0, u0));
    }
    return up(g, k, v);
}

/* Full multigrid from u = 0: the right-hand side restricted to every level, the
 * coarsest solved, then on each finer level the coarser solution interpolated
 * (fused into the first smoothing pass) and improved by one V-cycle. */
static homg_status fmg(homg_grid *g, const homg_level *L0, const void *f0, void *u0)
{
    int last = g->nlevels - 1;
    for (int k = 0; k < last; k++) {
        level_view v = view(g, k, L0, f0, u0);
        QUEUE(g, g->k->residual_restrict(&g->ctx->ex, g->desc.precision, v.L, NULL, v.f, g->f[k + 1]),
              "restriction of the right-hand side");
        g->launches += 1;
        g->wu += level_share(g, k);
    }
    HOMG_TRY(coarse(g, last, view(g, last, L0, f0, u0)));
    for (int k = last - 1; k >= 0; k--) {
        level_view v = view(g, k, L0, f0, u0);
        HOMG_TRY(down(g, k, v, HOMG_INIT_PROLONG));
        HOMG_TRY(visit(g, k + 1, HOMG_INIT_ZERO, 0, L0, f0, u0));
        HOMG_TRY(up(g, k, v));
    }
    return HOMG_OK;
}

homg_status homg__mg_cycle(homg_grid *g, const homg_level *L0, const void *f, void *u, int kind)
{
    if (g->nlevels == 1)
        return coarse(g, 0, view(g, 0, L0, f, u));
    if (kind == HOMG_CYCLE_FMG)
        return fmg(g, L0, f, u);
    return visit(g, 0, HOMG_INIT_KEEP, g->desc.method == HOMG_METHOD_FCYCLE, L0, f, u);
}
