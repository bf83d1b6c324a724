/* slots.c -- the SHARED ring's slots as GL textures (desc.latency into a
 * texture): each slot of the shared memory is also a texture made on GL's memory
 * object (glTexStorageMem2DEXT, GL_LINEAR_TILING_EXT: rows as CUDA writes them),
 * so GL samples the slot CUDA wrote and the ring's hand-over copies nothing;
 * homg_view_gl_texture names the shown slot's texture.  GL's linear layout is
 * not specified (row pitch, offset alignment), so a pattern CUDA writes into
 * every slot must read back as is at create; where it does not (or GL refuses
 * the textures) the ring copies into the application's texture as before.
 * HOMG_VIEW_RING_COPY=1 asks for the copy (bench_view's comparison). */
#include "view/view_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if HOMG_HAVE_GL

/* Sampling as the application set it on its texture. */
static const GLenum sampling[] = { GL_TEXTURE_MIN_FILTER, GL_TEXTURE_MAG_FILTER, GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T };
enum { SAMPLING = sizeof sampling / sizeof sampling[0] };

static int make(homg_view *v)
{
    view_gl *gl = &v->gl;
    GLint saved = 0, p[SAMPLING];
    gl->GetIntegerv(GL_TEXTURE_BINDING_2D, &saved);
    gl->BindTexture(GL_TEXTURE_2D, v->object);
    for (int k = 0; k < SAMPLING; k++)
        gl->GetTexParameteriv(GL_TEXTURE_2D, sampling[k], &p[k]);
    gl->GenTextures(VIEW_RING, v->slot_tex);
    for (int s = 0; s < VIEW_RING; s++) {
        gl->BindTexture(GL_TEXTURE_2D, v->slot_tex[s]);
        gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_TILING_EXT, GL_LINEAR_TILING_EXT);
        for (int k = 0; k < SAMPLING; k++)
            gl->TexParameteri(GL_TEXTURE_2D, sampling[k], p[k]);
        gl->TexStorageMem2DEXT(GL_TEXTURE_2D, 1, v->rgba8 ? GL_RGBA8 : GL_R32F, v->width, v->height, v->memory,
                               (GLuint64)s * v->slot_bytes);
    }
    gl->BindTexture(GL_TEXTURE_2D, (GLuint)saved);
    if (gl->GetError() == GL_NO_ERROR)
        return 1;
    homg__view_gl_drain(v);
    return 0;
}

/* Texel i of slot s: distinct in every byte of RGBA8, an exact float in R32F. */
static uint32_t pattern(size_t i, int s, int rgba8)
{
    uint32_t x = (uint32_t)i * 2654435761u + (uint32_t)s * 40503u + 1u;
    float f = (float)(x & 0xffffffu);
    if (!rgba8)
        memcpy(&x, &f, 4);
    return x;
}

/* CUDA writes the pattern into each slot; GL reads each slot's texture back. */
static int probe(homg_view *v)
{
    homg_ctx *ctx = v->ctx;
    view_gl *gl = &v->gl;
    size_t n = (size_t)v->width * v->height;
    uint32_t *want = malloc(n * 4), *got = malloc(n * 4);
    GLint pack[5] = { 0 }, saved = 0;
    static const GLenum store[4] = { GL_PACK_ALIGNMENT, GL_PACK_ROW_LENGTH, GL_PACK_SKIP_ROWS, GL_PACK_SKIP_PIXELS };
    int ok = want && got;
    gl->GetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &pack[4]);
    gl->GetIntegerv(GL_TEXTURE_BINDING_2D, &saved);
    for (int k = 0; k < 4; k++) {
        gl->GetIntegerv(store[k], &pack[k]);
        gl->PixelStorei(store[k], k ? 0 : 4);
    }
    gl->BindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    for (int s = 0; s < VIEW_RING && ok; s++) {
        for (size_t i = 0; i < n; i++)
            want[i] = pattern(i, s, v->rgba8);
        ok =
            ctx->mem->copy(&ctx->ex, (char *)v->sh.ptr + (size_t)s * v->slot_bytes, want, n * 4, HOMG_H2D) == HOMG_OK &&
            ctx->mem->sync(&ctx->ex) == HOMG_OK;
        if (!ok)
            break;
        memset(got, 0, n * 4);
        gl->BindTexture(GL_TEXTURE_2D, v->slot_tex[s]);
        gl->GetTexImage(GL_TEXTURE_2D, 0, v->rgba8 ? GL_RGBA : GL_RED, v->rgba8 ? GL_UNSIGNED_BYTE : GL_FLOAT, got);
        ok = gl->GetError() == GL_NO_ERROR && !memcmp(want, got, n * 4);
    }
    for (int k = 0; k < 4; k++)
        gl->PixelStorei(store[k], pack[k]);
    gl->BindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)pack[4]);
    gl->BindTexture(GL_TEXTURE_2D, (GLuint)saved);
    homg__view_gl_drain(v);
    free(want);
    free(got);
    return ok;
}

void homg__view_slots_init(homg_view *v)
{
    const char *env = getenv("HOMG_VIEW_RING_COPY");
    const char *why = NULL;
    v->direct = 0;
    v->showing = -1;
    if (v->desc.target != HOMG_VIEW_TEXTURE_2D || v->owned)
        return;
    if (env && atoi(env))
        why = "HOMG_VIEW_RING_COPY is set";
    else if (!v->gl.slot_tex)
        why = "GL lacks glTexStorageMem2DEXT or glGetTexImage";
    else if (!make(v))
        why = "glTexStorageMem2DEXT refused a linear texture on a slot";
    else if (!probe(v))
        why = "GL's linear texture layout is not CUDA's rows (the probe read back other values)";
    if (why) {
        homg__log(v->ctx, HOMG_LOG_INFO, "homg_view: the ring copies into texture %u: %s", v->object, why);
        homg__view_slots_fini(v);
        return;
    }
    v->direct = 1;
}

void homg__view_slots_fini(homg_view *v)
{
    if (v->slot_tex[0] && v->gl.DeleteTextures)
        v->gl.DeleteTextures(VIEW_RING, v->slot_tex);
    memset(v->slot_tex, 0, sizeof v->slot_tex);
    v->direct = 0;
    v->showing = -1;
}

#endif
