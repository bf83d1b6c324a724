/* grid_owned.cu -- the fused down and up steps of grid_fused.cu for small levels,
 * where a step's time is one block's chain of barrier-separated phases, not bytes
 * (issue 12, the latency regime; twin: kernels/grid/grid.c's cpu_smooth_restrict
 * and cpu_prolong_smooth, as for the tile steps).
 *
 * Same temporal blocking as grid_fused.cu (a 32 x TH tile, halo H = 2S + 1 down,
 * 2S up, half-sweeps on the shrinking region, out of place), but every cell of the
 * box is owned by one thread for the whole kernel: thread (x, y) owns box row y,
 * columns x and x + 32, and one thread row per box row (32 x (TH + 2H) threads).
 * A thread works out once, before it waits for the previous kernel (programmatic
 * dependent launch), which half-sweeps update each of its cells, their shared
 * memory index and inverse diagonal; after the wait it keeps f, the boundary term
 * and its cells' values in registers.  A half-sweep is then four shared loads, a
 * multiply-add and a store per updated cell; the tile kernels' rolled loops
 * recompute region bounds, indices, edges and boundary terms in every half-sweep.
 * The residual of each tile cell is formed by its owner (512 threads, one cell
 * each, instead of 128 threads with four), then summed over 2 x 2 children.
 * Arithmetic and order of terms are the tile kernels' (sweep_tile, tile_residual),
 * so both give the same values.  Two blocks a streaming multiprocessor (launch bounds):
 * the next kernel's block, launched early, waits beside the running one (float32
 * V(2,2): 32-40 registers, no spills). */
#include "core/pdl.cuh"
#include "grid_owned.cuh"
#include "grid_point.cuh"

