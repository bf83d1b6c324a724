/* sparse.c -- matrices in the ctx's space: allocation, importing a caller's CSR
 * view (host or ctx memory, float or double) and checking that it is what AMG
 * and CG need: a well-formed, square, symmetric matrix with finite values and a
 * positive diagonal.  The checks run as kernels on the ctx's backend; only the
 * first offending row of each kind comes back to the host. */
#include "csr_host.h"
#include "sparse.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* |a_ij - a_ji| <= SYM_RTOL sqrt(a_ii a_jj): rounding noise of an assembly passes. */
#define SYM_RTOL 1e-10

static homg_status kalloc_alloc(size_t bytes, void **ptr, void *user)
{
    homg_ctx *ctx = (homg_ctx *)user;
    homg_status st = homg__alloc(ctx, bytes, ptr, "sparse kernels");
    if (st != HOMG_OK)
        snprintf(ctx->ex.msg, sizeof ctx->ex.msg, "%.500s", ctx->msg);
    return st;
}

static void kalloc_free(void *ptr, void *user) { homg__free((homg_ctx *)user, ptr); }

kernel_alloc homg__kalloc(homg_ctx *ctx)
{
    kernel_alloc k;
    k.alloc = kalloc_alloc;
    k.free = kalloc_free;
    k.user = ctx;
    return k;
}

static size_t prec_size(homg_precision p) { return p == HOMG_FLOAT64 ? sizeof(double) : sizeof(float); }

homg_status homg__mat_alloc(homg_ctx *ctx, int32_t nrows, int32_t ncols, int32_t nnz, homg_precision prec,
                            csr_matrix *m, const char *what)
{
    homg_status st;
    memset(m, 0, sizeof *m);
    m->nrows = nrows;
    m->ncols = ncols;
    m->nnz = nnz;
    m->precision = prec;
    st = homg__alloc(ctx, ((size_t)nrows + 1) * sizeof(int32_t), (void **)&m->row_ptr, what);
    if (st == HOMG_OK)
        st = homg__alloc(ctx, (size_t)nnz * sizeof(int32_t), (void **)&m->col_idx, what);
    if (st == HOMG_OK)
        st = homg__alloc(ctx, (size_t)nnz * prec_size(prec), &m->values, what);
    if (st != HOMG_OK)
        homg__mat_free(ctx, m);
    return st;
}

void homg__mat_free(homg_ctx *ctx, csr_matrix *m)
{
    if (!m)
        return;
    homg__free(ctx, m->row_ptr);
    homg__free(ctx, m->col_idx);
    homg__free(ctx, m->values);
    memset(m, 0, sizeof *m);
}

size_t homg__mat_bytes(const csr_matrix *m)
{
    if (!m->row_ptr)
        return 0;
    return ((size_t)m->nrows + 1) * sizeof(int32_t) + (size_t)m->nnz * (sizeof(int32_t) + prec_size(m->precision));
}

homg_status homg__read(homg_ctx *ctx, void *host, const void *dev, size_t bytes)
{
    ctx->host_syncs++;
    HOMG_TRY_BACKEND(ctx, ctx->mem->copy(&ctx->ex, host, dev, bytes, HOMG_D2H), "reading a device value");
    return HOMG_OK;
}

homg_status homg__write(homg_ctx *ctx, void *dev, const void *host, size_t bytes)
{
    /* stream-ordered: host may be reused on return, the queued work is not waited for */
    HOMG_TRY_BACKEND(ctx, ctx->mem->copy(&ctx->ex, dev, host, bytes, HOMG_H2D_ORDERED), "writing a device value");
    return HOMG_OK;
}

/* The view's fields, before any of its memory is touched. */
static homg_status check_view(homg_ctx *ctx, const homg_csr *a, const char *what)
{
    if (!a)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s is NULL", what);
    if (a->nrows <= 0 || a->ncols <= 0)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s has %d x %d entries: it must have rows", what,
                          (int)a->nrows, (int)a->ncols);
    if (a->nrows != a->ncols)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "%s is not square (%d x %d): AMG and CG need a symmetric positive definite matrix", what,
                          (int)a->nrows, (int)a->ncols);
    if (a->nnz < 0)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s has nnz = %d", what, (int)a->nnz);
    HOMG_TRY(homg__csr_check_fields(ctx, a, what));
    if (a->memory == HOMG_MEMORY_CONTEXT) {
        char arg[96];
        snprintf(arg, sizeof arg, "%s.row_ptr", what);
        HOMG_TRY(homg__check_pointer(ctx, a->row_ptr, arg));
        if (a->nnz > 0) {
            snprintf(arg, sizeof arg, "%s.col_idx", what);
            HOMG_TRY(homg__check_pointer(ctx, a->col_idx, arg));
            snprintf(arg, sizeof arg, "%s.values", what);
            HOMG_TRY(homg__check_pointer(ctx, a->values, arg));
        }
    }
    return HOMG_OK;
}

