/* pattern.c -- CPU twin of the CSR pattern build: element node-pair keys,
 * radix sort, unique, row pointers by binary search; from a refinement's
 * edges, CUDA's way (transposes sorted, rows merged: pattern.h). */
#include "fem_element.h"
#include "pattern.h"

#include <string.h>

homg_status homg_cpu_fem_pattern_temp_bytes(kernel_exec *ex, size_t num_keys, int bits, size_t *bytes)
{
    (void)ex;
    (void)num_keys;
    (void)bits;
    *bytes = 0;
    return HOMG_OK;
}

homg_status homg_cpu_fem_pattern_keys(kernel_exec *ex, const fem_problem *p, int shift, uint64_t *keys,
                                      uint64_t *keys_alt, size_t cap, void *temp, size_t temp_bytes, int32_t *nnz)
{
    int nv = p->nd;
    int64_t per = (int64_t)nv * nv, pairs = (int64_t)p->num_elements * per, n = pairs + p->num_dofs;
    (void)ex;
    (void)temp;
    (void)temp_bytes;
    *nnz = 0;
    if (cap < (size_t)n) /* the full sort only: the caller asks again with room for every key */
        return HOMG_OK;
#pragma omp parallel for schedule(static)
    for (int64_t e = 0; e < p->num_elements; e++) {
        const int32_t *v = p->dofs + e * nv;
        for (int a = 0; a < nv; a++)
            for (int b = 0; b < nv; b++)
                keys[e * per + a * nv + b] = ((uint64_t)v[a] << shift) | (uint64_t)v[b];
    }
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < p->num_dofs; i++)
        keys[pairs + i] = ((uint64_t)i << shift) | (uint64_t)i;
    homg_cpu_sort_u64(keys, keys_alt, (size_t)n, 2 * shift);
    *nnz = (int32_t)homg_cpu_sort_unique_u64(keys, (size_t)n);
    return HOMG_OK;
}

homg_status homg_cpu_fem_pattern_csr(kernel_exec *ex, const uint64_t *keys, int32_t nnz, int shift, int32_t num_rows,
                                     int32_t *row_ptr, int32_t *col_idx)
{
    uint64_t mask = ((uint64_t)1 << shift) - 1;
    (void)ex;
#pragma omp parallel for schedule(static)
    for (int32_t k = 0; k < nnz; k++)
        col_idx[k] = (int32_t)(keys[k] & mask);
#pragma omp parallel for schedule(static)
    for (int32_t r = 0; r <= num_rows; r++) {
        /* first key of row r or later */
        row_ptr[r] = sorted_lower_u64(keys, 0, nnz, (uint64_t)r << shift);
    }
    return HOMG_OK;
}

homg_status homg_cpu_fem_pattern_from_edges(kernel_exec *ex, const uint64_t *edges, int32_t num_edges, int shift,
                                            int32_t num_rows, uint64_t *keys, uint64_t *keys_alt, void *temp,
                                            size_t temp_bytes)
{
    uint64_t *up = keys_alt, *lo = keys, *out = keys_alt + num_edges;
    (void)ex;
    (void)temp;
    (void)temp_bytes;
    for (int32_t k = 0; k < num_edges; k++) {
        up[k] = fem_pattern_edge_upper(edges[k], shift);
        lo[k] = fem_pattern_edge_lower(edges[k], shift);
    }
    homg_cpu_sort_u64(lo, keys + num_edges, (size_t)num_edges, 2 * shift);
#pragma omp parallel for schedule(static) if (num_rows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < num_rows; i++)
        fem_pattern_merge_row(up, lo, num_edges, shift, i, out);
    memcpy(keys, out, ((size_t)2 * num_edges + (size_t)num_rows) * sizeof(uint64_t));
    return HOMG_OK;
}
