/* partition.c -- CPU twin of the patch partition (partition.h): the same maps
 * in order, a running patch index for the scan, the radix sort of sort.h for
 * CUB's; the counts left at the workspace's start, as on CUDA. */
#include "partition.h"

homg_status homg_cpu_fem_partition_temp_bytes(kernel_exec *ex, int32_t num_nodes, int32_t num_elements, size_t *bytes)
{
    (void)ex;
    (void)num_nodes;
    *bytes = PARTITION_STATS_BYTES + 2 * ((size_t)num_elements + 1) * sizeof(uint64_t);
    return HOMG_OK;
}

homg_status homg_cpu_fem_partition(kernel_exec *ex, const fem_problem *p, const int32_t *row_ptr, int32_t nnz,
                                   int32_t patch_nnz, fem_partition *q, void *temp, size_t temp_bytes)
{
    int32_t n = p->num_nodes, ne = p->num_elements, max_row = 0, chunk, np = 0, max_nnz = 0, max_nodes = 0;
    int64_t outside_all = 0;
    uint64_t *keys = (uint64_t *)((unsigned char *)temp + PARTITION_STATS_BYTES), *alt = keys + ne + 1;
    part_stats *s = (part_stats *)temp;
    (void)ex;
    if (temp_bytes < PARTITION_STATS_BYTES + 2 * ((size_t)ne + 1) * sizeof(uint64_t))
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "patch partition: workspace too small");
    for (int32_t i = 0; i < n; i++)
        max_row = row_ptr[i + 1] - row_ptr[i] > max_row ? row_ptr[i + 1] - row_ptr[i] : max_row;
    chunk = partition_chunk(patch_nnz, max_row);
    for (int32_t i = 0; i < n; i++) { /* the scan: patch index of each row, first rows */
        if (partition_starts(row_ptr, i, chunk)) {
            q->node_ptr[np] = i;
            q->entry_ptr[np] = row_ptr[i];
            np++;
        }
        q->node_patch[i] = np - 1;
    }
    q->node_ptr[np] = n;
    q->entry_ptr[np] = row_ptr[n];
    for (int32_t i = 0; i < n; i++) {
        int32_t k = q->node_patch[i], f = q->node_ptr[k];
        partition_row(row_ptr, n, i, k, f, chunk, q->row_off, q->node_local, q->nodes);
        if (row_ptr[i + 1] - row_ptr[f] > max_nnz)
            max_nnz = row_ptr[i + 1] - row_ptr[f];
        if (i + 1 - f > max_nodes)
            max_nodes = i + 1 - f;
    }
    for (int32_t k = 0; k < nnz; k++)
        q->entry_src[k] = k;
    for (int64_t e = 0; e < ne; e++) {
        int outside;
        keys[e] = partition_element_key(p, q->node_patch, e, &outside);
        outside_all += outside;
    }
    homg_cpu_sort_u64(keys, alt, (size_t)ne, 32 + homg_cpu_sort_bits_for((uint64_t)(n > 0 ? n : 1)));
    for (int32_t e = 0; e < ne; e++)
        q->elems[e] = (int32_t)(uint32_t)keys[e];
    for (int32_t k = 0; k <= np; k++)
        q->elem_ptr[k] = sorted_lower_u64(keys, 0, ne, (uint64_t)(uint32_t)k << 32);
    s->max_row = max_row;
    s->num_patches = np;
    s->max_nnz = max_nnz;
    s->max_nodes = max_nodes;
    s->outside = (unsigned long long)outside_all;
    return HOMG_OK;
}

homg_status homg_cpu_fem_partition_stats(kernel_exec *ex, const void *temp, fem_partition *out)
{
    (void)ex;
    partition_stats_to((const part_stats *)temp, out);
    return HOMG_OK;
}
