/* grid_fused.cu -- the multigrid down and up steps, each one pass over memory
 * (twin: the compositions in kernels/grid/grid.c's cpu_smooth_restrict and
 * cpu_prolong_smooth).
 *
 * Temporal blocking: a block owns an output tile of TW x TH cells and loads the
 * tile plus a halo of H cells (clipped to the domain) into shared memory.
 * Half-sweep t (t = 1..2S) of red-black Gauss-Seidel updates the region grown by
 * H - t cells, so after 2S half-sweeps the tile grown by one cell holds exactly
 * what global sweeps give; the down step then needs H = 2S + 1 for the residual,
 * the up step H = 2S.  Halo cells are recomputed by neighbouring blocks (1.25x
 * the updates for S = 2), but device memory sees each array once.  The steps
 * are out of place (u_in -> u_out): a block reads its halo from u_in while its
 * neighbours write their tiles, so an in-place update would race.
 *   down: read u (not for INIT_ZERO; INIT_PROLONG reads the quarter-size coarse
 *         array instead), read f, write u, write the quarter-size fc;
 *   up:   read u, the coarse correction, f; write u.
 * S is a template parameter, so the box has a compile-time shape: each thread
 * issues all its loads of a row band before storing to shared memory.  The loops
 * over row bands, half-sweeps and coarse cells stay rolled (unrolled, S = 2 came
 * to 91 KB of SASS, rolled 18 KB): on the H100 that took the small levels' kernels
 * from 9.4-10.9 to 8.5-8.7 us and the 1024^2 down step from 29 to 24 us (ncu,
 * bench/results/h100_box_s5.md).
 *
 * Boundary handling: cells outside the domain hold 0 in shared memory, so the
 * stencil sum needs no tests; a cell on the domain edge has the larger diagonal
 * (4 + edges)/h^2 + lambda and the data term 2g/h^2 (edge cells only).  Blocks
 * whose box touches no domain edge take a branch-free path.
 *
 * Three tile shapes (issue 12): the big tile (64 x 32 in float32) where a level has
 * many tiles, the small one (32 x 16) on smaller levels, where a block's serial
 * work is the time (ncu: one 64 x 32 tile per SM took 17 us at 256^2; a 32 x 16
 * tile still takes ~8.6 us, the floor of a fused level).  A level of at most
 * HOMG_BOX_TILE_CELLS cells (1024^2 by default) takes the small tile: on the H100
 * a cycle takes 14-39% less time than with the big tile everywhere.  A level of at
 * most HOMG_BOX_WIDE_CELLS (512^2) takes the wide tile: the small one with 1024
 * threads (float64: 512), since 8 warps per SM hid little of that serial work.
 * Both kernels use programmatic dependent launch (as kernels/grid/gen.cu): each
 * waits at its first line for the kernel before it, then lets the next one launch
 * (HOMG_BOX_PDL=0: plain launches; measured the same within 2%, since the time is
 * the kernels' own latency, not the gaps).  These choices come with the level
 * (grid_kernels.h grid_tune, read by lib/grid/box.c; benchmark knobs, not documented
 * settings).
 *
 * float32 levels of at least 1024^2 cells (nx a multiple of 4, 1-2 sweeps, 16-byte
 * aligned arrays) take the row-block kernels of grid_rows.cu instead (4096^2 on the
 * H100: 0.963 ms a solve against 1.451 with the streamed kernels that took those
 * levels before and were 6-13% faster a step at 4096^2 than these tiles;
 * bench/results/h100.md, sessions 7 and 11 twod2; the streamed kernels were removed in
 * s15-tidy2).
 *
 * Arithmetic is in the storage type.  The residual is formed from neighbour
 * differences, f + (sum (u_nb - u_c)) / h^2 - lambda u_c: a difference of two
 * nearby floats is exact, so the cancellation that makes f - A u inaccurate in
 * float32 (kernels/grid/grid_kernels.h) happens where it costs nothing.  The CPU twin
 * computes in double; the two agree to float rounding. */
#include "core/cuda_check.h"
#include "core/pdl.cuh"
#include "grid_owned.cuh"
#include "grid_point.cuh"
#include "grid_rows.cuh"

#include <stdlib.h>
#include <string.h>

#define BX 32

