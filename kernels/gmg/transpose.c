/* transpose.c -- CPU twin of transpose.cu: t = a^T of a double CSR matrix,
 * each row of t sorted by column (what the sparse table's cuSPARSE transpose
 * gives), in two calls around the caller's scan of the counts: GMG's
 * restriction R = P^T without cuSPARSE's host round trip (a read and ~20 host
 * calls a level, s14-gmg25's trace). */
#include "gmg_kernels.h"

homg_status homg_cpu_gmg_transpose_count(kernel_exec *ex, const csr_matrix *a, int32_t *count)
{
    (void)ex;
    if (a->precision != HOMG_FLOAT64)
        return HOMG_ERROR_UNSUPPORTED;
    for (int32_t i = 0; i < a->nrows; i++)
        for (int32_t p = a->row_ptr[i]; p < a->row_ptr[i + 1]; p++)
            count[a->col_idx[p]]++;
    return HOMG_OK;
}

/* a's rows in order: each row of t receives its entries by increasing row of a,
 * so sorted without a pass of its own (the CUDA twin places them in any order
 * and sorts). */
homg_status homg_cpu_gmg_transpose_fill(kernel_exec *ex, const csr_matrix *a, int32_t *cursor, csr_matrix *t)
{
    const double *v = (const double *)a->values;
    double *tv = (double *)t->values;
    (void)ex;
    if (a->precision != HOMG_FLOAT64 || t->precision != HOMG_FLOAT64)
        return HOMG_ERROR_UNSUPPORTED;
    for (int32_t i = 0; i < a->nrows; i++)
        for (int32_t p = a->row_ptr[i]; p < a->row_ptr[i + 1]; p++) {
            int32_t j = a->col_idx[p], q = t->row_ptr[j] + cursor[j]++;
            t->col_idx[q] = i;
            tv[q] = v[p];
        }
    return HOMG_OK;
}
