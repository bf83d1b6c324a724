/* cube_sep.cu -- CUDA twin of kernels/grid/cube_sep.c: cube_sep.h's three passes, a launch
 * each, a block per slice (cube_sep_point.h), the slice and its transform in shared memory,
 * the tables read through the cache; barriers between the steps. */
#include "core/cuda_check.h"
#include "core/pdl.cuh"
#include "cube_sep.h"
#include "cube_sep_point.h"

#define CUBESEP_NT 256 /* threads a block: one per 4 x 4 tile of a 64 x 64 slice */

template <int PASS> __global__ void __launch_bounds__(CUBESEP_NT) cube_sep_kernel(cube_sep P, float *x, const float *b)
{
    __shared__ __align__(16) float a[2][CUBE_SEP_MAT];
    const unsigned t = threadIdx.x, s = blockIdx.x;
    homg_pdl_wait();
    cube_sep_load(&P, PASS, s, PASS == 1 ? b : x, a[0], t, CUBESEP_NT);
    __syncthreads();
    cube_sep_step(&P, PASS, 0, a[0], a[1], t, CUBESEP_NT);
    __syncthreads();
    if (PASS == 2) {
        cube_sep_divide(&P, s, a[1], t, CUBESEP_NT);
        __syncthreads();
    }
    cube_sep_step(&P, PASS, 1, a[1], a[0], t, CUBESEP_NT);
    __syncthreads();
    cube_sep_store(&P, PASS, s, a[0], x, t, CUBESEP_NT);
}

extern "C" homg_status homg_cuda_cubesep_solve(kernel_exec *ex, const cube_sep *P, float *x, const float *b)
{
    if (!cube_sep_fits(P) || !x || !b)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "exact solve: %d x %d x %d", P->n[0], P->n[1], P->n[2]);
    cudaStream_t st = homg_cuda_stream(ex);
    homg_pdl_launch(st, dim3(P->n[2]), dim3(CUBESEP_NT), homg_pdl_gen_on(), cube_sep_kernel<1>, *P, x, b);
    HOMG_CUDA_LAUNCHED(ex, "cube_sep_kernel<1>");
    homg_pdl_launch(st, dim3(P->n[1]), dim3(CUBESEP_NT), homg_pdl_gen_on(), cube_sep_kernel<2>, *P, x, b);
    HOMG_CUDA_LAUNCHED(ex, "cube_sep_kernel<2>");
    homg_pdl_launch(st, dim3(P->n[2]), dim3(CUBESEP_NT), homg_pdl_gen_on(), cube_sep_kernel<3>, *P, x, b);
    HOMG_CUDA_LAUNCHED(ex, "cube_sep_kernel<3>");
    return HOMG_OK;
}

extern "C" const cubesep_kernels homg_cuda_cubesep_kernels = { .name = "cuda", CUBESEP_KERNELS(HOMG_KERNEL_CUDA_INIT) };
