/* step.c -- one stable-fluids time step: advection of the velocity by itself,
 * the pressure projection, advection of the density.
 *
 * Projection: with the time step folded into p, u_new = u - grad p must have
 * zero divergence, so -Lap p = -div u with zero-flux walls (the box's sides and
 * the solid cells), which is homg_grid's Neumann problem with SOLID flags; its
 * compatible right-hand side is what the grid's per-island projection ensures.
 * The relative residual of that solve is exactly the divergence left after
 * u -= grad p, relative to before: that is info->divergence_left.  With solid
 * cells and tol > 0 the cycles are counted ahead (project_counted): one host
 * wait per step where the count holds, with the step's tail queued before it.
 *
 * Without solid cells the grid solves the box directly by the DCT (FFT path).
 * In float32 that is exact only to ~1e-3 of the divergence at 1024^2 (the
 * transform's rounding, amplified by the Laplacian's largest eigenvalue), so
 * with tol > 0 the divergence left is measured and, while above tol, projected
 * again (iterative refinement: one more FFT solve of what is left). */
#include "fluid/fluid_internal.h"

#include <math.h>

static homg_status advect(homg_fluid *fl, double dt, homg_fluid_field which, const float *in, float *out, float decay)
{
    homg_ctx *ctx = fl->ctx;
    const fluid_kernels *k = HOMG_KERNELS(&ctx->ex, fluid);
    fluid_field u = homg__fluid_field(fl, HOMG_FLUID_VELOCITY_X, fl->u);
    fluid_field v = homg__fluid_field(fl, HOMG_FLUID_VELOCITY_Y, fl->v);
    HOMG_TRY_BACKEND(ctx,
                     k->advect(&ctx->ex, fl->desc.nx, fl->desc.ny, fl->solid, homg__fluid_field(fl, which, in), u, v,
                               (float)(dt / fl->desc.h), decay, out),
                     "homg_fluid_step: advection");
    return HOMG_OK;
}

/* u_tmp, v_tmp = u and v advected by themselves: advect's values, one pass. */
static homg_status advect_velocity(homg_fluid *fl, double dt)
{
    homg_ctx *ctx = fl->ctx;
    const fluid_kernels *k = HOMG_KERNELS(&ctx->ex, fluid);
    fluid_field u = homg__fluid_field(fl, HOMG_FLUID_VELOCITY_X, fl->u);
    fluid_field v = homg__fluid_field(fl, HOMG_FLUID_VELOCITY_Y, fl->v);
    HOMG_TRY_BACKEND(
        ctx,
        k->advect_velocity(&ctx->ex, fl->desc.nx, fl->desc.ny, u, v, (float)(dt / fl->desc.h), fl->u_tmp, fl->v_tmp),
        "homg_fluid_step: advection");
    return HOMG_OK;
}

static void swap(float **a, float **b)
{
    float *t = *a;
    *a = *b;
    *b = t;
}

/* A fixed number of Jacobi sweeps from p = 0 (the engines' way), for comparison. */
static homg_status project_jacobi(homg_fluid *fl, homg_fluid_info *info)
{
    homg_ctx *ctx = fl->ctx;
    const fluid_kernels *k = HOMG_KERNELS(&ctx->ex, fluid);
    int nx = fl->desc.nx, ny = fl->desc.ny;
    float h2 = (float)(fl->desc.h * fl->desc.h);
    HOMG_TRY_BACKEND(ctx, ctx->mem->zero(&ctx->ex, fl->pressure, (size_t)nx * ny * sizeof(float)), "homg_fluid");
    for (int s = 0; s < fl->desc.jacobi; s++) {
        HOMG_TRY_BACKEND(ctx, k->jacobi(&ctx->ex, nx, ny, fl->solid, fl->pressure, fl->rhs, h2, fl->jacobi_tmp),
                         "homg_fluid_project: Jacobi");
        swap(&fl->pressure, &fl->jacobi_tmp);
    }
    info->cycles = fl->desc.jacobi;
    info->waits = 0;
    info->divergence_left = -1;
    info->method = HOMG_METHOD_DEFAULT;
    return HOMG_OK;
}

