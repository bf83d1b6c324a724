/* test_tool_mtx.c -- `homg mtx solve` from the outside (the tool of the same build,
 * HOMG_TOOL_PATH): gzip-compressed files solve as the plain ones do, errors name
 * the file's line and its banner, and --help says how pattern files are read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "testutil.h"
#include "toolrun.h"

#ifndef HOMG_TOOL_PATH
#error "the Makefile passes HOMG_TOOL_PATH, the path of the built homg tool"
#endif

static homg_tool_run r;
static char dir[128];

static const char *path(const char *name) { return homg_test_path(dir, name); }

/* Runs the tool; a sanitizer report fails the test. */
#define run(...) assert_int_equal(homg_test_toolf(HOMG_TOOL_PATH, &r, __VA_ARGS__), 0)

/* Copies src into dst gzip-compressed. */
static void gzip_file(const char *src, const char *dst)
{
    FILE *in = fopen(src, "rb");
    gzFile out = gzopen(dst, "wb9");
    char buf[8192];
    size_t n;
    assert_non_null(in);
    assert_non_null(out);
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        assert_int_equal(gzwrite(out, buf, (unsigned)n), (int)n);
    fclose(in);
    assert_int_equal(gzclose(out), Z_OK);
}

/* The summary line's iteration count and residual as one string. */
static void summary(char *out, size_t len)
{
    const char *s = strstr(r.out, "iterations: ");
    const char *e = s ? strstr(s, ", setup") : NULL;
    assert_non_null(e);
    snprintf(out, len, "%.*s", (int)(e - s), s);
}

static void gzip_files_solve_as_plain_ones(void **state)
{
    char plain[128], gz[128];
    (void)state;
    run("mesh generate square --cells 8 --out %s", path("sq.msh"));
    assert_int_equal(r.status, 0);
    run("mesh assemble %s --dirichlet 1,2 --f 1 --out %s %s", path("sq.msh"), path("A.mtx"), path("b.mtx"));
    assert_int_equal(r.status, 0);
    gzip_file(path("A.mtx"), path("A.mtx.gz"));
    gzip_file(path("b.mtx"), path("b.mtx.gz"));
    run("mtx solve %s %s --backend cpu --quiet", path("A.mtx"), path("b.mtx"));
    assert_int_equal(r.status, 0);
    summary(plain, sizeof plain);
    run("mtx solve %s %s --backend cpu --quiet", path("A.mtx.gz"), path("b.mtx.gz"));
    assert_int_equal(r.status, 0);
    summary(gz, sizeof gz);
    assert_string_equal(gz, plain);
    remove(path("sq.msh"));
    remove(path("A.mtx"));
    remove(path("b.mtx"));
    remove(path("A.mtx.gz"));
    remove(path("b.mtx.gz"));
}

static void errors_name_line_and_banner(void **state)
{
    FILE *f;
    (void)state;
    f = fopen(path("p.mtx"), "w");
    assert_non_null(f);
    fprintf(f, "%%%%MatrixMarket matrix coordinate Pattern symmetric\n3 3 2\n1 1\n2 1 0.5\n");
    fclose(f);
    run("mtx solve %s --backend cpu", path("p.mtx"));
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "p.mtx:4: junk after the numbers: '0.5' (coordinate pattern symmetric: entries "
                                  "'row column', no value, lower triangle)"));
    remove(path("p.mtx"));
    run("mtx solve --help");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "pattern"));
    assert_non_null(strstr(r.out, "read as 1"));
    assert_non_null(strstr(r.out, ".mtx.gz"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gzip_files_solve_as_plain_ones),
        cmocka_unit_test(errors_name_line_and_banner),
    };
    int rc;
    if (homg_test_tool_setup("test_tool_mtx", HOMG_TOOL_PATH, dir, sizeof dir, "tool_mtx") != 0)
        return 1;
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    rmdir(dir);
    return rc;
}
