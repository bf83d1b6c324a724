/* test_fft.c -- the FFT direct solves (lib/fft/fft.h) on the CPU, both algorithms
 * (FFTW r2r, and the CUDA algorithm's twin), against an independent reference: the
 * matrix of the discrete operator assembled here cell by cell from its definition
 * and solved by dense LU in double (bordered with the constant vector when singular,
 * which also gives the mean to project).  Every pair of side kinds per axis, 2D and
 * 3D, sizes 1 to 16, lambda = 0 and > 0, float32 and float64, several right-hand
 * sides; larger grids against exact discrete solutions; bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fftcase.h"
#include "poisson2d.h"
#include "testutil.h"

#define ctx homg_test_cpu /* homg_test_setup_cpu makes it (testutil.h) */

/* The five pairs of side kinds of an axis (low, high). */
static const char *const pairs[5] = { "DD", "NN", "PP", "DN", "ND" };

/* ------------------------------------------------------------ the reference */

/* Dense matrix (row-major, nn x nn) and right-hand sides (nrhs x nn) of the operator of
 * lib/fft/fft.h, written out cell by cell.  Returns 1 when singular (no Dirichlet side,
 * lambda = 0). */
static int assemble(const fft_case *c, double *A, double *b)
{
    const fft_problem *p = &c->p;
    const int n[3] = { p->nx, p->ny, p->nz };
    const size_t nn = c->ncell;
    double s = p->sigma / (p->h * p->h);
    int singular = p->lambda == 0;
    for (int side = 0; side < 2 * p->dim; side++)
        if (p->side[side] == FFT_DIRICHLET)
            singular = 0;
    memset(A, 0, sizeof(double) * nn * nn);
    for (int r = 0; r < p->nrhs; r++)
        memcpy(b + r * nn, c->f + r * nn, sizeof(double) * nn);
    for (int k = 0; k < n[2]; k++)
        for (int j = 0; j < n[1]; j++)
            for (int i = 0; i < n[0]; i++) {
                const int at[3] = { i, j, k };
                size_t row = i + (size_t)n[0] * (j + (size_t)n[1] * k);
                A[row * nn + row] += p->lambda;
                for (int a = 0; a < p->dim; a++)
                    for (int dir = -1; dir <= 1; dir += 2) {
                        int nb[3] = { i, j, k }, side = 2 * a + (dir > 0);
                        nb[a] += dir;
                        if (nb[a] < 0 || nb[a] >= n[a]) {
                            size_t fi = a == 0   ? j + (size_t)n[1] * k
                                        : a == 1 ? i + (size_t)n[0] * k
                                                 : i + (size_t)n[0] * j;
                            if (p->side[side] == FFT_PERIODIC) {
                                nb[a] = (nb[a] + n[a]) % n[a];
                            } else {
                                for (int r = 0; r < p->nrhs; r++) {
                                    double g = c->face[side][fi + r * fft_case_face_n(p, side)];
                                    b[r * nn + row] += p->side[side] == FFT_DIRICHLET ? 2 * s * g : g / p->h;
                                }
                                if (p->side[side] == FFT_DIRICHLET)
                                    A[row * nn + row] += 2 * s;
                                continue;
                            }
                        }
                        size_t col = nb[0] + (size_t)n[0] * (nb[1] + (size_t)n[1] * nb[2]);
                        A[row * nn + row] += s;
                        A[row * nn + col] -= s;
                        (void)at;
                    }
            }
    return singular;
}

/* Solves M x = y for `nrhs` right-hand sides (columns of length m, in place in y) by
 * LU with partial pivoting; M is destroyed. */
