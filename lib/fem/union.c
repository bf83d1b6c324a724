/* union.c -- several P1 meshes as one disjoint mesh in the ctx's space, so
 * that one homg_fem assembles them all (GMG's coarse levels: one pattern, one
 * partition, one assembly instead of one of each a level; the matrix is
 * block-diagonal), and that matrix split back into one CSR matrix and mask a
 * mesh.  Node k of mesh l is node node_off[l] + k of the union, its elements
 * and facets follow mesh l - 1's, its sorted edges (a << 32 | b) take the same
 * offset on both halves (still sorted: the pattern is built from them, no
 * sort); one gather launch builds every array, one splits the matrix. */
#include "fem/fem_internal.h"

#include <stdlib.h>
#include <string.h>

/* A run of 32-bit words: from the ctx's copy, else the host's written into
 * dst first (then gathered in place). */
static homg_status add_run(homg_ctx *ctx, fem_words_list *list, const void *ctx_src, const void *host_src, void *dst,
                           int64_t words, uint32_t add)
{
    fem_words *w;
    if (words <= 0)
        return HOMG_OK;
    if (!ctx_src) {
        if (!host_src)
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "FEM union: a mesh array is in no memory");
        HOMG_TRY(homg__write(ctx, dst, host_src, (size_t)words * 4));
        ctx_src = dst;
    }
    if (list->count == FEM_WORDS_MAX)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "FEM union: more than %d arrays", FEM_WORDS_MAX);
    w = &list->run[list->count++];
    w->src = (const uint32_t *)ctx_src;
    w->dst = (uint32_t *)dst;
    w->n = words;
    w->add = add;
    return HOMG_OK;
}

static homg_status union_arrays(homg_ctx *ctx, homg__fem_union *u, homg_mesh *const *meshes,
                                const uint64_t *const *edges)
{
    homg_mesh *m = u->mesh;
    int dim = m->dim;
    fem_words_list list;
    list.count = 0;
    HOMG_TRY(homg__alloc(ctx, (size_t)m->num_nodes * dim * sizeof(double), (void **)&m->ctx_coords, "FEM union"));
    HOMG_TRY(homg__alloc(ctx, ((size_t)m->num_elements * (dim + 1) + 1) * sizeof(int32_t), (void **)&m->ctx_elements,
                         "FEM union"));
    HOMG_TRY(
        homg__alloc(ctx, ((size_t)m->num_facets * dim + 1) * sizeof(int32_t), (void **)&m->ctx_facets, "FEM union"));
    HOMG_TRY(homg__alloc(ctx, ((size_t)m->num_facets + 1) * sizeof(int32_t), (void **)&m->ctx_facet_tags, "FEM union"));
    HOMG_TRY(
        homg__alloc(ctx, ((size_t)m->num_nodes + 1) * sizeof(int32_t), (void **)&m->ctx_node_markers, "FEM union"));
    HOMG_TRY(homg__alloc(ctx, ((size_t)u->num_edges + 1) * sizeof(uint64_t), (void **)&u->edges, "FEM union"));
    for (int l = 0; l < u->count; l++) {
        homg_mesh *s = meshes[l];
        uint32_t off = (uint32_t)u->node_off[l];
        HOMG_TRY(homg_mesh_upload(s, NULL)); /* coords and elements in the ctx's space (refined levels: there) */
        HOMG_TRY(add_run(ctx, &list, s->ctx_coords, NULL, m->ctx_coords + (size_t)u->node_off[l] * dim,
                         (int64_t)s->num_nodes * dim * 2, 0));
        HOMG_TRY(add_run(ctx, &list, s->ctx_elements, NULL, m->ctx_elements + (size_t)u->elem_off[l] * (dim + 1),
                         (int64_t)s->num_elements * (dim + 1), off));
        HOMG_TRY(add_run(ctx, &list, s->ctx_facets, s->facets, m->ctx_facets + (size_t)u->facet_off[l] * dim,
                         (int64_t)s->num_facets * dim, off));
        HOMG_TRY(add_run(ctx, &list, s->ctx_facet_tags, s->facet_tags, m->ctx_facet_tags + u->facet_off[l],
                         s->num_facets, 0));
        HOMG_TRY(add_run(ctx, &list, s->ctx_node_markers, s->node_markers, m->ctx_node_markers + u->node_off[l],
                         s->num_nodes, 0));
        HOMG_TRY(add_run(ctx, &list, edges[l], NULL, u->edges + u->edge_off[l], 2 * (int64_t)u->edge_count[l], off));
    }
    HOMG_TRY_BACKEND(ctx, HOMG_KERNELS(&ctx->ex, fem)->gather_words(&ctx->ex, &list), "FEM union: gather");
    return HOMG_OK;
}

