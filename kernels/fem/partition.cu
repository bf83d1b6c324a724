/* partition.cu -- the patch partition on the device (partition.h): the longest
 * row by a max reduction, patch starts flagged and summed by CUB's scan, rows
 * and entries mapped, elements keyed by their patch and sorted by CUB's radix
 * sort; one read of the counts at the end.  CPU twin: partition.c beside it. */
#include "core/cuda_check.h"
#include "partition.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#define THREADS     256
#define STATS_BYTES PARTITION_STATS_BYTES /* the counts (part_stats) live at the start of the workspace */

static unsigned blocks_for(int64_t n) { return (unsigned)(n > 0 ? (n + THREADS - 1) / THREADS : 1); }

static int key_bits(int32_t n)
{
    int b = 1;
    while (b < 31 && ((int64_t)1 << b) <= (int64_t)n)
        b++;
    return 32 + b;
}

__global__ void part_max_row_kernel(const int32_t *row_ptr, int32_t n, part_stats *s)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicMax(&s->max_row, row_ptr[i + 1] - row_ptr[i]);
}

__global__ void part_flags_kernel(const int32_t *row_ptr, int32_t n, int32_t patch_nnz, const part_stats *s,
                                  int32_t *flags)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        flags[i] = partition_starts(row_ptr, i, partition_chunk(patch_nnz, s->max_row));
}

/* node_patch holds the inclusive sum of the flags: patch index + 1. */
__global__ void part_starts_kernel(const int32_t *row_ptr, int32_t n, int32_t patch_nnz, part_stats *s, fem_partition q)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int32_t k = q.node_patch[i] - 1;
    q.node_patch[i] = k;
    if (partition_starts(row_ptr, i, partition_chunk(patch_nnz, s->max_row))) {
        q.node_ptr[k] = i;
        q.entry_ptr[k] = row_ptr[i];
    }
    if (i == n - 1) {
        q.node_ptr[k + 1] = n;
        q.entry_ptr[k + 1] = row_ptr[n];
        s->num_patches = k + 1;
    }
}

__global__ void part_rows_kernel(const int32_t *row_ptr, int32_t n, int32_t patch_nnz, part_stats *s, fem_partition q)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int32_t k = q.node_patch[i], f = q.node_ptr[k], chunk = partition_chunk(patch_nnz, s->max_row);
    partition_row(row_ptr, n, i, k, f, chunk, q.row_off, q.node_local, q.nodes);
    if (i + 1 == n || partition_starts(row_ptr, i + 1, chunk)) { /* the patch's last row: its sizes */
        atomicMax(&s->max_nnz, row_ptr[i + 1] - row_ptr[f]);
        atomicMax(&s->max_nodes, i + 1 - f);
    }
}

__global__ void part_identity_kernel(int32_t *a, int32_t n)
{
    int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n)
        a[k] = (int32_t)k;
}

__global__ void part_element_keys_kernel(fem_problem p, const int32_t *node_patch, uint64_t *keys, part_stats *s)
{
    int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int outside = 0;
    if (e < p.num_elements)
        keys[e] = partition_element_key(&p, node_patch, e, &outside);
    outside = __reduce_add_sync(0xffffffffu, (unsigned)outside);
    if ((threadIdx.x & 31) == 0 && outside)
        atomicAdd(&s->outside, (unsigned long long)outside);
}

__global__ void part_elements_kernel(const uint64_t *keys, int32_t ne, int32_t n, const part_stats *s, fem_partition q)
{
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < ne)
        q.elems[t] = (int32_t)(uint32_t)keys[t];
    if (t <= s->num_patches && t <= n)
        q.elem_ptr[t] = sorted_lower_u64(keys, 0, ne, (uint64_t)(uint32_t)t << 32);
}

static size_t sort_bytes(int32_t ne, int32_t n)
{
    size_t b = 0;
    cub::DoubleBuffer<uint64_t> db(NULL, NULL);
    cub::DeviceRadixSort::SortKeys(NULL, b, db, ne, 0, key_bits(n));
    return b;
}

static size_t scan_bytes(int32_t n)
{
    size_t b = 0;
    cub::DeviceScan::InclusiveSum(NULL, b, (const int32_t *)NULL, (int32_t *)NULL, n);
    return b;
}

static size_t align256(size_t b) { return (b + 255) & ~(size_t)255; }

