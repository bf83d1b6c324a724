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
 * lambda is 2, and a margin below the stability limit 2 / lambda); level 0
 * (and others) of a refined hierarchy take a coarser level's (levels_from_coarser).
 * Level 0 may have its own (desc.fine_smoother, JACOBI or SPAI0 below
 * another smoother): it is then a diagonal level like a SPAI-1 level that
 * fell back, estimated on its own (D^-1 A's spectrum is not SPAI-1's: no
 * coarser level's estimate is taken for it), outside the levels' batches,
 * by 4 power steps (diag_steps): they read lambda ~20 % low (65^3 cube
 * SPAI(0): 1.36 against 1.56 after 12 steps and ~1.69 after 200; 129^3 1.37),
 * above the 2/3 of it where omega lambda would reach 2, and the larger omega
 * smooths as well or better (65^3 and 129^3: 5 PCG iterations against 6).
 */
#include "gmg_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* Synchronises (HOMG_GMG_TRACE), adds now - since to smoother part k, returns now (ms). */
static double part(homg_gmg *g, int k, double since)
{
    double t;
    if (g->trace) /* a failure shows at the set-up's final sync */
        g->ctx->mem->sync(&g->ctx->ex);
    t = homg__gmg_now_ms();
    g->smoother_part_ms[k] += t - since;
    return t;
}

/* Queues what follows on level l's lane: level 0 on lane 0 (the ctx's
 * stream), the others spread over lanes 1.. (g->lanes of them; 1: no lanes). */
static void use_lane(homg_gmg *g, int l)
{
    if (g->lanes > 1)
        g->ctx->mem->lane(&g->ctx->ex, l == 0 ? 0 : 1 + (l - 1) % (g->lanes - 1));
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

/* Fills x with a random vector (the power iterations' start), on the backend. */
static homg_status random_start(homg_gmg *g, int l, double *x)
{
    uint32_t s0 = g->desc.seed * 2654435761u + (unsigned)l;
    HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->random_fill(&g->ctx->ex, g->lv[l].rows, s0, x), "GMG: power iteration start");
    return HOMG_OK;
}

/* Steps between the host reads of the power iterations (a read a level, on
 * its lane, after all levels' steps are queued): the iterates are rescaled only at
 * a read, and M A's eigenvalues and E* E's (below) are O(1), so 32 steps
 * neither overflow nor underflow; the defaults (12 and 24 steps) read once. */
#define GMG_READ_EVERY 32

/* Power steps of a diagonal level's estimate (level 0's fine_smoother, a
 * SPAI-1 level's fallback): HOMG_GMG_DIAG_POWER if set (1..1000), else
 * GMG_DIAG_POWER_DEFAULT or desc.power_iterations if fewer. */
#define GMG_DIAG_POWER_DEFAULT 4

static int diag_steps(const homg_gmg *g)
{
    int n = (int)homg__knob("HOMG_GMG_DIAG_POWER", 0);
    if (n >= 1 && n <= 1000)
        return n;
    return GMG_DIAG_POWER_DEFAULT < g->desc.power_iterations ? GMG_DIAG_POWER_DEFAULT : g->desc.power_iterations;
}

/* lambda_max(M A) of the levels with on[l] by power iterations, each level's
 * steps queued on its lane before the reads: z = M A v, lambda = ||z|| / ||v||
 * of the last step (v rescaled at each read; the two norms in the level's
 * first two scalars, read on its lane). */
static int batched(const homg_gmg *g, const int *on);
static void batch_levels(const homg_gmg *g, const int *on, int batch, int *in);
static homg_status estimate_batched(homg_gmg *g, const int *on, double **x, double **z, int k);

/* Power steps of level l: a diagonal level's own count (diag_steps),
 * desc.power_iterations for the others. */
static int level_steps(const homg_gmg *g, int l) { return g->lv[l].diag ? diag_steps(g) : g->desc.power_iterations; }

/* host[GMG_MOMENTS l + j] = level l's scalar j (j < count) for the levels
 * with want[l]: one read of their span when there are no lanes (one wait
 * instead of a wait a level), else a read a level on its lane (waits for
 * that lane only). */
static homg_status read_scalars(homg_gmg *g, const int *want, size_t count, double *host)
{
    int nl = g->nlevels - 1, first = -1, last = -1;
    for (int l = 0; l < nl; l++)
        if (want[l]) {
            if (first < 0)
                first = l;
            last = l;
        }
    if (first < 0)
        return HOMG_OK;
    if (g->lanes <= 1)
        return homg__read(g->ctx, host + GMG_MOMENTS * first, g->scalar + GMG_MOMENTS * first,
                          ((size_t)GMG_MOMENTS * (last - first) + count) * sizeof(double));
    for (int l = first; l <= last; l++) {
        if (!want[l])
            continue;
        use_lane(g, l);
        HOMG_TRY(homg__read(g->ctx, host + GMG_MOMENTS * l, g->scalar + GMG_MOMENTS * l, count * sizeof(double)));
    }
    return HOMG_OK;
}

/* The estimated levels' x zeroed, queued after their last power step and
 * before the read of the norms (stream order keeps the steps' use first):
 * the GPU runs them while the host waits, instead of idling after the read
 * while the host issues them (s14-gmg25's trace: ~5 us a zero). */
static homg_status zero_x(homg_gmg *g, const int *on)
{
    for (int l = 0; l < g->nlevels - 1; l++) {
        gmg_level *lv = &g->lv[l];
        if (!on[l])
            continue;
        use_lane(g, l);
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(&g->ctx->ex, lv->x, (size_t)lv->rows * sizeof(double)), "GMG: zero");
    }
    return HOMG_OK;
}

