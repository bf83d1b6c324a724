/* fftcase.c -- random FFT problems run from host doubles (fftcase.h). */
#include "fftcase.h"
#include "poisson2d.h"
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

size_t fft_case_face_n(const fft_problem *p, int s)
{
    int a = s / 2;
    return a == 0 ? (size_t)p->ny * p->nz : a == 1 ? (size_t)p->nx * p->nz : (size_t)p->nx * p->ny;
}

void fft_case_init(fft_case *c, int dim, int nx, int ny, int nz, const char *sides, double h, double sigma,
                   double lambda, int nrhs, homg_precision prec, uint64_t seed)
{
    homg_rng r = homg_rng_seed(seed);
    memset(c, 0, sizeof *c);
    c->p.dim = dim ? dim : nz > 1 ? 3 : 2;
    c->p.nx = nx;
    c->p.ny = ny;
    c->p.nz = nz;
    c->p.h = h;
    c->p.sigma = sigma;
    c->p.lambda = lambda;
    c->p.precision = prec;
    c->p.nrhs = nrhs;
    for (int s = 0; s < 2 * c->p.dim; s++)
        c->p.side[s] = sides[s] == 'N' ? FFT_NEUMANN : sides[s] == 'P' ? FFT_PERIODIC : FFT_DIRICHLET;
    c->ncell = (size_t)nx * ny * nz;
    c->f = (double *)malloc(sizeof(double) * c->ncell * nrhs);
    for (size_t k = 0; k < c->ncell * nrhs; k++)
        c->f[k] = 2 * homg_rng_uniform(&r) - 1;
    for (int s = 0; s < 2 * c->p.dim; s++) {
        size_t n = fft_case_face_n(&c->p, s) * nrhs;
        if (c->p.side[s] == FFT_PERIODIC)
            continue;
        c->face[s] = (double *)malloc(sizeof(double) * n);
        for (size_t k = 0; k < n; k++)
            c->face[s][k] = 2 * homg_rng_uniform(&r) - 1;
    }
}

void fft_case_free(fft_case *c)
{
    free(c->f);
    for (int s = 0; s < 6; s++)
        free(c->face[s]);
    memset(c, 0, sizeof *c);
}

homg_status fft_case_solve(homg_ctx *ctx, const fft_case *c, fft_algorithm algo, double *u, double *mean)
{
    fft_problem p = c->p;
    fft_plan *plan = NULL;
    size_t n = c->ncell * p.nrhs;
    void *df = homg_test_upload(ctx, c->f, n, p.precision), *du = homg_test_upload(ctx, c->f, n, p.precision);
    void *dface[6] = { 0 };
    homg_status st;
    for (int s = 0; s < 6; s++)
        if (c->face[s])
            dface[s] = homg_test_upload(ctx, c->face[s], fft_case_face_n(&p, s) * p.nrhs, p.precision);
    p.algorithm = algo;
    st = homg__fft_plan_create(ctx, &p, &plan);
    if (st == HOMG_OK)
        st = homg__fft_solve(plan, df, (const void *const *)dface, du);
    if (st == HOMG_OK && mean)
        st = homg__fft_mean(plan, mean, p.nrhs);
    if (st == HOMG_OK)
        homg_test_download(ctx, du, n, p.precision, u);
    homg__fft_plan_destroy(plan);
    homg_free(ctx, df);
    homg_free(ctx, du);
    for (int s = 0; s < 6; s++)
        homg_free(ctx, dface[s]);
    return st;
}

void fft_case_apply(const fft_problem *p, const double *u, double *out)
{
    const int n[3] = { p->nx, p->ny, p->nz };
    double s = p->sigma / (p->h * p->h);
#pragma omp parallel for schedule(static) if (n[2] > 8)
    for (int k = 0; k < n[2]; k++)
        for (int j = 0; j < n[1]; j++)
            for (int i = 0; i < n[0]; i++) {
                size_t c = i + (size_t)n[0] * (j + (size_t)n[1] * k);
                double acc = p->lambda * u[c];
                for (int a = 0; a < p->dim; a++)
                    for (int dir = -1; dir <= 1; dir += 2) {
                        int nb[3] = { i, j, k }, side = 2 * a + (dir > 0);
                        nb[a] += dir;
                        if (nb[a] < 0 || nb[a] >= n[a]) {
                            if (p->side[side] == FFT_DIRICHLET)
                                acc += 2 * s * u[c];
                            if (p->side[side] != FFT_PERIODIC)
                                continue;
                            nb[a] = (nb[a] + n[a]) % n[a];
                        }
                        acc += s * (u[c] - u[nb[0] + (size_t)n[0] * (nb[1] + (size_t)n[1] * nb[2])]);
                    }
                out[c] = acc;
            }
}