homg_status homg_cuda_fem_partition_temp_bytes(kernel_exec *ex, int32_t num_nodes, int32_t num_elements, size_t *bytes)
{
    size_t s = sort_bytes(num_elements, num_nodes), c = scan_bytes(num_nodes);
    (void)ex;
    *bytes = STATS_BYTES + 2 * align256(((size_t)num_elements + 1) * sizeof(uint64_t)) + (s > c ? s : c);
    return HOMG_OK;
}

homg_status homg_cuda_fem_partition(kernel_exec *ex, const fem_problem *p, const int32_t *row_ptr, int32_t nnz,
                                    int32_t patch_nnz, fem_partition *q, void *temp, size_t temp_bytes)
{
    cudaStream_t st = homg_cuda_stream(ex);
    int32_t n = p->num_nodes, ne = p->num_elements;
    size_t kb = align256(((size_t)ne + 1) * sizeof(uint64_t)), need = 0;
    part_stats *s = (part_stats *)temp;
    uint64_t *keys = (uint64_t *)((unsigned char *)temp + STATS_BYTES), *alt = keys + kb / sizeof(uint64_t);
    void *work = (unsigned char *)temp + STATS_BYTES + 2 * kb;
    size_t work_bytes;
    homg_cuda_fem_partition_temp_bytes(ex, n, ne, &need);
    if (temp_bytes < need)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "patch partition: workspace of %zu bytes, %zu needed",
                              temp_bytes, need);
    work_bytes = temp_bytes - STATS_BYTES - 2 * kb;
    HOMG_CUDA_TRY(ex, cudaMemsetAsync(s, 0, sizeof *s, st));
    if (n > 0) {
        part_max_row_kernel<<<blocks_for(n), THREADS, 0, st>>>(row_ptr, n, s);
        part_flags_kernel<<<blocks_for(n), THREADS, 0, st>>>(row_ptr, n, patch_nnz, s, q->node_local);
        HOMG_CUDA_LAUNCHED(ex, "patch partition: starts");
        HOMG_CUDA_TRY(
            ex, cub::DeviceScan::InclusiveSum(work, work_bytes, (const int32_t *)q->node_local, q->node_patch, n, st));
        part_starts_kernel<<<blocks_for(n), THREADS, 0, st>>>(row_ptr, n, patch_nnz, s, *q);
        part_rows_kernel<<<blocks_for(n), THREADS, 0, st>>>(row_ptr, n, patch_nnz, s, *q);
        HOMG_CUDA_LAUNCHED(ex, "patch partition: rows");
    } else {
        HOMG_CUDA_TRY(ex, cudaMemsetAsync(q->node_ptr, 0, sizeof(int32_t), st));
        HOMG_CUDA_TRY(ex, cudaMemsetAsync(q->entry_ptr, 0, sizeof(int32_t), st));
    }
    if (nnz > 0) {
        part_identity_kernel<<<blocks_for(nnz), THREADS, 0, st>>>(q->entry_src, nnz);
        HOMG_CUDA_LAUNCHED(ex, "patch partition: entries");
    }
    if (ne > 0) {
        part_element_keys_kernel<<<blocks_for(ne), THREADS, 0, st>>>(*p, q->node_patch, keys, s);
        HOMG_CUDA_LAUNCHED(ex, "patch partition: element keys");
        /* Keys are written in element order and the radix sort is stable, so
         * the patch bits alone give the full key order (the twin sorts all):
         * ceil(b / 8) passes instead of ceil((32 + b) / 8). */
        cub::DoubleBuffer<uint64_t> db(keys, alt);
        HOMG_CUDA_TRY(ex, cub::DeviceRadixSort::SortKeys(work, work_bytes, db, ne, 32, key_bits(n), st));
        keys = db.Current();
    }
    part_elements_kernel<<<blocks_for((int64_t)(ne > n ? ne : n) + 1), THREADS, 0, st>>>(keys, ne, n, s, *q);
    HOMG_CUDA_LAUNCHED(ex, "patch partition: elements");
    return HOMG_OK;
}

homg_status homg_cuda_fem_partition_stats(kernel_exec *ex, const void *temp, fem_partition *out)
{
    cudaStream_t st = homg_cuda_stream(ex);
    part_stats h;
    HOMG_CUDA_TRY(ex, cudaMemcpyAsync(&h, temp, sizeof h, cudaMemcpyDeviceToHost, st));
    HOMG_CUDA_TRY(ex, cudaStreamSynchronize(st));
    partition_stats_to(&h, out);
    return HOMG_OK;
}