static homg_status estimate(homg_gmg *g, const int *on)
{
    int nl = g->nlevels - 1, steps = 0, batch = batched(g, on), in[HOMG_GMG_MAX_LEVELS];
    int read[HOMG_GMG_MAX_LEVELS] = { 0 };
    double *x[HOMG_GMG_MAX_LEVELS], *z[HOMG_GMG_MAX_LEVELS], s[GMG_MOMENTS * HOMG_GMG_MAX_LEVELS];
    double lam[HOMG_GMG_MAX_LEVELS];
    batch_levels(g, on, batch, in);
    for (int l = 0; l < nl; l++) {
        x[l] = g->lv[l].x;
        z[l] = g->lv[l].z; /* swapped after each step instead of copied */
        lam[l] = 0;
        if (on[l]) {
            use_lane(g, l);
            HOMG_TRY(random_start(g, l, x[l]));
            if (level_steps(g, l) > steps)
                steps = level_steps(g, l);
        }
    }
    for (int done = 0; done < steps; done += GMG_READ_EVERY) {
        int k = steps - done < GMG_READ_EVERY ? steps - done : GMG_READ_EVERY, kb = g->desc.power_iterations - done;
        for (int l = 0; l < nl; l++) {
            gmg_level *lv = &g->lv[l];
            double *norms = g->scalar + GMG_MOMENTS * l;
            int kl = level_steps(g, l) - done < k ? level_steps(g, l) - done : k;
            if (!on[l] || kl <= 0)
                continue;
            use_lane(g, l);
            if (done) { /* rescale to unit norm */
                HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(&g->ctx->ex, z[l], (size_t)lv->rows * sizeof(double)),
                                 "GMG: zero");
                HOMG_TRY_BACKEND(g->ctx,
                                 GMG_GK(g)->axpy(&g->ctx->ex, lv->rows, 1.0 / sqrt(s[GMG_MOMENTS * l + 1]), x[l], z[l]),
                                 "GMG: scale");
                double *swap = x[l];
                x[l] = z[l];
                z[l] = swap;
            }
            for (int it = 0; it < kl && !in[l]; it++) {
                double *swap;
                if (it + 1 == kl) /* x's norm before the step */
                    HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->dot(&g->ctx->ex, lv->rows, x[l], x[l], norms),
                                     "GMG: dot product");
                HOMG_TRY(homg__gmg_op_apply(g, &lv->a, x[l], lv->t, 1.0, 0.0));
                HOMG_TRY(apply_m(g, l, lv->t, z[l], 0));
                swap = x[l];
                x[l] = z[l];
                z[l] = swap;
            }
            if (!in[l])
                HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->dot(&g->ctx->ex, lv->rows, x[l], x[l], norms + 1),
                                 "GMG: dot product");
        }
        if (batch && kb > 0) /* the batch holds no diagonal level: desc.power_iterations steps */
            HOMG_TRY(estimate_batched(g, in, x, z, kb < k ? kb : k));
        if (done + k >= steps) /* the last round: x's zeros before the read, not after it */
            HOMG_TRY(zero_x(g, on));
        for (int l = 0; l < nl; l++)
            read[l] = on[l] && level_steps(g, l) > done;
        HOMG_TRY(read_scalars(g, read, 2, s));
        for (int l = 0; l < nl; l++) {
            const double *sl = s + GMG_MOMENTS * l;
            if (!read[l])
                continue;
            lam[l] = sl[0] > 0 ? sqrt(sl[1] / sl[0]) : 0;
            if (!(lam[l] > 0) || !isfinite(lam[l]))
                return homg__fail(
                    g->ctx, HOMG_ERROR_NUMERIC,
                    "homg_gmg_create: level %d: the smoother's M A has no positive eigenvalue estimate (%g)", l,
                    lam[l]);
        }
    }
    for (int l = 0; l < nl; l++) {
        gmg_level *lv = &g->lv[l];
        if (!on[l])
            continue;
        lv->lambda_max = lam[l];
        lv->omega = g->desc.omega_scale / lam[l];
    }
    return HOMG_OK;
}

/* Level l's A is homg_fem's (level 0, or every level rediscretised): its
 * pattern is structurally symmetric with sorted rows (the sorted element
 * node pairs); Galerkin's host products promise neither. */
static int fem_pattern(const homg_gmg *g, int l) { return l == 0 || g->desc.coarse_op != HOMG_GMG_COARSE_OP_GALERKIN; }

/* Whether the SPAI-1 levels' rows go into one launch (spai1_batch, queued
 * after every level's M is allocated and scaled): without lanes (a batch
 * spans the levels' streams otherwise). */
