/* cube_split.cu -- CUDA twin of kernels/grid/cube_split.c: the split finest level's
 * kernels (cube_split.h).  As cube.cu: a thread per colour row of four cells (one
 * float4 of a colour's half), rows of a plane side by side, each thread marching
 * through a chunk of planes with the other colour's rows below and above in
 * registers (launch geometry: cube_launch.cuh, shared with cube.cu); split / unsplit a
 * thread per row, residual_restrict a thread per four coarse cells with each child row's u
 * loaded once (HOMG_CSP_RBLK=0: its neighbours loaded anew for each child row). */
#include "cube_launch.cuh"
#include "cube_split_point.h"

/* Colour rows of four a plane. */
static size_t csp_rows(const cube_level *K) { return (size_t)(K->nx / 8) * K->ny; }

static int csp_chunk(const cube_level *K) { return cube_chunk_of(csp_rows(K), K->nz); }

static size_t csp_threads(const cube_level *K, int kc) { return cube_threads_of(csp_rows(K), K->nz, kc); }

/* This thread's column (m0, j) and planes k0 .. k1-1 (kc planes a chunk; one plane each: kc 1); 0 past the end. */
__device__ __forceinline__ int csp_column(const cube_level &K, int kc, int *m0, int *j, int *k0, int *k1)
{
    return cube_column_of((unsigned)K.nx / 8, (unsigned)K.ny, K.nz, kc, m0, j, k0, k1);
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

/* The prolongation + half-sweep with CS (the level below split or not) a constant: one kernel per layout of ec,
 * no branch on it in the loop.  H100 (bench/results/h100_cube.md "Session 11 cube12"), against cs an argument:
 * 512^3 with ec split 480.8 -> 400.4 us, ec natural 546.5 -> 397.8; solves 9.845 -> 9.562 ms at 512^3. */
template <int CS>
__global__ void csp_prolong_kernel(cube_level K, const float *ec, float *u, const float *f, int colour, int kc)
{
    int m0, j, k0, k1;
    homg_pdl_wait();
    if (csp_column(K, kc, &m0, &j, &k0, &k1))
        csp_prolong_col(&K, ec, CS, u, f, colour, m0, j, k0, k1);
}

__global__ void csp_restrict_kernel(cube_level K, const float *u, const float *f, float *fc, int cs)
{
    int m0, J, Kc;
    homg_pdl_wait();
    if (cube_quad_of((unsigned)K.nx / 8, (unsigned)K.ny / 2, (unsigned)K.nz / 2, &m0, &J, &Kc))
        csp_restrict_quad(&K, u, f, fc, cs, m0, J, Kc);
}

/* As csp_restrict_kernel, each u row of the thread's 2 x 2 child rows loaded once (csp_restrict_block); MINB
 * blocks an SM at least, HOMG_CSP_RBLK=MINB (nvcc 13, sm_90: 1: 167 registers, every load issued up front;
 * 2: 128, 3: 80, no spills; 4: 64, 104 bytes spilled). */
template <int MINB>
__global__ void __launch_bounds__(CUBE_NT, MINB)
    csp_restrict_block_kernel(cube_level K, const float *u, const float *f, float *fc, int cs)
{
    int m0, J, Kc;
    homg_pdl_wait();
    if (cube_quad_of((unsigned)K.nx / 8, (unsigned)K.ny / 2, (unsigned)K.nz / 2, &m0, &J, &Kc))
        csp_restrict_block(&K, u, f, fc, cs, m0, J, Kc);
}

extern "C" homg_status homg_cuda_cubesplit_split(kernel_exec *ex, const cube_level *K, const float *a, float *s)
{
    return cube_launch(ex, csp_rows(K) * K->nz, "csp_split_kernel", csp_split_kernel, *K, a, s);
}

extern "C" homg_status homg_cuda_cubesplit_unsplit(kernel_exec *ex, const cube_level *K, const float *s, float *a)
{
    return cube_launch(ex, csp_rows(K) * K->nz, "csp_unsplit_kernel", csp_unsplit_kernel, *K, s, a);
}

extern "C" homg_status homg_cuda_cubesplit_pre(kernel_exec *ex, const cube_level *K, float *u, float *f,
                                               const float *fn)
{
    const int kc = csp_chunk(K);
    return cube_launch(ex, csp_threads(K, kc), "csp_pre_kernel", csp_pre_kernel, *K, u, f, fn, kc);
}

extern "C" homg_status homg_cuda_cubesplit_sweep(kernel_exec *ex, const cube_level *K, float *u, const float *f,
                                                 int colour, float *nat)
{
    const int kc = csp_chunk(K);
    return cube_launch(ex, csp_threads(K, kc), "csp_sweep_kernel", csp_sweep_kernel, *K, u, f, colour, nat, kc);
}

extern "C" homg_status homg_cuda_cubesplit_prolong_smooth(kernel_exec *ex, const cube_level *K, const float *ec,
                                                          float *u, const float *f, int colour, int cs)
{
    const int kc = csp_chunk(K);
    if (cs)
        return cube_launch(ex, csp_threads(K, kc), "csp_prolong_kernel", csp_prolong_kernel<1>, *K, ec, u, f, colour,
                           kc);
    return cube_launch(ex, csp_threads(K, kc), "csp_prolong_kernel", csp_prolong_kernel<0>, *K, ec, u, f, colour, kc);
}

extern "C" homg_status homg_cuda_cubesplit_residual_restrict(kernel_exec *ex, const cube_level *K, const float *u,
                                                             const float *f, float *fc, int cs)
{
    const size_t n = (size_t)(K->nx / 8) * (K->ny / 2) * (K->nz / 2);
    switch (homg_cubesplit_restrict_block(K)) {
    case 0: break;
    case 1: return cube_launch(ex, n, "csp_restrict_block_kernel", csp_restrict_block_kernel<1>, *K, u, f, fc, cs);
    case 2: return cube_launch(ex, n, "csp_restrict_block_kernel", csp_restrict_block_kernel<2>, *K, u, f, fc, cs);
    case 3: return cube_launch(ex, n, "csp_restrict_block_kernel", csp_restrict_block_kernel<3>, *K, u, f, fc, cs);
    default: return cube_launch(ex, n, "csp_restrict_block_kernel", csp_restrict_block_kernel<4>, *K, u, f, fc, cs);
    }
    return cube_launch(ex, n, "csp_restrict_kernel", csp_restrict_kernel, *K, u, f, fc, cs);
}

extern "C" const cubesplit_kernels homg_cuda_cubesplit_kernels = { .name = "cuda",
                                                                   CUBESPLIT_KERNELS(HOMG_KERNEL_CUDA_INIT) };
