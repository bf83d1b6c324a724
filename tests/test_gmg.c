/* test_gmg.c -- geometric multigrid on nested meshes, CPU backend (the
 * reference test_gmg_gpu.c compares the CUDA backend with).
 *
 * Independent checks: P reproduces linear functions exactly (the P1 basis
 * interpolates them) and R is P^T entry by entry; the Galerkin R A P equals
 * the rediscretised matrix where the spaces are nested and the coefficient is
 * constant on coarse elements; SPAI-1 rows against a dense Householder
 * least-squares solve of the definition min ||A^T m - e_i||; SAINV without
 * dropping against the dense inverse; smoothers reduce the A-norm of the
 * error; GMG-PCG iteration counts across refinement levels (printed, bounded);
 * the true residual recomputed here in double; bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fan_mesh.h"
#include "gen_matrix.h"
#include "gmg/gmg_internal.h"
#include "gmg/spai.h"
#include "mesh/mesh_internal.h"
#include "sparse/csr_host.h"
#include "host_system.h"
#include "homg.h"
#include "testutil.h"
#include "refused.h"
#include "repeat_mesh.h"

static homg_ctx *cpu_ctx(void)
{
    homg_ctx_desc d = { 0 };
    homg_ctx *ctx = NULL;
    d.backend = HOMG_BACKEND_CPU;
    d.cpu_threads = 1;
    assert_int_equal(homg_ctx_create(&d, &ctx), HOMG_OK);
    return ctx;
}

static homg_mesh *coarse_mesh(homg_ctx *ctx, int dim, int cells)
{
    homg_mesh_generate_desc gd = { 0 };
    homg_mesh *m = NULL;
    gd.cells = cells;
    if (dim == 2)
        assert_int_equal(homg_mesh_generate_square(ctx, &gd, &m), HOMG_OK);
    else
        assert_int_equal(homg_mesh_generate_cube(ctx, &gd, &m), HOMG_OK);
    return m;
}

static double linear(const double *x, int dim) { return 1.0 + 2.0 * x[0] - 3.0 * x[1] + (dim == 3 ? 0.5 * x[2] : 0.0); }

/* P u_coarse = u_fine for a linear u, in 2D and 3D, twice refined. */
static void test_prolongation_linear(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        homg_ctx *ctx = cpu_ctx();
        homg_mesh *c = coarse_mesh(ctx, dim, dim == 2 ? 3 : 2), *f = NULL, *ff = NULL;
        homg_host_csr p;
        assert_int_equal(homg_mesh_refine(c, &f), HOMG_OK);
        assert_int_equal(homg_mesh_refine(f, &ff), HOMG_OK);
        for (int pass = 0; pass < 2; pass++) {
            const homg_mesh *fine = pass ? ff : f, *coarse = pass ? f : c;
            double err = 0;
            assert_int_equal(homg__gmg_prolongation(ctx, fine, coarse, &p), HOMG_OK);
            assert_int_equal(p.nrows, homg_mesh_num_nodes(fine));
            for (int32_t i = 0; i < p.nrows; i++) {
                double s = 0, sum = 0;
                for (int32_t k = p.row_ptr[i]; k < p.row_ptr[i + 1]; k++) {
                    s += p.values[k] * linear(homg_mesh_coords(coarse) + (size_t)dim * p.col_idx[k], dim);
                    sum += p.values[k];
                }
                err = fmax(err, fabs(s - linear(homg_mesh_coords(fine) + (size_t)dim * i, dim)));
                assert_true(fabs(sum - 1) < 1e-12); /* partition of unity */
                assert_true(p.row_ptr[i + 1] - p.row_ptr[i] <= 2);
            }
            assert_true(err < 1e-12);
            { /* the set-up's P by the refinement rule: the same matrix */
                homg_host_csr q;
                assert_int_equal(homg__gmg_prolongation_refined(ctx, fine, coarse, &q), HOMG_OK);
                assert_int_equal(q.nnz, p.nnz);
                for (int32_t i = 0; i <= p.nrows; i++)
                    assert_int_equal(q.row_ptr[i], p.row_ptr[i]);
                for (int32_t k = 0; k < p.nnz; k++) {
                    assert_int_equal(q.col_idx[k], p.col_idx[k]);
                    assert_true(fabs(q.values[k] - p.values[k]) < 1e-12);
                }
                homg_host_csr_free(&q);
            }
            homg_host_csr_free(&p);
        }
        homg_mesh_destroy(ff);
        homg_mesh_destroy(f);
        homg_mesh_destroy(c);
        homg_ctx_destroy(ctx);
    }
}

/* A fine node moved out of its parent element: not nested. */
static void test_not_nested(void **state)
{
    homg_ctx *ctx = cpu_ctx();
    homg_mesh *c = coarse_mesh(ctx, 2, 2), *f = NULL;
    homg_host_csr p;
    (void)state;
    assert_int_equal(homg_mesh_refine(c, &f), HOMG_OK);
    {
        homg_mesh_data md = { 0 };
        int32_t n = homg_mesh_num_nodes(f);
        double *xy = malloc(sizeof(double) * 2 * n);
        homg_mesh *bad = NULL;
        memcpy(xy, homg_mesh_coords(f), sizeof(double) * 2 * n);
        xy[2 * (n - 1)] += 0.3; /* a midpoint well outside its parent triangle */
        md.dim = 2;
        md.num_nodes = n;
        md.num_elements = homg_mesh_num_elements(f);
        md.coords = xy;
        md.elements = homg_mesh_elements(f);
        if (homg_mesh_create(ctx, &md, &bad) == HOMG_OK) {
            HOMG_TEST_REFUSED(ctx, homg__gmg_prolongation(ctx, bad, c, &p), HOMG_ERROR_INVALID_ARGUMENT, "not nested");
            homg_mesh_destroy(bad);
        }
        free(xy);
    }
    homg_mesh_destroy(f);
    homg_mesh_destroy(c);
    homg_ctx_destroy(ctx);
}

static homg_host_csr fetch(homg_ctx *ctx, const csr_matrix *m)
{
    homg_csr v = { m->nrows, m->ncols, m->nnz, m->row_ptr, m->col_idx, m->values, HOMG_FLOAT64, HOMG_MEMORY_CONTEXT };
    homg_host_csr h;
    assert_int_equal(homg__csr_to_host(ctx, &v, &h, "test"), HOMG_OK);
    return h;
}

static const int32_t all_sides[6] = { 1, 2, 3, 4, 5, 6 };

static homg_gmg *make_gmg(homg_ctx *ctx, homg_mesh *c, int dim, homg_gmg_desc *d)
{
    homg_gmg *g = NULL;
    homg_status st;
    if (!d->dirichlet_tags) {
        d->dirichlet_tags = all_sides;
        d->num_dirichlet_tags = 2 * dim;
    }
    st = homg_gmg_create(c, d, &g);
    if (st != HOMG_OK)
        fail_msg("homg_gmg_create: %s: %s", homg_status_string(st), homg_ctx_last_error(ctx));
    return g;
}

/* R = P^T entry by entry, and R A P = rediscretised A_coarse (nested P1
 * spaces, constant coefficient on coarse elements), in 2D and 3D. */
static void test_transpose_and_galerkin(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        homg_ctx *ctx = cpu_ctx();
        homg_mesh *c = coarse_mesh(ctx, dim, 2);
        homg_gmg_desc d = { 0 }, dg;
        homg_gmg *re, *ga;
        double sig[48];
        for (int e = 0; e < 48; e++)
            sig[e] = 1.0 + (e % 3) * 10.0; /* jumps aligned with the coarse mesh */
        d.levels = 2;
        d.sigma_coarse = sig;
        d.smoother = HOMG_GMG_SMOOTHER_JACOBI;
        dg = d;
        dg.coarse_op = HOMG_GMG_COARSE_OP_GALERKIN;
        re = make_gmg(ctx, c, dim, &d);
        ga = make_gmg(ctx, c, dim, &dg);
        for (int l = 0; l < 2; l++) {
            homg_host_csr p = fetch(ctx, &re->lv[l].p.csr), r = fetch(ctx, &re->lv[l].r.csr);
            homg_host_csr ar = fetch(ctx, &re->lv[l + 1].a.csr), ag = fetch(ctx, &ga->lv[l + 1].a.csr);
            double maxd = 0, scale = 0;
            assert_int_equal(r.nrows, p.ncols);
            assert_int_equal(r.nnz, p.nnz);
            for (int32_t i = 0; i < p.nrows; i++)
                for (int32_t k = p.row_ptr[i]; k < p.row_ptr[i + 1]; k++)
                    assert_true(homg_test_csr_entry(&r, p.col_idx[k], i) == p.values[k]);
            for (int32_t i = 0; i < ar.nrows; i++)
                for (int32_t j = 0; j < ar.ncols; j++) {
                    maxd = fmax(maxd, fabs(homg_test_csr_entry(&ar, i, j) - homg_test_csr_entry(&ag, i, j)));
                    scale = fmax(scale, fabs(homg_test_csr_entry(&ar, i, j)));
                }
            printf("  dim %d level %d: max |R A P - A_coarse| = %.2e (max entry %.2e)\n", dim, l + 1, maxd, scale);
            assert_true(maxd <= 1e-11 * scale);
            homg_host_csr_free(&p);
            homg_host_csr_free(&r);
            homg_host_csr_free(&ar);
            homg_host_csr_free(&ag);
        }
        homg_gmg_destroy(re);
        homg_gmg_destroy(ga);
        homg_mesh_destroy(c);
        homg_ctx_destroy(ctx);
    }
}

