/* homg_method.c -- the high-occupancy multigrid (HOMG) of seed 003, as read here.
 *
 * Seed 003 describes the algorithm in a few sentences; where it is ambiguous we
 * chose as follows (the tests and README quote what it gives):
 *
 * Grid and operator.  The same cell-centred grid and 5-point operator as every
 * other method (lib/homg.h): N = 2^n unknowns per side, Dirichlet data on the
 * cell faces.  HOMG always runs on the residual equation A e = r with homogeneous
 * data: the first MFMG cycle from u = 0 has r = f + boundary terms, and each
 * restart recomputes r = f + bterm - A u (in double) and adds the correction.
 *
 * Levels.  Level m uses stencil spacing l = 2^m on the fine array itself (no
 * coarse arrays), m = 0 .. M with l = 2^M = min(nx, ny)/2.
 *
 * Four quadrants (section 3, figure 2).  Per axis, the low half's coarse points are
 * counted from its external corner (cell 0): 0, l, 2l, ..., N/2 -- the last one lies
 * just outside the half, as the paper asks, so the centre is resolved; the high
 * half's mirror them: N-1, N-1-l, ..., N/2-1.  A point is "marked" at level m when
 * both its coordinates are coarse points of either half (the union of the four
 * quadrants' lattices).  At l = 1 every point is marked.
 *
 * One iteration (one whole-grid kernel, Jacobi-style: reads e_in, writes e_out).
 * Marked points relax: damped Jacobi (eq. 2; eq. 3 as printed has sign slips) with
 * the spacing-l 5-point stencil, omega = desc.omega (0.8), and the right-hand side
 * P_m r at that point.  A stencil arm that would leave the grid ends at the face:
 * the ghost value extrapolates linearly through e = 0 on the face (at l = 1 this is
 * exactly the fine operator's ghost -e).  All other points take the bilinear
 * interpolation of the previous iteration's values at the four marked points of
 * their own quadrant that bracket them (no cross-quadrant interpolation).
 *
 * Restriction P_m (section 2: weighted averages, precomputed as nested partial
 * reductions on the GPU).  P_m r = F_{2^(m-1)} ... F_2 F_1 r, where F_s is the
 * (1,2,1)/4 x (1,2,1)/4 filter with tap spacing s over the whole grid (taps outside
 * the grid dropped, weights renormalised); the composition is the hat function of
 * half-width l, the full-weighting restriction to spacing l.  Each level's values
 * at its marked points are gathered into a compact array (about N^2/3 values for
 * all levels together).
 *
 * MFMG (figure 1).  Levels visited once each from the coarsest to the finest,
 * 2 iterations on the coarsest, doubling per finer level, at most MaxI: on level m,
 * min(2^(M-m+1), MaxI).  (The paper's count of 31 iterations for 128^2 and MaxI = 2
 * does not follow from this reading, which gives 14; we found no reading of figure 1
 * that gives 31 with a cap of 2.)
 *
 * Work units: the residual, each filter pass, each iteration and the final
 * correction are whole-grid passes, 1 WU each; the gathers (fused into the filter
 * passes since session 14) touch N^2/3 values in all and are not counted.
 *
 * Iterations written in part (session 14, homg12).  An iteration at level m >= 1
 * reads its input only at R x R (grid_point.h, homg_read_coord: the coarse points and
 * the two arm points next to the middle of each axis), and a point of R x R reads only
 * R x R; so each iteration but a level's last writes only R x R (homg_iterate_marked,
 * the same values) and only the last, which level m-1 reads everywhere, writes the
 * whole grid.  Such an iteration still counts 1 WU (the method's iteration); the info's
 * values count what it moves.  From level 1 up: H100 "Session 14 homg12", 2048^2 float32
 * 6.58 ms every iteration whole, 5.28 from level 2, 5.17 from level 1.
 *
 * A level's last iteration need not be whole either.  Level m-1 reads only its own
 * R' x R', and level m's point at R' x R' reads only R x R (tools/dev/homg_marked_emu.sh,
 * check 4), so the last iteration of each level m >= 3 writes only level m-1's R' x R';
 * level 1's last (R' = every point) and level 0's stay whole, so the correction reads a
 * whole grid; level 2's would write a quarter of the grid through the strided kernel, no
 * gain expected, not timed.  H100 (session 14, the lead's check call): 4096^2 float32
 * 17.69 -> 15.67 ms, 2048^2 5.15 -> 4.73, 1024^2 1.99 -> 1.88.
 *
 * Knobs: the three that chose these (HOMG_HOMG_MARKED, _MARKED_M, _MARKED_LAST) went in
 * session 15, their alternatives having lost; test_grid compares the same u with every
 * iteration whole and with last iterations in part from level 2 through
 * homg__homg_partial_for_tests.  Of the kernel side's HOMG knobs (kernels/grid/grid.cu)
 * HOMG_HOMG_PDL and HOMG_HOMG_FUSE_GATHER went too (plain launches and the separate gather
 * lost, "Session 14 homg11"); HOMG_HOMG_FVEC_FIT stays, the one A/B whose default depends
 * on the size (on below 2^24 points: 2048^2 6.78 -> 6.56 ms with level 1 bound 3; 4096^2
 * 24.35 -> 24.28, within noise, left off; "Session 14 homg11").
 */
