/* general_cycle.c -- the general solver's V- and F-cycles (homg__gen_visit) on the
 * gen kernels, the cube kernels on uniform 3D levels (kernels/grid/cube*), the levels run
 * in one launch and the level solved exactly; the preconditioner and the islands'
 * projection. */
#include "general_internal.h"
#include "grid/cube_coarse.h"
#include "grid/cube_point.h"
#include "grid/cube_split.h"

#include <stdlib.h>
#include <string.h>

#define HOMG_GEN_COARSE_SWEEPS 40 /* the coarsest level's sweeps */

/* A cycle on level 0's (x0, b0), the coarse levels on the grid's own x and b. */
void homg__gen_cycle_start(gen_cycle *c, homg_grid *g, void *x0, const void *b0)
{
    const grid_general *G = g->gen;
    memset(c, 0, sizeof *c);
    c->g = g;
    c->xs[0] = x0;
    c->bs[0] = b0;
    for (int l = 1; l < G->nlev; l++) {
        c->xs[l] = G->x[l];
        c->bs[l] = G->b[l];
    }
}

static double share(const grid_general *G, int l) { return (double)cells(&G->lv[l]) / (double)cells(&G->lv[0]); }

/* ---- the uniform 3D levels' fast path (kernels/grid/cube*, cube_kernels.h) ---- */

/* Whether level l (with x and b) runs the cube kernels, and then K: float32, a cube
 * level, 16-byte aligned arrays.  HOMG_GEN_CUBE=0 turns them off (the benchmark times
 * against it; the library documents no such variable). */
int homg__gen_cube_of(const homg_grid *g, int l, const void *x, const void *b, cube_level *K)
{
    return g->gen->cube && g->desc.precision == HOMG_FLOAT32 && !((size_t)x % 16) && !((size_t)b % 16) &&
           cube_from_gen(&g->gen->lv[l], K);
}

/* homg__gen_cube_of for the cycle's level l: in a plain cycle with the plain cycles' SOR weight. */
static int cube_at(const gen_cycle *c, int l, cube_level *K)
{
    if (!homg__gen_cube_of(c->g, l, c->xs[l], c->bs[l], K))
        return 0;
    if (c->plain)
        K->omega = c->g->gen->omega;
    return 1;
}

/* Whether the cycle keeps level l split by colour, and then its u and f there: level 0's in
 * su, sf (the natural xs[0], bs[0] are the caller's), level 1's in its own xs[1], bs[1]. */
static int split_at(const gen_cycle *c, int l, float **u, float **f)
{
    if (!(l == 0 && c->su) && !(l == 1 && c->split1))
        return 0;
    *u = l ? (float *)c->xs[1] : c->su;
    *f = l ? (float *)c->bs[1] : c->sf;
    return 1;
}

/* n symmetric sweeps as half-sweep launches, the first `skip` half-sweeps done already.
 * skip 1 (after a fused prolongation, whose other colour kept the uncorrected u): the
 * next half-sweep Gauss-Seidel even in SOR (which would read that stale own value; the
 * error after 3 plain cycles at 128^3: 6.9e-5, against 6.0e-5 with exact SOR and 1e-1
 * with the stale one, bench/results/cpu_cube_schedules.md). */
static homg_status cube_sweeps(gen_cycle *c, int l, const cube_level *K, int n, int reverse, int skip)
{
    homg_grid *g = c->g;
    const cube_kernels *ck = HOMG_KERNELS(&g->ctx->ex, cube);
    const double nl = (double)cells(&g->gen->lv[l]), share_l = nl / (double)cells(&g->gen->lv[0]);
    double values = 0; /* the info's traffic */
    cube_level gs = *K;
    float *su = NULL, *sf = NULL;
    const int split = split_at(c, l, &su, &sf);
    gs.omega = 1.0f;
    for (int h = skip; h < 2 * n; h++) {
        const cube_level *Kh = skip == 1 && h == 1 ? &gs : K;
        if (split) { /* half of each array; Gauss-Seidel does not read its own u */
            float *nat = h == 2 * n - 1 && l == 0 ? c->nat : NULL;
            HOMG_TRY_BACKEND(
                g->ctx, HOMG_KERNELS(&g->ctx->ex, cubesplit)->sweep(&g->ctx->ex, Kh, su, sf, (h + reverse) & 1, nat),
                "smoothing");
            c->nat_done |= nat != NULL;
            values += (Kh->omega != 1.0f ? 2.0 : 1.5) * nl + (nat ? nl : 0.0);
        } else {
            HOMG_TRY_BACKEND(g->ctx,
                             ck->sweep(&g->ctx->ex, Kh, (float *)c->xs[l], (const float *)c->bs[l], (h + reverse) & 1),
                             "smoothing");
            values += 3.0 * nl; /* u read, f read, u written */
        }
    }
    if (2 * n > skip)
        homg__account(g, 2L * n - skip, (2 * n - skip) * 0.5 * share_l, values);
    return HOMG_OK;
}

