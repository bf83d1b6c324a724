/* gmg_internal.h -- what the GMG files share: the hierarchy, its operators and
 * the set-up steps. */
#ifndef HOMG_GMG_INTERNAL_H
#define HOMG_GMG_INTERNAL_H

#include "gmg/gmg_kernels.h"
#include "sparse/sparse.h"

/* A matrix in the ctx's space in the format its level uses (CSR always kept:
 * set-up and checks read it; ELL added when the level runs ELL). */
typedef struct gmg_op {
    csr_matrix csr;
    ell_matrix ell;
    int use_ell;
} gmg_op;

typedef struct gmg_level {
    homg_mesh *mesh;      /* in the hierarchy's numbering (owned) */
    homg_host_csr host_a; /* host copy of A (set-up: Galerkin, SAINV, coarse solve) */
    uint8_t *fixed;       /* host: 1 for Dirichlet rows (unit rows), per row (host P's masking) */
    uint8_t *dfixed;      /* the same in the ctx's space (device P's masking) */
    uint64_t *edges;      /* ctx's space: the sorted edges of the next coarser mesh (its refinement's; */
    int32_t num_edges;    /* device P), freed once P is built */
    int dev_p;            /* P (and R) built on the backend from edges: their host nnz may be pending */
    gmg_op a;
    gmg_op p, r;  /* to this level from the next coarser one (none on the coarsest) */
    gmg_op m, mt; /* SPAI1: M and M^T; SAINV: W and W^T with M = W W^T */
    double *d;    /* JACOBI, SPAI0 (or a SPAI-1 level that fell back): the diagonal of M;
                     SPAI1: the Jacobi scaling while M is built */
    int diag;     /* non-zero: M is diag(d) */
    double omega, lambda_max;
    double *b, *x, *t, *z, *s; /* cycle vectors (s: SAINV's intermediate) */
    int32_t rows;
    int32_t max_row; /* A's longest row where homg_fem said (its partition), else 0 */
} gmg_level;

/* arena.c: the hierarchy's small allocations cut from a few chunks. */
#define GMG_ARENA_MAX_CHUNKS 64
typedef struct gmg_arena_chunk {
    char *base;
    size_t size, used, last; /* last: the newest block's offset (its free gives it back) */
} gmg_arena_chunk;
#define GMG_ARENA_MAX_LARGE 64 /* large blocks whose size is known (live or kept) */
typedef struct gmg_arena_large {
    void *p;
    size_t size;
    int kept; /* freed, kept for a later large request until the arena goes off */
} gmg_arena_large;
typedef struct gmg_arena {
    homg_ctx *ctx;
    homg_allocator prev; /* the ctx's allocator while the arena is not on */
    int enabled, active, count, nlarge;
    long cut, passed, reused; /* allocations cut from chunks, passed on to prev, large ones reused */
    size_t large_min;         /* requests of this many bytes or more are large (GMG_ARENA_LARGE) */
    gmg_arena_chunk chunk[GMG_ARENA_MAX_CHUNKS];
    gmg_arena_large large[GMG_ARENA_MAX_LARGE];
} gmg_arena;

/* Set-up phases timed for bench_gmg (host clock; with HOMG_GMG_TRACE=1 in the environment the backend
 * is synchronised at each mark, so device work is charged to the phase that
 * queued it; without, a phase is the time its launches took to queue). */
enum {
    GMG_T_REFINE,   /* refinement (and the host P where the device one is not used) */
    GMG_T_NUMBER,   /* numbering, renumbered meshes and P's (host) */
    GMG_T_FEM,      /* homg_fem create + assemble per level (backend) */
    GMG_T_HOSTCOPY, /* host copies of A, Dirichlet masks, rhs */
    GMG_T_TRANSFER, /* P (backend, from the edges; or host, masked and uploaded), R = P^T, Galerkin (host) */
    GMG_T_UPLOAD,   /* A uploaded, cycle vectors */
    GMG_T_SMOOTHER, /* M: diagonal, SPAI-1 rows (backend), SAINV (host) */
    GMG_T_OMEGA,    /* power iterations, SPAI-1 contraction checks */
    GMG_T_COARSE,   /* coarsest level's solver */
    GMG_T_FORMAT,   /* ELLPACK-R conversion (and timing when asked), per level before omega */
    GMG_T_COUNT
};
extern const char *const homg__gmg_phase_names[GMG_T_COUNT];
/* Parts of GMG_T_REFINE (host clock; each read-back synchronises): the edges
 * sorted on the backend and read back, the fine nodes and children made there
 * and read back, the host's part of the refined mesh (tags, facets, markers),
 * P from the edges, the device arrays handed to the refined mesh. */
