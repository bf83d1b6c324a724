/* spectrum.c -- an upper estimate of rho(D^-1 A) for a level's smoother and
 * prolongator damping.
 *
 * LANCZOS_STEPS steps of Lanczos on B = D^-1/2 A D^-1/2 (similar to D^-1 A)
 * run on the ctx's backend with the scalars in device memory, read once at
 * the end together with the Gershgorin bound (one host synchronisation); the largest eigenvalue of the tridiagonal matrix (Sturm bisection)
 * is a Ritz value from below, raised by LANCZOS_SAFETY and capped by the
 * Gershgorin bound max_i sum_j |a_ij| / a_ii, which holds always.  On the
 * Laplacian the Gershgorin bound is near rho; on P1 meshes with slivers or
 * large coefficient jumps it overestimates rho several times, and a damping of
 * w / Gershgorin leaves the smoother (and the smoothed prolongator) too weak.
 */
#include "amg_internal.h"

#include <math.h>
#include <string.h>

#define LANCZOS_STEPS  12
#define LANCZOS_SAFETY 1.1
#define LZ_DOUBLES     (2 * LANCZOS_STEPS + 2)

/* Eigenvalues of the tridiagonal (diag a[0..k), off-diagonal b[0..k-1)) below x (Sturm count). */
static int below(const double *a, const double *b, int k, double x)
{
    int count = 0;
    double q = 1;
    for (int i = 0; i < k; i++) {
        q = a[i] - x - (i > 0 ? b[i - 1] * b[i - 1] / q : 0.0);
        if (q == 0)
            q = 1e-300;
        count += q < 0;
    }
    return count;
}

static double largest_eigenvalue(const double *a, const double *b, int k)
{
    double lo = 0, hi = 0;
    for (int i = 0; i < k; i++) { /* Gershgorin interval of the tridiagonal */
        double r = (i > 0 ? fabs(b[i - 1]) : 0) + (i + 1 < k ? fabs(b[i]) : 0);
        lo = i == 0 || a[i] - r < lo ? a[i] - r : lo;
        hi = i == 0 || a[i] + r > hi ? a[i] + r : hi;
    }
    for (int it = 0; it < 100 && hi - lo > 1e-10 * fabs(hi); it++) {
        double mid = 0.5 * (lo + hi);
        if (below(a, b, k, mid) == k)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

static homg_status lanczos(homg_amg *amg, const csr_matrix *a, float *work, double *lz, int *steps)
{
    kernel_exec *ex = &amg->ctx->ex;
    const amg_kernels *ak = AMG_AK(amg);
    int32_t n = a->nrows;
    float *dscale = work, *u = work + n, *q = work + 2 * (size_t)n, *w = work + 3 * (size_t)n;
    int k = LANCZOS_STEPS < n ? LANCZOS_STEPS : n;
    HOMG_TRY_BACKEND(amg->ctx, amg->ctx->mem->zero(ex, lz, LZ_DOUBLES * sizeof(double)), "Lanczos");
    HOMG_TRY_BACKEND(amg->ctx, ak->lanczos_start(ex, a, dscale, u, q, &lz[0]), "Lanczos");
    for (int j = 1; j <= k; j++) {
        double *alpha = &lz[LANCZOS_STEPS + j];
        HOMG_TRY_BACKEND(amg->ctx, ak->lanczos_apply(ex, a, dscale, &lz[j - 1], u, w, alpha), "Lanczos");
        HOMG_TRY_BACKEND(amg->ctx, ak->lanczos_update(ex, n, &lz[j - 1], alpha, u, q, w, &lz[j]), "Lanczos");
    }
    *steps = k;
    return HOMG_OK;
}

homg_status homg__amg_spectral_bound(homg_amg *amg, const csr_matrix *a, float *rho)
{
    homg_ctx *ctx = amg->ctx;
    float *work = NULL, gersh = 0;
    double *lz = NULL, host[LZ_DOUBLES + 1], diag[LANCZOS_STEPS], off[LANCZOS_STEPS];
    int steps = 0, k = 0;
    homg_status st;
    st = homg__alloc_array(ctx, (size_t)a->nrows * 4, sizeof(float), (void **)&work, "Lanczos");
    if (st == HOMG_OK) /* the Lanczos scalars, then the Gershgorin bound: one read for both */
        st = homg__alloc_array(ctx, LZ_DOUBLES + 1, sizeof(double), (void **)&lz, "Lanczos");
    if (st == HOMG_OK && (st = AMG_AK(amg)->gershgorin(&ctx->ex, a, (float *)(lz + LZ_DOUBLES))) != HOMG_OK)
        st = homg__backend_fail(ctx, st, "Gershgorin bound");
    if (st == HOMG_OK)
        st = lanczos(amg, a, work, lz, &steps);
    if (st == HOMG_OK)
        st = homg__read(ctx, host, lz, sizeof host);
    if (st == HOMG_OK)
        memcpy(&gersh, host + LZ_DOUBLES, sizeof gersh);
    homg__free(ctx, work);
    homg__free(ctx, lz);
    HOMG_TRY(st);
    /* Stop at a (near) invariant subspace: beta_j = ||u_{j+1}|| ~ 0. */
    for (k = 0; k < steps; k++) {
        diag[k] = host[LANCZOS_STEPS + 1 + k];
        if (k + 1 < steps) {
            off[k] = sqrt(host[k + 1]);
            if (!(off[k] > 1e-7 * fabs(diag[k]))) {
                k++;
                break;
            }
        }
    }
    {
        double ritz = k > 0 ? largest_eigenvalue(diag, off, k) * LANCZOS_SAFETY : 0;
        *rho = isfinite(ritz) && ritz > 0 && ritz < gersh ? (float)ritz : gersh;
    }
    return HOMG_OK;
}