static void dense_solve(double *M, int m, double *y, int nrhs)
{
    for (int c = 0; c < m; c++) {
        int piv = c;
        for (int r = c + 1; r < m; r++)
            if (fabs(M[(size_t)r * m + c]) > fabs(M[(size_t)piv * m + c]))
                piv = r;
        assert_true(fabs(M[(size_t)piv * m + c]) > 1e-300);
        if (piv != c) {
            for (int k = 0; k < m; k++) {
                double t = M[(size_t)c * m + k];
                M[(size_t)c * m + k] = M[(size_t)piv * m + k];
                M[(size_t)piv * m + k] = t;
            }
            for (int q = 0; q < nrhs; q++) {
                double t = y[(size_t)q * m + c];
                y[(size_t)q * m + c] = y[(size_t)q * m + piv];
                y[(size_t)q * m + piv] = t;
            }
        }
        for (int r = c + 1; r < m; r++) {
            double l = M[(size_t)r * m + c] / M[(size_t)c * m + c];
            if (l == 0)
                continue;
            for (int k = c; k < m; k++)
                M[(size_t)r * m + k] -= l * M[(size_t)c * m + k];
            for (int q = 0; q < nrhs; q++)
                y[(size_t)q * m + r] -= l * y[(size_t)q * m + c];
        }
    }
    for (int q = 0; q < nrhs; q++)
        for (int r = m - 1; r >= 0; r--) {
            double acc = y[(size_t)q * m + r];
            for (int k = r + 1; k < m; k++)
                acc -= M[(size_t)r * m + k] * y[(size_t)q * m + k];
            y[(size_t)q * m + r] = acc / M[(size_t)r * m + r];
        }
}

/* The reference solution u (nrhs x ncell) and, when singular, the mean mu of each
 * right-hand side: [A 1; 1^T 0] [u; mu] = [b; 0] gives A u = b - mu 1, sum u = 0. */
static int reference(const fft_case *c, double *u, double *mu)
{
    int nn = (int)c->ncell, nr = c->p.nrhs, m;
    double *A = malloc(sizeof(double) * nn * nn), *b = malloc(sizeof(double) * nn * nr);
    int singular = assemble(c, A, b);
    m = nn + singular;
    double *M = calloc((size_t)m * m, sizeof(double)), *y = calloc((size_t)m * nr, sizeof(double));
    assert_true(A && b && M && y);
    for (int r = 0; r < nn; r++)
        for (int k = 0; k < nn; k++)
            M[(size_t)r * m + k] = A[(size_t)r * nn + k];
    if (singular)
        for (int k = 0; k < nn; k++)
            M[(size_t)k * m + nn] = M[(size_t)nn * m + k] = 1;
    for (int q = 0; q < nr; q++)
        for (int r = 0; r < nn; r++)
            y[(size_t)q * m + r] = b[(size_t)q * nn + r];
    dense_solve(M, m, y, nr);
    for (int q = 0; q < nr; q++) {
        memcpy(u + (size_t)q * nn, y + (size_t)q * m, sizeof(double) * nn);
        mu[q] = singular ? y[(size_t)q * m + nn] : 0;
    }
    free(A), free(b), free(M), free(y);
    return singular;
}

/* The reference from the inputs as the solver sees them (rounded to float32). */
static void round_inputs(fft_case *c)
{
    if (c->p.precision != HOMG_FLOAT32)
        return;
    for (size_t k = 0; k < c->ncell * c->p.nrhs; k++)
        c->f[k] = (float)c->f[k];
    for (int s = 0; s < 6; s++)
        for (size_t k = 0; c->face[s] && k < fft_case_face_n(&c->p, s) * c->p.nrhs; k++)
            c->face[s][k] = (float)c->face[s][k];
}

static double worst_err[2][2]; /* [precision][algorithm - 1] */

