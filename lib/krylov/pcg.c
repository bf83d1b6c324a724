/* pcg.c -- preconditioned conjugate gradients (seed 000, algorithm 5.1; seed
 * 001, algorithm 3), double precision, with an AMG cycle, Jacobi or nothing as
 * the preconditioner (or a geometric multigrid cycle, desc.gmg).
 *
 * One iteration is four fused kernels around the preconditioner:
 *   z = M r;  (r.z, z.q, p = z + beta p);  (q = A p, p.q, alpha);
 *   (x += alpha p, r -= alpha q, r.r, history, convergence flag).
 * Scalars stay on the device (cg_state); the host reads only the
 * convergence flag, every check_every iterations, and the whole state once at
 * the end.  Once converged, the kernels leave x, r and the state alone, so
 * iterations queued after convergence change nothing.  Flexible CG takes the
 * Polak-Ribiere beta = -alpha (z.q) / (r.z)_old, which tolerates a
 * preconditioner that is not exactly symmetric (float rounding, W-cycles).
 *
 * On CUDA one iteration (cycle and CG kernels, some 30 launches) is captured
 * once as a graph and replayed, which takes the launch overhead of the small
 * coarse-level kernels off the host; if capturing fails the kernels run one by
 * one (and desc.no_graph asks for that).  The graph holds pointers to x and the
 * level arrays, so it is captured again for another x; re-setup keeps every
 * array in place.
 */
#include "amg/amg_internal.h"
#include "gmg/gmg_internal.h"
#include "krylov/krylov_kernels.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct homg_pcg {
    homg_ctx *ctx;
    homg_pcg_desc desc;
    void *handle;
    homg_amg *amg;
    csr_matrix own; /* the copy of `a`, when one was given */
    const csr_matrix *a;
    double *r, *z, *p, *q, *dinv;
    cg_state *state; /* device */
    double *history; /* device, max_iter + 1 */
    double *hist;    /* where the running CG writes its history: history + iterations before a fallback */
    double *host_history;
    int nhistory;
    homg_pcg_info last;
    void *graph; /* captured iteration (CUDA), for x == graph_x */
    double *graph_x;
    int graph_failed;
};

homg_pcg_desc homg_pcg_desc_defaults(const homg_pcg_desc *desc)
{
    homg_pcg_desc d;
    homg__desc_start(&d, desc, sizeof d);
    HOMG_DEFAULT(d.tol, 1e-8);
    HOMG_DEFAULT(d.max_iter, 1000);
    HOMG_DEFAULT(d.check_every, 1);
    return d;
}

static void pcg_free(homg_pcg *s)
{
    homg_ctx *ctx = s->ctx;
    homg__mat_free(ctx, &s->own);
    homg__free(ctx, s->r);
    homg__free(ctx, s->z);
    homg__free(ctx, s->p);
    homg__free(ctx, s->q);
    homg__free(ctx, s->dinv);
    homg__free(ctx, s->state);
    homg__free(ctx, s->history);
    free(s->host_history);
    if (s->graph)
        ctx->mem->graph_destroy(s->graph);
    if (s->handle)
        HOMG_KERNELS(&ctx->ex, sparse)->handle_destroy(&ctx->ex, s->handle);
    free(s);
}

static homg_status check_desc(homg_ctx *ctx, homg_pcg_desc *d, homg_amg *amg)
{
    if (d->precond == HOMG_PCG_PRECOND_DEFAULT)
        d->precond = amg ? HOMG_PCG_PRECOND_AMG : d->gmg ? HOMG_PCG_PRECOND_GMG : HOMG_PCG_PRECOND_JACOBI;
    if (!(d->tol > 0 && d->tol < 1) || !isfinite(d->tol))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_pcg_desc: tol = %g must lie in (0, 1)", d->tol);
    if (d->max_iter < 1 || d->max_iter > 10000000)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_pcg_desc: max_iter = %d must be 1..10^7",
                          d->max_iter);
    if (d->check_every < 1)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_pcg_desc: check_every = %d must be positive",
                          d->check_every);
    if (d->precond < HOMG_PCG_PRECOND_AMG || d->precond > HOMG_PCG_PRECOND_GMG)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_pcg_desc: precond is not a homg_pcg_precond");
    if (d->precond == HOMG_PCG_PRECOND_AMG && !amg)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_pcg_create: precond AMG needs an amg");
    if (d->precond == HOMG_PCG_PRECOND_GMG && !d->gmg)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_pcg_create: precond GMG needs desc.gmg");
    if (d->gmg && homg__gmg_ctx(d->gmg) != ctx)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_pcg_create: the gmg belongs to another context");
    return HOMG_OK;
}

