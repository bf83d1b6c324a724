/* cube_exact.cu -- CUDA twin of kernels/grid/cube_exact.c: the exact solve of a small
 * cube level (cube_exact.h) in one thread block, a thread per line of each transform
 * (cube_exact_point.h), S_a, S_a^T, the eigenvalues and two work arrays in shared memory, a
 * barrier between the six transforms. */
#include "core/cuda_check.h"
#include "core/pdl.cuh"
#include "cube_exact.h"
#include "cube_exact_point.h"

#define CUBEEXACT_NT (CUBE_EXACT_N * CUBE_EXACT_N) /* the most lines of a transform */
#define MAT          (CUBE_EXACT_N * CUBE_EXACT_N)

/* Every line of a transform along axis a, then a barrier. */
__device__ __forceinline__ void exact_axis(const cube_exact *E, const float *mat, int a, const float *in, float *out,
                                           const float *ev)
{
    if (threadIdx.x < cube_exact_lines(E, a))
        cube_exact_line(E, mat, a, in, out, ev, threadIdx.x);
    __syncthreads();
}

__global__ void __launch_bounds__(CUBEEXACT_NT, 1) cube_exact_kernel(cube_exact E, float *x, const float *b)
{
    __shared__ __align__(16) float s[6][MAT]; /* S_a^T (the way in), S_a (the way out) */
    __shared__ float ev[3 * CUBE_EXACT_N];
    __shared__ float w[2][CUBE_EXACT_CELLS];
    const unsigned t = threadIdx.x;
    for (int a = 0; a < 3; a++) {
        cube_exact_transpose(&E, a, s[a], t, CUBEEXACT_NT);
        s[3 + a][t] = E.s[a][t];
    }
    if (t < 3 * CUBE_EXACT_N)
        ev[t] = E.ev[t / CUBE_EXACT_N][t % CUBE_EXACT_N];
    __syncthreads();
    homg_pdl_wait();
    exact_axis(&E, s[0], 0, b, w[0], NULL);
    exact_axis(&E, s[1], 1, w[0], w[1], NULL);
    exact_axis(&E, s[2], 2, w[1], w[0], ev);
    exact_axis(&E, s[5], 2, w[0], w[1], NULL);
    exact_axis(&E, s[4], 1, w[1], w[0], NULL);
    exact_axis(&E, s[3], 0, w[0], x, NULL);
}

extern "C" homg_status homg_cuda_cubeexact_solve(kernel_exec *ex, const cube_exact *E, float *x, const float *b)
{
    if (E->n[0] < 1 || E->n[1] < 1 || E->n[2] < 1 || E->n[0] > CUBE_EXACT_N || E->n[1] > CUBE_EXACT_N ||
        E->n[2] > CUBE_EXACT_N || !x || !b)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "exact solve: %d x %d x %d", E->n[0], E->n[1], E->n[2]);
    homg_pdl_launch(homg_cuda_stream(ex), dim3(1), dim3(CUBEEXACT_NT), homg_pdl_gen_on(), cube_exact_kernel, *E, x, b);
    HOMG_CUDA_LAUNCHED(ex, "cube_exact_kernel");
    return HOMG_OK;
}

extern "C" const cubeexact_kernels homg_cuda_cubeexact_kernels = { .name = "cuda",
                                                                   CUBEEXACT_KERNELS(HOMG_KERNEL_CUDA_INIT) };
