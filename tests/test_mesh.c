/* test_mesh.c -- meshes: generators, refinement, readers (msh 2.2/4.1/gz,
 * node/ele), writers, orientation, quality, and every class of bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "homg.h"
#include "msh_binary.h"
#include "testutil.h"

static char dir[64];
static homg_ctx *ctx;

static int setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/homg_test_mesh_XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    ctx = homg_test_ctx(HOMG_BACKEND_CPU);
    return 0;
}

static int teardown(void **state)
{
    char cmd[128];
    (void)state;
    homg_ctx_destroy(ctx);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Writes `text` to dir/name; returns the path (static buffer per call slot). */
static const char *put(const char *name, const char *text)
{
    static char paths[8][256];
    static int slot;
    char *p = paths[slot++ % 8];
    FILE *f;
    snprintf(p, 256, "%s/%s", dir, name);
    f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return p;
}

static double total_volume(const homg_mesh *m)
{
    homg_mesh_quality q;
    assert_int_equal(homg_mesh_get_quality(m, &q), HOMG_OK);
    return q.total_volume;
}

static void all_elements_positive(const homg_mesh *m)
{
    int d = homg_mesh_dim(m), nv = d + 1;
    const double *x = homg_mesh_coords(m);
    const int32_t *e = homg_mesh_elements(m);
    for (int32_t i = 0; i < homg_mesh_num_elements(m); i++) {
        const int32_t *n = e + (size_t)i * nv;
        double det;
        if (d == 2)
            det = (x[2 * n[1]] - x[2 * n[0]]) * (x[2 * n[2] + 1] - x[2 * n[0] + 1]) -
                  (x[2 * n[2]] - x[2 * n[0]]) * (x[2 * n[1] + 1] - x[2 * n[0] + 1]);
        else {
            double a[3], b[3], c[3];
            for (int k = 0; k < 3; k++) {
                a[k] = x[3 * n[1] + k] - x[3 * n[0] + k];
                b[k] = x[3 * n[2] + k] - x[3 * n[0] + k];
                c[k] = x[3 * n[3] + k] - x[3 * n[0] + k];
            }
            det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
                  a[2] * (b[0] * c[1] - b[1] * c[0]);
        }
        assert_true(det > 0);
    }
}

/* ------------------------------------------------------------ generators */

static void cube_counts_match_seed_000(void **state)
{
    homg_mesh_generate_desc d = { 0 };
    homg_mesh *m = NULL;
    (void)state;
    d.cells = 64;
    d.size = 4;
    assert_int_equal(homg_mesh_generate_cube(ctx, &d, &m), HOMG_OK);
    assert_int_equal(homg_mesh_dim(m), 3);
    assert_int_equal(homg_mesh_num_nodes(m), 274625);
    assert_int_equal(homg_mesh_num_elements(m), 1572864);
    assert_int_equal(homg_mesh_num_facets(m), 6 * 2 * 64 * 64);
    assert_int_equal(homg_mesh_num_reoriented(m), 0);
    homg_mesh_destroy(m);
}

static void small_cube_is_conforming_and_tagged(void **state)
{
    homg_mesh_generate_desc d = { 0 };
    homg_mesh *m = NULL;
    homg_mesh_quality q;
    int tags[7] = { 0 };
    (void)state;
    d.cells = 3;
    d.size = 2;
    assert_int_equal(homg_mesh_generate_cube(ctx, &d, &m), HOMG_OK);
    assert_int_equal(homg_mesh_num_nodes(m), 64);
    assert_int_equal(homg_mesh_num_elements(m), 162);
    all_elements_positive(m);
    assert_int_equal(homg_mesh_get_quality(m, &q), HOMG_OK);
    assert_true(fabs(q.total_volume - 8.0) < 1e-12);
    assert_true(fabs(q.min_volume - 8.0 / 162) < 1e-12 && fabs(q.max_volume - 8.0 / 162) < 1e-12);
    /* Kuhn tetrahedra: dihedral angles 45, 60 and 90 degrees; interior nodes have 14 neighbours */
    assert_true(fabs(q.min_angle - 45) < 1e-9 && fabs(q.max_angle - 90) < 1e-9);
    assert_int_equal(q.max_valence, 14);
    for (int32_t f = 0; f < homg_mesh_num_facets(m); f++) {
        int t = homg_mesh_facet_tags(m)[f];
        assert_true(t >= 1 && t <= 6);
        tags[t]++;
        /* the facet lies on its side: x=0 (1), x=2 (2), y=0 (3) ... */
        for (int k = 0; k < 3; k++) {
            double c = homg_mesh_coords(m)[3 * homg_mesh_facets(m)[3 * f + k] + (t - 1) / 2];
            assert_true(c == ((t - 1) % 2 ? 2.0 : 0.0));
        }
    }
    for (int t = 1; t <= 6; t++)
        assert_int_equal(tags[t], 18);
    /* interior node (1,1,1) is unmarked, a corner carries the largest tag of its sides */
    assert_int_equal(homg_mesh_node_markers(m)[1 + 4 + 16], 0);
    assert_int_equal(homg_mesh_node_markers(m)[63], 6);
    homg_mesh_destroy(m);
}

