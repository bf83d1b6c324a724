/* pattern.cu -- the CSR pattern on the device: sorted unique keys row << shift
 * | col (pattern_pairs: the element node pairs a < b sorted and made unique,
 * their transposes sorted, rows merged; else a key for every element node
 * pair and every diagonal, CUB radix sort, CUB unique), then row pointers from
 * the row changes between neighbouring keys.  CPU twin: pattern.c beside it (the full sort, same keys). */
#include "core/cuda_check.h"
#include "fem_element.h"
#include "pattern.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#define THREADS     256
#define COUNT_BYTES 256 /* the selected count lives at the start of the workspace */

static unsigned blocks_for(int64_t n) { return (unsigned)((n + THREADS - 1) / THREADS); }

__global__ void fem_pattern_keys_kernel(fem_problem p, int shift, uint64_t *keys)
{
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int nv = p.nd;
    int64_t per = (int64_t)nv * nv, pairs = (int64_t)p.num_elements * per;
    if (t < pairs) {
        int64_t e = t / per;
        int r = (int)(t - e * per), a = r / nv, b = r - a * nv;
        const int32_t *v = p.dofs + e * nv;
        keys[t] = ((uint64_t)v[a] << shift) | (uint64_t)v[b];
    } else if (t < pairs + p.num_dofs) {
        uint64_t i = (uint64_t)(t - pairs);
        keys[t] = (i << shift) | i;
    }
}

/* Key k < nnz: its column; key k <= nnz: the row pointers after key k - 1's
 * row up to its own (fem_pattern_starts_at: coalesced, no search). */
__global__ void fem_pattern_csr_kernel(const uint64_t *keys, int32_t nnz, int shift, int32_t num_rows, int32_t *row_ptr,
                                       int32_t *col_idx)
{
    int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < nnz)
        col_idx[k] = (int32_t)(keys[k] & (((uint64_t)1 << shift) - 1));
    if (k <= nnz)
        fem_pattern_starts_at(keys, nnz, shift, num_rows, (int32_t)k, INT64_MAX, row_ptr);
}

/* The faster path (pattern_keys): one key min << shift | max per pair a < b
 * of an element's nodes (nv (nv - 1) / 2 instead of nv^2 + 1 keys: 6 + 0
 * instead of 16 + 1 per P1 tetrahedron), sorted and made unique (U upper
 * keys); their transposes sorted (U keys); then every row from its lower part
 * (transposes), the diagonal and its upper part, written in order: the same
 * sorted unique keys as the full sort, with ~half the radix work.  An element
 * with a repeated node sets flag (its pair would be a diagonal): the full
 * sort runs instead. */
__global__ void fem_pattern_upper_kernel(fem_problem p, int shift, uint64_t *keys, int *flag)
{
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int nv = p.nd, per = nv * (nv - 1) / 2;
    if (t < (int64_t)p.num_elements * per) {
        int64_t e = t / per;
        int r = (int)(t - e * per), a = 0;
        while (r >= nv - 1 - a) { /* pair r of (0,1) (0,2) .. (1,2) .. */
            r -= nv - 1 - a;
            a++;
        }
        const int32_t *v = p.dofs + e * nv;
        uint64_t x = (uint64_t)v[a], y = (uint64_t)v[a + 1 + r];
        if (x == y)
            *flag = 1;
        keys[t] = x < y ? (x << shift) | y : (y << shift) | x;
    }
}

__global__ void fem_pattern_swap_kernel(const uint64_t *in, int32_t n, int shift, uint64_t *out)
{
    int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    uint64_t mask = ((uint64_t)1 << shift) - 1;
    if (k < n)
        out[k] = ((in[k] & mask) << shift) | (in[k] >> shift);
}

/* Key k <= u of either list (k <= u: lower, else upper k - u - 1) writes its
 * rows' starts (at most cap rows): ls, us (rows + 1 each). */
__global__ void fem_pattern_starts_kernel(const uint64_t *upper, const uint64_t *lower, int32_t u, int shift,
                                          int32_t rows, int64_t cap, int32_t *ls, int32_t *us)
{
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t <= u)
        fem_pattern_starts_at(lower, u, shift, rows, (int32_t)t, cap, ls);
    else if (t <= 2 * (int64_t)u + 1)
        fem_pattern_starts_at(upper, u, shift, rows, (int32_t)(t - u - 1), cap, us);
}

/* Thread t <= rows: row t of ls, else row t - rows - 1 of us, searched where
 * the capped starts left it unset. */
__global__ void fem_pattern_fill_kernel(const uint64_t *upper, const uint64_t *lower, int32_t u, int shift,
                                        int32_t rows, int32_t *ls, int32_t *us)
{
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t <= rows)
        fem_pattern_start_fill(lower, u, shift, t, ls);
    else if (t <= 2 * (int64_t)rows + 1)
        fem_pattern_start_fill(upper, u, shift, t - rows - 1, us);
}

