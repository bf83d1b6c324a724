/* csr_host.h -- host CSR helpers the library's files share (Matrix Market I/O,
 * and later the CPU reference of AMG and whoever builds matrices from triplets). */
#ifndef HOMG_CSR_HOST_H
#define HOMG_CSR_HOST_H

#include "core/internal.h"

/* Two triplets with the same (row, col): their indices first < second in the input. */
typedef struct coo_dup {
    int32_t first, second;
    int32_t row, col;
} coo_dup;

/* Builds an owning host CSR, columns sorted within each row, from n 0-based
 * triplets.  val NULL: every value is 1.  symmetric: each off-diagonal triplet
 * stands for itself and its mirror (the caller stores one triangle).  Indices out
 * of range, more than INT32_MAX entries and duplicates are INVALID_ARGUMENT; for a
 * duplicate with dup != NULL the pair goes to *dup and no message is recorded
 * (the caller knows better words, e.g. file lines).  *out is zeroed on failure. */
homg_status homg__csr_from_coo(homg_ctx *ctx, int32_t nrows, int32_t ncols, int32_t n, const int32_t *row,
                               const int32_t *col, const double *val, int symmetric, homg_host_csr *out, coo_dup *dup);

/* The precision, memory and array pointers of a view (not its sizes):
 * INVALID_ARGUMENT with a message prefixed by `what`. */
homg_status homg__csr_check_fields(homg_ctx *ctx, const homg_csr *a, const char *what);

/* Copies a CSR view (host or ctx memory, float or double) into an owning host
 * matrix with double values and checks it: sizes, row_ptr rising from 0 to nnz,
 * columns in range and strictly increasing within each row.  Bad views are
 * INVALID_ARGUMENT with a message prefixed by `what`. */
homg_status homg__csr_to_host(homg_ctx *ctx, const homg_csr *a, homg_host_csr *out, const char *what);

#endif
