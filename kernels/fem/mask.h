/* mask.h -- the P1 Dirichlet mask's rules, shared word for word by mask.c and
 * mask.cu: every node starts at 2 (in no element), the nodes of each element
 * become 0, then the nodes of a facet, and each node, whose tag (facet tag,
 * node marker) is a Dirichlet tag become 1.  Writers of one pass all store
 * the same value, so the passes need no atomics. */
#ifndef HOMG_FEM_MASK_H
#define HOMG_FEM_MASK_H

#include "fem_kernels.h"

HOMG_HD int mask_tag_listed(const int32_t *tags, int num_tags, int32_t tag)
{
    for (int t = 0; t < num_tags; t++)
        if (tags[t] == tag)
            return 1;
    return 0;
}

/* The nodes of element e are in an element. */
HOMG_HD void mask_element(const fem_problem *p, int64_t e, uint8_t *mask)
{
    int nv = p->dim + 1;
    for (int a = 0; a < nv; a++)
        mask[p->elements[e * nv + a]] = 0;
}

/* The same pass from the P1 pattern's row pointers (every element node pair
 * and every diagonal): an element's nodes are distinct (a mesh refuses
 * zero-volume elements), so a node is in one exactly where its row holds more
 * than the diagonal.  One store a node, no scattered byte stores. */
HOMG_HD void mask_row(const int32_t *row_ptr, int64_t i, uint8_t *mask)
{
    mask[i] = row_ptr[i + 1] - row_ptr[i] > 1 ? 0 : 2;
}

/* Facet f's nodes are Dirichlet when its tag is listed. */
HOMG_HD void mask_facet(int dim, const int32_t *facets, const int32_t *facet_tags, int64_t f, const int32_t *tags,
                        int num_tags, uint8_t *mask)
{
    if (mask_tag_listed(tags, num_tags, facet_tags[f]))
        for (int k = 0; k < dim; k++)
            mask[facets[f * dim + k]] = 1;
}

HOMG_HD void mask_marker(const int32_t *node_markers, int64_t i, const int32_t *tags, int num_tags, uint8_t *mask)
{
    if (mask_tag_listed(tags, num_tags, node_markers[i]))
        mask[i] = 1;
}

#endif