/* Per-tag Dirichlet values (desc.dirichlet_tag_values): level 0's rhs on a
 * node with mask 1 is the value of the last listed tag equal to its marker,
 * else desc.dirichlet_value -- recomputed here from the mesh's markers.  P1
 * (the values on the backend from fem's markers) and P2 (the host loop). */
static void test_tag_values(void **state)
{
    static const int32_t tags[5] = { 1, 3, 2, 4, 1 };
    static const double vals[5] = { 10, 30, 20, 40, 50 };
    (void)state;
    for (int dim = 2; dim <= 3; dim++)
        for (int order = 1; order <= 2; order++) {
            homg_ctx *ctx = cpu_ctx();
            homg_mesh *c = coarse_mesh(ctx, dim, 2);
            homg_gmg_desc d = { 0 };
            homg_gmg *g;
            const int32_t *mk;
            const uint8_t *mask;
            const double *rhs;
            int32_t n, tagged = 0, fixed = 0;
            d.levels = 2;
            d.order = order;
            d.dirichlet_tags = tags;
            d.num_dirichlet_tags = 5;
            d.dirichlet_tag_values = vals;
            d.dirichlet_value = -7;
            g = make_gmg(ctx, c, dim, &d);
            mk = homg_mesh_node_markers(homg_gmg_mesh(g, 0)); /* a refined level's host copy */
            n = homg_mesh_num_nodes(g->lv[0].mesh);
            mask = g->lv[0].dfixed ? g->lv[0].dfixed : g->lv[0].fixed;
            rhs = homg_gmg_rhs(g);
            assert_int_equal(n, g->lv[0].rows);
            for (int32_t i = 0; i < n; i++) {
                double want = -7;
                for (int k = 0; k < 5; k++)
                    if (mk[i] == tags[k])
                        want = vals[k];
                if (mask[i] != 1)
                    continue;
                fixed++;
                tagged += want != -7;
                assert_true(rhs[i] == want);
            }
            printf("  dim %d, P%d: %d Dirichlet nodes, %d with a listed marker\n", dim, order, (int)fixed, (int)tagged);
            assert_true(tagged > 0);
            homg_gmg_destroy(g);
            homg_mesh_destroy(c);
            homg_ctx_destroy(ctx);
        }
}

/* SPAI-1's M^T (transpose_sym on A's pattern where A is homg_fem's, the
 * sparse table's transpose under Galerkin) entry by entry against M, found
 * by a search of the host copy: every level, 2D and 3D, both coarse ops. */
static void test_spai1_transpose(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++)
        for (int op = HOMG_GMG_COARSE_OP_REDISCRETISE; op <= HOMG_GMG_COARSE_OP_GALERKIN; op++) {
            homg_ctx *ctx = cpu_ctx();
            homg_mesh *c = coarse_mesh(ctx, dim, 2);
            homg_gmg_desc d = { 0 };
            homg_gmg *g;
            int32_t checked = 0;
            d.levels = 2;
            d.coarse_op = (homg_gmg_coarse_op)op;
            d.smoother = HOMG_GMG_SMOOTHER_SPAI1; /* on every level (the default has Jacobi on level 0) */
            g = make_gmg(ctx, c, dim, &d);
            for (int l = 0; l < g->nlevels - 1; l++) {
                homg_host_csr m = fetch(ctx, &g->lv[l].m.csr), mt = fetch(ctx, &g->lv[l].mt.csr);
                assert_int_equal(mt.nnz, m.nnz);
                for (int32_t i = 0; i < m.nrows; i++)
                    for (int32_t k = m.row_ptr[i]; k < m.row_ptr[i + 1]; k++, checked++)
                        assert_true(homg_test_csr_entry(&mt, m.col_idx[k], i) == m.values[k]);
                homg_host_csr_free(&m);
                homg_host_csr_free(&mt);
            }
            printf("  dim %d, %s: M^T = transpose(M) on %d entries\n", dim,
                   op == HOMG_GMG_COARSE_OP_GALERKIN ? "Galerkin" : "rediscretised", (int)checked);
            assert_true(checked > 0);
            homg_gmg_destroy(g);
            homg_mesh_destroy(c);
            homg_ctx_destroy(ctx);
        }
}

/* The arena (arena.c, HOMG_GMG_ARENA=1 on the CPU): the same cycle bit for
 * bit as without it, its blocks cut from chunks, a second create and the
 * destroys clean (SAN=1: no leak, no use after free); nested stays off.
 * on = 2: blocks of 4 KiB and more are large, so freed ones are kept and
 * reused within the create (HOMG_GMG_ARENA_LARGE), the same cycle again. */
static void test_arena(void **state)
{
    double *z[3] = { NULL, NULL, NULL };
    int32_t n = 0;
    (void)state;
    for (int on = 0; on <= 2; on++) {
        homg_ctx *ctx = cpu_ctx();
        homg_mesh *c = coarse_mesh(ctx, 3, 2);
        homg_gmg_desc d = { 0 };
        homg_gmg *g, *g2;
        setenv("HOMG_GMG_ARENA", on ? "1" : "0", 1);
        if (on == 2)
            setenv("HOMG_GMG_ARENA_LARGE", "4096", 1);
        d.levels = 2;
        g = make_gmg(ctx, c, 3, &d);
        g2 = make_gmg(ctx, c, 3, &d);
        unsetenv("HOMG_GMG_ARENA");
        unsetenv("HOMG_GMG_ARENA_LARGE");
        assert_int_equal(g->arena.enabled, on > 0);
        assert_int_equal(g->arena.count > 0 && g->arena.cut > 0, on > 0);
        assert_int_equal(g->arena.nlarge, 0); /* forgotten at the end of the create */
        if (on == 2)
            assert_true(g->arena.passed > 0 && g->arena.reused > 0);
        n = g->lv[0].rows;
        z[on] = malloc(sizeof(double) * n);
        assert_int_equal(homg_gmg_apply(g, homg_gmg_rhs(g), g->res), HOMG_OK);
        assert_int_equal(homg_copy_to_host(ctx, z[on], g->res, sizeof(double) * n), HOMG_OK);
        homg_gmg_destroy(g2);
        homg_gmg_destroy(g);
        homg_mesh_destroy(c);
        homg_ctx_destroy(ctx);
    }
    assert_memory_equal(z[0], z[1], sizeof(double) * n);
    assert_memory_equal(z[0], z[2], sizeof(double) * n);
    printf("  arena off, on, on with large blocks kept and reused: the same V-cycle on %d rows, bit for bit\n", (int)n);
    free(z[0]);
    free(z[1]);
    free(z[2]);
}

/* min ||A(:,J) m - e_i||_2 by Householder QR of the dense n x |J| matrix. */
static void dense_least_squares(const homg_host_csr *a, int32_t i, double *m)
{
    int32_t n = a->nrows, b = a->row_ptr[i], nj = a->row_ptr[i + 1] - b;
    double *q = calloc((size_t)n * nj, sizeof *q), *rhs = calloc((size_t)n, sizeof *rhs);
    for (int32_t c = 0; c < nj; c++) /* column c = A(:, J_c) = row J_c (A symmetric) */
        for (int32_t r = 0; r < n; r++)
            q[(size_t)c * n + r] = homg_test_csr_entry(a, r, a->col_idx[b + c]);
    rhs[i] = 1;
    for (int32_t c = 0; c < nj; c++) {
        double *v = q + (size_t)c * n, norm = 0, vv = 0, alpha;
        for (int32_t r = c; r < n; r++)
            norm += v[r] * v[r];
        norm = sqrt(norm);
        alpha = v[c] > 0 ? -norm : norm;
        v[c] -= alpha; /* v = x - alpha e_c */
        for (int32_t r = c; r < n; r++)
            vv += v[r] * v[r];
        for (int32_t c2 = c + 1; c2 <= nj; c2++) { /* reflect later columns and the rhs */
            double *w = c2 < nj ? q + (size_t)c2 * n : rhs, s = 0;
            for (int32_t r = c; r < n; r++)
                s += v[r] * w[r];
            for (int32_t r = c; r < n; r++)
                w[r] -= 2 * s / vv * v[r];
        }
        v[c] = alpha; /* R's diagonal */
    }
    for (int32_t c = nj - 1; c >= 0; c--) {
        double s = rhs[c];
        for (int32_t k = c + 1; k < nj; k++)
            s -= q[(size_t)k * n + c] * m[k];
        m[c] = s / q[(size_t)c * n + c];
    }
    free(q);
    free(rhs);
}

