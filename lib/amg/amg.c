/* amg.c -- algebraic multigrid: the public entry points and the set-up loop.
 *
 * Set-up of a symmetric positive definite matrix A (copied to the ctx's space
 * in double and checked, then a float copy for the hierarchy):
 *   level l -> l+1 while the level has more than coarse_size rows:
 *     smoothed aggregation (default, seed 000): aggregates from a distance-2
 *       MIS (aggregate.c), P = damped-Jacobi-smoothed tentative prolongator;
 *     or compatible weighted matching (seed 001): double pairwise aggregates,
 *       unsmoothed P (matching.c);
 *     A_{l+1} = P^T A_l P row by row of A_{l+1} (galerkin.c, kernels/amg/rap.c);
 *   smoothers and the dense coarse inverse (cycle.c), patches (patch.c).
 * Coarsening stops early when a step keeps more than 90% of the rows.  Every
 * step runs on the ctx's backend; the host reads only sizes and round counts.
 *
 * Defaults (homg_amg_desc_defaults): smoothed aggregation on the strength
 * graph (theta 0.25, capped at 0.6 of the rows' strongest coupling:
 * strength.c), distance-2 independent sets on every level, Chebyshev
 * smoother of degree 3 on [rho / 20, rho] (rho from spectrum.c), V(1,1)
 * cycle, coarsest level <= 256 rows by dense Cholesky, prolongator weight
 * 4/3 over an estimate of rho(D^-1 A_F) from above (spectrum.c).  Chebyshev
 * replaced seed 000's l1 patch block-Jacobi smoother (still selectable) as
 * the default because issue 14 asks for BoomerAMG's iterations within 2x:
 * on its rotated anisotropy (249k rows) and HB/1138_bus the patch smoother
 * needed 2.14x and 2.33x, Chebyshev 1.62x and 2.00x, and ~35% fewer
 * iterations across the family (bench/results/cpu_amg_family.md).  Measured on issue 14's family (tests/test_amg.c prints it):
 * a plain theta of 0.08 left rotated anisotropy at 4x BoomerAMG's
 * iterations, 0.25 brings it under 2x at 128^2 but alone drops every axis
 * coupling of the 3D P1 cube (0.17), hence the cap; distance 1 on the coarse
 * levels gave the filtered cube 8 levels and operator complexity 1.9,
 * distance 2 gives 3-4 levels and 1.3.  The l1 patch smoother costs the P1
 * cube one or two iterations over plain block Jacobi, which is not
 * convergent for every SPD matrix (cycle.c).
 */
#include "amg_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STALL_RATIO 0.9 /* a coarsening step that keeps more rows than this stops the hierarchy */

homg_amg_desc homg_amg_desc_defaults(const homg_amg_desc *desc)
{
    homg_amg_desc d;
    homg__desc_start(&d, desc, sizeof d);
    HOMG_DEFAULT(d.coarsening, HOMG_AMG_SMOOTHED_AGGREGATION);
    HOMG_DEFAULT(d.smoother, HOMG_AMG_SMOOTHER_CHEBYSHEV);
    HOMG_DEFAULT(d.cycle, HOMG_AMG_CYCLE_V);
    HOMG_DEFAULT(d.pre, 1);
    HOMG_DEFAULT(d.post, 1);
    HOMG_DEFAULT(d.jacobi_weight, 4.0 / 3.0);
    HOMG_DEFAULT(d.prolong_weight, 4.0 / 3.0);
    HOMG_DEFAULT(d.strength_theta, 0.25);
    HOMG_DEFAULT(d.patch_l1, 1);
    HOMG_DEFAULT(d.max_levels, HOMG_AMG_MAX_LEVELS);
    HOMG_DEFAULT(d.coarse_size, 256);
    HOMG_DEFAULT(d.coarse_solver, HOMG_AMG_COARSE_CHOLESKY);
    HOMG_DEFAULT(d.coarse_sweeps, 20);
    HOMG_DEFAULT(d.mis_distance, 2);
    HOMG_DEFAULT(d.mis_distance_coarse, 2);
    HOMG_DEFAULT(d.patch_size, 256);
    HOMG_DEFAULT(d.patch_inner, 3);
    HOMG_DEFAULT(d.patch_inner_weight, 1.0);
    HOMG_DEFAULT(d.patch_weight, 1.0);
    HOMG_DEFAULT(d.chebyshev_degree, 3);
    HOMG_DEFAULT(d.chebyshev_ratio, 20);
    HOMG_DEFAULT(d.seed, 1);
    return d;
}

