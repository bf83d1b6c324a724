/* fem.c -- the homg_fem object: pattern on the device, scheme preparation,
 * numeric passes and Dirichlet elimination through the backend's fem table. */
#include "fem_internal.h"
#include "fem/partition.h"
#include "sparse/sparse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_PATCH_NNZ 4096
#define MASK_COUNTS_AT    32 /* the mask's two counts in the caller's slot, after the partition's part_stats */
typedef char mask_counts_after_stats[sizeof(part_stats) <= MASK_COUNTS_AT ? 1 : -1];

homg_fem_desc homg_fem_desc_defaults(const homg_fem_desc *desc)
{
    homg_fem_desc d;
    homg__desc_start(&d, desc, sizeof d);
    HOMG_DEFAULT(d.patch_nnz, DEFAULT_PATCH_NNZ);
    HOMG_DEFAULT(d.order, 1);
    return d;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static size_t value_bytes(const homg_fem *fem)
{
    return fem->desc.precision == HOMG_FLOAT32 ? sizeof(float) : sizeof(double);
}

void homg_fem_destroy(homg_fem *fem)
{
    int saved;
    if (!fem)
        return;
    if (homg__enter(fem->ctx, &saved) == HOMG_OK) {
        homg__free(fem->ctx, fem->row_ptr);
        homg__free(fem->ctx, fem->col_idx);
        homg__free(fem->ctx, fem->values);
        homg__free(fem->ctx, fem->rhs);
        homg__free(fem->ctx, fem->mask);
        if (!fem->lent_markers)
            homg__free(fem->ctx, fem->markers);
        if (!fem->lent_tags)
            homg__free(fem->ctx, fem->tags);
        if (!fem->counts)
            homg__free(fem->ctx, fem->mask_counts);
        homg__free(fem->ctx, fem->check_slots);
        homg__free(fem->ctx, fem->part_temp);
        if (!fem->lent_facets) {
            homg__free(fem->ctx, fem->facets);
            homg__free(fem->ctx, fem->facet_tags);
        }
        homg__free(fem->ctx, fem->color_elems);
        homg__free(fem->ctx, fem->dofs);
        for (int i = 0; i < 9; i++)
            homg__free(fem->ctx, fem->patch_arrays[i]);
        homg__free(fem->ctx, fem->patches.values_B);
        homg__free(fem->ctx, fem->patches.scratch);
        homg__leave(fem->ctx, saved);
    }
    free(fem->color_ptr);
    free(fem->host_dofs);
    free(fem);
}

static fem_problem geometry(const homg_fem *fem)
{
    fem_problem p;
    memset(&p, 0, sizeof p);
    p.dim = fem->view.dim;
    p.num_nodes = fem->view.num_nodes;
    p.num_elements = fem->view.num_elements;
    p.coords = fem->view.coords;
    p.elements = fem->view.elements;
    p.nd = fem->nd;
    p.num_dofs = fem->num_dofs;
    p.dofs = fem->dofs ? fem->dofs : fem->view.elements;
    p.sigma = 1;
    return p;
}

static fem_system system_of(const homg_fem *fem)
{
    fem_system s;
    s.num_rows = fem->num_dofs;
    s.nnz = fem->info.nnz;
    s.row_ptr = fem->row_ptr;
    s.col_idx = fem->col_idx;
    s.values = fem->values;
    s.rhs = fem->rhs;
    s.precision = fem->desc.precision;
    return s;
}

/* keys, alt: cap keys each, and the sort's workspace for them (freed first). */
static homg_status pattern_buffers(homg_fem *fem, size_t cap, int bits, uint64_t **keys, uint64_t **alt, void **temp,
                                   size_t *temp_bytes)
{
    homg_ctx *ctx = fem->ctx;
    homg_status st;
    homg__free(ctx, *keys);
    homg__free(ctx, *alt);
    homg__free(ctx, *temp);
    *keys = *alt = NULL;
    *temp = NULL;
    *temp_bytes = 0;
    if ((st = fem->k->pattern_temp_bytes(&ctx->ex, cap, bits, temp_bytes)) != HOMG_OK)
        return homg__backend_fail(ctx, st, "homg_fem_create: pattern");
    HOMG_TRY(homg__alloc(ctx, cap * sizeof(uint64_t), (void **)keys, "homg_fem_create: pattern keys"));
    HOMG_TRY(homg__alloc(ctx, cap * sizeof(uint64_t), (void **)alt, "homg_fem_create: pattern keys"));
    if (*temp_bytes)
        HOMG_TRY(homg__alloc(ctx, *temp_bytes, temp, "homg_fem_create: sort workspace"));
    return HOMG_OK;
}

/* Sorted unique node pairs on the device (in buffers of the first size, or
 * of the full size where the backend says that was short; or from the
 * refinement's edges where the caller has them; or from the coarse mesh's
 * edges and the children, else as without them), then row pointers and
 * columns. */
static homg_status build_pattern(homg_fem *fem)
{
    homg_ctx *ctx = fem->ctx;
    kernel_exec *ex = &ctx->ex;
    fem_problem p = geometry(fem);
    int shift = homg_cpu_sort_bits_for((uint64_t)(p.num_dofs > 1 ? p.num_dofs - 1 : 1));
    size_t cap = fem_pattern_first_keys(&p), full = fem_pattern_full_keys(&p), temp_bytes = 0;
    uint64_t *keys = NULL, *alt = NULL;
    void *temp = NULL, *ev[2] = { NULL, NULL };
    int32_t nnz = 0;
    homg_status st;
    float ms = 0;
    if (!fem->quick && (ctx->mem->event_create(&ev[0]) != HOMG_OK || ctx->mem->event_create(&ev[1]) != HOMG_OK)) {
        ctx->mem->event_destroy(ev[0]);
        return homg__fail(ctx, HOMG_ERROR_BACKEND, "homg_fem_create: cannot create timing events");
    }
    if (fem->edges && !fem->coarse_nodes) /* the refinement's edges: 3 U + rows keys, no sort of pairs, no read */
        cap = 3 * (size_t)fem->num_edges + (size_t)p.num_dofs;
    st = pattern_buffers(fem, cap, 2 * shift, &keys, &alt, &temp, &temp_bytes);
    if (st == HOMG_OK && ev[0] && (st = ctx->mem->event_record(ex, ev[0])) != HOMG_OK)
        homg__backend_fail(ctx, st, "homg_fem_create: event");
    if (st == HOMG_OK && fem->coarse_nodes &&
        (st = fem->k->pattern_refined(ex, &p, fem->edges, fem->num_edges, fem->coarse_nodes, shift, keys, alt, cap,
                                      temp, temp_bytes, &nnz)) != HOMG_OK) {
        homg__backend_fail(ctx, st, "homg_fem_create: pattern from the coarse edges");
    }
    if (st == HOMG_OK && fem->edges && !fem->coarse_nodes) {
        if ((st = fem->k->pattern_from_edges(ex, fem->edges, fem->num_edges, shift, p.num_dofs, keys, alt, temp,
                                             temp_bytes)) != HOMG_OK)
            homg__backend_fail(ctx, st, "homg_fem_create: pattern from edges");
        nnz = 2 * fem->num_edges + p.num_dofs;
    }
    for (int pass = 0; pass < 2 && st == HOMG_OK && nnz == 0; pass++) {
        if (pass == 1 && cap < full)
            st = pattern_buffers(fem, cap = full, 2 * shift, &keys, &alt, &temp, &temp_bytes);
        if (st == HOMG_OK &&
            (st = fem->k->pattern_keys(ex, &p, shift, keys, alt, cap, temp, temp_bytes, &nnz)) != HOMG_OK)
            homg__backend_fail(ctx, st, "homg_fem_create: pattern");
    }
    if (st == HOMG_OK && nnz <= 0)
        st = homg__fail(ctx, HOMG_ERROR_BACKEND, "homg_fem_create: pattern: no keys in buffers of %zu", cap);
    if (st == HOMG_OK) {
        fem->info.nnz = nnz;
        if (!fem->row_ptr)
            st = homg__alloc(ctx, ((size_t)p.num_dofs + 1) * sizeof(int32_t), (void **)&fem->row_ptr,
                             "homg_fem_create: row pointers");
    }
    if (st == HOMG_OK)
        st = homg__alloc(ctx, (size_t)nnz * sizeof(int32_t), (void **)&fem->col_idx, "homg_fem_create: columns");
    if (st == HOMG_OK &&
        (st = fem->k->pattern_csr(ex, keys, nnz, shift, p.num_dofs, fem->row_ptr, fem->col_idx)) != HOMG_OK)
        homg__backend_fail(ctx, st, "homg_fem_create: pattern");
    if (st == HOMG_OK && ev[1] && (st = ctx->mem->event_record(ex, ev[1])) != HOMG_OK)
        homg__backend_fail(ctx, st, "homg_fem_create: event");
    if (st == HOMG_OK && ev[0] && ctx->mem->event_elapsed_ms(ev[0], ev[1], &ms) == HOMG_OK)
        fem->info.pattern_ms = ms;
    homg__free(ctx, keys);
    homg__free(ctx, alt);
    homg__free(ctx, temp);
    if (ev[0])
        ctx->mem->event_destroy(ev[0]);
    if (ev[1])
        ctx->mem->event_destroy(ev[1]);
    if (st == HOMG_OK)
        st = homg__alloc(ctx, (size_t)nnz * value_bytes(fem), &fem->values, "homg_fem_create: values");
    if (st == HOMG_OK)
        st = homg__alloc(ctx, (size_t)p.num_dofs * value_bytes(fem), &fem->rhs, "homg_fem_create: right-hand side");
    return st;
}

static homg_status upload_i32(homg_ctx *ctx, int32_t **dst, const int32_t *src, size_t n, const char *what)
{
    HOMG_TRY(homg__alloc(ctx, n * sizeof(int32_t), (void **)dst, what));
    HOMG_TRY_BACKEND(ctx, ctx->mem->copy(&ctx->ex, *dst, src, n * sizeof(int32_t), HOMG_H2D_ORDERED), what);
    return HOMG_OK;
}

/* 1: Dirichlet node (a facet or marker with one of the tags), 2: in no element;
 * P2 edge unknowns: 1 on Dirichlet facets (p2.c).  P2 only: P1 builds it on
 * the backend (device_mask). */
static homg_status host_mask(homg_fem *fem)
{
    const homg_mesh *m = fem->mesh;
    homg_ctx *ctx = fem->ctx;
    int32_t n = fem->num_dofs;
    uint8_t *mask = (uint8_t *)homg__host_alloc(ctx, (size_t)n, "homg_fem_create: Dirichlet mask");
    homg_status st;
    if (!mask)
        return HOMG_ERROR_OUT_OF_MEMORY;
    memset(mask, 2, (size_t)n);
    for (size_t i = 0; i < (size_t)m->num_elements * (m->dim + 1); i++)
        mask[m->elements[i]] = 0;
    for (int t = 0; t < fem->desc.num_dirichlet_tags; t++) {
        int32_t tag = fem->desc.dirichlet_tags[t];
        for (int32_t f = 0; f < m->num_facets; f++)
            if (m->facet_tags[f] == tag)
                for (int k = 0; k < m->dim; k++)
                    mask[m->facets[(size_t)f * m->dim + k]] = 1;
        for (int32_t i = 0; i < m->num_nodes; i++)
            if (m->node_markers[i] == tag)
                mask[i] = 1;
    }
    if (fem->host_dofs &&
        homg__fem_p2_mask(m, fem->host_dofs, fem->desc.dirichlet_tags, fem->desc.num_dirichlet_tags, mask) != HOMG_OK) {
        free(mask);
        return HOMG_ERROR_OUT_OF_MEMORY;
    }
    for (int32_t i = 0; i < n; i++) {
        fem->info.num_dirichlet += mask[i] == 1;
        fem->num_masked += mask[i] != 0;
    }
    st = homg__alloc(ctx, (size_t)n, (void **)&fem->mask, "homg_fem_create: Dirichlet mask");
    if (st == HOMG_OK && (st = ctx->mem->copy(&ctx->ex, fem->mask, mask, (size_t)n, HOMG_H2D_ORDERED)) != HOMG_OK)
        homg__backend_fail(ctx, st, "homg_fem_create: Dirichlet mask");
    free(mask);
    return st;
}

/* P1: the mask on the backend (kernels/fem/mask.*) from the uploaded facets,
 * the node markers and tags (uploaded for it) and, for "in an element", the
 * pattern's rows (one store a node: -85 us of GPU time a 65^3 GMG set-up
 * against a thread an element, s14-gmg27); its two counts are read by
 * read_mask_counts. */
static homg_status device_mask(homg_fem *fem)
{
    homg_ctx *ctx = fem->ctx;
    const homg_mesh *m = fem->mesh;
    fem_problem p = geometry(fem);
    int nt = fem->desc.num_dirichlet_tags;
    int32_t *markers = NULL, *tags = NULL, *counts = NULL;
    homg_status st =
        homg__alloc(ctx, (size_t)fem->num_dofs + 1, (void **)&fem->mask, "homg_fem_create: Dirichlet mask");
    if (st == HOMG_OK && nt > 0 && fem->lent_tags)
        tags = fem->tags;
    else if (st == HOMG_OK && nt > 0)
        st = upload_i32(ctx, &tags, fem->desc.dirichlet_tags, (size_t)nt, "homg_fem_create: Dirichlet tags");
    if (st == HOMG_OK && nt > 0 && m->ctx_node_markers) { /* a refined GMG level's, made there */
        markers = m->ctx_node_markers;
        fem->lent_markers = 1;
    } else if (st == HOMG_OK && nt > 0) {
        st = upload_i32(ctx, &markers, m->node_markers, (size_t)m->num_nodes, "homg_fem_create: node markers");
    }
    if (st == HOMG_OK && fem->counts) /* in the caller's slot, after the partition's */
        counts = (int32_t *)(fem->counts + MASK_COUNTS_AT);
    else if (st == HOMG_OK)
        st = homg__alloc(ctx, 2 * sizeof(int32_t), (void **)&counts, "homg_fem_create: mask counts");
    if (st == HOMG_OK && (st = fem->k->mask(&ctx->ex, &p, fem->row_ptr, nt > 0 ? m->num_facets : 0, fem->facets,
                                            fem->facet_tags, markers, tags, nt, fem->mask, counts)) != HOMG_OK)
        homg__backend_fail(ctx, st, "homg_fem_create: Dirichlet mask");
    fem->markers = markers; /* kept: a caller's per-tag Dirichlet values (homg__fem_markers) */
    fem->tags = tags;
    fem->mask_counts = counts; /* read after the scheme's preparation (its own read drains the stream) */
    return st;
}

/* The two counts of device_mask: one read less per create than reading them
 * at once (the partition's stats read just waited for the stream). */
static homg_status read_mask_counts(homg_fem *fem)
{
    int32_t h[2] = { 0, 0 };
    homg_status st;
    if (!fem->mask_counts)
        return HOMG_OK;
    st = homg__read(fem->ctx, h, fem->mask_counts, sizeof h);
    fem->info.num_dirichlet = h[0];
    fem->num_masked = h[1];
    if (!fem->counts)
        homg__free(fem->ctx, fem->mask_counts);
    fem->mask_counts = NULL;
    return st;
}

static homg_status build_mask(homg_fem *fem) { return fem->host_dofs ? host_mask(fem) : device_mask(fem); }

static homg_status prepare_color(homg_fem *fem)
{
    int32_t *order = NULL;
    homg_status st = homg__fem_color(fem->ctx, fem->mesh, &order, &fem->color_ptr, &fem->info.num_colors);
    if (st == HOMG_OK)
        st = upload_i32(fem->ctx, &fem->color_elems, order, (size_t)fem->mesh->num_elements,
                        "homg_fem_create: coloured elements");
    free(order);
    return st;
}

/* On CUDA a patch's rows, values and columns must fit one block's shared memory. */
static homg_status check_shared(const homg_fem *fem, const fem_partition *q)
{
    homg_ctx *ctx = fem->ctx;
    size_t vb = value_bytes(fem);
    size_t shared = (size_t)q->max_nnz * (sizeof(int32_t) + vb) + (size_t)q->max_nodes * vb +
                    ((size_t)q->max_nodes + 1) * sizeof(int32_t);
    if (ctx->ex.backend == HOMG_BACKEND_CUDA && shared > ctx->ex.shared_per_block)
        return homg__fail(ctx, HOMG_ERROR_UNSUPPORTED,
                          "homg_fem_create: a patch needs %zu bytes of shared memory, the device has %zu per "
                          "block: lower desc.patch_nnz (%d)",
                          shared, ctx->ex.shared_per_block, fem->desc.patch_nnz);
    return HOMG_OK;
}

/* The patch partition launched on the backend (kernels/fem/partition.*: no
 * host copy of the pattern), its arrays sized for one patch per node, into
 * fem->part; its counts stay in the workspace (fem->part_temp) until
 * finish_patches reads them. */
static homg_status partition(homg_fem *fem)
{
    homg_ctx *ctx = fem->ctx;
    fem_partition *q = &fem->part;
    fem_problem p = geometry(fem);
    size_t n = (size_t)p.num_nodes, tb = 0;
    size_t len[9] = { n + 1, n, 2 * n + 1, n + 1, (size_t)fem->info.nnz, n, n, n + 1, (size_t)p.num_elements };
    int32_t **dst[9] = { &q->node_ptr,   &q->nodes,      &q->row_off,  &q->entry_ptr, &q->entry_src,
                         &q->node_patch, &q->node_local, &q->elem_ptr, &q->elems };
    homg_status st = HOMG_OK;
    memset(q, 0, sizeof *q);
    for (int i = 0; i < 9 && st == HOMG_OK; i++) {
        st = homg__alloc(ctx, (len[i] + 1) * sizeof(int32_t), (void **)&fem->patch_arrays[i],
                         "homg_fem_create: patches");
        *dst[i] = fem->patch_arrays[i];
    }
    if (st == HOMG_OK && (st = fem->k->partition_temp_bytes(&ctx->ex, p.num_nodes, p.num_elements, &tb)) != HOMG_OK)
        homg__backend_fail(ctx, st, "homg_fem_create: patch partition");
    if (st == HOMG_OK)
        st = homg__alloc(ctx, tb + 8, &fem->part_temp, "homg_fem_create: patch partition workspace");
    if (st == HOMG_OK && (st = fem->k->partition(&ctx->ex, &p, fem->row_ptr, fem->info.nnz, fem->desc.patch_nnz, q,
                                                 fem->part_temp, tb)) != HOMG_OK)
        homg__backend_fail(ctx, st, "homg_fem_create: patch partition");
    if (st == HOMG_OK && fem->counts && fem->quick == 2 && /* the caller's slot (homg__fem_finish_from) */
        (st = ctx->mem->copy(&ctx->ex, fem->counts, fem->part_temp, sizeof(part_stats), HOMG_D2D)) != HOMG_OK)
        homg__backend_fail(ctx, st, "homg_fem_create: patch partition");
    return st;
}

/* The partition's arrays and counts into fem->patches and the info. */
static void describe_patches(homg_fem *fem, const fem_partition *q)
{
    fem_patches *d = &fem->patches;
    d->num_patches = q->num_patches;
    d->max_nnz = q->max_nnz;
    d->max_nodes = q->max_nodes;
    d->node_ptr = q->node_ptr;
    d->nodes = q->nodes;
    d->row_off = q->row_off;
    d->entry_ptr = q->entry_ptr;
    d->entry_src = q->entry_src;
    d->node_patch = q->node_patch;
    d->node_local = q->node_local;
    d->elem_ptr = q->elem_ptr;
    d->elems = q->elems;
    fem->info.num_patches = q->num_patches;
    fem->info.max_patch_nnz = q->max_nnz;
    fem->info.max_patch_nodes = q->max_nodes;
    fem->info.boundary_fraction =
        fem->mesh->num_elements ? (double)q->outside / ((double)fem->mesh->num_elements * (fem->mesh->dim + 1)) : 0;
}

/* The patch-boundary contributions and, on the CPU, the per-thread scratch. */
static homg_status patch_buffers(homg_fem *fem)
{
    homg_ctx *ctx = fem->ctx;
    fem_patches *q = &fem->patches;
    size_t vb = value_bytes(fem);
    /* one block, rhs_B after values_B: the backend zeroes both with one set */
    HOMG_TRY(homg__alloc(ctx, ((size_t)fem->info.nnz + (size_t)fem->mesh->num_nodes) * vb, &q->values_B,
                         "homg_fem_create: values_B and rhs_B"));
    q->rhs_B = (unsigned char *)q->values_B + (size_t)fem->info.nnz * vb;
    q->scratch_bytes = fem->k->patch_scratch_bytes(&ctx->ex, q->max_nnz, q->max_nodes, fem->desc.precision) *
                       (size_t)(ctx->ex.sm_count > 0 ? ctx->ex.sm_count : 1);
    if (ctx->ex.backend == HOMG_BACKEND_CUDA)
        q->scratch_bytes = 0;
    if (q->scratch_bytes)
        HOMG_TRY(homg__alloc(ctx, q->scratch_bytes, &q->scratch, "homg_fem_create: patch scratch"));
    return HOMG_OK;
}

/* The partition's counts (one read: synchronises; or from the host copy of
 * the caller's slot), then what they size. */
static homg_status finish_patches(homg_fem *fem, const void *counts)
{
    homg_ctx *ctx = fem->ctx;
    homg_status st = HOMG_OK;
    if (counts)
        partition_stats_to((const part_stats *)counts, &fem->part);
    else
        st = fem->k->partition_stats(&ctx->ex, fem->part_temp, &fem->part);
    homg__free(ctx, fem->part_temp);
    fem->part_temp = NULL;
    if (st != HOMG_OK)
        return homg__backend_fail(ctx, st, "homg_fem_create: patch partition");
    HOMG_TRY(check_shared(fem, &fem->part));
    describe_patches(fem, &fem->part);
    return patch_buffers(fem);
}

/* The reads a create ends with: the partition's counts, the mask's. */
static homg_status finish_reads(homg_fem *fem)
{
    if (fem->desc.scheme == HOMG_FEM_SCHEME_PATCH)
        HOMG_TRY(finish_patches(fem, NULL));
    return read_mask_counts(fem);
}

/* finish_reads from the host copy of the caller's slot. */
static homg_status finish_counts(homg_fem *fem, const unsigned char *counts)
{
    if (fem->desc.scheme == HOMG_FEM_SCHEME_PATCH)
        HOMG_TRY(finish_patches(fem, counts));
    if (fem->mask_counts) {
        int32_t h[2];
        memcpy(h, counts + MASK_COUNTS_AT, sizeof h);
        fem->info.num_dirichlet = h[0];
        fem->num_masked = h[1];
        fem->mask_counts = NULL; /* the slot's */
    }
    return HOMG_OK;
}

int32_t homg__fem_max_row(const homg_fem *fem)
{
    return fem && !fem->deferred && fem->desc.scheme == HOMG_FEM_SCHEME_PATCH ? fem->part.max_row : 0;
}

homg_status homg__fem_finish(homg_fem *fem)
{
    homg_status st;
    int saved;
    if (!fem || !fem->deferred)
        return HOMG_OK;
    fem->deferred = 0;
    HOMG_TRY(homg__enter(fem->ctx, &saved));
    st = finish_reads(fem);
    homg__leave(fem->ctx, saved);
    return st;
}

homg_status homg__fem_finish_from(homg_fem *fem, const void *counts)
{
    homg_status st;
    int saved;
    if (!fem || !fem->deferred)
        return HOMG_OK;
    if (!fem->counts || !counts)
        return homg__fem_finish(fem);
    fem->deferred = 0;
    HOMG_TRY(homg__enter(fem->ctx, &saved));
    st = finish_counts(fem, (const unsigned char *)counts);
    homg__leave(fem->ctx, saved);
    return st;
}

static homg_status create(homg_fem *fem)
{
    homg_ctx *ctx = fem->ctx;
    double t0;
    if (fem->desc.order == 2 || fem->desc.scheme == HOMG_FEM_SCHEME_COLOR) /* host passes over the elements */
        HOMG_TRY(homg__mesh_to_host(fem->mesh));
    HOMG_TRY(homg_mesh_upload(fem->mesh, &fem->view));
    fem->nd = fem->mesh->dim + 1;
    fem->num_dofs = fem->mesh->num_nodes;
    if (fem->desc.order == 2) {
        fem->nd = fem->mesh->dim == 2 ? 6 : 10;
        HOMG_TRY(homg__fem_p2_dofs(ctx, fem->mesh, &fem->host_dofs, &fem->num_dofs));
        HOMG_TRY(upload_i32(ctx, &fem->dofs, fem->host_dofs, (size_t)fem->mesh->num_elements * fem->nd,
                            "homg_fem_create: P2 unknowns"));
    }
    HOMG_TRY(build_pattern(fem));
    HOMG_TRY(homg__alloc(ctx, 6 * sizeof(uint64_t), (void **)&fem->check_slots, "homg_fem_create: check slots"));
    if (fem->mesh->num_facets > 0 && fem->mesh->ctx_facets) { /* a refined GMG level's, made there */
        fem->facets = fem->mesh->ctx_facets;
        fem->facet_tags = fem->mesh->ctx_facet_tags;
        fem->lent_facets = 1;
    } else if (fem->mesh->num_facets > 0) {
        size_t nf = (size_t)fem->mesh->num_facets;
        HOMG_TRY(upload_i32(ctx, &fem->facets, fem->mesh->facets, nf * fem->mesh->dim, "homg_fem_create: facets"));
        HOMG_TRY(upload_i32(ctx, &fem->facet_tags, fem->mesh->facet_tags, nf, "homg_fem_create: facet tags"));
    }
    HOMG_TRY(build_mask(fem)); /* P1: from the facets uploaded above */
    t0 = now_ms();
    if (fem->desc.scheme == HOMG_FEM_SCHEME_COLOR)
        HOMG_TRY(prepare_color(fem));
    else if (fem->desc.scheme == HOMG_FEM_SCHEME_PATCH)
        HOMG_TRY(partition(fem));
    if (fem->quick == 2) { /* homg__fem_finish reads the counts */
        fem->deferred = 1;
        return HOMG_OK;
    }
    HOMG_TRY(finish_reads(fem));
    if (fem->quick) /* the caller synchronises */
        return HOMG_OK;
    HOMG_TRY_BACKEND(ctx, ctx->mem->sync(&ctx->ex), "homg_fem_create");
    fem->info.prepare_ms = now_ms() - t0;
    return HOMG_OK;
}

static homg_status fem_create(homg_mesh *mesh, const homg_fem_desc *desc, const homg__fem_how *how, homg_fem **out);

homg_status homg_fem_create(homg_mesh *mesh, const homg_fem_desc *desc, homg_fem **out)
{
    homg__fem_how how;
    memset(&how, 0, sizeof how);
    return fem_create(mesh, desc, &how, out);
}

homg_status homg__fem_create_how(homg_mesh *mesh, const homg_fem_desc *desc, const homg__fem_how *how, homg_fem **out)
{
    return fem_create(mesh, desc, how, out);
}

void homg__fem_take(homg_fem *fem, int32_t **row_ptr, int32_t **col_idx, void **values, void **rhs, uint8_t **mask)
{
    if (row_ptr) {
        *row_ptr = fem->row_ptr;
        fem->row_ptr = NULL;
    }
    if (col_idx) {
        *col_idx = fem->col_idx;
        fem->col_idx = NULL;
    }
    if (values) {
        *values = fem->values;
        fem->values = NULL;
    }
    if (rhs) {
        *rhs = fem->rhs;
        fem->rhs = NULL;
    }
    if (mask) {
        *mask = fem->mask;
        fem->mask = NULL;
    }
}

static homg_status fem_create(homg_mesh *mesh, const homg_fem_desc *desc, const homg__fem_how *how, homg_fem **out)
{
    homg_ctx *ctx;
    homg_fem *fem;
    homg_fem_desc d;
    homg_status st;
    int saved;
    if (!mesh)
        return HOMG_ERROR_INVALID_ARGUMENT;
    ctx = mesh->ctx;
    HOMG_TRY(homg__begin(ctx, "homg_fem_create", out ? NULL : "out"));
    *out = NULL;
    d = homg_fem_desc_defaults(desc);
    if (d.order != 1 && d.order != 2)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_fem_create: desc.order = %d; 1 (P1) or 2 (P2)",
                          d.order);
    if (d.scheme == HOMG_FEM_SCHEME_DEFAULT)
        d.scheme = ctx->ex.backend != HOMG_BACKEND_CUDA ? HOMG_FEM_SCHEME_SERIAL
                   : d.order == 2                       ? HOMG_FEM_SCHEME_COLOR
                                                        : HOMG_FEM_SCHEME_PATCH;
    if (d.order == 2 && d.scheme == HOMG_FEM_SCHEME_PATCH)
        return homg__fail(ctx, HOMG_ERROR_UNSUPPORTED,
                          "homg_fem_create: the PATCH scheme assembles P1 only; P2 (desc.order = 2) takes COLOR or "
                          "SERIAL");
    if (d.scheme < HOMG_FEM_SCHEME_SERIAL || d.scheme > HOMG_FEM_SCHEME_PATCH)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_fem_create: desc.scheme = %d is not a homg_fem_scheme", (int)d.scheme);
    if (d.scheme == HOMG_FEM_SCHEME_SERIAL && ctx->ex.backend != HOMG_BACKEND_CPU)
        return homg__fail(ctx, HOMG_ERROR_UNSUPPORTED,
                          "homg_fem_create: the SERIAL scheme runs on the CPU backend only");
    if (d.precision != HOMG_FLOAT32 && d.precision != HOMG_FLOAT64)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_fem_create: desc.precision = %d is not a homg_precision", (int)d.precision);
    if (d.num_dirichlet_tags < 0 || (d.num_dirichlet_tags > 0 && !d.dirichlet_tags))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_fem_create: desc.num_dirichlet_tags = %d with dirichlet_tags %s", d.num_dirichlet_tags,
                          d.dirichlet_tags ? "set" : "NULL");
    if (d.patch_nnz < 16)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_fem_create: desc.patch_nnz = %d; at least 16",
                          d.patch_nnz);
    /* the pattern sorts one key per element node pair (CUB counts items in int) */
    if ((double)mesh->num_elements * (d.order == 2 ? 100.0 : (mesh->dim + 1) * (mesh->dim + 1)) +
            (d.order == 2 ? 8.0 : 1.0) * mesh->num_nodes >
        2147483647.0)
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY,
                          "homg_fem_create: %d elements are too many for the pattern build (2^31 node pairs)",
                          (int)mesh->num_elements);
    fem = (homg_fem *)calloc(1, sizeof *fem);
    if (!fem)
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "homg_fem_create: out of host memory");
    fem->ctx = ctx;
    fem->mesh = mesh;
    fem->desc = d;
    fem->quick = how->quick;
    fem->edges = d.order == 1 ? how->edges : NULL; /* P1: the pattern is the edges' */
    fem->num_edges = how->num_edges;
    fem->coarse_nodes = fem->edges && how->coarse_nodes > 0 ? how->coarse_nodes : 0;
    fem->tags = (int32_t *)how->ctx_tags; /* lent: device_mask uploads none */
    fem->lent_tags = how->ctx_tags != NULL;
    fem->counts = how->quick == 2 ? (unsigned char *)how->counts : NULL;
    fem->desc.dirichlet_tags = NULL; /* the caller's array is read here only */
    fem->info.scheme = d.scheme;
    fem->k = HOMG_KERNELS(&ctx->ex, fem);
    st = homg__enter(ctx, &saved);
    if (st == HOMG_OK) {
        fem->desc.dirichlet_tags = d.dirichlet_tags;
        st = create(fem);
        fem->desc.dirichlet_tags = NULL;
        fem->desc.num_dirichlet_tags = d.num_dirichlet_tags;
        homg__leave(ctx, saved);
    }
    if (st != HOMG_OK) {
        homg_fem_destroy(fem);
        return st;
    }
    *out = fem;
    return HOMG_OK;
}

