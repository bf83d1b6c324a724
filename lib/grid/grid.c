/* grid.c -- the structured-grid solver object: desc validation, the operator,
 * and which solver runs a solve:
 *   box.c      the power-of-two 2D Dirichlet box with constant coefficients and one
 *              right-hand side (textbook and fused multigrid, HOMG of seed 003);
 *   fftpath.c  constant coefficients without flags, any size and sides (lib/fft);
 *   general*.c everything else: per-cell sigma, lambda and flags, any sizes, 2D
 *              and 3D, every side kind (cell-centred aggregation multigrid;
 *              general_internal.h lists its files).
 * The operator itself is stated in lib/homg.h. */
#include "grid_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int is_pow2(int n) { return n > 0 && (n & (n - 1)) == 0; }

homg_grid_desc homg_grid_desc_defaults(const homg_grid_desc *desc)
{
    homg_grid_desc d;
    if (desc)
        d = *desc;
    else
        memset(&d, 0, sizeof d);
    if (d.ny == 0)
        d.ny = d.nx;
    if (d.nz == 0)
        d.nz = 1;
    if (d.h == 0 && d.nx > 0) {
        int m = d.nx > d.ny ? d.nx : d.ny;
        d.h = 1.0 / (m > d.nz ? m : d.nz);
    }
    if (d.nrhs == 0)
        d.nrhs = 1;
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

/* The power-of-two 2D Dirichlet box of one right-hand side: the original solvers
 * (textbook and fused multigrid, HOMG) with their own kernels run it.  Never a
 * float16 grid: those kernels store float or double (the general path runs it). */
int homg__grid_box_desc(const homg_grid_desc *d)
{
    int dir = d->precision != HOMG_FLOAT16;
    for (int s = 0; s < 4; s++)
        dir &= d->bc[s] == HOMG_BC_DIRICHLET;
    return dir && d->nz == 1 && d->nrhs == 1 && is_pow2(d->nx) && is_pow2(d->ny) && d->nx >= 4 && d->ny >= 4 &&
           d->nx <= (1 << 16) && d->ny <= (1 << 16);
}

static const char *const side_names[6] = { "W", "E", "S", "N", "B", "T" };

static homg_status check_sides(homg_ctx *ctx, const homg_grid_desc *d)
{
    const int dims = d->nz > 1 ? 3 : 2;
    for (int s = 0; s < 6; s++)
        if ((int)d->bc[s] < HOMG_BC_DIRICHLET || (int)d->bc[s] > HOMG_BC_PERIODIC)
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                              "desc.bc[%d] (%s) = %d is not a homg_bc_kind (0 Dirichlet, 1 Neumann, 2 periodic)", s,
                              side_names[s], (int)d->bc[s]);
    for (int a = 0; a < dims; a++)
        if ((d->bc[2 * a] == HOMG_BC_PERIODIC) != (d->bc[2 * a + 1] == HOMG_BC_PERIODIC))
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                              "desc.bc[%d] (%s) = %d, desc.bc[%d] (%s) = %d: a periodic side needs a periodic "
                              "opposite side",
                              2 * a, side_names[2 * a], (int)d->bc[2 * a], 2 * a + 1, side_names[2 * a + 1],
                              (int)d->bc[2 * a + 1]);
    return HOMG_OK;
}

static homg_status check_desc(homg_ctx *ctx, const homg_grid_desc *d)
{
    const int sizes[3] = { d->nx, d->ny, d->nz };
    static const char *const names[3] = { "nx", "ny", "nz" };
    for (int a = 0; a < 3; a++)
        if (sizes[a] < 1)
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.%s = %d: must be >= 1", names[a], sizes[a]);
    if (!(d->h > 0) || !isfinite(d->h))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.h = %g: must be finite and > 0", d->h);
    if (d->precision != HOMG_FLOAT32 && d->precision != HOMG_FLOAT64 && d->precision != HOMG_FLOAT16)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.precision = %d is not a homg_precision",
                          (int)d->precision);
    if ((int)d->method < HOMG_METHOD_DEFAULT || d->method > HOMG_METHOD_FFT)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.method = %d is not a homg_method", (int)d->method);
    if (d->nrhs < 1 || d->nrhs > 4096)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.nrhs = %d: must be 1..4096", d->nrhs);
    HOMG_TRY(check_sides(ctx, d));
    if (d->maxi < 1 || d->maxi > 4096)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.maxi = %d: must be 1..4096", d->maxi);
    if (!(d->omega > 0 && d->omega <= 1))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.omega = %g: must be in (0, 1]", d->omega);
    if (d->pre < 0 || d->pre > 16 || d->post < 0 || d->post > 16)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.pre = %d, desc.post = %d: must be 0..16", d->pre,
                          d->post);
    if (d->two_pass < -1 || d->two_pass > 8)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.two_pass = %d: must be -1..8", d->two_pass);
    if (d->method == HOMG_METHOD_FMG && (d->pre > 3 || d->post > 3))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "desc.pre = %d, desc.post = %d: the fused FMG steps take 0..3 sweeps each", d->pre, d->post);
    return HOMG_OK;
}

