/* fem_kernels.h -- the FEM assembly table (pattern, numeric passes, Dirichlet). */
#ifndef HOMG_FEM_KERNELS_H
#define HOMG_FEM_KERNELS_H

#include "core/sort.h"
#include "kernels.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the element routine reads: the mesh and the coefficients, in the
 * exec's memory space (NULL arrays: not used). */
typedef struct fem_problem {
    int dim;
    int32_t num_nodes, num_elements;
    const double *coords;    /* num_nodes * dim */
    const int32_t *elements; /* num_elements * (dim + 1) */
    /* The unknowns: nd per element (dim + 1 for P1, where dofs = elements; 6 or
     * 10 for P2: the vertices, then the edges in fem_p2_edge order, numbered
     * num_nodes + the edge's index among the mesh's sorted edges) */
    int nd;
    int32_t num_dofs;
    const int32_t *dofs;
    double sigma; /* where sigma_elem and sigma_tensor are NULL */
    const double *sigma_elem;
    const double *sigma_tensor; /* dim*(dim+1)/2 per element: xx xy yy | xx xy xz yy yz zz */
    double lambda, f;
    const double *lambda_elem;     /* per element, replaces lambda when set */
    const double *f_elem, *f_node; /* f_node: one value per unknown (num_dofs) */
} fem_problem;

/* One run of 32-bit words copied with a constant added to each (unsigned,
 * wrapping: add = -k subtracts): dst[i] = src[i] + add, i < n.  With add = 0
 * a plain copy (doubles as word pairs); a sorted edge key (a << 32 | b) read as
 * two words takes the same node offset on both halves.  src may be dst. */
typedef struct fem_words {
    const uint32_t *src;
    uint32_t *dst;
    int64_t n;
    uint32_t add;
} fem_words;
#define FEM_WORDS_MAX 48 /* runs in one gather_words call (a kernel argument on CUDA) */
typedef struct fem_words_list {
    fem_words run[FEM_WORDS_MAX];
    int count;
} fem_words_list;

/* The pattern's key buffers (pattern_keys): room for every element node pair
 * and diagonal, which the full sort needs (always enough) ... */
static inline size_t fem_pattern_full_keys(const fem_problem *p)
{
    return (size_t)p->num_elements * p->nd * p->nd + (size_t)p->num_dofs;
}

/* ... and the first size asked for: what CUDA's pair sort needs, pairs a < b
 * and 3 U + rows for U unique pairs, on a usual mesh (U ~ 1.2 per tetrahedron
 * of 6 pairs, ~1.5 per triangle of 3): for the 65^3 cube 2 x 77 MB instead
 * of 2 x 203 MB.  Other element types, or a mesh where that is short, take
 * the full size (pattern_keys says so by *nnz = 0). */
static inline size_t fem_pattern_first_keys(const fem_problem *p)
{
    size_t pairs = (size_t)p->num_elements * (p->nd * (p->nd - 1) / 2), full = fem_pattern_full_keys(p);
    size_t first = p->nd == 4 ? pairs + (size_t)p->num_dofs : p->nd == 3 ? 2 * pairs + (size_t)p->num_dofs : full;
    return first < full ? first : full;
}

/* Neumann data: outward flux sigma du/dn per facet tag (passed by value to kernels). */
#define FEM_MAX_NEUMANN 64
typedef struct fem_flux_table {
    int n;
    int32_t tag[FEM_MAX_NEUMANN];
    double flux[FEM_MAX_NEUMANN];
} fem_flux_table;

/* The CSR system being assembled (exec's memory space). */
typedef struct fem_system {
    int32_t num_rows, nnz;
    const int32_t *row_ptr, *col_idx;
    void *values, *rhs; /* in `precision` */
    homg_precision precision;
} fem_system;

/* The patch scheme's data (seed 000): nodes partitioned into patches, each
 * element belongs to the patch of its first node. */
typedef struct fem_patches {
    int32_t num_patches;
    int32_t max_nnz, max_nodes; /* largest patch: matrix entries of its rows, nodes */
    const int32_t *node_ptr;    /* num_patches + 1: the patch's nodes are nodes[node_ptr[p] ..] */
    const int32_t *nodes;       /* num_nodes */
    const int32_t *row_off;     /* num_nodes + num_patches: patch p's local row offsets into its
                                    entries (nodes + 1 of them) start at node_ptr[p] + p */
    const int32_t *entry_ptr;   /* num_patches + 1 */
    const int32_t *entry_src;   /* nnz: the CSR index of each patch entry */
    const int32_t *node_patch;  /* num_nodes: owning patch */
    const int32_t *node_local;  /* num_nodes: index within the owning patch */
    const int32_t *elem_ptr;    /* num_patches + 1 */
    const int32_t *elems;       /* num_elements, grouped by patch */
    void *values_B, *rhs_B;     /* nnz and num_rows: patch-boundary contributions */
    void *scratch;              /* CPU: per-thread stand-in for shared memory */
    size_t scratch_bytes;
} fem_patches;

