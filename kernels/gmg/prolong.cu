/* prolong.cu -- CUDA twin of prolong.c: the masked P of a refined mesh
 * (prolong.h), one thread per fine row. */
#include "prolong.h"
#include "sparse/sparse_util.cuh"

__global__ static void prolong_count_kernel(int32_t nc, const uint64_t *edges, int32_t n, const uint8_t *ff,
                                            const uint8_t *cf, int32_t *count)
{
    FOR_ROWS(i, n) count[i] = prolong_row(nc, edges, ff, cf, i, 0, NULL, NULL);
}

homg_status homg_cuda_gmg_prolong_count(kernel_exec *ex, int32_t nc, const uint64_t *edges, int32_t ne,
                                        const uint8_t *fine_fixed, const uint8_t *coarse_fixed, int32_t *count)
{
    if (nc + ne == 0)
        return HOMG_OK;
    prolong_count_kernel<<<launch_blocks(nc + ne), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(
        nc, edges, nc + ne, fine_fixed, coarse_fixed, count);
    HOMG_CUDA_LAUNCHED(ex, "prolongation counts");
    return HOMG_OK;
}

__global__ static void prolong_fill_kernel(int32_t nc, const uint64_t *edges, int32_t n, const uint8_t *ff,
                                           const uint8_t *cf, const int32_t *rp, int32_t *col, double *val)
{
    FOR_ROWS(i, n) prolong_row(nc, edges, ff, cf, i, rp[i], col, val);
}

homg_status homg_cuda_gmg_prolong_fill(kernel_exec *ex, int32_t nc, const uint64_t *edges, int32_t ne,
                                       const uint8_t *fine_fixed, const uint8_t *coarse_fixed, csr_matrix *p)
{
    if (nc + ne == 0)
        return HOMG_OK;
    prolong_fill_kernel<<<launch_blocks(nc + ne), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(
        nc, edges, nc + ne, fine_fixed, coarse_fixed, p->row_ptr, p->col_idx, (double *)p->values);
    HOMG_CUDA_LAUNCHED(ex, "prolongation entries");
    return HOMG_OK;
}