static int spai1_batching(const homg_gmg *g) { return g->lanes <= 1; }

/* Queues the batched SPAI-1 rows (and empties the batch). */
static homg_status spai1_flush(homg_gmg *g, spai1_batch *batch)
{
    double t = homg__gmg_now_ms();
    if (batch->count == 0)
        return HOMG_OK;
    HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->spai1_batch(&g->ctx->ex, batch), "SPAI-1 rows");
    batch->count = 0; /* the counts are read at the set-up's end (homg__gmg_fallback_rows) */
    part(g, GMG_S_ROWS, t);
    return HOMG_OK;
}

/* M of level l and M^T: on A's own pattern (homg_fem's: symmetric, sorted)
 * M^T's values come with M's rows (the pattern copied); Galerkin's by a
 * general transpose.  With batch (not NULL) a level on A's own pattern adds
 * its rows to it instead of launching them (spai1_flush queues them). */
static homg_status setup_spai1(homg_gmg *g, int l, spai1_batch *batch)
{
    homg_ctx *ctx = g->ctx;
    gmg_level *lv = &g->lv[l];
    const csr_matrix *a = &lv->a.csr;
    int mirrored = fem_pattern(g, l);
    const double *w;
    double t;
    memset(&lv->m, 0, sizeof lv->m);
    memset(&lv->mt, 0, sizeof lv->mt);
    HOMG_TRY(homg__mat_alloc(ctx, a->nrows, a->ncols, a->nnz, HOMG_FLOAT64, &lv->m.csr, "SPAI-1"));
    HOMG_TRY(homg__mat_alloc(ctx, a->nrows, a->ncols, a->nnz, HOMG_FLOAT64, &lv->mt.csr, "SPAI-1 transpose"));
    for (int k = 0; k < 1 + mirrored; k++) {
        csr_matrix *to = k ? &lv->mt.csr : &lv->m.csr;
        HOMG_TRY_BACKEND(ctx, ctx->mem->copy(&ctx->ex, to->row_ptr, a->row_ptr, ((size_t)a->nrows + 1) * 4, HOMG_D2D),
                         "SPAI-1 pattern");
        HOMG_TRY_BACKEND(ctx, ctx->mem->copy(&ctx->ex, to->col_idx, a->col_idx, (size_t)a->nnz * 4, HOMG_D2D),
                         "SPAI-1 pattern");
    }
    HOMG_TRY_BACKEND(ctx, ctx->mem->zero(&ctx->ex, g->count + GMG_COUNT_FALLBACK + l, sizeof(int32_t)),
                     "SPAI-1 fallback count");
    t = homg__gmg_now_ms();
    HOMG_TRY(homg__alloc_array(ctx, (size_t)a->nrows + 1, sizeof(double), (void **)&lv->d, "SPAI-1 scaling"));
    HOMG_TRY_BACKEND(ctx, GMG_GK(g)->spai_scale(&ctx->ex, a, lv->d), "SPAI-1 scaling");
    w = g->desc.spai_unscaled ? NULL : lv->d;
    if (batch && mirrored) {
        spai1_item *it;
        if (batch->count == GMG_SPAI1_BATCH_MAX)
            HOMG_TRY(spai1_flush(g, batch));
        it = &batch->item[batch->count++];
        it->a = a;
        it->w = w;
        it->m = &lv->m.csr;
        it->mt = (double *)lv->mt.csr.values;
        it->fallback = g->count + GMG_COUNT_FALLBACK + l;
        it->max_row = lv->max_row;
        part(g, GMG_S_ROWS, t);
        return HOMG_OK;
    }
    HOMG_TRY_BACKEND(ctx,
                     GMG_GK(g)->spai1(&ctx->ex, a, w, &lv->m.csr, mirrored ? (double *)lv->mt.csr.values : NULL,
                                      g->count + GMG_COUNT_FALLBACK + l, lv->max_row),
                     "SPAI-1 rows"); /* the count is read at the set-up's end (homg__gmg_fallback_rows) */
    t = part(g, GMG_S_ROWS, t);
    if (!mirrored)
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

/* Level l's M is one matrix (SPAI-1): add_m is one product with M or M^T. */
static int matrix_m(const homg_gmg *g, int l) { return !g->lv[l].diag && g->desc.smoother == HOMG_GMG_SMOOTHER_SPAI1; }

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

/* y = alpha op x + beta y, then *dot = u . y (the new y; *dot zero before):
 * one pass where op is in ELLPACK-R (the product's rows add their u_i y_i),
 * else the product and a dot product. */
static homg_status product_moment(homg_gmg *g, const gmg_op *op, const double *x, double *y, double alpha, double beta,
                                  const double *u, double *dot)
{
    kernel_exec *ex = &g->ctx->ex;
    if (op->use_ell) {
        HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->ell_spmv_dot(ex, &op->ell, x, y, alpha, beta, u, dot),
                         "GMG: product and dot product");
        return HOMG_OK;
    }
    HOMG_TRY(homg__gmg_op_apply(g, op, x, y, alpha, beta));
    HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->dot(ex, op->csr.nrows, u, y, dot), "GMG: dot product");
    return HOMG_OK;
}

