/* csr_host.c -- matrices that own their host arrays: free, view, build from
 * triplets, copy and check any CSR view on the host. */
#include "csr_host.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void homg_host_csr_free(homg_host_csr *m)
{
    if (!m)
        return;
    free(m->row_ptr);
    free(m->col_idx);
    free(m->values);
    memset(m, 0, sizeof *m);
}

homg_csr homg_host_csr_view(const homg_host_csr *m)
{
    homg_csr v;
    memset(&v, 0, sizeof v);
    if (m) {
        v.nrows = m->nrows;
        v.ncols = m->ncols;
        v.nnz = m->nnz;
        v.row_ptr = m->row_ptr;
        v.col_idx = m->col_idx;
        v.values = m->values;
    }
    v.precision = HOMG_FLOAT64;
    v.memory = HOMG_MEMORY_HOST;
    return v;
}

/* One entry of a row while it is being sorted; src (its triplet) breaks ties so
 * that duplicates end up next to each other in input order. */
typedef struct row_entry {
    int32_t col, src;
    double val;
} row_entry;

static int by_col_then_src(const void *pa, const void *pb)
{
    const row_entry *a = (const row_entry *)pa, *b = (const row_entry *)pb;
    if (a->col != b->col)
        return a->col < b->col ? -1 : 1;
    return a->src < b->src ? -1 : a->src > b->src;
}

/* The triplets of homg__csr_from_coo. */
typedef struct coo_in {
    int32_t nrows, ncols, n;
    const int32_t *row, *col;
    const double *val; /* NULL: every value is 1 */
    int symmetric;
} coo_in;

#define COO_WHAT "building a CSR matrix from triplets"

/* Sizes and indices in range; *total = the entries (mirrors included). */
static homg_status check_triplets(homg_ctx *ctx, const coo_in *c, int64_t *total)
{
    *total = 0;
    if (c->nrows < 0 || c->ncols < 0 || c->n < 0 || (c->n > 0 && (!c->row || !c->col)))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: bad arguments (%d x %d, %d triplets)", COO_WHAT,
                          (int)c->nrows, (int)c->ncols, (int)c->n);
    if (c->symmetric && c->nrows != c->ncols)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: a symmetric matrix must be square, not %d x %d",
                          COO_WHAT, (int)c->nrows, (int)c->ncols);
    for (int32_t k = 0; k < c->n; k++) {
        if (c->row[k] < 0 || c->row[k] >= c->nrows || c->col[k] < 0 || c->col[k] >= c->ncols)
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                              "%s: triplet %d at (%d, %d) is outside the %d x %d matrix", COO_WHAT, (int)k,
                              (int)c->row[k], (int)c->col[k], (int)c->nrows, (int)c->ncols);
        *total += (c->symmetric && c->row[k] != c->col[k]) ? 2 : 1;
    }
    if (*total > INT32_MAX)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: %lld entries are more than int32 indices allow",
                          COO_WHAT, (long long)*total);
    return HOMG_OK;
}

/* Counting sort by row into ent: ptr[r + 1] counts row r, then ptr[r] is
 * where row r starts; filling advances ptr[r] to the start of row r + 1, and
 * a shift puts the row starts back. */
static void bucket_rows(const coo_in *c, int32_t *ptr, row_entry *ent)
{
    for (int32_t k = 0; k < c->n; k++) {
        ptr[c->row[k] + 1]++;
        if (c->symmetric && c->row[k] != c->col[k])
            ptr[c->col[k] + 1]++;
    }
    for (int32_t r = 0; r < c->nrows; r++)
        ptr[r + 1] += ptr[r];
    for (int32_t k = 0; k < c->n; k++) {
        double v = c->val ? c->val[k] : 1.0;
        row_entry e = { c->col[k], k, v };
        ent[ptr[c->row[k]]++] = e;
        if (c->symmetric && c->row[k] != c->col[k]) {
            row_entry m = { c->row[k], k, v };
            ent[ptr[c->col[k]]++] = m;
        }
    }
    for (int32_t r = c->nrows; r > 0; r--)
        ptr[r] = ptr[r - 1];
    ptr[0] = 0;
}

/* Sorts every row by column (rows filled in input order are often sorted
 * already: files in column order) and returns the duplicate met first in the
 * input (second < 0: none).  No entries: no array to point into. */