/* Tile heights: shared memory stays under the 48 KB default for both precisions.
 * BY: the block is BX x BY threads.  The wide tile is the small one with four
 * times the threads: a small level's kernel is a serial chain of loads, barriers
 * and dependent arithmetic in each block (8 warps per SM hide little latency), so
 * 32 warps that each do a quarter of it shorten the chain. */
template <typename T> struct tile_big {
    enum { TW = 64, TH = sizeof(T) == 4 ? 32 : 16, BY = 8 };
};
template <typename T> struct tile_small {
    enum { TW = 32, TH = sizeof(T) == 4 ? 16 : 8, BY = 8 };
};
template <typename T> struct tile_wide {
    enum { TW = 32, TH = sizeof(T) == 4 ? 16 : 8, BY = sizeof(T) == 4 ? 32 : 16 };
};

/* The box of halo H around a TW_ x TH_ tile: compile-time sizes. */
template <int TW_, int TH_, int H, int BY_> struct box {
    enum {
        TW = TW_,
        TH = TH_,
        BY = BY_,
        W = TW_ + 2 * H,
        HT = TH_ + 2 * H,
        ROWS = (HT + BY_ - 1) / BY_,
        COLS = (W + BX - 1) / BX
    };
};

struct tile_pos {
    int x0, y0;         /* global coordinates of local (0, 0) */
    int i0, i1, j0, j1; /* the part of the box inside the domain: [i0, i1) x [j0, j1) */
    bool interior;      /* no cell of the box is on the domain edge */
};

template <typename B, int H> __device__ __forceinline__ tile_pos tile_setup(const grid_level &L)
{
    tile_pos t;
    t.x0 = blockIdx.x * B::TW - H;
    t.y0 = blockIdx.y * B::TH - H;
    t.i0 = max(0, -t.x0);
    t.j0 = max(0, -t.y0);
    t.i1 = min((int)B::W, L.nx - t.x0);
    t.j1 = min((int)B::HT, L.ny - t.y0);
    t.interior = t.x0 >= 1 && t.y0 >= 1 && t.x0 + B::W <= L.nx - 1 && t.y0 + B::HT <= L.ny - 1;
    return t;
}

/* init: HOMG_INIT_KEEP (u), _ZERO, _PROLONG (P ec); add_ec: u += P add_ec. */
template <typename T, typename B>
__device__ __forceinline__ void load_tile(const grid_level &L, const tile_pos &t, T *su, T *sf, const T *__restrict__ u,
                                          const T *__restrict__ f, int init, const T *__restrict__ ec,
                                          const T *__restrict__ add_ec)
{
    const int ncx = L.nx / 2, ncy = L.ny / 2;
#pragma unroll 1
    for (int r = 0; r < B::ROWS; r++) {
        const int lj = threadIdx.y + B::BY * r;
        T uv[B::COLS], fv[B::COLS];
#pragma unroll
        for (int c = 0; c < B::COLS; c++) {
            const int li = threadIdx.x + BX * c, gi = t.x0 + li, gj = t.y0 + lj;
            uv[c] = 0;
            fv[c] = 0;
            if (li < B::W && lj < B::HT && li >= t.i0 && li < t.i1 && lj >= t.j0 && lj < t.j1) {
                const size_t g = (size_t)gj * L.nx + gi;
                fv[c] = f[g];
                if (init == HOMG_INIT_KEEP)
                    uv[c] = u[g];
                else if (init == HOMG_INIT_PROLONG)
                    uv[c] = prolong_t<T>(ec, gi, gj, ncx, ncy);
                if (add_ec)
                    uv[c] += prolong_t<T>(add_ec, gi, gj, ncx, ncy);
            }
        }
#pragma unroll
        for (int c = 0; c < B::COLS; c++) {
            const int li = threadIdx.x + BX * c;
            if (li < B::W && lj < B::HT) {
                su[lj * B::W + li] = uv[c];
                sf[lj * B::W + li] = fv[c];
            }
        }
    }
    __syncthreads();
}

/* Half-sweeps 1..2S on the shrinking region, clipped to the domain.  The edge
 * cells' inverse diagonals (1 or 2 edges; 3 or 4 only where a side is 1) are
 * computed once, not a float64 division per edge cell and half-sweep. */
