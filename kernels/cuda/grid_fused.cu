/* grid_fused.cu -- the multigrid down and up steps, each one pass over memory
 * (twin: the compositions in kernels/cpu/grid.c's cpu_smooth_restrict and
 * cpu_prolong_smooth).
 *
 * Temporal blocking: a block owns an output tile of TW x TH cells and loads the
 * tile plus a halo of H cells (clipped to the domain) into shared memory.
 * Half-sweep t (t = 1..2S) of red-black Gauss-Seidel updates the region grown by
 * H - t cells, so after 2S half-sweeps the tile grown by one cell holds exactly
 * what global sweeps give; the down step then needs H = 2S + 1 for the residual,
 * the up step H = 2S.  Halo cells are recomputed by neighbouring blocks (about
 * 1.5x the arithmetic for S = 2), but device memory sees each array once:
 *   down: read u (not for INIT_ZERO; INIT_PROLONG reads the quarter-size coarse
 *         array instead), read f, write u, write the quarter-size fc;
 *   up:   read u, the coarse correction, f; write u.
 *
 * Boundary handling: cells outside the domain hold 0 in shared memory, so the
 * stencil sum needs no tests; a cell on the domain edge has the larger diagonal
 * (4 + edges)/h^2 + lambda and the data term 2g/h^2 (read from the boundary
 * arrays, edge cells only).  Blocks whose region touches no domain edge take a
 * branch-free path.
 *
 * Arithmetic: the sweeps in the storage type (their rounding does not move the
 * fixed point); the residual in double, because f - A u cancels (kernels/
 * grid_kernels.h). */
#include "check.h"
#include "grid_point.cuh"

#define TW 64
#define BX 32
#define BY 8

/* Tile height: shared memory stays under the 48 KB default for both precisions. */
template <typename T> struct tile_h { enum { value = sizeof(T) == 4 ? 32 : 16 }; };

template <typename T>
struct tile {
    int x0, y0;       /* global coordinates of local (0, 0) */
    int w, h;         /* loaded box (halo included) */
    int i0, i1, j0, j1; /* the part of the box inside the domain: [i0, i1) x [j0, j1) */
    int H;            /* halo */
    bool interior;    /* no cell of the box is on the domain edge */
    T *u, *f;         /* shared, w*h each */
};

template <typename T>
__device__ __forceinline__ void tile_setup(tile<T> &t, const homg_level &L, int H, unsigned char *smem)
{
    const int th = tile_h<T>::value;
    t.H = H;
    t.w = TW + 2 * H;
    t.h = th + 2 * H;
    t.x0 = blockIdx.x * TW - H;
    t.y0 = blockIdx.y * th - H;
    t.i0 = max(0, -t.x0);
    t.j0 = max(0, -t.y0);
    t.i1 = min(t.w, L.nx - t.x0);
    t.j1 = min(t.h, L.ny - t.y0);
    t.interior = t.x0 >= 1 && t.y0 >= 1 && t.x0 + t.w <= L.nx - 1 && t.y0 + t.h <= L.ny - 1;
    t.u = (T *)smem;
    t.f = t.u + t.w * t.h;
}

