/* pattern.cu -- the CSR pattern on the device: a key row << shift | col for
 * every element node pair and every diagonal, CUB radix sort, CUB unique, then
 * row pointers by binary search.  CPU twin: pattern.c beside it. */
#include "core/cuda_check.h"
#include "fem_element.h"

#include <cub/device/device_radix_sort.cuh>
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

__global__ void fem_pattern_cols_kernel(const uint64_t *keys, int32_t nnz, uint64_t mask, int32_t *col_idx)
{
    int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < nnz)
        col_idx[k] = (int32_t)(keys[k] & mask);
}

__global__ void fem_pattern_rows_kernel(const uint64_t *keys, int32_t nnz, int shift, int32_t num_rows,
                                        int32_t *row_ptr)
{
    int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (r > num_rows)
        return;
    row_ptr[r] = sorted_lower_u64(keys, 0, nnz, (uint64_t)r << shift); /* first key of row r or later */
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
                                       uint64_t *keys_alt, void *temp, size_t temp_bytes, int32_t *nnz)
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
    cudaStream_t s = homg_cuda_stream(ex);
    uint64_t mask = ((uint64_t)1 << shift) - 1;
    if (nnz > 0) {
        fem_pattern_cols_kernel<<<blocks_for(nnz), THREADS, 0, s>>>(keys, nnz, mask, col_idx);
        HOMG_CUDA_LAUNCHED(ex, "fem_pattern_cols_kernel");
    }
    fem_pattern_rows_kernel<<<blocks_for((int64_t)num_rows + 1), THREADS, 0, s>>>(keys, nnz, shift, num_rows, row_ptr);
    HOMG_CUDA_LAUNCHED(ex, "fem_pattern_rows_kernel");
    return HOMG_OK;
}
