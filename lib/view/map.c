/* map.c -- the MAP path: the GL object registered with CUDA once; each write
 * maps it on the ctx's stream, writes into it (a texture through a surface
 * object of its array, a buffer through its pointer) and unmaps it.  Mapping
 * makes CUDA wait for GL's work (all of it: cudaGraphicsMapResources orders
 * after every GL command issued before it) and unmapping makes GL wait for
 * CUDA.  On the H100 each of those two waits costs ~0.17 ms of GPU time
 * (bench_view F: a map + unmap pair with GL idle 0.33 ms, while CUDA and GL
 * work with nothing shared alternate for ~0.01 ms).
 * HOMG_VIEW_MAP_SIDE=1 (a measurement, not a default) writes into staging
 * memory on the ctx's stream and maps, copies and unmaps on the view's own
 * stream, so the ctx's stream never waits on GL: on the H100 that is far
 * slower (bench_view D: 2.6 ms a frame against 0.59 in place; cause not
 * measured, presumably a stream blocked on GL's semaphore keeps the CUDA
 * context on the GPU until its time slice ends). */
#include "view/view_internal.h"

#include <stdlib.h>

#if HOMG_HAVE_GL

static int side_wanted(void)
{
    const char *env = getenv("HOMG_VIEW_MAP_SIDE");
    return env && atoi(env) == 1;
}

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
    if (!side_wanted())
        return HOMG_OK;
    HOMG_TRY(homg__alloc(ctx, (size_t)v->width * (image ? v->height : 1) * v->elem, &v->staging,
                         "homg_view_create: staging memory"));
    HOMG_TRY_BACKEND(ctx, v->k->side_create(&ctx->ex, &v->side), "homg_view_create: the view's stream");
    return HOMG_OK;
}

/* The kernels into staging on the ctx's stream, then map, copy, unmap on the side stream. */
static homg_status side_write(homg_view *v, const view_src *src, view_dst *dst)
{
    homg_ctx *ctx = v->ctx;
    size_t bytes = 0;
    homg_status st;
    int image = v->desc.target == HOMG_VIEW_TEXTURE_2D;
    HOMG_TRY_BACKEND(ctx, v->k->side_wait(&ctx->ex, v->side), "homg_view_write: waiting for the last copy");
    dst->ptr = v->staging;
    dst->surface = 0;
    HOMG_TRY(homg__view_run(v, src, dst));
    st = v->k->gl_map_copy(&ctx->ex, v->side, v->resource, image, v->staging, src->w, src->h, (int)v->elem, &bytes);
    if (st == HOMG_ERROR_INVALID_ARGUMENT)
        return homg__fail(ctx, st,
                          "homg_view_write: the mapped buffer holds %zu bytes, %zu needed (was it re-specified?)",
                          bytes, (size_t)src->w * src->h * v->elem);
    HOMG_TRY_BACKEND(ctx, st, "homg_view_write: map, copy, unmap");
    return HOMG_OK;
}

homg_status homg__view_map_write(homg_view *v, const view_src *src, view_dst *dst)
{
    homg_ctx *ctx = v->ctx;
    size_t bytes = 0;
    homg_status st;
    int image = v->desc.target == HOMG_VIEW_TEXTURE_2D;
    if (v->side)
        return side_write(v, src, dst);
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
    v->k->side_destroy(v->side); /* its last unmap first */
    v->side = NULL;
    homg__free(v->ctx, v->staging);
    v->staging = NULL;
    v->k->gl_unregister(v->resource);
    v->resource = NULL;
    if (v->owned && v->object) {
        v->gl.DeleteBuffers(1, &v->object);
        v->object = 0;
    }
}

#endif
