/* coarse.c -- CPU twin of the GMG coarsest level's dense inverse: a plain
 * Cholesky factorisation (no LAPACK), then A^-1 column by column from the two
 * triangular solves.  CUDA twin: coarse.cu beside it (cuSOLVER potrf/potrs). */
#include "gmg_kernels.h"

#include <math.h>
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
    for (int32_t i = 0; i < n; i++)
        for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
            if (a->col_idx[k] <= i)
                l[(size_t)i * n + a->col_idx[k]] = v[k];
    for (int32_t j = 0; j < n; j++) { /* L L^T, row-major lower triangle */
        double d = l[(size_t)j * n + j], ajj = d;
        for (int32_t k = 0; k < j; k++)
            d -= l[(size_t)j * n + k] * l[(size_t)j * n + k];
        if (!(d > 1e-12 * fabs(ajj))) { /* relative: rounding leaves singular matrices tiny pivots */
            *pivot = j + 1;
            free(l);
            return HOMG_OK;
        }
        d = sqrt(d);
        l[(size_t)j * n + j] = d;
        for (int32_t i = j + 1; i < n; i++) {
            double s = l[(size_t)i * n + j];
            for (int32_t k = 0; k < j; k++)
                s -= l[(size_t)i * n + k] * l[(size_t)j * n + k];
            l[(size_t)i * n + j] = s / d;
        }
    }
    for (int32_t c = 0; c < n; c++) { /* column c of A^-1: L y = e_c, L^T x = y */
        double *x = inv + (size_t)c * n;
        for (int32_t i = 0; i < n; i++) {
            double s = i == c ? 1.0 : 0.0;
            for (int32_t k = c; k < i; k++)
                s -= l[(size_t)i * n + k] * x[k];
            x[i] = i < c ? 0.0 : s / l[(size_t)i * n + i];
        }
        for (int32_t i = n - 1; i >= 0; i--) {
            double s = x[i];
            for (int32_t k = i + 1; k < n; k++)
                s -= l[(size_t)k * n + i] * x[k];
            x[i] = s / l[(size_t)i * n + i];
        }
    }
    free(l);
    return HOMG_OK;
}
