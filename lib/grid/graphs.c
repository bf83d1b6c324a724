/* graphs.c -- the grid's cache of captured CUDA graphs: a queued sequence of
 * kernels (a box solver's cycles, a general solver's iteration) is captured once
 * per key and replayed; the CPU backend runs the sequence directly. */
#include "grid_internal.h"

#include <string.h>

void homg__grid_graphs_drop(homg_grid *g)
{
    for (int i = 0; i < HOMG_GRID_GRAPHS; i++)
        if (g->graphs[i].graph)
            g->ctx->mem->graph_destroy(g->graphs[i].graph);
    memset(g->graphs, 0, sizeof g->graphs);
}

/* Runs a sequence: replays its graph when one was captured for the same key,
 * captures one on the CUDA backend, runs it directly on the CPU. */
homg_status homg__grid_graph_run(homg_grid *g, const homg_seq_key *key, homg_status (*queue)(homg_grid *, void *),
                                 void *arg)
{
    kernel_exec *ex = &g->ctx->ex;
    homg_graph_entry *e = NULL, *victim = &g->graphs[0];
    long launches0 = g->launches;
    double wu0 = g->wu, values0 = g->values_moved;
    homg_status st;

    if (ex->backend != HOMG_BACKEND_CUDA)
        return queue(g, arg);
    for (int i = 0; i < HOMG_GRID_GRAPHS; i++) {
        if (g->graphs[i].graph && !memcmp(&g->graphs[i].key, key, sizeof *key))
            e = &g->graphs[i];
        if (g->graphs[i].used < victim->used)
            victim = &g->graphs[i];
    }
    if (!e) {
        e = victim;
        if (e->graph)
            g->ctx->mem->graph_destroy(e->graph);
        memset(e, 0, sizeof *e);
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->capture_begin(ex), "graph capture");
        st = queue(g, arg);
        if (st != HOMG_OK) {
            void *discard = NULL;
            g->ctx->mem->capture_end(ex, &discard);
            if (discard)
                g->ctx->mem->graph_destroy(discard);
            return st;
        }
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->capture_end(ex, &e->graph), "graph instantiation");
        e->key = *key;
        e->launches = g->launches - launches0;
        e->wu = g->wu - wu0;
        e->values_moved = g->values_moved - values0;
        g->launches = launches0;
        g->wu = wu0;
        g->values_moved = values0;
    }
    e->used = ++g->graph_clock;
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->graph_launch(ex, e->graph), "graph launch");
    homg__account(g, e->launches, e->wu, e->values_moved);
    return HOMG_OK;
}
