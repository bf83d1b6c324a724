/* fem_prepare.c -- host-side preparation of the assembly schemes: the element
 * colouring and the node patches (the same on every backend). */
#include "fem_internal.h"

#include <stdlib.h>
#include <string.h>

homg_status homg__fem_color(homg_ctx *ctx, const homg_mesh *m, int32_t **order, int32_t **ptr, int32_t *colors)
{
    int nv = m->dim + 1;
    int32_t n = m->num_nodes, ne = m->num_elements, ncol = 0, max_deg = 0;
    int32_t *n2e_ptr = (int32_t *)calloc((size_t)n + 1, sizeof(int32_t));
    int32_t *n2e = (int32_t *)malloc((size_t)ne * nv * sizeof(int32_t));
    int32_t *color = (int32_t *)malloc((size_t)ne * sizeof(int32_t));
    int32_t *stamp = NULL, *count = NULL;
    homg_status st = HOMG_OK;
    *order = *ptr = NULL;
    *colors = 0;
    if (!n2e_ptr || !n2e || !color) {
        st = homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "homg_fem_create: colouring: out of host memory");
        goto done;
    }
    /* node -> elements */
    for (size_t i = 0; i < (size_t)ne * nv; i++)
        n2e_ptr[m->elements[i] + 1]++;
    for (int32_t i = 0; i < n; i++) {
        max_deg = n2e_ptr[i + 1] > max_deg ? n2e_ptr[i + 1] : max_deg;
        n2e_ptr[i + 1] += n2e_ptr[i];
    }
    {
        int32_t *fill = (int32_t *)malloc((size_t)n * sizeof(int32_t));
        if (!fill) {
            st = homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "homg_fem_create: colouring: out of host memory");
            goto done;
        }
        memcpy(fill, n2e_ptr, (size_t)n * sizeof(int32_t));
        for (int32_t e = 0; e < ne; e++)
            for (int a = 0; a < nv; a++)
                n2e[fill[m->elements[(size_t)e * nv + a]]++] = e;
        free(fill);
    }
    /* greedy: the smallest colour no neighbouring element has; at most nv * max_deg colours */
    stamp = (int32_t *)malloc(((size_t)nv * max_deg + 2) * sizeof(int32_t));
    if (!stamp) {
        st = homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "homg_fem_create: colouring: out of host memory");
        goto done;
    }
    for (size_t c = 0; c < (size_t)nv * max_deg + 2; c++)
        stamp[c] = -1;
    for (int32_t e = 0; e < ne; e++)
        color[e] = -1;
    for (int32_t e = 0; e < ne; e++) {
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
        if (c + 1 > ncol)
            ncol = c + 1;
    }
    /* elements grouped by colour */
    count = (int32_t *)calloc((size_t)ncol + 1, sizeof(int32_t));
    *order = (int32_t *)malloc((size_t)ne * sizeof(int32_t));
    if (!count || !*order) {
        st = homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "homg_fem_create: colouring: out of host memory");
        goto done;
    }
    for (int32_t e = 0; e < ne; e++)
        count[color[e] + 1]++;
    for (int32_t c = 0; c < ncol; c++)
        count[c + 1] += count[c];
    *ptr = (int32_t *)malloc(((size_t)ncol + 1) * sizeof(int32_t));
    if (!*ptr) {
        st = homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "homg_fem_create: colouring: out of host memory");
        goto done;
    }
    memcpy(*ptr, count, ((size_t)ncol + 1) * sizeof(int32_t));
    for (int32_t e = 0; e < ne; e++)
        (*order)[count[color[e]]++] = e;
    *colors = ncol;
done:
    if (st != HOMG_OK) {
        free(*order);
        free(*ptr);
        *order = *ptr = NULL;
    }
    free(n2e_ptr);
    free(n2e);
    free(color);
    free(stamp);
    free(count);
    return st;
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

