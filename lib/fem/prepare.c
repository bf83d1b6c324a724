/* prepare.c -- host-side preparation of the assembly schemes: the element
 * colouring and the node patches (the same on every backend). */
#include "fem_internal.h"

#include <stdlib.h>
#include <string.h>

#define NO_MEMORY(ctx, what) \
    homg__fail((ctx), HOMG_ERROR_OUT_OF_MEMORY, "homg_fem_create: %s: out of host memory", what)

/* Groups the indices i of key[0 .. count) by key[i] in 0 .. nkeys-1 (a
 * stable counting sort): (*ptr)[k] .. (*ptr)[k+1] are the places of key k in
 * *items, which holds i / per (per = nodes per element: the element of a node
 * slot).  Both malloc'd; 0 when out of memory (nothing to free then). */
static int group_by_key(const int32_t *key, size_t count, int per, int32_t nkeys, int32_t **ptr, int32_t **items)
{
    int32_t *fill = (int32_t *)malloc(((size_t)nkeys + 1) * sizeof(int32_t));
    *ptr = (int32_t *)calloc((size_t)nkeys + 1, sizeof(int32_t));
    *items = (int32_t *)malloc((count ? count : 1) * sizeof(int32_t));
    if (!fill || !*ptr || !*items) {
        free(fill);
        free(*ptr);
        free(*items);
        *ptr = *items = NULL;
        return 0;
    }
    for (size_t i = 0; i < count; i++)
        (*ptr)[key[i] + 1]++;
    for (int32_t k = 0; k < nkeys; k++)
        (*ptr)[k + 1] += (*ptr)[k];
    memcpy(fill, *ptr, ((size_t)nkeys + 1) * sizeof(int32_t));
    for (size_t i = 0; i < count; i++)
        (*items)[fill[key[i]]++] = (int32_t)(i / (size_t)per);
    free(fill);
    return 1;
}

/* Greedy colouring: each element in turn takes the smallest colour no
 * element sharing a node has (at most nv * max_deg colours; n2e: the node's
 * elements).  0 when out of memory. */
static int greedy_colors(const homg_mesh *m, const int32_t *n2e_ptr, const int32_t *n2e, int32_t *color, int32_t *ncol)
{
    int nv = m->dim + 1;
    int32_t max_deg = 0, *stamp;
    for (int32_t i = 0; i < m->num_nodes; i++)
        max_deg = n2e_ptr[i + 1] - n2e_ptr[i] > max_deg ? n2e_ptr[i + 1] - n2e_ptr[i] : max_deg;
    stamp = (int32_t *)malloc(((size_t)nv * max_deg + 2) * sizeof(int32_t));
    if (!stamp)
        return 0;
    for (size_t c = 0; c < (size_t)nv * max_deg + 2; c++)
        stamp[c] = -1;
    for (int32_t e = 0; e < m->num_elements; e++)
        color[e] = -1;
    *ncol = 0;
    for (int32_t e = 0; e < m->num_elements; e++) {
        int32_t c = 0;
        for (int a = 0; a < nv; a++) {
            int32_t v = m->elements[(size_t)e * nv + a];
            for (int32_t j = n2e_ptr[v]; j < n2e_ptr[v + 1]; j++)
                if (color[n2e[j]] >= 0)
                    stamp[color[n2e[j]]] = e;
        }
        while (stamp[c] == e)
            c++;
        color[e] = c;
        if (c + 1 > *ncol)
            *ncol = c + 1;
    }
    free(stamp);
    return 1;
}

homg_status homg__fem_color(homg_ctx *ctx, const homg_mesh *m, int32_t **order, int32_t **ptr, int32_t *colors)
{
    int nv = m->dim + 1;
    int32_t ne = m->num_elements, ncol = 0;
    int32_t *n2e_ptr = NULL, *n2e = NULL, *color = (int32_t *)malloc(((size_t)ne + 1) * sizeof(int32_t));
    int ok = color && group_by_key(m->elements, (size_t)ne * nv, nv, m->num_nodes, &n2e_ptr, &n2e) &&
             greedy_colors(m, n2e_ptr, n2e, color, &ncol) && group_by_key(color, (size_t)ne, 1, ncol, ptr, order);
    free(n2e_ptr);
    free(n2e);
    free(color);
    *colors = ok ? ncol : 0;
    if (!ok) {
        *order = *ptr = NULL;
        return NO_MEMORY(ctx, "colouring");
    }
    return HOMG_OK;
}

void homg__patch_host_free(fem_patch_host *p)
{
    free(p->node_ptr);
    free(p->nodes);
    free(p->row_off);
    free(p->entry_ptr);
    free(p->entry_src);
    free(p->node_patch);
    free(p->node_local);
    free(p->elem_ptr);
    free(p->elems);
    memset(p, 0, sizeof *p);
}

/* The node and entry arrays, sized for the worst case (n patches): the counts
 * are known only at the end.  0 when out of memory. */
