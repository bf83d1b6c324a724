/* gen.cu -- CUDA twin of kernels/grid/gen.c: the general structured multigrid's
 * primitives (gen_kernels.h), one thread per cell with the per-cell formulas of
 * gen_point_tmpl.h; sums in double, block-reduced, one atomic per block. */
#include "core/cuda_check.h"
#include "core/pdl.cuh"
#include "gen_point.h"
#include "keyed_sum.cuh"

#include <stdlib.h>
#include <string.h>
#include <type_traits>

#define PER_TYPE_TMPL "grid/gen_point_tmpl.h"
#include "core/per_type.h"

#include <cuda_fp16.h>

/* A float16 grid's vector element (lib/homg.h HOMG_FLOAT16): half bits, read as
 * double, written from double through float with round-to-nearest-even, exactly as
 * the CPU twin's gen_half.h; a trivial default constructor keeps it usable in
 * __shared__ arrays, so every vector kernel below runs with T = gen_half as is. */
struct gen_half {
    __half h;
    gen_half() = default;
    __host__ __device__ gen_half(double v) : h(__float2half_rn((float)v)) {}
    __host__ __device__ operator double() const { return (double)__half2float(h); }
};

/* float16 grids: coefficients in float (T), vectors in gen_half. */
#define T         float
#define SUFFIX    h
#define GEN_V     gen_half
#define GEN_LD(x) ((double)(x))
#define GEN_ST(v) (gen_half((double)(v)))
#include "grid/gen_point_tmpl.h"
#undef T
#undef SUFFIX
#undef GEN_V
#undef GEN_LD
#undef GEN_ST

#define NT 256

/* Type-generic entry points to the per-cell formulas: one body for the three vector
 * storage types V, each member calling gen_point_tmpl.h's function of V's suffix (f
 * float, d double, h gen_half), chosen at compile time, so each precision's kernels
 * compile to the same calls as a hand-written specialisation. */
/* The coefficient type of each vector storage type V (float16 grids: float). */
template <typename V> struct gen_store;
template <> struct gen_store<float> {
    typedef float coef;
};
template <> struct gen_store<double> {
    typedef double coef;
};
template <> struct gen_store<gen_half> {
    typedef float coef;
};

#define GP_CALL(name, ...)                             \
    if constexpr (std::is_same<V, float>::value)       \
        return name##_f(__VA_ARGS__);                  \
    else if constexpr (std::is_same<V, double>::value) \
        return name##_d(__VA_ARGS__);                  \
    else                                               \
        return name##_h(__VA_ARGS__)

/* float16: setup and coarse are never launched with gen_half (coefficients are float: the float kernels run). */
template <typename V> struct gp {
    __device__ static void setup(const gen_level *L, const gen_fine *F, const typename gen_store<V>::coef *lc, double l,
                                 const unsigned char *fl, int i, int j, int k)
    {
        GP_CALL(gen_setup_cell, L, F, lc, l, fl, i, j, k);
    }
    __device__ static void coarse(const gen_level *L, const gen_level *C, int i, int j, int k)
    {
        GP_CALL(gen_coarse_cell, L, C, i, j, k);
    }
    __device__ static V relax(const gen_level *L, const V *u, const V *f, int i, int j, int k)
    {
        GP_CALL(gen_relax, L, u, f, i, j, k);
    }
    __device__ static V relax_from(const gen_level *L, const gen_level *C, const V *u, const V *ec, const V *f, int i,
                                   int j, int k)
    {
        GP_CALL(gen_relax_from, L, C, u, ec, f, i, j, k);
    }
    __device__ static V from_zero(const gen_level *L, const V *f, int i, int j, int k)
    {
        GP_CALL(gen_from_zero, L, f, i, j, k);
    }
    __device__ static double restr(const gen_level *L, const gen_level *C, const V *u, const V *f, int i, int j, int k)
    {
        GP_CALL(gen_restrict_cell, L, C, u, f, i, j, k);
    }
    __device__ static double res(const gen_level *L, const gen_fine *F, const V *u, const V *f, int i, int j, int k)
    {
        GP_CALL(gen_fine_res, L, F, u, f, i, j, k);
    }
    __device__ static double au(const gen_level *L, const V *u, int i, int j, int k) { GP_CALL(gen_au, L, u, i, j, k); }
    __device__ static void equation(const gen_level *L, int i, int j, int k, int nb[6], double g[6], double *d)
    {
        GP_CALL(gen_equation, L, i, j, k, nb, g, d);
    }
};
#undef GP_CALL

/* Programmatic dependent launch (issue 12): every kernel here is launched so that
 * it may start while the kernel before it in the stream finishes (a graph keeps
 * the edge), and waits at its first line until that kernel's writes are visible
 * (homg_pdl_wait, kernels/core/pdl.cuh); the launch latency between the dozens of
 * small kernels of a cycle then overlaps the previous kernel's tail.
 * HOMG_GEN_PDL=0: plain launches (homg_pdl_gen_on). */
static int pdl_on(void) { return homg_pdl_gen_on(); }

/* HOMG_GEN_COARSE_CACHED=0: the coarsest level's sweeps read the level's arrays each
 * time (the layout before coarse_sweeps_cached; the benchmark times against it, the
 * library documents no such variable). */
static int cached_coarse(void)
{
    static int v = -1;
    if (v < 0) {
        const char *e = getenv("HOMG_GEN_COARSE_CACHED");
        v = !(e && !strcmp(e, "0"));
    }
    return v;
}

template <typename... K, typename... A>
static void gen_launch(kernel_exec *ex, unsigned blocks, unsigned threads, void (*kernel)(K...), A... args)
{
    homg_pdl_launch(homg_cuda_stream(ex), dim3(blocks), dim3(threads), pdl_on(), kernel, args...);
}

/* Sum over the block (NT threads), added atomically to *out by thread 0. */
__device__ static void block_add(double v, double *out)
{
    __shared__ double ws[NT / 32];
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xFFFFFFFFu, v, o);
    __syncthreads();
    if (lane == 0)
        ws[w] = v;
    __syncthreads();
    if (w == 0) {
        v = lane < NT / 32 ? ws[lane] : 0.0;
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xFFFFFFFFu, v, o);
        if (lane == 0 && v != 0)
            atomicAdd(out, v);
    }
}

/* HOMG_GEN_BLOCKS=capped: every kernel at most 8 blocks per SM, grid-stride (the layout
 * before one-wave launches; the benchmark times against it, the library documents no
 * such variable). */
static int capped_blocks(void)
{
    static int v = -1;
    if (v < 0) {
        const char *e = getenv("HOMG_GEN_BLOCKS");
        v = e && !strcmp(e, "capped");
    }
    return v;
}

/* Blocks of a kernel without a reduction: one thread per item.  A cap of 8 blocks
 * per SM ran the big levels in 1.3 to 2.7 waves (a 40-register kernel fits 6 blocks
 * of 256 threads per SM), the last partly empty while every block looped as long. */
static unsigned stride_blocks(kernel_exec *ex, size_t n)
{
    size_t b = (n + NT - 1) / NT, cap = capped_blocks() ? (size_t)ex->sm_count * 8 : (size_t)0x7fffffff;
    return (unsigned)(b < cap ? (b ? b : 1) : cap);
}

