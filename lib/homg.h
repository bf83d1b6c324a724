/* homg.h -- the one public header of homg.
 *
 * homg solves Poisson-type elliptic problems on the GPU fast enough for a frame
 * loop: structured power-of-two grids (high-occupancy multigrid and a fused
 * geometric multigrid), and P1 triangle/tetrahedron meshes (GPU assembly,
 * AMG-preconditioned CG).  Valid C99 and C++.
 *
 * Conventions (see README.md):
 *  - every option travels in a *_desc struct that the caller zero-initialises;
 *    a zero field means "the default"; *_desc_defaults() fills them in;
 *  - every call that can fail returns homg_status; homg_ctx_last_error() gives
 *    the message of the last failure on that context;
 *  - data pointers live in the context's memory space: device pointers for the
 *    CUDA backend, host pointers for the CPU backend (homg_copy_* move data);
 *  - the context adopts the caller's CUDA device, stream and allocator and never
 *    changes the calling thread's current device behind its back;
 *  - thread safety: different handles may be used on different threads; one
 *    handle (and the context it was made from) by one thread at a time.
 */
#ifndef HOMG_H
#define HOMG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HOMG_VERSION_MAJOR 0
#define HOMG_VERSION_MINOR 1
#define HOMG_VERSION_PATCH 0
#define HOMG_VERSION       ((HOMG_VERSION_MAJOR * 10000) + (HOMG_VERSION_MINOR * 100) + HOMG_VERSION_PATCH)

/* Runtime version, HOMG_VERSION of the library actually linked. */
int homg_version(void);
const char *homg_version_string(void);

/* ---------------------------------------------------------------- status */

typedef enum homg_status {
    HOMG_OK = 0,
    HOMG_ERROR_INVALID_ARGUMENT, /* a bad argument: NULL, wrong size, NaN input ... */
    HOMG_ERROR_OUT_OF_MEMORY,    /* host or device allocation failed, or size too large */
    HOMG_ERROR_UNSUPPORTED,      /* valid request this build or backend cannot do */
    HOMG_ERROR_NO_DEVICE,        /* CUDA backend asked for but no usable device */
    HOMG_ERROR_BACKEND,          /* a CUDA/library call failed; the device is still usable */
    HOMG_ERROR_DEVICE_LOST,      /* illegal address, launch failure ...: the device is unusable */
    HOMG_ERROR_IO,               /* a file could not be opened, read or written */
    HOMG_ERROR_PARSE,            /* a file is malformed (the message names the line) */
    HOMG_ERROR_NUMERIC,          /* breakdown: not SPD, zero pivot, NaN produced */
    HOMG_ERROR_NOT_CONVERGED     /* iteration limit reached before the tolerance */
} homg_status;

/* A short constant name of a status ("HOMG_ERROR_PARSE"). */
const char *homg_status_string(homg_status status);

/* --------------------------------------------------------------- context */

typedef struct homg_ctx homg_ctx;

typedef enum homg_backend {
    HOMG_BACKEND_AUTO = 0, /* CUDA when a device is present, CPU otherwise */
    HOMG_BACKEND_CPU,
    HOMG_BACKEND_CUDA
} homg_backend;

typedef enum homg_log_level {
    HOMG_LOG_DEFAULT = 0, /* in a desc: WARN */
    HOMG_LOG_ERROR,
    HOMG_LOG_WARN,
    HOMG_LOG_INFO,
    HOMG_LOG_DEBUG
} homg_log_level;

typedef void (*homg_log_fn)(homg_log_level level, const char *message, void *user);

/* Memory in the context's space: device memory for CUDA (the callback may call
 * cudaMalloc, cudaMallocAsync on the caller's pool, ...), host memory for CPU.
 * Both callbacks set, or neither.  Allocation happens only in create/setup
 * calls, never inside a solve, so a pool is safe with captured graphs.
 * Neither set: CUDA memory comes from a pool the ctx owns (see homg_alloc). */
typedef struct homg_allocator {
    void *(*alloc)(size_t bytes, void *user);
    void (*free)(void *ptr, void *user);
    void *user;
} homg_allocator;

typedef struct homg_ctx_desc {
    homg_backend backend; /* AUTO (default), CPU or CUDA */
    int device;           /* CUDA device ordinal (default 0) */
    int device_set;       /* non-zero: use `device` even when it is 0; zero: the
                                calling thread's current device */
    void *stream;         /* the caller's cudaStream_t; NULL = the legacy default stream; it must
                             outlive the ctx and its objects (the default pool frees on it) */
    homg_allocator allocator;
    homg_log_fn log; /* diagnostics; NULL = silent */
    void *log_user;
    homg_log_level log_level; /* most verbose level passed to `log` (default WARN) */
    int cpu_threads;          /* CPU backend OpenMP threads (0 = OpenMP's default) */
} homg_ctx_desc;

homg_ctx_desc homg_ctx_desc_defaults(const homg_ctx_desc *desc);
homg_status homg_ctx_create(const homg_ctx_desc *desc, homg_ctx **out);
void homg_ctx_destroy(homg_ctx *ctx);

/* The backend actually chosen (never AUTO). */
homg_backend homg_ctx_backend(const homg_ctx *ctx);
/* "cpu" or "cuda:0 NVIDIA H100 80GB HBM3" and the like. */
const char *homg_ctx_device_name(const homg_ctx *ctx);
/* Message of the last failure on this context ("" if none).  Calls that can fail clear it
 * when they start; queries (homg_grid_history, ...) leave it alone. */
const char *homg_ctx_last_error(const homg_ctx *ctx);
/* Status of a context creation that failed (no context to ask): the message is
 * written to buf. */
homg_status homg_ctx_create_msg(const homg_ctx_desc *desc, homg_ctx **out, char *buf, size_t buflen);
/* Waits until all work the context queued on its stream is done. */
homg_status homg_ctx_synchronize(homg_ctx *ctx);
/* Non-zero where a CUDA device is usable from this process (independent of any context). */
int homg_cuda_available(void);

/* ------------------------------------------------- memory in the ctx's space */

/* Memory from the ctx's allocator: the caller's homg_allocator, else (CUDA) a
 * stream-ordered pool the ctx owns (cudaMallocFromPoolAsync / cudaFreeAsync on
 * the ctx's stream; HOMG_CUDA_POOL=0: cudaMalloc / cudaFree).  With the pool the
 * memory is ready in the ctx stream's order, and homg_free frees it in that
 * order: work on another stream must wait for the ctx's stream (an event)
 * before it uses the memory, and be waited for by it before homg_free. */
homg_status homg_alloc(homg_ctx *ctx, size_t bytes, void **ptr);
void homg_free(homg_ctx *ctx, void *ptr);
/* Blocking copies between host memory and the context's space (ordered on its stream). */
homg_status homg_copy_from_host(homg_ctx *ctx, void *dst, const void *host_src, size_t bytes);
homg_status homg_copy_to_host(homg_ctx *ctx, void *host_dst, const void *src, size_t bytes);

typedef enum homg_precision {
    HOMG_FLOAT32 = 0, /* default */
    HOMG_FLOAT64,
    /* IEEE binary16 storage, float-or-better arithmetic, sums in double: structured grids only
     * (homg_grid_desc.precision), for frame loops where an error of ~1e-3 is enough.  u, f, u_ref,
     * the face data and every level and work vector are half; the solve always runs the general
     * multigrid (CG preconditioned by one V-cycle, lib/grid/general.c), whatever the box shape.
     * UNSUPPORTED (status and message naming the argument): method HOMG, FFT and FMG's fused 2D box
     * kernels (desc.method), per-cell sigma_cell / lambda_cell (homg_grid_operator).  Elsewhere
     * (matrices, meshes, FEM, images) not a valid precision.  Judge it by the error (u_ref or tol = 0):
     * the relative residual of a half u floors near 1e-2.  H100 (bench/results/h100_half.md): a cycle
     * is 1.25-1.3x cheaper than float32's from 2048^2 up, but reduces the error 5-10x less, so to
     * error 1e-3 float32 is faster, and a 1024^2 pressure frame floors at 1.8e-3 in float16. */
    HOMG_FLOAT16
} homg_precision;

/* ================================================================ structured grids
 *
 * Problem: -div(sigma grad u) + lambda u = f on an nx x ny rectangle or an
 * nx x ny x nz box of cells of width h, cell-centred: cell c = (i,j,k) at
 * ((i+1/2)h, (j+1/2)h, (k+1/2)h), stored i fastest (index i + nx*(j + ny*k)).
 * 5-point (2D) or 7-point (3D) stencil:
 *   (A u)_c = sum over neighbours n of s_cn (u_c - u_n) / h^2 + lambda_c u_c,
 * with the face coefficient s_cn = 2 s_c s_n / (s_c + s_n) (harmonic mean).
 * A SOLID neighbour contributes no term (zero-flux wall); a FIXED cell is an
 * ordinary neighbour whose value is known (read from u) and not an unknown.
 * A neighbour beyond a side: Dirichlet value g: ghost 2g - u_c with s = s_c;
 * Neumann outward flux q = sigma du/dn: q/h added to the right-hand side;
 * periodic: the cell on the opposite side.  Any sizes >= 1.
 * Singular islands (connected ACTIVE cells with lambda = 0 touching no FIXED
 * cell and no Dirichlet side) are solved in the compatible subspace: the
 * right-hand side is projected to mean zero per island, the solution has mean
 * zero per island.  lib/grid/grid.c documents the methods.
 */

typedef struct homg_grid homg_grid;

typedef enum homg_method {
    HOMG_METHOD_DEFAULT = 0, /* FFT where it applies (constant coefficients, no flags), else
                                multigrid (README has the measurements) */
    HOMG_METHOD_HOMG,        /* seed 003: whole-grid relax+interpolate, MFMG, restarts (power-of-two
                                2D Dirichlet boxes with constant coefficients only: else UNSUPPORTED) */
    HOMG_METHOD_VCYCLE,      /* V-cycles (textbook on power-of-two Dirichlet boxes; elsewhere CG
                                preconditioned by one V-cycle, one CG step per "cycle") */
    HOMG_METHOD_FCYCLE,      /* F-cycles */
    HOMG_METHOD_FMG,         /* full multigrid, then V-cycles, with fused whole-level kernels */
    HOMG_METHOD_FFT          /* direct solve by fast transforms (constant coefficients, no flags) */
} homg_method;

typedef enum homg_bc_kind { HOMG_BC_DIRICHLET = 0, HOMG_BC_NEUMANN = 1, HOMG_BC_PERIODIC = 2 } homg_bc_kind;
/* Sides: x-, x+, y-, y+, z-, z+. */
enum { HOMG_SIDE_W = 0, HOMG_SIDE_E, HOMG_SIDE_S, HOMG_SIDE_N, HOMG_SIDE_B, HOMG_SIDE_T };
/* Per-cell flags (one unsigned char per cell). */
enum { HOMG_CELL_ACTIVE = 0, HOMG_CELL_FIXED = 1, HOMG_CELL_SOLID = 2 };