static void test_spai1_rows(void **state)
{
    homg_host_csr a;
    csr_matrix ca, cm;
    kernel_exec ex;
    int32_t fb = 0;
    double *mv;
    (void)state;
    memset(&ex, 0, sizeof ex);
    assert_int_equal(homg_gen_p1_cube(3, 1.0, 100.0, 0.5, &a), 0); /* two materials: rows differ */
    mv = calloc((size_t)a.nnz, sizeof *mv);
    ca.nrows = ca.ncols = a.nrows;
    ca.nnz = a.nnz;
    ca.row_ptr = a.row_ptr;
    ca.col_idx = a.col_idx;
    ca.values = a.values;
    ca.precision = HOMG_FLOAT64;
    cm = ca;
    cm.values = mv;
    assert_int_equal(homg_cpu_gmg_spai1(&ex, &ca, NULL, &cm, NULL, &fb, 0), HOMG_OK);
    assert_int_equal(fb, 0);
    for (int32_t i = 0; i < a.nrows; i += 7) {
        double m[GMG_SPAI1_MAX_ROW], err = 0, scale = 0;
        dense_least_squares(&a, i, m);
        for (int32_t k = 0; k < a.row_ptr[i + 1] - a.row_ptr[i]; k++) {
            err = fmax(err, fabs(m[k] - mv[a.row_ptr[i] + k]));
            scale = fmax(scale, fabs(m[k]));
        }
        assert_true(err <= 1e-8 * scale);
    }
    /* an empty row falls back (counted), no NaN */
    {
        int32_t rp[3] = { 0, 0, 1 }, ci[1] = { 1 };
        double v[1] = { 2.0 }, out[1] = { -1 };
        csr_matrix e = { 2, 2, 1, rp, ci, v, HOMG_FLOAT64 }, eo = e;
        eo.values = out;
        fb = 0;
        assert_int_equal(homg_cpu_gmg_spai1(&ex, &e, NULL, &eo, NULL, &fb, 0), HOMG_OK);
        assert_int_equal(fb, 1);
        assert_true(fabs(out[0] - 0.5) < 1e-15);
    }
    free(mv);
    homg_host_csr_free(&a);
}

/* SAINV with no dropping: W W^T = A^-1. */
static void test_sainv_exact(void **state)
{
    homg_ctx *ctx = cpu_ctx();
    homg_host_csr a, w;
    int32_t rep = 0, n;
    double *inv, err = 0, scale = 0;
    (void)state;
    assert_int_equal(homg_gen_poisson2d(6, &a), 0);
    n = a.nrows;
    assert_int_equal(homg__gmg_sainv(ctx, &a, 0.0, &w, &rep), HOMG_OK);
    assert_int_equal(rep, 0);
    inv = malloc(sizeof(double) * n * n);
    assert_int_equal(homg__gmg_dense_inverse(ctx, &a, inv), HOMG_OK);
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = 0; j < n; j++) {
            double s = 0;
            for (int32_t k = 0; k < n; k++)
                s += homg_test_csr_entry(&w, i, k) * homg_test_csr_entry(&w, j, k);
            err = fmax(err, fabs(s - inv[(size_t)i * n + j]));
            scale = fmax(scale, fabs(inv[(size_t)i * n + j]));
        }
    assert_true(err < 1e-10 * scale);
    /* the coarse solver's inverse (the CPU twin of the cuSOLVER kernel): A^-1 A = I */
    err = 0;
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = 0; j < n; j++) {
            double s = 0;
            for (int32_t k = 0; k < n; k++)
                s += inv[(size_t)i * n + k] * homg_test_csr_entry(&a, k, j);
            err = fmax(err, fabs(s - (i == j)));
        }
    assert_true(err < 1e-12);
    /* a matrix that is not positive definite: pivots replaced and counted */
    for (int32_t k = 0; k < a.nnz; k++)
        if (a.col_idx[k] == 0 && a.row_ptr[1] > k)
            a.values[k] = -1.0;
    homg_host_csr_free(&w);
    assert_int_equal(homg__gmg_sainv(ctx, &a, 0.0, &w, &rep), HOMG_OK);
    assert_true(rep >= 1);
    /* ... and the dense inverse refuses it, naming the pivot */
    HOMG_TEST_REFUSED(ctx, homg__gmg_dense_inverse(ctx, &a, inv), HOMG_ERROR_NUMERIC, "pivot 1, at row 0");
    free(inv);
    homg_host_csr_free(&w);
    homg_host_csr_free(&a);
    homg_ctx_destroy(ctx);
}

static double a_norm2(const homg_host_csr *a, const double *x)
{
    double s = 0;
    for (int32_t i = 0; i < a->nrows; i++)
        for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
            s += x[i] * a->values[k] * x[a->col_idx[k]];
    return s;
}

/* Sweeps on A e = 0 from a random e shrink ||e||_A for every smoother. */

/* Moments mu_k = sum_i w_i lam_i^k, k < count, of K = diag(lam) from the start sqrt(w). */
static void diag_moments(const double *lam, const double *w, int n, int count, double *mu)
{
    for (int k = 0; k < count; k++) {
        mu[k] = 0;
        for (int i = 0; i < n; i++)
            mu[k] += w[i] * pow(lam[i], k);
    }
}

/* The contraction check's Ritz value (ritz.c) against a diagonal K: exact
 * where the Krylov space holds every eigenvector, otherwise between the
 * power iteration's quotient (of 24 steps, the check before) and lambda_max. */
static void test_ritz(void **state)
{
    double lam[400], w[400], mu[48], r;
    (void)state;
    for (int i = 0; i < 5; i++) {
        lam[i] = 0.1 + 0.2 * i - (i == 4 ? 0.05 : 0);
        w[i] = 0.2 + 0.1 * i;
    }
    diag_moments(lam, w, 5, 12, mu);
    r = homg__gmg_ritz_max(mu, 6);
    assert_true(fabs(r - 0.85) < 1e-8);
    srand(7);
    for (int i = 0; i < 400; i++) { /* dense near the top, as E* E's spectrum on fine levels */
        lam[i] = 0.97 * sqrt((i + 1) / 400.0);
        w[i] = (double)rand() / RAND_MAX;
    }
    diag_moments(lam, w, 400, 48, mu);
    r = homg__gmg_ritz_max(mu, GMG_RITZ_STEPS);
    printf("  Ritz value of %d steps %.6f, power quotients of %d / 24 steps %.6f / %.6f, lambda_max %.6f\n",
           GMG_RITZ_STEPS, r, GMG_RITZ_STEPS, mu[2 * GMG_RITZ_STEPS - 1] / mu[2 * GMG_RITZ_STEPS - 2], mu[47] / mu[46],
           lam[399]);
    assert_true(r >= mu[47] / mu[46] - 1e-9);
    assert_true(r <= lam[399] + 1e-12);
    memset(mu, 0, sizeof mu);
    assert_true(homg__gmg_ritz_max(mu, 4) == 0); /* a zero start */
    mu[3] = NAN;
    mu[0] = 1;
    assert_true(isnan(homg__gmg_ritz_max(mu, 4)));
}

/* The set-up's P built from the refinement's edges in the ctx's space (CPU:
 * host memory) equals the host path's: P by the refinement rule, then masked
 * with the levels' Dirichlet rows, bit for bit, on every level. */
static void test_device_prolongation(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        homg_ctx *ctx = cpu_ctx();
        homg_mesh *c = coarse_mesh(ctx, dim, 2);
        homg_gmg_desc d = { 0 };
        int32_t tags[2] = { 1, 2 }; /* x = 0 and x = 1: fixed and free boundary rows */
        homg_gmg *g;
        d.levels = 3;
        d.dirichlet_tags = tags;
        d.num_dirichlet_tags = 2;
        g = make_gmg(ctx, c, dim, &d);
        for (int l = 0; l + 1 < g->nlevels; l++) { /* refined levels: no host copy until homg_gmg_mesh */
            assert_null(homg_mesh_coords(g->lv[l].mesh));
            assert_null(homg_mesh_facets(g->lv[l].mesh)); /* facets and markers made there too */
            assert_null(homg_mesh_node_markers(g->lv[l].mesh));
        }
        for (int l = 0; l + 1 < g->nlevels; l++) {
            const gmg_level *lv = &g->lv[l], *cv = &g->lv[l + 1];
            const csr_matrix *p = &lv->p.csr;
            homg_host_csr q;
            assert_non_null(lv->dfixed); /* the device path ran */
            assert_null(lv->fixed);
            assert_int_equal(homg__gmg_prolongation_refined(ctx, homg_gmg_mesh(g, l), homg_gmg_mesh(g, l + 1), &q),
                             HOMG_OK);
            assert_int_equal(homg__gmg_mask_prolongation(ctx, &q, lv->dfixed, cv->dfixed), HOMG_OK);
            assert_int_equal(p->nrows, q.nrows);
            assert_int_equal(p->ncols, q.ncols);
            assert_int_equal(p->nnz, q.nnz);
            assert_memory_equal(p->row_ptr, q.row_ptr, sizeof(int32_t) * ((size_t)q.nrows + 1));
            assert_memory_equal(p->col_idx, q.col_idx, sizeof(int32_t) * (size_t)q.nnz);
            assert_memory_equal(p->values, q.values, sizeof(double) * (size_t)q.nnz);
            { /* R = P^T by the GMG table's transpose = the host transpose, sorted rows */
                const csr_matrix *r = &lv->r.csr;
                homg_host_csr t;
                assert_int_equal(homg__gmg_host_transpose(ctx, &q, &t), HOMG_OK);
                assert_int_equal(r->nrows, t.nrows);
                assert_int_equal(r->nnz, t.nnz);
                assert_memory_equal(r->row_ptr, t.row_ptr, sizeof(int32_t) * ((size_t)t.nrows + 1));
                assert_memory_equal(r->col_idx, t.col_idx, sizeof(int32_t) * (size_t)t.nnz);
                assert_memory_equal(r->values, t.values, sizeof(double) * (size_t)t.nnz);
                homg_host_csr_free(&t);
            }
            homg_host_csr_free(&q);
        }
        printf("  %dD: P on %d levels = the host path's (refinement rule + masking), R = its transpose\n", dim,
               g->nlevels - 1);
        homg_gmg_destroy(g);
        homg_mesh_destroy(c);
        homg_ctx_destroy(ctx);
    }
}

