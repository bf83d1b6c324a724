/* mask.c -- CPU twin of the Dirichlet mask (mask.h): the passes in order, then
 * the counts. */
#include "mask.h"

#include <string.h>

homg_status homg_cpu_fem_mask(kernel_exec *ex, const fem_problem *p, const int32_t *row_ptr, int32_t num_facets,
                              const int32_t *facets, const int32_t *facet_tags, const int32_t *node_markers,
                              const int32_t *tags, int num_tags, uint8_t *mask, int32_t *counts)
{
    int32_t n = p->num_nodes, ones = 0, masked = 0;
    (void)ex;
    if (row_ptr) {
        for (int64_t i = 0; i < n; i++)
            mask_row(row_ptr, i, mask);
    } else {
        memset(mask, 2, (size_t)n);
        for (int64_t e = 0; e < p->num_elements; e++)
            mask_element(p, e, mask);
    }
    for (int64_t f = 0; f < num_facets; f++)
        mask_facet(p->dim, facets, facet_tags, f, tags, num_tags, mask);
    for (int64_t i = 0; node_markers && i < n; i++)
        mask_marker(node_markers, i, tags, num_tags, mask);
    for (int32_t i = 0; i < n; i++) {
        ones += mask[i] == 1;
        masked += mask[i] != 0;
    }
    counts[0] = ones;
    counts[1] = masked;
    return HOMG_OK;
}
