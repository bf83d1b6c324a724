/* test_tool_cli.c -- every command and subcommand of the `homg` tool answers
 * --help and -h with its usage on stdout and exit status 0, and an unknown
 * option with a message on stderr that names it and exit status 2 (the tool of
 * the same build: HOMG_TOOL_PATH from the Makefile). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "toolrun.h"

#ifndef HOMG_TOOL_PATH
#error "the Makefile passes HOMG_TOOL_PATH, the path of the built homg tool"
#endif

static homg_tool_run r;

/* Every command line that selects a command: "" is the tool itself. */
static const char *const commands[] = {
    "", "solve", "version", "mtx", "mtx solve", "mesh", "mesh info", "mesh generate", "mesh assemble",
};
#define NUM_COMMANDS (sizeof commands / sizeof commands[0])

static void no_sanitizer_report(void) { assert_true(homg_tool_run_clean(&r)); }

static void help_is_usage_on_stdout(void **state)
{
    static const char *const flags[] = { "--help", "-h" };
    char args[128];
    (void)state;
    for (size_t c = 0; c < NUM_COMMANDS; c++)
        for (int f = 0; f < 2; f++) {
            snprintf(args, sizeof args, "%s %s", commands[c], flags[f]);
            homg_test_tool(HOMG_TOOL_PATH, args, &r);
            assert_int_equal(r.status, 0);
            if (!strstr(r.out, "usage: homg"))
                fail_msg("'homg %s': no usage on stdout", args);
            if (c > 0 && !strstr(r.out, commands[c]))
                fail_msg("'homg %s': the usage does not name '%s'", args, commands[c]);
            assert_string_equal(r.err, "");
        }
}

/* Help after other arguments counts too: `homg mesh info FILE --help` is not a second file. */
static void help_anywhere_wins(void **state)
{
    static const char *const lines[] = { "mesh info some.msh --help", "mesh assemble some.msh --sigma 2 -h",
                                         "mtx solve A.mtx --tol 1e-3 --help", "solve --size 64 --help",
                                         "mesh generate cube --cells 2 --help" };
    (void)state;
    for (size_t k = 0; k < sizeof lines / sizeof lines[0]; k++) {
        homg_test_tool(HOMG_TOOL_PATH, lines[k], &r);
        assert_int_equal(r.status, 0);
        assert_non_null(strstr(r.out, "usage: homg"));
    }
}

static void unknown_option_is_named_with_status_2(void **state)
{
    static const char *const bogus[] = { "--bogus-option", "-z" };
    char args[128];
    (void)state;
    for (size_t c = 0; c < NUM_COMMANDS; c++)
        for (int b = 0; b < 2; b++) {
            snprintf(args, sizeof args, "%s %s", commands[c], bogus[b]);
            homg_test_tool(HOMG_TOOL_PATH, args, &r);
            assert_int_equal(r.status, 2);
            if (!strstr(r.err, bogus[b]) || !strstr(r.err, "unknown"))
                fail_msg("'homg %s': stderr does not name the unknown option", args);
            assert_string_equal(r.out, "");
            no_sanitizer_report();
        }
}

/* Unknown command and subcommand names, missing values, missing arguments: status 2 with a message. */
static void other_usage_errors_are_status_2(void **state)
{
    static const char *const lines[] = { "frobnicate",
                                         "mtx frobnicate",
                                         "mesh frobnicate",
                                         "mesh info",
                                         "mesh info a.msh b.msh",
                                         "mesh generate",
                                         "mesh generate cube",
                                         "mesh generate cube --cells",
                                         "mesh assemble",
                                         "mesh assemble a.msh --out A.mtx",
                                         "mesh assemble a.msh --dirichlet 1=x --out A.mtx b.mtx",
                                         "mesh assemble a.msh --neumann 2 --out A.mtx b.mtx",
                                         "mesh assemble a.msh --sigma --out A.mtx b.mtx",
                                         "mtx solve",
                                         "mtx solve A.mtx --tol",
                                         "mtx solve A.mtx --smoother none",
                                         "version extra",
                                         "solve --size" };
    (void)state;
    for (size_t k = 0; k < sizeof lines / sizeof lines[0]; k++) {
        homg_test_tool(HOMG_TOOL_PATH, lines[k], &r);
        assert_int_equal(r.status, 2);
        assert_true(strlen(r.err) > 0);
        no_sanitizer_report();
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(help_is_usage_on_stdout),
        cmocka_unit_test(help_anywhere_wins),
        cmocka_unit_test(unknown_option_is_named_with_status_2),
        cmocka_unit_test(other_usage_errors_are_status_2),
    };
    if (access(HOMG_TOOL_PATH, X_OK) != 0) {
        fprintf(stderr, "test_tool_cli: %s is not there: build it and run this from the repository root\n",
                HOMG_TOOL_PATH);
        return 1;
    }
    return cmocka_run_group_tests(tests, NULL, NULL);
}
