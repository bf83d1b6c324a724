/* lanczos.c -- CPU backend: Lanczos steps on B = D^-1/2 A D^-1/2, whose
 * tridiagonal matrix bounds rho(D^-1 A) (the smoothers' damping, set-up only). */
#include <math.h>

#include "amg_common.h"
#include "amg_kernels.h"

homg_status homg_cpu_amg_lanczos_start(kernel_exec *ex, const csr_matrix *a, float *dscale, float *u, float *q_prev,
                                       double *n2_0)
{
    const float *v = (const float *)a->values;
    double s = 0;
    (void)ex;
    for (int32_t i = 0; i < a->nrows; i++) {
        float l1, d = amg_row_diag_l1(a->row_ptr, a->col_idx, v, i, &l1);
        dscale[i] = d != 0 ? 1.0f / sqrtf(fabsf(d)) : 0.0f;
        u[i] = amg_lanczos_start(i);
        q_prev[i] = 0;
        s += (double)u[i] * u[i];
    }
    *n2_0 += s;
    return HOMG_OK;
}

homg_status homg_cpu_amg_lanczos_apply(kernel_exec *ex, const csr_matrix *a, const float *dscale, const double *n2_prev,
                                       const float *u, float *w, double *alpha)
{
    const float *v = (const float *)a->values;
    float sc = *n2_prev > 0 ? (float)(1.0 / sqrt(*n2_prev)) : 0.0f;
    double s = 0;
    (void)ex;
    for (int32_t i = 0; i < a->nrows; i++) {
        float t = 0;
        for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
            t += v[k] * (dscale[a->col_idx[k]] * u[a->col_idx[k]]);
        w[i] = sc * dscale[i] * t;
        s += (double)(sc * u[i]) * w[i];
    }
    *alpha += s;
    return HOMG_OK;
}

homg_status homg_cpu_amg_lanczos_update(kernel_exec *ex, int32_t n, const double *n2_prev, const double *alpha,
                                        float *u, float *q_prev, const float *w, double *n2)
{
    float beta = (float)sqrt(*n2_prev), sc = beta > 0 ? 1.0f / beta : 0.0f, al = (float)*alpha;
    double s = 0;
    (void)ex;
    for (int32_t i = 0; i < n; i++) {
        float q = sc * u[i], t = w[i] - al * q - beta * q_prev[i];
        q_prev[i] = q;
        u[i] = t;
        s += (double)t * t;
    }
    *n2 += s;
    return HOMG_OK;
}
