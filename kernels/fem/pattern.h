/* pattern.h -- the pattern's row merge, shared word for word by pattern.c and
 * pattern.cu (HOMG_HD): the sorted unique keys row << shift | col from the U
 * sorted upper keys (a < b) and their U sorted transposes -- each row its
 * lower part, the diagonal, its upper part -- placed key by key from the two
 * lists' row starts (no search: every key's position is a sum of starts). */
#ifndef HOMG_FEM_PATTERN_H
#define HOMG_FEM_PATTERN_H

#include "core/search.h"
#include "fem_kernels.h"

#include <stdlib.h>

/* Row starts of n sorted keys row << shift | col (rows < 2^31 rows, every key's
 * row below rows): start[r] = the first key of row r or later, start[rows] = n.
 * Key k (0 <= k <= n) writes the rows after key k - 1's up to its own
 * (row(-1) = -1, row(n) = rows), at most cap of them: with cap >= rows + 1
 * every row once; else a longer run of rows without keys (one thread's serial
 * stores: level 0's 35937 coarse nodes have no lower keys) is cut there and
 * its rest left to fem_pattern_start_fill (start set to -1 before). */
HOMG_HD void fem_pattern_starts_at(const uint64_t *keys, int32_t n, int shift, int32_t rows, int32_t k, int64_t cap,
                                   int32_t *start)
{
    int64_t lo = k == 0 ? 0 : (int64_t)(keys[k - 1] >> shift) + 1, hi = k == n ? rows : (int64_t)(keys[k] >> shift);
    if (hi - lo >= cap)
        hi = lo + cap - 1;
    for (int64_t r = lo; r <= hi; r++)
        start[r] = k;
}

/* Row r's start where fem_pattern_starts_at left it unset (< 0): a search. */
HOMG_HD void fem_pattern_start_fill(const uint64_t *keys, int32_t n, int shift, int64_t r, int32_t *start)
{
    if (start[r] < 0)
        start[r] = sorted_lower_u64(keys, 0, n, (uint64_t)r << shift);
}

/* The rows a key writes at most (fem_pattern_starts_at's cap) for a list of
 * rows rows: HOMG_FEM_PATTERN_GAP=N (N >= 1) in the environment, N = 0 no cap
 * (one pass); unset FEM_PATTERN_GAP.  A cap below rows + 1 costs a memset and
 * a fill pass, so lists with fewer rows keep one pass (INT64_MAX). */
#define FEM_PATTERN_GAP 1024
static inline int64_t fem_pattern_gap_cap(int32_t rows)
{
    double v = homg__knob("HOMG_FEM_PATTERN_GAP", FEM_PATTERN_GAP);
    return v >= 1 && v <= (double)rows ? (int64_t)v : INT64_MAX;
}

/* Item t of the merged rows placed in out: t < u lower key t, t < 2 u upper
 * key t - u, else row t - 2 u's diagonal.  Row i begins at ls[i] + us[i] + i
 * (ls, us: fem_pattern_starts_at of lower and upper; NULL where u = 0). */
HOMG_HD void fem_pattern_place(const uint64_t *upper, const uint64_t *lower, int32_t u, int shift, const int32_t *ls,
                               const int32_t *us, int64_t t, uint64_t *out)
{
    if (t < u) {
        uint64_t key = lower[t];
        int64_t i = (int64_t)(key >> shift);
        out[t + us[i] + i] = key;
    } else if (t < 2 * (int64_t)u) {
        uint64_t key = upper[t - u];
        int64_t i = (int64_t)(key >> shift);
        out[ls[i + 1] + (t - u) + i + 1] = key;
    } else {
        int64_t i = t - 2 * (int64_t)u;
        out[(ls ? ls[i + 1] + us[i] : 0) + i] = ((uint64_t)i << shift) | (uint64_t)i;
    }
}

/* Edge k (a << 32 | b, a < b: the refinement's sorted edges) as an upper key
 * a << shift | b (the same order). */
HOMG_HD uint64_t fem_pattern_edge_upper(uint64_t e, int shift) { return ((e >> 32) << shift) | (e & 0xffffffffu); }

/* A P1 mesh refined by homg_mesh_refine (gmg/refine.h): the coarse nodes
 * 0 .. nc - 1 first, node nc + k the midpoint mij of the coarse mesh's sorted
 * edge k (a << 32 | b, a < b; ne of them), coarse element e's children the
 * elements c e .. c e + c - 1: triangles (v0 m01 m02) (m01 v1 m12)
 * (m02 m12 v2) (m01 m12 m02); tetrahedra (v0 m01 m02 m03) (m01 v1 m12 m13)
 * (m02 m12 v2 m23) (m03 m13 m23 v3), then four (d0 d1 r r') around the
 * octahedron's diagonal d0-d1 (one of its three pairs of opposite
 * midpoints).  Its pattern's upper keys are the halves (a, nc + k),
 * (b, nc + k) of the coarse edges and, per coarse element, the midpoint pairs
 * of its children: FEM_REFINED_PAIRS of them (a triangle's inner triangle; a
 * tetrahedron's 12 face edges and its diagonal), read from those positions
 * and written to out[j * stride] (any order: they are sorted after).  Answers
 * 1 where the children are not so laid out (then the caller sorts the
 * element pairs), else 0. */