static int weight_ok(double w) { return w > 0 && w < 2 && isfinite(w); }

static homg_status check_desc(homg_ctx *ctx, const homg_amg_desc *d)
{
    const char *bad = NULL;
    if (d->coarsening != HOMG_AMG_SMOOTHED_AGGREGATION && d->coarsening != HOMG_AMG_MATCHING)
        bad = "coarsening is not a homg_amg_coarsening";
    else if (d->smoother < HOMG_AMG_SMOOTHER_JACOBI || d->smoother > HOMG_AMG_SMOOTHER_CHEBYSHEV)
        bad = "smoother is not a homg_amg_smoother";
    else if (d->cycle != HOMG_AMG_CYCLE_V && d->cycle != HOMG_AMG_CYCLE_W)
        bad = "cycle is not a homg_amg_cycle";
    else if (d->coarse_solver != HOMG_AMG_COARSE_CHOLESKY && d->coarse_solver != HOMG_AMG_COARSE_JACOBI)
        bad = "coarse_solver is not a homg_amg_coarse_solver";
    else if (d->pre < 1 || d->pre > 100 || d->post < 1 || d->post > 100)
        bad = "pre and post must be 1..100 sweeps";
    else if (!weight_ok(d->jacobi_weight) || !weight_ok(d->prolong_weight) || !weight_ok(d->patch_inner_weight) ||
             !weight_ok(d->patch_weight))
        bad = "weights must lie in (0, 2)";
    else if (d->max_levels < 1 || d->max_levels > HOMG_AMG_MAX_LEVELS)
        bad = "max_levels must be 1..HOMG_AMG_MAX_LEVELS";
    else if (d->coarse_size < 1 || d->coarse_sweeps < 1 || d->coarse_sweeps > 10000)
        bad = "coarse_size and coarse_sweeps must be positive (sweeps <= 10000)";
    else if (d->mis_distance < 1 || d->mis_distance > 4 || d->mis_distance_coarse < 1 || d->mis_distance_coarse > 4)
        bad = "mis_distance and mis_distance_coarse must be 1..4";
    else if (d->min_aggregate < 0)
        bad = "min_aggregate must not be negative";
    else if (!(d->strength_theta < 1) || !isfinite(d->strength_theta))
        bad = "strength_theta must be below 1 (negative: no filtering)";
    else if (d->patch_size < 1 || d->patch_size > HOMG_PATCH_MAX)
        bad = "patch_size must be 1..1024";
    else if (d->patch_inner < 1 || d->patch_inner > 100)
        bad = "patch_inner must be 1..100";
    else if (d->chebyshev_degree < 1 || d->chebyshev_degree > 20 || !(d->chebyshev_ratio > 1) ||
             !isfinite(d->chebyshev_ratio))
        bad = "chebyshev_degree must be 1..20 and chebyshev_ratio above 1";
    if (bad)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_amg_desc: %s", bad);
    return HOMG_OK;
}

static void level_free(homg_amg *amg, amg_level *lv)
{
    homg_ctx *ctx = amg->ctx;
    if (lv->a.row_ptr == amg->a.row_ptr) { /* level 0 shares the fine matrix's pattern */
        lv->a.row_ptr = NULL;
        lv->a.col_idx = NULL;
    }
    homg__mat_free(ctx, &lv->a);
    homg__mat_free(ctx, &lv->p);
    homg__free(ctx, lv->agg);
    homg__free(ctx, lv->v);
    homg__free(ctx, lv->dinv);
    homg__amg_patches_free(amg, &lv->pt);
    homg__free(ctx, lv->b);
    homg__free(ctx, lv->x);
    homg__free(ctx, lv->t);
    homg__free(ctx, lv->u);
    homg__free(ctx, lv->inv);
    memset(lv, 0, sizeof *lv);
}

static void amg_free(homg_amg *amg)
{
    for (int l = 0; l < HOMG_AMG_MAX_LEVELS; l++)
        level_free(amg, &amg->lv[l]);
    if (!amg->desc.fine_in_place) /* in place: the caller's arrays */
        homg__mat_free(amg->ctx, &amg->a);
    homg__free(amg->ctx, amg->count);
    homg__free(amg->ctx, amg->rho);
    if (amg->handle)
        AMG_SK(amg)->handle_destroy(&amg->ctx->ex, amg->handle);
    free(amg);
}

