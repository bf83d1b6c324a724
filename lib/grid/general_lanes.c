/* general_lanes.c -- the general solver's lanes: the right-hand sides of a solve run
 * HOMG_EXEC_LANES at a time side by side on CUDA, each with its own work arrays. */
#include "general_internal.h"

#include <stdlib.h>
#include <string.h>

void homg__gen_lane_free(homg_grid *g, gen_lane *a)
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
    HOMG_TRY(homg__gen_two_pass_arrays(g, a->kz, a->kq, &a->kw));
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
void homg__gen_use_lane(homg_grid *g, int i)
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
homg_status homg__gen_lanes_ready(homg_grid *g)
{
    grid_general *G = g->gen;
    gen_lane *a = &G->lane[0];
    /* HOMG_GEN_LANES=1: one right-hand side after another (the benchmark times lanes against
     * it; the library documents no such variable) */
    const int set = (int)homg__knob("HOMG_GEN_LANES", 0), most = set >= 1 ? set : HOMG_EXEC_LANES;
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
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(&g->ctx->ex, G->lane[i].count, sizeof(int)), "history");
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