typedef struct homg_grid_desc {
    int nx, ny, nz;           /* cells per axis, each >= 1 (ny = 0: ny = nx; nz = 0 or 1: 2D) */
    double h;                 /* cell width (default 1/max(nx,ny,nz)) */
    homg_precision precision; /* storage of u, f, faces, sigma/lambda arrays (default float32) */
    homg_method method;       /* DEFAULT picks FFT where it applies, else multigrid */
    homg_bc_kind bc[6];       /* W,E,S,N,B,T (default all Dirichlet); periodic must be paired */
    int nrhs;                 /* right-hand sides per solve (default 1) */
    int maxi;                 /* HOMG: MaxI, iterations on the finest levels (default 4) */
    double omega;             /* HOMG: damped-Jacobi weight (default 0.8) */
    int pre, post;            /* multigrid smoothing sweeps (default 2, 2) */
    int two_pass;             /* general multigrid, VCYCLE: coarse levels 1..two_pass solve their
                                 correction by two damped V passes (a W-cycle there); 0 = automatic
                                 (level 2 alone where set_operator's check finds sigma_cell jumping
                                 10x or more against its first cell, and the grid has 4 levels or
                                 more; where it finds SOLID cells, the first level of at most
                                 16384 cells alone; with skip_check the last check's finding, on
                                 if none),
                                 -1 = none */
} homg_grid_desc;

homg_grid_desc homg_grid_desc_defaults(const homg_grid_desc *desc);
homg_status homg_grid_create(homg_ctx *ctx, const homg_grid_desc *desc, homg_grid **out);
void homg_grid_destroy(homg_grid *grid);
/* The desc with defaults resolved, as the grid uses it (method DEFAULT stays DEFAULT:
 * the choice depends on the operator; homg_solve_info.method says which ran). */
homg_grid_desc homg_grid_get_desc(const homg_grid *grid);

typedef struct homg_grid_operator {
    double sigma;               /* constant sigma where sigma_cell is NULL (default 1) */
    double lambda;              /* constant lambda where lambda_cell is NULL (default 0) */
    const void *sigma_cell;     /* NULL or nx*ny*nz values > 0, ctx space, grid precision */
    const void *lambda_cell;    /* NULL or nx*ny*nz values >= 0 */
    const unsigned char *flags; /* NULL (all active) or nx*ny*nz HOMG_CELL_* values, ctx space */
    int skip_check;             /* non-zero: do not scan arrays for bad values (no host sync) */
    int no_islands;             /* non-zero: the caller states that every connected set of active
                                   cells has lambda > 0 somewhere, a FIXED neighbour or a Dirichlet
                                   side, so the search for singular islands (host syncs) is skipped;
                                   a false statement leaves a singular problem unprojected */
} homg_grid_operator;

/* Sets the operator: the grid copies what it needs into its own arrays and rebuilds
 * the coarse levels on the device (no reallocation after the first call of a kind).
 * Default after create: sigma 1, lambda 0, all active.  A zero sigma in op means 1. */
homg_status homg_grid_set_operator(homg_grid *grid, const homg_grid_operator *op);

/* Per-side face data, ctx space, grid precision, NULL = zero: Dirichlet value or Neumann
 * outward flux sigma du/dn.  W,E: ny*nz values (index j + ny*k); S,N: nx*nz (i + nx*k);
 * B,T: nx*ny (i + nx*j); with nrhs > 1, nrhs blocks one after the other.  A periodic
 * side takes NULL. */
typedef struct homg_boundary {
    const void *face[6];
} homg_boundary;

typedef struct homg_solve_desc {
    int max_cycles;       /* restarts (HOMG) or cycles (multigrid) at most (default 50) */
    double tol;           /* stop when the monitored norm <= tol; 0 = run exactly max_cycles,
                             with no host synchronisation at all (frame loops) */
    int warm_start;       /* non-zero: u holds the initial guess; zero: start from u = 0 */
    const void *u_ref;    /* optional reference solution (ctx space): monitor the error
                             ||u - u_ref|| / ||u_ref|| instead of the residual */
    int skip_input_check; /* non-zero: do not scan f, boundary and warm-start u for NaN/Inf
                             (saves one pass and one host sync) */
    int no_history;       /* non-zero, with tol = 0 and no u_ref: record no monitored norm
                             (homg_grid_history then returns 0), which spares the plain 3D
                             cycles a residual pass per cycle and one over f per solve */
} homg_solve_desc;

typedef struct homg_solve_info {
    int cycles;         /* restarts or cycles done */
    double work_units;  /* relaxation sweeps over the finest grid, counted as DESIGN.md says */
    long launches;      /* kernel launches queued (graph nodes count one each) */
    double bytes;       /* ideal device-memory traffic queued: every array a kernel touches read
                            or written once (achieved bandwidth = bytes / time) */
    double norm;        /* last monitored norm (relative residual, or error if u_ref); -1 if
                            not measured (tol = 0 without u_ref) */
    int converged;      /* norm <= tol */
    double time_ms;     /* wall time of the call (for tol = 0 on CUDA: time to queue) */
    homg_method method; /* the method that ran */
    int two_pass;       /* general multigrid: coarse levels that ran two passes (desc.two_pass) */
    double projected;   /* largest |mean removed| from a singular island's rhs (0: none was
                           singular; -1: not read, tol = 0 without u_ref keeps the host out) */
    int host_syncs;     /* blocking device reads the call made: the input check's (unless
                           skip_input_check), and with a tolerance one for the box solvers on
                           CUDA (their cycles loop on the device), one a cycle elsewhere */
} homg_solve_info;

/* Solves A u = f (+ face terms) for nrhs right-hand sides.  f, u (nrhs*nx*ny*nz values, aligned to two values: 8 bytes for float32, 16 for
 * float64, as every allocation is) and the boundary in the ctx's space. The
 * monitored norm per cycle stays in device memory; homg_grid_history copies it. */
homg_status homg_grid_solve(homg_grid *grid, const void *f, const homg_boundary *bc, void *u,
                            const homg_solve_desc *desc, homg_solve_info *info);
/* Copies up to `max` monitored norms of the last solve to host memory; returns how many.
 * With nrhs > 1 every rhs's cycles are there: rhs after rhs, except on CUDA where up to 4
 * right-hand sides run side by side, each lane's after the other (lane i: rhs i, i + 4, ...). */
int homg_grid_history(homg_grid *grid, double *host_out, int max);
/* r = f + face terms - A u at active cells, 0 elsewhere, in the grid's precision (computed
 * in double), for callers and tests (all nrhs fields). */
homg_status homg_grid_residual(homg_grid *grid, const void *f, const homg_boundary *bc, const void *u, void *r);

/* ================================================================ sparse matrices
 *
 * A CSR matrix is passed around as a non-owning view.  Indices are 0-based
 * int32, column indices sorted within each row, no duplicates.
 */

typedef enum homg_memory {
    HOMG_MEMORY_CONTEXT = 0, /* the context's space (device memory for CUDA) */
    HOMG_MEMORY_HOST         /* host memory, whatever the backend */
} homg_memory;

typedef struct homg_csr {
    int32_t nrows, ncols, nnz;
    const int32_t *row_ptr; /* nrows + 1 */
    const int32_t *col_idx; /* nnz */
    const void *values;     /* nnz values, float or double as `precision` says */
    homg_precision precision;
    homg_memory memory; /* where the three arrays live */
} homg_csr;

/* A matrix that owns its host arrays (what the Matrix Market reader returns). */
typedef struct homg_host_csr {
    int32_t nrows, ncols, nnz;
    int32_t *row_ptr, *col_idx;
    double *values;
} homg_host_csr;

void homg_host_csr_free(homg_host_csr *m);
/* A view of a host matrix (precision float64, memory HOST). */
homg_csr homg_host_csr_view(const homg_host_csr *m);

/* Matrix Market (coordinate real/integer/pattern, general/symmetric, 1-based;
 * banner words in any case, % comments, blank lines and CRLF allowed), plain or
 * gzip-compressed (.mtx.gz, the form most collections ship in: the reader looks
 * at the bytes, not the name).  A `pattern` file lists positions without values:
 * every stored entry is read as 1.0 (as SciPy's and MATLAB's readers do), so a
 * pattern matrix comes back as its 0/1 adjacency (diagonal included where listed).
 * A symmetric file stores the lower triangle and is expanded to both; an entry
 * above its diagonal, a duplicate, an index out of range, a NaN or infinite value
 * and a count that disagrees with the size line are HOMG_ERROR_PARSE, named by
 * line and by the banner's format, field and symmetry as the file gives them:
 * "A.mtx:12: column index 0 out of range 1..100 (coordinate pattern symmetric:
 * entries 'row column', no value, lower triangle)".  complex, hermitian and
 * skew-symmetric files are HOMG_ERROR_UNSUPPORTED; a file that cannot be opened or
 * read (a truncated or corrupt gzip stream included) is HOMG_ERROR_IO.  Numbers go
 * through strtod/printf: LC_NUMERIC must use '.' (the default "C" locale).
 * Release the matrix with homg_host_csr_free. */
homg_status homg_mtx_read(homg_ctx *ctx, const char *path, homg_host_csr *out);
/* A vector file (array n x 1, or coordinate with one column) into a host array
 * of *n doubles that the caller releases with free(). */
homg_status homg_mtx_read_vector(homg_ctx *ctx, const char *path, double **vec, int32_t *n);
/* The same readers on text in memory (not NUL-terminated); `name` stands for the
 * path in messages. */
homg_status homg_mtx_parse(homg_ctx *ctx, const char *name, const char *text, size_t len, homg_host_csr *out);
homg_status homg_mtx_parse_vector(homg_ctx *ctx, const char *name, const char *text, size_t len, double **vec,
                                  int32_t *n);
/* Writes `coordinate real general`, or `symmetric` when symmetric != 0 (lower
 * triangle only; a matrix that is not exactly symmetric is refused with
 * HOMG_ERROR_INVALID_ARGUMENT).  `a` may be in host or ctx memory, float or
 * double; values are written with 17 significant digits, so doubles read back
 * exactly. */
homg_status homg_mtx_write(homg_ctx *ctx, const char *path, const homg_csr *a, int symmetric);
/* Writes a dense host vector as `array real general` (n x 1). */
homg_status homg_mtx_write_vector(homg_ctx *ctx, const char *path, const double *host_vec, int32_t n);

/* ================================================================ meshes (P1)
 *
 * A homg_mesh holds, in host memory: node coordinates (double, `dim` per node),
 * elements (int32, dim+1 node indices each, 0-based: P1 triangles in 2D, P1
 * tetrahedra in 3D, positively oriented), an element tag per element (the
 * physical region, 0 if none), boundary facets (dim node indices each: edges in
 * 2D, triangles in 3D) with a tag each, and a boundary marker per node (the
 * file's marker where the format has one, otherwise the largest tag of the
 * facets that contain the node, 0 for none).
 *
 * Readers: Gmsh .msh 2.2 and 4.1, ASCII or binary (either byte order, checked
 * against the header's integer 1; also gzip-compressed, .msh.gz), and
 * Triangle/TetGen .node + .ele (+ .edge in 2D / .face in 3D for boundary tags).
 * Inverted elements are re-oriented on load and counted; zero-volume elements,
 * malformed files and counts the file size cannot hold are HOMG_ERROR_PARSE with
 * "path:line: what is wrong" as the message ("path: byte N: section, entity
 * block: what" in binary files).  A mesh is used by one thread at a
 * time; it remembers the context it was made with.
 */

