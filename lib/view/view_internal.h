/* view_internal.h -- what the view's files share: the GL functions the view
 * calls (found through the application's loader), the view object, and the
 * three paths (map.c, shared.c, upload.c). */
#ifndef HOMG_VIEW_INTERNAL_H
#define HOMG_VIEW_INTERNAL_H

#include "core/internal.h"
#include "view/view_kernels.h"

#if HOMG_HAVE_GL
#include <GL/gl.h>
#include <GL/glext.h>

/* GL functions every path needs (GL 3.2), X(return type, name without "gl", parameters). */
#define VIEW_GL_CORE(X)                                                                                   \
    X(GLenum, GetError, (void))                                                                           \
    X(const GLubyte *, GetString, (GLenum))                                                               \
    X(const GLubyte *, GetStringi, (GLenum, GLuint))                                                      \
    X(void, GetIntegerv, (GLenum, GLint *))                                                               \
    X(GLboolean, IsTexture, (GLuint))                                                                     \
    X(GLboolean, IsBuffer, (GLuint))                                                                      \
    X(void, BindTexture, (GLenum, GLuint))                                                                \
    X(void, GetTexLevelParameteriv, (GLenum, GLint, GLenum, GLint *))                                     \
    X(void, TexSubImage2D, (GLenum, GLint, GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, const void *)) \
    X(void, PixelStorei, (GLenum, GLint))                                                                 \
    X(void, BindBuffer, (GLenum, GLuint))                                                                 \
    X(void, GetBufferParameteriv, (GLenum, GLenum, GLint *))                                              \
    X(void, GenBuffers, (GLsizei, GLuint *))                                                              \
    X(void, DeleteBuffers, (GLsizei, const GLuint *))                                                     \
    X(void, BufferData, (GLenum, GLsizeiptr, const void *, GLenum))                                       \
    X(void, BufferSubData, (GLenum, GLintptr, GLsizeiptr, const void *))                                  \
    X(void, CopyBufferSubData, (GLenum, GLenum, GLintptr, GLintptr, GLsizeiptr))                          \
    X(void, Flush, (void))                                                                                \
    X(void, Finish, (void))                                                                               \
    X(GLsync, FenceSync, (GLenum, GLbitfield))                                                            \
    X(GLenum, ClientWaitSync, (GLsync, GLbitfield, GLuint64))                                             \
    X(void, DeleteSync, (GLsync))

/* GL_EXT_memory_object(_fd) and GL_EXT_semaphore(_fd): SHARED only. */
#define VIEW_GL_EXT(X)                                                                                  \
    X(void, CreateMemoryObjectsEXT, (GLsizei, GLuint *))                                                \
    X(void, DeleteMemoryObjectsEXT, (GLsizei, const GLuint *))                                          \
    X(void, ImportMemoryFdEXT, (GLuint, GLuint64, GLenum, GLint))                                       \
    X(void, BufferStorageMemEXT, (GLenum, GLsizeiptr, GLuint, GLuint64))                                \
    X(void, GetUnsignedBytei_vEXT, (GLenum, GLuint, GLubyte *))                                         \
    X(void, GenSemaphoresEXT, (GLsizei, GLuint *))                                                      \
    X(void, DeleteSemaphoresEXT, (GLsizei, const GLuint *))                                             \
    X(void, ImportSemaphoreFdEXT, (GLuint, GLenum, GLint))                                              \
    X(void, WaitSemaphoreEXT, (GLuint, GLuint, const GLuint *, GLuint, const GLuint *, const GLenum *)) \
    X(void, SignalSemaphoreEXT, (GLuint, GLuint, const GLuint *, GLuint, const GLuint *, const GLenum *))

/* The SHARED ring's slots as textures (slots.c): without them the ring copies. */
#define VIEW_GL_TEX(X)                                            \
    X(void, GenTextures, (GLsizei, GLuint *))                     \
    X(void, DeleteTextures, (GLsizei, const GLuint *))            \
    X(void, TexParameteri, (GLenum, GLenum, GLint))               \
    X(void, GetTexParameteriv, (GLenum, GLenum, GLint *))         \
    X(void, GetTexImage, (GLenum, GLint, GLenum, GLenum, void *)) \
    X(void, TexStorageMem2DEXT, (GLenum, GLsizei, GLenum, GLsizei, GLsizei, GLuint, GLuint64))

