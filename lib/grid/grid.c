/* grid.c -- the structured-grid solver object: desc validation, the level
 * hierarchy, input checks, and the solve driver that queues cycles (captured
 * into CUDA graphs on the CUDA backend) and monitors convergence with at most
 * one host read per cycle.
 *
 * The discrete problem (see also lib/homg.h and kernels/grid/grid_kernels.h):
 *   -Laplace(u) + lambda u = f on [0, nx h] x [0, ny h], cell-centred unknowns
 *   u_ij at ((i+1/2)h, (j+1/2)h), 5-point stencil, Dirichlet values g on the cell
 *   faces through the ghost value 2g - u_edge.  It is second-order accurate: the
 *   error against a smooth analytic solution falls as O(h^2) (tests/test_grid.c). */
#include "grid_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int is_pow2(int n) { return n > 0 && (n & (n - 1)) == 0; }

/* The method that reached the benchmark's accuracy first on the H100
 * (bench/results/h100.md, 2026-11-21): the textbook V-cycle up to 2048^2 in
 * float32 and 1024^2 in float64, the fused FMG above; README.md has the numbers. */
static homg_method default_method(const homg_grid_desc *d)
{
    const double n = (double)d->nx * d->ny, fmg_from = d->precision == HOMG_FLOAT64 ? 2048.0 * 2048 : 4096.0 * 4096;
    return n >= fmg_from ? HOMG_METHOD_FMG : HOMG_METHOD_VCYCLE;
}

homg_grid_desc homg_grid_desc_defaults(const homg_grid_desc *desc)
{
    homg_grid_desc d;
    if (desc)
        d = *desc;
    else
        memset(&d, 0, sizeof d);
    if (d.ny == 0)
        d.ny = d.nx;
    if (d.h == 0 && d.nx > 0)
        d.h = 1.0 / (d.nx > d.ny ? d.nx : d.ny);
    if (d.method == HOMG_METHOD_DEFAULT)
        d.method = default_method(&d);
    if (d.maxi == 0)
        d.maxi = 4;
    if (d.omega == 0)
        d.omega = 0.8;
    if (d.pre == 0)
        d.pre = 2;
    if (d.post == 0)
        d.post = 2;
    return d;
}

static homg_status check_desc(homg_ctx *ctx, const homg_grid_desc *d)
{
    if (!is_pow2(d->nx) || d->nx < 4)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.nx = %d: must be a power of two >= 4", d->nx);
    if (!is_pow2(d->ny) || d->ny < 4)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.ny = %d: must be a power of two >= 4", d->ny);
    if (d->nx > (1 << 16) || d->ny > (1 << 16))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.nx x desc.ny = %d x %d: at most 65536 per side",
                          d->nx, d->ny);
    if (!(d->h > 0) || !isfinite(d->h))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.h = %g: must be finite and > 0", d->h);
    if (!(d->lambda >= 0) || !isfinite(d->lambda))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.lambda = %g: must be finite and >= 0", d->lambda);
    if (d->precision != HOMG_FLOAT32 && d->precision != HOMG_FLOAT64)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.precision = %d is not a homg_precision",
                          (int)d->precision);
    if (d->method < HOMG_METHOD_HOMG || d->method > HOMG_METHOD_FMG)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.method = %d is not a homg_method", (int)d->method);
    if (d->maxi < 1 || d->maxi > 4096)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.maxi = %d: must be 1..4096", d->maxi);
    if (!(d->omega > 0 && d->omega <= 1))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.omega = %g: must be in (0, 1]", d->omega);
    if (d->pre < 0 || d->pre > 16 || d->post < 0 || d->post > 16)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.pre = %d, desc.post = %d: must be 0..16", d->pre,
                          d->post);
    if (d->method == HOMG_METHOD_FMG && (d->pre > 3 || d->post > 3))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "desc.pre = %d, desc.post = %d: the fused FMG steps take 0..3 sweeps each", d->pre, d->post);
    return HOMG_OK;
}