/* Level 0's float matrix: float values on the double fine matrix's pattern
 * (shared, not copied: the pattern is a fifth of the hierarchy's memory). */
static homg_status fine_level(homg_amg *amg, int values_only)
{
    homg_ctx *ctx = amg->ctx;
    csr_matrix *f = &amg->lv[0].a;
    const csr_matrix *a = &amg->a;
    if (!values_only) {
        *f = *a;
        f->values = NULL;
        f->precision = HOMG_FLOAT32;
        HOMG_TRY(homg__alloc_array(ctx, (size_t)a->nnz, sizeof(float), &f->values, "fine level"));
    }
    HOMG_TRY_BACKEND(amg->ctx,
                     AMG_SK(amg)->convert(&ctx->ex, a->values, HOMG_FLOAT64, f->values, HOMG_FLOAT32, (size_t)a->nnz),
                     "fine level in float");
    return HOMG_OK;
}

/* The levels; strength holds the last strength graph (the caller frees it). */
static homg_status build_levels(homg_amg *amg, csr_matrix *strength)
{
    homg_ctx *ctx = amg->ctx;
    int l;
    HOMG_TRY(fine_level(amg, 0));
    if (amg->desc.coarsening == HOMG_AMG_MATCHING) {
        /* The smooth vector of the fine level: ones (the bits of 1.0f). */
        HOMG_TRY(
            homg__alloc_array(amg->ctx, (size_t)amg->a.nrows, sizeof(float), (void **)&amg->lv[0].v, "smooth vector"));
        HOMG_TRY_BACKEND(amg->ctx, AMG_SK(amg)->fill_i32(&ctx->ex, (int32_t *)amg->lv[0].v, amg->a.nrows, 0x3F800000),
                         "smooth vector");
    }
    for (l = 0;; l++) {
        amg_level *lv = &amg->lv[l];
        int32_t n = lv->a.nrows, nagg = 0;
        int lumped = 1;
        if (n <= amg->desc.coarse_size || l + 1 >= amg->desc.max_levels)
            break;
        HOMG_TRY(homg__alloc_array(amg->ctx, (size_t)n, sizeof(int32_t), (void **)&lv->agg, "aggregates"));
        if (amg->desc.coarsening == HOMG_AMG_SMOOTHED_AGGREGATION) {
            homg__amg_phase(amg, HOMG_AMG_PHASE_STRENGTH);
            homg__mat_free(ctx, strength);
            HOMG_TRY(homg__amg_strength(amg, l, strength, &lumped));
            homg__amg_phase(amg, HOMG_AMG_PHASE_AGGREGATE);
            HOMG_TRY(homg__amg_aggregate(amg, l, strength, lv->agg, &nagg));
        } else {
            homg__amg_phase(amg, HOMG_AMG_PHASE_AGGREGATE);
            HOMG_TRY(homg__amg_match(amg, l, &nagg));
        }
        if (nagg <= 0 || nagg > STALL_RATIO * n) {
            homg__log(ctx, HOMG_LOG_INFO, "AMG: level %d keeps %d of %d rows: coarsening stops", l, (int)nagg, (int)n);
            homg__mat_free(ctx, &lv->p);
            homg__free(ctx, lv->agg);
            lv->agg = NULL;
            homg__free(ctx, amg->lv[l + 1].v);
            amg->lv[l + 1].v = NULL;
            break;
        }
        if (amg->desc.coarsening == HOMG_AMG_SMOOTHED_AGGREGATION) {
            homg__amg_phase(amg, HOMG_AMG_PHASE_PROLONG);
            HOMG_TRY(homg__amg_smoothed_prolongator(amg, l, nagg, strength, lumped));
        }
        HOMG_TRY(homg__amg_galerkin(amg, l));
    }
    amg->nlevels = l + 1;
    return HOMG_OK;
}

/* What only the set-up reads (the patches are grouped by the aggregates
 * once; re-setup keeps P and the patches): aggregates, matching's smooth vectors. */
static void drop_setup_data(homg_amg *amg)
{
    for (int l = 0; l < amg->nlevels; l++) {
        amg_level *lv = &amg->lv[l];
        homg__free(amg->ctx, lv->v);
        homg__free(amg->ctx, lv->agg);
        lv->v = NULL;
        lv->agg = NULL;
    }
}