static homg_status create(homg_pcg *s, const homg_csr *a)
{
    homg_ctx *ctx = s->ctx;
    const sparse_kernels *sk = HOMG_KERNELS(&ctx->ex, sparse);
    kernel_alloc ka = homg__kalloc(ctx);
    size_t n;
    HOMG_TRY_BACKEND(ctx, sk->handle_create(&ctx->ex, &ka, &s->handle), "homg_pcg_create: sparse library handles");
    if (a) {
        HOMG_TRY(homg__mat_import(ctx, s->handle, a, 0, &s->own, "homg_pcg_create: A"));
        s->a = &s->own;
    } else if (s->amg) {
        s->a = homg__amg_matrix(s->amg);
    } else if (s->desc.gmg) {
        s->a = homg__gmg_matrix(s->desc.gmg);
    } else {
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_pcg_create: give a matrix or an amg");
    }
    if (s->amg && homg__amg_matrix(s->amg)->nrows != s->a->nrows)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_pcg_create: A has %d rows, the amg's matrix %d",
                          (int)s->a->nrows, (int)homg__amg_matrix(s->amg)->nrows);
    if (s->desc.precond == HOMG_PCG_PRECOND_GMG && homg__gmg_matrix(s->desc.gmg)->nrows != s->a->nrows)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_pcg_create: A has %d rows, the gmg's finest matrix %d", (int)s->a->nrows,
                          (int)homg__gmg_matrix(s->desc.gmg)->nrows);
    n = (size_t)s->a->nrows;
    HOMG_TRY(homg__alloc(ctx, n * sizeof(double), (void **)&s->r, "CG vectors"));
    HOMG_TRY(homg__alloc(ctx, n * sizeof(double), (void **)&s->p, "CG vectors"));
    HOMG_TRY(homg__alloc(ctx, n * sizeof(double), (void **)&s->q, "CG vectors"));
    if (s->desc.precond != HOMG_PCG_PRECOND_NONE)
        HOMG_TRY(homg__alloc(ctx, n * sizeof(double), (void **)&s->z, "CG vectors"));
    if (s->desc.precond == HOMG_PCG_PRECOND_JACOBI) {
        HOMG_TRY(homg__alloc(ctx, n * sizeof(double), (void **)&s->dinv, "Jacobi preconditioner"));
        HOMG_TRY_BACKEND(ctx, sk->inv_diag(&ctx->ex, s->a, s->dinv), "Jacobi preconditioner");
    }
    HOMG_TRY(homg__alloc(ctx, sizeof(cg_state), (void **)&s->state, "CG state"));
    HOMG_TRY(homg__alloc(ctx, ((size_t)s->desc.max_iter + 1) * sizeof(double), (void **)&s->history, "CG history"));
    s->host_history = (double *)homg__host_alloc(ctx, ((size_t)s->desc.max_iter + 1) * sizeof(double), "CG history");
    if (!s->host_history)
        return HOMG_ERROR_OUT_OF_MEMORY;
    return HOMG_OK;
}