template <typename T, typename B, int S, bool INTERIOR>
__device__ __forceinline__ void sweep_tile(const grid_level &L, const tile_pos &t, T *su, const T *sf)
{
    const T ih2 = (T)L.inv_h2, idiag = (T)(1.0 / (4 * L.inv_h2 + L.lambda));
    const T id1 = INTERIOR ? idiag : (T)(1.0 / (5 * L.inv_h2 + L.lambda));
    const T id2 = INTERIOR ? idiag : (T)(1.0 / (6 * L.inv_h2 + L.lambda));
    const int par = (t.x0 + t.y0) & 1;
#pragma unroll 1
    for (int s = 1; s <= 2 * S; s++) {
        const int colour = (s - 1) & 1;
        const int a = INTERIOR ? s : max(s, t.i0), b = INTERIOR ? B::W - s : min(B::W - s, t.i1);
        const int c = INTERIOR ? s : max(s, t.j0), d = INTERIOR ? B::HT - s : min(B::HT - s, t.j1);
#pragma unroll 1
        for (int lj = c + threadIdx.y; lj < d; lj += B::BY) {
            const int li0 = a + ((a + lj + par + colour) & 1);
#pragma unroll 1
            for (int li = li0 + 2 * threadIdx.x; li < b; li += 2 * BX) {
                const int k = lj * B::W + li;
                T rhs = sf[k] + ih2 * ((su[k - 1] + su[k + 1]) + (su[k - B::W] + su[k + B::W]));
                T id = idiag;
                if (!INTERIOR) {
                    const int gi = t.x0 + li, gj = t.y0 + lj;
                    const int e = homg_edges_touched(gi, gj, L.nx, L.ny);
                    if (e) {
                        rhs += (T)bterm_at<T>(L, gi, gj);
                        id = e == 1 ? id1 : e == 2 ? id2 : (T)(1.0 / ((4 + e) * L.inv_h2 + L.lambda));
                    }
                }
                su[k] = rhs * id;
            }
        }
        __syncthreads();
    }
}

template <typename T, typename B, int H>
__device__ __forceinline__ void store_tile(const grid_level &L, const tile_pos &t, const T *su, T *__restrict__ u)
{
#pragma unroll
    for (int r = 0; r < (B::TH + B::BY - 1) / B::BY; r++)
#pragma unroll
        for (int c = 0; c < B::TW / BX; c++) {
            const int li = H + threadIdx.x + BX * c, lj = H + threadIdx.y + B::BY * r;
            if (lj >= H + B::TH)
                continue;
            const int gi = t.x0 + li, gj = t.y0 + lj;
            if (gi < L.nx && gj < L.ny)
                u[(size_t)gj * L.nx + gi] = su[lj * B::W + li];
        }
}

/* f + bterm - A u at local (li, lj), from exact neighbour differences. */
template <typename T, typename B>
__device__ __forceinline__ T tile_residual(const grid_level &L, const tile_pos &t, const T *su, const T *sf, int li,
                                           int lj)
{
    const int k = lj * B::W + li;
    const T c = su[k], ih2 = (T)L.inv_h2;
    if (t.interior)
        return sf[k] + ih2 * (((su[k - 1] - c) + (su[k + 1] - c)) + ((su[k - B::W] - c) + (su[k + B::W] - c))) -
               (T)L.lambda * c;
    /* at the domain edge an outside neighbour is the ghost -c (homogeneous part) */
    const int gi = t.x0 + li, gj = t.y0 + lj;
    T d = (gi > 0 ? su[k - 1] - c : -2 * c) + (gi < L.nx - 1 ? su[k + 1] - c : -2 * c) +
          (gj > 0 ? su[k - B::W] - c : -2 * c) + (gj < L.ny - 1 ? su[k + B::W] - c : -2 * c);
    T r = sf[k] + ih2 * d - (T)L.lambda * c;
    if (homg_edges_touched(gi, gj, L.nx, L.ny))
        r += (T)bterm_at<T>(L, gi, gj);
    return r;
}

