/* general_solve.c -- a general solve: each right-hand side's start, its iterations
 * (with a tolerance in a device loop, general_loop.c, or on the host), the outcome; and
 * the residual. */
#include "general_internal.h"
#include "general_loop.h"
#include "grid/cube_point.h"
#include "grid/gen_loop.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOMG_GEN_RESTART_F32 10
#define HOMG_GEN_RESTART_F64 50

static homg_status read_hist(homg_grid *g, int count, double *norm)
{
    int at = count <= HOMG_GRID_HIST_MAX ? count - 1 : HOMG_GRID_HIST_MAX - 1;
    HOMG_TRY(homg__read(g->ctx, norm, g->gen->hist + at, sizeof *norm));
    return HOMG_OK;
}

/* One right-hand side's progress. */
typedef struct gen_run {
    gen_rhs x;
    const void *face[6];
    int count, cycles, converged, active;
    int plain, zero; /* plain cycles (plain_on); u = 0 before the next cycle */
    int restart;     /* a tolerance solve: the next direction is a restart (the test's choice) */
    double norm;
    double proj;      /* s[GEN_PROJ] where read with the test's outcome, else -1 */
    homg_queued body; /* the device loop's body (general_loop.c) */
} gen_run;

/* Whether the solve runs plain cycles: a 3D float32 uniform finest level (the cube
 * kernels' operator: constant sigma and lambda, no flags) with no singular island, no
 * two-pass level and no face data, where the Krylov step buys nothing that a cycle does
 * not (it pays for jumps and obstacles).  HOMG_CUBE_PLAIN=0 keeps CG (the benchmark times
 * against it; the library documents no such variable). */
static int plain_on(const homg_grid *g, const gen_run *r)
{
    const grid_general *G = g->gen;
    cube_level K;
    for (int s = 0; s < 6; s++)
        if (r->face[s])
            return 0;
    return G->plain && G->dims == 3 && G->isl.n == 0 && !G->kmask && !G->F.sigma_cell &&
           g->desc.precision == HOMG_FLOAT32 && cube_from_gen(&G->lv[0], &K);
}

static const void *offset(const void *p, size_t bytes) { return p ? (const char *)p + bytes : NULL; }

/* Selects run i's lane (the batch's i-th) and its boundary faces. */
static void select_run(homg_grid *g, const gen_run *r, int i)
{
    homg__gen_use_lane(g, i);
    memcpy(g->gen->F.face, r->face, sizeof r->face);
}

/* Queues a right-hand side's start: zero scalars, u and the rhs norm, the first restart. */
static homg_status run_start(homg_grid *g, gen_run *r, const homg_solve_desc *sd)
{
    grid_general *G = g->gen;
    kernel_exec *ex = &g->ctx->ex;
    const size_t n = cells(&G->lv[0]);
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(ex, G->s, GEN_NSCALARS * sizeof(double)), "scalars");
    r->plain = plain_on(g, r);
    if (!sd->warm_start && !r->plain) /* plain: the first cycle starts from zero itself */
        HOMG_TRY_BACKEND(g->ctx, G->k->zero_active(ex, g->desc.precision, n, G->lv[0].flag, r->x.u), "zeroing u");
    /* ||f + face terms||^2 for the relative residual (plain with a reference or quiet: not needed) */
    if (!r->plain || !(r->x.u_ref || r->x.quiet))
        HOMG_TRY_BACKEND(g->ctx, homg__gen_residual_fine(g, NULL, r->x.f, G->r, G->s + GEN_BB), "rhs norm");
    if (!r->plain)
        HOMG_TRY(homg__gen_run_seq(g, &r->x, GEN_SEQ_RESTART_FIRST));
    else
        HOMG_TRY(homg__gen_split_start(g, &r->x, sd->warm_start));
    r->zero = !sd->warm_start;
    r->converged = 0;
    r->cycles = 0;
    r->active = 1;
    return HOMG_OK;
}

/* Restarts every this many CG iterations (none in plain cycles). */
static int restart_every(const homg_grid *g, const gen_run *r)
{
    if (r->plain)
        return 0;
    return g->desc.precision == HOMG_FLOAT64 ? HOMG_GEN_RESTART_F64 : HOMG_GEN_RESTART_F32;
}