#define VIEW_GL_MEMBER(ret, name, params) ret(*name) params;
typedef struct view_gl {
    VIEW_GL_CORE(VIEW_GL_MEMBER)
    VIEW_GL_EXT(VIEW_GL_MEMBER)
    VIEW_GL_TEX(VIEW_GL_MEMBER)
    int memory_fd;    /* GL_EXT_memory_object + _fd */
    int semaphore_fd; /* GL_EXT_semaphore + _fd */
    int slot_tex;     /* VIEW_GL_TEX all there */
} view_gl;

/* The bindings and pixel-store settings the view changes, to put them back. */
typedef struct view_gl_state {
    GLint texture, unpack_buffer, copy_read, copy_write;
    GLint alignment, row_length, skip_rows, skip_pixels;
} view_gl_state;
#else
typedef struct view_gl {
    int unused;
} view_gl;
typedef unsigned GLuint;
typedef void *GLsync;
#endif

/* A slot of the SHARED ring (ring.c): CUDA writes it (WRITTEN, its event recorded
 * after), the host hands it to GL once it sees the event passed (HANDED: GL's copy
 * into the object queued, its fence after; or, with the slots as textures, the
 * slot is the one drawn, its fence made when a newer slot replaces it), and it is
 * FREE again once the host sees the fence signalled. */
/* Slots by default (s9-view7: 16, was 8 since s9-view6, 6 since s8-view5, 3 before; bench/results/h100_view.md
 * I, J, K, L: the host waits less often for GL's fences the more slots there are -- GL runs ~1 ms behind the host,
 * so a slot's fence passes ~4 frames after it is made: over nothing shared 3 slots +0.14 ms a frame, 6 +0.045,
 * 8 +0.024, 12 +0.016, 16 +0.006 paced at 3); HOMG_VIEW_RING_SLOTS from the min to the max. */
enum { VIEW_RING_MIN = 3, VIEW_RING = 16, VIEW_RING_MAX = 16 };
/* The pace by default (s9-view7): at most this many writes ahead (h100_view.md L: 16 slots paced 3 show 84 of 100
 * writes at 0.265 ms a frame; paced 7, the old (slots - 1) / 2, 55 at the same cost). */
enum { VIEW_RING_AHEAD = 3 };
/* The ring's slots start at multiples of the CUDA allocation granularity (2 MiB on the H100): GL's and
 * CUDA's textures on the memory then never share a large page with another slot (s8-view5). */
enum { VIEW_RING_ALIGN_KIB = 2048 };
typedef enum view_slot_state { SLOT_FREE = 0, SLOT_WRITTEN, SLOT_HANDED } view_slot_state;
typedef struct view_slot {
    view_slot_state state;
    long long seq; /* the write it holds (1 = the first) */
    int w, h;      /* its picture */
    void *ev;      /* CUDA event after its write */
    GLsync fence;  /* GL fence after the copy from it (or the last draw of it); NULL while drawn */
} view_slot;

/* Benchmark-only switches of the ring (knobs.c), read once at create from
 * environment variables of the same names; each takes one piece of the ring's
 * mechanics out so bench_view D can time it (timing only where marked: the
 * picture may then be wrong).  The library documents none of them. */
