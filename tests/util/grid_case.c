/* grid_case.c -- problem generators for the general structured grid (grid_case.h). */
#include "grid_case.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double rounded(double x) { return (double)(float)x; }

static double sym(homg_rng *r) { return rounded(2 * homg_rng_uniform(r) - 1); }

void grid_case_describe(grid_case *c, const char *extra)
{
    char sides[7] = { 0 }, prev[sizeof c->name];
    for (int s = 0; s < 2 * c->dim; s++)
        sides[s] = "DNP"[c->p.side[s]];
    snprintf(prev, sizeof prev, "%s", c->name);
    if (extra && prev[0])
        snprintf(c->name, sizeof c->name, "%.90s %.30s", prev, extra);
    else if (c->dim == 2)
        snprintf(c->name, sizeof c->name, "2D %dx%d %s nrhs %d", c->p.nx, c->p.ny, sides, c->nrhs);
    else
        snprintf(c->name, sizeof c->name, "3D %dx%dx%d %s nrhs %d", c->p.nx, c->p.ny, c->p.nz, sides, c->nrhs);
}

void grid_case_init(grid_case *c, int nx, int ny, int nz, const char *sides, int nrhs, uint64_t seed)
{
    homg_rng r = homg_rng_seed(seed);
    int m = nx > ny ? nx : ny;
    memset(c, 0, sizeof *c);
    c->seed = seed;
    c->dim = nz > 1 ? 3 : 2;
    c->nrhs = nrhs;
    c->contrast = 1;
    c->p.nx = nx;
    c->p.ny = ny;
    c->p.nz = nz > 1 ? nz : 1;
    c->p.h = 1.0 / (m > nz ? m : nz);
    c->p.sigma = 1;
    c->ncell = (size_t)nx * ny * c->p.nz;
    for (int s = 0; s < 2 * c->dim; s++)
        c->p.side[s] = sides[s] == 'N' ? GRID_REF_N : sides[s] == 'P' ? GRID_REF_P : GRID_REF_D;
    c->f = (double *)malloc(sizeof(double) * c->ncell * nrhs);
    c->u0 = (double *)calloc(c->ncell * nrhs, sizeof(double));
    for (size_t k = 0; k < c->ncell * nrhs; k++)
        c->f[k] = sym(&r);
    for (int s = 0; s < 2 * c->dim; s++) {
        if (c->p.side[s] == GRID_REF_P)
            continue;
        size_t n = grid_ref_face_n(&c->p, s) * nrhs;
        c->face[s] = (double *)malloc(sizeof(double) * n);
        for (size_t k = 0; k < n; k++)
            c->face[s][k] = sym(&r);
    }
    grid_case_describe(c, NULL);
}

void grid_case_free(grid_case *c)
{
    free(c->sigma_cell);
    free(c->lambda_cell);
    free(c->flags);
    free(c->f);
    free(c->u0);
    for (int s = 0; s < 6; s++)
        free(c->face[s]);
    memset(c, 0, sizeof *c);
}

static void coords(const grid_case *c, size_t q, int at[3])
{
    at[0] = (int)(q % c->p.nx);
    at[1] = (int)(q / c->p.nx % c->p.ny);
    at[2] = (int)(q / ((size_t)c->p.nx * c->p.ny));
}

void grid_case_set_sigma(grid_case *c, grid_case_sigma kind, double contrast)
{
    static const char *const names[] = { "checkerboard", "inclusions", "layers", "random" };
    homg_rng r = homg_rng_seed(c->seed + 101);
    double ctr[4][3], rad[4];
    int b = 1 + (c->p.nx > c->p.ny ? c->p.nx : c->p.ny) / 8;
    for (int k = 0; k < 4; k++) {
        ctr[k][0] = homg_rng_uniform(&r) * c->p.nx;
        ctr[k][1] = homg_rng_uniform(&r) * c->p.ny;
        ctr[k][2] = homg_rng_uniform(&r) * c->p.nz;
        rad[k] = (0.08 + 0.1 * homg_rng_uniform(&r)) * (c->p.nx > c->p.ny ? c->p.nx : c->p.ny) + 0.6;
    }
    c->sigma_cell = (double *)malloc(sizeof(double) * c->ncell);
    for (size_t q = 0; q < c->ncell; q++) {
        int at[3], hi = 0;
        coords(c, q, at);
        if (kind == GRID_CASE_CHECKER)
            hi = (at[0] / b + at[1] / b + at[2] / b) % 2;
        else if (kind == GRID_CASE_LAYERS)
            hi = (at[1] * 5 / (c->p.ny > 1 ? c->p.ny : 1)) % 2;
        else if (kind == GRID_CASE_INCLUSIONS)
            for (int k = 0; k < 4; k++) {
                double d2 = 0;
                for (int a = 0; a < c->dim; a++)
                    d2 += (at[a] + 0.5 - ctr[k][a]) * (at[a] + 0.5 - ctr[k][a]);
                hi |= d2 < rad[k] * rad[k];
            }
        c->sigma_cell[q] = kind == GRID_CASE_RANDOM ? rounded(exp(log(contrast) * homg_rng_uniform(&r)))
                           : hi                     ? contrast
                                                    : 1.0;
    }
    c->p.sigma_cell = c->sigma_cell;
    c->contrast = contrast;
    char extra[64];
    snprintf(extra, sizeof extra, "sigma %s %.0e", names[kind], contrast);
    grid_case_describe(c, extra);
}

