/* poisson2d.c -- exact discrete solutions for the structured solvers. */
#include "poisson2d.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const double PI = 3.14159265358979323846;

/* The smooth part of u*: zero on the edge of the unit square without boundary
 * data, a general smooth function with it (its face values are then the data). */
static double smooth_part(double x, double y, int with_bc)
{
    double s = sin(PI * x) * sin(2 * PI * y);
    return with_bc ? s + x * y + 0.5 * cos(2 * x + y) : s;
}

homg_p2 *homg_p2_exact(int nx, int ny, double lambda, double noise, int with_bc, uint64_t seed)
{
    homg_p2 *p = (homg_p2 *)calloc(1, sizeof *p);
    homg_rng rng = homg_rng_seed(seed);
    size_t n = (size_t)nx * ny;
    p->nx = nx;
    p->ny = ny;
    p->h = 1.0 / (nx > ny ? nx : ny);
    p->lambda = lambda;
    p->u_star = (double *)malloc(n * sizeof(double));
    p->f = (double *)malloc(n * sizeof(double));
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            double x = (i + 0.5) * p->h, y = (j + 0.5) * p->h;
            p->u_star[(size_t)j * nx + i] = smooth_part(x, y, with_bc) + noise * (2 * homg_rng_uniform(&rng) - 1);
        }
    if (with_bc)
        for (int s = 0; s < 4; s++) {
            int len = s < 2 ? ny : nx;
            p->g[s] = (double *)malloc((size_t)len * sizeof(double));
            for (int k = 0; k < len; k++) {
                double t = (k + 0.5) * p->h;
                double x = s == 0 ? 0 : s == 1 ? nx * p->h : t, y = s == 2 ? 0 : s == 3 ? ny * p->h : t;
                p->g[s][k] = smooth_part(x, y, 1);
            }
        }
    homg_p2_apply(p, p->u_star, p->f);
    return p;
}

void homg_p2_free(homg_p2 *p)
{
    if (!p)
        return;
    free(p->u_star);
    free(p->f);
    for (int s = 0; s < 4; s++)
        free(p->g[s]);
    free(p);
}

void homg_p2_apply(const homg_p2 *p, const double *u, double *Au)
{
    const int nx = p->nx, ny = p->ny;
    const double ih2 = 1.0 / (p->h * p->h);
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            double c = u[(size_t)j * nx + i];
            double w = i > 0 ? u[(size_t)j * nx + i - 1] : 2 * (p->g[0] ? p->g[0][j] : 0) - c;
            double e = i < nx - 1 ? u[(size_t)j * nx + i + 1] : 2 * (p->g[1] ? p->g[1][j] : 0) - c;
            double s = j > 0 ? u[(size_t)(j - 1) * nx + i] : 2 * (p->g[2] ? p->g[2][i] : 0) - c;
            double nn = j < ny - 1 ? u[(size_t)(j + 1) * nx + i] : 2 * (p->g[3] ? p->g[3][i] : 0) - c;
            Au[(size_t)j * nx + i] = (4 * c - w - e - s - nn) * ih2 + p->lambda * c;
        }
}

void *homg_test_upload(homg_ctx *ctx, const double *x, size_t n, homg_precision prec)
{
    void *dev = NULL, *host;
    size_t elem = prec == HOMG_FLOAT64 ? sizeof(double) : sizeof(float);
    host = malloc(n * elem);
    for (size_t k = 0; k < n; k++) {
        if (prec == HOMG_FLOAT64)
            ((double *)host)[k] = x[k];
        else
            ((float *)host)[k] = (float)x[k];
    }
    if (homg_alloc(ctx, n * elem, &dev) != HOMG_OK || homg_copy_from_host(ctx, dev, host, n * elem) != HOMG_OK) {
        fprintf(stderr, "homg_test_upload: %s\n", homg_ctx_last_error(ctx));
        abort();
    }
    free(host);
    return dev;
}

void homg_test_download(homg_ctx *ctx, const void *x, size_t n, homg_precision prec, double *out)
{
    size_t elem = prec == HOMG_FLOAT64 ? sizeof(double) : sizeof(float);
    void *host = malloc(n * elem);
    if (homg_copy_to_host(ctx, host, x, n * elem) != HOMG_OK) {
        fprintf(stderr, "homg_test_download: %s\n", homg_ctx_last_error(ctx));
        abort();
    }
    for (size_t k = 0; k < n; k++)
        out[k] = prec == HOMG_FLOAT64 ? ((double *)host)[k] : (double)((float *)host)[k];
    free(host);
}

homg_boundary homg_test_boundary(homg_ctx *ctx, const homg_p2 *p, homg_precision prec)
{
    homg_boundary bc = { 0 };
    const void **side[4] = { &bc.face[HOMG_SIDE_W], &bc.face[HOMG_SIDE_E], &bc.face[HOMG_SIDE_S],
                             &bc.face[HOMG_SIDE_N] };
    for (int s = 0; s < 4; s++)
        if (p->g[s])
            *side[s] = homg_test_upload(ctx, p->g[s], s < 2 ? (size_t)p->ny : (size_t)p->nx, prec);
    return bc;
}

void homg_test_free_boundary(homg_ctx *ctx, homg_boundary *bc)
{
    for (int s = 0; s < 6; s++)
        homg_free(ctx, (void *)bc->face[s]);
}

long homg_test_mid_solve(homg_ctx *ctx, const homg_p2 *p, const char *plan, int mid, int warm, int count, float *out,
                         homg_solve_info *info_out)
{
    const size_t n = (size_t)p->nx * p->ny;
    homg_boundary bc = homg_test_boundary(ctx, p, HOMG_FLOAT32);
    void *f = homg_test_upload(ctx, p->f, n, HOMG_FLOAT32), *u = NULL;
    double *u0 = malloc(n * sizeof(double));
    homg_grid_desc gd = { 0 };
    homg_solve_desc sd = { 0 };
    homg_solve_info info;
    homg_grid *g = NULL;
    long launches = -1;
    if (u0) {
        for (size_t k = 0; k < n; k++)
            u0[k] = sin(0.37 * (double)k);
        u = homg_test_upload(ctx, u0, n, HOMG_FLOAT32);
    }
    gd.nx = p->nx;
    gd.ny = p->ny;
    gd.precision = HOMG_FLOAT32;
    gd.method = HOMG_METHOD_FMG;
    setenv("HOMG_BOX_MID", mid ? "1" : "0", 1);
    if (plan)
        setenv("HOMG_BOX_SCHED", plan, 1);
    const homg_status st = f && u ? homg_grid_create(ctx, &gd, &g) : HOMG_ERROR_OUT_OF_MEMORY;
    unsetenv("HOMG_BOX_MID");
    if (plan)
        unsetenv("HOMG_BOX_SCHED");
    sd.max_cycles = count;
    sd.warm_start = warm;
    if (st == HOMG_OK && homg_grid_solve(g, f, &bc, u, &sd, &info) == HOMG_OK &&
        homg_copy_to_host(ctx, out, u, n * sizeof(float)) == HOMG_OK) {
        launches = info.launches;
        if (info_out)
            *info_out = info;
    }
    homg_grid_destroy(g);
    free(u0);
    homg_free(ctx, f);
    homg_free(ctx, u);
    homg_test_free_boundary(ctx, &bc);
    return launches;
}
