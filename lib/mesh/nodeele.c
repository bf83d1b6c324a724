/* nodeele.c -- Triangle (2D) and TetGen (3D) .node + .ele readers, with
 * boundary tags from .edge (2D) or .face (3D) when present.
 *
 * .node: "n dim attributes markers(0|1)", then "i x y [z] [attributes] [marker]";
 * .ele:  "n nodes-per-element attributes", then "i n0 n1 n2 [n3] [attributes]"
 *        (the first attribute, an integer, is the element's tag);
 * .edge/.face: "n markers(0|1)", then "i n0 n1 [n2] [marker]": entries with a
 *        non-zero marker become boundary facets with that tag.
 * Numbering starts at the first vertex's number (0 or 1); '#' starts a comment. */
#include "mesh_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static homg_status header(line_reader *r, long long *v, int count, int min_fields, const char *what)
{
    char *line, *p;
    HOMG_TRY(homg__lines_next_content(r, &line, 1));
    if (!line)
        return homg__lines_fail(r, "empty file (expected the header '%s')", what);
    p = line;
    for (int k = 0; k < count; k++) {
        v[k] = 0;
        if (!homg__tok_ll(&p, &v[k]) && k < min_fields)
            return homg__lines_fail(r, "expected the header '%s'", what);
    }
    return HOMG_OK;
}

static homg_status record(line_reader *r, char **p, long long expected_id, const char *what, long long i, long long n)
{
    char *line;
    long long id;
    HOMG_TRY(homg__lines_next_content(r, &line, 1));
    if (!line)
        return homg__lines_fail(r, "the file ends after %lld of the %lld %s it announced", i, n, what);
    *p = line;
    if (!homg__tok_ll(p, &id))
        return homg__lines_fail(r, "expected a %s number", what);
    if (id != expected_id)
        return homg__lines_fail(r, "%s number %lld where %lld was expected (numbers must be consecutive)", what, id,
                                expected_id);
    return HOMG_OK;
}

static homg_status index_tok(line_reader *r, char **p, long long first, int32_t n, int32_t *out)
{
    long long v;
    if (!homg__tok_ll(p, &v))
        return homg__lines_fail(r, "expected a vertex number");
    if (v < first || v - first >= n)
        return homg__lines_fail(r, "vertex %lld out of range %lld..%lld", v, first, first + n - 1);
    *out = (int32_t)(v - first);
    return HOMG_OK;
}

static homg_status tag_tok(line_reader *r, char **p, int32_t *tag, const char *what)
{
    double v;
    if (!homg__tok_double(p, &v))
        return homg__lines_fail(r, "expected the %s", what);
    if (!(v == floor(v)) || v < INT32_MIN || v > INT32_MAX)
        return homg__lines_fail(r, "the %s %g is not an int32 integer", what, v);
    *tag = (int32_t)v;
    return HOMG_OK;
}

static homg_status read_nodes(line_reader *r, mesh_arrays *a, long long *first)
{
    long long h[4];
    char *p;
    HOMG_TRY(header(r, h, 4, 2, "vertices dimension attributes markers"));
    if (h[1] != 2 && h[1] != 3)
        return homg__lines_fail(r, "dimension %lld; .node files of homg are 2D (Triangle) or 3D (TetGen)", h[1]);
    if (h[2] < 0 || h[2] > 1024 || h[3] < 0 || h[3] > 1)
        return homg__lines_fail(r, "attributes = %lld (0..1024) and markers = %lld (0 or 1) expected", h[2], h[3]);
    HOMG_TRY(homg__lines_check_count(r, h[0], 2 * (int)h[1] + 2, "vertices"));
    a->dim = (int)h[1];
    a->num_nodes = (int32_t)h[0];
    a->coords = (double *)malloc((size_t)(h[0] ? h[0] : 1) * a->dim * sizeof(double));
    if (h[3])
        a->node_markers = (int32_t *)malloc((size_t)(h[0] ? h[0] : 1) * sizeof(int32_t));
    if (!a->coords || (h[3] && !a->node_markers))
        return homg__fail(r->ctx, HOMG_ERROR_OUT_OF_MEMORY, "%s: out of host memory", r->path);
    for (long long i = 0; i < h[0]; i++) {
        double *x = a->coords + (size_t)i * a->dim, attr;
        if (i == 0) {
            char *line;
            HOMG_TRY(homg__lines_next_content(r, &line, 1));
            if (!line)
                return homg__lines_fail(r, "the file ends before its first vertex");
            p = line;
            if (!homg__tok_ll(&p, first) || (*first != 0 && *first != 1))
                return homg__lines_fail(r, "the first vertex number must be 0 or 1");
        } else
            HOMG_TRY(record(r, &p, *first + i, "vertex", i, h[0]));
        for (int k = 0; k < a->dim; k++) {
            if (!homg__tok_double(&p, &x[k]))
                return homg__lines_fail(r, "expected %d coordinates", a->dim);
            if (!isfinite(x[k]))
                return homg__lines_fail(r, "vertex %lld has a coordinate that is not a finite number", *first + i);
        }
        for (long long k = 0; k < h[2]; k++)
            if (!homg__tok_double(&p, &attr))
                return homg__lines_fail(r, "expected %lld attributes", h[2]);
        if (h[3])
            HOMG_TRY(tag_tok(r, &p, &a->node_markers[i], "boundary marker"));
        if (!homg__tok_end(p))
            return homg__lines_fail(r, "unexpected text after the vertex");
    }
    return HOMG_OK;
}

