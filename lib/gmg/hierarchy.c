/* hierarchy.c -- the nested meshes and the prolongations between them.
 *
 * The set-up refines on the backend (homg__mesh_refine_edges with a hook:
 * kernels/gmg/refine.*, the per-element rule homg_mesh_refine shares, so the
 * meshes are the same bit for bit on either backend and as homg_mesh_refine's);
 * the host adds tags, markers and boundary facets.
 *
 * homg_mesh_refine numbers the old nodes first and appends the edge midpoints,
 * and the children of coarse element e are fine elements e*c .. e*c + c - 1
 * (c = 4 triangles or 8 tetrahedra).  P's row of a fine node holds the coarse
 * P1 basis functions of its parent element evaluated at the node (barycentric
 * coordinates): 1 at a coarse vertex, 1/2 1/2 at an edge midpoint.  A fine
 * node outside its parent element (a barycentric coordinate below -1e-9)
 * means the meshes are not nested.
 */
#include "gmg_internal.h"
#include "mesh/mesh_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The refinement's heavy part on the backend (kernels/gmg/refine.*: edges by
 * sort and unique, midpoints, children), read back into the host mesh, or
 * (device_only: the device set-up) handed to it as its ctx_* arrays with no
 * host copy (homg_gmg_mesh makes one when asked); the fine arrays stay in the
 * ctx's space as the next refinement's parent.  device_only, a mesh with
 * facets: its facets' children, their tags and the node markers on the
 * backend too (backend_facets), so the edges never come to the host; a facet
 * that is not a face of any element is told by one read after all levels.
 * device_only also sizes each level by the counts of the coarse mesh's edges
 * and faces (counts.c's rule) instead of reading the device's: the same read
 * then checks them. */
typedef struct backend_refine {
    homg_ctx *ctx;
    int32_t nodes, elements, edges;      /* of the mesh the ctx arrays hold */
    int64_t pe, pf;                      /* its edges and faces by the counts' rule (counts.c), or -1 */
    int32_t expect[HOMG_GMG_MAX_LEVELS]; /* the edges each level's refinement was sized by, or -1 (read) */
    double *coords;
    int32_t *elems, *tags;             /* tags: device_only */
    int32_t *facets, *ftags, *markers; /* backend_facets: of the last refined mesh */
    int lent;                          /* coords .. markers belong to the last refined mesh (device_only) */
    int32_t *bad; /* ctx's space: per level num_facets - the first facet not a face, or 0; then per level */
                  /* the edges the device found (where expect >= 0) */
    int level;    /* the level being made */
    int device_only;
    uint64_t *keys;
    int keep; /* non-zero: fill hands the keys (sorted edges) to kept */
    uint64_t *kept;
    double ms[GMG_R_COUNT]; /* the hooks' parts */
} backend_refine;

static void backend_refine_free(backend_refine *b)
{
    if (!b->lent) {
        homg__free(b->ctx, b->coords);
        homg__free(b->ctx, b->elems);
        homg__free(b->ctx, b->tags);
        homg__free(b->ctx, b->facets);
        homg__free(b->ctx, b->ftags);
        homg__free(b->ctx, b->markers);
    }
    homg__free(b->ctx, b->keys);
    b->coords = NULL;
    b->elems = b->tags = NULL;
    b->facets = b->ftags = b->markers = NULL;
    b->keys = NULL;
    b->lent = 0;
}

/* The per-level flags and found edge counts (b->bad), zeroed once. */
static homg_status level_slots(backend_refine *b)
{
    homg_ctx *ctx = b->ctx;
    size_t n = 2 * HOMG_GMG_MAX_LEVELS;
    if (b->bad)
        return HOMG_OK;
    HOMG_TRY(homg__alloc_array(ctx, n, sizeof(int32_t), (void **)&b->bad, "refinement checks"));
    HOMG_TRY_BACKEND(ctx, ctx->mem->zero(&ctx->ex, b->bad, n * sizeof(int32_t)), "refinement checks");
    return HOMG_OK;
}

/* device_only: the coarse mesh's edges and faces counted on the host, so each
 * level is sized by the counts' rule with no read (the device's own counts are
 * checked after the last level). */
static homg_status predict_counts(backend_refine *b, const homg_mesh *m)
{
    b->pe = b->pf = -1;
    if (!b->device_only)
        return HOMG_OK;
    return homg__mesh_count_edges_faces(b->ctx, m, &b->pe, &b->pf);
}

/* The refined mesh's edges and faces from m's (its nodes are m's plus its edges). */
static void predict_next(backend_refine *b, const homg_mesh *m)
{
    int64_t t = m->num_elements, e;
    if (b->pe < 0 || (m->dim == 3 && b->pf < 0)) {
        b->pe = b->pf = -1;
    } else if (m->dim == 2) {
        b->pe = 2 * b->pe + 3 * t;
    } else {
        e = 2 * b->pe + 3 * b->pf + t;
        b->pf = 4 * b->pf + 8 * t;
        b->pe = e;
    }
}

static homg_status backend_edges(void *user, const homg_mesh *m, uint64_t **edges, size_t *count)
{
    backend_refine *b = (backend_refine *)user;
    homg_ctx *ctx = b->ctx;
    const gmg_kernels *k = HOMG_KERNELS(&ctx->ex, gmg);
    int nv = m->dim + 1;
    size_t nk = (size_t)m->num_elements * nv * (nv - 1) / 2, tb = 0;
    uint64_t *alt = NULL;
    void *temp = NULL;
    int32_t c = 0, expect = -1;
    homg_status st = HOMG_OK;
    double t0 = homg__gmg_now_ms();
    if (edges)
        *edges = NULL;
    if (!b->coords || b->nodes != m->num_nodes || b->elements != m->num_elements) { /* not the last fine mesh */
        backend_refine_free(b);
        st = homg__alloc_array(ctx, (size_t)m->num_nodes * m->dim, sizeof(double), (void **)&b->coords, "refinement");
        if (st == HOMG_OK)
            st =
                homg__alloc_array(ctx, (size_t)m->num_elements * nv, sizeof(int32_t), (void **)&b->elems, "refinement");
        if (st == HOMG_OK)
            st = homg__write(ctx, b->coords, m->coords, (size_t)m->num_nodes * m->dim * sizeof(double));
        if (st == HOMG_OK)
            st = homg__write(ctx, b->elems, m->elements, (size_t)m->num_elements * nv * sizeof(int32_t));
        if (st == HOMG_OK && b->device_only)
            st = homg__alloc_array(ctx, (size_t)m->num_elements, sizeof(int32_t), (void **)&b->tags, "refinement");
        if (st == HOMG_OK && b->device_only)
            st = homg__write(ctx, b->tags, m->element_tags, (size_t)m->num_elements * sizeof(int32_t));
        if (st == HOMG_OK)
            st = predict_counts(b, m);
    }
    if (b->pe >= 0 && b->pe <= (int64_t)nk)
        expect = (int32_t)b->pe;
    else
        b->pe = b->pf = -1; /* read from here on */
    if (st == HOMG_OK && expect >= 0)
        st = level_slots(b);
    b->expect[b->level] = expect;
    homg__free(ctx, b->keys);
    b->keys = NULL;
    if (st == HOMG_OK && k->refine_temp_bytes(&ctx->ex, nk, &tb) != HOMG_OK)
        st = homg__backend_fail(ctx, HOMG_ERROR_BACKEND, "refinement: workspace size");
    if (st == HOMG_OK)
        st = homg__alloc_array(ctx, nk + 1, sizeof(uint64_t), (void **)&b->keys, "refinement edges");
    if (st == HOMG_OK)
        st = homg__alloc_array(ctx, nk + 1, sizeof(uint64_t), (void **)&alt, "refinement edges");
    if (st == HOMG_OK)
        st = homg__alloc(ctx, tb, &temp, "refinement workspace");
    if (st == HOMG_OK &&
        k->refine_edges(&ctx->ex, m->dim, m->num_elements, b->elems, m->num_nodes, b->keys, alt, temp, tb, expect,
                        expect >= 0 ? b->bad + HOMG_GMG_MAX_LEVELS + b->level : NULL, &c) != HOMG_OK)
        st = homg__backend_fail(ctx, HOMG_ERROR_BACKEND, "refinement: edges");
    homg__free(ctx, alt);
    homg__free(ctx, temp);
    if (st == HOMG_OK && edges &&
        !(*edges = (uint64_t *)homg__host_array(ctx, (size_t)c + 1, sizeof(uint64_t), "edges")))
        st = HOMG_ERROR_OUT_OF_MEMORY;
    if (st == HOMG_OK && edges)
        st = homg__read(ctx, *edges, b->keys, (size_t)c * sizeof(uint64_t));
    if (st != HOMG_OK) {
        if (edges) {
            free(*edges);
            *edges = NULL;
        }
        return st;
    }
    b->edges = c;
    *count = (size_t)c;
    b->ms[GMG_R_EDGES] += homg__gmg_now_ms() - t0;
    return HOMG_OK;
}

static homg_status backend_fill(void *user, const homg_mesh *m, double *coords, int32_t *elements)
{
    backend_refine *b = (backend_refine *)user;
    homg_ctx *ctx = b->ctx;
    const gmg_kernels *k = HOMG_KERNELS(&ctx->ex, gmg);
    int dim = m->dim, nv = dim + 1, children = dim == 2 ? 4 : 8;
    int32_t nn = m->num_nodes + b->edges, ne = m->num_elements * children;
    int spare = b->expect[b->level] >= 0; /* a wrong prediction's missing edges are node nn (refine_edges) */
    double *x = NULL;
    int32_t *el = NULL, *tg = NULL;
    double t0 = homg__gmg_now_ms();
    homg_status st = homg__alloc_array(ctx, ((size_t)nn + spare) * dim, sizeof(double), (void **)&x, "refinement");
    if (st == HOMG_OK)
        st = homg__alloc_array(ctx, (size_t)ne * nv, sizeof(int32_t), (void **)&el, "refinement");
    if (st == HOMG_OK && b->device_only)
        st = homg__alloc_array(ctx, (size_t)ne, sizeof(int32_t), (void **)&tg, "refinement");
    if (st == HOMG_OK && (k->refine_nodes(&ctx->ex, dim, m->num_nodes, b->coords, b->keys, b->edges, x) != HOMG_OK ||
                          k->refine_elements(&ctx->ex, dim, m->num_elements, b->elems, m->num_nodes, b->keys, b->edges,
                                             x, el, b->device_only ? b->tags : NULL, tg) != HOMG_OK))
        st = homg__backend_fail(ctx, HOMG_ERROR_BACKEND, "refinement: nodes and children");
    if (st == HOMG_OK && coords)
        st = homg__read(ctx, coords, x, (size_t)nn * dim * sizeof(double));
    if (st == HOMG_OK && elements)
        st = homg__read(ctx, elements, el, (size_t)ne * nv * sizeof(int32_t));
    if (b->keep) {
        b->kept = b->keys;
        b->keys = NULL;
    }
    backend_refine_free(b);
    b->coords = x; /* the next refinement's parent */
    b->elems = el;
    b->tags = tg;
    b->nodes = nn;
    b->elements = ne;
    predict_next(b, m);
    b->ms[GMG_R_FILL] += homg__gmg_now_ms() - t0;
    return st;
}

/* After backend_fill: the children of m's facets (m's ctx copies, or its host
 * arrays uploaded: the caller's coarse mesh), their tags and the fine mesh's
 * node markers, as the last refined mesh's arrays; a facet that is not a face
 * of any element marks b->bad[level] (read by check_levels). */
static homg_status backend_facets(void *user, const homg_mesh *m)
{
    backend_refine *b = (backend_refine *)user;
    homg_ctx *ctx = b->ctx;
    const gmg_kernels *k = HOMG_KERNELS(&ctx->ex, gmg);
    int dim = m->dim, per = dim == 2 ? 2 : 4;
    size_t nf = (size_t)m->num_facets, nc = nf * per;
    const int32_t *src = m->ctx_facets, *stags = m->ctx_facet_tags;
    int32_t *up = NULL, *uptags = NULL;
    double t0 = homg__gmg_now_ms();
    homg_status st = level_slots(b);
    if (st == HOMG_OK && !src) {
        st = homg__alloc_array(ctx, nf * dim, sizeof(int32_t), (void **)&up, "refinement facets");
        if (st == HOMG_OK)
            st = homg__alloc_array(ctx, nf, sizeof(int32_t), (void **)&uptags, "refinement facets");
        if (st == HOMG_OK)
            st = homg__write(ctx, up, m->facets, nf * dim * sizeof(int32_t));
        if (st == HOMG_OK)
            st = homg__write(ctx, uptags, m->facet_tags, nf * sizeof(int32_t));
        src = up;
        stags = uptags;
    }
    if (st == HOMG_OK)
        st = homg__alloc_array(ctx, nc * dim, sizeof(int32_t), (void **)&b->facets, "refinement facets");
    if (st == HOMG_OK)
        st = homg__alloc_array(ctx, nc, sizeof(int32_t), (void **)&b->ftags, "refinement facets");
    if (st == HOMG_OK)
        st = homg__alloc_array(ctx, (size_t)b->nodes, sizeof(int32_t), (void **)&b->markers, "refinement facets");
    if (st == HOMG_OK &&
        (k->refine_facets(&ctx->ex, dim, (int32_t)nf, src, stags, m->num_nodes, b->kept ? b->kept : b->keys, b->edges,
                          b->facets, b->ftags, b->bad + b->level) != HOMG_OK ||
         k->facet_markers(&ctx->ex, dim, (int32_t)nc, b->facets, b->ftags, b->nodes, b->markers) != HOMG_OK))
        st = homg__backend_fail(ctx, HOMG_ERROR_BACKEND, "refinement: facets");
    homg__free(ctx, uptags);
    homg__free(ctx, up);
    b->ms[GMG_R_FILL] += homg__gmg_now_ms() - t0;
    return st;
}

/* One read for all levels: a facet that is not a face of any element (as
 * homg_mesh_refine says it), then a level sized by a prediction that the
 * device's edges do not match (a mesh the counts' rule does not hold for:
 * repeated elements, say). */
static homg_status check_levels(backend_refine *b, homg_mesh **meshes, int nl, int *level)
{
    int32_t bad[2 * HOMG_GMG_MAX_LEVELS], *found = bad + HOMG_GMG_MAX_LEVELS;
    if (!b->bad)
        return HOMG_OK;
    HOMG_TRY(homg__read(b->ctx, bad, b->bad, sizeof bad));
    for (int l = nl - 2; l >= 0; l--)
        if (bad[l] > 0) {
            *level = l; /* the first refinement that met one */
            return homg__fail(b->ctx, HOMG_ERROR_INVALID_ARGUMENT,
                              "homg_mesh_refine: boundary facet %d is not a face of any element",
                              (int)(homg_mesh_num_facets(meshes[l + 1]) - bad[l]));
        }
    for (int l = nl - 2; l >= 0; l--)
        if (b->expect[l] >= 0 && found[l] != b->expect[l]) {
            *level = l;
            return homg__fail(b->ctx, HOMG_ERROR_INVALID_ARGUMENT,
                              "its mesh has %d distinct edges where the counts of a simplex mesh give %d "
                              "(repeated elements?)",
                              (int)found[l], (int)b->expect[l]);
        }
    return HOMG_OK;
}

/* The refined mesh m's copies in the ctx's space (what homg_mesh_upload
 * makes) from the refinement's own arrays: device to device, no upload of
 * coordinates and elements (only the tags go up). */
static homg_status adopt_backend_arrays(backend_refine *b, homg_mesh *m)
{
    homg_ctx *ctx = b->ctx;
    size_t nc = (size_t)m->num_nodes * m->dim * sizeof(double);
    size_t ne = (size_t)m->num_elements * (m->dim + 1) * sizeof(int32_t);
    size_t nt = (size_t)m->num_elements * sizeof(int32_t);
    if (!b->coords || b->nodes != m->num_nodes || b->elements != m->num_elements || m->ctx_coords)
        return b->device_only ? homg__fail(ctx, HOMG_ERROR_BACKEND, "refinement: no device arrays") : HOMG_OK;
    if (b->device_only) { /* lent: the mesh owns them, the next refinement reads them */
        m->ctx_coords = b->coords;
        m->ctx_elements = b->elems;
        m->ctx_element_tags = b->tags;
        m->ctx_facets = b->facets;
        m->ctx_facet_tags = b->ftags;
        m->ctx_node_markers = b->markers;
        b->lent = 1;
        return HOMG_OK;
    }
    HOMG_TRY(homg__alloc(ctx, nc, (void **)&m->ctx_coords, "refinement: coordinates"));
    HOMG_TRY(homg__alloc(ctx, ne, (void **)&m->ctx_elements, "refinement: elements"));
    HOMG_TRY(homg__alloc(ctx, nt, (void **)&m->ctx_element_tags, "refinement: element tags"));
    HOMG_TRY_BACKEND(ctx, ctx->mem->copy(&ctx->ex, m->ctx_coords, b->coords, nc, HOMG_D2D), "refinement");
    HOMG_TRY_BACKEND(ctx, ctx->mem->copy(&ctx->ex, m->ctx_elements, b->elems, ne, HOMG_D2D), "refinement");
    HOMG_TRY_BACKEND(ctx, ctx->mem->copy(&ctx->ex, m->ctx_element_tags, m->element_tags, nt, HOMG_H2D_ORDERED),
                     "refinement");
    return HOMG_OK;
}

static homg_status refine(homg_ctx *ctx, homg_mesh *coarse, int nl, homg_mesh **meshes, homg_host_csr *p,
                          uint64_t **dev_edges, int32_t *dev_count, double *ms)
{
    backend_refine b;
    mesh_refine_hook hook = { &b, dev_edges != NULL, backend_edges, backend_fill, backend_facets };
    memset(&b, 0, sizeof b);
    b.ctx = ctx;
    b.pe = b.pf = -1;
    for (int l = 0; l < HOMG_GMG_MAX_LEVELS; l++)
        b.expect[l] = -1;
    b.keep = dev_edges != NULL;
    b.device_only = dev_edges != NULL; /* the device set-up: no host copy of the levels */
    memset(meshes, 0, (size_t)nl * sizeof *meshes);
    meshes[nl - 1] = coarse; /* not owned */
    for (int l = nl - 2; l >= 0; l--) {
        uint64_t *edges = NULL;
        size_t ne = 0;
        double t0 = homg__gmg_now_ms(), t1, t2;
        homg_status st;
        int at = -1; /* check_levels: the level whose refinement met a facet that is no face, or a miscount */
        b.level = l;
        st = homg__mesh_refine_edges(meshes[l + 1], &hook, &meshes[l], p ? &edges : NULL, &ne);
        if (dev_edges) { /* the sorted edges stay in the ctx's space for P */
            dev_edges[l] = b.kept;
            dev_count[l] = b.kept ? b.edges : 0;
            b.kept = NULL;
        }
        t1 = homg__gmg_now_ms();
        if (st == HOMG_OK && (st = adopt_backend_arrays(&b, meshes[l])) != HOMG_OK)
            homg_mesh_destroy(meshes[l]);
        t2 = homg__gmg_now_ms();
        if (st == HOMG_OK && p) {
            st = homg__gmg_prolongation_edges(ctx, meshes[l + 1]->num_nodes, edges, ne, &p[l]);
            free(edges);
            if (st != HOMG_OK)
                homg_mesh_destroy(meshes[l]);
        }
        b.ms[GMG_R_HOST] += t1 - t0;
        b.ms[GMG_R_ADOPT] += t2 - t1;
        b.ms[GMG_R_P] += homg__gmg_now_ms() - t2;
        if (st == HOMG_OK && l == 0 && (st = check_levels(&b, meshes, nl, &at)) != HOMG_OK) {
            homg_mesh_destroy(meshes[0]);
            meshes[0] = NULL;
        }
        if (st != HOMG_OK) {
            backend_refine_free(&b);
            homg__free(ctx, b.bad);
            for (int k = l + 1; k < nl - 1; k++)
                homg_mesh_destroy(meshes[k]);
            for (int k = l; dev_edges && k < nl - 1; k++) {
                homg__free(ctx, dev_edges[k]);
                dev_edges[k] = NULL;
            }
            { /* the message quoted from a copy: vsnprintf may not read the buffer it writes */
                char why[sizeof ctx->msg];
                snprintf(why, sizeof why, "%s", homg_ctx_last_error(ctx));
                return homg__fail(ctx, st, "homg_gmg_create: refining level %d: %s", (at >= 0 ? at : l) + 1, why);
            }
        }
    }
    backend_refine_free(&b);
    homg__free(ctx, b.bad);
    b.ms[GMG_R_HOST] -= b.ms[GMG_R_EDGES] + b.ms[GMG_R_FILL]; /* the hooks ran inside */
    for (int k = 0; ms && k < GMG_R_COUNT; k++)
        ms[k] += b.ms[k];
    return HOMG_OK;
}

homg_status homg__gmg_refine(homg_ctx *ctx, homg_mesh *coarse, int nl, homg_mesh **meshes, homg_host_csr *p, double *ms)
{
    return refine(ctx, coarse, nl, meshes, p, NULL, NULL, ms);
}

homg_status homg__gmg_refine_device(homg_ctx *ctx, homg_mesh *coarse, int nl, homg_mesh **meshes, uint64_t **edges,
                                    int32_t *count, double *ms)
{
    memset(edges, 0, (size_t)nl * sizeof *edges);
    memset(count, 0, (size_t)nl * sizeof *count);
    return refine(ctx, coarse, nl, meshes, NULL, edges, count, ms);
}

/* Barycentric coordinates lam[0..dim] of x in the simplex v (dim+1 points). */
static void barycentric(int dim, const double *coords, const int32_t *v, const double *x, double *lam)
{
    double m[3][3], r[3], det;
    const double *p0 = coords + (size_t)dim * v[0];
    for (int k = 0; k < dim; k++) {
        for (int j = 0; j < dim; j++)
            m[k][j] = coords[(size_t)dim * v[j + 1] + k] - p0[k];
        r[k] = x[k] - p0[k];
    }
    if (dim == 2) {
        det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
        lam[1] = (r[0] * m[1][1] - m[0][1] * r[1]) / det;
        lam[2] = (m[0][0] * r[1] - r[0] * m[1][0]) / det;
        lam[0] = 1 - lam[1] - lam[2];
        return;
    }
    det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
          m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    for (int j = 0; j < 3; j++) { /* Cramer: column j replaced by r */
        double c[3][3];
        memcpy(c, m, sizeof c);
        for (int k = 0; k < 3; k++)
            c[k][j] = r[k];
        lam[j + 1] =
            (c[0][0] * (c[1][1] * c[2][2] - c[1][2] * c[2][1]) - c[0][1] * (c[1][0] * c[2][2] - c[1][2] * c[2][0]) +
             c[0][2] * (c[1][0] * c[2][1] - c[1][1] * c[2][0])) /
            det;
    }
    lam[0] = 1 - lam[1] - lam[2] - lam[3];
}

/* Row of fine node i: the basis of coarse element ce at its coordinates. */
static homg_status p_row(homg_ctx *ctx, const homg_mesh *fine, const homg_mesh *coarse, int32_t i, int32_t ce,
                         int32_t *cols, double *vals, int *count)
{
    int dim = coarse->dim, nv = dim + 1;
    double lam[4];
    barycentric(dim, coarse->coords, coarse->elements + (size_t)ce * nv, fine->coords + (size_t)dim * i, lam);
    *count = 0;
    for (int k = 0; k < nv; k++) {
        if (!(lam[k] >= -1e-9))
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                              "homg_gmg_create: the meshes are not nested: fine node %d lies outside coarse "
                              "element %d (barycentric coordinate %g)",
                              (int)i, (int)ce, lam[k]);
        if (fabs(lam[k]) > 1e-12) {
            int32_t c = coarse->elements[(size_t)ce * nv + k];
            int at = *count;
            while (at > 0 && cols[at - 1] > c) { /* keep columns sorted */
                cols[at] = cols[at - 1];
                vals[at] = vals[at - 1];
                at--;
            }
            cols[at] = c;
            vals[at] = lam[k];
            (*count)++;
        }
    }
    return HOMG_OK;
}

