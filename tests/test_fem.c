/* test_fem.c -- P1 assembly on the CPU backend: exact element matrices, the
 * three schemes against each other, symmetry, vanishing stiffness row sums, the
 * mass matrix's total, Dirichlet elimination, and O(h^2) L2 convergence of a
 * manufactured solution (solved with a plain CG written here); the right-hand
 * side alone (rhs_only) against the full assembly; a refined mesh's pattern
 * from the coarse edges and the children (pattern_refined) against the
 * definition. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "homg.h"
#include "host_system.h"
#include "testutil.h"
#include "refused.h"
#include "rows_case.h"

#define ctx homg_test_cpu /* homg_test_setup_cpu makes it (testutil.h) */

static homg_fem *make_fem(homg_mesh *m, homg_fem_scheme scheme, int float32, const int32_t *tags, int ntags,
                          int patch_nnz)
{
    homg_fem_desc d = { 0 };
    homg_fem *fem = NULL;
    d.scheme = scheme;
    d.precision = float32 ? HOMG_FLOAT32 : HOMG_FLOAT64;
    d.dirichlet_tags = tags;
    d.num_dirichlet_tags = ntags;
    d.patch_nnz = patch_nnz;
    if (homg_fem_create(m, &d, &fem) != HOMG_OK)
        fail_msg("homg_fem_create: %s", homg_ctx_last_error(ctx));
    return fem;
}

static void assemble(homg_fem *fem, const homg_fem_coeffs *c)
{
    if (homg_fem_assemble(fem, c) != HOMG_OK)
        fail_msg("homg_fem_assemble: %s", homg_ctx_last_error(ctx));
}

