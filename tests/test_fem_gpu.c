/* test_fem_gpu.c -- CUDA assembly against the CPU reference: the same pattern,
 * and values and right-hand side within 1e-12 (double) on every asset mesh and a
 * generated cube, for both GPU schemes, with random per-element sigma, a nodal
 * source and Dirichlet values; re-assembly; P2 elements (the colour kernel) on
 * gmsh P2 files and an asset; the right-hand side alone (rhs_only) after a
 * full assembly with another source; errors the GPU path must report; the
 * PATCH scheme's partition (kernels/fem/partition.*) on random rows and
 * elements: both backends give the same arrays, which obey the definition;
 * the P1 Dirichlet mask (kernels/fem/mask.*) on random elements, facets, tags
 * and markers: both backends agree with the rule written out here; the
 * pattern's keys on random elements (CUDA's pair sort, and its fallback). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "devcopy.h"
#include "fem/fem_kernels.h"
#include "mesh/mesh_internal.h"
#include "homg.h"
#include "host_system.h"
#include "rows_case.h"
#include "testutil.h"

#define gpu homg_test_gpu /* the pair homg_test_setup_pair makes (testutil.h) */
#define cpu homg_test_cpu
static int quick; /* "quick": the smallest meshes only (compute-sanitizer runs) */

static void *to_device(const void *host, size_t bytes)
{
    void *d = NULL;
    assert_int_equal(homg_alloc(gpu, bytes, &d), HOMG_OK);
    assert_int_equal(homg_copy_from_host(gpu, d, host, bytes), HOMG_OK);
    return d;
}

/* Random coefficients on host, and their device copies. */
typedef struct coeffs {
    double *sigma, *f, *g;
    void *d_sigma, *d_f, *d_g;
} coeffs;

static coeffs make_coeffs(const homg_mesh *m, uint64_t seed)
{
    coeffs c;
    homg_rng rng = homg_rng_seed(seed);
    int32_t ne = homg_mesh_num_elements(m), n = homg_mesh_num_nodes(m);
    c.sigma = (double *)malloc((size_t)ne * 8);
    c.f = (double *)malloc((size_t)n * 8);
    c.g = (double *)malloc((size_t)n * 8);
    for (int32_t e = 0; e < ne; e++)
        c.sigma[e] = (homg_mesh_element_tags(m)[e] == 2 ? 10 : 1) * (0.5 + homg_rng_uniform(&rng));
    for (int32_t i = 0; i < n; i++) {
        c.f[i] = homg_rng_uniform(&rng) - 0.5;
        c.g[i] = homg_rng_uniform(&rng);
    }
    c.d_sigma = to_device(c.sigma, (size_t)ne * 8);
    c.d_f = to_device(c.f, (size_t)n * 8);
    c.d_g = to_device(c.g, (size_t)n * 8);
    return c;
}

static void free_coeffs(coeffs *c)
{
    free(c->sigma);
    free(c->f);
    free(c->g);
    homg_free(gpu, c->d_sigma);
    homg_free(gpu, c->d_f);
    homg_free(gpu, c->d_g);
}

static homg_fem *create(homg_ctx *ctx, homg_mesh *m, homg_fem_scheme scheme, int float32)
{
    static const int32_t tags[3] = { 1, 2, 4 };
    homg_fem_desc d = { 0 };
    homg_fem *fem = NULL;
    d.scheme = scheme;
    d.precision = float32 ? HOMG_FLOAT32 : HOMG_FLOAT64;
    d.dirichlet_tags = tags;
    d.num_dirichlet_tags = 3;
    if (homg_fem_create(m, &d, &fem) != HOMG_OK)
        fail_msg("homg_fem_create: %s", homg_ctx_last_error(ctx));
    return fem;
}

static void assemble_as(homg_ctx *ctx, homg_fem *fem, const double *sigma, const double *f, const double *g,
                        double lambda, int rhs_only)
{
    homg_fem_coeffs c = { 0 };
    c.sigma_elem = sigma;
    c.f_node = f;
    c.f = 0.25;
    c.dirichlet_values = g;
    c.lambda = lambda;
    c.rhs_only = rhs_only;
    if (homg_fem_assemble(fem, &c) != HOMG_OK)
        fail_msg("homg_fem_assemble%s: %s", rhs_only ? " (rhs_only)" : "", homg_ctx_last_error(ctx));
}

static void assemble(homg_ctx *ctx, homg_fem *fem, const double *sigma, const double *f, const double *g, double lambda)
{
    assemble_as(ctx, fem, sigma, f, g, lambda, 0);
}

/* coeffs.rhs_only on the GPU after a full assembly with another source (f2): b
 * must be the reference's (a full assembly with f on the CPU), A untouched. */
static void rhs_only_matches(homg_fem *fem, const homg_test_system *r, const double *sigma, const double *f,
                             const double *f2, const double *g, double lambda, double tol, const char *what)
{
    homg_test_system a;
    double dv, db;
    assemble(gpu, fem, sigma, f2, g, lambda);
    assemble_as(gpu, fem, sigma, f, g, lambda, 1);
    a = homg_test_fetch(gpu, fem);
    dv = homg_rel_diff(a.m.values, r->m.values, (size_t)r->m.nnz);
    db = homg_rel_diff(a.rhs, r->rhs, (size_t)r->m.nrows);
    print_message("%-40s rhs_only: rel diff A %.1e b %.1e\n", what, dv, db);
    if (!(dv <= tol && db <= tol))
        fail_msg("%s rhs_only: GPU and CPU differ: %.3e (A), %.3e (b)", what, dv, db);
    homg_test_system_free(&a);
}

static void compare_on(const char *name, homg_mesh *mc, homg_mesh *mg)
{
    static const homg_fem_scheme gpu_schemes[2] = { HOMG_FEM_SCHEME_COLOR, HOMG_FEM_SCHEME_PATCH };
    coeffs c = make_coeffs(mc, 11);
    homg_fem *ref = create(cpu, mc, HOMG_FEM_SCHEME_SERIAL, 0);
    homg_test_system r;
    assemble(cpu, ref, c.sigma, c.f, c.g, 1.0);
    r = homg_test_fetch(cpu, ref);
    for (int s = 0; s < 2; s++)
        for (int f32 = 0; f32 <= 1; f32++) {
            homg_fem *fem = create(gpu, mg, gpu_schemes[s], f32);
            homg_fem_info info = homg_fem_get_info(fem);
            double dv, db, tol = f32 ? 1e-5 : 1e-12;
            homg_test_system a;
            /* a first assembly with other coefficients, then the compared one: re-assembly reuses the pattern */
            assemble(gpu, fem, NULL, NULL, NULL, 3.0);
            assemble(gpu, fem, (const double *)c.d_sigma, (const double *)c.d_f, (const double *)c.d_g, 1.0);
            a = homg_test_fetch(gpu, fem);
            assert_int_equal(a.m.nnz, r.m.nnz);
            assert_memory_equal(a.m.row_ptr, r.m.row_ptr, ((size_t)r.m.nrows + 1) * 4);
            assert_memory_equal(a.m.col_idx, r.m.col_idx, (size_t)r.m.nnz * 4);
            dv = homg_rel_diff(a.m.values, r.m.values, (size_t)r.m.nnz);
            db = homg_rel_diff(a.rhs, r.rhs, (size_t)r.m.nrows);
            print_message("%-22s %-5s %s: nnz %d, colours %d, patches %d (boundary rows %.0f%%), "
                          "rel diff A %.1e b %.1e\n",
                          name, s ? "patch" : "color", f32 ? "float " : "double", (int)r.m.nnz, (int)info.num_colors,
                          (int)info.num_patches, 100 * info.boundary_fraction, dv, db);
            if (!(dv <= tol && db <= tol))
                fail_msg("%s: GPU and CPU differ: %.3e (A), %.3e (b)", name, dv, db);
            rhs_only_matches(fem, &r, (const double *)c.d_sigma, (const double *)c.d_f, (const double *)c.d_g,
                             (const double *)c.d_g, 1.0, tol, name);
            homg_test_system_free(&a);
            homg_fem_destroy(fem);
        }
    homg_test_system_free(&r);
    homg_fem_destroy(ref);
    free_coeffs(&c);
}

