/* cycle.c -- the multigrid cycle (seed 000, algorithms 5.2 and 5.3) and
 * the data of its smoothers and coarse solver.
 *
 * Every level but the coarsest: pre-smoothing from x = 0 fused with the
 * residual, restriction by P^T (R is not kept), the coarser level (twice in a W-cycle, the
 * second time from its first result), prolongation and correction x += P x_c,
 * post-smoothing.  Smoothers:
 *  - damped Jacobi x += (w / rho) D^-1 (b - A x), rho the level's estimate
 *    of rho(D^-1 A) from above (spectrum.c), so the weight suits every
 *    matrix, not only the Laplacian's rho = 2; the first sweep from x = 0 and
 *    the residual after it are one pass (x = w D^-1 b, r = b - A x);
 *  - l1 Jacobi, the same with D_ii = sum_j |a_ij| and w = 1;
 *  - patch block Jacobi: x_p += w_out g_p, g_p from `patch_inner` weighted
 *    Jacobi sweeps (w_in) on A_pp g = (b - A x)_p started at 0, each patch in
 *    one block with its vectors in shared memory.  The Jacobi divisor of a row
 *    is a_ii, but at least 0.55 of the row's l1 norm inside the patch, so
 *    rho(D^-1 A_pp) < 2: the inner sweeps converge and the block solve is a
 *    positive definite approximation of A_pp^-1 on every mesh (with plain a_ii
 *    they diverge on the irregular and Blobs meshes of assets/, where P1 rows
 *    have positive off-diagonals, and CG breaks down).  With patch_l1 (the
 *    default) the boundary |a_ij| join the block diagonal, so B >= A; the
 *    inner sweeps (weight 1) from 0 give M = p(D^-1 B) D^-1 with MB's
 *    eigenvalues 1 - (1 - l)^k in (0, 1.82] for l in (0, 1 / 0.55], so M is
 *    SPD and 2 M^-1 >= 1.1 B >= 1.1 A: with the outer weight 1 the smoother
 *    converges in the A-norm for every SPD matrix and the V-cycle stays SPD.
 *    Plain block Jacobi (patch_l1 = -1) took fewer iterations on M-matrices
 *    but diverged on rotated anisotropy, sliver meshes and a sphere mesh with
 *    1:1000
 *    coefficients (issue 14).  The prerelax-residual
 *    fusion: the patch kernel also leaves r = b - (inner + diag) x, and a
 *    boundary pass subtracts the boundary part (seed 000, algorithm 5.3);
 *  - Chebyshev: a polynomial of degree chebyshev_degree in D^-1 A that is
 *    smallest on [rho / chebyshev_ratio, rho], rho as for Jacobi (read to the
 *    host once per set-up), one residual per degree.
 * Pre- and post-smoothing are the same symmetric operator, so the cycle is a
 * symmetric preconditioner up to float rounding.  The coarsest level is solved
 * with a dense inverse from a Cholesky factorisation (or l1-Jacobi sweeps).
 */
#include "amg_internal.h"

#include <string.h>

#define DENSE_MAX 4096 /* largest coarsest level the dense inverse takes */

