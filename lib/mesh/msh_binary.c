/* msh_binary.c -- the binary sections of Gmsh .msh 2.2 and 4.1 files.
 *
 * A binary file's header is "version 1 data-size", then the integer 1 written
 * in the writer's byte order: it reads as 1 in ours, or as 0x01000000 when the
 * file has the other order, and every number after it is swapped then.  2.2
 * writes int tags and double coordinates (data-size 8); 4.1 writes int for
 * dimensions, entity tags and types, size_t (data-size bytes, 4 or 8) for
 * counts and node and element tags.  Section names and the counts of 2.2 stay
 * text lines.  Messages name the byte offset, the section and the entity block. */
#include "msh_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void swap_bytes(unsigned char *p, int n)
{
    for (int i = 0; i < n / 2; i++) {
        unsigned char t = p[i];
        p[i] = p[n - 1 - i];
        p[n - 1 - i] = t;
    }
}

/* Reads n bytes or fails naming what was being read. */
static homg_status get(msh *m, void *dst, size_t n, const char *where)
{
    homg_status err;
    size_t got = homg__lines_read(m->r, dst, n, &err);
    if (err != HOMG_OK)
        return homg__fail(m->r->ctx, HOMG_ERROR_IO, "%s: byte %lld: %s: read error (corrupt gzip data?)", m->r->path,
                          m->r->offset, where);
    if (got < n)
        return homg__lines_fail(m->r, "%s: the file ends inside the binary data (truncated?)", where);
    return HOMG_OK;
}

static homg_status get_int(msh *m, long long *v, const char *where)
{
    int32_t x;
    HOMG_TRY(get(m, &x, 4, where));
    if (m->swap)
        swap_bytes((unsigned char *)&x, 4);
    *v = x;
    return HOMG_OK;
}

/* A 4.1 size_t (4 or 8 bytes); values beyond the int64 range fail. */
static homg_status get_size(msh *m, long long *v, const char *where)
{
    if (m->size_t_bytes == 4) {
        uint32_t x;
        HOMG_TRY(get(m, &x, 4, where));
        if (m->swap)
            swap_bytes((unsigned char *)&x, 4);
        *v = x;
    } else {
        uint64_t x;
        HOMG_TRY(get(m, &x, 8, where));
        if (m->swap)
            swap_bytes((unsigned char *)&x, 8);
        if (x > (uint64_t)INT64_MAX)
            return homg__lines_fail(m->r, "%s: %llu is out of range", where, (unsigned long long)x);
        *v = (long long)x;
    }
    return HOMG_OK;
}

static homg_status get_doubles(msh *m, double *v, int n, const char *where)
{
    HOMG_TRY(get(m, v, (size_t)n * 8, where));
    if (m->swap)
        for (int k = 0; k < n; k++)
            swap_bytes((unsigned char *)&v[k], 8);
    return HOMG_OK;
}

/* A count in [lo, hi]. */
static homg_status in_range(msh *m, long long v, long long lo, long long hi, const char *where)
{
    if (v < lo || v > hi)
        return homg__lines_fail(m->r, "%s = %lld out of range %lld..%lld", where, v, lo, hi);
    return HOMG_OK;
}

homg_status homg__msh_bin_format(msh *m, long long data_size)
{
    unsigned char one[4];
    uint32_t native = 1, v;
    m->binary = 1;
    if (m->version == 2 && data_size != 8)
        return homg__lines_fail(m->r, "$MeshFormat: data-size = %lld; binary 2.2 files have 8 (double)", data_size);
    if (m->version == 4 && data_size != 4 && data_size != 8)
        return homg__lines_fail(m->r, "$MeshFormat: data-size = %lld; binary 4.1 files have 4 or 8 (size_t)",
                                data_size);
    m->size_t_bytes = (int)data_size;
    m->r->binary = 1;
    HOMG_TRY(get(m, one, 4, "$MeshFormat: the integer 1 that tells the byte order"));
    memcpy(&v, one, 4);
    if (v == native)
        return HOMG_OK;
    swap_bytes(one, 4);
    memcpy(&v, one, 4);
    if (v != native)
        return homg__lines_fail(m->r,
                                "$MeshFormat: the byte-order integer reads %02x %02x %02x %02x, neither 1 nor 1 "
                                "byte-swapped",
                                one[3], one[2], one[1], one[0]);
    m->swap = 1;
    return HOMG_OK;
}

/* The text line with 2.2's count before the binary records. */
static homg_status count_line(msh *m, const char *section, long long *n, int min_bytes, const char *what)
{
    char *line, *p;
    HOMG_TRY(homg__lines_next_content(m->r, &line, 0));
    if (!line)
        return homg__lines_fail(m->r, "%s: unexpected end of file", section);
    p = line;
    if (!homg__tok_ll(&p, n) || !homg__tok_end(p))
        return homg__lines_fail(m->r, "%s: expected the number of %s on a line of its own", section, what);
    return homg__lines_check_count(m->r, *n, min_bytes, what);
}

