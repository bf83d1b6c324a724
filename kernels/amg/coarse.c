/* coarse.c -- CPU backend: the coarsest level's dense inverse (a double
 * Cholesky factorisation, then L L^T X = I) and its application. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "amg_common.h"
#include "amg_kernels.h"

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
    for (int32_t j = 0; j < n && !*pivot; j++) {
        double d = l[(size_t)j * n + j];
        for (int32_t k = 0; k < j; k++)
            d -= l[(size_t)k * n + j] * l[(size_t)k * n + j];
        if (!(d > 0)) {
            *pivot = j + 1;
            break;
        }
        d = sqrt(d);
        l[(size_t)j * n + j] = d;
        for (int32_t i = j + 1; i < n; i++) {
            double s = l[(size_t)j * n + i];
            for (int32_t k = 0; k < j; k++)
                s -= l[(size_t)k * n + i] * l[(size_t)k * n + j];
            l[(size_t)j * n + i] = s / d;
        }
    }
    if (!*pivot)
        for (int32_t c = 0; c < n; c++) { /* column c of the inverse */
            for (int32_t i = 0; i < n; i++) {
                double s = i == c ? 1.0 : 0.0;
                for (int32_t k = 0; k < i; k++)
                    s -= l[(size_t)k * n + i] * y[k];
                y[i] = s / l[(size_t)i * n + i];
            }
            for (int32_t i = n; i-- > 0;) {
                double s = y[i];
                for (int32_t k = i + 1; k < n; k++)
                    s -= l[(size_t)i * n + k] * y[k];
                y[i] = s / l[(size_t)i * n + i];
            }
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