/* A tolerance solve's outcome after its iterations (the last norm, whether converged), or the
 * failure of a norm that is not finite. */
static homg_status outcome(homg_grid *g, gen_run *r, double tol)
{
    if (!isfinite(r->norm))
        return homg__fail(g->ctx, HOMG_ERROR_NUMERIC, "the monitored norm became %g after cycle %d", r->norm,
                          r->cycles);
    r->converged = r->norm <= tol;
    return HOMG_OK;
}

/* The device loop's outcome, read with s[GEN_PROJ] in one read. */
static homg_status read_loop(homg_grid *g, gen_run *r, double tol)
{
    double out[GEN_LOOP_RESTART - GEN_PROJ + 1];
    HOMG_TRY(homg__read(g->ctx, out, g->gen->s + GEN_PROJ, sizeof out));
    r->proj = out[0];
    r->norm = out[GEN_LOOP_NORM - GEN_PROJ];
    r->cycles = (int)out[GEN_LOOP_CYCLES - GEN_PROJ];
    return outcome(g, r, tol);
}

/* The device loop's steps (general_loop.h) for the run in arg. */
static homg_status loop_step(homg_grid *g, void *arg, int step)
{
    const gen_run *r = (const gen_run *)arg;
    if (step == GEN_LOOP_STEP_RESTART)
        return homg__gen_restart(g, &r->x, 0);
    if (step == GEN_LOOP_STEP_DIRECTION)
        return homg__gen_iterate_direction(g, &r->x);
    if (!r->plain)
        return homg__gen_iterate_update(g, &r->x);
    return homg__gen_plain_cycle(g, &r->x, step == GEN_LOOP_STEP_FIRST && r->zero, 0);
}

typedef struct gen_loop_seq {
    gen_run *r;
    gen_loop_spec spec;
} gen_loop_seq;

static homg_status queue_loop(homg_grid *g, void *arg) { return homg__gen_loop_queue(g, &((gen_loop_seq *)arg)->spec); }

/* Runs r's iterations in one graph with a device loop (the selected lane's arrays). */
static homg_status run_loop(homg_grid *g, gen_run *r, const homg_solve_desc *sd, int max_cycles)
{
    grid_general *G = g->gen;
    homg_seq_key key;
    gen_loop_seq q;
    memset(&key, 0, sizeof key);
    memset(&q, 0, sizeof q);
    key.first_kind = !r->plain ? GEN_SEQ_LOOP : r->zero ? GEN_SEQ_LOOP_PLAIN_ZERO : GEN_SEQ_LOOP_PLAIN;
    key.count = restart_every(g, r);
    key.monitor = r->x.u_ref != NULL;
    key.check = max_cycles;
    key.loop = 1;
    key.tol = sd->tol;
    key.f = r->x.f;
    key.u = r->x.u;
    key.u_ref = r->x.u_ref;
    key.lane = G->cur;
    memcpy(key.bc, G->F.face, sizeof key.bc);
    q.r = r;
    q.spec.step = loop_step;
    q.spec.arg = r;
    q.spec.s = G->s;
    q.spec.hist = G->hist;
    q.spec.count = G->hist_count;
    q.spec.tol = sd->tol;
    q.spec.max_cycles = max_cycles;
    q.spec.every = key.count;
    HOMG_TRY(homg__grid_graph_run(g, &key, queue_loop, &q));
    r->body = g->body;
    return HOMG_OK;
}

/* Whether a tolerance solve's iterations run in a device loop: CUDA, unless
 * HOMG_GRID_DEVICE_LOOP=0 (as for the box, lib/grid/box.c) or the driver refused such a
 * graph once. */
/* A tolerance solve's iterations of m right-hand sides, one device loop per lane, every
 * lane's graph launched before the host reads any outcome (one read a lane).  A lane whose
 * graph the driver refuses (and those after it) stays active for the host's loop. */