homg_status homg__amg_smoother_setup(homg_amg *amg, int values_only)
{
    homg_ctx *ctx = amg->ctx;
    kernel_exec *ex = &ctx->ex;
    const amg_kernels *ak = AMG_AK(amg);
    int last = amg->nlevels - 1;
    homg_amg_smoother sm = amg->desc.smoother;

    homg__amg_phase(amg, HOMG_AMG_PHASE_SMOOTHER);
    for (int l = 0; l <= last; l++) {
        amg_level *lv = &amg->lv[l];
        int32_t n = lv->a.nrows;
        int need_dinv = l < last ? sm != HOMG_AMG_SMOOTHER_PATCH : amg->desc.coarse_solver == HOMG_AMG_COARSE_JACOBI;
        if (!values_only) {
            if (l > 0 || sm != HOMG_AMG_SMOOTHER_CHEBYSHEV || last == 0) /* level 0's Chebyshev reads r in place */
                HOMG_TRY(homg__alloc_array(amg->ctx, (size_t)n, sizeof(float), (void **)&lv->b, "cycle vectors"));
            HOMG_TRY(homg__alloc_array(amg->ctx, (size_t)n, sizeof(float), (void **)&lv->x, "cycle vectors"));
            HOMG_TRY(homg__alloc_array(amg->ctx, (size_t)n, sizeof(float), (void **)&lv->t, "cycle vectors"));
            if (l < last && sm == HOMG_AMG_SMOOTHER_PATCH)
                HOMG_TRY(homg__alloc_array(amg->ctx, (size_t)n, sizeof(float), (void **)&lv->u, "cycle vectors"));
            if (need_dinv)
                HOMG_TRY(homg__alloc_array(amg->ctx, (size_t)n, sizeof(float), (void **)&lv->dinv, "smoother"));
        }
        if (need_dinv)
            HOMG_TRY_BACKEND(
                amg->ctx,
                ak->diag(ex, &lv->a,
                         (sm == HOMG_AMG_SMOOTHER_JACOBI || sm == HOMG_AMG_SMOOTHER_CHEBYSHEV) && l < last ? 1 : 2,
                         lv->dinv),
                "smoother diagonal");
        if (l < last && (sm == HOMG_AMG_SMOOTHER_CHEBYSHEV || sm == HOMG_AMG_SMOOTHER_JACOBI) &&
            (values_only || !lv->rho_set)) /* set-up: maybe known from the prolongator (galerkin.c) */
            HOMG_TRY(homg__amg_spectral_bound(amg, &lv->a, &lv->rho));
    }

    if (amg->desc.coarse_solver == HOMG_AMG_COARSE_CHOLESKY) {
        amg_level *lv = &amg->lv[last];
        int32_t n = lv->a.nrows;
        int pivot = 0;
        homg__amg_phase(amg, HOMG_AMG_PHASE_COARSE);
        if (n > DENSE_MAX)
            return homg__fail(ctx, HOMG_ERROR_UNSUPPORTED,
                              "the coarsest level has %d rows, more than the dense solver's %d (the coarsening "
                              "stalled): use coarse_solver = HOMG_AMG_COARSE_JACOBI or more levels",
                              (int)n, DENSE_MAX);
        if (!values_only)
            HOMG_TRY(
                homg__alloc_array(amg->ctx, (size_t)n * (size_t)n, sizeof(float), (void **)&lv->inv, "coarse solver"));
        HOMG_TRY_BACKEND(amg->ctx, ak->dense_inverse(ex, amg->handle, &lv->a, lv->inv, &pivot),
                         "coarse Cholesky factorisation");
        if (pivot)
            return homg__fail(ctx, HOMG_ERROR_NUMERIC,
                              "the coarsest matrix (%d rows) is not positive definite at column %d: is the problem "
                              "singular (pure Neumann)? use coarse_solver = HOMG_AMG_COARSE_JACOBI",
                              (int)n, pivot);
    }
    homg__amg_phase(amg, HOMG_AMG_PHASE_SMOOTHER);
    if (sm == HOMG_AMG_SMOOTHER_PATCH)
        HOMG_TRY(values_only ? homg__amg_patch_values(amg) : homg__amg_patches(amg));
    return HOMG_OK;
}

homg_status homg__amg_fall_back(homg_amg *amg)
{
    int last = amg->nlevels - 1;
    if (amg->desc.smoother == HOMG_AMG_SMOOTHER_L1_JACOBI)
        return HOMG_ERROR_UNSUPPORTED;
    for (int l = 0; l < last; l++) {
        amg_level *lv = &amg->lv[l];
        if (!lv->b)
            HOMG_TRY(homg__alloc_array(amg->ctx, (size_t)lv->a.nrows, sizeof(float), (void **)&lv->b, "cycle vectors"));
        if (!lv->dinv)
            HOMG_TRY(homg__alloc_array(amg->ctx, (size_t)lv->a.nrows, sizeof(float), (void **)&lv->dinv, "smoother"));
        HOMG_TRY_BACKEND(amg->ctx, AMG_AK(amg)->diag(&amg->ctx->ex, &lv->a, 2, lv->dinv), "l1 Jacobi diagonal");
        homg__amg_patches_free(amg, &lv->pt);
    }
    homg__log(amg->ctx, HOMG_LOG_WARN, "AMG: CG broke down; the amg smooths with l1 Jacobi from now on");
    amg->desc.smoother = HOMG_AMG_SMOOTHER_L1_JACOBI;
    return HOMG_OK;
}

