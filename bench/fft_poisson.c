/* fft_poisson.c -- the benchmark's 2D Dirichlet FFT solve through the library's FFT
 * component (fft_poisson.h says why it is kept). */
#include "fft_poisson.h"
#include "fft/fft.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

struct fft_poisson {
    homg_ctx *ctx;
    fft_plan *plan;
    fft_poisson_cost cost;
};

void fft_poisson_destroy(fft_poisson *p)
{
    if (!p)
        return;
    homg__fft_plan_destroy(p->plan);
    homg_ctx_destroy(p->ctx);
    free(p);
}

int fft_poisson_create(int nx, int ny, double h, double lambda, int use_double, void *stream, fft_poisson **out)
{
    homg_ctx_desc cd = { 0 };
    fft_problem pr = { 0 };
    fft_cost cost;
    char msg[512];
    fft_poisson *p;
    if (!out)
        return FFT_POISSON_EINVAL;
    *out = NULL;
    if (nx < 1 || ny < 1 || !(h > 0) || !isfinite(h) || !(lambda >= 0) || !isfinite(lambda)) {
        fprintf(stderr, "fft_poisson: bad problem: nx = %d, ny = %d (>= 1), h = %g (> 0), lambda = %g (>= 0)\n", nx, ny,
                h, lambda);
        return FFT_POISSON_EINVAL;
    }
    p = (fft_poisson *)calloc(1, sizeof *p);
    if (!p)
        return FFT_POISSON_ECUDA;
    cd.backend = HOMG_BACKEND_CUDA;
    cd.stream = stream;
    if (homg_ctx_create_msg(&cd, &p->ctx, msg, sizeof msg) != HOMG_OK) {
        fprintf(stderr, "fft_poisson: %s\n", msg);
        free(p);
        return FFT_POISSON_ECUDA;
    }
    pr.dim = 2;
    pr.nx = nx;
    pr.ny = ny;
    pr.h = h;
    pr.sigma = 1;
    pr.lambda = lambda;
    pr.precision = use_double ? HOMG_FLOAT64 : HOMG_FLOAT32; /* sides: all Dirichlet (0) */
    if (homg__fft_plan_create(p->ctx, &pr, &p->plan) != HOMG_OK) {
        fprintf(stderr, "fft_poisson: %s\n", homg_ctx_last_error(p->ctx));
        fft_poisson_destroy(p);
        return FFT_POISSON_ECUDA;
    }
    homg__fft_cost(p->plan, &cost);
    p->cost.launches = (int)cost.launches;
    p->cost.launches_counted = cost.launches_counted;
    p->cost.own_kernels = cost.own_kernels;
    p->cost.fft_kernels = (int)cost.launches - cost.own_kernels;
    p->cost.bytes = cost.bytes;
    *out = p;
    return FFT_POISSON_OK;
}

int fft_poisson_solve(fft_poisson *p, const void *f, void *u)
{
    if (!p || !f || !u)
        return FFT_POISSON_EINVAL;
    if (homg__fft_solve(p->plan, f, NULL, u) != HOMG_OK) {
        fprintf(stderr, "fft_poisson: %s\n", homg_ctx_last_error(p->ctx));
        return FFT_POISSON_ECUDA;
    }
    return FFT_POISSON_OK;
}

void fft_poisson_get_cost(const fft_poisson *p, fft_poisson_cost *out)
{
    if (p && out)
        *out = p->cost;
}