static homg_status copy_in(homg_ctx *ctx, void *dst, const void *src, size_t bytes, homg_memory memory)
{
    HOMG_TRY_BACKEND(ctx, ctx->mem->copy(&ctx->ex, dst, src, bytes, memory == HOMG_MEMORY_HOST ? HOMG_H2D : HOMG_D2D),
                     "copying the matrix");
    return HOMG_OK;
}

/* Values of the view into m->values as double. */
static homg_status copy_values(homg_ctx *ctx, const homg_csr *a, csr_matrix *m)
{
    const sparse_kernels *sk = HOMG_KERNELS(&ctx->ex, sparse);
    void *tmp = NULL;
    homg_status st;
    if (a->precision == HOMG_FLOAT64)
        return copy_in(ctx, m->values, a->values, (size_t)a->nnz * sizeof(double), a->memory);
    HOMG_TRY(homg__alloc(ctx, (size_t)a->nnz * sizeof(float), &tmp, "matrix values"));
    st = copy_in(ctx, tmp, a->values, (size_t)a->nnz * sizeof(float), a->memory);
    if (st == HOMG_OK) {
        st = sk->convert(&ctx->ex, tmp, HOMG_FLOAT32, m->values, HOMG_FLOAT64, (size_t)a->nnz);
        if (st != HOMG_OK)
            homg__backend_fail(ctx, st, "converting the matrix to double");
    }
    homg__free(ctx, tmp);
    return st;
}

static homg_status report_new(homg_ctx *ctx, csr_report **rep)
{
    csr_report init = { INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX };
    HOMG_TRY(homg__alloc(ctx, sizeof init, (void **)rep, "matrix check"));
    return homg__write(ctx, *rep, &init, sizeof init);
}

/* The outcome of one check kernel: its report back in *r. */
static homg_status check_result(homg_ctx *ctx, homg_status st, const csr_report *dev, csr_report *r, const char *what)
{
    if (st != HOMG_OK)
        return homg__backend_fail(ctx, st, what);
    return homg__read(ctx, r, dev, sizeof *r);
}

/* Row pointers, then columns, finite values and the diagonal. */
static homg_status check_structure(homg_ctx *ctx, const csr_matrix *m, csr_report *dev, const char *what)
{
    const sparse_kernels *sk = HOMG_KERNELS(&ctx->ex, sparse);
    csr_report r;
    HOMG_TRY(check_result(ctx, sk->check_row_ptr(&ctx->ex, m, dev), dev, &r, "checking the matrix"));
    if (r.row_ptr != INT32_MAX)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "%s: row_ptr is malformed at row %d (must rise from 0 to nnz = %d)", what, (int)r.row_ptr,
                          (int)m->nnz);
    HOMG_TRY(check_result(ctx, sk->check_rows(&ctx->ex, m, dev), dev, &r, "checking the matrix"));
    if (r.column != INT32_MAX)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "%s: row %d has a column index out of range 0..%d or not strictly increasing", what,
                          (int)r.column, (int)m->ncols - 1);
    if (r.nonfinite != INT32_MAX)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: row %d holds a NaN or infinite value", what,
                          (int)r.nonfinite);
    if (r.diagonal != INT32_MAX)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "%s: the diagonal of row %d is missing, zero or negative: AMG and CG need a symmetric "
                          "positive definite matrix",
                          what, (int)r.diagonal);
    return HOMG_OK;
}

/* Same pattern as the matrix of the set-up: values ignored (infinite tolerance). */
static homg_status check_pattern(homg_ctx *ctx, const csr_matrix *m, const csr_matrix *pattern, csr_report *dev,
                                 const char *what)
{
    const sparse_kernels *sk = HOMG_KERNELS(&ctx->ex, sparse);
    csr_report r;
    HOMG_TRY(
        check_result(ctx, sk->check_symmetric(&ctx->ex, m, pattern, INFINITY, dev), dev, &r, "comparing the pattern"));
    if (r.symmetry != INT32_MAX)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "%s: row %d has another pattern than the matrix of the set-up (re-setup needs the same "
                          "pattern)",
                          what, (int)r.symmetry);
    return HOMG_OK;
}

/* m against its transpose, within SYM_RTOL: each entry against its mirror,
 * found by search (a transpose of the fine matrix in double took longer and
 * half again the matrix's memory). */
static homg_status check_symmetry(homg_ctx *ctx, void *handle, const csr_matrix *m, csr_report *dev, const char *what)
{
    const sparse_kernels *sk = HOMG_KERNELS(&ctx->ex, sparse);
    csr_report r;
    (void)handle;
    HOMG_TRY(check_result(ctx, sk->check_symmetric(&ctx->ex, m, m, SYM_RTOL, dev), dev, &r, "checking symmetry"));
    if (r.symmetry != INT32_MAX)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "%s is not symmetric: row %d differs from column %d (AMG and CG need a symmetric positive "
                          "definite matrix)",
                          what, (int)r.symmetry, (int)r.symmetry);
    return HOMG_OK;
}

