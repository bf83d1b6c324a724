/* refine.h -- uniform refinement per element (homg_mesh_refine's rule), shared
 * word for word by refine.c and refine.cu (HOMG_HD): the edges of an element
 * as keys min << 32 | max, and its children from the sorted unique edges (the
 * midpoint of edge k is node nn + k).  Triangles: three corners, then the
 * middle one.  Tetrahedra: four corners, then the octahedron cut along its
 * shortest diagonal into four tetrahedra, each oriented positively.  The
 * products round as on the host (no fused multiply-add on the device), so the
 * diagonal and orientation choices are the host's bit for bit (the
 * orientation by homg_det3, core/det.h, which the host's homg__element_det
 * calls too). */
#ifndef HOMG_GMG_REFINE_H
#define HOMG_GMG_REFINE_H

#include "core/det.h"
#include "core/search.h"
#include "gmg_kernels.h"
HOMG_HD uint64_t refine_key(int32_t a, int32_t b)
{
    return a < b ? ((uint64_t)a << 32) | (uint32_t)b : ((uint64_t)b << 32) | (uint32_t)a;
}

/* Key a << 32 | b packed as a << bits | b and back (a, b < 2^bits): the
 * device sorts 2 bits bits instead of 32 + bits, the order the same. */
HOMG_HD uint64_t refine_key_pack(uint64_t k, int bits) { return ((k >> 32) << bits) | (k & 0xffffffffu); }

HOMG_HD uint64_t refine_key_unpack(uint64_t k, int bits)
{
    return ((k >> bits) << 32) | (k & (((uint64_t)1 << bits) - 1));
}

/* The nv (nv - 1) / 2 edge keys of element e. */
HOMG_HD void refine_element_keys(int nv, const int32_t *elements, int64_t e, uint64_t *keys)
{
    const int32_t *v = elements + e * nv;
    int c = 0;
    for (int i = 0; i < nv; i++)
        for (int j = i + 1; j < nv; j++)
            keys[c++] = refine_key(v[i], v[j]);
}

HOMG_HD double refine_dist2(const double *x, int32_t a, int32_t b)
{
    double s = 0;
    for (int k = 0; k < 3; k++) {
        double d = x[3 * (size_t)a + k] - x[3 * (size_t)b + k];
        s = HOMG_RN_ADD(s, HOMG_RN_MUL(d, d));
    }
    return s;
}

/* The eight children of tetrahedron v (mid: its edge midpoints; x: the fine coordinates). */
HOMG_HD void refine_split_tetrahedron(const int32_t *v, int32_t mid[4][4], const double *x, int32_t *c)
{
    int32_t corner[16] = { v[0],      mid[0][1], mid[0][2], mid[0][3], mid[0][1], v[1],      mid[1][2], mid[1][3],
                           mid[0][2], mid[1][2], v[2],      mid[2][3], mid[0][3], mid[1][3], mid[2][3], v[3] };
    int32_t ring[3][4] = { { mid[0][2], mid[0][3], mid[1][3], mid[1][2] },   /* around m01-m23 */
                           { mid[0][1], mid[0][3], mid[2][3], mid[1][2] },   /* around m02-m13 */
                           { mid[0][1], mid[0][2], mid[2][3], mid[1][3] } }; /* around m03-m12 */
    int32_t ends[3][2] = { { mid[0][1], mid[2][3] }, { mid[0][2], mid[1][3] }, { mid[0][3], mid[1][2] } };
    int best = 0;
    double len[3];
    for (int dgl = 0; dgl < 3; dgl++)
        len[dgl] = refine_dist2(x, ends[dgl][0], ends[dgl][1]);
    if (len[1] < len[best])
        best = 1;
    if (len[2] < len[best])
        best = 2;
    for (int k = 0; k < 16; k++)
        c[k] = corner[k];
    for (int r = 0; r < 4; r++) {
        int32_t *t = c + 16 + 4 * r;
        t[0] = ends[best][0];
        t[1] = ends[best][1];
        t[2] = ring[best][r];
        t[3] = ring[best][(r + 1) % 4];
        if (homg_det3(x, t) < 0) {
            t[2] = ring[best][(r + 1) % 4];
            t[3] = ring[best][r];
        }
    }
}