/* rho[l] = lambda_max of E* E = (I - w M^T A)(I - w M A) for the levels
 * with on[l], self-adjoint in the A inner product with eigenvalues >= 0: the
 * A-norm contraction of a pre- and post-sweep pair, < 1 exactly when the
 * cycle is an SPD preconditioner.  GMG_RITZ_STEPS sweep pairs from a random
 * start y_0, all levels queued before one read, give the moments mu_2k =
 * (y_k, A y_k) and mu_2k+1 = (y_k+1, A y_k) = (y_k, E* E y_k)_A (the
 * sweep's own A y_k, no extra product); the largest Ritz value of their
 * Krylov space (ritz.c, Lanczos in exact arithmetic).  12 pairs instead of
 * the power iteration's 24: on test_gmg's hierarchies (levels of >= 100 rows)
 * the 12-pair Ritz value was never below the 24-step power quotient (by up to
 * 0.06 above it); 8 pairs read ~0.01 below it. */
/* The contraction's products batched across levels (one launch a product
 * for all levels: the small levels' launches were latency-bound, ~7 us each
 * on the H100): every level with on[l] has SPAI-1's matrix M and A, M, M^T in
 * ELLPACK-R and no lanes. */
static int batched(const homg_gmg *g, const int *on)
{
    int n = 0;
    if (g->lanes > 1 || g->nlevels - 1 > GMG_BATCH_MAX)
        return 0;
    for (int l = 0; l < g->nlevels - 1; l++) {
        const gmg_level *lv = &g->lv[l];
        if (!on[l] || lv->diag) /* a diagonal M (level 0's fine_smoother): on its own, not in the batch */
            continue;
        if (!matrix_m(g, l) || !lv->a.use_ell || !lv->m.use_ell || !lv->mt.use_ell)
            return 0;
        n++;
    }
    return n > 1;
}

/* The levels with on[l] that batched's batch holds (batch: its answer). */
static void batch_levels(const homg_gmg *g, const int *on, int batch, int *in)
{
    for (int l = 0; l < HOMG_GMG_MAX_LEVELS; l++)
        in[l] = batch && l < g->nlevels - 1 && on[l] && !g->lv[l].diag;
}

/* Item of a batch: y = alpha op x + beta y (dot: then *dot += u . y). */
static void batch_add(ell_batch *b, const gmg_op *op, const double *x, double *y, double alpha, double beta,
                      const double *u, double *dot)
{
    ell_batch_item *t = &b->item[b->count++];
    t->a = op->ell;
    t->x = x;
    t->y = y;
    t->alpha = alpha;
    t->beta = beta;
    t->u = u;
    t->dot = dot;
}

/* contraction's sweep pairs for all levels with on[l], each product one
 * batch over the levels (the same products and moments per level). */
static homg_status contraction_batched(homg_gmg *g, const int *on)
{
    int nl = g->nlevels - 1, m = GMG_RITZ_STEPS;
    kernel_exec *ex = &g->ctx->ex;
    for (int k = 0; k < m; k++) {
        ell_batch b[4];
        memset(b, 0, sizeof b);
        for (int l = 0; l < nl; l++) { /* b = y_k -> y_k+1; each moment with the product before it */
            gmg_level *lv = &g->lv[l];
            double *s = g->scalar + GMG_MOMENTS * l;
            if (!on[l])
                continue;
            batch_add(&b[0], &lv->a, lv->b, lv->t, 1.0, 0.0, lv->b, s + 2 * k);
            batch_add(&b[1], &lv->m, lv->t, lv->b, -lv->omega, 1.0, NULL, NULL);
            batch_add(&b[2], &lv->a, lv->b, lv->z, 1.0, 0.0, NULL, NULL);
            batch_add(&b[3], &lv->mt, lv->z, lv->b, -lv->omega, 1.0, lv->t, s + 2 * k + 1);
        }
        for (int j = 0; j < 4; j++)
            HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->ell_spmv_batch(ex, &b[j]), "GMG: batched products");
    }
    return HOMG_OK;
}

/* estimate's k steps for all levels with on[l] (x, z: their iterates), each
 * product one batch over the levels; the norms as estimate's. */
static homg_status estimate_batched(homg_gmg *g, const int *on, double **x, double **z, int k)
{
    int nl = g->nlevels - 1;
    kernel_exec *ex = &g->ctx->ex;
    for (int it = 0; it < k; it++) {
        ell_batch b[2];
        memset(b, 0, sizeof b);
        for (int l = 0; l < nl; l++) {
            gmg_level *lv = &g->lv[l];
            if (!on[l])
                continue;
            if (it + 1 == k) /* x's norm before the step */
                HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->dot(ex, lv->rows, x[l], x[l], g->scalar + GMG_MOMENTS * l),
                                 "GMG: dot product");
            batch_add(&b[0], &lv->a, x[l], lv->t, 1.0, 0.0, NULL, NULL);
            batch_add(&b[1], &lv->m, lv->t, z[l], 1.0, 0.0, NULL, NULL);
        }
        for (int j = 0; j < 2; j++)
            HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->ell_spmv_batch(ex, &b[j]), "GMG: batched products");
        for (int l = 0; l < nl; l++) {
            double *swap = x[l];
            if (!on[l])
                continue;
            x[l] = z[l];
            z[l] = swap;
        }
    }
    for (int l = 0; l < nl; l++)
        if (on[l])
            HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->dot(ex, g->lv[l].rows, x[l], x[l], g->scalar + GMG_MOMENTS * l + 1),
                             "GMG: dot product");
    return HOMG_OK;
}