/* One Chebyshev polynomial in D^-1 A on [rho / ratio, rho] (Saad, Iterative
 * Methods, algorithm 12.1, preconditioned by the diagonal).  The step d lives
 * in t (the residual is never stored: each step forms it in the row pass that
 * updates d), so a Chebyshev level holds b, x, t and D^-1 (at 128^3: 8.6 MB
 * less on level 0); level 0 keeps no b either but reads the caller's double
 * vector (amg->b64) where it lies: 8.6 MB less again, 4 more bytes a row read
 * per pass and no conversion.  (Reading a_ii in the row instead of D^-1
 * saved 8.6 MB more, but on the H100 the solve took 28.5 -> 33.2 ms that way:
 * bench/results/h100_amg_setup.md; that kernel path is gone, git log -S dinv.) */
static homg_status chebyshev(homg_amg *amg, amg_level *lv, int zero_x)
{
    kernel_exec *ex = &amg->ctx->ex;
    const amg_kernels *ak = AMG_AK(amg);
    double hi = lv->rho, lo = hi / amg->desc.chebyshev_ratio;
    double theta = 0.5 * (hi + lo), delta = 0.5 * (hi - lo), sigma = theta / delta, rho0 = 1.0 / sigma;
    int32_t n = lv->a.nrows;
    homg_precision bp = lv->b ? HOMG_FLOAT32 : HOMG_FLOAT64;
    const void *b = lv->b ? (const void *)lv->b : (const void *)amg->b64;
    HOMG_TRY_BACKEND(amg->ctx,
                     ak->cheb_residual(ex, &lv->a, lv->dinv, b, bp, lv->x, lv->t, 0.0, 1.0 / theta, 1, zero_x),
                     "Chebyshev");
    if (!zero_x)
        HOMG_TRY_BACKEND(amg->ctx, ak->add(ex, n, lv->t, lv->x), "Chebyshev");
    for (int k = 1; k < amg->desc.chebyshev_degree; k++) {
        double rho1 = 1.0 / (2.0 * sigma - rho0);
        HOMG_TRY_BACKEND(
            amg->ctx,
            ak->cheb_residual(ex, &lv->a, lv->dinv, b, bp, lv->x, lv->t, rho1 * rho0, 2.0 * rho1 / delta, 0, 0),
            "Chebyshev");
        HOMG_TRY_BACKEND(amg->ctx, ak->add(ex, n, lv->t, lv->x), "Chebyshev");
        rho0 = rho1;
    }
    return HOMG_OK;
}

/* Pre-smoothing of level l; leaves the residual in t. */
static homg_status presmooth(homg_amg *amg, amg_level *lv, int warm)
{
    kernel_exec *ex = &amg->ctx->ex;
    const amg_kernels *ak = AMG_AK(amg);
    const homg_amg_desc *d = &amg->desc;
    int pre = d->pre;
    if (d->smoother == HOMG_AMG_SMOOTHER_PATCH) {
        for (int s = 0; s < pre; s++) {
            int zero = !warm && s == 0, final = s == pre - 1;
            if (!zero)
                HOMG_TRY_BACKEND(amg->ctx, ak->patch_boundary(ex, &lv->pt, lv->x, lv->b, lv->u), "patch smoother");
            HOMG_TRY_BACKEND(amg->ctx,
                             ak->patch_smooth(ex, &lv->pt, lv->b, lv->u, lv->x, final ? lv->t : NULL, zero,
                                              d->patch_inner, d->patch_inner_weight, d->patch_weight),
                             "patch smoother");
            if (final)
                HOMG_TRY_BACKEND(amg->ctx, ak->patch_boundary(ex, &lv->pt, lv->x, lv->t, lv->t), "patch residual");
        }
    } else if (d->smoother == HOMG_AMG_SMOOTHER_CHEBYSHEV) {
        for (int s = 0; s < pre; s++)
            HOMG_TRY(chebyshev(amg, lv, !warm && s == 0));
        HOMG_TRY_BACKEND(amg->ctx,
                         lv->b ? ak->residual(ex, &lv->a, lv->b, lv->x, lv->t)
                               : ak->residual_b64(ex, &lv->a, amg->b64, lv->x, lv->t),
                         "residual");
    } else {
        double w = d->smoother == HOMG_AMG_SMOOTHER_JACOBI ? d->jacobi_weight / lv->rho : 1.0;
        int s = 0;
        if (!warm && pre == 1)
            HOMG_TRY_BACKEND(amg->ctx, ak->jacobi_zero_residual(ex, &lv->a, lv->dinv, w, lv->b, lv->x, lv->t),
                             "Jacobi");
        else {
            if (!warm) {
                HOMG_TRY_BACKEND(amg->ctx, ak->jacobi_correct(ex, lv->a.nrows, lv->dinv, w, lv->b, lv->x, 1), "Jacobi");
                s = 1;
            }
            for (; s < pre; s++) {
                HOMG_TRY_BACKEND(amg->ctx, ak->residual(ex, &lv->a, lv->b, lv->x, lv->t), "Jacobi");
                HOMG_TRY_BACKEND(amg->ctx, ak->jacobi_correct(ex, lv->a.nrows, lv->dinv, w, lv->t, lv->x, 0), "Jacobi");
            }
            HOMG_TRY_BACKEND(amg->ctx, ak->residual(ex, &lv->a, lv->b, lv->x, lv->t), "residual");
        }
    }
    return HOMG_OK;
}

