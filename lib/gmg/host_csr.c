/* host_csr.c -- host CSR operations of the GMG set-up: transpose, product
 * (Gustavson, double, for the Galerkin R A P), the Dirichlet mask of P. */
#include "gmg_internal.h"

#include <stdlib.h>
#include <string.h>

static homg_status host_csr_alloc(homg_ctx *ctx, int32_t nrows, int32_t ncols, int64_t nnz, homg_host_csr *m)
{
    memset(m, 0, sizeof *m);
    if (nnz > INT32_MAX)
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "GMG: a matrix of %lld entries exceeds int32", (long long)nnz);
    m->nrows = nrows;
    m->ncols = ncols;
    m->nnz = (int32_t)nnz;
    m->row_ptr = (int32_t *)calloc((size_t)nrows + 1, sizeof(int32_t));
    m->col_idx = (int32_t *)malloc(((size_t)nnz + 1) * sizeof(int32_t));
    m->values = (double *)malloc(((size_t)nnz + 1) * sizeof(double));
    if (!m->row_ptr || !m->col_idx || !m->values) {
        homg_host_csr_free(m);
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "GMG: out of host memory");
    }
    return HOMG_OK;
}

homg_status homg__gmg_host_transpose(homg_ctx *ctx, const homg_host_csr *a, homg_host_csr *t)
{
    int32_t *next;
    HOMG_TRY(host_csr_alloc(ctx, a->ncols, a->nrows, a->nnz, t));
    next = (int32_t *)malloc(((size_t)a->ncols + 1) * sizeof *next);
    if (!next) {
        homg_host_csr_free(t);
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "GMG: out of host memory");
    }
    for (int32_t k = 0; k < a->nnz; k++)
        t->row_ptr[a->col_idx[k] + 1]++;
    for (int32_t j = 0; j < a->ncols; j++)
        t->row_ptr[j + 1] += t->row_ptr[j];
    memcpy(next, t->row_ptr, ((size_t)a->ncols + 1) * sizeof *next);
    for (int32_t i = 0; i < a->nrows; i++) /* rows in order: columns come out sorted */
        for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
            int32_t dst = next[a->col_idx[k]]++;
            t->col_idx[dst] = i;
            t->values[dst] = a->values[k];
        }
    free(next);
    return HOMG_OK;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return x < y ? -1 : x > y;
}

homg_status homg__gmg_host_product(homg_ctx *ctx, const homg_host_csr *a, const homg_host_csr *b, homg_host_csr *c)
{
    int32_t *mark = (int32_t *)malloc(((size_t)b->ncols + 1) * sizeof *mark);
    double *acc = (double *)calloc((size_t)b->ncols + 1, sizeof *acc);
    int64_t nnz = 0;
    homg_status st;
    if (!mark || !acc) {
        free(mark);
        free(acc);
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "GMG: out of host memory");
    }
    for (int32_t j = 0; j < b->ncols; j++)
        mark[j] = -1;
    for (int32_t i = 0; i < a->nrows; i++) /* symbolic: count */
        for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
            for (int32_t q = b->row_ptr[a->col_idx[k]]; q < b->row_ptr[a->col_idx[k] + 1]; q++)
                if (mark[b->col_idx[q]] != i) {
                    mark[b->col_idx[q]] = i;
                    nnz++;
                }
    st = host_csr_alloc(ctx, a->nrows, b->ncols, nnz, c);
    for (int32_t j = 0; j < b->ncols; j++)
        mark[j] = -1;
    for (int32_t i = 0; st == HOMG_OK && i < a->nrows; i++) {
        int32_t start = c->row_ptr[i], at = start;
        for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
            for (int32_t q = b->row_ptr[a->col_idx[k]]; q < b->row_ptr[a->col_idx[k] + 1]; q++) {
                int32_t j = b->col_idx[q];
                if (mark[j] != i) {
                    mark[j] = i;
                    c->col_idx[at++] = j;
                    acc[j] = 0;
                }
                acc[j] += a->values[k] * b->values[q];
            }
        qsort(c->col_idx + start, (size_t)(at - start), sizeof(int32_t), cmp_i32);
        for (int32_t k = start; k < at; k++)
            c->values[k] = acc[c->col_idx[k]];
        c->row_ptr[i + 1] = at;
    }
    free(mark);
    free(acc);
    return st;
}

homg_status homg__gmg_mask_prolongation(homg_ctx *ctx, homg_host_csr *p, const uint8_t *fine_fixed,
                                        const uint8_t *coarse_fixed)
{
    int32_t at = 0, start = 0;
    (void)ctx;
    for (int32_t i = 0; i < p->nrows; i++) {
        int32_t end = p->row_ptr[i + 1];
        for (int32_t k = start; k < end; k++) {
            int32_t j = p->col_idx[k];
            int keep = fine_fixed[i] ? (coarse_fixed[j] && p->values[k] > 1 - 1e-9) : !coarse_fixed[j];
            if (keep) {
                p->col_idx[at] = j;
                p->values[at++] = p->values[k];
            }
        }
        start = end;
        p->row_ptr[i + 1] = at;
    }
    p->nnz = at;
    return HOMG_OK;
}
