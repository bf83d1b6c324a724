/* tool.h -- what the subcommands of the `homg` tool share. */
#ifndef HOMG_TOOL_H
#define HOMG_TOOL_H

#include <stddef.h>
#include <stdio.h>

#include "homg.h"

typedef struct homg_tool_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
} homg_tool_command;

int homg_cmd_solve(int argc, char **argv);
int homg_cmd_version(int argc, char **argv);
int homg_cmd_mtx(int argc, char **argv);
int homg_cmd_mtx_solve(int argc, char **argv);
int homg_cmd_mesh(int argc, char **argv);
/* `homg mesh assemble` (tools/mesh_assemble.c); argv[0] is the mesh file. */
int homg_tool_mesh_assemble(int argc, char **argv);

/* Runs the command of `cmds` that argv[1] names with argv + 1; --help and -h
 * print `usage` to stdout; no or an unknown name print it to stderr (status 2),
 * an unknown one after "<who>: unknown <kind> 'NAME'". */
int homg_tool_dispatch(const char *who, const char *kind, const homg_tool_command *cmds, size_t n,
                       void (*usage)(FILE *), int argc, char **argv);

/* `homg solve` on a general problem (tools/solve_general.c). */
typedef struct homg_tool_general {
    homg_grid_desc desc;
    double tol, lambda, sigma_jump, obstacles; /* obstacles: fraction of cells solid */
    int cycles, quiet;
} homg_tool_general;
int homg_tool_solve_general(homg_ctx *ctx, const homg_tool_general *o);

/* A context for --backend cpu|cuda|auto; prints the reason and returns NULL on failure. */
homg_ctx *homg_tool_ctx(const char *backend_name);

#endif
