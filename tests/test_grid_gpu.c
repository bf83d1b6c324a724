/* test_grid_gpu.c -- the CUDA structured solvers: every grid kernel against its
 * CPU twin on random inputs, full solves against exact discrete solutions for
 * n = 2..11 and every method, graph reuse, the caller's stream, bad input.
 * Skips (exit 77) without a CUDA device.  The first argument picks a group of tests
 * (none: all; an unknown name lists them and exits 2). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid/gen_kernels.h"
#include "grid/gen_point.h"
#include "grid/grid_kernels.h"
#include "grid/grid_point.h"
#include "grid/grid_internal.h"
#include "core/internal.h"
#include "gridcase.h"
#include "groups.h"
#include "poisson2d.h"
#include "testutil.h"

#if HOMG_HAVE_CUDA
#include <cuda_runtime_api.h>

#define gpu homg_test_gpu /* the pair homg_test_setup_pair makes (testutil.h) */
#define cpu homg_test_cpu

/* A random array of n values (host doubles) and its copies in both contexts. */
typedef struct twin {
    size_t n;
    homg_precision p;
    double *host;
    void *on_gpu, *on_cpu;
} twin;

static twin twin_make(size_t n, homg_precision p, homg_rng *rng, double scale)
{
    twin t;
    t.n = n;
    t.p = p;
    t.host = (double *)malloc((n ? n : 1) * sizeof(double));
    for (size_t k = 0; k < n; k++)
        t.host[k] = scale * (2 * homg_rng_uniform(rng) - 1);
    t.on_gpu = homg_test_upload(gpu, t.host, n, p);
    t.on_cpu = homg_test_upload(cpu, t.host, n, p);
    return t;
}

static void twin_free(twin *t)
{
    homg_free(gpu, t->on_gpu);
    homg_free(cpu, t->on_cpu);
    free(t->host);
}

/* Relative difference of the GPU and CPU copies after the kernels ran. */
static double twin_diff(const twin *t)
{
    double *a = (double *)malloc(t->n * sizeof(double)), *b = (double *)malloc(t->n * sizeof(double)), d;
    homg_test_download(gpu, t->on_gpu, t->n, t->p, a);
    homg_test_download(cpu, t->on_cpu, t->n, t->p, b);
    d = homg_rel_diff(a, b, t->n);
    for (size_t k = 0; k < t->n; k++)
        assert_true(isfinite(a[k]));
    free(a);
    free(b);
    return d;
}

/* Level nx x ny (inv_h2 = nx^2, lambda) for both contexts, with random Dirichlet data on its
 * four sides when with_bc (else no data; bc[] is made either way, freed by the caller). */
static void twin_levels(int nx, int ny, double lambda, homg_precision p, homg_rng *rng, int with_bc, twin bc[4],
                        grid_level *Lg, grid_level *Lc)
{
    memset(Lg, 0, sizeof *Lg);
    Lg->nx = nx;
    Lg->ny = ny;
    Lg->inv_h2 = (double)nx * nx;
    Lg->lambda = lambda;
    *Lc = *Lg;
    for (int s = 0; s < 4; s++) {
        bc[s] = twin_make(s < 2 ? (size_t)ny : (size_t)nx, p, rng, with_bc ? 1 : 0);
        Lg->bc[s] = with_bc ? bc[s].on_gpu : NULL;
        Lc->bc[s] = with_bc ? bc[s].on_cpu : NULL;
    }
}

static const grid_kernels *G(void) { return &homg_cuda_grid_kernels; }

/* Every mismatch is printed; the test fails at the end (kernels_match_cpu). */
static int mismatches;
static int only_fused; /* check_kernels: the fused steps alone (the "fused" group, for racecheck) */
static int only_owned; /* check_kernels: the owned-cell steps alone (the "owned" group) */
static int only_rows;  /* check_kernels: the row-block fused steps alone (the "rows" group) */
static const grid_kernels *C(void) { return &homg_cpu_grid_kernels; }

static void check_kernels(int nx, int ny, homg_precision p, int with_bc, uint64_t seed)
{
    homg_rng rng = homg_rng_seed(seed);
    const double tol = p == HOMG_FLOAT64 ? 1e-12 : 2e-6;
    const size_t n = (size_t)nx * ny, nc = n / 4;
    twin u = twin_make(n, p, &rng, 1), f = twin_make(n, p, &rng, 100), r = twin_make(n, p, &rng, 1);
    twin fc = twin_make(nc, p, &rng, 1), ec = twin_make(nc, p, &rng, 1);
    twin bc[4];
    grid_level Lg, Lc;
    kernel_exec *xg = &gpu->ex, *xc = &cpu->ex;
    twin_levels(nx, ny, 0.5, p, &rng, with_bc, bc, &Lg, &Lc);
#define BOTH(call_g, call_c)                                  \
    do {                                                      \
        assert_int_equal(call_g, HOMG_OK);                    \
        assert_int_equal(call_c, HOMG_OK);                    \
        assert_int_equal(homg_ctx_synchronize(gpu), HOMG_OK); \
    } while (0)
/* Residuals after float sweeps lose digits to cancellation (f - A u is small next to f):
 * their GPU/CPU difference is judged with a looser bound; an indexing or barrier bug
 * still shows as an O(1) difference. */
#define SAME(t, what) SAME_TOL(t, what, tol)
#define SAME_TOL(t, what, tol_)                                                                                \
    do {                                                                                                       \
        double d_ = twin_diff(&(t));                                                                           \
        if (!(d_ <= (tol_))) {                                                                                 \
            printf("  %d x %d %s bc=%d: %s differs by %.2e\n", nx, ny, p == HOMG_FLOAT64 ? "double" : "float", \
                   with_bc, what, d_);                                                                         \
            mismatches++;                                                                                      \
        }                                                                                                      \
    } while (0)

    if (!only_fused) {
        BOTH(G()->residual(xg, p, &Lg, u.on_gpu, f.on_gpu, r.on_gpu),
             C()->residual(xc, p, &Lc, u.on_cpu, f.on_cpu, r.on_cpu));
        SAME(r, "residual");
        BOTH(G()->residual_restrict(xg, p, &Lg, u.on_gpu, f.on_gpu, fc.on_gpu),
             C()->residual_restrict(xc, p, &Lc, u.on_cpu, f.on_cpu, fc.on_cpu));
        SAME(fc, "residual_restrict");
        BOTH(G()->prolong(xg, p, &Lg, ec.on_gpu, r.on_gpu, 0), C()->prolong(xc, p, &Lc, ec.on_cpu, r.on_cpu, 0));
        SAME(r, "prolong (add)");
        BOTH(G()->prolong(xg, p, &Lg, ec.on_gpu, r.on_gpu, 1), C()->prolong(xc, p, &Lc, ec.on_cpu, r.on_cpu, 1));
        SAME(r, "prolong (assign)");
        BOTH(G()->smooth(xg, p, &Lg, u.on_gpu, f.on_gpu, 3), C()->smooth(xc, p, &Lc, u.on_cpu, f.on_cpu, 3));
        SAME(u, "smooth");
    }
    /* the fused steps, out of place: u -> r, with each kernel the CUDA backend picks by the
     * level's size (grid_kernels.h grid_tune, which the level carries; lib/grid/box.c reads
     * it from HOMG_BOX_* for a solve): 0: the small tile, 1: big, 2: wide; 3: the owned-cell
     * steps of grid_owned.cu; 4, 5: the row-block float32 steps of grid_rows.cu where the
     * shape fits them, 4 with the default thread rows a block, 5 with the fewest (2-4: boxes
     * of 8-16 rows, many blocks) */
    grid_tune tn = homg_grid_tune_default();
    Lg.tune = &tn;
    for (int big = only_owned ? 3 : only_rows ? 4 : 0; big <= (only_owned ? 3 : 5); big++) {
        tn = homg_grid_tune_default();
        tn.rows_cells = big >= 4 ? 0 : 1e300;
        tn.rows_t = tn.rows_mid_t = big == 5 ? 1 : HOMG_BOX_ROWS_T;
        tn.tile_cells = big == 1 ? 0 : 1e300;
        tn.wide_cells = big == 2 ? 1e300 : 0;
        tn.owned_cells = big == 3 ? 1e300 : 0;
        for (int init = HOMG_INIT_KEEP; init <= HOMG_INIT_PROLONG; init++)
            for (int sweeps = 0; sweeps <= 3; sweeps++) {
                char what[80];
                BOTH(
                    G()->smooth_restrict(xg, p, &Lg, u.on_gpu, r.on_gpu, f.on_gpu, fc.on_gpu, sweeps, init, ec.on_gpu),
                    C()->smooth_restrict(xc, p, &Lc, u.on_cpu, r.on_cpu, f.on_cpu, fc.on_cpu, sweeps, init, ec.on_cpu));
                snprintf(what, sizeof what, "smooth_restrict tile %d init %d sweeps %d u", big, init, sweeps);
                SAME(r, what);
                snprintf(what, sizeof what, "smooth_restrict tile %d init %d sweeps %d fc", big, init, sweeps);
                SAME_TOL(fc, what, p == HOMG_FLOAT32 ? 1e-3 : tol);
            }
        for (int assign = 0; assign <= 1; assign++)
            for (int sweeps = 0; sweeps <= 3; sweeps++) {
                char what[80];
                BOTH(G()->prolong_smooth(xg, p, &Lg, ec.on_gpu, u.on_gpu, r.on_gpu, f.on_gpu, sweeps, assign),
                     C()->prolong_smooth(xc, p, &Lc, ec.on_cpu, u.on_cpu, r.on_cpu, f.on_cpu, sweeps, assign));
                snprintf(what, sizeof what, "prolong_smooth tile %d assign %d sweeps %d", big, assign, sweeps);
                SAME(r, what);
            }
        /* the mid step (a cycle boundary: u + P ec, 1..3 sweeps, residual restricted): the row
         * blocks take it wherever they take the other steps (4, 5), no other kernel does */
        for (int sweeps = 1; sweeps <= 3; sweeps++) {
            /* outputs of its own (their own random stream): the later checks find r and fc as
             * the other steps leave them */
            homg_rng mrng = homg_rng_seed(seed + 7);
            twin rm = twin_make(n, p, &mrng, 1), fcm = twin_make(nc, p, &mrng, 1);
            const void *ptrs[4] = { u.on_gpu, rm.on_gpu, f.on_gpu, fcm.on_gpu };
            const int rows = big >= 4 && p == HOMG_FLOAT32 && nx % 4 == 0 && ny % 2 == 0;
            char what[80];
            assert_int_equal(G()->mid_fits(p, &Lg, sweeps, ptrs), rows);
            if (rows) {
                BOTH(G()->prolong_smooth_restrict(xg, p, &Lg, ec.on_gpu, u.on_gpu, rm.on_gpu, f.on_gpu, fcm.on_gpu,
                                                  sweeps),
                     C()->prolong_smooth_restrict(xc, p, &Lc, ec.on_cpu, u.on_cpu, rm.on_cpu, f.on_cpu, fcm.on_cpu,
                                                  sweeps));
                snprintf(what, sizeof what, "prolong_smooth_restrict tile %d sweeps %d u", big, sweeps);
                SAME(rm, what);
                snprintf(what, sizeof what, "prolong_smooth_restrict tile %d sweeps %d fc", big, sweeps);
                SAME_TOL(fcm, what, 1e-3);
            }
            twin_free(&rm);
            twin_free(&fcm);
        }
    }
    Lg.tune = NULL;
    if (only_fused)
        goto out;
    assert_int_equal(G()->smooth_restrict(xg, p, &Lg, u.on_gpu, u.on_gpu, f.on_gpu, fc.on_gpu, 2, 0, ec.on_gpu),
                     HOMG_ERROR_INVALID_ARGUMENT); /* in place would race */
    if (n <= 4096) {
        BOTH(G()->coarse_solve(xg, p, &Lg, u.on_gpu, f.on_gpu, 16),
             C()->coarse_solve(xc, p, &Lc, u.on_cpu, f.on_cpu, 16));
        SAME(u, "coarse_solve");
    }
    {
        void *og[4] = { ec.on_gpu, (char *)ec.on_gpu + 0, fc.on_gpu, r.on_gpu };
        void *oc[4] = { ec.on_cpu, (char *)ec.on_cpu + 0, fc.on_cpu, r.on_cpu };
        grid_level Lg1 = Lg, Lc1 = Lc; /* east skipped: west and east would share ec */
        Lg1.bc[HOMG_E] = Lc1.bc[HOMG_E] = NULL;
        BOTH(G()->restrict_boundary(xg, p, &Lg1, og), C()->restrict_boundary(xc, p, &Lc1, oc));
        SAME(ec, "restrict_boundary");
        SAME(fc, "restrict_boundary");
    }
    BOTH(G()->add(xg, p, n, f.on_gpu, u.on_gpu), C()->add(xc, p, n, f.on_cpu, u.on_cpu));
    SAME(u, "add");

    /* HOMG: filters at every spacing, gathers and iterations at every level */
    {
        int minside = nx < ny ? nx : ny;
        grid_level Lh = Lg, Lhc = Lc;
        for (int s = 0; s < 4; s++)
            Lh.bc[s] = Lhc.bc[s] = NULL;
        for (int m = 0; (2 << m) <= minside; m++) {
            const mfmg_level H = homg_mfmg_level(nx, ny, m, 0.8);
            twin fm = twin_make((size_t)H.cx * H.cy, p, &rng, 1);
            BOTH(G()->homg_filter(xg, p, nx, ny, H.l, f.on_gpu, r.on_gpu, NULL, NULL, 0),
                 C()->homg_filter(xc, p, nx, ny, H.l, f.on_cpu, r.on_cpu, NULL, NULL, 0));
            SAME(r, "homg_filter");
            BOTH(G()->homg_gather(xg, p, nx, ny, &H, r.on_gpu, fm.on_gpu),
                 C()->homg_gather(xc, p, nx, ny, &H, r.on_cpu, fm.on_cpu));
            SAME(fm, "homg_gather");
            BOTH(G()->homg_iterate(xg, p, &Lh, &H, m ? fm.on_gpu : f.on_gpu, u.on_gpu, r.on_gpu),
                 C()->homg_iterate(xc, p, &Lhc, &H, m ? fm.on_cpu : f.on_cpu, u.on_cpu, r.on_cpu));
            SAME(r, "homg_iterate");
            twin_free(&fm);
        }
    }

    /* monitoring: both norms, appended to the history */
    {
        double *sg = NULL, *sc = NULL, hg[2], hc[2];
        int *cg = NULL, *cc = NULL, zero = 0;
        assert_int_equal(homg_alloc(gpu, 4 * sizeof(double), (void **)&sg), HOMG_OK);
        assert_int_equal(homg_alloc(cpu, 4 * sizeof(double), (void **)&sc), HOMG_OK);
        assert_int_equal(homg_alloc(gpu, sizeof(int), (void **)&cg), HOMG_OK);
        assert_int_equal(homg_alloc(cpu, sizeof(int), (void **)&cc), HOMG_OK);
        double z[4] = { 0, 0, 0, 0 };
        homg_copy_from_host(gpu, sg, z, sizeof z);
        homg_copy_from_host(gpu, cg, &zero, sizeof zero);
        *cc = 0;
        BOTH(G()->monitor(xg, p, &Lg, u.on_gpu, f.on_gpu, NULL, sg, sg + 2, cg),
             C()->monitor(xc, p, &Lc, u.on_cpu, f.on_cpu, NULL, sc, sc + 2, cc));
        BOTH(G()->monitor(xg, p, &Lg, u.on_gpu, f.on_gpu, r.on_gpu, sg, sg + 2, cg),
             C()->monitor(xc, p, &Lc, u.on_cpu, f.on_cpu, r.on_cpu, sc, sc + 2, cc));
        homg_copy_to_host(gpu, hg, sg + 2, sizeof hg);
        homg_copy_to_host(cpu, hc, sc + 2, sizeof hc);
        for (int k = 0; k < 2; k++)
            assert_true(fabs(hg[k] - hc[k]) <= 1e-10 * hc[k]);
        homg_free(gpu, sg);
        homg_free(cpu, sc);
        homg_free(gpu, cg);
        homg_free(cpu, cc);
    }
out:
    twin_free(&u);
    twin_free(&f);
    twin_free(&r);
    twin_free(&fc);
    twin_free(&ec);
    for (int s = 0; s < 4; s++)
        twin_free(&bc[s]);
}