homg_status homg__gmg_prolongation(homg_ctx *ctx, const homg_mesh *fine, const homg_mesh *coarse, homg_host_csr *p)
{
    int nv = fine->dim + 1, children = fine->dim == 2 ? 4 : 8;
    int32_t n = fine->num_nodes, *parent;
    homg_status st = HOMG_OK;
    memset(p, 0, sizeof *p);
    if (fine->num_elements != coarse->num_elements * children)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_gmg_create: the fine mesh has %d elements, not %d times the coarse mesh's %d",
                          (int)fine->num_elements, children, (int)coarse->num_elements);
    parent = (int32_t *)homg__host_array(ctx, (size_t)n, sizeof *parent, "GMG prolongation");
    p->row_ptr = (int32_t *)homg__host_array(ctx, (size_t)n + 1, sizeof(int32_t), "GMG prolongation");
    p->col_idx = (int32_t *)homg__host_array(ctx, (size_t)n * nv, sizeof(int32_t), "GMG prolongation");
    p->values = (double *)homg__host_array(ctx, (size_t)n * nv, sizeof(double), "GMG prolongation");
    if (!parent || !p->row_ptr || !p->col_idx || !p->values) {
        free(parent);
        homg_host_csr_free(p);
        return HOMG_ERROR_OUT_OF_MEMORY;
    }
    for (int32_t i = 0; i < n; i++)
        parent[i] = -1;
    for (int32_t e = 0; e < fine->num_elements; e++)
        for (int k = 0; k < nv; k++)
            parent[fine->elements[(size_t)e * nv + k]] = e / children;
    p->nrows = n;
    p->ncols = coarse->num_nodes;
    p->row_ptr[0] = 0;
    for (int32_t i = 0; i < n && st == HOMG_OK; i++) {
        int cnt = 0;
        if (parent[i] >= 0)
            st = p_row(ctx, fine, coarse, i, parent[i], p->col_idx + p->row_ptr[i], p->values + p->row_ptr[i], &cnt);
        p->row_ptr[i + 1] = p->row_ptr[i] + cnt;
    }
    free(parent);
    p->nnz = p->row_ptr[n];
    if (st != HOMG_OK)
        homg_host_csr_free(p);
    return st;
}