/* Host threads for the levels' Ritz solves (~50 us each on the H100's host,
 * the GPU idle meanwhile: s12-gmg19): one a level checked, on CUDA (the CPU
 * backend's threads are its kernels'). */
static int ritz_threads(const homg_gmg *g, int levels)
{
    if (g->ctx->ex.backend != HOMG_BACKEND_CUDA)
        return 1;
    return levels > 1 ? levels : 1;
}

/* Whether the coarsest level's solver is set up beside the first round's
 * Ritz solves (ritz_solves): the dense Cholesky inverse, one stream (no
 * lanes). */
static int coarse_early(const homg_gmg *g)
{
    return !g->coarse_ready && g->lanes == 1 && g->desc.coarse_solver == HOMG_GMG_COARSE_SOLVER_CHOLESKY;
}

static int thread_id(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

static int thread_count(void)
{
#ifdef _OPENMP
    return omp_get_num_threads();
#else
    return 1;
#endif
}

/* The levels' Ritz solves (host), and in the first round the coarsest
 * level's solver (coarse.c): its GPU work (potrf, the pivot kernel, potrs:
 * ~0.2 ms) queued behind the zeros and waited for on thread 0 while the
 * other threads solve the Ritz problems (their ~0.12 ms, the workers waking,
 * were GPU idle time before: s13-gmg20's trace).  The coarse set-up's time
 * then counts in the omega phase too.  One thread (CPU backend): the coarse
 * set-up, then the solves in turn. */
static homg_status ritz_solves(homg_gmg *g, const int *checked, int count, const double *mu, int m, double *rho)
{
    int coarse = coarse_early(g), threads = ritz_threads(g, count + coarse);
    homg_status st = HOMG_OK;
    double t = homg__gmg_now_ms();
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
        int id = thread_id(), n = thread_count(), first = coarse && n > 1; /* first: the first Ritz thread */
        if (coarse && id == 0)
            st = homg__gmg_coarse_setup(g);
        if (!(first && id == 0))
            for (int k = id - first; k < count; k += n - first)
                rho[checked[k]] = homg__gmg_ritz_max(mu + GMG_MOMENTS * checked[k], m);
    }
    if (coarse) {
        g->coarse_ready = st == HOMG_OK;
        g->phase_ms[GMG_T_COARSE] += homg__gmg_now_ms() - t; /* also in omega's: overlapped */
    }
    return st;
}

static homg_status contraction(homg_gmg *g, const int *on, double *rho)
{
    int nl = g->nlevels - 1, m = GMG_RITZ_STEPS, batch = batched(g, on), in[HOMG_GMG_MAX_LEVELS];
    int checked[HOMG_GMG_MAX_LEVELS], count = 0;
    double mu[GMG_MOMENTS * HOMG_GMG_MAX_LEVELS];
    kernel_exec *ex = &g->ctx->ex;
    batch_levels(g, on, batch, in);
    for (int l = 0; l < nl; l++) {
        gmg_level *lv = &g->lv[l];
        double *s = g->scalar + GMG_MOMENTS * l;
        int32_t n = lv->rows;
        rho[l] = 0;
        if (!on[l])
            continue;
        use_lane(g, l);
        HOMG_TRY(random_start(g, l, lv->b));
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(ex, s, 2 * (size_t)m * sizeof(double)), "GMG: zero");
        for (int k = 0; k < m && !in[l]; k++) { /* b = y_k -> y_k+1; each moment with the product before it */
            HOMG_TRY(product_moment(g, &lv->a, lv->b, lv->t, 1.0, 0.0, lv->b, s + 2 * k));
            HOMG_TRY(add_m(g, l, lv->t, lv->b, -lv->omega, 0));
            HOMG_TRY(homg__gmg_op_apply(g, &lv->a, lv->b, lv->z, 1.0, 0.0));
            if (matrix_m(g, l)) {
                HOMG_TRY(product_moment(g, &lv->mt, lv->z, lv->b, -lv->omega, 1.0, lv->t, s + 2 * k + 1));
            } else {
                HOMG_TRY(add_m(g, l, lv->z, lv->b, -lv->omega, 1));
                HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->dot(ex, n, lv->b, lv->t, s + 2 * k + 1), "GMG: dot product");
            }
        }
    }
    if (batch)
        HOMG_TRY(contraction_batched(g, in));
    for (int l = 0; l < nl; l++) { /* the zeros queued behind the products, before the read (as zero_x) */
        gmg_level *lv = &g->lv[l];
        if (!on[l])
            continue;
        use_lane(g, l);
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(ex, lv->b, (size_t)lv->rows * sizeof(double)), "GMG: zero");
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(ex, lv->z, (size_t)lv->rows * sizeof(double)), "GMG: zero");
    }
    HOMG_TRY(read_scalars(g, on, 2 * (size_t)m, mu));
    for (int l = 0; l < nl; l++)
        if (on[l])
            checked[count++] = l;
    HOMG_TRY(ritz_solves(g, checked, count, mu, m, rho));
    for (int l = 0; l < nl; l++) {
        if (!on[l])
            continue;
        if (!isfinite(rho[l]))
            rho[l] = 2;
    }
    return HOMG_OK;
}

