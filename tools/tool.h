/* tool.h -- what the subcommands of the `homg` tool share. */
#ifndef HOMG_TOOL_H
#define HOMG_TOOL_H

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

/* A context for --backend cpu|cuda|auto; prints the reason and returns NULL on failure. */
homg_ctx *homg_tool_ctx(const char *backend_name);

#endif
