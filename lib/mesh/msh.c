/* msh.c -- Gmsh .msh reader, formats 2.2 and 4.1 (plain or gzip): the section
 * loop, the header and the ASCII sections (binary ones: msh_binary.c; node
 * tags to indices and the mesh: msh_build.c).
 *
 * Triangles (type 2, or 9 with 6 nodes) and tetrahedra (4, or 11 with 10
 * nodes) become the elements or the boundary facets: a file with tetrahedra is
 * a 3D mesh whose triangles are facets; otherwise triangles are the elements
 * and lines (type 1, or 8 with 3 nodes) the facets.  Points (type 15) are
 * skipped; any other element type is an error.  An element's tag is its
 * physical tag (2.2: the first tag; 4.1: the first physical tag of its
 * entity), 0 when it has none. */
#include "msh_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

homg_status homg__msh_oom(msh *m)
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

homg_status homg__msh_expect_end(msh *m, const char *end, const char *count_hint)
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
    if (file_type != 0 && file_type != 1)
        return homg__lines_fail(m->r, "file-type = %lld in $MeshFormat: 0 (ASCII) or 1 (binary) expected", file_type);
    if (file_type == 1) {
        m->have_format = 1;
        HOMG_TRY(homg__msh_bin_format(m, data_size));
        return homg__msh_expect_end(m, "$EndMeshFormat", "");
    }
    m->have_format = 1;
    return homg__msh_expect_end(m, "$EndMeshFormat", "");
}

homg_status homg__msh_push_node(msh *m, long long tag, const double xyz[3])
{
    int32_t line = m->binary ? -1 : (int32_t)m->r->line;
    for (int k = 0; k < 3; k++)
        if (!isfinite(xyz[k]))
            return homg__lines_fail(m->r, "$Nodes: node %lld has a coordinate that is not a finite number", tag);
    if (!homg__vec_push(&m->xyz, xyz) || !homg__vec_push(&m->node_tag, &tag) || !homg__vec_push(&m->node_line, &line))
        return homg__msh_oom(m);
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
        HOMG_TRY(homg__msh_push_node(m, tag, xyz));
    }
    return homg__msh_expect_end(m, "$EndNodes", " (more nodes than announced?)");
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
            HOMG_TRY(homg__msh_push_node(m, tag, zero));
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
    return homg__msh_expect_end(m, "$EndNodes", "");
}

int homg__msh_type_nodes(long long type)
{
    switch (type) {
    case 15: return 1;
    case 1: return 2;
    case 2: return 3;
    case 4: return 4;
    case 8: return 3;
    case 9: return 6;
    case 11: return 10;
    default: return 0;
    }
}

homg_status homg__msh_unsupported(msh *m, long long type)
{
    return homg__lines_fail(m->r,
                            "$Elements: element type %lld is not supported (homg reads triangles (2; 9 with 6 nodes), "
                            "tetrahedra (4; 11 with 10 nodes), lines (1; 8 with 3 nodes) and points (15))",
                            type);
}

homg_status homg__msh_push_elem(msh *m, long long type, long long id, int32_t tag, const long long *nodes)
{
    int nn = homg__msh_type_nodes(type);
    msh_list *l = &m->elems[type == 1 || type == 8 ? 0 : type == 2 || type == 9 ? 1 : 2];
    msh_meta meta;
    if (type == 15)
        return HOMG_OK;
    if (l->nn && l->nn != nn)
        return homg__lines_fail(m->r,
                                "$Elements: element %lld of type %lld among elements of type %lld (linear and "
                                "quadratic elements of one dimension cannot be mixed)",
                                id, type, l->type);
    l->nn = nn;
    l->type = type;
    meta.id = id;
    meta.tag = tag;
    meta.line = m->binary ? -1 : (int32_t)m->r->line;
    if (!homg__vec_push(&l->meta, &meta))
        return homg__msh_oom(m);
    for (int k = 0; k < nn; k++)
        if (!homg__vec_push(&l->nodes, &nodes[k]))
            return homg__msh_oom(m);
    return HOMG_OK;
}

/* Reads the node tags of an element of `type` from the rest of its line. */
static homg_status push_elem_text(msh *m, char *p, long long type, long long id, int32_t tag)
{
    long long node[10];
    int nn = homg__msh_type_nodes(type);
    for (int k = 0; k < nn; k++)
        if (!homg__tok_ll(&p, &node[k]))
            return homg__lines_fail(m->r, "element of type %lld needs %d node tags", type, nn);
    if (!homg__tok_end(p))
        return homg__lines_fail(m->r, "more node tags than an element of type %lld has", type);
    return homg__msh_push_elem(m, type, id, tag, node);
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
        if (!homg__msh_type_nodes(type))
            return homg__msh_unsupported(m, type);
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
        HOMG_TRY(push_elem_text(m, p, type, id, (int32_t)phys));
    }
    return homg__msh_expect_end(m, "$EndElements", " (more elements than announced?)");
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
            long long tag, nphys, phys = 0;
            double skip;
            HOMG_TRY(content(m, &line, "$Entities"));
            p = line;
            if (!homg__tok_ll(&p, &tag))
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
            HOMG_TRY(homg__msh_push_entity(m, d, tag, phys));
        }
    }
    return homg__msh_expect_end(m, "$EndEntities", "");
}