/* Level l's residual restricted to level l + 1's rhs: cube kernels where level l is a cube level. */
static homg_status residual_restrict(gen_cycle *c, int l)
{
    homg_grid *g = c->g;
    grid_general *G = g->gen;
    cube_level K;
    float *su, *sf;
    if (split_at(c, l, &su, &sf) && homg__gen_cube_of(g, l, c->xs[l], c->bs[l], &K)) /* level 1's b split too: cs */
        return HOMG_KERNELS(&g->ctx->ex, cubesplit)
            ->residual_restrict(&g->ctx->ex, &K, su, sf, (float *)G->b[l + 1], l == 0 && c->split1);
    if (homg__gen_cube_of(g, l, c->xs[l], c->bs[l], &K) && !((size_t)G->b[l + 1] % 8))
        return HOMG_KERNELS(&g->ctx->ex, cube)
            ->residual_restrict(&g->ctx->ex, &K, (const float *)c->xs[l], (const float *)c->bs[l],
                                (float *)G->b[l + 1]);
    return G->k->residual_restrict(&g->ctx->ex, g->desc.precision, &G->lv[l], &G->lv[l + 1], c->xs[l], c->bs[l],
                                   G->b[l + 1]);
}

/* q = A_l x, *xq += x.q: cube kernels where level l is a cube level. */
homg_status homg__gen_apply_level(homg_grid *g, int l, const void *x, void *q, double *xq)
{
    grid_general *G = g->gen;
    cube_level K;
    if (homg__gen_cube_of(g, l, x, q, &K))
        return HOMG_KERNELS(&g->ctx->ex, cube)->apply(&g->ctx->ex, &K, (const float *)x, (float *)q, xq);
    return G->k->apply(&g->ctx->ex, g->desc.precision, &G->lv[l], x, q, xq);
}

/* r = f + face terms - A_0 u (u NULL: 0), *rr += r.r: the cube kernel (in double, like
 * gen's) where the finest level is a cube level and the sides carry no data. */
homg_status homg__gen_residual_fine(homg_grid *g, const void *u, const void *f, void *r, double *rr)
{
    grid_general *G = g->gen;
    cube_level K;
    int faces = G->F.sigma_cell != NULL;
    for (int s = 0; s < 6; s++)
        faces |= G->F.face[s] != NULL;
    if (!faces && !((size_t)u % 16) && homg__gen_cube_of(g, 0, f, r, &K))
        return HOMG_KERNELS(&g->ctx->ex, cube)
            ->residual(&g->ctx->ex, &K, (const float *)u, (const float *)f, (float *)r, rr);
    return G->k->residual(&g->ctx->ex, g->desc.precision, &G->lv[0], &G->F, u, f, r, rr);
}

/* n symmetric sweeps (reverse: colour 1 first), from the second half-sweep on
 * when the first was fused into the launch before (skip; 2 on a cube level after
 * cube_pre: the first two). */
static homg_status sweeps(gen_cycle *c, int l, int n, int reverse, int skip)
{
    homg_grid *g = c->g;
    grid_general *G = g->gen;
    cube_level K;
    if (cube_at(c, l, &K))
        return cube_sweeps(c, l, &K, n, reverse, skip);
    HOMG_TRY_BACKEND(g->ctx,
                     G->k->sweeps(&g->ctx->ex, g->desc.precision, &G->lv[l], c->xs[l], c->bs[l], n, reverse, skip),
                     "smoothing");
    homg__account(g, 2L * n - (n > 0 && skip), n * share(G, l), 4.0 * n * cells(&G->lv[l]));
    return HOMG_OK;
}

