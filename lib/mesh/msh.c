/* msh.c -- Gmsh .msh reader, ASCII formats 2.2 and 4.1 (plain or gzip).
 *
 * Triangles (type 2) and tetrahedra (type 4) become the elements or the
 * boundary facets: a file with tetrahedra is a 3D mesh whose triangles are
 * facets; otherwise triangles are the elements and lines (type 1) the facets.
 * Points (type 15) are skipped; any other element type is an error.  An
 * element's tag is its physical tag (2.2: the first tag; 4.1: the first
 * physical tag of its entity), 0 when it has none. */
#include "mesh_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct msh_elem {
    long long node[4];
    int32_t tag;
    int32_t line;
} msh_elem;

typedef struct msh_entity {
    long long tag;
    int dim;
    int32_t phys;
} msh_entity;

typedef struct msh {
    line_reader *r;
    int version; /* 2 or 4 */
    int have_format, have_nodes, have_elements;
    host_vec xyz;       /* double[3] per node */
    host_vec node_tag;  /* long long per node */
    host_vec node_line; /* int32_t per node */
    host_vec elems[3];  /* msh_elem: lines, triangles, tetrahedra */
    host_vec entities;  /* msh_entity (4.1) */
} msh;

static homg_status oom(msh *m)
{
    return homg__fail(m->r->ctx, HOMG_ERROR_OUT_OF_MEMORY, "%s: out of host memory", m->r->path);
}

static homg_status content(msh *m, char **line, const char *section)
{
    HOMG_TRY(homg__lines_next_content(m->r, line, 0));
    if (!*line)
        return homg__lines_fail(m->r, "unexpected end of file in %s", section);
    return HOMG_OK;
}

static int is_word(const char *line, const char *word)
{
    size_t n = strlen(word);
    while (*line == ' ' || *line == '\t')
        line++;
    return !strncmp(line, word, n) && homg__tok_end(line + n);
}

static homg_status expect_end(msh *m, const char *end, const char *count_hint)
{
    char *line;
    HOMG_TRY(content(m, &line, end + 4));
    if (!is_word(line, end))
        return homg__lines_fail(m->r, "expected %s%s", end, count_hint);
    return HOMG_OK;
}

/* A count field: ll in [lo, hi]. */
static homg_status tok_count(msh *m, char **p, long long *v, long long lo, long long hi, const char *what)
{
    if (!homg__tok_ll(p, v))
        return homg__lines_fail(m->r, "expected %s (an integer)", what);
    if (*v < lo || *v > hi)
        return homg__lines_fail(m->r, "%s = %lld out of range %lld..%lld", what, *v, lo, hi);
    return HOMG_OK;
}

static homg_status parse_format(msh *m)
{
    char *line, *p;
    double version;
    long long file_type, data_size;
    HOMG_TRY(content(m, &line, "$MeshFormat"));
    p = line;
    if (!homg__tok_double(&p, &version) || !homg__tok_ll(&p, &file_type) || !homg__tok_ll(&p, &data_size))
        return homg__lines_fail(m->r, "expected 'version file-type data-size' in $MeshFormat");
    if (version >= 2.0 && version < 2.3)
        m->version = 2;
    else if (fabs(version - 4.1) < 1e-9)
        m->version = 4;
    else
        return homg__lines_fail(m->r, "unsupported .msh format version %g (homg reads 2.2 and 4.1)", version);
    if (file_type != 0)
        return homg__lines_fail(m->r, "binary .msh is not supported; save it as ASCII (gmsh option -bin 0, or "
                                      "Mesh.Binary = 0)");
    m->have_format = 1;
    return expect_end(m, "$EndMeshFormat", "");
}

static homg_status push_node(msh *m, long long tag, const double xyz[3])
{
    int32_t line = (int32_t)m->r->line;
    for (int k = 0; k < 3; k++)
        if (!isfinite(xyz[k]))
            return homg__lines_fail(m->r, "node %lld has a coordinate that is not a finite number", tag);
    if (!homg__vec_push(&m->xyz, xyz) || !homg__vec_push(&m->node_tag, &tag) || !homg__vec_push(&m->node_line, &line))
        return oom(m);
    return HOMG_OK;
}

