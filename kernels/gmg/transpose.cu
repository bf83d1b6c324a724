/* transpose.cu -- CUDA twin of transpose.c: t = a^T of a double CSR matrix,
 * rows sorted by column.  Counts and places by atomics (a thread a row of a),
 * then a warp a row of t ranks its entries (GMG's R has rows of 1 + a vertex's
 * edges, ~5-30 entries; s14-gmg28: 23 us for the 65^3 cube's four levels
 * against 154 us for a thread a row's insertion sort, which it replaced).  No
 * host sync, no scratch beyond the caller's counts. */
#include "gmg_kernels.h"
#include "sparse/sparse_util.cuh"

#include <limits.h>

__global__ static void transpose_count_kernel(int32_t n, const int32_t *__restrict__ rp, const int32_t *__restrict__ ci,
                                              int32_t *count)
{
    FOR_ROWS(i, n)
    for (int32_t p = rp[i]; p < rp[i + 1]; p++)
        atomicAdd(count + ci[p], 1);
}

homg_status homg_cuda_gmg_transpose_count(kernel_exec *ex, const csr_matrix *a, int32_t *count)
{
    if (a->precision != HOMG_FLOAT64)
        return HOMG_ERROR_UNSUPPORTED;
    if (a->nrows == 0)
        return HOMG_OK;
    transpose_count_kernel<<<launch_blocks(a->nrows), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(a->nrows, a->row_ptr,
                                                                                               a->col_idx, count);
    HOMG_CUDA_LAUNCHED(ex, "GMG transpose: counts");
    return HOMG_OK;
}

__global__ static void transpose_place_kernel(int32_t n, const int32_t *__restrict__ rp, const int32_t *__restrict__ ci,
                                              const double *__restrict__ v, int32_t *cursor,
                                              const int32_t *__restrict__ trp, int32_t *tci, double *tv)
{
    FOR_ROWS(i, n)
    for (int32_t p = rp[i]; p < rp[i + 1]; p++) {
        int32_t j = ci[p], q = trp[j] + atomicAdd(cursor + j, 1);
        tci[q] = i;
        tv[q] = v[p];
    }
}

/* A warp a row: rows of up to 32 entries by rank (each lane's entry counts the
 * row's smaller columns, ties by lane: a permutation), longer rows by lane 0's
 * insertion sort.  The row index is warp-uniform, so the shuffles are. */
__global__ static void transpose_rank_kernel(int32_t n, const int32_t *__restrict__ trp, int32_t *tci, double *tv)
{
    int lane = threadIdx.x & 31;
    int64_t step = ((int64_t)gridDim.x * blockDim.x) >> 5;
    for (int64_t j = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5; j < n; j += step) {
        int32_t at = trp[j], len = trp[j + 1] - at;
        if (len <= 32) {
            int32_t c = lane < len ? tci[at + lane] : INT_MAX;
            double x = lane < len ? tv[at + lane] : 0;
            int r = 0;
            for (int k = 0; k < len; k++) {
                int32_t ck = __shfl_sync(0xFFFFFFFFu, c, k);
                r += ck < c || (ck == c && k < lane);
            }
            __syncwarp(); /* every lane's entry read before any is written */
            if (lane < len) {
                tci[at + r] = c;
                tv[at + r] = x;
            }
        } else if (lane == 0) {
            for (int32_t p = at + 1; p < at + len; p++) {
                int32_t c = tci[p], q = p;
                double x = tv[p];
                for (; q > at && tci[q - 1] > c; q--) {
                    tci[q] = tci[q - 1];
                    tv[q] = tv[q - 1];
                }
                tci[q] = c;
                tv[q] = x;
            }
        }
        __syncwarp();
    }
}

homg_status homg_cuda_gmg_transpose_fill(kernel_exec *ex, const csr_matrix *a, int32_t *cursor, csr_matrix *t)
{
    cudaStream_t s = homg_cuda_stream(ex);
    if (a->precision != HOMG_FLOAT64 || t->precision != HOMG_FLOAT64)
        return HOMG_ERROR_UNSUPPORTED;
    if (a->nrows > 0)
        transpose_place_kernel<<<launch_blocks(a->nrows), HOMG_THREADS, 0, s>>>(
            a->nrows, a->row_ptr, a->col_idx, (const double *)a->values, cursor, t->row_ptr, t->col_idx,
            (double *)t->values);
    if (t->nrows > 0)
        transpose_rank_kernel<<<launch_blocks((int64_t)t->nrows * 32), HOMG_THREADS, 0, s>>>(
            t->nrows, t->row_ptr, t->col_idx, (double *)t->values);
    HOMG_CUDA_LAUNCHED(ex, "GMG transpose: entries");
    return HOMG_OK;
}
