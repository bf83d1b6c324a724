/* grid_stream.cuh -- the streamed fused steps of grid_stream.cu, launched by
 * grid_fused.cu where a float32 level fits them (homg_stream_fits). */
#ifndef HOMG_GRID_STREAM_CUH
#define HOMG_GRID_STREAM_CUH

#include "grid_kernels.h"

#include <cuda_runtime.h>

/* 1 when the streamed steps take level L with `sweeps` sweeps: nx a multiple of 4, ny
 * even, 1 <= sweeps <= 2, at least HOMG_BOX_STREAM_CELLS cells, every non-NULL pointer
 * 16-byte aligned. */
int homg_stream_fits(const grid_level *L, int sweeps, const void *const *ptrs, int nptrs);

/* As grid_kernels' smooth_restrict / prolong_smooth (float32, out of place). */
void homg_stream_down(cudaStream_t st, int pdl, const grid_level *L, const float *u_in, float *u_out, const float *f,
                      float *fc, int sweeps, int init, const float *ec);
void homg_stream_up(cudaStream_t st, int pdl, const grid_level *L, const float *ec, const float *u_in, float *u_out,
                    const float *f, int sweeps, int assign);

#endif
