/* main.c -- the `homg` command line: dispatches to one subcommand per file. */
#include <stdio.h>
#include <string.h>

#include "homg.h"
#include "tool.h"

static const homg_tool_command commands[] = {
    { "solve", "seed 003's test problem on an N x N grid, step by step; the solution as a PNG", homg_cmd_solve },
    { "mtx", "Matrix Market tools: mtx solve A.mtx [b.mtx] (AMG-preconditioned CG)", homg_cmd_mtx },
    { "mesh", "mesh info, generate (cube, square), assemble (P1 FEM to Matrix Market)", homg_cmd_mesh },
    { "clone", "seamless cloning: --src S --dst D --mask M --at X,Y --out O", homg_cmd_clone },
    { "inpaint", "membrane inpainting: IMG --mask M --out O", homg_cmd_inpaint },
    { "smooth", "gradient-domain smoothing / sharpening: IMG --lambda L --out O", homg_cmd_smooth },
    { "integrate", "a height map from a normal map or gradient: NORMALS --out HEIGHT", homg_cmd_integrate },
    { "version", "print the version and the backend that would be used", homg_cmd_version },
};

static void usage(FILE *f)
{
    fprintf(f,
            "homg %s -- real-time Poisson solvers on the GPU\n\n"
            "usage: homg COMMAND [options]   (homg COMMAND --help for its options)\n\ncommands:\n",
            homg_version_string());
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (argc >= 2 && !strcmp(argv[1], "--version")) {
        printf("homg %s\n", homg_version_string());
        return 0;
    }
    return homg_tool_dispatch("homg", "command", commands, sizeof commands / sizeof commands[0], usage, argc, argv);
}
