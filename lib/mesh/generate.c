/* generate.c -- generated meshes (the unit square in triangles, the cube in
 * Kuhn tetrahedra) and midpoint refinement. */
#include "mesh_internal.h"
#include "core/search.h"
#include "core/sort.h"
#include "gmg/refine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

homg_mesh_generate_desc homg_mesh_generate_desc_defaults(const homg_mesh_generate_desc *desc)
{
    homg_mesh_generate_desc d;
    homg__desc_start(&d, desc, sizeof d);
    HOMG_DEFAULT(d.cells, 8);
    HOMG_DEFAULT(d.size, 1);
    return d;
}

static homg_status check_desc(homg_ctx *ctx, const homg_mesh_generate_desc *d, int dim, const char *fn)
{
    /* elements of the coarse mesh times 8^refine (4^refine in 2D) must fit in int32 */
    double elems = (dim == 2 ? 2.0 : 6.0) * pow((double)d->cells, dim) * pow(dim == 2 ? 4.0 : 8.0, d->refine);
    double nodes = pow((double)d->cells * pow(2.0, d->refine) + 1, dim);
    if (d->cells < 1)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: desc.cells = %d must be >= 1", fn, d->cells);
    if (!(d->size > 0) || !isfinite(d->size))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: desc.size = %g must be positive", fn, d->size);
    if (d->refine < 0 || d->refine > 30)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: desc.refine = %d out of range 0..30", fn, d->refine);
    if (elems > INT32_MAX || nodes > INT32_MAX)
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "%s: %.3g elements and %.3g nodes exceed the int32 limit", fn,
                          elems, nodes);
    return HOMG_OK;
}

static homg_status alloc_arrays(homg_ctx *ctx, mesh_arrays *a, int dim, int64_t nn, int64_t ne, int64_t nf)
{
    memset(a, 0, sizeof *a);
    a->dim = dim;
    a->num_nodes = (int32_t)nn;
    a->num_elements = (int32_t)ne;
    a->num_facets = (int32_t)nf;
    a->coords = (double *)malloc((size_t)nn * dim * sizeof(double));
    a->elements = (int32_t *)malloc((size_t)ne * (dim + 1) * sizeof(int32_t));
    a->element_tags = (int32_t *)malloc((size_t)ne * sizeof(int32_t));
    a->facets = (int32_t *)malloc((size_t)(nf ? nf : 1) * dim * sizeof(int32_t));
    a->facet_tags = (int32_t *)malloc((size_t)(nf ? nf : 1) * sizeof(int32_t));
    if (!a->coords || !a->elements || !a->element_tags || !a->facets || !a->facet_tags) {
        homg__mesh_arrays_free(a);
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "mesh generator: out of host memory");
    }
    return HOMG_OK;
}

/* Refines `times` times, replacing *m. */
static homg_status refine_times(homg_mesh **m, int times)
{
    for (int r = 0; r < times; r++) {
        homg_mesh *fine = NULL;
        homg_status st = homg_mesh_refine(*m, &fine);
        homg_mesh_destroy(*m);
        *m = fine;
        if (st != HOMG_OK)
            return st;
    }
    return HOMG_OK;
}

/* The checks and sizes both generators start with: the desc with its
 * defaults, cells per side k and the spacing h. */
static homg_status start(homg_ctx *ctx, const homg_mesh_generate_desc *desc, int dim, const char *fn, homg_mesh **out,
                         homg_mesh_generate_desc *d)
{
    HOMG_TRY(homg__begin(ctx, fn, out ? NULL : "out"));
    *out = NULL;
    *d = homg_mesh_generate_desc_defaults(desc);
    return check_desc(ctx, d, dim, fn);
}

/* Node (i, j[, l]) of a grid of k cells per side at i h, the last one exactly at size. */
static double grid_coord(int32_t i, int32_t k, double h, double size) { return i == k ? size : i * h; }