/* The fused steps alone, every tile shape (small, for compute-sanitizer's racecheck). */
static void fused_steps_match_cpu(void **state)
{
    (void)state;
    const int shapes[][2] = { { 8, 64 }, { 96, 80 }, { 256, 128 }, { 1040, 70 }, { 64, 64 }, { 62, 48 } };
    mismatches = 0;
    only_fused = 1;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int p = HOMG_FLOAT32; p <= HOMG_FLOAT64; p++)
            check_kernels(shapes[s][0], shapes[s][1], (homg_precision)p, (int)s & 1, 700 + 10 * s + p);
    only_fused = 0;
    assert_int_equal(mismatches, 0);
}

/* The owned-cell steps (grid_owned.cu) alone, both precisions,
 * with and without face data (small, for compute-sanitizer). */
static void owned_steps_match_cpu(void **state)
{
    (void)state;
    const int shapes[][2] = { { 8, 64 }, { 96, 80 }, { 64, 64 }, { 62, 48 } };
    mismatches = 0;
    only_fused = only_owned = 1;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int p = HOMG_FLOAT32; p <= HOMG_FLOAT64; p++)
            check_kernels(shapes[s][0], shapes[s][1], (homg_precision)p, (int)(s + p) & 1, 1100 + 10 * s + p);
    only_fused = only_owned = 0;
    assert_int_equal(mismatches, 0);
}

/* HOMG's whole-grid kernels (issue 12: shifts, HV points per thread) against the
 * CPU, alone (small, for compute-sanitizer): odd and non-power-of-two sides, widths
 * that leave a block or a thread's last points outside, every spacing and level (64 x
 * 1030: the column kernels' unrolled interior paths up to s = 32, their last rows cut;
 * 256 x 77: levels 0 and 1 by float4 columns with full 8-row threads in the high half of
 * an odd ny); tolerance as check_kernels.  First the shift/mask index helpers against the
 * division forms they replace, for every coordinate of sides 1..300 and every l. */
static void homg_kernels_match_cpu(void **state)
{
    (void)state;
    const int shapes[][2] = { { 37, 23 },  { 130, 67 }, { 257, 9 },   { 3, 200 },
                              { 128, 64 }, { 500, 33 }, { 64, 1030 }, { 256, 77 } };
    for (int n = 1; n <= 300; n++)
        for (int m = 0; (1 << m) <= n; m++)
            for (int x = 0; x < n; x++) {
                int a0, a1, b0, b1;
                double t0, t1;
                assert_int_equal(homg_marked_index_p2(x, n, m), homg_marked_index(x, n, 1 << m));
                homg_bracket(x, n, 1 << m, &a0, &a1, &t0);
                homg_bracket_p2(x, n, m, 1.0 / (1 << m), &b0, &b1, &t1);
                assert_int_equal(a0, b0);
                assert_int_equal(a1, b1);
                assert_true(t0 == t1);
                /* the fused gather's pair: each index a coarse point's, of x */
                int lo, hi, half = n / (2 << m);
                homg_marked_pair_p2(x, n, m, &lo, &hi);
                assert_int_equal(lo >= 0 ? lo : hi, homg_marked_index(x, n, 1 << m));
                assert_true(lo < 0 || (lo <= half && homg_marked_coord(lo, n, 1 << m) == x));
                assert_true(hi < 0 || (hi > half && homg_marked_coord(hi, n, 1 << m) == x));
            }
    mismatches = 0;
    /* three rounds: the forms each size takes by default, then every grid taken as
     * large (the column, reuse and float4 filter kernels, which the default keeps for
     * grids of 2^22 points up; the float4 filter there takes every s >= 4 below 2^24
     * points), then the float4 filter at every spacing s forced (homg_filter.cu) */
    for (int large = 0; large < 3; large++) {
        if (large)
            setenv("HOMG_HOMG_BIG_N", "0", 1);
        if (large == 2)
            setenv("HOMG_HOMG_FVEC_MIN_S", "1", 1);
        for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
            for (int pi = HOMG_FLOAT32; pi <= HOMG_FLOAT64; pi++) {
                const homg_precision p = (homg_precision)pi;
                const int nx = shapes[k][0], ny = shapes[k][1], with_bc = 0, minside = nx < ny ? nx : ny;
                const double tol = p == HOMG_FLOAT64 ? 1e-12 : 2e-6;
                const size_t n = (size_t)nx * ny;
                homg_rng rng = homg_rng_seed(4200 + 10 * k + pi);
                twin u = twin_make(n, p, &rng, 1), f = twin_make(n, p, &rng, 100), r = twin_make(n, p, &rng, 1);
                grid_level Lg = { 0 }, Lc;
                kernel_exec *xg = &gpu->ex, *xc = &cpu->ex;
                Lg.nx = nx;
                Lg.ny = ny;
                Lg.inv_h2 = (double)nx * nx;
                Lg.lambda = 0.5;
                Lc = Lg;
                /* round 3 also runs the float4 filter's other forms: the next row only
                 * (registers for 2 blocks) and two rows in flight (4 blocks: spills) */
                for (int s = 1; s <= 2 * nx || s <= 2 * ny; s *= 2)
                    for (int pf = 0; pf < (large == 2 ? 3 : 1); pf++) {
                        if (large == 2) {
                            setenv("HOMG_HOMG_FVEC_PREFETCH", pf == 2 ? "1" : "0", 1);
                            setenv("HOMG_HOMG_FVEC_BLOCKS", pf == 1 ? "2" : pf == 2 ? "4" : "3", 1);
                        }
                        BOTH(G()->homg_filter(xg, p, nx, ny, s, f.on_gpu, r.on_gpu, NULL, NULL, 0),
                             C()->homg_filter(xc, p, nx, ny, s, f.on_cpu, r.on_cpu, NULL, NULL, 0));
                        SAME(r, "homg_filter");
                        /* the restart's form: level m = log2(2s)'s gather fused, the grid
                         * zeroed instead every other spacing (the coarsest level's);
                         * fm starts random, so an entry not gathered differs */
                        int m = 1;
                        while ((1 << m) < 2 * s)
                            m++;
                        if ((2 << m) > minside)
                            continue;
                        const mfmg_level H = homg_mfmg_level(nx, ny, m, 0.8);
                        twin fm = twin_make((size_t)H.cx * H.cy, p, &rng, 100);
                        const int zero = m & 1;
                        BOTH(G()->homg_filter(xg, p, nx, ny, s, u.on_gpu, r.on_gpu, &H, fm.on_gpu, zero),
                             C()->homg_filter(xc, p, nx, ny, s, u.on_cpu, r.on_cpu, &H, fm.on_cpu, zero));
                        SAME(r, "homg_filter (gather fused)");
                        SAME(fm, "homg_filter's gather");
                        twin_free(&fm);
                    }
                for (int m = 0; (2 << m) <= minside; m++) {
                    const mfmg_level H = homg_mfmg_level(nx, ny, m, 0.8);
                    twin fm = twin_make((size_t)H.cx * H.cy, p, &rng, 100);
                    BOTH(G()->homg_gather(xg, p, nx, ny, &H, f.on_gpu, fm.on_gpu),
                         C()->homg_gather(xc, p, nx, ny, &H, f.on_cpu, fm.on_cpu));
                    SAME(fm, "homg_gather");
                    BOTH(G()->homg_iterate(xg, p, &Lg, &H, m ? fm.on_gpu : f.on_gpu, u.on_gpu, r.on_gpu),
                         C()->homg_iterate(xc, p, &Lc, &H, m ? fm.on_cpu : f.on_cpu, u.on_cpu, r.on_cpu));
                    SAME(r, "homg_iterate");
                    /* Jacobi-style: the next iteration reads this one's output */
                    BOTH(G()->homg_iterate(xg, p, &Lg, &H, m ? fm.on_gpu : f.on_gpu, r.on_gpu, u.on_gpu),
                         C()->homg_iterate(xc, p, &Lc, &H, m ? fm.on_cpu : f.on_cpu, r.on_cpu, u.on_cpu));
                    SAME(u, "homg_iterate (second)");
                    /* the partial iteration (R x R only, the rest of u kept), at every
                     * level m >= 1 on every shape: the kernel's indexing, whether or not
                     * the restart would take it there; then at level m-1's read set (a
                     * level's last iteration from level 3 up, lib/grid/mfmg.c) */
                    if (m) {
                        const mfmg_level W = homg_mfmg_level(nx, ny, m - 1, 0.8);
                        BOTH(G()->homg_iterate_marked(xg, p, &Lg, &H, &H, fm.on_gpu, r.on_gpu, u.on_gpu),
                             C()->homg_iterate_marked(xc, p, &Lc, &H, &H, fm.on_cpu, r.on_cpu, u.on_cpu));
                        SAME(u, "homg_iterate_marked");
                        BOTH(G()->homg_iterate_marked(xg, p, &Lg, &H, &W, fm.on_gpu, u.on_gpu, r.on_gpu),
                             C()->homg_iterate_marked(xc, p, &Lc, &H, &W, fm.on_cpu, u.on_cpu, r.on_cpu));
                        SAME(r, "homg_iterate_marked (level m-1's set)");
                    }
                    twin_free(&fm);
                }
                twin_free(&u);
                twin_free(&f);
                twin_free(&r);
            }
    }
    unsetenv("HOMG_HOMG_BIG_N");
    unsetenv("HOMG_HOMG_FVEC_MIN_S");
    unsetenv("HOMG_HOMG_FVEC_PREFETCH");
    unsetenv("HOMG_HOMG_FVEC_BLOCKS");
    assert_int_equal(mismatches, 0);
}

/* The row-block float32 steps alone (grid_rows.cu; small, for compute-sanitizer): one
 * block, interior blocks (300 x 150: boxes of 144 x 32 fully inside), several blocks
 * with a partial last one each way (1040 x 70), with and without face data. */
static void rows_steps_match_cpu(void **state)
{
    (void)state;
    const int shapes[][2] = { { 8, 64 }, { 96, 80 }, { 300, 150 }, { 1040, 70 } };
    mismatches = 0;
    only_fused = only_rows = 1;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        check_kernels(shapes[s][0], shapes[s][1], HOMG_FLOAT32, (int)(s + 1) & 1, 1300 + 10 * s);
    only_fused = only_rows = 0;
    assert_int_equal(mismatches, 0);
}

/* The fused cycle boundaries in a whole solve on the GPU (the rows mid step, V(2,1): 3 sweeps)
 * against the separate up and down steps: 2 launches fewer, u equal to float rounding (not to
 * the last bit on the GPU: on the H100 72705 of 131072 values of the 512 x 256 case differed,
 * relative difference 1.1e-7; the CPU twins agree bit for bit, test_grid fmg_mid_steps_equal). */
static void mid_sequence_matches_steps(void **state)
{
    (void)state;
    const int shapes[][2] = { { 512, 256 }, { 1024, 128 } }; /* power-of-two boxes: box.c's cycles */
    char *keep = getenv("HOMG_BOX_ROWS_CELLS") ? strdup(getenv("HOMG_BOX_ROWS_CELLS")) : NULL;
    setenv("HOMG_BOX_ROWS_CELLS", "0", 1);
    setenv("HOMG_BOX_MID_CELLS", "0", 1);
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        homg_p2 *p = homg_p2_exact(shapes[s][0], shapes[s][1], 0.3, 0.1, (int)s & 1 ? 0 : 1, 31 + s);
        const size_t n = (size_t)p->nx * p->ny;
        float *a = (float *)malloc(n * sizeof(float)), *b = (float *)malloc(n * sizeof(float));
        double *da = (double *)malloc(n * sizeof(double)), *db = (double *)malloc(n * sizeof(double));
        const long la = homg_test_mid_solve(gpu, p, "21", 1, 1, 3, a, NULL), /* a plan the mid step takes */
            lb = homg_test_mid_solve(gpu, p, "21", 0, 1, 3, b, NULL);
        assert_true(la >= 0 && lb >= 0);
        size_t unequal = 0;
        for (size_t k = 0; k < n; k++) {
            unequal += a[k] != b[k];
            da[k] = a[k];
            db[k] = b[k];
        }
        printf("  %d x %d: mid %ld launches, steps %ld; %zu of %zu values differ, rel diff %.2e\n", p->nx, p->ny, la,
               lb, unequal, n, homg_rel_diff(da, db, n));
        assert_int_equal(lb - la, 2);
        assert_true(homg_rel_diff(da, db, n) <= 1e-6);
        free(a);
        free(b);
        free(da);
        free(db);
        homg_p2_free(p);
    }
    if (keep)
        setenv("HOMG_BOX_ROWS_CELLS", keep, 1);
    else
        unsetenv("HOMG_BOX_ROWS_CELLS");
    unsetenv("HOMG_BOX_MID_CELLS");
    free(keep);
}

/* The finest level's cycle boundaries are fused by one host rule on both backends (lib/grid/
 * box.c: float32 from HOMG_BOX_MID_CELLS cells): a 3-cycle warm solve on the CPU and on CUDA
 * queues the same launches, work units and bytes just below the threshold (no boundary fused)
 * and at it (two fused), and u agrees to float rounding.  The threshold is lowered to 512 x 256
 * and the row blocks (which take the mid step on CUDA) to every level, to keep the cases small. */
static void mid_rule_same_on_both_backends(void **state)
{
    (void)state;
    const int shapes[][2] = { { 256, 256 }, { 512, 256 } }; /* below, at the threshold */
    const char *const env[] = { "HOMG_BOX_ROWS_CELLS", "0", "HOMG_BOX_MID_CELLS", "131072", NULL };
    char *old[HOMG_TEST_MAX_ENV];
    homg_test_env_set(env, old);
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        homg_p2 *p = homg_p2_exact(shapes[s][0], shapes[s][1], 0.3, 0.1, 1, 41 + s);
        const size_t n = (size_t)p->nx * p->ny;
        float *a = (float *)malloc(n * sizeof(float)), *b = (float *)malloc(n * sizeof(float));
        float *c = (float *)malloc(n * sizeof(float));
        double *da = (double *)malloc(n * sizeof(double)), *db = (double *)malloc(n * sizeof(double));
        homg_solve_info ic, ig;
        const long lc = homg_test_mid_solve(cpu, p, "21", 1, 1, 3, a, &ic), /* V(2,1): the mid step's sweeps */
            lg = homg_test_mid_solve(gpu, p, "21", 1, 1, 3, b, &ig),
                   ls = homg_test_mid_solve(gpu, p, "21", 0, 1, 3, c, NULL); /* the separate steps */
        assert_true(lc >= 0 && lg >= 0 && ls >= 0);
        for (size_t k = 0; k < n; k++) {
            da[k] = a[k];
            db[k] = b[k];
        }
        printf("  %d x %d: CPU %ld launches %.3f WU %.0f bytes, CUDA %ld %.3f %.0f, steps %ld; rel diff %.2e\n", p->nx,
               p->ny, lc, ic.work_units, ic.bytes, lg, ig.work_units, ig.bytes, ls, homg_rel_diff(da, db, n));
        assert_int_equal(lc, lg);
        assert_true(fabs(ic.work_units - ig.work_units) < 1e-9 && fabs(ic.bytes - ig.bytes) <= 1e-12 * ic.bytes);
        assert_int_equal(ls - lg, s == 0 ? 0 : 2);
        assert_true(homg_rel_diff(da, db, n) <= 1e-5);
        free(a);
        free(b);
        free(c);
        free(da);
        free(db);
        homg_p2_free(p);
    }
    homg_test_env_restore(env, old);
}

