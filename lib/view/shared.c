/* shared.c -- the SHARED path: device memory shared with GL for the view's
 * life.  A CUDA virtual-memory allocation is exported as a file descriptor and
 * imported into GL as a buffer (GL_EXT_memory_object_fd); CUDA writes it, GL
 * reads it as it is (a view-owned buffer) or copies it on the GPU into the
 * application's texture or buffer.  Each write hands the memory over twice:
 * GL -> CUDA (GL is done with the last frame) and CUDA -> GL (the new frame is
 * written), through two binary semaphores where GL_EXT_semaphore_fd and Vulkan
 * are there (no host wait), otherwise through the host (a GL fence waited on,
 * then the stream synchronised).  Into an application's object with semaphores
 * the memory holds two slots written in turn, so only CUDA -> GL waits on the
 * GPU: CUDA overwrites a slot once the host has seen GL's fence after its copy
 * from that slot two frames back (bench_view F and D: each GPU-side wait between
 * the CUDA and GL contexts costs ~0.17 ms of GPU time).  With desc.latency the
 * memory is a ring of slots ordered by the host both ways (ring.c): no GPU-side
 * wait at all. */
#include "view/view_internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if HOMG_HAVE_GL

enum { READY = 0, DONE = 1 }; /* semaphores: CUDA -> GL, GL -> CUDA */

/* GL_EXT_memory_object's device UUIDs against the ctx's device: the memory must
 * be imported on the GPU that made it. */
static homg_status same_gpu(homg_view *v, const unsigned char uuid[16])
{
    GLint n = 0;
    GLubyte gl_uuid[GL_UUID_SIZE_EXT];
    v->gl.GetIntegerv(GL_NUM_DEVICE_UUIDS_EXT, &n);
    for (GLint k = 0; k < n; k++) {
        v->gl.GetUnsignedBytei_vEXT(GL_DEVICE_UUID_EXT, (GLuint)k, gl_uuid);
        if (!memcmp(gl_uuid, uuid, 16))
            return HOMG_OK;
    }
    homg__view_gl_drain(v);
    return homg__fail(v->ctx, HOMG_ERROR_UNSUPPORTED,
                      "homg_view (shared): none of the GL context's %d device UUIDs is the ctx's CUDA device", (int)n);
}

static homg_status import_buffer(homg_view *v, size_t bytes)
{
    view_gl *gl = &v->gl;
    GLint saved = 0;
    gl->CreateMemoryObjectsEXT(1, &v->memory);
    gl->ImportMemoryFdEXT(v->memory, v->sh.bytes, GL_HANDLE_TYPE_OPAQUE_FD_EXT, v->sh.fd);
    if (gl->GetError() != GL_NO_ERROR) {
        homg__view_gl_drain(v);
        return homg__fail(v->ctx, HOMG_ERROR_UNSUPPORTED, "homg_view (shared): glImportMemoryFdEXT refused the memory");
    }
    v->sh.fd = -1; /* GL owns the descriptor now */
    gl->GetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &saved);
    gl->GenBuffers(1, &v->shared_buffer);
    gl->BindBuffer(GL_COPY_WRITE_BUFFER, v->shared_buffer);
    gl->BufferStorageMemEXT(GL_COPY_WRITE_BUFFER, (GLsizeiptr)bytes, v->memory, 0);
    gl->BindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)saved);
    if (gl->GetError() != GL_NO_ERROR) {
        homg__view_gl_drain(v);
        return homg__fail(v->ctx, HOMG_ERROR_UNSUPPORTED, "homg_view (shared): glBufferStorageMemEXT failed");
    }
    return HOMG_OK;
}

/* Both semaphores, each imported into CUDA and into GL from its own descriptor. */
static homg_status semaphores(homg_view *v, const unsigned char uuid[16])
{
    homg_ctx *ctx = v->ctx;
    view_gl *gl = &v->gl;
    if (!gl->semaphore_fd)
        return homg__fail(ctx, HOMG_ERROR_UNSUPPORTED, "GL lacks GL_EXT_semaphore_fd");
    HOMG_TRY(homg__view_vk_create(v, uuid, &v->vk));
    for (int k = 0; k < 2; k++) {
        int fd = homg__view_vk_fd(v->vk, k);
        homg_status st = fd < 0 ? HOMG_ERROR_UNSUPPORTED : v->k->sem_import(&ctx->ex, fd, &v->sem_cuda[k]);
        if (st != HOMG_OK) {
            if (fd >= 0)
                close(fd);
            return homg__backend_fail(ctx, st, "importing a Vulkan semaphore into CUDA");
        }
        fd = homg__view_vk_fd(v->vk, k);
        if (fd < 0)
            return homg__fail(ctx, HOMG_ERROR_UNSUPPORTED, "vkGetSemaphoreFdKHR failed");
        gl->GenSemaphoresEXT(1, &v->sem_gl[k]);
        gl->ImportSemaphoreFdEXT(v->sem_gl[k], GL_HANDLE_TYPE_OPAQUE_FD_EXT, fd);
        if (gl->GetError() != GL_NO_ERROR) {
            homg__view_gl_drain(v);
            close(fd);
            return homg__fail(ctx, HOMG_ERROR_UNSUPPORTED, "glImportSemaphoreFdEXT refused a Vulkan semaphore");
        }
    }
    return HOMG_OK;
}