static void free_arrays(homg_grid *g)
{
    for (int k = 0; k < HOMG_GRID_MAX_LEVELS; k++) {
        homg__free(g->ctx, g->u[k]);
        homg__free(g->ctx, g->f[k]);
        homg__free(g->ctx, g->fm[k]);
        homg__free(g->ctx, g->u2[k]);
        for (int s = 0; s < 4; s++)
            homg__free(g->ctx, g->gbc[k][s]);
    }
    homg__free(g->ctx, g->r);
    homg__free(g->ctx, g->ea);
    homg__free(g->ctx, g->eb);
    homg__free(g->ctx, g->ta);
    homg__free(g->ctx, g->u0_scratch);
    homg__free(g->ctx, g->coarse_qx);
    homg__free(g->ctx, g->coarse_qy);
    homg__free(g->ctx, g->coarse_inv_eig);
    homg__free(g->ctx, g->hist);
    homg__free(g->ctx, g->hist_count);
    homg__free(g->ctx, g->scratch);
    homg__free(g->ctx, g->flags);
    for (int i = 0; i < HOMG_GRID_GRAPHS; i++)
        if (g->graphs[i].graph)
            g->ctx->mem->graph_destroy(g->graphs[i].graph);
}

/* Orthonormal sine basis of the cell-centred Dirichlet operator on n cells,
 * q[i*n + k] = c_k sin(pi (k+1) (i+1/2) / n), and its eigenvalues (4/h^2) sin^2(pi (k+1) / (2n)). */
static void sine_basis(int n, double h, double *q, double *eig)
{
    const double pi = 3.14159265358979323846;
    for (int k = 0; k < n; k++) {
        double c = sqrt((k == n - 1 ? 1.0 : 2.0) / n), sk = sin(pi * (k + 1) / (2.0 * n));
        eig[k] = 4.0 / (h * h) * sk * sk;
        for (int i = 0; i < n; i++)
            q[i * n + k] = c * sin(pi * (k + 1) * (i + 0.5) / n);
    }
}

/* Uploads n doubles in the grid's precision. */
static homg_status upload(homg_grid *g, const double *x, size_t n, void **out, const char *what)
{
    void *host = homg__host_alloc(g->ctx, n * g->elem, what);
    homg_status st;
    if (!host)
        return HOMG_ERROR_OUT_OF_MEMORY;
    for (size_t k = 0; k < n; k++) {
        if (g->elem == sizeof(double))
            ((double *)host)[k] = x[k];
        else
            ((float *)host)[k] = (float)x[k];
    }
    st = homg__alloc(g->ctx, n * g->elem, out, what);
    if (st == HOMG_OK) {
        st = g->ctx->mem->copy(&g->ctx->ex, *out, host, n * g->elem, HOMG_H2D);
        if (st != HOMG_OK)
            homg__backend_fail(g->ctx, st, what);
    }
    free(host);
    return st;
}

/* The exact solver of the coarsest level (kernels/grid/grid_kernels.h, coarse_exact). */
static homg_status setup_coarse_exact(homg_grid *g)
{
    const grid_level *L = &g->lv[g->nlevels - 1];
    const int nx = L->nx, ny = L->ny;
    double h = 1.0 / sqrt(L->inv_h2);
    double qx[HOMG_COARSE_EXACT_MAX * HOMG_COARSE_EXACT_MAX], qy[HOMG_COARSE_EXACT_MAX * HOMG_COARSE_EXACT_MAX];
    double ex[HOMG_COARSE_EXACT_MAX], ey[HOMG_COARSE_EXACT_MAX];
    double inv[HOMG_COARSE_EXACT_MAX * HOMG_COARSE_EXACT_MAX];
    sine_basis(nx, h, qx, ex);
    sine_basis(ny, h, qy, ey);
    for (int ky = 0; ky < ny; ky++)
        for (int kx = 0; kx < nx; kx++)
            inv[ky * nx + kx] = 1.0 / (ex[kx] + ey[ky] + L->lambda);
    HOMG_TRY(upload(g, qx, (size_t)nx * nx, &g->coarse_qx, "coarse solver"));
    HOMG_TRY(upload(g, qy, (size_t)ny * ny, &g->coarse_qy, "coarse solver"));
    return upload(g, inv, (size_t)nx * ny, &g->coarse_inv_eig, "coarse solver");
}

