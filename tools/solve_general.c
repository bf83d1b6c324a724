/* solve_general.c -- `homg solve` on a general structured problem (any size, 3D,
 * side kinds, obstacles, a sigma jump, lambda): seed 003's right-hand side on the
 * box, one library call to --tol, the monitored norm per cycle from the history,
 * then the residual recomputed on the host side of the library (homg_grid_residual). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tool.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static double rhs(double x, double y) /* seed 003's f */
{
    return 2 * (y * y * (1 - 6 * x * x) * (1 - y * y) + x * x * (1 - 6 * y * y) * (1 - x * x));
}

static void *to_ctx(homg_ctx *ctx, const double *x, size_t n, homg_precision p)
{
    size_t e = p == HOMG_FLOAT64 ? 8 : 4;
    void *host = malloc(n * e), *dev = NULL;
    if (!host)
        return NULL;
    for (size_t k = 0; k < n; k++) {
        if (p == HOMG_FLOAT64)
            ((double *)host)[k] = x[k];
        else
            ((float *)host)[k] = (float)x[k];
    }
    if (homg_alloc(ctx, n * e, &dev) != HOMG_OK || homg_copy_from_host(ctx, dev, host, n * e) != HOMG_OK) {
        homg_free(ctx, dev);
        dev = NULL;
    }
    free(host);
    return dev;
}

/* Solid discs (balls in 3D) of radius n/16 until `fraction` of the cells are solid. */
static void obstacles(unsigned char *fl, const homg_grid_desc *d, double fraction)
{
    const size_t n = (size_t)d->nx * d->ny * d->nz;
    const double r = (d->nx < d->ny ? d->nx : d->ny) / 16.0 + 1;
    size_t solid = 0;
    unsigned s = 12345;
    while ((double)solid < fraction * (double)n) {
        double c[3];
        for (int a = 0; a < 3; a++) {
            s = s * 1103515245u + 12345u;
            c[a] = (double)((s >> 8) % 100000) / 100000.0 * (a == 0 ? d->nx : a == 1 ? d->ny : d->nz);
        }
        for (size_t k = 0; k < n; k++) {
            double dx = (double)(k % d->nx) + 0.5 - c[0], dy = (double)(k / d->nx % d->ny) + 0.5 - c[1];
            double dz = d->nz > 1 ? (double)(k / ((size_t)d->nx * d->ny)) + 0.5 - c[2] : 0;
            if (dx * dx + dy * dy + dz * dz <= r * r && fl[k] != HOMG_CELL_SOLID) {
                fl[k] = HOMG_CELL_SOLID;
                solid++;
            }
        }
    }
}

static int fail(homg_ctx *ctx, const char *what)
{
    fflush(stdout);
    fprintf(stderr, "homg solve: %s: %s\n", what, homg_ctx_last_error(ctx));
    return 1;
}