homg_status homg_pcg_create(homg_ctx *ctx, const homg_csr *a, homg_amg *amg, const homg_pcg_desc *desc, homg_pcg **out)
{
    homg_pcg *s;
    homg_status st;
    int saved;
    if (!ctx)
        return HOMG_ERROR_INVALID_ARGUMENT;
    if (!out)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_pcg_create: out is NULL");
    *out = NULL;
    if (amg && homg__amg_ctx(amg) != ctx)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_pcg_create: the amg belongs to another context");
    HOMG_TRY(homg__enter(ctx, &saved));
    s = (homg_pcg *)calloc(1, sizeof *s);
    if (!s) {
        homg__leave(ctx, saved);
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "homg_pcg_create: out of host memory");
    }
    s->ctx = ctx;
    s->amg = amg;
    s->desc = homg_pcg_desc_defaults(desc);
    st = check_desc(ctx, &s->desc, amg);
    if (st == HOMG_OK)
        st = create(s, a);
    if (st != HOMG_OK)
        pcg_free(s);
    else
        *out = s;
    homg__leave(ctx, saved);
    return st;
}

static homg_status precondition(homg_pcg *s)
{
    homg_ctx *ctx = s->ctx;
    switch (s->desc.precond) {
    case HOMG_PCG_PRECOND_AMG: return homg__amg_apply_raw(s->amg, s->r, s->z);
    case HOMG_PCG_PRECOND_GMG: return homg__gmg_apply_raw(s->desc.gmg, s->r, s->z);
    case HOMG_PCG_PRECOND_JACOBI:
        HOMG_TRY_BACKEND(ctx,
                         HOMG_KERNELS(&ctx->ex, krylov)->cg_diag_precond(&ctx->ex, s->dinv, s->r, s->z, s->a->nrows),
                         "Jacobi preconditioner");
        return HOMG_OK;
    default: return HOMG_OK; /* z is r */
    }
}

/* One iteration: z = M r, direction, A p, update. */
static homg_status body(homg_pcg *s, double *x)
{
    homg_ctx *ctx = s->ctx;
    kernel_exec *ex = &ctx->ex;
    const krylov_kernels *kk = HOMG_KERNELS(ex, krylov);
    double *z = s->desc.precond == HOMG_PCG_PRECOND_NONE ? s->r : s->z;
    int32_t n = s->a->nrows;
    HOMG_TRY(precondition(s));
    HOMG_TRY_BACKEND(ctx, kk->cg_direction(ex, s->handle, s->r, z, s->q, s->p, n, s->state), "CG direction");
    HOMG_TRY_BACKEND(ctx, kk->cg_spmv_dot(ex, s->handle, s->a, s->p, s->q, s->state), "CG product");
    HOMG_TRY_BACKEND(ctx, kk->cg_update(ex, s->handle, x, s->r, s->p, s->q, n, s->state, s->hist), "CG update");
    return HOMG_OK;
}

/* Captures body(x) as a graph once per x; on any failure the solve runs without. */
static void capture(homg_pcg *s, double *x)
{
    homg_ctx *ctx = s->ctx;
    void *g = NULL;
    homg_status st, end;
    if (s->desc.no_graph || s->graph_failed || ctx->ex.backend != HOMG_BACKEND_CUDA || (s->graph && s->graph_x == x))
        return;
    if (s->graph) {
        ctx->mem->graph_destroy(s->graph);
        s->graph = NULL;
    }
    if (ctx->mem->capture_begin(&ctx->ex) != HOMG_OK) {
        s->graph_failed = 1;
        return;
    }
    st = body(s, x);
    end = ctx->mem->capture_end(&ctx->ex, &g);
    if (st != HOMG_OK || end != HOMG_OK || !g) {
        homg__log(ctx, HOMG_LOG_WARN, "CG: capturing a CUDA graph failed (%s); launching kernels one by one",
                  ctx->ex.msg);
        if (g)
            ctx->mem->graph_destroy(g);
        s->graph_failed = 1;
        homg__clear_error(ctx);
        return;
    }
    s->graph = g;
    s->graph_x = x;
}