typedef struct view_knobs {
    int fence;       /* HOMG_VIEW_RING_FENCE: 1 fences, polled with GL_SYNC_FLUSH_COMMANDS_BIT (default); 2 polled
                        without it (the fence reaches the GPU with the application's next flush); 0 none (timing only) */
    int event;       /* HOMG_VIEW_RING_EVENT: 1 an event per write, queried (default); 0 none: a write counts as done
                        once queued (timing only) */
    int event_flags; /* HOMG_VIEW_RING_EVENT_FLAGS: 0 cudaEventDisableTiming (default), 1 timing events,
                        2 cudaEventBlockingSync | cudaEventDisableTiming */
    int linear;      /* HOMG_VIEW_RING_LINEAR=1: CUDA writes the slot's memory as rows even where GL samples
                        CUDA arrays (timing only) */
    int plain;       /* HOMG_VIEW_RING_PLAIN: 1 slots in ordinary device memory, 2 exportable memory GL never
                        imports; GL draws the application's texture, never written (timing only) */
    int spin;        /* HOMG_VIEW_RING_SPIN=1: the host's waits poll (zero-timeout fence, event query) in a loop */
    int slots;       /* HOMG_VIEW_RING_SLOTS: the ring's slots, VIEW_RING_MIN .. VIEW_RING_MAX (default VIEW_RING) */
    int ahead;       /* HOMG_VIEW_RING_AHEAD: writes queued and not yet seen done before a write waits for the
                        oldest (ring.c's pace); -1 (default) min(VIEW_RING_AHEAD, (slots - 1) / 2) with slot
                        textures and 5 slots or more, else 0; 0 never
                        (as before s9-view6; 1 costs 0.25 ms a frame on the H100, h100_view.md K).
                        (HOMG_VIEW_RING_DROP, s8-view4's "wait for the newest write first", gave nothing: gone) */
    int align_kib;   /* HOMG_VIEW_RING_ALIGN (KiB, 64 .. 4096): the slots' offsets a multiple of it; default
                        VIEW_RING_ALIGN_KIB (s8-view4 and before: 64) */
    int import_each; /* HOMG_VIEW_RING_IMPORT_EACH=1: each slot's CUDA array its own import of the memory (s8-view4
                        and before); default one import for all */
    int poll;        /* HOMG_VIEW_RING_POLL (s9-view7), with every slot taken: 0 the host blocks on GL's oldest fence
                        (default); 1 it polls every fence and event (zero timeout) and takes the first slot freed;
                        2 it reuses the oldest written slot not yet shown (that write is dropped, never shown) and
                        waits only when there is none */
} view_knobs;

/* Exportable semaphores made with Vulkan (vulkan.c). */
typedef struct view_vk view_vk;

struct homg_view {
    homg_ctx *ctx;
    homg_view_desc desc; /* defaults resolved */
    const view_kernels *k;
    view_gl gl;
    int width, height; /* the object's size in values */
    int rgba8;
    size_t elem;   /* bytes per value: 4 */
    GLuint object; /* the GL object written: desc.gl_name, or the view's own buffer */
    int owned;     /* the view created `object` (BUFFER with gl_name = 0) */
    homg_view_path path;
    int32_t *range; /* 2 ordered ints (ctx space): the range of the last write */
    float lo, hi;   /* the given range of the last write, when not found */
    int range_found;
    /* MAP */
    void *resource;
    /* SHARED */
    view_shared sh;
    GLuint memory, shared_buffer, sem_gl[2]; /* semaphores: 0 CUDA -> GL (ready), 1 GL -> CUDA (done) */
    void *sem_cuda[2];
    view_vk *vk;
    int semaphores;
    /* SHARED with two slots (an application's object, semaphores): frame k writes slot
     * k % 2, ordered for GL by semaphore k % 2; CUDA writes a slot only once the host
     * has seen the fence after GL's copy from it two frames back (no GL -> CUDA wait). */
    int slots;         /* 1, 2, or VIEW_RING_MIN.. (ring) */
    int slot;          /* the next one written */
    size_t slot_bytes; /* the offset of slot 1 */
    GLsync fence[2];
    /* SHARED ring (desc.latency, an application's object; ring.c) */
    int ring;
    int nring; /* its slots: knobs.slots */
    int ahead; /* writes in flight before a write waits for the oldest (ring.c's pace); 0 never */
    view_knobs knobs;
    int plain_mem; /* knobs.plain = 1: sh.ptr is ordinary device memory */
    view_slot rs[VIEW_RING_MAX];
    /* the host's waits in the ring's writes (bench_view D): on GL's fences, on CUDA's events */
    long long waits_gl, waits_cuda, waits_drop; /* waits_drop: writes dropped instead of a wait (knobs.poll = 2) */
    double waits_gl_ms, waits_cuda_ms;
    long long written, shown;        /* writes so far; the one GL's object holds (1 = the first) */
    GLuint slot_tex[VIEW_RING_MAX];  /* slots.c: a texture on each slot's memory, or 0 (the ring copies) */
    int direct;                      /* slot_tex made and probed: GL samples the slots, no copy; 1 linear
                                   textures (CUDA writes the slot's rows), 2 CUDA arrays (surfaces) */
    void *slot_array[VIEW_RING_MAX]; /* direct = 2: the CUDA array on each slot */
    unsigned long long slot_surface[VIEW_RING_MAX]; /* and its surface object */
    char slots_why[232];                            /* how the ring hands over (info.reason's tail) */
    int showing; /* with direct: the slot drawn now, or -1 (the object: nothing shown yet) */
    /* UPLOAD */
    void *staging_dev, *staging_host;
    homg_view_info info;
};