homg_status homg__fem_union_create(homg_ctx *ctx, homg_mesh *const *meshes, const uint64_t *const *edges,
                                   const int32_t *num_edges, int count, homg__fem_union *u)
{
    homg_mesh *m;
    homg_status st;
    memset(u, 0, sizeof *u);
    if (count < 1 || count > HOMG_FEM_UNION_MAX)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "FEM union: %d meshes (1 to %d)", count,
                          HOMG_FEM_UNION_MAX);
    u->count = count;
    for (int l = 0; l < count; l++) {
        const homg_mesh *s = meshes[l];
        if (s->dim != meshes[0]->dim || s->order == 2 || !edges[l])
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                              "FEM union: mesh %d is not a P1 mesh of dimension %d "
                              "with its edges",
                              l, meshes[0]->dim);
        u->node_off[l + 1] = u->node_off[l] + s->num_nodes;
        u->elem_off[l + 1] = u->elem_off[l] + s->num_elements;
        u->facet_off[l + 1] = u->facet_off[l] + s->num_facets;
        u->edge_off[l + 1] = u->edge_off[l] + num_edges[l];
        u->edge_count[l] = num_edges[l];
        u->nnz_off[l + 1] = u->nnz_off[l] + s->num_nodes + 2 * (int64_t)num_edges[l]; /* P1: diagonal and edges */
    }
    if (u->node_off[count] > INT32_MAX / 2 || u->nnz_off[count] > INT32_MAX)
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "FEM union: too large");
    u->num_edges = (int32_t)u->edge_off[count];
    if (!(m = (homg_mesh *)calloc(1, sizeof *m)))
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "FEM union: out of host memory");
    m->ctx = ctx;
    m->dim = meshes[0]->dim;
    m->order = 1;
    m->num_nodes = u->node_off[count];
    m->num_elements = u->elem_off[count];
    m->num_facets = u->facet_off[count];
    u->mesh = m;
    st = union_arrays(ctx, u, meshes, edges);
    if (st != HOMG_OK)
        homg__fem_union_free(ctx, u);
    return st;
}

void homg__fem_union_free(homg_ctx *ctx, homg__fem_union *u)
{
    homg_mesh_destroy(u->mesh);
    homg__free(ctx, u->edges);
    u->mesh = NULL;
    u->edges = NULL;
}

/* Mesh l's part of the union fem's assembled system (P1, float64): its rows,
 * columns less its node offset, values, and mask, in arrays of its own
 * (ctx space, freed by the caller with homg__free); one launch for all. */
homg_status homg__fem_union_split(homg__fem_union *u, homg_fem *fem, homg__fem_part *parts)
{
    homg_ctx *ctx = fem->ctx;
    homg_csr a = homg_fem_matrix(fem);
    const uint8_t *mask = homg_fem_dirichlet_mask(fem);
    fem_words_list list;
    list.count = 0;
    memset(parts, 0, (size_t)u->count * sizeof *parts);
    if (a.nnz != u->nnz_off[u->count] || a.nrows != u->node_off[u->count] || a.precision != HOMG_FLOAT64 || !mask)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "FEM union: %d rows and %lld entries where the meshes' edges give %d and %lld", (int)a.nrows,
                          (long long)a.nnz, (int)u->node_off[u->count], (long long)u->nnz_off[u->count]);
    for (int l = 0; l < u->count; l++) {
        homg__fem_part *p = &parts[l];
        int32_t rows = u->node_off[l + 1] - u->node_off[l];
        int64_t nnz = u->nnz_off[l + 1] - u->nnz_off[l];
        p->rows = rows;
        p->nnz = nnz;
        HOMG_TRY(homg__alloc(ctx, ((size_t)rows + 1) * sizeof(int32_t), (void **)&p->row_ptr, "FEM union: rows"));
        HOMG_TRY(homg__alloc(ctx, ((size_t)nnz + 1) * sizeof(int32_t), (void **)&p->col_idx, "FEM union: columns"));
        HOMG_TRY(homg__alloc(ctx, ((size_t)nnz + 1) * sizeof(double), (void **)&p->values, "FEM union: values"));
        HOMG_TRY(homg__alloc(ctx, (size_t)rows + 1, (void **)&p->mask, "FEM union: mask"));
        list.run[list.count++] = (fem_words){ (const uint32_t *)a.row_ptr + u->node_off[l], (uint32_t *)p->row_ptr,
                                              rows + 1, (uint32_t)(-(int64_t)u->nnz_off[l]) };
        list.run[list.count++] = (fem_words){ (const uint32_t *)a.col_idx + u->nnz_off[l], (uint32_t *)p->col_idx, nnz,
                                              (uint32_t)(-(int64_t)u->node_off[l]) };
        list.run[list.count++] =
            (fem_words){ (const uint32_t *)a.values + 2 * u->nnz_off[l], (uint32_t *)p->values, 2 * nnz, 0 };
        HOMG_TRY_BACKEND(ctx, ctx->mem->copy(&ctx->ex, p->mask, mask + u->node_off[l], (size_t)rows, HOMG_D2D),
                         "FEM union: mask");
    }
    HOMG_TRY_BACKEND(ctx, fem->k->gather_words(&ctx->ex, &list), "FEM union: split");
    return HOMG_OK;
}
