/* ring.c -- the SHARED path with desc.latency: the shared memory is a ring of
 * VIEW_RING slots (knobs.slots) and both hand-overs are ordered by the host, so neither
 * context ever waits for the other on the GPU (each such wait costs ~0.17 ms
 * of GPU time on the H100, bench_view F).
 *   CUDA -> GL: a write fills a free slot and records an event after it; the
 *     host hands GL the newest slot whose event it finds passed (cudaEventQuery,
 *     no wait): GL's copy into the application's object is queued then, so a
 *     draw issued later shows that complete frame, possibly an earlier write's.
 *   GL -> CUDA: a fence after GL's copy; the slot is free again once the host
 *     finds it signalled (glClientWaitSync with a zero timeout).
 * Into a texture the slots are textures themselves where GL allows (slots.c):
 * then handing a slot to GL is only naming it (homg_view_gl_texture), nothing
 * is copied, and the slot drawn until now gets its fence (after every GL command
 * issued so far, its draws included); the slot drawn now is never written.
 * The host waits only when the GPU is behind: for the first write; when `ahead`
 * writes (knobs.ahead; by default 3 (VIEW_RING_AHEAD; (slots - 1) / 2 below 7 slots)
 * where the slots are textures, else none) are queued and not yet seen done, for the oldest
 * of them (pace); and when every slot is taken, for GL's oldest fence or CUDA's
 * oldest write.  What it costs (bench_view D,
 * bench/results/h100_view.md I, J, K, H100, 1024^2): all of it is the host waiting
 * for GL's fences before it reuses a slot -- a slot's fence comes after all of GL's
 * queued work, and is made only once a newer write is seen done -- so more slots
 * help: +0.14 ms a frame over nothing shared with 3, +0.045 with 6, +0.022 with 8,
 * +0.006 with 16 (s9-view7, L: GL runs ~1 ms -- ~4 frames -- behind the host, so a
 * fence passes ~4 frames after it is made; 16 slots leave room for that plus the
 * 3 writes in flight).  Paced at 1, CUDA's queue runs dry every frame and the GPU
 * switches to GL and back each frame: +0.1 ms with nothing shared, +0.29 with the
 * ring's fences (L).  Polling all fences instead of blocking on the oldest (knobs.poll
 * = 1) gains nothing; dropping unshown writes instead of waiting (2) costs nothing
 * but shows 1 write in 5-10, none at all while the GPU is slow (memcheck).
 * The pace (s9-view6) does not change the frame time (6 slots 0.301 against 0.304,
 * 8 slots 0.283 either way) but without it the host fills every free slot in one
 * burst and the picture moves in steps: 24 of 100 writes shown, against 72-86
 * paced, and the newest shown write is fewer frames old; with 1 write ahead every
 * frame costs 0.25 ms more, so pacing needs 5 slots or more; and where the ring
 * copies, every write shown is a GL copy (0.09 ms), so paced it costs 0.055 ms a
 * frame more (6 slots 0.384 against 0.327): no pace there.  knobs.c's switches
 * time the parts. */
#include "view/view_internal.h"

#include <string.h>

#if HOMG_HAVE_GL

static const GLuint64 FOREVER = 10000000000ull; /* 10 s: a fence that takes longer is a lost GPU */

/* Paced by default only where handing over is free (slot textures) and with 5 slots
 * or more: VIEW_RING_AHEAD writes ahead, fewer than half the slots. */
static int default_ahead(const homg_view *v)
{
    int half = (v->nring - 1) / 2;
    if (!v->direct || v->nring < 5)
        return 0;
    return half < VIEW_RING_AHEAD ? half : VIEW_RING_AHEAD;
}

homg_status homg__view_ring_init(homg_view *v)
{
    homg_ctx *ctx = v->ctx;
    for (int s = 0; s < v->nring && v->knobs.event; s++)
        HOMG_TRY_BACKEND(ctx, v->k->event_create(&ctx->ex, v->knobs.event_flags, &v->rs[s].ev),
                         "homg_view_create: the ring's events");
    v->written = v->shown = 0;
    v->waits_gl = v->waits_cuda = v->waits_drop = 0;
    v->waits_gl_ms = v->waits_cuda_ms = 0;
    v->info.host_waits = 0;
    homg__view_slots_init(v);
    v->ahead = v->knobs.ahead >= 0 ? v->knobs.ahead : default_ahead(v);
    v->info.direct = v->direct;
    return HOMG_OK;
}

void homg__view_ring_fini(homg_view *v)
{
    for (int s = 0; s < VIEW_RING_MAX; s++) {
        if (v->rs[s].fence)
            v->gl.DeleteSync(v->rs[s].fence);
        v->k->event_destroy(v->rs[s].ev);
        memset(&v->rs[s], 0, sizeof v->rs[s]);
    }
    homg__view_slots_fini(v);
    v->ring = 0;
}