/* One thread a key (lower, upper, diagonal): coalesced reads, runs of
 * consecutive stores, no search. */
__global__ void fem_pattern_place_kernel(const uint64_t *upper, const uint64_t *lower, int32_t u, int shift,
                                         int32_t rows, const int32_t *ls, const int32_t *us, uint64_t *out)
{
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < 2 * (int64_t)u + rows)
        fem_pattern_place(upper, lower, u, shift, ls, us, t, out);
}

/* The rows from the u sorted upper keys at up = alt[0, u): their transposes
 * sorted in keys[0, 2u), both lists' row starts in keys[2u, 3u + rows) (2 rows
 * + 2 int32: room where u > 0), the keys placed in alt[u, 3u + rows), copied
 * to keys. */
static homg_status pattern_rows_from_upper(kernel_exec *ex, int32_t u, int shift, int32_t rows, uint64_t *keys,
                                           uint64_t *alt, void *work, size_t work_bytes)
{
    cudaStream_t s = homg_cuda_stream(ex);
    uint64_t *up = alt, *lo = keys, *lo_alt = keys + u, *out = alt + u;
    int32_t nnz = 2 * u + rows, *ls = NULL, *us = NULL;
    cub::DoubleBuffer<uint64_t> dl(lo, lo_alt);
    if (u > 0) {
        fem_pattern_swap_kernel<<<blocks_for(u), THREADS, 0, s>>>(up, u, shift, lo);
        HOMG_CUDA_LAUNCHED(ex, "fem_pattern_swap_kernel");
        /* The transposes come in row order (up is sorted) and the radix sort
         * is stable: sorting their high half (the column) alone gives the
         * full order with half the passes. */
        HOMG_CUDA_TRY(ex, cub::DeviceRadixSort::SortKeys(work, work_bytes, dl, u, shift, 2 * shift, s));
        int64_t cap = fem_pattern_gap_cap(rows);
        ls = (int32_t *)(keys + 2 * (size_t)u);
        us = ls + rows + 1;
        if (cap < INT64_MAX)
            HOMG_CUDA_TRY(ex, cudaMemsetAsync(ls, 0xff, 2 * ((size_t)rows + 1) * sizeof(int32_t), s));
        fem_pattern_starts_kernel<<<blocks_for(2 * (int64_t)u + 2), THREADS, 0, s>>>(up, dl.Current(), u, shift, rows,
                                                                                     cap, ls, us);
        HOMG_CUDA_LAUNCHED(ex, "fem_pattern_starts_kernel");
        if (cap < INT64_MAX) {
            fem_pattern_fill_kernel<<<blocks_for(2 * (int64_t)rows + 2), THREADS, 0, s>>>(up, dl.Current(), u, shift,
                                                                                          rows, ls, us);
            HOMG_CUDA_LAUNCHED(ex, "fem_pattern_fill_kernel");
        }
    }
    if (nnz > 0) {
        fem_pattern_place_kernel<<<blocks_for(nnz), THREADS, 0, s>>>(up, dl.Current(), u, shift, rows, ls, us, out);
        HOMG_CUDA_LAUNCHED(ex, "fem_pattern_place_kernel");
    }
    HOMG_CUDA_TRY(ex, cudaMemcpyAsync(keys, out, (size_t)nnz * sizeof(uint64_t), cudaMemcpyDeviceToDevice, s));
    return HOMG_OK;
}

/* The n upper keys in keys (a flag in d_count[1] set by their kernel) sorted
 * and made unique (one read: the count and the flag), then the rows; *nnz = 0
 * where the flag is set or 3 U + rows exceeds cap. */
static homg_status pattern_upper(kernel_exec *ex, int64_t n, int32_t rows, int shift, uint64_t *keys, uint64_t *alt,
                                 void *temp, size_t temp_bytes, size_t cap, int32_t *nnz)
{
    cudaStream_t s = homg_cuda_stream(ex);
    int h[2] = { 0, 0 }, *d_count = (int *)temp;
    void *work = (unsigned char *)temp + COUNT_BYTES;
    size_t work_bytes = temp_bytes - COUNT_BYTES;
    cub::DoubleBuffer<uint64_t> db(keys, alt);
    HOMG_CUDA_TRY(ex, cub::DeviceRadixSort::SortKeys(work, work_bytes, db, (int)n, 0, 2 * shift, s));
    uint64_t *sorted = db.Current(), *uq = db.Alternate();
    HOMG_CUDA_TRY(ex, cub::DeviceSelect::Unique(work, work_bytes, (const uint64_t *)sorted, uq, d_count, (int)n, s));
    HOMG_CUDA_TRY(ex, cudaMemcpyAsync(h, d_count, sizeof h, cudaMemcpyDeviceToHost, s));
    HOMG_CUDA_TRY(ex, cudaStreamSynchronize(s));
    if (h[1] || h[0] <= 0 || h[0] > n || 3 * (size_t)h[0] + (size_t)rows > cap)
        return HOMG_OK;
    if (uq != alt) /* the upper keys at alt[0, u) */
        HOMG_CUDA_TRY(ex, cudaMemcpyAsync(alt, uq, (size_t)h[0] * sizeof(uint64_t), cudaMemcpyDeviceToDevice, s));
    HOMG_TRY(pattern_rows_from_upper(ex, h[0], shift, rows, keys, alt, work, work_bytes));
    *nnz = 2 * h[0] + rows;
    return HOMG_OK;
}