static homg_status build(homg_amg *amg)
{
    csr_matrix strength;
    homg_status st;
    memset(&strength, 0, sizeof strength);
    st = build_levels(amg, &strength);
    homg__mat_free(amg->ctx, &strength);
    if (st == HOMG_OK)
        st = homg__amg_smoother_setup(amg, 0);
    if (st == HOMG_OK)
        drop_setup_data(amg);
    return st;
}

/* Runs fn(amg) between two events on the ctx's stream; the time goes to setup_ms. */
static homg_status timed(homg_amg *amg, homg_status (*fn)(homg_amg *, const void *), const void *arg)
{
    homg_ctx *ctx = amg->ctx;
    void *e0 = NULL, *e1 = NULL;
    float ms = 0;
    homg_status st;
    if (ctx->mem->event_create(&e0) != HOMG_OK || ctx->mem->event_create(&e1) != HOMG_OK) {
        ctx->mem->event_destroy(e0);
        return homg__fail(ctx, HOMG_ERROR_BACKEND, "cannot create timing events");
    }
    homg__amg_trace_begin(amg);
    st = ctx->mem->event_record(&ctx->ex, e0);
    if (st == HOMG_OK)
        st = fn(amg, arg);
    else
        homg__backend_fail(ctx, st, "recording an event");
    if (st == HOMG_OK && ctx->mem->event_record(&ctx->ex, e1) == HOMG_OK &&
        ctx->mem->event_elapsed_ms(e0, e1, &ms) == HOMG_OK)
        amg->setup_ms = ms;
    homg__amg_trace_end(amg);
    ctx->mem->event_destroy(e0);
    ctx->mem->event_destroy(e1);
    return st;
}

static homg_status create_body(homg_amg *amg, const void *arg)
{
    homg__amg_phase(amg, HOMG_AMG_PHASE_IMPORT);
    if (amg->desc.fine_in_place)
        HOMG_TRY(homg__mat_view(amg->ctx, amg->handle, (const homg_csr *)arg, amg->desc.skip_input_check, &amg->a,
                                "homg_amg_create: A"));
    else
        HOMG_TRY(homg__mat_import(amg->ctx, amg->handle, (const homg_csr *)arg, amg->desc.skip_input_check, &amg->a,
                                  "homg_amg_create: A"));
    return build(amg);
}

homg_status homg_amg_create(homg_ctx *ctx, const homg_csr *a, const homg_amg_desc *desc, homg_amg **out)
{
    homg_amg *amg;
    kernel_alloc ka;
    homg_status st;
    int saved;
    if (!ctx)
        return HOMG_ERROR_INVALID_ARGUMENT;
    if (!out)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_amg_create: out is NULL");
    *out = NULL;
    HOMG_TRY(homg__enter(ctx, &saved));
    amg = (homg_amg *)calloc(1, sizeof *amg);
    if (!amg) {
        homg__leave(ctx, saved);
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "homg_amg_create: out of host memory");
    }
    amg->ctx = ctx;
    amg->desc = homg_amg_desc_defaults(desc);
    st = check_desc(ctx, &amg->desc);
    if (st == HOMG_OK) {
        ka = homg__kalloc(ctx);
        st = AMG_SK(amg)->handle_create(&ctx->ex, &ka, &amg->handle);
        if (st != HOMG_OK)
            st = homg__backend_fail(ctx, st, "homg_amg_create: sparse library handles");
    }
    if (st == HOMG_OK)
        st = homg__alloc_array(amg->ctx, 4, sizeof(int32_t), (void **)&amg->count, "counters");
    if (st == HOMG_OK)
        st = homg__alloc_array(amg->ctx, 4, sizeof(float), (void **)&amg->rho, "counters");
    if (st == HOMG_OK)
        st = timed(amg, create_body, a);
    if (st == HOMG_OK && ctx->mem->sync(&ctx->ex) != HOMG_OK)
        st = homg__backend_fail(ctx, HOMG_ERROR_BACKEND, "homg_amg_create");
    if (st != HOMG_OK) {
        amg_free(amg);
        homg__leave(ctx, saved);
        return st;
    }
    homg__leave(ctx, saved);
    *out = amg;
    return HOMG_OK;
}