#include <stdlib.h>

#include "grid_internal.h"
#include "grid/grid_point.h" /* homg_read_set_holds */

int homg__homg_iterations(const homg_grid *g, int m)
{
    int shift = g->homg_m - m + 1;
    int it = shift >= 30 ? 1 << 30 : 1 << shift;
    return it < g->desc.maxi ? it : g->desc.maxi;
}

homg_status homg__homg_alloc(homg_grid *g)
{
    const int nx = g->desc.nx, ny = g->desc.ny;
    const size_t full = (size_t)nx * ny * g->elem;
    int minside = nx < ny ? nx : ny, M = 0;
    while ((2 << M) < minside)
        M++;
    g->homg_m = M; /* 2^M = minside / 2 */
    for (int m = 0; m <= M; m++) {
        const mfmg_level H = g->hl[m] = homg_mfmg_level(nx, ny, m, g->desc.omega);
        if (m >= 1)
            HOMG_TRY(homg__alloc(g->ctx, (size_t)H.cx * H.cy * g->elem, &g->fm[m], "HOMG restricted rhs"));
    }
    HOMG_TRY(homg__alloc(g->ctx, full, &g->r, "HOMG residual"));
    HOMG_TRY(homg__alloc(g->ctx, full, &g->ea, "HOMG iterate"));
    HOMG_TRY(homg__alloc(g->ctx, full, &g->eb, "HOMG iterate"));
    return HOMG_OK;
}

/* Values one iteration on level m moves: it writes every point; on level 0 it reads
 * u and r whole (3n); above, it reads only the marked points of u (the relaxations'
 * arms and the interpolations' corners) and the compact f_m, about cx * cy each
 * (until session 9 counted as n + n + cx * cy: the whole u read, which the pass does not do). */
static double homg_pass_values(const homg_grid *g, int m)
{
    const double n = (double)g->desc.nx * g->desc.ny, c = (double)g->hl[m].cx * g->hl[m].cy;
    return m ? n + 2 * c : 3 * n;
}

/* Points of R on an axis of n points: the cx coarse coordinates and the arm points inside. */
static int homg_read_count(int n, int l, int cx)
{
    return cx + (homg_read_coord(cx, n, l, cx) >= 0) + (homg_read_coord(cx + 1, n, l, cx) >= 0);
}

/* Points of level m's R x R. */
static double homg_read_points(const homg_grid *g, int m)
{
    const mfmg_level *H = &g->hl[m];
    return (double)homg_read_count(g->desc.nx, H->l, H->cx) * homg_read_count(g->desc.ny, H->l, H->cy);
}

/* Values an iteration of level m that writes only level w's R x R moves: it writes those
 * points, reads u at level m's R x R and f_m (cx * cy). */
static double homg_marked_pass_values(const homg_grid *g, int m, int w)
{
    return homg_read_points(g, w) + homg_read_points(g, m) + (double)g->hl[m].cx * g->hl[m].cy;
}

static int homg_read_set_holds2(const homg_grid *g, int m)
{
    return homg_read_set_holds(g->desc.nx, g->hl[m].l) && homg_read_set_holds(g->desc.ny, g->hl[m].l);
}

