/* fft.c -- FFT direct solves of the constant-coefficient structured operator:
 * problem checks, the plan's workspace from the ctx's allocator, solves and costs.
 * lib/fft/fft.h states the operator; kernels/fft/fft_kernels.h the algorithms. */
#include "fft/fft.h"
#include "fft/fft_kernels.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct fft_plan {
    homg_ctx *ctx;
    const fft_kernels *k;
    fft_problem p;
    fft_geom g;
    fft_exec *e;
    void *work;
    fft_cost cost;
};

static const char *const side_names[6] = { "W (x-)", "E (x+)", "S (y-)", "N (y+)", "B (z-)", "T (z+)" };
static const char *const kind_names[3] = { "Dirichlet", "Neumann", "periodic" };

static homg_status check_number(homg_ctx *ctx, const char *name, double v, int zero_ok)
{
    if (isfinite(v) && (v > 0 || (zero_ok && v == 0)))
        return HOMG_OK;
    return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "fft problem: %s = %g: must be finite and %s", name, v,
                      zero_ok ? ">= 0" : "> 0");
}

/* Resolves the defaults of *p and checks every field. */
static homg_status check_problem(homg_ctx *ctx, fft_problem *p)
{
    const int sizes[3] = { p->nx, p->ny, p->nz };
    const char *const names[3] = { "nx", "ny", "nz" };
    if (p->dim == 0)
        p->dim = p->nz > 1 ? 3 : 2;
    if (p->dim != 2 && p->dim != 3)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "fft problem: dim = %d: 2 or 3 (0: from nz)", p->dim);
    if (p->dim == 2 && p->nz == 0)
        p->nz = 1;
    for (int a = 0; a < 3; a++)
        if ((a == 2 ? p->nz : sizes[a]) < 1)
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "fft problem: %s = %d: sizes must be >= 1", names[a],
                              a == 2 ? p->nz : sizes[a]);
    if (p->dim == 2 && p->nz != 1)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "fft problem: nz = %d with dim = 2 (nz must be 1)", p->nz);
    HOMG_TRY(check_number(ctx, "h", p->h, 0));
    HOMG_TRY(check_number(ctx, "sigma", p->sigma, 0));
    HOMG_TRY(check_number(ctx, "lambda", p->lambda, 1));
    for (int s = 0; s < 2 * p->dim; s++)
        if ((int)p->side[s] < 0 || (int)p->side[s] > FFT_PERIODIC)
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                              "fft problem: side[%d] (%s) = %d: not a side kind (0 Dirichlet, 1 Neumann, 2 periodic)",
                              s, side_names[s], (int)p->side[s]);
    for (int a = 0; a < p->dim; a++)
        if ((p->side[2 * a] == FFT_PERIODIC) != (p->side[2 * a + 1] == FFT_PERIODIC))
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                              "fft problem: side[%d] (%s) is %s but side[%d] (%s) is %s: periodic sides come in pairs",
                              2 * a, side_names[2 * a], kind_names[p->side[2 * a]], 2 * a + 1, side_names[2 * a + 1],
                              kind_names[p->side[2 * a + 1]]);
    if (p->precision != HOMG_FLOAT32 && p->precision != HOMG_FLOAT64)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "fft problem: precision = %d: HOMG_FLOAT32 or HOMG_FLOAT64",
                          (int)p->precision);
    if (p->nrhs == 0)
        p->nrhs = 1;
    if (p->nrhs < 0)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "fft problem: nrhs = %d: must be >= 1 (0 means 1)",
                          p->nrhs);
    if ((int)p->algorithm < FFT_ALGO_DEFAULT || (int)p->algorithm > FFT_ALGO_MAKHOUL)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "fft problem: algorithm = %d: unknown", (int)p->algorithm);
    if (p->algorithm == FFT_ALGO_R2R && ctx->ex.backend == HOMG_BACKEND_CUDA)
        return homg__fail(ctx, HOMG_ERROR_UNSUPPORTED, "fft problem: FFT_ALGO_R2R (FFTW) is the CPU backend's only");
    return HOMG_OK;
}

