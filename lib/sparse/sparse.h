/* sparse.h -- what the library's sparse files (amg, pcg) share: matrices in the
 * ctx's space, importing and checking a caller's CSR view, small device reads. */
#ifndef HOMG_SPARSE_H
#define HOMG_SPARSE_H

#include "core/internal.h"
#include "sparse/sparse_kernels.h"

/* The ctx's allocator in the form the sparse kernels take. */
kernel_alloc homg__kalloc(homg_ctx *ctx);

/* Allocates a matrix's arrays (row_ptr nrows+1, col_idx and val nnz). */
homg_status homg__mat_alloc(homg_ctx *ctx, int32_t nrows, int32_t ncols, int32_t nnz, homg_precision prec,
                            csr_matrix *m, const char *what);
void homg__mat_free(homg_ctx *ctx, csr_matrix *m);
size_t homg__mat_bytes(const csr_matrix *m);

/* Copies the view into a double matrix in the ctx's space and, unless
 * skip_check, checks it: a well-formed CSR, square, finite, positive diagonal,
 * symmetric.  Failures name `what` and the first bad row. */
homg_status homg__mat_import(homg_ctx *ctx, void *handle, const homg_csr *a, int skip_check, csr_matrix *out,
                             const char *what);
/* Copies new values of the same pattern into m (double), with the same checks
 * and a check that the pattern is m's. */
homg_status homg__mat_import_values(homg_ctx *ctx, void *handle, const homg_csr *a, int skip_check, csr_matrix *m,
                                    const char *what);

/* The caller's matrix used in place (double, ctx memory; not copied, never
 * freed), checked as an import; _values: re-setup, the same arrays again. */
homg_status homg__mat_view(homg_ctx *ctx, void *handle, const homg_csr *a, int skip_check, csr_matrix *out,
                           const char *what);
homg_status homg__mat_view_values(homg_ctx *ctx, void *handle, const homg_csr *a, int skip_check, const csr_matrix *m,
                                  const char *what);

#endif
