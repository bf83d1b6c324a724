/* knobs.c -- the ring's benchmark-only switches (view_knobs in view_internal.h),
 * read from the environment once, when a view is made: bench_view D switches
 * off one piece of the ring's mechanics at a time with them to find what a
 * frame pays for.  The library documents none of them; unset means the default. */
#include "view/view_internal.h"

#include <stdlib.h>
#include <time.h>

static int knob(const char *name, int dflt, int lo, int hi)
{
    const char *env = getenv(name);
    int k = env && *env ? atoi(env) : dflt;
    return k < lo ? lo : k > hi ? hi : k;
}

void homg__view_knobs_read(view_knobs *k)
{
    k->fence = knob("HOMG_VIEW_RING_FENCE", 1, 0, 2);
    k->event = knob("HOMG_VIEW_RING_EVENT", 1, 0, 1);
    k->event_flags = knob("HOMG_VIEW_RING_EVENT_FLAGS", 0, 0, 2);
    k->linear = knob("HOMG_VIEW_RING_LINEAR", 0, 0, 1);
    k->plain = knob("HOMG_VIEW_RING_PLAIN", 0, 0, 2);
    k->spin = knob("HOMG_VIEW_RING_SPIN", 0, 0, 1);
    k->ahead = knob("HOMG_VIEW_RING_AHEAD", -1, -1, VIEW_RING_MAX);
    k->slots = knob("HOMG_VIEW_RING_SLOTS", VIEW_RING, VIEW_RING_MIN, VIEW_RING_MAX);
    k->align_kib = knob("HOMG_VIEW_RING_ALIGN", VIEW_RING_ALIGN_KIB, 64, 4096);
    k->import_each = knob("HOMG_VIEW_RING_IMPORT_EACH", 0, 0, 1);
    k->poll = knob("HOMG_VIEW_RING_POLL", 0, 0, 2);
}

double homg__view_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

size_t homg__view_ring_slot_bytes(size_t bytes, size_t align)
{
    return align ? (bytes + align - 1) / align * align : bytes;
}
