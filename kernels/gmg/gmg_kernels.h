/* gmg_kernels.h -- geometric multigrid on nested meshes: the backend table.
 *
 * Everything a GMG cycle does is a sparse product (seed 004): the residual,
 * the smoother's approximate inverse, the grid transfers.  This table adds what
 * the sparse table (sparse_kernels.h) lacks: the ELLPACK-R product (column-major,
 * T lanes per row: seed 004's ELLPACK-T), the batched SPAI set-up, and the few
 * vector updates of preconditioned Richardson.  Vectors are double.
 *
 * Implementations: kernels/gmg/gmg.c and gmg.cu.  Picked with HOMG_KERNELS(ex, gmg).
 */
#ifndef HOMG_GMG_KERNELS_H
#define HOMG_GMG_KERNELS_H

#include "sparse/sparse_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ELLPACK-R: entry k of row i at [k * nrows + i] (column-major), rows padded
 * to `width` with column 0 and value 0; rl[i] the true length of row i.
 * `lanes` (1, 2, 4, 8, 16 or 32) lanes share a row; lane t takes entries t,
 * t + lanes, ... and the lanes add their sums. */
typedef struct ell_matrix {
    int32_t nrows, ncols, width, lanes;
    int32_t *col; /* width * nrows */
    double *val;  /* width * nrows */
    int32_t *rl;  /* nrows */
} ell_matrix;

/* Rows longer than this get SPAI(0) instead of SPAI-1 (the per-row system
 * lives in registers and local memory). */
#define GMG_SPAI1_MAX_ROW 40

/* The CUDA kernel's split (gmg.cu): rows of up to GMG_SPAI1_SHORT entries run by
 * half-warps with small slots and their neighbour rows staged in shared memory
 * when these have GMG_SPAI1_STAGE entries in all (16 rows of 16; else merged from
 * global memory). */
#define GMG_SPAI1_SHORT 16
#define GMG_SPAI1_STAGE 256

/* SPAI-1 of several matrices in one launch (spai1_batch): each item as one
 * spai1 call. */
#define GMG_SPAI1_BATCH_MAX 8
typedef struct spai1_item {
    const csr_matrix *a;
    const double *w;
    csr_matrix *m;
    double *mt;
    int32_t *fallback;
    int32_t max_row;
} spai1_item;
typedef struct spai1_batch {
    int count;
    spai1_item item[GMG_SPAI1_BATCH_MAX];
} spai1_batch;

/* One product of ell_spmv_batch: y = alpha a x + beta y, then (dot set) *dot
 * += u . y as ell_spmv_dot. */
#define GMG_BATCH_MAX 8
/* Matrices per launch of csr_widths and csr_bandwidths (kernel parameters). */
#define GMG_CONVERT_MAX 16

typedef struct ell_batch_item {
    ell_matrix a;
    const double *x, *u;
    double *y, *dot;
    double alpha, beta;
} ell_batch_item;
typedef struct ell_batch {
    int count;
    ell_batch_item item[GMG_BATCH_MAX];
} ell_batch;

