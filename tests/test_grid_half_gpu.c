/* test_grid_half_gpu.c -- float16 grids (HOMG_FLOAT16) on CUDA: the general
 * multigrid's half kernels (kernels/grid/gen.cu, T = gen_half) against their CPU
 * twins (gen.c, gen_half.h) on random inputs, uniform levels with random SOLID
 * cells, 2D and 3D, a scaled coarse level (gen_level.down); the input check's
 * nonfinite_h; and a whole float16 solve on the GPU against the same solve on the
 * CPU and against the float64 reference.  Exit 77 without a GPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid/gen_half.h"
#include "grid/gen_kernels.h"
#include "grid/gen_point.h"
#include "core/internal.h"
#include "gridcase.h"
#include "testutil.h"

#if HOMG_HAVE_CUDA
#define gpu homg_test_gpu /* the pair homg_test_setup_pair makes (testutil.h) */
#define cpu homg_test_cpu

/* n random halves in [-a, a] (host bits) and copies in both contexts. */
typedef struct htwin {
    size_t n;
    uint16_t *host;
    void *g, *c;
} htwin;

static htwin htwin_new(size_t n, double a, homg_rng *rng)
{
    htwin t;
    t.n = n;
    t.host = (uint16_t *)malloc(n * 2);
    for (size_t k = 0; k < n; k++)
        t.host[k] = gen_float_to_half((float)(a * (2 * homg_rng_uniform(rng) - 1)));
    assert_int_equal(homg_alloc(gpu, n * 2, &t.g), HOMG_OK);
    assert_int_equal(homg_alloc(cpu, n * 2, &t.c), HOMG_OK);
    assert_int_equal(homg_copy_from_host(gpu, t.g, t.host, n * 2), HOMG_OK);
    assert_int_equal(homg_copy_from_host(cpu, t.c, t.host, n * 2), HOMG_OK);
    return t;
}

static void htwin_free(htwin *t)
{
    homg_free(gpu, t->g);
    homg_free(cpu, t->c);
    free(t->host);
}

/* Largest difference between the GPU and CPU copies, in half ulps of the larger value
 * (counted on the bit patterns of same-signed values; 0: identical). */
static int ulps(const htwin *t)
{
    uint16_t *a = (uint16_t *)malloc(t->n * 2), *b = (uint16_t *)malloc(t->n * 2);
    int worst = 0;
    homg_copy_to_host(gpu, a, t->g, t->n * 2);
    homg_copy_to_host(cpu, b, t->c, t->n * 2);
    for (size_t k = 0; k < t->n; k++) {
        int d;
        if (a[k] == b[k] || ((a[k] | b[k]) & 0x7fffu) == 0) /* equal, or +0 / -0 */
            continue;
        d = (a[k] ^ b[k]) & 0x8000u ? 1000 : abs((int)(a[k] & 0x7fffu) - (int)(b[k] & 0x7fffu));
        worst = d > worst ? d : worst;
    }
    free(a);
    free(b);
    return worst;
}

/* A uniform level (constants only) with random SOLID cells, flags in both spaces. */
static void level(gen_level *g, gen_level *c, int nx, int ny, int nz, homg_rng *rng)
{
    const size_t n = (size_t)nx * ny * nz;
    unsigned char *fl = (unsigned char *)malloc(n);
    memset(g, 0, sizeof *g);
    g->nx = nx;
    g->ny = ny;
    g->nz = nz;
    g->uniform = 1;
    for (int a = 0; a < 3; a++)
        g->g0[a] = a < 2 || nz > 1 ? 1000.0 * (1 + a) : 0;
    g->lam0 = 0.5;
    for (int s = 0; s < 6; s++)
        g->wall[s] = s == 0 || s == 3 ? 2000.0 : 0;
    for (size_t k = 0; k < n; k++)
        fl[k] = homg_rng_uniform(rng) < 0.1 ? 2 : 0;
    *c = *g;
    assert_int_equal(homg_alloc(gpu, n, (void **)&g->flag), HOMG_OK);
    assert_int_equal(homg_alloc(cpu, n, (void **)&c->flag), HOMG_OK);
    homg_copy_from_host(gpu, g->flag, fl, n);
    homg_copy_from_host(cpu, c->flag, fl, n);
    free(fl);
}