/* The exact coarsest solve (coarse_exact_kernel, grid_exact.cuh) against its CPU twin on
 * random bases, eigenvalues, f and boundary data: even, odd and tiny sides (the folds'
 * middle points and mirror lanes).  Random bases are not even or odd about their middle,
 * so a kernel that folds differently from the twin differs by O(1). */
static void coarse_exact_matches_cpu(void **state)
{
    (void)state;
    const int shapes[][2] = { { 32, 32 }, { 31, 17 }, { 16, 32 }, { 2, 32 }, { 32, 3 }, { 1, 5 }, { 7, 1 }, { 9, 24 } };
    mismatches = 0;
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++)
        for (int pi = HOMG_FLOAT32; pi <= HOMG_FLOAT64; pi++)
            for (int with_bc = 0; with_bc <= 1; with_bc++) {
                const homg_precision p = (homg_precision)pi;
                const int nx = shapes[sh][0], ny = shapes[sh][1];
                const double tol = p == HOMG_FLOAT64 ? 1e-12 : 1e-5;
                homg_rng rng = homg_rng_seed(9100 + 100 * sh + 10 * pi + with_bc);
                twin qx = twin_make((size_t)nx * nx, p, &rng, 0.3), qy = twin_make((size_t)ny * ny, p, &rng, 0.3);
                twin ie = twin_make((size_t)nx * ny, p, &rng, 1e-3), f = twin_make((size_t)nx * ny, p, &rng, 100);
                twin u = twin_make((size_t)nx * ny, p, &rng, 1), bc[4];
                grid_level Lg, Lc;
                twin_levels(nx, ny, 0, p, &rng, with_bc, bc, &Lg, &Lc);
                BOTH(G()->coarse_exact(&gpu->ex, p, &Lg, u.on_gpu, f.on_gpu, qx.on_gpu, qy.on_gpu, ie.on_gpu),
                     C()->coarse_exact(&cpu->ex, p, &Lc, u.on_cpu, f.on_cpu, qx.on_cpu, qy.on_cpu, ie.on_cpu));
                SAME(u, "coarse_exact");
                for (int k = 0; k < 4; k++)
                    twin_free(&bc[k]);
                twin_free(&qx);
                twin_free(&qy);
                twin_free(&ie);
                twin_free(&f);
                twin_free(&u);
            }
    assert_int_equal(mismatches, 0);
}

/* The exact solve in two launches of many blocks (exact_wide, grid_exact_wide.cu) against its
 * CPU twin on random tables, f and boundary data: even, odd, non-square and tiny sides, every
 * rows-a-block and several ranges a sum (uneven ranges where the split does not divide n). */
static void exact_wide_matches_cpu(void **state)
{
    (void)state;
    const int shapes[][2] = { { 128, 128 }, { 127, 65 }, { 64, 64 }, { 33, 100 }, { 96, 37 }, { 1, 5 }, { 7, 1 } };
    const int rs[][2] = { { 2, 4 }, { 1, 1 }, { 4, 3 }, { 2, 8 }, { 4, 8 } };
    mismatches = 0;
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++)
        for (int pi = HOMG_FLOAT32; pi <= HOMG_FLOAT64; pi++)
            for (int with_bc = 0; with_bc <= 1; with_bc++) {
                const homg_precision p = (homg_precision)pi;
                const int nx = shapes[sh][0], ny = shapes[sh][1];
                const int v = (int)((sh + pi + with_bc) % (sizeof rs / sizeof rs[0]));
                const double tol = p == HOMG_FLOAT64 ? 1e-12 : 1e-5;
                homg_rng rng = homg_rng_seed(9500 + 100 * sh + 10 * pi + with_bc);
                twin qx = twin_make((size_t)nx * nx, p, &rng, 0.3), qy = twin_make((size_t)ny * ny, p, &rng, 0.3);
                twin qxt = twin_make((size_t)nx * nx, p, &rng, 0.3), qyt = twin_make((size_t)ny * ny, p, &rng, 0.3);
                twin ie = twin_make((size_t)nx * ny, p, &rng, 1e-3), f = twin_make((size_t)nx * ny, p, &rng, 100);
                twin u = twin_make((size_t)nx * ny, p, &rng, 1), w = twin_make((size_t)nx * ny, p, &rng, 1), bc[4];
                grid_level Lg, Lc;
                grid_exact_wide Wg, Wc;
                twin_levels(nx, ny, 0, p, &rng, with_bc, bc, &Lg, &Lc);
                Wg.qx = qx.on_gpu, Wg.qxt = qxt.on_gpu, Wg.qy = qy.on_gpu, Wg.qyt = qyt.on_gpu;
                Wg.inv_eig = ie.on_gpu, Wg.w = w.on_gpu, Wg.rows = rs[v][0], Wg.split = rs[v][1];
                Wc.qx = qx.on_cpu, Wc.qxt = qxt.on_cpu, Wc.qy = qy.on_cpu, Wc.qyt = qyt.on_cpu;
                Wc.inv_eig = ie.on_cpu, Wc.w = w.on_cpu, Wc.rows = rs[v][0], Wc.split = rs[v][1];
                BOTH(G()->exact_wide(&gpu->ex, p, &Lg, u.on_gpu, f.on_gpu, &Wg),
                     C()->exact_wide(&cpu->ex, p, &Lc, u.on_cpu, f.on_cpu, &Wc));
                SAME(w, "exact_wide pass 1");
                SAME(u, "exact_wide");
                for (int k = 0; k < 4; k++)
                    twin_free(&bc[k]);
                twin_free(&qx);
                twin_free(&qy);
                twin_free(&qxt);
                twin_free(&qyt);
                twin_free(&ie);
                twin_free(&f);
                twin_free(&u);
                twin_free(&w);
            }
    assert_int_equal(mismatches, 0);
}

static void kernels_match_cpu(void **state)
{
    (void)state;
    const int shapes[][2] = { { 4, 4 }, { 8, 64 }, { 64, 32 }, { 128, 128 }, { 256, 512 }, { 1024, 64 }, { 256, 8 } };
    mismatches = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int p = HOMG_FLOAT32; p <= HOMG_FLOAT64; p++)
            for (int bc = 0; bc <= 1; bc++)
                check_kernels(shapes[s][0], shapes[s][1], (homg_precision)p, bc, 100 * s + 10 * p + bc);
    assert_int_equal(mismatches, 0);
}

/* Full solves on the GPU against exact discrete solutions. */
static double solve_gpu(const homg_p2 *p, homg_method m, homg_precision prec, homg_solve_info *info, double *uh)
{
    size_t n = (size_t)p->nx * p->ny;
    void *f = homg_test_upload(gpu, p->f, n, prec), *ur = homg_test_upload(gpu, p->u_star, n, prec), *u = NULL;
    homg_boundary bc = homg_test_boundary(gpu, p, prec);
    homg_grid_desc gd = { 0 };
    homg_grid *g = NULL;
    homg_solve_desc sd = { 0 };
    gd.nx = p->nx;
    gd.ny = p->ny;
    gd.method = m;
    gd.precision = prec;
    assert_int_equal(homg_alloc(gpu, n * (prec == HOMG_FLOAT64 ? 8 : 4), &u), HOMG_OK);
    assert_int_equal(homg_grid_create(gpu, &gd, &g), HOMG_OK);
    sd.max_cycles = m == HOMG_METHOD_HOMG ? 300 : 40;
    sd.u_ref = ur;
    sd.tol = prec == HOMG_FLOAT64 ? 1e-11 : (n > (1u << 20) ? 5e-6 : 1e-6);
    homg_status st = homg_grid_solve(g, f, &bc, u, &sd, info);
    if (st != HOMG_OK)
        printf("  solve: %s\n", homg_ctx_last_error(gpu));
    if (uh)
        homg_test_download(gpu, u, n, prec, uh);
    homg_grid_destroy(g);
    homg_free(gpu, f);
    homg_free(gpu, ur);
    homg_free(gpu, u);
    homg_test_free_boundary(gpu, &bc);
    return info->norm;
}

static void exact_solutions_all_methods(void **state)
{
    (void)state;
    static const char *names[] = { "", "homg", "vcycle", "fcycle", "fmg" };
    for (int m = HOMG_METHOD_HOMG; m <= HOMG_METHOD_FMG; m++)
        for (int e = 2; e <= 11; e++) {
            int N = 1 << e;
            homg_p2 *p = homg_p2_exact(N, N, 0, 0.1, 1, 500 + e);
            homg_solve_info i32, i64;
            double e32 = solve_gpu(p, (homg_method)m, HOMG_FLOAT32, &i32, NULL);
            double e64 = solve_gpu(p, (homg_method)m, HOMG_FLOAT64, &i64, NULL);
            printf("  %-6s %5d^2: float32 %.2e (%d cycles, %.0f WU)  float64 %.2e (%d cycles)\n", names[m], N, e32,
                   i32.cycles, i32.work_units, e64, i64.cycles);
            assert_true(e32 >= 0 && e32 <= (e <= 10 ? 1e-5 : 5e-5));
            assert_true(e64 >= 0 && e64 <= 1e-10);
            homg_p2_free(p);
        }
}

/* The same solve on both backends gives the same iterates (within rounding). */
static void gpu_solve_equals_cpu_solve(void **state)
{
    (void)state;
    const int N = 256;
    size_t n = (size_t)N * N;
    homg_p2 *p = homg_p2_exact(N, N, 0, 0.1, 1, 4242);
    for (int m = HOMG_METHOD_HOMG; m <= HOMG_METHOD_FMG; m++) {
        double *ug = (double *)malloc(n * sizeof(double)), *uc = (double *)malloc(n * sizeof(double));
        void *f = homg_test_upload(cpu, p->f, n, HOMG_FLOAT64), *u = NULL;
        homg_boundary bc = homg_test_boundary(cpu, p, HOMG_FLOAT64);
        homg_grid_desc gd = { 0 };
        homg_grid *g = NULL;
        homg_solve_desc sd = { 0 };
        homg_solve_info info;
        double dg, diff;
        gd.nx = N;
        gd.method = (homg_method)m;
        gd.precision = HOMG_FLOAT64;
        sd.max_cycles = 2;
        assert_int_equal(homg_alloc(cpu, n * 8, &u), HOMG_OK);
        assert_int_equal(homg_grid_create(cpu, &gd, &g), HOMG_OK);
        assert_int_equal(homg_grid_solve(g, f, &bc, u, &sd, &info), HOMG_OK);
        homg_test_download(cpu, u, n, HOMG_FLOAT64, uc);
        homg_grid_destroy(g);
        homg_free(cpu, f);
        homg_free(cpu, u);
        homg_test_free_boundary(cpu, &bc);
        {
            void *fg = homg_test_upload(gpu, p->f, n, HOMG_FLOAT64), *ugd = NULL;
            homg_boundary bg = homg_test_boundary(gpu, p, HOMG_FLOAT64);
            homg_solve_info gi;
            assert_int_equal(homg_alloc(gpu, n * 8, &ugd), HOMG_OK);
            assert_int_equal(homg_grid_create(gpu, &gd, &g), HOMG_OK);
            assert_int_equal(homg_grid_solve(g, fg, &bg, ugd, &sd, &gi), HOMG_OK);
            homg_test_download(gpu, ugd, n, HOMG_FLOAT64, ug);
            assert_int_equal((int)gi.launches, (int)info.launches);
            assert_true(fabs(gi.work_units - info.work_units) < 1e-9);
            homg_grid_destroy(g);
            homg_free(gpu, fg);
            homg_free(gpu, ugd);
            homg_test_free_boundary(gpu, &bg);
        }
        diff = homg_rel_diff(ug, uc, n);
        dg = homg_rel_diff(ug, p->u_star, n);
        printf("  method %d: 2 cycles, GPU vs CPU %.2e, error %.2e\n", m, diff, dg);
        assert_true(diff <= 1e-12);
        free(ug);
        free(uc);
    }
    homg_p2_free(p);
}

/* One tolerance solve of p on ctx x (fresh grid, u from zero); returns the status. */
static homg_status tol_solve(homg_ctx *x, const homg_p2 *p, homg_method m, homg_precision prec, double tol,
                             int max_cycles, homg_solve_info *info, double *u_out)
{
    const size_t n = (size_t)p->nx * p->ny;
    void *f = homg_test_upload(x, p->f, n, prec), *u = NULL;
    homg_boundary bc = homg_test_boundary(x, p, prec);
    homg_grid_desc gd = { 0 };
    homg_grid *g = NULL;
    homg_solve_desc sd = { 0 };
    homg_status st;
    gd.nx = p->nx;
    gd.ny = p->ny;
    gd.h = p->h;
    gd.method = m;
    gd.precision = prec;
    sd.tol = tol;
    sd.max_cycles = max_cycles;
    assert_int_equal(homg_alloc(x, n * (prec == HOMG_FLOAT64 ? 8 : 4), &u), HOMG_OK);
    assert_int_equal(homg_grid_create(x, &gd, &g), HOMG_OK);
    st = homg_grid_solve(g, f, &bc, u, &sd, info);
    homg_test_download(x, u, n, prec, u_out);
    homg_grid_destroy(g);
    homg_free(x, f);
    homg_free(x, u);
    homg_test_free_boundary(x, &bc);
    return st;
}

/* A tolerance solve's cycles loop on the device (a conditional node in the graph): the
 * same cycles, norm and solution as the CPU's loop and as the host loop on the GPU
 * (HOMG_GRID_DEVICE_LOOP=0), the same launches as the host loop, and two host reads
 * (the input check and the outcome) instead of one a cycle; max_cycles stops it. */
static void tolerance_loop_on_device(void **state)
{
    (void)state;
    const int shapes[][2] = { { 256, 256 }, { 128, 64 } };
    for (int s = 0; s < 2; s++) {
        homg_p2 *p = homg_p2_exact(shapes[s][0], shapes[s][1], 0, 0.1, 1, 90 + s);
        const size_t n = (size_t)p->nx * p->ny;
        double *uc = malloc(n * sizeof(double)), *ud = malloc(n * sizeof(double)), *uh = malloc(n * sizeof(double));
        for (int m = HOMG_METHOD_HOMG; m <= HOMG_METHOD_FMG; m++) {
            homg_solve_info ic, id, ih;
            const double tol = m == HOMG_METHOD_HOMG ? 1e-5 : 1e-9;
            assert_int_equal(tol_solve(cpu, p, (homg_method)m, HOMG_FLOAT64, tol, 60, &ic, uc), HOMG_OK);
            assert_int_equal(tol_solve(gpu, p, (homg_method)m, HOMG_FLOAT64, tol, 60, &id, ud), HOMG_OK);
            setenv("HOMG_GRID_DEVICE_LOOP", "0", 1);
            assert_int_equal(tol_solve(gpu, p, (homg_method)m, HOMG_FLOAT64, tol, 60, &ih, uh), HOMG_OK);
            unsetenv("HOMG_GRID_DEVICE_LOOP");
            printf("  %dx%d method %d to %.0e: cycles CPU %d, device loop %d, host loop %d; norms %.3e %.3e %.3e; "
                   "host syncs %d %d %d; launches %ld %ld\n",
                   p->nx, p->ny, m, tol, ic.cycles, id.cycles, ih.cycles, ic.norm, id.norm, ih.norm, ic.host_syncs,
                   id.host_syncs, ih.host_syncs, id.launches, ih.launches);
            assert_true(ic.converged && id.converged && ih.converged);
            assert_int_equal(id.cycles, ic.cycles);
            assert_int_equal(ih.cycles, ic.cycles);
            /* a residual norm of ~1e-10 has lost ~10 digits to cancellation: the backends' solutions
             * agree to ~1e-15 (gpu_solve_equals_cpu_solve), their norms to ~1e-5 */
            assert_true(fabs(id.norm - ic.norm) <= 1e-3 * ic.norm);
            assert_true(fabs(id.norm - ih.norm) <= 1e-12 * ih.norm); /* the monitor's atomic sums */
            assert_true(homg_rel_diff(ud, uc, n) <= 1e-12 && homg_rel_diff(ud, uh, n) == 0);
            assert_int_equal(ic.host_syncs, ic.cycles + 1);
            assert_int_equal(ih.host_syncs, ih.cycles + 1);
            assert_int_equal(id.host_syncs, 2);
            assert_int_equal((int)id.launches, (int)ih.launches);
            /* cut off by max_cycles */
            assert_int_equal(tol_solve(gpu, p, (homg_method)m, HOMG_FLOAT64, 1e-14, 2, &id, ud),
                             HOMG_ERROR_NOT_CONVERGED);
            assert_int_equal(id.cycles, 2);
            assert_false(id.converged);
        }
        free(uc);
        free(ud);
        free(uh);
        homg_p2_free(p);
    }
}