/* The workspace a plan needs, in double, before anything is planned or allocated:
 * a size whose arrays cannot be addressed is refused with the bytes it would need. */
static homg_status check_size(homg_ctx *ctx, const fft_problem *p)
{
    double cells = (double)p->nx * p->ny * p->nz, es = p->precision == HOMG_FLOAT64 ? 8 : 4;
    double bytes =
        es * p->nrhs * cells * 8; /* transform array, spectrum, FFT work: at most 8 per cell (mirrored axes) */
    double longest = 2.0 * (p->nx > p->ny ? (p->nx > p->nz ? p->nx : p->nz) : (p->ny > p->nz ? p->ny : p->nz));
    if (bytes < (double)SIZE_MAX / 4 && cells * p->nrhs < 9e18 && longest < INT32_MAX)
        return HOMG_OK;
    return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY,
                      "fft problem: %d x %d x %d cells x %d right-hand sides need about %.3g bytes of workspace: "
                      "more than can be addressed",
                      p->nx, p->ny, p->nz, p->nrhs, bytes);
}

static void fill_geom(const fft_problem *p, homg_backend backend, fft_geom *g)
{
    g->dim = p->dim;
    g->n[0] = p->nx;
    g->n[1] = p->ny;
    g->n[2] = p->nz;
    g->nrhs = p->nrhs;
    for (int s = 0; s < 6; s++)
        g->side[s] = s < 2 * p->dim ? (int)p->side[s] : FFT_SIDE_P;
    g->h = p->h;
    g->sigma = p->sigma;
    g->lambda = p->lambda;
    g->precision = p->precision;
    g->algorithm = p->algorithm == FFT_ALGO_R2R || (p->algorithm == FFT_ALGO_DEFAULT && backend != HOMG_BACKEND_CUDA)
                       ? FFT_R2R
                       : FFT_MAKHOUL;
    homg_fft_geom_init(g);
}

/* Modelled traffic of one solve: each own kernel reads and writes its arrays once,
 * each FFT kernel reads and writes the half spectrum once. */
static double model_bytes(const fft_geom *g, int fft_kernels)
{
    double es = g->precision == HOMG_FLOAT64 ? 8 : 4, nr = g->nrhs;
    if (g->rank == 0)
        return es * nr * 2;
    if (g->algorithm == FFT_R2R)
        return es * nr * (2.0 * g->ncell + 2.0 * g->ncell + 2.0 * g->ncell + fft_kernels * 2.0 * g->ncell);
    return es * nr * (2.0 * (g->ncell + g->nt) + 4.0 * g->nc + fft_kernels * 4.0 * g->nc);
}

static homg_status build(fft_plan *pl)
{
    homg_ctx *ctx = pl->ctx;
    size_t bytes = 0;
    int own = 0, lib = 0;
    HOMG_TRY_BACKEND(ctx, pl->k->plan(&ctx->ex, &pl->g, &pl->e, &bytes), "fft plan");
    if (homg__alloc(ctx, bytes, &pl->work, "fft plan workspace") != HOMG_OK) {
        char why[sizeof ctx->msg];
        snprintf(why, sizeof why, "%s", ctx->msg);
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY,
                          "fft plan: the workspace of %zu bytes (%.1f per cell) could not be allocated: %s", bytes,
                          (double)bytes / ((double)pl->g.ncell * pl->g.nrhs), why);
    }
    pl->cost.workspace_bytes = bytes;
    HOMG_TRY_BACKEND(ctx, pl->k->bind(&ctx->ex, pl->e, pl->work), "fft plan");
    HOMG_TRY_BACKEND(ctx, pl->k->count(&ctx->ex, pl->e, &own, &lib), "fft plan (counting launches)");
    pl->cost.own_kernels = own;
    pl->cost.launches_counted = lib >= 0;
    if (lib < 0)
        lib = pl->g.rank ? 4 : 0;
    pl->cost.launches = own + lib;
    pl->cost.bytes = model_bytes(&pl->g, lib);
    pl->cost.singular = pl->g.singular;
    return HOMG_OK;
}

