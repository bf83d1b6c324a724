/* smoother.c -- preconditioned Richardson smoothers x += omega M (b - A x)
 * (seed 004), with M:
 *   JACOBI  D^-1;
 *   SPAI0   the diagonal minimising ||I - M A||_F: m_ii = a_ii / sum_j a_ij^2;
 *   SPAI1   M with A's pattern minimising ||I - M A||_F, row by row (one small
 *           least-squares problem per row, kernels/gmg/spai.h), all rows in one
 *           batch on the backend; by default of the Jacobi-scaled W A W (W =
 *           diag(a_ii)^-1/2) and scaled back, M = W M^ W: unscaled, rows next to
 *           a region of large coefficients fit those rows' entries instead of
 *           e_i, and with 1e4 jumps the smoother diverged (r.z < 0 in CG:
 *           measured, test_gmg.c); post-smoothing applies M^T so that a cycle
 *           with as many pre- as post-sweeps is a symmetric preconditioner;
 *   SAINV   M = Z D^-1 Z^T = W W^T from A-biconjugation (sainv.c, host set-up).
 * omega = omega_scale / lambda, lambda the largest eigenvalue of M A estimated
 * by power iterations from a random start (omega_scale 4/3: Jacobi's 2/3 where
 * lambda is 2, and a margin below the stability limit 2 / lambda).
 */
#include "gmg_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Synchronises, adds now - since to smoother part k, returns now (ms). */
static double part(homg_gmg *g, int k, double since)
{
    double t;
    g->ctx->mem->sync(&g->ctx->ex); /* a failure shows at the set-up's final sync */
    t = homg__gmg_now_ms();
    g->smoother_part_ms[k] += t - since;
    return t;
}

static homg_status copy_vec(homg_gmg *g, double *dst, const double *src, int32_t n)
{
    homg_ctx *ctx = g->ctx;
    HOMG_TRY_BACKEND(ctx, ctx->mem->copy(&ctx->ex, dst, src, (size_t)n * sizeof(double), HOMG_D2D), "GMG: copy");
    return HOMG_OK;
}

/* out = M in (transposed: M^T in); uses lv->s for SAINV. */
static homg_status apply_m(homg_gmg *g, int l, const double *in, double *out, int transposed)
{
    gmg_level *lv = &g->lv[l];
    kernel_exec *ex = &g->ctx->ex;
    switch (lv->diag ? HOMG_GMG_SMOOTHER_JACOBI : g->desc.smoother) {
    case HOMG_GMG_SMOOTHER_SPAI1: return homg__gmg_op_apply(g, transposed ? &lv->mt : &lv->m, in, out, 1.0, 0.0);
    case HOMG_GMG_SMOOTHER_SAINV:
        HOMG_TRY(homg__gmg_op_apply(g, &lv->mt, in, lv->s, 1.0, 0.0));
        return homg__gmg_op_apply(g, &lv->m, lv->s, out, 1.0, 0.0);
    default:
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(ex, out, (size_t)lv->rows * sizeof(double)), "GMG: zero");
        HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->diag_update(ex, lv->rows, 1.0, lv->d, in, out), "GMG: diagonal");
        return HOMG_OK;
    }
}

homg_status homg__gmg_smooth(homg_gmg *g, int l, const double *b, double *x, int transposed)
{
    gmg_level *lv = &g->lv[l];
    kernel_exec *ex = &g->ctx->ex;
    HOMG_TRY(homg__gmg_op_residual(g, &lv->a, b, x, lv->t));
    if (lv->diag) {
        HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->diag_update(ex, lv->rows, lv->omega, lv->d, lv->t, x), "GMG: Richardson");
        return HOMG_OK;
    }
    HOMG_TRY(apply_m(g, l, lv->t, lv->z, transposed));
    HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->axpy(ex, lv->rows, lv->omega, lv->z, x), "GMG: Richardson");
    return HOMG_OK;
}

static homg_status dot(homg_gmg *g, int32_t n, const double *x, const double *y, double *host)
{
    HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->dot(&g->ctx->ex, n, x, y, g->scalar), "GMG: dot product");
    return homg__read(g->ctx, host, g->scalar, sizeof *host);
}

