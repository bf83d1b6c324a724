/* box.c -- the power-of-two 2D Dirichlet box with constant coefficients, the
 * problem the original solvers run with their own kernels: its level hierarchy,
 * input checks, and the solve driver that queues cycles (captured into CUDA
 * graphs on the CUDA backend) and monitors convergence: with a tolerance the
 * cycles loop on the device (a conditional node of the graph, one host read after
 * the solve), or on the host with one read a cycle (CPU backend).
 *
 * The discrete problem (see also lib/homg.h and kernels/grid/grid_kernels.h):
 *   -sigma Laplace(u) + lambda u = f on [0, nx h] x [0, ny h], cell-centred
 *   unknowns u_ij at ((i+1/2)h, (j+1/2)h), 5-point stencil, Dirichlet values g on
 *   the cell faces through the ghost value 2g - u_edge; the constant sigma enters
 *   as the levels' inv_h2 = sigma/h^2.  It is second-order accurate: the error
 *   against a smooth analytic solution falls as O(h^2) (tests/test_grid.c). */
#include "grid_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The exact coarsest solve's tables (setup_coarse_exact). */
static void free_coarse_exact(homg_grid *g)
{
    void **p[] = { &g->coarse_qx, &g->coarse_qy, &g->coarse_inv_eig, &g->coarse_qxt, &g->coarse_qyt, &g->coarse_w };
    for (size_t k = 0; k < sizeof p / sizeof p[0]; k++) {
        homg__free(g->ctx, *p[k]);
        *p[k] = NULL;
    }
}

void homg__box_free(homg_grid *g)
{
    for (int k = 0; k < HOMG_GRID_MAX_LEVELS; k++) {
        homg__free(g->ctx, g->u[k]);
        homg__free(g->ctx, g->f[k]);
        homg__free(g->ctx, g->fm[k]);
        homg__free(g->ctx, g->u2[k]);
        for (int s = 0; s < 4; s++)
            homg__free(g->ctx, g->gbc[k][s]);
    }
    homg__free(g->ctx, g->r);
    homg__free(g->ctx, g->ea);
    homg__free(g->ctx, g->eb);
    homg__free(g->ctx, g->ta);
    homg__free(g->ctx, g->u0_scratch);
    free_coarse_exact(g);
    homg__grid_graphs_drop(g);
}

/* Orthonormal sine basis of the cell-centred Dirichlet operator on n cells,
 * q[i*n + k] = c_k sin(pi (k+1) (i+1/2) / n), and its eigenvalues (4/h^2) sin^2(pi (k+1) / (2n)). */
void homg__grid_sine_basis(int n, double h, double *q, double *eig)
{
    const double pi = 3.14159265358979323846;
    for (int k = 0; k < n; k++) {
        double c = sqrt((k == n - 1 ? 1.0 : 2.0) / n), sk = sin(pi * (k + 1) / (2.0 * n));
        if (eig) /* eig NULL: the basis alone; q NULL: the eigenvalues alone */
            eig[k] = 4.0 / (h * h) * sk * sk;
        for (int i = 0; q && i < n; i++)
            q[i * n + k] = c * sin(pi * (k + 1) * (i + 0.5) / n);
    }
}

/* Uploads n doubles in the grid's precision, into *out where it is allocated already (the
 * same n), else into a new allocation. */
static homg_status upload(homg_grid *g, const double *x, size_t n, void **out, const char *what)
{
    void *host = homg__host_alloc(g->ctx, n * g->elem, what);
    homg_status st;
    if (!host)
        return HOMG_ERROR_OUT_OF_MEMORY;
    for (size_t k = 0; k < n; k++) {
        if (g->elem == sizeof(double))
            ((double *)host)[k] = x[k];
        else
            ((float *)host)[k] = (float)x[k];
    }
    st = *out ? HOMG_OK : homg__alloc(g->ctx, n * g->elem, out, what);
    if (st == HOMG_OK) {
        st = g->ctx->mem->copy(&g->ctx->ex, *out, host, n * g->elem, HOMG_H2D);
        if (st != HOMG_OK)
            homg__backend_fail(g->ctx, st, what);
    }
    free(host);
    return st;
}

/* The coarsest level's 1 / (ex + ey + lambda), into the existing table where there is one: a
 * new constant sigma or lambda changes these alone, not the bases (s15: rebuilding every
 * table cost a moved obstacle's set_operator ~0.8 ms on the H100 once the level was 128^2). */
