/* cube.cu -- CUDA twin of kernels/grid/cube.c: the uniform 3D levels' kernels
 * (cube_kernels.h).  A thread per row of four cells along x (one float4), rows
 * of a plane side by side, each thread marching through a chunk of planes with
 * the rows below and above in registers (cube_point.h); residual_restrict a
 * thread per pair of coarse cells. */
#include "core/cuda_check.h"
#include "core/pdl.cuh"
#include "cube_point.h"

#include <stdlib.h>
#include <string.h>

#define CUBE_NT 256
/* Threads to aim for (a wave of 2048 per SM on 132 SMs): fewer planes per chunk below. */
#define CUBE_THREADS   270000u
#define CUBE_MAX_CHUNK 16

template <typename... K, typename... A>
static homg_status cube_launch(kernel_exec *ex, size_t threads, const char *what, void (*kernel)(K...), A... args)
{
    homg_pdl_launch(homg_cuda_stream(ex), dim3((unsigned)((threads + CUBE_NT - 1) / CUBE_NT)), dim3(CUBE_NT),
                    homg_pdl_gen_on(), kernel, args...); /* as gen.cu (HOMG_GEN_PDL=0: plain) */
    HOMG_CUDA_LAUNCHED(ex, what);
    return HOMG_OK;
}

/* Planes per thread: enough threads to fill the device, at most CUBE_MAX_CHUNK. */
static int cube_chunk(const cube_level *K)
{
    const size_t rows = (size_t)(K->nx / 4) * K->ny, all = rows * K->nz;
    size_t kc = all / CUBE_THREADS;
    return kc < 1 ? 1 : kc > CUBE_MAX_CHUNK ? CUBE_MAX_CHUNK : (int)kc;
}

static size_t cube_threads(const cube_level *K, int kc)
{
    return (size_t)(K->nx / 4) * K->ny * (size_t)((K->nz + kc - 1) / kc);
}

/* This thread's column (i0, j) and planes k0 .. k1-1; 0 past the end. */
__device__ __forceinline__ int cube_column(const cube_level &K, int kc, int *i0, int *j, int *k0, int *k1)
{
    const unsigned t = blockIdx.x * CUBE_NT + threadIdx.x, qx = (unsigned)K.nx / 4, rows = qx * (unsigned)K.ny;
    const unsigned chunk = t / rows, r = t - chunk * rows, jj = r / qx;
    if ((int)(chunk * (unsigned)kc) >= K.nz)
        return 0;
    *j = (int)jj;
    *i0 = 4 * (int)(r - jj * qx);
    *k0 = (int)chunk * kc;
    *k1 = *k0 + kc < K.nz ? *k0 + kc : K.nz;
    return 1;
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
    const unsigned t = blockIdx.x * CUBE_NT + threadIdx.x, qx = (unsigned)K.nx / 4, cy = (unsigned)K.ny / 2;
    const unsigned row = t / qx, a = t - row * qx, J = row % cy, Kc = row / cy;
    homg_pdl_wait();
    if (Kc < (unsigned)K.nz / 2)
        cube_restrict_pair(&K, u, f, fc, 4 * (int)a, (int)J, (int)Kc, 1);
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
