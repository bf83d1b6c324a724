/* cube_cluster.c -- the CPU twin of cube_cluster.cu: cube_sep's CPU solve, whose
 * transforms and division the cluster kernel repeats output for output (cube_cluster.h). */
#include "cube_cluster.h"

int cube_cluster_fits(const cube_sep *P, int cs)
{
    if ((cs != 8 && cs != 16) || !cube_sep_fits(P))
        return 0;
    for (int a = 0; a < 3; a++)
        if (P->n[a] > CUBE_CLUSTER_N || (a > 0 && P->n[a] % cs))
            return 0;
    return 1;
}

homg_status homg_cpu_cubeclu_solve(kernel_exec *ex, const cube_sep *P, int cs, float *x, const float *b)
{
    if (!cube_cluster_fits(P, cs))
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "cluster exact solve: %d x %d x %d on %d blocks",
                              P->n[0], P->n[1], P->n[2], cs);
    return homg_cpu_cubesep_solve(ex, P, x, b);
}

const cubeclu_kernels homg_cpu_cubeclu_kernels = { .name = "cpu", CUBECLU_KERNELS(HOMG_KERNEL_CPU_INIT) };