static void gpu_matches_cpu_on_assets(void **state)
{
    const char *assets[] = { "assets/hole2d.msh", "assets/irregular3d.msh.gz", "assets/blobs.msh.gz" };
    (void)state;
    for (int i = 0; i < (quick ? 1 : 3); i++) {
        homg_mesh *mc = NULL, *mg = NULL;
        assert_int_equal(homg_mesh_read(cpu, assets[i], &mc), HOMG_OK);
        assert_int_equal(homg_mesh_read(gpu, assets[i], &mg), HOMG_OK);
        compare_on(assets[i], mc, mg);
        homg_mesh_destroy(mc);
        homg_mesh_destroy(mg);
    }
}

static void gpu_matches_cpu_on_generated_meshes(void **state)
{
    homg_mesh_generate_desc g = { 0 };
    homg_mesh *mc = NULL, *mg = NULL;
    (void)state;
    g.cells = quick ? 5 : 24;
    g.size = 4;
    assert_int_equal(homg_mesh_generate_cube(cpu, &g, &mc), HOMG_OK);
    assert_int_equal(homg_mesh_generate_cube(gpu, &g, &mg), HOMG_OK);
    compare_on("cube K=24", mc, mg);
    homg_mesh_destroy(mc);
    homg_mesh_destroy(mg);
    g.cells = quick ? 8 : 40;
    g.refine = 1;
    assert_int_equal(homg_mesh_generate_square(cpu, &g, &mc), HOMG_OK);
    assert_int_equal(homg_mesh_generate_square(gpu, &g, &mg), HOMG_OK);
    compare_on("square 40 refined", mc, mg);
    homg_mesh_destroy(mc);
    homg_mesh_destroy(mg);
}

/* P2 (desc.order = 2): the CUDA colour kernel against the CPU serial pass, float64
 * and float32, random sigma per element and a source at every P2 unknown. */
static void p2_on(const char *name, homg_mesh *mc, homg_mesh *mg)
{
    static const int32_t tags[2] = { 1, 2 };
    homg_fem_desc d = { 0 };
    homg_fem *ref = NULL, *fem = NULL;
    homg_test_system r, a;
    homg_rng rng = homg_rng_seed(5);
    int32_t ne = homg_mesh_num_elements(mc), n;
    double *sigma = (double *)malloc((size_t)ne * 8), *f;
    void *d_sigma, *d_f;
    d.order = 2;
    d.precision = HOMG_FLOAT64;
    d.dirichlet_tags = tags;
    d.num_dirichlet_tags = 2;
    d.scheme = HOMG_FEM_SCHEME_SERIAL;
    assert_int_equal(homg_fem_create(mc, &d, &ref), HOMG_OK);
    n = homg_fem_num_dofs(ref);
    f = (double *)malloc((size_t)n * 8);
    for (int32_t e = 0; e < ne; e++)
        sigma[e] = 0.5 + homg_rng_uniform(&rng);
    for (int32_t i = 0; i < n; i++)
        f[i] = homg_rng_uniform(&rng) - 0.5;
    d_sigma = to_device(sigma, (size_t)ne * 8);
    d_f = to_device(f, (size_t)n * 8);
    assemble(cpu, ref, sigma, f, NULL, 0.5);
    r = homg_test_fetch(cpu, ref);
    for (int f32 = 0; f32 <= 1; f32++) {
        double dv, db, tol = f32 ? 1e-5 : 1e-12;
        d.scheme = HOMG_FEM_SCHEME_DEFAULT; /* COLOR for P2 on CUDA */
        d.precision = f32 ? HOMG_FLOAT32 : HOMG_FLOAT64;
        if (homg_fem_create(mg, &d, &fem) != HOMG_OK)
            fail_msg("homg_fem_create P2: %s", homg_ctx_last_error(gpu));
        assert_int_equal(homg_fem_get_info(fem).scheme, HOMG_FEM_SCHEME_COLOR);
        assemble(gpu, fem, (const double *)d_sigma, (const double *)d_f, NULL, 0.5);
        a = homg_test_fetch(gpu, fem);
        assert_int_equal(a.m.nrows, n);
        assert_int_equal(a.m.nnz, r.m.nnz);
        assert_memory_equal(a.m.row_ptr, r.m.row_ptr, ((size_t)n + 1) * 4);
        assert_memory_equal(a.m.col_idx, r.m.col_idx, (size_t)r.m.nnz * 4);
        dv = homg_rel_diff(a.m.values, r.m.values, (size_t)r.m.nnz);
        db = homg_rel_diff(a.rhs, r.rhs, (size_t)n);
        print_message("%-22s P2 color %s: %d unknowns, nnz %d, rel diff A %.1e b %.1e\n", name,
                      f32 ? "float " : "double", (int)n, (int)r.m.nnz, dv, db);
        if (!(dv <= tol && db <= tol))
            fail_msg("%s P2: GPU and CPU differ: %.3e (A), %.3e (b)", name, dv, db);
        rhs_only_matches(fem, &r, (const double *)d_sigma, (const double *)d_f, NULL, NULL, 0.5, tol, name);
        homg_test_system_free(&a);
        homg_fem_destroy(fem);
    }
    homg_test_system_free(&r);
    homg_fem_destroy(ref);
    homg_free(gpu, d_sigma);
    homg_free(gpu, d_f);
    free(sigma);
    free(f);
}

static void gpu_p2_matches_cpu(void **state)
{
    const char *files[] = { "tests/data/small2d_p2_41_bin.msh", "tests/data/small3d_p2_22.msh",
                            "assets/irregular3d.msh.gz" };
    (void)state;
    for (int i = 0; i < (quick ? 2 : 3); i++) {
        homg_mesh *mc = NULL, *mg = NULL;
        assert_int_equal(homg_mesh_read(cpu, files[i], &mc), HOMG_OK);
        assert_int_equal(homg_mesh_read(gpu, files[i], &mg), HOMG_OK);
        p2_on(files[i], mc, mg);
        homg_mesh_destroy(mc);
        homg_mesh_destroy(mg);
    }
}

static void gpu_errors_are_reported(void **state)
{
    homg_mesh_generate_desc g = { 0 };
    homg_mesh *m = NULL;
    homg_fem_desc d = { 0 };
    homg_fem *fem = (homg_fem *)1;
    homg_fem_coeffs c = { 0 };
    double host_sigma[6 * 8] = { 0 };
    (void)state;
    g.cells = 2;
    assert_int_equal(homg_mesh_generate_cube(gpu, &g, &m), HOMG_OK);
    d.precision = HOMG_FLOAT64;
    d.scheme = HOMG_FEM_SCHEME_SERIAL;
    assert_int_equal(homg_fem_create(m, &d, &fem), HOMG_ERROR_UNSUPPORTED);
    assert_null(fem);
    d.scheme = HOMG_FEM_SCHEME_PATCH;
    d.patch_nnz = 1 << 22; /* one patch far beyond shared memory */
    g.cells = 40;
    homg_mesh_destroy(m);
    assert_int_equal(homg_mesh_generate_cube(gpu, &g, &m), HOMG_OK);
    assert_int_equal(homg_fem_create(m, &d, &fem), HOMG_ERROR_UNSUPPORTED);
    assert_non_null(strstr(homg_ctx_last_error(gpu), "shared memory"));
    d.patch_nnz = 0;
    assert_int_equal(homg_fem_create(m, &d, &fem), HOMG_OK);
    assert_int_equal(homg_fem_get_info(fem).scheme, HOMG_FEM_SCHEME_PATCH);
    c.sigma_elem = host_sigma; /* a host pointer given to the CUDA backend */
    assert_int_equal(homg_fem_assemble(fem, &c), HOMG_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(homg_ctx_last_error(gpu), "sigma_elem"));
    homg_fem_destroy(fem);
    homg_mesh_destroy(m);
}

