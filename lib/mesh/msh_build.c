/* msh_build.c -- the mesh from what the .msh reader collected: node tags to
 * indices, quadratic elements to their corners (nodes that are only midside
 * nodes are dropped: P2 spaces put them back at the edge midpoints), checks. */
#include "msh_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct tag_index {
    long long tag;
    int32_t index;
} tag_index;

static int cmp_tag(const void *a, const void *b)
{
    long long x = ((const tag_index *)a)->tag, y = ((const tag_index *)b)->tag;
    return x < y ? -1 : x > y;
}

typedef struct node_map {
    long long first; /* contiguous tags first, first+1, ...: index = tag - first */
    int contiguous;
    tag_index *sorted; /* otherwise */
    size_t n;
} node_map;

static homg_status build_map(msh *m, node_map *map)
{
    const long long *tags = (const long long *)m->node_tag.data;
    size_t n = m->node_tag.count;
    memset(map, 0, sizeof *map);
    map->n = n;
    map->contiguous = 1;
    map->first = n ? tags[0] : 0;
    for (size_t i = 0; i < n && map->contiguous; i++)
        if (tags[i] != map->first + (long long)i)
            map->contiguous = 0;
    if (map->contiguous)
        return HOMG_OK;
    map->sorted = (tag_index *)malloc(n * sizeof *map->sorted);
    if (!map->sorted)
        return homg__msh_oom(m);
    for (size_t i = 0; i < n; i++) {
        map->sorted[i].tag = tags[i];
        map->sorted[i].index = (int32_t)i;
    }
    qsort(map->sorted, n, sizeof *map->sorted, cmp_tag);
    for (size_t i = 1; i < n; i++)
        if (map->sorted[i].tag == map->sorted[i - 1].tag) {
            int32_t a = map->sorted[i].index, b = map->sorted[i - 1].index;
            int32_t line = ((int32_t *)m->node_line.data)[a > b ? a : b];
            long long tag = map->sorted[i].tag;
            free(map->sorted);
            map->sorted = NULL;
            if (line < 0)
                return homg__fail(m->r->ctx, HOMG_ERROR_PARSE, "%s: $Nodes: node tag %lld is defined twice", m->r->path,
                                  tag);
            return homg__fail(m->r->ctx, HOMG_ERROR_PARSE, "%s:%d: node tag %lld is defined twice", m->r->path,
                              (int)line, tag);
        }
    return HOMG_OK;
}

static int32_t map_find(const node_map *map, long long tag)
{
    if (map->contiguous) {
        if (tag < map->first || tag - map->first >= (long long)map->n)
            return -1;
        return (int32_t)(tag - map->first);
    }
    {
        tag_index key, *hit;
        key.tag = tag;
        hit = (tag_index *)bsearch(&key, map->sorted, map->n, sizeof key, cmp_tag);
        return hit ? hit->index : -1;
    }
}

/* All node tags of one list as indices (nn per element). */
static homg_status resolve(msh *m, const node_map *map, const msh_list *l, int32_t **out)
{
    const long long *tags = (const long long *)l->nodes.data;
    const msh_meta *meta = (const msh_meta *)l->meta.data;
    size_t n = l->nodes.count;
    *out = (int32_t *)malloc((n ? n : 1) * sizeof(int32_t));
    if (!*out)
        return homg__msh_oom(m);
    for (size_t i = 0; i < n; i++) {
        int32_t idx = map_find(map, tags[i]);
        if (idx < 0) {
            const msh_meta *e = &meta[i / (size_t)l->nn];
            if (e->line < 0)
                return homg__fail(m->r->ctx, HOMG_ERROR_PARSE,
                                  "%s: $Elements: element %lld: node %lld is not defined in $Nodes", m->r->path, e->id,
                                  tags[i]);
            return homg__fail(m->r->ctx, HOMG_ERROR_PARSE, "%s:%d: node %lld is not defined in $Nodes", m->r->path,
                              (int)e->line, tags[i]);
        }
        (*out)[i] = idx;
    }
    return HOMG_OK;
}

/* keep[i] = 0 for the nodes that are midside nodes of some element or facet
 * and a corner of none; new[i] their index among the kept ones. */
static homg_status midside_only(msh *m, const int32_t *const idx[2], const msh_list *const l[2], const int corners[2],
                                int32_t **renumber, int32_t *kept)
{
    size_t nn = m->node_tag.count;
    unsigned char *role = (unsigned char *)calloc(nn ? nn : 1, 1);
    int32_t *re = (int32_t *)malloc((nn ? nn : 1) * sizeof(int32_t)), count = 0;
    if (!role || !re) {
        free(role);
        free(re);
        return homg__msh_oom(m);
    }
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < l[k]->nodes.count; i++)
            role[idx[k][i]] |= (int)(i % (size_t)l[k]->nn) < corners[k] ? 1 : 2;
    for (size_t i = 0; i < nn; i++)
        re[i] = role[i] == 2 ? -1 : count++;
    free(role);
    *renumber = re;
    *kept = count;
    return HOMG_OK;
}