/* SPAI-1's fallback rows reach the info (read with the bandwidths after the
 * set-up's last sync): a 2D fan of 48 triangles round a free centre, refined
 * twice, keeps the centre's row at 49 entries on every level, longer than
 * GMG_SPAI1_MAX_ROW: SPAI(0) there, counted once on each level but the
 * coarsest (the count recomputed here from the levels' matrices). */
static void test_fallback_info(void **state)
{
    enum { RIM = 48 };
    homg_ctx *ctx = cpu_ctx();
    int32_t one = 1, want = 0;
    homg_mesh *c = homg_test_fan_mesh(ctx, RIM);
    homg_gmg_desc d = { 0 };
    homg_gmg *g;
    (void)state;
    assert_non_null(c);
    d.levels = 2;
    d.smoother = d.fine_smoother = HOMG_GMG_SMOOTHER_SPAI1;
    d.dirichlet_tags = &one;
    d.num_dirichlet_tags = 1;
    g = make_gmg(ctx, c, 2, &d);
    for (int l = 0; l + 1 < g->nlevels; l++) {
        const csr_matrix *a = &g->lv[l].a.csr;
        for (int32_t i = 0; i < a->nrows; i++)
            want += a->row_ptr[i + 1] - a->row_ptr[i] > GMG_SPAI1_MAX_ROW;
    }
    printf("  fan of %d triangles, %d levels: %d SPAI-1 fallback rows in the info, %d rows longer than %d\n", RIM,
           g->nlevels, (int)g->info.fallback_rows, want, GMG_SPAI1_MAX_ROW);
    assert_int_equal(want, g->nlevels - 1);
    assert_int_equal(g->info.fallback_rows, want);
    homg_gmg_destroy(g);
    homg_mesh_destroy(c);
    homg_ctx_destroy(ctx);
}

static void test_smoothers_reduce_error(void **state)
{
    (void)state;
    for (int sm = HOMG_GMG_SMOOTHER_JACOBI; sm <= HOMG_GMG_SMOOTHER_SAINV; sm++) {
        homg_ctx *ctx = cpu_ctx();
        homg_mesh *c = coarse_mesh(ctx, 2, 4);
        homg_gmg_desc d = { 0 };
        homg_gmg *g;
        gmg_level *lv;
        homg_host_csr ah;
        homg_rng rng = homg_rng_seed(7);
        double *x, *zero, e0, e1 = 0;
        d.levels = 2;
        d.smoother = (homg_gmg_smoother)sm;
        g = make_gmg(ctx, c, 2, &d);
        lv = &g->lv[0];
        ah = (homg_host_csr){ lv->a.csr.nrows,   lv->a.csr.ncols,   lv->a.csr.nnz,
                              lv->a.csr.row_ptr, lv->a.csr.col_idx, (double *)lv->a.csr.values }; /* CPU: host memory */
        x = calloc((size_t)lv->rows, sizeof *x);
        zero = calloc((size_t)lv->rows, sizeof *zero);
        for (int32_t i = 0; i < lv->rows; i++)
            x[i] = (lv->fixed ? lv->fixed : lv->dfixed)[i] ? 0 : homg_rng_uniform(&rng) - 0.5; /* CPU: host memory */
        e0 = a_norm2(&ah, x);
        for (int s = 0; s < 3; s++)
            assert_int_equal(homg__gmg_smooth(g, 0, zero, x, s & 1), HOMG_OK);
        e1 = a_norm2(&ah, x);
        printf("  smoother %d: omega %.3f lambda_max %.3f, ||e||_A^2 %.3e -> %.3e after 3 sweeps\n", sm, lv->omega,
               lv->lambda_max, e0, e1);
        assert_true(lv->omega * lv->lambda_max < 2.0);
        assert_true(e1 < 0.5 * e0);
        free(x);
        free(zero);
        homg_gmg_destroy(g);
        homg_mesh_destroy(c);
        homg_ctx_destroy(ctx);
    }
}

typedef struct run {
    int iterations, cycles;
    double true_rel;
    double rho[3]; /* levels 0 .. 2's contraction checks (SPAI-1) */
    homg_gmg_info info;
} run;

/* GMG-PCG (and GMG as a solver) to 1e-8 on the assembled problem; the
 * residual is recomputed here from the host copy. */
static run pcg_run(homg_ctx *ctx, homg_mesh *c, int dim, homg_gmg_desc *d, int as_solver)
{
    homg_gmg *g = make_gmg(ctx, c, dim, d);
    homg_pcg_desc pd = { 0 };
    homg_pcg *pcg = NULL;
    homg_pcg_info pi;
    homg_gmg_solve_info si;
    homg_host_csr a = fetch(ctx, &g->lv[0].a.csr);
    int32_t n = a.nrows;
    double *x = calloc((size_t)n, sizeof *x), *b = malloc(sizeof(double) * n);
    run r;
    memset(&r, 0, sizeof r);
    memcpy(b, homg_gmg_rhs(g), sizeof(double) * n);
    pd.gmg = g;
    pd.tol = 1e-8;
    pd.flexible = d->cycle == HOMG_GMG_CYCLE_F;
    if (as_solver) {
        homg_status st = homg_gmg_solve(g, b, x, 1e-8, 200, &si);
        if (st != HOMG_OK)
            fail_msg("homg_gmg_solve: %s", homg_ctx_last_error(ctx));
        r.cycles = si.cycles;
    } else {
        assert_int_equal(homg_pcg_create(ctx, NULL, NULL, &pd, &pcg), HOMG_OK);
        if (homg_pcg_solve(pcg, b, x, &pi) != HOMG_OK)
            fail_msg("homg_pcg_solve: %s", homg_ctx_last_error(ctx));
        r.iterations = pi.iterations;
        homg_pcg_destroy(pcg);
    }
    r.true_rel = homg_test_residual(&a, b, x);
    homg_gmg_get_info(g, &r.info);
    memcpy(r.rho, g->rho, sizeof r.rho);
    assert_true(r.true_rel < 1e-7);
    free(x);
    free(b);
    homg_host_csr_free(&a);
    homg_gmg_destroy(g);
    return r;
}

/* Iterations of GMG-PCG across refinement levels: mesh independent. */
static void test_mesh_independent(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        int lmin = 1, lmax = dim == 2 ? 5 : 3, it[8] = { 0 };
        printf("  %dD, default smoothers (GMG_FINE_DEFAULT on level 0, SPAI-1 below), V(2,2) PCG to 1e-8:\n", dim);
        for (int L = lmin; L <= lmax; L++) {
            homg_ctx *ctx = cpu_ctx();
            homg_mesh *c = coarse_mesh(ctx, dim, dim == 2 ? 4 : 2);
            homg_gmg_desc d = { 0 };
            run r;
            d.levels = L;
            d.f = 1.0;
            r = pcg_run(ctx, c, dim, &d, 0);
            it[L] = r.iterations;
            printf("    levels %d: %8d rows, %3d iterations, true residual %.2e\n", L, (int)r.info.rows[0],
                   r.iterations, r.true_rel);
            homg_mesh_destroy(c);
            homg_ctx_destroy(ctx);
        }
        assert_true(it[lmax] <= (int)(1.2 * it[lmin + 1]) + 1);
        assert_true(it[lmax] <= 15);
    }
}

/* Level 0's own smoother below SPAI-1 (desc.fine_smoother, fine_sweeps):
 * JACOBI and SPAI0 with 1, 2 and 3 sweeps on a 2D and a 3D hierarchy.  Level
 * 0's lambda_max is its own estimate of D^-1 A (or SPAI(0)'s M A), not
 * SPAI-1's; the coarser levels' omegas are SPAI-1's as without it; PCG
 * converges (pcg_run checks the true residual) in no more iterations with
 * 3 sweeps than with 1, and within 2 x + 3 of SPAI-1 everywhere. */
