/* cube_cluster.h -- the exact solve of a uniform 3D box level of up to 32 cells a side,
 *
 *   x = (Sx Sy Sz) D^-1 (Sx Sy Sz)^T b,  D_ijk = evx_i + evy_j + evz_k + lam   (cube_sep.h),
 *
 * in ONE launch on a thread-block cluster (issue 9, s13-cube17): cube_sep.h's three passes
 * (in-plane Sx^T, Sy^T per z-slice; along z Sz^T, D^-1, Sz; in-plane Sy, Sx) with the level in
 * the cluster's distributed shared memory, the passes separated by cluster barriers instead of
 * launches.  Block r of cs owns z-slices r nz/cs .. (r + 1) nz/cs - 1 and, for the z pass, rows
 * y r ny/cs .. (r + 1) ny/cs - 1, gathered from every block's slices and written back there.
 *
 * Half transforms: where an axis's 1D matrix is persymmetric (the same wall at both ends, any
 * lambda) and n is a multiple of 8, each eigenvector is symmetric or antisymmetric about the
 * middle, so with the eigenvectors ordered symmetric first (the eigenvalues permuted alike)
 *   (S^T u)_m = sum_{i < n/2} S(i, m) (u_i +- u_{n-1-i})   (+ for the symmetric half),
 *   (S y)_i, (S y)_{n-1-i} = E_i + O_i, E_i - O_i,  E_i / O_i = sum over the symmetric /
 *   antisymmetric half of S(i, m) y_m,
 * half the multiply-adds of the full products.  Every sum is fmaf over q ascending from 0 in
 * both backends (cube_cluster.c, cube_cluster.cu), so they give the same floats. */
#ifndef HOMG_CUBE_CLUSTER_H
#define HOMG_CUBE_CLUSTER_H

#include "cube_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUBE_CLUSTER_N      32                                     /* most cells along an axis */
#define CUBE_CLUSTER_MAT    (CUBE_CLUSTER_N * CUBE_CLUSTER_N)      /* a matrix slot's floats */
#define CUBE_CLUSTER_EV     (6 * CUBE_CLUSTER_MAT)                 /* ev_a[m] at EV + a N + m */
#define CUBE_CLUSTER_FLOATS (CUBE_CLUSTER_EV + 3 * CUBE_CLUSTER_N) /* the tables (a multiple of 4) */

typedef struct cube_clu {
    int n[3];       /* cells along x, y, z (cube_cluster_fits) */
    float lam;      /* the level's lambda */
    int half[3];    /* axis a's transforms are half transforms (above) */
    const float *t; /* CUBE_CLUSTER_FLOATS in the backend's memory (cube_cluster_tables) */
} cube_clu;

/* The tables of level K into t (host, CUBE_CLUSTER_FLOATS) and C's fields but C->t (halves 0:
 * full transforms on every axis): at
 * (2a + w) CUBE_CLUSTER_MAT axis a's way in (w 0: S_a^T) and out (w 1: S_a), column-major --
 * full: n x n, entry (p, q) at q n + p, as cube_sep_tables; half: the way in n x n/2 (entry
 * (m, i) = S(i, m) at i n + m), the way out n/2 x n (entry (i, m) = S(i, m) at m n/2 + i), m
 * in the symmetric-first order -- then the eigenvalues in the same order.  0 where
 * cube_sep_tables refuses K or a side is over CUBE_CLUSTER_N. */
int cube_cluster_tables(const cube_level *K, int halves, float *t, cube_clu *C);

/* C's level takes a cluster of cs blocks (8 or 16): nx a multiple of 4, ny and nz multiples of
 * cs and of 4, all at most CUBE_CLUSTER_N, half axes multiples of 8, tables there. */
int cube_cluster_fits(const cube_clu *C, int cs);

#define CUBECLU_KERNELS(X)                                                                              \
    /* x = A^-1 b on C's level on a cluster of cs blocks (x and b: nx ny nz floats, distinct; C->t in \
     * this backend). */ \
    X(homg_status, cubeclu, solve, (kernel_exec * ex, const cube_clu *C, int cs, float *x, const float *b))

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
