/* cycle.c -- V, W and F cycles, the preconditioner and the stand-alone solver.
 *
 * cycle(l, b, x): `pre` Richardson sweeps with M, t = b - A x, b_c = R t, the
 * coarse cycle(s) from x_c = 0, x += P x_c, `post` sweeps with M^T (level 0:
 * fine_sweeps of each where set).  W visits
 * the coarser level twice (from its first result), F visits it as F then V.
 * The coarsest level is solved by the coarse solver (coarse.c); when it starts
 * from a non-zero x it corrects with the residual.
 */
#include "gmg_internal.h"

#include <math.h>
#include <string.h>

static homg_status zero(homg_gmg *g, double *x, int32_t n)
{
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(&g->ctx->ex, x, (size_t)n * sizeof(double)), "GMG: zero");
    return HOMG_OK;
}

static homg_status residual(homg_gmg *g, int l, const double *b, const double *x, double *t)
{
    return homg__gmg_op_residual(g, &g->lv[l].a, b, x, t);
}

static homg_status coarsest(homg_gmg *g, int l, const double *b, double *x, int from_zero)
{
    gmg_level *lv = &g->lv[l];
    if (from_zero)
        return homg__gmg_coarse_solve(g, b, x);
    HOMG_TRY(residual(g, l, b, x, lv->t));
    HOMG_TRY(homg__gmg_coarse_solve(g, lv->t, lv->z));
    HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->axpy(&g->ctx->ex, lv->rows, 1.0, lv->z, x), "GMG: coarse correction");
    return HOMG_OK;
}

homg_status homg__gmg_cycle(homg_gmg *g, int l, homg_gmg_cycle type, const double *b, double *x, int from_zero)
{
    gmg_level *lv = &g->lv[l], *c = &g->lv[l + 1];
    int last = l + 1 == g->nlevels - 1;
    if (l == g->nlevels - 1)
        return coarsest(g, l, b, x, from_zero);
    if (from_zero)
        HOMG_TRY(zero(g, x, lv->rows));
    for (int s = 0; s < (l == 0 && g->desc.fine_sweeps ? g->desc.fine_sweeps : g->desc.pre); s++)
        HOMG_TRY(homg__gmg_smooth(g, l, b, x, 0));
    HOMG_TRY(residual(g, l, b, x, lv->t));
    HOMG_TRY(homg__gmg_op_apply(g, &lv->r, lv->t, c->b, 1.0, 0.0));
    HOMG_TRY(homg__gmg_cycle(g, l + 1, type, c->b, c->x, 1));
    if ((type == HOMG_GMG_CYCLE_W || type == HOMG_GMG_CYCLE_F) && !last)
        HOMG_TRY(homg__gmg_cycle(g, l + 1, type == HOMG_GMG_CYCLE_F ? HOMG_GMG_CYCLE_V : type, c->b, c->x, 0));
    HOMG_TRY(homg__gmg_op_apply(g, &lv->p, c->x, x, 1.0, 1.0));
    for (int s = 0; s < (l == 0 && g->desc.fine_sweeps ? g->desc.fine_sweeps : g->desc.post); s++)
        HOMG_TRY(homg__gmg_smooth(g, l, b, x, 1));
    return HOMG_OK;
}

homg_status homg__gmg_apply_raw(homg_gmg *g, const double *r, double *z)
{
    return homg__gmg_cycle(g, 0, g->desc.cycle, r, z, 1);
}

homg_status homg_gmg_apply(homg_gmg *g, const double *r, double *z)
{
    homg_status st;
    int saved;
    if (!g)
        return HOMG_ERROR_INVALID_ARGUMENT;
    HOMG_TRY(homg__begin(g->ctx, "homg_gmg_apply", !r ? "r" : !z ? "z" : NULL));
    HOMG_TRY(homg__enter(g->ctx, &saved));
    st = homg__check_pointer(g->ctx, r, "homg_gmg_apply: r");
    if (st == HOMG_OK)
        st = homg__check_pointer(g->ctx, z, "homg_gmg_apply: z");
    if (st == HOMG_OK)
        st = homg__gmg_apply_raw(g, r, z);
    homg__leave(g->ctx, saved);
    return st;
}