static void test_fine_smoother(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        homg_ctx *ctx = cpu_ctx();
        homg_mesh *c = coarse_mesh(ctx, dim, dim == 2 ? 4 : 2);
        homg_gmg_desc d = { 0 };
        run base, r[2][4];
        d.levels = dim == 2 ? 4 : 3;
        d.f = 1.0;
        d.fine_smoother = HOMG_GMG_SMOOTHER_SPAI1;
        base = pcg_run(ctx, c, dim, &d, 0);
        printf("  %dD, %d rows: SPAI-1 everywhere %d iterations, lambda_0 %.4f\n", dim, (int)base.info.rows[0],
               base.iterations, base.info.lambda_max[0]);
        for (int sm = 0; sm < 2; sm++)
            for (int sw = 1; sw <= 3; sw++) {
                run *q = &r[sm][sw];
                d.fine_smoother = sm ? HOMG_GMG_SMOOTHER_SPAI0 : HOMG_GMG_SMOOTHER_JACOBI;
                d.fine_sweeps = sw;
                *q = pcg_run(ctx, c, dim, &d, 0);
                printf("    level 0 %s x%d: %d iterations, lambda_0 %.4f omega_0 %.4f\n", sm ? "SPAI(0)" : "Jacobi", sw,
                       q->iterations, q->info.lambda_max[0], q->info.omega[0]);
                assert_int_equal(q->info.desc.fine_smoother, d.fine_smoother);
                assert_true(fabs(q->info.omega[0] * q->info.lambda_max[0] - 4.0 / 3.0) < 1e-12);
                assert_true(fabs(q->info.lambda_max[0] / base.info.lambda_max[0] - 1) > 0.01); /* its own */
                for (int l = 1; l + 1 < q->info.levels; l++)
                    assert_true(fabs(q->info.omega[l] - base.info.omega[l]) < 1e-12 * base.info.omega[l]);
                assert_true(q->iterations <= 2 * base.iterations + 3);
            }
        for (int sm = 0; sm < 2; sm++)
            assert_true(r[sm][3].iterations <= r[sm][1].iterations);
        homg_mesh_destroy(c);
        homg_ctx_destroy(ctx);
    }
}

/* A diagonal level 0's lambda from its few power steps (smoother.c
 * diag_steps, HOMG_GMG_DIAG_POWER): on a square of 16641 rows and a cube of
 * 4913, SPAI(0) x3 on level 0, the default count against 60 steps (~the true
 * lambda_max): the few steps read low, but above 2/3 of it, so omega lambda
 * stays below 2 (the Richardson sweep contracts in the A-norm); the PCG
 * iterations at most one more. */
static void test_diag_power_steps(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        homg_ctx *ctx = cpu_ctx();
        homg_mesh *c = coarse_mesh(ctx, dim, dim == 2 ? 4 : 2);
        homg_gmg_desc d = { 0 };
        run few, many;
        d.levels = dim == 2 ? 5 : 3;
        d.f = 1.0;
        d.fine_smoother = HOMG_GMG_SMOOTHER_SPAI0;
        d.fine_sweeps = 3;
        unsetenv("HOMG_GMG_DIAG_POWER");
        few = pcg_run(ctx, c, dim, &d, 0);
        setenv("HOMG_GMG_DIAG_POWER", "60", 1);
        many = pcg_run(ctx, c, dim, &d, 0);
        unsetenv("HOMG_GMG_DIAG_POWER");
        printf("  %dD, %d rows: default steps lambda_0 %.4f (%d iterations), 60 steps %.4f (%d)\n", dim,
               (int)few.info.rows[0], few.info.lambda_max[0], few.iterations, many.info.lambda_max[0], many.iterations);
        assert_true(few.info.lambda_max[0] < many.info.lambda_max[0]);
        assert_true(few.info.lambda_max[0] > 2.0 / 3.0 * many.info.lambda_max[0]);
        assert_true(few.iterations <= many.iterations + 1);
        for (int l = 1; l + 1 < few.info.levels; l++) /* SPAI-1 levels: not diagonal, unchanged */
            assert_true(fabs(few.info.omega[l] - many.info.omega[l]) < 1e-12 * many.info.omega[l]);
        homg_mesh_destroy(c);
        homg_ctx_destroy(ctx);
    }
}

/* Fine levels' omega from a coarser level's (smoother.c levels_from_coarser,
 * HOMG_GMG_L0_OMEGA 0 / 1 / 2): squares whose levels 0 .. k - 1 take level
 * k's (level l + 1 >= 10000 rows): 4 x 4 cells refined 6 times (257^2 nodes,
 * k = 1), 8 x 8 refined 6 times (513^2, k = 2), and 4 x 4 refined 3 times (k =
 * 0: level 1 has 289 rows, nothing changes).  The same PCG iterations; with 1
 * and 2 lambda_l = 1.02^(k - l) lambda_k, within 5 % of the level's own
 * estimate; with 2 the level reports level k's contraction, its own within
 * 0.02 of it. */
static void test_l0_omega_from_l1(void **state)
{
    static const int cells[3] = { 4, 8, 4 }, levels[3] = { 6, 6, 3 }, from[3] = { 1, 2, 0 };
    run r[3];
    (void)state;
    for (int h = 0; h < 3; h++) {
        int k = from[h];
        for (int mode = 0; mode < 3; mode++) {
            homg_ctx *ctx = cpu_ctx();
            homg_mesh *c = coarse_mesh(ctx, 2, cells[h]);
            homg_gmg_desc d = { 0 };
            char v[2] = { (char)('0' + mode), 0 };
            setenv("HOMG_GMG_L0_OMEGA", v, 1);
            d.smoother = HOMG_GMG_SMOOTHER_SPAI1; /* on level 0 too */
            d.levels = levels[h];
            d.f = 1.0;
            r[mode] = pcg_run(ctx, c, 2, &d, 0);
            printf("  %d cells, %d levels, HOMG_GMG_L0_OMEGA=%d: %d iterations, lambda_max %.4f %.4f %.4f, rho %.4f "
                   "%.4f %.4f\n",
                   cells[h], d.levels, mode, r[mode].iterations, r[mode].info.lambda_max[0], r[mode].info.lambda_max[1],
                   r[mode].info.lambda_max[2], r[mode].rho[0], r[mode].rho[1], r[mode].rho[2]);
            homg_mesh_destroy(c);
            homg_ctx_destroy(ctx);
        }
        unsetenv("HOMG_GMG_L0_OMEGA");
        for (int mode = 1; mode < 3; mode++) {
            const homg_gmg_info *i = &r[mode].info;
            assert_int_equal(r[mode].iterations, r[0].iterations);
            for (int l = k; l < 3; l++) { /* level k and coarser untouched */
                assert_true(i->lambda_max[l] == r[0].info.lambda_max[l]);
                assert_true(r[mode].rho[l] == r[0].rho[l]);
            }
            for (int l = 0; l < k; l++) {
                assert_true(i->lambda_max[l] == pow(1.02, k - l) * i->lambda_max[k]);
                assert_true(fabs(i->lambda_max[l] / r[0].info.lambda_max[l] - 1) < 0.05);
                assert_true(i->omega[l] * r[0].info.lambda_max[l] < 2.0);
                assert_true(fabs(r[0].rho[l] - r[0].rho[k]) < 0.02);
                if (mode == 2)
                    assert_true(r[mode].rho[l] == r[mode].rho[k]);
                else
                    assert_true(r[mode].rho[l] != r[mode].rho[k] && r[mode].rho[l] < 0.999);
            }
        }
    }
}

/* P2 on the finest mesh (desc.order = 2): GMG-PCG iterations do not grow with
 * the levels, the solution equals AMG-PCG's on the P2 system homg_fem
 * assembles on the same mesh, and the P2 restrictions are refused. */
