/* mtx.c -- `homg mtx SUBCOMMAND`: tools for Matrix Market matrices. */
#include <stdio.h>
#include <string.h>

#include "tool.h"

static const homg_tool_command subcommands[] = {
    { "solve", "A.mtx [b.mtx]: solve A x = b (b = ones) by AMG-preconditioned CG", homg_cmd_mtx_solve },
};

static void usage(FILE *f)
{
    fprintf(f, "usage: homg mtx SUBCOMMAND ...   (homg mtx SUBCOMMAND --help for its options)\n\nsubcommands:\n");
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        fprintf(f, "  %-6s %s\n", subcommands[i].name, subcommands[i].summary);
}

int homg_cmd_mtx(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        if (!strcmp(argv[1], subcommands[i].name))
            return subcommands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "homg mtx: unknown subcommand '%s'\n\n", argv[1]);
    usage(stderr);
    return 2;
}