static void square_and_refinement(void **state)
{
    homg_mesh_generate_desc d = { 0 };
    homg_mesh *m = NULL, *r = NULL;
    homg_mesh_quality q;
    (void)state;
    d.cells = 3;
    assert_int_equal(homg_mesh_generate_square(ctx, &d, &m), HOMG_OK);
    assert_int_equal(homg_mesh_num_nodes(m), 16);
    assert_int_equal(homg_mesh_num_elements(m), 18);
    assert_int_equal(homg_mesh_num_facets(m), 12);
    all_elements_positive(m);
    assert_true(fabs(total_volume(m) - 1) < 1e-14);
    assert_int_equal(homg_mesh_refine(m, &r), HOMG_OK);
    /* 16 nodes + 33 edges; 4 children per triangle; 2 per boundary edge */
    assert_int_equal(homg_mesh_num_nodes(r), 49);
    assert_int_equal(homg_mesh_num_elements(r), 72);
    assert_int_equal(homg_mesh_num_facets(r), 24);
    all_elements_positive(r);
    assert_true(fabs(total_volume(r) - 1) < 1e-14);
    assert_int_equal(homg_mesh_get_quality(r, &q), HOMG_OK);
    assert_true(fabs(q.min_angle - 45) < 1e-9 && fabs(q.max_angle - 90) < 1e-9);
    homg_mesh_destroy(r);
    homg_mesh_destroy(m);

    d.cells = 2;
    d.refine = 2;
    assert_int_equal(homg_mesh_generate_cube(ctx, &d, &m), HOMG_OK);
    /* refining Kuhn cubes twice: the 9x9x9 lattice, 8^2 times the elements */
    assert_int_equal(homg_mesh_num_nodes(m), 729);
    assert_int_equal(homg_mesh_num_elements(m), 48 * 64);
    assert_int_equal(homg_mesh_num_facets(m), 48 * 16);
    assert_int_equal(homg_mesh_num_reoriented(m), 0);
    all_elements_positive(m);
    assert_true(fabs(total_volume(m) - 1) < 1e-13);
    for (int32_t f = 0; f < homg_mesh_num_facets(m); f++) {
        int t = homg_mesh_facet_tags(m)[f];
        for (int k = 0; k < 3; k++)
            assert_true(homg_mesh_coords(m)[3 * homg_mesh_facets(m)[3 * f + k] + (t - 1) / 2] ==
                        ((t - 1) % 2 ? 1.0 : 0.0));
    }
    homg_mesh_destroy(m);
}

static void generator_arguments_are_checked(void **state)
{
    homg_mesh_generate_desc d = { 0 };
    homg_mesh *m = (homg_mesh *)1;
    (void)state;
    d.cells = -1;
    assert_int_equal(homg_mesh_generate_cube(ctx, &d, &m), HOMG_ERROR_INVALID_ARGUMENT);
    assert_null(m);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "cells"));
    d.cells = 2000; /* 4.8e10 tetrahedra */
    assert_int_equal(homg_mesh_generate_cube(ctx, &d, &m), HOMG_ERROR_OUT_OF_MEMORY);
    d.cells = 4;
    d.size = -1;
    assert_int_equal(homg_mesh_generate_square(ctx, &d, &m), HOMG_ERROR_INVALID_ARGUMENT);
    d = homg_mesh_generate_desc_defaults(NULL);
    assert_int_equal(d.cells, 8);
    assert_true(d.size == 1.0);
}

/* ------------------------------------------------------------ quality */

