/* repeat_mesh.h -- a copy of a mesh with its first element twice (the last
 * element repeats element 0): a mesh the uniform refinement's counting rule
 * (V' = V + E, E' = 2E + 3F + T, ...) does not hold for. */
#ifndef HOMG_REPEAT_MESH_H
#define HOMG_REPEAT_MESH_H

#include "homg.h"

/* NULL if homg_mesh_create fails or out of memory. */
homg_mesh *homg_test_repeat_mesh(homg_ctx *ctx, const homg_mesh *m);

#endif
