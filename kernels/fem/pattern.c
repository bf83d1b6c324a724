/* pattern.c -- CPU twin of the CSR pattern build: element node-pair keys,
 * radix sort, unique, row pointers from the row changes; from a refinement's
 * edges, or from the coarse mesh's edges and the children, CUDA's way
 * (upper keys, transposes sorted, rows merged: pattern.h). */
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
#pragma omp parallel for schedule(static) if (nnz > HOMG_OMP_MIN)
    for (int32_t k = 0; k < nnz; k++)
        col_idx[k] = (int32_t)(keys[k] & mask);
#pragma omp parallel for schedule(static) if (nnz > HOMG_OMP_MIN)
    for (int32_t k = 0; k <= nnz; k++)
        fem_pattern_starts_at(keys, nnz, shift, num_rows, k, INT64_MAX, row_ptr); /* first key of row r or later */
    return HOMG_OK;
}

/* The u sorted upper keys at up: transposes sorted (keys[0, 2u)), the two
 * lists' row starts in keys[2u, 3u + rows) (2 rows + 2 int32), rows merged
 * into out (2 u + rows keys, not overlapping up or keys[0, 3u + rows)), copied
 * to keys. */
static void rows_from_upper(const uint64_t *up, int32_t u, int shift, int32_t rows, uint64_t *keys, uint64_t *out)
{
    uint64_t *lo = keys;
    int32_t *ls = u > 0 ? (int32_t *)(keys + 2 * (size_t)u) : NULL, *us = u > 0 ? ls + rows + 1 : NULL;
    int64_t items = 2 * (int64_t)u + rows;
#pragma omp parallel for schedule(static) if (u > HOMG_OMP_MIN)
    for (int32_t k = 0; k < u; k++)
        lo[k] = ((up[k] & (((uint64_t)1 << shift) - 1)) << shift) | (up[k] >> shift);
    homg_cpu_sort_u64(lo, keys + u, (size_t)u, 2 * shift);
    if (u > 0) {
        int64_t cap = fem_pattern_gap_cap(rows);
        if (cap < INT64_MAX)
            memset(ls, 0xff, 2 * ((size_t)rows + 1) * sizeof(int32_t));
#pragma omp parallel for schedule(static) if (u > HOMG_OMP_MIN)
        for (int32_t k = 0; k <= u; k++) {
            fem_pattern_starts_at(lo, u, shift, rows, k, cap, ls);
            fem_pattern_starts_at(up, u, shift, rows, k, cap, us);
        }
        if (cap < INT64_MAX) {
#pragma omp parallel for schedule(static) if (rows > HOMG_OMP_MIN)
            for (int32_t r = 0; r <= rows; r++) {
                fem_pattern_start_fill(lo, u, shift, r, ls);
                fem_pattern_start_fill(up, u, shift, r, us);
            }
        }
    }
#pragma omp parallel for schedule(static) if (items > HOMG_OMP_MIN)
    for (int64_t t = 0; t < items; t++)
        fem_pattern_place(up, lo, u, shift, ls, us, t, out);
    memcpy(keys, out, ((size_t)2 * u + (size_t)rows) * sizeof(uint64_t));
}

homg_status homg_cpu_fem_pattern_refined(kernel_exec *ex, const fem_problem *p, const uint64_t *edges, int32_t ne,
                                         int32_t nc, int shift, uint64_t *keys, uint64_t *keys_alt, size_t cap,
                                         void *temp, size_t temp_bytes, int32_t *nnz)
{
    int nv = p->nd, c = nv == 3 ? 4 : 8, mm = FEM_REFINED_PAIRS(nv), bad = 0;
    int64_t ce = p->num_elements / c, n = ce * mm + 2 * (int64_t)ne;
    size_t u;
    (void)ex;
    (void)temp;
    (void)temp_bytes;
    *nnz = 0;
    if ((nv != 3 && nv != 4) || p->num_elements % c || ce <= 0 || (int64_t)nc + ne != p->num_dofs || (size_t)n > cap ||
        n > 0x7fffffff)
        return HOMG_OK;
#pragma omp parallel for schedule(static) reduction(| : bad) if (ce > HOMG_OMP_MIN)
    for (int64_t e = 0; e < ce; e++)
        bad |= fem_pattern_refined_element(p->elements, nv, e, nc, edges, ne, shift, keys + e, ce);
    for (int64_t k = 0; k < ne; k++)
        fem_pattern_refined_halves(edges, nc, k, shift, keys + ce * mm + k, ne);
    homg_cpu_sort_u64(keys, keys_alt, (size_t)n, 2 * shift);
    u = homg_cpu_sort_unique_u64(keys, (size_t)n);
    if (bad || u == 0 || 3 * u + (size_t)p->num_dofs > cap)
        return HOMG_OK;
    memcpy(keys_alt, keys, u * sizeof(uint64_t)); /* the upper keys at keys_alt[0, u), as on CUDA */
    rows_from_upper(keys_alt, (int32_t)u, shift, p->num_dofs, keys, keys_alt + u);
    *nnz = 2 * (int32_t)u + p->num_dofs;
    return HOMG_OK;
}

homg_status homg_cpu_fem_pattern_from_edges(kernel_exec *ex, const uint64_t *edges, int32_t num_edges, int shift,
                                            int32_t num_rows, uint64_t *keys, uint64_t *keys_alt, void *temp,
                                            size_t temp_bytes)
{
    (void)ex;
    (void)temp;
    (void)temp_bytes;
    for (int32_t k = 0; k < num_edges; k++)
        keys_alt[k] = fem_pattern_edge_upper(edges[k], shift);
    rows_from_upper(keys_alt, num_edges, shift, num_rows, keys, keys_alt + num_edges);
    return HOMG_OK;
}