/* The children of element e (4 triangles or 8 tetrahedra, (dim + 1) nodes each) into c;
 * edges: the ne sorted unique keys, nn: the coarse node count, x: the fine coordinates. */
HOMG_HD void refine_element_children(int dim, const int32_t *elements, int64_t e, int32_t nn, const uint64_t *edges,
                                     int32_t ne, const double *x, int32_t *c)
{
    int nv = dim + 1;
    const int32_t *v = elements + e * nv;
    int32_t mid[4][4];
    for (int i = 0; i < nv; i++)
        for (int j = i + 1; j < nv; j++)
            mid[i][j] = mid[j][i] = nn + sorted_lower_u64(edges, 0, ne, refine_key(v[i], v[j]));
    if (dim == 2) {
        int32_t t[12] = { v[0],      mid[0][1], mid[0][2], mid[0][1], v[1],      mid[1][2],
                          mid[0][2], mid[1][2], v[2],      mid[0][1], mid[1][2], mid[0][2] };
        for (int k = 0; k < 12; k++)
            c[k] = t[k];
    } else {
        refine_split_tetrahedron(v, mid, x, c);
    }
}

/* Fine node i's coordinates: coarse node i, or the midpoint of edge i - nn. */
HOMG_HD void refine_node(int dim, const double *coarse, int32_t nn, const uint64_t *edges, int64_t i, double *fine)
{
    if (i < nn) {
        for (int k = 0; k < dim; k++)
            fine[(size_t)dim * i + k] = coarse[(size_t)dim * i + k];
        return;
    }
    {
        int32_t p = (int32_t)(edges[i - nn] >> 32), q = (int32_t)(edges[i - nn] & 0xffffffffu);
        for (int k = 0; k < dim; k++)
            fine[(size_t)dim * i + k] =
                HOMG_RN_MUL(0.5, HOMG_RN_ADD(coarse[(size_t)dim * p + k], coarse[(size_t)dim * q + k]));
    }
}

/* The children of boundary facet f (2 segments or 4 triangles, dim nodes each)
 * into out + f * (2 or 4) * dim, its tag to each child: homg_mesh_refine's
 * rule (lib/mesh/generate.c, refine_facets).  0 where an edge of the facet is
 * not among the sorted edges (not a face of any element; its midpoint is then
 * the edge's first end, an index in range), else 1. */
HOMG_HD int refine_facet_children(int dim, const int32_t *facets, const int32_t *tags, int64_t f, int32_t nn,
                                  const uint64_t *edges, int32_t ne, int32_t *out, int32_t *out_tags)
{
    const int32_t *v = facets + f * dim;
    int32_t mm[3];
    int ok = 1;
    for (int k = 0; k < (dim == 2 ? 1 : 3); k++) { /* midpoints of v0v1, v1v2, v2v0 */
        uint64_t key = refine_key(v[k], v[(k + 1) % dim]);
        int32_t i = sorted_lower_u64(edges, 0, ne, key);
        int found = i < ne && edges[i] == key;
        ok &= found;
        mm[k] = found ? nn + i : v[k];
    }
    if (dim == 2) {
        int32_t t[4] = { v[0], mm[0], mm[0], v[1] };
        for (int k = 0; k < 4; k++)
            out[4 * f + k] = t[k];
        out_tags[2 * f] = out_tags[2 * f + 1] = tags[f];
    } else {
        int32_t t[12] = { v[0], mm[0], mm[2], mm[0], v[1], mm[1], mm[2], mm[1], v[2], mm[0], mm[1], mm[2] };
        for (int k = 0; k < 12; k++)
            out[12 * f + k] = t[k];
        for (int s = 0; s < 4; s++)
            out_tags[4 * f + s] = tags[f];
    }
    return ok;
}

#endif
