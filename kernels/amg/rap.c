/* rap.c -- CPU backend: the Galerkin product C = P^T A P row by row of C
 * (twin of rap.cu).  Row I of C sums p_iI a_ij P(j, :) over the fine rows i
 * of column I of P (row I of pt = P^T) and the entries a_ij of their rows, in
 * double, into a dense accumulator of the coarse columns; its columns are
 * written sorted into row I of a slab of `cap` entries per row. */
#include "amg_kernels.h"

#include <stdlib.h>

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Row I into the slab (count in *cnt; more than cap columns: *cnt = 0, returns 1). */
static int rap_row(const csr_matrix *a, const csr_matrix *p, const csr_matrix *pt, int32_t I, int32_t cap, double *acc,
                   int32_t *mark, int32_t *cols, int32_t *slab_col, float *slab_val, int32_t *cnt)
{
    const float *av = (const float *)a->values, *pv = (const float *)p->values, *tv = (const float *)pt->values;
    int32_t m = 0;
    for (int32_t t = pt->row_ptr[I]; t < pt->row_ptr[I + 1]; t++) {
        int32_t i = pt->col_idx[t];
        for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
            int32_t j = a->col_idx[k];
            double w = (double)tv[t] * av[k];
            for (int32_t q = p->row_ptr[j]; q < p->row_ptr[j + 1]; q++) {
                int32_t c = p->col_idx[q];
                if (mark[c] != I) {
                    mark[c] = I;
                    acc[c] = 0;
                    cols[m++] = c;
                }
                acc[c] += w * pv[q];
            }
        }
    }
    if (m > cap) {
        *cnt = 0;
        return 1;
    }
    qsort(cols, (size_t)m, sizeof *cols, cmp_i32);
    for (int32_t r = 0; r < m; r++) {
        slab_col[(size_t)I * cap + r] = cols[r];
        slab_val[(size_t)I * cap + r] = (float)acc[cols[r]];
    }
    *cnt = m;
    return 0;
}

homg_status homg_cpu_amg_rap_rows(kernel_exec *ex, const csr_matrix *a, const csr_matrix *p, const csr_matrix *pt,
                                  int32_t cap, int32_t *slab_col, float *slab_val, int32_t *cnt, int32_t *overflow)
{
    int32_t nc = pt->nrows, over = 0, fail = 0;
    if (cap != 128 && cap != 256 && cap != 512) /* the CUDA twin's table sizes */
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "rap_rows: cap %d is not 128, 256 or 512", (int)cap);
#pragma omp parallel if (nc > 256)
    {
        double *acc = (double *)malloc((size_t)(nc > 0 ? nc : 1) * sizeof *acc);
        int32_t *mark = (int32_t *)malloc((size_t)(nc > 0 ? nc : 1) * sizeof *mark);
        int32_t *cols = (int32_t *)malloc((size_t)(nc > 0 ? nc : 1) * sizeof *cols);
        int failed;
        if (!acc || !mark || !cols) {
#pragma omp atomic write
            fail = 1;
        }
#pragma omp barrier /* every thread takes the same branch: the loop below is shared */
#pragma omp atomic read
        failed = fail;
        if (!failed) {
            for (int32_t c = 0; c < nc; c++)
                mark[c] = -1;
#pragma omp for schedule(dynamic, 64) reduction(| : over)
            for (int32_t I = 0; I < nc; I++)
                over |= rap_row(a, p, pt, I, cap, acc, mark, cols, slab_col, slab_val, &cnt[I]);
        }
        free(acc);
        free(mark);
        free(cols);
    }
    if (fail)
        return homg_exec_fail(ex, HOMG_ERROR_OUT_OF_MEMORY, "rap_rows: out of host memory");
    *overflow = over;
    return HOMG_OK;
}

homg_status homg_cpu_amg_rap_compact(kernel_exec *ex, int32_t cap, const int32_t *slab_col, const float *slab_val,
                                     csr_matrix *c)
{
    float *cv = (float *)c->values;
    (void)ex;
#pragma omp parallel for schedule(static) if (c->nrows > HOMG_OMP_MIN)
    for (int32_t I = 0; I < c->nrows; I++)
        for (int32_t r = 0, o = c->row_ptr[I]; o < c->row_ptr[I + 1]; r++, o++) {
            c->col_idx[o] = slab_col[(size_t)I * cap + r];
            cv[o] = slab_val[(size_t)I * cap + r];
        }
    return HOMG_OK;
}
