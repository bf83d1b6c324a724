/* p2.c -- the unknowns of P2 elements: the mesh's nodes, then one per edge
 * (num_nodes + the edge's index among the sorted edges, which is how
 * homg_mesh_refine numbers the midpoints it adds: unknown k sits at node k of
 * the refined mesh), and which of them are Dirichlet unknowns. */
#include "fem_internal.h"
#include "fem/fem_element.h"

#include <stdlib.h>
#include <string.h>

/* The unknown of edge (i, j), or -1 when it is no element's edge. */
static int32_t edge_dof(const homg_mesh *m, const uint64_t *edges, size_t ne, int32_t i, int32_t j)
{
    uint64_t key = i < j ? ((uint64_t)i << 32) | (uint64_t)j : ((uint64_t)j << 32) | (uint64_t)i;
    int32_t k = sorted_lower_u64(edges, 0, (int32_t)ne, key);
    return (size_t)k < ne && edges[k] == key ? m->num_nodes + k : -1;
}

homg_status homg__fem_p2_dofs(homg_ctx *ctx, const homg_mesh *m, int32_t **dofs, int32_t *num_dofs)
{
    int nv = m->dim + 1, nd = m->dim == 2 ? 6 : 10;
    uint64_t *edges = NULL;
    size_t ne = 0;
    int32_t *d;
    HOMG_TRY(homg__mesh_edges(ctx, m, &edges, &ne));
    if ((double)m->num_nodes + (double)ne > 2147483647.0) {
        free(edges);
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY,
                          "homg_fem_create: %d nodes and %zu edges exceed int32 unknowns", (int)m->num_nodes, ne);
    }
    d = (int32_t *)homg__host_alloc(ctx, (size_t)m->num_elements * nd * sizeof(int32_t),
                                    "homg_fem_create: P2 unknowns");
    if (!d) {
        free(edges);
        return HOMG_ERROR_OUT_OF_MEMORY;
    }
    for (int32_t e = 0; e < m->num_elements; e++) {
        const int32_t *v = m->elements + (size_t)e * nv;
        int32_t *u = d + (size_t)e * nd;
        for (int a = 0; a < nv; a++)
            u[a] = v[a];
        for (int k = 0; k < nd - nv; k++) {
            int a, b;
            fem_p2_edge(m->dim, k, &a, &b);
            u[nv + k] = edge_dof(m, edges, ne, v[a], v[b]); /* found: it is this element's edge */
        }
    }
    free(edges);
    *dofs = d;
    *num_dofs = m->num_nodes + (int32_t)ne;
    return HOMG_OK;
}

/* Dirichlet edges: the edges of facets with a Dirichlet tag; in a mesh without
 * facets (markers only), the edges whose two ends are Dirichlet nodes.  mask
 * holds the vertices' marks already (num_dofs entries). */
homg_status homg__fem_p2_mask(const homg_mesh *m, const int32_t *dofs, const int32_t *tags, int num_tags, uint8_t *mask)
{
    int nv = m->dim + 1, nd = m->dim == 2 ? 6 : 10;
    uint64_t *edges = NULL;
    size_t ne = 0;
    for (int32_t e = 0; e < m->num_elements; e++) {
        const int32_t *u = dofs + (size_t)e * nd;
        for (int k = 0; k < nd - nv; k++) {
            int a, b;
            fem_p2_edge(m->dim, k, &a, &b);
            mask[u[nv + k]] = m->num_facets == 0 && mask[u[a]] == 1 && mask[u[b]] == 1;
        }
    }
    if (m->num_facets == 0 || num_tags == 0)
        return HOMG_OK;
    HOMG_TRY(homg__mesh_edges(m->ctx, m, &edges, &ne));
    for (int t = 0; t < num_tags; t++)
        for (int32_t f = 0; f < m->num_facets; f++) {
            const int32_t *v = m->facets + (size_t)f * m->dim;
            if (m->facet_tags[f] != tags[t])
                continue;
            for (int a = 0; a < m->dim; a++)
                for (int b = a + 1; b < m->dim; b++) {
                    int32_t k = edge_dof(m, edges, ne, v[a], v[b]);
                    if (k >= 0)
                        mask[k] = 1;
                }
        }
    free(edges);
    return HOMG_OK;
}