template <typename T, int S, typename Tile>
__global__ void __launch_bounds__(BX *Tile::BY)
    smooth_restrict_kernel(grid_level L, const T *__restrict__ u, T *__restrict__ u_out, const T *__restrict__ f,
                           T *__restrict__ fc, int init, const T *__restrict__ ec)
{
    enum { H = 2 * S + 1, CW = Tile::TW / 2, CH = Tile::TH / 2 };
    typedef box<Tile::TW, Tile::TH, H, Tile::BY> B;
    __shared__ T su[B::W * B::HT], sf[B::W * B::HT];
    homg_pdl_wait(); /* no-op for a plain launch */
    const tile_pos t = tile_setup<B, H>(L);
    load_tile<T, B>(L, t, su, sf, u, f, init, ec, (const T *)NULL);
    if (t.interior)
        sweep_tile<T, B, S, true>(L, t, su, sf);
    else
        sweep_tile<T, B, S, false>(L, t, su, sf);

    /* residual of the tile averaged over 2x2 children: thread q owns coarse cells
     * q, q + 256, ... of the tile's CW x CH (row-major) */
    const int ncx = L.nx / 2, ncy = L.ny / 2;
#pragma unroll 1
    for (int q = threadIdx.y * BX + threadIdx.x; q < CW * CH; q += BX * B::BY) {
        const int ci = q % CW, cj = q / CW;
        const int I = blockIdx.x * CW + ci, J = blockIdx.y * CH + cj;
        if (I >= ncx || J >= ncy)
            continue;
        const int li = H + 2 * ci, lj = H + 2 * cj;
        T s = (tile_residual<T, B>(L, t, su, sf, li, lj) + tile_residual<T, B>(L, t, su, sf, li + 1, lj)) +
              (tile_residual<T, B>(L, t, su, sf, li, lj + 1) + tile_residual<T, B>(L, t, su, sf, li + 1, lj + 1));
        fc[(size_t)J * ncx + I] = (T)0.25 * s;
    }
    store_tile<T, B, H>(L, t, su, u_out);
}

template <typename T, int S, typename Tile>
__global__ void __launch_bounds__(BX *Tile::BY)
    prolong_smooth_kernel(grid_level L, const T *__restrict__ ec, const T *__restrict__ u, T *__restrict__ u_out,
                          const T *__restrict__ f, int assign)
{
    enum { H = 2 * S };
    typedef box<Tile::TW, Tile::TH, H, Tile::BY> B;
    __shared__ T su[B::W * B::HT], sf[B::W * B::HT];
    homg_pdl_wait(); /* no-op for a plain launch */
    const tile_pos t = tile_setup<B, H>(L);
    if (assign)
        load_tile<T, B>(L, t, su, sf, u, f, HOMG_INIT_PROLONG, ec, (const T *)NULL);
    else
        load_tile<T, B>(L, t, su, sf, u, f, HOMG_INIT_KEEP, (const T *)NULL, ec);
    if (t.interior)
        sweep_tile<T, B, S, true>(L, t, su, sf);
    else
        sweep_tile<T, B, S, false>(L, t, su, sf);
    store_tile<T, B, H>(L, t, su, u_out);
}

/* The level's launch choices (grid_kernels.h grid_tune: lib/grid/box.c reads them once;
 * a level without them takes the defaults). */
static grid_tune tune_of(const grid_level *L) { return L->tune ? *L->tune : homg_grid_tune_default(); }

/* The owned-cell steps of grid_owned.cu on levels up to tune.owned_cells (0: the tiles below). */
static int owned_at(const grid_level *L, int sweeps)
{
    return sweeps >= 0 && sweeps <= HOMG_OWNED_MAX_SWEEPS && (double)L->nx * L->ny <= tune_of(L).owned_cells;
}

/* 0: big tile, 1: small, 2: wide */
static int tile_kind(const grid_level *L)
{
    const double n = (double)L->nx * L->ny;
    const grid_tune t = tune_of(L);
    if (n <= t.wide_cells)
        return 2;
    return n <= t.tile_cells ? 1 : 0;
}

/* Programmatic stream serialisation unless the level's tune says plain launches. */
static int pdl_of(const grid_level *L) { return tune_of(L).pdl; }

/* An error stays for HOMG_CUDA_LAUNCHED. */
template <typename... K, typename... A>
static void fused_launch(cudaStream_t st, const grid_level *L, dim3 grid, int by, void (*kernel)(K...), A... args)
{
    homg_pdl_launch(st, grid, dim3(BX, by), pdl_of(L), kernel, args...);
}