static void quality_of_reference_elements(void **state)
{
    const double tri[] = { 0, 0, 2, 0, 1, sqrt(3.0) };
    const double tet[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    const int32_t e3[] = { 0, 1, 2 }, e4[] = { 0, 1, 2, 3 };
    homg_mesh_data d = { 0 };
    homg_mesh *m = NULL;
    homg_mesh_quality q;
    (void)state;
    d.dim = 2;
    d.num_nodes = 3;
    d.num_elements = 1;
    d.coords = tri;
    d.elements = e3;
    assert_int_equal(homg_mesh_create(ctx, &d, &m), HOMG_OK);
    assert_int_equal(homg_mesh_get_quality(m, &q), HOMG_OK);
    assert_true(fabs(q.min_angle - 60) < 1e-9 && fabs(q.max_angle - 60) < 1e-9);
    assert_true(fabs(q.max_aspect - 1) < 1e-12);
    assert_int_equal(q.min_valence, 2);
    assert_true(fabs(q.total_volume - sqrt(3.0)) < 1e-14);
    homg_mesh_destroy(m);

    d.dim = 3;
    d.num_nodes = 4;
    d.coords = tet;
    d.elements = e4;
    assert_int_equal(homg_mesh_create(ctx, &d, &m), HOMG_OK);
    assert_int_equal(homg_mesh_get_quality(m, &q), HOMG_OK);
    assert_true(fabs(q.min_angle - acos(1 / sqrt(3.0)) * 180 / M_PI) < 1e-9);
    assert_true(fabs(q.max_angle - 90) < 1e-9);
    assert_true(fabs(q.total_volume - 1.0 / 6) < 1e-15);
    assert_int_equal(q.max_valence, 3);
    /* inradius of the corner tetrahedron: 1 / (3 + sqrt 3); longest edge sqrt 2 */
    assert_true(fabs(q.max_aspect - sqrt(2.0) * (3 + sqrt(3.0)) / (2 * sqrt(6.0))) < 1e-12);
    homg_mesh_destroy(m);
}

/* ------------------------------------------------------------ readers */

static const char *msh22 = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
                           "$PhysicalNames\n2\n1 7 \"wall\"\n2 3 \"inside\"\n$EndPhysicalNames\n"
                           "$Nodes\n5\n"
                           "10 0 0 0\n11 1 0 0\n12 1 1 0\n13 0 1 0\n14 0.5 0.5 0\n"
                           "$EndNodes\n"
                           "$Elements\n7\n"
                           "1 15 2 0 1 10\n"
                           "2 1 2 7 1 10 11\n"
                           "3 1 2 7 1 11 12\n"
                           "4 2 2 3 1 10 11 14\n"
                           "5 2 2 3 1 11 12 14\n"
                           "6 2 2 3 1 12 13 14\n"
                           "7 2 2 4 1 13 14 10\n" /* clockwise: re-oriented */
                           "$EndElements\n";

static void reads_msh22(void **state)
{
    homg_mesh *m = NULL;
    (void)state;
    assert_int_equal(homg_mesh_read(ctx, put("a.msh", msh22), &m), HOMG_OK);
    assert_int_equal(homg_mesh_dim(m), 2);
    assert_int_equal(homg_mesh_num_nodes(m), 5);
    assert_int_equal(homg_mesh_num_elements(m), 4);
    assert_int_equal(homg_mesh_num_facets(m), 2);
    assert_int_equal(homg_mesh_num_reoriented(m), 1);
    all_elements_positive(m);
    assert_int_equal(homg_mesh_element_tags(m)[0], 3);
    assert_int_equal(homg_mesh_element_tags(m)[3], 4);
    assert_int_equal(homg_mesh_facet_tags(m)[1], 7);
    assert_int_equal(homg_mesh_facets(m)[2], 1); /* node tag 11 -> index 1 */
    assert_int_equal(homg_mesh_node_markers(m)[1], 7);
    assert_int_equal(homg_mesh_node_markers(m)[4], 0);
    assert_true(homg_mesh_coords(m)[2 * 4] == 0.5);
    assert_true(fabs(total_volume(m) - 1) < 1e-15);
    homg_mesh_destroy(m);
}

static const char *msh41 = "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
                           "$Entities\n0 0 1 1\n"
                           "5 0 0 0 1 1 0 1 21 3 1 2 3\n"
                           "1 0 0 0 1 1 1 2 8 9 4 1 2 3 4\n"
                           "$EndEntities\n"
                           "$Nodes\n2 5 1 9\n"
                           "3 1 0 3\n1\n2\n3\n0 0 0\n1 0 0\n0 1 0\n"
                           "3 1 0 2\n7\n9\n0 0 1\n1 1 1\n"
                           "$EndNodes\n"
                           "$Elements\n2 3 1 3\n"
                           "2 5 2 1\n1 1 2 3\n"
                           "3 1 4 2\n2 1 2 3 7\n3 2 3 9 7\n"
                           "$EndElements\n";

static void reads_msh41_with_entities_and_sparse_tags(void **state)
{
    homg_mesh *m = NULL;
    (void)state;
    assert_int_equal(homg_mesh_read(ctx, put("b.msh", msh41), &m), HOMG_OK);
    assert_int_equal(homg_mesh_dim(m), 3);
    assert_int_equal(homg_mesh_num_nodes(m), 5);
    assert_int_equal(homg_mesh_num_elements(m), 2);
    assert_int_equal(homg_mesh_num_facets(m), 1);
    assert_int_equal(homg_mesh_element_tags(m)[0], 8);
    assert_int_equal(homg_mesh_element_tags(m)[1], 8);
    assert_int_equal(homg_mesh_facet_tags(m)[0], 21);
    assert_int_equal(homg_mesh_elements(m)[0], 0);
    all_elements_positive(m);
    assert_int_equal(homg_mesh_node_markers(m)[0], 21);
    assert_int_equal(homg_mesh_node_markers(m)[3], 0);
    homg_mesh_destroy(m);
}

static void reads_gzip(void **state)
{
    char path[256];
    gzFile g;
    homg_mesh *m = NULL;
    (void)state;
    snprintf(path, sizeof path, "%s/c.msh.gz", dir);
    g = gzopen(path, "wb");
    assert_non_null(g);
    gzputs(g, msh41);
    gzclose(g);
    assert_int_equal(homg_mesh_read(ctx, path, &m), HOMG_OK);
    assert_int_equal(homg_mesh_num_elements(m), 2);
    assert_int_equal(homg_mesh_facet_tags(m)[0], 21);
    homg_mesh_destroy(m);
}

static void reads_node_ele_2d_and_3d(void **state)
{
    homg_mesh *m = NULL;
    (void)state;
    put("t.node", "# Triangle output\n4 2 1 1\n1 0 0 0.5 1\n2 1 0 0.5 2\n3 1 1 0.5 2\n4 0 1 0.5 0\n");
    put("t.ele", "2 3 1\n1 1 2 3 5\n2 1 4 3 6 # clockwise\n");
    put("t.edge", "5 1\n1 1 2 4\n2 2 3 4\n3 3 4 0\n4 4 1 0\n5 1 3 0\n");
    assert_int_equal(homg_mesh_read(ctx, put("dummy", ""), &m), HOMG_ERROR_PARSE); /* empty .msh */
    assert_int_equal(homg_mesh_read(ctx, strcat(strcpy((char[256]){ 0 }, dir), "/t.node"), &m), HOMG_OK);
    assert_int_equal(homg_mesh_dim(m), 2);
    assert_int_equal(homg_mesh_num_nodes(m), 4);
    assert_int_equal(homg_mesh_num_elements(m), 2);
    assert_int_equal(homg_mesh_num_reoriented(m), 1);
    assert_int_equal(homg_mesh_element_tags(m)[1], 6);
    assert_int_equal(homg_mesh_num_facets(m), 2); /* edges with a non-zero marker */
    assert_int_equal(homg_mesh_facet_tags(m)[0], 4);
    assert_int_equal(homg_mesh_node_markers(m)[1], 2); /* the .node file's markers win */
    homg_mesh_destroy(m);

    put("u.node", "5 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n4 1 1 1\n");
    put("u.ele", "2 4 0\n0 0 1 2 3\n1 1 3 2 4\n");
    put("u.face", "2 1\n0 0 1 2 3\n1 1 2 4 9\n");
    put("u.edge", "1 1\n0 0 1 5\n"); /* ignored: a 3D mesh takes .face */
    assert_int_equal(homg_mesh_read(ctx, strcat(strcpy((char[256]){ 0 }, dir), "/u.ele"), &m), HOMG_OK);
    assert_int_equal(homg_mesh_dim(m), 3);
    assert_int_equal(homg_mesh_num_elements(m), 2);
    assert_int_equal(homg_mesh_num_facets(m), 2);
    assert_int_equal(homg_mesh_facet_tags(m)[1], 9);
    assert_int_equal(homg_mesh_node_markers(m)[4], 9);
    all_elements_positive(m);
    assert_int_equal(homg_mesh_num_reoriented(m), 1);
    homg_mesh_destroy(m);
}

/* ------------------------------------------------------------ writers */

static void msh_roundtrip_and_vtk(void **state)
{
    homg_mesh_generate_desc d = { 0 };
    homg_mesh *m = NULL, *back = NULL;
    char path[256], line[256];
    double field[64];
    homg_mesh_field fields[2];
    FILE *f;
    int cells = 0, point_data = 0, named = 0;
    (void)state;
    d.cells = 2;
    d.size = 0.3;
    assert_int_equal(homg_mesh_generate_cube(ctx, &d, &m), HOMG_OK);
    snprintf(path, sizeof path, "%s/w.msh", dir);
    assert_int_equal(homg_mesh_write_msh(m, path), HOMG_OK);
    assert_int_equal(homg_mesh_read(ctx, path, &back), HOMG_OK);
    assert_int_equal(homg_mesh_num_nodes(back), homg_mesh_num_nodes(m));
    assert_int_equal(homg_mesh_num_elements(back), homg_mesh_num_elements(m));
    assert_int_equal(homg_mesh_num_facets(back), homg_mesh_num_facets(m));
    assert_memory_equal(homg_mesh_coords(back), homg_mesh_coords(m), 27 * 3 * sizeof(double));
    assert_memory_equal(homg_mesh_elements(back), homg_mesh_elements(m), 48 * 4 * sizeof(int32_t));
    assert_memory_equal(homg_mesh_facet_tags(back), homg_mesh_facet_tags(m), 48 * sizeof(int32_t));
    assert_memory_equal(homg_mesh_node_markers(back), homg_mesh_node_markers(m), 27 * sizeof(int32_t));
    homg_mesh_destroy(back);

    for (int i = 0; i < 64; i++)
        field[i] = i * 0.5;
    fields[0].name = "u";
    fields[0].values = field;
    fields[0].per_element = 0;
    fields[1].name = "sigma";
    fields[1].values = field;
    fields[1].per_element = 1;
    snprintf(path, sizeof path, "%s/w.vtk", dir);
    assert_int_equal(homg_mesh_write_vtk(m, path, fields, 2), HOMG_OK);
    f = fopen(path, "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f)) {
        cells += !strcmp(line, "CELLS 48 240\n");
        point_data += !strcmp(line, "POINT_DATA 27\n");
        named += !strcmp(line, "SCALARS u double 1\n") + !strcmp(line, "SCALARS sigma double 1\n");
    }
    fclose(f);
    assert_int_equal(cells, 1);
    assert_int_equal(point_data, 1);
    assert_int_equal(named, 2);
    fields[0].name = "bad name";
    assert_int_equal(homg_mesh_write_vtk(m, path, fields, 1), HOMG_ERROR_INVALID_ARGUMENT);
    assert_int_equal(homg_mesh_write_vtk(m, "/nonexistent/dir/x.vtk", NULL, 0), HOMG_ERROR_IO);
    homg_mesh_destroy(m);
}

/* ------------------------------------------------------------ bad input */

typedef struct bad_case {
    const char *name, *text, *where, *what;
} bad_case;

#define HEAD22  "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
#define NODES22 "$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n$EndNodes\n"

static void bad_msh_files_name_the_line(void **state)
{
    static const bad_case cases[] = {
        { "truncated", HEAD22 "$Nodes\n4\n1 0 0 0\n2 1 0 0\n", ":7:", "end of file" },
        { "fewer nodes", HEAD22 "$Nodes\n4\n1 0 0 0\n2 1 0 0\n$EndNodes\n", ":8:", "announced" },
        { "more nodes", HEAD22 "$Nodes\n1\n1 0 0 0\n2 1 0 0\n$EndNodes\n", ":7:", "$EndNodes" },
        { "index range", HEAD22 NODES22 "$Elements\n1\n1 4 0 1 2 3 5\n$EndElements\n", ":13:", "node 5" },
        { "nan", HEAD22 "$Nodes\n1\n1 0 nan 0\n$EndNodes\n", ":6:", "finite" },
        { "inf", HEAD22 "$Nodes\n1\n1 0 1e999 0\n$EndNodes\n", ":6:", "finite" },
        { "elem type", HEAD22 NODES22 "$Elements\n1\n1 5 0 1 2 3 4 1 2 3 4\n$EndElements\n", ":13:", "type 5" },
        { "version", "$MeshFormat\n4.0 0 8\n$EndMeshFormat\n", ":2:", "version 4" },
        { "version3", "$MeshFormat\n3 0 8\n$EndMeshFormat\n", ":2:", "version 3" },
        { "binary", "$MeshFormat\n4.1 1 8\n$EndMeshFormat\n", "byte 24", "byte-order integer" },
        { "binary size", "$MeshFormat\n2.2 1 4\n\1\n$EndMeshFormat\n", ":2:", "data-size = 4" },
        { "billions", HEAD22 "$Nodes\n2000000000\n1 0 0 0\n$EndNodes\n", ":5:", "2000000000" },
        { "huge elems", HEAD22 NODES22 "$Elements\n99999999\n", ":12:", "99999999" },
        { "negative", HEAD22 "$Nodes\n-3\n$EndNodes\n", ":5:", "out of range" },
        { "flat tet",
          HEAD22 "$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 1 1 0\n$EndNodes\n"
                 "$Elements\n1\n1 4 0 1 2 3 4\n$EndElements\n",
          ":13:", "zero-volume" },
        { "repeated node", HEAD22 NODES22 "$Elements\n1\n1 4 0 1 2 2 4\n$EndElements\n", ":13:", "zero-volume" },
        { "not msh", "hello\n", ":1:", "not a Gmsh" },
        { "no elements", HEAD22 NODES22, ":", "without a $Elements" },
        { "only lines", HEAD22 NODES22 "$Elements\n1\n1 1 0 1 2\n$EndElements\n", ":", "no triangles" },
        { "dup tag",
          HEAD22 "$Nodes\n3\n1 0 0 0\n5 1 0 0\n5 0 1 0\n$EndNodes\n$Elements\n1\n1 2 0 1 5 5\n$EndElements\n",
          ":8:", "twice" },
        { "garbage", HEAD22 "$Nodes\n1\n1 0 zero 0\n$EndNodes\n", ":6:", "x y z" },
        { "surface",
          HEAD22 "$Nodes\n3\n1 0 0 0\n2 1 0 0\n3 0 1 1\n$EndNodes\n"
                 "$Elements\n1\n1 2 0 1 2 3\n$EndElements\n",
          ":8:", "plane" },
        { "41 block", "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 2 1 2\n3 1 0 5\n", ":6:", "numNodesInBlock" },
        { "41 count", "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 2 1 2\n3 1 0 1\n1\n0 0 0\n$EndNodes\n",
          ":8:", "announced 2" },
        { "mixed order", HEAD22 NODES22 "$Elements\n2\n1 2 0 1 2 3\n2 9 0 1 2 3 4 1 2\n$EndElements\n",
          ":14:", "cannot be mixed" },
        { "short p2", HEAD22 NODES22 "$Elements\n1\n1 9 0 1 2 3 4\n$EndElements\n", ":13:", "needs 6 node tags" },
        { "nul", HEAD22 "$No\0des\n", ":4:", "NUL" },
        { "stray end", HEAD22 "$EndNodes\n", ":4:", "without" },
        { "unterminated", HEAD22 "$Comments\nabc\n", ":5:", "$EndComments" },
    };
    int failures = 0;
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        homg_mesh *m = (homg_mesh *)1;
        char name[64];
        const char *path;
        homg_status st;
        snprintf(name, sizeof name, "bad%zu.msh", i);
        if (!strcmp(cases[i].name, "nul")) {
            char p2[256];
            FILE *f;
            snprintf(p2, sizeof p2, "%s/%s", dir, name);
            f = fopen(p2, "wb");
            fwrite(cases[i].text, 1, strlen(HEAD22) + 9, f);
            fclose(f);
            st = homg_mesh_read(ctx, p2, &m);
        } else {
            path = put(name, cases[i].text);
            st = homg_mesh_read(ctx, path, &m);
        }
        if (st != HOMG_ERROR_PARSE || !strstr(homg_ctx_last_error(ctx), cases[i].where) ||
            !strstr(homg_ctx_last_error(ctx), cases[i].what) || !strstr(homg_ctx_last_error(ctx), name)) {
            print_error("case '%s': status %s, message '%s'\n", cases[i].name, homg_status_string(st),
                        homg_ctx_last_error(ctx));
            failures++;
        }
        assert_null(m);
    }
    assert_int_equal(failures, 0);
}

