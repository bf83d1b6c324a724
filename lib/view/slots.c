/* slots.c -- the SHARED ring's slots as GL textures (desc.latency into a
 * texture): each slot of the shared memory is also a texture made on GL's memory
 * object (glTexStorageMem2DEXT), so GL samples the slot CUDA wrote and the
 * ring's hand-over copies nothing; homg_view_gl_texture names the shown slot's
 * texture.  Two ways, the first that works kept:
 *   linear   GL_LINEAR_TILING_EXT: rows as CUDA's write kernel leaves them at
 *            the slot's address;
 *   array    GL's own (optimal) tiling, CUDA writing through a surface object
 *            on a CUDA array made from the same memory (cudaImportExternalMemory,
 *            cudaExternalMemoryGetMappedMipmappedArray): the driver's layout on
 *            both sides.
 * Neither layout is promised by a specification, so each is probed at create:
 * the write kernel puts the same field into every slot and into plain device
 * memory, and GL's read of each slot texture must be those bytes exactly.
 * Otherwise (or HOMG_VIEW_RING_COPY=1, bench_view's comparison) the ring copies
 * into the application's texture as before; info.reason says why. */
#include "view/view_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if HOMG_HAVE_GL

/* Sampling as the application set it on its texture. */
static const GLenum sampling[] = { GL_TEXTURE_MIN_FILTER, GL_TEXTURE_MAG_FILTER, GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T };
enum { SAMPLING = sizeof sampling / sizeof sampling[0] };

static int make(homg_view *v, int linear)
{
    view_gl *gl = &v->gl;
    GLint saved = 0, p[SAMPLING];
    gl->GetIntegerv(GL_TEXTURE_BINDING_2D, &saved);
    gl->BindTexture(GL_TEXTURE_2D, v->object);
    for (int k = 0; k < SAMPLING; k++)
        gl->GetTexParameteriv(GL_TEXTURE_2D, sampling[k], &p[k]);
    gl->GenTextures(v->nring, v->slot_tex);
    for (int s = 0; s < v->nring; s++) {
        gl->BindTexture(GL_TEXTURE_2D, v->slot_tex[s]);
        gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_TILING_EXT, linear ? GL_LINEAR_TILING_EXT : GL_OPTIMAL_TILING_EXT);
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

static int surfaces(homg_view *v)
{
    homg_ctx *ctx = v->ctx;
    for (int s = 0; s < v->nring; s++)
        if (v->k->shared_surface(&ctx->ex, &v->sh, (size_t)s * v->slot_bytes, v->width, v->height, v->rgba8,
                                 &v->slot_array[s], &v->slot_surface[s]) != HOMG_OK)
            return 0;
    return 1;
}

/* The write kernel's output for a field of values in [0, 1) into `dst`. */
static homg_status probe_write(homg_view *v, const void *field, view_dst *dst)
{
    view_src src = { field, HOMG_FLOAT32, 0, 1, v->width, v->width, v->height };
    dst->rgba8 = v->rgba8;
    dst->lo = 0.0f;
    dst->hi = 1.0f;
    return v->k->write(&v->ctx->ex, &src, dst);
}

/* GL's read of slot texture s into host memory `got`. */
static void read_slot(homg_view *v, int s, void *got)
{
    view_gl *gl = &v->gl;
    static const GLenum store[4] = { GL_PACK_ALIGNMENT, GL_PACK_ROW_LENGTH, GL_PACK_SKIP_ROWS, GL_PACK_SKIP_PIXELS };
    GLint pack[4], buffer = 0, saved = 0;
    gl->GetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &buffer);
    gl->GetIntegerv(GL_TEXTURE_BINDING_2D, &saved);
    for (int k = 0; k < 4; k++) {
        gl->GetIntegerv(store[k], &pack[k]);
        gl->PixelStorei(store[k], k ? 0 : 4);
    }
    gl->BindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    gl->BindTexture(GL_TEXTURE_2D, v->slot_tex[s]);
    gl->GetTexImage(GL_TEXTURE_2D, 0, v->rgba8 ? GL_RGBA : GL_RED, v->rgba8 ? GL_UNSIGNED_BYTE : GL_FLOAT, got);
    for (int k = 0; k < 4; k++)
        gl->PixelStorei(store[k], pack[k]);
    gl->BindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)buffer);
    gl->BindTexture(GL_TEXTURE_2D, (GLuint)saved);
}

/* After a slot's probe read back wrong: did CUDA's write land in the slot's memory
 * (bytes not all zero through the allocation's own mapping: then GL's texture
 * reads it wrong) or not (then CUDA's array is not on that memory)?  Which side
 * is wrong, for bench/results/h100_view.md J's history-dependent failure. */
static const char *landed(homg_view *v, int s)
{
    homg_ctx *ctx = v->ctx;
    unsigned char *b = malloc(v->slot_bytes);
    size_t nonzero = 0;
    const char *r = "its memory unread";
    if (b && ctx->mem->copy(&ctx->ex, b, (char *)v->sh.ptr + (size_t)s * v->slot_bytes, v->slot_bytes, HOMG_D2H) ==
                 HOMG_OK) {
        for (size_t i = 0; i < v->slot_bytes; i++)
            nonzero += b[i] != 0;
        r = nonzero ? "CUDA's bytes there: GL misreads" : "memory all 0: CUDA wrote elsewhere";
    }
    free(b);
    return r;
}

