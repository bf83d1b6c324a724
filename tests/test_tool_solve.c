/* test_tool_solve.c -- `homg solve` from the outside: runs the built tool (its path,
 * relative to the repository root, comes from the Makefile as HOMG_TOOL_PATH) and
 * checks exit statuses, messages, the printed error and the picture it writes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stb/stb_image.h>

#ifndef HOMG_TOOL_PATH
#error "the Makefile passes HOMG_TOOL_PATH, the path of the built homg tool"
#endif

static char dir[64];
static char out[1 << 16]; /* what the last run printed, stdout and stderr together */

static int setup(void **state)
{
    (void)state;
    if (access(HOMG_TOOL_PATH, X_OK) != 0) {
        fprintf(stderr, "test_tool_solve: %s is not there: build it and run this from the repository root\n",
                HOMG_TOOL_PATH);
        return -1;
    }
    strcpy(dir, "/tmp/homg_test_tool_XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return rmdir(dir);
}

static const char *tmp_path(const char *name)
{
    static char p[128];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

static int exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* Runs `homg ARGS` (a shell command line) and returns its exit status; the output is in `out`. */
static int homg(const char *args)
{
    char cmd[1024];
    size_t n = 0, got;
    FILE *p;
    int status;
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", HOMG_TOOL_PATH, args);
    p = popen(cmd, "r");
    assert_non_null(p);
    while ((got = fread(out + n, 1, sizeof out - 1 - n, p)) > 0)
        n += got;
    out[n] = 0;
    while (fgetc(p) != EOF) /* drain anything beyond the buffer */
        ;
    status = pclose(p);
    printf("$ homg %s -> %d\n%s", args, WIFEXITED(status) ? WEXITSTATUS(status) : -1, out);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

static void assert_output_has(const char *what)
{
    if (!strstr(out, what)) {
        print_error("the output does not mention '%s'\n", what);
        fail();
    }
}

static int count_lines(void)
{
    int n = 0;
    for (const char *c = out; *c; c++)
        n += *c == '\n';
    return n;
}

static void size_must_be_valid(void **state)
{
    const char *bad[] = { "0", "abc", "-64", "1024x", "1e3", "''", "10x0", "4x4x4x4" };
    char args[256];
    (void)state;
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        snprintf(args, sizeof args, "solve --size %s --png %s", bad[k], tmp_path("never.png"));
        assert_int_not_equal(homg(args), 0);
        assert_output_has("--size");
        assert_output_has("WxH");
        assert_false(exists(tmp_path("never.png")));
    }
}

/* Pixel (x, row) of an RGB image of width w is within 2 of rgb in every channel. */
static int near(const unsigned char *img, int w, int x, int row, const unsigned char rgb[3])
{
    const unsigned char *p = img + 3 * ((size_t)row * w + x);
    for (int c = 0; c < 3; c++)
        if (abs((int)p[c] - (int)rgb[c]) > 2)
            return 0;
    return 1;
}

/* 64^2 converges to the default tolerance, the L1 error is at the discretisation
 * level (9.93e-4 at 64^2, O(h^2)), and the picture is upright: u's minimum lies at
 * x = y = 1/sqrt(2), cell (45, 45), so in the upper right (image row 63 - 45). */
static void converges_and_writes_the_picture(void **state)
{
    const unsigned char low[3] = { 68, 1, 84 }, high[3] = { 253, 231, 37 };
    const char *png = tmp_path("solution.png"), *summary;
    char args[256];
    double l1 = -1;
    int w = 0, h = 0, comp = 0;
    unsigned char *img;
    (void)state;
    snprintf(args, sizeof args, "solve --size 64 --cycles 20 --png %s", png);
    assert_int_equal(homg(args), 0);
    assert_output_has("backend: ");
    summary = strstr(out, "summary: ");
    assert_non_null(summary);
    assert_non_null(strstr(summary, "L1 error "));
    assert_int_equal(sscanf(strstr(summary, "L1 error ") + 9, "%lf", &l1), 1);
    assert_true(l1 > 0 && l1 < 1e-3);
    img = stbi_load(png, &w, &h, &comp, 3);
    assert_non_null(img);
    assert_int_equal(w, 64);
    assert_int_equal(h, 64);
    assert_true(near(img, 64, 45, 63 - 45, low));
    assert_false(near(img, 64, 45, 45, low));
    assert_true(near(img, 64, 0, 0, high) && near(img, 64, 63, 63, high));
    stbi_image_free(img);
    assert_int_equal(remove(png), 0);
}

/* --tol 0 runs exactly --cycles steps; --png none writes nothing; --quiet keeps the summary. */
static void fixed_cycles_quiet_and_no_picture(void **state)
{
    (void)state;
    assert_int_equal(homg("solve --size 16 --tol 0 --cycles 3 --png none --method vcycle"), 0);
    assert_output_has("method vcycle");
    assert_output_has("summary: 3 cycles");
    assert_false(exists("none"));
    assert_int_equal(homg("solve --size 16 --tol 0 --cycles 2 --png none --quiet --method homg --maxi 8 "
                          "--precision float --backend cpu"),
                     0);
    assert_int_equal(count_lines(), 1);
    assert_output_has("summary: 2 cycles");
    assert_output_has("method homg, float32, backend cpu");
}

/* float32 cannot reach 1e-6 at 64^2: exit status 1 and a hint. */
static void not_converged_exits_1(void **state)
{
    (void)state;
    assert_int_equal(homg("solve --size 64 --precision float32 --cycles 3 --png none"), 1);
    assert_output_has("not converged");
    assert_output_has("--precision float64");
}

static void help_lists_every_option(void **state)
{
    const char *options[] = { "--size",   "--method",    "--maxi",        "--tol",
                              "--cycles", "--precision", "--backend",     "--png",
                              "--3d",     "--bc",        "--obstacles",   "--sigma-jump",
                              "--lambda", "--quiet",     "--help",        "default|fft|fmg|vcycle|fcycle|homg",
                              "float32",  "float64",     "auto|cpu|cuda", "seed 003" };
    (void)state;
    assert_int_equal(homg("solve --help"), 0);
    for (size_t k = 0; k < sizeof options / sizeof options[0]; k++)
        assert_output_has(options[k]);
    assert_int_equal(homg("--help"), 0);
    assert_output_has("solve");
}

/* The general problem: any size, 3D, side kinds, obstacles, a sigma jump, lambda, FFT. */
static void general_problems(void **state)
{
    (void)state;
    assert_int_equal(homg("solve --size 40x30 --bc neumann --obstacles 0.2 --backend cpu --png none"), 0);
    assert_output_has("summary: ");
    assert_output_has("method vcycle");
    assert_int_equal(homg("solve --3d --size 12 --bc periodic,periodic,neumann,neumann,dirichlet,dirichlet "
                          "--sigma-jump 100 --lambda 2 --backend cpu --png none"),
                     0);
    assert_output_has("12 x 12 x 12 cells");
    assert_int_equal(homg("solve --size 30x20 --bc periodic --method fft --backend cpu --png none"), 0);
    assert_output_has("method fft");
    assert_int_not_equal(homg("solve --bc periodic,dirichlet,neumann,neumann --png none"), 0);
    assert_output_has("--bc");
}

static void bad_options_exit_2(void **state)
{
    const char *cases[][2] = {
        { "solve --frobnicate 3", "--frobnicate" },
        { "solve --size", "--size" },
        { "solve --method best", "--method" },
        { "solve --maxi 0", "--maxi" },
        { "solve --tol -1", "--tol" },
        { "solve --tol nan", "--tol" },
        { "solve --cycles 0", "--cycles" },
        { "solve --precision half", "--precision" },
        { "solve --backend opencl", "--backend" },
        { "solve stray", "stray" },
    };
    (void)state;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        assert_int_equal(homg(cases[k][0]), 2);
        assert_output_has(cases[k][1]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(size_must_be_valid),
        cmocka_unit_test(converges_and_writes_the_picture),
        cmocka_unit_test(fixed_cycles_quiet_and_no_picture),
        cmocka_unit_test(not_converged_exits_1),
        cmocka_unit_test(help_lists_every_option),
        cmocka_unit_test(bad_options_exit_2),
        cmocka_unit_test(general_problems),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