#define EXPECT(what, t, most)                                                                  \
    do {                                                                                       \
        int u_ = ulps(t);                                                                      \
        printf("  %-18s %3d x %3d x %2d: CUDA vs CPU %d half ulps\n", (what), nx, ny, nz, u_); \
        assert_true(u_ <= (most));                                                             \
    } while (0)

static void kernels_case(int nx, int ny, int nz, uint64_t seed)
{
    const gen_kernels *KG = &homg_cuda_gen_kernels, *KC = &homg_cpu_gen_kernels;
    const homg_precision p = HOMG_FLOAT16;
    const int cx = nx / 2, cy = ny / 2, cz = nz > 1 ? nz / 2 : 1;
    const size_t n = (size_t)nx * ny * nz, nc = (size_t)cx * cy * cz;
    homg_rng rng = homg_rng_seed(seed);
    gen_level Lg, Lc, Cg, Cc;
    gen_fine F;
    htwin u, f, ec, fc, r, q;
    double *sg, sc[GEN_NSCALARS] = { 0 }, gs[GEN_NSCALARS];
    level(&Lg, &Lc, nx, ny, nz, &rng);
    level(&Cg, &Cc, cx, cy, cz, &rng);
    Cg.down = Cc.down = nz > 1 ? 2 : 1; /* a scaled coarse level, as general.c's level_scales */
    memset(&F, 0, sizeof F);
    F.h = 1.0 / nx;
    F.sigma = 1;
    u = htwin_new(n, 1.0, &rng);
    f = htwin_new(n, 3000.0, &rng);
    ec = htwin_new(nc, 0.5, &rng);
    fc = htwin_new(nc, 0, &rng);
    r = htwin_new(n, 0, &rng);
    q = htwin_new(n, 1.0, &rng);
    for (int colour = 0; colour < 2; colour++) {
        assert_int_equal(KG->smooth(&gpu->ex, p, &Lg, u.g, f.g, colour), HOMG_OK);
        assert_int_equal(KC->smooth(&cpu->ex, p, &Lc, u.c, f.c, colour), HOMG_OK);
    }
    EXPECT("smooth", &u, 1);
    assert_int_equal(KG->residual_restrict(&gpu->ex, p, &Lg, &Cg, u.g, f.g, fc.g), HOMG_OK);
    assert_int_equal(KC->residual_restrict(&cpu->ex, p, &Lc, &Cc, u.c, f.c, fc.c), HOMG_OK);
    EXPECT("residual_restrict", &fc, 1);
    assert_int_equal(KG->prolong_smooth(&gpu->ex, p, &Lg, &Cg, ec.g, u.g, f.g), HOMG_OK);
    assert_int_equal(KC->prolong_smooth(&cpu->ex, p, &Lc, &Cc, ec.c, u.c, f.c), HOMG_OK);
    EXPECT("prolong_smooth", &u, 1);
    assert_int_equal(KG->prolong_add(&gpu->ex, p, &Lg, &Cg, ec.g, u.g), HOMG_OK);
    assert_int_equal(KC->prolong_add(&cpu->ex, p, &Lc, &Cc, ec.c, u.c), HOMG_OK);
    EXPECT("prolong_add", &u, 1);
    assert_int_equal(KG->smooth_from_zero(&gpu->ex, p, &Cg, ec.g, fc.g), HOMG_OK);
    assert_int_equal(KC->smooth_from_zero(&cpu->ex, p, &Cc, ec.c, fc.c), HOMG_OK);
    EXPECT("smooth_from_zero", &ec, 1);
    assert_int_equal(KG->coarse_solve(&gpu->ex, p, &Cg, ec.g, fc.g, 6), HOMG_OK);
    assert_int_equal(KC->coarse_solve(&cpu->ex, p, &Cc, ec.c, fc.c, 6), HOMG_OK);
    EXPECT("coarse_solve", &ec, 2);
    /* residual and apply, with their sums in device scalars */
    assert_int_equal(homg_alloc(gpu, sizeof gs, (void **)&sg), HOMG_OK);
    homg_copy_from_host(gpu, sg, sc, sizeof sc);
    assert_int_equal(KG->residual(&gpu->ex, p, &Lg, &F, u.g, f.g, r.g, sg + GEN_RR), HOMG_OK);
    assert_int_equal(KC->residual(&cpu->ex, p, &Lc, &F, u.c, f.c, r.c, sc + GEN_RR), HOMG_OK);
    EXPECT("residual", &r, 1);
    assert_int_equal(KG->apply(&gpu->ex, p, &Lg, u.g, q.g, sg + GEN_PQ), HOMG_OK);
    assert_int_equal(KC->apply(&cpu->ex, p, &Lc, u.c, q.c, sc + GEN_PQ), HOMG_OK);
    EXPECT("apply", &q, 1);
    assert_int_equal(KG->dot2(&gpu->ex, p, n, r.g, q.g, u.g, sg + GEN_ZQ), HOMG_OK);
    assert_int_equal(KC->dot2(&cpu->ex, p, n, r.c, q.c, u.c, sc + GEN_ZQ), HOMG_OK);
    homg_copy_to_host(gpu, gs, sg, sizeof gs);
    for (int s = GEN_PQ; s <= GEN_ZQ + 1; s++) {
        printf("  scalar %d: CUDA %.17g CPU %.17g\n", s, gs[s], sc[s]);
        assert_true(fabs(gs[s] - sc[s]) <= 1e-12 * (fabs(sc[s]) + 1e-300) + 1e-300);
    }
    gs[GEN_ALPHA] = sc[GEN_ALPHA] = 0.37;
    gs[GEN_BETA] = sc[GEN_BETA] = -0.61;
    gs[GEN_RR] = sc[GEN_RR] = 0;
    homg_copy_from_host(gpu, sg, gs, sizeof gs);
    assert_int_equal(KG->update_ur(&gpu->ex, p, n, Lg.flag, u.g, q.g, r.g, f.g, sg), HOMG_OK);
    assert_int_equal(KC->update_ur(&cpu->ex, p, n, Lc.flag, u.c, q.c, r.c, f.c, sc), HOMG_OK);
    EXPECT("update_ur (u)", &u, 0);
    EXPECT("update_ur (r)", &r, 0);
    assert_int_equal(KG->update_p(&gpu->ex, p, n, r.g, q.g, sg), HOMG_OK);
    assert_int_equal(KC->update_p(&cpu->ex, p, n, r.c, q.c, sc), HOMG_OK);
    EXPECT("update_p", &q, 0);
    homg_free(gpu, sg);
    htwin_free(&u);
    htwin_free(&f);
    htwin_free(&ec);
    htwin_free(&fc);
    htwin_free(&r);
    htwin_free(&q);
    homg_free(gpu, Lg.flag);
    homg_free(cpu, Lc.flag);
    homg_free(gpu, Cg.flag);
    homg_free(cpu, Cc.flag);
}

