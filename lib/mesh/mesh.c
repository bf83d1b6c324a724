/* mesh.c -- the homg_mesh object: checks, orientation, accessors, upload. */
#include "mesh_internal.h"

#include "core/det.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void homg__mesh_arrays_free(mesh_arrays *a)
{
    free(a->coords);
    free(a->elements);
    free(a->element_tags);
    free(a->facets);
    free(a->facet_tags);
    free(a->node_markers);
    free(a->element_lines);
    memset(a, 0, sizeof *a);
}

double homg__element_det(int dim, const double *x, const int32_t *n)
{
    if (dim == 2) {
        const double *p0 = x + 2 * (size_t)n[0], *p1 = x + 2 * (size_t)n[1], *p2 = x + 2 * (size_t)n[2];
        return (p1[0] - p0[0]) * (p2[1] - p0[1]) - (p2[0] - p0[0]) * (p1[1] - p0[1]);
    }
    return homg_det3(x, n); /* the refinement kernels' own (core/det.h) */
}

double homg__element_longest_edge(int dim, const double *x, const int32_t *n)
{
    double longest = 0;
    for (int i = 0; i <= dim; i++)
        for (int j = i + 1; j <= dim; j++) {
            double s = 0;
            for (int k = 0; k < dim; k++) {
                double d = x[(size_t)dim * n[i] + k] - x[(size_t)dim * n[j] + k];
                s += d * d;
            }
            if (s > longest)
                longest = s;
        }
    return sqrt(longest);
}

/* "path:12: " or "path: element 7: " or "element 7: " in front of an element's message. */
static void element_where(char *buf, size_t len, const mesh_arrays *a, const char *source, int32_t e)
{
    if (source && a->element_lines)
        snprintf(buf, len, "%s:%d: ", source, (int)a->element_lines[e]);
    else if (source)
        snprintf(buf, len, "%s: element %d: ", source, (int)e);
    else
        snprintf(buf, len, "element %d: ", (int)e);
}

static homg_status check_arrays(homg_ctx *ctx, mesh_arrays *a, const char *source)
{
    homg_status bad = source ? HOMG_ERROR_PARSE : HOMG_ERROR_INVALID_ARGUMENT;
    const char *src = source ? source : "homg_mesh_create";
    int nv = a->dim + 1;
    char where[1200];
    if (a->dim != 2 && a->dim != 3)
        return homg__fail(ctx, bad, "%s: dim = %d; meshes are 2D (triangles) or 3D (tetrahedra)", src, a->dim);
    if (a->num_nodes < nv || a->num_elements < 1 || a->num_facets < 0)
        return homg__fail(ctx, bad,
                          "%s: a %dD mesh needs at least %d nodes and one element (has %d nodes, %d elements)", src,
                          a->dim, nv, (int)a->num_nodes, (int)a->num_elements);
    for (int32_t i = 0; i < a->num_nodes * a->dim; i++)
        if (!isfinite(a->coords[i]))
            return homg__fail(ctx, bad, "%s: node %d has a coordinate that is not finite", src, (int)(i / a->dim));
    for (int32_t e = 0; e < a->num_elements; e++)
        for (int k = 0; k < nv; k++) {
            int32_t n = a->elements[(size_t)e * nv + k];
            if (n < 0 || n >= a->num_nodes) {
                element_where(where, sizeof where, a, source, e);
                return homg__fail(ctx, bad, "%snode index %d out of range 0..%d", where, (int)n, (int)a->num_nodes - 1);
            }
        }
    for (int32_t f = 0; f < a->num_facets; f++)
        for (int k = 0; k < a->dim; k++) {
            int32_t n = a->facets[(size_t)f * a->dim + k];
            if (n < 0 || n >= a->num_nodes)
                return homg__fail(ctx, bad, "%s: boundary facet %d: node index %d out of range 0..%d", src, (int)f,
                                  (int)n, (int)a->num_nodes - 1);
        }
    return HOMG_OK;
}

