/* fan_mesh.c -- see fan_mesh.h. */
#include "fan_mesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

homg_mesh *homg_test_fan_mesh(homg_ctx *ctx, int rim)
{
    double *xy;
    int32_t *el, *fa, *tag;
    homg_mesh_data md;
    homg_mesh *m = NULL;
    if (rim < 3 || rim > 1024)
        return NULL;
    xy = calloc(2 * ((size_t)rim + 1), sizeof *xy);
    el = malloc(3 * (size_t)rim * sizeof *el);
    fa = malloc(2 * (size_t)rim * sizeof *fa);
    tag = malloc((size_t)rim * sizeof *tag);
    if (xy && el && fa && tag) {
        for (int k = 0; k < rim; k++) {
            xy[2 * k + 2] = cos(2 * M_PI * k / rim);
            xy[2 * k + 3] = sin(2 * M_PI * k / rim);
            el[3 * k] = 0;
            el[3 * k + 1] = 1 + k;
            el[3 * k + 2] = 1 + (k + 1) % rim;
            fa[2 * k] = 1 + k;
            fa[2 * k + 1] = 1 + (k + 1) % rim;
            tag[k] = 1;
        }
        memset(&md, 0, sizeof md);
        md.dim = 2;
        md.num_nodes = rim + 1;
        md.num_elements = md.num_facets = rim;
        md.coords = xy;
        md.elements = el;
        md.facets = fa;
        md.facet_tags = tag;
        if (homg_mesh_create(ctx, &md, &m) != HOMG_OK)
            m = NULL;
    }
    free(xy);
    free(el);
    free(fa);
    free(tag);
    return m;
}