#define FEM_REFINED_PAIRS(nv) ((nv) == 3 ? 3 : 13)

/* The key of a < b (0: a == b, flagged by the caller). */
HOMG_HD uint64_t fem_pattern_pair_key(int32_t a, int32_t b, int shift)
{
    return a < b ? ((uint64_t)a << shift) | (uint64_t)b : ((uint64_t)b << shift) | (uint64_t)a;
}

/* Corner node v's midpoint m: m's coarse edge holds v. */
HOMG_HD int fem_pattern_half_ok(int32_t v, int32_t m, int32_t nc, const uint64_t *edges, int32_t ne)
{
    uint64_t ed;
    if (v < 0 || v >= nc || m < nc || m - nc >= ne)
        return 0;
    ed = edges[m - nc];
    return (int32_t)(ed >> 32) == v || (int32_t)(ed & 0xffffffffu) == v;
}

/* Coarse element e's midpoints where its children hold them (triangles:
 * m01 m02 m12; tetrahedra: m01 m02 m03 m12 m13 m23) into m; answers their
 * count (3 or 6).  fem_pattern_refined_element checks the layout. */
HOMG_HD int fem_pattern_refined_mids(const int32_t *elements, int nv, int64_t e, int32_t *m)
{
    const int32_t *c = elements + e * (nv == 3 ? 4 : 8) * nv;
    if (nv == 3) {
        m[0] = c[1], m[1] = c[2], m[2] = c[5];
        return 3;
    }
    m[0] = c[1], m[1] = c[2], m[2] = c[3], m[3] = c[6], m[4] = c[7], m[5] = c[11];
    return 6;
}

HOMG_HD int fem_pattern_refined_element(const int32_t *elements, int nv, int64_t e, int32_t nc, const uint64_t *edges,
                                        int32_t ne, int shift, uint64_t *out, int64_t stride)
{
    /* pairs of the six midpoints m01 m02 m03 m12 m13 m23 but the opposite ones (0 5) (1 4) (2 3) */
    const int face[12][2] = { { 0, 1 }, { 0, 2 }, { 0, 3 }, { 0, 4 }, { 1, 2 }, { 1, 3 },
                              { 1, 5 }, { 2, 4 }, { 2, 5 }, { 3, 4 }, { 3, 5 }, { 4, 5 } };
    const int32_t *c = elements + e * (nv == 3 ? 4 : 8) * nv; /* child k's node i: c[k nv + i] */
    int32_t m[6];
    int bad = 0;
    fem_pattern_refined_mids(elements, nv, e, m);
    if (nv == 3) {
        bad |= c[3] != m[0] || c[6] != m[1] || c[7] != m[2] || c[9] != m[0] || c[10] != m[2] || c[11] != m[1];
        for (int k = 0; k < 3; k++) /* corner k's two midpoints */
            for (int i = 1; i < 3; i++)
                bad |= !fem_pattern_half_ok(c[4 * k], c[3 * k + (k + i) % 3], nc, edges, ne);
        for (int j = 0; j < 3; j++) {
            int32_t x = m[j], y = m[(j + 1) % 3];
            bad |= x == y;
            out[j * stride] = fem_pattern_pair_key(x, y, shift);
        }
        return bad;
    }
    bad |= c[4] != m[0] || c[8] != m[1] || c[9] != m[3] || c[12] != m[2] || c[13] != m[4] || c[14] != m[5];
    for (int k = 0; k < 4; k++) /* corner k (node k of child k) and its three midpoints */
        for (int i = 1; i < 4; i++)
            bad |= !fem_pattern_half_ok(c[5 * k], c[4 * k + (k + i) % 4], nc, edges, ne);
    {
        int32_t d0 = c[16], d1 = c[17];
        int opp = 0;
        for (int j = 0; j < 3; j++) /* the diagonal: a pair of opposite midpoints */
            opp |= (d0 == m[j] && d1 == m[5 - j]) || (d1 == m[j] && d0 == m[5 - j]);
        bad |= !opp;
        for (int k = 4; k < 8; k++) { /* (d0 d1 r r'), r and r' other midpoints */
            const int32_t *t = c + 4 * k;
            bad |= t[0] != d0 || t[1] != d1;
            for (int i = 2; i < 4; i++) {
                int in = 0;
                for (int j = 0; j < 6; j++)
                    in |= t[i] == m[j];
                bad |= !in || t[i] == d0 || t[i] == d1;
            }
        }
        for (int j = 0; j < 12; j++) {
            int32_t x = m[face[j][0]], y = m[face[j][1]];
            bad |= x == y;
            out[j * stride] = fem_pattern_pair_key(x, y, shift);
        }
        bad |= d0 == d1;
        out[12 * stride] = fem_pattern_pair_key(d0, d1, shift);
    }
    return bad;
}

/* Coarse edge k's halves as upper keys (a < nc <= nc + k), to out[0] and
 * out[stride]. */
HOMG_HD void fem_pattern_refined_halves(const uint64_t *edges, int32_t nc, int64_t k, int shift, uint64_t *out,
                                        int64_t stride)
{
    uint64_t mid = (uint64_t)nc + (uint64_t)k;
    out[0] = ((edges[k] >> 32) << shift) | mid;
    out[stride] = ((edges[k] & 0xffffffffu) << shift) | mid;
}

#endif
