/* map.c -- the MAP path: the GL object registered with CUDA once; each write
 * maps it on the ctx's stream, writes into it (a texture through a surface
 * object of its array, a buffer through its pointer) and unmaps it.  Mapping
 * makes CUDA wait for GL's work (all of it: cudaGraphicsMapResources orders
 * after every GL command issued before it) and unmapping makes GL wait for
 * CUDA.  On the H100 each of those two waits costs ~0.17 ms of GPU time
 * (bench_view F: a map + unmap pair with GL idle 0.33 ms, while CUDA and GL
 * work with nothing shared alternate for ~0.01 ms).
 * (A variant that mapped, copied and unmapped on a side stream of the view, so
 * the ctx's stream never waited on GL, made a pipelined heat frame 2.6 ms
 * against 0.59 in place on the H100 and was removed: bench/results/h100_view.md.) */
#include "view/view_internal.h"

#if HOMG_HAVE_GL

homg_status homg__view_map_init(homg_view *v)
{
    homg_ctx *ctx = v->ctx;
    int image = v->desc.target == HOMG_VIEW_TEXTURE_2D;
    if (v->owned)
        HOMG_TRY(homg__view_gl_new_buffer(v, (size_t)v->width * v->elem, &v->object));
    HOMG_TRY_BACKEND(ctx, v->k->gl_register(&ctx->ex, v->object, image, &v->resource),
                     image ? "homg_view_create: registering the texture with CUDA"
                           : "homg_view_create: registering the buffer with CUDA");
    v->info.host_waits = 1;
    return HOMG_OK;
}

homg_status homg__view_map_write(homg_view *v, const view_src *src, view_dst *dst)
{
    homg_ctx *ctx = v->ctx;
    size_t bytes = 0;
    homg_status st;
    int image = v->desc.target == HOMG_VIEW_TEXTURE_2D;
    HOMG_TRY_BACKEND(ctx, v->k->gl_map(&ctx->ex, v->resource, image, dst, &bytes), "homg_view_write: mapping");
    if (!image && bytes < (size_t)src->w * src->h * v->elem)
        st = homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                        "homg_view_write: the mapped buffer holds %zu bytes, %zu needed (was it re-specified?)", bytes,
                        (size_t)src->w * src->h * v->elem);
    else
        st = homg__view_run(v, src, dst);
    if (v->k->gl_unmap(&ctx->ex, v->resource, dst) != HOMG_OK && st == HOMG_OK)
        st = homg__backend_fail(ctx, HOMG_ERROR_BACKEND, "homg_view_write: unmapping");
    return st;
}

void homg__view_map_fini(homg_view *v)
{
    v->k->gl_unregister(v->resource);
    v->resource = NULL;
    if (v->owned && v->object) {
        v->gl.DeleteBuffers(1, &v->object);
        v->object = 0;
    }
}

#endif