homg_status homg__msh_bin_nodes2(msh *m)
{
    long long n;
    char where[96];
    HOMG_TRY(count_line(m, "$Nodes", &n, 28, "nodes"));
    for (long long i = 0; i < n; i++) {
        long long tag;
        double xyz[3];
        snprintf(where, sizeof where, "$Nodes, node %lld of %lld", i + 1, n);
        HOMG_TRY(get_int(m, &tag, where));
        HOMG_TRY(get_doubles(m, xyz, 3, where));
        HOMG_TRY(homg__msh_push_node(m, tag, xyz));
    }
    return homg__msh_expect_end(m, "$EndNodes", " (more nodes than announced?)");
}

homg_status homg__msh_bin_elements2(msh *m)
{
    long long n, done = 0;
    char where[128];
    HOMG_TRY(count_line(m, "$Elements", &n, 12, "elements"));
    while (done < n) {
        long long type, follow, ntags;
        int nn;
        snprintf(where, sizeof where, "$Elements, the block header after %lld of %lld elements", done, n);
        HOMG_TRY(get_int(m, &type, where));
        HOMG_TRY(get_int(m, &follow, where));
        HOMG_TRY(get_int(m, &ntags, where));
        nn = homg__msh_type_nodes(type);
        if (!nn)
            return homg__msh_unsupported(m, type);
        HOMG_TRY(in_range(m, follow, 1, n - done, "$Elements: elements in the block (beyond the announced count)"));
        HOMG_TRY(in_range(m, ntags, 0, 64, "$Elements: number-of-tags"));
        for (long long i = 0; i < follow; i++) {
            long long id, v, phys = 0, node[10];
            snprintf(where, sizeof where, "$Elements, element %lld of %lld (type %lld)", done + i + 1, n, type);
            HOMG_TRY(get_int(m, &id, where));
            for (long long k = 0; k < ntags; k++) {
                HOMG_TRY(get_int(m, &v, where));
                if (k == 0)
                    phys = v;
            }
            for (int k = 0; k < nn; k++)
                HOMG_TRY(get_int(m, &node[k], where));
            HOMG_TRY(homg__msh_push_elem(m, type, id, (int32_t)phys, node));
        }
        done += follow;
    }
    return homg__msh_expect_end(m, "$EndElements", " (more elements than announced?)");
}

homg_status homg__msh_bin_entities(msh *m)
{
    long long count[4];
    char where[128];
    for (int d = 0; d < 4; d++) {
        HOMG_TRY(get_size(m, &count[d], "$Entities: the numbers of points, curves, surfaces, volumes"));
        HOMG_TRY(homg__lines_check_count(m->r, count[d], 16, "entities"));
    }
    for (int d = 0; d < 4; d++)
        for (long long i = 0; i < count[d]; i++) {
            long long tag, nphys, nbound, phys = 0, v;
            double box[6];
            snprintf(where, sizeof where, "$Entities, entity %lld of %lld of dimension %d", i + 1, count[d], d);
            HOMG_TRY(get_int(m, &tag, where));
            HOMG_TRY(get_doubles(m, box, d == 0 ? 3 : 6, where));
            HOMG_TRY(get_size(m, &nphys, where));
            HOMG_TRY(in_range(m, nphys, 0, 1 << 20, "$Entities: numPhysicalTags"));
            for (long long k = 0; k < nphys; k++) {
                HOMG_TRY(get_int(m, &v, where));
                if (k == 0)
                    phys = v;
            }
            if (d > 0) {
                HOMG_TRY(get_size(m, &nbound, where));
                HOMG_TRY(in_range(m, nbound, 0, 1 << 20, "$Entities: numBounding entities"));
                for (long long k = 0; k < nbound; k++)
                    HOMG_TRY(get_int(m, &v, where));
            }
            HOMG_TRY(homg__msh_push_entity(m, d, tag, phys));
        }
    return homg__msh_expect_end(m, "$EndEntities", "");
}

/* The four size_t of a 4.1 section header (blocks, count, min tag, max tag). */
static homg_status header4(msh *m, const char *section, long long h[4], int min_bytes, const char *what)
{
    char where[64];
    snprintf(where, sizeof where, "%s: the section header", section);
    for (int k = 0; k < 4; k++)
        HOMG_TRY(get_size(m, &h[k], where));
    HOMG_TRY(homg__lines_check_count(m->r, h[0], 16, "entity blocks"));
    return homg__lines_check_count(m->r, h[1], min_bytes, what);
}

