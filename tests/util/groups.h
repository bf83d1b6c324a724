/* groups.h -- a test program's named groups of cmocka tests, one picked by the
 * program's first argument (a compute-sanitizer run takes a small group):
 *
 *   const homg_test_group groups[] = { HOMG_TEST_GROUP("all", tests, "every test"),
 *                                      HOMG_TEST_GROUP("quick", quick, "the kernel comparisons") };
 *   const homg_test_group *g = homg_test_group_pick(groups, 2, argc, argv);
 *   if (!g)
 *       return 2;
 *   return homg_test_run_group(g, setup, teardown);
 *
 * The header needs no cmocka; homg_test_run_group expands where cmocka.h is included. */
#ifndef HOMG_TEST_GROUPS_H
#define HOMG_TEST_GROUPS_H

#include <stddef.h>

struct CMUnitTest;

typedef struct homg_test_group {
    const char *name; /* the argument that picks it; the first group runs without one */
    const struct CMUnitTest *tests;
    size_t count;
    const char *what; /* one line for the usage */
} homg_test_group;

#define HOMG_TEST_GROUP(name, tests, what)                    \
    {                                                         \
        name, tests, sizeof(tests) / sizeof((tests)[0]), what \
    }

/* The group argv[1] names, or groups[0] when there is no argument; NULL (after the
 * usage, listing every group, on stderr) when no group has that name. */
const homg_test_group *homg_test_group_pick(const homg_test_group *groups, size_t n, int argc, char **argv);

#define homg_test_run_group(g, setup, teardown) \
    _cmocka_run_group_tests((g)->name, (g)->tests, (g)->count, setup, teardown)

#endif
