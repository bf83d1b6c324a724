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

#include <string.h>

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

/* One cycle's view of the hierarchy: level 0 is the caller's arrays and data,
 * coarser levels the grid's own, with homogeneous data unless FMG sets some. */
typedef struct cycle {
    homg_grid *g;
    homg_level lev[HOMG_GRID_MAX_LEVELS];
    void *u0;
    const void *f0;
} cycle;

static void *u_of(cycle *c, int k) { return k == 0 ? c->u0 : c->g->u[k]; }
static const void *f_of(cycle *c, int k) { return k == 0 ? c->f0 : c->g->f[k]; }

static homg_status coarse(cycle *c, int k)
{
    homg_grid *g = c->g;
    QUEUE(g, g->k->coarse_solve(&g->ctx->ex, g->desc.precision, &c->lev[k], u_of(c, k), f_of(c, k),
                                HOMG_COARSE_SWEEPS),
          "coarse solve");
    g->launches += 1;
    g->wu += HOMG_COARSE_SWEEPS * level_share(g, k);
    return HOMG_OK;
}

static homg_status down(cycle *c, int k, int init)
{
    homg_grid *g = c->g;
    int pre = g->desc.pre;
    QUEUE(g, g->k->smooth_restrict(&g->ctx->ex, g->desc.precision, &c->lev[k], u_of(c, k), f_of(c, k), g->f[k + 1],
                                   pre, init, g->u[k + 1]),
          "smoothing and restriction");
    g->launches += 1;
    g->wu += (pre + 1 + (init == HOMG_INIT_PROLONG)) * level_share(g, k);
    return HOMG_OK;
}

static homg_status up(cycle *c, int k)
{
    homg_grid *g = c->g;
    int post = g->desc.post;
    QUEUE(g, g->k->prolong_smooth(&g->ctx->ex, g->desc.precision, &c->lev[k], g->u[k + 1], u_of(c, k), f_of(c, k),
                                  post, 0),
          "prolongation and smoothing");
    g->launches += 1;
    g->wu += (post + 1) * level_share(g, k);
    return HOMG_OK;
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
    homg_exec *ex = &g->ctx->ex;
    const int last = g->nlevels - 1;
    homg_level plain;
    int has_bc = 0;
    for (int s = 0; s < 4; s++)
        has_bc |= c->lev[0].bc[s] != NULL;
    for (int k = 0; k < last; k++) {
        plain = c->lev[k];
        plain.bc[0] = plain.bc[1] = plain.bc[2] = plain.bc[3] = NULL;
        QUEUE(g, g->k->residual_restrict(ex, g->desc.precision, &plain, NULL, f_of(c, k), g->f[k + 1]),
              "restriction of the right-hand side");
        g->launches += 1;
        g->wu += level_share(g, k);
        if (has_bc) {
            void *const *out = g->gbc[k + 1];
            QUEUE(g, g->k->restrict_boundary(ex, g->desc.precision, &c->lev[k], out), "restriction of the boundary");
            g->launches += 1;
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

homg_status homg__mg_cycle(homg_grid *g, const homg_level *L0, const void *f, void *u, int kind)
{
    cycle c;
    c.g = g;
    c.u0 = u;
    c.f0 = f;
    memcpy(c.lev, g->lv, sizeof c.lev);
    c.lev[0] = *L0;
    if (kind == HOMG_CYCLE_FMG)
        return fmg(&c);
    return visit(&c, 0, HOMG_INIT_KEEP, g->desc.method == HOMG_METHOD_FCYCLE);
}