/* The faster path; *nnz = 0 when it cannot run (a repeated node, or the
 * buffers of cap keys too short: max(pairs, 3 U + rows) needed), then the
 * caller runs the full one. */
static homg_status pattern_pairs(kernel_exec *ex, const fem_problem *p, int shift, uint64_t *keys, uint64_t *alt,
                                 void *temp, size_t temp_bytes, size_t cap, int32_t *nnz)
{
    cudaStream_t s = homg_cuda_stream(ex);
    int nv = p->nd;
    int64_t n = (int64_t)p->num_elements * (nv * (nv - 1) / 2);
    int *d_count = (int *)temp; /* [0] unique count, [1] repeated-node flag */
    *nnz = 0;
    if (n <= 0 || (size_t)n > cap)
        return HOMG_OK;
    HOMG_CUDA_TRY(ex, cudaMemsetAsync(d_count, 0, 2 * sizeof(int), s));
    fem_pattern_upper_kernel<<<blocks_for(n), THREADS, 0, s>>>(*p, shift, keys, d_count + 1);
    HOMG_CUDA_LAUNCHED(ex, "fem_pattern_upper_kernel");
    return pattern_upper(ex, n, p->num_dofs, shift, keys, alt, temp, temp_bytes, cap, nnz);
}

/* Thread t < ce: coarse element t's midpoint pairs at keys[j ce + t]; then
 * coarse edge k = t - ce's halves at keys[ce mm + k] and [ce mm + ne + k]
 * (coalesced stores: the keys are sorted after). */
__global__ void fem_pattern_refined_kernel(fem_problem p, const uint64_t *edges, int32_t ne, int32_t nc, int shift,
                                           uint64_t *keys, int *flag)
{
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int nv = p.nd, mm = FEM_REFINED_PAIRS(nv);
    int64_t ce = p.num_elements / (nv == 3 ? 4 : 8);
    if (t < ce) {
        if (fem_pattern_refined_element(p.elements, nv, t, nc, edges, ne, shift, keys + t, ce))
            *flag = 1;
    } else if (t < ce + ne) {
        fem_pattern_refined_halves(edges, nc, t - ce, shift, keys + ce * mm + (t - ce), ne);
    }
}

homg_status homg_cuda_fem_pattern_refined(kernel_exec *ex, const fem_problem *p, const uint64_t *edges, int32_t ne,
                                          int32_t nc, int shift, uint64_t *keys, uint64_t *keys_alt, size_t cap,
                                          void *temp, size_t temp_bytes, int32_t *nnz)
{
    cudaStream_t s = homg_cuda_stream(ex);
    int nv = p->nd, c = nv == 3 ? 4 : 8;
    int64_t ce = p->num_elements / c, n = ce * FEM_REFINED_PAIRS(nv) + 2 * (int64_t)ne;
    *nnz = 0;
    if ((nv != 3 && nv != 4) || p->num_elements % c || ce <= 0 || (int64_t)nc + ne != p->num_dofs || (size_t)n > cap ||
        n > 0x7fffffff || temp_bytes <= COUNT_BYTES)
        return HOMG_OK;
    HOMG_CUDA_TRY(ex, cudaMemsetAsync(temp, 0, 2 * sizeof(int), s));
    fem_pattern_refined_kernel<<<blocks_for(ce + ne), THREADS, 0, s>>>(*p, edges, ne, nc, shift, keys, (int *)temp + 1);
    HOMG_CUDA_LAUNCHED(ex, "fem_pattern_refined_kernel");
    return pattern_upper(ex, n, p->num_dofs, shift, keys, keys_alt, temp, temp_bytes, cap, nnz);
}

