/* strength.c -- CPU backend: the strength graph of a level (classical
 * strength of connection, amg_strong) and the filtered matrix on it. */
#include "amg_common.h"
#include "amg_kernels.h"

homg_status homg_cpu_amg_strength_coupling(kernel_exec *ex, const csr_matrix *a, const float *diag, float *sc,
                                           float *rowmax)
{
    const float *v = (const float *)a->values;
    (void)ex;
#pragma omp parallel for schedule(static) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++)
        rowmax[i] = amg_row_couplings(a->row_ptr, a->col_idx, v, diag, i, sc);
    return HOMG_OK;
}

homg_status homg_cpu_amg_strength_count(kernel_exec *ex, const csr_matrix *a, const float *sc, const float *rowmax,
                                        double theta, int32_t *cnt)
{
    (void)ex;
#pragma omp parallel for schedule(static) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++) {
        int32_t c = 0, lone = amg_lone(a->row_ptr, a->col_idx, sc, (float)theta, i, rowmax);
        for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
            c += amg_kept(a->col_idx, sc, (float)theta, i, k, lone, rowmax);
        cnt[i] = c;
    }
    return HOMG_OK;
}

homg_status homg_cpu_amg_strength_fill(kernel_exec *ex, const csr_matrix *a, const float *sc, const float *rowmax,
                                       double theta, csr_matrix *s, int32_t *lumped)
{
    const float *v = (const float *)a->values;
    float *sv = (float *)s->values;
    int32_t any = 0;
    (void)ex;
#pragma omp parallel for schedule(static) reduction(| : any) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++) {
        int32_t o = s->row_ptr[i], dpos = -1, lone = amg_lone(a->row_ptr, a->col_idx, sc, (float)theta, i, rowmax);
        float weak = 0;
        for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
            if (!amg_kept(a->col_idx, sc, (float)theta, i, k, lone, rowmax)) {
                weak += v[k];
                any |= v[k] != 0;
                continue;
            }
            if (a->col_idx[k] == i)
                dpos = o;
            s->col_idx[o] = a->col_idx[k];
            sv[o++] = v[k];
        }
        if (dpos >= 0)
            sv[dpos] += weak;
    }
    *lumped = any;
    return HOMG_OK;
}
