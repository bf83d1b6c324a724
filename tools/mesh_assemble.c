/* mesh_assemble.c -- `homg mesh assemble` (lands with the FEM assembly). */
#include <stdio.h>

#include "tool.h"

int homg_tool_mesh_assemble(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "homg mesh assemble: not yet available\n");
    return 2;
}