/* Fine levels' omega from a coarser level's: see levels_from_coarser. */
#define GMG_L0_OMEGA_DEFAULT 2
#define GMG_L0_LAMBDA_MARGIN 1.02
#define GMG_L0_TRUST_RHO     0.99
#define GMG_L0_MIN_ROWS      10000

/* SPAI-1 need not be A-contractive (M is not symmetric): halve omega up to
 * three times, then fall back to SPAI(0) on that level (counted, logged);
 * the levels with want[l] checked together (a read a level per round).
 * With src (levels_from_coarser's mode 2: src[l] != l), level l is first
 * left out and takes level src[l]'s contraction if that is below
 * GMG_L0_TRUST_RHO, else it is checked itself from the next round on. */
static homg_status secure_spai1(homg_gmg *g, const int *want, const int *src)
{
    int nl = g->nlevels - 1, on[HOMG_GMG_MAX_LEVELS], tries[HOMG_GMG_MAX_LEVELS] = { 0 };
    int failed[HOMG_GMG_MAX_LEVELS] = { 0 }, defer[HOMG_GMG_MAX_LEVELS] = { 0 }, left = 1, any_failed = 0, deferred = 0;
    double rho[HOMG_GMG_MAX_LEVELS];
    for (int l = 0; l < nl; l++)
        on[l] = want[l] && !g->lv[l].diag;
    for (int l = 0; l < nl; l++) /* finest first: a source is coarser than its levels */
        if (src && src[l] != l && on[l] && on[src[l]])
            defer[l] = 1, on[l] = 0, deferred = 1;
    while (left) {
        left = 0;
        HOMG_TRY(contraction(g, on, rho));
        for (int l = 0; l < nl; l++) {
            if (!on[l])
                continue;
            if (!tries[l]++)
                g->rho[l] = rho[l];
            if (rho[l] < 0.999)
                on[l] = 0;
            else if (tries[l] == 4)
                on[l] = 0, failed[l] = 1, any_failed = 1;
            else
                g->lv[l].omega *= 0.5;
        }
        for (int l = 0; deferred && l < nl; l++) { /* its source checked once: takes it or is checked */
            if (!defer[l])
                continue;
            if (tries[src[l]] == 1 && g->rho[src[l]] < GMG_L0_TRUST_RHO)
                g->rho[l] = g->rho[src[l]];
            else
                on[l] = 1;
        }
        deferred = 0;
        for (int l = 0; l < nl; l++)
            left |= on[l];
    }
    if (!any_failed)
        return HOMG_OK;
    for (int l = 0; l < nl; l++) {
        gmg_level *lv = &g->lv[l];
        if (!failed[l])
            continue;
        homg__log(g->ctx, HOMG_LOG_WARN,
                  "GMG level %d: SPAI-1 smoothing does not contract the error in the A-norm (%.3f); using SPAI(0)", l,
                  rho[l]);
        g->info.fallback_rows += lv->rows;
        lv->diag = 1;
        use_lane(g, l);
        HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->diag_inverse(&g->ctx->ex, &lv->a.csr, 0, lv->d), "GMG: SPAI(0) fallback");
    }
    return estimate(g, failed);
}

static homg_status build_m(homg_gmg *g, int l, spai1_batch *batch);

/* SPAI-1 rows that fell back to SPAI(0): every level's count fb[l], read by
 * create with the bandwidths after the set-up's final sync (gmg.c), or by
 * homg__gmg_fallback_read where those were not queued. */
void homg__gmg_fallback_rows(homg_gmg *g, const int32_t *fb)
{
    int nl = g->nlevels - 1;
    for (int l = 0; l < nl; l++) {
        g->info.fallback_rows += fb[l];
        if (fb[l])
            homg__log(g->ctx, HOMG_LOG_INFO, "GMG level %d: %d SPAI-1 rows fell back to SPAI(0)", l, (int)fb[l]);
    }
}

homg_status homg__gmg_fallback_read(homg_gmg *g)
{
    int32_t fb[HOMG_GMG_MAX_LEVELS];
    if (g->desc.smoother != HOMG_GMG_SMOOTHER_SPAI1)
        return HOMG_OK;
    HOMG_TRY(homg__read(g->ctx, fb, g->count + GMG_COUNT_FALLBACK, (size_t)(g->nlevels - 1) * sizeof(int32_t)));
    homg__gmg_fallback_rows(g, fb);
    return HOMG_OK;
}