/* The general (CG) solver's tolerance solves: one graph per right-hand side whose device
 * loop runs the iterations, the restarts (every 10 in float32, 50 in float64) and CG's
 * directions chosen on the device (lib/grid/general_loop.c).  Against the CPU and the host
 * loop on the GPU (HOMG_GRID_DEVICE_LOOP=0): the same cycles (the CPU's to within one: its
 * sums round in another order), norm and solution; one host read a right-hand side after the
 * input check instead of one an iteration; the launches of the host loop plus the device's
 * test after each iteration and its branch choice before each later one (none: plain
 * cycles); max_cycles and a NaN stop it with the host loop's statuses. */
typedef struct gen_tol_case {
    const char *name;
    int nx, ny, nz, nrhs;
    homg_precision prec;
    double tol, discs, jump;
    int neumann, plain;
} gen_tol_case;

static grid_case *gen_tol_grid(const gen_tol_case *t, uint64_t seed)
{
    grid_case *c = grid_case_new(t->nx, t->ny, t->nz, t->nrhs, seed);
    c->d.precision = t->prec;
    c->d.method = HOMG_METHOD_VCYCLE;
    for (int k = 0; k < 6; k++)
        c->d.bc[k] = t->neumann ? HOMG_BC_NEUMANN : HOMG_BC_DIRICHLET;
    if (!t->plain)
        grid_case_random_faces(c, seed + 1);
    if (t->discs > 0)
        grid_case_discs(c, t->discs, 3, seed + 2);
    if (t->jump > 0)
        grid_case_checker_sigma(c, 4, t->jump);
    return c;
}

static void gen_tolerance_loop_on_device(void **state)
{
    const gen_tol_case cases[] = {
        { "masked 2D", 96, 80, 1, 1, HOMG_FLOAT64, 1e-9, 0.2, 0, 0, 0 },
        { "masked 2D float32 (restarts)", 96, 80, 1, 1, HOMG_FLOAT32, 1e-6, 0.2, 0, 0, 0 },
        { "variable sigma 3D", 33, 17, 9, 1, HOMG_FLOAT32, 1e-5, 0, 1e3, 0, 0 },
        { "Neumann (singular)", 57, 33, 1, 1, HOMG_FLOAT64, 1e-9, 0, 0, 1, 0 },
        { "two right-hand sides", 64, 48, 1, 2, HOMG_FLOAT32, 1e-5, 0.2, 0, 0, 0 },
        { "plain 3D cycles", 32, 32, 32, 1, HOMG_FLOAT32, 1e-5, 0, 0, 0, 1 },
    };
    /* HOMG_TEST_GENLOOP_SHORT=1 (compute-sanitizer runs): the float32 masked case (restarts) and two rhs */
    const int short_run = getenv("HOMG_TEST_GENLOOP_SHORT") != NULL;
    (void)state;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const gen_tol_case *t = &cases[k];
        if (short_run && k != 1 && k != 4)
            continue;
        grid_case *c = gen_tol_grid(t, 300 + 10 * k);
        const size_t n = grid_case_cells(c) * (size_t)t->nrhs;
        double *uc = malloc(n * sizeof(double)), *ud = malloc(n * sizeof(double)), *uh = malloc(n * sizeof(double));
        const double eps = t->prec == HOMG_FLOAT64 ? 1e-9 : 1e-4;
        homg_solve_desc sd = { 0 };
        homg_solve_info ic, id, ih;
        sd.tol = t->tol;
        sd.max_cycles = 100;
        assert_int_equal(grid_case_solve(cpu, c, &sd, uc, &ic, NULL, NULL), HOMG_OK);
        assert_int_equal(grid_case_solve(gpu, c, &sd, ud, &id, NULL, NULL), HOMG_OK);
        setenv("HOMG_GRID_DEVICE_LOOP", "0", 1);
        assert_int_equal(grid_case_solve(gpu, c, &sd, uh, &ih, NULL, NULL), HOMG_OK);
        unsetenv("HOMG_GRID_DEVICE_LOOP");
        printf("  general %s %dx%dx%d nrhs %d to %.0e: cycles CPU %d, device loop %d, host loop %d; norms %.3e %.3e "
               "%.3e; host syncs %d %d %d; launches %ld %ld; solutions differ by %.1e (host loop %.1e)\n",
               t->name, t->nx, t->ny, t->nz, t->nrhs, t->tol, ic.cycles, id.cycles, ih.cycles, ic.norm, id.norm,
               ih.norm, ic.host_syncs, id.host_syncs, ih.host_syncs, id.launches, ih.launches, homg_rel_diff(ud, uc, n),
               homg_rel_diff(ud, uh, n));
        assert_true(ic.converged && id.converged && ih.converged);
        assert_int_equal(id.cycles, ih.cycles);
        assert_true(abs(id.cycles - ic.cycles) <= 1);
        assert_true(homg_rel_diff(ud, uh, n) < eps && homg_rel_diff(ud, uc, n) < eps);
        assert_true(ih.host_syncs >= ih.cycles + 1);
        assert_true(id.host_syncs >= 1 && id.host_syncs <= 1 + t->nrhs);
        if (t->nrhs == 1) /* the device's test each iteration, its branch choice before each later one */
            assert_int_equal((int)id.launches, (int)ih.launches + id.cycles + (t->plain ? 0 : id.cycles - 1));
        /* cut off by max_cycles, on the device and on the host */
        sd.tol = 1e-14;
        sd.max_cycles = 3;
        assert_int_equal(grid_case_solve(gpu, c, &sd, ud, &id, NULL, NULL), HOMG_ERROR_NOT_CONVERGED);
        setenv("HOMG_GRID_DEVICE_LOOP", "0", 1);
        assert_int_equal(grid_case_solve(gpu, c, &sd, uh, &ih, NULL, NULL), HOMG_ERROR_NOT_CONVERGED);
        unsetenv("HOMG_GRID_DEVICE_LOOP");
        assert_true(id.cycles == 3 && ih.cycles == 3 && !id.converged && !ih.converged);
        /* a NaN in f past the input check: the norm of the first iteration */
        {
            size_t at = grid_case_cells(c) / 3; /* an active cell of the first right-hand side */
            while (c->flags && c->flags[at] != HOMG_CELL_ACTIVE)
                at++;
            c->f[at] = NAN;
        }
        sd.tol = t->tol;
        sd.max_cycles = 100;
        sd.skip_input_check = 1;
        for (int loop = 1; loop >= 0; loop--) {
            if (!loop)
                setenv("HOMG_GRID_DEVICE_LOOP", "0", 1);
            assert_int_equal(grid_case_solve(gpu, c, &sd, ud, &id, NULL, NULL), HOMG_ERROR_NUMERIC);
            assert_non_null(strstr(homg_ctx_last_error(gpu), "after cycle 1"));
            unsetenv("HOMG_GRID_DEVICE_LOOP");
        }
        free(uc);
        free(ud);
        free(uh);
        grid_case_free(c);
    }
}

/* The device loop's test (gen_loop.h): the CUDA kernel writes the CPU twin's outcome from
 * random histories, counts past the history's end included. */
static void gen_loop_test_matches_cpu(void **state)
{
    homg_rng rng = homg_rng_seed(77);
    double *hist = (double *)malloc(1000 * sizeof(double)), sc[GEN_NSCALARS], sg[GEN_NSCALARS];
    void *dh = NULL, *ds = NULL, *dc = NULL;
    (void)state;
    assert_int_equal(homg_alloc(gpu, 1000 * sizeof(double), &dh), HOMG_OK);
    assert_int_equal(homg_alloc(gpu, sizeof sg, &ds), HOMG_OK);
    assert_int_equal(homg_alloc(gpu, sizeof(int), &dc), HOMG_OK);
    for (int trial = 0; trial < 64; trial++) {
        int count = 1 + (int)(homg_rng_uniform(&rng) * 1100), max_cycles = 1 + (int)(homg_rng_uniform(&rng) * 60);
        const double tol = pow(10, -8 * homg_rng_uniform(&rng));
        const int every = trial % 3 == 0 ? 0 : 10 * (1 + trial % 5);
        for (int h = 0; h < 1000; h++)
            hist[h] = trial % 7 == 3 && h == 999 ? NAN : pow(10, -10 * homg_rng_uniform(&rng));
        for (int s = 0; s < GEN_NSCALARS; s++)
            sc[s] = homg_rng_uniform(&rng);
        sc[GEN_LOOP_CYCLES] = (int)(homg_rng_uniform(&rng) * 70);
        memcpy(sg, sc, sizeof sc);
        assert_int_equal(homg_copy_from_host(gpu, dh, hist, 1000 * sizeof(double)), HOMG_OK);
        assert_int_equal(homg_copy_from_host(gpu, ds, sg, sizeof sg), HOMG_OK);
        assert_int_equal(homg_copy_from_host(gpu, dc, &count, sizeof count), HOMG_OK);
        assert_int_equal(homg_cpu_gen_kernels.loop_test(&cpu->ex, sc, hist, &count, tol, max_cycles, every, 0),
                         HOMG_OK);
        assert_int_equal(homg_cuda_gen_kernels.loop_test(&gpu->ex, (double *)ds, (const double *)dh, (const int *)dc,
                                                         tol, max_cycles, every, 0),
                         HOMG_OK);
        assert_int_equal(homg_copy_to_host(gpu, sg, ds, sizeof sg), HOMG_OK);
        for (int s = 0; s < GEN_NSCALARS; s++)
            assert_true(memcmp(&sc[s], &sg[s], sizeof(double)) == 0);
    }
    homg_free(gpu, dh), homg_free(gpu, ds), homg_free(gpu, dc);
    free(hist);
}

/* A graph is captured once per sequence and replayed; new pointers capture anew. */
static void graphs_are_reused(void **state)
{
    (void)state;
    const int N = 512;
    size_t n = (size_t)N * N;
    homg_p2 *p = homg_p2_exact(N, N, 0, 0.1, 0, 7);
    void *f = homg_test_upload(gpu, p->f, n, HOMG_FLOAT32), *u1 = NULL, *u2 = NULL, *ur;
    double *a = (double *)malloc(n * sizeof(double)), *b = (double *)malloc(n * sizeof(double));
    homg_grid_desc gd = { 0 };
    homg_grid *g = NULL;
    homg_solve_desc sd = { 0 };
    homg_solve_info i1, i2, i3;
    ur = homg_test_upload(gpu, p->u_star, n, HOMG_FLOAT32);
    gd.nx = N;
    gd.method = HOMG_METHOD_VCYCLE;
    assert_int_equal(homg_grid_create(gpu, &gd, &g), HOMG_OK);
    assert_int_equal(homg_alloc(gpu, n * 4, &u1), HOMG_OK);
    assert_int_equal(homg_alloc(gpu, n * 4, &u2), HOMG_OK);
    sd.max_cycles = 3;
    assert_int_equal(homg_grid_solve(g, f, NULL, u1, &sd, &i1), HOMG_OK);
    homg_ctx_synchronize(gpu);
    assert_int_equal(homg_grid_solve(g, f, NULL, u1, &sd, &i2), HOMG_OK); /* replay */
    homg_test_download(gpu, u1, n, HOMG_FLOAT32, a);
    assert_int_equal(homg_grid_solve(g, f, NULL, u2, &sd, &i3), HOMG_OK); /* new capture */
    homg_test_download(gpu, u2, n, HOMG_FLOAT32, b);
    assert_true(homg_rel_diff(a, b, n) == 0); /* deterministic: same kernels, same order */
    assert_true(homg_rel_diff(a, p->u_star, n) < 1e-4);
    assert_int_equal((int)i1.launches, (int)i2.launches);
    printf("  3 cycles at 512^2: %ld launches, %.1f WU; capture+launch %.3f ms, replay %.3f ms (queue time)\n",
           i1.launches, i1.work_units, i1.time_ms, i2.time_ms);
    homg_grid_destroy(g);
    homg_free(gpu, f);
    homg_free(gpu, u1);
    homg_free(gpu, u2);
    homg_free(gpu, ur);
    free(a);
    free(b);
    homg_p2_free(p);
}

/* The caller's stream and device: work is queued on the stream, the current
 * device is left as it was. */
static void callers_stream_is_used(void **state)
{
    (void)state;
    cudaStream_t stream = NULL;
    homg_ctx_desc cd = { 0 };
    homg_ctx *c = NULL;
    assert_int_equal(cudaStreamCreate(&stream), 0);
    cd.backend = HOMG_BACKEND_CUDA;
    cd.stream = stream;
    assert_int_equal(homg_ctx_create(&cd, &c), HOMG_OK);
    assert_true(c->ex.stream == stream);
    {
        const int N = 1024;
        size_t n = (size_t)N * N;
        homg_p2 *p = homg_p2_exact(N, N, 0, 0.1, 0, 3);
        void *f = homg_test_upload(c, p->f, n, HOMG_FLOAT32), *u = NULL;
        homg_grid_desc gd = { 0 };
        homg_grid *g = NULL;
        homg_solve_desc sd = { 0 };
        gd.nx = N;
        gd.method = HOMG_METHOD_VCYCLE;
        assert_int_equal(homg_grid_create(c, &gd, &g), HOMG_OK);
        assert_int_equal(homg_alloc(c, n * 4, &u), HOMG_OK);
        sd.max_cycles = 20;
        sd.skip_input_check = 1;
        assert_int_equal(homg_grid_solve(g, f, NULL, u, &sd, NULL), HOMG_OK);
        /* 20 cycles at 1024^2 are still running on the caller's stream */
        int busy = cudaStreamQuery(stream);
        assert_int_equal(homg_ctx_synchronize(c), HOMG_OK);
        assert_int_equal(cudaStreamQuery(stream), 0);
        printf("  stream busy right after the solve call: %s\n", busy ? "yes" : "no (finished already)");
        homg_grid_destroy(g);
        homg_free(c, f);
        homg_free(c, u);
        homg_p2_free(p);
    }
    homg_ctx_destroy(c);
    cudaStreamDestroy(stream);
}

static void host_pointer_to_cuda_is_refused(void **state)
{
    (void)state;
    const int N = 64;
    size_t n = (size_t)N * N;
    float *host_f = (float *)calloc(n, sizeof(float)), *host_u = (float *)calloc(n, sizeof(float));
    void *dev_u = NULL;
    homg_grid_desc gd = { 0 };
    homg_grid *g = NULL;
    gd.nx = N;
    assert_int_equal(homg_grid_create(gpu, &gd, &g), HOMG_OK);
    assert_int_equal(homg_alloc(gpu, n * 4, &dev_u), HOMG_OK);
    assert_int_equal(homg_grid_solve(g, host_f, NULL, dev_u, NULL, NULL), HOMG_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(homg_ctx_last_error(gpu), "f is not in the CUDA backend's memory space"));
    assert_int_equal(homg_grid_solve(g, dev_u, NULL, host_u, NULL, NULL), HOMG_ERROR_INVALID_ARGUMENT);
    homg_grid_destroy(g);
    homg_free(gpu, dev_u);
    free(host_f);
    free(host_u);
}

