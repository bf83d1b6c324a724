/* mtx.c -- `homg mtx SUBCOMMAND`: tools for Matrix Market matrices. */
#include <stdio.h>
#include <string.h>

#include "tool.h"

static const homg_tool_command subcommands[] = {
    { "solve", "A.mtx[.gz] [b.mtx[.gz]]: solve A x = b (b = ones) by AMG-preconditioned CG", homg_cmd_mtx_solve },
};

static void usage(FILE *f)
{
    fprintf(f, "usage: homg mtx SUBCOMMAND ...   (homg mtx SUBCOMMAND --help for its options)\n\nsubcommands:\n");
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        fprintf(f, "  %-6s %s\n", subcommands[i].name, subcommands[i].summary);
}

int homg_cmd_mtx(int argc, char **argv)
{
    return homg_tool_dispatch("homg mtx", "subcommand", subcommands, sizeof subcommands / sizeof subcommands[0], usage,
                              argc, argv);
}
