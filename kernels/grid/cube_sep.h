/* cube_sep.h -- a uniform 3D box level of up to 64 cells a side solved exactly in three
 * launches (issue 9, s12-cube14): the same separable inverse as cube_exact.h,
 *
 *   x = (Sx Sy Sz) D^-1 (Sx Sy Sz)^T b,  D_ijk = evx_i + evy_j + evz_k + lam,
 *
 * too big for one block, so split by where the data lie (x fastest, then y, then z):
 * (1) per z-slice (nx x ny contiguous floats) Sx^T then Sy^T; (2) per xz-slice (fixed y: rows
 * of nx contiguous floats) Sz^T, a division by D, Sz; (3) per z-slice Sy then Sx.
 * Each transform is a small matrix product, every output a fmaf sum over q ascending from 0
 * (cube_sep_point.h), so the CPU twin (a slice at a time) and the CUDA passes (cube_sep.cu: a
 * block per tile of a slice, b -> w -> w -> x) give the same floats.  general_cycle.c runs it in
 * place of the V-cycle from the first level of at most HOMG_CUBE_EXACT_MAX cells a side
 * (plan_exact). */
#ifndef HOMG_CUBE_SEP_H
#define HOMG_CUBE_SEP_H

#include "cube_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUBE_SEP_N      64                                  /* most cells along an axis */
#define CUBE_SEP_MAT    (CUBE_SEP_N * CUBE_SEP_N)           /* one matrix's floats */
#define CUBE_SEP_FLOATS (6 * CUBE_SEP_MAT + 3 * CUBE_SEP_N) /* the tables: cube_sep_tables */

typedef struct cube_sep {
    int n[3];       /* cells along x, y, z: each a multiple of 4, at most CUBE_SEP_N */
    float lam;      /* the level's lambda */
    const float *t; /* CUBE_SEP_FLOATS in the backend's memory (cube_sep_tables) */
    float *w;       /* CUDA: nx ny nz floats of scratch in the backend's memory (the CPU needs none) */
    int tw;         /* CUDA: columns a block's tile has (16, 32, 64; 8 with tt > 1; 0: cube_sep.cu's default) */
    int tt;         /* CUDA: a thread's outputs, CUBE_SEP_TT_* (0: CUBE_SEP_TT_DEFAULT) */
} cube_sep;

/* CUDA: a block takes a tile of tw columns of a slice (cube_sep.cu): by default 16 (tt 1, H100
 * 2026-11-27, bench/results/h100_cube.md "Session 12 cube15"); with tt > 1 CUBE_SEP_TW_SMALL
 * where no side is longer (the whole side: 32^3 levels), else 16 ("Session 13 cube16"). */
#define CUBE_SEP_TW_DEFAULT 16
#define CUBE_SEP_TW_SMALL   32

/* CUDA: tt 1 = cube15's kernels (a thread per 4 x 4 outputs, the matrices read through the
 * read-only cache); tt 11, 21, 22, 44 = RA x RB outputs a thread (RA contiguous along the
 * transformed side, RB columns apart), the pass's two matrices staged in shared memory before
 * the launch waits on the previous kernel.  Default 22: 128^3 0.232 -> 0.195 ms (H100
 * 2026-11-27, bench/results/h100_cube.md "Session 13 cube16"). */
#define CUBE_SEP_TT_CACHED  1
#define CUBE_SEP_TT_DEFAULT 22

/* The tables of level K into t (host, CUBE_SEP_FLOATS): at (2a + w) * CUBE_SEP_MAT the
 * matrix of axis a's way in (w 0: S_a^T) or out (w 1: S_a), stored column-major with n[a]
 * rows (entry (p, q) at q * n[a] + p: a thread's 4 outputs are 4 contiguous floats), then
 * the eigenvalues, ev_a[m] at 6 * CUBE_SEP_MAT + a * CUBE_SEP_N + m.  0 where a side is not
 * a multiple of 4 in 4..CUBE_SEP_N or A is (nearly) singular. */
int cube_sep_tables(const cube_level *K, float *t);

/* P's sides are multiples of 4 in 4..CUBE_SEP_N and it has its tables. */
int cube_sep_fits(const cube_sep *P);

#define CUBESEP_KERNELS(X)                                                                    \
    /* x = A^-1 b on P's level (x and b: nx ny nz floats, distinct; P->t in this backend). */ \
    X(homg_status, cubesep, solve, (kernel_exec * ex, const cube_sep *P, float *x, const float *b))

typedef struct cubesep_kernels {
    const char *name;
    CUBESEP_KERNELS(HOMG_KERNEL_MEMBER)
} cubesep_kernels;
CUBESEP_KERNELS(HOMG_KERNEL_CPU_PROTO)
extern const cubesep_kernels homg_cpu_cubesep_kernels;
#if HOMG_HAVE_CUDA
CUBESEP_KERNELS(HOMG_KERNEL_CUDA_PROTO)
extern const cubesep_kernels homg_cuda_cubesep_kernels;
#endif

#ifdef __cplusplus
}
#endif
#endif