static homg_status parse_nodes2(msh *m)
{
    char *line, *p;
    long long n, tag;
    double xyz[3];
    HOMG_TRY(content(m, &line, "$Nodes"));
    p = line;
    HOMG_TRY(tok_count(m, &p, &n, 0, INT32_MAX, "number of nodes"));
    HOMG_TRY(homg__lines_check_count(m->r, n, 8, "nodes"));
    for (long long i = 0; i < n; i++) {
        HOMG_TRY(content(m, &line, "$Nodes"));
        if (line[0] == '$')
            return homg__lines_fail(m->r, "$Nodes ends after %lld of the %lld nodes it announced", i, n);
        p = line;
        if (!homg__tok_ll(&p, &tag) || !homg__tok_double(&p, &xyz[0]) || !homg__tok_double(&p, &xyz[1]) ||
            !homg__tok_double(&p, &xyz[2]))
            return homg__lines_fail(m->r, "expected 'node-tag x y z'");
        HOMG_TRY(push_node(m, tag, xyz));
    }
    return expect_end(m, "$EndNodes", " (more nodes than announced?)");
}

static homg_status parse_nodes4(msh *m)
{
    char *line, *p;
    long long blocks, n, mintag, maxtag, done = 0;
    HOMG_TRY(content(m, &line, "$Nodes"));
    p = line;
    HOMG_TRY(tok_count(m, &p, &blocks, 0, INT32_MAX, "number of entity blocks"));
    HOMG_TRY(tok_count(m, &p, &n, 0, INT32_MAX, "number of nodes"));
    if (!homg__tok_ll(&p, &mintag) || !homg__tok_ll(&p, &maxtag))
        return homg__lines_fail(m->r, "expected 'numEntityBlocks numNodes minNodeTag maxNodeTag'");
    HOMG_TRY(homg__lines_check_count(m->r, blocks, 8, "node blocks"));
    HOMG_TRY(homg__lines_check_count(m->r, n, 8, "nodes"));
    for (long long b = 0; b < blocks; b++) {
        long long edim, etag, param, nb;
        size_t first = m->node_tag.count;
        HOMG_TRY(content(m, &line, "$Nodes"));
        p = line;
        if (!homg__tok_ll(&p, &edim) || !homg__tok_ll(&p, &etag) || !homg__tok_ll(&p, &param))
            return homg__lines_fail(m->r, "expected 'entityDim entityTag parametric numNodesInBlock'");
        HOMG_TRY(tok_count(m, &p, &nb, 0, n - done, "numNodesInBlock (beyond the announced node count)"));
        for (long long i = 0; i < nb; i++) {
            long long tag;
            static const double zero[3] = { 0, 0, 0 };
            HOMG_TRY(content(m, &line, "$Nodes"));
            p = line;
            if (!homg__tok_ll(&p, &tag) || !homg__tok_end(p))
                return homg__lines_fail(m->r, "expected a node tag");
            HOMG_TRY(push_node(m, tag, zero));
        }
        for (long long i = 0; i < nb; i++) {
            double *xyz = (double *)m->xyz.data + 3 * (first + (size_t)i);
            HOMG_TRY(content(m, &line, "$Nodes"));
            p = line;
            if (!homg__tok_double(&p, &xyz[0]) || !homg__tok_double(&p, &xyz[1]) || !homg__tok_double(&p, &xyz[2]))
                return homg__lines_fail(m->r, "expected node coordinates 'x y z'");
            for (int k = 0; k < 3; k++)
                if (!isfinite(xyz[k]))
                    return homg__lines_fail(m->r, "node coordinate is not a finite number");
            ((int32_t *)m->node_line.data)[first + (size_t)i] = (int32_t)m->r->line;
        }
        done += nb;
    }
    if (done != n)
        return homg__lines_fail(m->r, "$Nodes announced %lld nodes but its blocks hold %lld", n, done);
    return expect_end(m, "$EndNodes", "");
}

/* Nodes per element of the types read; 0: unsupported. */
static int type_nodes(long long type)
{
    switch (type) {
    case 15: return 1;
    case 1: return 2;
    case 2: return 3;
    case 4: return 4;
    default: return 0;
    }
}

static homg_status unsupported_type(msh *m, long long type)
{
    return homg__lines_fail(m->r,
                            "element type %lld is not supported (homg reads P1 triangles (2), tetrahedra "
                            "(4), lines (1) and points (15))",
                            type);
}

/* Reads `nn` node tags from p into an element of the given type and stores it. */
static homg_status push_elem(msh *m, char *p, long long type, int32_t tag, int last_on_line)
{
    msh_elem e;
    int nn = type_nodes(type);
    memset(&e, 0, sizeof e);
    for (int k = 0; k < nn; k++)
        if (!homg__tok_ll(&p, &e.node[k]))
            return homg__lines_fail(m->r, "element of type %lld needs %d node tags", type, nn);
    if (last_on_line && !homg__tok_end(p))
        return homg__lines_fail(m->r, "more node tags than an element of type %lld has", type);
    if (type == 15)
        return HOMG_OK;
    e.tag = tag;
    e.line = (int32_t)m->r->line;
    if (!homg__vec_push(&m->elems[type == 1 ? 0 : type == 2 ? 1 : 2], &e))
        return oom(m);
    return HOMG_OK;
}