static coo_dup sort_rows(int32_t nrows, const int32_t *ptr, row_entry *ent, int64_t total)
{
    coo_dup d = { -1, -1, 0, 0 };
    for (int32_t r = 0; total > 0 && r < nrows; r++) {
        row_entry *e = ent + ptr[r];
        int32_t len = ptr[r + 1] - ptr[r];
        for (int32_t i = 1; i < len; i++)
            if (e[i].col < e[i - 1].col) {
                qsort(e, (size_t)len, sizeof *e, by_col_then_src);
                break;
            }
        for (int32_t i = 1; i < len; i++)
            if (e[i].col == e[i - 1].col && (d.second < 0 || e[i].src < d.second)) {
                d.first = e[i - 1].src;
                d.second = e[i].src;
                d.row = r;
                d.col = e[i].col;
            }
    }
    return d;
}

/* The sorted entries as an owning host CSR (takes *ptr over). */
static homg_status fill_csr(homg_ctx *ctx, const coo_in *c, int32_t **ptr, const row_entry *ent, int64_t total,
                            homg_host_csr *out)
{
    out->col_idx = (int32_t *)homg__host_array(ctx, (size_t)total, sizeof *out->col_idx, COO_WHAT);
    out->values = (double *)homg__host_array(ctx, (size_t)total, sizeof *out->values, COO_WHAT);
    if (total && (!out->col_idx || !out->values))
        return HOMG_ERROR_OUT_OF_MEMORY;
    for (int64_t i = 0; i < total; i++) {
        out->col_idx[i] = ent[i].col;
        out->values[i] = ent[i].val;
    }
    out->nrows = c->nrows;
    out->ncols = c->ncols;
    out->nnz = (int32_t)total;
    out->row_ptr = *ptr;
    *ptr = NULL;
    return HOMG_OK;
}

/* Bucketing, sorting, the duplicate check and the copy into out. */
static homg_status build(homg_ctx *ctx, const coo_in *c, int64_t total, int32_t **ptr, row_entry *ent,
                         homg_host_csr *out, coo_dup *dup)
{
    coo_dup d;
    bucket_rows(c, *ptr, ent);
    d = sort_rows(c->nrows, *ptr, ent, total);
    if (d.second >= 0) {
        if (dup)
            *dup = d;
        else
            homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: triplets %d and %d both give entry (%d, %d)", COO_WHAT,
                       (int)d.first, (int)d.second, (int)d.row, (int)d.col);
        return HOMG_ERROR_INVALID_ARGUMENT;
    }
    return fill_csr(ctx, c, ptr, ent, total, out);
}

homg_status homg__csr_from_coo(homg_ctx *ctx, int32_t nrows, int32_t ncols, int32_t n, const int32_t *row,
                               const int32_t *col, const double *val, int symmetric, homg_host_csr *out, coo_dup *dup)
{
    coo_in c = { nrows, ncols, n, row, col, val, symmetric };
    int64_t total;
    int32_t *ptr;
    row_entry *ent;
    homg_status st;
    memset(out, 0, sizeof *out);
    HOMG_TRY(check_triplets(ctx, &c, &total));
    ptr = (int32_t *)calloc((size_t)nrows + 1, sizeof *ptr);
    ent = (row_entry *)homg__host_array(ctx, (size_t)total, sizeof *ent, COO_WHAT);
    if (!ptr || (total && !ent))
        st = ptr ? HOMG_ERROR_OUT_OF_MEMORY
                 : homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "%s: no memory for %d row pointers", COO_WHAT, (int)nrows);
    else
        st = build(ctx, &c, total, &ptr, ent, out, dup);
    free(ptr);
    free(ent);
    if (st != HOMG_OK)
        homg_host_csr_free(out);
    return st;
}

/* Checks the scalar fields and pointers of a view before anything is copied. */
static homg_status check_view(homg_ctx *ctx, const homg_csr *a, const char *what)
{
    if (!a)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: the matrix is NULL", what);
    if (a->nrows < 0 || a->ncols < 0 || a->nnz < 0)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: negative size (%d x %d, nnz %d)", what, (int)a->nrows,
                          (int)a->ncols, (int)a->nnz);
    return homg__csr_check_fields(ctx, a, what);
}

homg_status homg__csr_check_fields(homg_ctx *ctx, const homg_csr *a, const char *what)
{
    if (a->precision != HOMG_FLOAT32 && a->precision != HOMG_FLOAT64)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: precision = %d is not a homg_precision", what,
                          (int)a->precision);
    if (a->memory != HOMG_MEMORY_CONTEXT && a->memory != HOMG_MEMORY_HOST)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: memory = %d is not a homg_memory", what,
                          (int)a->memory);
    if (!a->row_ptr || (a->nnz > 0 && (!a->col_idx || !a->values)))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", what,
                          !a->row_ptr   ? "row_ptr"
                          : !a->col_idx ? "col_idx"
                                        : "values");
    return HOMG_OK;
}

