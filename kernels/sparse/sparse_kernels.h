/* sparse_kernels.h -- sparse matrices: the backend table.
 *
 * CSR matrices in the context's memory space (csr_matrix), their checks,
 * products (SpMV, SpGEMM with a reusable symbolic phase, transpose), scans, and
 * the handles the sparse and Krylov kernels share (kernels/krylov).
 *
 * Implementations: kernels/sparse/sparse.c, kernels/sparse/sparse.cu.  Picked
 * with HOMG_KERNELS(ex, sparse).
 */
#ifndef HOMG_SPARSE_KERNELS_H
#define HOMG_SPARSE_KERNELS_H

#include "kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A CSR matrix whose arrays live in the context's space: 0-based int32
 * indices, columns sorted and unique within each row, values float or double. */
typedef struct csr_matrix {
    int32_t nrows, ncols, nnz;
    int32_t *row_ptr; /* nrows + 1 */
    int32_t *col_idx; /* nnz */
    void *values;     /* nnz values in `precision` */
    homg_precision precision;
} csr_matrix;

/* Allocation in the context's space for kernels that need buffers (cuSPARSE
 * work areas, SpGEMM results); the library passes the ctx's allocator. */
typedef struct kernel_alloc {
    homg_status (*alloc)(size_t bytes, void **ptr, void *user); /* user last, as in homg_allocator */
    void (*free)(void *ptr, void *user);
    void *user;
} kernel_alloc;

/* First offending rows found by the CSR checks (INT32_MAX: none). */
typedef struct csr_report {
    int32_t row_ptr;   /* row_ptr[i] > row_ptr[i+1], or row_ptr[0] != 0, row_ptr[n] != nnz */
    int32_t column;    /* column out of range or not strictly increasing */
    int32_t nonfinite; /* NaN or Inf value */
    int32_t diagonal;  /* diagonal missing, zero or negative */
    int32_t symmetry;  /* pattern or value differs from the transpose */
} csr_report;

#define SPARSE_KERNELS(X)                                                                                     \
    /* Backend handles (cuSPARSE, cuSOLVER, a scratch area grown through `alloc`); */                         \
    /* the CPU backend keeps only the allocator. */                                                           \
    X(homg_status, sparse, handle_create, (kernel_exec * ex, const kernel_alloc *alloc, void **handle))       \
    X(void, sparse, handle_destroy, (kernel_exec * ex, void *handle))                                         \
    /* p[0..n) = value. */                                                                                    \
    X(homg_status, sparse, fill_i32, (kernel_exec * ex, int32_t * p, int32_t n, int32_t value))               \
    /* dst = (dst precision) src, n values. */                                                                \
    X(homg_status, sparse, convert,                                                                           \
      (kernel_exec * ex, const void *src, homg_precision sprec, void *dst, homg_precision dprec, size_t n))   \
    /* Exclusive prefix sum of n values; the total goes to *total (device). */                                \
    X(homg_status, sparse, scan_i32,                                                                          \
      (kernel_exec * ex, void *handle, const int32_t *in, int32_t *out, int32_t n, int32_t *total))           \
    /* Checks of a CSR whose values are double; each writes the first offending */                            \
    /* row into its field of the device report (atomic min; the caller fills the */                           \
    /* report with INT32_MAX first).  check_rows assumes check_row_ptr passed; */                             \
    /* check_symmetric compares A with T (its transpose; or another matrix, to */                             \
    /* compare patterns): same pattern and |a_k - t_k| <= rtol sqrt(a_ii a_jj); */                            \
    /* t == a: each a_ij against a_ji found by search (no transpose built). */                                \
    X(homg_status, sparse, check_row_ptr, (kernel_exec * ex, const csr_matrix *a, csr_report *report))        \
    X(homg_status, sparse, check_rows, (kernel_exec * ex, const csr_matrix *a, csr_report *report))           \
    X(homg_status, sparse, check_symmetric,                                                                   \
      (kernel_exec * ex, const csr_matrix *a, const csr_matrix *t, double rtol, csr_report *report))          \
    /* t = transpose(a): t's arrays are allocated by the caller (ncols+1, nnz, */                             \
    /* nnz) and t's sizes set; columns come out sorted. */                                                    \
    X(homg_status, sparse, transpose, (kernel_exec * ex, void *handle, const csr_matrix *a, csr_matrix *t))   \
    /* y = alpha A x + beta y in A's precision (vectors in the same precision; */                             \
    /* beta = 0: y is not read). */                                                                           \
    X(homg_status, sparse, spmv,                                                                              \
      (kernel_exec * ex, const csr_matrix *a, const void *x, void *y, double alpha, double beta))             \
    /* c = a * b (float): allocates c's arrays through the handle's allocator and */                          \
    /* keeps the symbolic phase in *plan for spgemm_values. */                                                \
    X(homg_status, sparse, spgemm,                                                                            \
      (kernel_exec * ex, void *handle, const csr_matrix *a, const csr_matrix *b, csr_matrix *c, void **plan)) \
    /* Recomputes c's values after a's or b's values changed (same patterns). */                              \
    X(homg_status, sparse, spgemm_values,                                                                     \
      (kernel_exec * ex, void *handle, void *plan, const csr_matrix *a, const csr_matrix *b, csr_matrix *c))  \
    X(void, sparse, spgemm_free, (kernel_exec * ex, void *handle, void *plan))                                \
    /* dinv[i] = 1 / a_ii of a double matrix (0 where the diagonal is missing). */                            \
    X(homg_status, sparse, inv_diag, (kernel_exec * ex, const csr_matrix *a, double *dinv))

typedef struct sparse_kernels {
    SPARSE_KERNELS(HOMG_KERNEL_MEMBER)
} sparse_kernels;
SPARSE_KERNELS(HOMG_KERNEL_CPU_PROTO)
#if HOMG_HAVE_CUDA
SPARSE_KERNELS(HOMG_KERNEL_CUDA_PROTO)
#endif

extern const sparse_kernels homg_cpu_sparse_kernels;
#if HOMG_HAVE_CUDA
extern const sparse_kernels homg_cuda_sparse_kernels;
#endif

#ifdef __cplusplus
}
#endif
#endif
