/* test_groups.c -- the group picker of the test programs (tests/util/groups.c): no
 * argument picks the first group, a name picks its group whatever its place, later
 * arguments are left to the program, and an unknown name (or a prefix of one) picks
 * nothing, so a mistyped group fails instead of running every test.  Also runs a
 * picked group through homg_test_run_group. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>

#include "groups.h"

static int runs;

static void counted(void **state)
{
    (void)state;
    runs++;
}

static const struct CMUnitTest one[] = { cmocka_unit_test(counted) };
static const struct CMUnitTest three[] = { cmocka_unit_test(counted), cmocka_unit_test(counted),
                                           cmocka_unit_test(counted) };
static const homg_test_group groups[] = {
    HOMG_TEST_GROUP("all", three, "every test"),
    HOMG_TEST_GROUP("quick", one, "one test"),
    HOMG_TEST_GROUP("quicker", one, "a name another one begins with"),
};
#define NUM_GROUPS (sizeof groups / sizeof groups[0])

static const homg_test_group *pick(int argc, const char *a1, const char *a2)
{
    char *argv[] = { (char *)"test_x", (char *)a1, (char *)a2, NULL };
    return homg_test_group_pick(groups, NUM_GROUPS, argc, argv);
}

static void no_argument_picks_the_first(void **state)
{
    (void)state;
    assert_ptr_equal(pick(1, NULL, NULL), &groups[0]);
    assert_int_equal(groups[0].count, 3);
}

static void a_name_picks_its_group(void **state)
{
    (void)state;
    assert_ptr_equal(pick(2, "all", NULL), &groups[0]);
    assert_ptr_equal(pick(2, "quick", NULL), &groups[1]);
    assert_ptr_equal(pick(2, "quicker", NULL), &groups[2]);
    assert_ptr_equal(pick(3, "quicker", "more"), &groups[2]); /* the rest is the program's */
}

static void an_unknown_name_picks_nothing(void **state)
{
    (void)state;
    assert_null(pick(2, "nosuch", NULL));
    assert_null(pick(2, "qui", NULL));
    assert_null(pick(2, "", NULL));
    assert_null(pick(2, "QUICK", NULL));
}

static void the_picked_group_runs(void **state)
{
    (void)state;
    runs = 0;
    assert_int_equal(homg_test_run_group(&groups[0], NULL, NULL), 0);
    assert_int_equal(runs, 3);
    runs = 0;
    assert_int_equal(homg_test_run_group(pick(2, "quick", NULL), NULL, NULL), 0);
    assert_int_equal(runs, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(no_argument_picks_the_first),
        cmocka_unit_test(a_name_picks_its_group),
        cmocka_unit_test(an_unknown_name_picks_nothing),
        cmocka_unit_test(the_picked_group_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