/* Fills x with a random vector (the power iterations' start), on the backend. */
static homg_status random_start(homg_gmg *g, int l, double *x)
{
    uint32_t s0 = g->desc.seed * 2654435761u + (unsigned)l;
    HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->random_fill(&g->ctx->ex, g->lv[l].rows, s0, x), "GMG: power iteration start");
    return HOMG_OK;
}

/* Iterations between the power iterations' host reads (each one a
 * synchronisation): the vectors are not normalised in between, and M A's
 * eigenvalues are small, so 8 steps neither overflow nor underflow. */
#define GMG_READ_EVERY 8

/* lambda_max(M A) by power iterations: z = M A v, lambda = ||z|| / ||v|| of
 * the last step (v rescaled at each read). */
static homg_status estimate(homg_gmg *g, int l)
{
    gmg_level *lv = &g->lv[l];
    int32_t n = lv->rows;
    double nn = 0, lam = 0, *x = lv->x, *z = lv->z; /* swapped after each step instead of copied */
    HOMG_TRY(random_start(g, l, x));
    HOMG_TRY(dot(g, n, x, x, &nn));
    for (int it = 0; it < g->desc.power_iterations; it++) {
        double zz = 0, *swap;
        int last = it + 1 == g->desc.power_iterations, read = last || (it + 1) % GMG_READ_EVERY == 0;
        if (!(nn > 0) || !isfinite(nn))
            break;
        if (read) /* x's norm before the step */
            HOMG_TRY(dot(g, n, x, x, &nn));
        HOMG_TRY(homg__gmg_op_apply(g, &lv->a, x, lv->t, 1.0, 0.0));
        HOMG_TRY(apply_m(g, l, lv->t, z, 0));
        if (read) {
            HOMG_TRY(dot(g, n, z, z, &zz));
            lam = sqrt(zz / nn);
            if (!(zz > 0) || !isfinite(zz))
                break;
            if (!last) { /* rescale to unit norm */
                HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(&g->ctx->ex, x, (size_t)n * sizeof(double)), "GMG: zero");
                HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->axpy(&g->ctx->ex, n, 1.0 / sqrt(zz), z, x), "GMG: scale");
                nn = 1;
                continue;
            }
        }
        swap = x;
        x = z;
        z = swap;
    }
    if (!(lam > 0) || !isfinite(lam))
        return homg__fail(g->ctx, HOMG_ERROR_NUMERIC,
                          "homg_gmg_create: level %d: the smoother's M A has no positive eigenvalue estimate (%g)", l,
                          lam);
    lv->lambda_max = lam;
    lv->omega = g->desc.omega_scale / lam;
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(&g->ctx->ex, lv->x, (size_t)n * sizeof(double)), "GMG: zero");
    return HOMG_OK;
}

static homg_status setup_spai1(homg_gmg *g, int l)
{
    homg_ctx *ctx = g->ctx;
    gmg_level *lv = &g->lv[l];
    const csr_matrix *a = &lv->a.csr;
    int32_t fb = 0;
    double t;
    memset(&lv->m, 0, sizeof lv->m);
    memset(&lv->mt, 0, sizeof lv->mt);
    HOMG_TRY(homg__mat_alloc(ctx, a->nrows, a->ncols, a->nnz, HOMG_FLOAT64, &lv->m.csr, "SPAI-1"));
    HOMG_TRY(homg__mat_alloc(ctx, a->nrows, a->ncols, a->nnz, HOMG_FLOAT64, &lv->mt.csr, "SPAI-1 transpose"));
    HOMG_TRY_BACKEND(ctx, ctx->mem->copy(&ctx->ex, lv->m.csr.row_ptr, a->row_ptr, ((size_t)a->nrows + 1) * 4, HOMG_D2D),
                     "SPAI-1 pattern");
    HOMG_TRY_BACKEND(ctx, ctx->mem->copy(&ctx->ex, lv->m.csr.col_idx, a->col_idx, (size_t)a->nnz * 4, HOMG_D2D),
                     "SPAI-1 pattern");
    HOMG_TRY(homg__write(ctx, g->count, &fb, sizeof fb));
    t = homg__gmg_now_ms();
    HOMG_TRY(homg__alloc_array(ctx, (size_t)a->nrows + 1, sizeof(double), (void **)&lv->d, "SPAI-1 scaling"));
    HOMG_TRY_BACKEND(ctx, GMG_GK(g)->spai_scale(&ctx->ex, a, lv->d), "SPAI-1 scaling");
    HOMG_TRY_BACKEND(ctx, GMG_GK(g)->spai1(&ctx->ex, a, g->desc.spai_unscaled ? NULL : lv->d, &lv->m.csr, g->count),
                     "SPAI-1 rows");
    HOMG_TRY(homg__read(ctx, &fb, g->count, sizeof fb));
    g->info.fallback_rows += fb;
    if (fb)
        homg__log(ctx, HOMG_LOG_INFO, "GMG level %d: %d SPAI-1 rows fell back to SPAI(0)", l, (int)fb);
    t = part(g, GMG_S_ROWS, t);
    HOMG_TRY_BACKEND(ctx, GMG_SK(g)->transpose(&ctx->ex, g->handle, &lv->m.csr, &lv->mt.csr), "SPAI-1 transpose");
    part(g, GMG_S_TRANSPOSE, t);
    return HOMG_OK;
}