/* Fine levels' omega from a coarser level's: 0 no, 1 its lambda_max(M A), 2
 * also its contraction check (secure_spai1).  HOMG_GMG_L0_OMEGA (0, 1, 2)
 * overrides GMG_L0_OMEGA_DEFAULT.  Level l takes level l + 1's source (src[l]
 * = src[l + 1]; a level that takes none is its own source) where level l + 1
 * has >= GMG_L0_MIN_ROWS rows, on hierarchies homg refines itself
 * (homg_gmg_create; P1, no sigma_fine, rediscretised, SPAI-1): level l + 1
 * is then a uniform refinement of level l + 2 and level l of level l + 1, so
 * their elements have the same shapes (red triangles: similar to the
 * parent; Bey's tetrahedra: the classes of the first refinement repeat), and
 * SPAI-1 is fitted to the Jacobi-scaled W A W, whose interior rows are then
 * the same on the levels: their M A differ by the share of boundary rows and
 * by how finely the top of the spectrum is resolved.  Measured (CPU, 12
 * power steps, 12 Ritz pairs), level 0 against level 1: lambda_max 1.1902 /
 * 1.1758 and contraction rho 0.9586 / 0.9661 (cube 65^3, level 1 35937
 * rows), 1.2705 / 1.2703 and 0.9702 / 0.9674 (square 513^2, 66049); but
 * lambda 1.282 / 1.161 where level 1 has 81 rows and rho 0.9378 / 0.8719
 * where it has 729 (boundary rows), hence GMG_L0_MIN_ROWS.  lambda_l =
 * GMG_L0_LAMBDA_MARGIN^(src - l) lambda_src; SPAI-1 only, whose contraction
 * check guards it: with 1 the level's own check, with 2 its source's when
 * that is below GMG_L0_TRUST_RHO (else the level is checked itself).  On the
 * 65^3 cube (H100, s11-gmg12) level 0 takes level 1's: its 72 products
 * (~29-42 us each) go, the set-up median 13.7 -> 12.0 ms. */
static int levels_from_coarser(const homg_gmg *g, const int *on, int *src)
{
    int mode = (int)homg__knob("HOMG_GMG_L0_OMEGA", GMG_L0_OMEGA_DEFAULT), nl = g->nlevels - 1, any = 0;
    for (int l = 0; l < HOMG_GMG_MAX_LEVELS; l++)
        src[l] = l;
    if (mode <= 0 || !g->refined || g->desc.smoother != HOMG_GMG_SMOOTHER_SPAI1 || g->desc.order != 1 ||
        g->desc.sigma_fine || g->desc.coarse_op == HOMG_GMG_COARSE_OP_GALERKIN)
        return 0;
    for (int l = nl - 2; l >= 0; l--) /* level l + 1 is smoothed, refined from level l + 2 <= nl */
        if (on[l] && on[l + 1] && !g->lv[l].diag && !g->lv[l + 1].diag && g->lv[l + 1].rows >= GMG_L0_MIN_ROWS) {
            src[l] = src[l + 1];
            any = 1;
        }
    return any ? (mode >= 2 ? 2 : 1) : 0;
}

/* The levels' lambda and omega from their sources' (levels_from_coarser):
 * GMG_L0_LAMBDA_MARGIN a level between (lambda_max rose by 0.2-1.8 % a
 * refinement in the measured cases); their x zeroed as estimate leaves the
 * levels it ran on. */
static homg_status take_lambdas(homg_gmg *g, const int *src)
{
    for (int l = 0; l < g->nlevels - 1; l++) {
        gmg_level *lv = &g->lv[l];
        if (src[l] == l)
            continue;
        lv->lambda_max = pow(GMG_L0_LAMBDA_MARGIN, src[l] - l) * g->lv[src[l]].lambda_max;
        lv->omega = g->desc.omega_scale / lv->lambda_max;
        use_lane(g, l);
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(&g->ctx->ex, lv->x, (size_t)lv->rows * sizeof(double)), "GMG: zero");
    }
    return HOMG_OK;
}

/* omega of the levels with on[l] (their formats chosen): the estimate, then
 * SPAI-1's contraction checks. */
static homg_status omega_levels(homg_gmg *g, const int *on)
{
    double t = homg__gmg_now_ms();
    int src[HOMG_GMG_MAX_LEVELS], from = levels_from_coarser(g, on, src), est[HOMG_GMG_MAX_LEVELS];
    homg_status st;
    for (int l = 0; l < HOMG_GMG_MAX_LEVELS; l++)
        est[l] = on[l] && src[l] == l;
    st = estimate(g, est);
    if (st == HOMG_OK && from)
        st = take_lambdas(g, src);
    t = part(g, GMG_S_ESTIMATE, t);
    if (st == HOMG_OK && g->desc.smoother == HOMG_GMG_SMOOTHER_SPAI1)
        st = secure_spai1(g, on, from == 2 ? src : NULL);
    part(g, GMG_S_CONTRACTION, t);
    return st;
}

