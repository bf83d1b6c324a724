/* grid_fused.cu -- the multigrid down and up steps, each one pass over memory
 * (twin: the compositions in kernels/cpu/grid.c's cpu_smooth_restrict and
 * cpu_prolong_smooth).
 *
 * Streaming temporal blocking.  A warp owns a strip of 64 columns (lane l holds
 * columns x0 + 2l and x0 + 2l + 1, so each lane has exactly one cell of each
 * colour per row) and walks down a band of rows.  At step s it takes in row s+1,
 * then applies half-sweep t = 1..2S of red-black Gauss-Seidel to row s - t + 1 --
 * each half-sweep one row behind the previous one, which is all it needs -- then
 * (down step) the residual of row s - 2S, summed over 2x2 children into the
 * coarse right-hand side, and stores the row that just became final.  Rows live
 * in a ring of registers; the east/west neighbours come from the next lanes by
 * shuffle.  No shared memory, no barriers.  Out of place: warps read their halos
 * from u_in while others write u_out.
 *
 * Halo: results are exact where the 2S half-sweeps (and the residual) saw only
 * exact inputs, i.e. at least H = 2S (+1 for the residual) rows/columns inside
 * the band/strip; neighbouring warps recompute the overlap.  Device memory sees
 * each array once (plus overlap reads that the L2 cache absorbs):
 *   down: read u (not for INIT_ZERO; INIT_PROLONG reads the quarter-size coarse
 *         array instead), read f, write u, write the quarter-size fc;
 *   up:   read u, the coarse correction, f; write u.
 *
 * Boundaries: cells outside the domain hold 0 and are never updated, so the
 * stencil needs no tests; a cell on the domain edge has the diagonal
 * (4 + edges)/h^2 + lambda and the data term 2g/h^2.
 *
 * Arithmetic is in the storage type.  The residual is formed from neighbour
 * differences, f + (sum (u_nb - u_c)) / h^2 - lambda u_c: a difference of two
 * nearby floats is exact, so the cancellation that makes f - A u inaccurate in
 * float32 (kernels/grid_kernels.h) happens where it costs nothing.  The CPU twin
 * computes in double; the two agree to float rounding. */
#include "check.h"
#include "grid_point.cuh"

#define WARPS 4          /* warps per block, stacked in y */
#define HOMG_FUSED_MAX_SWEEPS 3

template <typename T> struct vec2;
template <> struct vec2<float> { typedef float2 t; };
template <> struct vec2<double> { typedef double2 t; };

/* Compile-time shape of one step pattern. */
template <int S, bool DOWN>
struct shape {
    enum {
        H = DOWN ? 2 * S + 1 : (S ? 2 * S : 1), /* rows/columns of halo the result needs */
        HX = (H + 1) & ~1,            /* column halo, even so column pairs stay aligned */
        OW = 64 - 2 * HX,             /* output columns per warp */
        R = 2 * S + 3,                /* ring of rows */
        UNROLL = 2 * R                /* steps per unrolled block: row slots and parities are constants */
    };
};

/* What a lane knows about its two columns. */
template <typename T>
struct lane_cols {
    int c0;            /* global column of the first (even) cell */
    bool in;           /* both columns inside the domain (they are in or out together) */
    bool out_ok;       /* the lane's columns are output columns */
    int ea, eb;        /* edges touched by the columns (W edge for a, E edge for b) */
};

/* One half-sweep of colour `colour` on the row held in ring slot k (global row gj),
 * neighbours in slots kn (north) and ks (south). */
/* 1 / diagonal of a cell touching e domain edges (selects, not an indexed array,
 * so nothing goes to local memory). */
template <typename T>
struct inv_diag {
    T d0, d1, d2, d3;
    __device__ __forceinline__ T operator()(int e) const { return e == 0 ? d0 : e == 1 ? d1 : e == 2 ? d2 : d3; }
};