static void bad_node_ele_files_name_the_line(void **state)
{
    static const struct {
        const char *name, *node, *ele, *where, *what;
    } cases[] = {
        { "range", "3 2 0 0\n1 0 0\n2 1 0\n3 0 1\n", "1 3 0\n1 1 2 4\n", ".ele:2:", "vertex 4 out of range" },
        { "nan", "3 2 0 0\n1 0 0\n2 nan 0\n3 0 1\n", "1 3 0\n1 1 2 3\n", ".node:3:", "finite" },
        { "billions", "3000000000 2 0 0\n1 0 0\n", "1 3 0\n1 1 2 3\n", ".node:1:", "3000000000" },
        { "huge", "3 2 0 0\n1 0 0\n2 1 0\n3 0 1\n", "50000000 3 0\n1 1 2 3\n", ".ele:1:", "50000000" },
        { "truncated", "3 2 0 0\n1 0 0\n2 1 0\n", "1 3 0\n1 1 2 3\n", ".node:3:", "ends after 2" },
        { "order2", "3 2 0 0\n1 0 0\n2 1 0\n3 0 1\n", "1 6 0\n1 1 2 3 1 2 3\n", ".ele:1:", "6 nodes per element" },
        { "dim", "3 4 0 0\n1 0 0\n", "1 3 0\n", ".node:1:", "dimension 4" },
        { "numbering", "3 2 0 0\n1 0 0\n3 1 0\n2 0 1\n", "1 3 0\n1 1 2 3\n", ".node:3:", "consecutive" },
        { "degenerate", "3 2 0 0\n1 0 0\n2 1 0\n3 2 0\n", "1 3 0\n1 1 2 3\n", ".ele:2:", "zero-volume" },
        { "tag", "3 2 0 0\n1 0 0\n2 1 0\n3 0 1\n", "1 3 1\n1 1 2 3 2.5\n", ".ele:2:", "not an int32" },
        { "extra", "3 2 0 0\n1 0 0 7\n2 1 0\n3 0 1\n", "1 3 0\n1 1 2 3\n", ".node:2:", "unexpected text" },
        { "empty", "", "1 3 0\n1 1 2 3\n", ".node:0:", "empty" },
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        homg_mesh *m = (homg_mesh *)1;
        char base[64], node[80], ele[80];
        homg_status st;
        snprintf(base, sizeof base, "bad%zu", i);
        snprintf(node, sizeof node, "%s.node", base);
        snprintf(ele, sizeof ele, "%s.ele", base);
        put(ele, cases[i].ele);
        st = homg_mesh_read(ctx, put(node, cases[i].node), &m);
        if (st != HOMG_ERROR_PARSE || !strstr(homg_ctx_last_error(ctx), cases[i].where) ||
            !strstr(homg_ctx_last_error(ctx), cases[i].what))
            fail_msg("case '%s': status %s, message '%s'", cases[i].name, homg_status_string(st),
                     homg_ctx_last_error(ctx));
        assert_null(m);
    }
}