/* P of a mesh refined from `coarse` by its rule (homg_mesh_refine): fine node
 * i < nc is coarse vertex i (row: 1), node nc + k the midpoint of the k-th
 * sorted edge (a, b) (row: 1/2 at a and b, a < b).  The same matrix as the
 * basis evaluation above, without a point location per node. */
homg_status homg__gmg_prolongation_edges(homg_ctx *ctx, int32_t nc, const uint64_t *edges, size_t ne, homg_host_csr *p)
{
    size_t n = (size_t)nc + ne;
    memset(p, 0, sizeof *p);
    p->row_ptr = (int32_t *)homg__host_array(ctx, n + 1, sizeof(int32_t), "GMG prolongation");
    p->col_idx = (int32_t *)homg__host_array(ctx, (size_t)nc + 2 * ne + 1, sizeof(int32_t), "GMG prolongation");
    p->values = (double *)homg__host_array(ctx, (size_t)nc + 2 * ne + 1, sizeof(double), "GMG prolongation");
    if (!p->row_ptr || !p->col_idx || !p->values) {
        homg_host_csr_free(p);
        return HOMG_ERROR_OUT_OF_MEMORY;
    }
    for (int32_t i = 0; i < nc; i++) {
        p->row_ptr[i] = i;
        p->col_idx[i] = i;
        p->values[i] = 1.0;
    }
    for (size_t k = 0; k < ne; k++) {
        size_t at = (size_t)nc + 2 * k;
        p->row_ptr[nc + k] = (int32_t)at;
        p->col_idx[at] = (int32_t)(edges[k] >> 32);
        p->col_idx[at + 1] = (int32_t)(edges[k] & 0xffffffffu);
        p->values[at] = p->values[at + 1] = 0.5;
    }
    p->row_ptr[n] = (int32_t)(nc + 2 * ne);
    p->nrows = (int32_t)n;
    p->ncols = nc;
    p->nnz = p->row_ptr[n];
    return HOMG_OK;
}