/* CG from x (warm) or 0 for at most max_iter iterations, its history from s->hist. */
static homg_status run(homg_pcg *s, const double *b, double *x, int warm, int max_iter, cg_state *hs)
{
    homg_ctx *ctx = s->ctx;
    kernel_exec *ex = &ctx->ex;
    const krylov_kernels *kk = HOMG_KERNELS(ex, krylov);
    memset(hs, 0, sizeof *hs);
    hs->tol2 = s->desc.tol * s->desc.tol;
    hs->flexible = s->desc.flexible != 0;
    hs->max_iter = max_iter;
    HOMG_TRY(homg__write(ctx, s->state, hs, sizeof *hs));
    HOMG_TRY_BACKEND(ctx, kk->cg_start(ex, s->handle, s->a, b, x, s->r, warm, s->state, s->hist), "CG start");
    HOMG_TRY(homg__read(ctx, hs, s->state, sizeof *hs));
    if (!hs->done)
        capture(s, x);
    for (int it = 0; !hs->done && it < max_iter; it++) {
        if (s->graph)
            HOMG_TRY_BACKEND(ctx, ctx->mem->graph_launch(ex, s->graph), "CG iteration graph");
        else
            HOMG_TRY(body(s, x));
        if ((it + 1) % s->desc.check_every == 0 || it + 1 == max_iter)
            HOMG_TRY(homg__read(ctx, &hs->done, &s->state->done, sizeof hs->done));
    }
    return homg__read(ctx, hs, s->state, sizeof *hs);
}

/* The solve: on an AMG breakdown the amg falls back to l1 Jacobi once and CG
 * goes on from the iterate it had (a breakdown leaves x alone).  *before: the
 * iterations of the first run when it fell back. */
static homg_status iterate(homg_pcg *s, const double *b, double *x, cg_state *hs, int *before)
{
    homg_ctx *ctx = s->ctx;
    *before = 0;
    s->hist = s->history;
    memset(&s->last, 0, sizeof s->last);
    HOMG_TRY(run(s, b, x, s->desc.warm_start, s->desc.max_iter, hs));
    if (hs->done != HOMG_CG_BREAKDOWN)
        return HOMG_OK;
    s->last.breakdown = (homg_pcg_breakdown)hs->why;
    s->last.breakdown_iteration = hs->iter;
    if (s->desc.precond != HOMG_PCG_PRECOND_AMG || hs->why == HOMG_CG_WHY_NONFINITE || hs->iter >= s->desc.max_iter ||
        homg__amg_fall_back(s->amg) != HOMG_OK)
        return HOMG_OK;
    homg__clear_error(ctx);
    if (s->graph) { /* the graph holds the old smoother's kernels */
        ctx->mem->graph_destroy(s->graph);
        s->graph = NULL;
    }
    s->last.fallback = 1;
    *before = hs->iter;
    s->hist = s->history + hs->iter;
    return run(s, b, x, 1, s->desc.max_iter - *before, hs);
}