static homg_status parse_elements2(msh *m)
{
    char *line, *p;
    long long n;
    HOMG_TRY(content(m, &line, "$Elements"));
    p = line;
    HOMG_TRY(tok_count(m, &p, &n, 0, INT32_MAX, "number of elements"));
    HOMG_TRY(homg__lines_check_count(m->r, n, 10, "elements"));
    for (long long i = 0; i < n; i++) {
        long long id, type, ntags, t, phys = 0;
        HOMG_TRY(content(m, &line, "$Elements"));
        if (line[0] == '$')
            return homg__lines_fail(m->r, "$Elements ends after %lld of the %lld elements it announced", i, n);
        p = line;
        if (!homg__tok_ll(&p, &id) || !homg__tok_ll(&p, &type) || !homg__tok_ll(&p, &ntags))
            return homg__lines_fail(m->r, "expected 'elm-number elm-type number-of-tags tags... nodes...'");
        if (!type_nodes(type))
            return unsupported_type(m, type);
        if (ntags < 0 || ntags > 64)
            return homg__lines_fail(m->r, "number-of-tags = %lld out of range 0..64", ntags);
        for (long long k = 0; k < ntags; k++) {
            if (!homg__tok_ll(&p, &t))
                return homg__lines_fail(m->r, "expected %lld tags", ntags);
            if (k == 0)
                phys = t;
        }
        if (phys < INT32_MIN || phys > INT32_MAX)
            return homg__lines_fail(m->r, "physical tag %lld out of the int32 range", phys);
        HOMG_TRY(push_elem(m, p, type, (int32_t)phys, 1));
    }
    return expect_end(m, "$EndElements", " (more elements than announced?)");
}

static homg_status parse_entities(msh *m)
{
    char *line, *p;
    long long count[4];
    HOMG_TRY(content(m, &line, "$Entities"));
    p = line;
    for (int d = 0; d < 4; d++)
        HOMG_TRY(tok_count(m, &p, &count[d], 0, INT32_MAX, "number of entities"));
    for (int d = 0; d < 4; d++) {
        HOMG_TRY(homg__lines_check_count(m->r, count[d], 8, "entities"));
        for (long long i = 0; i < count[d]; i++) {
            msh_entity e;
            long long nphys, phys = 0;
            double skip;
            HOMG_TRY(content(m, &line, "$Entities"));
            p = line;
            if (!homg__tok_ll(&p, &e.tag))
                return homg__lines_fail(m->r, "expected an entity tag");
            for (int k = 0; k < (d == 0 ? 3 : 6); k++)
                if (!homg__tok_double(&p, &skip))
                    return homg__lines_fail(m->r, "expected the entity's coordinates or bounding box");
            HOMG_TRY(tok_count(m, &p, &nphys, 0, 1 << 20, "numPhysicalTags"));
            for (long long k = 0; k < nphys; k++) {
                long long t;
                if (!homg__tok_ll(&p, &t))
                    return homg__lines_fail(m->r, "expected %lld physical tags", nphys);
                if (k == 0)
                    phys = t;
            }
            if (phys < INT32_MIN || phys > INT32_MAX)
                return homg__lines_fail(m->r, "physical tag %lld out of the int32 range", phys);
            e.dim = d;
            e.phys = (int32_t)phys;
            if (!homg__vec_push(&m->entities, &e))
                return oom(m);
        }
    }
    return expect_end(m, "$EndEntities", "");
}

static int cmp_entity(const void *a, const void *b)
{
    const msh_entity *x = (const msh_entity *)a, *y = (const msh_entity *)b;
    if (x->dim != y->dim)
        return x->dim < y->dim ? -1 : 1;
    return x->tag < y->tag ? -1 : x->tag > y->tag;
}

static int32_t entity_phys(msh *m, int dim, long long tag)
{
    msh_entity key, *e;
    key.dim = dim;
    key.tag = tag;
    if (m->entities.count == 0) /* no $Entities: data is NULL, which bsearch may not take */
        return 0;
    e = (msh_entity *)bsearch(&key, m->entities.data, m->entities.count, sizeof key, cmp_entity);
    return e ? e->phys : 0;
}

