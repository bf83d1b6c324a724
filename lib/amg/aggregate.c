/* aggregate.c -- smoothed-aggregation aggregates (seed 000, 5.2.1).
 *
 * 1. A distance-k maximal independent set of the level's matrix graph, with
 *    random priorities (Bell, Dalton, Olson: every round takes the maximum of
 *    (state, priority, row) k times over the neighbourhoods; an undecided row
 *    that is its own k-neighbourhood's maximum joins, one that sees a member
 *    leaves).  k = 2 on the finest level (seed 000); k = 1 below by default,
 *    because a Galerkin matrix of smoothed prolongators already couples rows
 *    three aggregates apart, and distance 2 there makes aggregates of ~70 rows
 *    and a weak coarse correction.
 * 2. Roots are numbered in row order; each root and its neighbours form an
 *    aggregate (a neighbour of several roots joins the one numbered first).
 * 3. Rows still without an aggregate join the one most of their neighbours
 *    belong to (ties: the smaller aggregate), round by round.
 * 4. Aggregates smaller than min_aggregate are dissolved and their rows grown
 *    into the neighbouring aggregates the same way; aggregates that cannot
 *    dissolve (no neighbouring aggregate) are kept.
 * Priorities hash (row, seed, level), and every round reads one array and
 * writes another, so the aggregates depend on the matrix pattern only: the CPU
 * and CUDA backends build the same ones.
 */
#include "amg_internal.h"

#include <string.h>

#define MIS_ROUNDS_MAX  200
#define GROW_ROUNDS_MAX 100
/* The host reads the count of undecided (unassigned) rows after every second
 * round only: a round after the set (the aggregates) settled changes nothing,
 * so the result is the same, with half the waits (each costs the GPU an idle
 * gap; the 128^3 cube's set-up had 66 of them here). */
#define ROUNDS_PER_READ 2

typedef struct work {
    uint64_t *key, *k1, *k2;
    int32_t *flag, *id, *base, *cur, *next, *size, *keep;
} work;

static void work_free(homg_amg *amg, work *w)
{
    void **p = (void **)w;
    for (size_t i = 0; i < sizeof *w / sizeof(void *); i++)
        homg__free(amg->ctx, p[i]);
}

/* Rounds of agg_grow from cur until every row has an aggregate or no round
 * helps; returns the rows left without one in *left.  The result is in *cur. */
static homg_status grow(homg_amg *amg, const csr_matrix *a, int32_t **cur, int32_t **next, int32_t *left)
{
    int32_t before = -1;
    for (int round = 0; round < GROW_ROUNDS_MAX; round++) {
        int32_t *t;
        HOMG_TRY_BACKEND(amg->ctx, AMG_AK(amg)->agg_grow(&amg->ctx->ex, a, *cur, *next, amg->count),
                         "growing aggregates");
        t = *cur;
        *cur = *next;
        *next = t;
        if (round % ROUNDS_PER_READ != ROUNDS_PER_READ - 1 && round + 1 < GROW_ROUNDS_MAX)
            continue;
        HOMG_TRY(homg__amg_read_count(amg, left));
        if (*left == 0 || *left == before)
            break;
        before = *left;
    }
    return HOMG_OK;
}

/* Step 1: the distance-`dist` maximal independent set of level l in w->key. */
static homg_status independent_set(homg_amg *amg, int l, const csr_matrix *a, work *w)
{
    kernel_exec *ex = &amg->ctx->ex;
    const amg_kernels *ak = AMG_AK(amg);
    int32_t n = a->nrows, undecided = n;
    uint32_t seed = amg->desc.seed * 0x9E3779B9u + (uint32_t)l * 0x85EBCA6Bu;
    int dist = l == 0 ? amg->desc.mis_distance : amg->desc.mis_distance_coarse;
    HOMG_TRY_BACKEND(amg->ctx, ak->mis_init(ex, n, seed, w->key), "MIS");
    for (int round = 0; round < MIS_ROUNDS_MAX && undecided > 0; round++) {
        const uint64_t *in = w->key;
        uint64_t *out = w->k1;
        for (int hop = 0; hop < dist; hop++) { /* the maximum over the dist-neighbourhood */
            HOMG_TRY_BACKEND(amg->ctx, ak->mis_max(ex, a, in, out), "MIS");
            in = out;
            out = out == w->k1 ? w->k2 : w->k1;
        }
        HOMG_TRY_BACKEND(amg->ctx, ak->mis_update(ex, n, w->key, in, amg->count), "MIS");
        if (round % ROUNDS_PER_READ == ROUNDS_PER_READ - 1 || round + 1 == MIS_ROUNDS_MAX)
            HOMG_TRY(homg__amg_read_count(amg, &undecided));
    }
    if (undecided > 0)
        return homg__fail(amg->ctx, HOMG_ERROR_NUMERIC, "level %d: the independent set did not settle in %d rounds", l,
                          MIS_ROUNDS_MAX);
    return HOMG_OK;
}

/* Steps 2 and 3: an aggregate per root with its neighbours, then the rest
 * joins neighbouring aggregates (in w->cur); *roots aggregates. */
