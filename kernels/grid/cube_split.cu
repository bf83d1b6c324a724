/* cube_split.cu -- CUDA twin of kernels/grid/cube_split.c: the split finest level's
 * kernels (cube_split.h).  As cube.cu: a thread per colour row of four cells (one
 * float4 of a colour's half), rows of a plane side by side, each thread marching
 * through a chunk of planes with the other colour's rows below and above in
 * registers (launch geometry: cube_launch.cuh, shared with cube.cu); split / unsplit a
 * thread per row, residual_restrict a thread per four coarse cells with each child row's u
 * loaded once (HOMG_CSP_RBLK=0: its neighbours loaded anew for each child row; HOMG_CSP_RKC=n:
 * a thread per column of them marching in z, slower); on levels of one plane a thread,
 * HOMG_CSP_TILE=tj: pre / half-sweep / prolongation with a block's threads on a box of rows
 * and planes (csp_tile_of; HOMG_CSP_TLB=8: at most 32 registers, one wave at 128^3). */
#include "cube_launch.cuh"
#include "cube_split_point.h"

#include <stdlib.h>

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

__global__ void csp_prolong_kernel(cube_level K, const float *ec, float *u, const float *f, int colour, int kc, int cs)
{
    int m0, j, k0, k1;
    homg_pdl_wait();
    if (csp_column(K, kc, &m0, &j, &k0, &k1))
        csp_prolong_col(&K, ec, cs, u, f, colour, m0, j, k0, k1);
}

/* The same with cs a constant (the default; HOMG_CSP_PCS=0: csp_prolong_kernel): one kernel per layout of ec, no
 * branch on it in the loop.  H100 (bench/results/h100_cube.md "Session 11 cube12"): 512^3 with ec split 480.8 ->
 * 400.4 us, ec natural 546.5 -> 397.8; solves 9.845 -> 9.562 ms at 512^3, 1.437 -> 1.416 at 256^3. */
template <int CS>
__global__ void csp_prolong_cs_kernel(cube_level K, const float *ec, float *u, const float *f, int colour, int kc)
{
    int m0, j, k0, k1;
    homg_pdl_wait();
    if (csp_column(K, kc, &m0, &j, &k0, &k1))
        csp_prolong_col(&K, ec, CS, u, f, colour, m0, j, k0, k1);
}

/* Levels of one plane a thread (kc 1, one wave on the H100: 128^3 and below) with HOMG_CSP_TILE=tj: a block of
 * CUBE_NT threads takes a box of qx rows along x, tj along y and tk = CUBE_NT / (qx tj) planes instead of
 * CUBE_NT / qx rows of one plane, so a row's z neighbours mostly come from the block's own loads (L1) as its
 * y neighbours do; the same rows relaxed by the same formulas (only the thread-to-row map differs). */
__device__ __forceinline__ int csp_tile_of(const cube_level &K, int tj, int *m0, int *j, int *k)
{
    const unsigned qx = (unsigned)K.nx / 8, tk = CUBE_NT / (qx * (unsigned)tj), t = threadIdx.x;
    const unsigned a = t % qx, r = t / qx, by = ((unsigned)K.ny + tj - 1) / (unsigned)tj;
    const unsigned bj = blockIdx.x % by, bk = blockIdx.x / by;
    *m0 = 4 * (int)a;
    *j = (int)(bj * (unsigned)tj + r % (unsigned)tj);
    *k = (int)(bk * tk + r / (unsigned)tj);
    return *j < K.ny && *k < K.nz;
}

/* The box kernels with __launch_bounds__(CUBE_NT, MINB) (HOMG_CSP_TLB=MINB, 1 by default; 8: <= 32 registers,
 * 8 blocks an SM, so a 128^3 level's 1024 blocks are one wave on 132 SMs instead of ~two at 64 registers). */
template <int MINB>
__global__ void __launch_bounds__(CUBE_NT, MINB)
    csp_pre_tile_kernel(cube_level K, float *u, float *f, const float *fn, int tj)
{
    int m0, j, k;
    homg_pdl_wait();
    if (csp_tile_of(K, tj, &m0, &j, &k))
        csp_pre_col(&K, u, f, fn, m0, j, k, k + 1);
}