int homg_tool_solve_general(homg_ctx *ctx, const homg_tool_general *o)
{
    static const char *const mnames[] = { "default", "homg", "vcycle", "fcycle", "fmg", "fft" };
    static const char *const kinds[] = { "dirichlet", "neumann", "periodic" };
    homg_grid_desc gd = o->desc;
    const size_t n = (size_t)gd.nx * gd.ny * (gd.nz > 1 ? gd.nz : 1);
    homg_grid *g = NULL;
    homg_grid_operator op = { 0 };
    homg_solve_desc sd = { 0 };
    homg_solve_info info;
    double *fh = (double *)malloc(n * sizeof(double)), *sig = NULL, t0, ms, hist[1000];
    unsigned char *fl = NULL;
    void *f = NULL, *u = NULL, *sd_sig = NULL, *d_fl = NULL;
    int rc = 0, nh;
    homg_status st;
    if (!fh) {
        fprintf(stderr, "homg solve: out of host memory\n");
        return 1;
    }
    if (homg_grid_create(ctx, &gd, &g) != HOMG_OK) {
        free(fh);
        return fail(ctx, "creating the grid");
    }
    gd = homg_grid_get_desc(g);
    for (size_t k = 0; k < n; k++)
        fh[k] = rhs(((double)(k % gd.nx) + 0.5) / gd.nx, ((double)(k / gd.nx % gd.ny) + 0.5) / gd.ny);
    op.lambda = o->lambda;
    if (o->sigma_jump > 0) { /* a checkerboard of blocks of 8 cells: 1 and the jump */
        sig = (double *)malloc(n * sizeof(double));
        for (size_t k = 0; sig && k < n; k++) {
            size_t i = k % gd.nx, j = k / gd.nx % gd.ny, z = k / ((size_t)gd.nx * gd.ny);
            sig[k] = ((i / 8 + j / 8 + z / 8) & 1) ? o->sigma_jump : 1.0;
        }
        op.sigma_cell = sd_sig = sig ? to_ctx(ctx, sig, n, gd.precision) : NULL;
    }
    if (o->obstacles > 0) {
        fl = (unsigned char *)calloc(n, 1);
        if (fl) {
            obstacles(fl, &gd, o->obstacles);
            if (homg_alloc(ctx, n, &d_fl) == HOMG_OK && homg_copy_from_host(ctx, d_fl, fl, n) == HOMG_OK)
                op.flags = (const unsigned char *)d_fl;
        }
    }
    f = to_ctx(ctx, fh, n, gd.precision);
    memset(fh, 0, n * sizeof(double));
    u = to_ctx(ctx, fh, n, gd.precision);
    if (!f || !u || (o->sigma_jump > 0 && !op.sigma_cell) || (o->obstacles > 0 && !op.flags)) {
        rc = fail(ctx, "allocating the arrays");
        goto done;
    }
    if (homg_grid_set_operator(g, &op) != HOMG_OK) {
        rc = fail(ctx, "setting the operator");
        goto done;
    }
    if (!o->quiet)
        printf("homg solve: %d x %d x %d cells, sides W %s E %s S %s N %s%s%s%s%s, sigma %s, lambda %g, "
               "obstacles %.0f%%, %s, method %s\nbackend: %s\n",
               gd.nx, gd.ny, gd.nz, kinds[gd.bc[0]], kinds[gd.bc[1]], kinds[gd.bc[2]], kinds[gd.bc[3]],
               gd.nz > 1 ? " B " : "", gd.nz > 1 ? kinds[gd.bc[4]] : "", gd.nz > 1 ? " T " : "",
               gd.nz > 1 ? kinds[gd.bc[5]] : "", o->sigma_jump > 0 ? "checkerboard 1 / jump" : "1", o->lambda,
               100 * o->obstacles, gd.precision == HOMG_FLOAT64 ? "float64" : "float32", mnames[gd.method],
               homg_ctx_device_name(ctx));
    sd.tol = o->tol;
    sd.max_cycles = o->cycles;
    t0 = now_ms();
    st = homg_grid_solve(g, f, NULL, u, &sd, &info);
    if (st == HOMG_OK || st == HOMG_ERROR_NOT_CONVERGED)
        homg_ctx_synchronize(ctx);
    ms = now_ms() - t0;
    if (st != HOMG_OK && st != HOMG_ERROR_NOT_CONVERGED) {
        rc = fail(ctx, "solving");
        goto done;
    }
    nh = homg_grid_history(g, hist, 1000);
    if (!o->quiet)
        for (int c = 0; c < nh; c++)
            printf("%6d %12.4e\n", c + 1, hist[c]);
    printf("summary: %d cycles, residual %.4e, projected %.3e, %.3f ms (with set-up), method %s, %s, backend %s\n",
           info.cycles, info.norm, info.projected, ms, mnames[info.method],
           gd.precision == HOMG_FLOAT64 ? "float64" : "float32", homg_ctx_device_name(ctx));
    if (st == HOMG_ERROR_NOT_CONVERGED) {
        fprintf(stderr, "homg solve: not converged: %s\n", homg_ctx_last_error(ctx));
        rc = 1;
    }
done:
    homg_grid_destroy(g);
    homg_free(ctx, f);
    homg_free(ctx, u);
    homg_free(ctx, sd_sig);
    homg_free(ctx, d_fl);
    free(fh);
    free(sig);
    free(fl);
    return rc;
}
