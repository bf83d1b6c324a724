/* refine.c -- CPU twin of refine.cu: uniform refinement of a mesh by the
 * per-element rule of refine.h (edges by radix sort, as the host mesh code). */
#include "core/sort.h"
#include "refine.h"

#include <stdlib.h>
#include <string.h>

homg_status homg_cpu_gmg_refine_temp_bytes(kernel_exec *ex, size_t num_keys, size_t *bytes)
{
    (void)ex;
    (void)num_keys;
    *bytes = 1;
    return HOMG_OK;
}

homg_status homg_cpu_gmg_refine_edges(kernel_exec *ex, int dim, int32_t num_elements, const int32_t *elements,
                                      int32_t num_nodes, uint64_t *keys, uint64_t *keys_alt, void *temp,
                                      size_t temp_bytes, int32_t expected, int32_t *found, int32_t *count)
{
    int nv = dim + 1, per = nv * (nv - 1) / 2;
    size_t n = (size_t)num_elements * per;
    int32_t c;
    (void)temp;
    (void)temp_bytes;
    *count = 0;
    if (expected > (int64_t)n)
        return homg_exec_fail(ex, HOMG_ERROR_BACKEND, "refinement: %d edges expected of %zu keys", (int)expected, n);
    if (num_elements <= 0)
        return HOMG_OK;
#pragma omp parallel for schedule(static) if (num_elements > HOMG_OMP_MIN)
    for (int32_t e = 0; e < num_elements; e++)
        refine_element_keys(nv, elements, e, keys + (size_t)e * per);
    homg_cpu_sort_u64(keys, keys_alt, n, 32 + homg_cpu_sort_bits_for((uint64_t)num_nodes));
    c = (int32_t)homg_cpu_sort_unique_u64(keys, n);
    if (expected < 0) {
        *count = c;
        return HOMG_OK;
    }
    for (int32_t i = c; i < expected; i++) /* the device's padding */
        keys[i] = keys[c - 1];
    *found = c;
    *count = expected;
    return HOMG_OK;
}

homg_status homg_cpu_gmg_refine_nodes(kernel_exec *ex, int dim, int32_t num_nodes, const double *coarse,
                                      const uint64_t *edges, int32_t num_edges, double *fine)
{
    int64_t n = (int64_t)num_nodes + num_edges;
    (void)ex;
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN)
    for (int64_t i = 0; i < n; i++)
        refine_node(dim, coarse, num_nodes, edges, i, fine);
    return HOMG_OK;
}

homg_status homg_cpu_gmg_refine_elements(kernel_exec *ex, int dim, int32_t num_elements, const int32_t *elements,
                                         int32_t num_nodes, const uint64_t *edges, int32_t num_edges,
                                         const double *fine, int32_t *children, const int32_t *tags,
                                         int32_t *child_tags)
{
    int nc = dim == 2 ? 4 : 8, per = nc * (dim + 1);
    (void)ex;
#pragma omp parallel for schedule(static) if (num_elements > HOMG_OMP_MIN)
    for (int32_t e = 0; e < num_elements; e++) {
        refine_element_children(dim, elements, e, num_nodes, edges, num_edges, fine, children + (size_t)e * per);
        for (int t = 0; tags && t < nc; t++)
            child_tags[(size_t)e * nc + t] = tags[e];
    }
    return HOMG_OK;
}

homg_status homg_cpu_gmg_refine_facets(kernel_exec *ex, int dim, int32_t num_facets, const int32_t *facets,
                                       const int32_t *tags, int32_t num_nodes, const uint64_t *edges, int32_t num_edges,
                                       int32_t *children, int32_t *child_tags, int32_t *bad)
{
    int32_t first = num_facets;
    (void)ex;
    for (int32_t f = 0; f < num_facets; f++)
        if (!refine_facet_children(dim, facets, tags, f, num_nodes, edges, num_edges, children, child_tags) &&
            f < first)
            first = f;
    if (first < num_facets && num_facets - first > *bad)
        *bad = num_facets - first;
    return HOMG_OK;
}

homg_status homg_cpu_gmg_facet_markers(kernel_exec *ex, int dim, int32_t num_facets, const int32_t *facets,
                                       const int32_t *tags, int32_t num_nodes, int32_t *markers)
{
    (void)ex;
    memset(markers, 0, (size_t)num_nodes * sizeof *markers);
    for (int32_t f = 0; f < num_facets; f++)
        for (int k = 0; k < dim; k++) {
            int32_t *mk = markers + facets[(size_t)f * dim + k];
            if (tags[f] > *mk)
                *mk = tags[f];
        }
    return HOMG_OK;
}