static homg_status setup_sainv(homg_gmg *g, int l)
{
    gmg_level *lv = &g->lv[l];
    homg_host_csr w, wt;
    int32_t replaced = 0;
    homg_status st;
    HOMG_TRY(homg__gmg_sainv(g->ctx, &lv->host_a, g->desc.sainv_drop, &w, &replaced));
    g->info.fallback_rows += replaced;
    st = homg__gmg_host_transpose(g->ctx, &w, &wt);
    if (st == HOMG_OK) {
        st = homg__gmg_op_upload(g, &w, &lv->m, "SAINV factor");
        if (st == HOMG_OK)
            st = homg__gmg_op_upload(g, &wt, &lv->mt, "SAINV factor transpose");
        homg_host_csr_free(&wt);
    }
    homg_host_csr_free(&w);
    return st;
}

/* out += alpha M' in with M' = M or M^T (uses lv->s for SAINV): the product
 * and the update in one pass where M is a matrix. */
static homg_status add_m(homg_gmg *g, int l, const double *in, double *out, double alpha, int transposed)
{
    gmg_level *lv = &g->lv[l];
    kernel_exec *ex = &g->ctx->ex;
    switch (lv->diag ? HOMG_GMG_SMOOTHER_JACOBI : g->desc.smoother) {
    case HOMG_GMG_SMOOTHER_SPAI1: return homg__gmg_op_apply(g, transposed ? &lv->mt : &lv->m, in, out, alpha, 1.0);
    case HOMG_GMG_SMOOTHER_SAINV:
        HOMG_TRY(homg__gmg_op_apply(g, &lv->mt, in, lv->s, 1.0, 0.0));
        return homg__gmg_op_apply(g, &lv->m, lv->s, out, alpha, 1.0);
    default:
        HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->diag_update(ex, lv->rows, alpha, lv->d, in, out), "GMG: sweep");
        return HOMG_OK;
    }
}

/* y = (I - omega M' A) y with M' = M or M^T (uses t). */
static homg_status sweep_operator(homg_gmg *g, int l, double *y, int transposed)
{
    gmg_level *lv = &g->lv[l];
    HOMG_TRY(homg__gmg_op_apply(g, &lv->a, y, lv->t, 1.0, 0.0));
    return add_m(g, l, lv->t, y, -lv->omega, transposed);
}

/* lambda_max of E* E = (I - w M^T A)(I - w M A), self-adjoint in the A inner
 * product with eigenvalues >= 0: the A-norm contraction of a pre- and
 * post-sweep pair, < 1 exactly when the cycle is an SPD preconditioner.  The
 * iterate lives in b (swept in place); x holds the unit start of a read. */