/* Solves c with both CPU algorithms and compares u and the means with the reference. */
static void check_against_reference(fft_case *c, const char *label)
{
    size_t n = c->ncell * c->p.nrhs;
    int dbl = c->p.precision == HOMG_FLOAT64;
    double *uref = malloc(sizeof(double) * n), *u = malloc(sizeof(double) * n), mu[8], mean[8];
    double tol = dbl ? 1e-10 : 2e-5;
    assert_true(uref && u && c->p.nrhs <= 8);
    round_inputs(c);
    int singular = reference(c, uref, mu);
    for (int algo = FFT_ALGO_R2R; algo <= FFT_ALGO_MAKHOUL; algo++) {
        homg_status st = fft_case_solve(ctx, c, (fft_algorithm)algo, u, mean);
        if (st != HOMG_OK)
            fail_msg("%s: %s", label, homg_ctx_last_error(ctx));
        double err = homg_rel_diff(u, uref, n), scale = 0;
        for (size_t k = 0; k < n; k++)
            scale = fmax(scale, fabs(uref[k]));
        if (!(err <= tol) && scale > 1e-12) /* a zero solution (1x1 singular) has no relative error */
            fail_msg("%s, %s, %s: error %.2e > %.0e", label, dbl ? "float64" : "float32",
                     algo == FFT_ALGO_R2R ? "r2r" : "makhoul", err, tol);
        if (scale > 1e-12 && err > worst_err[dbl][algo - 1])
            worst_err[dbl][algo - 1] = err;
        for (int q = 0; q < c->p.nrhs; q++) {
            double sum = 0, bscale = 1;
            for (size_t k = 0; k < c->ncell; k++)
                sum += u[q * c->ncell + k];
            if (singular && fabs(sum) > (dbl ? 1e-10 : 1e-4) * c->ncell * (scale + 1e-300))
                fail_msg("%s: singular solution has sum %g", label, sum);
            if (fabs(mean[q] - mu[q]) > (dbl ? 1e-10 : 1e-5) * (fabs(mu[q]) + bscale * c->p.sigma / (c->p.h * c->p.h)))
                fail_msg("%s: projected mean %.9g, reference %.9g", label, mean[q], mu[q]);
            if (!singular && mean[q] != 0)
                fail_msg("%s: mean %g reported for a non-singular problem", label, mean[q]);
        }
    }
    free(uref), free(u);
}

/* All side-kind pairs per axis on an nx x ny (x nz) box. */
static void all_pairs(int dim, int nx, int ny, int nz, double lambda, int nrhs, uint64_t seed)
{
    int combos = dim == 2 ? 25 : 125;
    for (int cb = 0; cb < combos; cb++) {
        char sides[7] = { 0 }, label[96];
        int q = cb;
        for (int a = 0; a < dim; a++, q /= 5)
            memcpy(sides + 2 * a, pairs[q % 5], 2);
        for (int prec = 0; prec < 2; prec++) {
            fft_case c;
            fft_case_init(&c, dim, nx, ny, nz, sides, 0.7, 1.3, lambda, nrhs, prec ? HOMG_FLOAT64 : HOMG_FLOAT32,
                          seed + 977 * cb);
            snprintf(label, sizeof label, "%dD %dx%dx%d sides %s lambda %g", dim, nx, ny, nz, sides, lambda);
            check_against_reference(&c, label);
            fft_case_free(&c);
        }
    }
}

static void every_side_pair_2d(void **state)
{
    (void)state;
    static const int sizes[][2] = { { 1, 1 }, { 1, 7 }, { 7, 1 }, { 2, 3 }, { 5, 7 }, { 8, 8 }, { 16, 9 }, { 6, 13 } };
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        all_pairs(2, sizes[k][0], sizes[k][1], 1, 0, 2, 100 + k);
        all_pairs(2, sizes[k][0], sizes[k][1], 1, 2.5, 2, 200 + k);
    }
    printf("  2D worst error: float32 r2r %.1e makhoul %.1e, float64 r2r %.1e makhoul %.1e\n", worst_err[0][0],
           worst_err[0][1], worst_err[1][0], worst_err[1][1]);
}