homg_status homg_mesh_generate_square(homg_ctx *ctx, const homg_mesh_generate_desc *desc, homg_mesh **out)
{
    homg_mesh_generate_desc d;
    mesh_arrays a;
    int32_t k, p, e = 0, f = 0;
    double h;
    HOMG_TRY(start(ctx, desc, 2, "homg_mesh_generate_square", out, &d));
    k = d.cells;
    p = k + 1;
    h = d.size / k;
    HOMG_TRY(alloc_arrays(ctx, &a, 2, (int64_t)p * p, 2 * (int64_t)k * k, 4 * (int64_t)k));
    for (int32_t j = 0; j < p; j++)
        for (int32_t i = 0; i < p; i++) {
            a.coords[2 * ((size_t)j * p + i)] = grid_coord(i, k, h, d.size);
            a.coords[2 * ((size_t)j * p + i) + 1] = grid_coord(j, k, h, d.size);
        }
    for (int32_t j = 0; j < k; j++)
        for (int32_t i = 0; i < k; i++) {
            int32_t v0 = j * p + i, v1 = v0 + 1, v2 = v0 + p, v3 = v2 + 1;
            int32_t t[6] = { v0, v1, v3, v0, v3, v2 }; /* counter-clockwise */
            memcpy(a.elements + 3 * (size_t)e, t, sizeof t);
            a.element_tags[e] = a.element_tags[e + 1] = 1;
            e += 2;
        }
    for (int32_t i = 0; i < k; i++) {
        int32_t s[4][2] = { { i * p, (i + 1) * p },         /* x = 0 */
                            { i * p + k, (i + 1) * p + k }, /* x = size */
                            { i, i + 1 },                   /* y = 0 */
                            { k * p + i, k * p + i + 1 } }; /* y = size */
        for (int t = 0; t < 4; t++) {
            a.facets[2 * (size_t)f] = s[t][0];
            a.facets[2 * (size_t)f + 1] = s[t][1];
            a.facet_tags[f++] = t + 1;
        }
    }
    HOMG_TRY(homg__mesh_finish(ctx, &a, NULL, out));
    return refine_times(out, d.refine);
}

/* The six Kuhn tetrahedra of a cube, positively oriented: paths from corner 0
 * to corner 7 along the axes in each order (corner bits: x = 1, y = 2, z = 4);
 * odd axis orders come out inverted and get two corners swapped. */
static void kuhn_tetrahedra(int tet[6][4])
{
    static const int kuhn[6][4] = { { 0, 1, 3, 7 }, { 0, 1, 5, 7 }, { 0, 2, 3, 7 },
                                    { 0, 2, 6, 7 }, { 0, 4, 5, 7 }, { 0, 4, 6, 7 } };
    for (int t = 0; t < 6; t++) {
        double x[12];
        int32_t n[4] = { 0, 1, 2, 3 };
        for (int v = 0; v < 4; v++)
            for (int c = 0; c < 3; c++)
                x[3 * v + c] = (kuhn[t][v] >> c) & 1;
        memcpy(tet[t], kuhn[t], sizeof tet[t]);
        if (homg__element_det(3, x, n) < 0) {
            tet[t][2] = kuhn[t][3];
            tet[t][3] = kuhn[t][2];
        }
    }
}

/* Nodes and the six tetrahedra of every cell of a k^3 cube of side `size`. */
static void cube_volume(mesh_arrays *a, int32_t k, double size)
{
    int32_t p = k + 1;
    double h = size / k;
    int tet[6][4];
    int64_t e = 0;
    kuhn_tetrahedra(tet);
    for (int32_t z = 0; z < p; z++)
        for (int32_t y = 0; y < p; y++)
            for (int32_t x = 0; x < p; x++) {
                double *c = a->coords + 3 * (((size_t)z * p + y) * p + x);
                c[0] = grid_coord(x, k, h, size);
                c[1] = grid_coord(y, k, h, size);
                c[2] = grid_coord(z, k, h, size);
            }
    for (int32_t z = 0; z < k; z++)
        for (int32_t y = 0; y < k; y++)
            for (int32_t x = 0; x < k; x++) {
                int32_t v[8];
                for (int b = 0; b < 8; b++)
                    v[b] = ((z + ((b >> 2) & 1)) * p + y + ((b >> 1) & 1)) * p + x + (b & 1);
                for (int t = 0; t < 6; t++, e++) {
                    for (int c = 0; c < 4; c++)
                        a->elements[4 * e + c] = v[tet[t][c]];
                    a->element_tags[e] = 1;
                }
            }
}

