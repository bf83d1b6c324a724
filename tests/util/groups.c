/* groups.c -- see groups.h. */
#include "groups.h"

#include <stdio.h>
#include <string.h>

const homg_test_group *homg_test_group_pick(const homg_test_group *groups, size_t n, int argc, char **argv)
{
    const char *program = argc > 0 ? argv[0] : "test";
    if (argc < 2)
        return n ? &groups[0] : NULL;
    for (size_t k = 0; k < n; k++)
        if (!strcmp(argv[1], groups[k].name))
            return &groups[k];
    fprintf(stderr, "%s: no test group '%s'\nusage: %s [GROUP], GROUP one of (the first without one):\n", program,
            argv[1], program);
    for (size_t k = 0; k < n; k++)
        fprintf(stderr, "  %-10s %s\n", groups[k].name, groups[k].what);
    return NULL;
}