static homg_status copy_arrays(homg_ctx *ctx, const homg_csr *a, homg_host_csr *m, const char *what)
{
    size_t nv = (size_t)a->nnz;
    float *f = NULL;
    homg_status st = HOMG_OK;
    if (a->memory == HOMG_MEMORY_HOST) {
        memcpy(m->row_ptr, a->row_ptr, ((size_t)a->nrows + 1) * sizeof *m->row_ptr);
        if (nv)
            memcpy(m->col_idx, a->col_idx, nv * sizeof *m->col_idx);
        if (nv && a->precision == HOMG_FLOAT64)
            memcpy(m->values, a->values, nv * sizeof *m->values);
        for (size_t i = 0; a->precision == HOMG_FLOAT32 && i < nv; i++)
            m->values[i] = ((const float *)a->values)[i];
        return HOMG_OK;
    }
    HOMG_TRY(homg_copy_to_host(ctx, m->row_ptr, a->row_ptr, ((size_t)a->nrows + 1) * sizeof *m->row_ptr));
    HOMG_TRY(homg_copy_to_host(ctx, m->col_idx, a->col_idx, nv * sizeof *m->col_idx));
    if (a->precision == HOMG_FLOAT64)
        return homg_copy_to_host(ctx, m->values, a->values, nv * sizeof *m->values);
    f = (float *)homg__host_array(ctx, nv, sizeof *f, what);
    if (nv && !f)
        return HOMG_ERROR_OUT_OF_MEMORY;
    st = homg_copy_to_host(ctx, f, a->values, nv * sizeof *f);
    for (size_t i = 0; st == HOMG_OK && i < nv; i++)
        m->values[i] = f[i];
    free(f);
    return st;
}

/* row_ptr is checked whole before col_idx is read through it. */
static homg_status check_structure(homg_ctx *ctx, const homg_host_csr *m, const char *what)
{
    if (m->row_ptr[0] != 0)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: row_ptr[0] = %d, not 0", what, (int)m->row_ptr[0]);
    for (int32_t r = 0; r < m->nrows; r++)
        if (m->row_ptr[r + 1] < m->row_ptr[r] || m->row_ptr[r + 1] > m->nnz)
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: row_ptr[%d] = %d is not in %d..%d (nnz)", what,
                              (int)r + 1, (int)m->row_ptr[r + 1], (int)m->row_ptr[r], (int)m->nnz);
    if (m->row_ptr[m->nrows] != m->nnz)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: row_ptr[%d] = %d, not nnz = %d", what, (int)m->nrows,
                          (int)m->row_ptr[m->nrows], (int)m->nnz);
    for (int32_t r = 0; r < m->nrows; r++)
        for (int32_t i = m->row_ptr[r]; i < m->row_ptr[r + 1]; i++) {
            int32_t c = m->col_idx[i];
            if (c < 0 || c >= m->ncols)
                return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: row %d: column %d is not in 0..%d", what,
                                  (int)r, (int)c, (int)m->ncols - 1);
            if (i > m->row_ptr[r] && c <= m->col_idx[i - 1])
                return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                                  "%s: row %d: columns %d, %d are not strictly increasing (sorted, no duplicates)",
                                  what, (int)r, (int)m->col_idx[i - 1], (int)c);
        }
    return HOMG_OK;
}

homg_status homg__csr_to_host(homg_ctx *ctx, const homg_csr *a, homg_host_csr *out, const char *what)
{
    homg_status st;
    memset(out, 0, sizeof *out);
    HOMG_TRY(check_view(ctx, a, what));
    out->nrows = a->nrows;
    out->ncols = a->ncols;
    out->nnz = a->nnz;
    out->row_ptr = (int32_t *)homg__host_array(ctx, (size_t)a->nrows + 1, sizeof *out->row_ptr, what);
    out->col_idx = (int32_t *)homg__host_array(ctx, (size_t)a->nnz, sizeof *out->col_idx, what);
    out->values = (double *)homg__host_array(ctx, (size_t)a->nnz, sizeof *out->values, what);
    if (!out->row_ptr || (a->nnz && (!out->col_idx || !out->values)))
        st = HOMG_ERROR_OUT_OF_MEMORY;
    else
        st = copy_arrays(ctx, a, out, what);
    if (st == HOMG_OK)
        st = check_structure(ctx, out, what);
    if (st != HOMG_OK)
        homg_host_csr_free(out);
    return st;
}