/* Blocks of a kernel that reduces (one atomic per block, so not one block per 256
 * items): as many as fit on the device at once, one wave. */
static unsigned wave_blocks(kernel_exec *ex, const void *kernel, size_t n)
{
    int per_sm = 0;
    size_t b = (n + NT - 1) / NT, cap;
    if (capped_blocks() || cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, NT, 0) != cudaSuccess ||
        per_sm < 1)
        per_sm = 8;
    cap = (size_t)ex->sm_count * (size_t)per_sm;
    return (unsigned)(b < cap ? (b ? b : 1) : cap);
}

#define CELL_LOOP(L, c) \
    for (size_t c = blockIdx.x * (size_t)NT + threadIdx.x; c < gen_cells(&L); c += (size_t)gridDim.x * NT)

template <typename T>
__global__ void setup_fine_kernel(gen_level L, gen_fine F, const T *lc, double lambda, const unsigned char *flags)
{
    homg_pdl_wait();
    CELL_LOOP(L, c)
    {
        int i, j, k;
        gen_coords(&L, c, &i, &j, &k);
        gp<T>::setup(&L, &F, lc, lambda, flags, i, j, k);
    }
}

template <typename T> __global__ void coarsen_kernel(gen_level L, gen_level C)
{
    homg_pdl_wait();
    CELL_LOOP(C, c)
    {
        int i, j, k;
        gen_coords(&C, c, &i, &j, &k);
        gp<T>::coarse(&L, &C, i, j, k);
    }
}

/* One colour's cells (off the seams where the level has seams, gen_seam). */
template <typename T, int U>
__global__ void __launch_bounds__(NT, 6) smooth_kernel(gen_level L, T *u, const T *f, int colour, int seams)
{
    homg_pdl_wait();
    L.uniform = U; /* known here: the other kind's code is not compiled in (registers) */
    const size_t n = gen_colour_cells(&L);
    for (size_t t = blockIdx.x * (size_t)NT + threadIdx.x; t < n; t += (size_t)gridDim.x * NT) {
        int i, j, k;
        if (!gen_colour_cell(&L, t, colour, &i, &j, &k))
            continue;
        const size_t c = gen_index(&L, i, j, k);
        if (gen_active(&L, c) && (!seams || !gen_seam(&L, i, j, k)))
            u[c] = gp<T>::relax(&L, u, f, i, j, k);
    }
}

/* One colour's cells of seam phase ph >= 1, from threads first..first + stride. */
template <typename T>
__device__ void smooth_seam(const gen_level *L, T *u, const T *f, int colour, int ph, size_t first, size_t stride)
{
    const size_t n = gen_seam_cells(L);
    for (size_t t = first; t < n; t += stride) {
        int i, j, k;
        if (gen_seam_cell(L, t, &i, &j, &k) && ((i + j + k) & 1) == colour && gen_active(L, gen_index(L, i, j, k)) &&
            gen_seam(L, i, j, k) == ph)
            u[gen_index(L, i, j, k)] = gp<T>::relax(L, u, f, i, j, k);
    }
}

template <typename T> __global__ void smooth_seam_kernel(gen_level L, T *u, const T *f, int colour, int ph)
{
    homg_pdl_wait();
    smooth_seam(&L, u, f, colour, ph, blockIdx.x * (size_t)NT + threadIdx.x, (size_t)gridDim.x * NT);
}

/* The colour-0 half-sweep from u = 0 on a level without seams: every cell written. */
template <typename T, int U> __global__ void smooth_from_zero_kernel(gen_level L, T *u, const T *f)
{
    homg_pdl_wait();
    L.uniform = U; /* known here: the other kind's code is not compiled in (registers) */
    CELL_LOOP(L, c)
    {
        int i, j, k;
        gen_coords(&L, c, &i, &j, &k);
        u[c] = gp<T>::from_zero(&L, f, i, j, k);
    }
}

/* prolong_add + the colour-1 half-sweep on a level without seams: colour-1 cells
 * from their (colour-0) neighbours' prolonged values; colour 0 is not written, so
 * no cell read here is written here. */
template <typename T, int U>
__global__ void prolong_smooth_kernel(gen_level L, gen_level C, const T *ec, T *u, const T *f)
{
    homg_pdl_wait();
    L.uniform = U; /* known here: the other kind's code is not compiled in (registers) */
    const size_t n = gen_colour_cells(&L);
    for (size_t t = blockIdx.x * (size_t)NT + threadIdx.x; t < n; t += (size_t)gridDim.x * NT) {
        int i, j, k;
        if (!gen_colour_cell(&L, t, 1, &i, &j, &k))
            continue;
        const size_t c = gen_index(&L, i, j, k);
        if (gen_active(&L, c))
            u[c] = gp<T>::relax_from(&L, &C, u, ec, f, i, j, k);
    }
}

/* The coarsest level in one block: the CPU's sweeps, phase by phase, on a copy of
 * u in shared memory where it fits (the sweeps are latency-bound: each waits for
 * the last). */
#define GEN_COARSE_SHARED 256

/* A barrier among threads 0 .. nt-1 (bar > 0: named barrier bar, nt a multiple of
 * 32), or the whole block (bar 0). */
__device__ __forceinline__ void gen_bar(int bar, unsigned nt)
{
    if (bar)
        asm volatile("bar.sync %0, %1;" ::"r"(bar), "r"(nt) : "memory");
    else
        __syncthreads();
}

/* One colour's half-sweep of a level by threads 0 .. nt-1 of a block: the cells off
 * the seams, then the seam phases (gen_seam), a barrier after each. */
template <typename T>
__device__ void block_smooth(const gen_level *L, T *w, const T *f, int colour, unsigned nt, int bar)
{
    const size_t nc = gen_colour_cells(L);
    const int seams = gen_seams(L);
    for (size_t t = threadIdx.x; t < nc; t += nt) {
        int i, j, k;
        if (gen_colour_cell(L, t, colour, &i, &j, &k) && gen_active(L, gen_index(L, i, j, k)) &&
            (!seams || !gen_seam(L, i, j, k)))
            w[gen_index(L, i, j, k)] = gp<T>::relax(L, w, f, i, j, k);
    }
    gen_bar(bar, nt);
    for (int ph = 1; ph <= seams; ph++) {
        smooth_seam(L, w, f, colour, ph, threadIdx.x, nt);
        gen_bar(bar, nt);
    }
}

/* The coarsest level by threads 0 .. nt-1: the CPU's sweeps, phase by phase, on a
 * copy of u in shared memory where it fits (the sweeps are latency-bound: each waits
 * for the last). */
template <typename T>
__device__ void coarse_sweeps_cached(const gen_level *L, T *u, const T *f, int sweeps, unsigned nt, int bar);

/* The same with each thread's cells (at most GEN_COARSE_REGS) in registers. */
#define GEN_COARSE_REGS 2
template <typename T>
__device__ void coarse_sweeps_regs(const gen_level *L, T *u, const T *f, int sweeps, unsigned nt, int bar);

