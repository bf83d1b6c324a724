/* cube_split.cu -- CUDA twin of kernels/grid/cube_split.c: the split finest level's
 * kernels (cube_split.h).  As cube.cu: a thread per colour row of four cells (one
 * float4 of a colour's half), rows of a plane side by side, each thread marching
 * through a chunk of planes with the other colour's rows below and above in
 * registers; split / unsplit a thread per row, residual_restrict a thread per four
 * coarse cells (or per column of them marching in z: HOMG_CSP_RKC=n, slower). */
#include "core/cuda_check.h"
#include "core/pdl.cuh"
#include "cube_split_point.h"

#include <stdlib.h>

#define CSP_NT 256
/* Threads to aim for (a wave of 2048 per SM on 132 SMs): fewer planes per chunk below. */
#define CSP_THREADS   270000u
#define CSP_MAX_CHUNK 16

template <typename... K, typename... A>
static homg_status csp_launch(kernel_exec *ex, size_t threads, const char *what, void (*kernel)(K...), A... args)
{
    homg_pdl_launch(homg_cuda_stream(ex), dim3((unsigned)((threads + CSP_NT - 1) / CSP_NT)), dim3(CSP_NT),
                    homg_pdl_gen_on(), kernel, args...);
    HOMG_CUDA_LAUNCHED(ex, what);
    return HOMG_OK;
}

/* Colour rows of four per plane. */
static size_t csp_rows(const cube_level *K) { return (size_t)(K->nx / 8) * K->ny; }

/* Planes per thread: enough threads to fill the device, at most CSP_MAX_CHUNK. */
static int csp_chunk(const cube_level *K)
{
    const size_t kc = csp_rows(K) * K->nz / CSP_THREADS;
    return kc < 1 ? 1 : kc > CSP_MAX_CHUNK ? CSP_MAX_CHUNK : (int)kc;
}

static size_t csp_threads(const cube_level *K, int kc) { return csp_rows(K) * (size_t)((K->nz + kc - 1) / kc); }

/* This thread's column (m0, j) and planes k0 .. k1-1 (kc planes a chunk; one plane each: kc 1); 0 past the end. */
__device__ __forceinline__ int csp_column(const cube_level &K, int kc, int *m0, int *j, int *k0, int *k1)
{
    const unsigned t = blockIdx.x * CSP_NT + threadIdx.x, qx = (unsigned)K.nx / 8, rows = qx * (unsigned)K.ny;
    const unsigned chunk = t / rows, r = t - chunk * rows, jj = r / qx;
    if ((int)(chunk * (unsigned)kc) >= K.nz)
        return 0;
    *j = (int)jj;
    *m0 = 4 * (int)(r - jj * qx);
    *k0 = (int)chunk * kc;
    *k1 = *k0 + kc < K.nz ? *k0 + kc : K.nz;
    return 1;
}

__global__ void csp_split_kernel(cube_level K, const float *a, float *s)
{
    int m0, j, k0, k1;
    homg_pdl_wait();
    if (csp_column(K, 1, &m0, &j, &k0, &k1))
        csp_split_row(&K, a, s, m0, j, k0);
}

__global__ void csp_unsplit_kernel(cube_level K, const float *s, float *a)
{
    int m0, j, k0, k1;
    homg_pdl_wait();
    if (csp_column(K, 1, &m0, &j, &k0, &k1))
        csp_unsplit_row(&K, s, a, m0, j, k0);
}

__global__ void csp_pre_kernel(cube_level K, float *u, float *f, const float *fn, int kc)
{
    int m0, j, k0, k1;
    homg_pdl_wait();
    if (csp_column(K, kc, &m0, &j, &k0, &k1))
        csp_pre_col(&K, u, f, fn, m0, j, k0, k1);
}

__global__ void csp_sweep_kernel(cube_level K, float *u, const float *f, int colour, float *nat, int kc)
{
    int m0, j, k0, k1;
    homg_pdl_wait();
    if (csp_column(K, kc, &m0, &j, &k0, &k1))
        csp_sweep_col(&K, u, f, colour, nat, m0, j, k0, k1);
}

__global__ void csp_prolong_kernel(cube_level K, const float *ec, float *u, const float *f, int colour, int kc, int cs)
{
    int m0, j, k0, k1;
    homg_pdl_wait();
    if (csp_column(K, kc, &m0, &j, &k0, &k1))
        csp_prolong_col(&K, ec, cs, u, f, colour, m0, j, k0, k1);
}

