/* restrict.c -- CPU backend: restriction y = P^T x straight from P's rows
 * (no transpose kept: the hierarchy saves R's memory). Twin of restrict.cu. */
#include "amg_kernels.h"

homg_status homg_cpu_amg_restrict_pt(kernel_exec *ex, const csr_matrix *p, const float *x, float *y)
{
    const float *v = (const float *)p->values;
    (void)ex;
    for (int32_t j = 0; j < p->ncols; j++)
        y[j] = 0.0f;
    /* serial scatter: rows of P share columns, so no row-parallel loop */
    for (int32_t i = 0; i < p->nrows; i++)
        for (int32_t k = p->row_ptr[i]; k < p->row_ptr[i + 1]; k++)
            y[p->col_idx[k]] += v[k] * x[i];
    return HOMG_OK;
}
