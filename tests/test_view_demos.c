/* test_view_demos.c -- every demo run headless on the CPU backend for its fixed
 * script, the picture it writes compared with tests/ref/<demo>.png: a pixel is
 * an outlier when a channel differs by more than TOL, and at most MAX_OUTLIERS
 * of the pixels may be.  Run twice: through EGL, and through a hidden GLFW
 * window under Xvfb (xvfb-run) where that is installed.  On failure the diff
 * image (outliers red over the grey picture) is written beside the run's PNG
 * and named.  A picture that is (nearly) one colour fails whatever the reference
 * says.  HOMG_UPDATE_REFS=1 copies the new pictures over the references. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stb/stb_image.h>
#include <stb/stb_image_write.h>

#include "testutil.h"

#ifdef HOMG_DEMO_DIR /* the Makefile passes it where it builds the demos */

#define TOL          8
#define MAX_OUTLIERS 0.005

static char dir[128];

typedef struct demo_case {
    const char *name, *args;
} demo_case;

static const demo_case cases[] = {
    { "heat", "--size 128 --frames 40 --width 256 --height 256" },
    { "mesh", "--size 1 --frames 16 --width 400 --height 216" },
    { "smoke", "--size 128 --frames 90 --width 256 --height 256" },
    { "clone", "--size 96 --frames 24 --width 256 --height 256" },
};

/* The build's demo folder; HOMG_DEMO_DIR overrides it where the binaries were moved (the
 * GPU machine runs them from .devbuild/demo: with build/demo compiled in, this test skipped
 * there after test_view's PASSED line, which the run script took for its own). */
static const char *demo_dir(void)
{
    const char *env = getenv("HOMG_DEMO_DIR");
    return env && *env ? env : HOMG_DEMO_DIR;
}

static int setup(void **state)
{
    char path[256];
    (void)state;
    snprintf(path, sizeof path, "%s/heat", demo_dir());
    if (access(path, X_OK) != 0) {
        printf("SKIP test_view_demos: %s is not built\n", path);
        exit(HOMG_TEST_SKIP);
    }
    return homg_test_mkdtemp(dir, sizeof dir, "demos");
}

static int run(const char *prefix, const demo_case *c, const char *png, const char *extra)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s%s/%s --backend cpu --deterministic %s %s --png %s", prefix, demo_dir(), c->name,
             c->args, extra, png);
    printf("$ %s\n", cmd);
    fflush(stdout);
    return system(cmd);
}

/* Spread of the luminance and the number of distinct colours (up to 1000). */
static void variety(const unsigned char *px, int n, double *sd, int *colours)
{
    static unsigned seen[1000];
    double s = 0, s2 = 0;
    *colours = 0;
    for (int k = 0; k < n; k++) {
        const unsigned char *p = px + 3 * k;
        unsigned c = p[0] | p[1] << 8 | (unsigned)p[2] << 16;
        double l = 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
        int known = 0;
        s += l;
        s2 += l * l;
        for (int j = 0; j < *colours && !known; j++)
            known = seen[j] == c;
        if (!known && *colours < 1000)
            seen[(*colours)++] = c;
    }
    *sd = sqrt(fmax(0, s2 / n - (s / n) * (s / n)));
}

static int failed; /* keep the pictures of a failed run */

static void compare(const char *png, const char *ref, int update)
{
    int w, h, c, rw, rh, rc, outliers = 0, colours;
    double sd;
    unsigned char *got = stbi_load(png, &w, &h, &c, 3), *want;
    failed = 1;
    assert_non_null(got);
    variety(got, w * h, &sd, &colours);
    printf("  %s: %d x %d, luminance spread %.1f, %d%s colours\n", png, w, h, sd, colours, colours >= 1000 ? "+" : "");
    if (sd < 10 || colours < 50) {
        print_error("%s is (nearly) one colour: not a picture of the demo\n", png);
        fail();
    }
    if (update && getenv("HOMG_UPDATE_REFS")) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "cp %s %s", png, ref);
        assert_int_equal(system(cmd), 0);
        printf("  updated %s\n", ref);
    }
    want = stbi_load(ref, &rw, &rh, &rc, 3);
    if (!want) {
        print_error("no reference %s (HOMG_UPDATE_REFS=1 makes it from %s)\n", ref, png);
        fail();
    }
    assert_int_equal(rw, w);
    assert_int_equal(rh, h);
    {
        unsigned char *diff = malloc((size_t)w * h * 3);
        for (int k = 0; k < w * h; k++) {
            int worst = 0;
            for (int ch = 0; ch < 3; ch++)
                worst =
                    abs(got[3 * k + ch] - want[3 * k + ch]) > worst ? abs(got[3 * k + ch] - want[3 * k + ch]) : worst;
            outliers += worst > TOL;
            for (int ch = 0; ch < 3; ch++)
                diff[3 * k + ch] = worst > TOL ? (ch == 0 ? 255 : 0) : (unsigned char)(want[3 * k + 1] / 3);
        }
        printf("  against %s: %d outliers of %d pixels (%.3f%%, allowed %.1f%%)\n", ref, outliers, w * h,
               100.0 * outliers / (w * h), 100 * MAX_OUTLIERS);
        if (outliers > MAX_OUTLIERS * w * h) {
            char dpath[256];
            snprintf(dpath, sizeof dpath, "%.*s-diff.png", (int)strlen(png) - 4, png);
            stbi_write_png(dpath, w, h, 3, diff, 3 * w);
            print_error("%s differs from %s: %d outliers; diff image: %s\n", png, ref, outliers, dpath);
            free(diff);
            fail();
        }
        free(diff);
    }
    stbi_image_free(got);
    stbi_image_free(want);
    failed = 0;
}

/* Every demo through one way of making the context: its picture against the reference. */
static void every_demo(const char *prefix, const char *extra, const char *suffix, int update)
{
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char png[256], ref[128];
        snprintf(png, sizeof png, "%s/%s%s.png", dir, cases[k].name, suffix);
        snprintf(ref, sizeof ref, "tests/ref/%s.png", cases[k].name);
        assert_int_equal(run(prefix, &cases[k], png, extra), 0);
        compare(png, ref, update);
    }
}

static void demo_through_egl(void **state)
{
    (void)state;
    every_demo("", "", "", 1);
}

static void demo_through_glfw_under_xvfb(void **state)
{
    (void)state;
    if (system("command -v xvfb-run >/dev/null 2>&1") != 0) {
        printf("  (xvfb-run is not installed: skipped)\n");
        skip();
    }
    every_demo("xvfb-run -a -s '-screen 0 640x480x24' ", "--glfw", "-glfw", 0);
}

static int teardown(void **state)
{
    char cmd[160];
    (void)state;
    if (failed) {
        printf("the pictures are kept in %s\n", dir);
        return 0;
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(demo_through_egl),
        cmocka_unit_test(demo_through_glfw_under_xvfb),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
#else
int main(void)
{
    printf("SKIP test_view_demos: the demos are not built (no OpenGL, GLFW, GLEW or EGL headers)\n");
    return HOMG_TEST_SKIP;
}
#endif
