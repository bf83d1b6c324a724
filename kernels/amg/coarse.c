/* coarse.c -- CPU backend: the coarsest level's dense inverse (the double
 * Cholesky of core/dense_cholesky.h, then L L^T X = I) and its application. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "amg_common.h"
#include "amg_kernels.h"
#include "core/dense_cholesky.h"

homg_status homg_cpu_amg_dense_inverse(kernel_exec *ex, void *handle, const csr_matrix *a, float *inv, int *pivot)
{
    int32_t n = a->nrows;
    const float *v = (const float *)a->values;
    double *l = (double *)calloc((size_t)n * (size_t)n + 1, sizeof *l), *y;
    (void)handle;
    *pivot = 0;
    if (!l)
        return homg_exec_fail(ex, HOMG_ERROR_OUT_OF_MEMORY, "coarse solver: out of host memory for %d^2", n);
    y = (double *)malloc(((size_t)n + 1) * sizeof *y);
    if (!y) {
        free(l);
        return homg_exec_fail(ex, HOMG_ERROR_OUT_OF_MEMORY, "coarse solver: out of host memory");
    }
    /* Column-major dense copy, then A = L L^T in its lower triangle. */
    for (int32_t i = 0; i < n; i++)
        for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
            l[(size_t)a->col_idx[k] * n + i] = v[k];
    *pivot = dense_cholesky_factor(l, n, 0.0);
    for (int32_t c = 0; c < n && !*pivot; c++) { /* column c of the inverse */
        for (int32_t i = 0; i < n; i++)
            y[i] = i == c ? 1.0 : 0.0;
        dense_cholesky_solve(l, n, y);
        for (int32_t i = 0; i < n; i++)
            inv[(size_t)c * n + i] = (float)y[i];
    }
    free(l);
    free(y);
    return HOMG_OK;
}

homg_status homg_cpu_amg_dense_apply(kernel_exec *ex, int32_t n, const float *inv, const float *b, float *x)
{
    (void)ex;
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN)
    for (int32_t i = 0; i < n; i++) {
        float s = 0;
        for (int32_t j = 0; j < n; j++)
            s += inv[(size_t)j * n + i] * b[j];
        x[i] = s;
    }
    return HOMG_OK;
}
