/* prepare.c -- host-side preparation of the COLOR scheme: the greedy element
 * colouring (the PATCH scheme's partition is built on the backend:
 * kernels/fem/partition.*). */
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