static homg_status runs_loop(homg_grid *g, gen_run *r, int m, const homg_solve_desc *sd, int max_cycles)
{
    int launched = 0;
    for (; launched < m; launched++) {
        select_run(g, &r[launched], launched);
        if (run_loop(g, &r[launched], sd, max_cycles) != HOMG_OK) {
            if (homg__knob("HOMG_GRID_LOOP_VERBOSE", 0) != 0) /* why (the tests and benchmark ask; not documented) */
                fprintf(stderr, "homg: general device loop refused: %s\n", homg_ctx_last_error(g->ctx));
            g->no_device_loop = 1; /* e.g. a driver without conditional graph nodes */
            homg__clear_error(g->ctx);
            break;
        }
    }
    for (int i = 0; i < launched; i++) {
        select_run(g, &r[i], i);
        HOMG_TRY(read_loop(g, &r[i], sd->tol));
        r[i].count += r[i].cycles;
        r[i].zero = 0;
        r[i].active = 0;
        g->body = r[i].body;
        homg__gen_loop_account(g, r[i].cycles, restart_every(g, &r[i]));
    }
    return HOMG_OK;
}

/* The iterations of m right-hand sides, one lane each: with a tolerance in a device loop
 * per lane (runs_loop), or on the host: every CG half of an iteration is queued for all
 * lanes before the host waits for any norm (tol > 0), so the lanes overlap on the device;
 * the host's test is the device loop's (gen_loop.h). */
static homg_status runs_iterate(homg_grid *g, gen_run *r, int m, const homg_solve_desc *sd)
{
    const int max_cycles = sd->max_cycles ? sd->max_cycles : 50;
    if (sd->tol > 0 && homg__grid_device_loop(g))
        HOMG_TRY(runs_loop(g, r, m, sd, max_cycles));
    for (int busy = 1; busy;) {
        busy = 0;
        for (int i = 0; i < m; i++)
            if (r[i].active) {
                select_run(g, &r[i], i);
                /* quiet (tol 0): exactly max_cycles, u read after the last alone */
                const int keep = g->gen->keep && r[i].x.quiet && r[i].cycles + 1 < max_cycles;
                HOMG_TRY(homg__gen_run_seq(g, &r[i].x,
                                           !r[i].plain ? GEN_SEQ_UPDATE
                                           : r[i].zero ? (keep ? GEN_SEQ_PLAIN_ZERO_KEEP : GEN_SEQ_PLAIN_ZERO)
                                           : keep      ? GEN_SEQ_PLAIN_KEEP
                                                       : GEN_SEQ_PLAIN));
                r[i].zero = 0;
                r[i].cycles++;
                r[i].count++;
            }
        for (int i = 0; i < m; i++)
            if (r[i].active) {
                const int every = restart_every(g, &r[i]);
                r[i].active = r[i].cycles < max_cycles;
                if (sd->tol > 0) {
                    select_run(g, &r[i], i);
                    HOMG_TRY(read_hist(g, r[i].count, &r[i].norm));
                    HOMG_TRY(outcome(g, &r[i], sd->tol));
                    r[i].active = homg_tol_continue(r[i].norm, r[i].cycles, sd->tol, max_cycles);
                }
                r[i].restart = every > 0 && r[i].cycles % every == 0;
            }
        for (int i = 0; i < m; i++)
            if (r[i].active) {
                busy = 1;
                if (r[i].plain)
                    continue;
                select_run(g, &r[i], i); /* the next direction: a restart's, or CG's */
                HOMG_TRY(homg__gen_run_seq(g, &r[i].x, r[i].restart ? GEN_SEQ_RESTART : GEN_SEQ_DIRECTION));
            }
    }
    for (int i = 0; i < m; i++) {
        select_run(g, &r[i], i);
        if (sd->tol == 0 && sd->u_ref)
            HOMG_TRY(read_hist(g, r[i].count, &r[i].norm));
        HOMG_TRY(homg__gen_project(g, r[i].x.u, NULL)); /* mean zero per singular island */
    }
    return HOMG_OK;
}

/* Right-hand sides k0 .. k0+m-1, lane i taking k0+i; the lanes fork from the
 * caller's stream and join back into it (no host synchronisation with tol = 0). */
