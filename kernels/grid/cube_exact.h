/* cube_exact.h -- a small uniform 3D box level solved exactly (issue 9, s12-cube13): on a
 * cube level (cube_point.h) the operator is separable, A = Tx + Ty + Tz + lam (T_a the
 * level's 1D tridiagonal matrix along axis a: dlo / dmid / dhi on the diagonal, -g[a] off
 * it), so with each T_a = S_a diag(ev_a) S_a^T (orthonormal S_a, cube_exact_of)
 *
 *   x = (Sx Sy Sz) D^-1 (Sx Sy Sz)^T b,  D_ijk = evx_i + evy_j + evz_k + lam:
 *
 * six small transforms along the axes and a division, in one thread block from shared
 * memory on the GPU.  general_cycle.c runs it in place of the V-cycle from a level of at most
 * CUBE_EXACT_CELLS cells down (at 128^3: the 16^3 level's 8 launches and the cube block's
 * one, replaced by one launch, and an exact coarse correction there). */
#ifndef HOMG_CUBE_EXACT_H
#define HOMG_CUBE_EXACT_H

#include "cube_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUBE_EXACT_N     16 /* most cells along an axis */
#define CUBE_EXACT_CELLS (CUBE_EXACT_N * CUBE_EXACT_N * CUBE_EXACT_N)

typedef struct cube_exact {
    int n[3];                                /* cells along x, y, z */
    float lam;                               /* the level's lambda */
    float s[3][CUBE_EXACT_N * CUBE_EXACT_N]; /* S_a[i][m] at i * CUBE_EXACT_N + m: cell i of mode m (0 beyond n[a]) */
    float ev[3][CUBE_EXACT_N];               /* T_a's eigenvalue of mode m */
} cube_exact;

/* Axis a of level K's 1D matrix T_a = V diag(w) V^T (host, double; V[i * m + q]: cell i of mode
 * q, m the cells along a, returned; 0 beyond CUBE_AXIS_MAX): cube_exact_of and cube_sep_tables. */
#define CUBE_AXIS_MAX 64
int cube_axis_eigen(const cube_level *K, int a, double *V, double *w);

/* E for level K (host): 0 where K has an axis of more than CUBE_EXACT_N cells or A is
 * (nearly) singular (every side Neumann and lam 0). */
int cube_exact_of(const cube_level *K, cube_exact *E);

#define CUBEEXACT_KERNELS(X)                                  \
    /* x = A^-1 b on E's level (x and b: nx ny nz floats). */ \
    X(homg_status, cubeexact, solve, (kernel_exec * ex, const cube_exact *E, float *x, const float *b))

typedef struct cubeexact_kernels {
    const char *name;
    CUBEEXACT_KERNELS(HOMG_KERNEL_MEMBER)
} cubeexact_kernels;
CUBEEXACT_KERNELS(HOMG_KERNEL_CPU_PROTO)
extern const cubeexact_kernels homg_cpu_cubeexact_kernels;
#if HOMG_HAVE_CUDA
CUBEEXACT_KERNELS(HOMG_KERNEL_CUDA_PROTO)
extern const cubeexact_kernels homg_cuda_cubeexact_kernels;
#endif

#ifdef __cplusplus
}
#endif
#endif