static void every_side_pair_3d(void **state)
{
    (void)state;
    static const int sizes[][3] = { { 4, 5, 3 }, { 1, 1, 1 }, { 3, 1, 4 }, { 2, 2, 2 }, { 5, 3, 1 }, { 1, 6, 1 } };
    memset(worst_err, 0, sizeof worst_err);
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        all_pairs(3, sizes[k][0], sizes[k][1], sizes[k][2], 0, 2, 300 + k);
        all_pairs(3, sizes[k][0], sizes[k][1], sizes[k][2], 0.8, 1, 400 + k);
    }
    printf("  3D worst error: float32 r2r %.1e makhoul %.1e, float64 r2r %.1e makhoul %.1e\n", worst_err[0][0],
           worst_err[0][1], worst_err[1][0], worst_err[1][1]);
}

static void many_right_hand_sides(void **state)
{
    (void)state;
    fft_case c;
    fft_case_init(&c, 3, 3, 4, 5, "DNPPND", 0.25, 2, 0, 7, HOMG_FLOAT64, 5);
    check_against_reference(&c, "3D 3x4x5 DNPPND nrhs 7");
    fft_case_free(&c);
    fft_case_init(&c, 2, 9, 4, 1, "NNNN", 1, 1, 0, 5, HOMG_FLOAT32, 6);
    check_against_reference(&c, "2D 9x4 NNNN nrhs 5 (singular)");
    fft_case_free(&c);
}

/* ------------------------------------------- larger grids: exact discrete solutions */

static void exact_discrete_solutions(void **state)
{
    (void)state;
    static const struct {
        int dim, nx, ny, nz;
        const char *sides;
        double lambda;
    } cases[] = {
        { 2, 100, 100, 1, "DDDD", 0 },
        { 2, 127, 64, 1, "NDPPxx", 0.5 },
        { 2, 96, 33, 1, "NNNN", 0 },
        { 3, 64, 48, 40, "DDDDDD", 0 },
        { 3, 33, 17, 9, "DNNDPP", 0 },
        { 3, 20, 30, 25, "NNPPNN", 0 },
        { 2, 1920 / 8, 1080 / 8, 1, "DDDD", 1e-3 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        fft_case c;
        fft_case_init(&c, cases[k].dim, cases[k].nx, cases[k].ny, cases[k].nz, cases[k].sides, 1.0 / cases[k].nx, 1,
                      cases[k].lambda, 1, HOMG_FLOAT64, 50 + k);
        for (int s = 0; s < 6; s++) { /* zero face data: f = A u* alone */
            free(c.face[s]);
            c.face[s] = NULL;
        }
        int singular = cases[k].lambda == 0 && !strchr(cases[k].sides, 'D');
        double *ustar = malloc(sizeof(double) * c.ncell), *u = malloc(sizeof(double) * c.ncell), mean = 0;
        homg_rng r = homg_rng_seed(k);
        double sum = 0;
        for (size_t q = 0; q < c.ncell; q++) {
            double x = (double)(q % cases[k].nx) / cases[k].nx;
            ustar[q] = sin(3 * x) + 0.1 * (homg_rng_uniform(&r) - 0.5);
            sum += ustar[q];
        }
        if (singular) /* the solution of mean zero */
            for (size_t q = 0; q < c.ncell; q++)
                ustar[q] -= sum / c.ncell;
        fft_case_apply(&c.p, ustar, c.f);
        for (int algo = FFT_ALGO_R2R; algo <= FFT_ALGO_MAKHOUL; algo++) {
            assert_int_equal(fft_case_solve(ctx, &c, (fft_algorithm)algo, u, &mean), HOMG_OK);
            double err = homg_rel_diff(u, ustar, c.ncell);
            printf("  %dD %4d x %-4d x %-3d %s lambda %-6g %-7s: error %.2e, projected mean %.1e\n", cases[k].dim,
                   cases[k].nx, cases[k].ny, cases[k].nz, cases[k].sides, cases[k].lambda,
                   algo == FFT_ALGO_R2R ? "r2r" : "makhoul", err, mean);
            assert_true(err < 1e-10);
            assert_true(fabs(mean) < 1e-8);
        }
        free(ustar), free(u);
        fft_case_free(&c);
    }
}

/* Exact discrete solutions of tests/util/poisson2d.c (its own operator, with non-zero
 * Dirichlet face data): what the benchmark's FFT baseline was checked against. */
static void poisson2d_exact_solutions(void **state)
{
    (void)state;
    static const struct {
        int nx, ny;
        double lambda;
    } cases[] = { { 8, 8, 0 }, { 100, 37, 0 }, { 256, 64, 3.5 }, { 480, 270, 0 }, { 1, 9, 0.25 } };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        homg_p2 *p2 = homg_p2_exact(cases[k].nx, cases[k].ny, cases[k].lambda, 0.1, 1, 31 + k);
        fft_case c;
        size_t n = (size_t)p2->nx * p2->ny;
        double *u = malloc(sizeof(double) * n);
        fft_case_init(&c, 2, p2->nx, p2->ny, 1, "DDDD", p2->h, 1, p2->lambda, 1, HOMG_FLOAT64, 1);
        memcpy(c.f, p2->f, sizeof(double) * n);
        for (int s = 0; s < 4; s++) {
            free(c.face[s]);
            c.face[s] = NULL;
            if (p2->g[s]) {
                size_t m = s < 2 ? (size_t)p2->ny : (size_t)p2->nx;
                c.face[s] = malloc(sizeof(double) * m);
                memcpy(c.face[s], p2->g[s], sizeof(double) * m);
            }
        }
        for (int algo = FFT_ALGO_R2R; algo <= FFT_ALGO_MAKHOUL; algo++) {
            assert_int_equal(fft_case_solve(ctx, &c, (fft_algorithm)algo, u, NULL), HOMG_OK);
            double err = homg_rel_diff(u, p2->u_star, n);
            printf("  %4d x %-4d lambda %-4g %-7s: error %.2e\n", p2->nx, p2->ny, p2->lambda,
                   algo == FFT_ALGO_R2R ? "r2r" : "makhoul", err);
            assert_true(err < 1e-11);
        }
        free(u);
        fft_case_free(&c);
        homg_p2_free(p2);
    }
}