/* lambda per element and Neumann fluxes: the CUDA schemes against the CPU's serial loop. */
static void gpu_lambda_elem_and_neumann_match_cpu(void **state)
{
    static const int32_t ntags[2] = { 3, 5 };
    static const double flux[2] = { 2.5, -1 };
    homg_mesh_generate_desc g = { 0 };
    homg_mesh *mc = NULL, *mg = NULL;
    homg_rng rng = homg_rng_seed(5);
    int32_t ne;
    double *lambda;
    void *d_lambda;
    homg_fem *ref, *fem;
    homg_fem_coeffs c = { 0 };
    homg_test_system r, a;
    (void)state;
    g.cells = quick ? 4 : 20;
    assert_int_equal(homg_mesh_generate_cube(cpu, &g, &mc), HOMG_OK);
    assert_int_equal(homg_mesh_generate_cube(gpu, &g, &mg), HOMG_OK);
    ne = homg_mesh_num_elements(mc);
    lambda = (double *)malloc((size_t)ne * 8);
    for (int32_t e = 0; e < ne; e++)
        lambda[e] = homg_rng_uniform(&rng);
    d_lambda = to_device(lambda, (size_t)ne * 8);
    c.neumann_tags = ntags;
    c.neumann_flux = flux;
    c.num_neumann = 2;
    ref = create(cpu, mc, HOMG_FEM_SCHEME_SERIAL, 0);
    c.lambda_elem = lambda;
    assert_int_equal(homg_fem_assemble(ref, &c), HOMG_OK);
    r = homg_test_fetch(cpu, ref);
    for (int s = 0; s < 2; s++) {
        double dv, db;
        fem = create(gpu, mg, s ? HOMG_FEM_SCHEME_PATCH : HOMG_FEM_SCHEME_COLOR, 0);
        c.lambda_elem = (const double *)d_lambda;
        assert_int_equal(homg_fem_assemble(fem, &c), HOMG_OK);
        a = homg_test_fetch(gpu, fem);
        dv = homg_rel_diff(a.m.values, r.m.values, (size_t)r.m.nnz);
        db = homg_rel_diff(a.rhs, r.rhs, (size_t)r.m.nrows);
        print_message("lambda_elem + Neumann, %s: rel diff A %.1e b %.1e\n", s ? "patch" : "color", dv, db);
        assert_true(dv <= 1e-12 && db <= 1e-12);
        homg_test_system_free(&a);
        homg_fem_destroy(fem);
    }
    homg_test_system_free(&r);
    homg_fem_destroy(ref);
    homg_free(gpu, d_lambda);
    free(lambda);
    homg_mesh_destroy(mc);
    homg_mesh_destroy(mg);
}

/* The coefficient scan: random bad entries, the same first index named on both backends. */
static void gpu_scan_names_the_same_entry_as_cpu(void **state)
{
    homg_mesh_generate_desc g = { 0 };
    homg_mesh *mc = NULL, *mg = NULL;
    homg_rng rng = homg_rng_seed(9);
    int32_t ne;
    double *sigma;
    homg_fem *fc, *fg;
    (void)state;
    g.cells = quick ? 4 : 24;
    assert_int_equal(homg_mesh_generate_cube(cpu, &g, &mc), HOMG_OK);
    assert_int_equal(homg_mesh_generate_cube(gpu, &g, &mg), HOMG_OK);
    ne = homg_mesh_num_elements(mc);
    sigma = (double *)malloc((size_t)ne * 8);
    fc = create(cpu, mc, HOMG_FEM_SCHEME_SERIAL, 0);
    fg = create(gpu, mg, HOMG_FEM_SCHEME_PATCH, 0);
    for (int trial = 0; trial < 20; trial++) {
        static const double bad[4] = { -1, 0, NAN, INFINITY };
        homg_fem_coeffs c = { 0 };
        int nbad = 1 + (int)(homg_rng_uniform(&rng) * 5);
        int32_t first = ne;
        void *d_sigma;
        char want[64];
        for (int32_t e = 0; e < ne; e++)
            sigma[e] = 1;
        for (int k = 0; k < nbad; k++) {
            int32_t e = (int32_t)(homg_rng_uniform(&rng) * ne);
            sigma[e] = bad[k % 4];
            first = e < first ? e : first;
        }
        snprintf(want, sizeof want, "coeffs.sigma_elem[%d]", (int)first);
        d_sigma = to_device(sigma, (size_t)ne * 8);
        c.sigma_elem = sigma;
        assert_int_equal(homg_fem_assemble(fc, &c), HOMG_ERROR_INVALID_ARGUMENT);
        assert_non_null(strstr(homg_ctx_last_error(cpu), want));
        c.sigma_elem = (const double *)d_sigma;
        assert_int_equal(homg_fem_assemble(fg, &c), HOMG_ERROR_INVALID_ARGUMENT);
        if (!strstr(homg_ctx_last_error(gpu), want))
            fail_msg("GPU: %s; CPU: %s", homg_ctx_last_error(gpu), homg_ctx_last_error(cpu));
        homg_free(gpu, d_sigma);
    }
    homg_fem_destroy(fc);
    homg_fem_destroy(fg);
    free(sigma);
    homg_mesh_destroy(mc);
    homg_mesh_destroy(mg);
}

/* The partition of both backends on the same random input. */
typedef struct part_run {
    int32_t *a[9];
    fem_partition q;
} part_run;

static part_run partition_on(homg_ctx *ctx, int dim, int32_t n, int32_t ne, const int32_t *elements,
                             const int32_t *row_ptr, int32_t patch_nnz)
{
    const fem_kernels *k = HOMG_KERNELS(&ctx->ex, fem);
    size_t len[9] = { (size_t)n + 1, (size_t)n, 2 * (size_t)n + 1, (size_t)n + 1, (size_t)row_ptr[n],
                      (size_t)n,     (size_t)n, (size_t)n + 1,     (size_t)ne };
    int32_t *d[9];
    fem_problem p;
    part_run r;
    size_t tb = 0;
    void *temp, *d_el = homg_test_up(ctx, elements, (size_t)ne * (dim + 1) * 4),
                *d_rp = homg_test_up(ctx, row_ptr, ((size_t)n + 1) * 4);
    memset(&p, 0, sizeof p);
    p.dim = dim;
    p.num_nodes = n;
    p.num_elements = ne;
    p.elements = (const int32_t *)d_el;
    for (int i = 0; i < 9; i++)
        d[i] = (int32_t *)homg_test_up(ctx, NULL, (len[i] + 1) * 4);
    r.q.node_ptr = d[0], r.q.nodes = d[1], r.q.row_off = d[2], r.q.entry_ptr = d[3], r.q.entry_src = d[4];
    r.q.node_patch = d[5], r.q.node_local = d[6], r.q.elem_ptr = d[7], r.q.elems = d[8];
    assert_int_equal(k->partition_temp_bytes(&ctx->ex, n, ne, &tb), HOMG_OK);
    temp = homg_test_up(ctx, NULL, tb);
    if (k->partition(&ctx->ex, &p, (const int32_t *)d_rp, row_ptr[n], patch_nnz, &r.q, temp, tb) != HOMG_OK)
        fail_msg("partition: %s", homg_ctx_last_error(ctx));
    if (k->partition_stats(&ctx->ex, temp, &r.q) != HOMG_OK) /* the counts after the queued work */
        fail_msg("partition counts: %s", homg_ctx_last_error(ctx));
    for (int i = 0; i < 9; i++) {
        r.a[i] = (int32_t *)calloc(len[i] + 1, 4);
        homg_test_down(ctx, r.a[i], d[i], len[i] * 4);
        homg_free(ctx, d[i]);
    }
    homg_free(ctx, temp);
    homg_free(ctx, d_el);
    homg_free(ctx, d_rp);
    return r;
}