static homg_mesh *one_element(int dim)
{
    static const double tri[] = { 0, 0, 1, 0, 0, 1 }, tet[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    static const int32_t e[] = { 0, 1, 2, 3 };
    homg_mesh_data d = { 0 };
    homg_mesh *m = NULL;
    d.dim = dim;
    d.num_nodes = dim + 1;
    d.num_elements = 1;
    d.coords = dim == 2 ? tri : tet;
    d.elements = e;
    assert_int_equal(homg_mesh_create(ctx, &d, &m), HOMG_OK);
    return m;
}

static homg_mesh *read_asset(const char *path)
{
    homg_mesh *m = NULL;
    if (homg_mesh_read(ctx, path, &m) != HOMG_OK)
        fail_msg("%s", homg_ctx_last_error(ctx));
    return m;
}

static const homg_fem_scheme schemes[3] = { HOMG_FEM_SCHEME_SERIAL, HOMG_FEM_SCHEME_COLOR, HOMG_FEM_SCHEME_PATCH };

/* ------------------------------------------------------------ element matrices */

static void reference_element_matrices_are_exact(void **state)
{
    /* stiffness and mass of the reference triangle and tetrahedron, by hand */
    static const double K2[9] = { 1, -0.5, -0.5, -0.5, 0.5, 0, -0.5, 0, 0.5 };
    static const double K3[16] = { 0.5,      -1.0 / 6, -1.0 / 6, -1.0 / 6, -1.0 / 6, 1.0 / 6, 0, 0,
                                   -1.0 / 6, 0,        1.0 / 6,  0,        -1.0 / 6, 0,       0, 1.0 / 6 };
    (void)state;
    for (int dim = 2; dim <= 3; dim++)
        for (int s = 0; s < 3; s++) {
            homg_mesh *m = one_element(dim);
            homg_fem *fem = make_fem(m, schemes[s], 0, NULL, 0, 0);
            homg_fem_coeffs c = { 0 };
            int nv = dim + 1;
            double vol = dim == 2 ? 0.5 : 1.0 / 6, mdiag = dim == 2 ? 1.0 / 12 : 1.0 / 60;
            homg_test_system a, b;
            c.sigma = 3;
            c.f = 2;
            assemble(fem, &c);
            a = homg_test_fetch(ctx, fem);
            c.lambda = 5;
            c.f = 0;
            {
                /* f per node = 1: b = M 1 = |e| / (d+1) per node */
                double ones[4] = { 1, 1, 1, 1 };
                c.f_node = ones;
                assemble(fem, &c);
            }
            b = homg_test_fetch(ctx, fem);
            assert_int_equal(a.m.nnz, nv * nv);
            for (int i = 0; i < nv; i++) {
                assert_true(fabs(a.rhs[i] - 2 * vol / nv) < 1e-15);
                assert_true(fabs(b.rhs[i] - vol / nv) < 1e-15);
                for (int j = 0; j < nv; j++) {
                    double k = 3 * (dim == 2 ? K2[i * 3 + j] : K3[i * 4 + j]);
                    double mass = (i == j ? mdiag : mdiag / 2);
                    assert_true(fabs(homg_test_csr_entry(&a.m, i, j) - k) < 1e-14);
                    assert_true(fabs(homg_test_csr_entry(&b.m, i, j) - k - 5 * mass) < 1e-14);
                }
            }
            homg_test_system_free(&a);
            homg_test_system_free(&b);
            homg_fem_destroy(fem);
            homg_mesh_destroy(m);
        }
}

static void tensor_sigma_matches_scalar_and_rotates(void **state)
{
    homg_mesh *m = one_element(3);
    homg_fem *fem = make_fem(m, HOMG_FEM_SCHEME_SERIAL, 0, NULL, 0, 0);
    homg_fem_coeffs c = { 0 };
    double t[6] = { 2, 0, 0, 2, 0, 2 }, z[6] = { 0, 0, 0, 0, 0, 1 }; /* 2 I, and sigma only along z */
    homg_test_system a, b;
    (void)state;
    c.sigma = 2;
    assemble(fem, &c);
    a = homg_test_fetch(ctx, fem);
    c.sigma_tensor = t;
    assemble(fem, &c);
    b = homg_test_fetch(ctx, fem);
    for (int k = 0; k < a.m.nnz; k++)
        assert_true(fabs(a.m.values[k] - b.m.values[k]) < 1e-15);
    homg_test_system_free(&b);
    c.sigma_tensor = z;
    assemble(fem, &c);
    b = homg_test_fetch(ctx, fem);
    /* only phi_0 and phi_3 vary along z: grad = -e_z and e_z */
    assert_true(fabs(homg_test_csr_entry(&b.m, 0, 0) - 1.0 / 6) < 1e-15 &&
                fabs(homg_test_csr_entry(&b.m, 0, 3) + 1.0 / 6) < 1e-15);
    assert_true(fabs(homg_test_csr_entry(&b.m, 1, 1)) < 1e-15 && fabs(homg_test_csr_entry(&b.m, 1, 2)) < 1e-15);
    homg_test_system_free(&a);
    homg_test_system_free(&b);
    homg_fem_destroy(fem);
    homg_mesh_destroy(m);
}

/* ------------------------------------------------------------ global properties */

static void check_global_properties(homg_mesh *m, const char *name)
{
    homg_mesh_quality q;
    int32_t ne = homg_mesh_num_elements(m);
    double *sigma = (double *)malloc((size_t)ne * sizeof(double));
    homg_rng rng = homg_rng_seed(7);
    homg_test_system ref = { 0 };
    assert_int_equal(homg_mesh_get_quality(m, &q), HOMG_OK);
    for (int32_t e = 0; e < ne; e++)
        sigma[e] = 0.5 + homg_rng_uniform(&rng) * (homg_mesh_element_tags(m)[e] == 2 ? 100 : 1);
    for (int s = 0; s < 3; s++) {
        homg_fem *fem = make_fem(m, schemes[s], 0, NULL, 0, 256);
        homg_fem_info info = homg_fem_get_info(fem);
        homg_fem_coeffs c = { 0 };
        double scale = 0, total = 0;
        homg_test_system a;
        c.sigma_elem = sigma;
        assemble(fem, &c);
        a = homg_test_fetch(ctx, fem);
        if (s == 2)
            assert_true(info.num_patches > 1 && info.boundary_fraction > 0);
        for (int32_t k = 0; k < a.m.nnz; k++)
            scale = fmax(scale, fabs(a.m.values[k]));
        for (int32_t i = 0; i < a.m.nrows; i++) {
            double row = 0;
            for (int32_t k = a.m.row_ptr[i]; k < a.m.row_ptr[i + 1]; k++) {
                int32_t j = a.m.col_idx[k];
                row += a.m.values[k];
                if (fabs(a.m.values[k] - homg_test_csr_entry(&a.m, j, i)) > 1e-13 * scale)
                    fail_msg("%s: A(%d,%d) = %.17g but A(%d,%d) = %.17g", name, i, j, a.m.values[k], j, i,
                             homg_test_csr_entry(&a.m, j, i));
            }
            if (fabs(row) > 1e-12 * scale)
                fail_msg("%s: stiffness row %d sums to %g", name, i, row);
        }
        if (s == 0)
            ref = a;
        else {
            /* the schemes agree to rounding */
            assert_int_equal(a.m.nnz, ref.m.nnz);
            assert_memory_equal(a.m.col_idx, ref.m.col_idx, (size_t)a.m.nnz * 4);
            assert_true(homg_rel_diff(a.m.values, ref.m.values, (size_t)a.m.nnz) < 1e-14);
            homg_test_system_free(&a);
        }
        /* mass: the sum of all entries of A(lambda) - S is lambda |Omega| */
        c.sigma_elem = NULL;
        c.sigma = 1e-3;
        c.lambda = 2.5;
        assemble(fem, &c);
        a = homg_test_fetch(ctx, fem);
        for (int32_t k = 0; k < a.m.nnz; k++)
            total += a.m.values[k];
        if (fabs(total - 2.5 * q.total_volume) > 1e-11 * q.total_volume)
            fail_msg("%s: mass total %.17g, volume %.17g", name, total / 2.5, q.total_volume);
        homg_test_system_free(&a);
        homg_fem_destroy(fem);
    }
    homg_test_system_free(&ref);
    free(sigma);
}

static void symmetric_rowsums_mass_on_assets(void **state)
{
    const char *assets[] = { "assets/hole2d.msh", "assets/blobs.msh.gz" };
    (void)state;
    for (int i = 0; i < 2; i++) {
        homg_mesh *m = read_asset(assets[i]);
        check_global_properties(m, assets[i]);
        homg_mesh_destroy(m);
    }
}

static void blobs_asset_has_two_materials(void **state)
{
    homg_mesh *m = read_asset("assets/blobs.msh.gz");
    const double *x = homg_mesh_coords(m);
    double in = 0, all = 0;
    (void)state;
    for (int32_t e = 0; e < homg_mesh_num_elements(m); e++) {
        const int32_t *v = homg_mesh_elements(m) + 4 * (size_t)e;
        double a[3], b[3], c[3], vol;
        for (int k = 0; k < 3; k++) {
            a[k] = x[3 * v[1] + k] - x[3 * v[0] + k];
            b[k] = x[3 * v[2] + k] - x[3 * v[0] + k];
            c[k] = x[3 * v[3] + k] - x[3 * v[0] + k];
        }
        vol = (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
               a[2] * (b[0] * c[1] - b[1] * c[0])) /
              6;
        all += vol;
        in += homg_mesh_element_tags(m)[e] == 2 ? vol : 0;
    }
    assert_true(in / all > 0.17 && in / all < 0.23);
    homg_mesh_destroy(m);
}

static void float32_matches_double(void **state)
{
    homg_mesh_generate_desc g = { 0 };
    homg_mesh *m = NULL;
    homg_fem_coeffs c = { 0 };
    homg_test_system a, b;
    (void)state;
    g.cells = 5;
    assert_int_equal(homg_mesh_generate_cube(ctx, &g, &m), HOMG_OK);
    c.lambda = 1;
    c.f = 1;
    for (int s = 0; s < 3; s++) {
        homg_fem *fd = make_fem(m, schemes[s], 0, NULL, 0, 128), *ff = make_fem(m, schemes[s], 1, NULL, 0, 128);
        assert_int_equal(homg_fem_matrix(ff).precision, HOMG_FLOAT32);
        assemble(fd, &c);
        assemble(ff, &c);
        a = homg_test_fetch(ctx, fd);
        b = homg_test_fetch(ctx, ff);
        assert_true(homg_rel_diff(b.m.values, a.m.values, (size_t)a.m.nnz) < 1e-6);
        assert_true(homg_rel_diff(b.rhs, a.rhs, (size_t)a.m.nrows) < 1e-6);
        homg_test_system_free(&a);
        homg_test_system_free(&b);
        homg_fem_destroy(fd);
        homg_fem_destroy(ff);
    }
    homg_mesh_destroy(m);
}

/* ------------------------------------------------------------ Dirichlet */

static void dirichlet_rows_are_unit_and_columns_move(void **state)
{
    homg_mesh_generate_desc g = { 0 };
    homg_mesh *m = NULL;
    homg_fem_coeffs c = { 0 };
    const int32_t tags[2] = { 1, 3 }; /* x = 0 and y = 0 */
    int32_t n;
    double *gv;
    (void)state;
    g.cells = 4;
    assert_int_equal(homg_mesh_generate_square(ctx, &g, &m), HOMG_OK);
    n = homg_mesh_num_nodes(m);
    gv = (double *)malloc((size_t)n * sizeof(double));
    for (int32_t i = 0; i < n; i++)
        gv[i] = 1 + homg_mesh_coords(m)[2 * i] + 2 * homg_mesh_coords(m)[2 * i + 1];
    c.lambda = 1;
    c.f = 3;
    for (int s = 0; s < 3; s++) {
        homg_fem *plain = make_fem(m, schemes[s], 0, NULL, 0, 32);
        homg_fem *fem = make_fem(m, schemes[s], 0, tags, 2, 32);
        uint8_t *mask = (uint8_t *)malloc((size_t)n);
        homg_test_system a, r;
        assert_int_equal(homg_fem_get_info(fem).num_dirichlet, 9);
        assemble(plain, &c);
        c.dirichlet_values = gv;
        assemble(fem, &c);
        c.dirichlet_values = NULL;
        r = homg_test_fetch(ctx, plain);
        a = homg_test_fetch(ctx, fem);
        assert_int_equal(homg_copy_to_host(ctx, mask, homg_fem_dirichlet_mask(fem), (size_t)n), HOMG_OK);
        for (int32_t i = 0; i < n; i++) {
            const double *x = homg_mesh_coords(m) + 2 * i;
            int on = x[0] == 0 || x[1] == 0;
            assert_int_equal(mask[i], on);
            if (on) {
                assert_true(a.rhs[i] == gv[i]);
                for (int32_t k = a.m.row_ptr[i]; k < a.m.row_ptr[i + 1]; k++)
                    assert_true(a.m.values[k] == (a.m.col_idx[k] == i ? 1.0 : 0.0));
            } else {
                double moved = 0;
                for (int32_t k = a.m.row_ptr[i]; k < a.m.row_ptr[i + 1]; k++) {
                    int32_t j = a.m.col_idx[k];
                    if (mask[j]) {
                        assert_true(a.m.values[k] == 0);
                        moved += r.m.values[k] * gv[j];
                    } else
                        assert_true(a.m.values[k] == r.m.values[k]);
                }
                assert_true(fabs(a.rhs[i] - (r.rhs[i] - moved)) < 1e-14);
            }
        }
        free(mask);
        homg_test_system_free(&a);
        homg_test_system_free(&r);
        homg_fem_destroy(plain);
        homg_fem_destroy(fem);
    }
    free(gv);
    homg_mesh_destroy(m);
}

/* coeffs.rhs_only after a full assembly with another source: b equals a full
 * assembly's with every kind of load (sigma_elem, lambda, f, f_node, Dirichlet
 * values, Neumann), A keeps its values, on every scheme, P1 and P2; refused
 * before any full assembly. */
static void rhs_only_matches_the_full_assembly(void **state)
{
    static const int32_t tags[3] = { 1, 2, 4 }, ntag[1] = { 3 };
    static const double flux[1] = { 0.7 };
    homg_mesh *m = NULL;
    homg_rng rng = homg_rng_seed(9);
    homg_fem_coeffs c = { 0 };
    int32_t n, ne;
    double *sigma, *f, *f2, *g;
    (void)state;
    assert_int_equal(homg_mesh_read(ctx, "assets/hole2d.msh", &m), HOMG_OK);
    n = 2 * homg_mesh_num_nodes(m) + 2 * homg_mesh_num_elements(m); /* enough for P2's unknowns */
    ne = homg_mesh_num_elements(m);
    sigma = (double *)malloc((size_t)ne * sizeof(double));
    f = (double *)malloc((size_t)n * sizeof(double));
    f2 = (double *)malloc((size_t)n * sizeof(double));
    g = (double *)malloc((size_t)n * sizeof(double));
    for (int32_t e = 0; e < ne; e++)
        sigma[e] = 0.5 + homg_rng_uniform(&rng);
    for (int32_t i = 0; i < n; i++) {
        f[i] = homg_rng_uniform(&rng) - 0.5;
        f2[i] = homg_rng_uniform(&rng);
        g[i] = homg_rng_uniform(&rng);
    }
    c.sigma_elem = sigma;
    c.lambda = 0.3;
    c.f = 1.5;
    c.dirichlet_values = g;
    c.neumann_tags = ntag;
    c.neumann_flux = flux;
    for (int k = 0; k < 4; k++) {
        int p2 = k == 3;
        homg_fem_desc d = { 0 };
        homg_fem *fem = NULL;
        homg_test_system r, a, a2;
        d.scheme = p2 ? HOMG_FEM_SCHEME_COLOR : schemes[k];
        d.order = p2 ? 2 : 1;
        d.precision = HOMG_FLOAT64;
        d.dirichlet_tags = tags;
        d.num_dirichlet_tags = 3;
        d.patch_nnz = 64;
        assert_int_equal(homg_fem_create(m, &d, &fem), HOMG_OK);
        c.num_neumann = p2 ? 0 : 1; /* Neumann loads are P1 only */
        c.rhs_only = 1;
        HOMG_TEST_REFUSED(ctx, homg_fem_assemble(fem, &c), HOMG_ERROR_INVALID_ARGUMENT, "rhs_only");
        c.rhs_only = 0;
        c.f_node = f;
        assemble(fem, &c);
        r = homg_test_fetch(ctx, fem);
        c.f_node = f2;
        assemble(fem, &c);
        a2 = homg_test_fetch(ctx, fem);
        c.f_node = f;
        c.rhs_only = 1;
        assemble(fem, &c);
        c.rhs_only = 0;
        a = homg_test_fetch(ctx, fem);
        /* A untouched (the schemes' OpenMP sums may differ in the last bit between assemblies) */
        assert_memory_equal(a.m.values, a2.m.values, (size_t)r.m.nnz * sizeof(double));
        assert_true(homg_rel_diff(a.rhs, r.rhs, (size_t)r.m.nrows) < 1e-13);
        homg_test_system_free(&a);
        homg_test_system_free(&a2);
        homg_test_system_free(&r);
        homg_fem_destroy(fem);
    }
    free(sigma);
    free(f);
    free(f2);
    free(g);
    homg_mesh_destroy(m);
}

/* The PATCH scheme for any patch size, from one row per patch (16 entries
 * with rows of up to 15) to a single patch, gives the serial assembly's A
 * and b (Dirichlet tags 1 and 2: the mask too). */
static void patch_sizes_match_serial(void **state)
{
    static const int32_t tags[2] = { 1, 2 };
    static const int sizes[5] = { 16, 40, 300, 4096, 1 << 24 };
    homg_mesh_generate_desc g = { 0 };
    homg_mesh *m = NULL;
    homg_fem *ref;
    homg_fem_coeffs c = { 0 };
    homg_test_system r;
    (void)state;
    g.cells = 6;
    assert_int_equal(homg_mesh_generate_cube(ctx, &g, &m), HOMG_OK);
    c.f = 1;
    c.lambda = 0.5;
    ref = make_fem(m, HOMG_FEM_SCHEME_SERIAL, 0, tags, 2, 0);
    assemble(ref, &c);
    r = homg_test_fetch(ctx, ref);
    for (int k = 0; k < 5; k++) {
        homg_fem *fem = make_fem(m, HOMG_FEM_SCHEME_PATCH, 0, tags, 2, sizes[k]);
        homg_fem_info info = homg_fem_get_info(fem);
        homg_test_system a;
        assemble(fem, &c);
        a = homg_test_fetch(ctx, fem);
        assert_int_equal(a.m.nnz, r.m.nnz);
        assert_true(homg_rel_diff(a.m.values, r.m.values, (size_t)r.m.nnz) <= 1e-14);
        assert_true(homg_rel_diff(a.rhs, r.rhs, (size_t)r.m.nrows) <= 1e-14);
        assert_int_equal(info.num_dirichlet, homg_fem_get_info(ref).num_dirichlet);
        assert_true(sizes[k] > 16 || info.num_patches == r.m.nrows);
        assert_true(sizes[k] < (1 << 24) || info.num_patches == 1);
        homg_test_system_free(&a);
        homg_fem_destroy(fem);
    }
    homg_test_system_free(&r);
    homg_fem_destroy(ref);
    homg_mesh_destroy(m);
}

static void node_in_no_element_gets_a_unit_row(void **state)
{
    static const double x[] = { 0, 0, 1, 0, 0, 1, 5, 5 };
    static const int32_t e[] = { 0, 1, 2 };
    homg_mesh_data d = { 0 };
    homg_mesh *m = NULL;
    homg_fem *fem;
    homg_fem_coeffs c = { 0 };
    homg_test_system a;
    (void)state;
    d.dim = 2;
    d.num_nodes = 4;
    d.num_elements = 1;
    d.coords = x;
    d.elements = e;
    assert_int_equal(homg_mesh_create(ctx, &d, &m), HOMG_OK);
    fem = make_fem(m, HOMG_FEM_SCHEME_PATCH, 0, NULL, 0, 0);
    c.f = 1;
    assemble(fem, &c);
    a = homg_test_fetch(ctx, fem);
    assert_true(homg_test_csr_entry(&a.m, 3, 3) == 1 && a.rhs[3] == 0 && a.m.row_ptr[4] - a.m.row_ptr[3] == 1);
    homg_test_system_free(&a);
    homg_fem_destroy(fem);
    homg_mesh_destroy(m);
}

/* ------------------------------------------------------------ convergence */

static const double PI = 3.14159265358979323846;

/* u = sin(pi x) sin(pi y) [sin(pi z)] + x + 2y: -lap u + u = f */
static double exact(int dim, const double *x)
{
    double s = sin(PI * x[0]) * sin(PI * x[1]) * (dim == 3 ? sin(PI * x[2]) : 1.0);
    return s + x[0] + 2 * x[1];
}

static double source(int dim, const double *x)
{
    double s = sin(PI * x[0]) * sin(PI * x[1]) * (dim == 3 ? sin(PI * x[2]) : 1.0);
    return dim * PI * PI * s + exact(dim, x);
}

/* Plain CG on the host; returns the iterations. */
static int cg(const homg_host_csr *a, const double *b, double *u)
{
    int32_t n = a->nrows;
    double *r = (double *)malloc((size_t)n * 8), *p = (double *)malloc((size_t)n * 8),
           *q = (double *)malloc((size_t)n * 8);
    double rr = 0, bb = 0;
    int it = 0;
    for (int32_t i = 0; i < n; i++) {
        u[i] = 0;
        r[i] = p[i] = b[i];
        rr += b[i] * b[i];
    }
    bb = rr;
    while (rr > 1e-26 * bb && it < 10 * n) {
        double pq = 0, rr2 = 0, alpha;
        for (int32_t i = 0; i < n; i++) {
            double s = 0;
            for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
                s += a->values[k] * p[a->col_idx[k]];
            q[i] = s;
            pq += p[i] * s;
        }
        alpha = rr / pq;
        for (int32_t i = 0; i < n; i++) {
            u[i] += alpha * p[i];
            r[i] -= alpha * q[i];
            rr2 += r[i] * r[i];
        }
        for (int32_t i = 0; i < n; i++)
            p[i] = r[i] + rr2 / rr * p[i];
        rr = rr2;
        it++;
    }
    free(r);
    free(p);
    free(q);
    return it;
}

/* ||u_h - u||_L2 with a degree-2 rule per element (edge midpoints in 2D, the 4-point rule in 3D). */
static double l2_error(const homg_mesh *m, const double *uh)
{
    int dim = homg_mesh_dim(m), nv = dim + 1;
    const double *x = homg_mesh_coords(m);
    double sum = 0;
    for (int32_t e = 0; e < homg_mesh_num_elements(m); e++) {
        const int32_t *v = homg_mesh_elements(m) + (size_t)e * nv;
        double w[4][4], vol;
        int npts = dim == 2 ? 3 : 4;
        if (dim == 2) {
            double det = (x[2 * v[1]] - x[2 * v[0]]) * (x[2 * v[2] + 1] - x[2 * v[0] + 1]) -
                         (x[2 * v[2]] - x[2 * v[0]]) * (x[2 * v[1] + 1] - x[2 * v[0] + 1]);
            vol = fabs(det) / 2;
            for (int q = 0; q < 3; q++)
                for (int a = 0; a < 3; a++)
                    w[q][a] = a == q ? 0 : 0.5;
        } else {
            double d[3][3], det;
            const double al = 0.5854101966249685, be = 0.1381966011250105;
            for (int i = 0; i < 3; i++)
                for (int k = 0; k < 3; k++)
                    d[i][k] = x[3 * v[i + 1] + k] - x[3 * v[0] + k];
            det = d[0][0] * (d[1][1] * d[2][2] - d[1][2] * d[2][1]) -
                  d[0][1] * (d[1][0] * d[2][2] - d[1][2] * d[2][0]) + d[0][2] * (d[1][0] * d[2][1] - d[1][1] * d[2][0]);
            vol = fabs(det) / 6;
            for (int q = 0; q < 4; q++)
                for (int a = 0; a < 4; a++)
                    w[q][a] = a == q ? al : be;
        }
        for (int q = 0; q < npts; q++) {
            double p[3] = { 0, 0, 0 }, u = 0, err;
            for (int a = 0; a < nv; a++) {
                for (int k = 0; k < dim; k++)
                    p[k] += w[q][a] * x[(size_t)dim * v[a] + k];
                u += w[q][a] * uh[v[a]];
            }
            err = u - exact(dim, p);
            sum += vol / npts * err * err;
        }
    }
    return sqrt(sum);
}

static void converges_at_second_order(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        homg_mesh_generate_desc g = { 0 };
        const int32_t tags[6] = { 1, 2, 3, 4, 5, 6 };
        double err[5];
        int levels = 4;
        g.cells = dim == 2 ? 4 : 4;
        for (int l = 0; l < levels; l++) {
            homg_mesh *m = NULL;
            homg_fem *fem;
            homg_fem_coeffs c = { 0 };
            int32_t n;
            double *f, *gv, *u;
            homg_test_system a;
            g.refine = l;
            assert_int_equal(dim == 2 ? homg_mesh_generate_square(ctx, &g, &m) : homg_mesh_generate_cube(ctx, &g, &m),
                             HOMG_OK);
            n = homg_mesh_num_nodes(m);
            f = (double *)malloc((size_t)n * 8);
            gv = (double *)malloc((size_t)n * 8);
            u = (double *)malloc((size_t)n * 8);
            for (int32_t i = 0; i < n; i++) {
                f[i] = source(dim, homg_mesh_coords(m) + (size_t)dim * i);
                gv[i] = exact(dim, homg_mesh_coords(m) + (size_t)dim * i);
            }
            /* Dirichlet (u) on every side */
            fem = make_fem(m, l % 2 ? HOMG_FEM_SCHEME_PATCH : HOMG_FEM_SCHEME_COLOR, 0, tags, 2 * dim, 256);
            c.lambda = 1;
            c.f_node = f;
            c.dirichlet_values = gv;
            assemble(fem, &c);
            a = homg_test_fetch(ctx, fem);
            cg(&a.m, a.rhs, u);
            err[l] = l2_error(m, u);
            homg_test_system_free(&a);
            homg_fem_destroy(fem);
            homg_mesh_destroy(m);
            free(f);
            free(gv);
            free(u);
        }
        for (int l = 1; l < levels; l++) {
            double rate = log2(err[l - 1] / err[l]);
            print_message("%dD level %d: L2 error %.3e, rate %.2f\n", dim, l, err[l], rate);
            if (l >= levels - 2 && !(rate > 1.85 && rate < 2.3))
                fail_msg("%dD: L2 rate %.2f between levels %d and %d", dim, rate, l - 1, l);
        }
    }
}

