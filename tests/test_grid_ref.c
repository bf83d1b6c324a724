/* test_grid_ref.c -- the general structured grid (issue 9) against an independent
 * reference: the operator assembled cell by cell from its definition and solved directly in
 * double (tests/util/grid_ref.h).  First the reference itself is checked against things it
 * does not share code with: the FFT solves of lib/fft on constant-coefficient boxes (every
 * side kind, solid borders as Neumann sides, FIXED cells as the zeros of an odd periodic
 * solution), the exact piecewise-linear solution of a layered 1e4 jump, and an analytic
 * solution with variable sigma and lambda converging at second order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fftcase.h"
#include "grid_ref.h"
#include "testutil.h"

static homg_ctx *ctx;

static double max_abs(const double *a, size_t n)
{
    double m = 0;
    for (size_t k = 0; k < n; k++)
        m = fmax(m, fabs(a[k]));
    return m;
}

/* max |a - b| / max |b| (max |a - b| when b = 0). */
static double rel_max_err(const double *a, const double *b, size_t n)
{
    double e = 0, m = max_abs(b, n);
    for (size_t k = 0; k < n; k++)
        e = fmax(e, fabs(a[k] - b[k]));
    return m > 0 ? e / m : e;
}

static grid_ref_problem problem_of_fft(const fft_problem *f)
{
    grid_ref_problem p;
    memset(&p, 0, sizeof p);
    p.nx = f->nx;
    p.ny = f->ny;
    p.nz = f->dim == 3 ? f->nz : 1;
    p.h = f->h;
    p.sigma = f->sigma;
    p.lambda = f->lambda;
    for (int s = 0; s < 6; s++)
        p.side[s] = s < 2 * f->dim ? (int)f->side[s] : GRID_REF_D;
    return p;
}

/* ------------------------------------------------ the reference against the FFT */

static double ref_vs_fft(int dim, int nx, int ny, int nz, const char *sides, double lambda, int nrhs, uint64_t seed)
{
    fft_case c;
    grid_ref r;
    double mean[4] = { 0 }, proj = 0, worst_mean = 0;
    fft_case_init(&c, dim, nx, ny, nz, sides, 1.0 / (nx > ny ? nx : ny), 1.7, lambda, nrhs, HOMG_FLOAT64, seed);
    grid_ref_problem p = problem_of_fft(&c.p);
    size_t n = c.ncell * nrhs;
    double *uf = (double *)malloc(sizeof(double) * n), *ur = (double *)calloc(n, sizeof(double));
    assert_int_equal(fft_case_solve(ctx, &c, FFT_ALGO_DEFAULT, uf, mean), HOMG_OK);
    assert_int_equal(grid_ref_build(&r, &p), 0);
    assert_int_equal(grid_ref_solve(&r, c.f, (const double *const *)c.face, ur, nrhs, &proj), 0);
    for (int k = 0; k < nrhs; k++)
        worst_mean = fmax(worst_mean, fabs(mean[k]));
    double e = rel_max_err(ur, uf, n);
    if (e > 1e-9 || fabs(proj - worst_mean) > 1e-9 * (1 + worst_mean))
        printf("  ref vs fft %dD %dx%dx%d %s lambda %g: err %.2e, projected %.6e vs fft %.6e\n", dim, nx, ny, nz, sides,
               lambda, e, proj, worst_mean);
    assert_true(e <= 1e-9);
    assert_true(fabs(proj - worst_mean) <= 1e-9 * (1 + worst_mean));
    assert_int_equal(r.nsingular, lambda == 0 && !strchr(sides, 'D'));
    grid_ref_free(&r);
    fft_case_free(&c);
    free(uf);
    free(ur);
    return e;
}