template <typename T>
__device__ void coarse_sweeps(const gen_level *L, T *u, const T *f, int sweeps, unsigned nt, int bar, int cached)
{
    __shared__ T us[GEN_COARSE_SHARED];
    const size_t n = gen_cells(L);
    T *w = n <= GEN_COARSE_SHARED ? us : u;
    if (n <= GEN_COARSE_SHARED && n <= GEN_COARSE_REGS * nt && cached) {
        coarse_sweeps_regs(L, u, f, sweeps, nt, bar);
        return;
    }
    if (n <= GEN_COARSE_SHARED && cached) {
        coarse_sweeps_cached(L, u, f, sweeps, nt, bar);
        return;
    }
    for (size_t c = threadIdx.x; c < n; c += nt)
        w[c] = 0;
    gen_bar(bar, nt);
    for (int s = 0; s < sweeps; s++)
        for (int h = 0; h < 2; h++)
            block_smooth(L, w, f, (s & 1) ? 1 - h : h, nt, bar);
    if (w != u)
        for (size_t c = threadIdx.x; c < n; c += nt)
            u[c] = w[c];
}

/* The coarsest level's sweeps (n <= GEN_COARSE_SHARED cells) with every cell's
 * equation read once into shared memory (gen_equation: neighbours, conductances,
 * diagonal; the phase: colour + seam count): each half-sweep then reads only
 * shared memory, no flags, coefficients or index arithmetic.  The same updates in
 * the same order as coarse_sweeps' block_smooth, so the same values.  On the H100
 * the 40 sweeps of an 8 x 8 level took 86 us from the level's arrays (ncu,
 * 2026-11-26), a third of a 1024^2 wall-projection cycle. */
template <typename T>
__device__ void coarse_sweeps_cached(const gen_level *L, T *u, const T *f, int sweeps, unsigned nt, int bar)
{
    __shared__ T w[GEN_COARSE_SHARED];
    __shared__ double sg[6][GEN_COARSE_SHARED], sd[GEN_COARSE_SHARED], sf[GEN_COARSE_SHARED];
    __shared__ short snb[6][GEN_COARSE_SHARED];
    __shared__ unsigned char key[GEN_COARSE_SHARED]; /* colour + 2 * seam phase; 255: not an unknown */
    const int n = (int)gen_cells(L), seams = gen_seams(L);
    for (int c = threadIdx.x; c < n; c += nt) {
        int i, j, k, nb[6];
        double g[6], d;
        w[c] = 0;
        gen_coords(L, (size_t)c, &i, &j, &k);
        key[c] = 255;
        if (!gen_active(L, (size_t)c))
            continue;
        key[c] = (unsigned char)(((i + j + k) & 1) + 2 * gen_seam(L, i, j, k));
        gp<T>::equation(L, i, j, k, nb, g, &d);
        for (int q = 0; q < 6; q++)
            snb[q][c] = (short)nb[q], sg[q][c] = g[q];
        sd[c] = d;
        sf[c] = (double)f[c];
    }
    gen_bar(bar, nt);
    for (int s = 0; s < sweeps; s++)
        for (int h = 0; h < 2; h++) {
            const int colour = (s & 1) ? 1 - h : h;
            for (int ph = 0; ph <= seams; ph++) {
                for (int c = threadIdx.x; c < n; c += nt) {
                    double off = 0;
                    if (key[c] != colour + 2 * ph)
                        continue;
                    for (int q = 0; q < 6; q++)
                        if (snb[q][c] >= 0)
                            off += sg[q][c] * (double)w[snb[q][c]];
                    w[c] = sd[c] > 0 ? (T)((sf[c] + off) / sd[c]) : (T)0;
                }
                gen_bar(bar, nt);
            }
        }
    for (int c = threadIdx.x; c < n; c += nt)
        u[c] = w[c];
}

/* coarse_sweeps_cached with every thread's equations (cell threadIdx.x + r nt) in
 * registers and 1 / diagonal precomputed: a half-sweep is then the neighbours' loads
 * from shared memory, a few multiply-adds and the barrier.  20 sweeps of the 8 x 8
 * level, run twice a smoke-demo cycle (the two passes): 16.6 -> 12.3 us (ncu, H100,
 * 2026-11-26, bench/results/h100_gen3_s5.md); still latency-bound (~0.3 us a
 * half-sweep), so 40 sweeps do not pay for the cycles they save. */
template <typename T>
__device__ void coarse_sweeps_regs(const gen_level *L, T *u, const T *f, int sweeps, unsigned nt, int bar)
{
    __shared__ T w[GEN_COARSE_SHARED];
    const int n = (int)gen_cells(L), seams = gen_seams(L);
    int key[GEN_COARSE_REGS], nb[GEN_COARSE_REGS][6];
    double g[GEN_COARSE_REGS][6], rd[GEN_COARSE_REGS], fr[GEN_COARSE_REGS];
#pragma unroll
    for (int r = 0; r < GEN_COARSE_REGS; r++) {
        const int c = (int)threadIdx.x + r * (int)nt;
        int i, j, k;
        double d = 0;
        key[r] = 255; /* not an unknown of this thread */
        rd[r] = fr[r] = 0;
        for (int q = 0; q < 6; q++)
            nb[r][q] = -1, g[r][q] = 0;
        if (c >= n)
            continue;
        w[c] = 0;
        if (!gen_active(L, (size_t)c))
            continue;
        gen_coords(L, (size_t)c, &i, &j, &k);
        key[r] = ((i + j + k) & 1) + 2 * gen_seam(L, i, j, k);
        gp<T>::equation(L, i, j, k, nb[r], g[r], &d);
        rd[r] = d > 0 ? 1.0 / d : 0.0;
        fr[r] = (double)f[c];
    }
    gen_bar(bar, nt);
    for (int s = 0; s < sweeps; s++)
        for (int h = 0; h < 2; h++) {
            const int colour = (s & 1) ? 1 - h : h;
            for (int ph = 0; ph <= seams; ph++) {
#pragma unroll
                for (int r = 0; r < GEN_COARSE_REGS; r++) {
                    double off = fr[r];
                    if (key[r] != colour + 2 * ph)
                        continue;
#pragma unroll
                    for (int q = 0; q < 6; q++)
                        if (nb[r][q] >= 0)
                            off += g[r][q] * (double)w[nb[r][q]];
                    w[threadIdx.x + r * nt] = (T)(off * rd[r]);
                }
                gen_bar(bar, nt);
            }
        }
    for (int r = 0; r < GEN_COARSE_REGS; r++) {
        const int c = (int)threadIdx.x + r * (int)nt;
        if (c < n)
            u[c] = w[c];
    }
}

template <typename T> __global__ void coarse_solve_kernel(gen_level L, T *u, const T *f, int sweeps, int cached)
{
    homg_pdl_wait();
    coarse_sweeps(&L, u, f, sweeps, blockDim.x, 0, cached);
}

/* Column blockIdx.x of coarse_solve's map: the sweeps of the unit vector e_c
 * (coarse_sweeps reads f through a generic pointer: shared memory will do). */
template <typename T> __global__ void coarse_matrix_kernel(gen_level L, T *m, int sweeps, int cached)
{
    __shared__ T e[GEN_COARSE_MATRIX_CELLS];
    const unsigned n = (unsigned)gen_cells(&L);
    homg_pdl_wait();
    for (unsigned c = threadIdx.x; c < n; c += blockDim.x)
        e[c] = c == blockIdx.x ? (T)1 : (T)0;
    __syncthreads();
    coarse_sweeps(&L, m + (size_t)blockIdx.x * n, e, sweeps, blockDim.x, 0, cached);
}