static void missing_files_and_bad_arguments(void **state)
{
    homg_mesh *m = (homg_mesh *)1;
    homg_mesh_data d = { 0 };
    const double x[] = { 0, 0, 1, 0, 0, 1 };
    const int32_t e[] = { 0, 1, 5 };
    (void)state;
    assert_int_equal(homg_mesh_read(ctx, "/nonexistent/x.msh", &m), HOMG_ERROR_IO);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "/nonexistent/x.msh"));
    assert_null(m);
    assert_int_equal(homg_mesh_read(ctx, "/nonexistent/x.node", &m), HOMG_ERROR_IO);
    assert_int_equal(homg_mesh_read(ctx, NULL, &m), HOMG_ERROR_INVALID_ARGUMENT);
    assert_int_equal(homg_mesh_create(ctx, &d, &m), HOMG_ERROR_INVALID_ARGUMENT);
    d.dim = 2;
    d.num_nodes = 3;
    d.num_elements = 1;
    d.coords = x;
    d.elements = e;
    assert_int_equal(homg_mesh_create(ctx, &d, &m), HOMG_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "out of range"));
    d.num_facets = 1;
    assert_int_equal(homg_mesh_create(ctx, &d, &m), HOMG_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "facets"));
}

static void upload_gives_a_view(void **state)
{
    homg_mesh_generate_desc d = { 0 };
    homg_mesh *m = NULL;
    homg_mesh_view v;
    int32_t back[12];
    (void)state;
    d.cells = 1;
    assert_int_equal(homg_mesh_generate_square(ctx, &d, &m), HOMG_OK);
    assert_int_equal(homg_mesh_upload(m, &v), HOMG_OK);
    assert_int_equal(v.num_elements, 2);
    assert_int_equal(homg_copy_to_host(ctx, back, v.elements, 6 * sizeof(int32_t)), HOMG_OK);
    assert_memory_equal(back, homg_mesh_elements(m), 6 * sizeof(int32_t));
    assert_int_equal(homg_mesh_upload(m, &v), HOMG_OK); /* idempotent */
    homg_mesh_destroy(m);
}

