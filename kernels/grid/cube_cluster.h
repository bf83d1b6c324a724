/* cube_cluster.h -- cube_sep.h's exact solve of a uniform 3D box level of up to 32 cells a
 * side in ONE launch on a thread-block cluster (issue 9, s13-cube17): the three passes of
 * cube_sep.h (in-plane Sx^T Sy^T per z-slice; along z Sz^T, D^-1, Sz; in-plane Sy Sx) with
 * the level held in the cluster's distributed shared memory instead of global scratch, so
 * the passes are separated by cluster barriers, not launches.  Block r of the cluster owns
 * z-slices r nz/cs .. (r + 1) nz/cs - 1 and, for the z pass, rows y r ny/cs .. (r + 1) ny/cs - 1,
 * gathered from every block's slices through DSMEM and written back there.  Every output is
 * the same fmaf sum over q ascending from 0 as cube_sep_apply, with the same division, so the
 * floats equal cube_sep's: the CPU twin is cube_sep's CPU solve (cube_cluster.c). */
#ifndef HOMG_CUBE_CLUSTER_H
#define HOMG_CUBE_CLUSTER_H

#include "cube_sep.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUBE_CLUSTER_N 32 /* most cells along an axis */

/* P's level takes a cluster of cs blocks (8 or 16): nx a multiple of 4, ny and nz multiples
 * of cs (and of 4), all at most CUBE_CLUSTER_N, and cube_sep_fits. */
int cube_cluster_fits(const cube_sep *P, int cs);

#define CUBECLU_KERNELS(X)                                                                              \
    /* x = A^-1 b on P's level on a cluster of cs blocks (x and b: nx ny nz floats, distinct; P->t in \
     * this backend; P->w unused). */ \
    X(homg_status, cubeclu, solve, (kernel_exec * ex, const cube_sep *P, int cs, float *x, const float *b))

typedef struct cubeclu_kernels {
    const char *name;
    CUBECLU_KERNELS(HOMG_KERNEL_MEMBER)
} cubeclu_kernels;
CUBECLU_KERNELS(HOMG_KERNEL_CPU_PROTO)
extern const cubeclu_kernels homg_cpu_cubeclu_kernels;
#if HOMG_HAVE_CUDA
CUBECLU_KERNELS(HOMG_KERNEL_CUDA_PROTO)
extern const cubeclu_kernels homg_cuda_cubeclu_kernels;
#endif

#ifdef __cplusplus
}
#endif
#endif