typedef struct homg_mesh homg_mesh;

/* Host arrays a mesh is made from (homg_mesh_create copies them). */
typedef struct homg_mesh_data {
    int dim; /* 2 (triangles) or 3 (tetrahedra) */
    int32_t num_nodes, num_elements, num_facets;
    const double *coords;        /* num_nodes * dim */
    const int32_t *elements;     /* num_elements * (dim + 1) node indices */
    const int32_t *element_tags; /* num_elements, NULL: all 0 */
    const int32_t *facets;       /* num_facets * dim node indices (NULL when num_facets = 0) */
    const int32_t *facet_tags;   /* num_facets, NULL: all 0 */
    const int32_t *node_markers; /* num_nodes, NULL: derived from the facets */
} homg_mesh_data;

homg_status homg_mesh_create(homg_ctx *ctx, const homg_mesh_data *data, homg_mesh **out);
/* Reads FILE.msh, FILE.msh.gz, or FILE.node/FILE.ele (either name; the .ele, and
 * the .edge (2D) or .face (3D) when present, are found beside it). */
homg_status homg_mesh_read(homg_ctx *ctx, const char *path, homg_mesh **out);
void homg_mesh_destroy(homg_mesh *mesh);

int homg_mesh_dim(const homg_mesh *mesh);
int32_t homg_mesh_num_nodes(const homg_mesh *mesh);
int32_t homg_mesh_num_elements(const homg_mesh *mesh);
int32_t homg_mesh_num_facets(const homg_mesh *mesh);
/* Host arrays owned by the mesh, laid out as in homg_mesh_data. */
const double *homg_mesh_coords(const homg_mesh *mesh);
const int32_t *homg_mesh_elements(const homg_mesh *mesh);
const int32_t *homg_mesh_element_tags(const homg_mesh *mesh);
const int32_t *homg_mesh_facets(const homg_mesh *mesh);
const int32_t *homg_mesh_facet_tags(const homg_mesh *mesh);
const int32_t *homg_mesh_node_markers(const homg_mesh *mesh);
/* Elements whose node order was reversed on load because they were inverted. */
int32_t homg_mesh_num_reoriented(const homg_mesh *mesh);
/* 2 for a mesh read from quadratic elements (6-node triangles, 10-node
 * tetrahedra): their corners are its elements and the midside nodes are not
 * kept (P2 spaces place them at the edge midpoints again; curved edges become
 * straight); 1 otherwise. */
int homg_mesh_order(const homg_mesh *mesh);
homg_ctx *homg_mesh_ctx(const homg_mesh *mesh);

/* What assembly needs, in the context's space (device memory for CUDA). */
typedef struct homg_mesh_view {
    int dim;
    int32_t num_nodes, num_elements;
    const double *coords;        /* num_nodes * dim */
    const int32_t *elements;     /* num_elements * (dim + 1) */
    const int32_t *element_tags; /* num_elements */
    homg_memory memory;          /* HOMG_MEMORY_CONTEXT */
} homg_mesh_view;

/* Copies coordinates, elements and tags to the context's space (first call
 * only; the copies live as long as the mesh) and describes them. */
homg_status homg_mesh_upload(homg_mesh *mesh, homg_mesh_view *view);

/* A Gaussian source: amount * exp(-|x - center|^2 / (2 width^2)); the heat or
 * load a demo moves with the mouse every frame, evaluated where it is needed. */
typedef struct homg_splat {
    double center[3]; /* coordinates past the mesh's dimension are not read */
    double width;     /* > 0 */
    double amount;    /* the value at the centre */
} homg_splat;

/* f[k] = (accumulate ? f[k] : 0) + the sum of the splats at node k, for the
 * mesh's num_nodes nodes; f holds values of `precision` in the context's space
 * (as homg_fem_coeffs.f_node wants them).  Queued on the context's stream; the
 * first call uploads the mesh (homg_mesh_upload). */
homg_status homg_mesh_splat(homg_mesh *mesh, const homg_splat *splats, int num_splats, homg_precision precision,
                            int accumulate, void *f);

/* Generated meshes: [0,size]^dim cut into cells^dim squares of 2 triangles or
 * cubes of 6 tetrahedra (the conforming Kuhn split along each cube's main
 * diagonal), then `refine` midpoint subdivisions.  Nodes are numbered x fastest.
 * Element tag 1; facet tags 1..2*dim for the sides x=0, x=size, y=0, y=size,
 * z=0, z=size.  cells = 64, size = 4 gives seed 000's "Regular" mesh: 274,625
 * nodes and 1,572,864 tetrahedra. */
typedef struct homg_mesh_generate_desc {
    int cells;   /* cells per side (default 8) */
    double size; /* side length (default 1) */
    int refine;  /* midpoint subdivisions afterwards (default 0) */
} homg_mesh_generate_desc;

homg_mesh_generate_desc homg_mesh_generate_desc_defaults(const homg_mesh_generate_desc *desc);
homg_status homg_mesh_generate_square(homg_ctx *ctx, const homg_mesh_generate_desc *desc, homg_mesh **out);
homg_status homg_mesh_generate_cube(homg_ctx *ctx, const homg_mesh_generate_desc *desc, homg_mesh **out);
/* Midpoint subdivision: every triangle into 4, every tetrahedron into 8 (the
 * inner octahedron cut along its shortest diagonal); facets are split to match
 * and tags are kept.  New nodes follow the old ones. */
homg_status homg_mesh_refine(const homg_mesh *mesh, homg_mesh **out);

typedef struct homg_mesh_quality {
    double min_angle, max_angle;                /* degrees: triangle angles (2D), dihedral angles (3D) */
    double min_aspect, max_aspect, mean_aspect; /* longest edge / inradius, scaled so that
                                                   the equilateral element has 1 */
    int32_t min_valence, max_valence;           /* nodes joined to a node by an element edge */
    double mean_valence;
    double min_volume, max_volume, total_volume; /* areas in 2D */
} homg_mesh_quality;

homg_status homg_mesh_get_quality(const homg_mesh *mesh, homg_mesh_quality *q);

/* A field written with the mesh: one double per node or per element (host). */
typedef struct homg_mesh_field {
    const char *name; /* letters, digits, '_' and '-' */
    const double *values;
    int per_element; /* 0: per node (POINT_DATA), non-zero: per element (CELL_DATA) */
} homg_mesh_field;

/* Legacy VTK (ASCII UNSTRUCTURED_GRID) with the element tags ("tag") and node
 * markers ("marker") and the given fields; opens in ParaView. */
homg_status homg_mesh_write_vtk(const homg_mesh *mesh, const char *path, const homg_mesh_field *fields, int num_fields);
/* Gmsh .msh ASCII 2.2: the facets and elements with their tags as physical and
 * elementary tags (homg_mesh_read reads it back). */
homg_status homg_mesh_write_msh(const homg_mesh *mesh, const char *path);

/* ================================================================ FEM assembly
 *
 * P1 finite elements for -div(sigma grad u) + lambda u = f on a homg_mesh, with
 * u = g on the nodes of the Dirichlet boundary (facets or node markers with one
 * of the given tags), sigma du/dn = q on the facets of the Neumann tags, and the
 * natural (zero flux) condition elsewhere:
 *
 *   A = S + lambda M,  S_ij = (sigma grad phi_i, grad phi_j),  M_ij = (phi_i, phi_j)
 *   b_i = (phi_i, f) + (phi_i, q)_boundary,  f = f_const + f_elem (per element) + the
 *   P1 interpolant of f_node
 *
 * (M is the consistent mass matrix; b from f_node is M f_node.)  Dirichlet rows
 * become unit rows with b_i = g_i, and their columns are moved to the right-hand
 * side (b_j -= A_ji g_i, A_ji = 0), so A stays symmetric; the eliminated entries
 * stay in the pattern as explicit zeros.  A is a full (both triangles) CSR matrix
 * in the context's space; its pattern (node adjacency, diagonal included) is
 * built once in homg_fem_create, and homg_fem_assemble runs only the numeric pass
 * (element matrices accumulated without races by the chosen scheme) and the
 * Dirichlet elimination, queued on the context's stream without synchronising.
 */

typedef struct homg_fem homg_fem;

typedef enum homg_fem_scheme {
    HOMG_FEM_SCHEME_DEFAULT = 0, /* PATCH on CUDA, SERIAL on CPU */
    HOMG_FEM_SCHEME_SERIAL,      /* CPU only: seed 002's Algorithm 1, one thread, element order */
    HOMG_FEM_SCHEME_COLOR,       /* element colouring: elements of one colour share no node */
    HOMG_FEM_SCHEME_PATCH        /* seed 000: node patches, patch rows accumulated in shared
                                    memory, patch-boundary contributions in a second pass */
} homg_fem_scheme;

typedef struct homg_fem_desc {
    homg_fem_scheme scheme;
    homg_precision precision;      /* of the matrix values and right-hand side (default float32,
                                      as everywhere; element matrices are computed in double) */
    const int32_t *dirichlet_tags; /* host array of boundary tags with Dirichlet conditions */
    int num_dirichlet_tags;        /* 0: no Dirichlet boundary (pure Neumann) */
    int patch_nnz;                 /* PATCH: most matrix entries per patch (default 4096: 48 KiB
                                      of shared memory for double values and their columns) */
    int order;                     /* 1 (default): P1; 2: P2 (6-node triangles, 10-node tetrahedra on
                                      the mesh's straight-sided elements): the unknowns are the nodes,
                                      then one per edge, numbered like the nodes of
                                      homg_mesh_refine(mesh), whose coordinates they sit at; COLOR or
                                      SERIAL (DEFAULT: COLOR on CUDA); no Neumann loads */
} homg_fem_desc;

homg_fem_desc homg_fem_desc_defaults(const homg_fem_desc *desc);

/* Coefficients of one assembly.  Arrays are in the context's space (NULL: not
 * used) unless marked host; zero scalars mean the default.
 *
 * Every array entry is checked before anything is assembled (unless skip_check):
 * a negative, zero (sigma), NaN or infinite entry, or a sigma tensor that is not
 * positive semi-definite, is HOMG_ERROR_INVALID_ARGUMENT naming the array and
 * the first bad index ("coeffs.sigma_elem[17] = -1: must be positive and finite"),
 * and leaves the previous matrix and right-hand side as they were.  The scan runs
 * where the arrays live (a reduction on the device, no copy of them) and reads one
 * word back: one host synchronisation per assembly. */