/* ------------------------------------------------------------ binary .msh */

/* Two meshes hold the same arrays (coordinates bit for bit). */
static void assert_same_mesh(const homg_mesh *a, const homg_mesh *b)
{
    int dim = homg_mesh_dim(a);
    int32_t nn = homg_mesh_num_nodes(a), ne = homg_mesh_num_elements(a), nf = homg_mesh_num_facets(a);
    assert_int_equal(homg_mesh_dim(b), dim);
    assert_int_equal(homg_mesh_num_nodes(b), nn);
    assert_int_equal(homg_mesh_num_elements(b), ne);
    assert_int_equal(homg_mesh_num_facets(b), nf);
    for (size_t i = 0; i < (size_t)nn * dim; i++) /* gmsh's ASCII has 16 digits: the last bit may differ */
        assert_true(fabs(homg_mesh_coords(a)[i] - homg_mesh_coords(b)[i]) <=
                    1e-15 * (1 + fabs(homg_mesh_coords(a)[i])));
    assert_memory_equal(homg_mesh_elements(a), homg_mesh_elements(b), (size_t)ne * (dim + 1) * sizeof(int32_t));
    assert_memory_equal(homg_mesh_element_tags(a), homg_mesh_element_tags(b), (size_t)ne * sizeof(int32_t));
    if (nf) {
        assert_memory_equal(homg_mesh_facets(a), homg_mesh_facets(b), (size_t)nf * dim * sizeof(int32_t));
        assert_memory_equal(homg_mesh_facet_tags(a), homg_mesh_facet_tags(b), (size_t)nf * sizeof(int32_t));
    }
    assert_memory_equal(homg_mesh_node_markers(a), homg_mesh_node_markers(b), (size_t)nn * sizeof(int32_t));
}