template <typename T, int R>
__device__ __forceinline__ void half_sweep(const homg_level &L, const lane_cols<T> &c, T *ua, T *ub, const T *fa,
                                           const T *fb, int k, int kn, int ks, int gj, int colour, T ih2,
                                           const inv_diag<T> &idiag)
{
    const unsigned full = 0xffffffffu;
    /* the colour's cell in this row: column a when (c0 + gj) has the colour's parity */
    const bool on_a = ((c.c0 + gj) & 1) == colour;
    const T w = __shfl_up_sync(full, ub[k], 1), e = __shfl_down_sync(full, ua[k], 1);
    if (!c.in || gj < 0 || gj >= L.ny)
        return;
    const int er = (gj == 0) + (gj == L.ny - 1);
    if (on_a) {
        T rhs = fa[k] + ih2 * ((w + ub[k]) + (ua[kn] + ua[ks]));
        const int ed = c.ea + er;
        if (ed)
            rhs += (T)bterm_at<T>(L, c.c0, gj);
        ua[k] = rhs * idiag(ed);
    } else {
        T rhs = fb[k] + ih2 * ((ua[k] + e) + (ub[kn] + ub[ks]));
        const int ed = c.eb + er;
        if (ed)
            rhs += (T)bterm_at<T>(L, c.c0 + 1, gj);
        ub[k] = rhs * idiag(ed);
    }
}

/* Residual f + bterm - A u of both cells of the row in slot k, from exact
 * neighbour differences; out-of-domain neighbours are the homogeneous ghost -u. */
template <typename T>
__device__ __forceinline__ T residual_pair(const homg_level &L, const lane_cols<T> &c, const T *ua, const T *ub,
                                           const T *fa, const T *fb, int k, int kn, int ks, int gj, T ih2, T lam)
{
    const unsigned full = 0xffffffffu;
    const T w = __shfl_up_sync(full, ub[k], 1), e = __shfl_down_sync(full, ua[k], 1);
    const T a = ua[k], b = ub[k];
    const bool nedge = gj == 0, sedge = gj == L.ny - 1;
    T da = (c.ea ? -2 * a : w - a) + (b - a) + (nedge ? -2 * a : ua[kn] - a) + (sedge ? -2 * a : ua[ks] - a);
    T db = (a - b) + (c.eb ? -2 * b : e - b) + (nedge ? -2 * b : ub[kn] - b) + (sedge ? -2 * b : ub[ks] - b);
    T ra = fa[k] + ih2 * da - lam * a, rb = fb[k] + ih2 * db - lam * b;
    if (c.in && gj >= 0 && gj < L.ny) {
        if (c.ea || nedge || sedge)
            ra += (T)bterm_at<T>(L, c.c0, gj);
        if (c.eb || nedge || sedge)
            rb += (T)bterm_at<T>(L, c.c0 + 1, gj);
    }
    return ra + rb;
}

/* Bilinear prolongation of the coarse array at the lane's two cells of row gj. */
template <typename T>
__device__ __forceinline__ void prolong_pair(const homg_level &L, const lane_cols<T> &c, const T *__restrict__ ec,
                                             int gj, T &pa, T &pb)
{
    const unsigned full = 0xffffffffu;
    const int ncx = L.nx / 2, ncy = L.ny / 2, I = c.c0 >> 1, J = gj >> 1;
    int J2 = J + ((gj & 1) ? 1 : -1);
    const T sy = (T)homg_reflect(&J2, ncy);
    T v0 = 0, v1 = 0;
    if (c.in && gj >= 0 && gj < L.ny) {
        v0 = ec[(size_t)J * ncx + I];
        v1 = sy * ec[(size_t)J2 * ncx + I];
    }
    T w0 = __shfl_up_sync(full, v0, 1), w1 = __shfl_up_sync(full, v1, 1);
    T e0 = __shfl_down_sync(full, v0, 1), e1 = __shfl_down_sync(full, v1, 1);
    if (I == 0) { w0 = -v0; w1 = -v1; }
    if (I == ncx - 1) { e0 = -v0; e1 = -v1; }
    pa = (T)0.5625 * v0 + (T)0.1875 * (w0 + v1) + (T)0.0625 * w1;
    pb = (T)0.5625 * v0 + (T)0.1875 * (e0 + v1) + (T)0.0625 * e1;
}

/* One pass: DOWN = smooth + residual + restriction, else prolongation + smooth.
 * init (DOWN): HOMG_INIT_KEEP / _ZERO / _PROLONG from ec; !DOWN: u (+)= P ec. */
