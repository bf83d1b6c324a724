/* cube_split.h -- the plain cycle's finest cube level with u and f stored split by
 * colour (issue 9, bench/results/h100_cube.md "Session 10 cube7").  A half-sweep of
 * colour c reads the other colour's u, its own f (and its own u for SOR) and writes its
 * own u: in the natural layout every row of four cells holds both colours, so each
 * half-sweep moves 12 bytes a cell; split it moves 6 (Gauss-Seidel) or 8 (SOR).
 *
 * Layout of a split array s of level K (nx a multiple of 8, ny and nz even): colour c's
 * cells at s + c * (n / 2), cell (m, j, k) at m + (nx / 2) (j + ny k), which is the
 * natural cell i = 2 m + ((j + k + c) & 1).  So a cell's neighbours along y and z are
 * the other colour's cells at the same m, along x the other colour's m and m -+ 1, and
 * the parent of cell m (on the level below, natural layout) is coarse cell m: the
 * restriction and the prolongation need no index arithmetic beyond j / 2, k / 2.
 *
 * The kernels are the cube kernels' steps (cube_kernels.h) in this layout, with the same
 * formulas in the same order (cube_point.h's cube_relax1, cube_zero1, the residual's sum
 * and the restriction's pair order): split in, split out, the same values as the cube
 * kernels on the natural arrays (the CPU twins bit for bit, tests/test_cube.c). */
#ifndef HOMG_CUBE_SPLIT_H
#define HOMG_CUBE_SPLIT_H

#include "cube_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUBESPLIT_KERNELS(X)                                                                                      \
    /* s = a split by colour (a: natural). */                                                                     \
    X(homg_status, cubesplit, split, (kernel_exec * ex, const cube_level *K, const float *a, float *s))           \
    /* a = s in the natural layout. */                                                                            \
    X(homg_status, cubesplit, unsplit, (kernel_exec * ex, const cube_level *K, const float *s, float *a))         \
    /* cube pre: u = 0, the colour-0 half-sweep, the colour-1 half-sweep (u, f split); fn not NULL: f natural   \
     * there, written split into f on the way. */ \
    X(homg_status, cubesplit, pre, (kernel_exec * ex, const cube_level *K, float *u, float *f, const float *fn))  \
    /* cube sweep: one half-sweep of `colour` (u, f split); nat not NULL: also u in the natural layout there. */  \
    X(homg_status, cubesplit, sweep,                                                                              \
      (kernel_exec * ex, const cube_level *K, float *u, const float *f, int colour, float *nat))                  \
    /* cube prolong_smooth (u, f split; ec natural, or split when cs): the other colour's u is not written.    \
     * (CUDA: a kernel per value of cs.) */  \
    X(homg_status, cubesplit, prolong_smooth,                                                                     \
      (kernel_exec * ex, const cube_level *K, const float *ec, float *u, const float *f, int colour, int cs))     \
    /* cube residual_restrict (u, f split; fc natural, or split when cs; 16-byte aligned). */                     \
    X(homg_status, cubesplit, residual_restrict,                                                                  \
      (kernel_exec * ex, const cube_level *K, const float *u, const float *f, float *fc, int cs))

typedef struct cubesplit_kernels {
    const char *name;
    CUBESPLIT_KERNELS(HOMG_KERNEL_MEMBER)
} cubesplit_kernels;
CUBESPLIT_KERNELS(HOMG_KERNEL_CPU_PROTO)
extern const cubesplit_kernels homg_cpu_cubesplit_kernels;
#if HOMG_HAVE_CUDA
CUBESPLIT_KERNELS(HOMG_KERNEL_CUDA_PROTO)
extern const cubesplit_kernels homg_cuda_cubesplit_kernels;
#endif

/* Whether level K can be split (a colour's row a whole number of float4s).  cs (prolong_smooth,
 * residual_restrict): the level below split too, which needs cube_split_fits of it. */
static inline int cube_split_fits(const cube_level *K) { return K->nx % 8 == 0 && K->ny % 2 == 0 && K->nz % 2 == 0; }

/* residual_restrict runs a thread per four coarse cells: n > 0 each u row of the
 * thread's 2 x 2 child rows loaded once (csp_restrict_block, 24 float4 loads instead of 48; on the GPU with
 * __launch_bounds__(256, n), n 1 .. 4), or 0 each child row's neighbours loaded anew (csp_restrict_quad,
 * session 10 cube7's).  3 (80 registers) by default: 401 against 413 us at 512^3, 58.8 against 62.0 at 256^3,
 * solves -1% (H100 2026-11-27, bench/results/h100_cube.md "Session 11 cube11").  HOMG_CSP_RBLK=n from the
 * environment (0: the quads; the benchmark times against it; the library documents no such variable).  Host
 * code, cube_split.c. */
int homg_cubesplit_restrict_block(const cube_level *K);

/* Whether the level below K can be split too (cs). */
static inline int cube_split_coarse_fits(const cube_level *K)
{
    return K->nx % 16 == 0 && K->ny % 4 == 0 && K->nz % 4 == 0;
}

#ifdef __cplusplus
}
#endif
#endif