static void drop_semaphores(homg_view *v)
{
    for (int k = 0; k < 2; k++) {
        if (v->sem_gl[k])
            v->gl.DeleteSemaphoresEXT(1, &v->sem_gl[k]);
        v->k->sem_destroy(v->sem_cuda[k]);
        v->sem_gl[k] = 0;
        v->sem_cuda[k] = NULL;
    }
    homg__view_vk_destroy(v->vk);
    v->vk = NULL;
}

/* Two slots by default where they apply, a ring of VIEW_RING (knobs.slots) with desc.latency
 * (ring.c); HOMG_VIEW_SHARED_SLOTS=1 measures the one-slot path. */
static int slots_wanted(const homg_view *v)
{
    const char *env = getenv("HOMG_VIEW_SHARED_SLOTS");
    if (v->owned)
        return 1;
    if (v->desc.latency)
        return v->knobs.slots;
    if (v->desc.no_semaphores)
        return 1;
    return env && atoi(env) == 1 ? 1 : 2;
}

/* knobs.plain (timing only): the ring's slots in ordinary device memory (1) or in
 * exportable memory GL never imports (2); GL draws the application's texture. */
static homg_status plain_ring(homg_view *v, size_t bytes)
{
    homg_ctx *ctx = v->ctx;
    if (v->knobs.plain == 1) {
        HOMG_TRY_BACKEND(ctx, ctx->mem->alloc(&ctx->ex, bytes, &v->sh.ptr), "homg_view (shared): the ring's slots");
        v->plain_mem = 1;
    } else
        HOMG_TRY_BACKEND(ctx, v->k->shared_alloc(&ctx->ex, bytes, &v->sh), "homg_view (shared): exportable memory");
    return homg__view_ring_init(v);
}

homg_status homg__view_shared_init(homg_view *v)
{
    homg_ctx *ctx = v->ctx;
    unsigned char uuid[16];
    size_t bytes = (size_t)v->width * v->height * v->elem;
    v->slots = slots_wanted(v);
    v->slot = 0;
    v->ring = v->slots >= VIEW_RING_MIN;
    v->nring = v->ring ? v->slots : 0;
    /* the ring's slots may be textures (slots.c): aligned as VIEW_RING_ALIGN_KIB says */
    v->slot_bytes =
        v->ring ? homg__view_ring_slot_bytes(bytes, (size_t)v->knobs.align_kib << 10) : (bytes + 255) / 256 * 256;
    if (v->slots > 1)
        bytes = (size_t)v->slots * v->slot_bytes;
    if (!v->gl.memory_fd)
        return homg__fail(ctx, HOMG_ERROR_UNSUPPORTED,
                          "homg_view (shared): the GL context lacks GL_EXT_memory_object_fd");
    HOMG_TRY_BACKEND(ctx, v->k->uuid(&ctx->ex, uuid), "homg_view (shared)");
    HOMG_TRY(same_gpu(v, uuid));
    if (v->ring && v->knobs.plain)
        return plain_ring(v, bytes);
    HOMG_TRY_BACKEND(ctx, v->k->shared_alloc(&ctx->ex, bytes, &v->sh), "homg_view (shared): exportable memory");
    v->sh.import_each = v->knobs.import_each;
    HOMG_TRY(import_buffer(v, bytes));
    v->semaphores = 0;
    if (v->ring) /* ordered by the host both ways: no semaphores */
        return homg__view_ring_init(v);
    if (!v->desc.no_semaphores) {
        if (semaphores(v, uuid) == HOMG_OK)
            v->semaphores = 1;
        else {
            homg__log(ctx, HOMG_LOG_INFO, "homg_view: ordering by the host: %s", ctx->msg);
            drop_semaphores(v);
            homg__clear_error(ctx);
        }
    }
    if (!v->semaphores)
        v->slots = 1;
    if (v->owned)
        v->object = v->shared_buffer;
    v->info.semaphores = v->semaphores;
    v->info.host_waits = !v->semaphores;
    return HOMG_OK;
}

