/* pattern.h -- the pattern's row merge, shared word for word by pattern.c and
 * pattern.cu (HOMG_HD): row i of the sorted unique keys row << shift | col
 * from the U sorted upper keys (a < b) and their U sorted transposes -- its
 * lower part, the diagonal, its upper part -- written from out + l0 + u0 + i
 * (l0, u0: the keys of rows before i in either list). */
#ifndef HOMG_FEM_PATTERN_H
#define HOMG_FEM_PATTERN_H

#include "core/search.h"
#include "fem_kernels.h"

HOMG_HD void fem_pattern_merge_row(const uint64_t *upper, const uint64_t *lower, int32_t u, int shift, int64_t i,
                                   uint64_t *out)
{
    int32_t l0 = sorted_lower_u64(lower, 0, u, (uint64_t)i << shift),
            l1 = sorted_lower_u64(lower, l0, u, (uint64_t)(i + 1) << shift),
            u0 = sorted_lower_u64(upper, 0, u, (uint64_t)i << shift),
            u1 = sorted_lower_u64(upper, u0, u, (uint64_t)(i + 1) << shift);
    int64_t at = (int64_t)l0 + u0 + i;
    for (int32_t k = l0; k < l1; k++)
        out[at++] = lower[k];
    out[at++] = ((uint64_t)i << shift) | (uint64_t)i;
    for (int32_t k = u0; k < u1; k++)
        out[at++] = upper[k];
}

/* Edge k (a << 32 | b, a < b: the refinement's sorted edges) as an upper key
 * a << shift | b (the same order). */
HOMG_HD uint64_t fem_pattern_edge_upper(uint64_t e, int shift) { return ((e >> 32) << shift) | (e & 0xffffffffu); }

/* A P1 mesh refined by homg_mesh_refine: the coarse nodes 0 .. nc - 1 first,
 * node nc + k the midpoint of the coarse mesh's sorted edge k (a << 32 | b,
 * a < b; ne of them), coarse element e's children the elements c e .. c e +
 * c - 1 (c = 4 triangles, 8 tetrahedra).  Its pattern's upper keys are the
 * halves (a, nc + k), (b, nc + k) of the coarse edges and, per coarse element,
 * its children's pairs of two midpoints: FEM_REFINED_PAIRS of them (a
 * triangle's inner triangle; a tetrahedron's 12 face edges and its
 * diagonal), shared with a neighbour across a face.  Coarse element e's, made
 * unique, to out[0 .. FEM_REFINED_PAIRS); answers 1 where the children are
 * not so refined (a repeated node, two coarse nodes paired, a coarse node
 * paired with a midpoint of an edge not at it, another number of midpoint
 * pairs), else 0. */
#define FEM_REFINED_PAIRS(nv) ((nv) == 3 ? 3 : 13)

HOMG_HD int fem_pattern_refined_element(const int32_t *elements, int nv, int64_t e, int32_t nc, const uint64_t *edges,
                                        int32_t ne, int shift, uint64_t *out)
{
    int children = nv == 3 ? 4 : 8, mm = FEM_REFINED_PAIRS(nv), m = 0, bad = 0;
    uint64_t loc[13];
    for (int c = 0; c < children; c++) {
        const int32_t *v = elements + (e * children + c) * nv;
        for (int a = 0; a < nv; a++)
            for (int b = a + 1; b < nv; b++) {
                int32_t x = v[a] < v[b] ? v[a] : v[b], y = v[a] < v[b] ? v[b] : v[a];
                if (x == y || y < nc) {
                    bad = 1;
                } else if (x < nc) { /* a half: the edge of midpoint y holds x */
                    uint64_t ed = y - nc < ne ? edges[y - nc] : 0;
                    bad |= y - nc >= ne || ((int32_t)(ed >> 32) != x && (int32_t)(ed & 0xffffffffu) != x);
                } else {
                    uint64_t k = ((uint64_t)x << shift) | (uint64_t)y;
                    int seen = 0;
                    for (int j = 0; j < m && j < mm; j++)
                        seen |= loc[j] == k;
                    if (!seen && m < mm)
                        loc[m] = k;
                    m += !seen;
                }
            }
    }
    bad |= m != mm;
    for (int j = 0; j < mm; j++)
        out[j] = j < m ? loc[j] : 0;
    return bad;
}

/* Coarse edge k's halves as upper keys (a < nc <= nc + k). */
HOMG_HD void fem_pattern_refined_halves(const uint64_t *edges, int32_t nc, int64_t k, int shift, uint64_t *out)
{
    uint64_t mid = (uint64_t)nc + (uint64_t)k;
    out[0] = ((edges[k] >> 32) << shift) | mid;
    out[1] = ((edges[k] & 0xffffffffu) << shift) | mid;
}

#endif