homg_status homg__gmg_prolongation_refined(homg_ctx *ctx, const homg_mesh *fine, const homg_mesh *coarse,
                                           homg_host_csr *p)
{
    uint64_t *edges = NULL;
    size_t ne = 0;
    homg_status st;
    memset(p, 0, sizeof *p);
    HOMG_TRY(homg__mesh_edges(ctx, coarse, &edges, &ne));
    if ((size_t)fine->num_nodes != (size_t)coarse->num_nodes + ne)
        st = homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                        "homg_gmg_create: the fine mesh has %d nodes, not the %d of the coarse mesh's refinement",
                        (int)fine->num_nodes, (int)(coarse->num_nodes + ne));
    else
        st = homg__gmg_prolongation_edges(ctx, coarse->num_nodes, edges, ne, p);
    free(edges);
    return st;
}

/* ------------------------------------------------ nested meshes given as files */

/* Coarse elements by the cells of a uniform grid over the mesh's bounding box
 * (each element in every cell its bounding box touches). */
typedef struct bucket_grid {
    int dim, n[3];
    double lo[3], h[3];
    int32_t *start, *elem; /* CSR: cell -> elements */
} bucket_grid;

static int cell_of(const bucket_grid *b, const double *x, int k)
{
    int c = (int)((x[k] - b->lo[k]) / b->h[k]);
    return c < 0 ? 0 : c >= b->n[k] ? b->n[k] - 1 : c;
}