/* The PATCH scheme's partition being built on the backend (partition.h): the
 * arrays of fem_patches, sized for the worst case (one patch per node):
 * node_ptr, entry_ptr, elem_ptr num_nodes + 1, row_off 2 num_nodes, nodes,
 * node_patch, node_local num_nodes, entry_src nnz, elems num_elements; the
 * counts come back to the host. */
typedef struct fem_partition {
    int32_t *node_ptr, *nodes, *row_off, *entry_ptr, *entry_src, *node_patch, *node_local, *elem_ptr, *elems;
    int32_t num_patches, max_nnz, max_nodes, max_row; /* out (host) */
    int64_t outside;                                  /* out: element nodes held by another patch */
} fem_partition;

/* Rules of check_values (fem_check.h): each entry finite, finite and >= 0, finite
 * and > 0; or per element a symmetric positive semi-definite 2D / 3D tensor. */
enum fem_check_rule {
    FEM_CHECK_FINITE = 0,
    FEM_CHECK_NONNEGATIVE,
    FEM_CHECK_POSITIVE,
    FEM_CHECK_TENSOR2,
    FEM_CHECK_TENSOR3
};
#define FEM_CHECK_NONE UINT64_MAX /* check_values' answer when every item passes */

#define FEM_KERNELS(X)                                                                                                \
    /* Pattern: sorted unique keys row << shift | col of all element node pairs and */                                \
    /* every diagonal, left in keys[0 .. *nnz) (*nnz is read back to the host); keys and */                           \
    /* keys_alt hold cap keys each: *nnz = 0 (HOMG_OK) where that is too short for the */                             \
    /* backend's way, then ask again with cap = fem_pattern_full_keys (always enough). */                             \
    X(homg_status, fem, pattern_temp_bytes, (kernel_exec * ex, size_t num_keys, int bits, size_t *bytes))             \
    X(homg_status, fem, pattern_keys,                                                                                 \
      (kernel_exec * ex, const fem_problem *p, int shift, uint64_t *keys, uint64_t *keys_alt, size_t cap, void *temp, \
       size_t temp_bytes, int32_t *nnz))                                                                              \
    /* The same keys of a P1 mesh from its sorted unique edges (a << 32 | b, a < b: the */                            \
    /* refinement's), 2 num_edges + num_rows of them, with no sort of element pairs and */                            \
    /* nothing read back; keys and keys_alt hold 3 num_edges + num_rows keys, temp as */                              \
    /* pattern_temp_bytes for them. */                                                                                \
    X(homg_status, fem, pattern_from_edges,                                                                           \
      (kernel_exec * ex, const uint64_t *edges, int32_t num_edges, int shift, int32_t num_rows, uint64_t *keys,       \
       uint64_t *keys_alt, void *temp, size_t temp_bytes))                                                            \
    /* The same keys of a P1 mesh refined from a coarse one of nc nodes whose sorted unique edges */                  \
    /* (ne; ctx space) numbered its midpoints (pattern.h: fem_pattern_refined_element): the edges' */                 \
    /* halves and each coarse element's midpoint pairs sorted and made unique (3 or 13 a coarse */                    \
    /* element and 2 an edge: ~1/3 of the element pairs), one read; *nnz = 0 (HOMG_OK) where the */                   \
    /* mesh is not so refined or cap is short (then pattern_keys).  keys, keys_alt, temp as there. */                 \
    X(homg_status, fem, pattern_refined,                                                                              \
      (kernel_exec * ex, const fem_problem *p, const uint64_t *edges, int32_t ne, int32_t nc, int shift,              \
       uint64_t *keys, uint64_t *keys_alt, size_t cap, void *temp, size_t temp_bytes, int32_t *nnz))                  \
    /* row_ptr (num_rows + 1) and col_idx (nnz) from the sorted keys. */                                              \
    X(homg_status, fem, pattern_csr,                                                                                  \
      (kernel_exec * ex, const uint64_t *keys, int32_t nnz, int shift, int32_t num_rows, int32_t *row_ptr,            \
       int32_t *col_idx))                                                                                             \
    /* Seed 002's Algorithm 1, one thread (CPU only: UNSUPPORTED on CUDA).  Values and rhs zeroed before. */          \
    X(homg_status, fem, numeric_serial, (kernel_exec * ex, const fem_problem *p, const fem_system *s))                \
    /* Element colouring: colour c is elems[color_ptr[c] .. color_ptr[c+1]) (color_ptr on the host). */               \
    /* Values and rhs zeroed before. */                                                                               \
    X(homg_status, fem, numeric_color,                                                                                \
      (kernel_exec * ex, const fem_problem *p, const fem_system *s, const int32_t *elems, const int32_t *color_ptr,   \
       int32_t num_colors))                                                                                           \
    /* Patches: writes every value and rhs entry (no zeroing needed). */                                              \
    X(homg_status, fem, numeric_patch,                                                                                \
      (kernel_exec * ex, const fem_problem *p, const fem_system *s, const fem_patches *patches))                      \
    /* The patch partition (partition.h) from the pattern's row pointers (nnz entries): maps, */                      \
    /* a scan and a sort on the backend, queued; the counts (out's num_patches, max_*, outside) */                    \
    /* are read by partition_stats from the workspace's start (synchronises). */                                      \
    X(homg_status, fem, partition_temp_bytes,                                                                         \
      (kernel_exec * ex, int32_t num_nodes, int32_t num_elements, size_t * bytes))                                    \
    X(homg_status, fem, partition,                                                                                    \
      (kernel_exec * ex, const fem_problem *p, const int32_t *row_ptr, int32_t nnz, int32_t patch_nnz,                \
       fem_partition *out, void *temp, size_t temp_bytes))                                                            \
    X(homg_status, fem, partition_stats, (kernel_exec * ex, const void *temp, fem_partition *out))                    \
    /* The P1 Dirichlet mask (mask.h): 2 for a node in no element, 1 for a node of a facet (tag ftags) or */          \
    /* with a marker whose tag is in tags[0 .. num_tags) (exec's space), else 0; counts[0] = */                       \
    /* the 1s, counts[1] = the non-zeros (exec's space, queued).  row_ptr (or NULL): the P1 */                        \
    /* pattern's (every element node pair and diagonal), "in an element" read from it (mask.h). */                    \
    X(homg_status, fem, mask,                                                                                         \
      (kernel_exec * ex, const fem_problem *p, const int32_t *row_ptr, int32_t num_facets, const int32_t *facets,     \
       const int32_t *ftags, const int32_t *markers, const int32_t *tags, int num_tags, uint8_t *mask,                \
       int32_t *counts))                                                                                              \
    /* Per-thread scratch the patch pass needs (0 on CUDA, which uses shared memory). */                              \
    X(size_t, fem, patch_scratch_bytes,                                                                               \
      (kernel_exec * ex, int32_t max_nnz, int32_t max_nodes, homg_precision precision))                               \
    /* Neumann: rhs[v] += q |F| / dim for each node v of each facet F whose tag has flux q in t */                    \
    /* (facets: num_facets * dim nodes, exec's space; after the numeric pass, before Dirichlet). */                   \
    X(homg_status, fem, neumann,                                                                                      \
      (kernel_exec * ex, const fem_problem *p, const fem_system *s, int32_t num_facets, const int32_t *facets,        \
       const int32_t *facet_tags, const fem_flux_table *t))                                                           \
    /* *first (exec's space) = the smallest i < n whose item breaks `rule` (only items with mask[i] == 1 */           \
    /* when mask is set), or FEM_CHECK_NONE; */                                                                       \
    /* queued (the caller reads *first back once for all the arrays it checks). */                                    \
    X(homg_status, fem, check_values,                                                                                 \
      (kernel_exec * ex, const double *x, int64_t n, int rule, const uint8_t *mask, uint64_t *first))                 \
    /* Right-hand side only (rhs zeroed before; mask may be NULL): each element's load, less its */                   \
    /* matrix's Dirichlet columns times g, added to the rows of its unmasked unknowns (atomics). */                   \
    X(homg_status, fem, numeric_rhs,                                                                                  \
      (kernel_exec * ex, const fem_problem *p, const fem_system *s, const uint8_t *mask, double g,                    \
       const double *g_node))                                                                                         \
    /* Right-hand side only, after numeric_rhs and the Neumann load: masked rows' rhs = g (mask 1) or 0. */           \
    X(homg_status, fem, rhs_rows,                                                                                     \
      (kernel_exec * ex, const fem_system *s, const uint8_t *mask, double g, const double *g_node))                   \
    /* Dirichlet: mask 1 rows become unit rows with rhs g, mask 2 (no element) unit rows with */                      \
    /* rhs 0; other rows move their mask columns times g to the rhs and zero them. */                                 \
    X(homg_status, fem, dirichlet,                                                                                    \
      (kernel_exec * ex, const fem_system *s, const uint8_t *mask, double g, const double *g_node))                   \
    /* Every run of list (fem_words: copies with an offset added), queued, one launch on CUDA; */                     \
    /* the runs' destinations must not overlap another run's source. */                                               \
    X(homg_status, fem, gather_words, (kernel_exec * ex, const fem_words_list *list))

typedef struct fem_kernels {
    FEM_KERNELS(HOMG_KERNEL_MEMBER)
} fem_kernels;
FEM_KERNELS(HOMG_KERNEL_CPU_PROTO)
#if HOMG_HAVE_CUDA
FEM_KERNELS(HOMG_KERNEL_CUDA_PROTO)
#endif

extern const fem_kernels homg_cpu_fem_kernels;
#if HOMG_HAVE_CUDA
extern const fem_kernels homg_cuda_fem_kernels;
#endif

#ifdef __cplusplus
}
#endif
#endif