homg_fem_desc homg_fem_get_desc(const homg_fem *fem)
{
    homg_fem_desc d;
    memset(&d, 0, sizeof d);
    return fem ? fem->desc : d;
}

homg_fem_info homg_fem_get_info(const homg_fem *fem)
{
    homg_fem_info i;
    memset(&i, 0, sizeof i);
    return fem ? fem->info : i;
}

/* coeffs.rhs_only: b alone, in the order of the full assembly (element loads
 * with the Dirichlet columns lifted, Neumann, masked rows); the matrix is not touched. */
static homg_status assemble_rhs(homg_fem *fem, const homg_fem_coeffs *c, const fem_problem *p, const fem_system *s,
                                const fem_flux_table *t)
{
    homg_ctx *ctx = fem->ctx;
    kernel_exec *ex = &ctx->ex;
    const uint8_t *mask = fem->num_masked ? fem->mask : NULL;
    homg_status st;
    if (!fem->assembled)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_fem_assemble: coeffs.rhs_only before any full assembly (the matrix has no values)");
    HOMG_TRY_BACKEND(ctx, ctx->mem->zero(ex, fem->rhs, (size_t)s->num_rows * value_bytes(fem)), "homg_fem_assemble");
    if ((st = fem->k->numeric_rhs(ex, p, s, mask, c->dirichlet_value, c->dirichlet_values)) != HOMG_OK)
        return homg__backend_fail(ctx, st, "homg_fem_assemble (rhs_only)");
    if (t->n > 0 && fem->facets &&
        (st = fem->k->neumann(ex, p, s, fem->mesh->num_facets, fem->facets, fem->facet_tags, t)) != HOMG_OK)
        return homg__backend_fail(ctx, st, "homg_fem_assemble: Neumann");
    if (mask && (st = fem->k->rhs_rows(ex, s, mask, c->dirichlet_value, c->dirichlet_values)) != HOMG_OK)
        return homg__backend_fail(ctx, st, "homg_fem_assemble: Dirichlet rows");
    return HOMG_OK;
}

