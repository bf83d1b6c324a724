/* partition.h -- the patch partition of the PATCH scheme, built where the
 * pattern lives (partition.c / partition.cu share these rules word for word).
 *
 * Patches are runs of consecutive rows: with C = patch_nnz - (longest row) + 1,
 * row i starts a new patch when row_ptr[i] / C differs from row i - 1's, so a
 * patch's entries (row_ptr[first] .. row_ptr[last + 1]) are at most
 * (C - 1) + longest row = patch_nnz.  A patch's rows and entries are contiguous
 * in the CSR arrays (nodes and entry_src are the identity), its elements are
 * those whose first node it holds, in element order.  Every step is a map, a
 * scan or a sort: no breadth-first growth, no host round trip of the pattern. */
#ifndef HOMG_FEM_PARTITION_H
#define HOMG_FEM_PARTITION_H

#include "core/search.h"
#include "fem_kernels.h"

/* The counts a partition leaves at the start of its workspace (STATS_BYTES),
 * read by partition_stats after the queued work. */
typedef struct part_stats {
    int32_t max_row, num_patches, max_nnz, max_nodes;
    unsigned long long outside;
} part_stats;
#define PARTITION_STATS_BYTES 256

/* out's counts from the workspace's start (host memory). */
static inline void partition_stats_to(const part_stats *s, fem_partition *out)
{
    out->max_row = s->max_row;
    out->num_patches = s->num_patches;
    out->max_nnz = s->max_nnz;
    out->max_nodes = s->max_nodes;
    out->outside = (int64_t)s->outside;
}

/* The run length C of row starts per patch (at least 1). */
HOMG_HD int32_t partition_chunk(int32_t patch_nnz, int32_t max_row)
{
    int32_t c = patch_nnz - max_row + 1;
    return c > 0 ? c : 1;
}

/* Non-zero when row i opens a patch. */
HOMG_HD int partition_starts(const int32_t *row_ptr, int32_t i, int32_t chunk)
{
    return i == 0 || row_ptr[i] / chunk != row_ptr[i - 1] / chunk;
}

/* Row i of patch k (first row f): its local index, its row offset within the
 * patch (and the end offset after the patch's last row), node and entry maps. */
HOMG_HD void partition_row(const int32_t *row_ptr, int32_t n, int32_t i, int32_t k, int32_t f, int32_t chunk,
                           int32_t *row_off, int32_t *node_local, int32_t *nodes)
{
    int32_t e0 = row_ptr[f];
    node_local[i] = i - f;
    nodes[i] = i;
    row_off[i + k] = row_ptr[i] - e0;
    if (i + 1 == n || partition_starts(row_ptr, i + 1, chunk))
        row_off[i + 1 + k] = row_ptr[i + 1] - e0;
}

/* Element e's sort key: its patch (that of its first node) above its index;
 * *outside: how many of its nodes another patch holds. */
HOMG_HD uint64_t partition_element_key(const fem_problem *p, const int32_t *node_patch, int64_t e, int *outside)
{
    int nv = p->dim + 1, c = 0;
    const int32_t *v = p->elements + e * nv;
    int32_t first = node_patch[v[0]];
    for (int a = 1; a < nv; a++)
        c += node_patch[v[a]] != first;
    *outside = c;
    return ((uint64_t)(uint32_t)first << 32) | (uint64_t)(uint32_t)e;
}

#endif