static void half_kernels_match_cpu(void **state)
{
    (void)state;
    kernels_case(66, 38, 1, 1);
    kernels_case(128, 128, 1, 2);
    kernels_case(34, 20, 18, 3);
}

static void nonfinite_h(void **state)
{
    const size_t n = 100000;
    uint16_t *h = (uint16_t *)calloc(n, 2);
    void *d = NULL;
    long long *flag = NULL, got = 0;
    (void)state;
    h[77777] = 0x7e00; /* NaN */
    assert_int_equal(homg_alloc(gpu, n * 2, &d), HOMG_OK);
    assert_int_equal(homg_alloc(gpu, sizeof got, (void **)&flag), HOMG_OK);
    homg_copy_from_host(gpu, d, h, n * 2);
    homg_copy_from_host(gpu, flag, &got, sizeof got);
    assert_int_equal(homg_cuda_gen_kernels.nonfinite_h(&gpu->ex, n, d, flag), HOMG_OK);
    homg_copy_to_host(gpu, &got, flag, sizeof got);
    assert_int_equal(got, 77778);
    homg_free(gpu, d);
    homg_free(gpu, flag);
    free(h);
}

/* The same float16 solve on both backends (20 cycles from zero, tol 0). */
static void solve_matches_cpu(void **state)
{
    grid_case *c = grid_case_new(200, 150, 1, 1, 5);
    const size_t n = grid_case_cells(c);
    homg_ctx *ctxs[2];
    double *u[2], ref[1], e2 = 0, r2 = 0;
    (void)state;
    (void)ref;
    for (int s = 0; s < 6; s++)
        c->d.bc[s] = HOMG_BC_NEUMANN;
    c->d.method = HOMG_METHOD_VCYCLE;
    grid_case_discs(c, 0.15, 6, 6);
    ctxs[0] = gpu;
    ctxs[1] = cpu;
    for (int b = 0; b < 2; b++) {
        homg_grid *g = NULL;
        homg_grid_desc d = c->d;
        homg_grid_operator op = { 0 };
        homg_solve_desc sd = { 0 };
        uint16_t *hf = (uint16_t *)malloc(n * 2);
        void *f = NULL, *uu = NULL, *fl = NULL;
        homg_ctx *x = ctxs[b];
        d.precision = HOMG_FLOAT16;
        assert_int_equal(homg_grid_create(x, &d, &g), HOMG_OK);
        homg_alloc(x, n, &fl);
        homg_copy_from_host(x, fl, c->flags, n);
        op.flags = (const unsigned char *)fl;
        assert_int_equal(homg_grid_set_operator(g, &op), HOMG_OK);
        for (size_t k = 0; k < n; k++)
            hf[k] = gen_float_to_half((float)c->f[k]);
        homg_alloc(x, n * 2, &f);
        homg_alloc(x, n * 2, &uu);
        homg_copy_from_host(x, f, hf, n * 2);
        memset(hf, 0, n * 2); /* solid cells keep u's values: the same on both */
        homg_copy_from_host(x, uu, hf, n * 2);
        sd.max_cycles = 20;
        assert_int_equal(homg_grid_solve(g, f, NULL, uu, &sd, NULL), HOMG_OK);
        homg_copy_to_host(x, hf, uu, n * 2);
        u[b] = (double *)malloc(n * sizeof(double));
        for (size_t k = 0; k < n; k++)
            u[b][k] = gen_half_to_float(hf[k]);
        homg_grid_destroy(g);
        homg_free(x, f);
        homg_free(x, uu);
        homg_free(x, fl);
        free(hf);
    }
    for (size_t k = 0; k < n; k++) {
        if (c->flags[k])
            continue;
        e2 += (u[0][k] - u[1][k]) * (u[0][k] - u[1][k]);
        r2 += u[1][k] * u[1][k];
    }
    printf("  float16 solve 200 x 150 Neumann + discs, 20 cycles: CUDA vs CPU %.2e\n", sqrt(e2 / r2));
    assert_true(sqrt(e2 / r2) <= 5e-4);
    free(u[0]);
    free(u[1]);
    grid_case_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(half_kernels_match_cpu),
        cmocka_unit_test(nonfinite_h),
        cmocka_unit_test(solve_matches_cpu),
    };
    homg_test_require_gpu("test_grid_half_gpu");
    return cmocka_run_group_tests(tests, homg_test_setup_pair, homg_test_teardown_pair);
}
#else
int main(void) { return homg_test_no_cuda("test_grid_half_gpu"); }
#endif
