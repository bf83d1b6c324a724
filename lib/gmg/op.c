/* op.c -- a level's matrices in the format the level runs: CSR (the sparse
 * table's product) or ELLPACK-R (seed 004: column-major, padded to the longest
 * row, row lengths kept; `lanes` threads per row as its ELLPACK-T), converted
 * on the backend.  AUTO on CUDA takes ELL with lanes by the mean row length
 * (below 10: 1, below 24: 4, else 8): what timing picked on the H100 for the
 * finest levels of the square (7 per row: ELL/1) and the cube (15: ELL/4),
 * where measuring every level cost more set-up time than the whole solve.  ELL
 * with ell_lanes = 0 still measures: A's product timed (CUDA events, 20
 * products after a warm-up) with 1, 2, 4 and 8 lanes.  The CPU runs CSR. */
#include "gmg_internal.h"

#include <stdlib.h>
#include <string.h>

homg_status homg__gmg_op_upload(homg_gmg *g, const homg_host_csr *h, gmg_op *op, const char *what)
{
    homg_ctx *ctx = g->ctx;
    homg_status st;
    memset(op, 0, sizeof *op);
    HOMG_TRY(homg__mat_alloc(ctx, h->nrows, h->ncols, h->nnz, HOMG_FLOAT64, &op->csr, what));
    st = homg__write(ctx, op->csr.row_ptr, h->row_ptr, ((size_t)h->nrows + 1) * sizeof(int32_t));
    if (st == HOMG_OK && h->nnz)
        st = homg__write(ctx, op->csr.col_idx, h->col_idx, (size_t)h->nnz * sizeof(int32_t));
    if (st == HOMG_OK && h->nnz)
        st = homg__write(ctx, op->csr.values, h->values, (size_t)h->nnz * sizeof(double));
    if (st != HOMG_OK)
        homg__mat_free(ctx, &op->csr);
    return st;
}

static void ell_free(homg_ctx *ctx, ell_matrix *e)
{
    homg__free(ctx, e->col);
    homg__free(ctx, e->val);
    homg__free(ctx, e->rl);
    memset(e, 0, sizeof *e);
}

void homg__gmg_op_free(homg_gmg *g, gmg_op *op)
{
    homg__mat_free(g->ctx, &op->csr);
    ell_free(g->ctx, &op->ell);
    op->use_ell = 0;
}

size_t homg__gmg_op_bytes(const gmg_op *op)
{
    size_t b = op->csr.row_ptr ? homg__mat_bytes(&op->csr) : 0;
    if (op->ell.col)
        b += (size_t)op->ell.width * op->ell.nrows * (sizeof(int32_t) + sizeof(double)) +
             (size_t)op->ell.nrows * sizeof(int32_t);
    return b;
}

/* A level's ops in a fixed order (A, P, R, M, M^T: ell_width's). */
static void level_ops(gmg_level *lv, gmg_op **all)
{
    all[0] = &lv->a;
    all[1] = &lv->p;
    all[2] = &lv->r;
    all[3] = &lv->m;
    all[4] = &lv->mt;
}

/* Every level's ops' widths in one launch and one read, kept in
 * g->ell_width for build_ells: once a create, at its first format choice
 * (smoother.c makes every level's M, then chooses every level's format), on
 * the ctx's stream only (with lanes, each level's ops are on its own lane:
 * a read a level as before). */
static homg_status read_all_widths(homg_gmg *g)
{
    homg_ctx *ctx = g->ctx;
    int nl = g->nlevels, n = 0, pn;
    int32_t *dev = NULL, host[HOMG_GMG_MAX_LEVELS * 6];
    const csr_matrix *mats[HOMG_GMG_MAX_LEVELS * 5];
    homg_status st;
    if (g->ell_widths_read || g->lanes > 1)
        return HOMG_OK;
    g->ell_widths_read = 1;
    for (int l = 0; l < nl; l++) {
        gmg_op *all[5];
        level_ops(&g->lv[l], all);
        for (int k = 0; k < 5; k++)
            if (all[k]->csr.row_ptr && !all[k]->ell.col)
                mats[n++] = &all[k]->csr;
    }
    if (n == 0)
        return HOMG_OK;
    /* the widths, then (pending) the device P's entry counts: one read */
    pn = g->pnnz_pending ? nl - 1 : 0;
    HOMG_TRY(homg__alloc_array(ctx, (size_t)(n + pn), sizeof(int32_t), (void **)&dev, "GMG: ELLPACK-R widths"));
    st = GMG_GK(g)->csr_widths(&ctx->ex, mats, n, dev) == HOMG_OK
             ? HOMG_OK
             : homg__backend_fail(ctx, HOMG_ERROR_BACKEND, "GMG: ELLPACK-R widths");
    if (st == HOMG_OK && pn)
        st = ctx->mem->copy(&ctx->ex, dev + n, g->count + GMG_COUNT_PNNZ, (size_t)pn * sizeof(int32_t), HOMG_D2D) ==
                     HOMG_OK
                 ? HOMG_OK
                 : homg__backend_fail(ctx, HOMG_ERROR_BACKEND, "GMG: transfer counts");
    if (st == HOMG_OK)
        st = homg__read(ctx, host, dev, (size_t)(n + pn) * sizeof(int32_t));
    if (st == HOMG_OK && pn)
        st = homg__gmg_transfer_counts(g, host + n);
    n = 0;
    for (int l = 0; l < nl && st == HOMG_OK; l++) {
        gmg_op *all[5];
        level_ops(&g->lv[l], all);
        for (int k = 0; k < 5; k++)
            g->ell_width[l][k] = all[k]->csr.row_ptr && !all[k]->ell.col ? host[n++] : 0;
    }
    homg__free(ctx, dev);
    return st;
}

