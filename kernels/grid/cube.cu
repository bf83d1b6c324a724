/* cube.cu -- CUDA twin of kernels/grid/cube.c: the uniform 3D levels' kernels
 * (cube_kernels.h).  A thread per row of four cells along x (one float4), rows
 * of a plane side by side, each thread marching through a chunk of planes with
 * the rows below and above in registers (cube_point.h); residual_restrict a
 * thread per pair of coarse cells. */
#include "cube_launch.cuh"
#include "cube_point.h"

#include <stdlib.h>
#include <string.h>

/* Rows of four cells a plane. */
static size_t cube_rows(const cube_level *K) { return (size_t)(K->nx / 4) * K->ny; }

static int cube_chunk(const cube_level *K) { return cube_chunk_of(cube_rows(K), K->nz); }

static size_t cube_threads(const cube_level *K, int kc) { return cube_threads_of(cube_rows(K), K->nz, kc); }

/* This thread's column (i0, j) and planes k0 .. k1-1; 0 past the end. */
__device__ __forceinline__ int cube_column(const cube_level &K, int kc, int *i0, int *j, int *k0, int *k1)
{
    return cube_column_of((unsigned)K.nx / 4, (unsigned)K.ny, K.nz, kc, i0, j, k0, k1);
}

__global__ void cube_sweep_kernel(cube_level K, float *u, const float *f, int colour, int kc)
{
    int i0, j, k0, k1;
    homg_pdl_wait();
    if (cube_column(K, kc, &i0, &j, &k0, &k1))
        cube_sweep_col(&K, u, f, colour, i0, j, k0, k1);
}

__global__ void cube_pre_kernel(cube_level K, float *u, const float *f, int kc)
{
    int i0, j, k0, k1;
    homg_pdl_wait();
    if (cube_column(K, kc, &i0, &j, &k0, &k1))
        cube_pre_col(&K, u, f, i0, j, k0, k1);
}

__global__ void cube_prolong_kernel(cube_level K, const float *ec, float *u, const float *f, int colour, int kc)
{
    int i0, j, k0, k1;
    homg_pdl_wait();
    if (cube_column(K, kc, &i0, &j, &k0, &k1))
        cube_prolong_col(&K, ec, u, f, colour, i0, j, k0, k1);
}

/* Sum over the block (CUBE_NT threads), added to *out by one atomic. */
__device__ static void cube_block_add(double v, double *out)
{
    __shared__ double ws[CUBE_NT / 32];
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xFFFFFFFFu, v, o);
    if (lane == 0)
        ws[w] = v;
    __syncthreads();
    if (w == 0) {
        v = lane < CUBE_NT / 32 ? ws[lane] : 0.0;
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xFFFFFFFFu, v, o);
        if (lane == 0 && v != 0)
            atomicAdd(out, v);
    }
}

__global__ void cube_apply_kernel(cube_level K, const float *x, float *q, double *xq, int kc)
{
    int i0, j, k0, k1;
    double s = 0;
    homg_pdl_wait();
    if (cube_column(K, kc, &i0, &j, &k0, &k1))
        s = cube_apply_col(&K, x, q, i0, j, k0, k1);
    if (xq)
        cube_block_add(s, xq);
}

__global__ void cube_residual_kernel(cube_level K, const float *u, const float *f, float *r, double *rr, int kc)
{
    int i0, j, k0, k1;
    double s = 0;
    homg_pdl_wait();
    if (cube_column(K, kc, &i0, &j, &k0, &k1))
        s = cube_residual_col(&K, u, f, r, i0, j, k0, k1);
    if (rr)
        cube_block_add(s, rr);
}

__global__ void cube_restrict_kernel(cube_level K, const float *u, const float *f, float *fc)
{
    int i0, J, Kc;
    homg_pdl_wait();
    if (cube_quad_of((unsigned)K.nx / 4, (unsigned)K.ny / 2, (unsigned)K.nz / 2, &i0, &J, &Kc))
        cube_restrict_pair(&K, u, f, fc, i0, J, Kc, 1);
}

extern "C" homg_status homg_cuda_cube_sweep(kernel_exec *ex, const cube_level *K, float *u, const float *f, int colour)
{
    const int kc = cube_chunk(K);
    return cube_launch(ex, cube_threads(K, kc), "cube_sweep_kernel", cube_sweep_kernel, *K, u, f, colour, kc);
}

extern "C" homg_status homg_cuda_cube_pre(kernel_exec *ex, const cube_level *K, float *u, const float *f)
{
    const int kc = cube_chunk(K);
    return cube_launch(ex, cube_threads(K, kc), "cube_pre_kernel", cube_pre_kernel, *K, u, f, kc);
}

extern "C" homg_status homg_cuda_cube_prolong_smooth(kernel_exec *ex, const cube_level *K, const float *ec, float *u,
                                                     const float *f, int colour)
{
    const int kc = cube_chunk(K);
    return cube_launch(ex, cube_threads(K, kc), "cube_prolong_kernel", cube_prolong_kernel, *K, ec, u, f, colour, kc);
}

extern "C" homg_status homg_cuda_cube_residual_restrict(kernel_exec *ex, const cube_level *K, const float *u,
                                                        const float *f, float *fc)
{
    const size_t n = (size_t)(K->nx / 4) * (K->ny / 2) * (K->nz / 2);
    return cube_launch(ex, n, "cube_restrict_kernel", cube_restrict_kernel, *K, u, f, fc);
}

extern "C" homg_status homg_cuda_cube_apply(kernel_exec *ex, const cube_level *K, const float *x, float *q, double *xq)
{
    const int kc = cube_chunk(K);
    return cube_launch(ex, cube_threads(K, kc), "cube_apply_kernel", cube_apply_kernel, *K, x, q, xq, kc);
}

extern "C" homg_status homg_cuda_cube_residual(kernel_exec *ex, const cube_level *K, const float *u, const float *f,
                                               float *r, double *rr)
{
    const int kc = cube_chunk(K);
    return cube_launch(ex, cube_threads(K, kc), "cube_residual_kernel", cube_residual_kernel, *K, u, f, r, rr, kc);
}

extern "C" const cube_kernels homg_cuda_cube_kernels = { .name = "cuda", CUBE_KERNELS(HOMG_KERNEL_CUDA_INIT) };