/* In float32 the two algorithms are as accurate as each other on odd and even sizes
 * (against the float64 solve; the GPU test compares CUDA with both). */
static void algorithms_agree(void **state)
{
    (void)state;
    static const struct {
        int dim, nx, ny, nz;
        const char *sides;
    } cases[] = {
        { 2, 257, 130, 1, "DNND" },
        { 3, 31, 16, 17, "PPDDNN" },
        { 3, 18, 11, 24, "DDPPND" },
        { 2, 64, 64, 1, "PPPP" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        fft_case c;
        fft_case_init(&c, cases[k].dim, cases[k].nx, cases[k].ny, cases[k].nz, cases[k].sides, 0.01, 1, 0, 2,
                      HOMG_FLOAT32, 70 + k);
        round_inputs(&c);
        size_t n = c.ncell * 2;
        double *u0 = malloc(sizeof(double) * n), *u1 = malloc(sizeof(double) * n), *u2 = malloc(sizeof(double) * n);
        double m[2];
        c.p.precision = HOMG_FLOAT64;
        assert_int_equal(fft_case_solve(ctx, &c, FFT_ALGO_R2R, u0, m), HOMG_OK);
        c.p.precision = HOMG_FLOAT32;
        assert_int_equal(fft_case_solve(ctx, &c, FFT_ALGO_R2R, u1, m), HOMG_OK);
        assert_int_equal(fft_case_solve(ctx, &c, FFT_ALGO_MAKHOUL, u2, m), HOMG_OK);
        double e1 = homg_rel_diff(u1, u0, n), e2 = homg_rel_diff(u2, u0, n), d = homg_rel_diff(u2, u1, n);
        printf("  %dD %3d x %-3d x %-3d %s float32: r2r error %.1e, makhoul error %.1e, difference %.1e\n",
               cases[k].dim, cases[k].nx, cases[k].ny, cases[k].nz, cases[k].sides, e1, e2, d);
        assert_true(e1 < 3e-5 && e2 < 3e-5 && d < 5e-5);
        free(u0), free(u1), free(u2);
        fft_case_free(&c);
    }
}

static void in_place_and_repeatable(void **state)
{
    (void)state;
    fft_case c;
    fft_plan *plan;
    fft_case_init(&c, 3, 6, 5, 4, "DDNNPP", 0.2, 1, 0.1, 2, HOMG_FLOAT64, 9);
    size_t n = c.ncell * 2;
    double *u1 = malloc(sizeof(double) * n), *u2 = malloc(sizeof(double) * n);
    void *df = homg_test_upload(ctx, c.f, n, HOMG_FLOAT64), *du = homg_test_upload(ctx, c.f, n, HOMG_FLOAT64);
    const void *face[6] = { 0 };
    for (int s = 0; s < 4; s++)
        face[s] = homg_test_upload(ctx, c.face[s], fft_case_face_n(&c.p, s) * 2, HOMG_FLOAT64);
    assert_int_equal(homg__fft_plan_create(ctx, &c.p, &plan), HOMG_OK);
    assert_int_equal(homg__fft_solve(plan, df, face, du), HOMG_OK);
    homg_test_download(ctx, du, n, HOMG_FLOAT64, u1);
    assert_int_equal(homg__fft_solve(plan, df, face, df), HOMG_OK); /* f == u */
    homg_test_download(ctx, df, n, HOMG_FLOAT64, u2);
    assert_memory_equal(u1, u2, sizeof(double) * n);
    fft_cost cost;
    homg__fft_cost(plan, &cost);
    assert_int_equal(cost.own_kernels, 3);
    assert_true(cost.launches >= 5 && cost.bytes > 0 && cost.workspace_bytes > 0 && !cost.singular);
    homg__fft_plan_destroy(plan);
    homg_free(ctx, df), homg_free(ctx, du);
    for (int s = 0; s < 4; s++)
        homg_free(ctx, (void *)face[s]);
    free(u1), free(u2);
    fft_case_free(&c);
}

/* ---------------------------------------------------------------- bad input */

static void expect_plan_error(fft_problem p, homg_status want, const char *needle)
{
    fft_plan *plan = (fft_plan *)0x1;
    homg_status st = homg__fft_plan_create(ctx, &p, &plan);
    printf("  %-26s -> %s: %s\n", needle, homg_status_string(st), homg_ctx_last_error(ctx));
    assert_int_equal(st, want);
    assert_null(plan);
    assert_non_null(strstr(homg_ctx_last_error(ctx), needle));
}

static void bad_input_is_refused(void **state)
{
    (void)state;
    fft_problem ok = { 0 }, p;
    ok.nx = 8;
    ok.ny = 6;
    ok.h = 1;
    ok.sigma = 1;
    p = ok, p.nx = 0, expect_plan_error(p, HOMG_ERROR_INVALID_ARGUMENT, "nx = 0");
    p = ok, p.ny = -3, expect_plan_error(p, HOMG_ERROR_INVALID_ARGUMENT, "ny = -3");
    p = ok, p.dim = 3, p.nz = 0, expect_plan_error(p, HOMG_ERROR_INVALID_ARGUMENT, "nz = 0");
    p = ok, p.dim = 2, p.nz = 4, expect_plan_error(p, HOMG_ERROR_INVALID_ARGUMENT, "nz = 4 with dim = 2");
    p = ok, p.dim = 4, expect_plan_error(p, HOMG_ERROR_INVALID_ARGUMENT, "dim = 4");
    p = ok, p.lambda = -1, expect_plan_error(p, HOMG_ERROR_INVALID_ARGUMENT, "lambda = -1");
    p = ok, p.lambda = NAN, expect_plan_error(p, HOMG_ERROR_INVALID_ARGUMENT, "lambda = nan");
    p = ok, p.sigma = -2, expect_plan_error(p, HOMG_ERROR_INVALID_ARGUMENT, "sigma = -2");
    p = ok, p.sigma = 0, expect_plan_error(p, HOMG_ERROR_INVALID_ARGUMENT, "sigma = 0");
    p = ok, p.sigma = INFINITY, expect_plan_error(p, HOMG_ERROR_INVALID_ARGUMENT, "sigma = inf");
    p = ok, p.h = NAN, expect_plan_error(p, HOMG_ERROR_INVALID_ARGUMENT, "h = nan");
    p = ok, p.side[1] = FFT_PERIODIC, expect_plan_error(p, HOMG_ERROR_INVALID_ARGUMENT, "periodic sides come in pairs");
    p = ok, p.side[2] = (fft_side_kind)7, expect_plan_error(p, HOMG_ERROR_INVALID_ARGUMENT, "side[2] (S (y-)) = 7");
    p = ok, p.nrhs = -1, expect_plan_error(p, HOMG_ERROR_INVALID_ARGUMENT, "nrhs = -1");
    p = ok, p.precision = (homg_precision)5, expect_plan_error(p, HOMG_ERROR_INVALID_ARGUMENT, "precision = 5");
    p = ok, p.dim = 3, p.nx = p.ny = p.nz = 1 << 30,
    expect_plan_error(p, HOMG_ERROR_OUT_OF_MEMORY, "bytes of workspace");
    assert_int_equal(homg__fft_plan_create(ctx, NULL, NULL), HOMG_ERROR_INVALID_ARGUMENT);

    /* solve-time errors write nothing to u */
    fft_case c;
    fft_plan *plan;
    fft_case_init(&c, 2, 8, 6, 1, "PPDD", 1, 1, 0, 1, HOMG_FLOAT64, 3);
    double *f = c.f, u[48], g[8] = { 0 };
    for (int k = 0; k < 48; k++)
        u[k] = 12345;
    assert_int_equal(homg__fft_plan_create(ctx, &c.p, &plan), HOMG_OK);
    const void *face[6] = { g, NULL, NULL, NULL, NULL, NULL };
    assert_int_equal(homg__fft_solve(plan, f, face, u), HOMG_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "face[0] (W (x-)) given for a periodic side"));
    const void *face4[6] = { NULL, NULL, g, NULL, g, NULL };
    assert_int_equal(homg__fft_solve(plan, f, face4, u), HOMG_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "face[4] (B (z-)) given to a 2D problem"));
    assert_int_equal(homg__fft_solve(plan, NULL, NULL, u), HOMG_ERROR_INVALID_ARGUMENT);
    assert_int_equal(homg__fft_solve(plan, f, NULL, NULL), HOMG_ERROR_INVALID_ARGUMENT);
    for (int k = 0; k < 48; k++)
        assert_true(u[k] == 12345);
    assert_int_equal(homg__fft_solve(NULL, f, NULL, u), HOMG_ERROR_INVALID_ARGUMENT);
    homg__fft_plan_destroy(plan);
    homg__fft_plan_destroy(NULL);
    fft_case_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_side_pair_2d),        cmocka_unit_test(every_side_pair_3d),
        cmocka_unit_test(many_right_hand_sides),     cmocka_unit_test(exact_discrete_solutions),
        cmocka_unit_test(algorithms_agree),          cmocka_unit_test(in_place_and_repeatable),
        cmocka_unit_test(poisson2d_exact_solutions), cmocka_unit_test(bad_input_is_refused),
    };
    return cmocka_run_group_tests(tests, homg_test_setup_cpu, homg_test_teardown_cpu);
}