homg_status homg_pcg_solve(homg_pcg *s, const double *b, double *x, homg_pcg_info *info)
{
    homg_ctx *ctx;
    cg_state hs;
    homg_status st;
    void *e0 = NULL, *e1 = NULL;
    float ms = 0;
    int saved, before = 0;
    if (!s)
        return HOMG_ERROR_INVALID_ARGUMENT;
    ctx = s->ctx;
    if (info)
        memset(info, 0, sizeof *info);
    memset(&s->last, 0, sizeof s->last);
    s->nhistory = 0;
    HOMG_TRY(homg__enter(ctx, &saved));
    st = homg__check_pointer(ctx, b, "homg_pcg_solve: b");
    if (st == HOMG_OK)
        st = homg__check_pointer(ctx, x, "homg_pcg_solve: x");
    if (st == HOMG_OK && (ctx->mem->event_create(&e0) != HOMG_OK || ctx->mem->event_create(&e1) != HOMG_OK))
        st = homg__fail(ctx, HOMG_ERROR_BACKEND, "homg_pcg_solve: cannot create timing events");
    if (st == HOMG_OK)
        st = ctx->mem->event_record(&ctx->ex, e0) == HOMG_OK ? iterate(s, b, x, &hs, &before)
                                                             : homg__backend_fail(ctx, HOMG_ERROR_BACKEND, "event");
    if (st == HOMG_OK && ctx->mem->event_record(&ctx->ex, e1) == HOMG_OK)
        ctx->mem->event_elapsed_ms(e0, e1, &ms);
    ctx->mem->event_destroy(e0);
    ctx->mem->event_destroy(e1);
    if (st == HOMG_OK) {
        hs.iter += before;
        s->nhistory = hs.iter + 1;
        st = homg__read(ctx, s->host_history, s->history, (size_t)s->nhistory * sizeof(double));
    }
    if (st == HOMG_OK) {
        s->last.iterations = hs.iter;
        s->last.converged = hs.done == HOMG_CG_CONVERGED;
        s->last.rel_residual = s->host_history[hs.iter];
        s->last.rate =
            hs.iter > 0 && s->host_history[0] > 0 ? pow(s->last.rel_residual / s->host_history[0], 1.0 / hs.iter) : 0.0;
        s->last.solve_ms = ms;
        if (info)
            *info = s->last;
        if (hs.done == HOMG_CG_BREAKDOWN)
            st = homg__fail(ctx, HOMG_ERROR_NUMERIC, "homg_pcg_solve: breakdown at iteration %d%s: %s", (int)hs.iter,
                            s->last.fallback ? " after falling back to the l1 Jacobi smoother" : "",
                            hs.why == HOMG_CG_WHY_PAP  ? "p.Ap <= 0 (A is not positive definite)"
                            : hs.why == HOMG_CG_WHY_RZ ? "r.z <= 0 (the preconditioner is not positive definite)"
                                                       : "NaN or Inf (in A, b or the preconditioner)");
        else if (!s->last.converged)
            st = homg__fail(ctx, HOMG_ERROR_NOT_CONVERGED,
                            "homg_pcg_solve: not converged in %d iterations: relative residual %.3e > tol %.3e",
                            (int)hs.iter, s->last.rel_residual, s->desc.tol);
    }
    homg__leave(ctx, saved);
    return st;
}

int homg_pcg_history(const homg_pcg *s, double *host_out, int max)
{
    if (!s)
        return 0;
    if (host_out && max > 0)
        memcpy(host_out, s->host_history, (size_t)(max < s->nhistory ? max : s->nhistory) * sizeof(double));
    return s->nhistory;
}

int homg_pcg_format_history(const homg_pcg *s, char *buf, size_t len)
{
    size_t used = 0;
    if (buf && len)
        buf[0] = 0;
    if (!s || s->nhistory == 0)
        return 0;
    homg__append(buf, len, &used, "      iter   rel. residual       rate\n");
    homg__append(buf, len, &used, "  ----------------------------------------\n");
    homg__append(buf, len, &used, "       Ini   %13.6e\n", s->host_history[0]);
    for (int i = 1; i < s->nhistory; i++)
        homg__append(buf, len, &used, "  %8d   %13.6e   %8.4f\n", i - 1, s->host_history[i],
                     s->host_history[i - 1] > 0 ? s->host_history[i] / s->host_history[i - 1] : 0.0);
    homg__append(buf, len, &used, "  ----------------------------------------\n");
    homg__append(buf, len, &used, "  Total iterations: %d (%s)\n", s->last.iterations,
                 s->last.converged ? "converged" : "NOT converged");
    homg__append(buf, len, &used, "  Avg convergence rate: %.4f\n", s->last.rate);
    homg__append(buf, len, &used, "  Final relative residual: %.6e\n", s->last.rel_residual);
    homg__append(buf, len, &used, "  Solve time: %.3f ms (%.3f ms per iteration)\n", s->last.solve_ms,
                 s->last.iterations > 0 ? s->last.solve_ms / s->last.iterations : 0.0);
    return (int)used;
}

void homg_pcg_destroy(homg_pcg *s)
{
    homg_ctx *ctx;
    int saved;
    if (!s)
        return;
    ctx = s->ctx;
    if (homg__enter(ctx, &saved) != HOMG_OK) {
        pcg_free(s);
        return;
    }
    pcg_free(s);
    homg__leave(ctx, saved);
}
