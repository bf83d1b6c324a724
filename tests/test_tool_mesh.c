/* test_tool_mesh.c -- `homg mesh info|generate|assemble` from the outside (the tool
 * of the same build, HOMG_TOOL_PATH): per-tag counts and measures against the
 * generated geometry, a mesh without boundary facets, and assembled systems whose
 * solutions (through `homg mtx solve`) are known exactly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "homg.h"
#include "testutil.h"
#include "toolrun.h"

#ifndef HOMG_TOOL_PATH
#error "the Makefile passes HOMG_TOOL_PATH, the path of the built homg tool"
#endif

static homg_tool_run r;
static char dir[128];
static homg_ctx *ctx;

static const char *path(const char *name) { return homg_test_path(dir, name); }

/* Runs the tool; a sanitizer report fails the test. */
#define run(...) assert_int_equal(homg_test_toolf(HOMG_TOOL_PATH, &r, __VA_ARGS__), 0)

static void has(const char *what)
{
    if (!strstr(r.out, what))
        fail_msg("the output does not hold '%s'", what);
}

static void info_lists_tags_with_measures(void **state)
{
    (void)state;
    run("mesh generate square --cells 4 --size 2 --out %s", path("sq.msh"));
    assert_int_equal(r.status, 0);
    run("mesh info %s", path("sq.msh"));
    assert_int_equal(r.status, 0);
    has("tag 1: 32 elements, area 4\n");
    for (int t = 1; t <= 4; t++) {
        char line[64];
        snprintf(line, sizeof line, "tag %d: 4 facets, length 2\n", t);
        has(line);
    }
    run("mesh generate cube --cells 2 --size 3 --out %s", path("cube.msh"));
    assert_int_equal(r.status, 0);
    run("mesh info %s", path("cube.msh"));
    assert_int_equal(r.status, 0);
    has("tag 1: 48 elements, volume 27\n");
    has("tag 6: 8 facets, area 9\n");
    remove(path("sq.msh"));
    remove(path("cube.msh"));
}

/* Triangle files with no .edge beside them: a mesh with no boundary facets. */
static void info_without_boundary_facets(void **state)
{
    FILE *f;
    (void)state;
    f = fopen(path("tri.node"), "w");
    assert_non_null(f);
    fprintf(f, "3 2 0 0\n1 0 0\n2 1 0\n3 0 1\n");
    fclose(f);
    f = fopen(path("tri.ele"), "w");
    assert_non_null(f);
    fprintf(f, "1 3 1\n1 1 2 3 7\n");
    fclose(f);
    run("mesh info %s", path("tri.node"));
    assert_int_equal(r.status, 0);
    has("facets        0\n");
    has("facet tags (none)\n");
    has("tag 7: 1 elements, area 0.5\n");
    run("mesh assemble %s --f 1 --out %s %s", path("tri.node"), path("A.mtx"), path("b.mtx"));
    assert_int_equal(r.status, 0);
    run("mesh assemble %s --neumann 1=2 --dirichlet 1=1 --out %s %s", path("tri.node"), path("A.mtx"), path("b.mtx"));
    assert_int_equal(r.status, 0);
    remove(path("tri.node"));
    remove(path("tri.ele"));
    remove(path("A.mtx"));
    remove(path("b.mtx"));
}

/* Assembles sq.msh with `opts`, solves it with `homg mtx solve`, and returns the
 * largest difference between the solution and want(x, y) at the nodes. */
static double solve_error(const char *opts, double (*want)(double x, double y))
{
    homg_mesh *m = NULL;
    double *x = NULL, err = 0;
    int32_t n = 0;
    run("mesh assemble %s %s --out %s %s", path("sq.msh"), opts, path("A.mtx"), path("b.mtx"));
    assert_int_equal(r.status, 0);
    run("mtx solve %s %s --tol 1e-12 --quiet --x %s", path("A.mtx"), path("b.mtx"), path("x.mtx"));
    assert_int_equal(r.status, 0);
    assert_int_equal(homg_mesh_read(ctx, path("sq.msh"), &m), HOMG_OK);
    assert_int_equal(homg_mtx_read_vector(ctx, path("x.mtx"), &x, &n), HOMG_OK);
    assert_int_equal(n, homg_mesh_num_nodes(m));
    for (int32_t i = 0; i < n; i++) {
        const double *p = homg_mesh_coords(m) + 2 * i;
        double d = fabs(x[i] - want(p[0], p[1]));
        err = d > err ? d : err;
    }
    free(x);
    homg_mesh_destroy(m);
    return err;
}

