/* refine.h -- uniform refinement per element (homg_mesh_refine's rule), shared
 * word for word by refine.c and refine.cu (HOMG_HD): the edges of an element
 * as keys min << 32 | max, and its children from the sorted unique edges (the
 * midpoint of edge k is node nn + k).  Triangles: three corners, then the
 * middle one.  Tetrahedra: four corners, then the octahedron cut along its
 * shortest diagonal into four tetrahedra, each oriented positively.  The
 * products round as on the host (no fused multiply-add on the device), so the
 * diagonal and orientation choices are the host's bit for bit. */
#ifndef HOMG_GMG_REFINE_H
#define HOMG_GMG_REFINE_H

#include "core/search.h"
#include "gmg_kernels.h"

#ifdef __CUDA_ARCH__
#define RF_MUL(a, b) __dmul_rn(a, b)
#define RF_ADD(a, b) __dadd_rn(a, b)
#else
#define RF_MUL(a, b) ((a) * (b))
#define RF_ADD(a, b) ((a) + (b))
#endif

HOMG_HD uint64_t refine_key(int32_t a, int32_t b)
{
    return a < b ? ((uint64_t)a << 32) | (uint32_t)b : ((uint64_t)b << 32) | (uint32_t)a;
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
        s = RF_ADD(s, RF_MUL(d, d));
    }
    return s;
}

/* homg__element_det for a tetrahedron, with the host's rounding. */
HOMG_HD double refine_det3(const double *x, const int32_t *n)
{
    const double *p0 = x + 3 * (size_t)n[0], *p1 = x + 3 * (size_t)n[1], *p2 = x + 3 * (size_t)n[2],
                 *p3 = x + 3 * (size_t)n[3];
    double a[3], b[3], c[3];
    for (int k = 0; k < 3; k++) {
        a[k] = p1[k] - p0[k];
        b[k] = p2[k] - p0[k];
        c[k] = p3[k] - p0[k];
    }
    return RF_ADD(RF_ADD(RF_MUL(a[0], RF_ADD(RF_MUL(b[1], c[2]), -RF_MUL(b[2], c[1]))),
                         -RF_MUL(a[1], RF_ADD(RF_MUL(b[0], c[2]), -RF_MUL(b[2], c[0])))),
                  RF_MUL(a[2], RF_ADD(RF_MUL(b[0], c[1]), -RF_MUL(b[1], c[0]))));
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
        if (refine_det3(x, t) < 0) {
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
            fine[(size_t)dim * i + k] = RF_MUL(0.5, RF_ADD(coarse[(size_t)dim * p + k], coarse[(size_t)dim * q + k]));
    }
}

#endif
