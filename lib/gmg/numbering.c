/* numbering.c -- DOF numbering of the hierarchy (seed 004: the numbering sets
 * the bandwidth of A and so the SpMV's access pattern on x).
 *
 * order[new] = old per level, in the native numbering homg_mesh_refine gives
 * (old nodes, then midpoints by edge).  AS_READ keeps it; RANDOM shuffles each
 * level; RCM runs reverse Cuthill-McKee on each level's node graph (start: a
 * pseudo-peripheral node of each component, neighbours by rising degree);
 * TWO_LEVEL takes RCM on the coarsest level and numbers each finer level's
 * coarse vertices first, in the coarse level's new order, then its midpoints
 * sorted by their two parents' new numbers.
 */
#include "gmg_internal.h"
#include "mesh/mesh_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct graph {
    int32_t n, *ptr, *adj;
} graph;

static void graph_free(graph *g)
{
    free(g->ptr);
    free(g->adj);
}

static homg_status mesh_graph(homg_ctx *ctx, const homg_mesh *m, graph *g)
{
    uint64_t *e = NULL;
    size_t ne = 0;
    memset(g, 0, sizeof *g);
    HOMG_TRY(homg__mesh_edges(ctx, m, &e, &ne));
    g->n = m->num_nodes;
    g->ptr = (int32_t *)calloc((size_t)g->n + 1, sizeof *g->ptr);
    g->adj = (int32_t *)malloc((2 * ne + 1) * sizeof *g->adj);
    if (!g->ptr || !g->adj) {
        free(e);
        graph_free(g);
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "GMG numbering: out of host memory");
    }
    for (size_t k = 0; k < ne; k++) {
        g->ptr[(e[k] >> 32) + 1]++;
        g->ptr[(e[k] & 0xffffffffu) + 1]++;
    }
    for (int32_t i = 0; i < g->n; i++)
        g->ptr[i + 1] += g->ptr[i];
    {
        int32_t *fill = (int32_t *)malloc(((size_t)g->n + 1) * sizeof *fill);
        if (!fill) {
            free(e);
            graph_free(g);
            return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "GMG numbering: out of host memory");
        }
        memcpy(fill, g->ptr, ((size_t)g->n + 1) * sizeof *fill);
        for (size_t k = 0; k < ne; k++) {
            int32_t a = (int32_t)(e[k] >> 32), b = (int32_t)(e[k] & 0xffffffffu);
            g->adj[fill[a]++] = b;
            g->adj[fill[b]++] = a;
        }
        free(fill);
    }
    free(e);
    return HOMG_OK;
}

/* Breadth-first levels from s; returns the last node reached (farthest). */
static int32_t bfs(const graph *g, int32_t s, int32_t *queue, int32_t *mark, int32_t stamp, int32_t *count)
{
    int32_t head = 0, tail = 0;
    queue[tail++] = s;
    mark[s] = stamp;
    while (head < tail) {
        int32_t u = queue[head++];
        for (int32_t k = g->ptr[u]; k < g->ptr[u + 1]; k++)
            if (mark[g->adj[k]] != stamp) {
                mark[g->adj[k]] = stamp;
                queue[tail++] = g->adj[k];
            }
    }
    *count = tail;
    return queue[tail - 1];
}

static const graph *sort_graph;
static int by_degree(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    int32_t dx = sort_graph->ptr[x + 1] - sort_graph->ptr[x], dy = sort_graph->ptr[y + 1] - sort_graph->ptr[y];
    return dx != dy ? (dx < dy ? -1 : 1) : (x < y ? -1 : x > y);
}

/* Cuthill-McKee from s into order[at..]; returns the new end. */
static int32_t cuthill_mckee(const graph *g, int32_t s, int32_t *order, int32_t at, uint8_t *done)
{
    int32_t head = at;
    order[at++] = s;
    done[s] = 1;
    while (head < at) {
        int32_t u = order[head++], first = at;
        for (int32_t k = g->ptr[u]; k < g->ptr[u + 1]; k++)
            if (!done[g->adj[k]]) {
                done[g->adj[k]] = 1;
                order[at++] = g->adj[k];
            }
        sort_graph = g; /* single-threaded set-up */
        qsort(order + first, (size_t)(at - first), sizeof *order, by_degree);
    }
    return at;
}