/* Boundary: each cell face in two triangles along its min-max diagonal (as the
 * Kuhn split cuts it), tagged by side 1..6 (x = 0, x = size, y = 0 ...). */
static void cube_boundary(mesh_arrays *a, int32_t k)
{
    int32_t p = k + 1;
    int64_t f = 0;
    for (int side = 0; side < 6; side++) {
        int axis = side / 2, u = (axis + 1) % 3, w = (axis + 2) % 3;
        int32_t fixed = (side & 1) ? k : 0;
        if (u > w) {
            int t = u;
            u = w;
            w = t;
        }
        for (int32_t j = 0; j < k; j++)
            for (int32_t i = 0; i < k; i++) {
                int32_t c[4];
                for (int b = 0; b < 4; b++) {
                    int32_t q[3];
                    q[axis] = fixed;
                    q[u] = i + (b & 1);
                    q[w] = j + (b >> 1);
                    c[b] = (q[2] * p + q[1]) * p + q[0];
                }
                int32_t tri[6] = { c[0], c[1], c[3], c[0], c[2], c[3] };
                memcpy(a->facets + 3 * f, tri, sizeof tri);
                a->facet_tags[f] = a->facet_tags[f + 1] = side + 1;
                f += 2;
            }
    }
}

homg_status homg_mesh_generate_cube(homg_ctx *ctx, const homg_mesh_generate_desc *desc, homg_mesh **out)
{
    homg_mesh_generate_desc d;
    mesh_arrays a;
    int32_t k, p;
    HOMG_TRY(start(ctx, desc, 3, "homg_mesh_generate_cube", out, &d));
    k = d.cells;
    p = k + 1;
    HOMG_TRY(alloc_arrays(ctx, &a, 3, (int64_t)p * p * p, 6 * (int64_t)k * k * k, 12 * (int64_t)k * k));
    cube_volume(&a, k, d.size);
    cube_boundary(&a, k);
    HOMG_TRY(homg__mesh_finish(ctx, &a, NULL, out));
    return refine_times(out, d.refine);
}

/* ------------------------------------------------------------ refinement */

static uint64_t edge_key(int32_t a, int32_t b)
{
    return a < b ? ((uint64_t)a << 32) | (uint32_t)b : ((uint64_t)b << 32) | (uint32_t)a;
}

homg_status homg__mesh_edges(homg_ctx *ctx, const homg_mesh *m, uint64_t **out, size_t *count)
{
    int nv = m->dim + 1, per = nv * (nv - 1) / 2;
    size_t n = (size_t)m->num_elements * per, c = 0;
    uint64_t *keys = (uint64_t *)malloc(n * sizeof *keys), *tmp = (uint64_t *)malloc(n * sizeof *tmp);
    *out = NULL;
    *count = 0;
    if (!keys || !tmp) {
        free(keys);
        free(tmp);
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "mesh edges: out of host memory");
    }
    for (int32_t e = 0; e < m->num_elements; e++) {
        const int32_t *v = m->elements + (size_t)e * nv;
        for (int i = 0; i < nv; i++)
            for (int j = i + 1; j < nv; j++)
                keys[c++] = edge_key(v[i], v[j]);
    }
    homg_cpu_sort_u64(keys, tmp, n, 32 + homg_cpu_sort_bits_for((uint64_t)m->num_nodes));
    free(tmp);
    *count = homg_cpu_sort_unique_u64(keys, n);
    *out = keys;
    return HOMG_OK;
}

/* The index of edge (a, b) in the sorted edges, or -1; first[v] .. first[v + 1]
 * are the edges whose smaller end is v (a short scan: a binary search over
 * all edges missed the cache at every step, 5-8 ms for the 65^3 cube's facets). */
