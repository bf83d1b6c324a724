/* grid_fused.cu -- the multigrid down and up steps, each one pass over memory
 * (twin: the compositions in kernels/cpu/grid.c's cpu_smooth_restrict and
 * cpu_prolong_smooth).
 *
 * Temporal blocking: a block owns an output tile of TW x TH cells and loads the
 * tile plus a halo of H cells into shared memory.  Half-sweep t (t = 1..2S) of
 * red-black Gauss-Seidel updates the tile grown by H - t cells, so after 2S
 * half-sweeps the tile grown by one cell holds exactly the values global sweeps
 * would give; the down step then needs H = 2S + 1 for the residual, the up step
 * H = 2S.  Halo cells are recomputed by neighbouring blocks (about 1.5x the
 * arithmetic for S = 2) but device memory sees each array once per step:
 *   down: read u (not for INIT_ZERO; INIT_PROLONG reads the quarter-size coarse
 *         array instead), read f, write u, write the quarter-size fc;
 *   up:   read u, the coarse correction, f; write u.
 * Cells outside the domain are never updated; the stencil at the domain edge
 * uses the ghost rule on global indices, as grid_point.cuh does. */
#include "check.h"
#include "grid_point.cuh"

#define TW 64
#define NTHREADS 256

/* Tile height: shared memory stays under the 48 KB default for both precisions. */
template <typename T> struct tile_h { enum { value = sizeof(T) == 4 ? 32 : 16 }; };

template <typename T>
struct tile {
    int x0, y0;   /* global coordinates of the loaded region's corner */
    int w, h;     /* loaded region size */
    int H;        /* halo */
    T *u, *f;     /* shared arrays, w*h each */
};

template <typename T>
__device__ void load_tile(const homg_level &L, tile<T> &t, const T *__restrict__ u, const T *__restrict__ f,
                          int init, const T *__restrict__ ec, const T *__restrict__ add_ec)
{
    const int ncx = L.nx / 2, ncy = L.ny / 2;
    for (int k = threadIdx.x; k < t.w * t.h; k += blockDim.x) {
        int li = k % t.w, lj = k / t.w, gi = t.x0 + li, gj = t.y0 + lj;
        T uv = 0, fv = 0;
        if (gi >= 0 && gi < L.nx && gj >= 0 && gj < L.ny) {
            size_t g = (size_t)gj * L.nx + gi;
            fv = f[g];
            if (init == HOMG_INIT_KEEP)
                uv = u[g];
            else if (init == HOMG_INIT_PROLONG)
                uv = (T)prolong_at<T>(ec, gi, gj, ncx, ncy);
            if (add_ec)
                uv = (T)((double)uv + prolong_at<T>(add_ec, gi, gj, ncx, ncy));
        }
        t.u[k] = uv;
        t.f[k] = fv;
    }
    __syncthreads();
}

/* Sum of the in-domain neighbours of local (li, lj) = global (gi, gj). */
template <typename T>
__device__ __forceinline__ double tile_nbsum(const homg_level &L, const tile<T> &t, int li, int lj, int gi, int gj)
{
    const T *p = t.u + lj * t.w + li;
    double s = 0;
    if (gi > 0) s += p[-1];
    if (gi < L.nx - 1) s += p[1];
    if (gj > 0) s += p[-t.w];
    if (gj < L.ny - 1) s += p[t.w];
    return s;
}

/* Half-sweeps 1..2S on the shrinking region. */
template <typename T>
__device__ void sweep_tile(const homg_level &L, tile<T> &t, int sweeps)
{
    for (int s = 1; s <= 2 * sweeps; s++) {
        const int colour = (s - 1) & 1, m = t.H - s; /* region: grown by m */
        const int lo = t.H - m, wi = t.w - 2 * lo, hi = t.h - 2 * lo;
        for (int k = threadIdx.x; k < wi * hi; k += blockDim.x) {
            int li = lo + k % wi, lj = lo + k / wi, gi = t.x0 + li, gj = t.y0 + lj;
            if (((gi + gj) & 1) != colour || gi < 0 || gi >= L.nx || gj < 0 || gj >= L.ny)
                continue;
            double rhs = (double)t.f[lj * t.w + li] + bterm_at<T>(L, gi, gj) +
                         L.inv_h2 * tile_nbsum<T>(L, t, li, lj, gi, gj);
            t.u[lj * t.w + li] = (T)(rhs / diag_at(L, gi, gj));
        }
        __syncthreads();
    }
}

template <typename T>
__device__ void store_tile(const homg_level &L, const tile<T> &t, T *__restrict__ u)
{
    const int th = tile_h<T>::value;
    for (int k = threadIdx.x; k < TW * th; k += blockDim.x) {
        int li = t.H + k % TW, lj = t.H + k / TW, gi = t.x0 + li, gj = t.y0 + lj;
        if (gi < L.nx && gj < L.ny)
            u[(size_t)gj * L.nx + gi] = t.u[lj * t.w + li];
    }
}