/* Every pair of side kinds on every axis, odd and even sizes, singular and not. */
static void reference_matches_fft(void **state)
{
    (void)state;
    static const char *const pairs[5] = { "DD", "NN", "PP", "DN", "ND" };
    static const int sizes2[][2] = { { 1, 1 }, { 1, 5 }, { 2, 3 }, { 5, 7 }, { 16, 8 }, { 33, 20 } };
    double worst = 0;
    int cases = 0;
    for (int a = 0; a < 5; a++)
        for (int b = 0; b < 5; b++)
            for (size_t s = 0; s < sizeof sizes2 / sizeof *sizes2; s++) {
                char sides[5];
                snprintf(sides, sizeof sides, "%s%s", pairs[a], pairs[b]);
                worst = fmax(worst, ref_vs_fft(2, sizes2[s][0], sizes2[s][1], 1, sides, 0, 2, 11 + s));
                worst = fmax(worst, ref_vs_fft(2, sizes2[s][0], sizes2[s][1], 1, sides, 3.5, 1, 21 + s));
                cases += 2;
            }
    for (int a = 0; a < 5; a++)
        for (int c = 0; c < 5; c++) {
            char sides[7];
            snprintf(sides, sizeof sides, "%s%s%s", pairs[a], pairs[(a + c) % 5], pairs[c]);
            worst = fmax(worst, ref_vs_fft(3, 5, 3, 4, sides, 0, 2, 31 + c));
            worst = fmax(worst, ref_vs_fft(3, 1, 2, 7, sides, 0.5, 1, 41 + c));
            worst = fmax(worst, ref_vs_fft(3, 12, 10, 9, sides, 0, 1, 51 + c));
            cases += 3;
        }
    printf("reference vs FFT: %d problems, worst relative max error %.2e\n", cases, worst);
}

/* A box padded with a ring of SOLID cells (any side kinds outside) is the box with
 * zero-flux (Neumann) sides: compared with the FFT's Neumann solve. */
static void solid_border_is_neumann(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        int nx = 6, ny = 5, nz = dim == 3 ? 4 : 1;
        fft_case c;
        fft_case_init(&c, dim, nx, ny, nz, "NNNNNN", 0.1, 2.0, dim == 3 ? 0 : 0.7, 1, HOMG_FLOAT64, 7);
        for (int s = 0; s < 6; s++)
            if (c.face[s])
                memset(c.face[s], 0, sizeof(double) * fft_case_face_n(&c.p, s));
        int NX = nx + 2, NY = ny + 2, NZ = dim == 3 ? nz + 2 : 1, o = dim == 3 ? 1 : 0;
        size_t N = (size_t)NX * NY * NZ;
        unsigned char *fl = (unsigned char *)malloc(N);
        double *F = (double *)calloc(N, sizeof(double)), *U = (double *)calloc(N, sizeof(double));
        double *uf = (double *)malloc(sizeof(double) * c.ncell), mean = 0, proj = 0;
        for (size_t q = 0; q < N; q++)
            fl[q] = GRID_REF_SOLID;
        for (int k = 0; k < nz; k++)
            for (int j = 0; j < ny; j++)
                for (int i = 0; i < nx; i++) {
                    size_t Q = (i + 1) + NX * ((j + 1) + (size_t)NY * (k + o));
                    fl[Q] = GRID_REF_ACTIVE;
                    F[Q] = c.f[i + nx * (j + (size_t)ny * k)];
                }
        grid_ref_problem p;
        grid_ref r;
        memset(&p, 0, sizeof p);
        p.nx = NX;
        p.ny = NY;
        p.nz = NZ;
        p.h = 0.1;
        p.sigma = 2.0;
        p.lambda = c.p.lambda;
        p.flags = fl;
        p.side[0] = GRID_REF_D; /* whatever lies beyond the solid ring does not matter */
        p.side[1] = GRID_REF_N;
        p.side[2] = p.side[3] = GRID_REF_P;
        assert_int_equal(fft_case_solve(ctx, &c, FFT_ALGO_DEFAULT, uf, &mean), HOMG_OK);
        assert_int_equal(grid_ref_build(&r, &p), 0);
        assert_int_equal(r.nisland, 1);
        assert_int_equal(r.nsingular, c.p.lambda == 0);
        assert_int_equal(grid_ref_solve(&r, F, NULL, U, 1, &proj), 0);
        double e = 0;
        for (int k = 0; k < nz; k++)
            for (int j = 0; j < ny; j++)
                for (int i = 0; i < nx; i++)
                    e = fmax(e, fabs(U[(i + 1) + NX * ((j + 1) + (size_t)NY * (k + o))] -
                                     uf[i + nx * (j + (size_t)ny * k)]));
        e /= max_abs(uf, c.ncell);
        printf("solid ring %dD vs FFT Neumann: err %.2e, projected %.3e (fft %.3e)\n", dim, e, proj, fabs(mean));
        assert_true(e < 1e-10);
        assert_true(fabs(proj - fabs(mean)) < 1e-10);
        grid_ref_free(&r);
        fft_case_free(&c);
        free(fl);
        free(F);
        free(U);
        free(uf);
    }
}