static homg_status assemble(homg_fem *fem, const homg_fem_coeffs *c)
{
    homg_ctx *ctx = fem->ctx;
    kernel_exec *ex = &ctx->ex;
    fem_problem p = geometry(fem);
    fem_system s = system_of(fem);
    homg_status st = HOMG_OK;
    fem_flux_table t;
    HOMG_TRY(homg__fem_check_coeffs(fem, c, &t));
    if (t.n > 0 && fem->desc.order == 2)
        return homg__fail(ctx, HOMG_ERROR_UNSUPPORTED,
                          "homg_fem_assemble: Neumann loads (coeffs.num_neumann = %d) are P1 only; desc.order = 2",
                          t.n);
    p.sigma = c->sigma == 0 ? 1.0 : c->sigma;
    p.sigma_elem = c->sigma_elem;
    p.sigma_tensor = c->sigma_tensor;
    p.lambda = c->lambda;
    p.lambda_elem = c->lambda_elem;
    p.f = c->f;
    p.f_elem = c->f_elem;
    p.f_node = c->f_node;
    if (c->rhs_only)
        return assemble_rhs(fem, c, &p, &s, &t);
    if (fem->desc.scheme != HOMG_FEM_SCHEME_PATCH) {
        HOMG_TRY_BACKEND(ctx, ctx->mem->zero(ex, fem->values, (size_t)s.nnz * value_bytes(fem)), "homg_fem_assemble");
        HOMG_TRY_BACKEND(ctx, ctx->mem->zero(ex, fem->rhs, (size_t)s.num_rows * value_bytes(fem)), "homg_fem_assemble");
    }
    if (fem->desc.scheme == HOMG_FEM_SCHEME_SERIAL)
        st = fem->k->numeric_serial(ex, &p, &s);
    else if (fem->desc.scheme == HOMG_FEM_SCHEME_COLOR)
        st = fem->k->numeric_color(ex, &p, &s, fem->color_elems, fem->color_ptr, fem->info.num_colors);
    else
        st = fem->k->numeric_patch(ex, &p, &s, &fem->patches);
    if (st != HOMG_OK)
        return homg__backend_fail(ctx, st, "homg_fem_assemble");
    if (t.n > 0 && fem->facets &&
        (st = fem->k->neumann(ex, &p, &s, fem->mesh->num_facets, fem->facets, fem->facet_tags, &t)) != HOMG_OK)
        return homg__backend_fail(ctx, st, "homg_fem_assemble: Neumann");
    if (fem->num_masked &&
        (st = fem->k->dirichlet(ex, &s, fem->mask, c->dirichlet_value, c->dirichlet_values)) != HOMG_OK)
        return homg__backend_fail(ctx, st, "homg_fem_assemble: Dirichlet");
    fem->assembled = 1;
    return HOMG_OK;
}