static homg_status postsmooth(homg_amg *amg, amg_level *lv)
{
    kernel_exec *ex = &amg->ctx->ex;
    const amg_kernels *ak = AMG_AK(amg);
    const homg_amg_desc *d = &amg->desc;
    for (int s = 0; s < d->post; s++) {
        if (d->smoother == HOMG_AMG_SMOOTHER_CHEBYSHEV) {
            HOMG_TRY(chebyshev(amg, lv, 0));
        } else if (d->smoother == HOMG_AMG_SMOOTHER_PATCH) {
            HOMG_TRY_BACKEND(amg->ctx, ak->patch_boundary(ex, &lv->pt, lv->x, lv->b, lv->u), "patch smoother");
            HOMG_TRY_BACKEND(amg->ctx,
                             ak->patch_smooth(ex, &lv->pt, lv->b, lv->u, lv->x, NULL, 0, d->patch_inner,
                                              d->patch_inner_weight, d->patch_weight),
                             "patch smoother");
        } else {
            double w = d->smoother == HOMG_AMG_SMOOTHER_JACOBI ? d->jacobi_weight / lv->rho : 1.0;
            HOMG_TRY_BACKEND(amg->ctx, ak->residual(ex, &lv->a, lv->b, lv->x, lv->t), "Jacobi");
            HOMG_TRY_BACKEND(amg->ctx, ak->jacobi_correct(ex, lv->a.nrows, lv->dinv, w, lv->t, lv->x, 0), "Jacobi");
        }
    }
    return HOMG_OK;
}

static homg_status coarse_solve(homg_amg *amg, amg_level *lv)
{
    kernel_exec *ex = &amg->ctx->ex;
    const amg_kernels *ak = AMG_AK(amg);
    int32_t n = lv->a.nrows;
    if (amg->desc.coarse_solver == HOMG_AMG_COARSE_CHOLESKY) {
        HOMG_TRY_BACKEND(amg->ctx, ak->dense_apply(ex, n, lv->inv, lv->b, lv->x), "coarse solve");
        return HOMG_OK;
    }
    HOMG_TRY_BACKEND(amg->ctx, ak->jacobi_correct(ex, n, lv->dinv, 1.0, lv->b, lv->x, 1), "coarse Jacobi");
    for (int s = 1; s < amg->desc.coarse_sweeps; s++) {
        HOMG_TRY_BACKEND(amg->ctx, ak->residual(ex, &lv->a, lv->b, lv->x, lv->t), "coarse Jacobi");
        HOMG_TRY_BACKEND(amg->ctx, ak->jacobi_correct(ex, n, lv->dinv, 1.0, lv->t, lv->x, 0), "coarse Jacobi");
    }
    return HOMG_OK;
}

static homg_status cycle(homg_amg *amg, int l, int warm)
{
    kernel_exec *ex = &amg->ctx->ex;
    const sparse_kernels *sk = AMG_SK(amg);
    amg_level *lv = &amg->lv[l];
    int visits;
    if (l == amg->nlevels - 1)
        return coarse_solve(amg, lv);
    HOMG_TRY(presmooth(amg, lv, warm));
    HOMG_TRY_BACKEND(amg->ctx, AMG_AK(amg)->restrict_pt(ex, &lv->p, lv->t, amg->lv[l + 1].b), "restriction");
    visits = amg->desc.cycle == HOMG_AMG_CYCLE_W && l + 1 < amg->nlevels - 1 ? 2 : 1;
    for (int v = 0; v < visits; v++)
        HOMG_TRY(cycle(amg, l + 1, v > 0));
    HOMG_TRY_BACKEND(amg->ctx, sk->spmv(ex, &lv->p, amg->lv[l + 1].x, lv->x, 1.0, 1.0), "prolongation");
    return postsmooth(amg, lv);
}

homg_status homg__amg_cycle(homg_amg *amg) { return cycle(amg, 0, 0); }