static homg_status solve_batch(homg_grid *g, const void *f, const homg_boundary *bc, void *u, const homg_solve_desc *sd,
                               int k0, int m, gen_run *r)
{
    const homg_grid_desc *d = &g->desc;
    const size_t n = cells(&g->gen->lv[0]);
    homg_status st = HOMG_OK, st2 = HOMG_OK;
    for (int i = 0; i < m; i++) {
        const size_t k = (size_t)(k0 + i);
        int kept = r[i].count; /* the lane's history so far */
        memset(&r[i], 0, sizeof r[i]);
        r[i].count = kept;
        r[i].norm = -1;
        r[i].proj = -1;
        r[i].x.f = offset(f, k * n * g->elem);
        r[i].x.u = (void *)offset(u, k * n * g->elem);
        r[i].x.u_ref = offset(sd->u_ref, k * n * g->elem);
        r[i].x.quiet = sd->no_history && sd->tol == 0 && !sd->u_ref;
        for (int s = 0; s < 6; s++)
            r[i].face[s] = bc ? offset(bc->face[s], k * homg__face_len(d, s) * g->elem) : NULL;
    }
    if (g->gen->lanes > 1)
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->fork(&g->ctx->ex, m), "forking the right-hand sides");
    for (int i = 0; i < m && st == HOMG_OK; i++) {
        select_run(g, &r[i], i);
        st = run_start(g, &r[i], sd);
    }
    if (st == HOMG_OK)
        st = runs_iterate(g, r, m, sd);
    homg__gen_use_lane(g, 0);
    if (g->gen->lanes > 1)
        st2 = g->ctx->mem->join(&g->ctx->ex, m); /* also after a failure: the caller's stream stays whole */
    if (st == HOMG_OK && st2 != HOMG_OK)
        return homg__k_fail(g, st2, "joining the right-hand sides");
    return st;
}

homg_status homg__gen_solve(homg_grid *g, const void *f, const homg_boundary *bc, void *u, const homg_solve_desc *sd,
                            homg_solve_info *info)
{
    grid_general *G = g->gen;
    const homg_grid_desc *d = &g->desc;
    gen_run r[HOMG_EXEC_LANES];
    int all_converged = 1, total = 0, lanes;
    double worst = -1, proj = 0;
    memset(r, 0, sizeof r);
    HOMG_TRY(homg__gen_lanes_ready(g));
    lanes = G->lanes;
    g->hist_lanes = lanes;
    for (int k0 = 0; k0 < d->nrhs; k0 += lanes) {
        const int m = d->nrhs - k0 < lanes ? d->nrhs - k0 : lanes;
        HOMG_TRY(solve_batch(g, f, bc, u, sd, k0, m, r));
        for (int i = 0; i < m; i++) {
            double pk = 0;
            total = r[i].cycles > total ? r[i].cycles : total;
            worst = r[i].norm > worst ? r[i].norm : worst;
            all_converged &= r[i].converged;
            if (r[i].proj >= 0) /* read with the test's outcome */
                pk = r[i].proj;
            else if (G->isl.n > 0 && (sd->tol > 0 || sd->u_ref))
                HOMG_TRY(homg__read(g->ctx, &pk, G->lane[i].s + GEN_PROJ, sizeof pk));
            proj = pk > proj ? pk : proj;
        }
    }
    if (info) {
        info->cycles = total;
        info->norm = worst;
        info->converged = sd->tol > 0 && all_converged;
        info->two_pass = 0;
        for (int m = 0; m < G->nlev; m++)
            info->two_pass += (int)(G->kmask >> m & 1);
        info->projected = G->isl.n > 0 && sd->tol == 0 && !sd->u_ref ? -1 : proj;
    }
    if (sd->tol > 0 && !all_converged)
        return homg__fail(g->ctx, HOMG_ERROR_NOT_CONVERGED, "not converged: norm %.3e > tol %.3e after %d cycles",
                          worst, sd->tol, total);
    return HOMG_OK;
}

homg_status homg__gen_residual(homg_grid *g, const void *f, const homg_boundary *bc, const void *u, void *r)
{
    grid_general *G;
    const homg_grid_desc *d = &g->desc;
    HOMG_TRY(homg__gen_prepare(g));
    G = g->gen;
    for (int k = 0; k < d->nrhs; k++) {
        const size_t n = cells(&G->lv[0]), off = k * n * g->elem;
        for (int s = 0; s < 6; s++)
            G->F.face[s] = bc ? offset(bc->face[s], k * homg__face_len(d, s) * g->elem) : NULL;
        HOMG_TRY_BACKEND(g->ctx,
                         G->k->residual(&g->ctx->ex, d->precision, &G->lv[0], &G->F, offset(u, off), offset(f, off),
                                        (char *)r + off, NULL),
                         "homg_grid_residual");
    }
    return HOMG_OK;
}
