/* cube_exact.cu -- CUDA twin of kernels/grid/cube_exact.c: the exact solve of a small
 * cube level (cube_exact.h) in one thread block, the three S_a and two work arrays in
 * shared memory, a barrier between the six transforms (cube_exact_point.h). */
#include "core/cuda_check.h"
#include "core/pdl.cuh"
#include "cube_exact.h"
#include "cube_exact_point.h"

#define CUBEEXACT_NT 512

__global__ void __launch_bounds__(CUBEEXACT_NT, 1) cube_exact_kernel(cube_exact E, float *x, const float *b)
{
    __shared__ float s[3][CUBE_EXACT_N * CUBE_EXACT_N];
    __shared__ float w[2][CUBE_EXACT_CELLS];
    const unsigned t = threadIdx.x, nt = CUBEEXACT_NT;
    for (int a = 0; a < 3; a++)
        for (unsigned i = t; i < (unsigned)(E.n[a] * E.n[a]); i += nt)
            s[a][i] = E.s[a][i];
    homg_pdl_wait();
    __syncthreads();
    cube_exact_axis(&E, s[0], 0, 1, b, w[0], 0, t, nt);
    __syncthreads();
    cube_exact_axis(&E, s[1], 1, 1, w[0], w[1], 0, t, nt);
    __syncthreads();
    cube_exact_axis(&E, s[2], 2, 1, w[1], w[0], 1, t, nt);
    __syncthreads();
    cube_exact_axis(&E, s[2], 2, 0, w[0], w[1], 0, t, nt);
    __syncthreads();
    cube_exact_axis(&E, s[1], 1, 0, w[1], w[0], 0, t, nt);
    __syncthreads();
    cube_exact_axis(&E, s[0], 0, 0, w[0], x, 0, t, nt);
}

extern "C" homg_status homg_cuda_cubeexact_solve(kernel_exec *ex, const cube_exact *E, float *x, const float *b)
{
    const size_t cells = (size_t)E->n[0] * E->n[1] * E->n[2];
    if (cells < 1 || E->n[0] > CUBE_EXACT_N || E->n[1] > CUBE_EXACT_N || E->n[2] > CUBE_EXACT_N || !x || !b)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "exact solve: %d x %d x %d", E->n[0], E->n[1], E->n[2]);
    homg_pdl_launch(homg_cuda_stream(ex), dim3(1), dim3(CUBEEXACT_NT), homg_pdl_gen_on(), cube_exact_kernel, *E, x, b);
    HOMG_CUDA_LAUNCHED(ex, "cube_exact_kernel");
    return HOMG_OK;
}

extern "C" const cubeexact_kernels homg_cuda_cubeexact_kernels = { .name = "cuda",
                                                                    CUBEEXACT_KERNELS(HOMG_KERNEL_CUDA_INIT) };