/* GL's fence after every GL command so far: slot s is free once it signals.
 * Without fences (knob, timing only) the slot is free at once. */
static void fence(homg_view *v, int s)
{
    view_slot *r = &v->rs[s];
    r->state = SLOT_HANDED;
    r->fence = v->knobs.fence ? v->gl.FenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0) : NULL;
    if (!r->fence)
        r->state = SLOT_FREE;
}

/* GL's copy from slot s into the object, then the fence that frees the slot;
 * or, with the slots as textures, slot s drawn from now on and the fence of the
 * one drawn until now.  (knobs.plain: GL never sees the slots; the fence only.) */
static void hand(homg_view *v, int s)
{
    view_slot *r = &v->rs[s];
    v->shown = r->seq;
    if (v->direct) {
        if (v->showing >= 0)
            fence(v, v->showing);
        v->showing = s;
        r->fence = NULL;
        r->state = SLOT_HANDED;
        return;
    }
    if (!v->knobs.plain)
        homg__view_shared_copy(v, (size_t)s * v->slot_bytes, r->w, r->h);
    fence(v, s);
}

/* The written slot of the oldest (oldest = 1) or newest write; -1: none. */
static int written(const homg_view *v, int oldest)
{
    int best = -1;
    for (int s = 0; s < v->nring; s++)
        if (v->rs[s].state == SLOT_WRITTEN &&
            (best < 0 || (oldest ? v->rs[s].seq < v->rs[best].seq : v->rs[s].seq > v->rs[best].seq)))
            best = s;
    return best;
}

/* The newest written slot whose event has passed goes to GL; older written ones
 * (passed too: one stream) are never shown and free again. */
static homg_status promote(homg_view *v)
{
    homg_ctx *ctx = v->ctx;
    int newest = -1;
    for (int s = 0; s < v->nring; s++) {
        int done = !v->knobs.event; /* no events (knob): done once queued */
        if (v->rs[s].state != SLOT_WRITTEN || (newest >= 0 && v->rs[s].seq < v->rs[newest].seq))
            continue;
        if (!done)
            HOMG_TRY_BACKEND(ctx, v->k->event_done(&ctx->ex, v->rs[s].ev, 0, &done),
                             "homg_view_write: the ring's event");
        if (done)
            newest = s;
    }
    if (newest < 0)
        return HOMG_OK;
    for (int s = 0; s < v->nring; s++)
        if (v->rs[s].state == SLOT_WRITTEN && v->rs[s].seq < v->rs[newest].seq)
            v->rs[s].state = SLOT_FREE;
    hand(v, newest);
    return HOMG_OK;
}

/* Slot s's fence, waited for up to `ns` (0: a look); 1 when GL's copy from it
 * (or its last draw) is done.  The slot drawn now has none: never done. */
static int copied(homg_view *v, int s, GLuint64 ns, homg_status *st)
{
    view_slot *r = &v->rs[s];
    GLbitfield flush = ns || v->knobs.fence != 2 ? GL_SYNC_FLUSH_COMMANDS_BIT : 0;
    GLenum e;
    double t0 = ns ? homg__view_now_ms() : 0;
    if (!r->fence)
        return 0;
    if (ns && v->knobs.spin) { /* knob: poll instead of GL's blocking wait */
        double until = t0 + ns * 1e-6;
        do
            e = v->gl.ClientWaitSync(r->fence, GL_SYNC_FLUSH_COMMANDS_BIT, 0);
        while (e == GL_TIMEOUT_EXPIRED && homg__view_now_ms() < until);
    } else
        e = v->gl.ClientWaitSync(r->fence, flush, ns);
    if (ns) {
        v->waits_gl++;
        v->waits_gl_ms += homg__view_now_ms() - t0;
    }
    if (e == GL_TIMEOUT_EXPIRED)
        return 0;
    if (e != GL_ALREADY_SIGNALED && e != GL_CONDITION_SATISFIED)
        *st = homg__fail(v->ctx, HOMG_ERROR_BACKEND, "homg_view_write: waiting for GL's fence failed (0x%04x)",
                         (unsigned)e);
    v->gl.DeleteSync(r->fence);
    r->fence = NULL;
    r->state = SLOT_FREE;
    return 1;
}

/* The host waits for slot s's write to pass (knobs.spin: by polling). */
static homg_status wait_write(homg_view *v, int s, const char *what)
{
    homg_ctx *ctx = v->ctx;
    double t0 = homg__view_now_ms();
    int done = 0;
    if (!v->knobs.event)
        return HOMG_OK;
    do
        HOMG_TRY_BACKEND(ctx, v->k->event_done(&ctx->ex, v->rs[s].ev, !v->knobs.spin, &done), what);
    while (!done);
    v->waits_cuda++;
    v->waits_cuda_ms += homg__view_now_ms() - t0;
    return HOMG_OK;
}