static int32_t edge_index(const uint64_t *edges, const int32_t *first, int32_t a, int32_t b)
{
    uint64_t key = edge_key(a, b);
    int32_t lo = a < b ? a : b;
    for (int32_t k = first[lo]; k < first[lo + 1]; k++)
        if (edges[k] == key)
            return k;
    return -1;
}

/* first[v] for v = 0 .. nodes (see edge_index); NULL when out of memory. */
static int32_t *edge_starts(const uint64_t *edges, size_t ne_u, int32_t nodes)
{
    int32_t *first = (int32_t *)malloc(((size_t)nodes + 1) * sizeof *first);
    size_t k = 0;
    for (int32_t v = 0; first && v <= nodes; v++) {
        while (k < ne_u && (int64_t)(edges[k] >> 32) < v)
            k++;
        first[v] = (int32_t)k;
    }
    return first;
}

/* New nodes: the old ones, then the midpoint of each edge (edges[i] gives
 * node num_nodes + i; kernels/gmg/refine.h).  Without facets, a midpoint is
 * marked where both ends are (the smaller marker). */
static void refine_nodes(const homg_mesh *m, const uint64_t *edges, size_t ne_u, mesh_arrays *a, int coords)
{
    for (int64_t i = 0; coords && i < (int64_t)m->num_nodes + (int64_t)ne_u; i++)
        refine_node(m->dim, m->coords, m->num_nodes, edges, i, a->coords);
    if (!a->node_markers)
        return;
    memcpy(a->node_markers, m->node_markers, (size_t)m->num_nodes * sizeof(int32_t));
    for (size_t i = 0; i < ne_u; i++) {
        int32_t p = (int32_t)(edges[i] >> 32), q = (int32_t)(edges[i] & 0xffffffffu);
        int32_t mp = m->node_markers[p], mq = m->node_markers[q];
        a->node_markers[m->num_nodes + i] = (mp && mq) ? (mp < mq ? mp : mq) : 0;
    }
}

/* The children of every element (kernels/gmg/refine.h: the rule the device
 * refinement shares), unless already there, and their tags. */
static void refine_elements(const homg_mesh *m, const uint64_t *edges, size_t ne_u, mesh_arrays *a, int elements)
{
    int children = m->dim == 2 ? 4 : 8;
    for (int32_t e = 0; e < m->num_elements; e++) {
        if (elements)
            refine_element_children(m->dim, m->elements, e, m->num_nodes, edges, (int32_t)ne_u, a->coords,
                                    a->elements + (size_t)e * children * (m->dim + 1));
        for (int t = 0; t < children; t++)
            a->element_tags[(size_t)e * children + t] = m->element_tags[e];
    }
}

/* The children of every boundary facet (2 segments or 4 triangles), with its tag. */
static homg_status refine_facets(homg_ctx *ctx, const homg_mesh *m, const uint64_t *edges, size_t ne_u, mesh_arrays *a)
{
    int dim = m->dim;
    int32_t *first = m->num_facets ? edge_starts(edges, ne_u, m->num_nodes) : NULL;
    if (m->num_facets && !first)
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "homg_mesh_refine: out of host memory");
    for (int32_t f = 0; f < m->num_facets; f++) {
        const int32_t *v = m->facets + (size_t)f * dim;
        int32_t mm[3];
        for (int k = 0; k < (dim == 2 ? 1 : 3); k++) {
            int32_t i = edge_index(edges, first, v[k], v[(k + 1) % dim]);
            if (i < 0) {
                free(first);
                return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                                  "homg_mesh_refine: boundary facet %d is not a face of any element", (int)f);
            }
            mm[k] = m->num_nodes + i; /* midpoints of the facet's edges v0v1, v1v2, v2v0 */
        }
        if (dim == 2) {
            int32_t t[4] = { v[0], mm[0], mm[0], v[1] };
            memcpy(a->facets + 4 * (size_t)f, t, sizeof t);
            a->facet_tags[2 * (size_t)f] = a->facet_tags[2 * (size_t)f + 1] = m->facet_tags[f];
        } else {
            int32_t t[12] = { v[0], mm[0], mm[2], mm[0], v[1], mm[1], mm[2], mm[1], v[2], mm[0], mm[1], mm[2] };
            memcpy(a->facets + 12 * (size_t)f, t, sizeof t);
            for (int s = 0; s < 4; s++)
                a->facet_tags[4 * (size_t)f + s] = m->facet_tags[f];
        }
    }
    free(first);
    return HOMG_OK;
}

