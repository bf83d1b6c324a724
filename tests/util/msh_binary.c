/* msh_binary.c -- binary .msh writer for the reader's tests (see msh_binary.h). */
#include "msh_binary.h"

#include <stdio.h>
#include <string.h>

typedef struct out {
    FILE *f;
    int swap;
} out;

static void put(out *o, const void *p, int n)
{
    unsigned char b[8];
    memcpy(b, p, (size_t)n);
    if (o->swap)
        for (int i = 0; i < n / 2; i++) {
            unsigned char t = b[i];
            b[i] = b[n - 1 - i];
            b[n - 1 - i] = t;
        }
    fwrite(b, 1, (size_t)n, o->f);
}

static void put_int(out *o, long long v)
{
    int32_t x = (int32_t)v;
    put(o, &x, 4);
}

static void put_size(out *o, long long v)
{
    uint64_t x = (uint64_t)v;
    put(o, &x, 8);
}

static void put_xyz(out *o, const homg_mesh *m, int32_t i)
{
    int dim = homg_mesh_dim(m);
    for (int k = 0; k < 3; k++) {
        double x = k < dim ? homg_mesh_coords(m)[(size_t)i * dim + k] : 0.0;
        put(o, &x, 8);
    }
}

/* The entities of list k (0: elements, 1: facets): runs of equal tags. */
typedef struct list {
    int32_t n;
    int nv, dim, type;
    const int32_t *nodes, *tags;
} list;

static void lists(const homg_mesh *m, list l[2])
{
    int dim = homg_mesh_dim(m);
    l[0].n = homg_mesh_num_elements(m);
    l[0].nv = dim + 1;
    l[0].dim = dim;
    l[0].type = dim == 2 ? 2 : 4;
    l[0].nodes = homg_mesh_elements(m);
    l[0].tags = homg_mesh_element_tags(m);
    l[1].n = homg_mesh_num_facets(m);
    l[1].nv = dim;
    l[1].dim = dim - 1;
    l[1].type = dim == 2 ? 1 : 2;
    l[1].nodes = homg_mesh_facets(m);
    l[1].tags = homg_mesh_facet_tags(m);
}

static int32_t run_end(const list *l, int32_t start)
{
    int32_t e = start + 1;
    while (e < l->n && l->tags[e] == l->tags[start])
        e++;
    return e;
}

static void write22(out *o, const homg_mesh *m)
{
    list l[2];
    int32_t nn = homg_mesh_num_nodes(m), id = 1;
    lists(m, l);
    fprintf(o->f, "$Nodes\n%d\n", (int)nn);
    for (int32_t i = 0; i < nn; i++) {
        put_int(o, i + 1);
        put_xyz(o, m, i);
    }
    fprintf(o->f, "\n$EndNodes\n$Elements\n%d\n", (int)(l[0].n + l[1].n));
    for (int k = 1; k >= 0; k--) {
        put_int(o, l[k].type);
        put_int(o, l[k].n);
        put_int(o, 2);
        for (int32_t e = 0; e < l[k].n; e++) {
            put_int(o, id++);
            put_int(o, l[k].tags[e]);
            put_int(o, l[k].tags[e]);
            for (int v = 0; v < l[k].nv; v++)
                put_int(o, l[k].nodes[(size_t)e * l[k].nv + v] + 1);
        }
    }
    fprintf(o->f, "\n$EndElements\n");
}

static void write41(out *o, const homg_mesh *m)
{
    list l[2];
    int32_t nn = homg_mesh_num_nodes(m), id = 1, blocks = 0;
    long long count[4] = { 0, 0, 0, 0 };
    lists(m, l);
    for (int k = 0; k < 2; k++)
        for (int32_t e = 0; e < l[k].n; e = run_end(&l[k], e)) {
            count[l[k].dim]++;
            blocks++;
        }
    fprintf(o->f, "$Entities\n");
    for (int d = 0; d < 4; d++)
        put_size(o, count[d]);
    for (int k = 1; k >= 0; k--) /* dimension order: facets first */
        for (int32_t e = 0; e < l[k].n; e = run_end(&l[k], e)) {
            double box[6] = { 0, 0, 0, 1, 1, 1 };
            put_int(o, e + 1); /* entity tag: the run's first index + 1, unique per dimension */
            for (int c = 0; c < 6; c++)
                put(o, &box[c], 8);
            put_size(o, 1);
            put_int(o, l[k].tags[e]);
            put_size(o, 0);
        }
    fprintf(o->f, "\n$EndEntities\n$Nodes\n");
    put_size(o, 1);
    put_size(o, nn);
    put_size(o, 1);
    put_size(o, nn);
    put_int(o, l[0].dim);
    put_int(o, 1);
    put_int(o, 0);
    put_size(o, nn);
    for (int32_t i = 0; i < nn; i++)
        put_size(o, i + 1);
    for (int32_t i = 0; i < nn; i++)
        put_xyz(o, m, i);
    fprintf(o->f, "\n$EndNodes\n$Elements\n");
    put_size(o, blocks);
    put_size(o, l[0].n + l[1].n);
    put_size(o, 1);
    put_size(o, l[0].n + l[1].n);
    for (int k = 1; k >= 0; k--)
        for (int32_t e = 0; e < l[k].n;) {
            int32_t end = run_end(&l[k], e);
            put_int(o, l[k].dim);
            put_int(o, e + 1);
            put_int(o, l[k].type);
            put_size(o, end - e);
            for (; e < end; e++) {
                put_size(o, id++);
                for (int v = 0; v < l[k].nv; v++)
                    put_size(o, l[k].nodes[(size_t)e * l[k].nv + v] + 1);
            }
        }
    fprintf(o->f, "\n$EndElements\n");
}

int homg_test_write_msh_binary(const homg_mesh *m, const char *path, int version, int swap)
{
    out o;
    int rc;
    o.f = fopen(path, "wb");
    o.swap = swap;
    if (!o.f)
        return -1;
    fprintf(o.f, "$MeshFormat\n%s 1 8\n", version == 22 ? "2.2" : "4.1");
    put_int(&o, 1);
    fprintf(o.f, "\n$EndMeshFormat\n");
    if (version == 22)
        write22(&o, m);
    else
        write41(&o, m);
    rc = ferror(o.f) ? -1 : 0;
    return fclose(o.f) == 0 ? rc : -1;
}