/* norms[slot * GEN_NSCALARS + GEN_R2] = ||q||^2 (error_norm of q against itself). */
static homg_status norm2(homg_fluid *fl, const float *q, int slot)
{
    homg_ctx *ctx = fl->ctx;
    const gen_kernels *g = HOMG_KERNELS(&ctx->ex, gen);
    double *s = fl->norms + slot * GEN_NSCALARS;
    size_t cells = (size_t)fl->desc.nx * fl->desc.ny;
    HOMG_TRY_BACKEND(ctx, ctx->mem->zero(&ctx->ex, s, GEN_NSCALARS * sizeof(double)), "homg_fluid_project: norm");
    HOMG_TRY_BACKEND(ctx, g->error_norm(&ctx->ex, HOMG_FLOAT32, cells, NULL, q, q, s), "homg_fluid_project: norm");
    return HOMG_OK;
}

/* ||-div u|| / ||rhs|| now, -div u (scaled as rhs) left in jacobi_tmp; one host wait. */
static homg_status measure(homg_fluid *fl, double *left)
{
    homg_ctx *ctx = fl->ctx;
    const fluid_kernels *k = HOMG_KERNELS(&ctx->ex, fluid);
    double s[2 * GEN_NSCALARS];
    HOMG_TRY_BACKEND(ctx,
                     k->divergence(&ctx->ex, fl->desc.nx, fl->desc.ny, fl->solid, fl->u, fl->v,
                                   (float)(-1.0 / fl->desc.h), fl->jacobi_tmp),
                     "homg_fluid_project: divergence left");
    HOMG_TRY(norm2(fl, fl->jacobi_tmp, 1));
    HOMG_TRY_BACKEND(ctx, ctx->mem->copy(&ctx->ex, s, fl->norms, sizeof s, HOMG_D2H), "homg_fluid_project: norm");
    *left = s[GEN_R2] > 0 ? sqrt(s[GEN_NSCALARS + GEN_R2] / s[GEN_R2]) : 0;
    return HOMG_OK;
}

/* After the first FFT projection: measure, and project what is left again while
 * above tol and still halving (a field divergence-free to float32's rounding
 * stays at that floor: no error then). */
static homg_status refine_fft(homg_fluid *fl, homg_fluid_info *info)
{
    homg_ctx *ctx = fl->ctx;
    const fluid_kernels *k = HOMG_KERNELS(&ctx->ex, fluid);
    homg_solve_desc sd = { 0 };
    homg_solve_info si;
    double left, before = HUGE_VAL;
    sd.skip_input_check = 1; /* tol 0: the FFT reads no mean back; measure() is the check */
    HOMG_TRY(norm2(fl, fl->rhs, 0));
    HOMG_TRY(measure(fl, &left));
    info->waits++;
    while (left > fl->desc.tol && left < 0.5 * before && info->cycles < fl->desc.max_cycles) {
        HOMG_TRY(homg_grid_solve(fl->grid, fl->jacobi_tmp, NULL, fl->correction, &sd, &si));
        HOMG_TRY_BACKEND(ctx,
                         k->subtract_gradient(&ctx->ex, fl->desc.nx, fl->desc.ny, fl->solid, fl->correction,
                                              (float)(1.0 / fl->desc.h), fl->u, fl->v),
                         "homg_fluid_project: gradient");
        info->cycles++;
        info->waits++;
        before = left;
        HOMG_TRY(measure(fl, &left));
    }
    info->divergence_left = left;
    if (left > fl->desc.tol && left < 0.5 * before)
        return homg__fail(ctx, HOMG_ERROR_NOT_CONVERGED,
                          "homg_fluid_project: divergence left %.3e > tol %.3e after %d FFT projections", left,
                          fl->desc.tol, info->cycles);
    return HOMG_OK;
}

/* What follows the pressure solve: u -= grad p, and in a step the density
 * advected by the projected velocity into density_tmp (advect 0: none). */
typedef struct step_tail {
    double dt;
    float decay;
    int advect;
} step_tail;

