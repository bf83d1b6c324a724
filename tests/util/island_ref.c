/* island_ref.c -- see island_ref.h. */
#include "island_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid/grid_internal.h"

static size_t ncells(const homg_grid_desc *d) { return (size_t)d->nx * d->ny * (d->nz > 1 ? d->nz : 1); }
static int dims(const homg_grid_desc *d) { return d->nz > 1 ? 3 : 2; }

static void random_desc(homg_grid_desc *d, int k, homg_rng *rng)
{
    const int three = k % 3 == 2, max = three ? 9 : 40;
    memset(d, 0, sizeof *d);
    d->nx = 1 + (int)(homg_rng_uniform(rng) * max);
    d->ny = 1 + (int)(homg_rng_uniform(rng) * max);
    d->nz = three ? 2 + (int)(homg_rng_uniform(rng) * max) : 1;
    d->precision = HOMG_FLOAT64;
    for (int a = 0; a < dims(d); a++) {
        double u = homg_rng_uniform(rng);
        if (u < 0.3) /* periodic pairs */
            d->bc[2 * a] = d->bc[2 * a + 1] = HOMG_BC_PERIODIC;
        else
            for (int s = 0; s < 2; s++)
                d->bc[2 * a + s] = homg_rng_uniform(rng) < 0.25 ? HOMG_BC_DIRICHLET : HOMG_BC_NEUMANN;
    }
}

static void mask(island_case *c, double solid, double fixed, homg_rng *rng)
{
    const size_t n = ncells(&c->desc);
    c->flags = (unsigned char *)malloc(n);
    for (size_t i = 0; i < n; i++) {
        double u = homg_rng_uniform(rng);
        c->flags[i] = u < fixed ? HOMG_CELL_FIXED : u < fixed + solid ? HOMG_CELL_SOLID : HOMG_CELL_ACTIVE;
    }
}

/* Mask classes: none, sparse solids, near percolation, with FIXED cells. */
static void random_operator(island_case *c, int k, homg_rng *rng)
{
    const size_t n = ncells(&c->desc);
    const double solid[4] = { 0, 0.15, 0.45, 0.3 }, fixed = k % 4 == 3 ? 0.01 : 0;
    const int cls = k % 4;
    if (cls > 0 || k % 5 == 1)
        mask(c, solid[cls], fixed, rng);
    if (k % 7 == 3) { /* per-cell lambda, zero but in a few cells */
        c->lambda = (double *)malloc(n * sizeof(double));
        for (size_t i = 0; i < n; i++)
            c->lambda[i] = homg_rng_uniform(rng) < 0.002 ? 0.5 : 0;
    }
    snprintf(c->name, sizeof c->name, "case %d: %dx%dx%d bc %d%d%d%d%d%d mask class %d%s", k, c->desc.nx, c->desc.ny,
             c->desc.nz, c->desc.bc[0], c->desc.bc[1], c->desc.bc[2], c->desc.bc[3], c->desc.bc[4], c->desc.bc[5],
             c->flags ? cls : -1, c->lambda ? " lambda per cell" : "");
}

static int active(const island_case *c, size_t i) { return !c->flags || c->flags[i] == HOMG_CELL_ACTIVE; }

/* Visits neighbour m of cell i along axis a, direction dir; 0 when none. */
static int neighbour(const homg_grid_desc *d, size_t i, int a, int dir, size_t *m)
{
    int x[3] = { (int)(i % d->nx), (int)(i / d->nx % d->ny), (int)(i / ((size_t)d->nx * d->ny)) };
    int n[3] = { d->nx, d->ny, d->nz > 1 ? d->nz : 1 };
    x[a] += dir;
    if (x[a] < 0 || x[a] >= n[a]) {
        if (d->bc[2 * a] != HOMG_BC_PERIODIC || n[a] < 2)
            return 0;
        x[a] = (x[a] + n[a]) % n[a];
    }
    *m = (size_t)x[0] + (size_t)d->nx * ((size_t)x[1] + (size_t)d->ny * x[2]);
    return 1;
}

