/* mesh_internal.h -- what the mesh files (mesh.c, readers, writers, generators) share. */
#ifndef HOMG_MESH_INTERNAL_H
#define HOMG_MESH_INTERNAL_H

#include "core/internal.h"

#include <stdint.h>
#include <stdio.h>

struct homg_mesh {
    homg_ctx *ctx;
    int dim;
    int32_t num_nodes, num_elements, num_facets;
    double *coords;        /* num_nodes * dim */
    int32_t *elements;     /* num_elements * (dim + 1) */
    int32_t *element_tags; /* num_elements */
    int32_t *facets;       /* num_facets * dim */
    int32_t *facet_tags;   /* num_facets */
    int32_t *node_markers; /* num_nodes */
    int32_t num_reoriented;
    int order; /* 2: read from quadratic elements (their corners are the elements), else 1 */
    /* copies in the context's space (homg_mesh_upload) */
    double *ctx_coords;
    int32_t *ctx_elements, *ctx_element_tags;
    /* a refined GMG level's facets, facet tags and node markers, made in the
     * context's space (the host arrays NULL until homg__mesh_to_host) */
    int32_t *ctx_facets, *ctx_facet_tags, *ctx_node_markers;
};

/* Host arrays being turned into a mesh; all malloc'd (or NULL), owned by the struct. */
typedef struct mesh_arrays {
    int dim;
    int32_t num_nodes, num_elements, num_facets;
    double *coords;
    int32_t *elements, *element_tags, *facets, *facet_tags, *node_markers;
    int32_t *element_lines; /* optional: the file line of each element, for messages */
    int order;              /* element order of the source file (0 or 1: linear) */
    int volume_elsewhere;   /* coords, elements and element_tags NULL: they stay in the ctx's space */
    int facets_elsewhere;   /* facets, facet_tags and node_markers NULL: likewise (num_facets counts them) */
} mesh_arrays;

void homg__mesh_arrays_free(mesh_arrays *a);

/* Checks the arrays (indices in range, finite coordinates, no zero-volume
 * element), re-orients inverted elements (counted), derives missing tags and
 * markers, and wraps them in a mesh that takes them over.  `source` names the
 * file for messages ("path:line: ...", or "path: element 7: ..." without lines);
 * NULL for arrays from the caller.  On failure the arrays are freed. */
homg_status homg__mesh_finish(homg_ctx *ctx, mesh_arrays *a, const char *source, homg_mesh **out);
/* The same for arrays known valid and positively oriented (a refined valid
 * mesh): no index, degeneracy or orientation pass (the refinement's hot spot). */
homg_status homg__mesh_finish_checked(homg_ctx *ctx, mesh_arrays *a, homg_mesh **out);

/* A mesh whose coordinates, elements and element tags, or facets, facet tags
 * and node markers, are only in the ctx's space (ctx_coords, ctx_facets, ...:
 * the GMG set-up's refined levels) gets its host copies; nothing to do for
 * any other mesh.  The ctx must be entered. */
homg_status homg__mesh_to_host(homg_mesh *m);

/* Signed measure times dim!: twice the area (2D) or six times the volume (3D). */
double homg__element_det(int dim, const double *coords, const int32_t *nodes);
/* Longest edge of the element. */
double homg__element_longest_edge(int dim, const double *coords, const int32_t *nodes);

/* Sorted unique edges (min << 32 | max) of all elements; *out malloc'd. */
homg_status homg__mesh_edges(homg_ctx *ctx, const homg_mesh *mesh, uint64_t **out, size_t *count);
/* The number of distinct edges and (tetrahedra) triangular faces of the
 * mesh's host elements, or -1 (faces: triangles; both: no host elements, or
 * more than 2^21 nodes).  lib/mesh/counts.c. */
homg_status homg__mesh_count_edges_faces(homg_ctx *ctx, const homg_mesh *m, int64_t *edges, int64_t *faces);
/* Where a refinement's heavy part runs elsewhere (the GMG set-up: on the
 * backend): edges gives m's sorted unique edges (malloc'd; with edges NULL
 * only their count), fill the fine
 * coordinates and children (arrays of the refined size) by the rule of
 * kernels/gmg/refine.h; the host does tags, markers and facets. */