template <int MINB>
__global__ void __launch_bounds__(CUBE_NT, MINB)
    csp_sweep_tile_kernel(cube_level K, float *u, const float *f, int colour, float *nat, int tj)
{
    int m0, j, k;
    homg_pdl_wait();
    if (csp_tile_of(K, tj, &m0, &j, &k))
        csp_sweep_col(&K, u, f, colour, nat, m0, j, k, k + 1);
}

template <int CS, int MINB>
__global__ void __launch_bounds__(CUBE_NT, MINB)
    csp_prolong_tile_kernel(cube_level K, const float *ec, float *u, const float *f, int colour, int tj)
{
    int m0, j, k;
    homg_pdl_wait();
    if (csp_tile_of(K, tj, &m0, &j, &k))
        csp_prolong_col(&K, ec, CS, u, f, colour, m0, j, k, k + 1);
}

/* HOMG_CSP_TLB: the box kernels' MINB (1, 6 or 8). */
static int csp_tile_minb(void)
{
    const char *e = getenv("HOMG_CSP_TLB");
    const int n = e ? atoi(e) : 1;
    return n >= 8 ? 8 : n >= 6 ? 6 : 1;
}

/* Rows along y of a block's box on level K with kc planes a thread (HOMG_CSP_TILE, csp_tile_of), or 0: the
 * plain map (kc > 1, a box that does not divide CUBE_NT, or the knob off). */
static int csp_tile(const cube_level *K, int kc)
{
    const char *e = getenv("HOMG_CSP_TILE");
    const int tj = e ? atoi(e) : 0, qx = K->nx / 8;
    return tj > 0 && kc == 1 && qx * tj <= CUBE_NT && CUBE_NT % (qx * tj) == 0 ? tj : 0;
}