/* Lanes for the levels' smoother set-ups: only with HOMG_GMG_LANES=1 in the
 * environment (off by default: on the H100, s10-gmg10, they took 0.8 ms off
 * the 65^3 cube's set-up, but the solves in the same process were 0.13 ms
 * slower, 2.70 against 2.57 ms, although their hierarchy was built without
 * lanes: not understood), on CUDA, untraced (the marks synchronise one
 * stream), with A on FEM patterns (Galerkin's M^T is a cuSPARSE transpose
 * whose scratch the handle shares between streams).  Nothing in the lanes
 * frees device memory, so the arena's reuse stays in stream order (arena.c). */
static int lanes_wanted(const homg_gmg *g)
{
    int nl = g->nlevels - 1;
    if (g->ctx->ex.backend != HOMG_BACKEND_CUDA || g->trace || nl < 2 || homg__knob("HOMG_GMG_LANES", 0) == 0 ||
        g->desc.coarse_op == HOMG_GMG_COARSE_OP_GALERKIN)
        return 1;
    return nl < HOMG_EXEC_LANES ? nl : HOMG_EXEC_LANES;
}

/* Every level's M (GMG_T_SMOOTHER), then their formats (GMG_T_FORMAT: before
 * omega, so that omega's products run in the format the cycle will), then
 * every level's omega (GMG_T_OMEGA), each step queued for all levels before
 * the host reads any.  With lanes, level 0 is on lane 0 and the others on
 * lanes 1..; levels 1.. are queued first (a grid is dispatched only after the
 * blocks of the grids launched before it), and their omegas' products run
 * between level 0's.  Measured (H100, 65^3 cube): this window 8.3 -> 7.4 ms
 * with lanes, less than level 0's share promised (its SPAI-1 rows 2.1 of 2.6
 * ms, its omega 2.3 of 3.9): level 1's products fill the GPU too, and side-lane
 * work launched behind level 0's SPAI-1 grid waits for its dispatch. */
static homg_status queue_levels(homg_gmg *g)
{
    int nl = g->nlevels - 1, on[HOMG_GMG_MAX_LEVELS];
    double t = homg__gmg_now_ms();
    spai1_batch batch;
    batch.count = 0;
    for (int l = nl - 1; l >= 0; l--) {
        use_lane(g, l);
        HOMG_TRY(build_m(g, l, spai1_batching(g) ? &batch : NULL));
    }
    HOMG_TRY(spai1_flush(g, &batch));
    t = homg__gmg_mark(g, GMG_T_SMOOTHER, t);
    for (int l = nl - 1; l >= 0; l--) {
        use_lane(g, l);
        HOMG_TRY(homg__gmg_choose_format(g, l));
    }
    t = homg__gmg_mark(g, GMG_T_FORMAT, t);
    for (int l = 0; l < HOMG_GMG_MAX_LEVELS; l++)
        on[l] = l < nl;
    HOMG_TRY(omega_levels(g, on));
    homg__gmg_mark(g, GMG_T_OMEGA, t);
    return HOMG_OK;
}

homg_status homg__gmg_smoothers_setup(homg_gmg *g)
{
    homg_status st, joined = HOMG_OK;
    g->lanes = lanes_wanted(g);
    if (g->lanes > 1)
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->fork(&g->ctx->ex, g->lanes), "GMG: smoother lanes");
    st = queue_levels(g);
    if (g->lanes > 1) /* also after a failure: the ctx's stream stays whole */
        joined = g->ctx->mem->join(&g->ctx->ex, g->lanes);
    g->lanes = 1;
    if (st == HOMG_OK && joined != HOMG_OK)
        st = homg__backend_fail(g->ctx, joined, "GMG: joining the smoother lanes");
    return st; /* the SPAI-1 fallback counts are read at the set-up's end (homg__gmg_fallback_rows) */
}

/* Level l's smoother: desc.fine_smoother on level 0, desc.smoother below. */
static homg_gmg_smoother level_smoother(const homg_gmg *g, int l)
{
    return l == 0 ? g->desc.fine_smoother : g->desc.smoother;
}

static homg_status build_m(homg_gmg *g, int l, spai1_batch *batch)
{
    gmg_level *lv = &g->lv[l];
    homg_gmg_smoother sm = level_smoother(g, l);
    if (sm == HOMG_GMG_SMOOTHER_JACOBI || sm == HOMG_GMG_SMOOTHER_SPAI0) {
        lv->diag = 1;
        if (g->desc.smoother == HOMG_GMG_SMOOTHER_SPAI1) /* every level's count is read */
            HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(&g->ctx->ex, g->count + GMG_COUNT_FALLBACK + l, sizeof(int32_t)),
                             "SPAI-1 fallback count");
        HOMG_TRY(homg__alloc_array(g->ctx, (size_t)lv->rows, sizeof(double), (void **)&lv->d, "GMG smoother"));
        HOMG_TRY_BACKEND(g->ctx,
                         GMG_GK(g)->diag_inverse(&g->ctx->ex, &lv->a.csr, sm == HOMG_GMG_SMOOTHER_JACOBI, lv->d),
                         "GMG: smoother diagonal");
    } else if (sm == HOMG_GMG_SMOOTHER_SPAI1) {
        HOMG_TRY(setup_spai1(g, l, batch));
    } else {
        HOMG_TRY(setup_sainv(g, l));
    }
    return HOMG_OK;
}
