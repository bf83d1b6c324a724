/* rows_case.h -- the CSR pattern of a refined P1 mesh from the coarse edges
 * and the children (pattern_refined + pattern_csr, kernels/fem/pattern.h: the
 * default of a GMG hierarchy's level 0) against
 * the definition written out here (every node pair of every fine element and
 * every diagonal, sorted, duplicates dropped): test_fem (CPU) and
 * test_fem_gpu (both backends). */
#ifndef HOMG_ROWS_CASE_H
#define HOMG_ROWS_CASE_H

#include <stdint.h>

#include "homg.h"

/* fm = homg_mesh_refine(cm) (host arrays read); on ctx: the rows of fm from
 * cm's sorted edges and fm's children = the definition (aborts with a message
 * where not); swap: two children of different coarse elements swapped first,
 * then the rows must be refused.  Answers the nnz (0: refused). */
int32_t homg_test_refined_pattern(homg_ctx *ctx, const homg_mesh *cm, const homg_mesh *fm, int swap);

#endif