/* Threads of the tiled map: whole blocks, ceil(ny / tj) by ceil(nz / tk). */
static size_t csp_tile_threads(const cube_level *K, int tj)
{
    const int tk = CUBE_NT / (K->nx / 8 * tj);
    return (size_t)CUBE_NT * (size_t)((K->ny + tj - 1) / tj) * (size_t)((K->nz + tk - 1) / tk);
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

/* A thread per coarse column (m0.., J), marching through kc coarse planes (csp_restrict_col); MINB blocks an
 * SM at least (1: 126 registers, 2 blocks; 3: 80 registers and spills, HOMG_CSP_RLB=3).  Off by default:
 * slower on the H100 than a thread per four coarse cells (bench/results/h100_cube.md "Session 10 cube9"). */
template <int MINB>
__global__ void __launch_bounds__(CUBE_NT, MINB)
    csp_restrict_col_kernel(cube_level K, const float *u, const float *f, float *fc, int cs, int kc)
{
    const unsigned t = blockIdx.x * CUBE_NT + threadIdx.x, qx = (unsigned)K.nx / 8, cols = qx * ((unsigned)K.ny / 2);
    const unsigned chunk = t / cols, r = t - chunk * cols, J = r / qx;
    const int nzc = K.nz / 2, k0 = (int)chunk * kc;
    homg_pdl_wait();
    if (k0 < nzc)
        csp_restrict_col(&K, u, f, fc, cs, 4 * (int)(r - J * qx), (int)J, k0, k0 + kc < nzc ? k0 + kc : nzc);
}

/* The box prolongation (cs a constant) with MINB csp_tile_minb(). */
template <int CS>
static homg_status csp_prolong_tile_cs(kernel_exec *ex, const cube_level *K, const float *ec, float *u, const float *f,
                                       int colour, int tj)
{
    const size_t nt = csp_tile_threads(K, tj);
    const int mb = csp_tile_minb();
    if (mb == 8)
        return cube_launch(ex, nt, "csp_prolong_tile_kernel", csp_prolong_tile_kernel<CS, 8>, *K, ec, u, f, colour, tj);
    if (mb == 6)
        return cube_launch(ex, nt, "csp_prolong_tile_kernel", csp_prolong_tile_kernel<CS, 6>, *K, ec, u, f, colour, tj);
    return cube_launch(ex, nt, "csp_prolong_tile_kernel", csp_prolong_tile_kernel<CS, 1>, *K, ec, u, f, colour, tj);
}

static homg_status csp_prolong_tile(kernel_exec *ex, const cube_level *K, const float *ec, float *u, const float *f,
                                    int colour, int cs, int tj)
{
    return cs ? csp_prolong_tile_cs<1>(ex, K, ec, u, f, colour, tj)
              : csp_prolong_tile_cs<0>(ex, K, ec, u, f, colour, tj);
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
    const int kc = csp_chunk(K), tj = csp_tile(K, kc);
    if (tj) {
        const size_t nt = csp_tile_threads(K, tj);
        const int mb = csp_tile_minb();
        if (mb == 8)
            return cube_launch(ex, nt, "csp_pre_tile_kernel", csp_pre_tile_kernel<8>, *K, u, f, fn, tj);
        if (mb == 6)
            return cube_launch(ex, nt, "csp_pre_tile_kernel", csp_pre_tile_kernel<6>, *K, u, f, fn, tj);
        return cube_launch(ex, nt, "csp_pre_tile_kernel", csp_pre_tile_kernel<1>, *K, u, f, fn, tj);
    }
    return cube_launch(ex, csp_threads(K, kc), "csp_pre_kernel", csp_pre_kernel, *K, u, f, fn, kc);
}

extern "C" homg_status homg_cuda_cubesplit_sweep(kernel_exec *ex, const cube_level *K, float *u, const float *f,
                                                 int colour, float *nat)
{
    const int kc = csp_chunk(K), tj = csp_tile(K, kc);
    if (tj) {
        const size_t nt = csp_tile_threads(K, tj);
        const int mb = csp_tile_minb();
        if (mb == 8)
            return cube_launch(ex, nt, "csp_sweep_tile_kernel", csp_sweep_tile_kernel<8>, *K, u, f, colour, nat, tj);
        if (mb == 6)
            return cube_launch(ex, nt, "csp_sweep_tile_kernel", csp_sweep_tile_kernel<6>, *K, u, f, colour, nat, tj);
        return cube_launch(ex, nt, "csp_sweep_tile_kernel", csp_sweep_tile_kernel<1>, *K, u, f, colour, nat, tj);
    }
    return cube_launch(ex, csp_threads(K, kc), "csp_sweep_kernel", csp_sweep_kernel, *K, u, f, colour, nat, kc);
}

extern "C" homg_status homg_cuda_cubesplit_prolong_smooth(kernel_exec *ex, const cube_level *K, const float *ec,
                                                          float *u, const float *f, int colour, int cs)
{
    const int kc = csp_chunk(K), tj = csp_tile(K, kc);
    const char *e = getenv("HOMG_CSP_PCS");
    if (tj)
        return csp_prolong_tile(ex, K, ec, u, f, colour, cs, tj);
    if (!(e && atoi(e) == 0) && cs) /* cs a constant unless HOMG_CSP_PCS=0 */
        return cube_launch(ex, csp_threads(K, kc), "csp_prolong_cs_kernel", csp_prolong_cs_kernel<1>, *K, ec, u, f,
                           colour, kc);
    if (!(e && atoi(e) == 0))
        return cube_launch(ex, csp_threads(K, kc), "csp_prolong_cs_kernel", csp_prolong_cs_kernel<0>, *K, ec, u, f,
                           colour, kc);
    return cube_launch(ex, csp_threads(K, kc), "csp_prolong_kernel", csp_prolong_kernel, *K, ec, u, f, colour, kc, cs);
}

extern "C" homg_status homg_cuda_cubesplit_residual_restrict(kernel_exec *ex, const cube_level *K, const float *u,
                                                             const float *f, float *fc, int cs)
{
    const size_t n = (size_t)(K->nx / 8) * (K->ny / 2) * (K->nz / 2);
    const int kc = homg_cubesplit_restrict_planes(K);
    const char *lb = getenv("HOMG_CSP_RLB");
    const size_t cols = kc > 0 ? (size_t)(K->nx / 8) * (K->ny / 2) * ((K->nz / 2 + kc - 1) / kc) : 0;
    if (kc > 0 && lb && atoi(lb) == 3)
        return cube_launch(ex, cols, "csp_restrict_col_kernel", csp_restrict_col_kernel<3>, *K, u, f, fc, cs, kc);
    if (kc > 0)
        return cube_launch(ex, cols, "csp_restrict_col_kernel", csp_restrict_col_kernel<1>, *K, u, f, fc, cs, kc);
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