/* The ELLPACK-R arrays of e (nrows and width set). */
static homg_status ell_alloc(homg_ctx *ctx, ell_matrix *e)
{
    size_t cells = (size_t)e->width * e->nrows + 1;
    HOMG_TRY(homg__alloc_array(ctx, cells, sizeof(int32_t), (void **)&e->col, "ELLPACK-R columns"));
    HOMG_TRY(homg__alloc_array(ctx, cells, sizeof(double), (void **)&e->val, "ELLPACK-R values"));
    return homg__alloc_array(ctx, (size_t)e->nrows + 1, sizeof(int32_t), (void **)&e->rl, "ELLPACK-R row lengths");
}

/* ELLPACK-R arrays of n ops from their CSR on the backend, the unknown widths
 * in one launch and one read, a launch an op for the conversions (ops already
 * converted only take the new lanes); known[k] > 0: op k's width read before
 * (read_all_widths), no read for it.  (The conversions of a level in one
 * launch, s12-gmg17's ell_from_csrs, took 533 us of GPU time for level 0 of
 * the 65^3 cube on the H100 against 262 for the five launches: left out.) */
static homg_status build_ells(homg_gmg *g, gmg_op *const *ops, int n, int lanes, const int32_t *known)
{
    homg_ctx *ctx = g->ctx;
    int32_t w[GMG_COUNT_FALLBACK - GMG_COUNT_WIDTH];
    const csr_matrix *mats[GMG_COUNT_FALLBACK - GMG_COUNT_WIDTH];
    int todo = 0;
    for (int k = 0; k < n; k++) {
        w[k] = known ? known[k] : 0;
        if (!ops[k]->ell.col && !(w[k] > 0))
            mats[todo++] = &ops[k]->csr;
    }
    if (todo) { /* the widths not known */
        int32_t r[GMG_COUNT_FALLBACK - GMG_COUNT_WIDTH];
        HOMG_TRY_BACKEND(ctx, GMG_GK(g)->csr_widths(&ctx->ex, mats, todo, g->count + GMG_COUNT_WIDTH),
                         "GMG: ELLPACK-R width");
        HOMG_TRY(homg__read(ctx, r, g->count + GMG_COUNT_WIDTH, (size_t)todo * sizeof(int32_t)));
        todo = 0;
        for (int k = 0; k < n; k++)
            if (!ops[k]->ell.col && !(w[k] > 0))
                w[k] = r[todo++];
    }
    for (int k = 0; k < n; k++) {
        ell_matrix *e = &ops[k]->ell;
        homg_status st;
        e->lanes = lanes;
        if (e->col)
            continue;
        e->nrows = ops[k]->csr.nrows;
        e->ncols = ops[k]->csr.ncols;
        e->width = w[k];
        st = ell_alloc(ctx, e);
        if (st == HOMG_OK && GMG_GK(g)->ell_from_csr(&ctx->ex, &ops[k]->csr, e) != HOMG_OK)
            st = homg__backend_fail(ctx, HOMG_ERROR_BACKEND, "GMG: ELLPACK-R conversion");
        if (st != HOMG_OK) {
            ell_free(ctx, e);
            return st;
        }
    }
    return HOMG_OK;
}

static homg_status build_ell(homg_gmg *g, gmg_op *op, int lanes) { return build_ells(g, &op, 1, lanes, NULL); }

homg_status homg__gmg_op_apply(homg_gmg *g, const gmg_op *op, const double *x, double *y, double alpha, double beta)
{
    kernel_exec *ex = &g->ctx->ex;
    if (op->use_ell)
        HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->ell_spmv(ex, &op->ell, x, y, alpha, beta), "GMG: ELLPACK-R product");
    else
        HOMG_TRY_BACKEND(g->ctx, GMG_SK(g)->spmv(ex, &op->csr, x, y, alpha, beta), "GMG: CSR product");
    return HOMG_OK;
}

homg_status homg__gmg_op_residual(homg_gmg *g, const gmg_op *op, const double *b, const double *x, double *r)
{
    kernel_exec *ex = &g->ctx->ex;
    if (op->use_ell)
        HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->ell_residual(ex, &op->ell, b, x, r), "GMG: ELLPACK-R residual");
    else
        HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->csr_residual(ex, &op->csr, b, x, r), "GMG: CSR residual");
    return HOMG_OK;
}