/* ------------------------------------------------------------ linear solutions */

static void linear_solution_is_reproduced_exactly(void **state)
{
    /* -lap u + u = u for u = 1 + x + 2y + 3z: P1 holds u, and f_node = u is the exact
     * source, so with u on the boundary the discrete solution is u at the nodes */
    homg_mesh *m = read_asset("assets/irregular3d.msh.gz");
    const int32_t tags[7] = { 1, 2, 3, 4, 5, 6, 7 };
    homg_fem *fem = make_fem(m, HOMG_FEM_SCHEME_PATCH, 0, tags, 7, 0);
    homg_fem_coeffs c = { 0 };
    int32_t n = homg_mesh_num_nodes(m);
    double *gv = (double *)malloc((size_t)n * 8), *u = (double *)malloc((size_t)n * 8);
    homg_test_system a;
    (void)state;
    for (int32_t i = 0; i < n; i++) {
        const double *x = homg_mesh_coords(m) + 3 * i;
        gv[i] = 1 + x[0] + 2 * x[1] + 3 * x[2];
    }
    c.lambda = 1;
    c.f_node = gv; /* f = u, exactly representable */
    c.dirichlet_values = gv;
    assemble(fem, &c);
    a = homg_test_fetch(ctx, fem);
    cg(&a.m, a.rhs, u);
    assert_true(homg_rel_diff(u, gv, (size_t)n) < 1e-10);
    homg_test_system_free(&a);
    free(gv);
    free(u);
    homg_fem_destroy(fem);
    homg_mesh_destroy(m);
}