enum { GMG_R_EDGES, GMG_R_FILL, GMG_R_HOST, GMG_R_P, GMG_R_ADOPT, GMG_R_COUNT };
/* Parts of GMG_T_SMOOTHER and GMG_T_OMEGA (host clock, synchronised): the
 * SPAI-1 rows (scaling, the batched rows, the fallback count read), M^T; the
 * power iterations for omega, SPAI-1's contraction checks. */
enum { GMG_S_ROWS, GMG_S_TRANSPOSE, GMG_S_ESTIMATE, GMG_S_CONTRACTION, GMG_S_COUNT };
/* Parts of GMG_T_FEM (HOMG_GMG_TRACE only, synchronised): the level's coefficient
 * arrays (host, uploaded), homg_fem_assemble. */
enum { GMG_F_COEFFS, GMG_F_ASSEMBLE, GMG_F_COUNT };
/* Synchronises (HOMG_GMG_TRACE), charges now - since to phase, returns now (ms). */
double homg__gmg_mark(homg_gmg *g, int phase, double since);
double homg__gmg_now_ms(void);

struct homg_gmg {
    homg_ctx *ctx;
    int trace;        /* HOMG_GMG_TRACE=1 at create: the phase marks synchronise */
    int lanes;        /* streams the smoother set-up runs its levels on (smoother.c), 1 outside it */
    int refined;      /* the levels are uniform refinements of one coarse mesh (homg_gmg_create, not _nested) */
    int coarse_ready; /* the coarsest level's solver set up (early: beside the Ritz solves, smoother.c) */
    /* op.c: every level's A, P, R, M, M^T ELLPACK-R width, read at once by the
     * first format choice (0: not read, or no such op then) */
    int32_t ell_width[HOMG_GMG_MAX_LEVELS][5];
    int ell_widths_read;
    /* the device-built P_l's and R_l's entry counts (host nnz: the allocation's
     * bound until then) not read yet: read with the widths (op.c) or by
     * homg__gmg_transfer_counts, before any use of them */
    int pnnz_pending;
    double phase_ms[GMG_T_COUNT];
    double fem_pattern_ms, fem_prepare_ms; /* parts of GMG_T_FEM: homg_fem_info's, summed over levels */
    double fem_create_ms;                  /* homg_fem_create's wall time (pattern and preparation included) */
    /* per level: homg_fem_create, the whole FEM phase (traced) */
    double fem_level_ms[HOMG_GMG_MAX_LEVELS][2];
    double refine_ms[GMG_R_COUNT];        /* parts of GMG_T_REFINE */
    double smoother_part_ms[GMG_S_COUNT]; /* parts of GMG_T_SMOOTHER and GMG_T_OMEGA */
    double fem_part_ms[GMG_F_COUNT];      /* parts of GMG_T_FEM (traced) */
    double rho[HOMG_GMG_MAX_LEVELS];      /* SPAI-1: the first contraction check's A-norm estimates (level 0:
                                             a coarser level's where it took that, smoother.c levels_from_coarser) */
    homg_gmg_desc desc;
    void *handle; /* sparse kernels' handle */
    int nlevels;
    gmg_level lv[HOMG_GMG_MAX_LEVELS];
    double *rhs;        /* finest right-hand side */
    double *scalar;     /* device scalars for dots (GMG_MOMENTS a level) */
    int32_t *count;     /* device counters: GMG_COUNT_WIDTH + k ELL widths of a level's ops, GMG_COUNT_FALLBACK + l
                           SPAI-1 fallback rows of level l, GMG_COUNT_PNNZ + l P_l's entries
                           (each kind read together, not one read each) */
    double *coarse_inv; /* CHOLESKY: unused placeholder (the inverse lives in coarse_op) */
    gmg_op coarse_op;   /* CHOLESKY: the dense inverse as a CSR op */
    homg_amg *amg;      /* AMG coarse solver */
    double *res, *cor;  /* homg_gmg_solve: residual and correction on the finest level */
    homg_gmg_info info;
    gmg_arena arena;
};

