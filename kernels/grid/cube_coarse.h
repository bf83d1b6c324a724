/* cube_coarse.h -- the coarse levels of the uniform 3D box's V-cycle in one launch
 * (issues 9 and 12): from a cube level of at most a few thousand cells (16^3) down
 * to the coarsest, every step the launches of lib/grid/general_cycle.c's homg__gen_visit() do on
 * those levels, in the same order and with the same formulas (cube_point.h, and
 * gen's coarse_apply on the coarsest):
 *
 *   down, each cube level q: cube_pre (u = 0, colour 0, colour 1), the half-sweeps
 *     2 .. 2 pre[q] - 1 of colour h & 1, the residual restricted to b[q + 1];
 *   the coarsest: x = cm b (coarse_matrix's map, sums in double);
 *   up, each cube level q: prolong_smooth of colour `first`, the half-sweeps
 *     1 .. 2 post[q] - 1 of colour (h + first) & 1, the first of them Gauss-Seidel
 *     (omega 1; cube_sweeps says why).
 *
 * The CPU twin (cube_coarse.c) runs those steps as the cube and gen CPU kernels on
 * the levels' arrays; the CUDA kernel (cube_coarse.cu) runs them in one thread block
 * from shared memory, reading b[0] and writing x[0] only (the other levels' x and b
 * are not written on the GPU: nothing reads them after the cycle). */
#ifndef HOMG_CUBE_COARSE_H
#define HOMG_CUBE_COARSE_H

#include "cube_kernels.h"
#include "gen_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUBE_BLOCK_MAX 8 /* levels, the coarsest included */

typedef struct cube_block {
    int n;                                         /* levels, 2..CUBE_BLOCK_MAX: n - 1 cube levels, then the coarsest */
    int first;                                     /* the way up's first colour */
    cube_level K[CUBE_BLOCK_MAX];                  /* the cube levels 0 .. n-2 (each half the one above per axis) */
    int pre[CUBE_BLOCK_MAX], post[CUBE_BLOCK_MAX]; /* their sweeps down (>= 1) and up (>= 1) */
    gen_level coarsest;       /* lv[n-1]: uniform, no flags, at most GEN_COARSE_MATRIX_CELLS cells */
    const float *cm;          /* its solve as a matrix (gen coarse_matrix) */
    float *x[CUBE_BLOCK_MAX]; /* x[0]: the result; x[1..]: the coarse corrections (CPU only) */
    float *b[CUBE_BLOCK_MAX]; /* b[0]: the right-hand side (read); b[1..]: written (CPU only) */
} cube_block;

/* Floats of shared memory the CUDA kernel needs: u and f of every level (each rounded
 * to 4 floats) and the coarsest's rhs in double. */
static inline size_t cube_block_floats(const cube_block *B)
{
    size_t s = 0;
    for (int q = 0; q + 1 < B->n; q++)
        s += 2 * (((size_t)B->K[q].nx * B->K[q].ny * B->K[q].nz + 3) / 4 * 4);
    const size_t nc = (size_t)B->coarsest.nx * B->coarsest.ny * B->coarsest.nz;
    return s + 4 * ((nc + 3) / 4 * 4);
}

#define CUBEBLK_KERNELS(X)                                              \
    /* x[0] = one V-cycle from zero on B's levels (the steps above). */ \
    X(homg_status, cubeblk, vcycle, (kernel_exec * ex, const cube_block *B))

typedef struct cubeblk_kernels {
    const char *name;
    CUBEBLK_KERNELS(HOMG_KERNEL_MEMBER)
} cubeblk_kernels;
CUBEBLK_KERNELS(HOMG_KERNEL_CPU_PROTO)
extern const cubeblk_kernels homg_cpu_cubeblk_kernels;
#if HOMG_HAVE_CUDA
CUBEBLK_KERNELS(HOMG_KERNEL_CUDA_PROTO)
extern const cubeblk_kernels homg_cuda_cubeblk_kernels;
#endif

#ifdef __cplusplus
}
#endif
#endif