/* ------------------------------------------------------------ bad input */

static void bad_arguments_are_refused(void **state)
{
    homg_mesh *m = one_element(2);
    homg_fem_desc d = { 0 };
    homg_fem *fem = (homg_fem *)1;
    homg_fem_coeffs c = { 0 };
    double nan = NAN;
    (void)state;
    d.precision = HOMG_FLOAT64;
    d.scheme = (homg_fem_scheme)9;
    assert_int_equal(homg_fem_create(m, &d, &fem), HOMG_ERROR_INVALID_ARGUMENT);
    assert_null(fem);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "scheme"));
    d.scheme = HOMG_FEM_SCHEME_DEFAULT;
    d.precision = (homg_precision)7;
    HOMG_TEST_REFUSED(ctx, homg_fem_create(m, &d, &fem), HOMG_ERROR_INVALID_ARGUMENT, "precision");
    d.precision = HOMG_FLOAT64;
    d.num_dirichlet_tags = 2;
    assert_int_equal(homg_fem_create(m, &d, &fem), HOMG_ERROR_INVALID_ARGUMENT);
    d.num_dirichlet_tags = 0;
    d.patch_nnz = 3;
    assert_int_equal(homg_fem_create(m, &d, &fem), HOMG_ERROR_INVALID_ARGUMENT);
    d.patch_nnz = 0;
    assert_int_equal(homg_fem_create(m, &d, &fem), HOMG_OK);
    assert_int_equal(homg_fem_get_info(fem).scheme, HOMG_FEM_SCHEME_SERIAL);
    c.lambda = -1;
    HOMG_TEST_REFUSED(ctx, homg_fem_assemble(fem, &c), HOMG_ERROR_INVALID_ARGUMENT, "lambda");
    c.lambda = 0;
    c.sigma = nan;
    assert_int_equal(homg_fem_assemble(fem, &c), HOMG_ERROR_INVALID_ARGUMENT);
    c.sigma = -2;
    assert_int_equal(homg_fem_assemble(fem, &c), HOMG_ERROR_INVALID_ARGUMENT);
    c.sigma = 0;
    c.f = nan;
    assert_int_equal(homg_fem_assemble(fem, &c), HOMG_ERROR_INVALID_ARGUMENT);
    assert_int_equal(homg_fem_assemble(fem, NULL), HOMG_OK);
    assert_int_equal(homg_fem_create(NULL, &d, &fem), HOMG_ERROR_INVALID_ARGUMENT);
    homg_fem_destroy(fem);
    homg_mesh_destroy(m);
}