#define HOMG_FEM_MAX_NEUMANN 64
typedef struct homg_fem_coeffs {
    double sigma;                   /* constant sigma (default 1) where sigma_elem is NULL */
    const double *sigma_elem;       /* per element, > 0 */
    const double *sigma_tensor;     /* per element, symmetric positive semi-definite: xx xy yy (2D),
                                       xx xy xz yy yz zz (3D); replaces sigma and sigma_elem */
    double lambda;                  /* >= 0 (default 0) where lambda_elem is NULL */
    double f;                       /* constant source (default 0) */
    const double *f_elem;           /* source per element, added */
    const double *f_node;           /* source per node (per unknown for P2: its interpolant), added */
    double dirichlet_value;         /* g on Dirichlet nodes where dirichlet_values is NULL (default 0) */
    const double *dirichlet_values; /* g per node / unknown (only Dirichlet ones are read and checked) */
    const double *lambda_elem;      /* per element, >= 0; replaces lambda when set */
    /* Neumann: b_i += integral of q phi_i over the boundary facets whose tag is
     * neumann_tags[k], q = neumann_flux[k] the outward flux sigma du/dn (host arrays
     * of num_neumann <= HOMG_FEM_MAX_NEUMANN entries; Dirichlet nodes keep b_i = g_i). */
    const int32_t *neumann_tags;
    const double *neumann_flux;
    int num_neumann;
    int skip_check; /* non-zero: the arrays are not scanned (no host synchronisation) */
    /* non-zero: only the right-hand side is assembled (loads, Neumann, Dirichlet values and the
     * columns they move into b); the matrix keeps the values of the last full assembly (which
     * must have run), so pass the sigma and lambda it had: they enter b through those columns.
     * One pass over the elements with atomic adds, no matrix entry read or written: for a
     * source that changes every frame under a fixed operator. */
    int rhs_only;
} homg_fem_coeffs;

/* Setup timings and sizes (homg_fem_get_info). */
typedef struct homg_fem_info {
    homg_fem_scheme scheme; /* resolved */
    int32_t nnz;
    int32_t num_dirichlet;                               /* Dirichlet nodes */
    int32_t num_colors;                                  /* COLOR */
    int32_t num_patches, max_patch_nnz, max_patch_nodes; /* PATCH */
    double boundary_fraction; /* PATCH: share of element rows that fall outside their patch */
    double pattern_ms;        /* building the CSR pattern on the context's device */
    double prepare_ms;        /* colouring (host) and its upload, or the patch partition (backend) */
} homg_fem_info;

/* Builds the pattern and the scheme's data for `mesh` (uploading the mesh; the
 * mesh must outlive the fem).  Synchronises the context's stream (set-up only). */
homg_status homg_fem_create(homg_mesh *mesh, const homg_fem_desc *desc, homg_fem **out);
void homg_fem_destroy(homg_fem *fem);
homg_fem_desc homg_fem_get_desc(const homg_fem *fem);
homg_fem_info homg_fem_get_info(const homg_fem *fem);

/* Numeric pass, Neumann load and Dirichlet elimination with these coefficients
 * (queued; the coefficient scan above is the one host synchronisation). */
homg_status homg_fem_assemble(homg_fem *fem, const homg_fem_coeffs *coeffs);
/* The matrix and right-hand side of the last assembly, in the context's space. */
homg_csr homg_fem_matrix(const homg_fem *fem);
const void *homg_fem_rhs(const homg_fem *fem); /* num_dofs values, the matrix's precision */
/* Rows of the system: num_nodes (P1), num_nodes + edges (P2). */
int32_t homg_fem_num_dofs(const homg_fem *fem);
/* num_dofs bytes in the context's space: 1 for Dirichlet nodes, 2 for nodes in
 * no element (their rows are unit rows with b = 0, so A stays non-singular), 0 else. */
const uint8_t *homg_fem_dirichlet_mask(const homg_fem *fem);

/* ================================================================ AMG / CG
 *
 * homg_amg: an algebraic multigrid hierarchy of a symmetric positive definite
 * CSR matrix, built and applied on the context's backend (seed 000's smoothed
 * aggregation, or seed 001's compatible weighted matching).  homg_pcg: the
 * conjugate gradient method preconditioned by one AMG cycle (or by Jacobi, or
 * by nothing).  Mixed precision as seed 000: the hierarchy and the cycle are
 * float; CG, its vectors and the fine matrix are double.  lib/amg/amg.c documents
 * the algorithms and their defaults.
 *
 * The matrix is copied at set-up (the caller may free it afterwards).  Bad
 * input -- not square, not symmetric, a missing, zero or negative diagonal,
 * NaN or Inf, a malformed CSR -- is INVALID_ARGUMENT with a message naming the
 * first offending row.
 */

typedef struct homg_amg homg_amg;
typedef struct homg_pcg homg_pcg;

#define HOMG_AMG_MAX_LEVELS 24

typedef enum homg_amg_coarsening {
    HOMG_AMG_COARSEN_DEFAULT = 0,  /* smoothed aggregation */
    HOMG_AMG_SMOOTHED_AGGREGATION, /* seed 000: aggregates from a distance-2 maximal independent
                                      set, prolongator smoothed by one damped Jacobi step */
    HOMG_AMG_MATCHING              /* seed 001: double pairwise aggregates from Suitor matchings,
                                      unsmoothed prolongator */
} homg_amg_coarsening;

typedef enum homg_amg_smoother {
    HOMG_AMG_SMOOTHER_DEFAULT = 0, /* Chebyshev (degree 3, ratio 20) */
    HOMG_AMG_SMOOTHER_JACOBI,      /* damped Jacobi, weight jacobi_weight / rho(D^-1 A) */
    HOMG_AMG_SMOOTHER_L1_JACOBI,   /* l1 Jacobi: D_ii = sum_j |a_ij| (parameter free) */
    HOMG_AMG_SMOOTHER_PATCH,       /* seed 000: block Jacobi over patches of aggregates, inner
                                      Jacobi sweeps per patch */
    HOMG_AMG_SMOOTHER_CHEBYSHEV    /* Chebyshev polynomial in D^-1 A of degree chebyshev_degree on
                                      [rho / chebyshev_ratio, rho] */
} homg_amg_smoother;

typedef enum homg_amg_cycle {
    HOMG_AMG_CYCLE_DEFAULT = 0, /* V */
    HOMG_AMG_CYCLE_V,
    HOMG_AMG_CYCLE_W
} homg_amg_cycle;

typedef enum homg_amg_coarse_solver {
    HOMG_AMG_COARSE_DEFAULT = 0, /* dense Cholesky */
    HOMG_AMG_COARSE_CHOLESKY,    /* dense inverse from a Cholesky factorisation (SPD coarse matrix) */
    HOMG_AMG_COARSE_JACOBI       /* `coarse_sweeps` l1-Jacobi sweeps (singular coarse matrices) */
} homg_amg_coarse_solver;

typedef struct homg_amg_desc {
    homg_amg_coarsening coarsening;
    homg_amg_smoother smoother;
    homg_amg_cycle cycle;
    int pre, post; /* smoothing sweeps before / after the coarse correction (1, 1) */
    /* rho: each level's estimate of rho(D^-1 A) from above (Lanczos, capped by Gershgorin) */
    double jacobi_weight;  /* damped Jacobi: x += (w / rho) D^-1 r (default 4/3: 2/3 when rho = 2) */
    double prolong_weight; /* smoothed aggregation: P = (I - w / rho D^-1 A) P_tent, A the filtered
                                       matrix (default 4/3) */
    int max_levels;        /* levels at most (default and limit HOMG_AMG_MAX_LEVELS) */
    int coarse_size;       /* coarsen until a level has at most this many rows (default 256) */
    homg_amg_coarse_solver coarse_solver;
    int coarse_sweeps;         /* JACOBI coarse solver sweeps (default 20) */
    int mis_distance;          /* smoothed aggregation: distance of the independent set of roots
                                       on the finest level (default 2) */
    int mis_distance_coarse;   /* ... on the coarser levels (default 2) */
    int min_aggregate;         /* smoothed aggregation: aggregates with fewer rows are dissolved
                                       into their neighbours (default 0: a third of the mean size) */
    double strength_theta;     /* smoothed aggregation: (i, j) is a strong connection when
                                       (|a_ij| + |a_ji|) / 2 >= theta sqrt(|a_ii a_jj|), theta at most
                                       0.6 of the two rows' largest such ratio; aggregates follow
                                       strong ones only (default 0.25; negative: every entry) */
    int patch_size;            /* patch smoother: rows per patch at most (default 256, <= 1024) */
    int patch_inner;           /* patch smoother: inner Jacobi sweeps (default 3) */
    double patch_inner_weight; /* patch smoother: inner Jacobi weight (default 1) */
    double patch_weight;       /* patch smoother: outer block-Jacobi weight (default 1) */
    int patch_l1;              /* patch smoother: l1 block Jacobi -- each row's |a_ij| outside its
                                       patch added to the block diagonal, inner Jacobi divided by
                                       the row's l1 norm: convergent for every SPD matrix (default
                                       1; -1: plain block Jacobi, not always convergent) */
    int chebyshev_degree;      /* Chebyshev smoother: degree (default 3) */
    double chebyshev_ratio;    /* Chebyshev smoother: rho over the interval's lower end (default 20) */
    unsigned seed;             /* random priorities of the independent sets (default 1) */
    int skip_input_check;      /* non-zero: trust the matrix (no symmetry, diagonal, NaN scan) */
    int trace;                 /* non-zero: time each set-up phase into homg_amg_info.phase (one CUDA
                                       event per phase and level, no extra synchronisation) */
    int fine_in_place;         /* non-zero: the fine level uses A's arrays in place, no copy (A double,
                                       HOMG_MEMORY_CONTEXT; the caller keeps them alive and unchanged
                                       until homg_amg_destroy; re-setup passes the same arrays with new
                                       values; not in memory_bytes). Default 0: A is copied */
} homg_amg_desc;

/* The phases of a set-up (homg_amg_info.phase, with desc.trace). */
typedef enum homg_amg_phase {
    HOMG_AMG_PHASE_IMPORT = 0, /* A copied in and checked, level 0's float values */
    HOMG_AMG_PHASE_STRENGTH,   /* strength graphs (smoothed aggregation) */
    HOMG_AMG_PHASE_AGGREGATE,  /* independent sets and aggregates, or matchings */
    HOMG_AMG_PHASE_PROLONG,    /* smoothed prolongators with their spectral bounds */
    HOMG_AMG_PHASE_GALERKIN,   /* R = P^T and R A P (row-wise product; SpGEMMs as fallback) */
    HOMG_AMG_PHASE_SMOOTHER,   /* diagonals, spectral bounds, cycle vectors, patches */
    HOMG_AMG_PHASE_COARSE,     /* the coarsest level's dense inverse */
    HOMG_AMG_PHASES
} homg_amg_phase;

typedef struct homg_amg_phase_info {
    double ms;         /* time on the ctx's stream, summed over levels (CUDA events; host clock on the CPU) */
    int host_syncs;    /* blocking device reads the library makes (uploads are stream-ordered; not cuSPARSE's) */
    size_t peak_bytes; /* most ctx memory held at once by what the set-up allocated, during the phase */
} homg_amg_phase_info;

typedef struct homg_amg_info {
    int levels;
    int32_t rows[HOMG_AMG_MAX_LEVELS];
    int64_t nnz[HOMG_AMG_MAX_LEVELS];
    int32_t patches[HOMG_AMG_MAX_LEVELS];       /* patch smoother: patches per level (0 otherwise) */
    double grid_complexity;                     /* sum of rows / fine rows */
    double operator_complexity;                 /* sum of nnz / fine nnz */
    double setup_ms;                            /* last set-up (or re-setup) */
    size_t memory_bytes;                        /* memory the hierarchy holds in the ctx's space */
    homg_amg_desc desc;                         /* with defaults resolved */
    homg_amg_phase_info phase[HOMG_AMG_PHASES]; /* desc.trace: the last set-up (or re-setup) by phase */
    size_t peak_bytes;                          /* desc.trace: most ctx memory held during it */
} homg_amg_info;

