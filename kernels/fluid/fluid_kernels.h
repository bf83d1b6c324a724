/* fluid_kernels.h -- what lib/fluid asks of a backend: the steps of a stable-
 * fluids solver on a MAC grid (layout and formulas: fluid_point.h).  float32. */
#ifndef HOMG_FLUID_KERNELS_H
#define HOMG_FLUID_KERNELS_H

#include "core/splat_batch.h"
#include "fluid/fluid_point.h"
#include "kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FLUID_KERNELS(X)                                                                                         \
    /* out = decay * (in advected by (u, v) over dt_h cells); cell fields (in.ox = 0.5) are 0 in solid */        \
    /* cells.  out has in's size. */                                                                             \
    X(homg_status, fluid, advect,                                                                                \
      (kernel_exec * ex, int nx, int ny, const uint8_t *solid, fluid_field in, fluid_field u, fluid_field v,     \
       float dt_h, float decay, float *out))                                                                     \
    /* u_out, v_out = advect's of u and of v by (u, v) (decay 1), in one pass (one launch on CUDA) */            \
    X(homg_status, fluid, advect_velocity,                                                                       \
      (kernel_exec * ex, int nx, int ny, fluid_field u, fluid_field v, float dt_h, float *u_out, float *v_out))  \
    /* out = scale * div(u, v) per cell, closed faces counting as zero (fluid_divergence_point) */               \
    X(homg_status, fluid, divergence,                                                                            \
      (kernel_exec * ex, int nx, int ny, const uint8_t *solid, const float *u, const float *v, float scale,      \
       float *out))                                                                                              \
    /* divergence's out, and per cell p = 2 p - p_prev, p_prev = p as it was (the pressure extrapolated */       \
    /* in time: the projection's start; fluid_extrapolate) in the same pass */                                   \
    X(homg_status, fluid, divergence_extrapolate,                                                                \
      (kernel_exec * ex, int nx, int ny, const uint8_t *solid, const float *u, const float *v, float scale,      \
       float *out, float *p, float *p_prev))                                                                     \
    /* open faces: u -= (p_right - p_left) * inv_h (v likewise); closed faces: 0 */                              \
    X(homg_status, fluid, subtract_gradient,                                                                     \
      (kernel_exec * ex, int nx, int ny, const uint8_t *solid, const float *p, float inv_h, float *u, float *v)) \
    /* p_out = one Jacobi sweep of -Lap p = f with zero-flux walls (fluid_jacobi_point) */                       \
    X(homg_status, fluid, jacobi,                                                                                \
      (kernel_exec * ex, int nx, int ny, const uint8_t *solid, const float *p, const float *f, float h2,         \
       float *p_out))                                                                                            \
    /* q[k] += the splats at point k of the staggered field (size mx x my, offset ox, oy, width h) */            \
    X(homg_status, fluid, splat,                                                                                 \
      (kernel_exec * ex, int mx, int my, float ox, float oy, double h, const splat_batch *splats, float *q))     \
    /* flags[c] = solid[c] ? solid_flag : 0 (the grid's SOLID and ACTIVE cell flags); *count (ctx space, */      \
    /* zeroed by the caller) += the number of solid cells */                                                     \
    X(homg_status, fluid, flags,                                                                                 \
      (kernel_exec * ex, int64_t n, const uint8_t *solid, uint8_t solid_flag, uint8_t *flags, int64_t *count))

typedef struct fluid_kernels {
    const char *name;
    FLUID_KERNELS(HOMG_KERNEL_MEMBER)
} fluid_kernels;
FLUID_KERNELS(HOMG_KERNEL_CPU_PROTO)
extern const fluid_kernels homg_cpu_fluid_kernels;
#if HOMG_HAVE_CUDA
FLUID_KERNELS(HOMG_KERNEL_CUDA_PROTO)
extern const fluid_kernels homg_cuda_fluid_kernels;
#endif

#ifdef __cplusplus
}
#endif
#endif /* HOMG_FLUID_KERNELS_H */