/* ---- the general multigrid's kernels (kernels/grid/gen*): CUDA against the CPU ---- */

/* One level's arrays in both spaces. */
typedef struct gen_twin {
    gen_level g, c; /* on the GPU, on the CPU */
} gen_twin;

static void gen_level_alloc(homg_ctx *x, gen_level *L, int nx, int ny, int nz, const int per[3], size_t e)
{
    const size_t n = (size_t)nx * ny * nz;
    memset(L, 0, sizeof *L);
    L->nx = nx;
    L->ny = ny;
    L->nz = nz;
    memcpy(L->periodic, per, sizeof L->periodic);
    assert_int_equal(homg_alloc(x, n * e, &L->gx), HOMG_OK);
    assert_int_equal(homg_alloc(x, n * e, &L->gy), HOMG_OK);
    assert_int_equal(homg_alloc(x, n * e, &L->gz), HOMG_OK);
    assert_int_equal(homg_alloc(x, n * e, &L->self), HOMG_OK);
    assert_int_equal(homg_alloc(x, n * e, &L->lam), HOMG_OK);
    assert_int_equal(homg_alloc(x, n, (void **)&L->flag), HOMG_OK);
}

static int gen_mismatches;

#define PER_TYPE_TMPL "grid/gen_point_tmpl.h"
#include "core/per_type.h"

/* gen_equation (the CUDA coarse solve's cached equations) gives exactly gen_relax's
 * value at every active cell of a host level L (u, f host arrays). */
static void check_gen_equation(const gen_level *L, homg_precision p, const void *u, const void *f, const char *what)
{
    int bad = 0;
    for (int k = 0; k < L->nz; k++)
        for (int j = 0; j < L->ny; j++)
            for (int i = 0; i < L->nx; i++) {
                const size_t c = gen_index(L, i, j, k);
                int nb[6];
                double g[6], d, off = 0;
                if (!gen_active(L, c))
                    continue;
                if (p == HOMG_FLOAT64) {
                    const double *ud = (const double *)u, *fd = (const double *)f;
                    double v, r = gen_relax_d(L, ud, fd, i, j, k);
                    gen_equation_d(L, i, j, k, nb, g, &d);
                    for (int q = 0; q < 6; q++)
                        off += nb[q] >= 0 ? g[q] * ud[nb[q]] : 0.0;
                    v = d > 0 ? (fd[c] + off) / d : 0.0;
                    bad += memcmp(&v, &r, sizeof v) != 0;
                } else {
                    const float *uf = (const float *)u, *ff = (const float *)f;
                    float v, r = gen_relax_f(L, uf, ff, i, j, k);
                    gen_equation_f(L, i, j, k, nb, g, &d);
                    for (int q = 0; q < 6; q++)
                        off += nb[q] >= 0 ? g[q] * (double)uf[nb[q]] : 0.0;
                    v = d > 0 ? (float)(((double)ff[c] + off) / d) : 0.0f;
                    bad += memcmp(&v, &r, sizeof v) != 0;
                }
            }
    if (bad) {
        printf("  gen_equation %s (%d x %d x %d): %d cells differ from gen_relax\n", what, L->nx, L->ny, L->nz, bad);
        gen_mismatches++;
    }
}

static void gen_level_free(homg_ctx *x, gen_level *L)
{
    homg_free(x, L->gx);
    homg_free(x, L->gy);
    homg_free(x, L->gz);
    homg_free(x, L->self);
    homg_free(x, L->lam);
    homg_free(x, L->flag);
}

/* Compares n values of precision p at a (in ctx_a's memory) and b (CPU). */
static double cmp_in(homg_ctx *ctx_a, const void *a, const void *b, size_t n, homg_precision p)
{
    double *ha = (double *)malloc(n * sizeof(double)), *hb = (double *)malloc(n * sizeof(double)), d;
    homg_test_download(ctx_a, a, n, p, ha);
    homg_test_download(cpu, b, n, p, hb);
    d = homg_rel_diff(ha, hb, n);
    free(ha);
    free(hb);
    return d;
}

/* a on the GPU against b on the CPU. */
static double cmp_arrays(const void *a, const void *b, size_t n, homg_precision p) { return cmp_in(gpu, a, b, n, p); }

/* a and b both in CPU memory. */
static double cmp_arrays2(const void *a, const void *b, size_t n, homg_precision p) { return cmp_in(cpu, a, b, n, p); }

static int cmp_bytes(const void *a, const void *b, size_t n)
{
    unsigned char *ha = (unsigned char *)malloc(n), *hb = (unsigned char *)malloc(n);
    int same;
    homg_copy_to_host(gpu, ha, a, n);
    homg_copy_to_host(cpu, hb, b, n);
    same = !memcmp(ha, hb, n);
    free(ha);
    free(hb);
    return same;
}

#define GEN_EXPECT(name, d, tol)                                                          \
    do {                                                                                  \
        double d_ = (d);                                                                  \
        if (!(d_ <= (tol))) {                                                             \
            printf("  gen %s (%d x %d x %d, %s): CUDA vs CPU %.3e\n", (name), nx, ny, nz, \
                   p == HOMG_FLOAT64 ? "float64" : "float32", d_);                        \
            gen_mismatches++;                                                             \
        }                                                                                 \
    } while (0)

static void *up2(homg_ctx *x, const double *h, size_t n, homg_precision p) { return homg_test_upload(x, h, n, p); }

/* coarse_matrix on both backends agree, and coarse_apply of it gives coarse_solve's
 * answer (cec: the CPU's coarse_solve of f, 7 sweeps) on each backend. */
static void check_coarse_matrix(const gen_twin *C, homg_precision p, const void *gf, const void *cf, const void *cec,
                                double tol)
{
    const gen_kernels *KG = &homg_cuda_gen_kernels, *KC = &homg_cpu_gen_kernels;
    const size_t nc = gen_cells(&C->c), e = p == HOMG_FLOAT64 ? 8 : 4;
    const int nx = C->c.nx, ny = C->c.ny, nz = C->c.nz; /* GEN_EXPECT names them */
    void *gm, *cm, *gu, *cu;
    assert_int_equal(homg_alloc(gpu, nc * nc * e, &gm), HOMG_OK);
    assert_int_equal(homg_alloc(cpu, nc * nc * e, &cm), HOMG_OK);
    assert_int_equal(homg_alloc(gpu, nc * e, &gu), HOMG_OK);
    assert_int_equal(homg_alloc(cpu, nc * e, &cu), HOMG_OK);
    assert_int_equal(KG->coarse_matrix(&gpu->ex, p, &C->g, 7, gm), HOMG_OK);
    assert_int_equal(KC->coarse_matrix(&cpu->ex, p, &C->c, 7, cm), HOMG_OK);
    GEN_EXPECT("coarse_matrix", cmp_arrays(gm, cm, nc * nc, p), tol * 10);
    assert_int_equal(KG->coarse_apply(&gpu->ex, p, &C->g, gm, gu, gf), HOMG_OK);
    assert_int_equal(KC->coarse_apply(&cpu->ex, p, &C->c, cm, cu, cf), HOMG_OK);
    GEN_EXPECT("coarse_apply", cmp_arrays(gu, cu, nc, p), tol * 10);
    GEN_EXPECT("coarse_apply vs coarse_solve (CPU)", cmp_arrays2(cu, cec, nc, p), tol * 10);
    homg_free(gpu, gm);
    homg_free(cpu, cm);
    homg_free(gpu, gu);
    homg_free(cpu, cu);
}