template <typename Tile> static dim3 tiles(const grid_level *L)
{
    return dim3((L->nx + Tile::TW - 1) / Tile::TW, (L->ny + Tile::TH - 1) / Tile::TH);
}

template <typename T, int S, typename Tile>
static void launch_down_t(cudaStream_t st, const grid_level *L, const void *u, void *u_out, const void *f, void *fc,
                          int init, const void *ec)
{
    fused_launch(st, L, tiles<Tile>(L), Tile::BY, smooth_restrict_kernel<T, S, Tile>, *L, (const T *)u, (T *)u_out,
                 (const T *)f, (T *)fc, init, (const T *)ec);
}

template <typename T, int S>
static void launch_down_s(cudaStream_t st, const grid_level *L, const void *u, void *u_out, const void *f, void *fc,
                          int init, const void *ec)
{
    const int kind = tile_kind(L);
    if (kind == 2)
        launch_down_t<T, S, tile_wide<T>>(st, L, u, u_out, f, fc, init, ec);
    else if (kind == 1)
        launch_down_t<T, S, tile_small<T>>(st, L, u, u_out, f, fc, init, ec);
    else
        launch_down_t<T, S, tile_big<T>>(st, L, u, u_out, f, fc, init, ec);
}

template <typename T, int S, typename Tile>
static void launch_up_t(cudaStream_t st, const grid_level *L, const void *ec, const void *u, void *u_out, const void *f,
                        int assign)
{
    fused_launch(st, L, tiles<Tile>(L), Tile::BY, prolong_smooth_kernel<T, S, Tile>, *L, (const T *)ec, (const T *)u,
                 (T *)u_out, (const T *)f, assign);
}

template <typename T, int S>
static void launch_up_s(cudaStream_t st, const grid_level *L, const void *ec, const void *u, void *u_out, const void *f,
                        int assign)
{
    const int kind = tile_kind(L);
    if (kind == 2)
        launch_up_t<T, S, tile_wide<T>>(st, L, ec, u, u_out, f, assign);
    else if (kind == 1)
        launch_up_t<T, S, tile_small<T>>(st, L, ec, u, u_out, f, assign);
    else
        launch_up_t<T, S, tile_big<T>>(st, L, ec, u, u_out, f, assign);
}

/* Sweeps 0..3 are compiled in (shared memory bounds the halo). */
#define HOMG_FUSED_MAX_SWEEPS 3

template <typename T>
static homg_status launch_down(kernel_exec *ex, const grid_level *L, const void *u, void *u_out, const void *f,
                               void *fc, int sweeps, int init, const void *ec)
{
    cudaStream_t st = homg_cuda_stream(ex);
    if (u == u_out)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "fused steps are out of place: u_in == u_out");
    const void *ptrs[4] = { init == HOMG_INIT_KEEP ? u : NULL, u_out, f, fc };
    if (sizeof(T) == 4 && homg_rows_fits(L, sweeps, ptrs, 4)) { /* float32 levels from 1024^2: grid_rows.cu */
        homg_rows_down(st, pdl_of(L), L, (const float *)u, (float *)u_out, (const float *)f, (float *)fc, sweeps, init,
                       (const float *)ec);
        HOMG_CUDA_LAUNCHED(ex, "rows_kernel (down)");
        return HOMG_OK;
    }
    if (owned_at(L, sweeps)) {
        homg_owned_down(st, pdl_of(L), (int)sizeof(T), L, u, u_out, f, fc, sweeps, init, ec);
        HOMG_CUDA_LAUNCHED(ex, "owned_down_kernel");
        return HOMG_OK;
    }
    switch (sweeps) {
    case 0: launch_down_s<T, 0>(st, L, u, u_out, f, fc, init, ec); break;
    case 1: launch_down_s<T, 1>(st, L, u, u_out, f, fc, init, ec); break;
    case 2: launch_down_s<T, 2>(st, L, u, u_out, f, fc, init, ec); break;
    case 3: launch_down_s<T, 3>(st, L, u, u_out, f, fc, init, ec); break;
    default:
        return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "fused steps take at most %d sweeps, not %d",
                              HOMG_FUSED_MAX_SWEEPS, sweeps);
    }
    HOMG_CUDA_LAUNCHED(ex, "smooth_restrict_kernel");
    return HOMG_OK;
}