/* Whether level m's iterations but its last write only R x R (see the top). */
static int homg_marked_passes(const homg_grid *g, int m)
{
    return m >= 1 && !g->homg_whole && homg_read_set_holds2(g, m);
}

/* Whether level m's last iteration writes only level m-1's R' x R' (see the top). */
#define HOMG_MARKED_LAST 3
static int homg_marked_last(const homg_grid *g, int m)
{
    const int lowest = g->homg_last_from > 0 ? g->homg_last_from : g->homg_last_from < 0 ? 1 << 30 : HOMG_MARKED_LAST;
    return lowest >= 2 && m >= lowest && !g->homg_whole && homg_read_set_holds2(g, m) && homg_read_set_holds2(g, m - 1);
}

void homg__homg_partial_for_tests(homg_grid *g, int whole, int last_from)
{
    g->homg_whole = whole;
    g->homg_last_from = last_from;
}

homg_status homg__homg_restart(homg_grid *g, const grid_level *L0, const void *f, void *u)
{
    kernel_exec *ex = &g->ctx->ex;
    const homg_precision p = g->desc.precision;
    const int nx = g->desc.nx, ny = g->desc.ny;
    const double n = (double)nx * ny;
    grid_level Lh = *L0; /* the residual equation has homogeneous data */
    void *src, *dst, *in, *out, *tmp;

    Lh.bc[0] = Lh.bc[1] = Lh.bc[2] = Lh.bc[3] = NULL;
    HOMG_TRY_BACKEND(g->ctx, g->k->residual(ex, p, L0, u, f, g->r), "HOMG residual");
    homg__account(g, 1, 1, 3 * n);

    /* nested partial reductions: level m's filter applied to level m-1's result, its
     * marked points gathered into fm[m] by the same pass; ea/eb are free until the
     * iterations start.  The coarsest level's filter leaves its grid zeroed (its values
     * are needed only in fm[M]): that grid is the cycle's start e = 0 (session 14: one
     * launch a level and the zeroing pass fewer; the values are the same). */
    src = g->r;
    dst = g->ea;
    for (int m = 1; m <= g->homg_m; m++) {
        const int last = m == g->homg_m;
        HOMG_TRY_BACKEND(g->ctx, g->k->homg_filter(ex, p, nx, ny, 1 << (m - 1), src, dst, &g->hl[m], g->fm[m], last),
                         "HOMG restriction");
        homg__account(g, 1, 1, 2 * n + g->hl[m].cx * (double)g->hl[m].cy);
        src = dst;
        dst = dst == g->ea ? g->eb : g->ea;
    }

    /* the MFMG cycle from e = 0: the last filter's zeroed grid, or (no filter: M = 0) a zeroing */
    in = src;
    out = dst;
    if (g->homg_m == 0) {
        in = g->ea;
        out = g->eb;
        HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(ex, in, (size_t)nx * ny * g->elem), "HOMG initial guess");
        homg__account(g, 1, 0, n);
    }
    for (int m = g->homg_m; m >= 0; m--) {
        int its = homg__homg_iterations(g, m);
        const void *fm = m == 0 ? g->r : g->fm[m];
        const int part = homg_marked_passes(g, m), last_part = homg_marked_last(g, m);
        for (int it = 0; it < its; it++) {
            const int w = it + 1 < its ? m : m - 1; /* the level whose read set the next iteration is */
            if (it + 1 < its ? part : last_part) {
                HOMG_TRY_BACKEND(g->ctx, g->k->homg_iterate_marked(ex, p, &Lh, &g->hl[m], &g->hl[w], fm, in, out),
                                 "HOMG iteration");
                homg__account(g, 1, 1, homg_marked_pass_values(g, m, w));
            } else {
                HOMG_TRY_BACKEND(g->ctx, g->k->homg_iterate(ex, p, &Lh, &g->hl[m], fm, in, out), "HOMG iteration");
                homg__account(g, 1, 1, homg_pass_values(g, m));
            }
            tmp = in;
            in = out;
            out = tmp;
        }
    }
    HOMG_TRY_BACKEND(g->ctx, g->k->add(ex, p, (size_t)nx * ny, in, u), "HOMG correction");
    homg__account(g, 1, 1, 3 * n);
    return HOMG_OK;
}