/* A free slot, waiting on the host only when all are taken: for GL's oldest copy, or,
 * when every slot is written and none has passed, for CUDA's oldest write. */
static homg_status free_slot(homg_view *v, int *out)
{
    homg_ctx *ctx = v->ctx;
    homg_status st = HOMG_OK;
    double polled = -1; /* knobs.poll = 1: when the polling began */
    for (;;) {
        int old = -1, s;
        HOMG_TRY(promote(v));
        for (s = 0; s < v->nring; s++) {
            if (v->rs[s].state == SLOT_FREE || (v->rs[s].state == SLOT_HANDED && copied(v, s, 0, &st))) {
                if (polled >= 0) {
                    v->waits_gl++;
                    v->waits_gl_ms += homg__view_now_ms() - polled;
                }
                *out = s;
                return st;
            }
            if (v->rs[s].state == SLOT_HANDED && v->rs[s].fence && (old < 0 || v->rs[s].seq < v->rs[old].seq))
                old = s;
        }
        HOMG_TRY(st);
        if (v->knobs.poll == 2 && (s = written(v, 1)) >= 0) { /* knob: drop the oldest unshown write */
            v->waits_drop++;
            *out = s;
            return HOMG_OK;
        }
        if (old >= 0 && v->knobs.poll == 1) { /* knob: poll again, whichever frees first */
            if (polled < 0)
                polled = homg__view_now_ms();
            if (homg__view_now_ms() - polled > FOREVER * 1e-6)
                return homg__fail(ctx, HOMG_ERROR_BACKEND, "homg_view_write: GL's copy did not finish in 10 s");
            continue;
        }
        if (old >= 0) {
            if (!copied(v, old, FOREVER, &st) && st == HOMG_OK)
                st = homg__fail(ctx, HOMG_ERROR_BACKEND, "homg_view_write: GL's copy did not finish in 10 s");
            HOMG_TRY(st);
            continue;
        }
        old = written(v, 1);
        if (old < 0)
            return homg__fail(ctx, HOMG_ERROR_BACKEND, "homg_view_write: the ring has no slot to wait for");
        HOMG_TRY(wait_write(v, old, "homg_view_write: waiting"));
    }
}

/* With `ahead` writes queued and not yet seen done, the host waits for the oldest
 * (the GPU is then `ahead` frames behind; it still has them queued). */
static homg_status pace(homg_view *v)
{
    for (;;) {
        int n = 0;
        HOMG_TRY(promote(v));
        for (int s = 0; s < v->nring; s++)
            n += v->rs[s].state == SLOT_WRITTEN;
        if (!v->ahead || n < v->ahead)
            return HOMG_OK;
        HOMG_TRY(wait_write(v, written(v, 1), "homg_view_write: waiting"));
    }
}

homg_status homg__view_ring_write(homg_view *v, const view_src *src, view_dst *dst)
{
    homg_ctx *ctx = v->ctx;
    int s = -1, arrays;
    view_slot *r;
    HOMG_TRY(pace(v));
    HOMG_TRY(free_slot(v, &s));
    r = &v->rs[s];
    arrays = v->direct == 2 && !v->knobs.linear;
    dst->ptr = arrays ? NULL : (char *)v->sh.ptr + (size_t)s * v->slot_bytes;
    dst->surface = arrays ? v->slot_surface[s] : 0;
    HOMG_TRY(homg__view_run(v, src, dst));
    if (v->knobs.event)
        HOMG_TRY_BACKEND(ctx, v->k->event_record(&ctx->ex, r->ev), "homg_view_write: the ring's event");
    r->state = SLOT_WRITTEN;
    r->seq = ++v->written;
    r->w = src->w;
    r->h = src->h;
    if (v->written == 1)
        HOMG_TRY(homg__view_ring_flush(v));
    else
        HOMG_TRY(promote(v));
    v->info.shown = v->shown;
    return homg__view_gl_check(v, "homg_view_write (shared ring)");
}

unsigned homg__view_ring_texture(const homg_view *v)
{
    return v->direct && v->showing >= 0 ? v->slot_tex[v->showing] : v->object;
}

homg_status homg__view_ring_flush(homg_view *v)
{
    int s = written(v, 0);
    if (s < 0)
        return HOMG_OK;
    HOMG_TRY(wait_write(v, s, "homg_view_flush: waiting"));
    HOMG_TRY(promote(v));
    v->info.shown = v->shown;
    return HOMG_OK;
}

#endif