static homg_status rcm(homg_ctx *ctx, const homg_mesh *m, int32_t *order)
{
    graph g;
    int32_t n = m->num_nodes, at = 0, *queue, *mark;
    uint8_t *done;
    HOMG_TRY(mesh_graph(ctx, m, &g));
    queue = (int32_t *)malloc((size_t)n * sizeof *queue);
    mark = (int32_t *)calloc((size_t)n, sizeof *mark);
    done = (uint8_t *)calloc((size_t)n, 1);
    if (!queue || !mark || !done) {
        free(queue);
        free(mark);
        free(done);
        graph_free(&g);
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "GMG numbering: out of host memory");
    }
    for (int32_t s = 0, stamp = 1; s < n; s++) {
        int32_t far, cnt;
        if (done[s])
            continue;
        far = bfs(&g, s, queue, mark, stamp++, &cnt); /* two sweeps: a pseudo-peripheral start */
        far = bfs(&g, far, queue, mark, stamp++, &cnt);
        at = cuthill_mckee(&g, far, order, at, done);
    }
    for (int32_t i = 0; i < n / 2; i++) { /* reverse */
        int32_t t = order[i];
        order[i] = order[n - 1 - i];
        order[n - 1 - i] = t;
    }
    free(queue);
    free(mark);
    free(done);
    graph_free(&g);
    return HOMG_OK;
}

static void shuffle(int32_t *order, int32_t n, unsigned *state)
{
    for (int32_t i = 0; i < n; i++)
        order[i] = i;
    for (int32_t i = n - 1; i > 0; i--) {
        int32_t j;
        *state = *state * 1664525u + 1013904223u;
        j = (int32_t)(((uint64_t)*state * (uint64_t)(i + 1)) >> 32);
        int32_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}

static const uint64_t *two_level_keys;
static int by_key(const void *a, const void *b)
{
    uint64_t x = two_level_keys[*(const int32_t *)a], y = two_level_keys[*(const int32_t *)b];
    return x < y ? -1 : x > y;
}

/* Fine level: coarse vertices in the coarse order, then midpoints by parents. */
static homg_status two_level(homg_ctx *ctx, const homg_mesh *coarse, const int32_t *coarse_order, int32_t nf,
                             int32_t *order)
{
    int32_t nc = coarse->num_nodes, *newc = (int32_t *)malloc((size_t)nc * sizeof *newc);
    uint64_t *e = NULL, *key = (uint64_t *)malloc((size_t)nf * sizeof *key);
    size_t ne = 0;
    homg_status st = newc && key ? homg__mesh_edges(ctx, coarse, &e, &ne)
                                 : homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "GMG numbering: out of host memory");
    if (st == HOMG_OK && (int64_t)nc + (int64_t)ne != nf)
        st = homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "GMG numbering: level sizes do not match a refinement");
    if (st == HOMG_OK) {
        for (int32_t k = 0; k < nc; k++)
            newc[coarse_order[k]] = k;
        for (int32_t i = 0; i < nc; i++)
            key[i] = (uint64_t)newc[i];
        for (size_t k = 0; k < ne; k++) {
            uint64_t a = (uint64_t)newc[e[k] >> 32], b = (uint64_t)newc[e[k] & 0xffffffffu];
            key[nc + k] = ((a < b ? a : b) + (uint64_t)nc) << 32 | (a < b ? b : a);
        }
        for (int32_t i = 0; i < nf; i++)
            order[i] = i;
        two_level_keys = key;
        qsort(order, (size_t)nf, sizeof *order, by_key);
    }
    free(newc);
    free(key);
    free(e);
    return st;
}

homg_status homg__gmg_numbering(homg_ctx *ctx, const homg_gmg_desc *d, int nl, homg_mesh **meshes, int32_t **order,
                                int first_as_read)
{
    unsigned state = d->seed;
    for (int l = nl - 1; l >= 0; l--) {
        int32_t n = homg_mesh_num_nodes(meshes[l]);
        homg_status st = HOMG_OK;
        if (d->numbering == HOMG_GMG_NUMBERING_AS_READ && l < first_as_read) {
            order[l] = NULL; /* not used: the identity is only written where a mesh is copied */
            continue;
        }
        order[l] = (int32_t *)homg__host_array(ctx, (size_t)n, sizeof(int32_t), "GMG numbering");
        if (!order[l])
            return HOMG_ERROR_OUT_OF_MEMORY;
        switch (d->numbering) {
        case HOMG_GMG_NUMBERING_RANDOM: shuffle(order[l], n, &state); break;
        case HOMG_GMG_NUMBERING_RCM: st = rcm(ctx, meshes[l], order[l]); break;
        case HOMG_GMG_NUMBERING_TWO_LEVEL:
            st = l == nl - 1 ? rcm(ctx, meshes[l], order[l]) : two_level(ctx, meshes[l + 1], order[l + 1], n, order[l]);
            break;
        default:
            for (int32_t i = 0; i < n; i++)
                order[l][i] = i;
        }
        HOMG_TRY(st);
    }
    return HOMG_OK;
}