homg_amg_desc homg_amg_desc_defaults(const homg_amg_desc *desc);
/* Builds the hierarchy of `a` (host or ctx memory, float or double values). */
homg_status homg_amg_create(homg_ctx *ctx, const homg_csr *a, const homg_amg_desc *desc, homg_amg **out);
/* New values, same pattern: keeps aggregates, prolongators and patches and
 * recomputes only the Galerkin products, smoother and coarse-solver data. */
homg_status homg_amg_resetup(homg_amg *amg, const homg_csr *a);
/* z = M^-1 r, one cycle; r and z are double vectors in the ctx's space. */
homg_status homg_amg_apply(homg_amg *amg, const double *r, double *z);
homg_status homg_amg_get_info(const homg_amg *amg, homg_amg_info *info);
/* The grid table as AmgX prints it (levels, rows, nonzeros, complexities,
 * memory).  Returns the length the whole text needs, like snprintf. */
int homg_amg_format_info(const homg_amg_info *info, char *buf, size_t len);
void homg_amg_destroy(homg_amg *amg);

typedef enum homg_pcg_precond {
    HOMG_PCG_PRECOND_DEFAULT = 0, /* AMG when an amg is given, otherwise JACOBI */
    HOMG_PCG_PRECOND_AMG,
    HOMG_PCG_PRECOND_JACOBI,
    HOMG_PCG_PRECOND_NONE,
    HOMG_PCG_PRECOND_GMG /* one cycle of desc.gmg (geometric multigrid) */
} homg_pcg_precond;

typedef struct homg_gmg homg_gmg;

typedef struct homg_pcg_desc {
    double tol;   /* stop when ||r|| <= tol ||b|| (recursive residual; default 1e-8) */
    int max_iter; /* iterations at most (default 1000) */
    int flexible; /* non-zero: flexible CG (Polak-Ribiere beta), for varying preconditioners */
    homg_pcg_precond precond;
    int check_every; /* read the device's convergence flag every this many iterations (1) */
    int warm_start;  /* non-zero: x holds the initial guess; zero: start from x = 0 */
    int no_graph;    /* CUDA: non-zero launches one iteration's kernels one by one instead of
                                 replaying them as a captured CUDA graph */
    homg_gmg *gmg;   /* GMG preconditioner (used, not owned); precond DEFAULT becomes GMG when set,
                        and a NULL matrix in homg_pcg_create means the gmg's finest matrix */
} homg_pcg_desc;

typedef enum homg_pcg_breakdown {
    HOMG_PCG_BREAKDOWN_NONE = 0,
    HOMG_PCG_BREAKDOWN_PAP,      /* p.Ap <= 0: A is not positive definite (or rounding) */
    HOMG_PCG_BREAKDOWN_RZ,       /* r.z <= 0: the preconditioner is not positive definite */
    HOMG_PCG_BREAKDOWN_NONFINITE /* NaN or Inf in a scalar */
} homg_pcg_breakdown;

typedef struct homg_pcg_info {
    int iterations; /* all of them, those before a fallback included */
    int converged;
    double rel_residual; /* ||r|| / ||b|| of the last iterate (recursive residual) */
    double rate;         /* average residual reduction per iteration */
    double solve_ms;
    homg_pcg_breakdown breakdown; /* the first breakdown of the solve (NONE: none) */
    int breakdown_iteration;      /* where it happened */
    int fallback;                 /* non-zero: after an AMG breakdown the amg switched to the l1
                                     Jacobi smoother (for good) and the solve went on from there */
} homg_pcg_info;

homg_pcg_desc homg_pcg_desc_defaults(const homg_pcg_desc *desc);
/* A solver for `a` (copied; NULL: the amg's matrix).  amg may be NULL for
 * JACOBI and NONE; it is used, not owned, and must outlive the solver. */
homg_status homg_pcg_create(homg_ctx *ctx, const homg_csr *a, homg_amg *amg, const homg_pcg_desc *desc, homg_pcg **out);
/* Solves A x = b (double vectors in the ctx's space).  NOT_CONVERGED at the
 * iteration limit.  On a breakdown (p.Ap <= 0 or r.z <= 0, info.breakdown
 * says which) with the AMG preconditioner, the amg falls back once to the l1
 * Jacobi smoother (convergent for every SPD matrix) and CG goes on from the
 * iterate it had (info.fallback); NUMERIC when that breaks down too, or on a
 * breakdown of the other preconditioners.  The history and info are valid in
 * every case. */
homg_status homg_pcg_solve(homg_pcg *pcg, const double *b, double *x, homg_pcg_info *info);
/* Copies up to `max` relative residuals of the last solve (entry 0: the start)
 * to host memory; returns how many there are. */
int homg_pcg_history(const homg_pcg *pcg, double *host_out, int max);
/* Per-iteration residual and convergence rate as AmgX prints them, and the
 * totals; returns the length the whole text needs, like snprintf. */
int homg_pcg_format_history(const homg_pcg *pcg, char *buf, size_t len);
void homg_pcg_destroy(homg_pcg *pcg);

/* ================================================================ geometric multigrid
 *
 * homg_gmg: a geometric multigrid hierarchy on nested meshes (seed 004): a
 * coarse mesh refined uniformly `levels` times (homg_mesh_refine), the P1
 * problem of the FEM section assembled on every level (or the coarse levels
 * from the Galerkin product R A P), prolongation P from the coarse P1 basis
 * evaluated at the fine nodes, R = P^T, and smoothers that are preconditioned
 * Richardson sweeps x += omega M (b - A x) with M an approximate inverse, so a
 * cycle is nothing but sparse products and vector updates.  Level 0 is the
 * finest.  Vectors are double in the context's space.  lib/gmg/gmg.c documents
 * the algorithms and their defaults.
 */

#define HOMG_GMG_MAX_LEVELS 16

typedef enum homg_gmg_smoother {
    HOMG_GMG_SMOOTHER_DEFAULT = 0, /* SPAI1 (level 0: see fine_smoother) */
    HOMG_GMG_SMOOTHER_JACOBI,      /* M = D^-1 */
    HOMG_GMG_SMOOTHER_SPAI0,       /* M diagonal, argmin ||I - M A||_F */
    HOMG_GMG_SMOOTHER_SPAI1,       /* M with the pattern of A, argmin ||I - M A||_F (a least-squares
                                      problem per row, built in one batch on the backend) */
    HOMG_GMG_SMOOTHER_SAINV        /* M = Z D^-1 Z^T from A-biconjugation with a drop tolerance
                                      (set-up on the host, applied as two sparse products) */
} homg_gmg_smoother;

typedef enum homg_gmg_cycle {
    HOMG_GMG_CYCLE_DEFAULT = 0, /* V */
    HOMG_GMG_CYCLE_V,
    HOMG_GMG_CYCLE_W,
    HOMG_GMG_CYCLE_F
} homg_gmg_cycle;

typedef enum homg_gmg_coarse_op {
    HOMG_GMG_COARSE_OP_DEFAULT = 0,  /* REDISCRETISE */
    HOMG_GMG_COARSE_OP_REDISCRETISE, /* FEM assembly on each level's mesh */
    HOMG_GMG_COARSE_OP_GALERKIN      /* A_coarse = R A_fine P */
} homg_gmg_coarse_op;

typedef enum homg_gmg_coarse_solver {
    HOMG_GMG_COARSE_SOLVER_DEFAULT = 0, /* CHOLESKY */
    HOMG_GMG_COARSE_SOLVER_CHOLESKY,    /* dense Cholesky (host, at set-up), applied as a dense product */
    HOMG_GMG_COARSE_SOLVER_AMG          /* one cycle of homg's AMG (default desc) */
} homg_gmg_coarse_solver;

typedef enum homg_gmg_format {
    HOMG_GMG_FORMAT_AUTO = 0, /* CUDA: ELL, lanes by the mean row length (or ell_lanes); CPU: CSR */
    HOMG_GMG_FORMAT_CSR,
    HOMG_GMG_FORMAT_ELL /* ELLPACK-R, column-major, ell_lanes threads per row (ELLPACK-T) */
} homg_gmg_format;

typedef enum homg_gmg_numbering {
    HOMG_GMG_NUMBERING_DEFAULT = 0, /* AS_READ */
    HOMG_GMG_NUMBERING_AS_READ,     /* the coarse mesh as read; each refinement appends midpoints */
    HOMG_GMG_NUMBERING_RANDOM,      /* a random permutation per level (the worst case) */
    HOMG_GMG_NUMBERING_RCM,         /* reverse Cuthill-McKee per level */
    HOMG_GMG_NUMBERING_TWO_LEVEL    /* seed 004: RCM on the coarsest level; on each finer level the
                                       coarse vertices in the coarse order, then the edge midpoints
                                       by their parent vertices */
} homg_gmg_numbering;

typedef struct homg_gmg_desc {
    int levels; /* refinements of the coarse mesh (default 3): levels + 1 meshes, at most
                   HOMG_GMG_MAX_LEVELS - 1 */
    homg_gmg_smoother smoother;
    homg_gmg_cycle cycle;
    homg_gmg_coarse_op coarse_op;
    homg_gmg_coarse_solver coarse_solver;
    homg_gmg_format format;
    homg_gmg_numbering numbering;
    int pre, post;        /* Richardson sweeps before / after the coarse correction (2, 2) */
    double omega_scale;   /* omega = omega_scale / lambda_max(M A) (default 4/3) */
    int power_iterations; /* power steps estimating lambda_max(M A) (default 12; diagonal levels 4 or fewer) */
    double sainv_drop;    /* SAINV: drop entries of Z below this times the column's largest (0.05) */
    int ell_lanes;        /* ELL: threads per row, 1..32, a power of two (0: FORMAT_ELL measures them on
                             CUDA, AUTO takes a rule; 1 on CPU) */
    int spai_unscaled;    /* SPAI1: non-zero fits M to A itself instead of the Jacobi-scaled matrix */
    unsigned seed;        /* RANDOM numbering and the power iteration's start (default 1) */
    /* The problem assembled on every level (homg_fem semantics) */
    const int32_t *dirichlet_tags; /* host array of boundary tags with u = dirichlet_value */
    int num_dirichlet_tags;
    double dirichlet_value;
    double sigma;                       /* constant sigma (default 1) where sigma_coarse is NULL */
    const double *sigma_coarse;         /* host: sigma per element of the coarse mesh, inherited by its children */
    const double *sigma_fine;           /* host: sigma per element of the finest mesh (its elements keep the order
                                   of their coarse ancestors: children of e are e*c .. e*c+c-1, c = 4 or 8);
                                   coarser levels take the harmonic mean over their descendants (the
                                   arithmetic mean would reproduce R A P exactly for P1; replaces
                                   sigma_coarse) */
    const double *dirichlet_tag_values; /* host: u on the nodes marked with dirichlet_tags[k] (NULL: all
                                           dirichlet_value) */
    double f;                           /* constant source (default 0) */
    int order;                          /* 1 (default): P1 on every level; 2: P2 elements on the finest mesh (levels
                  refinements of the coarse one), whose unknowns are the nodes of one more
                  refinement: the first transfer is P2 -> P1 on the same mesh (the P1 function
                  interpolated at the P2 nodes), then P1 levels; AS_READ numbering, no
                  sigma_fine, not nested.  Level 0 (rows: the P2 unknowns) has that refined
                  mesh as homg_gmg_mesh(gmg, 0). */
    /* Level 0 (the finest) apart: its set-up is most of the smoothers' (SPAI-1's rows and M^T there cost
       ~2.5 ms of the 65^3 cube's set-up on the H100), a diagonal M is almost free. */
    homg_gmg_smoother fine_smoother; /* level 0's smoother: JACOBI or SPAI0 there and `smoother` on the other
                                        levels, or `smoother` itself.  DEFAULT with `smoother` DEFAULT: SPAI0
                                        with fine_sweeps 3 (the default smoothers are SPAI(0) V(3,3) on level
                                        0, SPAI-1 V(2,2) below: GMG_FINE_DEFAULT in lib/gmg/gmg.c says why);
                                        DEFAULT with a `smoother` given: that smoother on every level */
    int fine_sweeps;                 /* level 0's pre- and post-sweeps (each; 0: pre, post) */
} homg_gmg_desc;