__global__ void csp_restrict_kernel(cube_level K, const float *u, const float *f, float *fc, int cs)
{
    const unsigned t = blockIdx.x * CSP_NT + threadIdx.x, qx = (unsigned)K.nx / 8, cy = (unsigned)K.ny / 2;
    const unsigned row = t / qx, a = t - row * qx, J = row % cy, Kc = row / cy;
    homg_pdl_wait();
    if (Kc < (unsigned)K.nz / 2)
        csp_restrict_quad(&K, u, f, fc, cs, 4 * (int)a, (int)J, (int)Kc);
}

/* A thread per coarse column (m0.., J), marching through kc coarse planes (csp_restrict_col); MINB blocks an
 * SM at least (1: 126 registers, 2 blocks; 3: 80 registers and spills, HOMG_CSP_RLB=3).  Off by default:
 * slower on the H100 than a thread per four coarse cells (bench/results/h100_cube.md "Session 10 cube9"). */
template <int MINB>
__global__ void __launch_bounds__(CSP_NT, MINB)
    csp_restrict_col_kernel(cube_level K, const float *u, const float *f, float *fc, int cs, int kc)
{
    const unsigned t = blockIdx.x * CSP_NT + threadIdx.x, qx = (unsigned)K.nx / 8, cols = qx * ((unsigned)K.ny / 2);
    const unsigned chunk = t / cols, r = t - chunk * cols, J = r / qx;
    const int nzc = K.nz / 2, k0 = (int)chunk * kc;
    homg_pdl_wait();
    if (k0 < nzc)
        csp_restrict_col(&K, u, f, fc, cs, 4 * (int)(r - J * qx), (int)J, k0, k0 + kc < nzc ? k0 + kc : nzc);
}

extern "C" homg_status homg_cuda_cubesplit_split(kernel_exec *ex, const cube_level *K, const float *a, float *s)
{
    return csp_launch(ex, csp_rows(K) * K->nz, "csp_split_kernel", csp_split_kernel, *K, a, s);
}

extern "C" homg_status homg_cuda_cubesplit_unsplit(kernel_exec *ex, const cube_level *K, const float *s, float *a)
{
    return csp_launch(ex, csp_rows(K) * K->nz, "csp_unsplit_kernel", csp_unsplit_kernel, *K, s, a);
}

extern "C" homg_status homg_cuda_cubesplit_pre(kernel_exec *ex, const cube_level *K, float *u, float *f,
                                               const float *fn)
{
    const int kc = csp_chunk(K);
    return csp_launch(ex, csp_threads(K, kc), "csp_pre_kernel", csp_pre_kernel, *K, u, f, fn, kc);
}

extern "C" homg_status homg_cuda_cubesplit_sweep(kernel_exec *ex, const cube_level *K, float *u, const float *f,
                                                 int colour, float *nat)
{
    const int kc = csp_chunk(K);
    return csp_launch(ex, csp_threads(K, kc), "csp_sweep_kernel", csp_sweep_kernel, *K, u, f, colour, nat, kc);
}

extern "C" homg_status homg_cuda_cubesplit_prolong_smooth(kernel_exec *ex, const cube_level *K, const float *ec,
                                                          float *u, const float *f, int colour, int cs)
{
    const int kc = csp_chunk(K);
    return csp_launch(ex, csp_threads(K, kc), "csp_prolong_kernel", csp_prolong_kernel, *K, ec, u, f, colour, kc, cs);
}

extern "C" homg_status homg_cuda_cubesplit_residual_restrict(kernel_exec *ex, const cube_level *K, const float *u,
                                                             const float *f, float *fc, int cs)
{
    const size_t n = (size_t)(K->nx / 8) * (K->ny / 2) * (K->nz / 2);
    const int kc = homg_cubesplit_restrict_planes(K);
    const char *lb = getenv("HOMG_CSP_RLB");
    const size_t cols = kc > 0 ? (size_t)(K->nx / 8) * (K->ny / 2) * ((K->nz / 2 + kc - 1) / kc) : 0;
    if (kc > 0 && lb && atoi(lb) == 3)
        return csp_launch(ex, cols, "csp_restrict_col_kernel", csp_restrict_col_kernel<3>, *K, u, f, fc, cs, kc);
    if (kc > 0)
        return csp_launch(ex, cols, "csp_restrict_col_kernel", csp_restrict_col_kernel<1>, *K, u, f, fc, cs, kc);
    return csp_launch(ex, n, "csp_restrict_kernel", csp_restrict_kernel, *K, u, f, fc, cs);
}

extern "C" const cubesplit_kernels homg_cuda_cubesplit_kernels = { .name = "cuda",
                                                                   CUBESPLIT_KERNELS(HOMG_KERNEL_CUDA_INIT) };
