/* dispatch.c -- picking the command (or subcommand) argv[1] names. */
#include <string.h>

#include "tool.h"

int homg_tool_dispatch(const char *who, const char *kind, const homg_tool_command *cmds, size_t n,
                       void (*usage)(FILE *), int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (homg_tool_is_help(argv[1])) {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        if (!strcmp(argv[1], cmds[i].name))
            return cmds[i].run(argc - 1, argv + 1);
    fprintf(stderr, "%s: unknown %s '%s'\n\n", who, argv[1][0] == '-' ? "option" : kind, argv[1]);
    usage(stderr);
    return 2;
}

int homg_tool_is_help(const char *arg) { return !strcmp(arg, "--help") || !strcmp(arg, "-h"); }

int homg_tool_unknown_option(const char *who, const char *arg)
{
    fprintf(stderr, "%s: unknown option '%s' (%s --help lists them)\n", who, arg, who);
    return 2;
}
