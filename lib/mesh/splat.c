/* splat.c -- homg_mesh_splat: Gaussian sources at a mesh's nodes, computed
 * where the nodes are (kernels/mesh), so a moving source costs one launch per
 * MESH_SPLAT_BATCH splats instead of a host loop and a copy per frame. */
#include "mesh/mesh_internal.h"
#include "mesh/mesh_kernels.h"

#include <math.h>

static homg_status check_splats(homg_ctx *ctx, int dim, const homg_splat *splats, int num_splats)
{
    for (int i = 0; i < num_splats; i++) {
        const homg_splat *s = &splats[i];
        for (int c = 0; c < dim; c++)
            if (!isfinite(s->center[c]))
                return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                                  "homg_mesh_splat: splats[%d].center[%d] is %g, not a finite number", i, c,
                                  s->center[c]);
        if (!(s->width > 0) || !isfinite(s->width))
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                              "homg_mesh_splat: splats[%d].width is %g; it must be positive and finite", i, s->width);
        if (!isfinite(s->amount))
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                              "homg_mesh_splat: splats[%d].amount is %g, not a finite number", i, s->amount);
    }
    return HOMG_OK;
}

static homg_status check_args(homg_mesh *mesh, const homg_splat *splats, int num_splats, homg_precision precision,
                              void *f)
{
    homg_ctx *ctx = mesh->ctx;
    if (num_splats < 0 || (num_splats > 0 && !splats))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_mesh_splat: num_splats is %d with splats %s",
                          num_splats, splats ? "given" : "NULL");
    if (precision != HOMG_FLOAT32 && precision != HOMG_FLOAT64)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_mesh_splat: precision %d is not FLOAT32 or FLOAT64",
                          (int)precision);
    HOMG_TRY(check_splats(ctx, mesh->dim, splats, num_splats));
    return homg__check_pointer(ctx, f, "homg_mesh_splat: f");
}

/* One launch per batch; every batch after the first accumulates. */
static homg_status splat_batches(homg_mesh *mesh, const homg_splat *splats, int num_splats, homg_precision precision,
                                 int accumulate, void *f)
{
    homg_ctx *ctx = mesh->ctx;
    const mesh_kernels *k = HOMG_KERNELS(&ctx->ex, mesh);
    int first = 0;
    do {
        mesh_splats batch = { 0 };
        batch.count = num_splats - first < MESH_SPLAT_BATCH ? num_splats - first : MESH_SPLAT_BATCH;
        for (int i = 0; i < batch.count; i++)
            batch.s[i] = splats[first + i];
        HOMG_TRY_BACKEND(ctx,
                         k->splat(&ctx->ex, mesh->dim, mesh->num_nodes, mesh->ctx_coords, &batch, precision,
                                  accumulate || first > 0, f),
                         "homg_mesh_splat");
        first += batch.count;
    } while (first < num_splats);
    return HOMG_OK;
}

homg_status homg_mesh_splat(homg_mesh *mesh, const homg_splat *splats, int num_splats, homg_precision precision,
                            int accumulate, void *f)
{
    homg_status st;
    int saved;
    if (!mesh)
        return HOMG_ERROR_INVALID_ARGUMENT;
    HOMG_TRY(homg__begin(mesh->ctx, "homg_mesh_splat", !f ? "f" : NULL));
    HOMG_TRY(check_args(mesh, splats, num_splats, precision, f));
    HOMG_TRY(homg_mesh_upload(mesh, NULL));
    HOMG_TRY(homg__enter(mesh->ctx, &saved));
    st = splat_batches(mesh, splats, num_splats, precision, accumulate, f);
    homg__leave(mesh->ctx, saved);
    return st;
}