/* ------------------------------------------------------------ per-entry checks, lambda_elem, Neumann */

static homg_mesh *square(int cells)
{
    homg_mesh_generate_desc g = { 0 };
    homg_mesh *m = NULL;
    g.cells = cells;
    assert_int_equal(homg_mesh_generate_square(ctx, &g, &m), HOMG_OK);
    return m;
}

static homg_mesh *cube(int cells)
{
    homg_mesh_generate_desc g = { 0 };
    homg_mesh *m = NULL;
    g.cells = cells;
    assert_int_equal(homg_mesh_generate_cube(ctx, &g, &m), HOMG_OK);
    return m;
}

/* Assembly with c fails naming `want` ("coeffs.sigma_elem[4]") and leaves the
 * system of the assembly before (`before`) as it was. */
static void refused(homg_fem *fem, const homg_fem_coeffs *c, const char *want, const homg_test_system *before)
{
    homg_test_system after;
    assert_int_equal(homg_fem_assemble(fem, c), HOMG_ERROR_INVALID_ARGUMENT);
    if (!strstr(homg_ctx_last_error(ctx), want))
        fail_msg("expected '%s' in: %s", want, homg_ctx_last_error(ctx));
    after = homg_test_fetch(ctx, fem);
    assert_memory_equal(after.m.values, before->m.values, (size_t)after.m.nnz * sizeof(double));
    assert_memory_equal(after.rhs, before->rhs, (size_t)after.m.nrows * sizeof(double));
    homg_test_system_free(&after);
}