homg_status homg_cuda_fem_pattern_temp_bytes(kernel_exec *ex, size_t num_keys, int bits, size_t *bytes)
{
    size_t sort_bytes = 0, unique_bytes = 0;
    cub::DoubleBuffer<uint64_t> db(NULL, NULL);
    if (num_keys > 0x7fffffff)
        return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "pattern: %zu keys exceed CUB's int item count", num_keys);
    HOMG_CUDA_TRY(ex,
                  cub::DeviceRadixSort::SortKeys(NULL, sort_bytes, db, (int)num_keys, 0, bits, homg_cuda_stream(ex)));
    HOMG_CUDA_TRY(ex, cub::DeviceSelect::Unique(NULL, unique_bytes, (const uint64_t *)NULL, (uint64_t *)NULL,
                                                (int *)NULL, (int)num_keys, homg_cuda_stream(ex)));
    *bytes = COUNT_BYTES + (sort_bytes > unique_bytes ? sort_bytes : unique_bytes);
    return HOMG_OK;
}

homg_status homg_cuda_fem_pattern_keys(kernel_exec *ex, const fem_problem *p, int shift, uint64_t *keys,
                                       uint64_t *keys_alt, size_t cap, void *temp, size_t temp_bytes, int32_t *nnz)
{
    cudaStream_t s = homg_cuda_stream(ex);
    int nv = p->nd;
    int64_t n = (int64_t)p->num_elements * nv * nv + p->num_dofs;
    int *d_count = (int *)temp;
    void *work = (unsigned char *)temp + COUNT_BYTES;
    size_t work_bytes = temp_bytes - COUNT_BYTES;
    int count = 0;
    if (n <= 0 || n > 0x7fffffff || temp_bytes <= COUNT_BYTES)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "pattern: bad key count %lld or workspace",
                              (long long)n);
    HOMG_TRY(pattern_pairs(ex, p, shift, keys, keys_alt, temp, temp_bytes, cap, nnz));
    if (*nnz > 0 || cap < (size_t)n) /* done, or too short for the full sort: the caller asks again */
        return HOMG_OK;
    fem_pattern_keys_kernel<<<blocks_for(n), THREADS, 0, s>>>(*p, shift, keys);
    HOMG_CUDA_LAUNCHED(ex, "fem_pattern_keys_kernel");
    cub::DoubleBuffer<uint64_t> db(keys, keys_alt);
    HOMG_CUDA_TRY(ex, cub::DeviceRadixSort::SortKeys(work, work_bytes, db, (int)n, 0, 2 * shift, s));
    uint64_t *sorted = db.Current(), *unique = db.Alternate();
    HOMG_CUDA_TRY(ex,
                  cub::DeviceSelect::Unique(work, work_bytes, (const uint64_t *)sorted, unique, d_count, (int)n, s));
    HOMG_CUDA_TRY(ex, cudaMemcpyAsync(&count, d_count, sizeof count, cudaMemcpyDeviceToHost, s));
    HOMG_CUDA_TRY(ex, cudaStreamSynchronize(s));
    if (count <= 0 || count > n)
        return homg_exec_fail(ex, HOMG_ERROR_BACKEND, "pattern: unique returned %d keys of %lld", count, (long long)n);
    if (unique != keys)
        HOMG_CUDA_TRY(ex, cudaMemcpyAsync(keys, unique, (size_t)count * sizeof(uint64_t), cudaMemcpyDeviceToDevice, s));
    *nnz = count;
    return HOMG_OK;
}

homg_status homg_cuda_fem_pattern_csr(kernel_exec *ex, const uint64_t *keys, int32_t nnz, int shift, int32_t num_rows,
                                      int32_t *row_ptr, int32_t *col_idx)
{
    fem_pattern_csr_kernel<<<blocks_for((int64_t)nnz + 1), THREADS, 0, homg_cuda_stream(ex)>>>(
        keys, nnz, shift, num_rows, row_ptr, col_idx);
    HOMG_CUDA_LAUNCHED(ex, "fem_pattern_csr_kernel");
    return HOMG_OK;
}

__global__ void fem_pattern_edges_kernel(const uint64_t *edges, int32_t u, int shift, uint64_t *upper)
{
    int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < u)
        upper[k] = fem_pattern_edge_upper(edges[k], shift);
}

homg_status homg_cuda_fem_pattern_from_edges(kernel_exec *ex, const uint64_t *edges, int32_t num_edges, int shift,
                                             int32_t num_rows, uint64_t *keys, uint64_t *keys_alt, void *temp,
                                             size_t temp_bytes)
{
    cudaStream_t s = homg_cuda_stream(ex);
    if (temp_bytes <= COUNT_BYTES)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "pattern: no workspace");
    if (num_edges > 0) {
        fem_pattern_edges_kernel<<<blocks_for(num_edges), THREADS, 0, s>>>(edges, num_edges, shift, keys_alt);
        HOMG_CUDA_LAUNCHED(ex, "fem_pattern_edges_kernel");
    }
    return pattern_rows_from_upper(ex, num_edges, shift, num_rows, keys, keys_alt, (unsigned char *)temp + COUNT_BYTES,
                                   temp_bytes - COUNT_BYTES);
}