/* arena.c: wanted (CUDA, or HOMG_GMG_ARENA=1; never with HOMG_GMG_ARENA=0);
 * on / off swap the ctx's allocator (no-ops unless arena.enabled); release
 * turns it off and frees the chunks (after every block is freed). */
int homg__gmg_arena_wanted(const homg_gmg *g);
void homg__gmg_arena_on(homg_gmg *g);
void homg__gmg_arena_off(homg_gmg *g);
void homg__gmg_arena_release(homg_gmg *g);

/* SPAI-1's contraction check (smoother.c): sweep pairs, moments a level;
 * ritz.c: the largest Ritz value from the moments mu[0 .. 2m). */
#define GMG_RITZ_STEPS     12
#define GMG_RITZ_MAX_STEPS 12
#define GMG_MOMENTS        (2 * GMG_RITZ_MAX_STEPS)
double homg__gmg_ritz_max(const double *mu, int m);

enum {
    GMG_COUNT_WIDTH = 0,
    GMG_COUNT_FALLBACK = 8,
    GMG_COUNT_PNNZ = 8 + HOMG_GMG_MAX_LEVELS, /* P_l's entry count (device_prolongation) */
    GMG_COUNTS = 8 + 2 * HOMG_GMG_MAX_LEVELS
};

#define GMG_SK(g) HOMG_KERNELS(&(g)->ctx->ex, sparse)
#define GMG_GK(g) HOMG_KERNELS(&(g)->ctx->ex, gmg)

/* hierarchy.c: meshes refined from the coarse one (native numbering, finest
 * first: meshes[0] finest, meshes[nl-1] = a copy of the coarse mesh) and the
 * prolongations P_l (host, n_l x n_{l+1}) from the coarse P1 basis. */
homg_status homg__gmg_refine(homg_ctx *ctx, homg_mesh *coarse, int nl, homg_mesh **meshes, homg_host_csr *p,
                             double *ms /* GMG_R_COUNT parts added, or NULL */);
/* The same with p NULL, each level's sorted edges (of its parent) kept in the
 * ctx's space instead: edges[l], count[l] for l < nl - 1 (the caller frees).
 * The refined meshes' coordinates, elements and element tags are in the ctx's
 * space only (their ctx_* arrays; homg__mesh_to_host copies them). */
homg_status homg__gmg_refine_device(homg_ctx *ctx, homg_mesh *coarse, int nl, homg_mesh **meshes, uint64_t **edges,
                                    int32_t *count, double *ms);
homg_status homg__gmg_prolongation(homg_ctx *ctx, const homg_mesh *fine, const homg_mesh *coarse, homg_host_csr *p);
/* The same for fine = homg_mesh_refine(coarse), by the refinement's rule (parent
 * vertex or parent edge; no point location): _edges from the coarse mesh's
 * sorted edges (homg__mesh_refine_edges), what homg__gmg_refine does when p is
 * not NULL. */
homg_status homg__gmg_prolongation_edges(homg_ctx *ctx, int32_t nc, const uint64_t *edges, size_t ne, homg_host_csr *p);
homg_status homg__gmg_prolongation_refined(homg_ctx *ctx, const homg_mesh *fine, const homg_mesh *coarse,
                                           homg_host_csr *p);
/* The same for meshes nested in any numbering: each fine node located in a
 * coarse element through a bucket grid (not nested: INVALID_ARGUMENT). */
homg_status homg__gmg_prolongation_search(homg_ctx *ctx, const homg_mesh *fine, const homg_mesh *coarse,
                                          homg_host_csr *p);

/* numbering.c: order[new] = old for each level, and the meshes and P's renumbered.  With the
 * AS_READ numbering, levels below first_as_read get no order (NULL): the caller uses none there
 * (a refined hierarchy keeps its finer meshes as they are; s11-gmg15: their identity arrays,
 * 1.3 MB for the 65^3 cube, were written and freed in every create). */
