/* arena.c -- one hierarchy's device memory from a few large blocks.
 *
 * A create made ~250 ctx allocations and ~150 frees (65^3 cube, CUDA), each a
 * cudaMalloc or cudaFree, the frees synchronising the whole device.  While the
 * arena is on (homg_gmg_create from a coarse mesh, and homg_gmg_destroy), the
 * ctx's allocator is this file's: a request below GMG_ARENA_LARGE bytes is cut
 * from the current chunk (256-byte aligned starts; chunks of 1, 2, 4, 8, 16,
 * then 32 MB, so a small hierarchy holds little);
 * larger ones, and everything once GMG_ARENA_MAX_CHUNKS are in use, go to the
 * ctx's own allocator (the caller's, or the backend's) as before.  A free of a
 * chunk's block gives the bytes back only when it is the chunk's last block
 * (the usual "allocate a temporary, use it, free it"); the rest stays with the
 * hierarchy until homg_gmg_destroy frees the chunks.  Reuse is safe without a
 * synchronisation because a create queues all its work on the ctx's stream
 * (no lanes): a block reused later is written by work queued after the work
 * that last read it.
 *
 * Large blocks (passed on) are remembered with their size; one freed while
 * the arena is on is kept, not freed (a cudaFree waits for the whole device),
 * and handed to a later large request of at least half its size (so that no
 * block much larger than asked for stays with the hierarchy); the kept ones
 * are freed when the arena goes off (the end of the create, after its final
 * synchronisation), or at once when a request cannot be met; the table is
 * forgotten then (a block freed while the arena is off bypasses it).  The same
 * stream-order argument makes this reuse safe.  HOMG_GMG_ARENA_LARGE=bytes
 * in the environment lowers the threshold (tests).
 *
 * On by default on CUDA; HOMG_GMG_ARENA=0 in the environment at create turns
 * it off, =1 turns it on for the CPU backend too (tests).  The user's coarse
 * mesh is uploaded before the arena goes on, so that nothing the caller owns
 * lives in a chunk.  A ctx is used by one thread at a time, so swapping its
 * allocator for the duration of a create or destroy is invisible outside.
 */
#include "gmg_internal.h"

#include <stdlib.h>
#include <string.h>

#define GMG_ARENA_FIRST (1u << 20)
#define GMG_ARENA_LARGE (8u << 20)
#define GMG_ARENA_ALIGN 256u

static void *raw_alloc(gmg_arena *a, size_t bytes)
{
    void *p = NULL;
    if (a->prev.alloc)
        return a->prev.alloc(bytes, a->prev.user);
    if (a->ctx->mem->alloc(&a->ctx->ex, bytes, &p) != HOMG_OK)
        return NULL;
    return p;
}

static void raw_free(gmg_arena *a, void *p)
{
    if (!p)
        return;
    if (a->prev.free)
        a->prev.free(p, a->prev.user);
    else
        a->ctx->mem->free(&a->ctx->ex, p);
}

/* The kept large blocks freed (all, or those not in use). */
static void free_kept(gmg_arena *a)
{
    int n = 0;
    for (int i = 0; i < a->nlarge; i++) {
        if (a->large[i].kept)
            raw_free(a, a->large[i].p);
        else
            a->large[n++] = a->large[i];
    }
    a->nlarge = n;
}

/* A kept block of bytes .. 2 bytes (the smallest), else a new one remembered. */
static void *large_alloc(gmg_arena *a, size_t bytes)
{
    int best = -1;
    void *p;
    for (int i = 0; i < a->nlarge; i++) {
        const gmg_arena_large *b = &a->large[i];
        if (b->kept && b->size >= bytes && b->size / 2 <= bytes && (best < 0 || b->size < a->large[best].size))
            best = i;
    }
    if (best >= 0) {
        a->large[best].kept = 0;
        a->reused++;
        return a->large[best].p;
    }
    a->passed++;
    p = raw_alloc(a, bytes);
    if (!p && a->nlarge) { /* the kept blocks may be what is missing */
        free_kept(a);
        p = raw_alloc(a, bytes);
    }
    if (p && a->nlarge < GMG_ARENA_MAX_LARGE) {
        a->large[a->nlarge].p = p;
        a->large[a->nlarge].size = bytes;
        a->large[a->nlarge].kept = 0;
        a->nlarge++;
    }
    return p;
}

static void *arena_alloc(size_t bytes, void *user)
{
    gmg_arena *a = (gmg_arena *)user;
    size_t need = (bytes + GMG_ARENA_ALIGN - 1) / GMG_ARENA_ALIGN * GMG_ARENA_ALIGN;
    gmg_arena_chunk *c = a->count ? &a->chunk[a->count - 1] : NULL;
    if (bytes >= a->large_min)
        return large_alloc(a, bytes);
    if (!c || c->used + need > c->size) {
        if (a->count == GMG_ARENA_MAX_CHUNKS) {
            a->passed++;
            return raw_alloc(a, bytes);
        }
        size_t size = (size_t)GMG_ARENA_FIRST << (a->count < 5 ? a->count : 5); /* 1, 2, 4 .. 32 MB */
        size = size < need ? need : size;
        c = &a->chunk[a->count];
        c->base = (char *)raw_alloc(a, size);
        if (!c->base)
            return NULL;
        c->size = size;
        c->used = c->last = 0;
        a->count++;
    }
    c->last = c->used;
    c->used += need;
    a->cut++;
    return c->base + c->last;
}

static void arena_free(void *p, void *user)
{
    gmg_arena *a = (gmg_arena *)user;
    for (int k = a->count - 1; k >= 0; k--) {
        gmg_arena_chunk *c = &a->chunk[k];
        if ((char *)p >= c->base && (char *)p < c->base + c->size) {
            if ((char *)p == c->base + c->last && c->used > c->last) /* the newest block: back to the chunk */
                c->used = c->last;
            return;
        }
    }
    for (int i = 0; p && i < a->nlarge; i++)
        if (a->large[i].p == p && !a->large[i].kept) {
            a->large[i].kept = 1;
            return;
        }
    raw_free(a, p);
}

int homg__gmg_arena_wanted(const homg_gmg *g)
{
    return homg__knob("HOMG_GMG_ARENA", g->ctx->ex.backend == HOMG_BACKEND_CUDA) != 0;
}

void homg__gmg_arena_on(homg_gmg *g)
{
    homg_ctx *ctx = g->ctx;
    gmg_arena *a = &g->arena;
    if (!a->enabled || a->active)
        return;
    a->ctx = ctx;
    a->large_min = (size_t)homg__knob("HOMG_GMG_ARENA_LARGE", 0); /* tests: small blocks as large ones */
    if (a->large_min < GMG_ARENA_ALIGN)
        a->large_min = GMG_ARENA_LARGE;
    a->prev = ctx->desc.allocator;
    ctx->desc.allocator.alloc = arena_alloc;
    ctx->desc.allocator.free = arena_free;
    ctx->desc.allocator.user = a;
    a->active = 1;
}

void homg__gmg_arena_off(homg_gmg *g)
{
    gmg_arena *a = &g->arena;
    if (!a->active)
        return;
    g->ctx->desc.allocator = a->prev;
    a->active = 0;
    free_kept(a);
    a->nlarge = 0; /* sizes are known only while on (a free while off bypasses the table) */
}

void homg__gmg_arena_release(homg_gmg *g)
{
    gmg_arena *a = &g->arena;
    homg__gmg_arena_off(g);
    for (int k = 0; k < a->count; k++)
        raw_free(a, a->chunk[k].base);
    a->count = 0;
}