static void elem_box(const homg_mesh *m, int32_t e, int lo[3], int hi[3], const bucket_grid *b)
{
    int dim = m->dim, nv = dim + 1;
    for (int k = 0; k < dim; k++) {
        double mn = 1e300, mx = -1e300;
        for (int j = 0; j < nv; j++) {
            double v = m->coords[(size_t)dim * m->elements[(size_t)e * nv + j] + k];
            mn = v < mn ? v : mn;
            mx = v > mx ? v : mx;
        }
        lo[k] = (int)((mn - b->lo[k]) / b->h[k]);
        hi[k] = (int)((mx - b->lo[k]) / b->h[k]);
        lo[k] = lo[k] < 0 ? 0 : lo[k] >= b->n[k] ? b->n[k] - 1 : lo[k];
        hi[k] = hi[k] < 0 ? 0 : hi[k] >= b->n[k] ? b->n[k] - 1 : hi[k];
    }
    for (int k = dim; k < 3; k++)
        lo[k] = hi[k] = 0;
}

static homg_status bucket_build(homg_ctx *ctx, const homg_mesh *m, bucket_grid *b)
{
    int dim = m->dim;
    double per = pow((double)m->num_elements, 1.0 / dim);
    int64_t cells = 1, total = 0;
    memset(b, 0, sizeof *b);
    b->dim = dim;
    for (int k = 0; k < 3; k++) {
        double mn = 1e300, mx = -1e300;
        b->n[k] = 1;
        b->h[k] = 1;
        if (k >= dim)
            continue;
        for (int32_t i = 0; i < m->num_nodes; i++) {
            double v = m->coords[(size_t)dim * i + k];
            mn = v < mn ? v : mn;
            mx = v > mx ? v : mx;
        }
        b->n[k] = per < 1 ? 1 : per > 256 ? 256 : (int)per;
        b->lo[k] = mn;
        b->h[k] = (mx - mn) / b->n[k] * (1 + 1e-12) + 1e-300;
        cells *= b->n[k];
    }
    b->start = (int32_t *)calloc((size_t)cells + 1, sizeof *b->start);
    for (int pass = 0; pass < 2 && b->start; pass++) {
        if (pass == 1) {
            for (int64_t c = 0; c < cells; c++)
                b->start[c + 1] += b->start[c];
            total = b->start[cells];
            b->elem = (int32_t *)malloc(((size_t)total + 1) * sizeof *b->elem);
            if (!b->elem)
                break;
        }
        for (int32_t e = 0; e < m->num_elements; e++) {
            int lo[3], hi[3];
            elem_box(m, e, lo, hi, b);
            for (int z = lo[2]; z <= hi[2]; z++)
                for (int y = lo[1]; y <= hi[1]; y++)
                    for (int x = lo[0]; x <= hi[0]; x++) {
                        int64_t c = x + (int64_t)b->n[0] * (y + (int64_t)b->n[1] * z);
                        if (pass == 0)
                            b->start[c + 1]++;
                        else
                            b->elem[b->start[c]++] = e;
                    }
        }
        if (pass == 1) /* start[] was advanced to the ends: shift back */
            for (int64_t c = cells; c > 0; c--)
                b->start[c] = b->start[c - 1];
        if (pass == 1)
            b->start[0] = 0;
    }
    if (!b->start || !b->elem) {
        free(b->start);
        free(b->elem);
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "homg_gmg_create_nested: out of host memory");
    }
    return HOMG_OK;
}