/* Reverses inverted elements (swapping their last two nodes); zero volume is an error. */
static homg_status orient(homg_ctx *ctx, mesh_arrays *a, const char *source, int32_t *reoriented)
{
    int nv = a->dim + 1;
    int32_t count = 0;
    for (int32_t e = 0; e < a->num_elements; e++) {
        int32_t *n = a->elements + (size_t)e * nv;
        double det = homg__element_det(a->dim, a->coords, n);
        double l = homg__element_longest_edge(a->dim, a->coords, n);
        /* relative to the longest edge: an equilateral element has |det| ~ 0.7 l^dim */
        if (!(fabs(det) > 1e-10 * pow(l, a->dim))) {
            char where[1200];
            element_where(where, sizeof where, a, source, e);
            return homg__fail(ctx, source ? HOMG_ERROR_PARSE : HOMG_ERROR_INVALID_ARGUMENT,
                              "%szero-volume (degenerate) %s", where, a->dim == 2 ? "triangle" : "tetrahedron");
        }
        if (det < 0) {
            int32_t t = n[nv - 1];
            n[nv - 1] = n[nv - 2];
            n[nv - 2] = t;
            count++;
        }
    }
    *reoriented = count;
    return HOMG_OK;
}

static homg_status finish(homg_ctx *ctx, mesh_arrays *a, const char *source, int checked, homg_mesh **out)
{
    homg_status st = HOMG_OK;
    homg_mesh *m;
    int32_t reoriented = 0;
    *out = NULL;
    if (!checked)
        st = check_arrays(ctx, a, source);
    if (st == HOMG_OK && !checked)
        st = orient(ctx, a, source, &reoriented);
    if (st == HOMG_OK && !a->element_tags && !a->volume_elsewhere &&
        !(a->element_tags = (int32_t *)calloc((size_t)a->num_elements, sizeof(int32_t))))
        st = homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "mesh: out of host memory");
    if (st == HOMG_OK && a->num_facets && !a->facet_tags && !a->facets_elsewhere &&
        !(a->facet_tags = (int32_t *)calloc((size_t)a->num_facets, sizeof(int32_t))))
        st = homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "mesh: out of host memory");
    if (st == HOMG_OK && !a->node_markers && !a->facets_elsewhere) {
        /* the largest tag of the facets through the node */
        a->node_markers = (int32_t *)calloc((size_t)a->num_nodes, sizeof(int32_t));
        if (!a->node_markers)
            st = homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "mesh: out of host memory");
        for (int32_t f = 0; st == HOMG_OK && f < a->num_facets; f++)
            for (int k = 0; k < a->dim; k++) {
                int32_t *mk = a->node_markers + a->facets[(size_t)f * a->dim + k];
                if (a->facet_tags[f] > *mk)
                    *mk = a->facet_tags[f];
            }
    }
    m = st == HOMG_OK ? (homg_mesh *)calloc(1, sizeof *m) : NULL;
    if (st == HOMG_OK && !m)
        st = homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "mesh: out of host memory");
    if (st != HOMG_OK) {
        homg__mesh_arrays_free(a);
        return st;
    }
    m->ctx = ctx;
    m->dim = a->dim;
    m->num_nodes = a->num_nodes;
    m->num_elements = a->num_elements;
    m->num_facets = a->num_facets;
    m->coords = a->coords;
    m->elements = a->elements;
    m->element_tags = a->element_tags;
    m->facets = a->facets;
    m->facet_tags = a->facet_tags;
    m->node_markers = a->node_markers;
    m->num_reoriented = reoriented;
    m->order = a->order == 2 ? 2 : 1;
    free(a->element_lines);
    memset(a, 0, sizeof *a);
    *out = m;
    return HOMG_OK;
}

homg_status homg__mesh_finish(homg_ctx *ctx, mesh_arrays *a, const char *source, homg_mesh **out)
{
    return finish(ctx, a, source, 0, out);
}

homg_status homg__mesh_finish_checked(homg_ctx *ctx, mesh_arrays *a, homg_mesh **out)
{
    return finish(ctx, a, NULL, 1, out);
}

static void *dup_array(const void *src, size_t count, size_t item, int *failed)
{
    void *p;
    if (!src || !count)
        return NULL;
    p = malloc(count * item);
    if (!p)
        *failed = 1;
    else
        memcpy(p, src, count * item);
    return p;
}