/* init: HOMG_INIT_KEEP (u), _ZERO, _PROLONG (P ec); add_ec: u += P add_ec. */
template <typename T>
__device__ void load_tile(const homg_level &L, tile<T> &t, const T *__restrict__ u, const T *__restrict__ f,
                          int init, const T *__restrict__ ec, const T *__restrict__ add_ec)
{
    const int ncx = L.nx / 2, ncy = L.ny / 2;
    for (int lj = threadIdx.y; lj < t.h; lj += BY)
        for (int li = threadIdx.x; li < t.w; li += BX) {
            const int gi = t.x0 + li, gj = t.y0 + lj, k = lj * t.w + li;
            T uv = 0, fv = 0;
            if (li >= t.i0 && li < t.i1 && lj >= t.j0 && lj < t.j1) {
                const size_t g = (size_t)gj * L.nx + gi;
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

/* One Gauss-Seidel update at local (li, lj); INTERIOR: no edge cell in the box. */
template <typename T, bool INTERIOR>
__device__ __forceinline__ void update(const homg_level &L, const tile<T> &t, int li, int lj, T ih2, T idiag)
{
    const int k = lj * t.w + li;
    const T *p = t.u + k;
    T rhs = t.f[k] + ih2 * ((p[-1] + p[1]) + (p[-t.w] + p[t.w]));
    if (!INTERIOR) {
        const int gi = t.x0 + li, gj = t.y0 + lj;
        const int e = homg_edges_touched(gi, gj, L.nx, L.ny);
        if (e) {
            rhs += (T)bterm_at<T>(L, gi, gj);
            idiag = (T)(1.0 / ((4 + e) * L.inv_h2 + L.lambda));
        }
    }
    t.u[k] = rhs * idiag;
}

/* Half-sweeps 1..2S on the shrinking region, clipped to the domain. */
template <typename T, bool INTERIOR>
__device__ void sweep_tile(const homg_level &L, tile<T> &t, int sweeps)
{
    const T ih2 = (T)L.inv_h2, idiag = (T)(1.0 / (4 * L.inv_h2 + L.lambda));
    const int par = (t.x0 + t.y0) & 1;
    for (int s = 1; s <= 2 * sweeps; s++) {
        const int colour = (s - 1) & 1;
        const int a = max(s, t.i0), b = min(t.w - s, t.i1);
        const int c = max(s, t.j0), d = min(t.h - s, t.j1);
        for (int lj = c + threadIdx.y; lj < d; lj += BY) {
            const int li0 = a + ((a + lj + par + colour) & 1);
            for (int li = li0 + 2 * threadIdx.x; li < b; li += 2 * BX)
                update<T, INTERIOR>(L, t, li, lj, ih2, idiag);
        }
        __syncthreads();
    }
}

template <typename T>
__device__ void store_tile(const homg_level &L, const tile<T> &t, T *__restrict__ u)
{
    const int th = tile_h<T>::value;
    for (int lj = t.H + threadIdx.y; lj < t.H + th; lj += BY)
        for (int li = t.H + threadIdx.x; li < t.H + TW; li += BX) {
            const int gi = t.x0 + li, gj = t.y0 + lj;
            if (gi < L.nx && gj < L.ny)
                u[(size_t)gj * L.nx + gi] = t.u[lj * t.w + li];
        }
}

/* f + bterm - A u at local (li, lj), in double. */
template <typename T>
__device__ __forceinline__ double tile_residual(const homg_level &L, const tile<T> &t, int li, int lj)
{
    const int k = lj * t.w + li, gi = t.x0 + li, gj = t.y0 + lj;
    const T *p = t.u + k;
    const double nb = ((double)p[-1] + (double)p[1]) + ((double)p[-t.w] + (double)p[t.w]);
    double r = (double)t.f[k] + L.inv_h2 * nb - diag_at(L, gi, gj) * (double)p[0];
    if (!t.interior && homg_edges_touched(gi, gj, L.nx, L.ny))
        r += bterm_at<T>(L, gi, gj);
    return r;
}

template <typename T>
__global__ void __launch_bounds__(BX *BY) smooth_restrict_kernel(homg_level L, T *__restrict__ u,
                                                                 const T *__restrict__ f, T *__restrict__ fc,
                                                                 int sweeps, int init, const T *__restrict__ ec)
{
    extern __shared__ __align__(16) unsigned char smem_raw[];
    const int th = tile_h<T>::value;
    tile<T> t;
    tile_setup<T>(t, L, 2 * sweeps + 1, smem_raw);
    load_tile<T>(L, t, u, f, init, ec, (const T *)NULL);
    if (t.interior)
        sweep_tile<T, true>(L, t, sweeps);
    else
        sweep_tile<T, false>(L, t, sweeps);

    /* residual of the tile averaged over 2x2 children: thread (x, y) owns coarse
     * cells (x, y + 8b) of the tile */
    const int ncx = L.nx / 2, ncy = L.ny / 2;
    for (int cj = threadIdx.y; cj < th / 2; cj += BY) {
        const int ci = threadIdx.x;
        const int I = blockIdx.x * (TW / 2) + ci, J = blockIdx.y * (th / 2) + cj;
        if (I >= ncx || J >= ncy)
            continue;
        const int li = t.H + 2 * ci, lj = t.H + 2 * cj;
        double s = tile_residual<T>(L, t, li, lj) + tile_residual<T>(L, t, li + 1, lj) +
                   tile_residual<T>(L, t, li, lj + 1) + tile_residual<T>(L, t, li + 1, lj + 1);
        fc[(size_t)J * ncx + I] = (T)(0.25 * s);
    }
    store_tile<T>(L, t, u);
}

template <typename T>
__global__ void __launch_bounds__(BX *BY) prolong_smooth_kernel(homg_level L, const T *__restrict__ ec,
                                                                T *__restrict__ u, const T *__restrict__ f,
                                                                int sweeps, int assign)
{
    extern __shared__ __align__(16) unsigned char smem_raw[];
    tile<T> t;
    tile_setup<T>(t, L, 2 * sweeps, smem_raw);
    if (assign)
        load_tile<T>(L, t, u, f, HOMG_INIT_PROLONG, ec, (const T *)NULL);
    else
        load_tile<T>(L, t, u, f, HOMG_INIT_KEEP, (const T *)NULL, ec);
    if (t.interior)
        sweep_tile<T, true>(L, t, sweeps);
    else
        sweep_tile<T, false>(L, t, sweeps);
    store_tile<T>(L, t, u);
}

template <typename T>
static size_t tile_bytes(int H)
{
    return 2 * sizeof(T) * (size_t)(TW + 2 * H) * (tile_h<T>::value + 2 * H);
}

template <typename T>
static homg_status launch_down(homg_exec *ex, const homg_level *L, void *u, const void *f, void *fc, int sweeps,
                               int init, const void *ec)
{
    const int th = tile_h<T>::value;
    size_t smem = tile_bytes<T>(2 * sweeps + 1);
    dim3 grid((L->nx + TW - 1) / TW, (L->ny + th - 1) / th);
    if (smem > 48 * 1024)
        return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "%d pre-smoothing sweeps need too much shared memory",
                              sweeps);
    smooth_restrict_kernel<T><<<grid, dim3(BX, BY), smem, homg_cuda_stream(ex)>>>(*L, (T *)u, (const T *)f, (T *)fc,
                                                                               sweeps, init, (const T *)ec);
    HOMG_CUDA_LAUNCHED(ex, "smooth_restrict_kernel");
    return HOMG_OK;
}

template <typename T>
static homg_status launch_up(homg_exec *ex, const homg_level *L, const void *ec, void *u, const void *f, int sweeps,
                             int assign)
{
    const int th = tile_h<T>::value;
    size_t smem = tile_bytes<T>(2 * sweeps);
    dim3 grid((L->nx + TW - 1) / TW, (L->ny + th - 1) / th);
    if (smem > 48 * 1024)
        return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "%d post-smoothing sweeps need too much shared memory",
                              sweeps);
    prolong_smooth_kernel<T><<<grid, dim3(BX, BY), smem, homg_cuda_stream(ex)>>>(*L, (const T *)ec, (T *)u,
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