/* u = m f, a thread per row, the CPU twin's order and roundings (no contraction). */
template <typename T> __global__ void coarse_apply_kernel(gen_level L, const T *m, T *u, const T *f)
{
    __shared__ double fa[GEN_COARSE_MATRIX_CELLS];
    const unsigned n = (unsigned)gen_cells(&L), r = threadIdx.x;
    homg_pdl_wait();
    if (r < n)
        fa[r] = gen_active(&L, r) ? (double)f[r] : 0.0;
    __syncthreads();
    if (r >= n)
        return;
    double acc = 0;
#pragma unroll 8
    for (unsigned c = 0; c < n; c++)
        acc = __dadd_rn(acc, __dmul_rn((double)m[(size_t)c * n + r], fa[c]));
    u[r] = (T)acc;
}

/* block_vcycle: every step of the V-cycle on B's levels in this one block, a barrier
 * between steps; the levels' descriptions in shared memory (indexed by level). */
#define GEN_BLOCK_NT 512
template <typename T> __global__ void __launch_bounds__(GEN_BLOCK_NT, 1) block_vcycle_kernel(gen_block B, int cached)
{
    __shared__ gen_block S;
    homg_pdl_wait();
    if (threadIdx.x == 0)
        S = B;
    __syncthreads();
    for (int q = 0; q < S.n - 1; q++) { /* down: zero, pre sweeps, residual restricted */
        const gen_level *L = &S.lv[q], *C = &S.lv[q + 1];
        T *x = (T *)S.x[q], *fc = (T *)S.b[q + 1];
        const T *b = (const T *)S.b[q];
        for (size_t c = threadIdx.x; c < gen_cells(L); c += GEN_BLOCK_NT)
            x[c] = 0;
        __syncthreads();
        for (int s = 0; s < S.pre; s++)
            for (int h = 0; h < 2; h++)
                block_smooth(L, x, b, h, GEN_BLOCK_NT, 0);
        for (size_t c = threadIdx.x; c < gen_cells(C); c += GEN_BLOCK_NT) {
            int i, j, k;
            gen_coords(C, c, &i, &j, &k);
            fc[c] = (T)gp<T>::restr(L, C, x, b, i, j, k);
        }
        __syncthreads();
    }
    { /* the coarsest: two warps where it fits in shared memory (cheaper barriers) */
        const gen_level *L = &S.lv[S.n - 1];
        const int small = gen_cells(L) <= GEN_COARSE_SHARED;
        if (!small || threadIdx.x < 64)
            coarse_sweeps(L, (T *)S.x[S.n - 1], (const T *)S.b[S.n - 1], S.sweeps, small ? 64 : GEN_BLOCK_NT,
                          small ? 1 : 0, cached);
        __syncthreads();
    }
    for (int q = S.n - 2; q >= 0; q--) { /* up: the correction added, post sweeps from colour 1 */
        const gen_level *L = &S.lv[q], *C = &S.lv[q + 1];
        T *x = (T *)S.x[q];
        const T *b = (const T *)S.b[q], *ec = (const T *)S.x[q + 1];
        for (size_t c = threadIdx.x; c < gen_cells(L); c += GEN_BLOCK_NT) {
            int i, j, k;
            if (!gen_active(L, c))
                continue;
            gen_coords(L, c, &i, &j, &k);
            x[c] = (T)((double)x[c] +
                       gen_up(C) *
                           (double)ec[gen_index(C, gen_parent(i, L->nx), gen_parent(j, L->ny), gen_parent(k, L->nz))]);
        }
        __syncthreads();
        for (int s = 0; s < S.post; s++)
            for (int h = 0; h < 2; h++)
                block_smooth(L, x, b, 1 - h, GEN_BLOCK_NT, 0);
    }
}

template <typename T, int U>
__global__ void residual_restrict_kernel(gen_level L, gen_level C, const T *u, const T *f, T *fc)
{
    homg_pdl_wait();
    L.uniform = U; /* known here: the other kind's code is not compiled in (registers) */
    CELL_LOOP(C, c)
    {
        int i, j, k;
        gen_coords(&C, c, &i, &j, &k);
        fc[c] = (T)gp<T>::restr(&L, &C, u, f, i, j, k);
    }
}

template <typename T> __global__ void prolong_add_kernel(gen_level L, gen_level C, const T *ec, T *u)
{
    homg_pdl_wait();
    CELL_LOOP(L, c)
    {
        int i, j, k;
        if (!gen_active(&L, c))
            continue;
        gen_coords(&L, c, &i, &j, &k);
        u[c] =
            (T)((double)u[c] +
                gen_up(&C) * (double)ec[gen_index(&C, gen_parent(i, L.nx), gen_parent(j, L.ny), gen_parent(k, L.nz))]);
    }
}

template <typename T, int U>
__global__ void residual_kernel(gen_level L, gen_fine F, const T *u, const T *f, T *r, double *rr)
{
    homg_pdl_wait();
    L.uniform = U; /* known here: the other kind's code is not compiled in (registers) */
    double acc = 0;
    CELL_LOOP(L, c)
    {
        int i, j, k;
        double v = 0;
        gen_coords(&L, c, &i, &j, &k);
        if (gen_active(&L, c))
            v = gp<T>::res(&L, &F, u, f, i, j, k);
        T t = (T)v;
        r[c] = t;
        acc += (double)t * (double)t;
    }
    if (rr)
        block_add(acc, rr);
}

template <typename T, int U> __global__ void apply_kernel(gen_level L, const T *x, T *q, double *xq)
{
    homg_pdl_wait();
    L.uniform = U; /* known here: the other kind's code is not compiled in (registers) */
    double acc = 0;
    CELL_LOOP(L, c)
    {
        int i, j, k;
        double v = 0;
        gen_coords(&L, c, &i, &j, &k);
        if (gen_active(&L, c))
            v = gp<T>::au(&L, x, i, j, k);
        T t = (T)v;
        q[c] = t;
        acc += (double)x[c] * (double)t;
    }
    if (xq)
        block_add(acc, xq);
}

template <typename T> __global__ void dot2_kernel(size_t n, const T *a, const T *b, const T *c, double *out)
{
    homg_pdl_wait();
    double s0 = 0, s1 = 0;
    for (size_t k = blockIdx.x * (size_t)NT + threadIdx.x; k < n; k += (size_t)gridDim.x * NT) {
        double bk = (double)b[k];
        s0 += (double)a[k] * bk;
        if (c)
            s1 += (double)c[k] * bk;
    }
    block_add(s0, out);
    if (c)
        block_add(s1, out + 1);
}

template <typename T>
__global__ void update_ur_kernel(size_t n, const unsigned char *flag, T *u, const T *p, T *r, const T *q, double *s)
{
    homg_pdl_wait();
    const double alpha = s[GEN_ALPHA];
    double acc = 0;
    for (size_t k = blockIdx.x * (size_t)NT + threadIdx.x; k < n; k += (size_t)gridDim.x * NT) {
        if (flag && flag[k])
            continue;
        u[k] = (T)((double)u[k] + alpha * (double)p[k]);
        T t = (T)((double)r[k] - alpha * (double)q[k]);
        r[k] = t;
        acc += (double)t * (double)t;
    }
    block_add(acc, s + GEN_RR);
}