static homg_status alloc_arrays(homg_grid *g)
{
    const homg_grid_desc *d = &g->desc;
    double h = d->h;
    int nx = d->nx, ny = d->ny;

    /* the multigrid hierarchy down to a level the exact solver takes (both sides
     * <= HOMG_COARSE_EXACT_MAX), or to a smallest side of 2 for long rectangles */
    g->nlevels = 0;
    for (;;) {
        grid_level *L = &g->lv[g->nlevels];
        L->nx = nx;
        L->ny = ny;
        L->inv_h2 = 1.0 / (h * h);
        L->lambda = d->lambda;
        g->nlevels++;
        if ((nx <= HOMG_COARSE_EXACT_MAX && ny <= HOMG_COARSE_EXACT_MAX) || nx == 2 || ny == 2 ||
            g->nlevels == HOMG_GRID_MAX_LEVELS)
            break;
        nx /= 2;
        ny /= 2;
        h *= 2;
    }
    if (d->method != HOMG_METHOD_HOMG) {
        for (int k = 1; k < g->nlevels; k++) {
            size_t bytes = (size_t)g->lv[k].nx * g->lv[k].ny * g->elem;
            HOMG_TRY(homg__alloc(g->ctx, bytes, &g->u[k], "multigrid level"));
            HOMG_TRY(homg__alloc(g->ctx, bytes, &g->f[k], "multigrid level"));
            if (d->method == HOMG_METHOD_FMG)
                HOMG_TRY(homg__alloc(g->ctx, bytes, &g->u2[k], "multigrid level"));
            for (int s = 0; s < 4; s++)
                HOMG_TRY(homg__alloc(g->ctx, (size_t)(s < 2 ? g->lv[k].ny : g->lv[k].nx) * g->elem, &g->gbc[k][s],
                                     "multigrid level boundary"));
        }
        if (d->method == HOMG_METHOD_FMG)
            HOMG_TRY(homg__alloc(g->ctx, (size_t)d->nx * d->ny * g->elem, &g->u0_scratch, "finest level"));
        if (nx <= HOMG_COARSE_EXACT_MAX && ny <= HOMG_COARSE_EXACT_MAX)
            HOMG_TRY(setup_coarse_exact(g));
    } else {
        HOMG_TRY(homg__homg_alloc(g));
    }
    HOMG_TRY(homg__alloc(g->ctx, HOMG_GRID_HIST_MAX * sizeof(double), (void **)&g->hist, "history"));
    HOMG_TRY(homg__alloc(g->ctx, sizeof(int), (void **)&g->hist_count, "history"));
    HOMG_TRY(homg__alloc(g->ctx, 2 * sizeof(double), (void **)&g->scratch, "norms"));
    HOMG_TRY(homg__alloc(g->ctx, 6 * sizeof(long long), (void **)&g->flags, "input check"));
    /* the monitor accumulates into scratch and resets it after each use */
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(&g->ctx->ex, g->scratch, 2 * sizeof(double)), "zeroing norms");
    return HOMG_OK;
}

homg_status homg_grid_create(homg_ctx *ctx, const homg_grid_desc *desc, homg_grid **out)
{
    homg_grid *g;
    homg_status st;
    int saved;
    if (!ctx)
        return HOMG_ERROR_INVALID_ARGUMENT;
    homg__clear_error(ctx);
    if (!out)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_grid_create: out is NULL");
    *out = NULL;
    if (!desc)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_grid_create: desc is NULL");
    g = (homg_grid *)calloc(1, sizeof *g);
    if (!g)
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "homg_grid_create: out of host memory");
    g->ctx = ctx;
    g->desc = homg_grid_desc_defaults(desc);
    g->elem = g->desc.precision == HOMG_FLOAT64 ? sizeof(double) : sizeof(float);
    g->k = HOMG_KERNELS(&ctx->ex, grid);
    st = check_desc(ctx, &g->desc);
    if (st != HOMG_OK) {
        free(g);
        return st;
    }
    st = homg__enter(ctx, &saved);
    if (st != HOMG_OK) {
        free(g);
        return st;
    }
    st = alloc_arrays(g);
    if (st != HOMG_OK) {
        char msg[sizeof ctx->msg];
        memcpy(msg, ctx->msg, sizeof msg);
        free_arrays(g);
        free(g);
        homg__leave(ctx, saved);
        return homg__fail(ctx, st, "homg_grid_create (%d x %d, %s): %s", desc->nx, desc->ny ? desc->ny : desc->nx,
                          desc->precision == HOMG_FLOAT64 ? "float64" : "float32", msg);
    }
    homg__leave(ctx, saved);
    *out = g;
    return HOMG_OK;
}

void homg_grid_destroy(homg_grid *g)
{
    int saved;
    if (!g)
        return;
    if (homg__enter(g->ctx, &saved) == HOMG_OK) {
        free_arrays(g);
        homg__leave(g->ctx, saved);
    }
    free(g);
}