static homg_status roots_and_growth(homg_amg *amg, int l, const csr_matrix *a, work *w, int32_t *roots)
{
    kernel_exec *ex = &amg->ctx->ex;
    const amg_kernels *ak = AMG_AK(amg);
    int32_t n = a->nrows, left = 0;
    HOMG_TRY_BACKEND(amg->ctx, ak->mis_flags(ex, n, w->key, w->flag), "aggregates");
    HOMG_TRY_BACKEND(amg->ctx, AMG_SK(amg)->scan_i32(ex, amg->handle, w->flag, w->id, n, amg->count), "aggregates");
    HOMG_TRY(homg__amg_read_count(amg, roots));
    HOMG_TRY_BACKEND(amg->ctx, ak->agg_from_roots(ex, a, w->flag, w->id, w->cur), "aggregates");
    HOMG_TRY(grow(amg, a, &w->cur, &w->next, &left));
    if (left > 0)
        return homg__fail(amg->ctx, HOMG_ERROR_NUMERIC, "level %d: %d rows found no aggregate", l, left);
    return HOMG_OK;
}

/* Step 4: aggregates below min_size rows dissolve into their neighbours (in
 * w->cur; w->base keeps the aggregates before); *kept aggregates remain. */
static homg_status dissolve_small(homg_amg *amg, int l, const csr_matrix *a, work *w, int32_t roots, int32_t *kept)
{
    kernel_exec *ex = &amg->ctx->ex;
    const amg_kernels *ak = AMG_AK(amg);
    const sparse_kernels *sk = AMG_SK(amg);
    int32_t n = a->nrows, left = 0;
    int32_t min_size = amg->desc.min_aggregate > 0 ? amg->desc.min_aggregate : (n / (roots > 0 ? roots : 1)) / 3;
    w->base = w->cur;
    w->cur = w->next;
    w->next = NULL;
    HOMG_TRY(homg__alloc_array(amg->ctx, (size_t)n, sizeof(int32_t), (void **)&w->next, "aggregates"));
    if (min_size > 1) {
        HOMG_TRY_BACKEND(amg->ctx, ak->agg_sizes(ex, n, w->base, roots, w->size), "aggregate sizes");
        HOMG_TRY_BACKEND(amg->ctx, ak->agg_keep(ex, roots, w->size, min_size, w->keep), "aggregate sizes");
    } else {
        HOMG_TRY_BACKEND(amg->ctx, sk->fill_i32(ex, w->keep, roots, 1), "aggregate sizes");
    }
    *kept = 0;
    for (int attempt = 0; attempt < 2; attempt++) {
        HOMG_TRY_BACKEND(amg->ctx, sk->scan_i32(ex, amg->handle, w->keep, w->id, roots, amg->count), "aggregates");
        HOMG_TRY(homg__amg_read_count(amg, kept));
        if (*kept == 0) { /* every aggregate is small: keep them all */
            HOMG_TRY_BACKEND(amg->ctx, sk->fill_i32(ex, w->keep, roots, 1), "aggregates");
            continue;
        }
        HOMG_TRY_BACKEND(amg->ctx, ak->agg_relabel(ex, n, w->base, w->keep, w->id, w->cur), "aggregates");
        HOMG_TRY(grow(amg, a, &w->cur, &w->next, &left));
        if (left == 0)
            break;
        /* Some small aggregates have no kept neighbour: keep them too. */
        HOMG_TRY_BACKEND(amg->ctx, ak->agg_restore(ex, n, w->base, w->cur, w->keep), "aggregates");
    }
    if (left > 0 || *kept == 0)
        return homg__fail(amg->ctx, HOMG_ERROR_NUMERIC, "level %d: merging small aggregates left %d rows", l, left);
    return HOMG_OK;
}

static homg_status aggregate(homg_amg *amg, int l, const csr_matrix *a, work *w, int32_t *agg, int32_t *nagg)
{
    int32_t roots = 0, kept = 0;
    HOMG_TRY(independent_set(amg, l, a, w));
    HOMG_TRY(roots_and_growth(amg, l, a, w, &roots));
    HOMG_TRY(dissolve_small(amg, l, a, w, roots, &kept));
    HOMG_TRY_BACKEND(amg->ctx,
                     amg->ctx->mem->copy(&amg->ctx->ex, agg, w->cur, (size_t)a->nrows * sizeof(int32_t), HOMG_D2D),
                     "aggregates");
    *nagg = kept;
    return HOMG_OK;
}

homg_status homg__amg_aggregate(homg_amg *amg, int l, const csr_matrix *g, int32_t *agg, int32_t *nagg)
{
    int32_t n = amg->lv[l].a.nrows;
    work w;
    homg_status st = HOMG_OK;
    memset(&w, 0, sizeof w);
    st = homg__alloc_array(amg->ctx, (size_t)n, sizeof(uint64_t), (void **)&w.key, "MIS");
    if (st == HOMG_OK)
        st = homg__alloc_array(amg->ctx, (size_t)n, sizeof(uint64_t), (void **)&w.k1, "MIS");
    if (st == HOMG_OK)
        st = homg__alloc_array(amg->ctx, (size_t)n, sizeof(uint64_t), (void **)&w.k2, "MIS");
    {
        int32_t **ints[] = { &w.flag, &w.id, &w.cur, &w.next, &w.size, &w.keep };
        for (size_t i = 0; st == HOMG_OK && i < sizeof ints / sizeof ints[0]; i++)
            st = homg__alloc_array(amg->ctx, (size_t)n + 1, sizeof(int32_t), (void **)ints[i], "aggregates");
    }
    if (st == HOMG_OK)
        st = aggregate(amg, l, g, &w, agg, nagg);
    work_free(amg, &w);
    return st;
}