/* The method the box solvers run for DEFAULT where FFT does not apply: the
 * fastest to accuracy on the H100 (bench/results/h100.md, 2026-11-21). */
static homg_method box_default_method(const homg_grid_desc *d)
{
    const double n = (double)d->nx * d->ny, fmg_from = d->precision == HOMG_FLOAT64 ? 2048.0 * 2048 : 4096.0 * 4096;
    return n >= fmg_from ? HOMG_METHOD_FMG : HOMG_METHOD_VCYCLE;
}

static const char *method_name(homg_method m)
{
    static const char *const names[] = { "DEFAULT", "HOMG", "VCYCLE", "FCYCLE", "FMG", "FFT" };
    return (int)m >= 0 && m <= HOMG_METHOD_FFT ? names[m] : "?";
}

/* A float16 grid's path: the general multigrid; HOMG and FFT (float or double kernels)
 * UNSUPPORTED. */
static grid_path half_path(homg_grid *g, homg_status *why)
{
    const homg_method m = g->desc.method;
    if (m != HOMG_METHOD_HOMG && m != HOMG_METHOD_FFT)
        return GRID_PATH_GENERAL;
    *why = homg__fail(g->ctx, HOMG_ERROR_UNSUPPORTED,
                      "desc.method = %s with desc.precision = HOMG_FLOAT16: float16 grids run the general multigrid "
                      "alone (VCYCLE, FCYCLE, FMG, DEFAULT)",
                      method_name(m));
    return GRID_PATH_NONE;
}

/* Which solver runs with the current operator; NONE with the reason in the ctx. */
static grid_path choose_path(homg_grid *g, homg_status *why)
{
    const homg_grid_desc *d = &g->desc;
    const int box = homg__grid_box_desc(d) && !g->op_arrays;
    *why = HOMG_OK;
    if (d->precision == HOMG_FLOAT16) /* half storage: the general multigrid alone */
        return half_path(g, why);
    switch (d->method) {
    case HOMG_METHOD_FFT:
        if (!g->op_arrays)
            return GRID_PATH_FFT;
        *why = homg__fail(g->ctx, HOMG_ERROR_UNSUPPORTED,
                          "method FFT needs constant sigma and lambda and no flags (the operator has per-cell arrays)");
        return GRID_PATH_NONE;
    case HOMG_METHOD_HOMG:
        if (box)
            return GRID_PATH_BOX;
        *why = homg__fail(g->ctx, HOMG_ERROR_UNSUPPORTED,
                          "method HOMG runs power-of-two 2D boxes (sides 4..65536) with Dirichlet sides, constant "
                          "coefficients, no flags and nrhs = 1 only (this grid: %d x %d x %d, nrhs %d%s)",
                          d->nx, d->ny, d->nz, d->nrhs, g->op_arrays ? ", per-cell operator arrays" : "");
        return GRID_PATH_NONE;
    case HOMG_METHOD_DEFAULT:
        if (!g->op_arrays && homg__fft_available())
            return GRID_PATH_FFT;
        return box ? GRID_PATH_BOX : GRID_PATH_GENERAL;
    default: return box ? GRID_PATH_BOX : GRID_PATH_GENERAL;
    }
}

static void free_all(homg_grid *g)
{
    homg__box_free(g);
    homg__gen_free(g);
    homg__fftpath_free(g);
    homg__free(g->ctx, g->hist_count); /* and hist, in the same block */
    homg__free(g->ctx, g->scratch);
    homg__free(g->ctx, g->flags);
}

static homg_status alloc_common(homg_grid *g)
{
    /* the count in the double before the values: history_part reads both in one copy */
    HOMG_TRY(homg__alloc(g->ctx, (HOMG_GRID_HIST_MAX + 1) * sizeof(double), (void **)&g->hist_count, "history"));
    g->hist = (double *)(void *)g->hist_count + 1;
    HOMG_TRY(homg__alloc(g->ctx, (2 + HOMG_TOL_OUT) * sizeof(double), (void **)&g->scratch, "norms"));
    HOMG_TRY(homg__alloc(g->ctx, HOMG_GRID_CHECK_FLAGS * sizeof(long long), (void **)&g->flags, "input check"));
    /* the monitor accumulates into scratch and resets it after each use */
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(&g->ctx->ex, g->scratch, 2 * sizeof(double)), "zeroing norms");
    return HOMG_OK;
}