/* u -= sign * grad p (sign -1: a subtraction undone, to rounding). */
static homg_status gradient(homg_fluid *fl, double sign)
{
    homg_ctx *ctx = fl->ctx;
    const fluid_kernels *k = HOMG_KERNELS(&ctx->ex, fluid);
    HOMG_TRY_BACKEND(ctx,
                     k->subtract_gradient(&ctx->ex, fl->desc.nx, fl->desc.ny, fl->solid, fl->pressure,
                                          (float)(sign / fl->desc.h), fl->u, fl->v),
                     "homg_fluid_project: gradient");
    return HOMG_OK;
}

static homg_status tail(homg_fluid *fl, const step_tail *t)
{
    HOMG_TRY(gradient(fl, 1.0));
    if (t->advect)
        HOMG_TRY(advect(fl, t->dt, HOMG_FLUID_DENSITY, fl->density, fl->density_tmp, t->decay));
    return HOMG_OK;
}

/* The queued cycles' history read on a side lane that waits only for them,
 * while the step's tail, queued first on the stream, runs: the GPU does not
 * idle while the host wakes (one lane on the CPU: the same order). */
static int history_beside_tail(homg_fluid *fl, const step_tail *t, double *hist, int guess, homg_status *st)
{
    homg_ctx *ctx = fl->ctx;
    int n = 0;
    if ((*st = ctx->mem->fork(&ctx->ex, 2)) != HOMG_OK)
        return 0;
    *st = tail(fl, t);
    if (*st == HOMG_OK) {
        ctx->mem->lane(&ctx->ex, 1);
        n = homg_grid_history(fl->grid, hist, guess);
    }
    homg_status j = ctx->mem->join(&ctx->ex, 2);
    if (*st == HOMG_OK && j != HOMG_OK)
        *st = homg__fail(ctx, j, "homg_fluid_project: joining the history's lane");
    return n;
}

/* One grid solve of fl->rhs into fl->pressure from the pressure there. */
static homg_status grid_solve(homg_fluid *fl, int cycles, double tol, homg_solve_info *si)
{
    homg_solve_desc sd = { 0 };
    sd.max_cycles = cycles;
    sd.tol = tol;
    sd.warm_start = 1;
    sd.skip_input_check = 1;
    return homg_grid_solve(fl->grid, fl->rhs, NULL, fl->pressure, &sd, si);
}

/* The solve to tol with one host wait where the guess holds: the start's guess
 * of cycles queued with tol 0 (no wait), the history read once (the relative
 * residual after each cycle: the divergence left, relative to before); only
 * where the last is above tol does a second solve cycle on to tol, waiting
 * after each cycle (it restarts CG from the pressure reached).  The guess for
 * the next step: all the cycles of this one where a second solve ran; one fewer
 * once that many met tol in a few steps in a row.  Guessing low costs little:
 * the second solve's first cycle is a cycle the higher guess would have run
 * anyway, plus one host wait (H100, 1024^2, the smoke demo's wall: ~0.42 ms per
 * V(2,2) cycle).  The start (desc.start): by default 2 p_n - p_n-1 in a step
 * (project moved the pressure in the divergence's pass; the demo's script: 2.93 V(2,2)
 * cycles a step against 3.19 from the last pressure on the H100 at 1024^2, 2.65 against
 * 2.91 on the CPU at 512^2, 2 instead of 2-3 in free flow); the last pressure; the box's DCT solution saves a cycle while the mouse
 * injects momentum, costs one in free flow (3.09 against 2.65 on the CPU at 256^2; the
 * benchmark's rows before session 9 ran it from the last pressure: bench_fluid never
 * passed the start). */