homg_status homg__msh_bin_nodes4(msh *m)
{
    long long h[4], done = 0;
    char where[160];
    HOMG_TRY(header4(m, "$Nodes", h, 8 + 24, "nodes"));
    for (long long b = 0; b < h[0]; b++) {
        long long edim, etag, param, nb;
        size_t first = m->node_tag.count;
        snprintf(where, sizeof where, "$Nodes, the header of entity block %lld of %lld", b + 1, h[0]);
        HOMG_TRY(get_int(m, &edim, where));
        HOMG_TRY(get_int(m, &etag, where));
        HOMG_TRY(get_int(m, &param, where));
        HOMG_TRY(get_size(m, &nb, where));
        snprintf(where, sizeof where, "$Nodes, entity block %lld of %lld (dimension %lld, tag %lld)", b + 1, h[0], edim,
                 etag);
        HOMG_TRY(in_range(m, edim, 0, 3, where));
        HOMG_TRY(in_range(m, param, 0, 1, where));
        HOMG_TRY(in_range(m, nb, 0, h[1] - done, where));
        for (long long i = 0; i < nb; i++) {
            long long tag;
            static const double zero[3] = { 0, 0, 0 };
            HOMG_TRY(get_size(m, &tag, where));
            HOMG_TRY(homg__msh_push_node(m, tag, zero));
        }
        for (long long i = 0; i < nb; i++) {
            double v[6], *xyz = (double *)m->xyz.data + 3 * (first + (size_t)i);
            HOMG_TRY(get_doubles(m, v, 3 + (int)(param ? edim : 0), where));
            for (int k = 0; k < 3; k++)
                if (!isfinite(v[k]))
                    return homg__lines_fail(m->r, "%s: node %lld has a coordinate that is not a finite number", where,
                                            ((long long *)m->node_tag.data)[first + (size_t)i]);
            memcpy(xyz, v, sizeof(double) * 3);
        }
        done += nb;
    }
    if (done != h[1])
        return homg__lines_fail(m->r, "$Nodes announced %lld nodes but its blocks hold %lld", h[1], done);
    return homg__msh_expect_end(m, "$EndNodes", "");
}

homg_status homg__msh_bin_elements4(msh *m)
{
    long long h[4], done = 0;
    char where[160];
    homg__msh_sort_entities(m);
    HOMG_TRY(header4(m, "$Elements", h, 16, "elements"));
    for (long long b = 0; b < h[0]; b++) {
        long long edim, etag, type, nb;
        int nn;
        int32_t phys;
        snprintf(where, sizeof where, "$Elements, the header of entity block %lld of %lld", b + 1, h[0]);
        HOMG_TRY(get_int(m, &edim, where));
        HOMG_TRY(get_int(m, &etag, where));
        HOMG_TRY(get_int(m, &type, where));
        HOMG_TRY(get_size(m, &nb, where));
        snprintf(where, sizeof where, "$Elements, entity block %lld of %lld (dimension %lld, tag %lld, type %lld)",
                 b + 1, h[0], edim, etag, type);
        nn = homg__msh_type_nodes(type);
        if (!nn)
            return homg__msh_unsupported(m, type);
        HOMG_TRY(in_range(m, nb, 0, h[1] - done, where));
        phys = homg__msh_entity_phys(m, (int)edim, etag);
        for (long long i = 0; i < nb; i++) {
            long long id, node[10];
            HOMG_TRY(get_size(m, &id, where));
            for (int k = 0; k < nn; k++)
                HOMG_TRY(get_size(m, &node[k], where));
            HOMG_TRY(homg__msh_push_elem(m, type, id, phys, node));
        }
        done += nb;
    }
    if (done != h[1])
        return homg__lines_fail(m->r, "$Elements announced %lld elements but its blocks hold %lld", h[1], done);
    return homg__msh_expect_end(m, "$EndElements", "");
}

/* Binary data up to "$EndName" at the start of a line. */
homg_status homg__msh_bin_skip(msh *m, const char *name)
{
    char end[80];
    size_t len, match = 0;
    int at_line_start = 0;
    snprintf(end, sizeof end, "$End%.60s", name + 1);
    len = strlen(end);
    for (;;) {
        unsigned char c;
        homg_status err;
        if (homg__lines_read(m->r, &c, 1, &err) != 1)
            return err != HOMG_OK ? homg__fail(m->r->ctx, HOMG_ERROR_IO, "%s: read error", m->r->path)
                                  : homg__lines_fail(m->r, "unexpected end of file in %s (no %s)", name, end);
        if (match > 0 || at_line_start)
            match = c == (unsigned char)end[match] ? match + 1 : 0;
        at_line_start = c == '\n';
        if (match == len)
            return HOMG_OK; /* the rest of the line is read as an empty content line */
    }
}