template <typename T>
static homg_status launch_up(kernel_exec *ex, const grid_level *L, const void *ec, const void *u, void *u_out,
                             const void *f, int sweeps, int assign)
{
    cudaStream_t st = homg_cuda_stream(ex);
    if (u == u_out)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "fused steps are out of place: u_in == u_out");
    const void *ptrs[3] = { assign ? NULL : u, u_out, f };
    if (sizeof(T) == 4 && homg_rows_fits(L, sweeps, ptrs, 3)) {
        homg_rows_up(st, pdl_of(L), L, (const float *)ec, (const float *)u, (float *)u_out, (const float *)f, sweeps,
                     assign);
        HOMG_CUDA_LAUNCHED(ex, "rows_kernel (up)");
        return HOMG_OK;
    }
    if (owned_at(L, sweeps)) {
        homg_owned_up(st, pdl_of(L), (int)sizeof(T), L, ec, u, u_out, f, sweeps, assign);
        HOMG_CUDA_LAUNCHED(ex, "owned_up_kernel");
        return HOMG_OK;
    }
    switch (sweeps) {
    case 0: launch_up_s<T, 0>(st, L, ec, u, u_out, f, assign); break;
    case 1: launch_up_s<T, 1>(st, L, ec, u, u_out, f, assign); break;
    case 2: launch_up_s<T, 2>(st, L, ec, u, u_out, f, assign); break;
    case 3: launch_up_s<T, 3>(st, L, ec, u, u_out, f, assign); break;
    default:
        return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "fused steps take at most %d sweeps, not %d",
                              HOMG_FUSED_MAX_SWEEPS, sweeps);
    }
    HOMG_CUDA_LAUNCHED(ex, "prolong_smooth_kernel");
    return HOMG_OK;
}

homg_status homg_cuda_grid_smooth_restrict(kernel_exec *ex, homg_precision p, const grid_level *L, const void *u_in,
                                           void *u_out, const void *f, void *fc, int sweeps, int init, const void *ec)
{
    return p == HOMG_FLOAT64 ? launch_down<double>(ex, L, u_in, u_out, f, fc, sweeps, init, ec)
                             : launch_down<float>(ex, L, u_in, u_out, f, fc, sweeps, init, ec);
}

homg_status homg_cuda_grid_prolong_smooth(kernel_exec *ex, homg_precision p, const grid_level *L, const void *ec,
                                          const void *u_in, void *u_out, const void *f, int sweeps, int assign)
{
    return p == HOMG_FLOAT64 ? launch_up<double>(ex, L, ec, u_in, u_out, f, sweeps, assign)
                             : launch_up<float>(ex, L, ec, u_in, u_out, f, sweeps, assign);
}

/* The mid step: float32 levels the row blocks take (grid_rows.cu) with 1..3 sweeps; where
 * the caller fuses a boundary is its rule (lib/grid/box.c, HOMG_BOX_MID_CELLS), the same on
 * every backend. */
int homg_cuda_grid_mid_fits(homg_precision p, const grid_level *L, int sweeps, const void *const ptrs[4])
{
    return p == HOMG_FLOAT32 && ptrs[0] != ptrs[1] && homg_rows_mid_fits(L, sweeps, ptrs, 4);
}

homg_status homg_cuda_grid_prolong_smooth_restrict(kernel_exec *ex, homg_precision p, const grid_level *L,
                                                   const void *ec, const void *u_in, void *u_out, const void *f,
                                                   void *fc, int sweeps)
{
    const void *ptrs[4] = { u_in, u_out, f, fc };
    if (!homg_cuda_grid_mid_fits(p, L, sweeps, ptrs))
        return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "no mid step for a %d x %d level with %d sweeps", L->nx,
                              L->ny, sweeps);
    homg_rows_mid(homg_cuda_stream(ex), pdl_of(L), L, (const float *)ec, (const float *)u_in, (float *)u_out,
                  (const float *)f, (float *)fc, sweeps);
    HOMG_CUDA_LAUNCHED(ex, "rows_kernel (mid)");
    return HOMG_OK;
}
