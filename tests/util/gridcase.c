/* gridcase.c -- see gridcase.h. */
#include "gridcase.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int dims_of(const grid_case *c) { return c->d.nz > 1 ? 3 : 2; }
size_t grid_case_cells(const grid_case *c) { return (size_t)c->d.nx * c->d.ny * (c->d.nz > 1 ? c->d.nz : 1); }

size_t grid_case_face_len(const grid_case *c, int s)
{
    const size_t nz = c->d.nz > 1 ? (size_t)c->d.nz : 1;
    return s < 2 ? (size_t)c->d.ny * nz : s < 4 ? (size_t)c->d.nx * nz : (size_t)c->d.nx * c->d.ny;
}

grid_case *grid_case_new(int nx, int ny, int nz, int nrhs, uint64_t seed)
{
    grid_case *c = (grid_case *)calloc(1, sizeof *c);
    homg_rng rng = homg_rng_seed(seed);
    size_t n;
    c->d.nx = nx;
    c->d.ny = ny;
    c->d.nz = nz;
    c->d.nrhs = nrhs;
    c->d = homg_grid_desc_defaults(&c->d);
    c->sigma = 1;
    n = grid_case_cells(c) * (size_t)c->d.nrhs;
    c->f = (double *)malloc(n * sizeof(double));
    c->u0 = (double *)calloc(n, sizeof(double));
    for (size_t k = 0; k < n; k++)
        c->f[k] = 2 * homg_rng_uniform(&rng) - 1;
    return c;
}

void grid_case_free(grid_case *c)
{
    if (!c)
        return;
    free(c->sigma_cell);
    free(c->lambda_cell);
    free(c->flags);
    free(c->f);
    free(c->u0);
    for (int s = 0; s < 6; s++)
        free(c->face[s]);
    free(c);
}

void grid_case_random_faces(grid_case *c, uint64_t seed)
{
    homg_rng rng = homg_rng_seed(seed);
    for (int s = 0; s < 2 * dims_of(c); s++) {
        size_t m = grid_case_face_len(c, s) * (size_t)c->d.nrhs;
        free(c->face[s]);
        c->face[s] = NULL;
        if (c->d.bc[s] == HOMG_BC_PERIODIC)
            continue;
        c->face[s] = (double *)malloc(m * sizeof(double));
        for (size_t k = 0; k < m; k++)
            c->face[s][k] = 2 * homg_rng_uniform(&rng) - 1;
    }
}

static void coords(const grid_case *c, size_t k, int x[3])
{
    x[0] = (int)(k % (size_t)c->d.nx);
    x[1] = (int)(k / (size_t)c->d.nx % (size_t)c->d.ny);
    x[2] = (int)(k / ((size_t)c->d.nx * c->d.ny));
}

void grid_case_checker_sigma(grid_case *c, int block, double jump)
{
    const size_t n = grid_case_cells(c);
    c->sigma_cell = (double *)realloc(c->sigma_cell, n * sizeof(double));
    for (size_t k = 0; k < n; k++) {
        int x[3];
        coords(c, k, x);
        c->sigma_cell[k] = ((x[0] / block + x[1] / block + x[2] / block) & 1) ? jump : 1.0;
    }
}

void grid_case_discs(grid_case *c, double fraction, double r, uint64_t seed)
{
    const size_t n = grid_case_cells(c);
    homg_rng rng = homg_rng_seed(seed);
    size_t solid = 0;
    if (!c->flags)
        c->flags = (unsigned char *)calloc(n, 1);
    while ((double)solid < fraction * (double)n) {
        double cx = homg_rng_uniform(&rng) * c->d.nx, cy = homg_rng_uniform(&rng) * c->d.ny,
               cz = homg_rng_uniform(&rng) * (c->d.nz > 1 ? c->d.nz : 1);
        for (size_t k = 0; k < n; k++) {
            int x[3];
            double dx, dy, dz;
            coords(c, k, x);
            dx = x[0] + 0.5 - cx;
            dy = x[1] + 0.5 - cy;
            dz = c->d.nz > 1 ? x[2] + 0.5 - cz : 0;
            if (dx * dx + dy * dy + dz * dz <= r * r && c->flags[k] != HOMG_CELL_SOLID) {
                c->flags[k] = HOMG_CELL_SOLID;
                solid++;
            }
        }
    }
}

/* ---- the definition, cell by cell ---- */

static double sig(const grid_case *c, size_t k) { return c->sigma_cell ? c->sigma_cell[k] : c->sigma; }
static double lam(const grid_case *c, size_t k) { return c->lambda_cell ? c->lambda_cell[k] : c->lambda; }
static int flag(const grid_case *c, size_t k) { return c->flags ? c->flags[k] : HOMG_CELL_ACTIVE; }