static homg_status upload_inv_eig(homg_grid *g)
{
    const grid_level *L = &g->lv[g->nlevels - 1];
    double h = 1.0 / sqrt(L->inv_h2), ex[HOMG_EXACT_WIDE_MAX], ey[HOMG_EXACT_WIDE_MAX];
    double *inv = malloc((size_t)L->nx * L->ny * sizeof(double));
    homg_status st;
    if (!inv)
        return HOMG_ERROR_OUT_OF_MEMORY;
    homg__grid_sine_basis(L->nx, h, NULL, ex);
    homg__grid_sine_basis(L->ny, h, NULL, ey);
    for (int ky = 0; ky < L->ny; ky++)
        for (int kx = 0; kx < L->nx; kx++)
            inv[ky * L->nx + kx] = 1.0 / (ex[kx] + ey[ky] + L->lambda);
    st = upload(g, inv, (size_t)L->nx * L->ny, &g->coarse_inv_eig, "coarse solver");
    free(inv);
    return st;
}

/* A new constant sigma or lambda: the levels' inv_h2 and lambda, and the coarsest
 * level's eigenvalues (a small upload). */

homg_status homg__box_set_constants(homg_grid *g)
{
    double h = g->desc.h;
    homg__grid_graphs_drop(g); /* graphs hold the levels' constants */
    for (int k = 0; k < g->nlevels; k++, h *= 2) {
        g->lv[k].inv_h2 = g->sigma / (h * h);
        g->lv[k].lambda = g->lambda;
    }
    return g->coarse_inv_eig ? upload_inv_eig(g) : HOMG_OK;
}

/* The exact solver of the coarsest level (kernels/grid/grid_kernels.h): coarse_exact's
 * qx, qy, inv_eig up to HOMG_COARSE_EXACT_MAX a side, above it exact_wide's, which add the
 * transposed bases and a scratch level. */
static homg_status setup_coarse_exact(homg_grid *g)
{
    const grid_level *L = &g->lv[g->nlevels - 1];
    const int nx = L->nx, ny = L->ny, wide = nx > HOMG_COARSE_EXACT_MAX || ny > HOMG_COARSE_EXACT_MAX;
    const size_t n2 = (size_t)HOMG_EXACT_WIDE_MAX * HOMG_EXACT_WIDE_MAX;
    double h = 1.0 / sqrt(L->inv_h2);
    double *qx = malloc(3 * n2 * sizeof(double)), *qy = qx + n2, *t = qy + n2;
    homg_status st = HOMG_OK;
    if (!qx)
        return HOMG_ERROR_OUT_OF_MEMORY;
    homg__grid_sine_basis(nx, h, qx, NULL);
    homg__grid_sine_basis(ny, h, qy, NULL);
    st = upload(g, qx, (size_t)nx * nx, &g->coarse_qx, "coarse solver");
    if (st == HOMG_OK)
        st = upload(g, qy, (size_t)ny * ny, &g->coarse_qy, "coarse solver");
    if (st == HOMG_OK)
        st = upload_inv_eig(g);
    for (int a = 0; wide && a < 2 && st == HOMG_OK; a++) { /* the transposes */
        const int n = a ? ny : nx;
        const double *q = a ? qy : qx;
        for (int i = 0; i < n; i++)
            for (int k = 0; k < n; k++)
                t[k * n + i] = q[i * n + k];
        st = upload(g, t, (size_t)n * n, a ? &g->coarse_qyt : &g->coarse_qxt, "coarse solver");
    }
    if (wide && st == HOMG_OK)
        st = homg__alloc(g->ctx, (size_t)nx * ny * g->elem, &g->coarse_w, "coarse solver");
    free(qx);
    return st;
}

/* The fused cycles' sweeps per level (HOMG_BOX_SCHED, overridden by the environment variable
 * of that name, the benchmark's knob): "first;later" or one plan for every cycle, each
 * "PQ,PQ,..." = V(P, Q) on level 0, 1, ... (digits 0-3, what the fused steps take; the last
 * pair repeats down to the coarsest); "0": desc.pre / desc.post on every level.  The default,
 * V(2,1) on every level, is float32's alone: on the H100 it reaches 1e-4 from zero in the same
 * 3 cycles as V(2,2) (errors 1.7e-5 / 2.1e-5 / 2.3e-5 / 2.3e-5 against 9.3e-6 / 2.3e-5 /
 * 2.8e-5 / 3.1e-5) in 0.0764 / 0.1687 / 0.3438 / 0.8883 ms against 0.0831 / 0.1869 / 0.3747 /
 * 0.9651 at 256^2 / 1024^2 / 2048^2 / 4096^2, the warm 1024^2 frame 0.0555 against 0.0615
 * (bench/results/h100.md, Session 12 twod3); float64 would need a 7th cycle to 1e-8 where
 * V(2,2) takes 6 (CPU, bench/results/cpu_box_schedules.md), so it keeps V(2,2). */
