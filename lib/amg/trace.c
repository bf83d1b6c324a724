/* trace.c -- the phase table of a traced set-up (homg_amg_desc.trace).
 *
 * Each phase start records an event on the ctx's stream (nothing waits for
 * it), notes the ctx's count of blocking reads and resets the peak of the
 * tracked bytes (core/track.c); the times are read once the set-up is done.
 * A phase met again on another level adds to its row.
 */
#include "amg_internal.h"

#include <string.h>

void homg__amg_trace_begin(homg_amg *amg)
{
    amg_trace *t = &amg->trace;
    memset(t, 0, sizeof *t);
    if (!amg->desc.trace)
        return;
    t->active = 1;
    homg__track_begin(amg->ctx);
}

void homg__amg_phase(homg_amg *amg, int phase)
{
    homg_ctx *ctx = amg->ctx;
    amg_trace *t = &amg->trace;
    if (!t->active)
        return;
    if (t->n > 0 && t->phase[t->n - 1] >= 0) { /* close the running phase */
        homg_amg_phase_info *p = &t->ph[t->phase[t->n - 1]];
        p->host_syncs += (int)(ctx->host_syncs - t->syncs);
        if (ctx->track.peak > p->peak_bytes)
            p->peak_bytes = ctx->track.peak;
        if (ctx->track.peak > t->peak)
            t->peak = ctx->track.peak;
    }
    if (t->n == AMG_TRACE_MARKS || ctx->mem->event_create(&t->ev[t->n]) != HOMG_OK)
        return;
    ctx->mem->event_record(&ctx->ex, t->ev[t->n]);
    t->phase[t->n++] = phase;
    t->syncs = ctx->host_syncs;
    ctx->track.peak = ctx->track.bytes;
}

void homg__amg_trace_end(homg_amg *amg)
{
    homg_ctx *ctx = amg->ctx;
    amg_trace *t = &amg->trace;
    if (!t->active)
        return;
    homg__amg_phase(amg, -1);
    for (int i = 0; i < t->n; i++) {
        float ms = 0;
        if (i + 1 < t->n && t->phase[i] >= 0 && ctx->mem->event_elapsed_ms(t->ev[i], t->ev[i + 1], &ms) == HOMG_OK)
            t->ph[t->phase[i]].ms += ms;
        ctx->mem->event_destroy(t->ev[i]);
        t->ev[i] = NULL;
    }
    t->n = 0;
    t->active = 0;
    homg__track_end(ctx);
}
