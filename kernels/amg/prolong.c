/* prolong.c -- CPU backend: tentative prolongators and the damped-Jacobi
 * smoothed one of smoothed aggregation (seed 000, eqs. 5 and 6). */
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

homg_status homg_cpu_amg_prolong_sa_count(kernel_exec *ex, const csr_matrix *a, const int32_t *agg, int32_t *cnt)
{
    (void)ex;
#pragma omp parallel for schedule(static) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++)
        cnt[i] = amg_sa_row(a->row_ptr, a->col_idx, NULL, agg, i, 0.0f, NULL, NULL);
    return HOMG_OK;
}

homg_status homg_cpu_amg_prolong_sa_fill(kernel_exec *ex, const csr_matrix *a, const int32_t *agg, double omega,
                                         const float *rho, csr_matrix *p)
{
    const float *av = (const float *)a->values;
    float *pv = (float *)p->values;
    (void)ex;
#pragma omp parallel for schedule(static) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++) {
        float f = amg_sa_factor(a->row_ptr, a->col_idx, av, i, omega, *rho);
        int32_t o = p->row_ptr[i];
        amg_sa_row(a->row_ptr, a->col_idx, av, agg, i, f, p->col_idx + o, pv + o);
    }
    return HOMG_OK;
}