#define HOMG_BOX_SCHED_DEFAULT "21"

/* Float32's plan by the finest level's cells since the exact coarse level is 128^2 (s15-twod7):
 * with it two cycles of V(2,2) reach 1e-4 at 256^2 (error 6.5e-5: 0.0415 ms against V(2,1)'s
 * three, 0.0596) and two of V(3,2) at 512^2 (7.8e-5: 0.0826 against 0.0964); from 1024^2 the
 * 3-sweep steps cost more than the cycle they save (V(3,2): 0.1617 against 0.1473), so V(2,1)
 * (H100, bench/results/h100.md "Session 15 lead: sweep plans"). */
static const char *default_plan(const homg_grid *g)
{
    long cells = (long)g->desc.nx * g->desc.ny;
    if (g->desc.precision != HOMG_FLOAT32)
        return "0";
    return cells <= 256L * 256 ? "22" : cells <= 512L * 512 ? "32" : HOMG_BOX_SCHED_DEFAULT;
}

/* The plan applies to the default V(2, 2) alone (a caller's desc.pre / desc.post stand). */
static void plan_sweeps(homg_grid *g)
{
    const char *env = homg__knob_text("HOMG_BOX_SCHED");
    const char *plan = env && *env ? env : default_plan(g);
    g->planned = g->run == HOMG_METHOD_FMG && g->desc.pre == 2 && g->desc.post == 2 &&
                 homg__sweep_plan_parse(plan, '0', '3', HOMG_GRID_MAX_LEVELS, g->plan[0][0], g->plan[1][0]);
}

/* The mid step (a cycle boundary in one pass) from this many cells: on the H100 (h100.md,
 * Session 14 twod5; V(2,1), 3 cycles, two boundaries fused) the solve took 0.8493 ms against
 * 0.8849 with the two steps at 4096^2, 0.3344 against 0.3403 at 2048^2, but 0.1685 against
 * 0.1643 at 1024^2 (L2-resident: the bytes saved do not pay for the wider halos' sweeps). */
#define HOMG_BOX_MID_CELLS (2048.0 * 2048)

/* The CUDA fused steps' launch choices (grid_kernels.h grid_tune), each overridden by the
 * environment variable of its name (the benchmark's and the GPU tests' knobs), given to every
 * level. */
static void read_tune(homg_grid *g)
{
    grid_tune *t = &g->tune;
    *t = homg_grid_tune_default();
    t->owned_cells = homg__knob("HOMG_BOX_OWNED_CELLS", t->owned_cells);
    t->wide_cells = homg__knob("HOMG_BOX_WIDE_CELLS", t->wide_cells);
    t->tile_cells = homg__knob("HOMG_BOX_TILE_CELLS", t->tile_cells);
    t->rows_cells = homg__knob("HOMG_BOX_ROWS_CELLS", t->rows_cells);
    t->rows_t = (int)homg__knob("HOMG_BOX_ROWS_T", t->rows_t);
    t->rows_mid_t = (int)homg__knob("HOMG_BOX_ROWS_MID_T", t->rows_mid_t);
    t->pdl = homg__knob("HOMG_BOX_PDL", 1) != 0;
    for (int k = 0; k < g->nlevels; k++)
        g->lv[k].tune = t;
}

/* HOMG_BOX_EXACT_MAX's default by the finest level's longer side (grid_internal.h). */
static int exact_max_default(const homg_grid_desc *d)
{
    const int n = d->nx > d->ny ? d->nx : d->ny;
    return n <= HOMG_BOX_EXACT_WIDE_TOP ? HOMG_EXACT_WIDE_MAX : HOMG_BOX_EXACT_MAX;
}

/* exact_wide's launch shape, read once: rows a block by precision (grid_internal.h: float64's
 * four rows are two vector reads a term and 64 registers, two rows measured faster), ranges a
 * sum; each overridden by the environment variable of its name (the benchmark's knobs). */