homg_grid_desc homg_grid_get_desc(const homg_grid *g)
{
    homg_grid_desc d;
    if (g)
        return g->desc;
    memset(&d, 0, sizeof d);
    return d;
}

/* ------------------------------------------------------------ input checks */

static homg_status check_inputs(homg_grid *g, const void *f, const homg_boundary *bc, const void *u, int check_u)
{
    kernel_exec *ex = &g->ctx->ex;
    const homg_precision p = g->desc.precision;
    const int nx = g->desc.nx, ny = g->desc.ny;
    static const char *const names[6] = { "f", "u (warm start)", "bc.west", "bc.east", "bc.south", "bc.north" };
    const void *arr[6] = {
        f, check_u ? u : NULL, bc ? bc->west : NULL, bc ? bc->east : NULL, bc ? bc->south : NULL, bc ? bc->north : NULL
    };
    const size_t len[6] = { (size_t)nx * ny, (size_t)nx * ny, (size_t)ny, (size_t)ny, (size_t)nx, (size_t)nx };
    long long flags[6];

    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(ex, g->flags, sizeof flags), "input check");
    for (int a = 0; a < 6; a++)
        if (arr[a])
            HOMG_TRY_BACKEND(g->ctx, g->k->find_nonfinite(ex, p, len[a], arr[a], &g->flags[a]), "input check");
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->copy(ex, flags, g->flags, sizeof flags, HOMG_D2H), "input check");
    for (int a = 0; a < 6; a++)
        if (flags[a]) {
            long long k = flags[a] - 1;
            if (a < 2)
                return homg__fail(g->ctx, HOMG_ERROR_INVALID_ARGUMENT,
                                  "%s is not finite at (i, j) = (%lld, %lld) (index %lld)", names[a], k % nx, k / nx,
                                  k);
            return homg__fail(g->ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s is not finite at index %lld", names[a], k);
        }
    return HOMG_OK;
}

