/* mesh_info.c -- `homg mesh info FILE`: sizes, each element tag with its count
 * and area/volume, each facet tag with its count and length/area (what a user
 * checks before assigning materials and boundary conditions), node markers and
 * the element quality. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

#define MAX_SHOWN 32

static const char *const who = "homg mesh info";

static int usage(FILE *f)
{
    fprintf(f, "usage: homg mesh info FILE\n\n"
               "Prints the mesh's sizes; per element tag the number of elements and their total\n"
               "area (2D) or volume (3D); per facet tag the number of boundary facets and their\n"
               "total length (2D) or area (3D); the node markers and the element quality.\n"
               "FILE: .msh or .msh.gz (Gmsh ASCII 2.2 / 4.1), or .node/.ele (Triangle, TetGen)\n");
    return f == stdout ? 0 : 2;
}

static void sub(const double *x, int dim, int32_t a, int32_t b, double *d)
{
    for (int k = 0; k < dim; k++)
        d[k] = x[(size_t)b * dim + k] - x[(size_t)a * dim + k];
}

static void cross(const double *a, const double *b, double *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* Measure of the simplex with `n` nodes v (n - 1 = its dimension) in dim-space:
 * a segment's length, a triangle's area, a tetrahedron's volume. */
static double simplex_measure(const double *x, int dim, const int32_t *v, int n)
{
    double a[3] = { 0, 0, 0 }, b[3] = { 0, 0, 0 }, c[3] = { 0, 0, 0 }, w[3];
    sub(x, dim, v[0], v[1], a);
    if (n == 2)
        return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    sub(x, dim, v[0], v[2], b);
    cross(a, b, w);
    if (n == 3)
        return 0.5 * sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    sub(x, dim, v[0], v[3], c);
    return fabs(w[0] * c[0] + w[1] * c[1] + w[2] * c[2]) / 6.0;
}

typedef struct tag_sum {
    int32_t tag, count;
    double measure;
} tag_sum;

static int by_tag(const void *a, const void *b)
{
    int32_t x = ((const tag_sum *)a)->tag, y = ((const tag_sum *)b)->tag;
    return x < y ? -1 : x > y;
}

/* One line per distinct tag of `n` simplices of `nv` nodes each (sorted by tag). */
static int print_tag_table(const homg_mesh *m, const char *what, const int32_t *nodes, const int32_t *tags, int32_t n,
                           int nv, const char *noun, const char *measure)
{
    tag_sum *s = (tag_sum *)malloc((size_t)(n > 0 ? n : 1) * sizeof *s);
    int32_t k = 0;
    if (!s)
        return 1;
    for (int32_t i = 0; i < n; i++) {
        s[i].tag = tags[i];
        s[i].count = 1;
        s[i].measure = simplex_measure(homg_mesh_coords(m), homg_mesh_dim(m), nodes + (size_t)i * nv, nv);
    }
    if (n > 0)
        qsort(s, (size_t)n, sizeof *s, by_tag);
    for (int32_t i = 0; i < n; i++) { /* merge runs of one tag into s[k] */
        if (k > 0 && s[k - 1].tag == s[i].tag) {
            s[k - 1].count++;
            s[k - 1].measure += s[i].measure;
        } else
            s[k++] = s[i];
    }
    printf("%s%s\n", what, n == 0 ? " (none)" : "");
    for (int32_t i = 0; i < k && i < MAX_SHOWN; i++)
        printf("  tag %d: %d %s, %s %.6g\n", (int)s[i].tag, (int)s[i].count, noun, measure, s[i].measure);
    if (k > MAX_SHOWN)
        printf("  ... %d more tags\n", (int)(k - MAX_SHOWN));
    free(s);
    return 0;
}

static int cmp_int32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return x < y ? -1 : x > y;
}

/* Each distinct value of v with its count ("tag:count ..."). */
static void print_values(const char *what, const int32_t *v, int32_t n)
{
    int32_t *sorted = (int32_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof *sorted);
    int shown = 0;
    if (!sorted)
        return;
    if (n > 0) /* v may be NULL when n is 0 */
        memcpy(sorted, v, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_int32);
    printf("%-14s", what);
    if (n == 0)
        printf(" (none)");
    for (int32_t i = 0; i < n;) {
        int32_t j = i;
        while (j < n && sorted[j] == sorted[i])
            j++;
        if (++shown > MAX_SHOWN) {
            printf(" ...");
            break;
        }
        printf(" %d:%d", (int)sorted[i], (int)(j - i));
        i = j;
    }
    printf("\n");
    free(sorted);
}

static void print_info(const char *path, const homg_mesh *m, const homg_mesh_quality *q)
{
    int dim = homg_mesh_dim(m);
    printf("file          %s\n", path);
    printf("dimension     %d (%s%s)\n", dim, dim == 2 ? "P1 triangles" : "P1 tetrahedra",
           homg_mesh_order(m) == 2 ? "; read from quadratic elements, midside nodes dropped" : "");
    printf("nodes         %d\n", (int)homg_mesh_num_nodes(m));
    printf("elements      %d\n", (int)homg_mesh_num_elements(m));
    printf("facets        %d\n", (int)homg_mesh_num_facets(m));
    printf("re-oriented   %d\n", (int)homg_mesh_num_reoriented(m));
    print_tag_table(m, "element tags", homg_mesh_elements(m), homg_mesh_element_tags(m), homg_mesh_num_elements(m),
                    dim + 1, "elements", dim == 2 ? "area" : "volume");
    print_tag_table(m, "facet tags", homg_mesh_facets(m), homg_mesh_facet_tags(m), homg_mesh_num_facets(m), dim,
                    "facets", dim == 2 ? "length" : "area");
    print_values("node markers", homg_mesh_node_markers(m), homg_mesh_num_nodes(m));
    printf("%-14s%.4g .. %.4g degrees\n", dim == 2 ? "angles" : "dihedral", q->min_angle, q->max_angle);
    printf("aspect ratio  %.4g .. %.4g (mean %.4g; 1 = equilateral)\n", q->min_aspect, q->max_aspect, q->mean_aspect);
    printf("valence       %d .. %d (mean %.3g)\n", (int)q->min_valence, (int)q->max_valence, q->mean_valence);
    printf("%-14s%.6g (elements %.4g .. %.4g)\n", dim == 2 ? "area" : "volume", q->total_volume, q->min_volume,
           q->max_volume);
}

/* argv[0] is "info". */
int homg_tool_mesh_info(int argc, char **argv)
{
    const char *path = NULL;
    homg_ctx *ctx;
    homg_mesh *m = NULL;
    homg_mesh_quality q;
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        if (homg_tool_is_help(argv[i]))
            return usage(stdout);
        if (argv[i][0] == '-' && argv[i][1] != 0)
            return homg_tool_unknown_option(who, argv[i]);
        if (path) {
            fprintf(stderr, "%s: unexpected argument '%s' (one FILE)\n", who, argv[i]);
            return 2;
        }
        path = argv[i];
    }
    if (!path)
        return usage(stderr);
    if (!(ctx = homg_tool_ctx("cpu")))
        return 1;
    if (homg_mesh_read(ctx, path, &m) != HOMG_OK || homg_mesh_get_quality(m, &q) != HOMG_OK) {
        fprintf(stderr, "%s: %s\n", who, homg_ctx_last_error(ctx));
        rc = 1;
    } else
        print_info(path, m, &q);
    homg_mesh_destroy(m);
    homg_ctx_destroy(ctx);
    return rc;
}
