/* test_tool_image.c -- the image commands of the `homg` tool (tools/image.c; the
 * tool of the same build, HOMG_TOOL_PATH from the Makefile): --help of each,
 * missing and bad options (status 2), unreadable files (status 1, the reason, no
 * output written), and, where the grid solves these problems, each command end
 * to end on the pictures in assets/image. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "homg.h"
#include "testutil.h"
#include "toolrun.h"

#ifndef HOMG_TOOL_PATH
#error "the Makefile passes HOMG_TOOL_PATH, the path of the built homg tool"
#endif

#define A "assets/image/"

static char dir[64];
static homg_tool_run r;

static int setup(void **state)
{
    (void)state;
    return homg_test_tool_setup("test_tool_image", HOMG_TOOL_PATH, dir, sizeof dir, "tool_image");
}

static int teardown(void **state)
{
    (void)state;
    return rmdir(dir);
}

static int homg(const char *fmt, const char *a, const char *b)
{
    char args[1024];
    snprintf(args, sizeof args, fmt, a, b);
    homg_test_tool(HOMG_TOOL_PATH, args, &r);
    return r.status;
}

/* Messages may go to stdout or stderr. */
static int said(const char *what) { return strstr(r.out, what) || strstr(r.err, what); }

static void has(const char *what)
{
    if (!said(what))
        fail_msg("the output does not mention '%s'", what);
}

static void help_and_bad_options(void **state)
{
    static const char *cmds[] = { "clone", "inpaint", "smooth", "integrate" };
    (void)state;
    for (int i = 0; i < 4; i++) {
        assert_int_equal(homg("%s --help%s", cmds[i], ""), 0);
        has("usage: homg ");
        has("--backend");
        has("--time");
    }
    assert_int_equal(homg("clone --src %s --out %s/o.png", A "src.png", dir), 2);
    has("--dst is required");
    assert_int_equal(homg("clone --src x --dst y --mask z --at 1,%s --out o.png", "q", ""), 2);
    has("expected X,Y");
    assert_int_equal(homg("clone --src x --dst y --mask z --at 1,2 --mode %s --out o.png", "blend", ""), 2);
    has("normal, mixed or mono");
    assert_int_equal(homg("smooth %s --lambda -1 --out %s/o.png", A "dst.png", dir), 2);
    has("a number > 0");
    assert_int_equal(homg("smooth %s --out %s/o.png", A "dst.png", dir), 2);
    has("--lambda L is required");
    assert_int_equal(homg("inpaint %s --mask %s", A "dst.png", A "mask.png"), 2);
    has("--out is required");
    assert_int_equal(homg("integrate %s --frobnicate 3 --out %s/h.hdr", A "dst.png", dir), 2);
    has("unknown option --frobnicate");
    assert_int_equal(homg("clone --src x --dst y --mask z --at 1,2 --out o.png --backend %s", "tpu", ""), 1);
    has("--backend must be cpu, cuda or auto");
}

static void unreadable_files(void **state)
{
    char o[128];
    struct stat sb;
    (void)state;
    snprintf(o, sizeof o, "%s/o.png", dir);
    assert_int_equal(
        homg("clone --src no-such.png --dst %s --mask m.png --at 0,0 --backend cpu --out %s", A "dst.png", o), 1);
    has("no-such.png: cannot open");
    assert_int_equal(homg("inpaint %s --mask %s --backend cpu --out /tmp/never.png",
                          "tests/fuzz/corpus/image/truncated.png", A "mask.png"),
                     1);
    has("truncated.png");
    assert_int_equal(homg("smooth %s --lambda 1 --backend cpu --out %s", "tests/fuzz/corpus/image/huge_65536.png", o),
                     1);
    has("65536 x 65536");
    assert_int_equal(stat(o, &sb), -1); /* nothing written */
}

/* End to end where the grid solves these problems (else skipped with its reason). */
static void commands_end_to_end(void **state)
{
    char o[128];
    struct stat sb;
    (void)state;
    snprintf(o, sizeof o, "%s/clone.png", dir);
    if (homg("clone --src %s --dst " A "dst.png --mask " A "mask.png --at 16,12 --time --backend cpu --out %s",
             A "src.png", o) != 0) {
        if (said("HOMG_ERROR_UNSUPPORTED") || said("only so far")) {
            printf("SKIP the image commands end to end: the grid does not solve them yet\n");
            skip();
        }
        fail_msg("homg clone failed");
    }
    has("unknowns per channel");
    assert_int_equal(stat(o, &sb), 0);
    assert_int_equal(remove(o), 0);
    assert_int_equal(homg("clone --src %s --dst " A "dst.png --mask " A "mask.png --at 80,62 --opencv --mode mixed "
                          "--backend cpu --out %s",
                          A "src.png", o),
                     0);
    assert_int_equal(remove(o), 0);
    assert_int_equal(homg("inpaint " A "src.png --mask %s --backend cpu --out %s", A "mask.png", o), 0);
    assert_int_equal(remove(o), 0);
    assert_int_equal(homg("smooth %s --lambda 0.5 --scale 2 --backend cpu --out %s", A "src.png", o), 0);
    has("unknowns per channel");
    if (said("residual -1") || said(" 1 cycles"))
        fail_msg("homg smooth reports what did not run: %s", r.out);
    assert_int_equal(remove(o), 0);
    snprintf(o, sizeof o, "%s/height.png", dir);
    assert_int_equal(homg("integrate %s --backend cpu --out %s", A "src.png", o), 0);
    has("mapped to 0 .. 65535");
    assert_int_equal(remove(o), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(help_and_bad_options),
        cmocka_unit_test(unreadable_files),
        cmocka_unit_test(commands_end_to_end),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