/* The coarse element that holds x (all barycentric coordinates >= -1e-9), or -1. */
static int32_t locate(const bucket_grid *b, const homg_mesh *m, const double *x)
{
    int64_t c = cell_of(b, x, 0);
    double lam[4];
    if (b->dim > 1)
        c += (int64_t)b->n[0] * cell_of(b, x, 1);
    if (b->dim > 2)
        c += (int64_t)b->n[0] * b->n[1] * cell_of(b, x, 2);
    for (int32_t q = b->start[c]; q < b->start[c + 1]; q++) {
        int32_t e = b->elem[q], ok = 1;
        barycentric(m->dim, m->coords, m->elements + (size_t)e * (m->dim + 1), x, lam);
        for (int k = 0; k <= m->dim; k++)
            ok &= lam[k] >= -1e-9;
        if (ok)
            return e;
    }
    return -1;
}

/* Nested: fine element e lies in one coarse element (the one holding its centroid). */
static homg_status inside_one(homg_ctx *ctx, const bucket_grid *b, const homg_mesh *fine, const homg_mesh *coarse,
                              int32_t e)
{
    int dim = fine->dim, nv = dim + 1;
    const int32_t *v = fine->elements + (size_t)e * nv;
    double c[3] = { 0, 0, 0 }, lam[4];
    int32_t ce;
    for (int j = 0; j < nv; j++)
        for (int k = 0; k < dim; k++)
            c[k] += fine->coords[(size_t)dim * v[j] + k] / nv;
    ce = locate(b, coarse, c);
    for (int j = 0; ce >= 0 && j < nv; j++) {
        barycentric(dim, coarse->coords, coarse->elements + (size_t)ce * nv, fine->coords + (size_t)dim * v[j], lam);
        for (int k = 0; k < nv; k++)
            if (!(lam[k] >= -1e-9))
                ce = -1;
    }
    if (ce < 0)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_gmg_create_nested: the meshes are not nested: fine element %d lies in no single "
                          "coarse element",
                          (int)e);
    return HOMG_OK;
}