static homg_status project_counted(homg_fluid *fl, homg_fluid_info *info, const step_tail *t)
{
    homg_solve_info si;
    double hist[HOMG_FLUID_MAX_GUESS];
    const double tol = fl->desc.tol;
    const int start = fl->desc.start;
    const int guess = fl->guess[start] < fl->desc.max_cycles ? fl->guess[start] : fl->desc.max_cycles;
    homg_status st = HOMG_OK;
    if (start == HOMG_FLUID_START_BOX) { /* one FFT solve, no wait */
        homg_solve_desc sd = { 0 };
        sd.skip_input_check = 1;
        HOMG_TRY(homg__fluid_box(fl));
        HOMG_TRY(homg_grid_solve(fl->box, fl->rhs, NULL, fl->pressure, &sd, NULL));
    }
    HOMG_TRY(grid_solve(fl, guess, 0, &si));
    int n = history_beside_tail(fl, t, hist, guess, &st); /* the tail queued as if the guess holds */
    HOMG_TRY(st);
    if (n < 1)
        return homg__fail(fl->ctx, HOMG_ERROR_BACKEND, "homg_fluid_project: no convergence history after %d cycles",
                          guess);
    info->cycles = si.cycles;
    info->waits = 1;
    info->divergence_left = hist[n - 1];
    info->method = si.method;
    if (!isfinite(hist[n - 1]))
        return homg__fail(fl->ctx, HOMG_ERROR_NUMERIC, "homg_fluid_project: divergence left %g after %d cycles",
                          hist[n - 1], n);
    if (hist[n - 1] > tol && guess < fl->desc.max_cycles) {
        HOMG_TRY(gradient(fl, -1.0)); /* the guess fell short: the tail's subtraction undone */
        st = grid_solve(fl, fl->desc.max_cycles - guess, tol, &si);
        if (st == HOMG_OK)
            st = tail(fl, t);
        info->cycles += si.cycles;
        info->waits += si.cycles;
        info->divergence_left = si.norm;
        fl->guess[start] = info->cycles < HOMG_FLUID_MAX_GUESS ? info->cycles : HOMG_FLUID_MAX_GUESS;
        fl->fewer[start] = 0;
    } else if (hist[n - 1] > tol) {
        HOMG_TRY(gradient(fl, -1.0)); /* u as it came, as on every failure */
        return homg__fail(fl->ctx, HOMG_ERROR_NOT_CONVERGED,
                          "homg_fluid_project: divergence left %.3e > tol %.3e after %d cycles", hist[n - 1], tol, n);
    } else {
        /* one cycle fewer once that met tol in HOMG_FLUID_FEWER steps in a row (no flip-flop) */
        fl->fewer[start] = n >= 2 && hist[n - 2] <= tol ? fl->fewer[start] + 1 : 0;
        if (fl->fewer[start] >= HOMG_FLUID_FEWER)
            fl->guess[start] = n - 1, fl->fewer[start] = 0;
    }
    return st;
}

static homg_status project_grid(homg_fluid *fl, homg_fluid_info *info, const step_tail *t, int *tail_done)
{
    homg_solve_info si;
    if (fl->desc.tol > 0 && fl->solid_cells > 0) { /* the general multigrid: it records every cycle's norm */
        *tail_done = 1;
        return project_counted(fl, info, t);
    }
    /* tol < 0: exactly max_cycles, no wait; the FFT (empty box): refine_fft measures; the box's
       multigrid (no solids, method VCYCLE ...): it monitors only with tol > 0 */
    HOMG_TRY(grid_solve(fl, fl->desc.max_cycles, fl->desc.tol < 0 ? 0 : fl->desc.tol, &si));
    info->cycles = si.cycles;
    info->waits = fl->desc.tol > 0 ? si.cycles : 0;
    info->divergence_left = fl->desc.tol < 0 ? -1 : si.norm;
    info->method = si.method;
    return HOMG_OK;
}

/* START_EXTRAPOLATED in a step's counted projection: the divergence's pass also
 * moves the pressure to 2 p_n - p_n-1 (one launch for both). */
static int extrapolates(const homg_fluid *fl, const step_tail *t)
{
    return fl->desc.start == HOMG_FLUID_START_EXTRAPOLATED && t->advect && fl->desc.jacobi == 0 && fl->desc.tol > 0 &&
           fl->solid_cells > 0;
}

