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

/* The element's faces (vertex triples) packed b bits a vertex, smallest first. */
static size_t face_keys(const homg_mesh *m, int b, uint64_t *keys)
{
    size_t c = 0;
    for (int32_t e = 0; e < m->num_elements; e++) {
        const int32_t *v = m->elements + (size_t)e * 4;
        for (int i = 0; i < 4; i++)
            for (int j = i + 1; j < 4; j++)
                for (int k = j + 1; k < 4; k++) {
                    int32_t t[3] = { v[i], v[j], v[k] };
                    sort3(t);
                    keys[c++] = ((((uint64_t)t[0] << b) | (uint64_t)t[1]) << b) | (uint64_t)t[2];
                }
    }
    return c;
}

/* The edges by homg__mesh_edges (generate.c); the faces sorted and counted here. */
homg_status homg__mesh_count_edges_faces(homg_ctx *ctx, const homg_mesh *m, int64_t *edges, int64_t *faces)
{
    int b = homg_cpu_sort_bits_for((uint64_t)(m->num_nodes > 0 ? m->num_nodes - 1 : 0));
    size_t n = (size_t)m->num_elements * 4, ne = 0;
    uint64_t *keys = NULL, *tmp = NULL;
    *edges = *faces = -1;
    if (!m->elements || (m->dim == 3 ? 3 : 2) * b > 64)
        return HOMG_OK; /* unknown: no host elements, or triples that do not pack */
    if (m->num_elements == 0) {
        *edges = *faces = 0;
        return HOMG_OK;
    }
    HOMG_TRY(homg__mesh_edges(ctx, m, &keys, &ne));
    free(keys);
    *edges = (int64_t)ne;
    if (m->dim != 3)
        return HOMG_OK;
    keys = (uint64_t *)malloc(n * sizeof *keys); /* 4 faces a tetrahedron */
    tmp = (uint64_t *)malloc(n * sizeof *tmp);
    if (!keys || !tmp) {
        free(keys);
        free(tmp);
        *edges = -1;
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "mesh counts: out of host memory");
    }
    n = face_keys(m, b, keys);
    homg_cpu_sort_u64(keys, tmp, n, 3 * b);
    *faces = (int64_t)homg_cpu_sort_unique_u64(keys, n);
    free(keys);
    free(tmp);
    return HOMG_OK;
}
