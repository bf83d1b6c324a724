/* cube_kernels.h -- the fast path of the general multigrid's uniform 3D levels
 * (lib/grid/general*.c): constant sigma and lambda, no flags, no periodic axis,
 * float32, nx a multiple of 4, ny and nz even (every level of a power-of-two box
 * down to 4 cells a side).  Same operator and same cycle steps as the gen
 * kernels (gen_kernels.h): red-black Gauss-Seidel (SOR where omega != 1), piecewise-constant transfers;
 * only the arithmetic is float (the gen kernels sum in double) and the work is
 * laid out for bandwidth: a thread per row of four cells along x (a float4),
 * marching in z with the planes below and above in registers, and the steps of
 * a level fused where one pass can do them.
 *
 * The kernels write whole rows but change only the cells they relax: the values
 * a half-sweep reads from its neighbours are of the other colour, which nobody
 * writes in that pass, so the result does not depend on the order of the rows
 * (CPU and CUDA compute the same values, up to contracted multiply-adds). */
#ifndef HOMG_CUBE_KERNELS_H
#define HOMG_CUBE_KERNELS_H

#include "kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A uniform level as the cube kernels see it (cube_from_gen, cube_point.h). */
typedef struct cube_level {
    int nx, ny, nz;
    float g[3];  /* face conductance per axis */
    float lam;   /* lambda (per cell) */
    float omega; /* the half-sweeps' weight: 1 Gauss-Seidel (cube_from_gen), else SOR (general_steps.c's plain) */
    float dlo[3], dmid[3], dhi[3]; /* axis a's part of the diagonal at its first cell, inside, at its last */
} cube_level;

#define CUBE_KERNELS(X)                                                                                          \
    /* One half-sweep: the cells with (i + j + k) % 2 == colour relaxed, in place. */                            \
    X(homg_status, cube, sweep, (kernel_exec * ex, const cube_level *K, float *u, const float *f, int colour))   \
    /* u = 0, the colour-0 half-sweep, then the colour-1 half-sweep, in one pass over f (every cell written). */ \
    X(homg_status, cube, pre, (kernel_exec * ex, const cube_level *K, float *u, const float *f))                 \
    /* v = u + ec[parent] (C: the level below, half K's size per axis), then the cells of `colour` relaxed */    \
    /* from v (SOR: from their own v where omega != 1); the other cells keep u (the caller's next half-sweep */  \
    /* overwrites them: a Gauss-Seidel one, which does not read a cell's own value). */                          \
    X(homg_status, cube, prolong_smooth,                                                                         \
      (kernel_exec * ex, const cube_level *K, const float *ec, float *u, const float *f, int colour))            \
    /* q = A x; *xq += x.q (in double; the CG's operator step). */                                               \
    X(homg_status, cube, apply, (kernel_exec * ex, const cube_level *K, const float *x, float *q, double *xq))   \
    /* r = f - A u (u NULL: f), summed in double; *rr += r.r (rr NULL: not summed). The finest level's */        \
    /* residual where the sides carry no data (gen residual's face terms are 0 then). */                         \
    X(homg_status, cube, residual,                                                                               \
      (kernel_exec * ex, const cube_level *K, const float *u, const float *f, float *r, double *rr))             \
    /* fc[C] = sum over C's eight children of f - A u (fc: the level below, half K's size per axis). */          \
    X(homg_status, cube, residual_restrict,                                                                      \
      (kernel_exec * ex, const cube_level *K, const float *u, const float *f, float *fc))

typedef struct cube_kernels {
    const char *name;
    CUBE_KERNELS(HOMG_KERNEL_MEMBER)
} cube_kernels;
CUBE_KERNELS(HOMG_KERNEL_CPU_PROTO)
extern const cube_kernels homg_cpu_cube_kernels;
#if HOMG_HAVE_CUDA
CUBE_KERNELS(HOMG_KERNEL_CUDA_PROTO)
extern const cube_kernels homg_cuda_cube_kernels;
#endif

#ifdef __cplusplus
}
#endif
#endif