static homg_status contraction(homg_gmg *g, int l, double *rho)
{
    gmg_level *lv = &g->lv[l];
    int32_t n = lv->rows;
    double vav = 0, num = 0;
    *rho = 0;
    HOMG_TRY(random_start(g, l, lv->b));
    for (int it = 0; it < 2 * g->desc.power_iterations; it++) { /* twice: eigenvalues near 1 separate slowly */
        int last = it + 1 == 2 * g->desc.power_iterations, read = it == 0 || last || (it + 1) % GMG_READ_EVERY == 0;
        if (read) { /* ||x||_A = 1 (between reads the iterate shrinks by E* E's contraction) */
            HOMG_TRY(homg__gmg_op_apply(g, &lv->a, lv->b, lv->t, 1.0, 0.0));
            HOMG_TRY(dot(g, n, lv->b, lv->t, &vav));
            if (!(vav > 0) || !isfinite(vav))
                break;
            HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(&g->ctx->ex, lv->x, (size_t)n * sizeof(double)), "GMG: zero");
            HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->axpy(&g->ctx->ex, n, 1.0 / sqrt(vav), lv->b, lv->x), "GMG: scale");
            HOMG_TRY(copy_vec(g, lv->b, lv->x, n));
        }
        HOMG_TRY(sweep_operator(g, l, lv->b, 0));
        HOMG_TRY(sweep_operator(g, l, lv->b, 1)); /* b = E* E x */
        if (last) {                               /* the Rayleigh quotient (E* E x, x)_A of the unit x */
            HOMG_TRY(homg__gmg_op_apply(g, &lv->a, lv->x, lv->t, 1.0, 0.0));
            HOMG_TRY(dot(g, n, lv->b, lv->t, &num));
            *rho = num;
        }
    }
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(&g->ctx->ex, lv->x, (size_t)n * sizeof(double)), "GMG: zero");
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(&g->ctx->ex, lv->b, (size_t)n * sizeof(double)), "GMG: zero");
    if (!isfinite(*rho))
        *rho = 2;
    return HOMG_OK;
}

/* SPAI-1 need not be A-contractive (M is not symmetric): halve omega up to
 * three times, then fall back to SPAI(0) on this level (counted, logged). */
static homg_status secure_spai1(homg_gmg *g, int l)
{
    gmg_level *lv = &g->lv[l];
    double rho = 0;
    for (int k = 0; k < 4; k++) {
        HOMG_TRY(contraction(g, l, &rho));
        if (rho < 0.999)
            return HOMG_OK;
        lv->omega *= 0.5;
    }
    homg__log(g->ctx, HOMG_LOG_WARN,
              "GMG level %d: SPAI-1 smoothing does not contract the error in the A-norm (%.3f); using SPAI(0)", l, rho);
    g->info.fallback_rows += lv->rows;
    lv->diag = 1;
    HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->diag_inverse(&g->ctx->ex, &lv->a.csr, 0, lv->d), "GMG: SPAI(0) fallback");
    return estimate(g, l);
}

static homg_status build_m(homg_gmg *g, int l);

/* M (timed as GMG_T_SMOOTHER), the level's format (GMG_T_FORMAT: before
 * omega, so that its products run in the format the cycle will), then omega
 * (GMG_T_OMEGA). */
homg_status homg__gmg_smoother_setup(homg_gmg *g, int l)
{
    double t = homg__gmg_now_ms();
    homg_status st = build_m(g, l);
    t = homg__gmg_mark(g, GMG_T_SMOOTHER, t);
    if (st == HOMG_OK)
        st = homg__gmg_choose_format(g, l);
    t = homg__gmg_mark(g, GMG_T_FORMAT, t);
    if (st == HOMG_OK) {
        double t1;
        st = estimate(g, l);
        t1 = part(g, GMG_S_ESTIMATE, t);
        if (st == HOMG_OK && g->desc.smoother == HOMG_GMG_SMOOTHER_SPAI1)
            st = secure_spai1(g, l);
        part(g, GMG_S_CONTRACTION, t1);
    }
    homg__gmg_mark(g, GMG_T_OMEGA, t);
    return st;
}

static homg_status build_m(homg_gmg *g, int l)
{
    gmg_level *lv = &g->lv[l];
    homg_gmg_smoother sm = g->desc.smoother;
    if (sm == HOMG_GMG_SMOOTHER_JACOBI || sm == HOMG_GMG_SMOOTHER_SPAI0) {
        lv->diag = 1;
        HOMG_TRY(homg__alloc_array(g->ctx, (size_t)lv->rows, sizeof(double), (void **)&lv->d, "GMG smoother"));
        HOMG_TRY_BACKEND(g->ctx,
                         GMG_GK(g)->diag_inverse(&g->ctx->ex, &lv->a.csr, sm == HOMG_GMG_SMOOTHER_JACOBI, lv->d),
                         "GMG: smoother diagonal");
    } else if (sm == HOMG_GMG_SMOOTHER_SPAI1) {
        HOMG_TRY(setup_spai1(g, l));
    } else {
        HOMG_TRY(setup_sainv(g, l));
    }
    return HOMG_OK;
}