static homg_status check_pointers(homg_grid *g, const void *f, const homg_boundary *bc, void *u,
                                  const homg_solve_desc *sd)
{
    HOMG_TRY(homg__check_pointer(g->ctx, f, "f"));
    HOMG_TRY(homg__check_pointer(g->ctx, u, "u"));
    if (f == u)
        return homg__fail(g->ctx, HOMG_ERROR_INVALID_ARGUMENT, "f and u are the same array");
    /* the CUDA kernels move pairs of values: cudaMalloc'd pointers always qualify */
    if (((uintptr_t)f | (uintptr_t)u) % (2 * g->elem))
        return homg__fail(g->ctx, HOMG_ERROR_INVALID_ARGUMENT, "f and u must be aligned to %zu bytes (f = %p, u = %p)",
                          2 * g->elem, f, u);
    if (bc) {
        const void *b[4] = { bc->west, bc->east, bc->south, bc->north };
        static const char *const names[4] = { "bc.west", "bc.east", "bc.south", "bc.north" };
        for (int s = 0; s < 4; s++)
            if (b[s])
                HOMG_TRY(homg__check_pointer(g->ctx, b[s], names[s]));
    }
    if (sd->u_ref)
        HOMG_TRY(homg__check_pointer(g->ctx, sd->u_ref, "desc.u_ref"));
    if (sd->max_cycles < 0 || sd->max_cycles > HOMG_GRID_HIST_MAX)
        return homg__fail(g->ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.max_cycles = %d: must be 1..%d", sd->max_cycles,
                          HOMG_GRID_HIST_MAX);
    if (!(sd->tol >= 0) || !isfinite(sd->tol))
        return homg__fail(g->ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.tol = %g: must be finite and >= 0", sd->tol);
    return HOMG_OK;
}

/* ------------------------------------------------------------ queued cycles */

/* Queues `count` cycles (the first of kind first_kind), each followed by the
 * monitor when asked. */
static homg_status queue_cycles(homg_grid *g, const homg_seq_key *key, const grid_level *L0)
{
    for (int c = 0; c < key->count; c++) {
        int kind = c == 0 ? key->first_kind : HOMG_CYCLE_NORMAL;
        if (g->desc.method == HOMG_METHOD_HOMG)
            HOMG_TRY(homg__homg_restart(g, L0, key->f, (void *)key->u));
        else
            HOMG_TRY(homg__mg_cycle(g, L0, key->f, (void *)key->u, kind));
        if (key->monitor) {
            HOMG_TRY_BACKEND(g->ctx,
                             g->k->monitor(&g->ctx->ex, g->desc.precision, L0, key->u, key->f, key->u_ref, g->scratch,
                                           g->hist, g->hist_count),
                             "monitor");
            homg__account(g, 2, 1, 2.0 * L0->nx * L0->ny);
        }
    }
    return HOMG_OK;
}

/* Runs a sequence: replays its graph when one was captured for the same key,
 * captures one on the CUDA backend, runs it directly on the CPU. */
static homg_status run_sequence(homg_grid *g, const homg_seq_key *key, const grid_level *L0)
{
    kernel_exec *ex = &g->ctx->ex;
    homg_graph_entry *e = NULL, *victim = &g->graphs[0];
    long launches0 = g->launches;
    double wu0 = g->wu, values0 = g->values_moved;
    homg_status st;

    if (ex->backend != HOMG_BACKEND_CUDA)
        return queue_cycles(g, key, L0);
    for (int i = 0; i < HOMG_GRID_GRAPHS; i++) {
        if (g->graphs[i].graph && !memcmp(&g->graphs[i].key, key, sizeof *key))
            e = &g->graphs[i];
        if (g->graphs[i].used < victim->used)
            victim = &g->graphs[i];
    }
    if (!e) {
        e = victim;
        if (e->graph)
            g->ctx->mem->graph_destroy(e->graph);
        memset(e, 0, sizeof *e);
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->capture_begin(ex), "graph capture");
        st = queue_cycles(g, key, L0);
        if (st != HOMG_OK) {
            void *discard = NULL;
            g->ctx->mem->capture_end(ex, &discard);
            if (discard)
                g->ctx->mem->graph_destroy(discard);
            return st;
        }
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->capture_end(ex, &e->graph), "graph instantiation");
        e->key = *key;
        e->launches = g->launches - launches0;
        e->wu = g->wu - wu0;
        e->values_moved = g->values_moved - values0;
        g->launches = launches0;
        g->wu = wu0;
        g->values_moved = values0;
    }
    e->used = ++g->graph_clock;
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->graph_launch(ex, e->graph), "graph launch");
    homg__account(g, e->launches, e->wu, e->values_moved);
    return HOMG_OK;
}

/* FMG starts with a full-multigrid cycle when it starts from zero. */
static int first_kind(const homg_grid *g, const homg_solve_desc *sd, int cycle)
{
    return g->desc.method == HOMG_METHOD_FMG && !sd->warm_start && cycle == 0 ? HOMG_CYCLE_FMG : HOMG_CYCLE_NORMAL;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static homg_status solve(homg_grid *g, const void *f, const homg_boundary *bc, void *u, const homg_solve_desc *sd,
                         homg_solve_info *info)
{
    kernel_exec *ex = &g->ctx->ex;
    grid_level L0 = g->lv[0];
    homg_seq_key key;
    const int max_cycles = sd->max_cycles ? sd->max_cycles : 50;
    const int monitor = sd->tol > 0 || sd->u_ref != NULL;
    int cycles = 0, converged = 0;
    double norm = -1;

    HOMG_TRY(check_pointers(g, f, bc, u, sd));
    if (bc) {
        L0.bc[HOMG_W] = bc->west;
        L0.bc[HOMG_E] = bc->east;
        L0.bc[HOMG_S] = bc->south;
        L0.bc[HOMG_N] = bc->north;
    }
    if (!sd->skip_input_check)
        HOMG_TRY(check_inputs(g, f, bc, u, sd->warm_start));
    if (!sd->warm_start && g->desc.method != HOMG_METHOD_FMG) {
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(ex, u, (size_t)g->desc.nx * g->desc.ny * g->elem), "zeroing u");
        homg__account(g, 1, 0, (double)g->desc.nx * g->desc.ny);
    }
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(ex, g->hist_count, sizeof(int)), "history");

    memset(&key, 0, sizeof key);
    key.f = f;
    key.u = u;
    key.u_ref = sd->u_ref;
    memcpy(key.bc, L0.bc, sizeof key.bc);
    key.monitor = monitor;
    if (sd->tol == 0) {
        /* a fixed number of cycles: one graph, no host synchronisation */
        key.first_kind = first_kind(g, sd, 0);
        key.count = max_cycles;
        HOMG_TRY(run_sequence(g, &key, &L0));
        cycles = max_cycles;
        if (sd->u_ref) {
            HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->copy(ex, &norm, g->hist + cycles - 1, sizeof norm, HOMG_D2H),
                             "reading the monitored norm");
        }
    } else {
        key.count = 1;
        for (cycles = 0; cycles < max_cycles && !converged;) {
            key.first_kind = first_kind(g, sd, cycles);
            HOMG_TRY(run_sequence(g, &key, &L0));
            cycles++;
            /* the one host read per cycle */
            HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->copy(ex, &norm, g->hist + cycles - 1, sizeof norm, HOMG_D2H),
                             "reading the monitored norm");
            if (!isfinite(norm))
                return homg__fail(g->ctx, HOMG_ERROR_NUMERIC, "the monitored norm became %g after cycle %d", norm,
                                  cycles);
            converged = norm <= sd->tol;
        }
    }
    if (info) {
        info->cycles = cycles;
        info->norm = norm;
        info->converged = converged;
    }
    if (sd->tol > 0 && !converged)
        return homg__fail(g->ctx, HOMG_ERROR_NOT_CONVERGED, "not converged: norm %.3e > tol %.3e after %d cycles", norm,
                          sd->tol, cycles);
    return HOMG_OK;
}

