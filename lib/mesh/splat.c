/* splat.c -- homg_mesh_splat: Gaussian sources at a mesh's nodes, computed
 * where the nodes are (kernels/mesh), so a moving source costs one launch per
 * SPLAT_BATCH splats instead of a host loop and a copy per frame. */
#include "mesh/mesh_internal.h"
#include "mesh/mesh_kernels.h"

static homg_status check_args(homg_mesh *mesh, const homg_splat *splats, int num_splats, homg_precision precision,
                              void *f)
{
    homg_ctx *ctx = mesh->ctx;
    if (precision != HOMG_FLOAT32 && precision != HOMG_FLOAT64)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_mesh_splat: precision %d is not FLOAT32 or FLOAT64",
                          (int)precision);
    HOMG_TRY(homg__check_splats(ctx, "homg_mesh_splat", mesh->dim, splats, num_splats));
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
        splat_batch batch;
        int next = splat_batch_fill(&batch, splats, num_splats, first);
        HOMG_TRY_BACKEND(ctx,
                         k->splat(&ctx->ex, mesh->dim, mesh->num_nodes, mesh->ctx_coords, &batch, precision,
                                  accumulate || first > 0, f),
                         "homg_mesh_splat");
        first = next;
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
