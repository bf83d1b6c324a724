/* strength.cu -- CUDA backend: the strength graph and the filtered matrix
 * (twin of kernels/amg/strength.c; one thread per row). */
#include "amg_common.h"
#include "amg_kernels.h"
#include "sparse/sparse_util.cuh"

__global__ static void strength_count_kernel(const int32_t *rp, const int32_t *ci, const float *v, int32_t n,
                                             const float *diag, const float *rowmax, float theta, int32_t *cnt)
{
    FOR_ROWS(i, n)
    {
        int32_t c = 0, lone = amg_lone(rp, ci, v, diag, theta, i, rowmax);
        for (int32_t k = rp[i]; k < rp[i + 1]; k++)
            c += amg_kept(rp, ci, v, diag, theta, i, k, lone, rowmax);
        cnt[i] = c;
    }
}

homg_status homg_cuda_amg_strength_count(kernel_exec *ex, const csr_matrix *a, const float *diag, const float *rowmax,
                                         double theta, int32_t *cnt)
{
    strength_count_kernel<<<launch_blocks(a->nrows), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(
        a->row_ptr, a->col_idx, (const float *)a->values, a->nrows, diag, rowmax, (float)theta, cnt);
    HOMG_CUDA_LAUNCHED(ex, "strength_count");
    return HOMG_OK;
}

__global__ static void strength_fill_kernel(const int32_t *rp, const int32_t *ci, const float *v, int32_t n,
                                            const float *diag, const float *rowmax, float theta, const int32_t *srp,
                                            int32_t *sci, float *sv)
{
    FOR_ROWS(i, n)
    {
        int32_t o = srp[i], dpos = -1, lone = amg_lone(rp, ci, v, diag, theta, i, rowmax);
        float weak = 0;
        for (int32_t k = rp[i]; k < rp[i + 1]; k++) {
            if (!amg_kept(rp, ci, v, diag, theta, i, k, lone, rowmax)) {
                weak += v[k];
                continue;
            }
            if (ci[k] == i)
                dpos = o;
            sci[o] = ci[k];
            sv[o++] = v[k];
        }
        if (dpos >= 0)
            sv[dpos] += weak;
    }
}

homg_status homg_cuda_amg_strength_fill(kernel_exec *ex, const csr_matrix *a, const float *diag, const float *rowmax,
                                        double theta, csr_matrix *s)
{
    strength_fill_kernel<<<launch_blocks(a->nrows), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(
        a->row_ptr, a->col_idx, (const float *)a->values, a->nrows, diag, rowmax, (float)theta, s->row_ptr, s->col_idx,
        (float *)s->values);
    HOMG_CUDA_LAUNCHED(ex, "strength_fill");
    return HOMG_OK;
}

__global__ static void strength_rowmax_kernel(const int32_t *rp, const int32_t *ci, const float *v, int32_t n,
                                              const float *diag, float *rowmax)
{
    FOR_ROWS(i, n)
    rowmax[i] = amg_row_coupling(rp, ci, v, diag, i);
}

homg_status homg_cuda_amg_strength_rowmax(kernel_exec *ex, const csr_matrix *a, const float *diag, float *rowmax)
{
    strength_rowmax_kernel<<<launch_blocks(a->nrows), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(
        a->row_ptr, a->col_idx, (const float *)a->values, a->nrows, diag, rowmax);
    HOMG_CUDA_LAUNCHED(ex, "strength_rowmax");
    return HOMG_OK;
}