namespace
{

enum { OX = 32 };

/* A 32 x TH tile with halo H; one thread row per box row, COLS cells a thread. */
template <typename T, int H> struct obox {
    enum {
        TW = 32,
        TH = sizeof(T) == 4 ? 16 : 8,
        W = TW + 2 * H,
        HT = TH + 2 * H,
        COLS = (W + OX - 1) / OX,
        THREADS = OX * HT
    };
};

/* One owned cell: where it is and what its updates need. */
template <typename T> struct ocell {
    int k;          /* index in the shared box; -1: no cell (beyond the box's width) */
    int gi, gj;     /* global coordinates */
    unsigned when;  /* bit s: updated in half-sweep s (1..2S) */
    bool dom, tile; /* inside the domain; in the output tile (and the domain) */
    int e;          /* domain edges touched */
    T id, f, bt, u; /* inverse diagonal, right-hand side, boundary term, value */
};

/* Kernel parameters only (before the wait): positions, sweep masks, diagonals. */
template <typename T, typename B, int H, int S>
__device__ __forceinline__ void owned_setup(const grid_level &L, int x0, int y0, ocell<T> *c)
{
    const T idiag = (T)(1.0 / (4 * L.inv_h2 + L.lambda)), id1 = (T)(1.0 / (5 * L.inv_h2 + L.lambda));
    const T id2 = (T)(1.0 / (6 * L.inv_h2 + L.lambda));
    const int par = (x0 + y0) & 1, lj = threadIdx.y;
#pragma unroll
    for (int q = 0; q < B::COLS; q++) {
        const int li = threadIdx.x + OX * q;
        ocell<T> &o = c[q];
        o.gi = x0 + li;
        o.gj = y0 + lj;
        o.k = li < B::W ? lj * B::W + li : -1;
        o.dom = li < B::W && o.gi >= 0 && o.gi < L.nx && o.gj >= 0 && o.gj < L.ny;
        o.tile = o.dom && li >= H && li < H + B::TW && lj >= H && lj < H + B::TH;
        const int dist = min(min(li, B::W - 1 - li), min(lj, B::HT - 1 - lj)), colour = (li + lj + par) & 1;
        o.when = 0;
#pragma unroll
        for (int s = 1; s <= 2 * S; s++)
            if (o.dom && s <= dist && ((s - 1) & 1) == colour)
                o.when |= 1u << s;
        o.e = o.dom ? homg_edges_touched(o.gi, o.gj, L.nx, L.ny) : 0;
        o.id = o.e == 0 ? idiag : o.e == 1 ? id1 : o.e == 2 ? id2 : (T)(1.0 / ((4 + o.e) * L.inv_h2 + L.lambda));
        o.f = o.bt = o.u = 0;
    }
}

/* After the wait: f, the boundary term and the starting value (init as the tile
 * kernels' load_tile; add_ec: u += P add_ec) into registers and shared memory. */
template <typename T, typename B>
__device__ __forceinline__ void owned_load(const grid_level &L, ocell<T> *c, T *su, const T *__restrict__ u,
                                           const T *__restrict__ f, int init, const T *__restrict__ ec,
                                           const T *__restrict__ add_ec)
{
    const int ncx = L.nx / 2, ncy = L.ny / 2;
#pragma unroll
    for (int q = 0; q < B::COLS; q++) {
        ocell<T> &o = c[q];
        if (o.dom) {
            const size_t g = (size_t)o.gj * L.nx + o.gi;
            o.f = f[g];
            if (init == HOMG_INIT_KEEP)
                o.u = u[g];
            else if (init == HOMG_INIT_PROLONG)
                o.u = prolong_t<T>(ec, o.gi, o.gj, ncx, ncy);
            if (add_ec)
                o.u += prolong_t<T>(add_ec, o.gi, o.gj, ncx, ncy);
            if (o.e)
                o.bt = (T)bterm_at<T>(L, o.gi, o.gj);
        }
    }
#pragma unroll
    for (int q = 0; q < B::COLS; q++)
        if (c[q].k >= 0)
            su[c[q].k] = c[q].u;
    __syncthreads();
}

/* Half-sweeps 1..2S: each thread updates the cells its masks name. */
template <typename T, typename B, int S>
__device__ __forceinline__ void owned_sweeps(const grid_level &L, ocell<T> *c, T *su)
{
    const T ih2 = (T)L.inv_h2;
#pragma unroll
    for (int s = 1; s <= 2 * S; s++) {
#pragma unroll
        for (int q = 0; q < B::COLS; q++) {
            ocell<T> &o = c[q];
            if (o.when & (1u << s)) {
                const int k = o.k;
                T rhs = o.f + ih2 * ((su[k - 1] + su[k + 1]) + (su[k - B::W] + su[k + B::W]));
                if (o.e)
                    rhs += o.bt;
                o.u = rhs * o.id;
                su[k] = o.u;
            }
        }
        __syncthreads();
    }
}

/* f + bterm - A u of an owned tile cell, as tile_residual in grid_fused.cu (the same
 * formula for the same blocks, so the same rounding). */
template <typename T, typename B>
__device__ __forceinline__ T owned_residual(const grid_level &L, const ocell<T> &o, const T *su, bool interior)
{
    const int k = o.k;
    const T cu = o.u, ih2 = (T)L.inv_h2;
    if (interior)
        return o.f + ih2 * (((su[k - 1] - cu) + (su[k + 1] - cu)) + ((su[k - B::W] - cu) + (su[k + B::W] - cu))) -
               (T)L.lambda * cu;
    T d = (o.gi > 0 ? su[k - 1] - cu : -2 * cu) + (o.gi < L.nx - 1 ? su[k + 1] - cu : -2 * cu) +
          (o.gj > 0 ? su[k - B::W] - cu : -2 * cu) + (o.gj < L.ny - 1 ? su[k + B::W] - cu : -2 * cu);
    T r = o.f + ih2 * d - (T)L.lambda * cu;
    if (o.e)
        r += o.bt;
    return r;
}

template <typename T, typename B>
__device__ __forceinline__ void owned_store(const grid_level &L, const ocell<T> *c, T *__restrict__ u_out)
{
#pragma unroll
    for (int q = 0; q < B::COLS; q++)
        if (c[q].tile)
            u_out[(size_t)c[q].gj * L.nx + c[q].gi] = c[q].u;
}

template <typename T, int S>
__global__ void __launch_bounds__(obox<T, 2 * S + 1>::THREADS, 2)
    owned_down_kernel(grid_level L, const T *__restrict__ u, T *__restrict__ u_out, const T *__restrict__ f,
                      T *__restrict__ fc, int init, const T *__restrict__ ec)
{
    enum { H = 2 * S + 1 };
    typedef obox<T, H> B;
    enum { CW = B::TW / 2, CH = B::TH / 2 };
    __shared__ T su[B::W * B::HT], sr[B::TW * B::TH];
    ocell<T> c[B::COLS];
    const int x0 = blockIdx.x * B::TW - H, y0 = blockIdx.y * B::TH - H;
    const bool interior = x0 >= 1 && y0 >= 1 && x0 + B::W <= L.nx - 1 && y0 + B::HT <= L.ny - 1;
    owned_setup<T, B, H, S>(L, x0, y0, c);
    homg_pdl_wait(); /* no-op for a plain launch */
    owned_load<T, B>(L, c, su, u, f, init, ec, (const T *)NULL);
    owned_sweeps<T, B, S>(L, c, su);
#pragma unroll
    for (int q = 0; q < B::COLS; q++)
        if (c[q].tile)
            sr[(threadIdx.y - H) * B::TW + (threadIdx.x + OX * q - H)] = owned_residual<T, B>(L, c[q], su, interior);
    __syncthreads();
    /* the residual averaged over 2 x 2 children: one coarse cell a thread */
    const int ncx = L.nx / 2, ncy = L.ny / 2;
    for (int q = threadIdx.y * OX + threadIdx.x; q < CW * CH; q += B::THREADS) {
        const int ci = q % CW, cj = q / CW, I = blockIdx.x * CW + ci, J = blockIdx.y * CH + cj;
        if (I >= ncx || J >= ncy)
            continue;
        const T *r = sr + 2 * cj * B::TW + 2 * ci;
        fc[(size_t)J * ncx + I] = (T)0.25 * ((r[0] + r[1]) + (r[B::TW] + r[B::TW + 1]));
    }
    owned_store<T, B>(L, c, u_out);
}

template <typename T, int S>
__global__ void __launch_bounds__(obox<T, 2 * S>::THREADS, 2)
    owned_up_kernel(grid_level L, const T *__restrict__ ec, const T *__restrict__ u, T *__restrict__ u_out,
                    const T *__restrict__ f, int assign)
{
    enum { H = 2 * S };
    typedef obox<T, H> B;
    __shared__ T su[B::W * B::HT];
    ocell<T> c[B::COLS];
    const int x0 = blockIdx.x * B::TW - H, y0 = blockIdx.y * B::TH - H;
    owned_setup<T, B, H, S>(L, x0, y0, c);
    homg_pdl_wait();
    if (assign)
        owned_load<T, B>(L, c, su, u, f, HOMG_INIT_PROLONG, ec, (const T *)NULL);
    else
        owned_load<T, B>(L, c, su, u, f, HOMG_INIT_KEEP, (const T *)NULL, ec);
    owned_sweeps<T, B, S>(L, c, su);
    owned_store<T, B>(L, c, u_out);
}

template <typename T, int H> dim3 owned_grid(const grid_level *L)
{
    typedef obox<T, H> B;
    return dim3((L->nx + B::TW - 1) / B::TW, (L->ny + B::TH - 1) / B::TH);
}

template <typename T, int S>
void down_t(cudaStream_t st, int pdl, const grid_level *L, const void *u, void *u_out, const void *f, void *fc,
            int init, const void *ec)
{
    enum { H = 2 * S + 1 };
    homg_pdl_launch(st, owned_grid<T, H>(L), dim3(OX, obox<T, H>::HT), pdl, owned_down_kernel<T, S>, *L, (const T *)u,
                    (T *)u_out, (const T *)f, (T *)fc, init, (const T *)ec);
}

template <typename T, int S>
void up_t(cudaStream_t st, int pdl, const grid_level *L, const void *ec, const void *u, void *u_out, const void *f,
          int assign)
{
    enum { H = 2 * S };
    homg_pdl_launch(st, owned_grid<T, H>(L), dim3(OX, obox<T, H>::HT), pdl, owned_up_kernel<T, S>, *L, (const T *)ec,
                    (const T *)u, (T *)u_out, (const T *)f, assign);
}

template <typename T>
void down_s(cudaStream_t st, int pdl, const grid_level *L, const void *u, void *u_out, const void *f, void *fc,
            int sweeps, int init, const void *ec)
{
    switch (sweeps) {
    case 0: down_t<T, 0>(st, pdl, L, u, u_out, f, fc, init, ec); break;
    case 1: down_t<T, 1>(st, pdl, L, u, u_out, f, fc, init, ec); break;
    case 2: down_t<T, 2>(st, pdl, L, u, u_out, f, fc, init, ec); break;
    default: down_t<T, 3>(st, pdl, L, u, u_out, f, fc, init, ec); break;
    }
}

template <typename T>
void up_s(cudaStream_t st, int pdl, const grid_level *L, const void *ec, const void *u, void *u_out, const void *f,
          int sweeps, int assign)
{
    switch (sweeps) {
    case 0: up_t<T, 0>(st, pdl, L, ec, u, u_out, f, assign); break;
    case 1: up_t<T, 1>(st, pdl, L, ec, u, u_out, f, assign); break;
    case 2: up_t<T, 2>(st, pdl, L, ec, u, u_out, f, assign); break;
    default: up_t<T, 3>(st, pdl, L, ec, u, u_out, f, assign); break;
    }
}

} /* namespace */

void homg_owned_down(cudaStream_t st, int pdl, int elem, const grid_level *L, const void *u_in, void *u_out,
                     const void *f, void *fc, int sweeps, int init, const void *ec)
{
    if (elem == 4)
        down_s<float>(st, pdl, L, u_in, u_out, f, fc, sweeps, init, ec);
    else
        down_s<double>(st, pdl, L, u_in, u_out, f, fc, sweeps, init, ec);
}

void homg_owned_up(cudaStream_t st, int pdl, int elem, const grid_level *L, const void *ec, const void *u_in,
                   void *u_out, const void *f, int sweeps, int assign)
{
    if (elem == 4)
        up_s<float>(st, pdl, L, ec, u_in, u_out, f, sweeps, assign);
    else
        up_s<double>(st, pdl, L, ec, u_in, u_out, f, sweeps, assign);
}