/* FIXED cells: on a periodic x-axis of length 2m+2 with f odd about cells 0 and m+1, the
 * periodic (FFT) solution is odd too and vanishes there; the reference with those two cells
 * FIXED at 0 (two islands, each anchored) must give the same values elsewhere. */
static void fixed_cells_are_zeros_of_an_odd_solution(void **state)
{
    (void)state;
    const char *ys[] = { "PPDD", "PPNN", "PPPP", "PPDN" };
    for (int t = 0; t < 4; t++) {
        int m = 5, nx = 2 * m + 2, ny = 4;
        fft_case c;
        fft_case_init(&c, 2, nx, ny, 1, ys[t], 1.0 / nx, 1.3, 0, 1, HOMG_FLOAT64, 5 + t);
        for (int j = 0; j < ny; j++) { /* odd about i = 0 (and so about i = m+1) */
            double *row = c.f + (size_t)nx * j;
            row[0] = row[m + 1] = 0;
            for (int i = 1; i <= m; i++)
                row[nx - i] = -row[i];
        }
        for (int s = 2; s < 4; s++)
            if (c.face[s])
                for (int i = 0; i <= m + 1; i++) {
                    c.face[s][i == 0 || i == m + 1 ? i : nx - i] = i == 0 || i == m + 1 ? 0 : -c.face[s][i];
                }
        double *uf = (double *)malloc(sizeof(double) * c.ncell), *ur = (double *)calloc(c.ncell, sizeof(double));
        unsigned char *fl = (unsigned char *)calloc(c.ncell, 1);
        for (int j = 0; j < ny; j++)
            fl[(size_t)nx * j] = fl[(size_t)nx * j + m + 1] = GRID_REF_FIXED;
        grid_ref_problem p = problem_of_fft(&c.p);
        grid_ref r;
        double proj = 1;
        p.flags = fl;
        assert_int_equal(fft_case_solve(ctx, &c, FFT_ALGO_DEFAULT, uf, NULL), HOMG_OK);
        assert_int_equal(grid_ref_build(&r, &p), 0);
        assert_int_equal(r.nisland, 2);
        assert_int_equal(r.nsingular, 0);
        assert_int_equal(grid_ref_solve(&r, c.f, (const double *const *)c.face, ur, 1, &proj), 0);
        assert_true(proj == 0);
        double e = rel_max_err(ur, uf, c.ncell);
        printf("FIXED cells vs odd periodic FFT solution (y sides %s): err %.2e, |u_fft| at the fixed cells %.1e\n",
               ys[t] + 2, e, fabs(uf[0]) + fabs(uf[m + 1]));
        assert_true(e < 1e-10);
        grid_ref_free(&r);
        fft_case_free(&c);
        free(uf);
        free(ur);
        free(fl);
    }
}

/* Layers of sigma across x (jumps of 1e4 at cell faces), Dirichlet 0 and 1 on W and E, zero
 * flux or periodic in y: the exact solution has a constant flux and is linear within each
 * layer, and the harmonic face mean makes the discrete solution equal it at cell centres. */
