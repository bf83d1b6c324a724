/* graphs.c -- the grid's cache of captured CUDA graphs: a queued sequence of
 * kernels (a box solver's cycles, a general solver's iteration) is captured once
 * per key and replayed; the CPU backend runs the sequence directly. */
#include "grid_internal.h"

#include <string.h>

#include <stdlib.h>

/* Whether a tolerance solve loops on the device (one graph with a WHILE node, one
 * host read): CUDA, unless a driver refused such a graph before or
 * HOMG_GRID_DEVICE_LOOP=0 asks for the host's loop (a read after each cycle). */
int homg__grid_device_loop(const homg_grid *g)
{
    return g->ctx->ex.backend == HOMG_BACKEND_CUDA && !g->no_device_loop && homg__knob("HOMG_GRID_DEVICE_LOOP", 1) != 0;
}

void homg__grid_graphs_drop(homg_grid *g)
{
    for (int i = 0; i < g->ngraphs; i++)
        if (g->graphs[i].graph)
            g->ctx->mem->graph_destroy(g->graphs[i].graph);
    free(g->graphs);
    g->graphs = NULL;
    g->ngraphs = 0;
}

/* The cache, where not yet there: HOMG_GRID_GRAPHS entries and 4 per right-hand
 * side, since the general solver's steps (2 restarts, 2 iteration halves) are
 * keyed by each right-hand side's f and u; with a fixed 16, nrhs = 5 (20 keys)
 * evicted a graph at every step and re-captured every solve. */
static homg_status graphs_ready(homg_grid *g)
{
    const int n = HOMG_GRID_GRAPHS + 4 * (g->desc.nrhs > 1 ? g->desc.nrhs : 1);
    if (g->graphs)
        return HOMG_OK;
    g->graphs = (homg_graph_entry *)calloc((size_t)n, sizeof *g->graphs);
    if (!g->graphs)
        return homg__fail(g->ctx, HOMG_ERROR_OUT_OF_MEMORY, "graph cache: out of host memory");
    g->ngraphs = n;
    return HOMG_OK;
}

/* Runs a sequence: replays its graph when one was captured for the same key,
 * captures one on the CUDA backend, runs it directly on the CPU. */
homg_status homg__grid_graph_run(homg_grid *g, const homg_seq_key *key, homg_status (*queue)(homg_grid *, void *),
                                 void *arg)
{
    kernel_exec *ex = &g->ctx->ex;
    homg_graph_entry *e = NULL, *victim;
    const homg_count before = homg__counted(g);
    homg_status st;

    if (ex->backend != HOMG_BACKEND_CUDA)
        return queue(g, arg);
    HOMG_TRY(graphs_ready(g));
    victim = &g->graphs[0];
    for (int i = 0; i < g->ngraphs; i++) {
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
        memset(&g->body, 0, sizeof g->body);
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
        g->graph_captures++;
        e->cost = homg__counted_since(g, before);
        e->body = g->body;
        g->launches = before.launches; /* counted below, at the launch */
        g->wu = before.wu;
        g->values_moved = before.values_moved;
    }
    e->used = ++g->graph_clock;
    g->body = e->body;
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->graph_launch(ex, e->graph), "graph launch");
    homg__account(g, e->cost.launches, e->cost.wu, e->cost.values_moved);
    return HOMG_OK;
}