static void bad_coefficient_entries_are_named(void **state)
{
    /* 160^2 squares: 51,200 elements, past HOMG_OMP_MIN, so the parallel scan runs */
    homg_mesh *m = square(160);
    const int32_t tags[1] = { 1 };
    homg_fem *fem = make_fem(m, HOMG_FEM_SCHEME_COLOR, 0, tags, 1, 0);
    int32_t ne = homg_mesh_num_elements(m), nn = homg_mesh_num_nodes(m);
    double *e = (double *)malloc((size_t)ne * sizeof(double)), *v = (double *)malloc((size_t)nn * sizeof(double));
    homg_fem_coeffs good = { 0 }, c;
    homg_test_system before;
    int32_t interior = nn / 2 + 80; /* not on x = 0 */
    (void)state;
    good.f = 1;
    assemble(fem, &good);
    before = homg_test_fetch(ctx, fem);
    for (int32_t i = 0; i < ne; i++)
        e[i] = 1;
    for (int32_t i = 0; i < nn; i++)
        v[i] = 0;
    c = good;
    c.sigma_elem = e;
    e[ne - 1] = -1; /* the last entry: the scan covers the whole array */
    refused(fem, &c, "coeffs.sigma_elem[51199] = -1", &before);
    e[9] = NAN;
    e[4] = 0; /* the first bad index is named, not the first found */
    refused(fem, &c, "coeffs.sigma_elem[4] = 0", &before);
    e[4] = e[ne - 1] = 1;
    refused(fem, &c, "coeffs.sigma_elem[9] = nan", &before);
    e[9] = INFINITY;
    refused(fem, &c, "coeffs.sigma_elem[9] = inf", &before);
    e[9] = 1;
    c = good;
    c.lambda_elem = e;
    e[17] = -0.5;
    refused(fem, &c, "coeffs.lambda_elem[17] = -0.5", &before);
    e[17] = 0; /* lambda may vanish */
    assemble(fem, &c);
    assemble(fem, &good);
    e[17] = 1;
    c = good;
    c.f_elem = e;
    e[3] = -INFINITY;
    refused(fem, &c, "coeffs.f_elem[3] = -inf", &before);
    e[3] = -7; /* a negative source is fine */
    assemble(fem, &c);
    assemble(fem, &good);
    c = good;
    c.f_node = v;
    v[nn - 2] = NAN;
    refused(fem, &c, "coeffs.f_node[", &before);
    v[nn - 2] = 0;
    c = good;
    c.dirichlet_values = v;
    v[interior] = NAN; /* not a Dirichlet node: never read, not checked */
    assemble(fem, &c);
    assemble(fem, &good);
    v[0] = NAN; /* node 0 lies on x = 0 */
    refused(fem, &c, "coeffs.dirichlet_values[0] = nan", &before);
    v[0] = 0;
    c = good;
    c.skip_check = 1; /* the caller vouches: accepted unscanned */
    assert_int_equal(homg_fem_assemble(fem, &c), HOMG_OK);
    homg_test_system_free(&before);
    homg_fem_destroy(fem);
    homg_mesh_destroy(m);
    free(e);
    free(v);
}

