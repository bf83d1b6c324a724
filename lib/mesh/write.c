/* write.c -- writing meshes: legacy VTK (for ParaView) and Gmsh .msh 2.2. */
#include "mesh_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int field_name_ok(const char *s)
{
    if (!s || !*s || strlen(s) > 64)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_' ||
              *s == '-'))
            return 0;
    return 1;
}

static void write_ints(FILE *f, const int32_t *v, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        fprintf(f, "%d\n", (int)v[i]);
}

homg_status homg_mesh_write_vtk(const homg_mesh *m, const char *path, const homg_mesh_field *fields, int nfields)
{
    homg_ctx *ctx;
    FILE *f;
    int nv;
    if (!m)
        return HOMG_ERROR_INVALID_ARGUMENT;
    ctx = m->ctx;
    HOMG_TRY(homg__begin(ctx, "homg_mesh_write_vtk", path ? NULL : "path"));
    if (nfields < 0 || (nfields > 0 && !fields))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_mesh_write_vtk: %d fields but fields is %s", nfields,
                          fields ? "set" : "NULL");
    for (int i = 0; i < nfields; i++) {
        if (!field_name_ok(fields[i].name))
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                              "homg_mesh_write_vtk: fields[%d].name must be 1-64 letters, digits, '_' or '-'", i);
        if (!fields[i].values)
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_mesh_write_vtk: fields[%d].values is NULL", i);
    }
    f = fopen(path, "w");
    if (!f)
        return homg__fail(ctx, HOMG_ERROR_IO, "%s: cannot open for writing: %s", path, strerror(errno));
    nv = m->dim + 1;
    fprintf(f, "# vtk DataFile Version 3.0\nhomg mesh\nASCII\nDATASET UNSTRUCTURED_GRID\n");
    fprintf(f, "POINTS %d double\n", (int)m->num_nodes);
    for (int32_t i = 0; i < m->num_nodes; i++) {
        const double *x = m->coords + (size_t)i * m->dim;
        fprintf(f, "%.17g %.17g %.17g\n", x[0], x[1], m->dim == 3 ? x[2] : 0.0);
    }
    fprintf(f, "CELLS %d %lld\n", (int)m->num_elements, (long long)m->num_elements * (nv + 1));
    for (int32_t e = 0; e < m->num_elements; e++) {
        const int32_t *n = m->elements + (size_t)e * nv;
        if (nv == 3)
            fprintf(f, "3 %d %d %d\n", (int)n[0], (int)n[1], (int)n[2]);
        else
            fprintf(f, "4 %d %d %d %d\n", (int)n[0], (int)n[1], (int)n[2], (int)n[3]);
    }
    fprintf(f, "CELL_TYPES %d\n", (int)m->num_elements);
    for (int32_t e = 0; e < m->num_elements; e++)
        fputs(nv == 3 ? "5\n" : "10\n", f); /* VTK_TRIANGLE, VTK_TETRA */
    fprintf(f, "CELL_DATA %d\nSCALARS tag int 1\nLOOKUP_TABLE default\n", (int)m->num_elements);
    write_ints(f, m->element_tags, m->num_elements);
    for (int i = 0; i < nfields; i++)
        if (fields[i].per_element) {
            fprintf(f, "SCALARS %s double 1\nLOOKUP_TABLE default\n", fields[i].name);
            for (int32_t e = 0; e < m->num_elements; e++)
                fprintf(f, "%.17g\n", fields[i].values[e]);
        }
    fprintf(f, "POINT_DATA %d\nSCALARS marker int 1\nLOOKUP_TABLE default\n", (int)m->num_nodes);
    write_ints(f, m->node_markers, m->num_nodes);
    for (int i = 0; i < nfields; i++)
        if (!fields[i].per_element) {
            fprintf(f, "SCALARS %s double 1\nLOOKUP_TABLE default\n", fields[i].name);
            for (int32_t n = 0; n < m->num_nodes; n++)
                fprintf(f, "%.17g\n", fields[i].values[n]);
        }
    return homg__finish_file(ctx, path, f);
}

homg_status homg_mesh_write_msh(const homg_mesh *m, const char *path)
{
    homg_ctx *ctx;
    FILE *f;
    int nv;
    long long id = 1;
    if (!m)
        return HOMG_ERROR_INVALID_ARGUMENT;
    ctx = m->ctx;
    HOMG_TRY(homg__begin(ctx, "homg_mesh_write_msh", path ? NULL : "path"));
    f = fopen(path, "w");
    if (!f)
        return homg__fail(ctx, HOMG_ERROR_IO, "%s: cannot open for writing: %s", path, strerror(errno));
    nv = m->dim + 1;
    fprintf(f, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n%d\n", (int)m->num_nodes);
    for (int32_t i = 0; i < m->num_nodes; i++) {
        const double *x = m->coords + (size_t)i * m->dim;
        fprintf(f, "%d %.17g %.17g %.17g\n", (int)i + 1, x[0], x[1], m->dim == 3 ? x[2] : 0.0);
    }
    fprintf(f, "$EndNodes\n$Elements\n%lld\n", (long long)m->num_facets + m->num_elements);
    for (int32_t i = 0; i < m->num_facets; i++, id++) {
        const int32_t *n = m->facets + (size_t)i * m->dim;
        int t = (int)m->facet_tags[i];
        if (m->dim == 2)
            fprintf(f, "%lld 1 2 %d %d %d %d\n", id, t, t, (int)n[0] + 1, (int)n[1] + 1);
        else
            fprintf(f, "%lld 2 2 %d %d %d %d %d\n", id, t, t, (int)n[0] + 1, (int)n[1] + 1, (int)n[2] + 1);
    }
    for (int32_t e = 0; e < m->num_elements; e++, id++) {
        const int32_t *n = m->elements + (size_t)e * nv;
        int t = (int)m->element_tags[e];
        if (nv == 3)
            fprintf(f, "%lld 2 2 %d %d %d %d %d\n", id, t, t, (int)n[0] + 1, (int)n[1] + 1, (int)n[2] + 1);
        else
            fprintf(f, "%lld 4 2 %d %d %d %d %d %d\n", id, t, t, (int)n[0] + 1, (int)n[1] + 1, (int)n[2] + 1,
                    (int)n[3] + 1);
    }
    fprintf(f, "$EndElements\n");
    return homg__finish_file(ctx, path, f);
}