static void layered_jump_is_exact(void **state)
{
    (void)state;
    const int nx = 24, ny = 3;
    const double h = 1.0 / nx, g_e = 1.0;
    double sig[24], res[25], u_exact[24];
    for (int i = 0; i < nx; i++)
        sig[i] = (i / 5) % 2 ? 1e4 : 1.0;
    /* resistance from the W face to each centre: h/2/s_0 + sum of full cells */
    double total = 0;
    for (int i = 0; i < nx; i++)
        total += h / sig[i];
    double acc = 0;
    for (int i = 0; i < nx; i++) {
        res[i] = acc + 0.5 * h / sig[i];
        acc += h / sig[i];
        u_exact[i] = g_e * res[i] / total;
    }
    for (int yk = 0; yk < 2; yk++) {
        size_t n = (size_t)nx * ny;
        double *sc = (double *)malloc(sizeof(double) * n), *f = (double *)calloc(n, sizeof(double));
        double *u = (double *)calloc(n, sizeof(double)), *east = (double *)malloc(sizeof(double) * ny);
        for (size_t q = 0; q < n; q++)
            sc[q] = sig[q % nx];
        for (int j = 0; j < ny; j++)
            east[j] = g_e;
        const double *face[6] = { NULL, east, NULL, NULL, NULL, NULL };
        grid_ref_problem p;
        grid_ref r;
        memset(&p, 0, sizeof p);
        p.nx = nx;
        p.ny = ny;
        p.h = h;
        p.sigma_cell = sc;
        p.side[2] = p.side[3] = yk ? GRID_REF_P : GRID_REF_N;
        assert_int_equal(grid_ref_build(&r, &p), 0);
        assert_int_equal(grid_ref_solve(&r, f, face, u, 1, NULL), 0);
        double e = 0;
        for (size_t q = 0; q < n; q++)
            e = fmax(e, fabs(u[q] - u_exact[q % nx]));
        printf("layered 1e4 jump (y %s): max |u - exact| = %.2e\n", yk ? "periodic" : "Neumann", e);
        assert_true(e < 1e-9); /* cond(A) ~ 1e4 n^2 */
        grid_ref_free(&r);
        free(sc);
        free(f);
        free(u);
        free(east);
    }
}

/* ------------------------------------------------ analytic solution, second order */

/* u = X(x) Y(y) Z(z), X = x^2 + sin x + 1, Y = cos(2 pi y), Z = 1 + z^2 + z/2 (Z = 1 in 2D);
 * sigma = 1 + x sin(2 pi y)/2, lambda = 1 + x.  Sides: W Dirichlet, E Neumann, S/N periodic,
 * B Neumann, T Dirichlet, on the unit square or cube. */
typedef struct an_point {
    double u, ux, uy, uz, lap, s, sx, sy;
} an_point;

static an_point analytic(double x, double y, double z, int dim)
{
    const double tp = 2 * M_PI;
    double X = x * x + sin(x) + 1, Xp = 2 * x + cos(x), Xpp = 2 - sin(x);
    double Y = cos(tp * y), Yp = -tp * sin(tp * y), Ypp = -tp * tp * cos(tp * y);
    double Z = dim == 3 ? 1 + z * z + 0.5 * z : 1, Zp = dim == 3 ? 2 * z + 0.5 : 0, Zpp = dim == 3 ? 2 : 0;
    an_point a;
    a.u = X * Y * Z;
    a.ux = Xp * Y * Z;
    a.uy = X * Yp * Z;
    a.uz = X * Y * Zp;
    a.lap = Xpp * Y * Z + X * Ypp * Z + X * Y * Zpp;
    a.s = 1 + 0.5 * x * sin(tp * y);
    a.sx = 0.5 * sin(tp * y);
    a.sy = 0.5 * x * tp * cos(tp * y);
    return a;
}

