/* repeat_mesh.c -- see repeat_mesh.h. */
#include "repeat_mesh.h"

#include <stdlib.h>
#include <string.h>

homg_mesh *homg_test_repeat_mesh(homg_ctx *ctx, const homg_mesh *m)
{
    int nv = homg_mesh_dim(m) + 1;
    int32_t ne = homg_mesh_num_elements(m);
    int32_t *el = (int32_t *)malloc(sizeof(int32_t) * (size_t)(ne + 1) * nv);
    homg_mesh_data md;
    homg_mesh *out = NULL;
    if (!el)
        return NULL;
    memcpy(el, homg_mesh_elements(m), sizeof(int32_t) * (size_t)ne * nv);
    memcpy(el + (size_t)ne * nv, el, sizeof(int32_t) * nv);
    memset(&md, 0, sizeof md);
    md.dim = homg_mesh_dim(m);
    md.num_nodes = homg_mesh_num_nodes(m);
    md.num_elements = ne + 1;
    md.num_facets = homg_mesh_num_facets(m);
    md.coords = homg_mesh_coords(m);
    md.elements = el;
    md.facets = homg_mesh_facets(m);
    md.facet_tags = homg_mesh_facet_tags(m);
    if (homg_mesh_create(ctx, &md, &out) != HOMG_OK)
        out = NULL;
    free(el);
    return out;
}
