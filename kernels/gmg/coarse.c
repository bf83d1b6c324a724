/* coarse.c -- CPU twin of the GMG coarsest level's dense inverse: the plain
 * Cholesky factorisation of core/dense_cholesky.h (no LAPACK), then A^-1
 * column by column.  CUDA twin: coarse.cu beside it (cuSOLVER potrf/potrs). */
#include "core/dense_cholesky.h"
#include "gmg_kernels.h"

#include <stdlib.h>

homg_status homg_cpu_gmg_dense_inverse(kernel_exec *ex, void *handle, const csr_matrix *a, double *inv, int *pivot)
{
    int32_t n = a->nrows;
    const double *v = (const double *)a->values;
    double *l = (double *)calloc((size_t)n * n + 1, sizeof *l);
    (void)handle;
    *pivot = 0;
    if (!l)
        return homg_exec_fail(ex, HOMG_ERROR_OUT_OF_MEMORY, "GMG coarse solver: out of host memory");
    for (int32_t i = 0; i < n; i++) /* column-major lower triangle */
        for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
            if (a->col_idx[k] <= i)
                l[(size_t)a->col_idx[k] * n + i] = v[k];
    /* relative: rounding leaves singular matrices tiny positive pivots */
    *pivot = dense_cholesky_factor(l, n, 1e-12);
    for (int32_t c = 0; c < n && !*pivot; c++) { /* column c of A^-1 */
        double *x = inv + (size_t)c * n;
        for (int32_t i = 0; i < n; i++)
            x[i] = i == c ? 1.0 : 0.0;
        dense_cholesky_solve(l, n, x);
    }
    free(l);
    return HOMG_OK;
}

homg_status homg_cpu_gmg_dense_pattern(kernel_exec *ex, int32_t n, int32_t *row_ptr, int32_t *col_idx)
{
    (void)ex;
    for (int32_t i = 0; i <= n; i++)
        row_ptr[i] = i * n;
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = 0; j < n; j++)
            col_idx[(size_t)i * n + j] = j;
    return HOMG_OK;
}
