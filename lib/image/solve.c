/* solve.c -- the grid under every image call: h = 1 (pixel units), zero-flux
 * (Neumann) sides, one right-hand side per channel, solved from the last
 * solution (warm start). */
#include "image/image_internal.h"

#include <string.h>
#include <time.h>

double homg__image_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

homg_status homg__image_grid_create(homg_ctx *ctx, int gw, int gh, int nrhs, homg_precision precision, int with_flags,
                                    image_grid *g)
{
    homg_grid_desc d;
    size_t n = (size_t)gw * gh, size = precision == HOMG_FLOAT64 ? 8 : 4;
    homg_status st;
    memset(g, 0, sizeof *g);
    if (precision != HOMG_FLOAT32 && precision != HOMG_FLOAT64) /* homg_grid takes float16 too; images do not */
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.precision = %d: HOMG_FLOAT32 or HOMG_FLOAT64",
                          (int)precision);
    memset(&d, 0, sizeof d);
    g->ctx = ctx;
    g->gw = d.nx = gw;
    g->gh = d.ny = gh;
    g->nrhs = d.nrhs = nrhs;
    g->precision = d.precision = precision;
    d.h = 1;
    for (int s = HOMG_SIDE_W; s <= HOMG_SIDE_N; s++)
        d.bc[s] = HOMG_BC_NEUMANN;
    st = homg_grid_create(ctx, &d, &g->grid);
    if (st == HOMG_OK)
        st = homg__alloc_array(ctx, n * nrhs, size, &g->f, "image grid f");
    if (st == HOMG_OK)
        st = homg__alloc_array(ctx, n * nrhs, size, &g->u, "image grid u");
    if (st == HOMG_OK && with_flags)
        st = homg__alloc_array(ctx, n, 1, (void **)&g->flags, "image grid flags");
    if (st == HOMG_OK) /* warm starts read cells no placement has written yet */
        HOMG_TRY_BACKEND(ctx, ctx->mem->zero(&ctx->ex, g->u, n * nrhs * size), "image grid u");
    if (st != HOMG_OK)
        homg__image_grid_destroy(g);
    return st;
}

void homg__image_grid_destroy(image_grid *g)
{
    if (!g->ctx)
        return;
    homg_grid_destroy(g->grid);
    homg__free(g->ctx, g->f);
    homg__free(g->ctx, g->u);
    homg__free(g->ctx, g->flags);
    memset(g, 0, sizeof *g);
}

homg_status homg__image_grid_solve(image_grid *g, double lambda, const image_solve *s, homg_image_info *info)
{
    homg_grid_operator op;
    homg_boundary bc;
    homg_solve_desc sd;
    homg_solve_info si;
    homg_status st;
    memset(&op, 0, sizeof op);
    memset(&bc, 0, sizeof bc);
    memset(&sd, 0, sizeof sd);
    memset(&si, 0, sizeof si);
    op.lambda = lambda;
    op.flags = g->flags;
    op.skip_check = 1;
    op.no_islands = g->no_islands;
    if (!g->op_ready)
        HOMG_TRY(homg_grid_set_operator(g->grid, &op));
    g->op_ready = 1;
    sd.tol = s->tol < 0 ? 0 : s->tol;
    sd.max_cycles = s->max_cycles;
    sd.warm_start = 1;
    sd.skip_input_check = 1;
    st = homg_grid_solve(g->grid, g->f, &bc, g->u, &sd, &si);
    if (info) {
        info->cycles = si.cycles;
        info->residual = si.norm;
        info->grid_nx = g->gw;
        info->grid_ny = g->gh;
    }
    return st;
}