homg_status homg__gmg_renumber_mesh(homg_ctx *ctx, const homg_mesh *m, const int32_t *order, homg_mesh **out)
{
    int dim = m->dim, nv = dim + 1;
    int32_t n = m->num_nodes, *newi = (int32_t *)malloc((size_t)n * sizeof *newi);
    double *xy = (double *)malloc((size_t)n * dim * sizeof *xy);
    int32_t *el = (int32_t *)malloc((size_t)m->num_elements * nv * sizeof *el);
    int32_t *fa = (int32_t *)malloc(((size_t)m->num_facets * dim + 1) * sizeof *fa);
    int32_t *mk = (int32_t *)malloc((size_t)n * sizeof *mk);
    homg_status st;
    homg_mesh_data md;
    if (!newi || !xy || !el || !fa || !mk) {
        st = homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "GMG numbering: out of host memory");
    } else {
        for (int32_t k = 0; k < n; k++) {
            newi[order[k]] = k;
            memcpy(xy + (size_t)dim * k, m->coords + (size_t)dim * order[k], (size_t)dim * sizeof *xy);
            mk[k] = m->node_markers[order[k]];
        }
        for (size_t k = 0; k < (size_t)m->num_elements * nv; k++)
            el[k] = newi[m->elements[k]];
        for (size_t k = 0; k < (size_t)m->num_facets * dim; k++)
            fa[k] = newi[m->facets[k]];
        memset(&md, 0, sizeof md);
        md.dim = dim;
        md.num_nodes = n;
        md.num_elements = m->num_elements;
        md.num_facets = m->num_facets;
        md.coords = xy;
        md.elements = el;
        md.element_tags = m->element_tags;
        md.facets = m->num_facets ? fa : NULL;
        md.facet_tags = m->facet_tags;
        md.node_markers = mk;
        st = homg_mesh_create(ctx, &md, out);
    }
    free(newi);
    free(xy);
    free(el);
    free(fa);
    free(mk);
    return st;
}

static int cmp_col(const void *a, const void *b)
{
    const int64_t *x = (const int64_t *)a, *y = (const int64_t *)b;
    return *x < *y ? -1 : *x > *y;
}

homg_status homg__gmg_renumber_csr(homg_ctx *ctx, homg_host_csr *a, const int32_t *row_order, const int32_t *col_order)
{
    int32_t *newc = (int32_t *)malloc(((size_t)a->ncols + 1) * sizeof *newc);
    int32_t *rp = (int32_t *)malloc(((size_t)a->nrows + 1) * sizeof *rp);
    int32_t *ci = (int32_t *)malloc(((size_t)a->nnz + 1) * sizeof *ci);
    double *v = (double *)malloc(((size_t)a->nnz + 1) * sizeof *v);
    int64_t *tmp = NULL;
    int32_t maxlen = 0;
    if (!newc || !rp || !ci || !v)
        goto oom;
    for (int32_t k = 0; k < a->ncols; k++)
        newc[col_order[k]] = k;
    for (int32_t i = 0; i < a->nrows; i++) {
        int32_t len = a->row_ptr[i + 1] - a->row_ptr[i];
        if (len > maxlen)
            maxlen = len;
    }
    tmp = (int64_t *)malloc(((size_t)maxlen + 1) * sizeof *tmp);
    if (!tmp)
        goto oom;
    rp[0] = 0;
    for (int32_t r = 0; r < a->nrows; r++) {
        int32_t i = row_order[r], b = a->row_ptr[i], len = a->row_ptr[i + 1] - b;
        for (int32_t k = 0; k < len; k++) /* column in the high bits, source position in the low */
            tmp[k] = (int64_t)newc[a->col_idx[b + k]] << 32 | (b + k);
        qsort(tmp, (size_t)len, sizeof *tmp, cmp_col);
        for (int32_t k = 0; k < len; k++) {
            ci[rp[r] + k] = (int32_t)(tmp[k] >> 32);
            v[rp[r] + k] = a->values[tmp[k] & 0xffffffff];
        }
        rp[r + 1] = rp[r] + len;
    }
    free(newc);
    free(tmp);
    free(a->row_ptr);
    free(a->col_idx);
    free(a->values);
    a->row_ptr = rp;
    a->col_idx = ci;
    a->values = v;
    return HOMG_OK;
oom:
    free(newc);
    free(rp);
    free(ci);
    free(v);
    free(tmp);
    return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "GMG numbering: out of host memory");
}