static homg_mesh *read_ok(const char *path)
{
    homg_mesh *m = NULL;
    homg_status st = homg_mesh_read(ctx, path, &m);
    if (st != HOMG_OK)
        print_error("%s: %s\n", path, homg_ctx_last_error(ctx));
    assert_int_equal(st, HOMG_OK);
    return m;
}

/* gmsh 4.8.4 wrote each fixture in tests/data as ASCII and binary (tests/data/README.md). */
static void binary_msh_equals_its_ascii_twin(void **state)
{
    static const char *const stems[] = { "small2d_p1_22", "small2d_p1_41", "small3d_p1_22", "small3d_p1_41",
                                         "small2d_p2_22", "small2d_p2_41", "small3d_p2_22", "small3d_p2_41" };
    (void)state;
    for (size_t i = 0; i < sizeof stems / sizeof stems[0]; i++) {
        char a[128], b[128];
        homg_mesh *ma, *mb;
        snprintf(a, sizeof a, "tests/data/%s.msh", stems[i]);
        snprintf(b, sizeof b, "tests/data/%s_bin.msh", stems[i]);
        ma = read_ok(a);
        mb = read_ok(b);
        assert_same_mesh(ma, mb);
        assert_int_equal(homg_mesh_order(ma), strstr(stems[i], "_p2") ? 2 : 1);
        assert_int_equal(homg_mesh_order(mb), homg_mesh_order(ma));
        homg_mesh_destroy(ma);
        homg_mesh_destroy(mb);
    }
}

/* A quadratic file gives its linear twin's mesh: the corners, the midside nodes dropped
 * (gmsh numbers them after the vertices, so the indices agree too). */
static void quadratic_msh_keeps_the_corners(void **state)
{
    static const char *const stems[] = { "small2d_%s_22", "small2d_%s_41_bin", "small3d_%s_22_bin", "small3d_%s_41" };
    (void)state;
    for (size_t i = 0; i < sizeof stems / sizeof stems[0]; i++) {
        char a[128], b[128], stem[64];
        homg_mesh *m1, *m2;
        snprintf(stem, sizeof stem, stems[i], "p1");
        snprintf(a, sizeof a, "tests/data/%s.msh", stem);
        snprintf(stem, sizeof stem, stems[i], "p2");
        snprintf(b, sizeof b, "tests/data/%s.msh", stem);
        m1 = read_ok(a);
        m2 = read_ok(b);
        assert_same_mesh(m1, m2);
        assert_int_equal(homg_mesh_order(m1), 1);
        assert_int_equal(homg_mesh_order(m2), 2);
        homg_mesh_destroy(m1);
        homg_mesh_destroy(m2);
    }
}

/* Both byte orders and both versions, written by tests/util/msh_binary.c. */
static void binary_msh_in_both_byte_orders(void **state)
{
    static const char *const src[] = { "tests/data/small2d_p1_41.msh", "tests/data/small3d_p1_22.msh", NULL };
    (void)state;
    for (int s = 0; s < 3; s++) {
        homg_mesh *ref = NULL;
        if (src[s])
            ref = read_ok(src[s]);
        else
            assert_int_equal(homg_mesh_read(ctx, put("sb.msh", msh22), &ref), HOMG_OK);
        for (int version = 22; version <= 41; version += 19)
            for (int swap = 0; swap < 2; swap++) {
                char name[128];
                homg_mesh *m;
                snprintf(name, sizeof name, "%s/bo%d_%d_%d.msh", dir, s, version, swap);
                assert_int_equal(homg_test_write_msh_binary(ref, name, version, swap), 0);
                m = read_ok(name);
                assert_same_mesh(ref, m);
                homg_mesh_destroy(m);
            }
        homg_mesh_destroy(ref);
    }
}