/* Neighbour cell index across direction dir of axis a, or -1 beyond a side. */
static long long neighbour(const grid_case *c, const int x[3], int a, int dir)
{
    const int n[3] = { c->d.nx, c->d.ny, c->d.nz > 1 ? c->d.nz : 1 };
    int y[3] = { x[0], x[1], x[2] }, m = x[a] + dir;
    if (m < 0 || m >= n[a]) {
        if (c->d.bc[2 * a] != HOMG_BC_PERIODIC)
            return -1;
        m = (m + n[a]) % n[a];
    }
    y[a] = m;
    return (long long)y[0] + (long long)n[0] * (y[1] + (long long)n[1] * y[2]);
}

static size_t face_index(const grid_case *c, int s, const int x[3])
{
    return s < 2   ? (size_t)x[1] + (size_t)c->d.ny * x[2]
           : s < 4 ? (size_t)x[0] + (size_t)c->d.nx * x[2]
                   : (size_t)x[0] + (size_t)c->d.nx * x[1];
}

/* b_k = f + face terms, and (A u)_k, at active cell k of rhs r. */
static void cell_terms(const grid_case *c, int r, size_t k, const double *u, double *b, double *au)
{
    const double h2 = c->d.h * c->d.h;
    const size_t n = grid_case_cells(c);
    int x[3];
    double sc = sig(c, k), acc = lam(c, k) * u[k], bb = c->f[r * n + k];
    coords(c, k, x);
    for (int a = 0; a < dims_of(c); a++)
        for (int dir = -1; dir <= 1; dir += 2) {
            long long m = neighbour(c, x, a, dir);
            int s = 2 * a + (dir > 0);
            if (m < 0) {
                double g = c->face[s] ? c->face[s][r * grid_case_face_len(c, s) + face_index(c, s, x)] : 0;
                if (c->d.bc[s] == HOMG_BC_DIRICHLET) {
                    acc += 2 * sc * u[k] / h2;
                    bb += 2 * sc * g / h2;
                } else {
                    bb += g / c->d.h;
                }
                continue;
            }
            if (flag(c, (size_t)m) == HOMG_CELL_SOLID)
                continue;
            acc += 2 * sc * sig(c, (size_t)m) / (sc + sig(c, (size_t)m)) * (u[k] - u[m]) / h2;
        }
    *b = bb;
    *au = acc;
}

/* Singular island labels (-1: none), host BFS; returns the number of islands. */
static int islands(const grid_case *c, int *label)
{
    const size_t n = grid_case_cells(c);
    int *stack = (int *)malloc(n * sizeof(int)), count = 0;
    for (size_t k = 0; k < n; k++)
        label[k] = -2;
    for (size_t k0 = 0; k0 < n; k0++) {
        int top = 0, singular = 1;
        if (flag(c, k0) != HOMG_CELL_ACTIVE || label[k0] != -2)
            continue;
        label[k0] = count;
        stack[top++] = (int)k0;
        while (top > 0) {
            size_t k = (size_t)stack[--top];
            int x[3];
            coords(c, k, x);
            if (lam(c, k) != 0)
                singular = 0;
            for (int a = 0; a < dims_of(c); a++)
                for (int dir = -1; dir <= 1; dir += 2) {
                    long long m = neighbour(c, x, a, dir);
                    if (m < 0) {
                        if (c->d.bc[2 * a + (dir > 0)] == HOMG_BC_DIRICHLET)
                            singular = 0;
                        continue;
                    }
                    if (flag(c, (size_t)m) == HOMG_CELL_FIXED)
                        singular = 0;
                    if (flag(c, (size_t)m) != HOMG_CELL_ACTIVE || label[m] != -2)
                        continue;
                    label[m] = count;
                    stack[top++] = (int)m;
                }
        }
        if (singular) {
            count++;
        } else {
            for (size_t k = 0; k < n; k++)
                if (label[k] == count)
                    label[k] = -1;
        }
    }
    for (size_t k = 0; k < n; k++)
        if (label[k] == -2)
            label[k] = -1;
    free(stack);
    return count;
}

double grid_case_residual(const grid_case *c, const double *u, int project)
{
    const size_t n = grid_case_cells(c);
    int *label = (int *)malloc(n * sizeof(int)), nisl = islands(c, label);
    double *b = (double *)malloc(n * sizeof(double)), *au = (double *)malloc(n * sizeof(double));
    double *mean = (double *)calloc((size_t)nisl + 1, sizeof(double)),
           *cnt = (double *)calloc((size_t)nisl + 1, sizeof(double));
    double rr = 0, bb = 0;
    for (int r = 0; r < c->d.nrhs; r++) {
        const double *ur = u + (size_t)r * n;
        for (int l = 0; l < nisl; l++)
            mean[l] = cnt[l] = 0;
        for (size_t k = 0; k < n; k++) {
            b[k] = au[k] = 0;
            if (flag(c, k) != HOMG_CELL_ACTIVE)
                continue;
            cell_terms(c, r, k, ur, &b[k], &au[k]);
            if (project && label[k] >= 0) {
                mean[label[k]] += b[k];
                cnt[label[k]] += 1;
            }
        }
        for (size_t k = 0; k < n; k++) {
            if (flag(c, k) != HOMG_CELL_ACTIVE)
                continue;
            if (project && label[k] >= 0)
                b[k] -= mean[label[k]] / cnt[label[k]];
            rr += (b[k] - au[k]) * (b[k] - au[k]);
            bb += b[k] * b[k];
        }
    }
    free(label);
    free(b);
    free(au);
    free(mean);
    free(cnt);
    return bb > 0 ? sqrt(rr / bb) : sqrt(rr);
}