/* Median-free mean of 20 products of level l's A in the op's current format (ms). */
static homg_status time_products(homg_gmg *g, int l, float *ms)
{
    homg_ctx *ctx = g->ctx;
    gmg_level *lv = &g->lv[l];
    void *e0 = NULL, *e1 = NULL;
    homg_status st = HOMG_OK;
    for (int k = 0; k < 3 && st == HOMG_OK; k++)
        st = homg__gmg_op_apply(g, &lv->a, lv->x, lv->t, 1.0, 0.0);
    if (st == HOMG_OK && (ctx->mem->event_create(&e0) != HOMG_OK || ctx->mem->event_create(&e1) != HOMG_OK))
        st = homg__fail(ctx, HOMG_ERROR_BACKEND, "GMG: cannot create timing events");
    if (st == HOMG_OK)
        st = ctx->mem->event_record(&ctx->ex, e0);
    for (int k = 0; k < 20 && st == HOMG_OK; k++)
        st = homg__gmg_op_apply(g, &lv->a, lv->x, lv->t, 1.0, 0.0);
    if (st == HOMG_OK)
        st = ctx->mem->event_record(&ctx->ex, e1);
    if (st == HOMG_OK)
        st = ctx->mem->event_elapsed_ms(e0, e1, ms);
    if (e0)
        ctx->mem->event_destroy(e0);
    if (e1)
        ctx->mem->event_destroy(e1);
    return st == HOMG_OK ? st : homg__backend_fail(ctx, st, "GMG: timing the level's product");
}

/* The level's other matrices follow A's format (A converted here too where
 * it is not yet: lanes given, all widths in one read, or none where
 * read_all_widths read them). */
static homg_status follow(homg_gmg *g, int l, int lanes)
{
    gmg_level *lv = &g->lv[l];
    gmg_op *all[5], *ops[5];
    int32_t known[5];
    int n = 0;
    level_ops(lv, all);
    if (lv->a.use_ell)
        HOMG_TRY(read_all_widths(g));
    for (int k = 0; k < 5; k++) {
        if (!all[k]->csr.row_ptr)
            continue;
        all[k]->use_ell = lv->a.use_ell;
        known[n] = g->ell_width[l][k];
        ops[n++] = all[k];
    }
    return lv->a.use_ell ? build_ells(g, ops, n, lanes, known) : HOMG_OK;
}

homg_status homg__gmg_choose_format(homg_gmg *g, int l)
{
    gmg_level *lv = &g->lv[l];
    homg_gmg_format f = g->desc.format;
    int cuda = g->ctx->ex.backend == HOMG_BACKEND_CUDA, lanes = g->desc.ell_lanes;
    if (f == HOMG_GMG_FORMAT_AUTO && cuda && lv->a.csr.nrows > 0) { /* the rule (top of the file) */
        double mean = (double)lv->a.csr.nnz / lv->a.csr.nrows;
        lanes = lanes ? lanes : mean < 10 ? 1 : mean < 24 ? 4 : 8;
        f = HOMG_GMG_FORMAT_ELL;
    }
    if (f == HOMG_GMG_FORMAT_CSR || (f == HOMG_GMG_FORMAT_AUTO && !cuda) || lv->a.csr.nrows == 0) {
        lv->a.use_ell = 0;
    } else if (!cuda || lanes) { /* ELL asked for with known lanes (or on the CPU): built with the others */
        lv->a.use_ell = 1;
        lv->a.ell.lanes = lanes ? lanes : 1;
    } else { /* measure */
        float best = 0, ms = 0;
        int best_lanes = 0; /* 0: CSR */
        if (f == HOMG_GMG_FORMAT_AUTO) {
            lv->a.use_ell = 0;
            HOMG_TRY(time_products(g, l, &best));
        } else {
            best = 1e30f;
        }
        for (int t = 1; t <= 8; t *= 2) {
            HOMG_TRY(build_ell(g, &lv->a, t));
            lv->a.use_ell = 1;
            HOMG_TRY(time_products(g, l, &ms));
            if (ms < best) {
                best = ms;
                best_lanes = t;
            }
        }
        lv->a.use_ell = best_lanes > 0;
        lv->a.ell.lanes = best_lanes > 0 ? best_lanes : 1;
        if (!lv->a.use_ell)
            ell_free(g->ctx, &lv->a.ell);
    }
    HOMG_TRY(follow(g, l, lv->a.ell.lanes));
    HOMG_TRY(homg__gmg_transfer_counts(g, NULL)); /* where follow read no widths (CSR, lanes): P's, R's nnz */
    g->info.format[l] = lv->a.use_ell ? HOMG_GMG_FORMAT_ELL : HOMG_GMG_FORMAT_CSR;
    g->info.ell_lanes[l] = lv->a.use_ell ? lv->a.ell.lanes : 0;
    return HOMG_OK;
}