static void read_exact_shape(homg_grid *g)
{
    const int rows = g->desc.precision == HOMG_FLOAT64 ? HOMG_BOX_EXACT_ROWS_F64 : HOMG_BOX_EXACT_ROWS;
    g->exact_rows = (int)homg__knob("HOMG_BOX_EXACT_ROWS", rows);
    g->exact_split = (int)homg__knob("HOMG_BOX_EXACT_SPLIT", HOMG_BOX_EXACT_SPLIT);
}

/* Whether level k (nx x ny) is the exact solve's: both sides at most exact_max, and for the
 * finest level at most the one-block solve's 32 (a wider finest level stays a multigrid
 * cycle, not a dense solve of the whole problem). */
static int exact_fits(const homg_grid *g, int k, int nx, int ny)
{
    const int m = k == 0 && g->exact_max > HOMG_COARSE_EXACT_MAX ? HOMG_COARSE_EXACT_MAX : g->exact_max;
    return nx <= m && ny <= m;
}

homg_status homg__box_alloc(homg_grid *g)
{
    const homg_grid_desc *d = &g->desc;
    double h = d->h;
    int nx = d->nx, ny = d->ny;

    /* the multigrid hierarchy down to a level the exact solver takes (exact_fits), or to a
     * smallest side of 2 for long rectangles */
    g->exact_max = (int)homg__knob("HOMG_BOX_EXACT_MAX", exact_max_default(d));
    if (g->exact_max < 2 || g->exact_max > HOMG_EXACT_WIDE_MAX)
        g->exact_max = exact_max_default(d);
    g->nlevels = 0;
    for (;;) {
        grid_level *L = &g->lv[g->nlevels];
        L->nx = nx;
        L->ny = ny;
        L->inv_h2 = g->sigma / (h * h);
        L->lambda = g->lambda;
        g->nlevels++;
        if (exact_fits(g, g->nlevels - 1, nx, ny) || nx == 2 || ny == 2 || g->nlevels == HOMG_GRID_MAX_LEVELS)
            break;
        nx /= 2;
        ny /= 2;
        h *= 2;
    }
    g->fused_min = homg__knob("HOMG_BOX_FUSED_CELLS", HOMG_BOX_FUSED_CELLS);
    plan_sweeps(g);
    /* A fixed sequence's cycle boundaries on the finest level as one pass each (cycles.c
     * homg__mg_sequence; HOMG_BOX_MID=0: the two steps, the benchmark's A/B knob), float32
     * from HOMG_BOX_MID_CELLS cells on every backend, so that both run the same steps. */
    g->fuse_mid = homg__knob("HOMG_BOX_MID", 1) != 0;
    g->mid_min = homg__knob("HOMG_BOX_MID_CELLS", HOMG_BOX_MID_CELLS);
    read_tune(g);
    read_exact_shape(g);
    if (d->method != HOMG_METHOD_HOMG) {
        for (int k = 1; k < g->nlevels; k++) {
            size_t bytes = (size_t)g->lv[k].nx * g->lv[k].ny * g->elem;
            HOMG_TRY(homg__alloc(g->ctx, bytes, &g->u[k], "multigrid level"));
            HOMG_TRY(homg__alloc(g->ctx, bytes, &g->f[k], "multigrid level"));
            if (g->run == HOMG_METHOD_FMG)
                HOMG_TRY(homg__alloc(g->ctx, bytes, &g->u2[k], "multigrid level"));
            for (int s = 0; s < 4; s++)
                HOMG_TRY(homg__alloc(g->ctx, (size_t)(s < 2 ? g->lv[k].ny : g->lv[k].nx) * g->elem, &g->gbc[k][s],
                                     "multigrid level boundary"));
        }
        if (g->run == HOMG_METHOD_FMG)
            HOMG_TRY(homg__alloc(g->ctx, (size_t)d->nx * d->ny * g->elem, &g->u0_scratch, "finest level"));
        if (exact_fits(g, g->nlevels - 1, nx, ny))
            HOMG_TRY(setup_coarse_exact(g));
    } else {
        HOMG_TRY(homg__homg_alloc(g));
    }
    return HOMG_OK;
}

/* ------------------------------------------------------------ queued cycles */

/* Queues one cycle of kind `kind`, then the monitor when asked and a tolerance solve's
 * test (loop: the condition of the device loop it ends, 0 for none). */