void grid_case_set_lambda(grid_case *c, double max)
{
    homg_rng r = homg_rng_seed(c->seed + 202);
    c->lambda_cell = (double *)malloc(sizeof(double) * c->ncell);
    for (size_t q = 0; q < c->ncell; q++)
        c->lambda_cell[q] = homg_rng_uniform(&r) < 0.25 ? 0 : rounded(max * homg_rng_uniform(&r));
    c->p.lambda_cell = c->lambda_cell;
    char extra[64];
    snprintf(extra, sizeof extra, "lambda cells [0,%g]", max);
    grid_case_describe(c, extra);
}

void grid_case_set_lambda_const(grid_case *c, double lambda)
{
    char extra[64];
    c->p.lambda = rounded(lambda);
    snprintf(extra, sizeof extra, "lambda %g", lambda);
    grid_case_describe(c, extra);
}

static int mask_flag(const grid_case *c, grid_case_mask kind, const int at[3], homg_rng *r, const double (*disc)[4],
                     int ndisc)
{
    const int n[3] = { c->p.nx, c->p.ny, c->p.nz };
    int mid = n[0] / 2, cj = n[1] / 2, ck = n[2] / 2;
    switch (kind) {
    case GRID_CASE_WALL_GAP: return at[0] == mid && !(at[1] == cj && at[2] == ck) ? GRID_REF_SOLID : GRID_REF_ACTIVE;
    case GRID_CASE_WALL_SPLIT: return at[0] == mid ? GRID_REF_SOLID : GRID_REF_ACTIVE;
    case GRID_CASE_ROOMS:
        for (int a = 0; a < c->dim; a++)
            if (at[a] % 5 == 4)
                return GRID_REF_SOLID;
        return GRID_REF_ACTIVE;
    case GRID_CASE_FIXED_CELL: return at[0] == mid && at[1] == cj && at[2] == ck ? GRID_REF_FIXED : GRID_REF_ACTIVE;
    case GRID_CASE_SOLID_BORDER:
        for (int a = 0; a < c->dim; a++)
            if (at[a] == 0 || at[a] == n[a] - 1)
                return GRID_REF_SOLID;
        return GRID_REF_ACTIVE;
    case GRID_CASE_SCATTER: {
        double x = homg_rng_uniform(r);
        return x < 0.1 ? GRID_REF_SOLID : x < 0.2 ? GRID_REF_FIXED : GRID_REF_ACTIVE;
    }
    case GRID_CASE_DISCS:
        for (int k = 0; k < ndisc; k++) {
            double d2 = 0;
            for (int a = 0; a < c->dim; a++)
                d2 += (at[a] + 0.5 - disc[k][a]) * (at[a] + 0.5 - disc[k][a]);
            if (d2 < disc[k][3] * disc[k][3])
                return GRID_REF_SOLID;
        }
        return GRID_REF_ACTIVE;
    }
    return GRID_REF_ACTIVE;
}

void grid_case_set_mask(grid_case *c, grid_case_mask kind)
{
    static const char *const names[] = { "wall+gap",     "split wall", "rooms", "fixed cell",
                                         "solid border", "scatter",    "discs" };
    homg_rng r = homg_rng_seed(c->seed + 303);
    double disc[24][4];
    int m = c->p.nx > c->p.ny ? c->p.nx : c->p.ny;
    for (int k = 0; k < 24; k++) {
        disc[k][0] = homg_rng_uniform(&r) * c->p.nx;
        disc[k][1] = homg_rng_uniform(&r) * c->p.ny;
        disc[k][2] = homg_rng_uniform(&r) * c->p.nz;
        disc[k][3] = (c->dim == 2 ? 0.06 : 0.12) * m * (0.5 + homg_rng_uniform(&r)) + 0.3;
    }
    c->flags = (unsigned char *)malloc(c->ncell);
    for (size_t q = 0; q < c->ncell; q++) {
        int at[3];
        coords(c, q, at);
        c->flags[q] = (unsigned char)mask_flag(c, kind, at, &r, (const double(*)[4])disc, 24);
        if (c->flags[q] == GRID_REF_FIXED)
            for (int k = 0; k < c->nrhs; k++)
                c->u0[c->ncell * k + q] = rounded(1 + homg_rng_uniform(&r));
    }
    c->p.flags = c->flags;
    grid_case_describe(c, names[kind]);
}