/* The definition (partition.h), checked on the CPU's arrays: runs of rows in
 * order, at most patch_nnz entries where the longest row fits, each element
 * in the patch of its first node, in element order. */
static void check_partition(const part_run *r, int dim, int32_t n, int32_t ne, const int32_t *el, const int32_t *rp,
                            int32_t patch_nnz)
{
    const int32_t *node_ptr = r->a[0], *row_off = r->a[2], *elem_ptr = r->a[7], *elems = r->a[8];
    int32_t np = r->q.num_patches;
    assert_true(np >= (n > 0) && node_ptr[0] == 0 && node_ptr[np] == n && elem_ptr[np] == ne);
    for (int32_t k = 0; k < np; k++) {
        int32_t f = node_ptr[k], l = node_ptr[k + 1];
        assert_true(l > f);
        if (r->q.max_row <= patch_nnz)
            assert_true(rp[l] - rp[f] <= patch_nnz);
        for (int32_t i = f; i <= l; i++)
            assert_int_equal(row_off[i + k], rp[i] - rp[f]);
        for (int32_t j = elem_ptr[k]; j < elem_ptr[k + 1]; j++) {
            int32_t v0 = el[(size_t)elems[j] * (dim + 1)];
            assert_true(v0 >= f && v0 < l);
            assert_true(j == elem_ptr[k] || elems[j] > elems[j - 1]);
        }
    }
}

/* The sorted unique pattern keys of random elements on ctx (nd unknowns each
 * among n): *nnz and a host copy of the keys (malloc'd).  As fem.c asks:
 * buffers of fem_pattern_first_keys, then (*nnz = 0: short) of the full size;
 * *first: whether the first size was enough. */
static uint64_t *pattern_on(homg_ctx *ctx, int nd, int32_t n, int32_t ne, const int32_t *dofs, int32_t *nnz, int *first)
{
    const fem_kernels *k = HOMG_KERNELS(&ctx->ex, fem);
    int shift = homg_cpu_sort_bits_for((uint64_t)(n > 1 ? n - 1 : 1));
    size_t nkeys, tb = 0;
    fem_problem p;
    uint64_t *keys, *alt, *h = NULL;
    void *temp, *d_dofs = homg_test_up(ctx, dofs, ((size_t)ne * nd + 1) * 4);
    memset(&p, 0, sizeof p);
    p.dim = 3;
    p.num_nodes = n;
    p.num_elements = ne;
    p.nd = nd;
    p.num_dofs = n;
    p.dofs = p.elements = (const int32_t *)d_dofs;
    *nnz = 0;
    for (int pass = 0; pass < 2 && *nnz == 0; pass++) {
        nkeys = pass == 0 ? fem_pattern_first_keys(&p) : fem_pattern_full_keys(&p);
        keys = (uint64_t *)homg_test_up(ctx, NULL, nkeys * 8);
        alt = (uint64_t *)homg_test_up(ctx, NULL, nkeys * 8);
        assert_int_equal(k->pattern_temp_bytes(&ctx->ex, nkeys, 2 * shift, &tb), HOMG_OK);
        temp = homg_test_up(ctx, NULL, tb);
        if (k->pattern_keys(&ctx->ex, &p, shift, keys, alt, nkeys, temp, tb, nnz) != HOMG_OK)
            fail_msg("pattern_keys: %s", ctx->ex.msg);
        *first = pass == 0 && *nnz > 0;
        if (*nnz > 0) {
            h = (uint64_t *)malloc((size_t)*nnz * 8 + 8);
            homg_test_down(ctx, h, keys, (size_t)*nnz * 8);
        }
        homg_free(ctx, keys);
        homg_free(ctx, alt);
        homg_free(ctx, temp);
    }
    assert_true(*nnz > 0); /* the full size is always enough */
    homg_free(ctx, d_dofs);
    return h;
}

/* The pattern keys from a mesh's sorted edges (pattern_from_edges: u edges,
 * n rows; host edges uploaded) on ctx: a host copy of the 2 u + n keys. */
static uint64_t *edges_pattern_on(homg_ctx *ctx, const uint64_t *edges, int32_t u, int32_t n)
{
    const fem_kernels *k = HOMG_KERNELS(&ctx->ex, fem);
    int shift = homg_cpu_sort_bits_for((uint64_t)(n > 1 ? n - 1 : 1));
    size_t nkeys = 3 * (size_t)u + (size_t)n, tb = 0, nnz = 2 * (size_t)u + (size_t)n;
    void *d_edges = homg_test_up(ctx, edges, (size_t)u * 8 + 8), *temp;
    uint64_t *keys = (uint64_t *)homg_test_up(ctx, NULL, nkeys * 8),
             *alt = (uint64_t *)homg_test_up(ctx, NULL, nkeys * 8);
    uint64_t *h = (uint64_t *)malloc(nnz * 8);
    assert_int_equal(k->pattern_temp_bytes(&ctx->ex, nkeys, 2 * shift, &tb), HOMG_OK);
    temp = homg_test_up(ctx, NULL, tb);
    if (k->pattern_from_edges(&ctx->ex, (const uint64_t *)d_edges, u, shift, n, keys, alt, temp, tb) != HOMG_OK)
        fail_msg("pattern_from_edges: %s", ctx->ex.msg);
    homg_test_down(ctx, h, keys, nnz * 8);
    homg_free(ctx, d_edges);
    homg_free(ctx, keys);
    homg_free(ctx, alt);
    homg_free(ctx, temp);
    return h;
}

/* row_ptr and col_idx (pattern_csr) of n sorted keys (rows rows) on ctx, into
 * host rp (rows + 1) and ci (n). */
static void csr_on(homg_ctx *ctx, const uint64_t *keys, int32_t n, int shift, int32_t rows, int32_t *rp, int32_t *ci)
{
    const fem_kernels *k = HOMG_KERNELS(&ctx->ex, fem);
    void *d_keys = homg_test_up(ctx, keys, (size_t)n * 8 + 8), *d_rp = homg_test_up(ctx, NULL, (size_t)rows * 4 + 4),
         *d_ci = homg_test_up(ctx, NULL, (size_t)n * 4 + 4);
    if (k->pattern_csr(&ctx->ex, (const uint64_t *)d_keys, n, shift, rows, (int32_t *)d_rp, (int32_t *)d_ci) != HOMG_OK)
        fail_msg("pattern_csr: %s", ctx->ex.msg);
    homg_test_down(ctx, rp, d_rp, (size_t)rows * 4 + 4);
    homg_test_down(ctx, ci, d_ci, (size_t)n * 4);
    homg_free(ctx, d_keys);
    homg_free(ctx, d_rp);
    homg_free(ctx, d_ci);
}

/* pattern_csr of the off-diagonal keys (rows without keys where a node is in
 * no edge) on both backends = a count of the keys by row. */