homg_status homg__fem_patches(homg_ctx *ctx, const homg_mesh *m, const int32_t *row_ptr, const int32_t *col_idx,
                              int32_t patch_nnz, fem_patch_host *q)
{
    int nv = m->dim + 1;
    int32_t n = m->num_nodes, ne = m->num_elements, nnz = row_ptr[n];
    int32_t *queued = (int32_t *)malloc((size_t)n * sizeof(int32_t));
    int32_t np = 0, filled = 0, entries_total = 0;
    int64_t outside = 0;
    memset(q, 0, sizeof *q);
    /* at most n patches: sized for the worst case, the counts are known only at the end */
    q->node_ptr = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
    q->entry_ptr = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
    q->nodes = (int32_t *)malloc((size_t)n * sizeof(int32_t));
    q->row_off = (int32_t *)malloc((size_t)2 * n * sizeof(int32_t));
    q->entry_src = (int32_t *)malloc((size_t)nnz * sizeof(int32_t));
    q->node_patch = (int32_t *)malloc((size_t)n * sizeof(int32_t));
    q->node_local = (int32_t *)malloc((size_t)n * sizeof(int32_t));
    q->elems = (int32_t *)malloc((size_t)ne * sizeof(int32_t));
    if (!queued || !q->node_ptr || !q->entry_ptr || !q->nodes || !q->row_off || !q->entry_src || !q->node_patch ||
        !q->node_local || !q->elems) {
        free(queued);
        homg__patch_host_free(q);
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "homg_fem_create: patches: out of host memory");
    }
    for (int32_t i = 0; i < n; i++) {
        q->node_patch[i] = -1;
        queued[i] = -1;
    }
    q->node_ptr[0] = q->entry_ptr[0] = 0;
    for (int32_t seed = 0; seed < n; seed++) {
        /* breadth-first from the seed; q->nodes[filled ..] doubles as the queue */
        int32_t head = filled, tail = filled, entries = 0, local = 0;
        if (q->node_patch[seed] >= 0)
            continue;
        q->nodes[tail++] = seed;
        queued[seed] = np;
        while (head < tail) {
            int32_t u = q->nodes[head], len = row_ptr[u + 1] - row_ptr[u];
            if (local > 0 && entries + len > patch_nnz)
                break;
            q->node_patch[u] = np;
            q->node_local[u] = local;
            q->row_off[filled + np + local] = entries;
            for (int32_t k = 0; k < len; k++)
                q->entry_src[entries_total + entries + k] = row_ptr[u] + k;
            entries += len;
            local++;
            head++;
            for (int32_t k = row_ptr[u]; k < row_ptr[u + 1]; k++) {
                int32_t w = col_idx[k];
                if (q->node_patch[w] < 0 && queued[w] != np)
                    queued[w] = np, q->nodes[tail++] = w;
            }
        }
        /* nodes queued but not taken go back to the pool: they stay at -1 */
        q->row_off[filled + np + local] = entries;
        filled += local;
        entries_total += entries;
        q->max_nnz = entries > q->max_nnz ? entries : q->max_nnz;
        q->max_nodes = local > q->max_nodes ? local : q->max_nodes;
        np++;
        q->node_ptr[np] = filled;
        q->entry_ptr[np] = entries_total;
    }
    free(queued);
    q->num_patches = np;
    /* elements to the patch of their first node, grouped by patch */
    q->elem_ptr = (int32_t *)calloc((size_t)np + 1, sizeof(int32_t));
    if (!q->elem_ptr) {
        homg__patch_host_free(q);
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "homg_fem_create: patches: out of host memory");
    }
    for (int32_t e = 0; e < ne; e++)
        q->elem_ptr[q->node_patch[m->elements[(size_t)e * nv]] + 1]++;
    for (int32_t p = 0; p < np; p++)
        q->elem_ptr[p + 1] += q->elem_ptr[p];
    {
        int32_t *fill = (int32_t *)malloc(((size_t)np + 1) * sizeof(int32_t));
        if (!fill) {
            homg__patch_host_free(q);
            return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "homg_fem_create: patches: out of host memory");
        }
        memcpy(fill, q->elem_ptr, ((size_t)np + 1) * sizeof(int32_t));
        for (int32_t e = 0; e < ne; e++) {
            const int32_t *v = m->elements + (size_t)e * nv;
            int32_t p = q->node_patch[v[0]];
            q->elems[fill[p]++] = e;
            for (int a = 0; a < nv; a++)
                outside += q->node_patch[v[a]] != p;
        }
        free(fill);
    }
    q->boundary_fraction = (double)outside / ((double)ne * nv);
    return HOMG_OK;
}