/* GL is done with the memory: GL commands issued so far have run past it. */
static homg_status gl_to_cuda(homg_view *v)
{
    homg_ctx *ctx = v->ctx;
    view_gl *gl = &v->gl;
    GLenum r;
    GLsync f;
    if (v->slots == 2) { /* GL's copy from this slot, two frames back: normally long done */
        f = v->fence[v->slot];
        v->fence[v->slot] = NULL;
        r = f ? gl->ClientWaitSync(f, GL_SYNC_FLUSH_COMMANDS_BIT, (GLuint64)10000000000ull) : GL_ALREADY_SIGNALED;
        if (f)
            gl->DeleteSync(f);
        if (r != GL_ALREADY_SIGNALED && r != GL_CONDITION_SATISFIED)
            return homg__fail(ctx, HOMG_ERROR_BACKEND, "homg_view_write: waiting for GL's fence failed (0x%04x)",
                              (unsigned)r);
        return HOMG_OK;
    }
    if (v->semaphores) {
        gl->SignalSemaphoreEXT(v->sem_gl[DONE], 1, &v->shared_buffer, 0, NULL, NULL);
        gl->Flush(); /* the signal must be submitted before CUDA waits on it */
        HOMG_TRY_BACKEND(ctx, v->k->sem_wait(&ctx->ex, v->sem_cuda[DONE]), "homg_view_write: waiting for GL");
        return HOMG_OK;
    }
    f = gl->FenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    r = gl->ClientWaitSync(f, GL_SYNC_FLUSH_COMMANDS_BIT, (GLuint64)10000000000ull);
    gl->DeleteSync(f);
    if (r != GL_ALREADY_SIGNALED && r != GL_CONDITION_SATISFIED)
        return homg__fail(ctx, HOMG_ERROR_BACKEND, "homg_view_write: waiting for GL's fence failed (0x%04x)",
                          (unsigned)r);
    return HOMG_OK;
}

static homg_status cuda_to_gl(homg_view *v)
{
    homg_ctx *ctx = v->ctx;
    if (v->semaphores) {
        int s = v->slots == 2 ? v->slot : READY; /* two slots: semaphore k for slot k */
        HOMG_TRY_BACKEND(ctx, v->k->sem_signal(&ctx->ex, v->sem_cuda[s]), "homg_view_write: signalling GL");
        v->gl.WaitSemaphoreEXT(v->sem_gl[s], 1, &v->shared_buffer, 0, NULL, NULL);
        return HOMG_OK;
    }
    HOMG_TRY_BACKEND(ctx, ctx->mem->sync(&ctx->ex), "homg_view_write: waiting for the write");
    return HOMG_OK;
}

void homg__view_shared_copy(homg_view *v, size_t off, int w, int h)
{
    view_gl *gl = &v->gl;
    view_gl_state s;
    homg__view_gl_save(v, &s);
    if (v->desc.target == HOMG_VIEW_TEXTURE_2D)
        homg__view_gl_tex_upload(v, v->shared_buffer, (const void *)off, w, h);
    else {
        gl->BindBuffer(GL_COPY_READ_BUFFER, v->shared_buffer);
        gl->BindBuffer(GL_COPY_WRITE_BUFFER, v->object);
        gl->CopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, (GLintptr)off, 0,
                              (GLsizeiptr)((size_t)w * h * v->elem));
    }
    homg__view_gl_restore(v, &s);
}

homg_status homg__view_shared_write(homg_view *v, const view_src *src, view_dst *dst)
{
    view_gl *gl = &v->gl;
    size_t off = v->slots == 2 ? v->slot * v->slot_bytes : 0;
    if (v->ring)
        return homg__view_ring_write(v, src, dst);
    HOMG_TRY(gl_to_cuda(v));
    dst->ptr = (char *)v->sh.ptr + off;
    HOMG_TRY(homg__view_run(v, src, dst));
    HOMG_TRY(cuda_to_gl(v));
    if (!v->owned)
        homg__view_shared_copy(v, off, src->w, src->h);
    if (v->slots == 2) {
        v->fence[v->slot] = gl->FenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        v->slot ^= 1;
    }
    return homg__view_gl_check(v, "homg_view_write (shared)");
}

void homg__view_shared_fini(homg_view *v)
{
    homg_ctx *ctx = v->ctx;
    ctx->mem->sync(&ctx->ex);
    if (v->gl.Finish)
        v->gl.Finish();
    homg__view_ring_fini(v);
    for (int k = 0; k < 2; k++)
        if (v->fence[k])
            v->gl.DeleteSync(v->fence[k]);
    v->fence[0] = v->fence[1] = NULL;
    drop_semaphores(v);
    if (v->shared_buffer)
        v->gl.DeleteBuffers(1, &v->shared_buffer);
    if (v->memory)
        v->gl.DeleteMemoryObjectsEXT(1, &v->memory);
    v->shared_buffer = v->memory = 0;
    if (v->plain_mem)
        ctx->mem->free(&ctx->ex, v->sh.ptr);
    else
        v->k->shared_free(&ctx->ex, &v->sh);
    v->sh.ptr = NULL;
    v->plain_mem = 0;
    if (v->owned)
        v->object = 0;
    v->semaphores = 0;
}

#endif
