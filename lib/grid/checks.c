/* checks.c -- what homg_grid_solve checks before it queues anything: pointers,
 * the solve desc, face data on the right sides, and NaN/Inf in f, the warm start
 * and the face data (one scan each, one host read for all); and homg_grid_set_operator's
 * check of the per-cell operator (homg__check_operator, one scan, one read). */
#include "grid_internal.h"
#include "grid/gen_kernels.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static const char *const side_names[6] = { "W", "E", "S", "N", "B", "T" };

/* Values per side per right-hand side (W,E: ny*nz; S,N: nx*nz; B,T: nx*ny). */
size_t homg__face_len(const homg_grid_desc *d, int side)
{
    return side < 2 ? (size_t)d->ny * d->nz : side < 4 ? (size_t)d->nx * d->nz : (size_t)d->nx * d->ny;
}

int homg__grid_dims(const homg_grid_desc *d) { return d->nz > 1 ? 3 : 2; }

homg_status homg__check_solve_args(homg_grid *g, const void *f, const homg_boundary *bc, void *u,
                                   const homg_solve_desc *sd)
{
    HOMG_TRY(homg__check_pointer(g->ctx, f, "f"));
    HOMG_TRY(homg__check_pointer(g->ctx, u, "u"));
    if (f == u)
        return homg__fail(g->ctx, HOMG_ERROR_INVALID_ARGUMENT, "f and u are the same array");
    /* the CUDA kernels move pairs of values: cudaMalloc'd pointers always qualify */
    if (((uintptr_t)f | (uintptr_t)u) % (2 * g->elem))
        return homg__fail(g->ctx, HOMG_ERROR_INVALID_ARGUMENT, "f and u must be aligned to %zu bytes (f = %p, u = %p)",
                          2 * g->elem, f, u);
    if (bc) {
        for (int s = 0; s < 6; s++) {
            if (!bc->face[s])
                continue;
            if (s >= 2 * homg__grid_dims(&g->desc))
                return homg__fail(g->ctx, HOMG_ERROR_INVALID_ARGUMENT,
                                  "bc.face[%d] (%s) is set but the grid is 2D (nz = 1): B and T take NULL", s,
                                  side_names[s]);
            if (g->desc.bc[s] == HOMG_BC_PERIODIC)
                return homg__fail(g->ctx, HOMG_ERROR_INVALID_ARGUMENT,
                                  "bc.face[%d] (%s) is set but that side is periodic (it takes NULL)", s,
                                  side_names[s]);
            HOMG_TRY(homg__check_pointer(g->ctx, bc->face[s], "bc.face"));
        }
    }
    if (sd->u_ref)
        HOMG_TRY(homg__check_pointer(g->ctx, sd->u_ref, "desc.u_ref"));
    if (sd->max_cycles < 0 || sd->max_cycles > HOMG_GRID_HIST_MAX)
        return homg__fail(g->ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.max_cycles = %d: must be 1..%d", sd->max_cycles,
                          HOMG_GRID_HIST_MAX);
    if (!(sd->tol >= 0) || !isfinite(sd->tol))
        return homg__fail(g->ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.tol = %g: must be finite and >= 0", sd->tol);
    return HOMG_OK;
}

/* NaN/Inf in f, the warm start (when read) and the face data: one scan each, one
 * host read; the message names the array and the first bad (i, j, k). */
homg_status homg__check_solve_values(homg_grid *g, const void *f, const homg_boundary *bc, const void *u, int check_u)
{
    kernel_exec *ex = &g->ctx->ex;
    const homg_grid_desc *d = &g->desc;
    const size_t n = (size_t)d->nx * d->ny * d->nz, nr = (size_t)d->nrhs;
    long long flags[HOMG_GRID_CHECK_FLAGS];
    const void *arr[8] = { f, check_u ? u : NULL };
    size_t len[8] = { n * nr, n * nr };
    for (int s = 0; s < 6; s++) {
        arr[2 + s] = bc ? bc->face[s] : NULL;
        len[2 + s] = homg__face_len(d, s) * nr;
    }
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(ex, g->flags, 8 * sizeof(long long)), "input check");
    for (int a = 0; a < 8; a++)
        if (arr[a])
            HOMG_TRY_BACKEND(g->ctx,
                             d->precision == HOMG_FLOAT16 /* the grid kernels take float or double */
                                 ? HOMG_KERNELS(ex, gen)->nonfinite_h(ex, len[a], arr[a], &g->flags[a])
                                 : g->k->find_nonfinite(ex, d->precision, len[a], arr[a], &g->flags[a]),
                             "input check");
    HOMG_TRY(homg__read(g->ctx, flags, g->flags, 8 * sizeof(long long)));
    for (int a = 0; a < 8; a++)
        if (flags[a]) {
            long long k = flags[a] - 1;
            if (a < 2) {
                long long c = k % (long long)n;
                return homg__fail(g->ctx, HOMG_ERROR_INVALID_ARGUMENT,
                                  "%s is not finite at (i, j, k) = (%lld, %lld, %lld) of rhs %lld (index %lld)",
                                  a == 0 ? "f" : "u (warm start)", c % d->nx, c / d->nx % d->ny, c / d->nx / d->ny,
                                  k / (long long)n, k);
            }
            return homg__fail(g->ctx, HOMG_ERROR_INVALID_ARGUMENT, "bc.face[%d] (%s) is not finite at index %lld",
                              a - 2, side_names[a - 2], k);
        }
    return HOMG_OK;
}