static void check_gen_kernels(int nx, int ny, int nz, const int per[3], homg_precision p, uint64_t seed)
{
    const gen_kernels *KG = &homg_cuda_gen_kernels, *KC = &homg_cpu_gen_kernels;
    const double tol = p == HOMG_FLOAT64 ? 1e-12 : 2e-5;
    const size_t e = p == HOMG_FLOAT64 ? 8 : 4, n = (size_t)nx * ny * nz;
    const int cx = gen_coarse_n(nx), cy = gen_coarse_n(ny), cz = gen_coarse_n(nz); /* the library's levels */
    const size_t nc = (size_t)cx * cy * cz;
    homg_rng rng = homg_rng_seed(seed);
    gen_twin L, Cl;
    gen_fine F;
    double *sig = (double *)malloc(n * sizeof(double)), *lam = (double *)malloc(n * sizeof(double));
    double *x1 = (double *)malloc(n * sizeof(double)), *x2 = (double *)malloc(n * sizeof(double));
    double *face[6];
    unsigned char *fl = (unsigned char *)malloc(n);
    int *lab = (int *)malloc(n * sizeof(int));
    void *g_sig, *c_sig, *g_lam, *c_lam, *g_fl, *c_fl, *g_face[6], *c_face[6];
    void *gu, *cu, *gf, *cf, *gr, *cr, *gq, *cq, *gec, *cec, *gfc, *cfc, *glab, *clab;
    double *gs, *cs, hs_g[GEN_NSCALARS], hs_c[GEN_NSCALARS];
    double *ghist, *chist;
    int *gcount, *ccount;
    for (size_t k = 0; k < n; k++) {
        double r = homg_rng_uniform(&rng);
        sig[k] = exp(4 * homg_rng_uniform(&rng) - 2);
        lam[k] = homg_rng_uniform(&rng) < 0.5 ? 0 : 3 * homg_rng_uniform(&rng);
        fl[k] = r < 0.1 ? HOMG_CELL_SOLID : r < 0.13 ? HOMG_CELL_FIXED : HOMG_CELL_ACTIVE;
        x1[k] = 2 * homg_rng_uniform(&rng) - 1;
        x2[k] = 100 * (2 * homg_rng_uniform(&rng) - 1);
        lab[k] = fl[k] ? -1 : (int)(homg_rng_uniform(&rng) * 5);
    }
    gen_level_alloc(gpu, &L.g, nx, ny, nz, per, e);
    gen_level_alloc(cpu, &L.c, nx, ny, nz, per, e);
    gen_level_alloc(gpu, &Cl.g, cx, cy, cz, per, e);
    gen_level_alloc(cpu, &Cl.c, cx, cy, cz, per, e);
    for (int a = 0; a < 3; a++) { /* odd seeds: a wider last cell (a level below an odd one, gen_level.last) */
        L.g.last[a] = L.c.last[a] = seed % 2 ? 1.5 : 0;
        Cl.g.last[a] = Cl.c.last[a] = gen_coarse_last(&L.c, &Cl.c, a);
    }
    g_sig = up2(gpu, sig, n, p);
    c_sig = up2(cpu, sig, n, p);
    g_lam = up2(gpu, lam, n, p);
    c_lam = up2(cpu, lam, n, p);
    homg_alloc(gpu, n, &g_fl);
    homg_alloc(cpu, n, &c_fl);
    homg_copy_from_host(gpu, g_fl, fl, n);
    homg_copy_from_host(cpu, c_fl, fl, n);
    memset(&F, 0, sizeof F);
    F.h = 1.0 / nx;
    F.sigma = 1;
    for (int s = 0; s < 6; s++) {
        size_t m = s < 2 ? (size_t)ny * nz : s < 4 ? (size_t)nx * nz : (size_t)nx * ny;
        F.kind[s] = per[s / 2] ? 2 : (int)((seed + s) % 2);
        face[s] = (double *)malloc(m * sizeof(double));
        for (size_t k = 0; k < m; k++)
            face[s][k] = 2 * homg_rng_uniform(&rng) - 1;
        g_face[s] = per[s / 2] ? NULL : up2(gpu, face[s], m, p);
        c_face[s] = per[s / 2] ? NULL : up2(cpu, face[s], m, p);
    }

    /* setup_fine, coarsen */
    F.sigma_cell = g_sig;
    assert_int_equal(KG->setup_fine(&gpu->ex, p, &L.g, &F, g_lam, 0, (const unsigned char *)g_fl), HOMG_OK);
    F.sigma_cell = c_sig;
    assert_int_equal(KC->setup_fine(&cpu->ex, p, &L.c, &F, c_lam, 0, (const unsigned char *)c_fl), HOMG_OK);
    GEN_EXPECT("setup_fine gx", cmp_arrays(L.g.gx, L.c.gx, n, p), tol);
    GEN_EXPECT("setup_fine gy", cmp_arrays(L.g.gy, L.c.gy, n, p), tol);
    if (nz > 1)
        GEN_EXPECT("setup_fine gz", cmp_arrays(L.g.gz, L.c.gz, n, p), tol);
    GEN_EXPECT("setup_fine self", cmp_arrays(L.g.self, L.c.self, n, p), tol);
    GEN_EXPECT("setup_fine lam", cmp_arrays(L.g.lam, L.c.lam, n, p), tol);
    GEN_EXPECT("setup_fine flag", cmp_bytes(L.g.flag, L.c.flag, n) ? 0 : 1, 0);
    assert_int_equal(KG->coarsen(&gpu->ex, p, &L.g, &Cl.g), HOMG_OK);
    assert_int_equal(KC->coarsen(&cpu->ex, p, &L.c, &Cl.c), HOMG_OK);
    GEN_EXPECT("coarsen gx", cmp_arrays(Cl.g.gx, Cl.c.gx, nc, p), tol);
    GEN_EXPECT("coarsen gy", cmp_arrays(Cl.g.gy, Cl.c.gy, nc, p), tol);
    GEN_EXPECT("coarsen self", cmp_arrays(Cl.g.self, Cl.c.self, nc, p), tol);
    GEN_EXPECT("coarsen lam", cmp_arrays(Cl.g.lam, Cl.c.lam, nc, p), tol);
    GEN_EXPECT("coarsen flag", cmp_bytes(Cl.g.flag, Cl.c.flag, nc) ? 0 : 1, 0);

    /* smooth (one colour), residual (with faces), residual_restrict, prolong_add */
    gu = up2(gpu, x1, n, p);
    cu = up2(cpu, x1, n, p);
    gf = up2(gpu, x2, n, p);
    cf = up2(cpu, x2, n, p);
    homg_alloc(gpu, n * e, &gr);
    homg_alloc(cpu, n * e, &cr);
    homg_alloc(gpu, n * e, &gq);
    homg_alloc(cpu, n * e, &cq);
    homg_alloc(gpu, nc * e, &gfc);
    homg_alloc(cpu, nc * e, &cfc);
    gec = up2(gpu, x1, nc, p);
    cec = up2(cpu, x1, nc, p);
    homg_alloc(gpu, GEN_NSCALARS * sizeof(double), (void **)&gs);
    homg_alloc(cpu, GEN_NSCALARS * sizeof(double), (void **)&cs);
    homg_alloc(gpu, 1000 * sizeof(double), (void **)&ghist);
    homg_alloc(cpu, 1000 * sizeof(double), (void **)&chist);
    homg_alloc(gpu, sizeof(int), (void **)&gcount);
    homg_alloc(cpu, sizeof(int), (void **)&ccount);
    gpu->mem->zero(&gpu->ex, gs, GEN_NSCALARS * sizeof(double));
    cpu->mem->zero(&cpu->ex, cs, GEN_NSCALARS * sizeof(double));
    gpu->mem->zero(&gpu->ex, gcount, sizeof(int));
    cpu->mem->zero(&cpu->ex, ccount, sizeof(int));
    KG->smooth(&gpu->ex, p, &L.g, gu, gf, 1);
    KC->smooth(&cpu->ex, p, &L.c, cu, cf, 1);
    GEN_EXPECT("smooth", cmp_arrays(gu, cu, n, p), tol);
    memcpy(F.face, g_face, sizeof F.face);
    F.sigma_cell = g_sig;
    KG->residual(&gpu->ex, p, &L.g, &F, gu, gf, gr, gs + GEN_RR);
    memcpy(F.face, c_face, sizeof F.face);
    F.sigma_cell = c_sig;
    KC->residual(&cpu->ex, p, &L.c, &F, cu, cf, cr, cs + GEN_RR);
    GEN_EXPECT("residual", cmp_arrays(gr, cr, n, p), tol);
    KG->residual_restrict(&gpu->ex, p, &L.g, &Cl.g, gu, gf, gfc);
    KC->residual_restrict(&cpu->ex, p, &L.c, &Cl.c, cu, cf, cfc);
    GEN_EXPECT("residual_restrict", cmp_arrays(gfc, cfc, nc, p), tol);
    KG->prolong_add(&gpu->ex, p, &L.g, &Cl.g, gec, gu);
    KC->prolong_add(&cpu->ex, p, &L.c, &Cl.c, cec, cu);
    GEN_EXPECT("prolong_add", cmp_arrays(gu, cu, n, p), tol);
    /* the fused launches: CUDA vs CPU, and on the CPU exactly the separate launches' result */
    {
        void *g1 = up2(gpu, x1, n, p), *c1 = up2(cpu, x1, n, p), *c2 = up2(cpu, x1, n, p);
        KG->prolong_smooth(&gpu->ex, p, &L.g, &Cl.g, gec, g1, gf);
        KG->smooth(&gpu->ex, p, &L.g, g1, gf, 0);
        KC->prolong_smooth(&cpu->ex, p, &L.c, &Cl.c, cec, c1, cf);
        KC->smooth(&cpu->ex, p, &L.c, c1, cf, 0);
        KC->prolong_add(&cpu->ex, p, &L.c, &Cl.c, cec, c2);
        KC->smooth(&cpu->ex, p, &L.c, c2, cf, 1);
        KC->smooth(&cpu->ex, p, &L.c, c2, cf, 0);
        GEN_EXPECT("prolong_smooth", cmp_arrays(g1, c1, n, p), tol);
        GEN_EXPECT("prolong_smooth vs prolong_add + smooth (CPU)", cmp_arrays2(c1, c2, n, p), 0);
        KG->smooth_from_zero(&gpu->ex, p, &L.g, g1, gf);
        KC->smooth_from_zero(&cpu->ex, p, &L.c, c1, cf);
        memset(c2, 0, n * e);
        KC->smooth(&cpu->ex, p, &L.c, c2, cf, 0);
        GEN_EXPECT("smooth_from_zero", cmp_arrays(g1, c1, n, p), tol);
        GEN_EXPECT("smooth_from_zero vs zero + smooth (CPU)", cmp_arrays2(c1, c2, n, p), 0);
        homg_free(gpu, g1);
        homg_free(cpu, c1);
        homg_free(cpu, c2);
    }
    /* sweeps (one block on CUDA for these levels of <= GEN_SWEEP_BLOCK_CELLS cells) */
    for (int v = 0; v < 3; v++) {
        const int ns = v == 0 ? 2 : 1, rev = v != 1, skip = v > 0;
        void *g1 = up2(gpu, x1, n, p), *c1 = up2(cpu, x1, n, p);
        KG->sweeps(&gpu->ex, p, &L.g, g1, gf, ns, rev, skip);
        KC->sweeps(&cpu->ex, p, &L.c, c1, cf, ns, rev, skip);
        GEN_EXPECT("sweeps", cmp_arrays(g1, c1, n, p), tol);
        homg_free(gpu, g1);
        homg_free(cpu, c1);
    }
    check_gen_equation(&L.c, p, cu, cf, "fine");
    check_gen_equation(&Cl.c, p, cec, cfc, "coarse");
    KG->coarse_solve(&gpu->ex, p, &Cl.g, gec, gfc, 7);
    KC->coarse_solve(&cpu->ex, p, &Cl.c, cec, cfc, 7);
    GEN_EXPECT("coarse_solve", cmp_arrays(gec, cec, nc, p), tol * 10);
    if (nc <= GEN_COARSE_MATRIX_CELLS)
        check_coarse_matrix(&Cl, p, gfc, cfc, cec, tol);
    /* block_vcycle: the V-cycle on L and Cl in one launch (one block on CUDA) */
    {
        gen_block bg, bc;
        void *g0 = up2(gpu, x1, n, p), *c0 = up2(cpu, x1, n, p);
        memset(&bg, 0, sizeof bg);
        bg.n = 2, bg.pre = 2, bg.post = 1, bg.sweeps = 7;
        bc = bg;
        bg.lv[0] = L.g, bg.lv[1] = Cl.g, bc.lv[0] = L.c, bc.lv[1] = Cl.c;
        bg.x[0] = g0, bg.x[1] = gec, bg.b[0] = gf, bg.b[1] = gfc;
        bc.x[0] = c0, bc.x[1] = cec, bc.b[0] = cf, bc.b[1] = cfc;
        assert_int_equal(KG->block_vcycle(&gpu->ex, p, &bg), HOMG_OK);
        assert_int_equal(KC->block_vcycle(&cpu->ex, p, &bc), HOMG_OK);
        GEN_EXPECT("block_vcycle", cmp_arrays(g0, c0, n, p), tol * 10);
        GEN_EXPECT("block_vcycle coarse", cmp_arrays(gec, cec, nc, p), tol * 10);
        homg_free(gpu, g0);
        homg_free(cpu, c0);
    }

    /* the CG vector kernels and scalars */
    KG->zero_active(&gpu->ex, p, n, L.g.flag, gr);
    KC->zero_active(&cpu->ex, p, n, L.c.flag, cr);
    GEN_EXPECT("zero_active", cmp_arrays(gr, cr, n, p), 0);
    KG->apply(&gpu->ex, p, &L.g, gu, gq, gs + GEN_PQ);
    KC->apply(&cpu->ex, p, &L.c, cu, cq, cs + GEN_PQ);
    GEN_EXPECT("apply", cmp_arrays(gq, cq, n, p), tol);
    KG->dot2(&gpu->ex, p, n, gq, gf, gu, gs + GEN_ZQ);
    KC->dot2(&cpu->ex, p, n, cq, cf, cu, cs + GEN_ZQ);
    KG->scalars(&gpu->ex, gs, GEN_STEP_ALPHA, 0, NULL, NULL);
    KC->scalars(&cpu->ex, cs, GEN_STEP_ALPHA, 0, NULL, NULL);
    KG->update_ur(&gpu->ex, p, n, L.g.flag, gu, gf, gr, gq, gs);
    KC->update_ur(&cpu->ex, p, n, L.c.flag, cu, cf, cr, cq, cs);
    GEN_EXPECT("update_ur u", cmp_arrays(gu, cu, n, p), tol);
    GEN_EXPECT("update_ur r", cmp_arrays(gr, cr, n, p), tol);
    KG->error_norm(&gpu->ex, p, n, L.g.flag, gu, gf, gs);
    KC->error_norm(&cpu->ex, p, n, L.c.flag, cu, cf, cs);
    KG->scalars(&gpu->ex, gs, GEN_STEP_RECORD, 1, ghist, gcount);
    KC->scalars(&cpu->ex, cs, GEN_STEP_RECORD, 1, chist, ccount);
    KG->scalars(&gpu->ex, gs, GEN_STEP_BETA, 0, NULL, NULL);
    KC->scalars(&cpu->ex, cs, GEN_STEP_BETA, 0, NULL, NULL);
    KG->update_p(&gpu->ex, p, n, gr, gq, gs);
    KC->update_p(&cpu->ex, p, n, cr, cq, cs);
    GEN_EXPECT("update_p", cmp_arrays(gq, cq, n, p), tol);
    /* the two-pass weight step (lib/grid/general_cycle.c two_pass_solve) and its update */
    KG->dot2(&gpu->ex, p, n, gq, gf, NULL, gs + GEN_RZ);
    KC->dot2(&cpu->ex, p, n, cq, cf, NULL, cs + GEN_RZ);
    KG->apply(&gpu->ex, p, &L.g, gq, gr, gs + GEN_PQ);
    KC->apply(&cpu->ex, p, &L.c, cq, cr, cs + GEN_PQ);
    KG->scalars(&gpu->ex, gs, GEN_STEP_PASS, 0, NULL, NULL);
    KC->scalars(&cpu->ex, cs, GEN_STEP_PASS, 0, NULL, NULL);
    KG->update_ur(&gpu->ex, p, n, L.g.flag, gu, gq, gf, gr, gs);
    KC->update_ur(&cpu->ex, p, n, L.c.flag, cu, cq, cf, cr, cs);
    GEN_EXPECT("two-pass update u", cmp_arrays(gu, cu, n, p), tol * 10);
    GEN_EXPECT("two-pass update b", cmp_arrays(gf, cf, n, p), tol * 10);
    homg_copy_to_host(gpu, hs_g, gs, sizeof hs_g);
    homg_copy_to_host(cpu, hs_c, cs, sizeof hs_c);
    for (int k = 0; k < GEN_NSCALARS; k++)
        GEN_EXPECT("scalars", fabs(hs_g[k] - hs_c[k]) / (fabs(hs_c[k]) + 1e-300), tol * 10);
    GEN_EXPECT("history", cmp_arrays(ghist, chist, 1, HOMG_FLOAT64), tol * 10);

    /* islands */
    homg_alloc(gpu, n * sizeof(int), &glab);
    homg_alloc(cpu, n * sizeof(int), &clab);
    homg_copy_from_host(gpu, glab, lab, n * sizeof(int));
    homg_copy_from_host(cpu, clab, lab, n * sizeof(int));
    {
        double inv[5] = { 0.5, 0.25, 0.125, 1, 2 }, *gsum, *csum, *ginv, *cinv;
        homg_alloc(gpu, 5 * sizeof(double), (void **)&gsum);
        homg_alloc(cpu, 5 * sizeof(double), (void **)&csum);
        ginv = (double *)up2(gpu, inv, 5, HOMG_FLOAT64);
        cinv = (double *)up2(cpu, inv, 5, HOMG_FLOAT64);
        gpu->mem->zero(&gpu->ex, gsum, 5 * sizeof(double));
        cpu->mem->zero(&cpu->ex, csum, 5 * sizeof(double));
        KG->island_sum(&gpu->ex, p, n, (const int *)glab, gu, gsum);
        KC->island_sum(&cpu->ex, p, n, (const int *)clab, cu, csum);
        GEN_EXPECT("island_sum", cmp_arrays(gsum, csum, 5, HOMG_FLOAT64), tol * 10);
        KG->island_sub(&gpu->ex, p, n, (const int *)glab, gu, gsum, ginv, 5, gs + GEN_PROJ);
        KC->island_sub(&cpu->ex, p, n, (const int *)clab, cu, csum, cinv, 5, cs + GEN_PROJ);
        GEN_EXPECT("island_sub", cmp_arrays(gu, cu, n, p), tol * 10);
        GEN_EXPECT("island max", cmp_arrays(gs + GEN_PROJ, cs + GEN_PROJ, 1, HOMG_FLOAT64), tol * 10);
        homg_free(gpu, gsum);
        homg_free(cpu, csum);
        homg_free(gpu, ginv);
        homg_free(cpu, cinv);
    }
    /* check_operator finds a planted bad value in each array */
    {
        long long *gb, *cb, hb[2][5];
        sig[n / 3] = -1;
        lam[n / 2] = NAN;
        fl[n - 1] = 5;
        homg_free(gpu, g_sig), g_sig = up2(gpu, sig, n, p);
        homg_free(gpu, g_lam), g_lam = up2(gpu, lam, n, p);
        homg_copy_from_host(gpu, g_fl, fl, n);
        homg_free(cpu, c_sig), c_sig = up2(cpu, sig, n, p);
        homg_free(cpu, c_lam), c_lam = up2(cpu, lam, n, p);
        homg_copy_from_host(cpu, c_fl, fl, n);
        homg_alloc(gpu, sizeof hb[0], (void **)&gb);
        homg_alloc(cpu, sizeof hb[0], (void **)&cb);
        gpu->mem->zero(&gpu->ex, gb, sizeof hb[0]);
        cpu->mem->zero(&cpu->ex, cb, sizeof hb[0]);
        KG->check_operator(&gpu->ex, p, n, g_sig, g_lam, (const unsigned char *)g_fl, gb);
        KC->check_operator(&cpu->ex, p, n, c_sig, c_lam, (const unsigned char *)c_fl, cb);
        homg_copy_to_host(gpu, hb[0], gb, sizeof hb[0]);
        homg_copy_to_host(cpu, hb[1], cb, sizeof hb[1]);
        for (int a = 0; a < 3; a++)
            GEN_EXPECT("check_operator", hb[0][a] == hb[1][a] ? 0 : 1, 0);
        /* the jump test (sigma in e^[-2, 2] has cells 10x off the first): any jumping index on CUDA */
        GEN_EXPECT("check_operator jump", (hb[0][3] != 0) == (hb[1][3] != 0) ? 0 : 1, 0);
        GEN_EXPECT("check_operator jump index",
                   hb[0][3] == 0 || (sig[hb[0][3] - 1] > 0 && gen_jump(sig[hb[0][3] - 1], sig[0])) ? 0 : 1, 0);
        /* SOLID cells (about 10%; a tiny grid may have none): any solid index on CUDA */
        {
            int solid = 0;
            for (size_t k = 0; k < n; k++)
                solid |= fl[k] == HOMG_CELL_SOLID;
            GEN_EXPECT("check_operator solid", (hb[1][4] != 0) == solid && (hb[0][4] != 0) == solid ? 0 : 1, 0);
            GEN_EXPECT("check_operator solid index",
                       !solid || (hb[0][4] > 0 && fl[hb[0][4] - 1] == HOMG_CELL_SOLID) ? 0 : 1, 0);
        }
        homg_free(gpu, gb);
        homg_free(cpu, cb);
    }
    assert_true(KG->memory_available(&gpu->ex) > 0);

    gen_level_free(gpu, &L.g);
    gen_level_free(cpu, &L.c);
    gen_level_free(gpu, &Cl.g);
    gen_level_free(cpu, &Cl.c);
    void *gfree[] = { g_sig, g_lam, g_fl, gu, gf, gr, gq, gec, gfc, glab, gs, ghist, gcount };
    void *cfree[] = { c_sig, c_lam, c_fl, cu, cf, cr, cq, cec, cfc, clab, cs, chist, ccount };
    for (size_t k = 0; k < sizeof gfree / sizeof gfree[0]; k++) {
        homg_free(gpu, gfree[k]);
        homg_free(cpu, cfree[k]);
    }
    for (int s = 0; s < 6; s++) {
        homg_free(gpu, g_face[s]);
        homg_free(cpu, c_face[s]);
        free(face[s]);
    }
    free(sig);
    free(lam);
    free(x1);
    free(x2);
    free(fl);
    free(lab);
}

/* A uniform level (gen_kernels.h: constant sigma and lambda, no stored
 * coefficients) with flags or none: CUDA against the CPU, and on the CPU against
 * the stored level setup_fine builds from the same constants. */
