/* islands.c -- the singular islands of the general grid's operator, labelled
 * on the device (kernels/grid/island_kernels.h): connected active cells with
 * lambda = 0 that touch no FIXED cell and no Dirichlet side.  The solver
 * projects the right-hand side and the solution per island (general_cycle.c, homg__gen_project).
 * Runs once per homg_grid_set_operator; it waits for the host once per batch of
 * ISLAND_BATCH hooking rounds, the islands' count read with the batch (one wait
 * where the batch reaches the fixed point: 2048^2 with 20% solid discs takes 2-3
 * rounds from the warps' run links). */
#include "grid_internal.h"
#include "grid/island_kernels.h"

#include <string.h>

/* Hooking rounds before giving up: each round at least halves the number of
 * trees along any path in practice; the cap only guards against a defect. */
#define ISLAND_MAX_ROUNDS 4096

static void grid_of(const homg_grid_desc *d, island_grid *ig)
{
    const int n[3] = { d->nx, d->ny, d->nz };
    memset(ig, 0, sizeof *ig);
    ig->nx = d->nx, ig->ny = d->ny, ig->nz = d->nz;
    ig->dims = homg__grid_dims(d);
    for (int a = 0; a < ig->dims; a++)
        ig->periodic[a] = d->bc[2 * a] == HOMG_BC_PERIODIC && n[a] >= 2;
    for (int s = 0; s < 2 * ig->dims; s++)
        ig->dirichlet[s] = d->bc[s] == HOMG_BC_DIRICHLET;
}

/* The work arrays kept between operators (set_operator allocates nothing after the first). */
static homg_status work_alloc(homg_grid *g, size_t n, grid_islands *isl)
{
    size_t nb = (n + ISLAND_SCAN_BLOCK - 1) / ISLAND_SCAN_BLOCK;
    if (!isl->label)
        HOMG_TRY(homg__alloc(g->ctx, n * sizeof(int), (void **)&isl->label, "island labels"));
    if (!isl->bsum)
        HOMG_TRY(homg__alloc(g->ctx, (nb + 1) * sizeof(int), (void **)&isl->bsum, "island work"));
    if (!isl->scal) /* the batch's per-round flags, then the count */
        HOMG_TRY(homg__alloc(g->ctx, (ISLAND_BATCH + 1) * sizeof(int), (void **)&isl->scal, "island work"));
    return HOMG_OK;
}

/* A batch of hooking rounds, each after the first only where the last hooked
 * (scal[r] = round r hooked), then the roots' counts and the singular ones' number
 * (scal[ISLAND_BATCH]); aux zeroed first after the first batch (mark adds to it). */
static homg_status batch(homg_grid *g, const island_kernels *k, const island_grid *ig, const homg_grid_operator *op,
                         int *label, int *aux, int *bsum, int *scal, int first)
{
    kernel_exec *ex = &g->ctx->ex;
    size_t n = (size_t)ig->nx * ig->ny * ig->nz;
    if (!first)
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(ex, aux, n * sizeof(int)), "island labels");
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(ex, scal, (ISLAND_BATCH + 1) * sizeof(int)), "island labels");
    for (int r = 0; r < ISLAND_BATCH; r++) {
        HOMG_TRY_BACKEND(g->ctx, k->hook(ex, ig, op->flags, label, r ? scal + r - 1 : NULL, scal + r), "island labels");
        HOMG_TRY_BACKEND(g->ctx, k->compress(ex, n, label, scal + r), "island labels");
    }
    HOMG_TRY_BACKEND(g->ctx, k->mark(ex, g->desc.precision, ig, op->flags, op->lambda_cell, op->lambda, label, aux),
                     "island labels");
    HOMG_TRY_BACKEND(g->ctx, k->count(ex, n, label, aux, bsum, scal + ISLAND_BATCH), "island labels");
    return HOMG_OK;
}