static int patch_alloc(fem_patch_host *q, int32_t n, int32_t nnz)
{
    memset(q, 0, sizeof *q);
    q->node_ptr = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
    q->entry_ptr = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
    q->nodes = (int32_t *)malloc((size_t)n * sizeof(int32_t));
    q->row_off = (int32_t *)malloc((size_t)2 * n * sizeof(int32_t));
    q->entry_src = (int32_t *)malloc((size_t)nnz * sizeof(int32_t));
    q->node_patch = (int32_t *)malloc((size_t)n * sizeof(int32_t));
    q->node_local = (int32_t *)malloc((size_t)n * sizeof(int32_t));
    return q->node_ptr && q->entry_ptr && q->nodes && q->row_off && q->entry_src && q->node_patch && q->node_local;
}

/* Where the patches being grown stand: nodes and entries taken so far. */
typedef struct patch_growth {
    const int32_t *row_ptr, *col_idx;
    int32_t patch_nnz;
    int32_t *queued; /* the patch that queued each node, or -1 */
    int32_t filled, entries_total;
} patch_growth;

/* Patch np, breadth-first from `seed` over the matrix graph until the next
 * row would pass patch_nnz entries; q->nodes[filled ..] doubles as the queue,
 * and nodes queued but not taken go back to the pool (node_patch stays -1). */
static void grow_patch(fem_patch_host *q, patch_growth *g, int32_t seed, int32_t np)
{
    int32_t head = g->filled, tail = g->filled, entries = 0, local = 0;
    q->nodes[tail++] = seed;
    g->queued[seed] = np;
    while (head < tail) {
        int32_t u = q->nodes[head], len = g->row_ptr[u + 1] - g->row_ptr[u];
        if (local > 0 && entries + len > g->patch_nnz)
            break;
        q->node_patch[u] = np;
        q->node_local[u] = local;
        q->row_off[g->filled + np + local] = entries;
        for (int32_t k = 0; k < len; k++)
            q->entry_src[g->entries_total + entries + k] = g->row_ptr[u] + k;
        entries += len;
        local++;
        head++;
        for (int32_t k = g->row_ptr[u]; k < g->row_ptr[u + 1]; k++) {
            int32_t w = g->col_idx[k];
            if (q->node_patch[w] < 0 && g->queued[w] != np)
                g->queued[w] = np, q->nodes[tail++] = w;
        }
    }
    q->row_off[g->filled + np + local] = entries;
    g->filled += local;
    g->entries_total += entries;
    q->max_nnz = entries > q->max_nnz ? entries : q->max_nnz;
    q->max_nodes = local > q->max_nodes ? local : q->max_nodes;
    q->node_ptr[np + 1] = g->filled;
    q->entry_ptr[np + 1] = g->entries_total;
}

/* Elements to the patch of their first node, grouped by patch; the fraction of
 * element nodes outside their element's patch.  0 when out of memory. */
static int patch_elements(const homg_mesh *m, fem_patch_host *q)
{
    int nv = m->dim + 1;
    int32_t ne = m->num_elements, *first = (int32_t *)malloc(((size_t)ne + 1) * sizeof(int32_t));
    int64_t outside = 0;
    if (!first)
        return 0;
    for (int32_t e = 0; e < ne; e++) {
        const int32_t *v = m->elements + (size_t)e * nv;
        first[e] = q->node_patch[v[0]];
        for (int a = 0; a < nv; a++)
            outside += q->node_patch[v[a]] != first[e];
    }
    q->boundary_fraction = (double)outside / ((double)ne * nv);
    if (!group_by_key(first, (size_t)ne, 1, q->num_patches, &q->elem_ptr, &q->elems)) {
        free(first);
        return 0;
    }
    free(first);
    return 1;
}

homg_status homg__fem_patches(homg_ctx *ctx, const homg_mesh *m, const int32_t *row_ptr, const int32_t *col_idx,
                              int32_t patch_nnz, fem_patch_host *q)
{
    int32_t n = m->num_nodes, np = 0;
    patch_growth g = { row_ptr, col_idx, patch_nnz, NULL, 0, 0 };
    g.queued = (int32_t *)malloc((size_t)n * sizeof(int32_t));
    if (!patch_alloc(q, n, row_ptr[n]) || !g.queued) {
        free(g.queued);
        homg__patch_host_free(q);
        return NO_MEMORY(ctx, "patches");
    }
    for (int32_t i = 0; i < n; i++) {
        q->node_patch[i] = -1;
        g.queued[i] = -1;
    }
    q->node_ptr[0] = q->entry_ptr[0] = 0;
    for (int32_t seed = 0; seed < n; seed++)
        if (q->node_patch[seed] < 0)
            grow_patch(q, &g, seed, np++);
    free(g.queued);
    q->num_patches = np;
    if (!patch_elements(m, q)) {
        homg__patch_host_free(q);
        return NO_MEMORY(ctx, "patches");
    }
    return HOMG_OK;
}