homg_status homg__fft_plan_create(homg_ctx *ctx, const fft_problem *p, fft_plan **out)
{
    fft_plan *pl;
    fft_problem q;
    int saved;
    homg_status st;
    if (!ctx)
        return HOMG_ERROR_INVALID_ARGUMENT;
    if (!out || !p)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg__fft_plan_create: %s is NULL", out ? "p" : "out");
    *out = NULL;
    q = *p;
    HOMG_TRY(check_problem(ctx, &q));
    HOMG_TRY(check_size(ctx, &q));
    pl = (fft_plan *)homg__host_alloc(ctx, sizeof *pl, "fft plan");
    if (!pl)
        return HOMG_ERROR_OUT_OF_MEMORY;
    *pl = (fft_plan){ 0 };
    pl->ctx = ctx;
    pl->k = HOMG_KERNELS(&ctx->ex, fft);
    pl->p = q;
    fill_geom(&q, ctx->ex.backend, &pl->g);
    st = homg__enter(ctx, &saved);
    if (st != HOMG_OK) {
        free(pl);
        return st;
    }
    st = build(pl);
    homg__leave(ctx, saved);
    if (st != HOMG_OK) {
        homg__fft_plan_destroy(pl);
        return st;
    }
    *out = pl;
    return HOMG_OK;
}

homg_status homg__fft_solve(fft_plan *plan, const void *f, const void *const face[6], void *u)
{
    homg_ctx *ctx;
    int saved;
    homg_status st;
    if (!plan)
        return HOMG_ERROR_INVALID_ARGUMENT;
    ctx = plan->ctx;
    if (!f || !u)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "fft solve: %s is NULL", f ? "u" : "f");
    for (int s = 0; face && s < 6; s++) {
        if (!face[s])
            continue;
        if (s >= 2 * plan->p.dim)
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "fft solve: face[%d] (%s) given to a 2D problem", s,
                              side_names[s]);
        if (plan->p.side[s] == FFT_PERIODIC)
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                              "fft solve: face[%d] (%s) given for a periodic side (periodic sides take no face data)",
                              s, side_names[s]);
    }
    HOMG_TRY(homg__enter(ctx, &saved));
    st = plan->k->solve(&ctx->ex, plan->e, f, face, u);
    homg__leave(ctx, saved);
    if (st != HOMG_OK)
        return homg__backend_fail(ctx, st, "fft solve");
    return HOMG_OK;
}

const double *homg__fft_mean_ptr(const fft_plan *plan) { return plan ? plan->k->mean(plan->e) : NULL; }

homg_status homg__fft_mean(fft_plan *plan, double *host_out, int n)
{
    homg_ctx *ctx;
    int saved;
    homg_status st;
    if (!plan)
        return HOMG_ERROR_INVALID_ARGUMENT;
    ctx = plan->ctx;
    if (!host_out || n < 0 || n > plan->p.nrhs)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg__fft_mean: host_out NULL or n = %d not in 0..%d", n,
                          plan->p.nrhs);
    HOMG_TRY(homg__enter(ctx, &saved));
    st = ctx->mem->copy(&ctx->ex, host_out, plan->k->mean(plan->e), sizeof(double) * (size_t)n, HOMG_D2H);
    homg__leave(ctx, saved);
    if (st != HOMG_OK)
        return homg__backend_fail(ctx, st, "homg__fft_mean");
    return HOMG_OK;
}

void homg__fft_cost(const fft_plan *plan, fft_cost *out)
{
    if (plan && out)
        *out = plan->cost;
}

fft_problem homg__fft_problem(const fft_plan *plan)
{
    fft_problem none = { 0 };
    return plan ? plan->p : none;
}

void homg__fft_plan_destroy(fft_plan *plan)
{
    int saved;
    if (!plan)
        return;
    if (homg__enter(plan->ctx, &saved) == HOMG_OK) {
        if (plan->e)
            plan->k->destroy(&plan->ctx->ex, plan->e);
        homg__free(plan->ctx, plan->work);
        homg__leave(plan->ctx, saved);
    }
    free(plan);
}