homg_status homg__gmg_prolongation_search(homg_ctx *ctx, const homg_mesh *fine, const homg_mesh *coarse,
                                          homg_host_csr *p)
{
    int nv = fine->dim + 1;
    int32_t n = fine->num_nodes;
    bucket_grid b;
    homg_status st = HOMG_OK;
    memset(p, 0, sizeof *p);
    if (fine->dim != coarse->dim)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_gmg_create_nested: the meshes differ in dimension");
    HOMG_TRY(bucket_build(ctx, coarse, &b));
    p->row_ptr = (int32_t *)homg__host_array(ctx, (size_t)n + 1, sizeof(int32_t), "GMG prolongation");
    p->col_idx = (int32_t *)homg__host_array(ctx, (size_t)n * nv, sizeof(int32_t), "GMG prolongation");
    p->values = (double *)homg__host_array(ctx, (size_t)n * nv, sizeof(double), "GMG prolongation");
    if (!p->row_ptr || !p->col_idx || !p->values)
        st = HOMG_ERROR_OUT_OF_MEMORY;
    p->nrows = n;
    p->ncols = coarse->num_nodes;
    if (st == HOMG_OK)
        p->row_ptr[0] = 0;
    for (int32_t i = 0; i < n && st == HOMG_OK; i++) {
        int32_t e = locate(&b, coarse, fine->coords + (size_t)fine->dim * i);
        int cnt = 0;
        if (e < 0)
            st = homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                            "homg_gmg_create_nested: the meshes are not nested: fine node %d lies in no coarse "
                            "element",
                            (int)i);
        else
            st = p_row(ctx, fine, coarse, i, e, p->col_idx + p->row_ptr[i], p->values + p->row_ptr[i], &cnt);
        if (st == HOMG_OK)
            p->row_ptr[i + 1] = p->row_ptr[i] + cnt;
    }
    for (int32_t e = 0; e < fine->num_elements && st == HOMG_OK; e++)
        st = inside_one(ctx, &b, fine, coarse, e);
    free(b.start);
    free(b.elem);
    if (st != HOMG_OK) {
        homg_host_csr_free(p);
        return st;
    }
    p->nnz = p->row_ptr[n];
    return HOMG_OK;
}
