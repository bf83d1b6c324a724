/* cube_coarse.c -- CPU twin of kernels/grid/cube_coarse.cu: the V-cycle's steps on
 * the coarse cube levels (cube_coarse.h) as the cube and gen CPU kernels, in order,
 * on the levels' own arrays. */
#include "cube_coarse.h"

static void half_sweeps(kernel_exec *ex, const cube_level *K, float *u, const float *f, int from, int to, int first)
{
    cube_level gs = *K;
    gs.omega = 1.0f;
    for (int h = from; h < to; h++) /* after prolong_smooth (from 1): the first Gauss-Seidel */
        homg_cpu_cube_sweep(ex, from == 1 && h == 1 ? &gs : K, u, f, (h + first) & 1);
}

homg_status homg_cpu_cubeblk_vcycle(kernel_exec *ex, const cube_block *B)
{
    const int c = B->n - 1;
    if (B->n < 2 || B->n > CUBE_BLOCK_MAX || !B->cm)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "cube block: %d levels", B->n);
    for (int q = 0; q < c; q++) {
        homg_cpu_cube_pre(ex, &B->K[q], B->x[q], B->b[q]);
        half_sweeps(ex, &B->K[q], B->x[q], B->b[q], 2, 2 * B->pre[q], 0);
        homg_cpu_cube_residual_restrict(ex, &B->K[q], B->x[q], B->b[q], B->b[q + 1]);
    }
    HOMG_TRY(homg_cpu_gen_coarse_apply(ex, HOMG_FLOAT32, &B->coarsest, B->cm, B->x[c], B->b[c]));
    for (int q = c - 1; q >= 0; q--) {
        homg_cpu_cube_prolong_smooth(ex, &B->K[q], B->x[q + 1], B->x[q], B->b[q], B->first);
        half_sweeps(ex, &B->K[q], B->x[q], B->b[q], 1, 2 * B->post[q], B->first);
    }
    return HOMG_OK;
}

const cubeblk_kernels homg_cpu_cubeblk_kernels = { .name = "cpu", CUBEBLK_KERNELS(HOMG_KERNEL_CPU_INIT) };