/* Whether cell i makes its island regular (definition in lib/grid/islands.c). */
static int regular_cell(const island_case *c, size_t i)
{
    const homg_grid_desc *d = &c->desc;
    int x[3] = { (int)(i % d->nx), (int)(i / d->nx % d->ny), (int)(i / ((size_t)d->nx * d->ny)) };
    int n[3] = { d->nx, d->ny, d->nz > 1 ? d->nz : 1 };
    if (c->lambda ? c->lambda[i] != 0 : c->lambda_c != 0)
        return 1;
    for (int a = 0; a < dims(d); a++) {
        size_t m;
        if ((x[a] == 0 && d->bc[2 * a] == HOMG_BC_DIRICHLET) ||
            (x[a] == n[a] - 1 && d->bc[2 * a + 1] == HOMG_BC_DIRICHLET))
            return 1;
        for (int dir = -1; dir <= 1; dir += 2)
            if (c->flags && neighbour(d, i, a, dir, &m) && c->flags[m] == HOMG_CELL_FIXED)
                return 1;
    }
    return 0;
}

/* Breadth-first search from every unvisited active cell, in index order. */
static void reference(island_case *c)
{
    const size_t n = ncells(&c->desc);
    size_t *queue = (size_t *)malloc(n * sizeof *queue);
    int *seen = (int *)calloc(n, sizeof *seen);
    c->label = (int *)malloc(n * sizeof(int));
    c->inv = (double *)malloc((n + 1) * sizeof(double));
    c->nisl = 0;
    for (size_t i = 0; i < n; i++)
        c->label[i] = -1;
    for (size_t s = 0; s < n; s++) {
        size_t head = 0, tail = 0;
        int regular = 0;
        if (!active(c, s) || seen[s])
            continue;
        seen[s] = 1, queue[tail++] = s;
        while (head < tail) {
            size_t i = queue[head++], m;
            regular |= regular_cell(c, i);
            for (int a = 0; a < dims(&c->desc); a++)
                for (int dir = -1; dir <= 1; dir += 2)
                    if (neighbour(&c->desc, i, a, dir, &m) && active(c, m) && !seen[m])
                        seen[m] = 1, queue[tail++] = m;
        }
        if (regular)
            continue;
        for (size_t q = 0; q < tail; q++)
            c->label[queue[q]] = c->nisl;
        c->inv[c->nisl++] = 1.0 / (double)tail;
    }
    free(queue);
    free(seen);
}

void island_case_make(island_case *c, int k, homg_rng *rng)
{
    memset(c, 0, sizeof *c);
    random_desc(&c->desc, k, rng);
    random_operator(c, k, rng);
    reference(c);
}

/* Every other row solid but one cell, alternating ends: one winding path. */
static void serpentine(island_case *c)
{
    const homg_grid_desc *d = &c->desc;
    c->flags = (unsigned char *)malloc(ncells(d));
    for (int j = 0; j < d->ny; j++)
        for (int i = 0; i < d->nx; i++)
            c->flags[(size_t)j * d->nx + i] =
                j % 2 == 0 || i == (j % 4 == 1 ? d->nx - 1 : 0) ? HOMG_CELL_ACTIVE : HOMG_CELL_SOLID;
}

void island_case_big(island_case *c, int k, homg_rng *rng)
{
    static const int size[6][3] = { { 2048, 2048, 1 }, { 2048, 2048, 1 }, { 128, 128, 128 },
                                    { 1920, 1080, 1 }, { 4096, 4096, 1 }, { 1024, 1024, 1 } };
    homg_grid_desc *d = &c->desc;
    memset(c, 0, sizeof *c);
    d->nx = size[k][0], d->ny = size[k][1], d->nz = size[k][2];
    d->precision = HOMG_FLOAT64;
    for (int s = 0; s < 6; s++)
        d->bc[s] = k == 2 || (k == 3 && s < 2) ? HOMG_BC_PERIODIC : k == 3 ? HOMG_BC_DIRICHLET : HOMG_BC_NEUMANN;
    if (k == 1 || k == 3)
        mask(c, k == 1 ? 0.45 : 0.5, 0, rng);
    else if (k == 2 || k == 4)
        mask(c, k == 2 ? 0.3 : 0.2, k == 2 ? 1e-4 : 0, rng);
    else if (k == 5)
        serpentine(c);
    snprintf(c->name, sizeof c->name, "big case %d: %dx%dx%d", k, d->nx, d->ny, d->nz);
    reference(c);
}