/* Runs the checks on m (double, in the ctx's space); `pattern` non-NULL also
 * checks that m's pattern is pattern's. */
static homg_status check_matrix(homg_ctx *ctx, void *handle, const csr_matrix *m, const csr_matrix *pattern,
                                const char *what)
{
    csr_report *dev = NULL;
    homg_status st;
    HOMG_TRY(report_new(ctx, &dev));
    st = check_structure(ctx, m, dev, what);
    if (st == HOMG_OK && pattern)
        st = check_pattern(ctx, m, pattern, dev, what);
    if (st == HOMG_OK)
        st = check_symmetry(ctx, handle, m, dev, what);
    homg__free(ctx, dev);
    return st;
}

homg_status homg__mat_import(homg_ctx *ctx, void *handle, const homg_csr *a, int skip_check, csr_matrix *out,
                             const char *what)
{
    homg_status st;
    memset(out, 0, sizeof *out);
    HOMG_TRY(check_view(ctx, a, what));
    HOMG_TRY(homg__mat_alloc(ctx, a->nrows, a->ncols, a->nnz, HOMG_FLOAT64, out, what));
    st = copy_in(ctx, out->row_ptr, a->row_ptr, ((size_t)a->nrows + 1) * sizeof(int32_t), a->memory);
    if (st == HOMG_OK)
        st = copy_in(ctx, out->col_idx, a->col_idx, (size_t)a->nnz * sizeof(int32_t), a->memory);
    if (st == HOMG_OK)
        st = copy_values(ctx, a, out);
    if (st == HOMG_OK && !skip_check)
        st = check_matrix(ctx, handle, out, NULL, what);
    if (st != HOMG_OK)
        homg__mat_free(ctx, out);
    return st;
}

/* The caller's double matrix in the ctx's space used in place (no copy): the
 * same checks as an import. */
homg_status homg__mat_view(homg_ctx *ctx, void *handle, const homg_csr *a, int skip_check, csr_matrix *out,
                           const char *what)
{
    memset(out, 0, sizeof *out);
    HOMG_TRY(check_view(ctx, a, what));
    if (a->memory != HOMG_MEMORY_CONTEXT || a->precision != HOMG_FLOAT64)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "%s: used in place, it must be double (HOMG_FLOAT64) in the context's memory "
                          "(HOMG_MEMORY_CONTEXT)",
                          what);
    out->nrows = a->nrows;
    out->ncols = a->ncols;
    out->nnz = a->nnz;
    out->row_ptr = (int32_t *)a->row_ptr;
    out->col_idx = (int32_t *)a->col_idx;
    out->values = (void *)a->values;
    out->precision = HOMG_FLOAT64;
    if (!skip_check) {
        homg_status st = check_matrix(ctx, handle, out, NULL, what);
        if (st != HOMG_OK)
            memset(out, 0, sizeof *out);
        return st;
    }
    return HOMG_OK;
}

/* Re-setup in place: the same three arrays (new values in them), checked again. */
homg_status homg__mat_view_values(homg_ctx *ctx, void *handle, const homg_csr *a, int skip_check, const csr_matrix *m,
                                  const char *what)
{
    HOMG_TRY(check_view(ctx, a, what));
    if (a->row_ptr != m->row_ptr || a->col_idx != m->col_idx || a->values != m->values || a->nrows != m->nrows ||
        a->nnz != m->nnz || a->memory != HOMG_MEMORY_CONTEXT || a->precision != HOMG_FLOAT64)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "%s: with desc.fine_in_place, re-setup needs the set-up's own arrays (row_ptr, col_idx, "
                          "values) with new values in them",
                          what);
    return skip_check ? HOMG_OK : check_matrix(ctx, handle, m, NULL, what);
}

homg_status homg__mat_import_values(homg_ctx *ctx, void *handle, const homg_csr *a, int skip_check, csr_matrix *m,
                                    const char *what)
{
    csr_matrix fresh;
    homg_status st;
    HOMG_TRY(check_view(ctx, a, what));
    if (a->nrows != m->nrows || a->nnz != m->nnz)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "%s has %d rows and %d entries, the matrix of the set-up %d and %d: re-setup needs the "
                          "same pattern",
                          what, (int)a->nrows, (int)a->nnz, (int)m->nrows, (int)m->nnz);
    /* Import beside the old matrix, so a refused matrix leaves the set-up intact;
     * then copy the values over, so m's arrays stay where they are (captured
     * CUDA graphs and SpGEMM plans point at them). */
    HOMG_TRY(homg__mat_import(ctx, handle, a, 1, &fresh, what));
    st = skip_check ? HOMG_OK : check_matrix(ctx, handle, &fresh, m, what);
    if (st == HOMG_OK) {
        st = ctx->mem->copy(&ctx->ex, m->values, fresh.values, (size_t)m->nnz * sizeof(double), HOMG_D2D);
        if (st != HOMG_OK)
            st = homg__backend_fail(ctx, st, what);
    }
    homg__mat_free(ctx, &fresh);
    return st;
}