static void check_gen_uniform(int nx, int ny, int nz, const int per[3], int with_flags, homg_precision p, uint64_t seed)
{
    const gen_kernels *KG = &homg_cuda_gen_kernels, *KC = &homg_cpu_gen_kernels;
    const double tol = p == HOMG_FLOAT64 ? 1e-12 : 2e-5, sigma = 1.7, lambda = 0.3;
    const size_t e = p == HOMG_FLOAT64 ? 8 : 4, n = (size_t)nx * ny * nz;
    const int cx = gen_coarse_n(nx), cy = gen_coarse_n(ny), cz = gen_coarse_n(nz); /* the library's levels */
    const size_t nc = (size_t)cx * cy * cz;
    homg_rng rng = homg_rng_seed(seed);
    gen_level U[2], S, C[3]; /* uniform on the GPU and the CPU, stored (CPU); coarse of each */
    gen_fine F;
    double *x1 = (double *)malloc(n * sizeof(double)), *x2 = (double *)malloc(n * sizeof(double));
    unsigned char *fl = (unsigned char *)malloc(n);
    void *dfl[2] = { NULL, NULL }, *u[3], *f[3], *r[3], *fc[3], *ec[3];
    double *sc[3];
    homg_ctx *cx3[3] = { gpu, cpu, cpu };
    for (size_t k = 0; k < n; k++) {
        double v = homg_rng_uniform(&rng);
        fl[k] = !with_flags ? 0 : v < 0.15 ? HOMG_CELL_SOLID : v < 0.2 ? HOMG_CELL_FIXED : HOMG_CELL_ACTIVE;
        x1[k] = 2 * homg_rng_uniform(&rng) - 1;
        x2[k] = 50 * (2 * homg_rng_uniform(&rng) - 1);
    }
    memset(&F, 0, sizeof F);
    F.h = 1.0 / nx;
    F.sigma = sigma;
    for (int s = 0; s < 6; s++)
        F.kind[s] = per[s / 2] || (s >= 4 && nz == 1) ? 2 : (int)((seed + s) % 2);
    gen_level_alloc(cpu, &S, nx, ny, nz, per, e);
    for (int b = 0; b < 2; b++) {
        memset(&U[b], 0, sizeof U[b]);
        U[b].nx = nx, U[b].ny = ny, U[b].nz = nz;
        memcpy(U[b].periodic, per, sizeof U[b].periodic);
        U[b].uniform = 1;
        for (int a = 0; a < 3; a++)
            U[b].g0[a] = p == HOMG_FLOAT64 ? sigma / (F.h * F.h) : (double)(float)(sigma / (F.h * F.h));
        for (int s = 0; s < 6; s++)
            U[b].wall[s] = F.kind[s] == 0 && (s < 4 || nz > 1) ? 2.0 * sigma / (F.h * F.h) : 0.0;
        U[b].lam0 = p == HOMG_FLOAT64 ? lambda : (double)(float)lambda;
        if (with_flags) {
            homg_alloc(cx3[b], n, &dfl[b]);
            homg_copy_from_host(cx3[b], dfl[b], fl, n);
            assert_int_equal(homg_alloc(cx3[b], n, (void **)&U[b].flag), HOMG_OK);
        }
    }
    for (int b = 0; b < 3; b++) {
        gen_level_alloc(cx3[b], &C[b], cx, cy, cz, per, e);
        u[b] = up2(cx3[b], x1, n, p);
        f[b] = up2(cx3[b], x2, n, p);
        ec[b] = up2(cx3[b], x1, nc, p);
        homg_alloc(cx3[b], n * e, &r[b]);
        homg_alloc(cx3[b], nc * e, &fc[b]);
        homg_alloc(cx3[b], GEN_NSCALARS * sizeof(double), (void **)&sc[b]);
        cx3[b]->mem->zero(&cx3[b]->ex, sc[b], GEN_NSCALARS * sizeof(double));
    }
    {
        const gen_kernels *K3[3] = { KG, KC, KC };
        const gen_level *L3[3] = { &U[0], &U[1], &S };
        const char *what = "uniform: CUDA vs CPU", *what2 = "uniform vs stored (CPU)";
        double d01, d12;
        for (int b = 0; b < 3; b++)
            K3[b]->setup_fine(&cx3[b]->ex, p, L3[b], &F, NULL, lambda,
                              !with_flags ? NULL
                              : b == 2    ? fl
                                          : (const unsigned char *)dfl[b]);
#define GEN_UCMP(name, arr, m)                                                                                         \
    do {                                                                                                               \
        d01 = cmp_arrays(arr[0], arr[1], (m), p);                                                                      \
        d12 = cmp_arrays2(arr[1], arr[2], (m), p);                                                                     \
        if (!(d01 <= tol) || !(d12 <= tol)) {                                                                          \
            printf("  gen %s (%d x %d x %d, flags %d): %s %.3e, %s %.3e\n", (name), nx, ny, nz, with_flags, what, d01, \
                   what2, d12);                                                                                        \
            gen_mismatches++;                                                                                          \
        }                                                                                                              \
    } while (0)
        for (int b = 0; b < 3; b++) {
            K3[b]->smooth(&cx3[b]->ex, p, L3[b], u[b], f[b], 0);
            K3[b]->smooth(&cx3[b]->ex, p, L3[b], u[b], f[b], 1);
        }
        GEN_UCMP("uniform smooth", u, n);
        for (int b = 0; b < 3; b++)
            K3[b]->residual(&cx3[b]->ex, p, L3[b], &F, u[b], f[b], r[b], sc[b] + GEN_RR);
        GEN_UCMP("uniform residual", r, n);
        for (int b = 0; b < 3; b++)
            K3[b]->coarsen(&cx3[b]->ex, p, L3[b], &C[b]);
        GEN_UCMP("uniform coarsen gx", ((void *[]){ C[0].gx, C[1].gx, C[2].gx }), nc);
        GEN_UCMP("uniform coarsen self", ((void *[]){ C[0].self, C[1].self, C[2].self }), nc);
        GEN_UCMP("uniform coarsen lam", ((void *[]){ C[0].lam, C[1].lam, C[2].lam }), nc);
        for (int b = 0; b < 3; b++)
            K3[b]->residual_restrict(&cx3[b]->ex, p, L3[b], &C[b], u[b], f[b], fc[b]);
        GEN_UCMP("uniform residual_restrict", fc, nc);
        for (int b = 0; b < 3; b++)
            K3[b]->prolong_add(&cx3[b]->ex, p, L3[b], &C[b], ec[b], u[b]);
        GEN_UCMP("uniform prolong_add", u, n);
        for (int b = 0; b < 3; b++)
            K3[b]->apply(&cx3[b]->ex, p, L3[b], u[b], r[b], sc[b] + GEN_PQ);
        GEN_UCMP("uniform apply", r, n);
        for (int b = 0; b < 3; b++)
            K3[b]->sweeps(&cx3[b]->ex, p, L3[b], u[b], f[b], 2, 1, 1);
        GEN_UCMP("uniform sweeps", u, n);
        check_gen_equation(&U[1], p, u[1], f[1], "uniform");
        for (int b = 0; b < 3; b++)
            K3[b]->coarse_solve(&cx3[b]->ex, p, L3[b], u[b], f[b], 5);
        GEN_UCMP("uniform coarse_solve", u, n);
        for (int b = 0; b < 3; b++)
            K3[b]->update_ur(&cx3[b]->ex, p, n, L3[b]->flag, u[b], f[b], r[b], r[b], sc[b]);
        GEN_UCMP("uniform update_ur", u, n);
#undef GEN_UCMP
        /* a uniform coarse level (constants from gen_uniform_coarse) acts as the stored one coarsen builds */
        gen_level CU, D[2];
        memset(&CU, 0, sizeof CU);
        CU.nx = cx, CU.ny = cy, CU.nz = cz;
        memcpy(CU.periodic, per, sizeof CU.periodic);
        CU.uniform = 1;
        if (gen_uniform_coarse(&U[1], &CU, p == HOMG_FLOAT64)) {
            void *q2[2];
            const gen_level *E[2] = { &CU, &C[2] };
            for (int b = 0; b < 2; b++) {
                homg_alloc(cpu, nc * e, &q2[b]);
                gen_level_alloc(cpu, &D[b], gen_coarse_n(cx), gen_coarse_n(cy), gen_coarse_n(cz), per, e);
                KC->apply(&cpu->ex, p, E[b], ec[1], q2[b], NULL);
                KC->coarsen(&cpu->ex, p, E[b], &D[b]);
            }
            const size_t nd = (size_t)D[0].nx * D[0].ny * D[0].nz;
            const double dq = cmp_arrays2(q2[0], q2[1], nc, p), ds = cmp_arrays2(D[0].self, D[1].self, nd, p),
                         dl = cmp_arrays2(D[0].lam, D[1].lam, nd, p), dg = cmp_arrays2(D[0].gx, D[1].gx, nd, p);
            if (!(dq <= tol && ds <= tol && dl <= tol && dg <= tol)) {
                printf("  gen uniform coarse level (%d x %d x %d): apply %.3e, coarsened self %.3e lam %.3e gx %.3e\n",
                       cx, cy, cz, dq, ds, dl, dg);
                gen_mismatches++;
            }
            for (int b = 0; b < 2; b++) {
                homg_free(cpu, q2[b]);
                gen_level_free(cpu, &D[b]);
            }
        }
    }
    for (int b = 0; b < 3; b++) {
        gen_level_free(cx3[b], &C[b]);
        homg_free(cx3[b], u[b]);
        homg_free(cx3[b], f[b]);
        homg_free(cx3[b], r[b]);
        homg_free(cx3[b], fc[b]);
        homg_free(cx3[b], ec[b]);
        homg_free(cx3[b], sc[b]);
    }
    for (int b = 0; b < 2; b++) {
        homg_free(cx3[b], dfl[b]);
        homg_free(cx3[b], U[b].flag);
    }
    gen_level_free(cpu, &S);
    free(x1);
    free(x2);
    free(fl);
}

static void gen_kernels_match_cpu(void **state)
{
    (void)state;
    const int none[3] = { 0, 0, 0 }, px[3] = { 1, 0, 0 }, pall[3] = { 1, 1, 1 };
    for (int prec = 0; prec < 2; prec++) {
        const homg_precision p = prec ? HOMG_FLOAT64 : HOMG_FLOAT32;
        check_gen_kernels(37, 23, 1, none, p, 1);
        check_gen_kernels(38, 23, 1, px, p, 2);
        check_gen_kernels(13, 9, 7, none, p, 3);
        check_gen_kernels(12, 10, 8, pall, p, 4);
        check_gen_kernels(1, 5, 1, none, p, 5);
        check_gen_kernels(15, 9, 7, pall, p, 6); /* odd periodic axes: seam phases on both levels */
        check_gen_kernels(3, 1, 1, px, p, 7);
        check_gen_uniform(37, 23, 1, none, 1, p, 8);
        check_gen_uniform(38, 22, 1, px, 0, p, 9);
        check_gen_uniform(13, 9, 7, pall, 1, p, 10);
        check_gen_uniform(12, 10, 8, none, 0, p, 11);
        check_gen_uniform(13, 11, 1, none, 1, p, 12); /* 256 cells or fewer: the cached coarse solve */
        check_gen_uniform(9, 7, 3, pall, 1, p, 13);   /* ... with seam phases */
        check_gen_uniform(8, 8, 1, none, 1, p, 14);   /* 128 or fewer: equations in registers */
        check_gen_uniform(11, 11, 1, px, 0, p, 15);   /* ... two cells a thread, seam phases */
    }
    assert_int_equal(gen_mismatches, 0);
}

/* Whole general solves: the GPU gives the CPU's solution (same cycles, same algorithm). */
static void gen_gpu_solve_equals_cpu_solve(void **state)
{
    (void)state;
    const int sizes[][3] = { { 100, 37, 1 }, { 33, 17, 9 }, { 64, 64, 1 } };
    for (int s = 0; s < 3; s++) {
        grid_case *c = grid_case_new(sizes[s][0], sizes[s][1], sizes[s][2], s == 2 ? 3 : 1, 80 + s);
        const size_t n = grid_case_cells(c) * (size_t)c->d.nrhs;
        double *ug = (double *)malloc(n * sizeof(double)), *uc = (double *)malloc(n * sizeof(double));
        homg_solve_desc sd = { 0 };
        homg_solve_info ig, ic;
        c->d.precision = HOMG_FLOAT64;
        c->d.method = s == 1 ? HOMG_METHOD_FCYCLE : HOMG_METHOD_VCYCLE;
        for (int k = 0; k < 6; k++)
            c->d.bc[k] = (homg_bc_kind)((s + k) % 2);
        grid_case_random_faces(c, 90 + s);
        grid_case_discs(c, 0.15, 3, 91 + s);
        grid_case_checker_sigma(c, 4, s == 2 ? 1e4 : 10);
        sd.tol = 1e-10;
        sd.max_cycles = 100;
        assert_int_equal(grid_case_solve(gpu, c, &sd, ug, &ig, NULL, NULL), HOMG_OK);
        assert_int_equal(grid_case_solve(cpu, c, &sd, uc, &ic, NULL, NULL), HOMG_OK);
        printf("  general %d x %d x %d (nrhs %d): GPU %d cycles, CPU %d, solutions differ by %.2e, residual %.2e\n",
               c->d.nx, c->d.ny, c->d.nz, c->d.nrhs, ig.cycles, ic.cycles, homg_rel_diff(ug, uc, n),
               grid_case_residual(c, ug, 1));
        assert_true(abs(ig.cycles - ic.cycles) <= 1);
        assert_true(homg_rel_diff(ug, uc, n) < 1e-8);
        assert_true(grid_case_residual(c, ug, 1) < 1e-9);
        free(ug);
        free(uc);
        grid_case_free(c);
    }
}

/* Several right-hand sides run side by side on the GPU (a lane each, forked from
 * and joined to the ctx's stream, HOMG_EXEC_LANES at a time: 3 in one batch, 5 in
 * two): each gives the solution, cycles and history of its own nrhs = 1 solve,
 * with a fixed number of cycles and with the tolerance checked per lane; Neumann
 * sides and discs give singular islands (their sums are per lane too). */
static void lanes_case(int t, int jump)
{
    {
        const int nrhs = t < 2 ? 3 : 5;
        grid_case *c = grid_case_new(t % 2 ? 57 : 96, t % 2 ? 33 : 80, 1, nrhs, 120 + t);
        const size_t n = grid_case_cells(c);
        double *ub = (double *)malloc(n * nrhs * sizeof(double)), *us = (double *)malloc(n * nrhs * sizeof(double));
        double hb[400], hs[400], h1[5][80], diff = 0;
        int nb = 400, ns = 0, n1[5], cycles = 0, lanes = nrhs < HOMG_EXEC_LANES ? nrhs : HOMG_EXEC_LANES;
        homg_solve_desc sd = { 0 };
        homg_solve_info ib, is;
        c->d.precision = t == 3 ? HOMG_FLOAT32 : HOMG_FLOAT64;
        c->d.method = HOMG_METHOD_VCYCLE;
        for (int k = 0; k < 4; k++)
            c->d.bc[k] = t % 2 ? HOMG_BC_NEUMANN : (homg_bc_kind)(k % 2);
        grid_case_random_faces(c, 130 + t);
        grid_case_discs(c, 0.2, 3, 140 + t);
        if (jump) /* per-cell sigma with a jump: level 2 in two passes, its vectors per lane */
            grid_case_checker_sigma(c, 8, 1e3);
        sd.tol = t == 0 ? 0 : t == 3 ? 1e-5 : 1e-10;
        sd.max_cycles = t == 0 ? 12 : 60;
        assert_int_equal(grid_case_solve(gpu, c, &sd, ub, &ib, hb, &nb), HOMG_OK);
        for (int k = 0; k < nrhs; k++) {
            grid_case one = *c;
            one.d.nrhs = 1;
            n1[k] = 80;
            one.f = c->f + k * n;
            one.u0 = c->u0 + k * n;
            for (int s = 0; s < 6; s++)
                one.face[s] = c->face[s] ? c->face[s] + k * grid_case_face_len(c, s) : NULL;
            assert_int_equal(grid_case_solve(gpu, &one, &sd, us + k * n, &is, h1[k], &n1[k]), HOMG_OK);
            cycles = is.cycles > cycles ? is.cycles : cycles;
        }
        for (int i = 0; i < lanes; i++) /* the history lane after lane: k = i, i + lanes, ... */
            for (int k = i; k < nrhs; k += lanes)
                for (int h = 0; h < n1[k]; h++)
                    hs[ns++] = h1[k][h];
        for (int h = 0; h < nb && h < ns; h++)
            diff = fmax(diff, fabs(hb[h] - hs[h])); /* relative norms: near tol, r carries rounding of f */
        printf("  lanes: %d x %d, nrhs %d, %s, tol %g%s: %d cycles (singles %d), two-pass levels %d, history %d "
               "(singles %d) differs by %.1e, solutions by %.2e\n",
               c->d.nx, c->d.ny, nrhs, t == 3 ? "float32" : "float64", sd.tol, jump ? ", sigma jump" : "", ib.cycles,
               cycles, ib.two_pass, nb, ns, diff, homg_rel_diff(ub, us, n * nrhs));
        assert_int_equal(ib.two_pass,
                         1); /* automatic: the discs' first level of <= 16384 cells, or level 2 on a jump */
        assert_int_equal(ib.cycles, cycles);
        assert_int_equal(nb, ns);
        assert_true(diff < (t == 3 ? 1e-5 : 1e-12));
        assert_true(homg_rel_diff(ub, us, n * nrhs) < (t == 3 ? 1e-5 : 1e-12));
        free(ub);
        free(us);
        grid_case_free(c);
    }
}