/* knobs.c: the benchmark's switches from the environment (view_knobs). */
void homg__view_knobs_read(view_knobs *k);
double homg__view_now_ms(void);
/* A ring slot's bytes: a picture of `bytes` rounded up to a multiple of `align` (the next slot's offset). */
size_t homg__view_ring_slot_bytes(size_t bytes, size_t align);

/* gl.c */
homg_status homg__view_gl_load(homg_view *v);
homg_status homg__view_gl_current(homg_view *v, const char *what);
/* Checks the desc's object (kind, format, size) and fills width, height, rgba8. */
homg_status homg__view_gl_object(homg_view *v);
homg_status homg__view_gl_check(homg_view *v, const char *what);
void homg__view_gl_drain(homg_view *v);
homg_status homg__view_gl_new_buffer(homg_view *v, size_t bytes, GLuint *name);
#if HOMG_HAVE_GL
void homg__view_gl_save(homg_view *v, view_gl_state *s);
void homg__view_gl_restore(homg_view *v, const view_gl_state *s);
/* Puts w x h values from a pixel-unpack buffer (offset) or host memory into the texture. */
void homg__view_gl_tex_upload(homg_view *v, GLuint unpack_buffer, const void *data, int w, int h);
#endif

/* device.c: is the ctx's CUDA device among the GL context's?  Writes why not. */
int homg__view_device_match(int ctx_device, const int *gl_devices, int count, char *why, size_t len);

/* The kernels of a write, queued once the memory is CUDA's (after the map or the
 * GL -> CUDA hand-over, so CUDA's work of a frame is one stretch): the colour
 * range when dst->range is set, then the write. */
homg_status homg__view_run(homg_view *v, const view_src *src, const view_dst *dst);

/* The paths: init (set-up, object checked), write (src and dst prepared), fini. */
homg_status homg__view_map_init(homg_view *v);
homg_status homg__view_map_write(homg_view *v, const view_src *src, view_dst *dst);
void homg__view_map_fini(homg_view *v);
homg_status homg__view_shared_init(homg_view *v);
homg_status homg__view_shared_write(homg_view *v, const view_src *src, view_dst *dst);
void homg__view_shared_fini(homg_view *v);
/* GL copies w x h values at byte `off` of the shared memory into the application's object. */
void homg__view_shared_copy(homg_view *v, size_t off, int w, int h);
/* ring.c: the SHARED ring's events, writes, flush (the newest write waited for and handed to GL). */
homg_status homg__view_ring_init(homg_view *v);
homg_status homg__view_ring_write(homg_view *v, const view_src *src, view_dst *dst);
homg_status homg__view_ring_flush(homg_view *v);
void homg__view_ring_fini(homg_view *v);
/* The texture GL draws the shown write from: a slot's (slots.c) or the object. */
unsigned homg__view_ring_texture(const homg_view *v);
/* slots.c: the ring's slots as textures on GL's memory object, probed (a pattern
 * CUDA writes must read back as is); on any failure none are kept and v->direct = 0. */
void homg__view_slots_init(homg_view *v);
void homg__view_slots_fini(homg_view *v);
homg_status homg__view_upload_init(homg_view *v);
homg_status homg__view_upload_write(homg_view *v, const view_src *src, view_dst *dst);
void homg__view_upload_fini(homg_view *v);

/* vulkan.c: two exportable binary semaphores on the Vulkan device whose UUID is
 * `uuid`, and a fresh file descriptor of semaphore k for each importer. */
homg_status homg__view_vk_create(homg_view *v, const unsigned char uuid[16], view_vk **out);
int homg__view_vk_fd(view_vk *vk, int k);
void homg__view_vk_destroy(view_vk *vk);
/* Tests only (the probe failure's bisection): the Vulkan device alone; every device destroyed. */
homg_status homg__view_vk_device(homg_view *v, const unsigned char uuid[16]);
void homg__view_vk_drop_devices(void);

#endif