typedef struct homg_gmg_info {
    int levels; /* meshes in the hierarchy */
    int32_t rows[HOMG_GMG_MAX_LEVELS];
    int64_t nnz[HOMG_GMG_MAX_LEVELS];
    homg_gmg_format format[HOMG_GMG_MAX_LEVELS]; /* resolved per level */
    int ell_lanes[HOMG_GMG_MAX_LEVELS];
    double omega[HOMG_GMG_MAX_LEVELS];
    double lambda_max[HOMG_GMG_MAX_LEVELS]; /* estimate of lambda_max(M A) */
    double bandwidth[HOMG_GMG_MAX_LEVELS];  /* mean |i - j| over the entries of A */
    int32_t fallback_rows;                  /* SPAI-1 rows that fell back to SPAI(0); SAINV pivots replaced */
    double setup_ms, hierarchy_ms, assemble_ms, smoother_ms, format_ms;
    size_t memory_bytes; /* what the hierarchy holds in the ctx's space */
    homg_gmg_desc desc;  /* with defaults resolved */
} homg_gmg_info;

typedef struct homg_gmg_solve_info {
    int cycles, converged;
    double rel_residual, rate, solve_ms;
} homg_gmg_solve_info;

homg_gmg_desc homg_gmg_desc_defaults(const homg_gmg_desc *desc);
/* Refines `coarse` (which must outlive nothing: it is copied) desc.levels times,
 * numbers, assembles and sets up every level.  Synchronises (set-up). */
homg_status homg_gmg_create(homg_mesh *coarse, const homg_gmg_desc *desc, homg_gmg **out);
/* A hierarchy from `count` nested meshes given coarse to fine (meshes[0] the
 * coarsest; e.g. read from files), in any numbering: every node of a finer
 * mesh must lie in an element of the next coarser one (else INVALID_ARGUMENT,
 * "not nested", naming the node).  desc.levels is ignored; sigma_coarse,
 * sigma_fine and the TWO_LEVEL numbering need refinement (UNSUPPORTED).  The
 * meshes must outlive the call only. */
homg_status homg_gmg_create_nested(homg_mesh *const *meshes, int count, const homg_gmg_desc *desc, homg_gmg **out);
void homg_gmg_destroy(homg_gmg *gmg);
homg_status homg_gmg_get_info(const homg_gmg *gmg, homg_gmg_info *info);
int homg_gmg_format_info(const homg_gmg_info *info, char *buf, size_t len);
/* The mesh of level l (0 = finest) in the hierarchy's numbering; owned by the gmg.
 * The set-up keeps refined levels in the ctx's space only: the first call for
 * such a level copies it to the host (synchronises; NULL if that fails, the
 * ctx's message says why). */
homg_mesh *homg_gmg_mesh(const homg_gmg *gmg, int level);
/* Level l's matrix (double, ctx space) and the finest right-hand side (double, ctx space). */
homg_csr homg_gmg_matrix(const homg_gmg *gmg, int level);
const double *homg_gmg_rhs(const homg_gmg *gmg);
/* z = one cycle applied to r from z = 0 (the preconditioner). */
homg_status homg_gmg_apply(homg_gmg *gmg, const double *r, double *z);
/* Cycles on A x = b (x as given is the start) until ||b - A x|| <= tol ||b||. */
homg_status homg_gmg_solve(homg_gmg *gmg, const double *b, double *x, double tol, int max_cycles,
                           homg_gmg_solve_info *info);

/* ================================================================ images */

/* Writes a scalar field as an 8-bit RGB PNG (stb_image_write) through a
 * perceptual colour map: viridis-like, linear between nine control points, from
 * (68, 1, 84) at the low end through (33, 144, 140) in the middle to (253, 231, 37)
 * at the high end.
 *   host_values: nx*ny doubles in host memory, laid out like a grid (row-major, i
 *     fastest, row 0 at the bottom of the domain); the image's first row is the
 *     top of the domain (row ny-1), so the picture is upright.
 *   lo, hi: the values mapped to the two ends, beyond them clamped (lo > hi
 *     reverses the map); lo == hi: the range of the finite values, and a
 *     constant field maps to the middle colour.
 *   NaN pixels are black; +-Inf take the colour of the end they lie beyond.
 * nx, ny >= 1, each at most 65536, nx*ny at most 2^28.  A file that cannot be
 * created or written is HOMG_ERROR_IO naming the path (a partial file is removed). */
homg_status homg_write_png(homg_ctx *ctx, const char *path, const double *host_values, int nx, int ny, double lo,
                           double hi);

/* ---------------------------------------------------------- image Poisson
 *
 * Images: pixel (x, y) channel c at (char *)data + y * pitch + (x * channels + c) *
 * size, row 0 at the top.  8-bit values v read as v / 255, 16-bit as v / 65535,
 * float as they are; results written to 8- or 16-bit images are clamped to [0, 1]
 * and rounded (HOMG_CLONE_OPENCV: truncated, as OpenCV does).  The solves run on
 * the structured grid (homg_grid) with h = 1 (pixel units), one right-hand side per
 * channel in one batched solve.  lib/image/image.c states every discrete problem.
 */

typedef enum homg_pixel_type {
    HOMG_PIXEL_U8 = 0, /* unsigned char per channel (default) */
    HOMG_PIXEL_U16,    /* unsigned short per channel */
    HOMG_PIXEL_F32     /* float per channel */
} homg_pixel_type;

typedef struct homg_image {
    void *data;        /* the ctx's space (homg_image_read/write: host memory) */
    int width, height; /* >= 1 */
    int channels;      /* 1..4 */
    homg_pixel_type type;
    size_t pitch; /* bytes from a row to the next (0 = width * channels * pixel size) */
} homg_image;

typedef enum homg_clone_mode {
    HOMG_CLONE_NORMAL = 0, /* guidance: the source's gradient (OpenCV NORMAL_CLONE) */
    HOMG_CLONE_MIXED,      /* the stronger of the source's and destination's (MIXED_CLONE) */
    HOMG_CLONE_MONOCHROME  /* the gradient of the source's luma (Rec. 601) in every colour channel,
                              alpha's own in alpha (MONOCHROME_TRANSFER) */
} homg_clone_mode;

typedef enum homg_clone_formulation {
    HOMG_CLONE_TEXTBOOK = 0, /* Perez et al. 2003: unknowns are the mask's pixels, the
                                destination around them fixed (default) */
    HOMG_CLONE_OPENCV        /* OpenCV 4's seamlessClone: the mask's bounding box, its frame
                                fixed, the mask eroded by 3, its mixed rule, truncation */
} homg_clone_formulation;

typedef struct homg_clone_desc {
    homg_clone_mode mode;
    homg_clone_formulation formulation;
    int x, y;                 /* placement: the destination pixel of the source's top-left corner */
    int centered;             /* non-zero: (x, y) is where the centre of the mask's bounding box
                       goes, OpenCV's p (corner = p - size / 2, as OpenCV rounds) */
    double tol;               /* relative residual of the solve (default 1e-5) */
    int max_cycles;           /* default 50; with tol < 0: exactly max_cycles, no host sync */
    homg_precision precision; /* of the solve (default float32) */
} homg_clone_desc;

typedef struct homg_image_info {
    int cycles;           /* of the grid solve */
    double residual;      /* last relative residual (-1: not measured) */
    int unknowns;         /* pixels solved for, per channel */
    int grid_nx, grid_ny; /* the grid solved on */
    double time_ms;       /* wall time of the call */
} homg_image_info;

homg_clone_desc homg_clone_desc_defaults(const homg_clone_desc *desc);

/* Seamless cloning: out = dst with the masked part of src blended in at the
 * placement.  mask: 8-bit, 1 channel, the size of src (non-zero = in the mask);
 * src, dst, out: the same channels; out the size and type of dst (out may be dst).
 * The part of the mask that falls outside dst is clipped; at dst's border the
 * blend has zero flux (Neumann).  An empty mask, a mask entirely outside dst, a
 * mask covering the whole of dst (nothing fixes the colours) and mismatched sizes
 * are HOMG_ERROR_INVALID_ARGUMENT naming the argument. */
homg_status homg_image_clone(homg_ctx *ctx, const homg_image *src, const homg_image *mask, const homg_image *dst,
                             const homg_image *out, const homg_clone_desc *desc, homg_image_info *info);

/* A clone kept for many placements (dragging): the grid, the mask and the last
 * solution stay; each apply warm-starts from the last placement's solution. */
typedef struct homg_clone homg_clone;
homg_status homg_clone_create(homg_ctx *ctx, const homg_image *src, const homg_image *mask, int dst_width,
                              int dst_height, const homg_clone_desc *desc, homg_clone **out);
/* Blends at (x, y) (desc.centered as at create) into out (dst's size and type). */
homg_status homg_clone_apply(homg_clone *clone, const homg_image *dst, int x, int y, const homg_image *out,
                             homg_image_info *info);
/* Switches the mode (the next apply starts cold). */
homg_status homg_clone_set_mode(homg_clone *clone, homg_clone_mode mode);
void homg_clone_destroy(homg_clone *clone);

typedef struct homg_image_desc {
    double tol;               /* default 1e-5 */
    int max_cycles;           /* default 50 */
    homg_precision precision; /* default float32 */
    double lambda;            /* smooth: the screening weight, > 0 (required) */
    double scale;             /* smooth: gradient scale (0: plain smoothing, > 1 sharpens) */
    int normal_map;           /* integrate: non-zero: the input is a tangent-space normal map */
    int flip_y;               /* integrate: green points down (DirectX convention) */
} homg_image_desc;

/* Membrane inpainting: the masked pixels of img (mask: 8-bit, 1 channel, img's
 * size) replaced by the harmonic fill of the pixels around them; out: img's size
 * and type (may be img). */
homg_status homg_image_inpaint(homg_ctx *ctx, const homg_image *img, const homg_image *mask, const homg_image *out,
                               const homg_image_desc *desc, homg_image_info *info);
