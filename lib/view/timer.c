/* timer.c -- frame timers: a pair of events on the ctx's stream (host clock on
 * the CPU backend), so a frame loop can show "solver ms" through homg.h alone. */
#include "core/internal.h"

#include <stdlib.h>

struct homg_timer {
    homg_ctx *ctx;
    void *start, *stop;
    int started, stopped;
};

homg_status homg_timer_create(homg_ctx *ctx, homg_timer **out)
{
    homg_timer *t;
    int saved, ok;
    if (!ctx)
        return HOMG_ERROR_INVALID_ARGUMENT;
    homg__clear_error(ctx);
    if (!out)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_timer_create: out is NULL");
    *out = NULL;
    t = (homg_timer *)calloc(1, sizeof *t);
    if (!t)
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "homg_timer_create: out of host memory");
    t->ctx = ctx;
    if (homg__enter(ctx, &saved) != HOMG_OK) {
        free(t);
        return HOMG_ERROR_BACKEND;
    }
    ok = ctx->mem->event_create(&t->start) == HOMG_OK && ctx->mem->event_create(&t->stop) == HOMG_OK;
    homg__leave(ctx, saved);
    if (!ok) {
        homg_timer_destroy(t);
        return homg__fail(ctx, HOMG_ERROR_BACKEND, "homg_timer_create: cannot create events");
    }
    *out = t;
    return HOMG_OK;
}

void homg_timer_destroy(homg_timer *t)
{
    if (!t)
        return;
    t->ctx->mem->event_destroy(t->start);
    t->ctx->mem->event_destroy(t->stop);
    free(t);
}

static homg_status record(homg_timer *t, void *ev, const char *what)
{
    int saved;
    homg_status st;
    if (!t)
        return HOMG_ERROR_INVALID_ARGUMENT;
    HOMG_TRY(homg__enter(t->ctx, &saved));
    st = t->ctx->mem->event_record(&t->ctx->ex, ev);
    homg__leave(t->ctx, saved);
    if (st != HOMG_OK)
        return homg__backend_fail(t->ctx, st, what);
    return HOMG_OK;
}

homg_status homg_timer_start(homg_timer *t)
{
    HOMG_TRY(record(t, t ? t->start : NULL, "homg_timer_start"));
    t->started = 1;
    t->stopped = 0;
    return HOMG_OK;
}

homg_status homg_timer_stop(homg_timer *t)
{
    if (t && !t->started)
        return homg__fail(t->ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_timer_stop: the timer was not started");
    HOMG_TRY(record(t, t ? t->stop : NULL, "homg_timer_stop"));
    t->stopped = 1;
    return HOMG_OK;
}

homg_status homg_timer_ms(homg_timer *t, double *ms)
{
    float f = 0;
    if (!t)
        return HOMG_ERROR_INVALID_ARGUMENT;
    if (!ms || !t->stopped)
        return homg__fail(t->ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_timer_ms: %s",
                          ms ? "the timer has not been started and stopped" : "ms is NULL");
    if (t->ctx->mem->event_elapsed_ms(t->start, t->stop, &f) != HOMG_OK)
        return homg__fail(t->ctx, HOMG_ERROR_BACKEND, "homg_timer_ms: reading the events failed");
    *ms = f;
    return HOMG_OK;
}