typedef struct mesh_refine_hook {
    void *user;
    int device_only; /* non-zero: no host coordinates, elements, element tags (fill gets NULL arrays and */
                     /* the caller hands the refined mesh its ctx_* arrays) */
    homg_status (*edges)(void *user, const homg_mesh *m, uint64_t **edges, size_t *count);
    homg_status (*fill)(void *user, const homg_mesh *m, double *coords, int32_t *elements);
    /* Optional (device_only): the refined facets, their tags and the node markers
     * made elsewhere too (called after fill, for a mesh with facets); edges is then
     * called with edges NULL (the count only: no host copy of the edges). */
    homg_status (*facets)(void *user, const homg_mesh *m);
} mesh_refine_hook;
/* homg_mesh_refine (hook NULL: all on the host) that also hands back the
 * sorted edges of m (node num_nodes + k of *out is the midpoint of edge k;
 * free() them), or not (edges NULL). */
homg_status homg__mesh_refine_edges(const homg_mesh *m, const mesh_refine_hook *hook, homg_mesh **out, uint64_t **edges,
                                    size_t *count);

/* ------------------------------------------------ reading text files line by line */

/* A line source over a (possibly gzip-compressed) file or a memory buffer. */
typedef struct line_reader {
    homg_ctx *ctx;
    const char *path; /* for messages */
    void *gz;         /* gzFile, or NULL for memory */
    void *chunk;      /* read-ahead buffer of a file source */
    const char *mem;
    size_t mem_size, mem_pos;
    char *buf;
    size_t cap;
    long line;          /* number of the line last returned (1-based) */
    long long offset;   /* bytes consumed (decompressed) */
    int binary;         /* set by a binary .msh: messages name byte offsets, not lines */
    double bytes_bound; /* most bytes the file can hold (decompressed), for count checks */
    int eof;
} line_reader;

homg_status homg__lines_open(homg_ctx *ctx, line_reader *r, const char *path);
void homg__lines_open_memory(homg_ctx *ctx, line_reader *r, const char *name, const void *data, size_t size);
void homg__lines_close(line_reader *r);
/* Next line (trailing newline, CR and '#' comments kept); *line = NULL at the end. */
homg_status homg__lines_next(line_reader *r, char **line);
/* Reads up to n raw bytes (binary sections); returns how many it read (< n at the end).
 * *err is set to HOMG_ERROR_IO on a read error. */
size_t homg__lines_read(line_reader *r, void *dst, size_t n, homg_status *err);
/* Next line that is not blank (after removing a '#' comment when strip_comments). */
homg_status homg__lines_next_content(line_reader *r, char **line, int strip_comments);
/* HOMG_ERROR_PARSE with "path:line: what" ("path: byte N: what" once r->binary is set). */
homg_status homg__lines_fail(line_reader *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Refuses a claimed count of records of at least min_bytes each that the file cannot hold. */
homg_status homg__lines_check_count(line_reader *r, long long count, int min_bytes, const char *what);

/* The readers (msh.c, nodeele.c), also the entry points of the fuzz
 * targets, which read from memory.  `edges` (read for a 2D mesh) and `faces`
 * (3D) may be NULL. */
homg_status homg__read_msh(line_reader *r, homg_mesh **out);
homg_status homg__read_nodeele(homg_ctx *ctx, line_reader *nodes, line_reader *eles, line_reader *edges,
                               line_reader *faces, homg_mesh **out);

/* Tokens: skip blanks, parse one number; 0 when there is none or it is malformed. */
int homg__tok_ll(char **p, long long *v);
int homg__tok_double(char **p, double *v);
/* Non-zero when only blanks remain. */
int homg__tok_end(const char *p);

/* A growable host array of fixed-size items. */
typedef struct host_vec {
    unsigned char *data;
    size_t count, cap, item;
} host_vec;

void homg__vec_init(host_vec *v, size_t item);
/* Appends one item (copied); 0 when out of memory. */
int homg__vec_push(host_vec *v, const void *item);
void homg__vec_free(host_vec *v);

#endif