/* The arrays of the refined mesh: nodes plus edge midpoints, children counts
 * (volume: coordinates, elements and their tags too). */
static homg_status refine_alloc(const homg_mesh *m, size_t ne_u, mesh_arrays *a, int volume, int facets)
{
    homg_ctx *ctx = m->ctx;
    int64_t nn = (int64_t)m->num_nodes + (int64_t)ne_u;
    int64_t ne = (int64_t)m->num_elements * (m->dim == 2 ? 4 : 8);
    int64_t nf = (int64_t)m->num_facets * (m->dim == 2 ? 2 : 4);
    memset(a, 0, sizeof *a);
    if (nn > INT32_MAX || ne > INT32_MAX || nf > INT32_MAX)
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "homg_mesh_refine: the refined mesh exceeds the int32 limit");
    if (volume) {
        HOMG_TRY(alloc_arrays(ctx, a, m->dim, nn, ne, nf));
    } else {
        HOMG_TRY(alloc_arrays(ctx, a, m->dim, 1, 1, nf));
        free(a->coords);
        free(a->elements);
        free(a->element_tags);
        a->coords = NULL;
        a->elements = a->element_tags = NULL;
        a->num_nodes = (int32_t)nn;
        a->num_elements = (int32_t)ne;
        a->volume_elsewhere = 1;
    }
    if (!facets) { /* made elsewhere (the hook's facets) */
        free(a->facets);
        free(a->facet_tags);
        a->facets = a->facet_tags = NULL;
        a->facets_elsewhere = 1;
    }
    if (m->num_facets == 0 && !(a->node_markers = (int32_t *)malloc((size_t)nn * sizeof(int32_t))))
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "homg_mesh_refine: out of host memory");
    return HOMG_OK;
}

homg_status homg_mesh_refine(const homg_mesh *m, homg_mesh **out)
{
    if (!m)
        return HOMG_ERROR_INVALID_ARGUMENT;
    HOMG_TRY(homg__begin(m->ctx, "homg_mesh_refine", out ? NULL : "out"));
    return homg__mesh_refine_edges(m, NULL, out, NULL, NULL);
}

homg_status homg__mesh_refine_edges(const homg_mesh *m, const mesh_refine_hook *hook, homg_mesh **out,
                                    uint64_t **edges_out, size_t *count)
{
    homg_ctx *ctx = m->ctx;
    mesh_arrays a;
    uint64_t *edges = NULL;
    size_t ne_u = 0;
    homg_status st;
    /* facets and markers by the hook: no host copy of the edges, no host pass */
    int elsewhere = hook && hook->device_only && hook->facets && m->num_facets > 0 && !edges_out;
    *out = NULL;
    HOMG_TRY(hook ? hook->edges(hook->user, m, elsewhere ? NULL : &edges, &ne_u)
                  : homg__mesh_edges(ctx, m, &edges, &ne_u));
    st = refine_alloc(m, ne_u, &a, !(hook && hook->device_only), !elsewhere);
    if (st == HOMG_OK && hook)
        st = hook->fill(hook->user, m, a.coords, a.elements);
    if (st == HOMG_OK && elsewhere)
        st = hook->facets(hook->user, m);
    if (st == HOMG_OK && !elsewhere) {
        refine_nodes(m, edges, ne_u, &a, !hook);
        if (a.element_tags)
            refine_elements(m, edges, ne_u, &a, !hook);
        st = refine_facets(ctx, m, edges, ne_u, &a);
    }
    if (st == HOMG_OK)
        st = homg__mesh_finish_checked(ctx, &a, out); /* children of valid elements, oriented positively */
    else
        homg__mesh_arrays_free(&a);
    if (st == HOMG_OK && edges_out) {
        *edges_out = edges;
        *count = ne_u;
    } else {
        free(edges);
    }
    return st;
}