static double analytic_error(int dim, int n)
{
    const int nz = dim == 3 ? n : 1;
    const double h = 1.0 / n;
    size_t N = (size_t)n * n * nz;
    double *sc = (double *)malloc(sizeof(double) * N), *lc = (double *)malloc(sizeof(double) * N);
    double *f = (double *)malloc(sizeof(double) * N), *u = (double *)calloc(N, sizeof(double));
    double *face[6] = { 0 }, err = 0, umax = 0;
    grid_ref_problem p;
    grid_ref r;
    memset(&p, 0, sizeof p);
    p.nx = p.ny = n;
    p.nz = nz;
    p.h = h;
    p.side[0] = GRID_REF_D;
    p.side[1] = GRID_REF_N;
    p.side[2] = p.side[3] = GRID_REF_P;
    p.side[4] = GRID_REF_N;
    p.side[5] = GRID_REF_D;
    p.sigma_cell = sc;
    p.lambda_cell = lc;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                double x = (i + 0.5) * h, y = (j + 0.5) * h, z = (k + 0.5) * h;
                an_point a = analytic(x, y, z, dim);
                size_t q = i + (size_t)n * (j + (size_t)n * k);
                sc[q] = a.s;
                lc[q] = 1 + x;
                f[q] = -(a.sx * a.ux + a.sy * a.uy + a.s * a.lap) + lc[q] * a.u;
            }
    for (int s = 0; s < 2 * (dim == 3 ? 3 : 2); s++) {
        if (p.side[s] == GRID_REF_P)
            continue;
        size_t m = grid_ref_face_n(&p, s);
        face[s] = (double *)malloc(sizeof(double) * m);
        for (size_t q = 0; q < m; q++) {
            int a0 = (int)(q % (s < 2 ? n : n)), a1 = (int)(q / n);
            double x = s == 0 ? 0 : s == 1 ? 1 : (a0 + 0.5) * h;
            double y = s < 2 ? (a0 + 0.5) * h : (a1 + 0.5) * h;
            double z = s < 4 ? (a1 + 0.5) * h : s == 4 ? 0 : 1;
            an_point a = analytic(x, y, z, dim);
            /* Dirichlet: the value; Neumann: the outward flux sigma du/dn */
            face[s][q] = p.side[s] == GRID_REF_D ? a.u : s == 1 ? a.s * a.ux : -a.s * a.uz;
        }
    }
    assert_int_equal(grid_ref_build(&r, &p), 0);
    assert_int_equal(grid_ref_solve(&r, f, (const double *const *)face, u, 1, NULL), 0);
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                an_point a = analytic((i + 0.5) * h, (j + 0.5) * h, (k + 0.5) * h, dim);
                err = fmax(err, fabs(u[i + (size_t)n * (j + (size_t)n * k)] - a.u));
                umax = fmax(umax, fabs(a.u));
            }
    grid_ref_free(&r);
    for (int s = 0; s < 6; s++)
        free(face[s]);
    free(sc);
    free(lc);
    free(f);
    free(u);
    return err / umax;
}

static void analytic_second_order(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        int n0 = dim == 2 ? 16 : 8, levels = dim == 2 ? 4 : 3;
        double prev = 0;
        for (int l = 0; l < levels; l++) {
            int n = n0 << l;
            double e = analytic_error(dim, n);
            printf("analytic %dD (variable sigma and lambda, D/N/P sides) n = %3d: max error %.3e", dim, n, e);
            if (l > 0) {
                printf("  order %.2f", log2(prev / e));
                assert_true(log2(prev / e) > 1.8);
            }
            printf("\n");
            prev = e;
        }
    }
}

/* ------------------------------------------------ the reference's own paths agree */

/* The envelope Cholesky and AMG-PCG give the same solution, and the projected system
 * leaves a residual at rounding level on the singular islands. */
