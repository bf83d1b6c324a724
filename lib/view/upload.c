/* upload.c -- the UPLOAD path: the write kernel's output reaches GL through host
 * memory (glTexSubImage2D / glBufferSubData).  On the CPU backend the kernel
 * writes host memory directly; on CUDA it writes a device staging buffer that
 * is copied to the host first (a host wait, as the path's name says). */
#include "view/view_internal.h"

#include <stdlib.h>

#if HOMG_HAVE_GL

homg_status homg__view_upload_init(homg_view *v)
{
    size_t bytes = (size_t)v->width * v->height * v->elem;
    if (v->owned)
        HOMG_TRY(homg__view_gl_new_buffer(v, bytes, &v->object));
    v->staging_host = homg__host_alloc(v->ctx, bytes, "homg_view_create: host staging");
    if (!v->staging_host)
        return HOMG_ERROR_OUT_OF_MEMORY;
    if (v->ctx->ex.backend == HOMG_BACKEND_CUDA)
        HOMG_TRY(homg__alloc(v->ctx, bytes, &v->staging_dev, "homg_view_create: device staging"));
    v->info.host_waits = v->ctx->ex.backend == HOMG_BACKEND_CUDA;
    return HOMG_OK;
}

homg_status homg__view_upload_write(homg_view *v, const view_src *src, view_dst *dst)
{
    homg_ctx *ctx = v->ctx;
    view_gl *gl = &v->gl;
    view_gl_state s;
    size_t bytes = (size_t)src->w * src->h * v->elem;
    dst->ptr = ctx->ex.backend == HOMG_BACKEND_CUDA ? v->staging_dev : v->staging_host;
    HOMG_TRY(homg__view_run(v, src, dst));
    if (dst->ptr != v->staging_host)
        HOMG_TRY_BACKEND(ctx, ctx->mem->copy(&ctx->ex, v->staging_host, dst->ptr, bytes, HOMG_D2H),
                         "homg_view_write: copying to the host");
    homg__view_gl_save(v, &s);
    if (v->desc.target == HOMG_VIEW_TEXTURE_2D)
        homg__view_gl_tex_upload(v, 0, v->staging_host, src->w, src->h);
    else {
        gl->BindBuffer(GL_COPY_WRITE_BUFFER, v->object);
        gl->BufferSubData(GL_COPY_WRITE_BUFFER, 0, (GLsizeiptr)bytes, v->staging_host);
    }
    homg__view_gl_restore(v, &s);
    return homg__view_gl_check(v, "homg_view_write (upload)");
}

void homg__view_upload_fini(homg_view *v)
{
    free(v->staging_host);
    homg__free(v->ctx, v->staging_dev);
    v->staging_host = v->staging_dev = NULL;
    if (v->owned && v->object) {
        v->gl.DeleteBuffers(1, &v->object);
        v->object = 0;
    }
}

#endif
