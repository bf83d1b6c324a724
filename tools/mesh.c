/* mesh.c -- `homg mesh info|generate|assemble|solve`: meshes from the command line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static int usage(FILE *f)
{
    fprintf(f, "usage: homg mesh info FILE\n"
               "       homg mesh generate cube|square --cells K [--size L] [--refine R] --out FILE.vtk|FILE.msh\n"
               "       homg mesh assemble FILE [--sigma S] [--lambda L] [--f F] [--tag-sigma TAG=S ...]\n"
               "                          [--dirichlet TAG[,TAG...]] [--g G] [--scheme serial|color|patch]\n"
               "                          [--float] [--backend cpu|cuda|auto] --out A.mtx b.mtx\n"
               "       homg mesh solve FILE|square:K|cube:K [--gmg-levels L] [--smoother spai1 ...] (--help: all)\n"
               "FILE: .msh or .msh.gz (Gmsh ASCII 2.2 / 4.1), or .node/.ele (Triangle, TetGen)\n");
    return f == stdout ? 0 : 2;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

static int cmp_int32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return x < y ? -1 : x > y;
}

/* Each distinct value of v with its count ("tag:count ..."). */
static void print_tags(const char *what, const int32_t *v, int32_t n)
{
    int32_t *sorted = (int32_t *)malloc((size_t)(n ? n : 1) * sizeof *sorted);
    int shown = 0;
    if (!sorted)
        return;
    memcpy(sorted, v, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_int32);
    printf("%-14s", what);
    if (n == 0)
        printf(" (none)");
    for (int32_t i = 0; i < n;) {
        int32_t j = i;
        while (j < n && sorted[j] == sorted[i])
            j++;
        if (++shown > 32) {
            printf(" ...");
            break;
        }
        printf(" %d:%d", (int)sorted[i], (int)(j - i));
        i = j;
    }
    printf("\n");
    free(sorted);
}

static int info(int argc, char **argv)
{
    homg_ctx *ctx;
    homg_mesh *m = NULL;
    homg_mesh_quality q;
    if (argc != 1)
        return usage(stderr);
    ctx = homg_tool_ctx("cpu");
    if (!ctx)
        return 1;
    if (homg_mesh_read(ctx, argv[0], &m) != HOMG_OK || homg_mesh_get_quality(m, &q) != HOMG_OK) {
        fprintf(stderr, "homg: %s\n", homg_ctx_last_error(ctx));
        homg_mesh_destroy(m);
        homg_ctx_destroy(ctx);
        return 1;
    }
    printf("file          %s\n", argv[0]);
    printf("dimension     %d (%s)\n", homg_mesh_dim(m), homg_mesh_dim(m) == 2 ? "P1 triangles" : "P1 tetrahedra");
    printf("nodes         %d\n", (int)homg_mesh_num_nodes(m));
    printf("elements      %d\n", (int)homg_mesh_num_elements(m));
    printf("facets        %d\n", (int)homg_mesh_num_facets(m));
    printf("re-oriented   %d\n", (int)homg_mesh_num_reoriented(m));
    print_tags("element tags", homg_mesh_element_tags(m), homg_mesh_num_elements(m));
    print_tags("facet tags", homg_mesh_facet_tags(m), homg_mesh_num_facets(m));
    print_tags("node markers", homg_mesh_node_markers(m), homg_mesh_num_nodes(m));
    printf("%-14s%.4g .. %.4g degrees\n", homg_mesh_dim(m) == 2 ? "angles" : "dihedral", q.min_angle, q.max_angle);
    printf("aspect ratio  %.4g .. %.4g (mean %.4g; 1 = equilateral)\n", q.min_aspect, q.max_aspect, q.mean_aspect);
    printf("valence       %d .. %d (mean %.3g)\n", (int)q.min_valence, (int)q.max_valence, q.mean_valence);
    printf("%-14s%.6g (elements %.4g .. %.4g)\n", homg_mesh_dim(m) == 2 ? "area" : "volume", q.total_volume,
           q.min_volume, q.max_volume);
    homg_mesh_destroy(m);
    homg_ctx_destroy(ctx);
    return 0;
}

static int generate(int argc, char **argv)
{
    homg_mesh_generate_desc d = { 0 };
    const char *out = NULL;
    homg_ctx *ctx;
    homg_mesh *m = NULL;
    homg_status st;
    int cube;
    if (argc < 1 || (strcmp(argv[0], "cube") && strcmp(argv[0], "square")))
        return usage(stderr);
    cube = !strcmp(argv[0], "cube");
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && !strcmp(argv[i], "--cells"))
            d.cells = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--size"))
            d.size = atof(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--refine"))
            d.refine = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--out"))
            out = argv[++i];
        else
            return usage(stderr);
    }
    if (!out || d.cells == 0 || !(ends_with(out, ".vtk") || ends_with(out, ".msh"))) {
        fprintf(stderr, "homg mesh generate: --cells K and --out FILE.vtk|FILE.msh are required\n");
        return 2;
    }
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

int homg_cmd_mesh(int argc, char **argv)
{
    if (argc < 2)
        return usage(stderr);
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
        return usage(stdout);
    if (!strcmp(argv[1], "info"))
        return info(argc - 2, argv + 2);
    if (!strcmp(argv[1], "generate"))
        return generate(argc - 2, argv + 2);
    if (!strcmp(argv[1], "assemble"))
        return homg_tool_mesh_assemble(argc - 2, argv + 2);
    if (!strcmp(argv[1], "solve"))
        return homg_tool_mesh_solve(argc - 2, argv + 2);
    return usage(stderr);
}
