/* grid_rows.cuh -- the row-block fused steps of grid_rows.cu, launched by grid_fused.cu
 * where a float32 level fits them (homg_rows_fits: from 1024^2 by default). */
#ifndef HOMG_GRID_ROWS_CUH
#define HOMG_GRID_ROWS_CUH

#include "grid_kernels.h"

#include <cuda_runtime.h>

/* 1 when the row-block steps take level L with `sweeps` sweeps: nx a multiple of 4, ny
 * even, 1 <= sweeps <= 2, at least the level's tune.rows_cells cells (grid_kernels.h), every
 * non-NULL pointer 16-byte aligned. */
int homg_rows_fits(const grid_level *L, int sweeps, const void *const *ptrs, int nptrs);

/* As grid_kernels' smooth_restrict / prolong_smooth (float32, out of place). */
void homg_rows_down(cudaStream_t st, int pdl, const grid_level *L, const float *u_in, float *u_out, const float *f,
                    float *fc, int sweeps, int init, const float *ec);
void homg_rows_up(cudaStream_t st, int pdl, const grid_level *L, const float *ec, const float *u_in, float *u_out,
                  const float *f, int sweeps, int assign);

/* The mid step of a fixed sequence of cycles (grid_kernels' prolong_smooth_restrict): 1 when
 * the row blocks take level L with 1 <= sweeps <= 3 (as homg_rows_fits otherwise). */
int homg_rows_mid_fits(const grid_level *L, int sweeps, const void *const *ptrs, int nptrs);
void homg_rows_mid(cudaStream_t st, int pdl, const grid_level *L, const float *ec, const float *u_in, float *u_out,
                   const float *f, float *fc, int sweeps);

#endif
