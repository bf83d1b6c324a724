/* krylov.c -- CPU backend of the fused conjugate-gradient vector kernels.  The
 * scalar recurrences are the shared ones of krylov_common.h. */
#include "krylov_common.h"

homg_status homg_cpu_krylov_cg_start(kernel_exec *ex, void *handle, const csr_matrix *a, const double *b, double *x,
                                     double *r, int warm, cg_state *state, double *history)
{
    const double *v = (const double *)a->values;
    double bb = 0, rr = 0;
    (void)ex;
    (void)handle;
#pragma omp parallel for schedule(static) reduction(+ : bb, rr) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++) {
        double s = b[i];
        if (warm)
            for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
                s -= v[k] * x[a->col_idx[k]];
        r[i] = s;
        bb += b[i] * b[i];
        rr += s * s;
    }
    if (!warm)
        for (int32_t i = 0; i < a->nrows; i++)
            x[i] = 0;
    cg_after_start(state, bb, rr, history);
    return HOMG_OK;
}

homg_status homg_cpu_krylov_cg_diag_precond(kernel_exec *ex, const double *dinv, const double *r, double *z, int32_t n)
{
    (void)ex;
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN)
    for (int32_t i = 0; i < n; i++)
        z[i] = dinv ? dinv[i] * r[i] : r[i];
    return HOMG_OK;
}

homg_status homg_cpu_krylov_cg_direction(kernel_exec *ex, void *handle, const double *r, const double *z,
                                         const double *q, double *p, int32_t n, cg_state *state)
{
    double rz = 0, zq = 0, beta;
    int first = state->iter == 0;
    (void)ex;
    (void)handle;
    if (state->done)
        return HOMG_OK;
#pragma omp parallel for schedule(static) reduction(+ : rz, zq) if (n > HOMG_OMP_MIN)
    for (int32_t i = 0; i < n; i++) {
        rz += r[i] * z[i];
        if (!first)
            zq += z[i] * q[i];
    }
    cg_after_dots(state, rz, zq);
    if (state->done)
        return HOMG_OK;
    beta = state->beta;
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN)
    for (int32_t i = 0; i < n; i++)
        p[i] = first ? z[i] : z[i] + beta * p[i];
    return HOMG_OK;
}

homg_status homg_cpu_krylov_cg_spmv_dot(kernel_exec *ex, void *handle, const csr_matrix *a, const double *p, double *q,
                                        cg_state *state)
{
    const double *v = (const double *)a->values;
    double pq = 0;
    (void)ex;
    (void)handle;
    if (state->done)
        return HOMG_OK;
#pragma omp parallel for schedule(static) reduction(+ : pq) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++) {
        double s = 0;
        for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
            s += v[k] * p[a->col_idx[k]];
        q[i] = s;
        pq += p[i] * s;
    }
    cg_after_pq(state, pq);
    return HOMG_OK;
}

homg_status homg_cpu_krylov_cg_update(kernel_exec *ex, void *handle, double *x, double *r, const double *p,
                                      const double *q, int32_t n, cg_state *state, double *history)
{
    double alpha = state->alpha, rr = 0;
    (void)ex;
    (void)handle;
    if (state->done)
        return HOMG_OK;
#pragma omp parallel for schedule(static) reduction(+ : rr) if (n > HOMG_OMP_MIN)
    for (int32_t i = 0; i < n; i++) {
        x[i] += alpha * p[i];
        r[i] -= alpha * q[i];
        rr += r[i] * r[i];
    }
    cg_after_update(state, rr, history);
    return HOMG_OK;
}

const krylov_kernels homg_cpu_krylov_kernels = { KRYLOV_KERNELS(HOMG_KERNEL_CPU_INIT) };