static long file_bytes(const char *path, unsigned char **data)
{
    FILE *f = fopen(path, "rb");
    long n;
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    *data = (unsigned char *)malloc((size_t)n);
    assert_non_null(*data);
    assert_int_equal(fread(*data, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return n;
}

static const char *put_bytes(const char *name, const unsigned char *data, long n)
{
    static char p[256];
    FILE *f;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return p;
}

/* Every truncation of a binary file is a PARSE error naming the file, and,
 * inside the binary data, the byte offset and section; nothing crashes. */
static void truncated_binary_msh_is_a_parse_error(void **state)
{
    static const char *const files[] = { "tests/data/small2d_p1_41_bin.msh", "tests/data/small2d_p2_22_bin.msh" };
    int failures = 0;
    (void)state;
    for (int f = 0; f < 2; f++) {
        unsigned char *data;
        long n = file_bytes(files[f], &data), complete = n;
        const unsigned char *end = NULL;
        for (long i = n - 12; i > 0 && !end; i--)
            if (!memcmp(data + i, "$EndElements", 12))
                end = data + i;
        assert_non_null(end);
        complete = (long)(end - data) + 12; /* shorter than this cannot be a whole mesh */
        for (long len = 0; len < complete; len += (len < 64 ? 1 : 5)) {
            homg_mesh *m = (homg_mesh *)1;
            const char *path = put_bytes("trunc.msh", data, len);
            homg_status st = homg_mesh_read(ctx, path, &m);
            const char *msg = homg_ctx_last_error(ctx);
            if (st != HOMG_ERROR_PARSE || m || !strstr(msg, "trunc.msh") || (len > 40 && !strstr(msg, "byte"))) {
                print_error("%s cut at %ld: %s '%s'\n", files[f], len, homg_status_string(st), msg);
                failures++;
            }
            if (m != (homg_mesh *)1)
                homg_mesh_destroy(m);
        }
        free(data);
    }
    assert_int_equal(failures, 0);
}

/* The messages name the section and the entity block the cut falls in. */
static void binary_msh_messages_name_section_and_block(void **state)
{
    unsigned char *data;
    long n = file_bytes("tests/data/small2d_p1_41_bin.msh", &data), end_nodes = -1, end_elements = -1;
    homg_mesh *m = NULL;
    (void)state;
    for (long i = 0; i + 13 < n; i++) {
        if (!memcmp(data + i, "\n$EndNodes\n", 11))
            end_nodes = i;
        if (!memcmp(data + i, "\n$EndElements\n", 14))
            end_elements = i;
    }
    assert_true(end_nodes > 0 && end_elements > end_nodes);
    /* cut inside the coordinates of the last node block, and inside the last element */
    assert_int_equal(homg_mesh_read(ctx, put_bytes("cut.msh", data, end_nodes - 5), &m), HOMG_ERROR_PARSE);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "cut.msh: byte"));
    assert_non_null(strstr(homg_ctx_last_error(ctx), "$Nodes, entity block"));
    assert_non_null(strstr(homg_ctx_last_error(ctx), "(dimension 2, tag 3)"));
    assert_non_null(strstr(homg_ctx_last_error(ctx), "truncated"));
    assert_int_equal(homg_mesh_read(ctx, put_bytes("cut.msh", data, end_elements - 5), &m), HOMG_ERROR_PARSE);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "$Elements, entity block"));
    assert_non_null(strstr(homg_ctx_last_error(ctx), "type 2)"));
    /* a wrong byte-order integer */
    memcpy(data + 20, "\2\0\0\0", 4); /* after "$MeshFormat\n4.1 1 8\n" */
    assert_int_equal(homg_mesh_read(ctx, put_bytes("order.msh", data, n), &m), HOMG_ERROR_PARSE);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "byte-order"));
    assert_null(m);
    free(data);
}

/* Random bytes changed in the binary data: any status, never a crash (ASan/UBSan in SAN=1). */
static void corrupted_binary_msh_never_crashes(void **state)
{
    static const char *const files[] = { "tests/data/small2d_p1_41_bin.msh", "tests/data/small2d_p1_22_bin.msh" };
    homg_rng rng = homg_rng_seed(7);
    (void)state;
    for (int f = 0; f < 2; f++) {
        unsigned char *data, *copy;
        long n = file_bytes(files[f], &data);
        copy = (unsigned char *)malloc((size_t)n);
        assert_non_null(copy);
        for (int trial = 0; trial < 150; trial++) {
            homg_mesh *m = NULL;
            memcpy(copy, data, (size_t)n);
            for (int k = 0; k < 1 + trial % 4; k++)
                copy[(long)(homg_rng_uniform(&rng) * n)] = (unsigned char)(homg_rng_uniform(&rng) * 256);
            if (homg_mesh_read(ctx, put_bytes("bad.msh", copy, n), &m) == HOMG_OK)
                homg_mesh_destroy(m);
            else
                assert_null(m);
        }
        free(copy);
        free(data);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cube_counts_match_seed_000),
        cmocka_unit_test(small_cube_is_conforming_and_tagged),
        cmocka_unit_test(square_and_refinement),
        cmocka_unit_test(generator_arguments_are_checked),
        cmocka_unit_test(quality_of_reference_elements),
        cmocka_unit_test(reads_msh22),
        cmocka_unit_test(reads_msh41_with_entities_and_sparse_tags),
        cmocka_unit_test(reads_gzip),
        cmocka_unit_test(binary_msh_equals_its_ascii_twin),
        cmocka_unit_test(binary_msh_in_both_byte_orders),
        cmocka_unit_test(quadratic_msh_keeps_the_corners),
        cmocka_unit_test(truncated_binary_msh_is_a_parse_error),
        cmocka_unit_test(binary_msh_messages_name_section_and_block),
        cmocka_unit_test(corrupted_binary_msh_never_crashes),
        cmocka_unit_test(reads_node_ele_2d_and_3d),
        cmocka_unit_test(msh_roundtrip_and_vtk),
        cmocka_unit_test(bad_msh_files_name_the_line),
        cmocka_unit_test(bad_node_ele_files_name_the_line),
        cmocka_unit_test(missing_files_and_bad_arguments),
        cmocka_unit_test(upload_gives_a_view),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