static homg_status resetup_body(homg_amg *amg, const void *arg)
{
    homg__amg_phase(amg, HOMG_AMG_PHASE_IMPORT);
    if (amg->desc.fine_in_place)
        HOMG_TRY(homg__mat_view_values(amg->ctx, amg->handle, (const homg_csr *)arg, amg->desc.skip_input_check,
                                       &amg->a, "homg_amg_resetup: A"));
    else
        HOMG_TRY(homg__mat_import_values(amg->ctx, amg->handle, (const homg_csr *)arg, amg->desc.skip_input_check,
                                         &amg->a, "homg_amg_resetup: A"));
    HOMG_TRY(fine_level(amg, 1));
    for (int l = 0; l + 1 < amg->nlevels; l++)
        HOMG_TRY(homg__amg_galerkin_values(amg, l));
    return homg__amg_smoother_setup(amg, 1);
}

homg_status homg_amg_resetup(homg_amg *amg, const homg_csr *a)
{
    int saved;
    homg_status st;
    if (!amg)
        return HOMG_ERROR_INVALID_ARGUMENT;
    HOMG_TRY(homg__enter(amg->ctx, &saved));
    st = timed(amg, resetup_body, a);
    homg__leave(amg->ctx, saved);
    return st;
}

homg_status homg_amg_apply(homg_amg *amg, const double *r, double *z)
{
    int saved;
    homg_status st;
    if (!amg)
        return HOMG_ERROR_INVALID_ARGUMENT;
    HOMG_TRY(homg__enter(amg->ctx, &saved));
    st = homg__check_pointer(amg->ctx, r, "homg_amg_apply: r");
    if (st == HOMG_OK)
        st = homg__check_pointer(amg->ctx, z, "homg_amg_apply: z");
    if (st == HOMG_OK)
        st = homg__amg_apply_raw(amg, r, z);
    homg__leave(amg->ctx, saved);
    return st;
}

const csr_matrix *homg__amg_matrix(const homg_amg *amg) { return &amg->a; }
homg_ctx *homg__amg_ctx(const homg_amg *amg) { return amg->ctx; }

/* r into level 0 (converted to float, or read in place by a Chebyshev level 0
 * without b: cycle.c), one cycle, level 0's x out to z in double. */
homg_status homg__amg_apply_raw(homg_amg *amg, const double *r, double *z)
{
    homg_ctx *ctx = amg->ctx;
    const sparse_kernels *sk = AMG_SK(amg);
    homg_status st;
    if (amg->lv[0].b)
        HOMG_TRY_BACKEND(ctx, sk->convert(&ctx->ex, r, HOMG_FLOAT64, amg->lv[0].b, HOMG_FLOAT32, (size_t)amg->a.nrows),
                         "AMG cycle");
    amg->b64 = r;
    st = homg__amg_cycle(amg);
    amg->b64 = NULL;
    HOMG_TRY(st);
    HOMG_TRY_BACKEND(ctx, sk->convert(&ctx->ex, amg->lv[0].x, HOMG_FLOAT32, z, HOMG_FLOAT64, (size_t)amg->a.nrows),
                     "AMG cycle");
    return HOMG_OK;
}

static size_t level_bytes(const amg_level *lv)
{
    size_t n = (size_t)lv->a.nrows, b = 0;
    const amg_patches *pt = &lv->pt;
    b += homg__mat_bytes(&lv->a) + homg__mat_bytes(&lv->p);
    b += (lv->agg ? n * 4 : 0) + (lv->v ? n * 4 : 0) + (lv->dinv ? n * 4 : 0);
    b += ((lv->b ? 1 : 0) + (lv->x ? 1 : 0) + (lv->t ? 1 : 0) + (lv->u ? 1 : 0)) * n * 4;
    b += lv->inv ? n * n * 4 : 0;
    if (pt->perm) {
        b += ((size_t)pt->count + 1) * 4 + n * 4 * 4 /* perm, diag, patch_of, pos */ + (n + 1) * 4;
        b += (size_t)pt->inner_nnz * 8 + homg__mat_bytes(&pt->boundary);
    }
    return b;
}