homg_status homg_mesh_create(homg_ctx *ctx, const homg_mesh_data *d, homg_mesh **out)
{
    mesh_arrays a;
    int failed = 0;
    HOMG_TRY(homg__begin(ctx, "homg_mesh_create", out ? NULL : "out"));
    *out = NULL;
    if (!d)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_mesh_create: data is NULL");
    if (d->dim != 2 && d->dim != 3)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_mesh_create: data.dim = %d, not 2 or 3", d->dim);
    if (d->num_nodes < 0 || d->num_elements < 0 || d->num_facets < 0)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_mesh_create: a count is negative");
    if (!d->coords || !d->elements || (d->num_facets > 0 && !d->facets))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_mesh_create: data.%s is NULL",
                          !d->coords     ? "coords"
                          : !d->elements ? "elements"
                                         : "facets");
    memset(&a, 0, sizeof a);
    a.dim = d->dim;
    a.num_nodes = d->num_nodes;
    a.num_elements = d->num_elements;
    a.num_facets = d->num_facets;
    a.coords = (double *)dup_array(d->coords, (size_t)d->num_nodes * d->dim, sizeof(double), &failed);
    a.elements = (int32_t *)dup_array(d->elements, (size_t)d->num_elements * (d->dim + 1), sizeof(int32_t), &failed);
    a.element_tags = (int32_t *)dup_array(d->element_tags, (size_t)d->num_elements, sizeof(int32_t), &failed);
    a.facets = (int32_t *)dup_array(d->facets, (size_t)d->num_facets * d->dim, sizeof(int32_t), &failed);
    a.facet_tags = (int32_t *)dup_array(d->facet_tags, (size_t)d->num_facets, sizeof(int32_t), &failed);
    a.node_markers = (int32_t *)dup_array(d->node_markers, (size_t)d->num_nodes, sizeof(int32_t), &failed);
    if (failed) {
        homg__mesh_arrays_free(&a);
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "homg_mesh_create: out of host memory");
    }
    return homg__mesh_finish(ctx, &a, NULL, out);
}

/* Host copies (malloc'd) of three arrays of the ctx's space, bytes[k] each
 * (0: an empty array), into out[k]; nothing kept on failure (what: the message). */
static homg_status arrays_to_host(homg_ctx *ctx, void *const src[3], const size_t bytes[3], void *out[3],
                                  const char *what)
{
    homg_status st = HOMG_OK;
    for (int k = 0; k < 3; k++)
        if (!(out[k] = malloc(bytes[k] + 1)))
            st = homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "mesh: out of host memory");
    for (int k = 0; k < 3 && st == HOMG_OK; k++)
        if (bytes[k] && (st = ctx->mem->copy(&ctx->ex, out[k], src[k], bytes[k], HOMG_D2H)) != HOMG_OK)
            homg__backend_fail(ctx, st, what);
    if (st == HOMG_OK && (st = ctx->mem->sync(&ctx->ex)) != HOMG_OK)
        homg__backend_fail(ctx, st, what);
    for (int k = 0; k < 3 && st != HOMG_OK; k++) {
        free(out[k]);
        out[k] = NULL;
    }
    return st;
}

homg_status homg__mesh_to_host(homg_mesh *m)
{
    void *out[3];
    if (!m->node_markers && m->ctx_node_markers) { /* facets, their tags and markers made in the ctx's space */
        void *src[3] = { m->ctx_facets, m->ctx_facet_tags, m->ctx_node_markers };
        size_t bytes[3] = { (size_t)m->num_facets * m->dim * sizeof(int32_t), (size_t)m->num_facets * sizeof(int32_t),
                            (size_t)m->num_nodes * sizeof(int32_t) };
        HOMG_TRY(arrays_to_host(m->ctx, src, bytes, out, "mesh: copying a level's facets to the host"));
        m->facets = (int32_t *)out[0];
        m->facet_tags = (int32_t *)out[1];
        m->node_markers = (int32_t *)out[2];
    }
    if (!m->coords && m->ctx_coords) { /* coordinates, elements and their tags */
        void *src[3] = { m->ctx_coords, m->ctx_elements, m->ctx_element_tags };
        size_t bytes[3] = { (size_t)m->num_nodes * m->dim * sizeof(double),
                            (size_t)m->num_elements * (m->dim + 1) * sizeof(int32_t),
                            (size_t)m->num_elements * sizeof(int32_t) };
        HOMG_TRY(arrays_to_host(m->ctx, src, bytes, out, "mesh: copying a level to the host"));
        m->coords = (double *)out[0];
        m->elements = (int32_t *)out[1];
        m->element_tags = (int32_t *)out[2];
    }
    return HOMG_OK;
}