static void test_p2(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        int lmax = dim == 2 ? 4 : 2, it[8] = { 0 };
        printf("  %dD P2, SPAI-1 V(2,2) PCG to 1e-8:\n", dim);
        for (int L = 1; L <= lmax; L++) {
            homg_ctx *ctx = cpu_ctx();
            homg_mesh *c = coarse_mesh(ctx, dim, 2);
            homg_gmg_desc d = { 0 };
            run r;
            d.levels = L;
            d.order = 2;
            d.f = 1.0;
            r = pcg_run(ctx, c, dim, &d, 0);
            it[L] = r.iterations;
            printf("    levels %d: %8d rows (P2), %d meshes, %3d iterations\n", L, (int)r.info.rows[0], r.info.levels,
                   r.iterations);
            assert_int_equal(r.info.levels, L + 2);
            homg_mesh_destroy(c);
            homg_ctx_destroy(ctx);
        }
        assert_true(it[lmax] <= (int)(1.2 * it[2]) + 1);
        assert_true(it[lmax] <= 20);
    }
    {
        homg_ctx *ctx = cpu_ctx();
        homg_mesh *c = coarse_mesh(ctx, 2, 2);
        homg_gmg_desc d = { 0 };
        homg_gmg *g;
        homg_fem_desc fd = { 0 };
        homg_fem_coeffs fc = { 0 };
        homg_fem *fem = NULL;
        homg_amg *amg = NULL;
        homg_amg_desc ad = { 0 };
        homg_pcg_desc pd = { 0 };
        homg_pcg *pcg = NULL;
        homg_pcg_info pi;
        homg_csr a;
        int32_t n;
        double *x1, *x2;
        d.levels = 2;
        d.order = 2;
        d.f = 1.0;
        g = make_gmg(ctx, c, 2, &d);
        n = g->lv[0].rows;
        x1 = calloc((size_t)n, sizeof *x1);
        x2 = calloc((size_t)n, sizeof *x2);
        pd.gmg = g;
        pd.tol = 1e-11;
        assert_int_equal(homg_pcg_create(ctx, NULL, NULL, &pd, &pcg), HOMG_OK);
        assert_int_equal(homg_pcg_solve(pcg, homg_gmg_rhs(g), x1, &pi), HOMG_OK);
        homg_pcg_destroy(pcg);
        /* the same problem through homg_fem (P2 on the finest P1 mesh) and AMG */
        fd.order = 2;
        fd.precision = HOMG_FLOAT64;
        fd.dirichlet_tags = all_sides;
        fd.num_dirichlet_tags = 4;
        fc.f = 1.0;
        assert_int_equal(homg_fem_create(homg_gmg_mesh(g, 1), &fd, &fem), HOMG_OK);
        assert_int_equal(homg_fem_assemble(fem, &fc), HOMG_OK);
        assert_int_equal(homg_fem_num_dofs(fem), n);
        a = homg_fem_matrix(fem);
        ad.strength_theta = -1;
        assert_int_equal(homg_amg_create(ctx, &a, &ad, &amg), HOMG_OK);
        memset(&pd, 0, sizeof pd);
        pd.tol = 1e-11;
        assert_int_equal(homg_pcg_create(ctx, &a, amg, &pd, &pcg), HOMG_OK);
        assert_int_equal(homg_pcg_solve(pcg, (const double *)homg_fem_rhs(fem), x2, &pi), HOMG_OK);
        printf("  2D P2 (%d unknowns): GMG-PCG and AMG-PCG solutions differ by %.1e\n", (int)n,
               homg_rel_diff(x1, x2, (size_t)n));
        assert_true(homg_rel_diff(x1, x2, (size_t)n) < 1e-8);
        homg_pcg_destroy(pcg);
        homg_amg_destroy(amg);
        homg_fem_destroy(fem);
        homg_gmg_destroy(g);
        /* refusals */
        d.numbering = HOMG_GMG_NUMBERING_RCM;
        HOMG_TEST_REFUSED(ctx, homg_gmg_create(c, &d, &g), HOMG_ERROR_UNSUPPORTED, "AS_READ");
        d.numbering = 0;
        d.order = 3;
        HOMG_TEST_REFUSED(ctx, homg_gmg_create(c, &d, &g), HOMG_ERROR_INVALID_ARGUMENT, "order = 3");
        free(x1);
        free(x2);
        homg_mesh_destroy(c);
        homg_ctx_destroy(ctx);
    }
}

/* Smoothers, cycles and numberings all converge; RCM narrows the band. */
static void test_variants(void **state)
{
    homg_ctx *ctx = cpu_ctx();
    homg_mesh *c = coarse_mesh(ctx, 2, 3);
    (void)state;
    printf("  smoother   PCG-it  V-cycles\n");
    for (int sm = HOMG_GMG_SMOOTHER_JACOBI; sm <= HOMG_GMG_SMOOTHER_SAINV; sm++) {
        homg_gmg_desc d = { 0 };
        run p, s;
        d.levels = 3;
        d.f = 1;
        d.smoother = (homg_gmg_smoother)sm;
        p = pcg_run(ctx, c, 2, &d, 0);
        s = pcg_run(ctx, c, 2, &d, 1);
        printf("  %8d %8d %9d\n", sm, p.iterations, s.cycles);
        assert_true(p.iterations <= 20);
        assert_true(s.cycles <= 60);
    }
    for (int cy = HOMG_GMG_CYCLE_V; cy <= HOMG_GMG_CYCLE_F; cy++) {
        homg_gmg_desc d = { 0 };
        run p, s;
        d.levels = 3;
        d.f = 1;
        d.cycle = (homg_gmg_cycle)cy;
        p = pcg_run(ctx, c, 2, &d, 0);
        s = pcg_run(ctx, c, 2, &d, 1);
        printf("  cycle %d: PCG %d iterations, solver %d cycles\n", cy, p.iterations, s.cycles);
        assert_true(s.cycles <= 20);
    }
    {
        double band[5] = { 0 };
        for (int nb = HOMG_GMG_NUMBERING_AS_READ; nb <= HOMG_GMG_NUMBERING_TWO_LEVEL; nb++) {
            homg_gmg_desc d = { 0 };
            run p;
            d.levels = 3;
            d.f = 1;
            d.numbering = (homg_gmg_numbering)nb;
            p = pcg_run(ctx, c, 2, &d, 0);
            band[nb] = p.info.bandwidth[0];
            printf("  numbering %d: PCG %d iterations, mean |i-j| %.1f\n", nb, p.iterations, band[nb]);
        }
        assert_true(band[HOMG_GMG_NUMBERING_RCM] < band[HOMG_GMG_NUMBERING_RANDOM] / 5);
    }
    {
        homg_gmg_desc d = { 0 };
        run p, q;
        d.levels = 3;
        d.f = 1;
        d.smoother = HOMG_GMG_SMOOTHER_SAINV;
        p = pcg_run(ctx, c, 2, &d, 0);
        d.format = HOMG_GMG_FORMAT_ELL;
        q = pcg_run(ctx, c, 2, &d, 0);
        printf("  ELLPACK-R: PCG %d iterations (CSR %d), level 0 format %d\n", q.iterations, p.iterations,
               (int)q.info.format[0]);
        assert_int_equal(q.info.format[0], HOMG_GMG_FORMAT_ELL);
        assert_true(abs(q.iterations - p.iterations) <= 1);
    }
    {
        homg_gmg_desc d = { 0 };
        run p;
        d.levels = 3;
        d.f = 1;
        d.coarse_solver = HOMG_GMG_COARSE_SOLVER_AMG;
        p = pcg_run(ctx, c, 2, &d, 0);
        printf("  AMG on the coarsest level: PCG %d iterations\n", p.iterations);
    }
    homg_mesh_destroy(c);
    homg_ctx_destroy(ctx);
}

/* Centroid of finest element e (native = hierarchy order: AS_READ). */
static void centroid(const homg_mesh *m, int32_t e, double *c)
{
    int dim = homg_mesh_dim(m);
    const int32_t *v = homg_mesh_elements(m) + (size_t)e * (dim + 1);
    for (int k = 0; k < dim; k++) {
        c[k] = 0;
        for (int j = 0; j <= dim; j++)
            c[k] += homg_mesh_coords(m)[(size_t)dim * v[j] + k] / (dim + 1);
    }
}

/* A ball of sigma = 1e3 not aligned with the coarse mesh (so the coarse
 * elements it cuts see a mix): Galerkin against rediscretised (harmonic mean)
 * coarse operators. */
static void test_jumps_galerkin(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        homg_ctx *ctx = cpu_ctx();
        homg_mesh *c = coarse_mesh(ctx, dim, 2), *f = NULL;
        int L = dim == 2 ? 4 : 2, it[2];
        homg_mesh_generate_desc gd = { 0 };
        double *sig;
        int32_t ne;
        gd.cells = 2;
        gd.refine = L;
        if (dim == 2)
            assert_int_equal(homg_mesh_generate_square(ctx, &gd, &f), HOMG_OK);
        else
            assert_int_equal(homg_mesh_generate_cube(ctx, &gd, &f), HOMG_OK);
        ne = homg_mesh_num_elements(f);
        sig = malloc(sizeof(double) * ne);
        for (int32_t e = 0; e < ne; e++) {
            double x[3], r2 = 0;
            centroid(f, e, x);
            for (int k = 0; k < dim; k++)
                r2 += (x[k] - 0.43) * (x[k] - 0.43);
            sig[e] = r2 < 0.31 * 0.31 ? 1e3 : 1.0;
        }
        for (int op = 0; op < 2; op++) {
            homg_gmg_desc d = { 0 };
            run p;
            d.levels = L;
            d.f = 1;
            d.sigma_fine = sig;
            d.coarse_op = op ? HOMG_GMG_COARSE_OP_GALERKIN : HOMG_GMG_COARSE_OP_REDISCRETISE;
            p = pcg_run(ctx, c, dim, &d, 0);
            it[op] = p.iterations;
        }
        printf("  %dD ball of sigma 1e3: rediscretised %d, Galerkin %d PCG iterations\n", dim, it[0], it[1]);
        assert_true(it[1] <= it[0]);
        free(sig);
        homg_mesh_destroy(f);
        homg_mesh_destroy(c);
        homg_ctx_destroy(ctx);
    }
}