static void bad_tensors_are_named(void **state)
{
    homg_mesh *m2 = square(2), *m3 = cube(2);
    homg_fem *f2 = make_fem(m2, HOMG_FEM_SCHEME_SERIAL, 0, NULL, 0, 0);
    homg_fem *f3 = make_fem(m3, HOMG_FEM_SCHEME_SERIAL, 0, NULL, 0, 0);
    double t2[8 * 3], t3[48 * 6];
    homg_fem_coeffs c = { 0 };
    homg_test_system b2, b3;
    (void)state;
    assemble(f2, &c);
    assemble(f3, &c);
    b2 = homg_test_fetch(ctx, f2);
    b3 = homg_test_fetch(ctx, f3);
    for (int i = 0; i < 8; i++) {
        t2[3 * i] = t2[3 * i + 2] = 1;
        t2[3 * i + 1] = 0.5;
    }
    for (int i = 0; i < 48; i++) {
        const double s[6] = { 2, 1, 0, 2, 1, 2 }; /* positive definite */
        memcpy(t3 + 6 * i, s, sizeof s);
    }
    c.sigma_tensor = t2;
    t2[3 * 5 + 1] = 2; /* xy^2 > xx yy: indefinite */
    refused(f2, &c, "coeffs.sigma_tensor[5] = (1 2 1)", &b2);
    t2[3 * 5 + 1] = 1; /* semi-definite: allowed */
    assemble(f2, &c);
    c.sigma_tensor = t3;
    t3[6 * 40 + 4] = 3; /* the yz minor 2*2 - 9 < 0 */
    refused(f3, &c, "coeffs.sigma_tensor[40]", &b3);
    t3[6 * 40 + 4] = 1;
    t3[6 * 41 + 2] = NAN;
    refused(f3, &c, "coeffs.sigma_tensor[41]", &b3);
    t3[6 * 41 + 2] = 0;
    assemble(f3, &c);
    homg_test_system_free(&b2);
    homg_test_system_free(&b3);
    homg_fem_destroy(f2);
    homg_fem_destroy(f3);
    homg_mesh_destroy(m2);
    homg_mesh_destroy(m3);
}

/* Area (2D) or volume (3D) of element e. */
static double element_measure(const homg_mesh *m, int32_t e)
{
    int dim = homg_mesh_dim(m);
    const int32_t *v = homg_mesh_elements(m) + (size_t)(dim + 1) * e;
    const double *x = homg_mesh_coords(m);
    double d[3][3] = { { 0 } };
    for (int i = 0; i < dim; i++)
        for (int k = 0; k < dim; k++)
            d[i][k] = x[(size_t)dim * v[i + 1] + k] - x[(size_t)dim * v[0] + k];
    if (dim == 2)
        return 0.5 * fabs(d[0][0] * d[1][1] - d[0][1] * d[1][0]);
    return fabs(d[0][0] * (d[1][1] * d[2][2] - d[1][2] * d[2][1]) - d[0][1] * (d[1][0] * d[2][2] - d[1][2] * d[2][0]) +
                d[0][2] * (d[1][0] * d[2][1] - d[1][1] * d[2][0])) /
           6;
}

static void lambda_elem_matches_the_scalar(void **state)
{
    homg_mesh *m = read_asset("assets/blobs.msh.gz");
    int32_t ne = homg_mesh_num_elements(m);
    double *l = (double *)malloc((size_t)ne * sizeof(double));
    (void)state;
    for (int s = 0; s < 3; s++) {
        homg_fem *fem = make_fem(m, schemes[s], 0, NULL, 0, 256);
        homg_fem_coeffs c = { 0 };
        homg_test_system a, b, z;
        c.lambda = 0.75;
        assemble(fem, &c);
        a = homg_test_fetch(ctx, fem);
        for (int32_t e = 0; e < ne; e++)
            l[e] = 0.75;
        c.lambda = 5; /* replaced by lambda_elem */
        c.lambda_elem = l;
        assemble(fem, &c);
        b = homg_test_fetch(ctx, fem);
        assert_true(homg_rel_diff(a.m.values, b.m.values, (size_t)a.m.nnz) < 1e-15);
        /* lambda only on elements of tag 2: A - A(lambda = 0) is 0.75 M restricted to them,
         * whose entries sum to 0.75 times the measure of tag 2 */
        for (int32_t e = 0; e < ne; e++)
            l[e] = homg_mesh_element_tags(m)[e] == 2 ? 0.75 : 0;
        assemble(fem, &c);
        homg_test_system_free(&b);
        b = homg_test_fetch(ctx, fem);
        c.lambda_elem = NULL;
        c.lambda = 0;
        assemble(fem, &c);
        z = homg_test_fetch(ctx, fem);
        {
            double sum = 0, area = 0;
            for (int32_t k = 0; k < b.m.nnz; k++)
                sum += b.m.values[k] - z.m.values[k];
            for (int32_t e = 0; e < ne; e++)
                if (homg_mesh_element_tags(m)[e] == 2)
                    area += element_measure(m, e);
            assert_true(area > 0);
            if (!(fabs(sum - 0.75 * area) < 1e-10 * area))
                fail_msg("sum %.17g, 0.75 * area %.17g", sum, 0.75 * area);
        }
        homg_test_system_free(&a);
        homg_test_system_free(&b);
        homg_test_system_free(&z);
        homg_fem_destroy(fem);
    }
    free(l);
    homg_mesh_destroy(m);
}

