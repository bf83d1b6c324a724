/* cube.c -- CPU twin of kernels/grid/cube.cu: the uniform 3D levels' kernels
 * (cube_kernels.h), a column at a time with cube_point.h's formulas, in order
 * (the CUDA rows run side by side; cube_kernels.h says why the order is free). */
#include "cube_kernels.h"
#include "cube_point.h"

homg_status homg_cpu_cube_sweep(kernel_exec *ex, const cube_level *K, float *u, const float *f, int colour)
{
    (void)ex;
    for (int j = 0; j < K->ny; j++)
        for (int i0 = 0; i0 < K->nx; i0 += 4)
            cube_sweep_col(K, u, f, colour, i0, j, 0, K->nz);
    return HOMG_OK;
}

homg_status homg_cpu_cube_pre(kernel_exec *ex, const cube_level *K, float *u, const float *f)
{
    (void)ex;
    for (int j = 0; j < K->ny; j++)
        for (int i0 = 0; i0 < K->nx; i0 += 4)
            cube_pre_col(K, u, f, i0, j, 0, K->nz);
    return HOMG_OK;
}

homg_status homg_cpu_cube_prolong_smooth(kernel_exec *ex, const cube_level *K, const float *ec, float *u,
                                         const float *f, int colour)
{
    (void)ex;
    for (int j = 0; j < K->ny; j++)
        for (int i0 = 0; i0 < K->nx; i0 += 4)
            cube_prolong_col(K, ec, u, f, colour, i0, j, 0, K->nz);
    return HOMG_OK;
}

homg_status homg_cpu_cube_residual_restrict(kernel_exec *ex, const cube_level *K, const float *u, const float *f,
                                            float *fc)
{
    (void)ex;
    for (int kc = 0; kc < K->nz / 2; kc++)
        for (int jc = 0; jc < K->ny / 2; jc++)
            for (int i0 = 0; i0 < K->nx; i0 += 4)
                cube_restrict_pair(K, u, f, fc, i0, jc, kc, 1);
    return HOMG_OK;
}

homg_status homg_cpu_cube_apply(kernel_exec *ex, const cube_level *K, const float *x, float *q, double *xq)
{
    double s = 0;
    (void)ex;
    for (int j = 0; j < K->ny; j++)
        for (int i0 = 0; i0 < K->nx; i0 += 4)
            s += cube_apply_col(K, x, q, i0, j, 0, K->nz);
    if (xq)
        *xq += s;
    return HOMG_OK;
}

homg_status homg_cpu_cube_residual(kernel_exec *ex, const cube_level *K, const float *u, const float *f, float *r,
                                   double *rr)
{
    double s = 0;
    (void)ex;
    for (int j = 0; j < K->ny; j++)
        for (int i0 = 0; i0 < K->nx; i0 += 4)
            s += cube_residual_col(K, u, f, r, i0, j, 0, K->nz);
    if (rr)
        *rr += s;
    return HOMG_OK;
}

const cube_kernels homg_cpu_cube_kernels = { .name = "cpu", CUBE_KERNELS(HOMG_KERNEL_CPU_INIT) };