template <typename T> __global__ void zero_active_kernel(size_t n, const unsigned char *flag, T *u)
{
    homg_pdl_wait();
    for (size_t k = blockIdx.x * (size_t)NT + threadIdx.x; k < n; k += (size_t)gridDim.x * NT)
        if (!flag || !flag[k])
            u[k] = 0;
}

template <typename T> __global__ void update_p_kernel(size_t n, const T *z, T *p, const double *s)
{
    homg_pdl_wait();
    const double beta = s[GEN_BETA];
    for (size_t k = blockIdx.x * (size_t)NT + threadIdx.x; k < n; k += (size_t)gridDim.x * NT)
        p[k] = (T)((double)z[k] + beta * (double)p[k]);
}

__global__ void scalars_kernel(double *s, int step, int ref, double *hist, int *count)
{
    homg_pdl_wait();
    gen_scalar_step(s, step, ref, hist, count);
}

template <typename T>
__global__ void error_norm_kernel(size_t n, const unsigned char *flag, const T *u, const T *ref, double *s)
{
    homg_pdl_wait();
    double e2 = 0, r2 = 0;
    for (size_t k = blockIdx.x * (size_t)NT + threadIdx.x; k < n; k += (size_t)gridDim.x * NT) {
        if (flag && flag[k])
            continue;
        double d = (double)u[k] - (double)ref[k];
        e2 += d * d;
        r2 += (double)ref[k] * (double)ref[k];
    }
    block_add(e2, s + GEN_E2);
    block_add(r2, s + GEN_R2);
}

struct island_flush {
    double *sums;
    __device__ void operator()(int l, double v) const { atomicAdd(sums + l, v); }
};

/* Sums per label without one atomic per cell (keyed_sum.cuh): one island of
 * millions of cells costs an atomic per block. */
template <typename T> __global__ void island_sum_kernel(size_t n, const int *label, const T *x, double *sums)
{
    homg_pdl_wait();
    keyed_sum<double, island_flush> acc(island_flush{ sums }, 0.0);
    for (size_t k = blockIdx.x * (size_t)NT + threadIdx.x; k < n; k += (size_t)gridDim.x * NT)
        acc.add(label[k], (double)x[k], 0.0);
    acc.finish(0.0);
}

template <typename T>
__global__ void island_sub_kernel(size_t n, const int *label, T *x, const double *sums, const double *inv_count)
{
    homg_pdl_wait();
    for (size_t k = blockIdx.x * (size_t)NT + threadIdx.x; k < n; k += (size_t)gridDim.x * NT) {
        int l = label[k];
        if (l >= 0)
            x[k] = (T)((double)x[k] - sums[l] * inv_count[l]);
    }
}

__global__ void island_max_kernel(const double *sums, const double *inv_count, int nislands, double *proj)
{
    homg_pdl_wait();
    gen_island_max(sums, inv_count, nislands, proj);
}

template <typename T>
__global__ void check_operator_kernel(size_t n, const T *sigma, const T *lambda, const unsigned char *flags,
                                      unsigned long long *bad)
{
    homg_pdl_wait();
    for (size_t k = blockIdx.x * (size_t)NT + threadIdx.x; k < n; k += (size_t)gridDim.x * NT) {
        if (sigma && !(isfinite((double)sigma[k]) && sigma[k] > 0))
            atomicCAS(bad, 0ull, (unsigned long long)k + 1);
        if (lambda && !(isfinite((double)lambda[k]) && lambda[k] >= 0))
            atomicCAS(bad + 1, 0ull, (unsigned long long)k + 1);
        if (flags && flags[k] > 2)
            atomicCAS(bad + 2, 0ull, (unsigned long long)k + 1);
        if (sigma && isfinite((double)sigma[k]) && sigma[k] > 0 && gen_jump((double)sigma[k], (double)sigma[0]))
            atomicCAS(bad + 3, 0ull, (unsigned long long)k + 1);
        if (flags && flags[k] == GEN_SOLID)
            atomicCAS(bad + 4, 0ull, (unsigned long long)k + 1);
    }
}

/* ---- entries ---- */

/* Runs `launch` with U = 1 on a uniform level, U = 0 on a stored one: each kernel
 * instance holds one kind's coefficient code (the run-time branch in every accessor
 * cost registers: 31 -> 44 in smooth_kernel, 40 -> 60 in apply_kernel, so fewer
 * threads per SM on kernels that wait on memory). */
#define GEN_UNI(L, ...)          \
    do {                         \
        if ((L)->uniform) {      \
            constexpr int U = 1; \
            __VA_ARGS__          \
        } else {                 \
            constexpr int U = 0; \
            __VA_ARGS__          \
        }                        \
    } while (0)