homg_status homg__gmg_numbering(homg_ctx *ctx, const homg_gmg_desc *d, int nl, homg_mesh **meshes, int32_t **order,
                                int first_as_read);
homg_status homg__gmg_renumber_mesh(homg_ctx *ctx, const homg_mesh *m, const int32_t *order, homg_mesh **out);
homg_status homg__gmg_renumber_csr(homg_ctx *ctx, homg_host_csr *a, const int32_t *row_order, const int32_t *col_order);

/* host_csr.c: small host CSR helpers (transpose, product, masks). */
homg_status homg__gmg_host_transpose(homg_ctx *ctx, const homg_host_csr *a, homg_host_csr *t);
homg_status homg__gmg_host_product(homg_ctx *ctx, const homg_host_csr *a, const homg_host_csr *b, homg_host_csr *c);
/* Drops P's entries in fixed fine rows except injections into fixed coarse
 * columns, and its entries in fixed coarse columns from free rows. */
homg_status homg__gmg_mask_prolongation(homg_ctx *ctx, homg_host_csr *p, const uint8_t *fine_fixed,
                                        const uint8_t *coarse_fixed);

/* op.c: upload, the product in the op's format, format choice by measurement. */
homg_status homg__gmg_op_upload(homg_gmg *g, const homg_host_csr *h, gmg_op *op, const char *what);
homg_status homg__gmg_op_from_csr(homg_gmg *g, gmg_op *op); /* builds ELL from op->csr (host pass) */
void homg__gmg_op_free(homg_gmg *g, gmg_op *op);
homg_status homg__gmg_op_apply(homg_gmg *g, const gmg_op *op, const double *x, double *y, double alpha, double beta);
/* r = b - A x in one pass (r must not alias x). */
homg_status homg__gmg_op_residual(homg_gmg *g, const gmg_op *op, const double *b, const double *x, double *r);
size_t homg__gmg_op_bytes(const gmg_op *op);
homg_status homg__gmg_choose_format(homg_gmg *g, int l);

/* smoother.c: every level's M, format and omega but the coarsest's (levels
 * side by side on CUDA lanes with HOMG_GMG_LANES=1); one sweep
 * x += omega M (b - A x). */
homg_status homg__gmg_smoothers_setup(homg_gmg *g);
/* The pending P and R entry counts (g->pnnz_pending) from host[l] (read by the
 * caller), or read here (a wait) where host is NULL; nothing when none is pending. */
homg_status homg__gmg_transfer_counts(homg_gmg *g, const int32_t *host);
/* SPAI-1's fallback rows (device counts fb[l] of the levels but the coarsest)
 * into the info, logged; _read reads them itself (a wait). */
void homg__gmg_fallback_rows(homg_gmg *g, const int32_t *fb);
homg_status homg__gmg_fallback_read(homg_gmg *g);
homg_status homg__gmg_smooth(homg_gmg *g, int l, const double *b, double *x, int transposed);
/* sainv.c: W with M = W W^T (host), pivots replaced counted in *replaced. */
homg_status homg__gmg_sainv(homg_ctx *ctx, const homg_host_csr *a, double drop, homg_host_csr *w, int32_t *replaced);

/* coarse.c: the coarsest level's solver. */
homg_status homg__gmg_coarse_setup(homg_gmg *g);
homg_status homg__gmg_coarse_solve(homg_gmg *g, const double *b, double *x);
/* Dense Cholesky inverse of a small SPD host matrix into inv (n*n); NUMERIC on a pivot <= 0. */
homg_status homg__gmg_dense_inverse(homg_ctx *ctx, const homg_host_csr *a, double *inv);

/* cycle.c */
homg_status homg__gmg_cycle(homg_gmg *g, int l, homg_gmg_cycle type, const double *b, double *x, int zero);
homg_status homg__gmg_apply_raw(homg_gmg *g, const double *r, double *z);
const csr_matrix *homg__gmg_matrix(const homg_gmg *g);
homg_ctx *homg__gmg_ctx(const homg_gmg *g);

#endif
