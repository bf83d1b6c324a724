/* track.c -- the bytes a set-up holds, for its trace (homg_amg_desc.trace).
 *
 * While tracking is on, every ctx allocation is listed with its size and
 * removed again when freed, so the bytes held and their peak are known on
 * every backend without asking the allocator (the caller's may be a pool).
 * The list is short (a set-up holds a few hundred arrays), so a linear
 * search from the newest entry is enough.  A failed host allocation turns
 * tracking off rather than failing the set-up.
 */
#include "core/internal.h"

#include <stdlib.h>
#include <string.h>

void homg__track_begin(homg_ctx *ctx)
{
    homg__track_end(ctx);
    ctx->track.on = 1;
}

void homg__track_end(homg_ctx *ctx)
{
    free(ctx->track.live);
    memset(&ctx->track, 0, sizeof ctx->track);
}

void homg__track_add(homg_ctx *ctx, void *ptr, size_t bytes)
{
    homg_track *t = &ctx->track;
    if (t->count == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 256;
        struct homg_track_entry *live = (struct homg_track_entry *)realloc(t->live, cap * sizeof *live);
        if (!live) {
            homg__track_end(ctx);
            return;
        }
        t->live = live;
        t->cap = cap;
    }
    t->live[t->count].ptr = ptr;
    t->live[t->count].bytes = bytes;
    t->count++;
    t->bytes += bytes;
    if (t->bytes > t->peak)
        t->peak = t->bytes;
}

void homg__track_remove(homg_ctx *ctx, void *ptr)
{
    homg_track *t = &ctx->track;
    for (size_t i = t->count; i-- > 0;)
        if (t->live[i].ptr == ptr) {
            t->bytes -= t->live[i].bytes;
            t->live[i] = t->live[--t->count];
            return;
        }
}