double grid_case_island_mean(const grid_case *c, const double *u)
{
    const size_t n = grid_case_cells(c);
    int *label = (int *)malloc(n * sizeof(int)), nisl = islands(c, label);
    double worst = 0;
    for (int r = 0; r < c->d.nrhs; r++)
        for (int l = 0; l < nisl; l++) {
            double s = 0, m = 0;
            for (size_t k = 0; k < n; k++)
                if (label[k] == l) {
                    s += u[(size_t)r * n + k];
                    m += 1;
                }
            worst = fabs(s / m) > worst ? fabs(s / m) : worst;
        }
    free(label);
    return worst;
}

/* ---- a solve on a context ---- */

static void *upload(homg_ctx *ctx, const double *x, size_t n, homg_precision p)
{
    size_t e = p == HOMG_FLOAT64 ? 8 : 4;
    void *host = malloc(n * e), *dev = NULL;
    for (size_t k = 0; k < n; k++) {
        if (p == HOMG_FLOAT64)
            ((double *)host)[k] = x[k];
        else
            ((float *)host)[k] = (float)x[k];
    }
    if (homg_alloc(ctx, n * e, &dev) == HOMG_OK)
        homg_copy_from_host(ctx, dev, host, n * e);
    free(host);
    return dev;
}

homg_status grid_case_solve(homg_ctx *ctx, const grid_case *c, const homg_solve_desc *sd, double *u_out,
                            homg_solve_info *info, double *history, int *nhist)
{
    const homg_precision p = c->d.precision;
    const size_t n = grid_case_cells(c), nr = (size_t)c->d.nrhs, e = p == HOMG_FLOAT64 ? 8 : 4;
    homg_grid *g = NULL;
    homg_grid_operator op = { 0 };
    homg_boundary bc = { { 0 } };
    void *f, *u, *sg = NULL, *lm = NULL, *fl = NULL, *host;
    homg_status st = homg_grid_create(ctx, &c->d, &g);
    if (st != HOMG_OK)
        return st;
    op.sigma = c->sigma;
    op.lambda = c->lambda;
    if (c->sigma_cell)
        op.sigma_cell = sg = upload(ctx, c->sigma_cell, n, p);
    if (c->lambda_cell)
        op.lambda_cell = lm = upload(ctx, c->lambda_cell, n, p);
    if (c->flags) {
        homg_alloc(ctx, n, &fl);
        homg_copy_from_host(ctx, fl, c->flags, n);
        op.flags = (const unsigned char *)fl;
    }
    st = homg_grid_set_operator(g, &op);
    f = upload(ctx, c->f, n * nr, p);
    u = upload(ctx, c->u0, n * nr, p);
    for (int s = 0; s < 6; s++)
        if (c->face[s])
            bc.face[s] = upload(ctx, c->face[s], grid_case_face_len(c, s) * nr, p);
    if (st == HOMG_OK)
        st = homg_grid_solve(g, f, &bc, u, sd, info);
    if (history && nhist)
        *nhist = homg_grid_history(g, history, *nhist);
    host = malloc(n * nr * e);
    homg_copy_to_host(ctx, host, u, n * nr * e);
    for (size_t k = 0; k < n * nr; k++)
        u_out[k] = p == HOMG_FLOAT64 ? ((double *)host)[k] : ((float *)host)[k];
    free(host);
    homg_grid_destroy(g);
    homg_free(ctx, f);
    homg_free(ctx, u);
    homg_free(ctx, sg);
    homg_free(ctx, lm);
    homg_free(ctx, fl);
    for (int s = 0; s < 6; s++)
        homg_free(ctx, (void *)bc.face[s]);
    return st;
}

homg_status grid_case_solves(grid_case *c, int runs, homg_ctx *const ctx[], const char *const *const env[], double *u[],
                             homg_solve_info info[])
{
    homg_solve_desc sd;
    homg_status st = HOMG_OK;
    c->d.method = HOMG_METHOD_VCYCLE;
    c->d.precision = HOMG_FLOAT32;
    memset(&sd, 0, sizeof sd);
    sd.tol = 1e-5;
    for (int r = 0; r < runs; r++) {
        char *old[HOMG_TEST_MAX_ENV];
        u[r] = (double *)malloc(grid_case_cells(c) * sizeof(double));
        homg_test_env_set(env[r], old);
        const homg_status s = grid_case_solve(ctx[r], c, &sd, u[r], &info[r], NULL, NULL);
        homg_test_env_restore(env[r], old);
        st = st == HOMG_OK ? s : st;
    }
    return st;
}