homg_status homg_grid_solve(homg_grid *g, const void *f, const homg_boundary *bc, void *u, const homg_solve_desc *desc,
                            homg_solve_info *info)
{
    homg_solve_desc sd;
    homg_status st;
    int saved;
    double t0 = now_ms();
    if (!g)
        return HOMG_ERROR_INVALID_ARGUMENT;
    if (desc)
        sd = *desc;
    else
        memset(&sd, 0, sizeof sd);
    if (info)
        memset(info, 0, sizeof *info);
    homg__clear_error(g->ctx);
    HOMG_TRY(homg__enter(g->ctx, &saved));
    g->launches = 0;
    g->wu = 0;
    g->values_moved = 0;
    st = solve(g, f, bc, u, &sd, info);
    homg__leave(g->ctx, saved);
    if (info) {
        info->launches = g->launches;
        info->work_units = g->wu;
        info->bytes = g->values_moved * g->elem;
        info->time_ms = now_ms() - t0;
        if (st != HOMG_OK && st != HOMG_ERROR_NOT_CONVERGED)
            info->norm = -1;
    }
    return st;
}

int homg_grid_history(homg_grid *g, double *host_out, int max)
{
    int n = 0, saved;
    if (!g || !host_out || max <= 0 || homg__enter(g->ctx, &saved) != HOMG_OK)
        return 0;
    if (g->ctx->mem->copy(&g->ctx->ex, &n, g->hist_count, sizeof n, HOMG_D2H) == HOMG_OK) {
        if (n > max)
            n = max;
        if (n > 0 && g->ctx->mem->copy(&g->ctx->ex, host_out, g->hist, (size_t)n * sizeof(double), HOMG_D2H) != HOMG_OK)
            n = 0;
    } else {
        n = 0;
    }
    homg__leave(g->ctx, saved);
    return n;
}

homg_status homg_grid_residual(homg_grid *g, const void *f, const homg_boundary *bc, const void *u, void *r)
{
    grid_level L0;
    homg_status st = HOMG_OK;
    int saved;
    if (!g)
        return HOMG_ERROR_INVALID_ARGUMENT;
    HOMG_TRY(homg__enter(g->ctx, &saved));
    L0 = g->lv[0];
    if (bc) {
        L0.bc[HOMG_W] = bc->west;
        L0.bc[HOMG_E] = bc->east;
        L0.bc[HOMG_S] = bc->south;
        L0.bc[HOMG_N] = bc->north;
    }
    if ((st = homg__check_pointer(g->ctx, f, "f")) == HOMG_OK &&
        (st = homg__check_pointer(g->ctx, u, "u")) == HOMG_OK &&
        (st = homg__check_pointer(g->ctx, r, "r")) == HOMG_OK) {
        st = g->k->residual(&g->ctx->ex, g->desc.precision, &L0, u, f, r);
        if (st != HOMG_OK)
            homg__k_fail(g, st, "homg_grid_residual");
    }
    homg__leave(g->ctx, saved);
    return st;
}
