/* refine_count.c -- every level's edge count of a uniform refinement from the
 * coarsest mesh's, so the device refinement sizes each level without reading
 * the unique count back (a read waits for the queue; hierarchy.c checks the
 * counts the device found in one read after all levels).
 *
 * homg_mesh_refine's children (gmg/refine.h) have exactly these edges: the two
 * halves of every coarse edge, the three midpoint pairs inside every coarse
 * face and, in 3D, one diagonal per coarse tetrahedron.  With E edges, F faces
 * and T elements, the refined mesh has 2E + 3F + T edges, 4F + 8T faces and 8T
 * elements (3D); 2E + 3T edges and 4T elements (2D, the faces are the
 * elements).  Counts of distinct node pairs and triples, as the device's
 * unique keys: exact where no element repeats a node and no two elements have
 * the same nodes, which the children keep from their parents -- checked on the
 * coarsest mesh here, else nothing is predicted.
 *
 * Off by default (HOMG_GMG_KNOWN_COUNTS=1 turns it on): on the H100 (s11-gmg13,
 * 65^3 cube, 8 rounds) the set-up with it was ~0.5 ms slower than without in 6
 * of 8 rounds and its traced refine+P 1.3-1.7 ms against 1.2-1.5, although it
 * removes 4 refinement reads and level 0's pattern read: not explained within
 * that one call. */
#include "core/sort.h"
#include "gmg_internal.h"
#include "mesh/mesh_internal.h"

#include <stdlib.h>

#define COUNT_MAX_NODES    65536 /* four node numbers packed in a 64-bit key */
#define COUNT_MAX_ELEMENTS 65536 /* a small coarsest mesh: a host sort of a few 100k keys at most */

/* Nodes v[pick[0..k)], sorted, packed by bits each. */
static uint64_t pack_sorted(const int32_t *v, const int *pick, int k, int bits)
{
    int32_t s[4];
    uint64_t key = 0;
    for (int i = 0; i < k; i++) {
        int j = i;
        s[i] = v[pick[i]];
        while (j > 0 && s[j - 1] > s[j]) {
            int32_t t = s[j - 1];
            s[j - 1] = s[j];
            s[j] = t;
            j--;
        }
    }
    for (int i = 0; i < k; i++)
        key = (key << bits) | (uint64_t)s[i];
    return key;
}

/* Distinct keys among the n subsets of k nodes listed in pick (per element). */
static int64_t distinct(const homg_mesh *m, const int (*pick)[4], int per, int k, int bits, uint64_t *keys,
                        uint64_t *tmp)
{
    int nv = m->dim + 1;
    size_t n = 0;
    for (int32_t e = 0; e < m->num_elements; e++)
        for (int q = 0; q < per; q++)
            keys[n++] = pack_sorted(m->elements + (size_t)e * nv, pick[q], k, bits);
    homg_cpu_sort_u64(keys, tmp, n, k * bits); /* the packed keys' bits only */
    return (int64_t)homg_cpu_sort_unique_u64(keys, n);
}

/* Non-zero where every element's nodes are distinct. */
static int no_repeated_node(const homg_mesh *m)
{
    int nv = m->dim + 1;
    for (int32_t e = 0; e < m->num_elements; e++) {
        const int32_t *v = m->elements + (size_t)e * nv;
        for (int a = 0; a < nv; a++)
            for (int b = a + 1; b < nv; b++)
                if (v[a] == v[b])
                    return 0;
    }
    return 1;
}

int homg__gmg_known_counts(void)
{
    const char *env = getenv("HOMG_GMG_KNOWN_COUNTS");
    return env && atoi(env) != 0;
}

int homg__gmg_refine_counts(const homg_mesh *coarse, int nl, int32_t *edges)
{
    static const int pairs[6][4] = { { 0, 1 }, { 0, 2 }, { 0, 3 }, { 1, 2 }, { 1, 3 }, { 2, 3 } };
    static const int pairs2[3][4] = { { 0, 1 }, { 0, 2 }, { 1, 2 } };
    static const int triples[4][4] = { { 0, 1, 2 }, { 0, 1, 3 }, { 0, 2, 3 }, { 1, 2, 3 } };
    static const int all[1][4] = { { 0, 1, 2, 3 } };
    const homg_mesh *m = coarse;
    int dim = m ? m->dim : 0, ok = 1;
    int64_t e, f, t;
    uint64_t *keys, *tmp;
    if (!m || !m->elements || (dim != 2 && dim != 3) || m->num_elements <= 0 || m->num_elements > COUNT_MAX_ELEMENTS ||
        m->num_nodes > COUNT_MAX_NODES || nl < 2 || !no_repeated_node(m))
        return 0;
    keys = (uint64_t *)malloc((size_t)m->num_elements * 6 * sizeof(uint64_t));
    tmp = (uint64_t *)malloc((size_t)m->num_elements * 6 * sizeof(uint64_t));
    if (!keys || !tmp) {
        free(keys);
        free(tmp);
        return 0;
    }
    t = m->num_elements;
    if (dim == 3) {
        e = distinct(m, pairs, 6, 2, 16, keys, tmp);
        f = distinct(m, triples, 4, 3, 16, keys, tmp);
        ok = distinct(m, all, 1, 4, 16, keys, tmp) == t;
    } else {
        e = distinct(m, pairs2, 3, 2, 16, keys, tmp);
        f = t;
        ok = distinct(m, triples, 1, 3, 16, keys, tmp) == t; /* triples[0]: the triangle's three nodes */
    }
    free(keys);
    free(tmp);
    for (int l = nl - 1; l >= 0 && ok; l--) { /* mesh l (refined into mesh l - 1 where l > 0) */
        ok = e <= INT32_MAX;
        edges[l] = ok ? (int32_t)e : 0;
        if (dim == 3) {
            int64_t e1 = 2 * e + 3 * f + t, f1 = 4 * f + 8 * t;
            e = e1;
            f = f1;
            t *= 8;
        } else {
            e = 2 * e + 3 * t;
            t *= 4;
        }
    }
    return ok;
}