static homg_status read_elements(line_reader *r, mesh_arrays *a, long long first)
{
    long long h[3];
    int nv = a->dim + 1;
    char *p;
    HOMG_TRY(header(r, h, 3, 2, "elements nodes-per-element attributes"));
    if (h[1] != nv)
        return homg__lines_fail(r, "%lld nodes per element; homg reads linear %s (%d nodes)", h[1],
                                a->dim == 2 ? "triangles" : "tetrahedra", nv);
    if (h[2] < 0 || h[2] > 1024)
        return homg__lines_fail(r, "attributes = %lld out of range 0..1024", h[2]);
    HOMG_TRY(homg__lines_check_count(r, h[0], 2 * nv + 2, "elements"));
    a->num_elements = (int32_t)h[0];
    a->elements = (int32_t *)malloc((size_t)(h[0] ? h[0] : 1) * nv * sizeof(int32_t));
    a->element_tags = (int32_t *)calloc((size_t)(h[0] ? h[0] : 1), sizeof(int32_t));
    a->element_lines = (int32_t *)malloc((size_t)(h[0] ? h[0] : 1) * sizeof(int32_t));
    if (!a->elements || !a->element_tags || !a->element_lines)
        return homg__fail(r->ctx, HOMG_ERROR_OUT_OF_MEMORY, "%s: out of host memory", r->path);
    for (long long i = 0; i < h[0]; i++) {
        double attr;
        HOMG_TRY(record(r, &p, first + i, "element", i, h[0]));
        for (int k = 0; k < nv; k++)
            HOMG_TRY(index_tok(r, &p, first, a->num_nodes, &a->elements[i * nv + k]));
        if (h[2] > 0)
            HOMG_TRY(tag_tok(r, &p, &a->element_tags[i], "region attribute"));
        for (long long k = 1; k < h[2]; k++)
            if (!homg__tok_double(&p, &attr))
                return homg__lines_fail(r, "expected %lld attributes", h[2]);
        if (!homg__tok_end(p))
            return homg__lines_fail(r, "unexpected text after the element");
        a->element_lines[i] = (int32_t)r->line;
    }
    return HOMG_OK;
}

static homg_status read_facets(line_reader *r, mesh_arrays *a, long long first)
{
    long long h[2];
    int nv = a->dim;
    int32_t kept = 0;
    char *p;
    HOMG_TRY(header(r, h, 2, 1, "entries markers"));
    if (h[1] != 0 && h[1] != 1)
        return homg__lines_fail(r, "markers = %lld; expected 0 or 1", h[1]);
    HOMG_TRY(homg__lines_check_count(r, h[0], 2 * nv + 2, a->dim == 2 ? "edges" : "faces"));
    if (!h[1])
        return HOMG_OK; /* without markers there are no tags to keep */
    a->facets = (int32_t *)malloc((size_t)(h[0] ? h[0] : 1) * nv * sizeof(int32_t));
    a->facet_tags = (int32_t *)malloc((size_t)(h[0] ? h[0] : 1) * sizeof(int32_t));
    if (!a->facets || !a->facet_tags)
        return homg__fail(r->ctx, HOMG_ERROR_OUT_OF_MEMORY, "%s: out of host memory", r->path);
    for (long long i = 0; i < h[0]; i++) {
        int32_t tag;
        HOMG_TRY(record(r, &p, first + i, a->dim == 2 ? "edge" : "face", i, h[0]));
        for (int k = 0; k < nv; k++)
            HOMG_TRY(index_tok(r, &p, first, a->num_nodes, &a->facets[(size_t)kept * nv + k]));
        HOMG_TRY(tag_tok(r, &p, &tag, "boundary marker"));
        if (!homg__tok_end(p))
            return homg__lines_fail(r, "unexpected text after the entry");
        if (tag != 0)
            a->facet_tags[kept++] = tag;
    }
    a->num_facets = kept;
    return HOMG_OK;
}

homg_status homg__read_nodeele(homg_ctx *ctx, line_reader *nodes, line_reader *eles, line_reader *edges,
                               line_reader *faces, homg_mesh **out)
{
    line_reader *facets;
    mesh_arrays a;
    long long first = 0;
    homg_status st;
    memset(&a, 0, sizeof a);
    st = read_nodes(nodes, &a, &first);
    if (st == HOMG_OK)
        st = read_elements(eles, &a, first);
    facets = a.dim == 2 ? edges : faces;
    if (st == HOMG_OK && facets)
        st = read_facets(facets, &a, first);
    if (st != HOMG_OK) {
        homg__mesh_arrays_free(&a);
        return st;
    }
    return homg__mesh_finish(ctx, &a, eles->path, out);
}