homg_status homg__check_operator(homg_grid *g, const homg_grid_operator *op)
{
    static const char *const names[3] = { "op.sigma_cell", "op.lambda_cell", "op.flags" };
    static const char *const what[3] = { "must be finite and > 0", "must be finite and >= 0",
                                         "is not a HOMG_CELL_* value (0 active, 1 fixed, 2 solid)" };
    const gen_kernels *k = HOMG_KERNELS(&g->ctx->ex, gen);
    const homg_grid_desc *d = &g->desc;
    const size_t n = (size_t)d->nx * d->ny * d->nz;
    long long bad[5];
    if (op->sigma_cell)
        HOMG_TRY(homg__check_pointer(g->ctx, op->sigma_cell, "op.sigma_cell"));
    if (op->lambda_cell)
        HOMG_TRY(homg__check_pointer(g->ctx, op->lambda_cell, "op.lambda_cell"));
    if (op->flags)
        HOMG_TRY(homg__check_pointer(g->ctx, op->flags, "op.flags"));
    if (!op->sigma_cell)
        g->sigma_jump = 0;
    if (!op->flags)
        g->solid_cells = 0;
    if (op->skip_check || (!op->sigma_cell && !op->lambda_cell && !op->flags))
        return HOMG_OK; /* skip_check: sigma_jump stays what the last check found */
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(&g->ctx->ex, g->flags, 5 * sizeof(long long)), "operator check");
    HOMG_TRY_BACKEND(
        g->ctx, k->check_operator(&g->ctx->ex, d->precision, n, op->sigma_cell, op->lambda_cell, op->flags, g->flags),
        "operator check");
    HOMG_TRY(homg__read(g->ctx, bad, g->flags, sizeof bad));
    if (op->sigma_cell)
        g->sigma_jump = bad[3] != 0;
    if (op->flags)
        g->solid_cells = bad[4] != 0;
    for (int a = 0; a < 3; a++)
        if (bad[a]) {
            long long c = bad[a] - 1;
            return homg__fail(g->ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s at index %lld (i, j, k) = (%lld, %lld, %lld) %s",
                              names[a], c, c % d->nx, c / d->nx % d->ny, c / ((long long)d->nx * d->ny), what[a]);
        }
    return HOMG_OK;
}