static homg_status parse_elements4(msh *m)
{
    char *line, *p;
    long long blocks, n, mintag, maxtag, done = 0;
    if (m->entities.count > 0) /* qsort may not take NULL either, even for 0 items */
        qsort(m->entities.data, m->entities.count, sizeof(msh_entity), cmp_entity);
    HOMG_TRY(content(m, &line, "$Elements"));
    p = line;
    HOMG_TRY(tok_count(m, &p, &blocks, 0, INT32_MAX, "number of entity blocks"));
    HOMG_TRY(tok_count(m, &p, &n, 0, INT32_MAX, "number of elements"));
    if (!homg__tok_ll(&p, &mintag) || !homg__tok_ll(&p, &maxtag))
        return homg__lines_fail(m->r, "expected 'numEntityBlocks numElements minElementTag maxElementTag'");
    HOMG_TRY(homg__lines_check_count(m->r, blocks, 8, "element blocks"));
    HOMG_TRY(homg__lines_check_count(m->r, n, 4, "elements"));
    for (long long b = 0; b < blocks; b++) {
        long long edim, etag, type, nb;
        int32_t phys;
        HOMG_TRY(content(m, &line, "$Elements"));
        p = line;
        if (!homg__tok_ll(&p, &edim) || !homg__tok_ll(&p, &etag) || !homg__tok_ll(&p, &type))
            return homg__lines_fail(m->r, "expected 'entityDim entityTag elementType numElementsInBlock'");
        HOMG_TRY(tok_count(m, &p, &nb, 0, n - done, "numElementsInBlock (beyond the announced element count)"));
        if (!type_nodes(type))
            return unsupported_type(m, type);
        phys = entity_phys(m, (int)edim, etag);
        for (long long i = 0; i < nb; i++) {
            long long id;
            HOMG_TRY(content(m, &line, "$Elements"));
            p = line;
            if (!homg__tok_ll(&p, &id))
                return homg__lines_fail(m->r, "expected 'elementTag nodeTag...'");
            HOMG_TRY(push_elem(m, p, type, phys, 1));
        }
        done += nb;
    }
    if (done != n)
        return homg__lines_fail(m->r, "$Elements announced %lld elements but its blocks hold %lld", n, done);
    return expect_end(m, "$EndElements", "");
}

static homg_status skip_section(msh *m, const char *name)
{
    char end[80], *line;
    snprintf(end, sizeof end, "$End%.60s", name + 1);
    for (;;) {
        HOMG_TRY(homg__lines_next(m->r, &line));
        if (!line)
            return homg__lines_fail(m->r, "unexpected end of file in %s (no %s)", name, end);
        if (is_word(line, end))
            return HOMG_OK;
    }
}

/* ---------------------------------------------------- node tags to indices */

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
        return oom(m);
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

/* Resolves one list of msh elements into index arrays. */
static homg_status resolve(msh *m, const node_map *map, const host_vec *v, int nv, int32_t **nodes, int32_t **tags,
                           int32_t **lines)
{
    const msh_elem *e = (const msh_elem *)v->data;
    size_t n = v->count;
    *nodes = (int32_t *)malloc((n ? n : 1) * nv * sizeof(int32_t));
    *tags = (int32_t *)malloc((n ? n : 1) * sizeof(int32_t));
    if (lines)
        *lines = (int32_t *)malloc((n ? n : 1) * sizeof(int32_t));
    if (!*nodes || !*tags || (lines && !*lines))
        return oom(m);
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < nv; k++) {
            int32_t idx = map_find(map, e[i].node[k]);
            if (idx < 0)
                return homg__fail(m->r->ctx, HOMG_ERROR_PARSE, "%s:%d: node %lld is not defined in $Nodes", m->r->path,
                                  (int)e[i].line, e[i].node[k]);
            (*nodes)[i * nv + k] = idx;
        }
        (*tags)[i] = e[i].tag;
        if (lines)
            (*lines)[i] = e[i].line;
    }
    return HOMG_OK;
}