static double u_x(double x, double y) { return (void)y, x; }
static double u_half_x(double x, double y) { return (void)y, 1.5 * x; }
static double u_y_plus_1(double x, double y) { return (void)x, 1 + y; }
static double u_one(double x, double y) { return (void)x, (void)y, 1; }

static void assemble_takes_values_per_tag(void **state)
{
    double e;
    (void)state;
    run("mesh generate square --cells 6 --out %s", path("sq.msh"));
    assert_int_equal(r.status, 0);
    /* u = 0 on x = 0 (tag 1), u = 1 on x = 1 (tag 2), zero flux on y = 0, 1: u = x */
    e = solve_error("--dirichlet 1=0 --dirichlet 2=1", u_x);
    print_message("Dirichlet per tag: max error %.2e\n", e);
    assert_true(e < 1e-9);
    /* sigma 2 (by tag), flux 3 out of x = 1: u = 1.5 x */
    e = solve_error("--tag-sigma 1=2 --dirichlet 1=0 --neumann 2=3", u_half_x);
    print_message("Neumann per tag: max error %.2e\n", e);
    assert_true(e < 1e-9);
    /* u = 1 on y = 0 (tag 3), flux 1 out of y = 1 (tag 4), a zero-lambda tag: u = 1 + y */
    e = solve_error("--dirichlet 3=1 --neumann 4=1 --tag-lambda 1=0 --lambda 5", u_y_plus_1);
    print_message("Dirichlet value and Neumann on y: max error %.2e\n", e);
    assert_true(e < 1e-9);
    /* the old form: a list of tags sharing --g */
    e = solve_error("--dirichlet 3,4 --g 1", u_one); /* u = 1 on y = 0 and y = 1: u = 1 */
    assert_true(e < 1e-9);
    run("mesh assemble %s --tag-sigma 1=-1 --out %s %s", path("sq.msh"), path("A.mtx"), path("b.mtx"));
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "coeffs.sigma_elem[0] = -1"));
    remove(path("sq.msh"));
    remove(path("A.mtx"));
    remove(path("b.mtx"));
    remove(path("x.mtx"));
}

/* `mesh solve` with P1 and P2: a quadratic-element file solves with P2 by default
 * (its row count is the P2 unknowns'), and GMG-PCG converges. */
static void solve_p1_and_p2(void **state)
{
    (void)state;
    run("mesh info tests/data/small2d_p2_41_bin.msh");
    has("read from quadratic elements");
    run("mesh solve tests/data/small2d_p2_41_bin.msh --dirichlet 1,2 --gmg-levels 1 --backend cpu");
    has("GMG-PCG:");
    has("3 levels"); /* the file's mesh, refined once (the P2 mesh), and once more (the P2 unknowns) */
    run("mesh solve square:4 --gmg-levels 2 --order 1 --backend cpu");
    has("3 levels");
    has("GMG-PCG:");
    run("mesh solve square:4 --gmg-levels 2 --order 2 --backend cpu");
    has("4 levels");
    has("1089"); /* P2 on the 16 x 16 square: 33^2 unknowns */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(info_lists_tags_with_measures),
        cmocka_unit_test(solve_p1_and_p2),
        cmocka_unit_test(info_without_boundary_facets),
        cmocka_unit_test(assemble_takes_values_per_tag),
    };
    int rc;
    if (homg_test_tool_setup("test_tool_mesh", HOMG_TOOL_PATH, dir, sizeof dir, "tool_mesh") != 0)
        return 1;
    ctx = homg_test_ctx(HOMG_BACKEND_CPU);
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    homg_ctx_destroy(ctx);
    rmdir(dir);
    return rc;
}