/* The corners of every entry of a list, renumbered (re may be NULL). */
static homg_status corners_of(msh *m, const msh_list *l, const int32_t *idx, int corners, const int32_t *re,
                              int32_t **out, int32_t **tags, int32_t **lines)
{
    size_t n = l->meta.count;
    const msh_meta *meta = (const msh_meta *)l->meta.data;
    *out = (int32_t *)malloc((n ? n : 1) * corners * sizeof(int32_t));
    *tags = (int32_t *)malloc((n ? n : 1) * sizeof(int32_t));
    if (lines)
        *lines = (int32_t *)malloc((n ? n : 1) * sizeof(int32_t));
    if (!*out || !*tags || (lines && !*lines))
        return homg__msh_oom(m);
    for (size_t e = 0; e < n; e++) {
        for (int k = 0; k < corners; k++) {
            int32_t i = idx[e * (size_t)l->nn + k];
            (*out)[e * corners + k] = re ? re[i] : i;
        }
        (*tags)[e] = meta[e].tag;
        if (lines)
            (*lines)[e] = meta[e].line;
    }
    return HOMG_OK;
}

/* Coordinates of the kept nodes; a 2D mesh must lie in one plane z = const. */
static homg_status coords_of(msh *m, int dim, const int32_t *re, double *coords)
{
    const double *xyz = (const double *)m->xyz.data;
    const int32_t *line = (const int32_t *)m->node_line.data;
    size_t nn = m->node_tag.count;
    double z0 = nn ? xyz[2] : 0;
    for (size_t i = 0; i < nn; i++) {
        size_t j = re ? (size_t)re[i] : i;
        if (re && re[i] < 0)
            continue;
        for (int k = 0; k < dim; k++)
            coords[j * dim + k] = xyz[3 * i + k];
        if (dim == 2 && xyz[3 * i + 2] != z0) {
            if (line[i] < 0)
                return homg__fail(
                    m->r->ctx, HOMG_ERROR_PARSE,
                    "%s: $Nodes: node %lld: a triangle mesh must lie in a plane z = const (surface meshes "
                    "are not supported)",
                    m->r->path, ((const long long *)m->node_tag.data)[i]);
            return homg__fail(m->r->ctx, HOMG_ERROR_PARSE,
                              "%s:%d: a triangle mesh must lie in a plane z = const (surface meshes are not supported)",
                              m->r->path, (int)line[i]);
        }
    }
    return HOMG_OK;
}

homg_status homg__msh_build(msh *m, homg_mesh **out)
{
    mesh_arrays a;
    node_map map;
    homg_status st;
    int dim = m->elems[2].meta.count ? 3 : 2;
    const msh_list *l[2] = { &m->elems[dim - 1], &m->elems[dim - 2] };
    const int corners[2] = { dim + 1, dim };
    int32_t *idx[2] = { NULL, NULL }, *re = NULL, kept = 0;
    size_t nn = m->node_tag.count;
    if (!l[0]->meta.count)
        return homg__fail(m->r->ctx, HOMG_ERROR_PARSE, "%s: no triangles or tetrahedra in the file", m->r->path);
    if (nn > INT32_MAX || l[0]->meta.count > INT32_MAX || l[1]->meta.count > INT32_MAX)
        return homg__fail(m->r->ctx, HOMG_ERROR_PARSE, "%s: more than %d nodes or elements", m->r->path, INT32_MAX);
    HOMG_TRY(build_map(m, &map));
    memset(&a, 0, sizeof a);
    st = resolve(m, &map, l[0], &idx[0]);
    if (st == HOMG_OK)
        st = resolve(m, &map, l[1], &idx[1]);
    free(map.sorted);
    if (st == HOMG_OK && (l[0]->nn > corners[0] || l[1]->nn > corners[1]))
        st = midside_only(m, (const int32_t *const *)idx, l, corners, &re, &kept);
    a.dim = dim;
    a.order = l[0]->nn > corners[0] ? 2 : 1;
    a.num_nodes = re ? kept : (int32_t)nn;
    a.num_elements = (int32_t)l[0]->meta.count;
    a.num_facets = (int32_t)l[1]->meta.count;
    if (st == HOMG_OK)
        st = corners_of(m, l[0], idx[0], corners[0], re, &a.elements, &a.element_tags,
                        m->binary ? NULL : &a.element_lines);
    if (st == HOMG_OK)
        st = corners_of(m, l[1], idx[1], corners[1], re, &a.facets, &a.facet_tags, NULL);
    if (st == HOMG_OK && !(a.coords = (double *)malloc((nn ? nn : 1) * dim * sizeof(double))))
        st = homg__msh_oom(m);
    if (st == HOMG_OK)
        st = coords_of(m, dim, re, a.coords);
    free(idx[0]);
    free(idx[1]);
    free(re);
    if (st != HOMG_OK) {
        homg__mesh_arrays_free(&a);
        return st;
    }
    return homg__mesh_finish(m->r->ctx, &a, m->r->path, out);
}
