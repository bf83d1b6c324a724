/* coarse.cu -- CUDA twin of the GMG coarsest level's dense inverse: the CSR
 * matrix scattered into a dense column-major array, cuSOLVER's double Cholesky
 * (potrf), then potrs on the identity (core/dense_inverse.cu, shared with
 * AMG).  CPU twin: coarse.c beside it. */
#include "core/dense_inverse.h"
#include "gmg_kernels.h"

homg_status homg_cuda_gmg_dense_inverse(kernel_exec *ex, void *handle, const csr_matrix *a, double *inv, int *pivot)
{
    /* the CPU twin's relative pivot test: singular matrices leave tiny positive pivots */
    return homg_cuda_dense_inverse(ex, handle, a, 1e-12, inv, NULL, pivot);
}