/* n sweeps from colour 0 (the first `skip` half-sweeps done), then level l's residual
 * restricted.  (s6-cube2's sweep_restrict and pre3 kernels, which fused the last
 * half-sweep with the restriction and the first three half-sweeps from zero, were
 * slower on the H100 -- 160 and 472 us at 256^3 against 128 and 161 for the launches
 * they replace, bench/results/h100_cube.md -- and are gone.) */
static homg_status sweeps_restrict(gen_cycle *c, int l, int n, int skip)
{
    homg_grid *g = c->g;
    grid_general *G = g->gen;
    HOMG_TRY(sweeps(c, l, n, 0, skip));
    HOMG_TRY_BACKEND(g->ctx, residual_restrict(c, l), "residual and restriction");
    homg__account(g, 1, share(G, l), 2.0 * cells(&G->lv[l]) + cells(&G->lv[l + 1]));
    return HOMG_OK;
}

static homg_status two_pass_rest(gen_cycle *c, int l);

/* Whether prolongation and the first half-sweep from zero run fused (HOMG_GEN_NOFUSE=1:
 * separate launches, which the benchmark times against; the library documents no such
 * variable). */
int homg__gen_fused(void) { return !(int)homg__knob("HOMG_GEN_NOFUSE", 0); }

/* x_l = x_l + the coarse correction, then n symmetric sweeps from colour 1 (a plain
 * cycle's cube level: from colour 0, the order of the way down -- the error after 3
 * cycles of V(2,2) with SOR 1.1 from zero: 6.0e-5 against 6.9e-4 symmetric, GS, at 128^3,
 * tools/dev/cube_schedules.c, bench/results/cpu_cube_schedules.md): with n >= 1 the
 * prolongation and the first half-sweep are one pass (prolong_smooth). */
static homg_status correct_and_sweep(gen_cycle *c, int l, int n)
{
    homg_grid *g = c->g;
    grid_general *G = g->gen;
    kernel_exec *ex = &g->ctx->ex;
    const homg_precision p = g->desc.precision;
    const int fuse = n > 0 && homg__gen_fused();
    cube_level K;
    const int cube = cube_at(c, l, &K), fast = fuse && cube && !((size_t)G->x[l + 1] % 8);
    const int first = (fast || !fuse) && cube && c->plain && !G->sym ? 0 : 1; /* the way up's first colour */
    homg_status st;
    float *su, *sf;
    if (fast && split_at(c, l, &su, &sf)) /* level 1's x split too: cs */
        HOMG_TRY_BACKEND(g->ctx,
                         HOMG_KERNELS(ex, cubesplit)
                             ->prolong_smooth(ex, &K, (const float *)G->x[l + 1], su, sf, first, l == 0 && c->split1),
                         "prolongation");
    else if (fast)
        HOMG_TRY_BACKEND(g->ctx,
                         HOMG_KERNELS(ex, cube)->prolong_smooth(ex, &K, (const float *)G->x[l + 1], (float *)c->xs[l],
                                                                (const float *)c->bs[l], first),
                         "prolongation");
    else if (fuse)
        HOMG_TRY_BACKEND(g->ctx, G->k->prolong_smooth(ex, p, &G->lv[l], &G->lv[l + 1], G->x[l + 1], c->xs[l], c->bs[l]),
                         "prolongation");
    else
        HOMG_TRY_BACKEND(g->ctx, G->k->prolong_add(ex, p, &G->lv[l], &G->lv[l + 1], G->x[l + 1], c->xs[l]),
                         "prolongation");
    homg__account(g, 1, share(G, l), 2.0 * cells(&G->lv[l]));
    c->nat = l == 0 && c->su && !c->keep ? (float *)c->xs[0] : NULL; /* the cycle's last half-sweep writes u */
    st = sweeps(c, l, n, first, fuse);
    c->nat = NULL;
    return st;
}