void island_case_free(island_case *c)
{
    free(c->flags);
    free(c->lambda);
    free(c->label);
    free(c->inv);
    memset(c, 0, sizeof *c);
}

static void *upload(homg_ctx *ctx, const void *host, size_t bytes)
{
    void *p = NULL;
    if (!host || homg_alloc(ctx, bytes, &p) != HOMG_OK)
        return NULL;
    homg_copy_from_host(ctx, p, host, bytes);
    return p;
}

static int compare(const island_case *c, const grid_islands *isl, homg_ctx *ctx)
{
    const size_t n = ncells(&c->desc);
    int *label = (int *)malloc(n * sizeof(int)), bad = 0;
    double *inv = (double *)malloc((size_t)(isl->n + 1) * sizeof(double));
    if (isl->n != c->nisl) {
        printf("FAIL %s: %d islands, reference %d\n", c->name, isl->n, c->nisl);
        bad = 1;
    } else if (c->nisl > 0) {
        homg_copy_to_host(ctx, label, isl->label, n * sizeof(int));
        homg_copy_to_host(ctx, inv, isl->inv, (size_t)c->nisl * sizeof(double));
        for (size_t i = 0; i < n && !bad; i++)
            if (label[i] != c->label[i])
                printf("FAIL %s: cell %zu label %d, reference %d\n", c->name, i, label[i], c->label[i]), bad = 1;
        for (int l = 0; l < c->nisl && !bad; l++)
            if (inv[l] != c->inv[l])
                printf("FAIL %s: island %d 1/count %g, reference %g\n", c->name, l, inv[l], c->inv[l]), bad = 1;
    }
    free(label);
    free(inv);
    return bad;
}

int island_case_check(homg_ctx *ctx, const island_case *c)
{
    const size_t n = ncells(&c->desc);
    homg_grid *g = NULL;
    homg_grid_operator op;
    grid_islands isl;
    void *scratch[2] = { NULL, NULL };
    int bad;
    memset(&op, 0, sizeof op);
    memset(&isl, 0, sizeof isl);
    if (homg_grid_create(ctx, &c->desc, &g) != HOMG_OK) {
        printf("FAIL %s: homg_grid_create: %s\n", c->name, homg_ctx_last_error(ctx));
        return 1;
    }
    op.flags = (const unsigned char *)upload(ctx, c->flags, n);
    op.lambda_cell = upload(ctx, c->lambda, n * sizeof(double));
    op.lambda = c->lambda_c;
    homg_alloc(ctx, n * sizeof(int), &scratch[0]);
    homg_alloc(ctx, n * sizeof(int), &scratch[1]);
    bad = homg__grid_islands(g, &op, &isl, scratch[0], scratch[1]) != HOMG_OK;
    if (bad)
        printf("FAIL %s: %s\n", c->name, homg_ctx_last_error(ctx));
    else
        bad = compare(c, &isl, ctx);
    homg__grid_islands_free(g, &isl);
    homg_free(ctx, (void *)op.flags);
    homg_free(ctx, (void *)op.lambda_cell);
    homg_free(ctx, scratch[0]);
    homg_free(ctx, scratch[1]);
    homg_grid_destroy(g);
    return bad;
}

int island_check_classes(homg_ctx *ctx, int ncases, int *with_islands, int *several)
{
    homg_rng rng = homg_rng_seed(20261126);
    int bad = 0;
    *with_islands = *several = 0;
    for (int k = 0; k < ncases; k++) {
        island_case c;
        island_case_make(&c, k, &rng);
        bad += island_case_check(ctx, &c);
        *with_islands += c.nisl > 0;
        *several += c.nisl > 3;
        island_case_free(&c);
    }
    printf("%d cases: %d with singular islands, %d with more than 3\n", ncases, *with_islands, *several);
    return bad;
}

int island_check_big(homg_ctx *ctx, int k0, int k1, int step)
{
    homg_rng rng = homg_rng_seed(7);
    int bad = 0;
    for (int k = k0; k <= k1; k += step) {
        island_case c;
        island_case_big(&c, k, &rng);
        bad += island_case_check(ctx, &c);
        printf("%s: %d islands\n", c.name, c.nisl);
        island_case_free(&c);
    }
    return bad;
}
