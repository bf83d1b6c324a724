/* msh_internal.h -- what the Gmsh .msh reader's ASCII part (msh.c) and binary
 * part (msh_binary.c) share. */
#ifndef HOMG_MSH_INTERNAL_H
#define HOMG_MSH_INTERNAL_H

#include "mesh_internal.h"

/* One element or facet as read: its file tag, its physical tag, and its line
 * (-1 in binary files, whose messages name the element tag instead). */
typedef struct msh_meta {
    long long id;
    int32_t tag;
    int32_t line;
} msh_meta;

/* The elements of one dimension (lines, triangles, tetrahedra), linear or
 * quadratic but not both: nn node tags per element, corners first. */
typedef struct msh_list {
    host_vec nodes; /* long long */
    host_vec meta;  /* msh_meta */
    int nn;         /* 0 while empty */
    long long type; /* the Gmsh type of the first element */
} msh_list;

typedef struct msh_entity {
    long long tag;
    int dim;
    int32_t phys;
} msh_entity;

typedef struct msh {
    line_reader *r;
    int version;      /* 2 or 4 */
    int binary;       /* file-type 1 */
    int swap;         /* binary data in the other byte order */
    int size_t_bytes; /* 4.1 binary: the data-size field, 4 or 8 */
    int have_format, have_nodes, have_elements;
    host_vec xyz;       /* double[3] per node */
    host_vec node_tag;  /* long long per node */
    host_vec node_line; /* int32_t per node (-1 in binary files) */
    msh_list elems[3];  /* lines, triangles, tetrahedra */
    host_vec entities;  /* msh_entity (4.1) */
} msh;

homg_status homg__msh_oom(msh *m);
/* Nodes of an element type read (1, 2, 4, 15 and the quadratic 8, 9, 11); 0: unsupported. */
int homg__msh_type_nodes(long long type);
homg_status homg__msh_unsupported(msh *m, long long type);
homg_status homg__msh_push_node(msh *m, long long tag, const double xyz[3]);
/* Stores an element of `type` (points are dropped) with its nn node tags. */
homg_status homg__msh_push_elem(msh *m, long long type, long long id, int32_t tag, const long long *nodes);
homg_status homg__msh_push_entity(msh *m, int dim, long long tag, long long phys);
/* The physical tag of entity (dim, tag) once homg__msh_sort_entities ran; 0 when unknown. */
int32_t homg__msh_entity_phys(msh *m, int dim, long long tag);
void homg__msh_sort_entities(msh *m);
/* The next content line must be `end`. */
homg_status homg__msh_expect_end(msh *m, const char *end, const char *count_hint);

/* Binary sections (msh_binary.c); each starts right after its section's name line. */
homg_status homg__msh_bin_format(msh *m, long long data_size);
homg_status homg__msh_bin_nodes2(msh *m);
homg_status homg__msh_bin_elements2(msh *m);
homg_status homg__msh_bin_entities(msh *m);
homg_status homg__msh_bin_nodes4(msh *m);
homg_status homg__msh_bin_elements4(msh *m);
homg_status homg__msh_bin_skip(msh *m, const char *name);

/* Node tags to indices, quadratic elements to their corners, and the mesh (msh_build.c). */
homg_status homg__msh_build(msh *m, homg_mesh **out);

#endif
