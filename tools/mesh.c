/* mesh.c -- `homg mesh info|generate|assemble|solve`: meshes from the command line
 * (info: mesh_info.c, assemble: mesh_assemble.c, solve: mesh_solve.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static int generate(int argc, char **argv);

static const homg_tool_command subcommands[] = {
    { "info", "FILE: sizes, tags with their counts and measures, element quality", homg_tool_mesh_info },
    { "generate", "cube|square --cells K ... --out FILE.vtk|FILE.msh: a structured mesh", generate },
    { "assemble", "FILE ... --out A.mtx b.mtx: P1 FEM system as Matrix Market", homg_tool_mesh_assemble },
    { "solve", "FILE|square:K|cube:K [--gmg-levels L] [--smoother S] [--order 1|2]: P1/P2 Poisson by GMG- or AMG-PCG",
      homg_tool_mesh_solve },
};

static void usage(FILE *f)
{
    fprintf(f, "usage: homg mesh SUBCOMMAND ...   (homg mesh SUBCOMMAND --help for its options)\n\nsubcommands:\n");
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        fprintf(f, "  %-9s %s\n", subcommands[i].name, subcommands[i].summary);
    fprintf(f, "\nFILE: .msh or .msh.gz (Gmsh ASCII 2.2 / 4.1), or .node/.ele (Triangle, TetGen)\n");
}

int homg_cmd_mesh(int argc, char **argv)
{
    return homg_tool_dispatch("homg mesh", "subcommand", subcommands, sizeof subcommands / sizeof subcommands[0], usage,
                              argc, argv);
}

static int generate_usage(FILE *f)
{
    fprintf(f, "usage: homg mesh generate cube|square --cells K [--size L] [--refine R] --out FILE.vtk|FILE.msh\n\n"
               "[0,L]^d cut into K^d squares of 2 triangles (square) or cubes of 6 tetrahedra (cube),\n"
               "then R midpoint refinements; element tag 1, facet tags 1..2d for the sides\n"
               "x=0, x=L, y=0, y=L (, z=0, z=L).\n");
    return f == stdout ? 0 : 2;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

/* argv[0] is "generate". */
static int generate(int argc, char **argv)
{
    static const char *const who = "homg mesh generate";
    homg_mesh_generate_desc d = { 0 };
    const char *out = NULL, *shape = NULL;
    homg_ctx *ctx;
    homg_mesh *m = NULL;
    homg_status st;
    int cube;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (homg_tool_is_help(a))
            return generate_usage(stdout);
        if (a[0] != '-') {
            if (shape || (strcmp(a, "cube") && strcmp(a, "square"))) {
                fprintf(stderr, "%s: unexpected argument '%s' (the shape is cube or square)\n", who, a);
                return 2;
            }
            shape = a;
            continue;
        }
        if (strcmp(a, "--cells") && strcmp(a, "--size") && strcmp(a, "--refine") && strcmp(a, "--out"))
            return homg_tool_unknown_option(who, a);
        if (i + 1 == argc) {
            fprintf(stderr, "%s: %s needs a value\n", who, a);
            return 2;
        }
        if (!strcmp(a, "--cells"))
            d.cells = atoi(argv[++i]);
        else if (!strcmp(a, "--size"))
            d.size = atof(argv[++i]);
        else if (!strcmp(a, "--refine"))
            d.refine = atoi(argv[++i]);
        else
            out = argv[++i];
    }
    if (!shape || !out || d.cells == 0 || !(ends_with(out, ".vtk") || ends_with(out, ".msh"))) {
        fprintf(stderr, "%s: cube|square, --cells K and --out FILE.vtk|FILE.msh are required\n", who);
        return 2;
    }
    cube = !strcmp(shape, "cube");
    ctx = homg_tool_ctx("cpu");
    if (!ctx)
        return 1;
    st = cube ? homg_mesh_generate_cube(ctx, &d, &m) : homg_mesh_generate_square(ctx, &d, &m);
    if (st == HOMG_OK)
        st = ends_with(out, ".vtk") ? homg_mesh_write_vtk(m, out, NULL, 0) : homg_mesh_write_msh(m, out);
    if (st != HOMG_OK)
        fprintf(stderr, "homg: %s\n", homg_ctx_last_error(ctx));
    else
        printf("%s: %d nodes, %d %s\n", out, (int)homg_mesh_num_nodes(m), (int)homg_mesh_num_elements(m),
               cube ? "tetrahedra" : "triangles");
    homg_mesh_destroy(m);
    homg_ctx_destroy(ctx);
    return st == HOMG_OK ? 0 : 1;
}