static homg_status build(msh *m, homg_mesh **out)
{
    mesh_arrays a;
    node_map map;
    homg_status st;
    int dim = m->elems[2].count ? 3 : 2;
    size_t nn = m->node_tag.count;
    const double *xyz = (const double *)m->xyz.data;
    if (!m->elems[dim - 1].count)
        return homg__fail(m->r->ctx, HOMG_ERROR_PARSE, "%s: no triangles or tetrahedra in the file", m->r->path);
    if (nn > INT32_MAX || m->elems[dim - 1].count > INT32_MAX || m->elems[dim - 2].count > INT32_MAX)
        return homg__fail(m->r->ctx, HOMG_ERROR_PARSE, "%s: more than %d nodes or elements", m->r->path, INT32_MAX);
    HOMG_TRY(build_map(m, &map));
    memset(&a, 0, sizeof a);
    a.dim = dim;
    a.num_nodes = (int32_t)nn;
    a.num_elements = (int32_t)m->elems[dim - 1].count;
    a.num_facets = (int32_t)m->elems[dim - 2].count;
    st = resolve(m, &map, &m->elems[dim - 1], dim + 1, &a.elements, &a.element_tags, &a.element_lines);
    if (st == HOMG_OK)
        st = resolve(m, &map, &m->elems[dim - 2], dim, &a.facets, &a.facet_tags, NULL);
    free(map.sorted);
    if (st == HOMG_OK && !(a.coords = (double *)malloc((nn ? nn : 1) * dim * sizeof(double))))
        st = oom(m);
    for (size_t i = 0; st == HOMG_OK && i < nn; i++) {
        a.coords[i * dim] = xyz[3 * i];
        a.coords[i * dim + 1] = xyz[3 * i + 1];
        if (dim == 3)
            a.coords[i * dim + 2] = xyz[3 * i + 2];
        else if (xyz[3 * i + 2] != xyz[2])
            st = homg__fail(m->r->ctx, HOMG_ERROR_PARSE,
                            "%s:%d: a triangle mesh must lie in a plane z = const (surface meshes are not supported)",
                            m->r->path, (int)((int32_t *)m->node_line.data)[i]);
    }
    if (st != HOMG_OK) {
        homg__mesh_arrays_free(&a);
        return st;
    }
    return homg__mesh_finish(m->r->ctx, &a, m->r->path, out);
}

homg_status homg__read_msh(line_reader *r, homg_mesh **out)
{
    msh m;
    homg_status st = HOMG_OK;
    char *line;
    memset(&m, 0, sizeof m);
    m.r = r;
    homg__vec_init(&m.xyz, 3 * sizeof(double));
    homg__vec_init(&m.node_tag, sizeof(long long));
    homg__vec_init(&m.node_line, sizeof(int32_t));
    for (int k = 0; k < 3; k++)
        homg__vec_init(&m.elems[k], sizeof(msh_elem));
    homg__vec_init(&m.entities, sizeof(msh_entity));
    for (;;) {
        char name[64];
        st = homg__lines_next_content(r, &line, 0);
        if (st != HOMG_OK || !line)
            break;
        while (*line == ' ' || *line == '\t')
            line++;
        if (line[0] != '$') {
            st = homg__lines_fail(r, m.have_format ? "expected a section name ($Nodes, $Elements, ...)"
                                                   : "not a Gmsh .msh file (it does not start with $MeshFormat)");
            break;
        }
        snprintf(name, sizeof name, "%s", line);
        name[strcspn(name, " \t")] = 0;
        if (!m.have_format && strcmp(name, "$MeshFormat")) {
            st = homg__lines_fail(r, "not a Gmsh .msh file (it does not start with $MeshFormat)");
            break;
        }
        if (!strcmp(name, "$MeshFormat"))
            st = m.have_format ? homg__lines_fail(r, "a second $MeshFormat") : parse_format(&m);
        else if (!strcmp(name, "$Nodes"))
            st = m.have_nodes++   ? homg__lines_fail(r, "a second $Nodes section")
                 : m.version == 2 ? parse_nodes2(&m)
                                  : parse_nodes4(&m);
        else if (!strcmp(name, "$Elements"))
            st = m.have_elements++ ? homg__lines_fail(r, "a second $Elements section")
                 : m.version == 2  ? parse_elements2(&m)
                                   : parse_elements4(&m);
        else if (!strcmp(name, "$Entities") && m.version == 4)
            st = m.entities.count ? homg__lines_fail(r, "a second $Entities section") : parse_entities(&m);
        else if (!strncmp(name, "$End", 4))
            st = homg__lines_fail(r, "%s without its section", name);
        else
            st = skip_section(&m, name);
        if (st != HOMG_OK)
            break;
    }
    if (st == HOMG_OK && !m.have_format)
        st = homg__fail(r->ctx, HOMG_ERROR_PARSE, "%s:1: not a Gmsh .msh file (empty)", r->path);
    else if (st == HOMG_OK && (!m.have_nodes || !m.have_elements))
        st = homg__fail(r->ctx, HOMG_ERROR_PARSE, "%s:%ld: the file ends without a %s section", r->path, r->line,
                        m.have_nodes ? "$Elements" : "$Nodes");
    if (st == HOMG_OK)
        st = build(&m, out);
    homg__vec_free(&m.xyz);
    homg__vec_free(&m.node_tag);
    homg__vec_free(&m.node_line);
    for (int k = 0; k < 3; k++)
        homg__vec_free(&m.elems[k]);
    homg__vec_free(&m.entities);
    return st;
}