/* Allocates what the current path needs and has not got yet. */
static homg_status prepare_path(homg_grid *g, grid_path path)
{
    if (path == GRID_PATH_BOX && !g->box_ready) {
        HOMG_TRY(homg__box_alloc(g));
        g->box_ready = 1;
    }
    if (path == GRID_PATH_FFT)
        return homg__fftpath_prepare(g);
    if (path == GRID_PATH_GENERAL)
        return homg__gen_prepare(g);
    return HOMG_OK;
}

static homg_status create(homg_grid *g)
{
    homg_status why;
    grid_path path;
    HOMG_TRY(homg__check_size(g));
    HOMG_TRY(alloc_common(g));
    path = choose_path(g, &why);
    /* HOMG on a problem it cannot run fails here, the others when they meet one */
    if (path == GRID_PATH_NONE)
        return why;
    return prepare_path(g, path);
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
    g->sigma_jump = -1;
    g->solid_cells = -1;
    g->elem = g->desc.precision == HOMG_FLOAT64   ? sizeof(double)
              : g->desc.precision == HOMG_FLOAT16 ? 2
                                                  : sizeof(float);
    g->k = HOMG_KERNELS(&ctx->ex, grid);
    g->sigma = 1;
    g->lambda = 0;
    g->run = g->desc.method == HOMG_METHOD_DEFAULT ? box_default_method(&g->desc) : g->desc.method;
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
    st = create(g);
    if (st != HOMG_OK) {
        char msg[sizeof ctx->msg];
        const int g_nx = g->desc.nx, g_ny = g->desc.ny, g_nz = g->desc.nz;
        memcpy(msg, ctx->msg, sizeof msg);
        free_all(g);
        free(g);
        homg__leave(ctx, saved);
        return homg__fail(ctx, st, "homg_grid_create (%d x %d x %d, %s, %s): %s", g_nx, g_ny, g_nz,
                          desc->precision == HOMG_FLOAT64   ? "float64"
                          : desc->precision == HOMG_FLOAT16 ? "float16"
                                                            : "float32",
                          method_name(desc->method), msg);
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
        free_all(g);
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

/* ------------------------------------------------------------ the operator */

homg_status homg_grid_set_operator(homg_grid *g, const homg_grid_operator *op)
{
    homg_grid_operator o;
    homg_status st = HOMG_OK, why;
    grid_path path;
    int saved;
    if (!g)
        return HOMG_ERROR_INVALID_ARGUMENT;
    homg__clear_error(g->ctx);
    if (!op)
        return homg__fail(g->ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_grid_set_operator: op is NULL");
    o = *op;
    if (o.sigma == 0)
        o.sigma = 1;
    if (!(o.sigma > 0) || !isfinite(o.sigma))
        return homg__fail(g->ctx, HOMG_ERROR_INVALID_ARGUMENT, "op.sigma = %g: must be finite and > 0", o.sigma);
    if (!(o.lambda >= 0) || !isfinite(o.lambda))
        return homg__fail(g->ctx, HOMG_ERROR_INVALID_ARGUMENT, "op.lambda = %g: must be finite and >= 0", o.lambda);
    if (g->desc.precision == HOMG_FLOAT16 && (o.sigma_cell || o.lambda_cell))
        return homg__fail(g->ctx, HOMG_ERROR_UNSUPPORTED,
                          "op.%s with desc.precision = HOMG_FLOAT16: per-cell coefficients are not taken in float16 "
                          "(constant sigma and lambda, and flags, are)",
                          o.sigma_cell ? "sigma_cell" : "lambda_cell");
    HOMG_TRY(homg__enter(g->ctx, &saved));
    st = homg__check_operator(g, &o);
    if (st == HOMG_OK) {
        g->sigma = o.sigma;
        g->lambda = o.lambda;
        g->op_arrays = o.sigma_cell || o.lambda_cell || o.flags;
        path = choose_path(g, &why);
        if (path == GRID_PATH_NONE)
            st = why;
        else if ((st = prepare_path(g, path)) == HOMG_OK) {
            if (g->box_ready)
                st = homg__box_set_constants(g);
            /* the general levels also serve homg_grid_residual once they exist */
            if (st == HOMG_OK && (path == GRID_PATH_GENERAL || g->gen))
                st = homg__gen_set_operator(g, &o);
        }
    }
    homg__leave(g->ctx, saved);
    return st;
}

/* ------------------------------------------------------------ solves */

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static homg_status solve(homg_grid *g, const void *f, const homg_boundary *bc, void *u, const homg_solve_desc *sd,
                         homg_solve_info *info, grid_path *ran)
{
    homg_status why;
    grid_path path = choose_path(g, &why);
    *ran = path;
    if (path == GRID_PATH_NONE)
        return why;
    HOMG_TRY(homg__check_solve_args(g, f, bc, u, sd));
    if (!sd->skip_input_check)
        HOMG_TRY(homg__check_solve_values(g, f, bc, u, sd->warm_start));
    HOMG_TRY(prepare_path(g, path));
    g->hist_lanes = 1;
    if (path == GRID_PATH_BOX)
        return homg__box_solve(g, f, bc, u, sd, info);
    if (path == GRID_PATH_FFT)
        return homg__fftpath_solve(g, f, bc, u, sd, info);
    return homg__gen_solve(g, f, bc, u, sd, info);
}

static homg_method method_of(const homg_grid *g, grid_path path)
{
    if (path == GRID_PATH_FFT)
        return HOMG_METHOD_FFT;
    if (path == GRID_PATH_BOX)
        return g->run;
    return g->desc.method == HOMG_METHOD_DEFAULT ? HOMG_METHOD_VCYCLE : g->desc.method;
}
homg_status homg_grid_solve(homg_grid *g, const void *f, const homg_boundary *bc, void *u, const homg_solve_desc *desc,
                            homg_solve_info *info)
{
    homg_solve_desc sd;
    homg_status st;
    grid_path path;
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
    const long syncs0 = g->ctx->host_syncs;
    st = solve(g, f, bc, u, &sd, info, &path);
    homg__leave(g->ctx, saved);
    if (info) {
        info->host_syncs = (int)(g->ctx->host_syncs - syncs0);
        info->method = method_of(g, path);
        info->launches = g->launches;
        info->work_units = g->wu;
        info->bytes = g->values_moved * g->elem;
        info->time_ms = now_ms() - t0;
        if (st != HOMG_OK && st != HOMG_ERROR_NOT_CONVERGED)
            info->norm = -1;
    }
    return st;
}

/* Appends one history (n values at hist, its length at count) to out. */
static int history_part(homg_grid *g, const double *hist, const int *count, double *out, int room)
{
    int n = 0;
    if (room > 0 && (uintptr_t)hist == (uintptr_t)count + sizeof(double)) { /* one copy (alloc_common's layout) */
        double buf[HOMG_GRID_HIST_MAX + 1];
        const int most = room < HOMG_GRID_HIST_MAX ? room : HOMG_GRID_HIST_MAX;
        if (g->ctx->mem->copy(&g->ctx->ex, buf, count, (size_t)(most + 1) * sizeof(double), HOMG_D2H) != HOMG_OK)
            return 0;
        memcpy(&n, buf, sizeof n);
        n = n < most ? n : most;
        memcpy(out, buf + 1, (size_t)(n > 0 ? n : 0) * sizeof(double));
        return n > 0 ? n : 0;
    }
    if (room <= 0 || g->ctx->mem->copy(&g->ctx->ex, &n, count, sizeof n, HOMG_D2H) != HOMG_OK)
        return 0;
    n = n < HOMG_GRID_HIST_MAX ? n : HOMG_GRID_HIST_MAX;
    n = n < room ? n : room;
    if (n > 0 && g->ctx->mem->copy(&g->ctx->ex, out, hist, (size_t)n * sizeof(double), HOMG_D2H) != HOMG_OK)
        n = 0;
    return n;
}

int homg_grid_history(homg_grid *g, double *host_out, int max)
{
    int n = 0, saved, lanes = 1;
    double *hist[HOMG_EXEC_LANES] = { NULL };
    int *count[HOMG_EXEC_LANES] = { NULL };
    if (!g || !host_out || max <= 0 || homg__enter(g->ctx, &saved) != HOMG_OK)
        return 0;
    hist[0] = g->hist;
    count[0] = g->hist_count;
    if (g->hist_lanes > 1) /* several right-hand sides side by side: lane after lane */
        lanes = homg__gen_lanes(g, hist, count);
    for (int i = 0; i < lanes; i++)
        n += history_part(g, hist[i], count[i], host_out + n, max - n);
    homg__leave(g->ctx, saved);
    return n;
}

homg_status homg_grid_residual(homg_grid *g, const void *f, const homg_boundary *bc, const void *u, void *r)
{
    homg_status st;
    int saved;
    if (!g)
        return HOMG_ERROR_INVALID_ARGUMENT;
    homg__clear_error(g->ctx);
    HOMG_TRY(homg__enter(g->ctx, &saved));
    if ((st = homg__check_pointer(g->ctx, f, "f")) == HOMG_OK &&
        (st = homg__check_pointer(g->ctx, u, "u")) == HOMG_OK &&
        (st = homg__check_pointer(g->ctx, r, "r")) == HOMG_OK) {
        if (homg__grid_box_desc(&g->desc) && !g->op_arrays)
            st = homg__box_residual(g, f, bc, u, r);
        else
            st = homg__gen_residual(g, f, bc, u, r);
    }
    homg__leave(g->ctx, saved);
    return st;
}