/* The coarsest level's sweeps: HOMG_GEN_COARSE_SWEEPS, or HOMG_GEN_COARSE_SWEEPS=n
 * from the environment (the benchmark times against it; the library documents no
 * such variable).  20 where the level is <= 8 cells a side (s5-gen2) saved 24 us a
 * smoke frame but cost the 2048^2 per-cell-sigma solve a cycle (factor 0.037 ->
 * 0.064: 3 -> 4 cycles, 2.20 -> 2.88 ms) and the 256^3 warm Neumann projection one
 * (H100, 2026-11-26 16:30, bench/results/h100_grid_general.md): 40 everywhere. */
int homg__gen_coarse_sweeps(void)
{
    static int env = -1; /* read once */
    if (env < 0) {
        const int n = (int)homg__knob("HOMG_GEN_COARSE_SWEEPS", 0);
        env = n > 0 ? n : 0;
    }
    return env ? env : HOMG_GEN_COARSE_SWEEPS;
}

/* Level l's sweeps on the way down (post = 0) or up: desc.pre / desc.post, or
 * HOMG_GEN_SMALL_SWEEPS=s on the coarse levels of at most HOMG_GEN_SMALL_CELLS=n
 * cells (environment; the benchmark times against it, the library documents no such
 * variable): below 512^2 a level costs a launch per half-sweep, ~4 us each on the
 * H100 whatever its size.  Off by default: V(1,1) on the levels of <= 1024 cells gave
 * the smoke demo 0.959 -> 0.930 ms a frame (3.35 -> 3.49 cycles, H100 2026-11-26,
 * bench/results/h100_gen3_s5.md) but fails test_grid_ref's 1e4 sigma-jump targets. */
int homg__gen_level_sweeps(const homg_grid *g, int l, int post)
{
    static double most = -1;
    static int small = 0;
    if (most < 0) { /* read once */
        const int n = (int)homg__knob("HOMG_GEN_SMALL_SWEEPS", 0);
        most = homg__knob("HOMG_GEN_SMALL_CELLS", 0);
        small = n > 0 ? n : 0;
    }
    if (l > 0 && small > 0 && (double)cells(&g->gen->lv[l]) <= most)
        return small;
    return post ? g->desc.post : g->desc.pre;
}

/* Level l's sweeps in cycle c: the plan's where c is planned (homg__gen_plain_cycle: a plain V-cycle of a
 * V-cycle solve with the default V(2,2); HOMG_CUBE_SCHED, homg__gen_schedule_env; HOMG_GEN_SMALL_SWEEPS does
 * not apply there), else homg__gen_level_sweeps'. */
static int cycle_sweeps(const gen_cycle *c, int l, int post)
{
    return c->planned ? c->g->gen->plan[c->later][l][post] : homg__gen_level_sweeps(c->g, l, post);
}

/* Levels l .. the coarsest of a V-cycle from zero in one launch (block_vcycle: the
 * steps of visit below, same order); accounted as the steps it replaces, one launch. */
static homg_status block_cycle(gen_cycle *c, int l)
{
    homg_grid *g = c->g;
    grid_general *G = g->gen;
    gen_block B;
    double wu = 0, bytes = 0;
    memset(&B, 0, sizeof B);
    B.n = G->nlev - l;
    B.pre = g->desc.pre;
    B.post = g->desc.post;
    B.sweeps = homg__gen_coarse_sweeps();
    for (int q = 0; q < B.n; q++) {
        const int m = l + q;
        const double n = (double)cells(&G->lv[m]);
        B.lv[q] = G->lv[m];
        B.x[q] = c->xs[m];
        B.b[q] = (void *)c->bs[m];
        if (q == B.n - 1) {
            wu += B.sweeps * share(G, m);
            bytes += 2.0 * n;
        } else {
            wu += (B.pre + B.post + 2) * share(G, m);
            bytes += 4.0 * (B.pre + B.post) * n + 4.0 * n + (double)cells(&G->lv[m + 1]);
        }
    }
    HOMG_TRY_BACKEND(g->ctx, G->k->block_vcycle(&g->ctx->ex, g->desc.precision, &B), "coarse levels");
    homg__account(g, 1, wu, bytes);
    return HOMG_OK;
}

/* B: levels l .. the coarsest as the cube block (kernels/grid/cube_coarse.h) runs them, when
 * it can: fused steps, every level above the coarsest a cube level (cube_at) with sweeps
 * both ways, the coarsest solved by its matrix, the shared memory there on CUDA. */