/* Batches until one ends at the fixed point (its last round hooked nothing); *nisl = the singular islands. */
static homg_status connect(homg_grid *g, const island_kernels *k, const island_grid *ig, const homg_grid_operator *op,
                           grid_islands *isl, int *aux, int *nisl)
{
    for (int b = 0; b * ISLAND_BATCH < ISLAND_MAX_ROUNDS; b++) {
        int got[ISLAND_BATCH + 1];
        HOMG_TRY(batch(g, k, ig, op, isl->label, aux, isl->bsum, isl->scal, b == 0));
        HOMG_TRY(homg__read(g->ctx, got, isl->scal, sizeof got));
        if (!got[ISLAND_BATCH - 1]) {
            *nisl = got[ISLAND_BATCH];
            return HOMG_OK;
        }
    }
    return homg__fail(g->ctx, HOMG_ERROR_BACKEND, "island labels: no fixed point after %d rounds", ISLAND_MAX_ROUNDS);
}

static homg_status reserve(homg_grid *g, grid_islands *isl, int nisl)
{
    if (nisl <= isl->cap)
        return HOMG_OK;
    homg__free(g->ctx, isl->sums);
    homg__free(g->ctx, isl->inv);
    isl->sums = isl->inv = NULL;
    isl->cap = 0;
    HOMG_TRY(homg__alloc(g->ctx, (size_t)nisl * sizeof(double), (void **)&isl->sums, "island sums"));
    HOMG_TRY(homg__alloc(g->ctx, (size_t)nisl * sizeof(double), (void **)&isl->inv, "island sums"));
    isl->cap = nisl;
    return HOMG_OK;
}

static homg_status label(homg_grid *g, const homg_grid_operator *op, grid_islands *isl, int *aux, int *ids)
{
    const island_kernels *k = HOMG_KERNELS(&g->ctx->ex, island);
    kernel_exec *ex = &g->ctx->ex;
    const size_t n = (size_t)g->desc.nx * g->desc.ny * g->desc.nz;
    island_grid ig;
    int nisl = 0;
    grid_of(&g->desc, &ig);
    HOMG_TRY(work_alloc(g, n, isl));
    HOMG_TRY_BACKEND(g->ctx, k->init(ex, &ig, op->flags, isl->label, aux), "island labels");
    HOMG_TRY(connect(g, k, &ig, op, isl, aux, &nisl));
    if (nisl == 0)
        return HOMG_OK;
    HOMG_TRY(reserve(g, isl, nisl));
    HOMG_TRY_BACKEND(g->ctx, k->number(ex, n, isl->label, aux, isl->bsum, ids, isl->inv), "island labels");
    HOMG_TRY_BACKEND(g->ctx, k->relabel(ex, n, aux, ids, isl->label), "island labels");
    isl->n = nisl;
    return HOMG_OK;
}

homg_status homg__grid_islands(homg_grid *g, const homg_grid_operator *op, grid_islands *isl, void *scratch_a,
                               void *scratch_b)
{
    const homg_grid_desc *d = &g->desc;
    const size_t n = (size_t)d->nx * d->ny * d->nz;
    int dirichlet = 0;
    for (int s = 0; s < 2 * homg__grid_dims(d); s++)
        dirichlet |= d->bc[s] == HOMG_BC_DIRICHLET;
    isl->n = 0;
    if (op->no_islands || (!op->lambda_cell && (op->lambda > 0 || (!op->flags && dirichlet)))) /* none singular */
        return HOMG_OK;
    if (n > (size_t)ISLAND_COUNT_MASK) /* labels and counts are ints */
        return homg__fail(g->ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_grid_set_operator: %zu cells with lambda = 0 and Neumann or periodic sides: the island "
                          "labels take at most %d",
                          n, ISLAND_COUNT_MASK);
    return label(g, op, isl, (int *)scratch_a, (int *)scratch_b);
}

void homg__grid_islands_free(homg_grid *g, grid_islands *isl)
{
    homg__free(g->ctx, isl->label);
    homg__free(g->ctx, isl->sums);
    homg__free(g->ctx, isl->inv);
    homg__free(g->ctx, isl->bsum);
    homg__free(g->ctx, isl->scal);
    memset(isl, 0, sizeof *isl);
}