void homg_mesh_destroy(homg_mesh *m)
{
    if (!m)
        return;
    if (m->ctx_coords || m->ctx_elements || m->ctx_element_tags || m->ctx_facets || m->ctx_facet_tags ||
        m->ctx_node_markers) {
        int saved;
        if (homg__enter(m->ctx, &saved) == HOMG_OK) {
            homg__free(m->ctx, m->ctx_coords);
            homg__free(m->ctx, m->ctx_elements);
            homg__free(m->ctx, m->ctx_element_tags);
            homg__free(m->ctx, m->ctx_facets);
            homg__free(m->ctx, m->ctx_facet_tags);
            homg__free(m->ctx, m->ctx_node_markers);
            homg__leave(m->ctx, saved);
        }
    }
    free(m->coords);
    free(m->elements);
    free(m->element_tags);
    free(m->facets);
    free(m->facet_tags);
    free(m->node_markers);
    free(m);
}

int homg_mesh_dim(const homg_mesh *m) { return m ? m->dim : 0; }
int32_t homg_mesh_num_nodes(const homg_mesh *m) { return m ? m->num_nodes : 0; }
int32_t homg_mesh_num_elements(const homg_mesh *m) { return m ? m->num_elements : 0; }
int32_t homg_mesh_num_facets(const homg_mesh *m) { return m ? m->num_facets : 0; }
const double *homg_mesh_coords(const homg_mesh *m) { return m ? m->coords : NULL; }
const int32_t *homg_mesh_elements(const homg_mesh *m) { return m ? m->elements : NULL; }
const int32_t *homg_mesh_element_tags(const homg_mesh *m) { return m ? m->element_tags : NULL; }
const int32_t *homg_mesh_facets(const homg_mesh *m) { return m ? m->facets : NULL; }
const int32_t *homg_mesh_facet_tags(const homg_mesh *m) { return m ? m->facet_tags : NULL; }
const int32_t *homg_mesh_node_markers(const homg_mesh *m) { return m ? m->node_markers : NULL; }
int32_t homg_mesh_num_reoriented(const homg_mesh *m) { return m ? m->num_reoriented : 0; }
int homg_mesh_order(const homg_mesh *m) { return m ? m->order : 0; }
homg_ctx *homg_mesh_ctx(const homg_mesh *m) { return m ? m->ctx : NULL; }

static homg_status upload(homg_mesh *m)
{
    homg_ctx *ctx = m->ctx;
    size_t nc = (size_t)m->num_nodes * m->dim * sizeof(double);
    size_t ne = (size_t)m->num_elements * (m->dim + 1) * sizeof(int32_t);
    size_t nt = (size_t)m->num_elements * sizeof(int32_t);
    HOMG_TRY(homg__alloc(ctx, nc, (void **)&m->ctx_coords, "homg_mesh_upload: coordinates"));
    HOMG_TRY(homg__alloc(ctx, ne, (void **)&m->ctx_elements, "homg_mesh_upload: elements"));
    HOMG_TRY(homg__alloc(ctx, nt, (void **)&m->ctx_element_tags, "homg_mesh_upload: element tags"));
    HOMG_TRY_BACKEND(ctx, ctx->mem->copy(&ctx->ex, m->ctx_coords, m->coords, nc, HOMG_H2D), "homg_mesh_upload");
    HOMG_TRY_BACKEND(ctx, ctx->mem->copy(&ctx->ex, m->ctx_elements, m->elements, ne, HOMG_H2D), "homg_mesh_upload");
    HOMG_TRY_BACKEND(ctx, ctx->mem->copy(&ctx->ex, m->ctx_element_tags, m->element_tags, nt, HOMG_H2D),
                     "homg_mesh_upload");
    return HOMG_OK;
}

homg_status homg_mesh_upload(homg_mesh *m, homg_mesh_view *view)
{
    int saved;
    homg_status st = HOMG_OK;
    if (!m)
        return HOMG_ERROR_INVALID_ARGUMENT;
    if (!m->ctx_coords) {
        HOMG_TRY(homg__enter(m->ctx, &saved));
        st = upload(m);
        if (st != HOMG_OK) {
            homg__free(m->ctx, m->ctx_coords);
            homg__free(m->ctx, m->ctx_elements);
            homg__free(m->ctx, m->ctx_element_tags);
            m->ctx_coords = NULL;
            m->ctx_elements = m->ctx_element_tags = NULL;
        }
        homg__leave(m->ctx, saved);
    }
    if (view) {
        memset(view, 0, sizeof *view);
        if (st == HOMG_OK) {
            view->dim = m->dim;
            view->num_nodes = m->num_nodes;
            view->num_elements = m->num_elements;
            view->coords = m->ctx_coords;
            view->elements = m->ctx_elements;
            view->element_tags = m->ctx_element_tags;
            view->memory = HOMG_MEMORY_CONTEXT;
        }
    }
    return st;
}