static int cube_block_of(gen_cycle *c, int l, cube_block *B)
{
    homg_grid *g = c->g;
    grid_general *G = g->gen;
    const gen_level *C = &G->lv[G->nlev - 1];
    memset(B, 0, sizeof *B);
    if (!homg__gen_fused() || !G->cm || C->flag || !C->uniform)
        return 0;
    B->n = G->nlev - l;
    B->first = c->plain && !G->sym ? 0 : 1; /* correct_and_sweep's */
    B->coarsest = *C;
    B->cm = (const float *)G->cm;
    for (int q = 0; q < B->n; q++) {
        B->x[q] = (float *)c->xs[l + q];
        B->b[q] = (float *)c->bs[l + q];
    }
    for (int q = 0; q + 1 < B->n; q++) {
        B->pre[q] = cycle_sweeps(c, l + q, 0);
        B->post[q] = cycle_sweeps(c, l + q, 1);
        if (!cube_at(c, l + q, &B->K[q]) || (size_t)B->x[q + 1] % 8 || (size_t)B->b[q + 1] % 8 || B->pre[q] < 1 ||
            B->post[q] < 1)
            return 0;
    }
    return g->ctx->ex.backend != HOMG_BACKEND_CUDA ||
           cube_block_floats(B) * sizeof(float) <= g->ctx->ex.shared_per_block;
}

/* Levels l .. the coarsest of a V-cycle from zero in one launch (the cube block: the
 * steps of visit below on those levels, same order); accounted as the steps it replaces'
 * work, one launch and its own global traffic (b_l, x_l and the matrix). */
static homg_status cube_block_cycle(gen_cycle *c, int l, const cube_block *B)
{
    homg_grid *g = c->g;
    grid_general *G = g->gen;
    const double nc = (double)cells(&G->lv[G->nlev - 1]);
    double wu = share(G, G->nlev - 1);
    for (int q = 0; q + 1 < B->n; q++)
        wu += (B->pre[q] + B->post[q] + 2) * share(G, l + q);
    HOMG_TRY_BACKEND(g->ctx, HOMG_KERNELS(&g->ctx->ex, cubeblk)->vcycle(&g->ctx->ex, B), "coarse levels");
    homg__account(g, 1, wu, 2.0 * cells(&G->lv[l]) + nc * nc);
    return HOMG_OK;
}

/* x_l = A_l^-1 b_l (homg__gen_plan_exact's level) in one launch (cube_exact.h; cube_cluster.h where
 * G->xcs) or three (cube_sep.h), in place of the V-cycle from level l down; accounted as those
 * launches reading b_l and writing x_l (and the scratch). */
static homg_status exact_cycle(gen_cycle *c, int l)
{
    homg_grid *g = c->g;
    grid_general *G = g->gen;
    if (G->xcs)
        HOMG_TRY_BACKEND(g->ctx,
                         HOMG_KERNELS(&g->ctx->ex, cubeclu)
                             ->solve(&g->ctx->ex, &G->xc, G->xcs, (float *)c->xs[l], (const float *)c->bs[l]),
                         "exact coarse solve");
    else if (G->xp.t) {
        cube_sep P = G->xp; /* the selected lane's scratch: lanes run side by side */
        P.w += (size_t)G->cur * P.n[0] * P.n[1] * P.n[2];
        HOMG_TRY_BACKEND(
            g->ctx,
            HOMG_KERNELS(&g->ctx->ex, cubesep)->solve(&g->ctx->ex, &P, (float *)c->xs[l], (const float *)c->bs[l]),
            "exact coarse solve");
    } else
        HOMG_TRY_BACKEND(g->ctx,
                         HOMG_KERNELS(&g->ctx->ex, cubeexact)
                             ->solve(&g->ctx->ex, &G->xe, (float *)c->xs[l], (const float *)c->bs[l]),
                         "exact coarse solve");
    homg__account(g, G->xp.t && !G->xcs ? 3 : 1, 6.0 * share(G, l),
                  (G->xp.t && !G->xcs ? 6.0 : 2.0) * cells(&G->lv[l]));
    return HOMG_OK;
}