template <typename T, int S, bool DOWN>
__global__ void __launch_bounds__(32 * WARPS) fused_kernel(homg_level L, const T *__restrict__ u,
                                                           T *__restrict__ u_out, const T *__restrict__ f,
                                                           T *__restrict__ fc, int init, const T *__restrict__ ec,
                                                           int band)
{
    typedef shape<S, DOWN> P;
    typedef typename vec2<T>::t T2;
    const int lane = threadIdx.x;
    const int x0 = blockIdx.x * P::OW - P::HX;
    const int y0 = (blockIdx.y * WARPS + threadIdx.y) * band; /* first output row */
    if (y0 >= L.ny)
        return; /* the whole warp leaves together */
    const int top = y0 - P::H;                                 /* global row of ring row 0 */
    const int nsteps = band + 2 * P::H - 1;                    /* ring rows 0 .. band + 2H - 1 */
    const int ncx = L.nx / 2;

    lane_cols<T> c;
    c.c0 = x0 + 2 * lane;
    c.in = c.c0 >= 0 && c.c0 < L.nx;
    c.out_ok = lane >= P::HX / 2 && lane < P::HX / 2 + P::OW / 2;
    c.ea = c.c0 == 0;
    c.eb = c.c0 + 1 == L.nx - 1;
    const T ih2 = (T)L.inv_h2, lam = (T)L.lambda;
    inv_diag<T> idiag; /* a cell touches at most 4 edges only on 1-cell-wide grids, never here */
    idiag.d0 = (T)(1.0 / (4 * L.inv_h2 + L.lambda));
    idiag.d1 = (T)(1.0 / (5 * L.inv_h2 + L.lambda));
    idiag.d2 = (T)(1.0 / (6 * L.inv_h2 + L.lambda));
    idiag.d3 = (T)(1.0 / (7 * L.inv_h2 + L.lambda));

    T ua[P::R], ub[P::R], fa[P::R], fb[P::R];
#pragma unroll
    for (int k = 0; k < P::R; k++)
        ua[k] = ub[k] = fa[k] = fb[k] = 0;
    T racc = 0; /* residual sum of the first row of a coarse pair */

    /* Loads ring row `row` (global top + row) into registers: u unless it starts at
     * zero or at the prolongation, plus P ec where asked (down: INIT_PROLONG; up:
     * always, added to u, or alone when init is INIT_PROLONG = assign). */
    const bool load_u = init == HOMG_INIT_KEEP, add_p = DOWN ? init == HOMG_INIT_PROLONG : true;
    auto fetch = [&](int row, T &xa, T &xb, T &ya, T &yb) {
        const int gj = top + row;
        xa = xb = ya = yb = 0;
        if (row >= band + 2 * P::H) /* beyond the band: uniform across the warp */
            return;
        const bool here = c.in && gj >= 0 && gj < L.ny;
        if (here) {
            const size_t g = (size_t)gj * L.nx + c.c0;
            const T2 fv = *(const T2 *)(f + g);
            ya = fv.x;
            yb = fv.y;
            if (load_u) {
                const T2 uv = *(const T2 *)(u + g);
                xa = uv.x;
                xb = uv.y;
            }
        }
        if (add_p) {
            T pa, pb;
            prolong_pair<T>(L, c, ec, gj, pa, pb); /* all lanes: it shuffles */
            if (here) {
                xa += pa;
                xb += pb;
            }
        }
    };

    /* ring row 0, then row 1 in flight */
    fetch(0, ua[0], ub[0], fa[0], fb[0]);
    T nua, nub, nfa, nfb;
    fetch(1, nua, nub, nfa, nfb);

    for (int s0 = 0; s0 < nsteps; s0 += P::UNROLL) {
#pragma unroll
        for (int q = 0; q < P::UNROLL; q++) {
            const int s = s0 + q;
            if (s >= nsteps)
                break;
            /* take in row s + 1, start loading row s + 2 */
            const int kin = (q + 1) % P::R;
            ua[kin] = nua;
            ub[kin] = nub;
            fa[kin] = nfa;
            fb[kin] = nfb;
            fetch(s + 2, nua, nub, nfa, nfb);
            /* half-sweep t on row s - t + 1 */
#pragma unroll
            for (int t = 1; t <= 2 * S; t++) {
                const int row = s - t + 1;
                if (row >= 1) {
                    const int k = (q - t + 1 + 2 * P::R) % P::R;
                    half_sweep<T, P::R>(L, c, ua, ub, fa, fb, k, (k + P::R - 1) % P::R, (k + 1) % P::R, top + row,
                                        (t - 1) & 1, ih2, idiag);
                }
            }
            /* the row that became final: s - 2S + 1 */
            {
                const int row = s - 2 * S + 1, gj = top + row;
                const int k = (q - 2 * S + 1 + 2 * P::R) % P::R;
                if (row >= 0 && c.in && c.out_ok && gj >= y0 && gj < y0 + band && gj < L.ny) {
                    T2 v;
                    v.x = ua[k];
                    v.y = ub[k];
                    *(T2 *)(u_out + (size_t)gj * L.nx + c.c0) = v;
                }
            }
            /* residual of row s - 2S, restricted in pairs of rows */
            if (DOWN) {
                const int row = s - 2 * S, gj = top + row;
                if (row >= 1) {
                    const int k = (q - 2 * S + 2 * P::R) % P::R;
                    const T r = residual_pair<T>(L, c, ua, ub, fa, fb, k, (k + P::R - 1) % P::R, (k + 1) % P::R, gj,
                                                 ih2, lam);
                    if (gj & 1) {
                        if (c.in && c.out_ok && gj - 1 >= y0 && gj < y0 + band && gj < L.ny)
                            fc[(size_t)(gj >> 1) * ncx + (c.c0 >> 1)] = (T)0.25 * (racc + r);
                    } else {
                        racc = r;
                    }
                }
            }
        }
    }
}

