/* general.c -- multigrid for the general operator (per-cell sigma, lambda and
 * flags, any sizes, 2D and 3D, every side kind): not wired yet. */
#include "grid_internal.h"

homg_status homg__gen_prepare(homg_grid *g)
{
    const homg_grid_desc *d = &g->desc;
    return homg__fail(g->ctx, HOMG_ERROR_UNSUPPORTED,
                      "the grid solves power-of-two 2D Dirichlet boxes with constant coefficients only so far "
                      "(this grid: %d x %d x %d, nrhs %d%s)",
                      d->nx, d->ny, d->nz, d->nrhs, g->op_arrays ? ", per-cell operator arrays" : "");
}

void homg__gen_free(homg_grid *g) { (void)g; }

homg_status homg__gen_set_operator(homg_grid *g, const homg_grid_operator *op)
{
    (void)op;
    return homg__gen_prepare(g);
}

homg_status homg__gen_solve(homg_grid *g, const void *f, const homg_boundary *bc, void *u, const homg_solve_desc *sd,
                            homg_solve_info *info)
{
    (void)f, (void)bc, (void)u, (void)sd, (void)info;
    return homg__gen_prepare(g);
}

homg_status homg__gen_residual(homg_grid *g, const void *f, const homg_boundary *bc, const void *u, void *r)
{
    (void)f, (void)bc, (void)u, (void)r;
    return homg__gen_prepare(g);
}

homg_status homg__check_operator(homg_grid *g, const homg_grid_operator *op)
{
    (void)g, (void)op;
    return HOMG_OK;
}

homg_status homg__check_size(homg_grid *g)
{
    (void)g;
    return HOMG_OK;
}