/* A copy of m with its nodes in random order and its elements reversed. */
static homg_mesh *shuffled(homg_ctx *ctx, const homg_mesh *m, uint64_t seed)
{
    int dim = homg_mesh_dim(m), nv = dim + 1;
    int32_t n = homg_mesh_num_nodes(m), ne = homg_mesh_num_elements(m), nf = homg_mesh_num_facets(m);
    int32_t *perm = malloc(sizeof(int32_t) * n), *inv = malloc(sizeof(int32_t) * n);
    int32_t *el = malloc(sizeof(int32_t) * ne * nv), *fa = malloc(sizeof(int32_t) * (nf * dim + 1));
    int32_t *et = malloc(sizeof(int32_t) * ne);
    double *xy = malloc(sizeof(double) * n * dim);
    homg_rng rng = homg_rng_seed(seed);
    homg_mesh_data md = { 0 };
    homg_mesh *out = NULL;
    for (int32_t i = 0; i < n; i++)
        perm[i] = i;
    for (int32_t i = n - 1; i > 0; i--) {
        int32_t j = (int32_t)(homg_rng_uniform(&rng) * (i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (int32_t k = 0; k < n; k++) { /* new k = old perm[k] */
        inv[perm[k]] = k;
        memcpy(xy + (size_t)dim * k, homg_mesh_coords(m) + (size_t)dim * perm[k], sizeof(double) * dim);
    }
    for (int32_t e = 0; e < ne; e++) {
        et[e] = homg_mesh_element_tags(m)[ne - 1 - e];
        for (int j = 0; j < nv; j++)
            el[(size_t)e * nv + j] = inv[homg_mesh_elements(m)[(size_t)(ne - 1 - e) * nv + j]];
    }
    for (int32_t k = 0; k < nf * dim; k++)
        fa[k] = inv[homg_mesh_facets(m)[k]];
    md.dim = dim;
    md.num_nodes = n;
    md.num_elements = ne;
    md.num_facets = nf;
    md.coords = xy;
    md.elements = el;
    md.element_tags = et;
    md.facets = fa;
    md.facet_tags = homg_mesh_facet_tags(m);
    assert_int_equal(homg_mesh_create(ctx, &md, &out), HOMG_OK);
    free(perm);
    free(inv);
    free(el);
    free(fa);
    free(et);
    free(xy);
    return out;
}

/* HOMG_GMG_FEM_UNION=1: levels 1 .. L-1 assembled as one disjoint mesh give
 * every level's matrix and Dirichlet mask bit for bit as one homg_fem a level
 * (the CPU backend's serial assembly adds each entry's element terms in the
 * same order), and the same V-cycle; shuffled (unstructured numbering) square,
 * cube and fan coarse meshes, P1 and P2 (level 0 P2 on level 1's mesh). */
static void test_fem_union(void **state)
{
    (void)state;
    for (int k = 0; k < 5; k++) {
        int dim = k == 1 || k == 3 ? 3 : 2, order = k == 3 || k == 4 ? 2 : 1, rows = 0, same = 0;
        homg_gmg *g[2];
        double *z[2];
        homg_ctx *ctx = cpu_ctx();
        homg_mesh *base = k == 2 ? homg_test_fan_mesh(ctx, 7) : coarse_mesh(ctx, dim, 2);
        homg_mesh *c = shuffled(ctx, base, 31 + (uint64_t)k);
        for (int on = 0; on <= 1; on++) {
            homg_gmg_desc d = { 0 };
            d.levels = dim == 2 ? 3 : 2;
            d.order = order;
            if (k == 2) { /* the fan's rim */
                static const int32_t rim[1] = { 1 };
                d.dirichlet_tags = rim;
                d.num_dirichlet_tags = 1;
            }
            setenv("HOMG_GMG_FEM_UNION", on ? "1" : "0", 1);
            g[on] = make_gmg(ctx, c, dim, &d);
            unsetenv("HOMG_GMG_FEM_UNION");
            rows = g[on]->lv[0].rows;
            z[on] = malloc(sizeof(double) * rows);
            assert_int_equal(homg_gmg_apply(g[on], homg_gmg_rhs(g[on]), g[on]->res), HOMG_OK);
            assert_int_equal(homg_copy_to_host(ctx, z[on], g[on]->res, sizeof(double) * rows), HOMG_OK);
        }
        assert_true(g[0]->nlevels >= 3);
        for (int l = 0; l < g[0]->nlevels; l++) {
            const csr_matrix *a = &g[0]->lv[l].a.csr, *b = &g[1]->lv[l].a.csr;
            assert_int_equal(a->nrows, b->nrows);
            assert_int_equal(a->nnz, b->nnz);
            assert_memory_equal(a->row_ptr, b->row_ptr, sizeof(int32_t) * (a->nrows + 1));
            assert_memory_equal(a->col_idx, b->col_idx, sizeof(int32_t) * a->nnz);
            assert_memory_equal(a->values, b->values, sizeof(double) * a->nnz);
            assert_non_null(g[0]->lv[l].dfixed);
            assert_memory_equal(g[0]->lv[l].dfixed, g[1]->lv[l].dfixed, (size_t)a->nrows);
            /* each level's own, not the union's (0 here: the CPU's SERIAL scheme; test_gmg_gpu checks PATCH's) */
            assert_int_equal(g[1]->lv[l].max_row, g[0]->lv[l].max_row);
            if (l >= 2) /* the union's create is timed as level 1's; a level's own fem as its own */
                same += g[1]->fem_level_ms[l][0] == 0.0 && g[0]->fem_level_ms[l][0] > 0.0;
        }
        assert_int_equal(same, g[0]->nlevels - 2); /* the union was taken */
        assert_memory_equal(z[0], z[1], sizeof(double) * rows);
        printf("  %s %dD P%d, %d levels: levels 1-%d as one union: every matrix and mask, and a V-cycle, bit for bit\n",
               k == 2     ? "fan"
               : dim == 2 ? "square"
                          : "cube",
               dim, order, g[0]->nlevels, g[0]->nlevels - 1);
        for (int on = 0; on <= 1; on++) {
            homg_gmg_destroy(g[on]);
            free(z[on]);
        }
        homg_mesh_destroy(c);
        homg_mesh_destroy(base);
        homg_ctx_destroy(ctx);
    }
}

/* A hierarchy given as nested meshes in any numbering converges as the
 * refined one does; a mesh that is not nested is refused. */
static void test_nested_meshes(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        homg_ctx *ctx = cpu_ctx();
        homg_mesh *m[4], *given[4];
        homg_gmg_desc d = { 0 };
        homg_gmg *g = NULL;
        int levels = dim == 2 ? 3 : 2, it_ref, it_nested;
        homg_pcg_desc pd = { 0 };
        homg_pcg *pcg = NULL;
        homg_pcg_info pi;
        double *x;
        m[0] = coarse_mesh(ctx, dim, 2);
        given[0] = m[0];
        for (int l = 1; l <= levels; l++) {
            assert_int_equal(homg_mesh_refine(m[l - 1], &m[l]), HOMG_OK);
            given[l] = shuffled(ctx, m[l], 5 + l);
        }
        d.levels = levels;
        d.f = 1;
        d.numbering = HOMG_GMG_NUMBERING_RCM;
        it_ref = pcg_run(ctx, m[0], dim, &d, 0).iterations;
        d.dirichlet_tags = all_sides;
        d.num_dirichlet_tags = 2 * dim;
        if (homg_gmg_create_nested(given, levels + 1, &d, &g) != HOMG_OK)
            fail_msg("homg_gmg_create_nested: %s", homg_ctx_last_error(ctx));
        pd.gmg = g;
        assert_int_equal(homg_pcg_create(ctx, NULL, NULL, &pd, &pcg), HOMG_OK);
        x = calloc((size_t)homg_mesh_num_nodes(m[levels]), sizeof *x);
        assert_int_equal(homg_pcg_solve(pcg, homg_gmg_rhs(g), x, &pi), HOMG_OK);
        it_nested = pi.iterations;
        printf("  %dD: refined hierarchy %d, nested shuffled meshes %d PCG iterations\n", dim, it_ref, it_nested);
        assert_true(abs(it_ref - it_nested) <= 1);
        free(x);
        homg_pcg_destroy(pcg);
        homg_gmg_destroy(g);
        /* swap two levels: not nested */
        {
            homg_mesh *swapped[3] = { given[0], given[2], m[1] };
            HOMG_TEST_REFUSED(ctx, homg_gmg_create_nested(swapped, 3, &d, &g), HOMG_ERROR_INVALID_ARGUMENT,
                              "not nested");
        }
        for (int l = 1; l <= levels; l++) {
            homg_mesh_destroy(m[l]);
            homg_mesh_destroy(given[l]);
        }
        homg_mesh_destroy(m[0]);
        homg_ctx_destroy(ctx);
    }
}

/* A coarse boundary facet that is no face of any element (facet 3 joins two
 * nodes no element edge joins): refused with homg_mesh_refine's words and the
 * facet's index, by the device set-up (facets refined by the backend, read
 * once after all levels) and by the host one (Galerkin: host P), nothing made. */
static void bad_facet_is_named(homg_ctx *ctx, homg_mesh *c, homg_gmg_desc d)
{
    homg_mesh_data md = { 0 };
    int32_t nf = homg_mesh_num_facets(c), *fa = malloc(sizeof(int32_t) * 2 * nf);
    homg_mesh *bad = NULL;
    homg_gmg *g = NULL;
    memcpy(fa, homg_mesh_facets(c), sizeof(int32_t) * 2 * nf);
    fa[6] = 0;
    fa[7] = homg_mesh_num_nodes(c) - 1; /* opposite corners of the square */
    md.dim = 2;
    md.num_nodes = homg_mesh_num_nodes(c);
    md.num_elements = homg_mesh_num_elements(c);
    md.num_facets = nf;
    md.coords = homg_mesh_coords(c);
    md.elements = homg_mesh_elements(c);
    md.facets = fa;
    md.facet_tags = homg_mesh_facet_tags(c);
    assert_int_equal(homg_mesh_create(ctx, &md, &bad), HOMG_OK);
    d.levels = 3;
    for (int op = HOMG_GMG_COARSE_OP_REDISCRETISE; op <= HOMG_GMG_COARSE_OP_GALERKIN; op++) {
        d.coarse_op = (homg_gmg_coarse_op)op;
        HOMG_TEST_REFUSED(ctx, homg_gmg_create(bad, &d, &g), HOMG_ERROR_INVALID_ARGUMENT,
                          "refining level 3: homg_mesh_refine: boundary facet 3 is not a face of any element");
        assert_null(g);
    }
    homg_mesh_destroy(bad);
    free(fa);
}

static void test_bad_input(void **state)
{
    homg_ctx *ctx = cpu_ctx();
    homg_mesh *c = coarse_mesh(ctx, 2, 2);
    homg_gmg *g = NULL;
    homg_gmg_desc d = { 0 };
    double sig[8] = { 1, 1, 1, -1, 1, 1, 1, 1 };
    (void)state;
    d.levels = 99;
    HOMG_TEST_REFUSED(ctx, homg_gmg_create(c, &d, &g), HOMG_ERROR_INVALID_ARGUMENT, "levels");
    assert_null(g);
    d.levels = 1;
    d.smoother = (homg_gmg_smoother)42;
    HOMG_TEST_REFUSED(ctx, homg_gmg_create(c, &d, &g), HOMG_ERROR_INVALID_ARGUMENT, "smoother");
    d.smoother = 0;
    d.fine_smoother = HOMG_GMG_SMOOTHER_SAINV; /* below SPAI-1: only a diagonal one */
    HOMG_TEST_REFUSED(ctx, homg_gmg_create(c, &d, &g), HOMG_ERROR_INVALID_ARGUMENT, "fine_smoother");
    d.fine_smoother = 0;
    d.fine_sweeps = -1;
    HOMG_TEST_REFUSED(ctx, homg_gmg_create(c, &d, &g), HOMG_ERROR_INVALID_ARGUMENT, "fine_sweeps");
    d.fine_sweeps = 0;
    d.sigma_coarse = sig;
    HOMG_TEST_REFUSED(ctx, homg_gmg_create(c, &d, &g), HOMG_ERROR_INVALID_ARGUMENT, "sigma_coarse[3]");
    d.sigma_coarse = NULL;
    { /* a non-finite per-tag Dirichlet value: named by its tag index, nothing created */
        static const int32_t tags[2] = { 1, 2 };
        double vals[2] = { 1, NAN };
        d.dirichlet_tags = tags;
        d.num_dirichlet_tags = 2;
        d.dirichlet_tag_values = vals;
        HOMG_TEST_REFUSED(ctx, homg_gmg_create(c, &d, &g), HOMG_ERROR_INVALID_ARGUMENT, "dirichlet_tag_values[1]");
        assert_null(g);
        d.dirichlet_tags = NULL;
        d.num_dirichlet_tags = 0;
        d.dirichlet_tag_values = NULL;
    }
    /* no Dirichlet boundary: the coarsest matrix is singular, Cholesky says so */
    if (homg_gmg_create(c, &d, &g) == HOMG_OK) {
        homg_gmg_destroy(g);
        fail_msg("a singular coarsest matrix was accepted");
    }
    assert_non_null(strstr(homg_ctx_last_error(ctx), "positive definite"));
    /* a coarse mesh with an inverted element: re-oriented on creation (counted), the hierarchy works */
    {
        homg_mesh_data md = { 0 };
        int32_t ne = homg_mesh_num_elements(c), *el = malloc(sizeof(int32_t) * 3 * ne), t;
        homg_mesh *inv = NULL;
        memcpy(el, homg_mesh_elements(c), sizeof(int32_t) * 3 * ne);
        t = el[1];
        el[1] = el[2];
        el[2] = t;
        md.dim = 2;
        md.num_nodes = homg_mesh_num_nodes(c);
        md.num_elements = ne;
        md.num_facets = homg_mesh_num_facets(c);
        md.coords = homg_mesh_coords(c);
        md.elements = el;
        md.facets = homg_mesh_facets(c);
        md.facet_tags = homg_mesh_facet_tags(c);
        assert_int_equal(homg_mesh_create(ctx, &md, &inv), HOMG_OK);
        assert_int_equal(homg_mesh_num_reoriented(inv), 1);
        d.dirichlet_tags = all_sides;
        d.num_dirichlet_tags = 4;
        d.f = 1;
        d.levels = 2;
        assert_int_equal(homg_gmg_create(inv, &d, &g), HOMG_OK);
        homg_gmg_destroy(g);
        g = NULL;
        homg_mesh_destroy(inv);
        free(el);
    }
    bad_facet_is_named(ctx, c, d);
    assert_int_equal(homg_gmg_create(NULL, &d, &g), HOMG_ERROR_INVALID_ARGUMENT);
    assert_int_equal(homg_gmg_create(c, &d, NULL), HOMG_ERROR_INVALID_ARGUMENT);
    homg_mesh_destroy(c);
    homg_ctx_destroy(ctx);
}

/* The host's edge and face counts of a mesh (lib/mesh/counts.c) and the
 * uniform refinement's counting rule the device set-up sizes its levels by:
 * E = homg__mesh_edges's, the cube's F by Euler (V - E + F - T = 1), each
 * refinement's nodes and counts as the rule says.  A mesh with a repeated
 * element breaks the rule: the device set-up's refinement refuses it (its
 * check read). */
static void test_refine_counts(void **state)
{
    homg_ctx *ctx = cpu_ctx();
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        homg_mesh *m = coarse_mesh(ctx, dim, 3), *c = coarse_mesh(ctx, dim, 2), *rep = NULL, *got[3];
        uint64_t *dev_edges[3];
        int32_t count[3];
        for (int k = 0; k < 2; k++) {
            int64_t v = homg_mesh_num_nodes(m), t = homg_mesh_num_elements(m), e, f, e2, f2;
            uint64_t *edges = NULL;
            size_t ne = 0;
            homg_mesh *r = NULL;
            assert_int_equal(homg__mesh_count_edges_faces(ctx, m, &e, &f), HOMG_OK);
            assert_int_equal(homg__mesh_edges(ctx, m, &edges, &ne), HOMG_OK);
            free(edges);
            assert_int_equal(e, (int64_t)ne);
            if (dim == 2)
                assert_int_equal(f, -1);
            else
                assert_int_equal(v - e + f - t, 1);
            assert_int_equal(homg_mesh_refine(m, &r), HOMG_OK);
            assert_int_equal(homg__mesh_count_edges_faces(ctx, r, &e2, &f2), HOMG_OK);
            assert_int_equal(homg_mesh_num_nodes(r), v + e);
            assert_int_equal(e2, dim == 2 ? 2 * e + 3 * t : 2 * e + 3 * f + t);
            if (dim == 3)
                assert_int_equal(f2, 4 * f + 8 * t);
            homg_mesh_destroy(m);
            m = r;
        }
        homg_mesh_destroy(m);
        rep = homg_test_repeat_mesh(ctx, c);
        assert_non_null(rep);
        HOMG_TEST_REFUSED(ctx, homg__gmg_refine_device(ctx, rep, 3, got, dev_edges, count, NULL),
                          HOMG_ERROR_INVALID_ARGUMENT, "repeated elements");
        homg_mesh_destroy(rep);
        homg_mesh_destroy(c);
    }
    homg_ctx_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prolongation_linear),
        cmocka_unit_test(test_not_nested),
        cmocka_unit_test(test_transpose_and_galerkin),
        cmocka_unit_test(test_spai1_rows),
        cmocka_unit_test(test_spai1_transpose),
        cmocka_unit_test(test_tag_values),
        cmocka_unit_test(test_arena),
        cmocka_unit_test(test_sainv_exact),
        cmocka_unit_test(test_device_prolongation),
        cmocka_unit_test(test_fallback_info),
        cmocka_unit_test(test_ritz),
        cmocka_unit_test(test_smoothers_reduce_error),
        cmocka_unit_test(test_mesh_independent),
        cmocka_unit_test(test_l0_omega_from_l1),
        cmocka_unit_test(test_fine_smoother),
        cmocka_unit_test(test_diag_power_steps),
        cmocka_unit_test(test_p2),
        cmocka_unit_test(test_variants),
        cmocka_unit_test(test_jumps_galerkin),
        cmocka_unit_test(test_nested_meshes),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_refine_counts),
        cmocka_unit_test(test_fem_union),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