/* Gradient-domain smoothing (scale < 1) or sharpening (scale > 1): out minimises
 * lambda |u - img|^2 + |grad u - scale grad img|^2 (screened Poisson, Neumann
 * sides): (lambda + A) u = lambda img + scale A img with A = -Laplacian. */
homg_status homg_image_smooth(homg_ctx *ctx, const homg_image *img, const homg_image *out, const homg_image_desc *desc,
                              homg_image_info *info);
/* Height from a gradient field (2 channels: dh/dx, dh/dy per pixel, y down) or,
 * with normal_map, a tangent-space normal map (3+ channels, n = 2 v - 1 for
 * integer images; dh/dx = -nx / nz, dh/dy = ny / nz, y down, OpenGL's green up;
 * nz clamped to >= 0.05): A h = -div g with Neumann sides, mean zero.  out: 1
 * channel, float, the input's size, height in pixel units. */
homg_status homg_image_integrate(homg_ctx *ctx, const homg_image *grad, const homg_image *out,
                                 const homg_image_desc *desc, homg_image_info *info);

/* Image files (stb_image): PNG (8/16-bit), JPEG, BMP, TGA, PSD (merged or first
 * layer as stb reads it), HDR in; PNG (8/16-bit), JPEG (quality 95), HDR out by the
 * file name's extension.  read: into host memory the caller frees with free()
 * (img->data); `channels` 0 keeps the file's, 1..4 converts; 16-bit PNGs give U16,
 * HDR F32, the rest U8.  Files over max_pixels (0: 2^28) are refused from their
 * header, before any allocation.  Unreadable, truncated or malformed files are
 * HOMG_ERROR_IO / HOMG_ERROR_PARSE naming the path and stb's reason. */
homg_status homg_image_read(homg_ctx *ctx, const char *path, int channels, size_t max_pixels, homg_image *img);
/* The same from memory (`name` stands for the path in messages). */
homg_status homg_image_decode(homg_ctx *ctx, const char *name, const void *bytes, size_t len, int channels,
                              size_t max_pixels, homg_image *img);
/* img in host memory; .png takes U8 or U16, .jpg/.jpeg U8, .hdr F32 (others are
 * converted: F32 to 8/16-bit clamped to [0, 1] and rounded).  HDR (RGBE) holds no
 * negative values: they are written as 0. */
homg_status homg_image_write(homg_ctx *ctx, const char *path, const homg_image *img);

/* ================================================================ GL views
 *
 * A homg_view shares one OpenGL object of the application with the context and
 * writes a field into it every frame, so a solution reaches the screen without
 * leaving the GPU:
 *   - a GL_TEXTURE_2D with internal format GL_R32F (the raw values, as float)
 *     or GL_RGBA8 (colours through the colour map of homg_write_png), written
 *     from a 2D field or from one plane of a 3D field;
 *   - a buffer object (one float, or 4 RGBA8 bytes, per value: vertex values or
 *     colours of a mesh, or anything a shader reads as a texture buffer or
 *     storage buffer); the application's own, or one the view creates and owns
 *     (gl_name = 0; homg_view_gl_name gives it).
 *
 * Three paths behind one call (homg_view_info says which one runs and why):
 *   MAP     the GL object registered with CUDA once (cudaGraphicsGLRegister*);
 *           each write maps it on the context's stream, runs the write kernel
 *           into it (textures through a surface object), unmaps it.  Works with
 *           every object; the map may wait on the host for GL's work on the
 *           object (0.02-0.05 ms per write on the H100).
 *   SHARED  device memory shared with GL for the view's life: a CUDA virtual-
 *           memory allocation exported as a file descriptor and imported into
 *           GL (GL_EXT_memory_object_fd) as a buffer.  CUDA writes it directly;
 *           GL reads it directly (a view-owned buffer: no copy at all) or copies
 *           it on the GPU into the application's object (glTexSubImage2D from it
 *           as a pixel-unpack buffer, glCopyBufferSubData).  The hand-over is
 *           ordered by two semaphores (GL_EXT_semaphore_fd, created exportable
 *           through Vulkan's libvulkan.so.1, imported into CUDA and GL).  Into
 *           the application's object the memory holds two slots written in
 *           turn: CUDA -> GL by the slot's semaphore, GL -> CUDA by a GL fence
 *           after GL's copy from the slot, which the host waits for two writes
 *           later (only when it runs more than two frames ahead of GL).  A
 *           view-owned buffer has one slot, ordered both ways on the GPU.
 *           Where semaphores cannot be had, by the host (a GL fence waited on,
 *           then the stream synchronised): info.semaphores = 0.
 *   UPLOAD  through host memory: the write kernel's output reaches GL with
 *           glTexSubImage2D / glBufferSubData.  What the CPU backend always
 *           does, and the CUDA backend where interop is impossible (the GL
 *           context on another GPU, on Mesa, on another vendor's driver).
 * HOMG_VIEW_PATH_AUTO (the default) takes UPLOAD on the CPU backend and where
 * the GL context is not on the context's CUDA device (cudaGLGetDevices; info
 * says so); otherwise it measures MAP and SHARED at create (a few frames of
 * write + hand-over + glFinish, on the object itself) and keeps the faster,
 * preferring one that does not block the host when it is within 10% (on the
 * H100: MAP for textures, SHARED for view-owned buffers; bench/results/h100_view.md).
 * There each GPU-side wait of CUDA for GL or of GL for CUDA costs ~0.17 ms of
 * GPU time (a MAP write has two, 0.33 ms even with GL idle; SHARED into the
 * application's object one), while CUDA and GL work with nothing shared
 * alternate for ~0.01 ms (bench_view F).
 * desc.latency = 1 lets SHARED into an application's
 * object drop both waits: its memory becomes a ring of 16 slots ordered by the
 * host both ways (memory per slot: the picture, w * h * 4 bytes, rounded up to
 * 2 MiB, the CUDA allocation granularity; so 16 x that: 64 MiB at 1024^2, 256 MiB
 * at 2048^2, 32 MiB for any picture up to 2 MiB.  That much because it is the only
 * way found to hand over for free: GL runs ~1 ms behind the host, so a slot drawn
 * is free again only ~4 frames later; on the H100 at 1024^2, over a loop with
 * nothing shared, 16 slots cost +0.006 ms a frame, 12 +0.016, 8 +0.024, 6 +0.045,
 * 3 +0.14, bench/results/h100_view.md J, K, L).  A write fills a slot GL has finished copying from (the host
 * looks at GL fences without waiting) and records a CUDA event; GL's copy into
 * the object is queued for the newest write whose event the host finds passed
 * (cudaEventQuery, no wait).  So a draw after homg_view_write shows a complete
 * frame, this write's or an earlier one's (info.shown says which; the first
 * write is waited for), never a half-written one; the host waits only when the
 * GPU is behind: when every slot is taken and, with the slots as textures (below),
 * for the oldest of 3 writes queued and not yet done (so most writes are shown,
 * 84 in 100 in the loop above, not one in four or fewer in a burst).  homg_view_flush hands over the last write.  With
 * latency, AUTO measures MAP and SHARED as a queued loop of writes (no glFinish
 * between them; H100: ring 0.18 ms, map 0.33).  MAP, UPLOAD and a view-owned
 * buffer ignore it.  Into a texture the ring's slots are textures themselves
 * where GL allows (glTexStorageMem2DEXT on the shared memory: GL_LINEAR_TILING_EXT
 * with CUDA writing the rows, info.direct = 1, else GL's own tiling with CUDA
 * writing a CUDA array made on the same memory, info.direct = 2; each checked at
 * create by reading back what the write kernel put there; info.reason says which
 * or why neither; the H100's driver gives the second): GL samples the slot CUDA
 * wrote and nothing is copied; the application's texture is then not written,
 * so draw homg_view_gl_texture(view) -- the name to
 * bind after each write or flush, valid until the next one; it is the
 * application's texture wherever the slots are not textures (every other path,
 * Mesa, the CPU backend), so drawing it is always right.  The slot textures
 * sample as the application's texture did at create (min/mag filter, wraps).
 * H100, heat 1024^2: a pipelined loop (no host wait) takes 0.265 ms a frame with
 * the ring drawn directly, against 0.585 with MAP and 0.258-0.260 with nothing
 * shared (the rest is the host waiting, rarely, for GL's fences before it reuses
 * a slot, not the shared memory, bench/results/h100_view.md I, K, L);
 * heat's pipelined demo 0.30-0.37 ms mean against 0.58 with MAP; but a loop whose
 * host waits for CUDA every frame (the demos' solves read a norm each cycle)
 * is faster with MAP (bench/results/h100_view.md G, H).  Asking
 * for MAP or SHARED where the GL context is on another device is
 * HOMG_ERROR_UNSUPPORTED, naming both devices.
 *
 * GL: the library links no GL library and creates no window or context.  It
 * uses the context current on the calling thread (current for create, write and
 * destroy) and finds every GL function through desc.get_proc_address (pass
 * glfwGetProcAddress, eglGetProcAddress, SDL_GL_GetProcAddress ...).  It calls
 * glGetError, glGetString(i), glGetIntegerv, glIsTexture, glIsBuffer,
 * glBindTexture, glGetTexLevelParameteriv, glTexSubImage2D, glPixelStorei,
 * glBindBuffer, glGetBufferParameteriv, glGenBuffers, glDeleteBuffers,
 * glBufferData, glBufferSubData, glCopyBufferSubData, glFlush, glFinish,
 * glFenceSync, glClientWaitSync, glDeleteSync (GL 3.2), and, for SHARED, the
 * GL_EXT_memory_object(_fd) and GL_EXT_semaphore(_fd) functions and
 * glGetUnsignedBytei_vEXT; for the ring's slot textures glGenTextures,
 * glDeleteTextures, glTexParameteri, glGetTexParameteriv, glGetTexImage.  It
 * restores every binding and pixel-store setting it changes, and leaves no GL
 * error behind: a GL error its own calls raise is
 * read and reported (HOMG_ERROR_BACKEND).
 *
 * Bad input is a clear status with the ctx message naming it: no current GL
 * context, a name that is not a texture or buffer (never made, deleted, or of
 * another target), a texture format other than GL_R32F / GL_RGBA8, a field whose
 * size differs from the texture's (or exceeds the buffer's), a colour range that
 * is not finite.  A build of homg without GL headers has no views: every call
 * returns HOMG_ERROR_UNSUPPORTED and says so.
 */

typedef struct homg_view homg_view;

/* glfwGetProcAddress and eglGetProcAddress have this type. */
typedef void (*homg_gl_proc)(void);
typedef homg_gl_proc (*homg_gl_loader)(const char *name);

typedef enum homg_view_target {
    HOMG_VIEW_TEXTURE_2D = 0, /* a GL_TEXTURE_2D (default) */
    HOMG_VIEW_BUFFER          /* a buffer object */
} homg_view_target;

typedef enum homg_view_format {
    HOMG_VIEW_FORMAT_DEFAULT = 0, /* a texture's own internal format; R32F for buffers */
    HOMG_VIEW_R32F,               /* the values as float */
    HOMG_VIEW_RGBA8               /* colours through the colour map, 4 bytes R G B A */
} homg_view_format;

typedef enum homg_view_path {
    HOMG_VIEW_PATH_AUTO = 0, /* measured at create, as above */
    HOMG_VIEW_PATH_MAP,
    HOMG_VIEW_PATH_SHARED,
    HOMG_VIEW_PATH_UPLOAD
} homg_view_path;