homg_status homg_amg_get_info(const homg_amg *amg, homg_amg_info *info)
{
    double rows = 0, nnz = 0;
    if (!amg || !info)
        return amg ? homg__fail(amg->ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_amg_get_info: info is NULL")
                   : HOMG_ERROR_INVALID_ARGUMENT;
    memset(info, 0, sizeof *info);
    info->levels = amg->nlevels;
    info->desc = amg->desc;
    info->setup_ms = amg->setup_ms;
    memcpy(info->phase, amg->trace.ph, sizeof info->phase);
    info->peak_bytes = amg->trace.peak;
    info->memory_bytes = amg->desc.fine_in_place ? 0 : homg__mat_bytes(&amg->a); /* in place: the caller's */
    for (int l = 0; l < amg->nlevels; l++) {
        const amg_level *lv = &amg->lv[l];
        info->rows[l] = lv->a.nrows;
        info->nnz[l] = lv->a.nnz;
        info->patches[l] = lv->pt.count;
        rows += lv->a.nrows;
        nnz += lv->a.nnz;
        info->memory_bytes += level_bytes(lv);
    }
    if (amg->lv[0].a.row_ptr == amg->a.row_ptr) /* counted with the fine matrix */
        info->memory_bytes -= ((size_t)amg->a.nrows + 1 + (size_t)amg->a.nnz) * sizeof(int32_t);
    info->grid_complexity = rows / amg->lv[0].a.nrows;
    info->operator_complexity = amg->lv[0].a.nnz > 0 ? nnz / amg->lv[0].a.nnz : 1.0;
    return HOMG_OK;
}

/* desc.trace: the set-up's phase table. */
static void format_phases(const homg_amg_info *info, char *buf, size_t len, size_t *used)
{
    static const char *name[HOMG_AMG_PHASES] = { "import + checks", "strength", "aggregation",   "prolongator",
                                                 "Galerkin R A P",  "smoother", "coarse inverse" };
    homg__append(buf, len, used, "  Set-up phase            ms   host syncs   peak MB\n");
    for (int p = 0; p < HOMG_AMG_PHASES; p++)
        homg__append(buf, len, used, "  %-18s %7.2f %12d %9.1f\n", name[p], info->phase[p].ms,
                     info->phase[p].host_syncs, info->phase[p].peak_bytes / 1e6);
    homg__append(buf, len, used, "  Peak set-up memory:  %.1f MB\n", info->peak_bytes / 1e6);
}

int homg_amg_format_info(const homg_amg_info *info, char *buf, size_t len)
{
    static const char *coarsening[] = { "", "smoothed aggregation", "compatible weighted matching" };
    static const char *smoother[] = { "", "damped Jacobi", "l1 Jacobi", "patch block Jacobi", "Chebyshev" };
    size_t used = 0;
    const homg_amg_desc *d;
    if (buf && len)
        buf[0] = 0;
    if (!info)
        return 0;
    d = &info->desc;
    homg__append(buf, len, &used, "AMG grid: %s, %s smoother, %s(%d,%d) cycle\n",
                 coarsening[d->coarsening == HOMG_AMG_MATCHING ? 2 : 1],
                 smoother[d->smoother >= 1 && d->smoother <= 4 ? d->smoother : 3],
                 d->cycle == HOMG_AMG_CYCLE_W ? "W" : "V", d->pre, d->post);
    homg__append(buf, len, &used, "  Number of levels: %d\n", info->levels);
    homg__append(buf, len, &used, "     LVL        ROWS           NNZ   NNZ/ROW   PATCHES\n");
    homg__append(buf, len, &used, "  ----------------------------------------------------\n");
    for (int l = 0; l < info->levels; l++)
        homg__append(buf, len, &used, "  %4d%s %10d %13lld %9.2f %9d\n", l,
                     l == info->levels - 1 ? (d->coarse_solver == HOMG_AMG_COARSE_JACOBI ? "(J)" : "(C)") : "   ",
                     (int)info->rows[l], (long long)info->nnz[l],
                     info->rows[l] > 0 ? (double)info->nnz[l] / info->rows[l] : 0.0, (int)info->patches[l]);
    homg__append(buf, len, &used, "  ----------------------------------------------------\n");
    homg__append(buf, len, &used, "  Grid complexity:     %.4f\n", info->grid_complexity);
    homg__append(buf, len, &used, "  Operator complexity: %.4f\n", info->operator_complexity);
    homg__append(buf, len, &used, "  Memory:              %.1f MB\n", info->memory_bytes / 1e6);
    homg__append(buf, len, &used, "  Setup time:          %.2f ms\n", info->setup_ms);
    if (d->trace)
        format_phases(info, buf, len, &used);
    return (int)used;
}

void homg_amg_destroy(homg_amg *amg)
{
    homg_ctx *ctx;
    int saved;
    if (!amg)
        return;
    ctx = amg->ctx;
    if (homg__enter(ctx, &saved) != HOMG_OK) {
        amg_free(amg);
        return;
    }
    amg_free(amg);
    homg__leave(ctx, saved);
}