static homg_status norm(homg_gmg *g, const double *v, double *out)
{
    HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->dot(&g->ctx->ex, g->lv[0].rows, v, v, g->scalar), "GMG: norm");
    HOMG_TRY(homg__read(g->ctx, out, g->scalar, sizeof *out));
    *out = sqrt(*out);
    return HOMG_OK;
}

static homg_status solve_loop(homg_gmg *g, const double *b, double *x, double tol, int max_cycles,
                              homg_gmg_solve_info *si)
{
    gmg_level *lv = &g->lv[0];
    double bn = 0, rn = 0, r0 = 0;
    HOMG_TRY(norm(g, b, &bn));
    if (bn == 0)
        bn = 1;
    for (int c = 0;; c++) {
        HOMG_TRY(residual(g, 0, b, x, g->res));
        HOMG_TRY(norm(g, g->res, &rn));
        if (c == 0)
            r0 = rn;
        si->cycles = c;
        si->rel_residual = rn / bn;
        si->rate = c > 0 && r0 > 0 ? pow(rn / r0, 1.0 / c) : 0.0;
        if (!isfinite(rn))
            return homg__fail(g->ctx, HOMG_ERROR_NUMERIC, "homg_gmg_solve: the residual is %g after %d cycles", rn, c);
        if (rn <= tol * bn) {
            si->converged = 1;
            return HOMG_OK;
        }
        if (c == max_cycles)
            return homg__fail(g->ctx, HOMG_ERROR_NOT_CONVERGED,
                              "homg_gmg_solve: not converged in %d cycles: relative residual %.3e > tol %.3e", c,
                              rn / bn, tol);
        HOMG_TRY(homg__gmg_apply_raw(g, g->res, g->cor));
        HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->axpy(&g->ctx->ex, lv->rows, 1.0, g->cor, x), "GMG: correction");
    }
}

homg_status homg_gmg_solve(homg_gmg *g, const double *b, double *x, double tol, int max_cycles,
                           homg_gmg_solve_info *info)
{
    homg_gmg_solve_info si;
    homg_ctx *ctx;
    homg_status st;
    void *e0 = NULL, *e1 = NULL;
    float ms = 0;
    int saved;
    memset(&si, 0, sizeof si);
    if (info)
        memset(info, 0, sizeof *info);
    if (!g)
        return HOMG_ERROR_INVALID_ARGUMENT;
    ctx = g->ctx;
    HOMG_TRY(homg__begin(ctx, "homg_gmg_solve", !b ? "b" : !x ? "x" : NULL));
    if (!(tol > 0 && tol < 1))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_gmg_solve: tol = %g must lie in (0, 1)", tol);
    if (max_cycles < 1)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_gmg_solve: max_cycles = %d must be positive",
                          max_cycles);
    HOMG_TRY(homg__enter(ctx, &saved));
    st = homg__check_pointer(ctx, b, "homg_gmg_solve: b");
    if (st == HOMG_OK)
        st = homg__check_pointer(ctx, x, "homg_gmg_solve: x");
    if (st == HOMG_OK && (ctx->mem->event_create(&e0) != HOMG_OK || ctx->mem->event_create(&e1) != HOMG_OK))
        st = homg__fail(ctx, HOMG_ERROR_BACKEND, "homg_gmg_solve: cannot create timing events");
    if (st == HOMG_OK)
        st = ctx->mem->event_record(&ctx->ex, e0);
    if (st == HOMG_OK || st == HOMG_ERROR_NOT_CONVERGED)
        st = solve_loop(g, b, x, tol, max_cycles, &si);
    if (ctx->mem->event_record(&ctx->ex, e1) == HOMG_OK && ctx->mem->event_elapsed_ms(e0, e1, &ms) == HOMG_OK)
        si.solve_ms = ms;
    if (e0)
        ctx->mem->event_destroy(e0);
    if (e1)
        ctx->mem->event_destroy(e1);
    if (info)
        *info = si;
    homg__leave(ctx, saved);
    return st;
}
