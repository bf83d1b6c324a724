/* fan_mesh.h -- a 2D fan: `rim` triangles round a centre node at the origin,
 * the rim's edges facets tagged 1 (the centre's row then has rim + 1 entries:
 * longer than SPAI-1's row limit for rim >= 40, on every refinement). */
#ifndef HOMG_FAN_MESH_H
#define HOMG_FAN_MESH_H

#include "homg.h"

/* NULL if homg_mesh_create fails or rim is outside 3..1024. */
homg_mesh *homg_test_fan_mesh(homg_ctx *ctx, int rim);

#endif