template <typename T>
__global__ void __launch_bounds__(NTHREADS) smooth_restrict_kernel(homg_level L, T *__restrict__ u,
                                                                   const T *__restrict__ f, T *__restrict__ fc,
                                                                   int sweeps, int init, const T *__restrict__ ec)
{
    extern __shared__ unsigned char smem_raw[];
    const int th = tile_h<T>::value;
    tile<T> t;
    t.H = 2 * sweeps + 1;
    t.w = TW + 2 * t.H;
    t.h = th + 2 * t.H;
    t.x0 = blockIdx.x * TW - t.H;
    t.y0 = blockIdx.y * th - t.H;
    t.u = (T *)smem_raw;
    t.f = t.u + t.w * t.h;
    load_tile<T>(L, t, u, f, init, ec, (const T *)NULL);
    sweep_tile<T>(L, t, sweeps);

    /* residual of the tile, averaged over 2x2 children */
    const int ncx = L.nx / 2, ncy = L.ny / 2;
    for (int k = threadIdx.x; k < (TW / 2) * (th / 2); k += blockDim.x) {
        int ci = k % (TW / 2), cj = k / (TW / 2);
        int I = blockIdx.x * (TW / 2) + ci, J = blockIdx.y * (th / 2) + cj;
        if (I >= ncx || J >= ncy)
            continue;
        double s = 0;
        for (int b = 0; b < 2; b++)
            for (int a = 0; a < 2; a++) {
                int li = t.H + 2 * ci + a, lj = t.H + 2 * cj + b, gi = t.x0 + li, gj = t.y0 + lj;
                s += (double)t.f[lj * t.w + li] + bterm_at<T>(L, gi, gj) +
                     L.inv_h2 * tile_nbsum<T>(L, t, li, lj, gi, gj) - diag_at(L, gi, gj) * t.u[lj * t.w + li];
            }
        fc[(size_t)J * ncx + I] = (T)(0.25 * s);
    }
    store_tile<T>(L, t, u);
}

template <typename T>
__global__ void __launch_bounds__(NTHREADS) prolong_smooth_kernel(homg_level L, const T *__restrict__ ec,
                                                                  T *__restrict__ u, const T *__restrict__ f,
                                                                  int sweeps, int assign)
{
    extern __shared__ unsigned char smem_raw[];
    const int th = tile_h<T>::value;
    tile<T> t;
    t.H = 2 * sweeps;
    t.w = TW + 2 * t.H;
    t.h = th + 2 * t.H;
    t.x0 = blockIdx.x * TW - t.H;
    t.y0 = blockIdx.y * th - t.H;
    t.u = (T *)smem_raw;
    t.f = t.u + t.w * t.h;
    if (assign)
        load_tile<T>(L, t, u, f, HOMG_INIT_PROLONG, ec, (const T *)NULL);
    else
        load_tile<T>(L, t, u, f, HOMG_INIT_KEEP, (const T *)NULL, ec);
    sweep_tile<T>(L, t, sweeps);
    store_tile<T>(L, t, u);
}

template <typename T>
static homg_status launch_down(homg_exec *ex, const homg_level *L, void *u, const void *f, void *fc, int sweeps,
                               int init, const void *ec)
{
    const int th = tile_h<T>::value, H = 2 * sweeps + 1;
    size_t smem = 2 * sizeof(T) * (size_t)(TW + 2 * H) * (th + 2 * H);
    dim3 grid((L->nx + TW - 1) / TW, (L->ny + th - 1) / th);
    if (smem > 48 * 1024)
        return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "%d pre-smoothing sweeps need too much shared memory",
                              sweeps);
    smooth_restrict_kernel<T><<<grid, NTHREADS, smem, homg_cuda_stream(ex)>>>(*L, (T *)u, (const T *)f, (T *)fc,
                                                                           sweeps, init, (const T *)ec);
    HOMG_CUDA_LAUNCHED(ex, "smooth_restrict_kernel");
    return HOMG_OK;
}

template <typename T>
static homg_status launch_up(homg_exec *ex, const homg_level *L, const void *ec, void *u, const void *f, int sweeps,
                             int assign)
{
    const int th = tile_h<T>::value, H = 2 * sweeps;
    size_t smem = 2 * sizeof(T) * (size_t)(TW + 2 * H) * (th + 2 * H);
    dim3 grid((L->nx + TW - 1) / TW, (L->ny + th - 1) / th);
    if (smem > 48 * 1024)
        return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "%d post-smoothing sweeps need too much shared memory",
                              sweeps);
    prolong_smooth_kernel<T><<<grid, NTHREADS, smem, homg_cuda_stream(ex)>>>(*L, (const T *)ec, (T *)u,
                                                                          (const T *)f, sweeps, assign);
    HOMG_CUDA_LAUNCHED(ex, "prolong_smooth_kernel");
    return HOMG_OK;
}

homg_status homg_cuda_grid_smooth_restrict(homg_exec *ex, homg_precision p, const homg_level *L, void *u,
                                           const void *f, void *fc, int sweeps, int init, const void *ec)
{
    return p == HOMG_FLOAT64 ? launch_down<double>(ex, L, u, f, fc, sweeps, init, ec)
                             : launch_down<float>(ex, L, u, f, fc, sweeps, init, ec);
}

homg_status homg_cuda_grid_prolong_smooth(homg_exec *ex, homg_precision p, const homg_level *L, const void *ec,
                                          void *u, const void *f, int sweeps, int assign)
{
    return p == HOMG_FLOAT64 ? launch_up<double>(ex, L, ec, u, f, sweeps, assign)
                             : launch_up<float>(ex, L, ec, u, f, sweeps, assign);
}