#define GMG_KERNELS(X)                                                                                                \
    /* y = alpha A x + beta y (beta = 0: y is not read). */                                                           \
    X(homg_status, gmg, ell_spmv,                                                                                     \
      (kernel_exec * ex, const ell_matrix *a, const double *x, double *y, double alpha, double beta))                 \
    /* y = alpha A x + beta y as ell_spmv, then *dot (device scalar, added to) += u . y */                            \
    /* (the new y; u must not alias y): the contraction check's product and moment */                                 \
    /* in one pass. */                                                                                                \
    X(homg_status, gmg, ell_spmv_dot,                                                                                 \
      (kernel_exec * ex, const ell_matrix *a, const double *x, double *y, double alpha, double beta, const double *u, \
       double *dot))                                                                                                  \
    /* The batch's products (independent: no item's y is another's x, u or y), each as */                             \
    /* ell_spmv or ell_spmv_dot (dot set), in one launch where their lanes agree: */                                  \
    /* several levels' small products cost one launch, not one each. */                                               \
    X(homg_status, gmg, ell_spmv_batch, (kernel_exec * ex, const ell_batch *b))                                       \
    /* r = b - A x, fused (the smoothers' and cycle's residual: one pass, no copy). */                                \
    X(homg_status, gmg, ell_residual,                                                                                 \
      (kernel_exec * ex, const ell_matrix *a, const double *b, const double *x, double *r))                           \
    X(homg_status, gmg, csr_residual,                                                                                 \
      (kernel_exec * ex, const csr_matrix *a, const double *b, const double *x, double *r))                           \
    /* sum[k] (device, overwritten) = sum of |i - j| over a[k]'s entries, k < n (the */                               \
    /* info's bandwidths): GMG_CONVERT_MAX matrices a launch, one zeroing for all. */                                 \
    X(homg_status, gmg, csr_bandwidths, (kernel_exec * ex, const csr_matrix *const *a, int n, uint64_t *sum))         \
    /* e's arrays (e->nrows = a's rows, e->width >= a's longest row, allocated) */                                    \
    /* filled from a on the backend: no host round trip (ell.h). */                                                   \
    X(homg_status, gmg, ell_from_csr, (kernel_exec * ex, const csr_matrix *a, ell_matrix *e))                         \
    /* The longest row (ELLPACK-R's width) of n matrices a[0..n) into width[0..n) */                                  \
    /* (device int32, overwritten): GMG_CONVERT_MAX matrices a launch (the set-up reads */                            \
    /* every level's A, P, R, M and M^T widths at once). */                                                           \
    X(homg_status, gmg, csr_widths, (kernel_exec * ex, const csr_matrix *const *a, int n, int32_t *width))            \
    /* Uniform refinement (refine.h), homg_mesh_refine's numbering: the edge keys */                                  \
    /* (min << 32 | max, nv (nv - 1) / 2 per element) of the mesh, sorted and made */                                 \
    /* unique in keys; *count (host) = their number.  keys and keys_alt hold */                                       \
    /* num_elements * nv (nv - 1) / 2 keys; temp: refine_temp_bytes.  expected < 0: */                                \
    /* synchronises to read the count.  expected >= 0 (the caller's prediction, <= the */                             \
    /* key count): no read, *count = expected, *found (exec's space, int32) = the true */                             \
    /* count, keys [found, expected) = the last edge (a short list: lookups of the */                                 \
    /* missing edges give index expected, so the caller keeps a spare fine node). */                                  \
    X(homg_status, gmg, refine_temp_bytes, (kernel_exec * ex, size_t num_keys, size_t * bytes))                       \
    X(homg_status, gmg, refine_edges,                                                                                 \
      (kernel_exec * ex, int dim, int32_t num_elements, const int32_t *elements, int32_t num_nodes, uint64_t *keys,   \
       uint64_t *keys_alt, void *temp, size_t temp_bytes, int32_t expected, int32_t *found, int32_t *count))          \
    /* Fine coordinates: the num_nodes coarse ones, then the num_edges midpoints. */                                  \
    X(homg_status, gmg, refine_nodes,                                                                                 \
      (kernel_exec * ex, int dim, int32_t num_nodes, const double *coarse, const uint64_t *edges, int32_t num_edges,  \
       double *fine))                                                                                                 \
    /* The children of every element (4 or 8 per element, in order), from the edges */                                \
    /* and the fine coordinates (the octahedron's diagonal and orientations); with */                                 \
    /* tags (else NULL), child_tags[child] = tags[its element]. */                                                    \
    X(homg_status, gmg, refine_elements,                                                                              \
      (kernel_exec * ex, int dim, int32_t num_elements, const int32_t *elements, int32_t num_nodes,                   \
       const uint64_t *edges, int32_t num_edges, const double *fine, int32_t *children, const int32_t *tags,          \
       int32_t *child_tags))                                                                                          \
    /* The children of num_facets boundary facets (refine_facet_children) and their */                                \
    /* tags; where a facet is not a face of any element, *bad (exec's space, int32, */                                \
    /* not zeroed here) = max(*bad, num_facets - the first such facet). */                                            \
    X(homg_status, gmg, refine_facets,                                                                                \
      (kernel_exec * ex, int dim, int32_t num_facets, const int32_t *facets, const int32_t *tags, int32_t num_nodes,  \
       const uint64_t *edges, int32_t num_edges, int32_t *children, int32_t *child_tags, int32_t *bad))               \
    /* markers[i] (num_nodes) = the largest positive tag of the facets through node i, */                             \
    /* else 0 (homg_mesh's node markers of a mesh with facets). */                                                    \
    X(homg_status, gmg, facet_markers,                                                                                \
      (kernel_exec * ex, int dim, int32_t num_facets, const int32_t *facets, const int32_t *tags, int32_t num_nodes,  \
       int32_t *markers))                                                                                             \
    /* P of a mesh refined from nc nodes with the ne sorted edges (prolong.h), masked */                              \
    /* by the Dirichlet rows (uint8 per row, fine and coarse): count[i] = row i's */                                  \
    /* entries; then, p->row_ptr filled (a scan of count) and col_idx/values */                                       \
    /* allocated, the entries. */                                                                                     \
    X(homg_status, gmg, prolong_count,                                                                                \
      (kernel_exec * ex, int32_t nc, const uint64_t *edges, int32_t ne, const uint8_t *fine_fixed,                    \
       const uint8_t *coarse_fixed, int32_t *count))                                                                  \
    X(homg_status, gmg, prolong_fill,                                                                                 \
      (kernel_exec * ex, int32_t nc, const uint64_t *edges, int32_t ne, const uint8_t *fine_fixed,                    \
       const uint8_t *coarse_fixed, csr_matrix *p))                                                                   \
    /* t = a^T for double CSR a (GMG's R = P^T), each row of t sorted by column (as */                                \
    /* the sparse table's transpose): count (a->ncols entries, zeroed by the caller) */                               \
    /* += each column's entries; then, t->row_ptr a scan of count, t's arrays */                                      \
    /* allocated and cursor (a->ncols, zeroed) as scratch, t's entries.  No sync. */                                  \
    X(homg_status, gmg, transpose_count, (kernel_exec * ex, const csr_matrix *a, int32_t *count))                     \
    X(homg_status, gmg, transpose_fill, (kernel_exec * ex, const csr_matrix *a, int32_t *cursor, csr_matrix *t))      \
    /* d_i = a_ii / sum_j a_ij^2 (SPAI(0): argmin ||I - D A||_F for symmetric A); 0 */                                \
    /* for an empty row.  jacobi != 0: d_i = 1 / a_ii instead. */                                                     \
    X(homg_status, gmg, diag_inverse, (kernel_exec * ex, const csr_matrix *a, int jacobi, double *d))                 \
    /* w_i = 1 / sqrt(|a_ii|) (1 for a zero diagonal). */                                                             \
    X(homg_status, gmg, spai_scale, (kernel_exec * ex, const csr_matrix *a, double *w))                               \
    /* SPAI-1 of symmetric double A: row i of m (m has A's pattern) minimises */                                      \
    /* ||A^T m_i - e_i||_2 over the pattern (normal equations, Cholesky in double); */                                \
    /* with w (not NULL) that of W A W, scaled back (spai.h).  Rows longer than */                                    \
    /* GMG_SPAI1_MAX_ROW or whose system is singular get SPAI(0) and are counted */                                   \
    /* in *fallback (device scalar, added to).  mt (else NULL): M^T's values on the */                                \
    /* same pattern, which must then be structurally symmetric with sorted rows (as */                                \
    /* transpose_sym's), written with the rows: mt[q] = m_ij where entry q is (j, i). */                              \
    /* max_row > 0: a's longest row (known to the caller): CUDA's long-row pass is left */                            \
    /* out where that is at most GMG_SPAI1_SHORT (its empty grid cost ~0.1 ms a level). */                            \
    X(homg_status, gmg, spai1,                                                                                        \
      (kernel_exec * ex, const csr_matrix *a, const double *w, csr_matrix *m, double *mt, int32_t *fallback,          \
       int32_t max_row))                                                                                              \
    /* spai1 of every item of b (count <= GMG_SPAI1_BATCH_MAX; the items' outputs */                                  \
    /* disjoint): on CUDA one launch, the short and the long rows of all items side */                                \
    /* by side; the same values as an item's own spai1 call, bit for bit. */                                          \
    X(homg_status, gmg, spai1_batch, (kernel_exec * ex, const spai1_batch *b))                                        \
    /* tv = the values of M^T on m's own pattern, for a pattern that is structurally */                               \
    /* symmetric with sorted rows (a FEM matrix's; SPAI-1's M has it): tv[p] = m_ji */                                \
    /* where entry p is (i, j) (mirror.h).  No transpose built, no scratch. */                                        \
    X(homg_status, gmg, transpose_sym, (kernel_exec * ex, const csr_matrix *m, double *tv))                           \
    /* out[i] = vals[k] for the last k with tags[k] == markers[i], else dflt (tagval.h; */                            \
    /* all arrays in the backend's space: the Dirichlet values without a host loop). */                               \
    X(homg_status, gmg, tag_values,                                                                                   \
      (kernel_exec * ex, int32_t n, const int32_t *markers, const int32_t *tags, const double *vals, int num_tags,    \
       double dflt, double *out))                                                                                     \
    /* x += omega d .* r */                                                                                           \
    X(homg_status, gmg, diag_update,                                                                                  \
      (kernel_exec * ex, int32_t n, double omega, const double *d, const double *r, double *x))                       \
    /* y += alpha x */                                                                                                \
    X(homg_status, gmg, axpy, (kernel_exec * ex, int32_t n, double alpha, const double *x, double *y))                \
    /* x_i = the power iterations' random start from seed s0 (lcg.h), in [-0.5, 0.5) */                               \
    X(homg_status, gmg, random_fill, (kernel_exec * ex, int32_t n, uint32_t s0, double *x))                           \
    /* *out = x . y (device scalar, overwritten) */                                                                   \
    X(homg_status, gmg, dot, (kernel_exec * ex, int32_t n, const double *x, const double *y, double *out))            \
    /* the n x n dense CSR pattern in the backend's space: row_ptr[i] = i n (i <= n), */                              \
    /* col_idx[k] = k mod n (the coarse inverse's: built where it lives, no upload) */                                \
    X(homg_status, gmg, dense_pattern, (kernel_exec * ex, int32_t n, int32_t * row_ptr, int32_t * col_idx))           \
    /* inv (n*n, ctx space) = A^-1 of symmetric double CSR A by Cholesky (coarse.c: plain, host; */                   \
    /* coarse.cu: cuSOLVER potrf/potrs with the sparse handle); *pivot (host) = the order of the */                   \
    /* first leading minor that is not positive definite (inv not written), or 0.  Synchronises. */                   \
    X(homg_status, gmg, dense_inverse, (kernel_exec * ex, void *handle, const csr_matrix *a, double *inv, int *pivot))

typedef struct gmg_kernels {
    GMG_KERNELS(HOMG_KERNEL_MEMBER)
} gmg_kernels;
GMG_KERNELS(HOMG_KERNEL_CPU_PROTO)
#if HOMG_HAVE_CUDA
GMG_KERNELS(HOMG_KERNEL_CUDA_PROTO)
#endif

extern const gmg_kernels homg_cpu_gmg_kernels;
#if HOMG_HAVE_CUDA
extern const gmg_kernels homg_cuda_gmg_kernels;
#endif

#ifdef __cplusplus
}
#endif
#endif
