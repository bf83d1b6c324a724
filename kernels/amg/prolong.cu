/* prolong.cu -- CUDA backend: tentative prolongators and the damped-Jacobi
 * smoothed one of smoothed aggregation (twin of kernels/amg/prolong.c). */
#include "amg_common.h"
#include "amg_kernels.h"
#include "sparse/sparse_util.cuh"

__global__ static void tentative_kernel(int32_t n, const int32_t *agg, const float *w, int32_t *rp, int32_t *ci,
                                        float *v)
{
    FOR_ROWS(i, n)
    {
        rp[i] = i;
        ci[i] = agg[i];
        v[i] = w ? w[i] : 1.0f;
        if (i == n - 1)
            rp[n] = n;
    }
}

homg_status homg_cuda_amg_prolong_tentative(kernel_exec *ex, int32_t n, const int32_t *agg, const float *w,
                                            csr_matrix *p)
{
    tentative_kernel<<<launch_blocks(n), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(n, agg, w, p->row_ptr, p->col_idx,
                                                                                  (float *)p->values);
    HOMG_CUDA_LAUNCHED(ex, "prolong_tentative");
    return HOMG_OK;
}

/* Positive floats order like their bits: atomicMax on the bits. */
__global__ static void gershgorin_kernel(const int32_t *rp, const int32_t *ci, const float *v, int32_t n, unsigned *out)
{
    FOR_ROWS(i, n)
    {
        float s, d = amg_row_diag_l1(rp, ci, v, i, &s);
        if (d > 0 && s / d > 0)
            atomicMax(out, __float_as_uint(s / d));
    }
}

__global__ static void gershgorin_default_kernel(float *out)
{
    if (threadIdx.x == 0 && blockIdx.x == 0 && !(*out > 0))
        *out = 1.0f;
}

homg_status homg_cuda_amg_gershgorin(kernel_exec *ex, const csr_matrix *a, float *out)
{
    cudaStream_t s = homg_cuda_stream(ex);
    HOMG_CUDA_TRY(ex, cudaMemsetAsync(out, 0, sizeof *out, s));
    gershgorin_kernel<<<launch_blocks(a->nrows), HOMG_THREADS, 0, s>>>(a->row_ptr, a->col_idx, (const float *)a->values,
                                                                       a->nrows, (unsigned *)out);
    HOMG_CUDA_LAUNCHED(ex, "gershgorin");
    gershgorin_default_kernel<<<1, 32, 0, s>>>(out);
    HOMG_CUDA_LAUNCHED(ex, "gershgorin");
    return HOMG_OK;
}

__global__ static void sa_count_kernel(const int32_t *rp, const int32_t *ci, int32_t n, const int32_t *agg,
                                       int32_t *cnt)
{
    FOR_ROWS(i, n) { cnt[i] = amg_sa_row(rp, ci, NULL, agg, i, 0.0f, NULL, NULL); }
}

homg_status homg_cuda_amg_prolong_sa_count(kernel_exec *ex, const csr_matrix *a, const int32_t *agg, int32_t *cnt)
{
    sa_count_kernel<<<launch_blocks(a->nrows), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(a->row_ptr, a->col_idx,
                                                                                        a->nrows, agg, cnt);
    HOMG_CUDA_LAUNCHED(ex, "prolong_sa_count");
    return HOMG_OK;
}

__global__ static void sa_fill_kernel(const int32_t *rp, const int32_t *ci, const float *av, int32_t n,
                                      const int32_t *agg, double omega, const float *rho, const int32_t *prp,
                                      int32_t *pci, float *pv)
{
    FOR_ROWS(i, n)
    {
        float f = amg_sa_factor(rp, ci, av, i, omega, *rho);
        int32_t o = prp[i];
        amg_sa_row(rp, ci, av, agg, i, f, pci + o, pv + o);
    }
}

homg_status homg_cuda_amg_prolong_sa_fill(kernel_exec *ex, const csr_matrix *a, const int32_t *agg, double omega,
                                          const float *rho, csr_matrix *p)
{
    sa_fill_kernel<<<launch_blocks(a->nrows), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(
        a->row_ptr, a->col_idx, (const float *)a->values, a->nrows, agg, omega, rho, p->row_ptr, p->col_idx,
        (float *)p->values);
    HOMG_CUDA_LAUNCHED(ex, "prolong_sa_fill");
    return HOMG_OK;
}
