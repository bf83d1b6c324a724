/* prolong.c -- CPU backend: tentative prolongators and their damped-Jacobi
 * smoothing (seed 000, eqs. 5 and 6). */
#include "amg_common.h"
#include "amg_kernels.h"

homg_status homg_cpu_amg_prolong_tentative(kernel_exec *ex, int32_t n, const int32_t *agg, const float *w,
                                           csr_matrix *p)
{
    float *v = (float *)p->values;
    (void)ex;
    for (int32_t i = 0; i < n; i++) {
        p->row_ptr[i] = i;
        p->col_idx[i] = agg[i];
        v[i] = w ? w[i] : 1.0f;
    }
    p->row_ptr[n] = n;
    return HOMG_OK;
}

homg_status homg_cpu_amg_gershgorin(kernel_exec *ex, const csr_matrix *a, float *out)
{
    const float *v = (const float *)a->values;
    float m = 0;
    (void)ex;
    for (int32_t i = 0; i < a->nrows; i++) {
        float s, d = amg_row_diag_l1(a->row_ptr, a->col_idx, v, i, &s);
        if (d > 0 && s / d > m)
            m = s / d;
    }
    *out = m > 0 ? m : 1.0f;
    return HOMG_OK;
}

homg_status homg_cpu_amg_prolong_smooth(kernel_exec *ex, const csr_matrix *a, const int32_t *agg, double omega,
                                        const float *rho, csr_matrix *ap)
{
    const float *av = (const float *)a->values;
    float *pv = (float *)ap->values;
    (void)ex;
#pragma omp parallel for schedule(static) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++) {
        float d = 0, f;
        for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
            if (a->col_idx[k] == i)
                d = av[k];
        f = d > 0 ? (float)(omega / (double)*rho) / d : 0.0f;
        for (int32_t k = ap->row_ptr[i]; k < ap->row_ptr[i + 1]; k++)
            pv[k] = (ap->col_idx[k] == agg[i] ? 1.0f : 0.0f) - f * pv[k];
    }
    return HOMG_OK;
}
