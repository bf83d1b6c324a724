/* fem_internal.h -- the homg_fem object and its host-side preparation. */
#ifndef HOMG_FEM_INTERNAL_H
#define HOMG_FEM_INTERNAL_H

#include "fem/fem_kernels.h"
#include "mesh/mesh_internal.h"

struct homg_fem {
    homg_ctx *ctx;
    homg_mesh *mesh;
    homg_mesh_view view;
    homg_fem_desc desc;
    homg_fem_info info;
    const fem_kernels *k;
    int32_t num_masked;    /* Dirichlet + element-less rows */
    int assembled;         /* a full assembly has run: the matrix has values (coeffs.rhs_only) */
    int quick;             /* homg__fem_how's */
    int deferred;          /* quick = 2: the partition's counts not read yet (homg__fem_finish) */
    const uint64_t *edges; /* homg__fem_how's (P1): sorted edges, ctx space (not owned) */
    int32_t num_edges;
    int32_t coarse_nodes; /* > 0: edges are those of the coarse mesh of so many nodes */
    int nd;               /* unknowns per element: dim + 1 (P1) or 6 / 10 (P2) */
    int32_t num_dofs;     /* rows: num_nodes (P1), num_nodes + edges (P2) */
    int32_t *dofs;        /* P2: num_elements * nd unknowns (ctx); P1 uses the mesh's elements */
    int32_t *host_dofs;   /* P2: the same on the host (the Dirichlet mask) */
    /* in the context's space */
    int32_t *row_ptr, *col_idx;
    void *values, *rhs;
    uint8_t *mask;
    int32_t *markers, *tags;       /* P1 with Dirichlet tags: the node markers and tags the mask was built from */
    int32_t *mask_counts;          /* P1: the mask's two counts on the device until read (read_mask_counts) */
    unsigned char *counts;         /* homg__fem_how's (quick = 2): the counts' slot, or NULL (not owned) */
    uint64_t *check_slots;         /* 6 answers of the coefficient scan (coeffs.c) */
    int32_t *facets, *facet_tags;  /* boundary facets for the Neumann load (NULL: none) */
    int lent_facets, lent_markers; /* facets + facet_tags, markers: the mesh's ctx copies (not freed here) */
    int lent_tags;                 /* tags: the caller's (homg__fem_how.ctx_tags; not freed here) */
    /* COLOR */
    int32_t *color_ptr;   /* host, num_colors + 1 */
    int32_t *color_elems; /* ctx */
    /* PATCH: arrays in ctx space, described by `patches` */
    fem_patches patches;
    int32_t *patch_arrays[9];
    fem_partition part; /* the partition until its counts are read (finish_patches) */
    void *part_temp;    /* its workspace, whose start holds the counts on the device */
};

/* How a caller inside the library (GMG's levels) has homg_fem_create run. */
typedef struct homg__fem_how {
    /* 1: no synchronisation at the end, no timing events around the pattern
     * (info.pattern_ms and prepare_ms stay 0); 2: as 1, and the PATCH
     * partition's counts and the mask's not read either (nothing waits), so
     * that several levels' work queues before one wait: homg__fem_finish
     * reads them (before homg_fem_assemble, which otherwise does). */
    int quick;
    /* P1 (P2: not used): sorted unique edges (a << 32 | b, a < b; ctx space,
     * read during the call) -- the mesh's own (coarse_nodes = 0: the pattern
     * from them, pattern_from_edges: no sort of element pairs, no read), or,
     * coarse_nodes > 0, those of the coarse mesh of so many nodes that the
     * mesh was refined from (homg_mesh_refine's numbering: the pattern from
     * them and the children, pattern_refined, ~1/3 of the element pairs
     * sorted; else the pairs). */
    const uint64_t *edges;
    int32_t num_edges, coarse_nodes;
    /* desc.num_dirichlet_tags tags already in the ctx's space (lent, read
     * until homg_fem_destroy: no upload, no synchronisation); NULL: uploaded. */
    const int32_t *ctx_tags;
    /* quick = 2: HOMG_FEM_COUNTS_BYTES in the ctx's space (lent) where the
     * partition's counts and the mask's are left, so that a caller reads
     * several fems' in one read and hands each its bytes
     * (homg__fem_finish_from); NULL: homg__fem_finish reads them. */
    void *counts;
} homg__fem_how;
#define HOMG_FEM_COUNTS_BYTES 64

