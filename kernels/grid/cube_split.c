/* cube_split.c -- CPU twin of kernels/grid/cube_split.cu: the split finest level's
 * kernels (cube_split.h), a column at a time with cube_split_point.h's formulas, in
 * order (the CUDA columns run side by side: a pass writes one colour and reads the
 * other, so the order is free, as cube_kernels.h says of the natural rows). */
#include "cube_split.h"
#include "cube_split_point.h"

#include <stdlib.h>

homg_status homg_cpu_cubesplit_split(kernel_exec *ex, const cube_level *K, const float *a, float *s)
{
    (void)ex;
    for (int k = 0; k < K->nz; k++)
        for (int j = 0; j < K->ny; j++)
            for (int m0 = 0; m0 < K->nx / 2; m0 += 4)
                csp_split_row(K, a, s, m0, j, k);
    return HOMG_OK;
}

homg_status homg_cpu_cubesplit_unsplit(kernel_exec *ex, const cube_level *K, const float *s, float *a)
{
    (void)ex;
    for (int k = 0; k < K->nz; k++)
        for (int j = 0; j < K->ny; j++)
            for (int m0 = 0; m0 < K->nx / 2; m0 += 4)
                csp_unsplit_row(K, s, a, m0, j, k);
    return HOMG_OK;
}

homg_status homg_cpu_cubesplit_pre(kernel_exec *ex, const cube_level *K, float *u, float *f, const float *fn)
{
    (void)ex;
    for (int j = 0; j < K->ny; j++)
        for (int m0 = 0; m0 < K->nx / 2; m0 += 4)
            csp_pre_col(K, u, f, fn, m0, j, 0, K->nz);
    return HOMG_OK;
}

homg_status homg_cpu_cubesplit_sweep(kernel_exec *ex, const cube_level *K, float *u, const float *f, int colour,
                                     float *nat)
{
    (void)ex;
    for (int j = 0; j < K->ny; j++)
        for (int m0 = 0; m0 < K->nx / 2; m0 += 4)
            csp_sweep_col(K, u, f, colour, nat, m0, j, 0, K->nz);
    return HOMG_OK;
}

homg_status homg_cpu_cubesplit_prolong_smooth(kernel_exec *ex, const cube_level *K, const float *ec, float *u,
                                              const float *f, int colour, int cs)
{
    (void)ex;
    for (int j = 0; j < K->ny; j++)
        for (int m0 = 0; m0 < K->nx / 2; m0 += 4)
            csp_prolong_col(K, ec, cs, u, f, colour, m0, j, 0, K->nz);
    return HOMG_OK;
}

int homg_cubesplit_restrict_block(const cube_level *K)
{
    const char *e = getenv("HOMG_CSP_RBLK");
    (void)K;
    if (!e)
        return 3; /* H100 2026-11-27: 401 against the quad's 413 us at 512^3 (bench/results/h100_cube.md cube11) */
    return atoi(e) > 0 ? atoi(e) : 0;
}

/* The CUDA kernel's threads in order: quads, loading each child row once or not (restrict_block). */
homg_status homg_cpu_cubesplit_residual_restrict(kernel_exec *ex, const cube_level *K, const float *u, const float *f,
                                                 float *fc, int cs)
{
    (void)ex;
    const int block = homg_cubesplit_restrict_block(K) > 0;
    for (int kc = 0; kc < K->nz / 2; kc++)
        for (int jc = 0; jc < K->ny / 2; jc++)
            for (int m0 = 0; m0 < K->nx / 2; m0 += 4)
                if (block)
                    csp_restrict_block(K, u, f, fc, cs, m0, jc, kc);
                else
                    csp_restrict_quad(K, u, f, fc, cs, m0, jc, kc);
    return HOMG_OK;
}

const cubesplit_kernels homg_cpu_cubesplit_kernels = { .name = "cpu", CUBESPLIT_KERNELS(HOMG_KERNEL_CPU_INIT) };