/* The projection, then the rest of t (the density's advection in a step). */
static homg_status project(homg_fluid *fl, homg_fluid_info *info, const step_tail *t)
{
    homg_ctx *ctx = fl->ctx;
    const fluid_kernels *k = HOMG_KERNELS(&ctx->ex, fluid);
    int nx = fl->desc.nx, ny = fl->desc.ny, tail_done = 0;
    float inv_h = (float)(1.0 / fl->desc.h);
    if (extrapolates(fl, t))
        HOMG_TRY_BACKEND(ctx,
                         k->divergence_extrapolate(&ctx->ex, nx, ny, fl->solid, fl->u, fl->v, -inv_h, fl->rhs,
                                                   fl->pressure, fl->pressure_prev),
                         "homg_fluid_project: divergence");
    else
        HOMG_TRY_BACKEND(ctx, k->divergence(&ctx->ex, nx, ny, fl->solid, fl->u, fl->v, -inv_h, fl->rhs),
                         "homg_fluid_project: divergence");
    HOMG_TRY(fl->desc.jacobi > 0 ? project_jacobi(fl, info) : project_grid(fl, info, t, &tail_done));
    if (tail_done)
        return HOMG_OK;
    HOMG_TRY(gradient(fl, 1.0));
    if (info->method == HOMG_METHOD_FFT && fl->desc.jacobi == 0 && fl->desc.tol > 0)
        HOMG_TRY(refine_fft(fl, info));
    if (t->advect)
        HOMG_TRY(advect(fl, t->dt, HOMG_FLUID_DENSITY, fl->density, fl->density_tmp, t->decay));
    return HOMG_OK;
}

static homg_status step(homg_fluid *fl, double dt, homg_fluid_info *info)
{
    const step_tail t = { dt, (float)exp(-fl->desc.density_decay * dt), 1 };
    HOMG_TRY(advect_velocity(fl, dt));
    swap(&fl->u, &fl->u_tmp);
    swap(&fl->v, &fl->v_tmp);
    HOMG_TRY(project(fl, info, &t));
    swap(&fl->density, &fl->density_tmp);
    return HOMG_OK;
}

homg_status homg_fluid_project(homg_fluid *fl, homg_fluid_info *info)
{
    homg_fluid_info local;
    homg_status st;
    int saved;
    if (!fl)
        return HOMG_ERROR_INVALID_ARGUMENT;
    HOMG_TRY(homg__begin(fl->ctx, "homg_fluid_project", NULL));
    HOMG_TRY(homg__enter(fl->ctx, &saved));
    const step_tail t = { 0, 1.0f, 0 };
    st = project(fl, info ? info : &local, &t);
    homg__leave(fl->ctx, saved);
    return st;
}

homg_status homg_fluid_step(homg_fluid *fl, double dt, homg_fluid_info *info)
{
    homg_fluid_info local;
    homg_status st;
    int saved;
    if (!fl)
        return HOMG_ERROR_INVALID_ARGUMENT;
    HOMG_TRY(homg__begin(fl->ctx, "homg_fluid_step", NULL));
    if (!(dt >= 0) || !isfinite(dt))
        return homg__fail(fl->ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_fluid_step: dt is %g; it must be >= 0", dt);
    HOMG_TRY(homg__enter(fl->ctx, &saved));
    st = step(fl, dt, info ? info : &local);
    homg__leave(fl->ctx, saved);
    return st;
}

homg_status homg_fluid_divergence(homg_fluid *fl)
{
    if (!fl)
        return HOMG_ERROR_INVALID_ARGUMENT;
    homg_ctx *ctx = fl->ctx;
    const fluid_kernels *k = HOMG_KERNELS(&ctx->ex, fluid);
    HOMG_TRY(homg__begin(ctx, "homg_fluid_divergence", NULL));
    HOMG_TRY_BACKEND(ctx,
                     k->divergence(&ctx->ex, fl->desc.nx, fl->desc.ny, fl->solid, fl->u, fl->v,
                                   (float)(1.0 / fl->desc.h), fl->divergence),
                     "homg_fluid_divergence");
    return HOMG_OK;
}
