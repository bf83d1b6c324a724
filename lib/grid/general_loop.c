/* general_loop.c -- a general (CG) tolerance solve's iterations on the device (issue 12:
 * no host round trip per iteration).  One graph per right-hand side holds the first
 * iteration and its test (kernels/grid/gen_loop.h), then a WHILE conditional node whose
 * body is the next search direction -- a restart every `every` iterations, CG's direction
 * otherwise: two IF nodes whose conditions a one-thread kernel at the body's start sets
 * from the test -- an iteration and its test, which sets the loop's condition.  The host
 * reads the outcome once, after the graph (general_solve.c runs_loop). */
#include "general_loop.h"
#include "grid/gen_kernels.h"

#include <string.h>

/* The test after an iteration, setting the loop's condition (0: none). */
static homg_status queue_test(homg_grid *g, const gen_loop_spec *L, unsigned long long loop)
{
    kernel_exec *ex = &g->ctx->ex;
    HOMG_TRY_BACKEND(
        g->ctx, HOMG_KERNELS(ex, gen)->loop_test(ex, L->s, L->hist, L->count, L->tol, L->max_cycles, L->every, loop),
        "convergence test");
    homg__account(g, 1, 0, 0);
    return HOMG_OK;
}

/* Branch b of the body (0: the restart, 1: CG's direction) under condition h, its cost kept apart. */
static homg_status queue_branch(homg_grid *g, const gen_loop_spec *L, unsigned long long h, int b)
{
    kernel_exec *ex = &g->ctx->ex;
    const homg_count before = homg__counted(g);
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->branch_begin(ex, h), "branch");
    HOMG_TRY(L->step(g, L->arg, b == 0 ? GEN_LOOP_STEP_RESTART : GEN_LOOP_STEP_DIRECTION));
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->branch_end(ex), "branch");
    g->body.branch[b] = homg__counted_since(g, before);
    return HOMG_OK;
}

/* The loop's body: the next direction (both branches, one runs), an iteration, its test. */
static homg_status queue_body(homg_grid *g, const gen_loop_spec *L, unsigned long long loop)
{
    kernel_exec *ex = &g->ctx->ex;
    if (L->every > 0) {
        unsigned long long restart, direction;
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->loop_handle(ex, &restart), "branch condition");
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->loop_handle(ex, &direction), "branch condition");
        HOMG_TRY_BACKEND(g->ctx, HOMG_KERNELS(ex, gen)->loop_branch(ex, L->s, restart, direction), "branch choice");
        homg__account(g, 1, 0, 0);
        HOMG_TRY(queue_branch(g, L, restart, 0));
        HOMG_TRY(queue_branch(g, L, direction, 1));
    }
    HOMG_TRY(L->step(g, L->arg, GEN_LOOP_STEP_ITERATE));
    return queue_test(g, L, loop);
}

homg_status homg__gen_loop_queue(homg_grid *g, const gen_loop_spec *L)
{
    kernel_exec *ex = &g->ctx->ex;
    unsigned long long loop;
    homg_count before;
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->loop_handle(ex, &loop), "loop condition");
    HOMG_TRY(L->step(g, L->arg, GEN_LOOP_STEP_FIRST));
    HOMG_TRY(queue_test(g, L, loop));
    memset(&g->body, 0, sizeof g->body);
    before = homg__counted(g);
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->loop_begin(ex, loop), "loop");
    HOMG_TRY(queue_body(g, L, loop));
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->loop_end(ex), "loop");
    g->body.all = homg__counted_since(g, before);
    return HOMG_OK;
}

void homg__gen_loop_account(homg_grid *g, int cycles, int every)
{
    const homg_queued *b = &g->body;
    /* passes after the first iteration, of which `restarts` began with a restart */
    const int passes = cycles - 1, restarts = every > 0 ? passes / every : 0;
    const double n[2] = { restarts, passes - restarts };
    long launches = (long)(passes - 1) * b->all.launches;
    double wu = (passes - 1) * b->all.wu, values = (passes - 1) * b->all.values_moved;
    if (every > 0)
        for (int k = 0; k < 2; k++) { /* each pass counted both branches; it ran one */
            launches += (long)(n[k] - passes) * b->branch[k].launches;
            wu += (n[k] - passes) * b->branch[k].wu;
            values += (n[k] - passes) * b->branch[k].values_moved;
        }
    homg__account(g, launches, wu, values);
}