static homg_status queue_cycle(homg_grid *g, const homg_seq_key *key, const grid_level *L0, int kind,
                               unsigned long long loop)
{
    kernel_exec *ex = &g->ctx->ex;
    if (g->run == HOMG_METHOD_HOMG)
        HOMG_TRY(homg__homg_restart(g, L0, key->f, (void *)key->u));
    else
        HOMG_TRY(homg__mg_cycle(g, L0, key->f, (void *)key->u, kind));
    if (key->monitor) {
        HOMG_TRY_BACKEND(
            g->ctx,
            g->k->monitor(ex, g->desc.precision, L0, key->u, key->f, key->u_ref, g->scratch, g->hist, g->hist_count),
            "monitor");
        homg__account(g, 2, 1, 2.0 * L0->nx * L0->ny);
    }
    if (key->check) {
        HOMG_TRY_BACKEND(g->ctx,
                         g->k->tol_check(ex, g->hist, g->hist_count, key->tol, key->check, loop, g->scratch + 2),
                         "convergence test");
        homg__account(g, 1, 0, 0);
    }
    return HOMG_OK;
}

/* A tolerance solve on the device: the first cycle and its test, then the others in a
 * loop whose condition the test sets, up to key->count cycles; the host reads the
 * outcome once, after the graph. */
static homg_status queue_loop(homg_grid *g, const homg_seq_key *key, const grid_level *L0)
{
    kernel_exec *ex = &g->ctx->ex;
    unsigned long long loop;
    homg_count before;
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->loop_handle(ex, &loop), "loop condition");
    HOMG_TRY(queue_cycle(g, key, L0, key->first_kind, loop));
    before = homg__counted(g);
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->loop_begin(ex, loop), "loop");
    HOMG_TRY(queue_cycle(g, key, L0, HOMG_CYCLE_NORMAL, loop));
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->loop_end(ex), "loop");
    g->body.all = homg__counted_since(g, before);
    return HOMG_OK;
}

typedef struct box_seq {
    const homg_seq_key *key;
    const grid_level *L0;
} box_seq;

/* Queues key->count cycles (the first of kind first_kind), or a device loop. */
static homg_status queue_box(homg_grid *g, void *arg)
{
    const box_seq *b = (const box_seq *)arg;
    if (b->key->loop)
        return queue_loop(g, b->key, b->L0);
    if (g->run != HOMG_METHOD_HOMG && !b->key->monitor && !b->key->check) /* nothing reads u between cycles */
        return homg__mg_sequence(g, b->L0, b->key->f, (void *)b->key->u, b->key->count, b->key->first_kind);
    for (int c = 0; c < b->key->count; c++)
        HOMG_TRY(queue_cycle(g, b->key, b->L0, c == 0 ? b->key->first_kind : HOMG_CYCLE_NORMAL, 0));
    return HOMG_OK;
}

/* Runs a sequence: replays its graph when one was captured for the same key,
 * captures one on the CUDA backend, runs it directly on the CPU. */
static homg_status run_sequence(homg_grid *g, const homg_seq_key *key, const grid_level *L0)
{
    box_seq b;
    b.key = key;
    b.L0 = L0;
    return homg__grid_graph_run(g, key, queue_box, &b);
}

/* FMG starts with a full-multigrid cycle when it starts from zero; a planned solve's first
 * plain cycle takes the plan's first row (a cycle kind, and so a graph, of its own only where
 * the rows differ). */
static int first_kind(const homg_grid *g, const homg_solve_desc *sd, int cycle)
{
    if (cycle != 0)
        return HOMG_CYCLE_NORMAL;
    if (g->run == HOMG_METHOD_FMG && !sd->warm_start)
        return HOMG_CYCLE_FMG;
    return g->planned && memcmp(g->plan[0], g->plan[1], sizeof g->plan[0]) ? HOMG_CYCLE_FIRST : HOMG_CYCLE_NORMAL;
}

/* A tolerance solve's cycles, until the test stops them: on the device in one graph
 * and one host read, or a graph a cycle with a read after each (CPU, or no loop).
 * out[HOMG_TOL_*]: the last norm, the cycles done. */
