/* counts.c -- the distinct edges and (tetrahedra) faces of a mesh's elements,
 * on the host.  A uniform refinement's level sizes follow from them (V' = V +
 * E, E' = 2E + 3F + T, F' = 4F + 8T, T' = 8T; triangles E' = 2E + 3T), so the
 * device refinement sizes its levels without reading its counts. */
#include "mesh_internal.h"
#include "core/sort.h"

#include <stdlib.h>

static void sort3(int32_t *v)
{
    int32_t t;
    if (v[0] > v[1])
        t = v[0], v[0] = v[1], v[1] = t;
    if (v[1] > v[2])
        t = v[1], v[1] = v[2], v[2] = t;
    if (v[0] > v[1])
        t = v[0], v[0] = v[1], v[1] = t;
}

/* The element's vertex pairs (or, faces, triples) packed b bits a vertex, smallest first. */
static size_t element_keys(const homg_mesh *m, int faces, int b, uint64_t *keys)
{
    int nv = m->dim + 1;
    size_t c = 0;
    for (int32_t e = 0; e < m->num_elements; e++) {
        const int32_t *v = m->elements + (size_t)e * nv;
        for (int i = 0; i < nv; i++)
            for (int j = i + 1; j < nv; j++) {
                int32_t lo = v[i] < v[j] ? v[i] : v[j], hi = v[i] < v[j] ? v[j] : v[i];
                if (!faces) {
                    keys[c++] = ((uint64_t)lo << b) | (uint64_t)hi;
                    continue;
                }
                for (int k = j + 1; k < nv; k++) {
                    int32_t t[3] = { v[i], v[j], v[k] };
                    sort3(t);
                    keys[c++] = ((((uint64_t)t[0] << b) | (uint64_t)t[1]) << b) | (uint64_t)t[2];
                }
            }
    }
    return c;
}

homg_status homg__mesh_count_edges_faces(homg_ctx *ctx, const homg_mesh *m, int64_t *edges, int64_t *faces)
{
    int nv = m->dim + 1, b = homg_cpu_sort_bits_for((uint64_t)(m->num_nodes > 0 ? m->num_nodes - 1 : 0));
    size_t n = (size_t)m->num_elements * (nv * (nv - 1) / 2);
    uint64_t *keys = NULL, *tmp = NULL;
    *edges = *faces = -1;
    if (!m->elements || (m->dim == 3 ? 3 : 2) * b > 64)
        return HOMG_OK; /* unknown: no host elements, or triples that do not pack */
    keys = (uint64_t *)malloc((n ? n : 1) * sizeof *keys);
    tmp = (uint64_t *)malloc((n ? n : 1) * sizeof *tmp);
    if (!keys || !tmp) {
        free(keys);
        free(tmp);
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "mesh counts: out of host memory");
    }
    n = element_keys(m, 0, b, keys);
    homg_cpu_sort_u64(keys, tmp, n, 2 * b);
    *edges = (int64_t)homg_cpu_sort_unique_u64(keys, n);
    if (m->dim == 3) { /* 4 faces a tetrahedron: fewer keys than its 6 edges */
        n = element_keys(m, 1, b, keys);
        homg_cpu_sort_u64(keys, tmp, n, 3 * b);
        *faces = (int64_t)homg_cpu_sort_unique_u64(keys, n);
    }
    free(keys);
    free(tmp);
    return HOMG_OK;
}