/* -div(sigma grad u) = 0, u = 0 on x = 0 (tag 1), sigma du/dn = q on x = 1 (tag 2),
 * zero flux on the other sides: u = q x / sigma, which P1 holds exactly. */
static void neumann_flux_gives_the_linear_solution(void **state)
{
    const int32_t dtag[1] = { 1 }, ntag[2] = { 2, 3 };
    const double flux[2] = { 3, 0 }; /* tag 3 (y = 0) with zero flux: the natural condition */
    (void)state;
    for (int dim = 2; dim <= 3; dim++)
        for (int s = 0; s < 3; s++) {
            homg_mesh *m = dim == 2 ? square(6) : cube(3);
            homg_fem *fem = make_fem(m, schemes[s], s == 1, dtag, 1, 64);
            homg_fem_coeffs c = { 0 };
            int32_t n = homg_mesh_num_nodes(m);
            double *u = (double *)malloc((size_t)n * 8), *want = (double *)malloc((size_t)n * 8), total = 0;
            homg_test_system a;
            c.sigma = 1.5;
            c.neumann_tags = ntag;
            c.neumann_flux = flux;
            c.num_neumann = 2;
            assemble(fem, &c);
            a = homg_test_fetch(ctx, fem);
            for (int32_t i = 0; i < n; i++) {
                want[i] = 3 * homg_mesh_coords(m)[(size_t)dim * i] / 1.5;
                total += a.rhs[i];
            }
            assert_true(fabs(total - 3) < 1e-5); /* the flux through the unit side x = 1 */
            cg(&a.m, a.rhs, u);
            assert_true(homg_rel_diff(u, want, (size_t)n) < (s == 1 ? 1e-5 : 1e-10));
            homg_test_system_free(&a);
            free(u);
            free(want);
            homg_fem_destroy(fem);
            homg_mesh_destroy(m);
        }
}

static void bad_neumann_tables_are_refused(void **state)
{
    homg_mesh *m = square(2);
    homg_fem *fem = make_fem(m, HOMG_FEM_SCHEME_SERIAL, 0, NULL, 0, 0);
    int32_t tags[HOMG_FEM_MAX_NEUMANN + 1] = { 2 };
    double flux[HOMG_FEM_MAX_NEUMANN + 1] = { NAN };
    homg_fem_coeffs c = { 0 };
    (void)state;
    c.num_neumann = 1;
    HOMG_TEST_REFUSED(ctx, homg_fem_assemble(fem, &c), HOMG_ERROR_INVALID_ARGUMENT, "neumann_tags");
    c.neumann_tags = tags;
    c.neumann_flux = flux;
    HOMG_TEST_REFUSED(ctx, homg_fem_assemble(fem, &c), HOMG_ERROR_INVALID_ARGUMENT, "neumann_flux[0]");
    flux[0] = 1;
    c.num_neumann = HOMG_FEM_MAX_NEUMANN + 1;
    HOMG_TEST_REFUSED(ctx, homg_fem_assemble(fem, &c), HOMG_ERROR_INVALID_ARGUMENT, "num_neumann");
    c.num_neumann = 1;
    assert_int_equal(homg_fem_assemble(fem, &c), HOMG_OK);
    homg_fem_destroy(fem);
    homg_mesh_destroy(m);
}

/* ------------------------------------------------------------ a refined mesh's pattern */

/* The pattern from the coarse edges and the children (pattern_refined,
 * kernels/fem/pattern.h) of a refined square, a
 * refined cube and the refined hole2d asset (irregular degrees) = every
 * element pair sorted (rows_case.c); children of different coarse elements
 * swapped: refused. */
static void refined_pattern_matches_the_definition(void **state)
{
    homg_mesh *cms[4], *fm = NULL;
    (void)state;
    cms[0] = square(7);
    cms[1] = cube(3);
    cms[2] = cube(6);
    cms[3] = read_asset("assets/hole2d.msh");
    for (int i = 0; i < 4; i++) {
        int32_t nnz;
        assert_int_equal(homg_mesh_refine(cms[i], &fm), HOMG_OK);
        nnz = homg_test_refined_pattern(ctx, cms[i], fm, 0);
        print_message("refined pattern: %d nodes, %d nnz\n", (int)homg_mesh_num_nodes(fm), (int)nnz);
        assert_true(nnz > 0);
        assert_int_equal(homg_test_refined_pattern(ctx, cms[i], fm, 1), 0);
        homg_mesh_destroy(fm);
        homg_mesh_destroy(cms[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reference_element_matrices_are_exact),
        cmocka_unit_test(tensor_sigma_matches_scalar_and_rotates),
        cmocka_unit_test(symmetric_rowsums_mass_on_assets),
        cmocka_unit_test(blobs_asset_has_two_materials),
        cmocka_unit_test(float32_matches_double),
        cmocka_unit_test(dirichlet_rows_are_unit_and_columns_move),
        cmocka_unit_test(rhs_only_matches_the_full_assembly),
        cmocka_unit_test(node_in_no_element_gets_a_unit_row),
        cmocka_unit_test(patch_sizes_match_serial),
        cmocka_unit_test(converges_at_second_order),
        cmocka_unit_test(linear_solution_is_reproduced_exactly),
        cmocka_unit_test(bad_arguments_are_refused),
        cmocka_unit_test(bad_coefficient_entries_are_named),
        cmocka_unit_test(bad_tensors_are_named),
        cmocka_unit_test(lambda_elem_matches_the_scalar),
        cmocka_unit_test(neumann_flux_gives_the_linear_solution),
        cmocka_unit_test(bad_neumann_tables_are_refused),
        cmocka_unit_test(refined_pattern_matches_the_definition),
    };
    return cmocka_run_group_tests(tests, homg_test_setup_cpu, homg_test_teardown_cpu);
}