homg_status homg__fem_create_how(homg_mesh *mesh, const homg_fem_desc *desc, const homg__fem_how *how, homg_fem **out);
/* The pattern's longest row where the PATCH partition found it, else 0. */
int32_t homg__fem_max_row(const homg_fem *fem);
/* The reads a create with how->quick = 2 left; nothing on another fem. */
homg_status homg__fem_finish(homg_fem *fem);
/* The same from a host copy of how->counts' bytes (no read). */
homg_status homg__fem_finish_from(homg_fem *fem, const void *counts);

/* The assembled system handed over to the caller, who frees the arrays with
 * homg__free: row pointers, columns, values, rhs, Dirichlet mask (ctx space;
 * any pointer may be NULL: not taken).  The fem keeps nothing of them. */
void homg__fem_take(homg_fem *fem, int32_t **row_ptr, int32_t **col_idx, void **values, void **rhs, uint8_t **mask);

/* P1 with desc.num_dirichlet_tags > 0: the mesh's node markers and the
 * Dirichlet tags in the ctx's space (uploaded for the mask, kept until
 * homg_fem_destroy); else both NULL. */
void homg__fem_markers(const homg_fem *fem, const int32_t **markers, const int32_t **tags);

/* homg_fem_assemble's checks of c (lib/fem/coeffs.c), and its Neumann table in t. */
homg_status homg__fem_check_coeffs(homg_fem *fem, const homg_fem_coeffs *c, fem_flux_table *t);

/* P2 unknowns of each element (host, num_elements * nd; see lib/fem/p2.c). */
homg_status homg__fem_p2_dofs(homg_ctx *ctx, const homg_mesh *m, int32_t **dofs, int32_t *num_dofs);
/* Marks the P2 edge unknowns that are Dirichlet (1) in mask (the vertices marked already). */
homg_status homg__fem_p2_mask(const homg_mesh *m, const int32_t *dofs, const int32_t *tags, int num_tags,
                              uint8_t *mask);

/* Greedy element colouring on the host: elements of one colour share no node.
 * *order (num_elements) lists the elements colour by colour; *ptr (colours + 1). */
homg_status homg__fem_color(homg_ctx *ctx, const homg_mesh *mesh, int32_t **order, int32_t **ptr, int32_t *colors);

/* Several P1 meshes (same dimension, each with its sorted edges in the ctx's
 * space) as one disjoint mesh in the ctx's space (lib/fem/union.c): mesh l's
 * nodes, elements, facets and edges at the offsets below; P1's pattern has
 * nnz_off[l + 1] - nnz_off[l] = nodes + 2 edges entries for mesh l. */
#define HOMG_FEM_UNION_MAX 8
typedef struct homg__fem_union {
    int count;
    int32_t node_off[HOMG_FEM_UNION_MAX + 1], elem_off[HOMG_FEM_UNION_MAX + 1], facet_off[HOMG_FEM_UNION_MAX + 1];
    int32_t edge_count[HOMG_FEM_UNION_MAX];
    int64_t edge_off[HOMG_FEM_UNION_MAX + 1], nnz_off[HOMG_FEM_UNION_MAX + 1];
    homg_mesh *mesh; /* the union (owned; ctx arrays only) */
    uint64_t *edges; /* its sorted edges, ctx space (owned): homg__fem_how.edges */
    int32_t num_edges;
} homg__fem_union;
/* One mesh's part of the union's assembled system, in arrays of its own (ctx). */
typedef struct homg__fem_part {
    int32_t rows;
    int64_t nnz;
    int32_t *row_ptr, *col_idx;
    double *values;
    uint8_t *mask; /* rows + 1 bytes */
} homg__fem_part;
homg_status homg__fem_union_create(homg_ctx *ctx, homg_mesh *const *meshes, const uint64_t *const *edges,
                                   const int32_t *num_edges, int count, homg__fem_union *u);
void homg__fem_union_free(homg_ctx *ctx, homg__fem_union *u);
/* parts[0 .. u->count) from fem (made on u->mesh, assembled; float64), queued;
 * on failure the parts made so far are the caller's to free. */
homg_status homg__fem_union_split(homg__fem_union *u, homg_fem *fem, homg__fem_part *parts);
#endif