/* Every slot written by the kernel and read by GL against the kernel's output
 * into plain memory; NULL when they agree, else why not (in `why`). */
static const char *probe(homg_view *v, char *why, size_t len)
{
    homg_ctx *ctx = v->ctx;
    size_t n = (size_t)v->width * v->height, bad = 0, first = 0;
    float *field = malloc(n * 4);
    uint32_t *want = malloc(n * 4), *got = malloc(n * 4);
    void *dev = NULL, *out = NULL;
    int ok = field && want && got && ctx->mem->alloc(&ctx->ex, n * 4, &dev) == HOMG_OK &&
             ctx->mem->alloc(&ctx->ex, n * 4, &out) == HOMG_OK;
    for (size_t i = 0; ok && i < n; i++)
        field[i] = (float)(((uint32_t)i * 2654435761u) >> 8) / 16777216.0f;
    if (ok) {
        view_dst plain = { 0 };
        plain.ptr = out;
        ok = ctx->mem->copy(&ctx->ex, dev, field, n * 4, HOMG_H2D) == HOMG_OK &&
             probe_write(v, dev, &plain) == HOMG_OK && ctx->mem->copy(&ctx->ex, want, out, n * 4, HOMG_D2H) == HOMG_OK;
    }
    for (int s = 0; ok && s < v->nring && !bad; s++) {
        view_dst d = { 0 };
        d.ptr = v->slot_surface[s] ? NULL : (char *)v->sh.ptr + (size_t)s * v->slot_bytes;
        d.surface = v->slot_surface[s];
        ok = probe_write(v, dev, &d) == HOMG_OK && ctx->mem->sync(&ctx->ex) == HOMG_OK;
        memset(got, 0, n * 4);
        read_slot(v, s, got);
        ok = ok && v->gl.GetError() == GL_NO_ERROR;
        for (size_t i = 0; ok && i < n; i++)
            if (got[i] != want[i] && !bad++)
                first = i;
        if (bad)
            snprintf(why, len, "slot %d: %zu/%zu wrong from (%zu,%zu); %s", s, bad, n, first % (size_t)v->width,
                     first / (size_t)v->width, landed(v, s));
    }
    homg__view_gl_drain(v);
    ctx->mem->free(&ctx->ex, dev);
    ctx->mem->free(&ctx->ex, out);
    free(field);
    free(want);
    free(got);
    if (!ok && !bad)
        snprintf(why, len, "the probe's write or GL's read failed");
    homg__clear_error(ctx);
    return ok && !bad ? NULL : why;
}

/* One way set up and probed; NULL when it works, else why not. */
static const char *try_way(homg_view *v, int linear, char *why, size_t len)
{
    if (!make(v, linear))
        return "glTexStorageMem2DEXT refused the slot textures";
    if (!linear && !surfaces(v)) {
        snprintf(why, len, "%.150s", v->ctx->msg);
        homg__clear_error(v->ctx);
        return why;
    }
    return probe(v, why, len);
}

void homg__view_slots_init(homg_view *v)
{
    const char *env = getenv("HOMG_VIEW_RING_COPY");
    const char *why[2] = { NULL, NULL };
    char buf[2][160];
    v->direct = 0;
    v->showing = -1;
    v->slots_why[0] = 0;
    if (v->desc.target != HOMG_VIEW_TEXTURE_2D || v->owned)
        return;
    if (v->knobs.plain)
        why[0] = why[1] = "HOMG_VIEW_RING_PLAIN is set: GL never sees the slots";
    else if (env && atoi(env))
        why[0] = why[1] = "HOMG_VIEW_RING_COPY is set";
    else if (!v->gl.slot_tex)
        why[0] = why[1] = "GL lacks glTexStorageMem2DEXT, glGetTexImage or texture calls";
    if (!why[0]) {
        why[0] = try_way(v, 1, buf[0], sizeof buf[0]);
        if (why[0])
            homg__view_slots_fini(v);
        else
            v->direct = 1;
    }
    if (!v->direct && !why[1]) {
        why[1] = try_way(v, 0, buf[1], sizeof buf[1]);
        if (why[1])
            homg__view_slots_fini(v);
        else
            v->direct = 2;
    }
    if (!v->direct) {
        snprintf(v->slots_why, sizeof v->slots_why, "the ring copies: linear slot textures: %.85s; CUDA arrays: %.85s",
                 why[0] ? why[0] : "-", why[1] ? why[1] : "-");
        homg__log(v->ctx, HOMG_LOG_INFO, "homg_view: %s", v->slots_why);
    } else
        snprintf(v->slots_why, sizeof v->slots_why, "GL samples the ring's slots (%s%.150s)",
                 v->direct == 1 ? "linear textures" : "CUDA arrays; linear tiling: ", v->direct == 1 ? "" : why[0]);
}

void homg__view_slots_fini(homg_view *v)
{
    if (v->slot_tex[0] && v->gl.DeleteTextures)
        v->gl.DeleteTextures(VIEW_RING_MAX, v->slot_tex);
    for (int s = 0; s < VIEW_RING_MAX; s++) {
        if (v->slot_array[s])
            v->k->shared_surface_free(v->slot_array[s]);
        v->slot_array[s] = NULL;
        v->slot_surface[s] = 0;
    }
    memset(v->slot_tex, 0, sizeof v->slot_tex);
    v->direct = 0;
    v->showing = -1;
}

#endif
