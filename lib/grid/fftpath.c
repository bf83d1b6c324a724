/* fftpath.c -- HOMG_METHOD_FFT (and DEFAULT where it applies): constant sigma and
 * lambda without flags, any sizes and side kinds, nrhs at once, through lib/fft
 * (DST/DCT/DFT per axis; FFTW on the CPU, cuFFT on CUDA).  The plan is made when
 * first needed and again when the constants change. */
#include "grid_internal.h"
#include "fft/fft.h"
#include "grid/gen_kernels.h"

#include <math.h>
#include <string.h>

int homg__fft_available(void) { return 1; }

void homg__fftpath_free(homg_grid *g)
{
    homg__fft_plan_destroy(g->fft);
    g->fft = NULL;
}

homg_status homg__fftpath_prepare(homg_grid *g)
{
    const homg_grid_desc *d = &g->desc;
    fft_problem p;
    if (g->fft && g->fft_sigma == g->sigma && g->fft_lambda == g->lambda)
        return HOMG_OK;
    homg__fftpath_free(g);
    memset(&p, 0, sizeof p);
    p.dim = homg__grid_dims(d);
    p.nx = d->nx;
    p.ny = d->ny;
    p.nz = d->nz;
    p.h = d->h;
    p.sigma = g->sigma;
    p.lambda = g->lambda;
    for (int s = 0; s < 6; s++)
        p.side[s] = (fft_side_kind)d->bc[s];
    p.precision = d->precision;
    p.nrhs = d->nrhs;
    HOMG_TRY(homg__fft_plan_create(g->ctx, &p, (fft_plan **)&g->fft));
    g->fft_sigma = g->sigma;
    g->fft_lambda = g->lambda;
    return HOMG_OK;
}

homg_status homg__fftpath_solve(homg_grid *g, const void *f, const homg_boundary *bc, void *u,
                                const homg_solve_desc *sd, homg_solve_info *info)
{
    const homg_grid_desc *d = &g->desc;
    const void *faces[6] = { 0 };
    fft_cost cost;
    double norm = -1, proj = 0;
    if (bc)
        memcpy(faces, bc->face, sizeof faces);
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(&g->ctx->ex, g->hist_count, sizeof(int)), "history");
    HOMG_TRY(homg__fft_solve(g->fft, f, faces, u));
    homg__fft_cost(g->fft, &cost);
    homg__account(g, cost.launches, 0, cost.bytes / (double)g->elem);
    if (sd->u_ref) { /* the error, as the multigrid paths monitor it */
        const gen_kernels *k = HOMG_KERNELS(&g->ctx->ex, gen);
        double s[GEN_NSCALARS]; /* the history array serves as device scratch */
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(&g->ctx->ex, g->hist, GEN_NSCALARS * sizeof(double)), "norm");
        HOMG_TRY_BACKEND(g->ctx,
                         k->error_norm(&g->ctx->ex, d->precision, (size_t)d->nx * d->ny * d->nz * d->nrhs, NULL, u,
                                       sd->u_ref, g->hist),
                         "error norm");
        HOMG_TRY(homg__read(g->ctx, s, g->hist, sizeof s));
        norm = s[GEN_R2] > 0 ? sqrt(s[GEN_E2] / s[GEN_R2]) : sqrt(s[GEN_E2]);
    }
    if (cost.singular && (sd->tol > 0 || sd->u_ref)) {
        double m[64];
        int nm = d->nrhs < 64 ? d->nrhs : 64;
        HOMG_TRY(homg__fft_mean(g->fft, m, nm));
        for (int k = 0; k < nm; k++)
            proj = fabs(m[k]) > proj ? fabs(m[k]) : proj;
    } else if (cost.singular) {
        proj = -1; /* not read: tol = 0 keeps the host out */
    }
    if (info) {
        info->cycles = 1;
        info->norm = norm;
        info->converged = sd->tol > 0;
        info->projected = proj;
    }
    return HOMG_OK;
}