static homg_status tolerance_cycles(homg_grid *g, homg_seq_key *key, const grid_level *L0, const homg_solve_desc *sd,
                                    double out[HOMG_TOL_OUT])
{
    key->first_kind = first_kind(g, sd, 0);
    if (homg__grid_device_loop(g)) {
        key->loop = 1;
        key->count = key->check;
        if (run_sequence(g, key, L0) == HOMG_OK) {
            HOMG_TRY(homg__read(g->ctx, out, g->scratch + 2, HOMG_TOL_OUT * sizeof(double)));
            /* the graph counted its loop's body once; the device ran it cycles - 1 times */
            const double extra = out[HOMG_TOL_CYCLES] - 2;
            const homg_count *b = &g->body.all;
            homg__account(g, (long)extra * b->launches, extra * b->wu, extra * b->values_moved);
            return HOMG_OK;
        }
        g->no_device_loop = 1; /* e.g. a driver without conditional graph nodes */
        homg__clear_error(g->ctx);
        key->loop = 0;
    }
    key->count = 1;
    out[HOMG_TOL_GO] = 1;
    for (int c = 0; out[HOMG_TOL_GO] != 0; c++) {
        key->first_kind = first_kind(g, sd, c);
        HOMG_TRY(run_sequence(g, key, L0));
        HOMG_TRY(homg__read(g->ctx, out, g->scratch + 2, HOMG_TOL_OUT * sizeof(double)));
    }
    return HOMG_OK;
}

/* Solves the box problem (arguments already checked by homg_grid_solve). */
homg_status homg__box_solve(homg_grid *g, const void *f, const homg_boundary *bc, void *u, const homg_solve_desc *sd,
                            homg_solve_info *info)
{
    kernel_exec *ex = &g->ctx->ex;
    grid_level L0 = g->lv[0];
    homg_seq_key key;
    const int max_cycles = sd->max_cycles ? sd->max_cycles : 50;
    const int monitor = sd->tol > 0 || sd->u_ref != NULL;
    int cycles = 0, converged = 0;
    double norm = -1;

    if (bc)
        for (int s = 0; s < 4; s++)
            L0.bc[s] = bc->face[s];
    if (!sd->warm_start && g->run != HOMG_METHOD_FMG) {
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(ex, u, (size_t)g->desc.nx * g->desc.ny * g->elem), "zeroing u");
        homg__account(g, 1, 0, (double)g->desc.nx * g->desc.ny);
    }
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(ex, g->hist_count, sizeof(int)), "history");

    memset(&key, 0, sizeof key);
    key.f = f;
    key.u = u;
    key.u_ref = sd->u_ref;
    memcpy(key.bc, L0.bc, sizeof L0.bc);
    key.monitor = monitor;
    if (sd->tol == 0) {
        /* a fixed number of cycles: one graph, no host synchronisation */
        key.first_kind = first_kind(g, sd, 0);
        key.count = max_cycles;
        HOMG_TRY(run_sequence(g, &key, &L0));
        cycles = max_cycles;
        if (sd->u_ref)
            HOMG_TRY(homg__read(g->ctx, &norm, g->hist + cycles - 1, sizeof norm));
    } else {
        double out[HOMG_TOL_OUT];
        key.tol = sd->tol;
        key.check = max_cycles;
        HOMG_TRY(tolerance_cycles(g, &key, &L0, sd, out));
        cycles = (int)out[HOMG_TOL_CYCLES];
        norm = out[HOMG_TOL_NORM];
        if (!isfinite(norm))
            return homg__fail(g->ctx, HOMG_ERROR_NUMERIC, "the monitored norm became %g after cycle %d", norm, cycles);
        converged = norm <= sd->tol;
    }
    if (info) {
        info->cycles = cycles;
        info->norm = norm;
        info->converged = converged;
    }
    if (sd->tol > 0 && !converged)
        return homg__fail(g->ctx, HOMG_ERROR_NOT_CONVERGED, "not converged: norm %.3e > tol %.3e after %d cycles", norm,
                          sd->tol, cycles);
    return HOMG_OK;
}

homg_status homg__box_residual(homg_grid *g, const void *f, const homg_boundary *bc, const void *u, void *r)
{
    grid_level L0;
    homg_status st;
    memset(&L0, 0, sizeof L0);
    L0.nx = g->desc.nx;
    L0.ny = g->desc.ny;
    L0.inv_h2 = g->sigma / (g->desc.h * g->desc.h);
    L0.lambda = g->lambda;
    if (bc)
        for (int s = 0; s < 4; s++)
            L0.bc[s] = bc->face[s];
    st = g->k->residual(&g->ctx->ex, g->desc.precision, &L0, u, f, r);
    return st == HOMG_OK ? HOMG_OK : homg__k_fail(g, st, "homg_grid_residual");
}