static void reference_paths_agree(void **state)
{
    (void)state;
    const int nx = 40, ny = 30;
    size_t n = (size_t)nx * ny;
    homg_rng rng = homg_rng_seed(3);
    double *sc = (double *)malloc(sizeof(double) * n), *f = (double *)malloc(sizeof(double) * n);
    double *u[2] = { (double *)calloc(n, sizeof(double)), (double *)calloc(n, sizeof(double)) }, proj[2];
    unsigned char *fl = (unsigned char *)calloc(n, 1);
    for (size_t q = 0; q < n; q++) {
        int i = (int)(q % nx), j = (int)(q / nx);
        sc[q] = ((i / 4 + j / 4) % 2) ? 1e4 : 1; /* checkerboard of 4x4 blocks */
        f[q] = 2 * homg_rng_uniform(&rng) - 1;
        fl[q] = i == 20 || (j == 15 && i > 20) ? GRID_REF_SOLID : GRID_REF_ACTIVE; /* three islands */
    }
    grid_ref_problem p;
    memset(&p, 0, sizeof p);
    p.nx = nx;
    p.ny = ny;
    p.h = 1.0 / nx;
    p.sigma_cell = sc;
    p.flags = fl;
    p.side[0] = p.side[1] = p.side[2] = p.side[3] = GRID_REF_N;
    for (int k = 0; k < 2; k++) {
        grid_ref r;
        double mean[8];
        assert_int_equal(grid_ref_build(&r, &p), 0);
        assert_int_equal(r.nisland, 3);
        assert_int_equal(r.nsingular, 3);
        r.solver = 1 + k;
        assert_int_equal(grid_ref_solve(&r, f, NULL, u[k], 1, &proj[k]), 0);
        assert_int_equal(r.use_pcg, k);
        grid_ref_island_means(&r, u[k], mean);
        for (int i = 0; i < r.nisland; i++)
            assert_true(fabs(mean[i]) < 1e-12 * max_abs(u[k], n));
        /* u solves the singular system with the projected right-hand side */
        double *b = (double *)malloc(sizeof(double) * r.n), bm[8] = { 0 }, worst = 0;
        grid_ref_rhs(&r, f, NULL, u[k], b);
        for (int q = 0; q < r.n; q++)
            bm[r.island[q]] += b[q];
        for (int q = 0; q < r.nisland; q++) {
            int cnt = 0;
            for (int t = 0; t < r.n; t++)
                cnt += r.island[t] == q;
            bm[q] /= cnt;
            assert_true(fabs(bm[q]) <= proj[k] * (1 + 1e-12));
        }
        for (int q = 0; q < r.n; q++) {
            double au = 0;
            for (int t = r.a.row_ptr[q]; t < r.a.row_ptr[q + 1]; t++)
                au += r.a.values[t] * u[k][r.cell[r.a.col_idx[t]]];
            worst = fmax(worst, fabs(b[q] - bm[r.island[q]] - au));
        }
        assert_true(worst < 1e-7 * max_abs(b, r.n));
        free(b);
        grid_ref_free(&r);
    }
    double e = rel_max_err(u[1], u[0], n);
    printf(
        "envelope Cholesky vs AMG-PCG, 40x30 1e4 checkerboard, 3 singular islands: err %.2e, projected %.4e / %.4e\n",
        e, proj[0], proj[1]);
    assert_true(e < 1e-8);
    assert_true(fabs(proj[0] - proj[1]) < 1e-14);
    free(sc);
    free(f);
    free(fl);
    free(u[0]);
    free(u[1]);
}

static int setup(void **state)
{
    (void)state;
    ctx = homg_test_ctx(HOMG_BACKEND_CPU);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    homg_ctx_destroy(ctx);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reference_matches_fft),
        cmocka_unit_test(solid_border_is_neumann),
        cmocka_unit_test(fixed_cells_are_zeros_of_an_odd_solution),
        cmocka_unit_test(layered_jump_is_exact),
        cmocka_unit_test(analytic_second_order),
        cmocka_unit_test(reference_paths_agree),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