typedef struct homg_view_desc {
    homg_gl_loader get_proc_address; /* required */
    homg_view_target target;
    unsigned gl_name;        /* the texture or buffer; 0 with BUFFER: the view makes one of `count` values */
    homg_view_format format; /* must agree with a texture's internal format */
    int count;               /* BUFFER with gl_name = 0: values in the view's buffer */
    homg_view_path path;
    int no_semaphores; /* SHARED: order by the host even where semaphores are available */
    int latency;       /* 1: the object may show an earlier complete write (see below), so that
                          SHARED into an application's object waits on neither GPU context */
} homg_view_desc;

/* A field to write: `values` (homg_view_write's argument) holds nx*ny (2D) or
 * nx*ny*nz (3D) values in the ctx's space, x fastest, like a homg_grid; a
 * vector (a mesh's nodes) is nx values with ny = 1.  A 2D field fills the
 * picture as is: value (i, j) goes to texel (i, j), row j = 0 first, i.e. at
 * the bottom in GL's texture coordinates (a buffer: value i + nx*j at index
 * i + nx*j).  A 3D field writes the plane `slice` across `slice_axis`: Z gives
 * an nx x ny picture, Y nx x nz (x across, z up), X ny x nz (y across, z up). */
typedef enum homg_view_axis { HOMG_VIEW_SLICE_Z = 0, HOMG_VIEW_SLICE_Y, HOMG_VIEW_SLICE_X } homg_view_axis;

typedef struct homg_view_write_desc {
    homg_precision precision;
    int nx, ny, nz; /* ny = 0: 1; nz = 0: a 2D field */
    homg_view_axis slice_axis;
    int slice;
    double lo, hi; /* RGBA8: the values at the two ends of the map (lo > hi reverses it); lo == hi:
                      the range of the finite values written, found on the device each write */
} homg_view_write_desc;

typedef struct homg_view_info {
    homg_view_path path;     /* the one that runs (never AUTO) */
    homg_view_format format; /* resolved */
    int width, height;       /* the object's size in values (a buffer: its capacity x 1) */
    unsigned gl_name;        /* the object written: desc.gl_name or the view's own buffer */
    int semaphores;          /* SHARED: 1 ordered on the GPU by semaphores, 0 by the host */
    int host_waits;          /* 1 when a write may wait on the host for GPU work */
    double measured_ms[4];   /* AUTO: median ms of write + hand-over + glFinish per path
                                (index: homg_view_path); 0 = not measured */
    char reason[256];        /* why this path ("fastest measured ...", "CPU backend", ...) */
    char gl_renderer[128];   /* GL_RENDERER of the context at create */
    long long shown;         /* the write (1 = the first) whose values GL commands issued now see:
                                the last one, except with desc.latency on the SHARED ring */
    int direct;              /* nonzero: the SHARED ring's slots are textures GL samples (no copy;
                                1 linear tiling, 2 CUDA arrays): draw homg_view_gl_texture, the
                                application's texture is not written */
} homg_view_info;

homg_view_desc homg_view_desc_defaults(const homg_view_desc *desc);
/* Checks the GL object and the GL context's device, sets up the path (AUTO: by
 * measuring, which writes a few frames of zeros into the object).  Synchronises
 * the ctx's stream (set-up only). */
homg_status homg_view_create(homg_ctx *ctx, const homg_view_desc *desc, homg_view **out);
/* Needs the GL context current (GL objects are deleted); waits for queued work. */
void homg_view_destroy(homg_view *view);
/* Writes `values` (ctx space) into the GL object, queued on the ctx's stream
 * where the path allows: GL commands issued after this call see the new values. */
homg_status homg_view_write(homg_view *view, const void *values, const homg_view_write_desc *desc);
/* desc.latency: waits on the host for the last write and hands it to GL, so GL
 * commands issued after this call see it (before a screenshot); otherwise nothing. */
homg_status homg_view_flush(homg_view *view);
homg_status homg_view_get_info(const homg_view *view, homg_view_info *info);
unsigned homg_view_gl_name(const homg_view *view);
/* The texture to draw the shown write from, after each write or flush: with
 * info.direct the ring slot's texture, otherwise homg_view_gl_name. */
unsigned homg_view_gl_texture(const homg_view *view);
/* The colour range of the last write (found or given); copies from the device
 * (a host synchronisation, as the name says). */
homg_status homg_view_range_to_host(homg_view *view, double *lo, double *hi);
/* "map", "shared", "upload", "auto". */
const char *homg_view_path_name(homg_view_path path);

/* Frame timers: events on the ctx's stream (host clock on the CPU backend), for
 * the "solver ms" of a frame loop without including CUDA headers. */
typedef struct homg_timer homg_timer;
homg_status homg_timer_create(homg_ctx *ctx, homg_timer **out);
void homg_timer_destroy(homg_timer *timer);
homg_status homg_timer_start(homg_timer *timer);
homg_status homg_timer_stop(homg_timer *timer);
/* ms between the last start and stop; waits until stop has passed (read it a
 * frame later to keep the loop free of host waits). */
homg_status homg_timer_ms(homg_timer *timer, double *ms);

/* ================================================================ fluids
 *
 * homg_fluid: 2D incompressible flow by stable fluids (semi-Lagrangian
 * advection, then a pressure projection solved by homg_grid), for smoke and
 * the like in a frame loop.  A MAC grid of nx x ny cells of width h: density
 * and pressure per cell, x-velocity on the (nx+1)*ny vertical faces, y-velocity
 * on the nx*(ny+1) horizontal ones, all i fastest, float32, in the ctx's space.
 * The box's sides and solid cells are zero-flux walls.  Each step: the velocity
 * is advected by itself, projected (-Lap p = -div u with Neumann walls, then
 * u -= grad p, with the time step folded into p), and the density is advected
 * by the projected velocity.  Nothing is copied to the host; with tol < 0 a
 * step never waits for the device.
 */

typedef struct homg_fluid homg_fluid;

/* Where the projection's multigrid starts (with solid cells and tol > 0). */
typedef enum homg_fluid_start {
    HOMG_FLUID_START_DEFAULT = 0, /* EXTRAPOLATED */
    HOMG_FLUID_START_LAST,        /* the last step's pressure */
    HOMG_FLUID_START_BOX,         /* the DCT solution of the box without the solids (one FFT solve):
                                     its error sits at the walls; fewer cycles only while fresh
                                     momentum dominates (bench/results/h100_fluid.md) */
    HOMG_FLUID_START_EXTRAPOLATED /* in a step, the last two steps' pressures extrapolated in time,
                                     2 p_n - p_n-1 (homg_fluid_project: the last pressure); fewer
                                     cycles in steady flow (bench/results/h100_fluid.md, s9-smoke2) */
} homg_fluid_start;

typedef struct homg_fluid_desc {
    int nx, ny;             /* cells (ny = 0: ny = nx), >= 2 */
    double h;               /* cell width (default 1/max(nx, ny)) */
    homg_method method;     /* pressure solver (default DEFAULT) */
    double tol;             /* divergence left after the projection, relative to before (default
                             1e-3); < 0: run exactly max_cycles, no host wait */
    int max_cycles;         /* multigrid cycles at most (default 20) */
    int jacobi;             /* > 0: project with this many Jacobi sweeps instead of homg_grid
                             (what many engines do; the demo shows what it leaves) */
    double density_decay;   /* fraction of the density lost per unit time (default 0) */
    int pre, post;          /* smoothing sweeps of the projection's multigrid cycles (0: 1 and 2,
                             V(1,2): the fastest frame on the H100, bench/results/h100_fluid.md) */
    homg_fluid_start start; /* the multigrid's initial pressure where there are solid cells */
} homg_fluid_desc;

typedef enum homg_fluid_field {
    HOMG_FLUID_DENSITY = 0, /* nx*ny */
    HOMG_FLUID_VELOCITY_X,  /* (nx+1)*ny */
    HOMG_FLUID_VELOCITY_Y,  /* nx*(ny+1) */
    HOMG_FLUID_PRESSURE,    /* nx*ny, the last projection's (times the time step) */
    HOMG_FLUID_DIVERGENCE   /* nx*ny, div u after the last projection (homg_fluid_divergence) */
} homg_fluid_field;

typedef struct homg_fluid_info {
    int cycles;             /* multigrid cycles, FFT solves (a direct solve, repeated on what is
                               left while above tol: float32 rounding) or Jacobi sweeps */
    int waits;              /* host waits for the device in the projection (multigrid with
                               tol > 0: one, or one per extra cycle where the predicted count
                               fell short; see homg_fluid_step) */
    double divergence_left; /* ||div u after|| / ||div u before||; -1 when not measured (Jacobi,
                               tol < 0) */
    homg_method method;     /* the grid method that ran (DEFAULT when jacobi > 0) */
} homg_fluid_info;

homg_fluid_desc homg_fluid_desc_defaults(const homg_fluid_desc *desc);
homg_status homg_fluid_create(homg_ctx *ctx, const homg_fluid_desc *desc, homg_fluid **out);
void homg_fluid_destroy(homg_fluid *fluid);
/* Solid cells: nx*ny bytes in the ctx's space, non-zero = solid (NULL: none).  The
 * velocity on their faces becomes zero at the next projection; density there is dropped.
 * Waits for the device once (the number of solid cells): while there are none, the
 * projection's grid has no flags, so method DEFAULT solves it directly by the DCT (FFT). */
homg_status homg_fluid_set_solid(homg_fluid *fluid, const unsigned char *solid);
/* Adds Gaussian splats (centres in the box's coordinates, x in [0, nx h]) to a
 * field: density, or one velocity component. */
homg_status homg_fluid_splat(homg_fluid *fluid, homg_fluid_field field, const homg_splat *splats, int num_splats);
/* Makes the velocity divergence-free (info may be NULL). */
homg_status homg_fluid_project(homg_fluid *fluid, homg_fluid_info *info);
/* Advect, project, advect the density: one time step of dt.  A multigrid projection
 * with tol > 0 queues the number of cycles the last steps needed with no host wait,
 * reads the divergence left once, and only where that is above tol cycles on to tol
 * (waiting after each cycle); the count for the next step follows. */
homg_status homg_fluid_step(homg_fluid *fluid, double dt, homg_fluid_info *info);
/* Computes HOMG_FLUID_DIVERGENCE from the current velocity. */
homg_status homg_fluid_divergence(homg_fluid *fluid);
/* A field's array in the ctx's space (valid until destroy and until the next step,
 * which swaps buffers); NULL for a bad field.  The caller may write velocity and density
 * between steps (forces, sources of its own). */
float *homg_fluid_data(homg_fluid *fluid, homg_fluid_field field);
/* Changes the solver settings of desc (method, tol, max_cycles, jacobi, density_decay,
 * pre, post, start)
 * keeping the state; nx, ny and h must stay as they are. */
homg_status homg_fluid_configure(homg_fluid *fluid, const homg_fluid_desc *desc);
/* Zeroes velocity, density and pressure. */
homg_status homg_fluid_reset(homg_fluid *fluid);

#ifdef __cplusplus
}
#endif
#endif /* HOMG_H */