extern "C" homg_status homg_cuda_gen_setup_fine(kernel_exec *ex, homg_precision p, const gen_level *L,
                                                const gen_fine *F, const void *lambda_cell, double lambda,
                                                const unsigned char *flags)
{
    unsigned b = stride_blocks(ex, gen_cells(L));
    if (p == HOMG_FLOAT64)
        gen_launch(ex, b, NT, setup_fine_kernel<double>, *L, *F, (const double *)lambda_cell, lambda, flags);
    else
        gen_launch(ex, b, NT, setup_fine_kernel<float>, *L, *F, (const float *)lambda_cell, lambda, flags);
    HOMG_CUDA_LAUNCHED(ex, "gen setup_fine_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_gen_coarsen(kernel_exec *ex, homg_precision p, const gen_level *L, const gen_level *C)
{
    unsigned b = stride_blocks(ex, gen_cells(C));
    if (p == HOMG_FLOAT64)
        gen_launch(ex, b, NT, coarsen_kernel<double>, *L, *C);
    else
        gen_launch(ex, b, NT, coarsen_kernel<float>, *L, *C);
    HOMG_CUDA_LAUNCHED(ex, "gen coarsen_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_gen_smooth(kernel_exec *ex, homg_precision p, const gen_level *L, void *u,
                                            const void *f, int colour)
{
    const int seams = gen_seams(L);
    unsigned b = stride_blocks(ex, gen_colour_cells(L));
    GEN_UNI(L, {
        if (p == HOMG_FLOAT64)
            gen_launch(ex, b, NT, smooth_kernel<double, U>, *L, (double *)u, (const double *)f, colour, seams);
        else if (p == HOMG_FLOAT16)
            gen_launch(ex, b, NT, smooth_kernel<gen_half, U>, *L, (gen_half *)u, (const gen_half *)f, colour, seams);
        else
            gen_launch(ex, b, NT, smooth_kernel<float, U>, *L, (float *)u, (const float *)f, colour, seams);
    });
    HOMG_CUDA_LAUNCHED(ex, "gen smooth_kernel");
    for (int ph = 1; ph <= seams; ph++) { /* the seam phases: a plane each, small launches */
        b = stride_blocks(ex, gen_seam_cells(L));
        if (p == HOMG_FLOAT64)
            gen_launch(ex, b, NT, smooth_seam_kernel<double>, *L, (double *)u, (const double *)f, colour, ph);
        else if (p == HOMG_FLOAT16)
            gen_launch(ex, b, NT, smooth_seam_kernel<gen_half>, *L, (gen_half *)u, (const gen_half *)f, colour, ph);
        else
            gen_launch(ex, b, NT, smooth_seam_kernel<float>, *L, (float *)u, (const float *)f, colour, ph);
        HOMG_CUDA_LAUNCHED(ex, "gen smooth_seam_kernel");
    }
    return HOMG_OK;
}

/* The largest level whose sweeps run in one block: GEN_SWEEP_BLOCK_CELLS, or
 * HOMG_GEN_SWEEP_BLOCK=n cells (0: a launch per half-sweep on every level, the layout
 * before one-block sweeps); the benchmark times against it, the library documents no
 * such variable. */
static size_t sweep_block_cells(void)
{
    static long long v = -1;
    if (v < 0) {
        const char *e = getenv("HOMG_GEN_SWEEP_BLOCK");
        v = e ? atoll(e) : GEN_SWEEP_BLOCK_CELLS;
        v = v < 0 ? 0 : v;
    }
    return (size_t)v;
}

/* sweeps in one block (a level of at most GEN_SWEEP_BLOCK_CELLS cells): the
 * half-sweeps of smooth in order, phase by phase, a barrier after each (a launch
 * each cost ~4 us on the coarse levels, ncu on the H100, 2026-11-26). */
#define GEN_SWEEP_NT 1024
template <typename T>
__global__ void __launch_bounds__(GEN_SWEEP_NT, 1)
    sweeps_kernel(gen_level L, T *u, const T *f, int n, int reverse, int skip)
{
    homg_pdl_wait();
    for (int s = 0; s < n; s++)
        for (int h = s == 0 && skip ? 1 : 0; h < 2; h++)
            block_smooth(&L, u, f, reverse ? 1 - h : h, GEN_SWEEP_NT, 0);
}

extern "C" homg_status homg_cuda_gen_sweeps(kernel_exec *ex, homg_precision p, const gen_level *L, void *u,
                                            const void *f, int n, int reverse, int skip)
{
    if (n <= 0 || (n == 1 && skip))
        return n == 1 && skip ? homg_cuda_gen_smooth(ex, p, L, u, f, reverse ? 0 : 1) : HOMG_OK;
    if (gen_cells(L) > sweep_block_cells()) {
        for (int s = 0; s < n; s++)
            for (int h = s == 0 && skip ? 1 : 0; h < 2; h++)
                HOMG_TRY(homg_cuda_gen_smooth(ex, p, L, u, f, reverse ? 1 - h : h));
        return HOMG_OK;
    }
    if (p == HOMG_FLOAT64)
        gen_launch(ex, 1, GEN_SWEEP_NT, sweeps_kernel<double>, *L, (double *)u, (const double *)f, n, reverse, skip);
    else if (p == HOMG_FLOAT16)
        gen_launch(ex, 1, GEN_SWEEP_NT, sweeps_kernel<gen_half>, *L, (gen_half *)u, (const gen_half *)f, n, reverse,
                   skip);
    else
        gen_launch(ex, 1, GEN_SWEEP_NT, sweeps_kernel<float>, *L, (float *)u, (const float *)f, n, reverse, skip);
    HOMG_CUDA_LAUNCHED(ex, "gen sweeps_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_gen_smooth_from_zero(kernel_exec *ex, homg_precision p, const gen_level *L, void *u,
                                                      const void *f)
{
    unsigned b = stride_blocks(ex, gen_cells(L));
    if (gen_seams(L)) {
        HOMG_CUDA_TRY(ex, cudaMemsetAsync(u, 0,
                                          gen_cells(L) * (p == HOMG_FLOAT64   ? 8
                                                          : p == HOMG_FLOAT16 ? 2
                                                                              : 4),
                                          homg_cuda_stream(ex)));
        return homg_cuda_gen_smooth(ex, p, L, u, f, 0);
    }
    GEN_UNI(L, {
        if (p == HOMG_FLOAT64)
            gen_launch(ex, b, NT, smooth_from_zero_kernel<double, U>, *L, (double *)u, (const double *)f);
        else if (p == HOMG_FLOAT16)
            gen_launch(ex, b, NT, smooth_from_zero_kernel<gen_half, U>, *L, (gen_half *)u, (const gen_half *)f);
        else
            gen_launch(ex, b, NT, smooth_from_zero_kernel<float, U>, *L, (float *)u, (const float *)f);
    });
    HOMG_CUDA_LAUNCHED(ex, "gen smooth_from_zero_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_gen_prolong_smooth(kernel_exec *ex, homg_precision p, const gen_level *L,
                                                    const gen_level *C, const void *ec, void *u, const void *f)
{
    unsigned b = stride_blocks(ex, gen_colour_cells(L));
    if (gen_seams(L)) {
        homg_status st = homg_cuda_gen_prolong_add(ex, p, L, C, ec, u);
        return st != HOMG_OK ? st : homg_cuda_gen_smooth(ex, p, L, u, f, 1);
    }
    GEN_UNI(L, {
        if (p == HOMG_FLOAT64)
            gen_launch(ex, b, NT, prolong_smooth_kernel<double, U>, *L, *C, (const double *)ec, (double *)u,
                       (const double *)f);
        else if (p == HOMG_FLOAT16)
            gen_launch(ex, b, NT, prolong_smooth_kernel<gen_half, U>, *L, *C, (const gen_half *)ec, (gen_half *)u,
                       (const gen_half *)f);
        else
            gen_launch(ex, b, NT, prolong_smooth_kernel<float, U>, *L, *C, (const float *)ec, (float *)u,
                       (const float *)f);
    });
    HOMG_CUDA_LAUNCHED(ex, "gen prolong_smooth_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_gen_coarse_solve(kernel_exec *ex, homg_precision p, const gen_level *L, void *u,
                                                  const void *f, int sweeps)
{
    const unsigned nt = gen_cells(L) <= GEN_COARSE_SHARED ? 64 : NT; /* two warps: cheaper barriers */
    if (p == HOMG_FLOAT64)
        gen_launch(ex, 1, nt, coarse_solve_kernel<double>, *L, (double *)u, (const double *)f, sweeps, cached_coarse());
    else if (p == HOMG_FLOAT16)
        gen_launch(ex, 1, nt, coarse_solve_kernel<gen_half>, *L, (gen_half *)u, (const gen_half *)f, sweeps,
                   cached_coarse());
    else
        gen_launch(ex, 1, nt, coarse_solve_kernel<float>, *L, (float *)u, (const float *)f, sweeps, cached_coarse());
    HOMG_CUDA_LAUNCHED(ex, "gen coarse_solve_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_gen_coarse_matrix(kernel_exec *ex, homg_precision p, const gen_level *L, int sweeps,
                                                   void *m)
{
    const size_t n = gen_cells(L);
    const unsigned nt = n <= GEN_COARSE_SHARED ? 64 : NT; /* as coarse_solve */
    if (n > GEN_COARSE_MATRIX_CELLS)
        return HOMG_ERROR_INVALID_ARGUMENT;
    if (p == HOMG_FLOAT64)
        gen_launch(ex, (unsigned)n, nt, coarse_matrix_kernel<double>, *L, (double *)m, sweeps, cached_coarse());
    else if (p == HOMG_FLOAT16)
        gen_launch(ex, (unsigned)n, nt, coarse_matrix_kernel<gen_half>, *L, (gen_half *)m, sweeps, cached_coarse());
    else
        gen_launch(ex, (unsigned)n, nt, coarse_matrix_kernel<float>, *L, (float *)m, sweeps, cached_coarse());
    HOMG_CUDA_LAUNCHED(ex, "gen coarse_matrix_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_gen_coarse_apply(kernel_exec *ex, homg_precision p, const gen_level *L, const void *m,
                                                  void *u, const void *f)
{
    const size_t n = gen_cells(L);
    if (n > GEN_COARSE_MATRIX_CELLS)
        return HOMG_ERROR_INVALID_ARGUMENT;
    const unsigned nt = (unsigned)((n + 31) / 32 * 32);
    if (p == HOMG_FLOAT64)
        gen_launch(ex, 1, nt, coarse_apply_kernel<double>, *L, (const double *)m, (double *)u, (const double *)f);
    else if (p == HOMG_FLOAT16)
        gen_launch(ex, 1, nt, coarse_apply_kernel<gen_half>, *L, (const gen_half *)m, (gen_half *)u,
                   (const gen_half *)f);
    else
        gen_launch(ex, 1, nt, coarse_apply_kernel<float>, *L, (const float *)m, (float *)u, (const float *)f);
    HOMG_CUDA_LAUNCHED(ex, "gen coarse_apply_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_gen_block_vcycle(kernel_exec *ex, homg_precision p, const gen_block *B)
{
    if (p == HOMG_FLOAT64)
        gen_launch(ex, 1, GEN_BLOCK_NT, block_vcycle_kernel<double>, *B, cached_coarse());
    else if (p == HOMG_FLOAT16)
        gen_launch(ex, 1, GEN_BLOCK_NT, block_vcycle_kernel<gen_half>, *B, cached_coarse());
    else
        gen_launch(ex, 1, GEN_BLOCK_NT, block_vcycle_kernel<float>, *B, cached_coarse());
    HOMG_CUDA_LAUNCHED(ex, "gen block_vcycle_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_gen_residual_restrict(kernel_exec *ex, homg_precision p, const gen_level *L,
                                                       const gen_level *C, const void *u, const void *f, void *fc)
{
    unsigned b = stride_blocks(ex, gen_cells(C));
    GEN_UNI(L, {
        if (p == HOMG_FLOAT64)
            gen_launch(ex, b, NT, residual_restrict_kernel<double, U>, *L, *C, (const double *)u, (const double *)f,
                       (double *)fc);
        else if (p == HOMG_FLOAT16)
            gen_launch(ex, b, NT, residual_restrict_kernel<gen_half, U>, *L, *C, (const gen_half *)u,
                       (const gen_half *)f, (gen_half *)fc);
        else
            gen_launch(ex, b, NT, residual_restrict_kernel<float, U>, *L, *C, (const float *)u, (const float *)f,
                       (float *)fc);
    });
    HOMG_CUDA_LAUNCHED(ex, "gen residual_restrict_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_gen_prolong_add(kernel_exec *ex, homg_precision p, const gen_level *L,
                                                 const gen_level *C, const void *ec, void *u)
{
    unsigned b = stride_blocks(ex, gen_cells(L));
    if (p == HOMG_FLOAT64)
        gen_launch(ex, b, NT, prolong_add_kernel<double>, *L, *C, (const double *)ec, (double *)u);
    else if (p == HOMG_FLOAT16)
        gen_launch(ex, b, NT, prolong_add_kernel<gen_half>, *L, *C, (const gen_half *)ec, (gen_half *)u);
    else
        gen_launch(ex, b, NT, prolong_add_kernel<float>, *L, *C, (const float *)ec, (float *)u);
    HOMG_CUDA_LAUNCHED(ex, "gen prolong_add_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_gen_residual(kernel_exec *ex, homg_precision p, const gen_level *L, const gen_fine *F,
                                              const void *u, const void *f, void *r, double *rr)
{
    const size_t n = gen_cells(L);
    GEN_UNI(L, {
        if (p == HOMG_FLOAT64)
            gen_launch(ex, wave_blocks(ex, (const void *)residual_kernel<double, U>, n), NT, residual_kernel<double, U>,
                       *L, *F, (const double *)u, (const double *)f, (double *)r, rr);
        else if (p == HOMG_FLOAT16)
            gen_launch(ex, wave_blocks(ex, (const void *)residual_kernel<gen_half, U>, n), NT,
                       residual_kernel<gen_half, U>, *L, *F, (const gen_half *)u, (const gen_half *)f, (gen_half *)r,
                       rr);
        else
            gen_launch(ex, wave_blocks(ex, (const void *)residual_kernel<float, U>, n), NT, residual_kernel<float, U>,
                       *L, *F, (const float *)u, (const float *)f, (float *)r, rr);
    });
    HOMG_CUDA_LAUNCHED(ex, "gen residual_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_gen_apply(kernel_exec *ex, homg_precision p, const gen_level *L, const void *x,
                                           void *q, double *xq)
{
    const size_t n = gen_cells(L);
    GEN_UNI(L, {
        if (p == HOMG_FLOAT64)
            gen_launch(ex, wave_blocks(ex, (const void *)apply_kernel<double, U>, n), NT, apply_kernel<double, U>, *L,
                       (const double *)x, (double *)q, xq);
        else if (p == HOMG_FLOAT16)
            gen_launch(ex, wave_blocks(ex, (const void *)apply_kernel<gen_half, U>, n), NT, apply_kernel<gen_half, U>,
                       *L, (const gen_half *)x, (gen_half *)q, xq);
        else
            gen_launch(ex, wave_blocks(ex, (const void *)apply_kernel<float, U>, n), NT, apply_kernel<float, U>, *L,
                       (const float *)x, (float *)q, xq);
    });
    HOMG_CUDA_LAUNCHED(ex, "gen apply_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_gen_dot2(kernel_exec *ex, homg_precision p, size_t n, const void *a, const void *b,
                                          const void *c, double *out)
{
    const unsigned nb =
        wave_blocks(ex, p == HOMG_FLOAT64 ? (const void *)dot2_kernel<double> : (const void *)dot2_kernel<float>, n);
    if (p == HOMG_FLOAT64)
        gen_launch(ex, nb, NT, dot2_kernel<double>, n, (const double *)a, (const double *)b, (const double *)c, out);
    else if (p == HOMG_FLOAT16)
        gen_launch(ex, nb, NT, dot2_kernel<gen_half>, n, (const gen_half *)a, (const gen_half *)b, (const gen_half *)c,
                   out);
    else
        gen_launch(ex, nb, NT, dot2_kernel<float>, n, (const float *)a, (const float *)b, (const float *)c, out);
    HOMG_CUDA_LAUNCHED(ex, "gen dot2_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_gen_update_ur(kernel_exec *ex, homg_precision p, size_t n, const unsigned char *flag,
                                               void *u, const void *pv, void *r, const void *q, double *s)
{
    const unsigned b = wave_blocks(
        ex, p == HOMG_FLOAT64 ? (const void *)update_ur_kernel<double> : (const void *)update_ur_kernel<float>, n);
    if (p == HOMG_FLOAT64)
        gen_launch(ex, b, NT, update_ur_kernel<double>, n, flag, (double *)u, (const double *)pv, (double *)r,
                   (const double *)q, s);
    else if (p == HOMG_FLOAT16)
        gen_launch(ex, b, NT, update_ur_kernel<gen_half>, n, flag, (gen_half *)u, (const gen_half *)pv, (gen_half *)r,
                   (const gen_half *)q, s);
    else
        gen_launch(ex, b, NT, update_ur_kernel<float>, n, flag, (float *)u, (const float *)pv, (float *)r,
                   (const float *)q, s);
    HOMG_CUDA_LAUNCHED(ex, "gen update_ur_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_gen_zero_active(kernel_exec *ex, homg_precision p, size_t n, const unsigned char *flag,
                                                 void *u)
{
    unsigned b = stride_blocks(ex, n);
    if (p == HOMG_FLOAT64)
        gen_launch(ex, b, NT, zero_active_kernel<double>, n, flag, (double *)u);
    else if (p == HOMG_FLOAT16)
        gen_launch(ex, b, NT, zero_active_kernel<gen_half>, n, flag, (gen_half *)u);
    else
        gen_launch(ex, b, NT, zero_active_kernel<float>, n, flag, (float *)u);
    HOMG_CUDA_LAUNCHED(ex, "gen zero_active_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_gen_update_p(kernel_exec *ex, homg_precision p, size_t n, const void *z, void *pv,
                                              const double *s)
{
    unsigned b = stride_blocks(ex, n);
    if (p == HOMG_FLOAT64)
        gen_launch(ex, b, NT, update_p_kernel<double>, n, (const double *)z, (double *)pv, s);
    else if (p == HOMG_FLOAT16)
        gen_launch(ex, b, NT, update_p_kernel<gen_half>, n, (const gen_half *)z, (gen_half *)pv, s);
    else
        gen_launch(ex, b, NT, update_p_kernel<float>, n, (const float *)z, (float *)pv, s);
    HOMG_CUDA_LAUNCHED(ex, "gen update_p_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_gen_scalars(kernel_exec *ex, double *s, int step, int ref, double *hist, int *count)
{
    gen_launch(ex, 1, 1, scalars_kernel, s, step, ref, hist, count);
    HOMG_CUDA_LAUNCHED(ex, "gen scalars_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_gen_error_norm(kernel_exec *ex, homg_precision p, size_t n, const unsigned char *flag,
                                                const void *u, const void *ref, double *s)
{
    const unsigned b = wave_blocks(
        ex, p == HOMG_FLOAT64 ? (const void *)error_norm_kernel<double> : (const void *)error_norm_kernel<float>, n);
    if (p == HOMG_FLOAT64)
        gen_launch(ex, b, NT, error_norm_kernel<double>, n, flag, (const double *)u, (const double *)ref, s);
    else if (p == HOMG_FLOAT16)
        gen_launch(ex, b, NT, error_norm_kernel<gen_half>, n, flag, (const gen_half *)u, (const gen_half *)ref, s);
    else
        gen_launch(ex, b, NT, error_norm_kernel<float>, n, flag, (const float *)u, (const float *)ref, s);
    HOMG_CUDA_LAUNCHED(ex, "gen error_norm_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_gen_island_sum(kernel_exec *ex, homg_precision p, size_t n, const int *label,
                                                const void *x, double *sums)
{
    const unsigned b = wave_blocks(
        ex, p == HOMG_FLOAT64 ? (const void *)island_sum_kernel<double> : (const void *)island_sum_kernel<float>, n);
    if (p == HOMG_FLOAT64)
        gen_launch(ex, b, NT, island_sum_kernel<double>, n, label, (const double *)x, sums);
    else if (p == HOMG_FLOAT16)
        gen_launch(ex, b, NT, island_sum_kernel<gen_half>, n, label, (const gen_half *)x, sums);
    else
        gen_launch(ex, b, NT, island_sum_kernel<float>, n, label, (const float *)x, sums);
    HOMG_CUDA_LAUNCHED(ex, "gen island_sum_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_gen_island_sub(kernel_exec *ex, homg_precision p, size_t n, const int *label, void *x,
                                                const double *sums, const double *inv_count, int nislands, double *proj)
{
    unsigned b = stride_blocks(ex, n);
    if (p == HOMG_FLOAT64)
        gen_launch(ex, b, NT, island_sub_kernel<double>, n, label, (double *)x, sums, inv_count);
    else if (p == HOMG_FLOAT16)
        gen_launch(ex, b, NT, island_sub_kernel<gen_half>, n, label, (gen_half *)x, sums, inv_count);
    else
        gen_launch(ex, b, NT, island_sub_kernel<float>, n, label, (float *)x, sums, inv_count);
    HOMG_CUDA_LAUNCHED(ex, "gen island_sub_kernel");
    if (proj) {
        gen_launch(ex, 1, 1, island_max_kernel, sums, inv_count, nislands, proj);
        HOMG_CUDA_LAUNCHED(ex, "gen island_max_kernel");
    }
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_gen_check_operator(kernel_exec *ex, homg_precision p, size_t n, const void *sigma,
                                                    const void *lambda, const unsigned char *flags, long long *bad)
{
    unsigned b = stride_blocks(ex, n);
    if (p == HOMG_FLOAT64)
        gen_launch(ex, b, NT, check_operator_kernel<double>, n, (const double *)sigma, (const double *)lambda, flags,
                   (unsigned long long *)bad);
    else
        gen_launch(ex, b, NT, check_operator_kernel<float>, n, (const float *)sigma, (const float *)lambda, flags,
                   (unsigned long long *)bad);
    HOMG_CUDA_LAUNCHED(ex, "gen check_operator_kernel");
    return HOMG_OK;
}

__global__ void nonfinite_h_kernel(size_t n, const unsigned short *x, unsigned long long *flag)
{
    homg_pdl_wait();
    for (size_t k = blockIdx.x * (size_t)NT + threadIdx.x; k < n; k += (size_t)gridDim.x * NT)
        if ((x[k] & 0x7c00u) == 0x7c00u) /* exponent all ones: inf or NaN */
            atomicCAS(flag, 0ull, (unsigned long long)k + 1);
}

extern "C" homg_status homg_cuda_gen_nonfinite_h(kernel_exec *ex, size_t n, const void *x, long long *flag)
{
    gen_launch(ex, stride_blocks(ex, n), NT, nonfinite_h_kernel, n, (const unsigned short *)x,
               (unsigned long long *)flag);
    HOMG_CUDA_LAUNCHED(ex, "gen nonfinite_h_kernel");
    return HOMG_OK;
}

extern "C" size_t homg_cuda_gen_memory_available(kernel_exec *ex) { return homg_cuda_free_bytes(ex, NULL); }

extern "C" const gen_kernels homg_cuda_gen_kernels = { .name = "cuda", GEN_KERNELS(HOMG_KERNEL_CUDA_INIT) };