static void csr_matches_definition(const uint64_t *def, int32_t nnz, int shift, int32_t n)
{
    uint64_t *off = (uint64_t *)malloc((size_t)nnz * 8 + 8), mask = ((uint64_t)1 << shift) - 1;
    int32_t m = 0, *want = (int32_t *)calloc((size_t)n + 1, 4), *rp[2], *ci[2];
    for (int32_t k = 0; k < nnz; k++)
        if ((def[k] >> shift) != (def[k] & mask))
            off[m++] = def[k];
    for (int32_t k = 0; k < m; k++)
        want[(off[k] >> shift) + 1]++;
    for (int32_t i = 0; i < n; i++)
        want[i + 1] += want[i];
    for (int b = 0; b < 2; b++) {
        rp[b] = (int32_t *)malloc((size_t)n * 4 + 4);
        ci[b] = (int32_t *)malloc((size_t)m * 4 + 4);
        csr_on(b ? gpu : cpu, off, m, shift, n, rp[b], ci[b]);
        assert_memory_equal(rp[b], want, (size_t)n * 4 + 4);
        for (int32_t k = 0; k < m; k++)
            assert_int_equal(ci[b][k], (int32_t)(off[k] & mask));
        free(rp[b]);
        free(ci[b]);
    }
    free(want);
    free(off);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The pattern from random sorted unique edges (pattern_from_edges: rows placed
 * key by key from both lists' row starts) on both backends = the definition
 * written out here (every (a, b), (b, a) and diagonal, sorted): local edges
 * among n nodes, every third round with a run of nodes in no edge (empty
 * rows, at the start, inside and at the end), and no edge at all; the row
 * starts in one pass (HOMG_FEM_PATTERN_GAP=0), capped (=3: longer gaps searched) and by default;
 * and the row pointers (pattern_csr) of the off-diagonal keys alone (rows
 * without keys). */
static void gpu_edge_pattern_matches_definition(void **state)
{
    homg_rng rng = homg_rng_seed(41);
    (void)state;
    for (int t = 0; t < (quick ? 6 : 18); t++) {
        int32_t n = 1 + (int32_t)(homg_rng_uniform(&rng) * (quick ? 300 : 40000)), u = 0, nnz;
        int shift = homg_cpu_sort_bits_for((uint64_t)(n > 1 ? n - 1 : 1)), gaps = t % 3 == 2;
        size_t want = t % 6 == 5 ? 0 : (size_t)(homg_rng_uniform(&rng) * 4 * n);
        uint64_t *edges = (uint64_t *)malloc(want * 8 + 8), *def, *c, *g;
        for (size_t k = 0; k < want; k++) {
            int32_t a = (int32_t)(homg_rng_uniform(&rng) * n), b = a + 1 + (int32_t)(homg_rng_uniform(&rng) * 30);
            if (b >= n || (gaps && ((a % 97) < 20 || (b % 97) < 20 || a < n / 10 || b > n - n / 10)))
                continue;
            edges[u++] = ((uint64_t)a << 32) | (uint64_t)b;
        }
        qsort(edges, (size_t)u, 8, cmp_u64);
        u = (int32_t)homg_cpu_sort_unique_u64(edges, (size_t)u);
        nnz = 2 * u + n;
        def = (uint64_t *)malloc((size_t)nnz * 8);
        for (int32_t k = 0; k < u; k++) {
            uint64_t a = edges[k] >> 32, b = edges[k] & 0xffffffffu;
            def[2 * k] = (a << shift) | b;
            def[2 * k + 1] = (b << shift) | a;
        }
        for (int32_t i = 0; i < n; i++)
            def[2 * u + i] = ((uint64_t)i << shift) | (uint64_t)i;
        qsort(def, (size_t)nnz, 8, cmp_u64);
        for (int capped = 0; capped < 3; capped++) { /* one pass; capped at 3 rows a key, then filled; the default */
            if (capped < 2)
                setenv("HOMG_FEM_PATTERN_GAP", capped ? "3" : "0", 1);
            c = edges_pattern_on(cpu, edges, u, n);
            g = edges_pattern_on(gpu, edges, u, n);
            unsetenv("HOMG_FEM_PATTERN_GAP");
            print_message("edge pattern: %d nodes, %d edges%s%s: %d keys\n", (int)n, (int)u,
                          gaps ? " (empty rows)" : "",
                          capped == 1 ? ", starts capped"
                          : capped    ? ", default cap"
                                      : "",
                          (int)nnz);
            assert_memory_equal(c, def, (size_t)nnz * 8);
            assert_memory_equal(g, def, (size_t)nnz * 8);
            free(c);
            free(g);
        }
        csr_matches_definition(def, nnz, shift, n);
        free(def);
        free(edges);
    }
}

/* The pattern keys of a refined mesh (n nodes, ne elements) from the coarse
 * mesh's sorted edges (u, nc nodes) and the children (pattern_refined; host
 * arrays uploaded) on ctx: a host copy of its *nnz keys (0: refused). */
static uint64_t *refined_pattern_on(homg_ctx *ctx, int dim, int32_t n, int32_t ne, const int32_t *elements,
                                    const uint64_t *edges, int32_t u, int32_t nc, int32_t *nnz)
{
    const fem_kernels *k = HOMG_KERNELS(&ctx->ex, fem);
    int nd = dim + 1, shift = homg_cpu_sort_bits_for((uint64_t)(n > 1 ? n - 1 : 1));
    size_t nkeys, tb = 0;
    fem_problem p;
    void *d_edges = homg_test_up(ctx, edges, (size_t)u * 8 + 8), *temp;
    void *d_el = homg_test_up(ctx, elements, ((size_t)ne * nd + 1) * 4);
    uint64_t *keys, *alt, *h = NULL;
    memset(&p, 0, sizeof p);
    p.dim = dim;
    p.num_nodes = p.num_dofs = n;
    p.num_elements = ne;
    p.nd = nd;
    p.dofs = p.elements = (const int32_t *)d_el;
    nkeys = fem_pattern_first_keys(&p);
    keys = (uint64_t *)homg_test_up(ctx, NULL, nkeys * 8);
    alt = (uint64_t *)homg_test_up(ctx, NULL, nkeys * 8);
    assert_int_equal(k->pattern_temp_bytes(&ctx->ex, nkeys, 2 * shift, &tb), HOMG_OK);
    temp = homg_test_up(ctx, NULL, tb);
    if (k->pattern_refined(&ctx->ex, &p, (const uint64_t *)d_edges, u, nc, shift, keys, alt, nkeys, temp, tb, nnz) !=
        HOMG_OK)
        fail_msg("pattern_refined: %s", ctx->ex.msg);
    if (*nnz > 0) {
        h = (uint64_t *)malloc((size_t)*nnz * 8);
        homg_test_down(ctx, h, keys, (size_t)*nnz * 8);
    }
    homg_free(ctx, d_edges);
    homg_free(ctx, d_el);
    homg_free(ctx, keys);
    homg_free(ctx, alt);
    homg_free(ctx, temp);
    return h;
}

/* A refined cube (tetrahedra) and a refined square (triangles): the pattern
 * from the coarse edges and the children (pattern_refined) on both backends
 * = the element pairs' (pattern_keys); with two children of different
 * coarse elements swapped, refused on both (*nnz = 0). */
static void gpu_refined_pattern_matches_cpu(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        homg_mesh_generate_desc d = { 0 };
        homg_mesh *cm = NULL, *fm = NULL;
        uint64_t *edges = NULL, *full, *c, *g;
        size_t u = 0;
        int32_t nf = 0, ncpu = 0, ngpu = 0, nc, n, ne, *el;
        int first = 0;
        d.cells = quick ? 3 : (dim == 3 ? 12 : 40);
        d.size = 4;
        assert_int_equal(dim == 3 ? homg_mesh_generate_cube(cpu, &d, &cm) : homg_mesh_generate_square(cpu, &d, &cm),
                         HOMG_OK);
        assert_int_equal(homg_mesh_refine(cm, &fm), HOMG_OK);
        assert_int_equal(homg__mesh_edges(cpu, cm, &edges, &u), HOMG_OK);
        nc = homg_mesh_num_nodes(cm);
        full = pattern_on(cpu, dim + 1, homg_mesh_num_nodes(fm), homg_mesh_num_elements(fm), homg_mesh_elements(fm),
                          &nf, &first);
        n = homg_mesh_num_nodes(fm);
        ne = homg_mesh_num_elements(fm);
        el = (int32_t *)malloc((size_t)ne * (dim + 1) * 4);
        memcpy(el, homg_mesh_elements(fm), (size_t)ne * (dim + 1) * 4);
        c = refined_pattern_on(cpu, dim, n, ne, el, edges, (int32_t)u, nc, &ncpu);
        g = refined_pattern_on(gpu, dim, n, ne, el, edges, (int32_t)u, nc, &ngpu);
        print_message("refined pattern, dim %d: %d coarse nodes, %d edges -> %d keys (CPU %d, CUDA %d)\n", dim, (int)nc,
                      (int)u, (int)nf, (int)ncpu, (int)ngpu);
        assert_int_equal(ncpu, nf);
        assert_int_equal(ngpu, nf);
        assert_memory_equal(c, full, (size_t)nf * 8);
        assert_memory_equal(g, full, (size_t)nf * 8);
        free(c);
        free(g);
        for (int k = 0; k <= dim; k++) { /* the first and the last child swapped: not children of one element */
            int32_t t = el[k];
            el[k] = el[(size_t)(ne - 1) * (dim + 1) + k];
            el[(size_t)(ne - 1) * (dim + 1) + k] = t;
        }
        c = refined_pattern_on(cpu, dim, n, ne, el, edges, (int32_t)u, nc, &ncpu);
        g = refined_pattern_on(gpu, dim, n, ne, el, edges, (int32_t)u, nc, &ngpu);
        assert_int_equal(ncpu, 0);
        assert_int_equal(ngpu, 0);
        assert_null(c);
        assert_null(g);
        free(el);
        free(full);
        free(edges);
        homg_mesh_destroy(fm);
        homg_mesh_destroy(cm);
    }
}

/* A refined mesh's pattern from the coarse edges and the children
 * (pattern_refined) on both backends = every element pair sorted
 * (rows_case.c): refined
 * squares and cubes, the refined hole2d and (not quick) irregular3d assets
 * (irregular degrees); swapped children refused on both. */
static void gpu_refined_pattern_matches_definition(void **state)
{
    const char *assets[2] = { "assets/hole2d.msh", "assets/irregular3d.msh.gz" };
    (void)state;
    for (int i = 0; i < 6; i++) {
        homg_mesh_generate_desc d = { 0 };
        homg_mesh *cm = NULL, *fm = NULL;
        int32_t nc, ng;
        if (quick && i == 5)
            continue;
        d.cells = i == 0 ? 5 : i == 1 ? (quick ? 12 : 60) : i == 2 ? 3 : (quick ? 5 : 20);
        if (i < 2)
            assert_int_equal(homg_mesh_generate_square(cpu, &d, &cm), HOMG_OK);
        else if (i < 4)
            assert_int_equal(homg_mesh_generate_cube(cpu, &d, &cm), HOMG_OK);
        else if (homg_mesh_read(cpu, assets[i - 4], &cm) != HOMG_OK)
            fail_msg("%s", homg_ctx_last_error(cpu));
        assert_int_equal(homg_mesh_refine(cm, &fm), HOMG_OK);
        nc = homg_test_refined_pattern(cpu, cm, fm, 0);
        ng = homg_test_refined_pattern(gpu, cm, fm, 0);
        print_message("refined pattern, case %d: %d nodes, nnz CPU %d CUDA %d\n", i, (int)homg_mesh_num_nodes(fm),
                      (int)nc, (int)ng);
        assert_true(nc > 0);
        assert_int_equal(nc, ng);
        assert_int_equal(homg_test_refined_pattern(cpu, cm, fm, 1), 0);
        assert_int_equal(homg_test_refined_pattern(gpu, cm, fm, 1), 0);
        homg_mesh_destroy(fm);
        homg_mesh_destroy(cm);
    }
}

/* A generated cube's tetrahedra (U ~ 1.2 unique pairs each): CUDA's pair sort
 * fits the first buffers (fem_pattern_first_keys, ~40 % of the full size),
 * the CPU's full sort asks for the full ones; the same keys.  And the same
 * keys from the mesh's sorted edges (pattern_from_edges) on both backends. */
static void pattern_first_size_on_a_cube(void)
{
    homg_mesh_generate_desc d = { 0 };
    homg_mesh *m = NULL;
    int32_t nc = 0, ng = 0;
    int cf = 1, gf = 0;
    uint64_t *c, *g;
    d.cells = quick ? 5 : 24;
    d.size = 4;
    assert_int_equal(homg_mesh_generate_cube(cpu, &d, &m), HOMG_OK);
    c = pattern_on(cpu, 4, homg_mesh_num_nodes(m), homg_mesh_num_elements(m), homg_mesh_elements(m), &nc, &cf);
    g = pattern_on(gpu, 4, homg_mesh_num_nodes(m), homg_mesh_num_elements(m), homg_mesh_elements(m), &ng, &gf);
    print_message("pattern: cube K=%d, %d nodes: %d keys (first buffers enough: CPU %d, CUDA %d)\n", d.cells,
                  (int)homg_mesh_num_nodes(m), (int)nc, cf, gf);
    assert_int_equal(ng, nc);
    assert_memory_equal(g, c, (size_t)nc * 8);
    assert_int_equal(cf, 0);
    assert_int_equal(gf, 1);
    free(g);
    {
        uint64_t *edges = NULL, *ce, *ge;
        size_t u = 0;
        assert_int_equal(homg__mesh_edges(cpu, m, &edges, &u), HOMG_OK);
        assert_int_equal(nc, 2 * (int32_t)u + homg_mesh_num_nodes(m));
        ce = edges_pattern_on(cpu, edges, (int32_t)u, homg_mesh_num_nodes(m));
        ge = edges_pattern_on(gpu, edges, (int32_t)u, homg_mesh_num_nodes(m));
        print_message("pattern from the %d sorted edges: CPU and CUDA = the full sort\n", (int)u);
        assert_memory_equal(ce, c, (size_t)nc * 8);
        assert_memory_equal(ge, c, (size_t)nc * 8);
        free(edges);
        free(ce);
        free(ge);
    }
    free(c);
    homg_mesh_destroy(m);
}

/* The pattern's keys (kernels/fem/pattern.*: CUDA sorts the pairs a < b and
 * merges rows, the CPU sorts every pair) on random elements of 3, 4, 6 and 10
 * unknowns: distinct unknowns per element, and (odd rounds) repeated ones,
 * where CUDA falls back to the full sort; nodes in no element keep their
 * diagonal.  The same keys (the CPU's full sort is the definition), at least
 * one per unknown. */
static void gpu_pattern_matches_cpu(void **state)
{
    static const int nds[4] = { 3, 4, 6, 10 };
    homg_rng rng = homg_rng_seed(37);
    (void)state;
    for (int t = 0; t < (quick ? 4 : 16); t++) {
        int nd = nds[t % 4], repeat = (t / 4) % 2;
        int32_t n = 1 + (int32_t)(homg_rng_uniform(&rng) * (quick ? 200 : 30000)), nc = 0, ng = 0;
        int cf = 0, gf = 0;
        int32_t ne = n < nd ? 0 : (int32_t)(homg_rng_uniform(&rng) * 2 * n);
        int32_t *dofs = (int32_t *)malloc(((size_t)ne * nd + 1) * 4);
        uint64_t *c, *g;
        for (int32_t e = 0; e < ne; e++)
            for (int a = 0; a < nd; a++) {
                int32_t v;
                int again;
                do { /* distinct in the element unless repeat; local: nodes near e */
                    v = (int32_t)(((int64_t)e * n / (ne ? ne : 1) + (int32_t)(homg_rng_uniform(&rng) * 40)) % n);
                    again = 0;
                    for (int b = 0; b < a && !repeat; b++)
                        again |= dofs[(size_t)e * nd + b] == v;
                } while (again);
                dofs[(size_t)e * nd + a] = v;
            }
        c = pattern_on(cpu, nd, n, ne, dofs, &nc, &cf);
        g = pattern_on(gpu, nd, n, ne, dofs, &ng, &gf);
        print_message("pattern: nd %d, %d unknowns, %d elements%s: %d keys (first buffers enough: CPU %d, CUDA %d)\n",
                      nd, (int)n, (int)ne, repeat ? " (repeated unknowns)" : "", (int)nc, cf, gf);
        assert_int_equal(ng, nc);
        assert_memory_equal(g, c, (size_t)nc * 8);
        assert_true(nc >= n);
        free(c);
        free(g);
        free(dofs);
    }
    pattern_first_size_on_a_cube();
}

static void gpu_partition_matches_cpu(void **state)
{
    homg_rng rng = homg_rng_seed(23);
    (void)state;
    for (int t = 0; t < (quick ? 3 : 12); t++) {
        int dim = 2 + t % 2, nv = dim + 1;
        int32_t n = t == 0 ? 1 : 1 + (int32_t)(homg_rng_uniform(&rng) * (quick ? 300 : 40000));
        int32_t ne = (int32_t)(homg_rng_uniform(&rng) * 3 * n),
                patch_nnz = 16 + (int32_t)(homg_rng_uniform(&rng) * 600);
        int32_t *rp = (int32_t *)malloc(((size_t)n + 1) * 4), *el = (int32_t *)malloc(((size_t)ne * nv + 1) * 4);
        part_run c, g;
        rp[0] = 0;
        for (int32_t i = 0; i < n; i++) /* rows of 1 .. 40 entries, one now and then longer than patch_nnz */
            rp[i + 1] = rp[i] + 1 + (int32_t)(homg_rng_uniform(&rng) * (t == 5 ? 2 * patch_nnz : 40));
        for (size_t i = 0; i < (size_t)ne * nv; i++)
            el[i] = (int32_t)(homg_rng_uniform(&rng) * n);
        c = partition_on(cpu, dim, n, ne, el, rp, patch_nnz);
        g = partition_on(gpu, dim, n, ne, el, rp, patch_nnz);
        print_message("partition: n %d, elements %d, patch_nnz %d: %d patches, largest %d entries %d rows\n", (int)n,
                      (int)ne, (int)patch_nnz, (int)c.q.num_patches, (int)c.q.max_nnz, (int)c.q.max_nodes);
        assert_int_equal(g.q.num_patches, c.q.num_patches);
        assert_int_equal(g.q.max_nnz, c.q.max_nnz);
        assert_int_equal(g.q.max_nodes, c.q.max_nodes);
        assert_int_equal(g.q.max_row, c.q.max_row);
        assert_true(g.q.outside == c.q.outside);
        for (int i = 0; i < 9; i++) {
            size_t len[9] = { (size_t)c.q.num_patches + 1,
                              (size_t)n,
                              (size_t)n + c.q.num_patches,
                              (size_t)c.q.num_patches + 1,
                              (size_t)rp[n],
                              (size_t)n,
                              (size_t)n,
                              (size_t)c.q.num_patches + 1,
                              (size_t)ne };
            assert_memory_equal(g.a[i], c.a[i], len[i] * 4);
        }
        check_partition(&c, dim, n, ne, el, rp, patch_nnz);
        for (int i = 0; i < 9; i++) {
            free(c.a[i]);
            free(g.a[i]);
        }
        free(rp);
        free(el);
    }
}

/* The mask of one backend on the same random input; counts in c[2]. */
static uint8_t *mask_on(homg_ctx *ctx, int dim, int32_t n, int32_t ne, const int32_t *el, const int32_t *rp, int32_t nf,
                        const int32_t *fa, const int32_t *ft, const int32_t *mk, const int32_t *tags, int nt,
                        int32_t *c)
{
    void *d_rp = rp ? homg_test_up(ctx, rp, ((size_t)n + 1) * 4) : NULL;
    const fem_kernels *k = HOMG_KERNELS(&ctx->ex, fem);
    void *d_el = homg_test_up(ctx, el, (size_t)ne * (dim + 1) * 4), *d_fa = homg_test_up(ctx, fa, (size_t)nf * dim * 4);
    void *d_ft = homg_test_up(ctx, ft, (size_t)nf * 4), *d_mk = homg_test_up(ctx, mk, (size_t)n * 4);
    void *d_tags = homg_test_up(ctx, tags, (size_t)nt * 4), *d_mask = homg_test_up(ctx, NULL, (size_t)n + 1);
    void *d_c = homg_test_up(ctx, NULL, 8);
    uint8_t *h = (uint8_t *)malloc((size_t)n + 1);
    fem_problem p;
    memset(&p, 0, sizeof p);
    p.dim = dim;
    p.num_nodes = n;
    p.num_elements = ne;
    p.elements = (const int32_t *)d_el;
    if (k->mask(&ctx->ex, &p, (const int32_t *)d_rp, nf, (const int32_t *)d_fa, (const int32_t *)d_ft,
                (const int32_t *)d_mk, (const int32_t *)d_tags, nt, (uint8_t *)d_mask, (int32_t *)d_c) != HOMG_OK)
        fail_msg("mask: %s", homg_ctx_last_error(ctx));
    homg_test_down(ctx, h, d_mask, (size_t)n);
    homg_test_down(ctx, c, d_c, 8);
    homg_free(ctx, d_el);
    homg_free(ctx, d_fa);
    homg_free(ctx, d_ft);
    homg_free(ctx, d_mk);
    homg_free(ctx, d_tags);
    homg_free(ctx, d_mask);
    homg_free(ctx, d_c);
    if (d_rp)
        homg_free(ctx, d_rp);
    return h;
}

static int listed(const int32_t *tags, int nt, int32_t tag)
{
    for (int t = 0; t < nt; t++)
        if (tags[t] == tag)
            return 1;
    return 0;
}

static void gpu_mask_matches_cpu(void **state)
{
    homg_rng rng = homg_rng_seed(31);
    (void)state;
    for (int t = 0; t < (quick ? 3 : 10); t++) {
        int dim = 2 + t % 2, nv = dim + 1, nt = t % 4;
        int32_t n = 1 + (int32_t)(homg_rng_uniform(&rng) * (quick ? 500 : 50000)),
                ne = (int32_t)(n * homg_rng_uniform(&rng));
        int32_t nf = (int32_t)(n * homg_rng_uniform(&rng) / 4), c_cpu[2], c_gpu[2], ones = 0, masked = 0;
        int32_t *el = malloc(((size_t)ne * nv + 1) * 4), *fa = malloc(((size_t)nf * dim + 1) * 4);
        int32_t *ft = malloc(((size_t)nf + 1) * 4), *mk = malloc(((size_t)n + 1) * 4), tags[3] = { 1, 4, 7 };
        uint8_t *a, *b, *want = calloc((size_t)n + 1, 1), *first = calloc((size_t)n + 1, 1);
        int32_t *rp = calloc((size_t)n + 1, 4);
        int constant = 0;
        for (size_t i = 0; i < (size_t)ne * nv; i++) /* a third of the nodes or so in no element */
            el[i] = (int32_t)(homg_rng_uniform(&rng) * n);
        for (size_t i = 0; i < (size_t)nf * dim; i++)
            fa[i] = (int32_t)(homg_rng_uniform(&rng) * n);
        for (int32_t f = 0; f < nf; f++)
            ft[f] = (int32_t)(homg_rng_uniform(&rng) * 8);
        for (int32_t i = 0; i < n; i++)
            mk[i] = homg_rng_uniform(&rng) < 0.9 ? 0 : (int32_t)(homg_rng_uniform(&rng) * 8);
        for (int32_t e = 0; e < ne; e++) /* row lengths: 1 + the element slots of another node beside it */
            for (int i = 0; i < nv; i++)
                for (int j = 0; j < nv; j++)
                    rp[el[(size_t)e * nv + i] + 1] += el[(size_t)e * nv + j] != el[(size_t)e * nv + i];
        for (int32_t i = 0; i < n; i++)
            rp[i + 1] += rp[i] + 1;
        for (int32_t e = 0; e < ne; e++) { /* an element of one node repeated: in no row's pairs */
            int same = 1;
            for (int i = 1; i < nv; i++)
                same &= el[(size_t)e * nv + i] == el[(size_t)e * nv];
            constant |= same;
        }
        for (int rows = 0; rows < 2; rows++) {
            a = mask_on(cpu, dim, n, ne, el, rows ? rp : NULL, nf, fa, ft, mk, tags, nt, c_cpu);
            b = mask_on(gpu, dim, n, ne, el, rows ? rp : NULL, nf, fa, ft, mk, tags, nt, c_gpu);
            ones = masked = 0;
            /* the rule: 2 in no element (rows: a row of the diagonal alone), 0 in one, 1 where a listed tag touches */
            for (int32_t i = 0; i < n; i++)
                want[i] = rows ? (rp[i + 1] - rp[i] > 1 ? 0 : 2) : 2;
            for (size_t i = 0; i < (size_t)ne * nv && !rows; i++)
                want[el[i]] = 0;
            if (!rows)
                memcpy(first, want, (size_t)n);
            else if (!constant) /* the two rules agree where every element has two nodes or more */
                assert_memory_equal(want, first, (size_t)n);
            for (int32_t f = 0; f < nf; f++)
                for (int k = 0; k < dim && listed(tags, nt, ft[f]); k++)
                    want[fa[(size_t)f * dim + k]] = 1;
            for (int32_t i = 0; i < n; i++) {
                if (listed(tags, nt, mk[i]))
                    want[i] = 1;
                ones += want[i] == 1;
                masked += want[i] != 0;
            }
            print_message("mask%s: n %d, elements %d, facets %d, %d tags: %d Dirichlet, %d masked\n",
                          rows ? " from rows" : "", (int)n, (int)ne, (int)nf, nt, (int)ones, (int)masked);
            assert_memory_equal(a, want, (size_t)n);
            assert_memory_equal(b, want, (size_t)n);
            assert_int_equal(c_cpu[0], ones);
            assert_int_equal(c_cpu[1], masked);
            assert_int_equal(c_gpu[0], ones);
            assert_int_equal(c_gpu[1], masked);
            free(a);
            free(b);
        }
        free(want);
        free(first);
        free(rp);
        free(el);
        free(fa);
        free(ft);
        free(mk);
    }
}

/* The word runs' gather (kernels/fem/gather.*): random runs (lengths 0 to
 * 100000 words, adds with wrap-around, some in place) on both backends give
 * dst[i] = src[i] + add exactly. */
static uint32_t *gather_on(homg_ctx *ctx, const uint32_t *src, size_t total, const int64_t *at, const int64_t *n,
                           const uint32_t *add, const int *in_place, int runs)
{
    const fem_kernels *k = HOMG_KERNELS(&ctx->ex, fem);
    uint32_t *d_src = (uint32_t *)homg_test_up(ctx, src, total * 4),
             *d_dst = (uint32_t *)homg_test_up(ctx, src, total * 4);
    uint32_t *h = (uint32_t *)malloc(total * 4);
    fem_words_list list;
    list.count = runs;
    for (int r = 0; r < runs; r++) {
        list.run[r].src = (in_place[r] ? d_dst : d_src) + at[r];
        list.run[r].dst = d_dst + at[r];
        list.run[r].n = n[r];
        list.run[r].add = add[r];
    }
    if (k->gather_words(&ctx->ex, &list) != HOMG_OK)
        fail_msg("gather_words: %s", homg_ctx_last_error(ctx));
    homg_test_down(ctx, h, d_dst, total * 4);
    homg_free(ctx, d_src);
    homg_free(ctx, d_dst);
    return h;
}

static void gpu_gather_words_matches_cpu(void **state)
{
    homg_rng rng = homg_rng_seed(47);
    (void)state;
    for (int t = 0; t < (quick ? 2 : 6); t++) {
        int runs = 1 + (int)(homg_rng_uniform(&rng) * FEM_WORDS_MAX), in_place[FEM_WORDS_MAX];
        int64_t at[FEM_WORDS_MAX], n[FEM_WORDS_MAX];
        uint32_t add[FEM_WORDS_MAX], *src, *a, *b;
        size_t total = 1;
        for (int r = 0; r < runs; r++) { /* disjoint runs, back to back */
            at[r] = (int64_t)total;
            n[r] = r % 7 == 3 ? 0 : (int64_t)(homg_rng_uniform(&rng) * (quick ? 3000 : 100000));
            add[r] = r % 3 == 0 ? 0 : (uint32_t)(homg_rng_uniform(&rng) * 4294967295.0);
            in_place[r] = r % 2;
            total += (size_t)n[r];
        }
        src = (uint32_t *)malloc(total * 4);
        for (size_t i = 0; i < total; i++)
            src[i] = (uint32_t)(homg_rng_uniform(&rng) * 4294967295.0);
        a = gather_on(cpu, src, total, at, n, add, in_place, runs);
        b = gather_on(gpu, src, total, at, n, add, in_place, runs);
        for (int r = 0; r < runs; r++)
            for (int64_t i = 0; i < n[r]; i++)
                assert_int_equal(a[at[r] + i], (uint32_t)(src[at[r] + i] + add[r]));
        assert_memory_equal(a, b, total * 4);
        free(src);
        free(a);
        free(b);
    }
    printf("  gather_words: CUDA = CPU = src + add on random runs\n");
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gpu_matches_cpu_on_assets),
        cmocka_unit_test(gpu_matches_cpu_on_generated_meshes),
        cmocka_unit_test(gpu_p2_matches_cpu),
        cmocka_unit_test(gpu_errors_are_reported),
        cmocka_unit_test(gpu_lambda_elem_and_neumann_match_cpu),
        cmocka_unit_test(gpu_scan_names_the_same_entry_as_cpu),
        cmocka_unit_test(gpu_partition_matches_cpu),
        cmocka_unit_test(gpu_pattern_matches_cpu),
        cmocka_unit_test(gpu_refined_pattern_matches_cpu),
        cmocka_unit_test(gpu_refined_pattern_matches_definition),
        cmocka_unit_test(gpu_edge_pattern_matches_definition),
        cmocka_unit_test(gpu_mask_matches_cpu),
        cmocka_unit_test(gpu_gather_words_matches_cpu),
    };
    homg_test_require_gpu("test_fem_gpu");
    quick = argc > 1 && !strcmp(argv[1], "quick");
    return cmocka_run_group_tests(tests, homg_test_setup_pair, homg_test_teardown_pair);
}
