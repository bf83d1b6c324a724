/* transpose.cu -- CUDA twin of transpose.c: t = a^T of a double CSR matrix,
 * rows sorted by column.  Counts and places by atomics (a thread a row of a),
 * then a thread a row of t sorts its entries (insertion sort: GMG's R has
 * rows of 1 + a vertex's edges, ~5-30 entries).  No host sync, no scratch
 * beyond the caller's counts. */
#include "gmg_kernels.h"
#include "sparse/sparse_util.cuh"

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

__global__ static void transpose_sort_kernel(int32_t n, const int32_t *__restrict__ trp, int32_t *tci, double *tv)
{
    FOR_ROWS(j, n)
    for (int32_t p = trp[j] + 1; p < trp[j + 1]; p++) {
        int32_t c = tci[p], q = p;
        double x = tv[p];
        for (; q > trp[j] && tci[q - 1] > c; q--) {
            tci[q] = tci[q - 1];
            tv[q] = tv[q - 1];
        }
        tci[q] = c;
        tv[q] = x;
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
        transpose_sort_kernel<<<launch_blocks(t->nrows), HOMG_THREADS, 0, s>>>(t->nrows, t->row_ptr, t->col_idx,
                                                                               (double *)t->values);
    HOMG_CUDA_LAUNCHED(ex, "GMG transpose: entries");
    return HOMG_OK;
}