/* x_l improves A_l x_l = b_l from x_l = 0 (zero; else from x_l) by one V- or F-cycle. */
homg_status homg__gen_visit(gen_cycle *c, int l, int fcycle, int zero)
{
    homg_grid *g = c->g;
    grid_general *G = g->gen;
    kernel_exec *ex = &g->ctx->ex;
    const homg_precision p = g->desc.precision;
    const int pre = cycle_sweeps(c, l, 0), from_zero = zero && pre > 0 && homg__gen_fused();
    cube_level K;
    int done = from_zero; /* half-sweeps done by the launch from zero */
    cube_block B;
    float *su, *sf;
    if (G->xl > 0 && l == G->xl && zero && !fcycle)
        return exact_cycle(c, l);
    if (G->blk > 0 && l == G->blk && zero && !fcycle)
        return block_cycle(c, l);
    if (G->cblk > 0 && l == G->cblk && zero && !fcycle && cube_block_of(c, l, &B))
        return cube_block_cycle(c, l, &B);
    if (l == G->nlev - 1 && G->cm) { /* the same map as coarse_solve's sweeps, one mat-vec */
        HOMG_TRY_BACKEND(g->ctx, G->k->coarse_apply(ex, p, &G->lv[l], G->cm, c->xs[l], c->bs[l]), "coarse solve");
        homg__account(g, 1, share(G, l), (cells(&G->lv[l]) + 2.0) * cells(&G->lv[l]));
        return HOMG_OK;
    }
    if (l == G->nlev - 1) { /* coarse_solve starts from zero itself */
        HOMG_TRY_BACKEND(g->ctx, G->k->coarse_solve(ex, p, &G->lv[l], c->xs[l], c->bs[l], homg__gen_coarse_sweeps()),
                         "coarse solve");
        homg__account(g, 1, homg__gen_coarse_sweeps() * share(G, l), 2.0 * cells(&G->lv[l]));
        return HOMG_OK;
    }
    if (from_zero && cube_at(c, l, &K) && split_at(c, l, &su, &sf)) { /* the same, split */
        HOMG_TRY_BACKEND(g->ctx, HOMG_KERNELS(ex, cubesplit)->pre(ex, &K, su, sf, l ? NULL : c->fn), "smoothing");
        homg__account(g, 1, share(G, l), (l || !c->fn ? 2.0 : 3.0) * cells(&G->lv[l]));
        done = 2;
    } else if (from_zero && cube_at(c, l, &K)) { /* zeroing and the first sweep in one pass */
        HOMG_TRY_BACKEND(g->ctx, HOMG_KERNELS(ex, cube)->pre(ex, &K, (float *)c->xs[l], (const float *)c->bs[l]),
                         "smoothing");
        homg__account(g, 1, share(G, l), 2.0 * cells(&G->lv[l]));
        done = 2;
    } else if (from_zero) { /* zeroing and the first half-sweep in one pass */
        HOMG_TRY_BACKEND(g->ctx, G->k->smooth_from_zero(ex, p, &G->lv[l], c->xs[l], c->bs[l]), "smoothing");
    } else if (zero) {
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(ex, c->xs[l], cells(&G->lv[l]) * g->elem), "zeroing a level");
        homg__account(g, 1, 0, (double)cells(&G->lv[l]));
    }
    HOMG_TRY(sweeps_restrict(c, l, pre, done));
    if (G->kmask >> (l + 1) & 1)
        return two_pass_rest(c, l);
    HOMG_TRY(homg__gen_visit(c, l + 1, fcycle, 1));
    if (fcycle) {
        /* the F-cycle's second visit: a V-cycle on the coarse correction's residual */
        HOMG_TRY(correct_and_sweep(c, l, 1));
        HOMG_TRY(sweeps(c, l, 1, 0, 0));
        HOMG_TRY_BACKEND(g->ctx, residual_restrict(c, l), "residual and restriction");
        HOMG_TRY(homg__gen_visit(c, l + 1, 0, 1));
    }
    return correct_and_sweep(c, l, cycle_sweeps(c, l, 1));
}

