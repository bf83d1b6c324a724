/* grid_owned.cuh -- the owned-cell fused steps of grid_owned.cu, launched by
 * grid_fused.cu on small levels (at most HOMG_BOX_OWNED_CELLS cells). */
#ifndef HOMG_GRID_OWNED_CUH
#define HOMG_GRID_OWNED_CUH

#include "grid_kernels.h"

#include <cuda_runtime.h>

/* The most sweeps the owned steps take (as the tile steps). */
#define HOMG_OWNED_MAX_SWEEPS 3

/* As grid_kernels' smooth_restrict / prolong_smooth (out of place, 0..3 sweeps; T is
 * float when elem is 4, else double). */
void homg_owned_down(cudaStream_t st, int pdl, int elem, const grid_level *L, const void *u_in, void *u_out,
                     const void *f, void *fc, int sweeps, int init, const void *ec);
void homg_owned_up(cudaStream_t st, int pdl, int elem, const grid_level *L, const void *ec, const void *u_in,
                   void *u_out, const void *f, int sweeps, int assign);

#endif