homg_status homg__msh_push_entity(msh *m, int dim, long long tag, long long phys)
{
    msh_entity e;
    if (phys < INT32_MIN || phys > INT32_MAX)
        return homg__lines_fail(
            m->r, "$Entities: entity %lld of dimension %d: physical tag %lld out of the int32 range", tag, dim, phys);
    e.tag = tag;
    e.dim = dim;
    e.phys = (int32_t)phys;
    if (!homg__vec_push(&m->entities, &e))
        return homg__msh_oom(m);
    return HOMG_OK;
}

static int cmp_entity(const void *a, const void *b)
{
    const msh_entity *x = (const msh_entity *)a, *y = (const msh_entity *)b;
    if (x->dim != y->dim)
        return x->dim < y->dim ? -1 : 1;
    return x->tag < y->tag ? -1 : x->tag > y->tag;
}

int32_t homg__msh_entity_phys(msh *m, int dim, long long tag)
{
    msh_entity key, *e;
    key.dim = dim;
    key.tag = tag;
    if (m->entities.count == 0) /* no $Entities: data is NULL, which bsearch may not take */
        return 0;
    e = (msh_entity *)bsearch(&key, m->entities.data, m->entities.count, sizeof key, cmp_entity);
    return e ? e->phys : 0;
}

void homg__msh_sort_entities(msh *m)
{
    if (m->entities.count > 0) /* qsort may not take NULL either, even for 0 items */
        qsort(m->entities.data, m->entities.count, sizeof(msh_entity), cmp_entity);
}

static homg_status parse_elements4(msh *m)
{
    char *line, *p;
    long long blocks, n, mintag, maxtag, done = 0;
    homg__msh_sort_entities(m);
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
        if (!homg__msh_type_nodes(type))
            return homg__msh_unsupported(m, type);
        phys = homg__msh_entity_phys(m, (int)edim, etag);
        for (long long i = 0; i < nb; i++) {
            long long id;
            HOMG_TRY(content(m, &line, "$Elements"));
            p = line;
            if (!homg__tok_ll(&p, &id))
                return homg__lines_fail(m->r, "expected 'elementTag nodeTag...'");
            HOMG_TRY(push_elem_text(m, p, type, id, phys));
        }
        done += nb;
    }
    if (done != n)
        return homg__lines_fail(m->r, "$Elements announced %lld elements but its blocks hold %lld", n, done);
    return homg__msh_expect_end(m, "$EndElements", "");
}

static homg_status parse_nodes(msh *m)
{
    if (m->binary)
        return m->version == 2 ? homg__msh_bin_nodes2(m) : homg__msh_bin_nodes4(m);
    return m->version == 2 ? parse_nodes2(m) : parse_nodes4(m);
}

static homg_status parse_elements(msh *m)
{
    if (m->binary)
        return m->version == 2 ? homg__msh_bin_elements2(m) : homg__msh_bin_elements4(m);
    return m->version == 2 ? parse_elements2(m) : parse_elements4(m);
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

homg_status homg__read_msh(line_reader *r, homg_mesh **out)
{
    msh m;
    homg_status st = HOMG_OK;
    int have_entities = 0;
    char *line;
    memset(&m, 0, sizeof m);
    m.r = r;
    homg__vec_init(&m.xyz, 3 * sizeof(double));
    homg__vec_init(&m.node_tag, sizeof(long long));
    homg__vec_init(&m.node_line, sizeof(int32_t));
    for (int k = 0; k < 3; k++) {
        homg__vec_init(&m.elems[k].nodes, sizeof(long long));
        homg__vec_init(&m.elems[k].meta, sizeof(msh_meta));
    }
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
            st = m.have_nodes++ ? homg__lines_fail(r, "a second $Nodes section") : parse_nodes(&m);
        else if (!strcmp(name, "$Elements"))
            st = m.have_elements++ ? homg__lines_fail(r, "a second $Elements section") : parse_elements(&m);
        else if (!strcmp(name, "$Entities") && m.version == 4)
            st = have_entities++ ? homg__lines_fail(r, "a second $Entities section")
                 : m.binary      ? homg__msh_bin_entities(&m)
                                 : parse_entities(&m);
        else if (!strncmp(name, "$End", 4))
            st = homg__lines_fail(r, "%s without its section", name);
        else if (m.binary && strcmp(name, "$PhysicalNames"))
            st = homg__msh_bin_skip(&m, name);
        else
            st = skip_section(&m, name);
        if (st != HOMG_OK)
            break;
    }
    if (st == HOMG_OK && !m.have_format)
        st = homg__fail(r->ctx, HOMG_ERROR_PARSE, "%s:1: not a Gmsh .msh file (empty)", r->path);
    else if (st == HOMG_OK && (!m.have_nodes || !m.have_elements))
        st = homg__lines_fail(r, "the file ends without a %s section", m.have_nodes ? "$Elements" : "$Nodes");
    if (st == HOMG_OK)
        st = homg__msh_build(&m, out);
    homg__vec_free(&m.xyz);
    homg__vec_free(&m.node_tag);
    homg__vec_free(&m.node_line);
    for (int k = 0; k < 3; k++) {
        homg__vec_free(&m.elems[k].nodes);
        homg__vec_free(&m.elems[k].meta);
    }
    homg__vec_free(&m.entities);
    return st;
}