/* Rows per warp: long bands amortise the 2H rows of pipeline start, but small
 * levels need enough warps to fill the GPU. */
static int band_rows(homg_exec *ex, const homg_level *L, int ow)
{
    const int strips = (L->nx + ow - 1) / ow;
    int band = 128;
    while (band > 8 && (long)strips * ((L->ny + band - 1) / band) < 8L * ex->sm_count)
        band /= 2;
    return band;
}

template <typename T, int S, bool DOWN>
static homg_status launch_s(homg_exec *ex, const homg_level *L, const void *u, void *u_out, const void *f, void *fc,
                            int init, const void *ec)
{
    typedef shape<S, DOWN> P;
    const int band = band_rows(ex, L, P::OW);
    const int warps_y = (L->ny + band - 1) / band;
    dim3 grid((L->nx + P::OW - 1) / P::OW, (warps_y + WARPS - 1) / WARPS);
    fused_kernel<T, S, DOWN><<<grid, dim3(32, WARPS), 0, homg_cuda_stream(ex)>>>(
        *L, (const T *)u, (T *)u_out, (const T *)f, (T *)fc, init, (const T *)ec, band);
    HOMG_CUDA_LAUNCHED(ex, DOWN ? "fused down-step kernel" : "fused up-step kernel");
    return HOMG_OK;
}

template <typename T, bool DOWN>
static homg_status launch(homg_exec *ex, const homg_level *L, const void *u, void *u_out, const void *f, void *fc,
                          int sweeps, int init, const void *ec)
{
    if (u == u_out)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "fused steps are out of place: u_in == u_out");
    switch (sweeps) {
    case 0: return launch_s<T, 0, DOWN>(ex, L, u, u_out, f, fc, init, ec);
    case 1: return launch_s<T, 1, DOWN>(ex, L, u, u_out, f, fc, init, ec);
    case 2: return launch_s<T, 2, DOWN>(ex, L, u, u_out, f, fc, init, ec);
    case 3: return launch_s<T, 3, DOWN>(ex, L, u, u_out, f, fc, init, ec);
    default:
        return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "fused steps take at most %d sweeps, not %d",
                              HOMG_FUSED_MAX_SWEEPS, sweeps);
    }
}

homg_status homg_cuda_grid_smooth_restrict(homg_exec *ex, homg_precision p, const homg_level *L, const void *u_in,
                                           void *u_out, const void *f, void *fc, int sweeps, int init, const void *ec)
{
    return p == HOMG_FLOAT64 ? launch<double, true>(ex, L, u_in, u_out, f, fc, sweeps, init, ec)
                             : launch<float, true>(ex, L, u_in, u_out, f, fc, sweeps, init, ec);
}

/* assign: u_out = P ec then sweeps (FMG's interpolation); else u_in + P ec. */
homg_status homg_cuda_grid_prolong_smooth(homg_exec *ex, homg_precision p, const homg_level *L, const void *ec,
                                          const void *u_in, void *u_out, const void *f, int sweeps, int assign)
{
    const int init = assign ? HOMG_INIT_PROLONG : HOMG_INIT_KEEP;
    return p == HOMG_FLOAT64 ? launch<double, false>(ex, L, u_in, u_out, f, NULL, sweeps, init, ec)
                             : launch<float, false>(ex, L, u_in, u_out, f, NULL, sweeps, init, ec);
}