static void gen_lanes_equal_single_solves(void **state)
{
    /* HOMG_TEST_LANES_SHORT=1 (compute-sanitizer runs): the two nrhs = 3 cases and one jump only */
    const int cases = getenv("HOMG_TEST_LANES_SHORT") ? 2 : 4;
    (void)state;
    for (int t = 0; t < cases; t++)
        lanes_case(t, 0);
    for (int t = 0; t < cases; t += getenv("HOMG_TEST_LANES_SHORT") ? 2 : 1)
        lanes_case(t, 1); /* a sigma jump: lanes, not one right-hand side after another */
}

/* nrhs = 5 (the general solver's 4 steps keyed per right-hand side: 20 graphs, more
 * than the 16 the cache once held): a second solve replays every graph, captures none,
 * and gives the first's solution (to the order of the dot products' atomic sums).
 * float32: a restart every 10 cycles, so 12 cycles take all 4 steps. */
static void gen_graphs_kept_for_many_rhs(void **state)
{
    const int nrhs = 5;
    grid_case *c = grid_case_new(96, 80, 1, nrhs, 160);
    const size_t n = grid_case_cells(c);
    homg_grid *g = NULL;
    homg_grid_operator op = { 0 };
    homg_solve_desc sd = { 0 };
    void *f, *u, *fl = NULL;
    double *a = (double *)malloc(n * nrhs * sizeof(double)), *b = (double *)malloc(n * nrhs * sizeof(double));
    long captures;
    (void)state;
    c->d.method = HOMG_METHOD_VCYCLE;
    c->d.precision = HOMG_FLOAT32;
    grid_case_discs(c, 0.2, 3, 161);
    assert_int_equal(homg_grid_create(gpu, &c->d, &g), HOMG_OK);
    assert_int_equal(homg_alloc(gpu, n, &fl), HOMG_OK);
    assert_int_equal(homg_copy_from_host(gpu, fl, c->flags, n), HOMG_OK);
    op.sigma = 1, op.flags = (const unsigned char *)fl;
    assert_int_equal(homg_grid_set_operator(g, &op), HOMG_OK);
    f = homg_test_upload(gpu, c->f, n * nrhs, c->d.precision);
    u = homg_test_upload(gpu, c->u0, n * nrhs, c->d.precision);
    sd.max_cycles = 12; /* past the restart at 10: all 4 step kinds */
    assert_int_equal(homg_grid_solve(g, f, NULL, u, &sd, NULL), HOMG_OK);
    homg_test_download(gpu, u, n * nrhs, c->d.precision, a);
    captures = g->graph_captures;
    homg_free(gpu, u);
    u = homg_test_upload(gpu, c->u0, n * nrhs, c->d.precision);
    assert_int_equal(homg_grid_solve(g, f, NULL, u, &sd, NULL), HOMG_OK);
    homg_test_download(gpu, u, n * nrhs, c->d.precision, b);
    printf("  nrhs %d: %ld graphs captured by the first solve, %ld by the second\n", nrhs, captures,
           g->graph_captures - captures);
    assert_true(captures == 4 * nrhs);
    assert_true(g->graph_captures == captures);
    assert_true(homg_rel_diff(a, b, n * nrhs) < 1e-5);
    homg_grid_destroy(g);
    homg_free(gpu, f), homg_free(gpu, u), homg_free(gpu, fl);
    free(a), free(b);
    grid_case_free(c);
}

/* One grid solved under a sequence of operators (singular islands: two, one, one
 * with per-cell sigma, the same with new sigma values, two again), on both backends: the GPU keeps its
 * captured graphs only while what they hold is unchanged, and gives the CPU's
 * solution every time. */
static void gen_operator_changes_match_cpu(void **state)
{
    enum { NX = 40, NY = 30 };
    const size_t n = (size_t)NX * NY;
    homg_ctx *ctxs[2] = { gpu, cpu };
    homg_grid *g[2];
    void *f[2], *u[2], *fl[2], *sig[2];
    double *sol[2], *hf = (double *)malloc(n * sizeof(double)), *hs = (double *)malloc(n * sizeof(double));
    unsigned char *flags = (unsigned char *)malloc(n);
    homg_rng r = homg_rng_seed(33);
    homg_grid_desc gd = { 0 };
    (void)state;
    gd.nx = NX, gd.ny = NY, gd.precision = HOMG_FLOAT64, gd.method = HOMG_METHOD_VCYCLE;
    for (int k = 0; k < 4; k++)
        gd.bc[k] = HOMG_BC_NEUMANN;
    for (size_t k = 0; k < n; k++)
        hf[k] = 2 * homg_rng_uniform(&r) - 1;
    for (int b = 0; b < 2; b++) {
        assert_int_equal(homg_grid_create(ctxs[b], &gd, &g[b]), HOMG_OK);
        f[b] = homg_test_upload(ctxs[b], hf, n, HOMG_FLOAT64);
        u[b] = homg_test_upload(ctxs[b], hf, n, HOMG_FLOAT64);
        sig[b] = homg_test_upload(ctxs[b], hf, n, HOMG_FLOAT64);
        assert_int_equal(homg_alloc(ctxs[b], n, &fl[b]), HOMG_OK);
        sol[b] = (double *)malloc(n * sizeof(double));
    }
    for (int step = 0; step < 5; step++) {
        homg_grid_operator op = { 0 };
        homg_solve_desc sd = { 0 };
        homg_solve_info info[2];
        for (size_t k = 0; k < n; k++) {
            int i = (int)(k % NX), j = (int)(k / NX);
            flags[k] = i == 20 ? HOMG_CELL_SOLID : step >= 1 && step <= 3 && i == 5 && j == 5 ? HOMG_CELL_FIXED : 0;
            hs[k] = 0.5 + homg_rng_uniform(&r) * (step == 3 ? 4 : 1);
        }
        sd.tol = 1e-10, sd.max_cycles = 100;
        for (int b = 0; b < 2; b++) {
            assert_int_equal(homg_copy_from_host(ctxs[b], fl[b], flags, n), HOMG_OK);
            homg_free(ctxs[b], sig[b]);
            sig[b] = homg_test_upload(ctxs[b], hs, n, HOMG_FLOAT64);
            op.flags = (const unsigned char *)fl[b];
            op.sigma_cell = step >= 2 ? sig[b] : NULL;
            assert_int_equal(homg_grid_set_operator(g[b], &op), HOMG_OK);
            assert_int_equal(homg_copy_from_host(ctxs[b], u[b], hf, n * sizeof(double)), HOMG_OK);
            assert_int_equal(homg_grid_solve(g[b], f[b], NULL, u[b], &sd, &info[b]), HOMG_OK);
            homg_test_download(ctxs[b], u[b], n, HOMG_FLOAT64, sol[b]);
        }
        printf("  operator %d: GPU %d cycles, CPU %d, solutions differ by %.2e\n", step, info[0].cycles, info[1].cycles,
               homg_rel_diff(sol[0], sol[1], n));
        assert_true(abs(info[0].cycles - info[1].cycles) <= 1);
        assert_true(homg_rel_diff(sol[0], sol[1], n) < 1e-8);
    }
    for (int b = 0; b < 2; b++) {
        homg_grid_destroy(g[b]);
        homg_free(ctxs[b], f[b]), homg_free(ctxs[b], u[b]), homg_free(ctxs[b], fl[b]), homg_free(ctxs[b], sig[b]);
        free(sol[b]);
    }
    free(hf), free(hs), free(flags);
}

static void nan_input_on_gpu(void **state)
{
    (void)state;
    const int N = 128;
    size_t n = (size_t)N * N;
    double *fh = (double *)calloc(n, sizeof(double)), *uh = (double *)malloc(n * sizeof(double));
    homg_grid_desc gd = { 0 };
    homg_grid *g = NULL;
    void *f, *u;
    for (size_t k = 0; k < n; k++)
        uh[k] = 7.0;
    fh[3 + 100 * N] = NAN;
    f = homg_test_upload(gpu, fh, n, HOMG_FLOAT32);
    u = homg_test_upload(gpu, uh, n, HOMG_FLOAT32);
    gd.nx = N;
    assert_int_equal(homg_grid_create(gpu, &gd, &g), HOMG_OK);
    assert_int_equal(homg_grid_solve(g, f, NULL, u, NULL, NULL), HOMG_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(homg_ctx_last_error(gpu), "(3, 100, 0)"));
    homg_test_download(gpu, u, n, HOMG_FLOAT32, uh);
    for (size_t k = 0; k < n; k++)
        assert_true(uh[k] == 7.0);
    homg_grid_destroy(g);
    homg_free(gpu, f);
    homg_free(gpu, u);
    free(fh);
    free(uh);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest quick[] = {
        cmocka_unit_test(kernels_match_cpu),
        cmocka_unit_test(gen_kernels_match_cpu),
        cmocka_unit_test(gpu_solve_equals_cpu_solve),
    };
    const struct CMUnitTest coarse[] = {
        cmocka_unit_test(coarse_exact_matches_cpu),
    };
    const struct CMUnitTest exact[] = {
        cmocka_unit_test(coarse_exact_matches_cpu),
    };
    const struct CMUnitTest wide[] = {
        cmocka_unit_test(exact_wide_matches_cpu),
    };
    const struct CMUnitTest fused[] = {
        cmocka_unit_test(fused_steps_match_cpu),
    };
    const struct CMUnitTest gen[] = {
        cmocka_unit_test(gen_kernels_match_cpu),
    };
    const struct CMUnitTest homg[] = {
        cmocka_unit_test(homg_kernels_match_cpu),
    };
    const struct CMUnitTest owned[] = {
        cmocka_unit_test(owned_steps_match_cpu),
    };
    const struct CMUnitTest rows[] = {
        cmocka_unit_test(rows_steps_match_cpu),
    };
    const struct CMUnitTest mid[] = {
        cmocka_unit_test(mid_sequence_matches_steps),
        cmocka_unit_test(mid_rule_same_on_both_backends),
    };
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(coarse_exact_matches_cpu),
        cmocka_unit_test(exact_wide_matches_cpu),
        cmocka_unit_test(kernels_match_cpu),
        cmocka_unit_test(owned_steps_match_cpu),
        cmocka_unit_test(rows_steps_match_cpu),
        cmocka_unit_test(mid_sequence_matches_steps),
        cmocka_unit_test(mid_rule_same_on_both_backends),
        cmocka_unit_test(homg_kernels_match_cpu),
        cmocka_unit_test(gpu_solve_equals_cpu_solve),
        cmocka_unit_test(tolerance_loop_on_device),
        cmocka_unit_test(gen_tolerance_loop_on_device),
        cmocka_unit_test(gen_loop_test_matches_cpu),
        cmocka_unit_test(graphs_are_reused),
        cmocka_unit_test(callers_stream_is_used),
        cmocka_unit_test(host_pointer_to_cuda_is_refused),
        cmocka_unit_test(nan_input_on_gpu),
        cmocka_unit_test(gen_kernels_match_cpu),
        cmocka_unit_test(gen_gpu_solve_equals_cpu_solve),
        cmocka_unit_test(gen_operator_changes_match_cpu),
        cmocka_unit_test(gen_lanes_equal_single_solves),
        cmocka_unit_test(gen_graphs_kept_for_many_rhs),
        cmocka_unit_test(exact_solutions_all_methods),
    };
    const struct CMUnitTest loop[] = {
        cmocka_unit_test(tolerance_loop_on_device),
    };
    const struct CMUnitTest genloop[] = {
        cmocka_unit_test(gen_tolerance_loop_on_device),
        cmocka_unit_test(gen_loop_test_matches_cpu),
    };
    const struct CMUnitTest operators[] = {
        cmocka_unit_test(gen_operator_changes_match_cpu),
    };
    const struct CMUnitTest lanes[] = {
        cmocka_unit_test(gen_lanes_equal_single_solves),
        cmocka_unit_test(gen_graphs_kept_for_many_rhs),
    };
    /* the first argument picks a group (none: all); the small ones serve compute-sanitizer runs */
    const homg_test_group groups[] = {
        HOMG_TEST_GROUP("all", tests, "every test"),
        HOMG_TEST_GROUP("quick", quick, "the kernel comparisons and one solve"),
        HOMG_TEST_GROUP("coarse", coarse, "the exact coarsest solve (racecheck, synccheck)"),
        HOMG_TEST_GROUP("exact", exact, "the exact coarsest solve (memcheck, racecheck, synccheck)"),
        HOMG_TEST_GROUP("wide", wide, "the exact solve in two launches (memcheck, racecheck, synccheck)"),
        HOMG_TEST_GROUP("fused", fused, "the fused down and up steps (racecheck, synccheck)"),
        HOMG_TEST_GROUP("owned", owned, "the owned-cell steps (memcheck, racecheck, synccheck)"),
        HOMG_TEST_GROUP("rows", rows, "the row-block fused steps (memcheck, racecheck, synccheck)"),
        HOMG_TEST_GROUP("mid", mid, "fused cycle boundaries in whole solves against the separate steps"),
        HOMG_TEST_GROUP("homg", homg, "HOMG's whole-grid kernels (memcheck, racecheck)"),
        HOMG_TEST_GROUP("loop", loop, "tolerance solves looping on the device (memcheck)"),
        HOMG_TEST_GROUP("genloop", genloop, "the general solver's tolerance solves looping on the device (memcheck)"),
        HOMG_TEST_GROUP("gen", gen, "the general multigrid's kernel comparisons (racecheck, memcheck)"),
        HOMG_TEST_GROUP("operators", operators, "a grid under changing operators"),
        HOMG_TEST_GROUP("lanes", lanes, "several right-hand sides side by side (racecheck, memcheck)"),
    };
    const homg_test_group *g = homg_test_group_pick(groups, sizeof groups / sizeof groups[0], argc, argv);
    if (!g)
        return 2;
    homg_test_require_gpu("test_grid_gpu");
    /* the one-block sweeps (off by default, gen_kernels.h GEN_SWEEP_BLOCK_CELLS) run in every
     * solve and kernel comparison here, so they stay checked; HOMG_GEN_SWEEP_BLOCK=0 tests the default */
    setenv("HOMG_GEN_SWEEP_BLOCK", "4096", 0);
    return homg_test_run_group(g, homg_test_setup_pair, homg_test_teardown_pair);
}
#else
int main(void)
{
    homg_test_require_gpu("test_grid_gpu (built without CUDA)");
    return HOMG_TEST_SKIP;
}
#endif