/* The two-pass coarse solve of the top levels: x_m = a z1 + a z2 with z1 = V(b),
 * z2 = V(b - a A_m z1): a W-cycle at level m with damped passes.  The weight is
 * a = min(0.85, 1.6 z1.b / z1.A z1) (GEN_PASS_*): the fixed 0.85 keeps the
 * preconditioner linear and symmetric, so the outer CG keeps its Krylov
 * acceleration (Notay's K-cycle, whose free CG step per pass lost it on
 * misaligned jumps: factor 0.87 -> 0.97 at 256^2, bench/results/cpu_grid_jump.md);
 * the bound engages only where V over-corrects so much that a fixed weight would
 * make the preconditioner indefinite (an 8-cell checkerboard with two passes on
 * level 1 alone stalled at 0.85 and converges with the bound).  The scalars of
 * level m are the device block kw + m GEN_NSCALARS; b_m ends as b - a A_m z1. */
static homg_status two_pass_solve(gen_cycle *c, int m)
{
    homg_grid *g = c->g;
    grid_general *G = g->gen;
    kernel_exec *ex = &g->ctx->ex;
    const homg_precision p = g->desc.precision;
    const gen_level *L = &G->lv[m];
    const size_t n = cells(L);
    double *s = G->kw + (size_t)m * GEN_NSCALARS;
    void *x = c->xs[m], *b = (void *)c->bs[m];
    c->xs[m] = G->kz[m];
    HOMG_TRY(homg__gen_visit(c, m, 0, 1));
    HOMG_TRY_BACKEND(g->ctx, G->k->dot2(ex, p, n, G->kz[m], b, NULL, s + GEN_RZ), "two-pass weight");
    HOMG_TRY_BACKEND(g->ctx, homg__gen_apply_level(g, m, G->kz[m], G->kq[m], s + GEN_PQ), "two-pass operator");
    HOMG_TRY_BACKEND(g->ctx, G->k->scalars(ex, s, GEN_STEP_PASS, 0, NULL, NULL), "two-pass weight");
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(ex, x, n * g->elem), "zeroing a level");
    HOMG_TRY_BACKEND(g->ctx, G->k->update_ur(ex, p, n, L->flag, x, G->kz[m], b, G->kq[m], s), "two-pass update");
    HOMG_TRY(homg__gen_visit(c, m, 0, 1));
    HOMG_TRY_BACKEND(g->ctx, G->k->update_ur(ex, p, n, L->flag, x, G->kz[m], b, G->kq[m], s), "two-pass update");
    c->xs[m] = x;
    homg__account(g, 6, 2 * share(G, m), 15.0 * n);
    return HOMG_OK;
}

/* The rest of homg__gen_visit(l) when level l + 1 takes two passes: solve, prolong, smooth. */
static homg_status two_pass_rest(gen_cycle *c, int l)
{
    HOMG_TRY(two_pass_solve(c, l + 1));
    return correct_and_sweep(c, l, cycle_sweeps(c, l, 1));
}

/* z = M r: one cycle from zero, projected on the singular islands. */
homg_status homg__gen_precondition(homg_grid *g)
{
    grid_general *G = g->gen;
    gen_cycle c;
    homg__gen_cycle_start(&c, g, G->z, G->r);
    HOMG_TRY(homg__gen_visit(&c, 0, g->desc.method == HOMG_METHOD_FCYCLE || g->desc.method == HOMG_METHOD_FMG, 1));
    return HOMG_OK;
}

/* x -= island means (proj: also record the largest |mean|). */
homg_status homg__gen_project(homg_grid *g, void *x, double *proj)
{
    grid_general *G = g->gen;
    kernel_exec *ex = &g->ctx->ex;
    const size_t n = cells(&G->lv[0]);
    if (G->isl.n == 0)
        return HOMG_OK;
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(ex, G->isl.sums, (size_t)G->isl.n * sizeof(double)), "island sums");
    HOMG_TRY_BACKEND(g->ctx, G->k->island_sum(ex, g->desc.precision, n, G->isl.label, x, G->isl.sums), "island sums");
    HOMG_TRY_BACKEND(
        g->ctx, G->k->island_sub(ex, g->desc.precision, n, G->isl.label, x, G->isl.sums, G->isl.inv, G->isl.n, proj),
        "island projection");
    homg__account(g, 3, 0, 3.0 * n);
    return HOMG_OK;
}