homg_status homg_fem_assemble(homg_fem *fem, const homg_fem_coeffs *coeffs)
{
    homg_fem_coeffs zero;
    homg_status st;
    int saved;
    if (!fem)
        return HOMG_ERROR_INVALID_ARGUMENT;
    if (!coeffs) {
        memset(&zero, 0, sizeof zero);
        coeffs = &zero;
    }
    HOMG_TRY(homg__enter(fem->ctx, &saved));
    st = HOMG_OK;
    if (fem->deferred) { /* homg__fem_finish not called: its reads first */
        fem->deferred = 0;
        st = finish_reads(fem);
    }
    if (st == HOMG_OK)
        st = assemble(fem, coeffs);
    homg__leave(fem->ctx, saved);
    return st;
}

homg_csr homg_fem_matrix(const homg_fem *fem)
{
    homg_csr a;
    memset(&a, 0, sizeof a);
    if (!fem)
        return a;
    a.nrows = a.ncols = fem->num_dofs;
    a.nnz = fem->info.nnz;
    a.row_ptr = fem->row_ptr;
    a.col_idx = fem->col_idx;
    a.values = fem->values;
    a.precision = fem->desc.precision;
    a.memory = HOMG_MEMORY_CONTEXT;
    return a;
}

const void *homg_fem_rhs(const homg_fem *fem) { return fem ? fem->rhs : NULL; }
int32_t homg_fem_num_dofs(const homg_fem *fem) { return fem ? fem->num_dofs : 0; }
const uint8_t *homg_fem_dirichlet_mask(const homg_fem *fem) { return fem ? fem->mask : NULL; }

void homg__fem_markers(const homg_fem *fem, const int32_t **markers, const int32_t **tags)
{
    *markers = fem->markers;
    *tags = fem->tags;
}
