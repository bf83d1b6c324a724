/* grid.cu -- CUDA structured-grid primitives (twin: kernels/grid/grid.c): one
 * thread per point, the same per-point formulas as the CPU (grid_point.cuh).
 * The fused down/up steps of the multigrid cycles live in grid_fused.cu. */
#include "core/cuda_check.h"
#include "grid_exact.cuh"
#include "grid_point.cuh"

#define BX 32
#define BY 8

static dim3 blocks_for(int nx, int ny) { return dim3((nx + BX - 1) / BX, (ny + BY - 1) / BY); }

template <typename T>
__global__ void residual_kernel(grid_level L, const T *__restrict__ u, const T *__restrict__ f, T *__restrict__ r)
{
    int i = blockIdx.x * BX + threadIdx.x, j = blockIdx.y * BY + threadIdx.y;
    if (i < L.nx && j < L.ny)
        r[(size_t)j * L.nx + i] = (T)res_at<T>(L, u, f, i, j);
}

template <typename T>
__global__ void residual_restrict_kernel(grid_level L, const T *__restrict__ u, const T *__restrict__ f,
                                         T *__restrict__ fc)
{
    int I = blockIdx.x * BX + threadIdx.x, J = blockIdx.y * BY + threadIdx.y;
    int ncx = L.nx / 2, ncy = L.ny / 2;
    if (I >= ncx || J >= ncy)
        return;
    double s = res_at<T>(L, u, f, 2 * I, 2 * J) + res_at<T>(L, u, f, 2 * I + 1, 2 * J) +
               res_at<T>(L, u, f, 2 * I, 2 * J + 1) + res_at<T>(L, u, f, 2 * I + 1, 2 * J + 1);
    fc[(size_t)J * ncx + I] = (T)(0.25 * s);
}

template <typename T>
__global__ void prolong_kernel(grid_level L, const T *__restrict__ ec, T *__restrict__ u, int assign)
{
    int i = blockIdx.x * BX + threadIdx.x, j = blockIdx.y * BY + threadIdx.y;
    if (i >= L.nx || j >= L.ny)
        return;
    double e = prolong_at<T>(ec, i, j, L.nx / 2, L.ny / 2);
    T *p = u + (size_t)j * L.nx + i;
    *p = (T)(assign ? e : (double)*p + e);
}

/* One colour of a Gauss-Seidel sweep; thread (ii, j) updates i = 2 ii + ((j + colour) & 1). */
template <typename T>
__global__ void smooth_colour_kernel(grid_level L, T *__restrict__ u, const T *__restrict__ f, int colour)
{
    int ii = blockIdx.x * BX + threadIdx.x, j = blockIdx.y * BY + threadIdx.y;
    int i = 2 * ii + ((j + colour) & 1);
    if (i >= L.nx || j >= L.ny)
        return;
    double rhs = (double)f[(size_t)j * L.nx + i] + bterm_at<T>(L, i, j) + L.inv_h2 * nbsum_at<T>(L, u, i, j);
    u[(size_t)j * L.nx + i] = (T)(rhs / diag_at(L, i, j));
}

/* The coarsest level in one block: zero, then `sweeps` red-black sweeps. */
template <typename T>
__global__ void coarse_solve_kernel(grid_level L, T *__restrict__ u, const T *__restrict__ f, int sweeps)
{
    const int n = L.nx * L.ny;
    for (int k = threadIdx.x; k < n; k += blockDim.x)
        u[k] = (T)0;
    __syncthreads();
    for (int s = 0; s < 2 * sweeps; s++) {
        int colour = s & 1;
        for (int k = threadIdx.x; k < n; k += blockDim.x) {
            int i = k % L.nx, j = k / L.nx;
            if (((i + j) & 1) != colour)
                continue;
            double rhs = (double)f[k] + bterm_at<T>(L, i, j) + L.inv_h2 * nbsum_at<T>(L, u, i, j);
            u[k] = (T)(rhs / diag_at(L, i, j));
        }
        __syncthreads();
    }
}

/* All four sides in one launch: thread k walks the concatenated coarse sides. */
template <typename T> __global__ void restrict_boundary_kernel(grid_level L, T *o0, T *o1, T *o2, T *o3)
{
    const int ncy = L.ny / 2, ncx = L.nx / 2;
    int k = blockIdx.x * blockDim.x + threadIdx.x, s = 0;
    T *out[4] = { o0, o1, o2, o3 };
    while (s < 4 && k >= (s < 2 ? ncy : ncx)) {
        k -= s < 2 ? ncy : ncx;
        s++;
    }
    if (s == 4 || !L.bc[s])
        return;
    const T *g = (const T *)L.bc[s];
    out[s][k] = (T)(0.5 * ((double)g[2 * k] + (double)g[2 * k + 1]));
}

/* The coarsest level solved exactly by the dense sine transform (grid_exact.cuh;
 * twin: coarse_exact in kernels/grid/grid_tmpl.h), one 32 x 32 block. */
#define CE HOMG_COARSE_EXACT_MAX
template <typename T>
__global__ void __launch_bounds__(CE *CE)
    coarse_exact_kernel(grid_level L, T *__restrict__ u, const T *__restrict__ f, const T *__restrict__ qx,
                        const T *__restrict__ qy, const T *__restrict__ inv_eig)
{
    __shared__ T sx[CE][CE + 1], sy[CE][CE + 1], a[CE][CE + 1], b[CE][CE + 1];
    coarse_exact_block<T, true>(L, u, f, qx, qy, inv_eig, sx, sy, a, b, threadIdx.x, threadIdx.y);
}
#undef CE

template <typename T> __global__ void add_kernel(size_t n, const T *__restrict__ x, T *__restrict__ y)
{
    for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < n; k += (size_t)gridDim.x * blockDim.x)
        y[k] = (T)((double)y[k] + (double)x[k]);
}

/* Partial sums of the monitored norm into scratch[0] (numerator) and scratch[1]. */
template <typename T>
__global__ void monitor_sum_kernel(grid_level L, const T *__restrict__ u, const T *__restrict__ f,
                                   const T *__restrict__ u_ref, double *scratch)
{
    __shared__ double sn[BX * BY], sd[BX * BY];
    int i = blockIdx.x * BX + threadIdx.x, j = blockIdx.y * BY + threadIdx.y;
    int t = threadIdx.y * BX + threadIdx.x;
    double num = 0, den = 0;
    if (i < L.nx && j < L.ny) {
        size_t k = (size_t)j * L.nx + i;
        if (u_ref) {
            double d = (double)u[k] - (double)u_ref[k];
            num = d * d;
            den = (double)u_ref[k] * (double)u_ref[k];
        } else {
            double r = res_at<T>(L, u, f, i, j), b = res_at<T>(L, (const T *)NULL, f, i, j);
            num = r * r;
            den = b * b;
        }
    }
    sn[t] = num;
    sd[t] = den;
    __syncthreads();
    for (int s = BX * BY / 2; s > 0; s >>= 1) {
        if (t < s) {
            sn[t] += sn[t + s];
            sd[t] += sd[t + s];
        }
        __syncthreads();
    }
    if (t == 0) {
        atomicAdd(&scratch[0], sn[0]);
        atomicAdd(&scratch[1], sd[0]);
    }
}

__global__ void monitor_finish_kernel(double *scratch, double *hist, int *count)
{
    double num = scratch[0], den = scratch[1];
    hist[*count] = den > 0 ? sqrt(num / den) : sqrt(num);
    *count += 1;
    scratch[0] = 0;
    scratch[1] = 0;
}

template <typename T> __global__ void find_nonfinite_kernel(size_t n, const T *__restrict__ x, unsigned long long *flag)
{
    for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < n; k += (size_t)gridDim.x * blockDim.x)
        if (!isfinite((double)x[k]))
            atomicCAS(flag, 0ull, (unsigned long long)k + 1);
}

/* ---- HOMG ---- */

/* HOMG's whole-grid kernels take HV points per thread, BX apart along x (a block
 * covers BX * HV x BY points): each warp's loads and stores stay contiguous, and a
 * thread has HV independent points' loads in flight. */
#define HV 4

static dim3 homg_blocks_for(int nx, int ny) { return dim3((nx + BX * HV - 1) / (BX * HV), (ny + BY - 1) / BY); }

#define PER_TYPE_TMPL "grid/homg_point_tmpl.h"
#include "core/per_type.h"

__device__ __forceinline__ double homg_filter_point(int nx, int ny, int s, const float *src, int i, int j)
{
    return homg_filter_point_f(nx, ny, s, src, i, j);
}
__device__ __forceinline__ double homg_filter_point(int nx, int ny, int s, const double *src, int i, int j)
{
    return homg_filter_point_d(nx, ny, s, src, i, j);
}

__device__ __forceinline__ void homg_gather_point(const mfmg_level *H, int nx, int ny, float *c, int x, int y, float v)
{
    homg_gather_point_f(H, nx, ny, c, x, y, v);
}
__device__ __forceinline__ void homg_gather_point(const mfmg_level *H, int nx, int ny, double *c, int x, int y,
                                                  double v)
{
    homg_gather_point_d(H, nx, ny, c, x, y, v);
}

/* compact != NULL: level H's gather fused (homg_gather_point); zero: dst set to 0 */
template <typename T>
__global__ void homg_filter_kernel(int nx, int ny, int s, const T *__restrict__ src, T *__restrict__ dst, mfmg_level H,
                                   T *__restrict__ compact, int zero)
{
    homg_pdl_wait();
    const int i0 = blockIdx.x * BX * HV + threadIdx.x, j = blockIdx.y * BY + threadIdx.y;
    if (j >= ny)
        return;
#pragma unroll
    for (int k = 0; k < HV; k++) {
        int i = i0 + k * BX;
        if (i < nx) {
            const T v = (T)homg_filter_point(nx, ny, s, src, i, j);
            dst[(size_t)j * nx + i] = zero ? (T)0 : v;
            if (compact)
                homg_gather_point(&H, nx, ny, compact, i, j, v);
        }
    }
}

template <typename T>
__global__ void homg_gather_kernel(int nx, int ny, mfmg_level H, const T *__restrict__ src, T *__restrict__ compact)
{
    homg_pdl_wait();
    int a = blockIdx.x * BX + threadIdx.x, b = blockIdx.y * BY + threadIdx.y;
    if (a >= H.cx || b >= H.cy)
        return;
    int x = homg_marked_coord(a, nx, H.l), y = homg_marked_coord(b, ny, H.l);
    compact[(size_t)b * H.cx + a] = src[(size_t)y * nx + x];
}

__device__ __forceinline__ double homg_point(const grid_level *L, const mfmg_level *H, double inv_l, const float *fm,
                                             const float *u, int x, int y)
{
    return homg_point_f(L, H, inv_l, fm, u, x, y);
}
__device__ __forceinline__ double homg_point(const grid_level *L, const mfmg_level *H, double inv_l, const double *fm,
                                             const double *u, int x, int y)
{
    return homg_point_d(L, H, inv_l, fm, u, x, y);
}

template <typename T>
__global__ void homg_iterate_kernel(grid_level L, mfmg_level H, const T *__restrict__ fm, const T *__restrict__ u,
                                    T *__restrict__ u_out)
{
    homg_pdl_wait();
    const int x0 = blockIdx.x * BX * HV + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
    const double inv_l = 1.0 / H.l; /* exact: l = 2^m */
    if (y >= L.ny)
        return;
#pragma unroll
    for (int k = 0; k < HV; k++) {
        int x = x0 + k * BX;
        if (x < L.nx)
            u_out[(size_t)y * L.nx + x] = (T)homg_point(&L, &H, inv_l, fm, u, x, y);
    }
}

/* homg_iterate_marked: a thread per point of level W's R x R (homg_read_coord,
 * grid_point.h), the points the next iteration reads; level H's homg_point values there. */
template <typename T>
__global__ void homg_iterate_marked_kernel(grid_level L, mfmg_level H, mfmg_level W, const T *__restrict__ fm,
                                           const T *__restrict__ u, T *__restrict__ u_out)
{
    homg_pdl_wait();
    const int a = blockIdx.x * BX + threadIdx.x, b = blockIdx.y * BY + threadIdx.y;
    if (a >= W.cx + 2 || b >= W.cy + 2)
        return;
    const int x = homg_read_coord(a, L.nx, W.l, W.cx), y = homg_read_coord(b, L.ny, W.l, W.cy);
    if (x >= 0 && y >= 0)
        u_out[(size_t)y * L.nx + x] = (T)homg_point(&L, &H, 1.0 / H.l, fm, u, x, y);
}

/* homg_point for the points of the specialised kernels that it takes whole (inline:
 * out of line, its call costs a stack frame and more registers), and
 * homg_filter_point for the filter's edge points (out of line: the column kernel's
 * loops stay small, no stack). */
template <typename T>
__device__ __forceinline__ double homg_point_edge(const grid_level *L, const mfmg_level *H, double inv_l, const T *fm,
                                                  const T *u, int x, int y)
{
    return homg_point(L, H, inv_l, fm, u, x, y);
}
template <typename T>
__device__ __noinline__ double homg_filter_point_edge(int nx, int ny, int s, const T *src, int i, int j)
{
    return homg_filter_point(nx, ny, s, src, i, j);
}

__device__ __forceinline__ double homg_lerp_row(const float *row, int x0, int x1, double tx)
{
    return homg_lerp_row_f(row, x0, x1, tx);
}
__device__ __forceinline__ double homg_lerp_row(const double *row, int x0, int x1, double tx)
{
    return homg_lerp_row_d(row, x0, x1, tx);
}

/* The same pass with one column and R consecutive rows a thread (a warp: 32
 * columns, so each row's store stays contiguous): the column's marked index and
 * x bracket once, and the two x-interpolated rows of a coarse interval (keyed by
 * y0: left-half y0 < n/2 <= right-half y0) once for all its rows, so an
 * interpolated point costs one lerp along y.  Values as homg_point's: the same
 * functions in the same order.  Pays off where the coarse intervals are long
 * (m >= HOMG_HOMG_ROWS_M); marked points take homg_point whole. */
template <typename T, int R>
__global__ void homg_iterate_rows_kernel(grid_level L, mfmg_level H, const T *__restrict__ fm, const T *__restrict__ u,
                                         T *__restrict__ u_out)
{
    homg_pdl_wait();
    const int x = blockIdx.x * BX + threadIdx.x, yb = (blockIdx.y * BY + threadIdx.y) * R;
    if (x >= L.nx || yb >= L.ny)
        return;
    const double inv_l = 1.0 / H.l; /* exact: l = 2^m */
    const int ax = homg_marked_index_p2(x, L.nx, H.m);
    int x0, x1, yk = -1;
    double tx, r0 = 0, r1 = 0;
    homg_bracket_p2(x, L.nx, H.m, inv_l, &x0, &x1, &tx);
#pragma unroll
    for (int k = 0; k < R; k++) {
        const int y = yb + k;
        if (y >= L.ny)
            break;
        double v;
        if (ax >= 0 && homg_marked_index_p2(y, L.ny, H.m) >= 0)
            v = homg_point(&L, &H, inv_l, fm, u, x, y);
        else {
            int y0, y1;
            double ty;
            homg_bracket_p2(y, L.ny, H.m, inv_l, &y0, &y1, &ty);
            if (y0 != yk) {
                yk = y0;
                r0 = homg_lerp_row(u + (size_t)y0 * L.nx, x0, x1, tx);
                r1 = homg_lerp_row(u + (size_t)y1 * L.nx, x0, x1, tx);
            }
            v = homg_lerp_d(r0, r1, ty);
        }
        u_out[(size_t)y * L.nx + x] = (T)v;
    }
}

/* The rows kernel for the passes that stream from DRAM (large grids, low levels:
 * HOMG_HOMG_REUSE_MAX_M), one column and R consecutive rows a thread (a warp: 32
 * columns, so each row's store stays contiguous): the column's marked index and
 * x bracket once; the x-interpolated rows (homg_lerp_row) of the current coarse
 * interval (keyed by y0: left-half y0 < n/2 <= right-half y0) kept, and the one
 * the next interval shares with it reused (ascending rows: the next y0 is this
 * y1 in the low half, the next y1 this y0 in the high half), so an interpolated
 * point costs one lerp along y and an interval one new row lerp.  Every lane
 * keeps them, relaxing or not: the bracket along y is the warp's, so is the
 * branch that renews them (at m = 1 the relaxing lanes would diverge otherwise).
 * Marked points whose arms stay inside relax here (the arms in homg_point's order,
 * homg_relax); the others take homg_point whole.  Values as homg_point's: the same
 * functions in the same order. */
template <typename T, int R>
__global__ void __launch_bounds__(BX *BY, 3)
    homg_iterate_rows_reuse_kernel(grid_level L, mfmg_level H, const T *__restrict__ fm, const T *__restrict__ u,
                                   T *__restrict__ u_out)
{
    homg_pdl_wait();
    const int nx = L.nx, ny = L.ny, l = H.l;
    const int x = blockIdx.x * BX + threadIdx.x, yb = (blockIdx.y * BY + threadIdx.y) * R;
    if (x >= nx || yb >= ny)
        return;
    const double inv_l = 1.0 / l; /* exact: l = 2^m */
    const double inv = L.inv_h2 * (inv_l * inv_l);
    const int ax = homg_marked_index_p2(x, nx, H.m);
    const bool x_inside = x - l >= 0 && x + l < nx;
    const ptrdiff_t up_row = (ptrdiff_t)l * nx;
    int x0, x1, yk = -1, yk1 = -1;
    double tx, r0 = 0, r1 = 0;
    homg_bracket_p2(x, nx, H.m, inv_l, &x0, &x1, &tx);
#pragma unroll
    for (int k = 0; k < R; k++) {
        const int y = yb + k;
        if (y >= ny)
            break;
        int y0, y1;
        double ty, v;
        homg_bracket_p2(y, ny, H.m, inv_l, &y0, &y1, &ty); /* the same for the whole warp */
        if (y0 != yk) {
            const double n0 = y0 == yk1 ? r1 : homg_lerp_row(u + (size_t)y0 * nx, x0, x1, tx);
            const double n1 = y1 == yk ? r0 : homg_lerp_row(u + (size_t)y1 * nx, x0, x1, tx);
            yk = y0;
            yk1 = y1;
            r0 = n0;
            r1 = n1;
        }
        const int ay = ax >= 0 ? homg_marked_index_p2(y, ny, H.m) : -1;
        if (ay < 0)
            v = homg_lerp_d(r0, r1, ty);
        else if (x_inside && y - l >= 0 && y + l < ny) {
            const T *c = u + (size_t)y * nx + x;
            double nb = 0;
            nb += (double)c[-l];
            nb += (double)c[l];
            nb += (double)c[-up_row];
            nb += (double)c[up_row];
            const double rhs = H.m == 0 ? (double)fm[(size_t)y * nx + x] : (double)fm[(size_t)ay * H.cx + ax];
            v = homg_relax_d((double)c[0], nb, 0.0, rhs, inv, L.lambda, H.omega);
        } else
            v = homg_point_edge(&L, &H, inv_l, fm, u, x, y);
        u_out[(size_t)y * nx + x] = (T)v;
    }
}

/* The reuse kernel's pass for float32 levels m >= 2 with four consecutive columns
 * a thread (one float4 store a row: a warp writes 512 contiguous bytes a row, where
 * the column kernels issue four 128-byte stores) and R consecutive rows: the
 * y bracket, its warp-uniform branch and the marked-row test once for four points.
 * Needs nx % 4 == 0 and a 16-byte aligned u_out (the launcher checks).  At
 * m >= 2 (l >= 4) one of a thread's four columns is marked at most (x = a l in the
 * low half; x = n - 1 - a l, i.e. x % 4 == 3, in the high half; two at the middle),
 * so a marked row costs one homg_point (taken whole) a marked column; the other points interpolate as the reuse
 * kernel does (each column's row lerps kept, the one the next interval shares
 * reused).  Values as homg_point's: the same functions in the same order. */
template <int R>
__global__ void __launch_bounds__(BX *BY, 2)
    homg_iterate_vec4_kernel(grid_level L, mfmg_level H, const float *__restrict__ fm, const float *__restrict__ u,
                             float *__restrict__ u_out)
{
    homg_pdl_wait();
    const int nx = L.nx, ny = L.ny;
    const int xb = (blockIdx.x * BX + threadIdx.x) * 4, yb = (blockIdx.y * BY + threadIdx.y) * R;
    if (xb >= nx || yb >= ny)
        return;
    const double inv_l = 1.0 / H.l; /* exact: l = 2^m */
    int x0[4], x1[4], yk = -1, yk1 = -1;
    unsigned marked = 0; /* bit c: column xb + c is marked */
    double tx[4], r0[4] = { 0, 0, 0, 0 }, r1[4] = { 0, 0, 0, 0 };
#pragma unroll
    for (int c = 0; c < 4; c++) {
        if (homg_marked_index_p2(xb + c, nx, H.m) >= 0)
            marked |= 1u << c;
        homg_bracket_p2(xb + c, nx, H.m, inv_l, &x0[c], &x1[c], &tx[c]);
    }
#pragma unroll
    for (int k = 0; k < R; k++) {
        const int y = yb + k;
        if (y >= ny)
            break;
        int y0, y1;
        double ty;
        homg_bracket_p2(y, ny, H.m, inv_l, &y0, &y1, &ty); /* the same for the whole warp */
        if (y0 != yk) {
            const float *row0 = u + (size_t)y0 * nx, *row1 = u + (size_t)y1 * nx;
#pragma unroll
            for (int c = 0; c < 4; c++) {
                const double n0 = y0 == yk1 ? r1[c] : homg_lerp_row(row0, x0[c], x1[c], tx[c]);
                const double n1 = y1 == yk ? r0[c] : homg_lerp_row(row1, x0[c], x1[c], tx[c]);
                r0[c] = n0;
                r1[c] = n1;
            }
            yk = y0;
            yk1 = y1;
        }
        double v0 = homg_lerp_d(r0[0], r1[0], ty), v1 = homg_lerp_d(r0[1], r1[1], ty);
        double v2 = homg_lerp_d(r0[2], r1[2], ty), v3 = homg_lerp_d(r0[3], r1[3], ty);
        if (marked && homg_marked_index_p2(y, ny, H.m) >= 0) {
            /* one call site (homg_point inline once), one pass per marked column */
#pragma unroll 1
            for (unsigned b = marked; b; b &= b - 1) {
                const int c = __ffs(b) - 1;
                const double vm = homg_point(&L, &H, inv_l, fm, u, xb + c, y);
                v0 = c == 0 ? vm : v0;
                v1 = c == 1 ? vm : v1;
                v2 = c == 2 ? vm : v2;
                v3 = c == 3 ? vm : v3;
            }
        }
        *(float4 *)(u_out + (size_t)y * nx + xb) = make_float4((float)v0, (float)v1, (float)v2, (float)v3);
    }
}

/* Level 0 (l = 1: every point marked, f_0 = r whole) by columns: a thread takes
 * one column and R consecutive rows, its own column's rows y-1, y, y+1 kept in a
 * register window (converted once), so an interior point loads three values (the
 * new row below, west, east) and rhs, without the marked-index and ghost tests.
 * The same arms in the same order and homg_relax as homg_point (whose inv is
 * inv_h2 * 1 * 1 at l = 1): the same values.  A thread whose rows are all
 * interior runs them unrolled without tests; edge points take homg_point. */
template <typename T, bool Inside>
__device__ __forceinline__ double homg_iterate0_step(const grid_level &L, const mfmg_level &H, const T *f, const T *u,
                                                     const T *uc, const T *fc, int x, int y, double s, double c,
                                                     double n)
{
    if (!Inside && (y == 0 || y == L.ny - 1))
        return homg_point_edge(&L, &H, 1.0, f, u, x, y);
    double nb = 0;
    nb += (double)uc[-1];
    nb += (double)uc[1];
    nb += s;
    nb += n;
    return homg_relax_d(c, nb, 0.0, (double)fc[0], L.inv_h2, L.lambda, H.omega);
}

template <typename T, int R>
__global__ void __launch_bounds__(BX *BY, 4)
    homg_iterate0_cols_kernel(grid_level L, mfmg_level H, const T *__restrict__ f, const T *__restrict__ u,
                              T *__restrict__ u_out)
{
    homg_pdl_wait();
    const int nx = L.nx, ny = L.ny;
    const int x = blockIdx.x * BX + threadIdx.x, yb = (blockIdx.y * BY + threadIdx.y) * R;
    if (x >= nx || yb >= ny)
        return;
    if (x == 0 || x == nx - 1) {
#pragma unroll 1
        for (int y = yb; y < yb + R && y < ny; y++)
            u_out[(size_t)y * nx + x] = (T)homg_point_edge(&L, &H, 1.0, f, u, x, y);
        return;
    }
    const size_t at = (size_t)yb * nx + x;
    const T *uc = u + at, *fc = f + at;
    T *oc = u_out + at;
    double s = yb > 0 ? (double)uc[-(ptrdiff_t)nx] : 0, c = (double)uc[0];
    if (yb >= 1 && yb + R < ny) {
#pragma unroll
        for (int k = 0; k < R; k++) {
            const double n = (double)uc[nx];
            oc[0] = (T)homg_iterate0_step<T, true>(L, H, f, u, uc, fc, x, yb + k, s, c, n);
            s = c;
            c = n;
            uc += nx;
            fc += nx;
            oc += nx;
        }
        return;
    }
#pragma unroll 1
    for (int y = yb; y < yb + R && y < ny; y++) {
        const double n = y + 1 < ny ? (double)uc[nx] : 0;
        oc[0] = (T)homg_iterate0_step<T, false>(L, H, f, u, uc, fc, x, y, s, c, n);
        s = c;
        c = n;
        uc += nx;
        fc += nx;
        oc += nx;
    }
}

/* The filter with tap spacing s by columns: a thread takes one column and the R
 * rows j0, j0 + s, ..., j0 + (R-1) s (the rows one output's taps reach), the three
 * taps of rows j-s, j, j+s kept in registers, so an interior output loads and
 * converts three values (row j+s) instead of nine, and every row is read once per
 * thread (at large s the point form re-read rows that had left L2).  Thread row q
 * takes j0 = (q / s) s R + q % s.  homg_filter_taps in the point form's order: the
 * same values.  A thread whose outputs are all interior runs them unrolled without
 * tests; outputs with taps outside the grid take homg_filter_point. */
static int homg_filter_thread_rows(int ny, int s, int R) { return (ny + s * R - 1) / (s * R) * s; }

template <typename T, int R>
__global__ void homg_filter_cols_kernel(int nx, int ny, int s, const T *__restrict__ src, T *__restrict__ dst)
{
    homg_pdl_wait();
    const int i = blockIdx.x * BX + threadIdx.x, q = blockIdx.y * BY + threadIdx.y;
    const int j0 = q / s * (s * R) + q % s;
    if (i >= nx || j0 >= ny)
        return;
    if (i < s || i + s >= nx) {
#pragma unroll 1
        for (int k = 0, j = j0; k < R && j < ny; k++, j += s)
            dst[(size_t)j * nx + i] = (T)homg_filter_point_edge(nx, ny, s, src, i, j);
        return;
    }
    const ptrdiff_t down = (ptrdiff_t)s * nx;
    const T *p = src + (size_t)j0 * nx + i;
    T *o = dst + (size_t)j0 * nx + i;
    double a0 = 0, a1 = 0, a2 = 0, b0 = (double)p[-s], b1 = (double)p[0], b2 = (double)p[s];
    if (j0 >= s) {
        a0 = (double)p[-down - s];
        a1 = (double)p[-down];
        a2 = (double)p[-down + s];
    }
    if (j0 >= s && j0 + R * s < ny) {
#pragma unroll
        for (int k = 0; k < R; k++) {
            const double c0 = (double)p[down - s], c1 = (double)p[down], c2 = (double)p[down + s];
            o[0] = (T)homg_filter_taps_d(a0, a1, a2, b0, b1, b2, c0, c1, c2);
            a0 = b0, a1 = b1, a2 = b2;
            b0 = c0, b1 = c1, b2 = c2;
            p += down;
            o += down;
        }
        return;
    }
#pragma unroll 1
    for (int k = 0, j = j0; k < R && j < ny; k++, j += s) {
        double c0 = 0, c1 = 0, c2 = 0;
        if (j + s < ny) {
            c0 = (double)p[down - s];
            c1 = (double)p[down];
            c2 = (double)p[down + s];
        }
        o[0] = (T)(j >= s && j + s < ny ? homg_filter_taps_d(a0, a1, a2, b0, b1, b2, c0, c1, c2)
                                        : homg_filter_point_edge(nx, ny, s, src, i, j));
        a0 = b0, a1 = b1, a2 = b2;
        b0 = c0, b1 = c1, b2 = c2;
        p += down;
        o += down;
    }
}

#define HOMG_COLS_R 8

/* Which form each HOMG pass takes; every form gives the same values.  Measured per
 * kernel (H100, float32, bench/results/h100.md "Session 11 homg4"): the column and
 * reuse forms win where a pass streams from DRAM (4096^2: level 0, levels 1-5, the
 * filters up to s = 64) and lose where it is latency- or issue-bound (1024^2, whose
 * arrays sit in L2; levels >= 6 and the filters with s >= 128 at 4096^2).  Float32
 * levels m >= 2 take homg_iterate_vec4_kernel at every size where nx % 4 == 0 ("Session
 * 12 homg5": 4096^2 40.1 -> 30.6 ms); the rows kernels then serve float64, odd widths
 * and m = 1.  Float32 levels 0, 1 and 2 with nx % 4 == 0 go first to homg_level01.cuh's
 * launcher (level 1 at every size, level 0 on large grids: "Session 13 homg6", 4096^2
 * 30.6 -> 27.0 ms; on 4096^2 and up level 1 bound to 3 blocks an SM and level 2 by its own
 * window kernel: "Session 13 homg8", 26.1 -> 25.5 ms); the forms
 * below take what it leaves.  Knobs:
 *   HOMG_HOMG_BIG_N (default 2^22): grids of at least this many points are "large";
 *   HOMG_HOMG_COLS0 (default 1): level 0 by homg_iterate0_cols_kernel at every size
 *     (0: the point kernel);
 *   HOMG_HOMG_FCOLS (default 1), HOMG_HOMG_FCOLS_MAX_S (default 64): on large grids
 *     the filters of spacing s <= FCOLS_MAX_S by homg_filter_cols_kernel (0: never)
 *     unless homg_filter_vec4_kernel takes them first (HOMG_HOMG_FVEC*, float32; see
 *     homg_filter_vec4_try);
 *   HOMG_HOMG_ROWS_M: the lowest level for the rows kernels (default 1 on large grids,
 *     2 otherwise; negative or above every level: the point kernel everywhere);
 *   HOMG_HOMG_REUSE_MAX_M (default 5): on large grids the levels up to it take
 *     homg_iterate_rows_reuse_kernel, the others homg_iterate_rows_kernel;
 *   HOMG_HOMG_ROWS: rows a thread of the rows kernels, 4 or 8 (default 8);
 *   HOMG_HOMG_VEC_M (default 2, never below 2): float32 levels from it up take
 *     homg_iterate_vec4_kernel where nx % 4 == 0 (above every level: off);
 *   HOMG_HOMG_VEC_ROWS: rows a thread of homg_iterate_vec4_kernel, 4 or 8 (default 8 on
 *     large grids, 4 below: "Session 12 homg5", 1024^2 -6% with 4, 2048^2 and 4096^2
 *     +10% and +11% with 4). */
static int homg_env_int(const char *name, int fallback)
{
    const char *e = getenv(name);
    return e && *e ? atoi(e) : fallback;
}

static bool homg_large_grid(int nx, int ny) { return (double)nx * ny >= homg_env_int("HOMG_HOMG_BIG_N", 1 << 22); }

/* Every HOMG pass is launched with programmatic dependent launch (kernels/core/pdl.cuh;
 * each kernel's first line is homg_pdl_wait): a restart is ~50 dependent passes, at
 * 2048^2 of 5-30 us each, so the launch and ramp between two of them is a large share
 * (H100 "Session 14 homg11": plain launches 2.40 / 6.88 ms at 1024^2 / 2048^2 float32
 * against 2.35 / 6.79 with PDL; the knob HOMG_HOMG_PDL went in session 15). */
#define HOMG_PDL 1

template <typename T>
static void homg_iterate_rows_launch(cudaStream_t s, int rows, bool reuse, const grid_level *L, const mfmg_level *H,
                                     const void *fm, const void *u_in, void *u_out)
{
    const dim3 threads(BX, BY);
    const int ry = rows == 4 ? 4 : 8;
    const dim3 blocks((L->nx + BX - 1) / BX, (L->ny + BY * ry - 1) / (BY * ry));
    const T *f = (const T *)fm, *u = (const T *)u_in;
    if (reuse && ry == 4)
        homg_pdl_launch(s, blocks, threads, HOMG_PDL, homg_iterate_rows_reuse_kernel<T, 4>, *L, *H, f, u, (T *)u_out);
    else if (reuse)
        homg_pdl_launch(s, blocks, threads, HOMG_PDL, homg_iterate_rows_reuse_kernel<T, 8>, *L, *H, f, u, (T *)u_out);
    else if (ry == 4)
        homg_pdl_launch(s, blocks, threads, HOMG_PDL, homg_iterate_rows_kernel<T, 4>, *L, *H, f, u, (T *)u_out);
    else
        homg_pdl_launch(s, blocks, threads, HOMG_PDL, homg_iterate_rows_kernel<T, 8>, *L, *H, f, u, (T *)u_out);
}

#include "homg_level01.cuh" /* levels 0, 1 and 2 by float4 columns */

/* ------------------------------------------------------------ launchers */

static homg_status cu_residual(kernel_exec *ex, homg_precision p, const grid_level *L, const void *u, const void *f,
                               void *r)
{
    cudaStream_t s = homg_cuda_stream(ex);
    if (p == HOMG_FLOAT64)
        residual_kernel<double>
            <<<blocks_for(L->nx, L->ny), dim3(BX, BY), 0, s>>>(*L, (const double *)u, (const double *)f, (double *)r);
    else
        residual_kernel<float>
            <<<blocks_for(L->nx, L->ny), dim3(BX, BY), 0, s>>>(*L, (const float *)u, (const float *)f, (float *)r);
    HOMG_CUDA_LAUNCHED(ex, "residual_kernel");
    return HOMG_OK;
}

static homg_status cu_residual_restrict(kernel_exec *ex, homg_precision p, const grid_level *L, const void *u,
                                        const void *f, void *fc)
{
    cudaStream_t s = homg_cuda_stream(ex);
    dim3 g = blocks_for(L->nx / 2, L->ny / 2);
    if (p == HOMG_FLOAT64)
        residual_restrict_kernel<double>
            <<<g, dim3(BX, BY), 0, s>>>(*L, (const double *)u, (const double *)f, (double *)fc);
    else
        residual_restrict_kernel<float><<<g, dim3(BX, BY), 0, s>>>(*L, (const float *)u, (const float *)f, (float *)fc);
    HOMG_CUDA_LAUNCHED(ex, "residual_restrict_kernel");
    return HOMG_OK;
}

static homg_status cu_prolong(kernel_exec *ex, homg_precision p, const grid_level *L, const void *ec, void *u,
                              int assign)
{
    cudaStream_t s = homg_cuda_stream(ex);
    if (p == HOMG_FLOAT64)
        prolong_kernel<double>
            <<<blocks_for(L->nx, L->ny), dim3(BX, BY), 0, s>>>(*L, (const double *)ec, (double *)u, assign);
    else
        prolong_kernel<float>
            <<<blocks_for(L->nx, L->ny), dim3(BX, BY), 0, s>>>(*L, (const float *)ec, (float *)u, assign);
    HOMG_CUDA_LAUNCHED(ex, "prolong_kernel");
    return HOMG_OK;
}

static homg_status cu_smooth(kernel_exec *ex, homg_precision p, const grid_level *L, void *u, const void *f, int sweeps)
{
    cudaStream_t s = homg_cuda_stream(ex);
    dim3 g = blocks_for((L->nx + 1) / 2, L->ny);
    for (int k = 0; k < 2 * sweeps; k++) {
        if (p == HOMG_FLOAT64)
            smooth_colour_kernel<double><<<g, dim3(BX, BY), 0, s>>>(*L, (double *)u, (const double *)f, k & 1);
        else
            smooth_colour_kernel<float><<<g, dim3(BX, BY), 0, s>>>(*L, (float *)u, (const float *)f, k & 1);
        HOMG_CUDA_LAUNCHED(ex, "smooth_colour_kernel");
    }
    return HOMG_OK;
}

homg_status homg_cuda_grid_smooth_restrict(kernel_exec *ex, homg_precision p, const grid_level *L, const void *u_in,
                                           void *u_out, const void *f, void *fc, int sweeps, int init, const void *ec);
homg_status homg_cuda_grid_prolong_smooth(kernel_exec *ex, homg_precision p, const grid_level *L, const void *ec,
                                          const void *u_in, void *u_out, const void *f, int sweeps, int assign);
int homg_cuda_grid_mid_fits(homg_precision p, const grid_level *L, int sweeps, const void *const ptrs[4]);
homg_status homg_cuda_grid_prolong_smooth_restrict(kernel_exec *ex, homg_precision p, const grid_level *L,
                                                   const void *ec, const void *u_in, void *u_out, const void *f,
                                                   void *fc, int sweeps); /* grid_fused.cu */

static homg_status cu_coarse_solve(kernel_exec *ex, homg_precision p, const grid_level *L, void *u, const void *f,
                                   int sweeps)
{
    cudaStream_t s = homg_cuda_stream(ex);
    int n = L->nx * L->ny, threads = n < 1024 ? ((n + 31) / 32) * 32 : 1024;
    if (p == HOMG_FLOAT64)
        coarse_solve_kernel<double><<<1, threads, 0, s>>>(*L, (double *)u, (const double *)f, sweeps);
    else
        coarse_solve_kernel<float><<<1, threads, 0, s>>>(*L, (float *)u, (const float *)f, sweeps);
    HOMG_CUDA_LAUNCHED(ex, "coarse_solve_kernel");
    return HOMG_OK;
}

static unsigned grid_stride_blocks(kernel_exec *ex, size_t n)
{
    size_t b = (n + 255) / 256, cap = (size_t)ex->sm_count * 8;
    return (unsigned)(b < cap ? (b ? b : 1) : cap);
}

static homg_status cu_coarse_exact(kernel_exec *ex, homg_precision p, const grid_level *L, void *u, const void *f,
                                   const void *qx, const void *qy, const void *inv_eig)
{
    cudaStream_t s = homg_cuda_stream(ex);
    dim3 threads(HOMG_COARSE_EXACT_MAX, HOMG_COARSE_EXACT_MAX);
    if (L->nx > HOMG_COARSE_EXACT_MAX || L->ny > HOMG_COARSE_EXACT_MAX)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "coarse_exact: %d x %d is larger than %d", L->nx, L->ny,
                              HOMG_COARSE_EXACT_MAX);
    /* programmatic dependent launch as the fused steps (the level's tune.pdl, HOMG_BOX_PDL=0:
     * plain): the basis loads while the down step before it finishes */
    const int pdl = L->tune ? L->tune->pdl : 1;
    if (p == HOMG_FLOAT64)
        homg_pdl_launch(s, dim3(1), threads, pdl, coarse_exact_kernel<double>, *L, (double *)u, (const double *)f,
                        (const double *)qx, (const double *)qy, (const double *)inv_eig);
    else
        homg_pdl_launch(s, dim3(1), threads, pdl, coarse_exact_kernel<float>, *L, (float *)u, (const float *)f,
                        (const float *)qx, (const float *)qy, (const float *)inv_eig);
    HOMG_CUDA_LAUNCHED(ex, "coarse_exact_kernel");
    return HOMG_OK;
}

static homg_status cu_restrict_boundary(kernel_exec *ex, homg_precision p, const grid_level *L, void *const out[4])
{
    cudaStream_t s = homg_cuda_stream(ex);
    int total = L->nx + L->ny, blocks = (total + 255) / 256;
    if (p == HOMG_FLOAT64)
        restrict_boundary_kernel<double>
            <<<blocks, 256, 0, s>>>(*L, (double *)out[0], (double *)out[1], (double *)out[2], (double *)out[3]);
    else
        restrict_boundary_kernel<float>
            <<<blocks, 256, 0, s>>>(*L, (float *)out[0], (float *)out[1], (float *)out[2], (float *)out[3]);
    HOMG_CUDA_LAUNCHED(ex, "restrict_boundary_kernel");
    return HOMG_OK;
}

static homg_status cu_add(kernel_exec *ex, homg_precision p, size_t n, const void *x, void *y)
{
    cudaStream_t s = homg_cuda_stream(ex);
    if (p == HOMG_FLOAT64)
        add_kernel<double><<<grid_stride_blocks(ex, n), 256, 0, s>>>(n, (const double *)x, (double *)y);
    else
        add_kernel<float><<<grid_stride_blocks(ex, n), 256, 0, s>>>(n, (const float *)x, (float *)y);
    HOMG_CUDA_LAUNCHED(ex, "add_kernel");
    return HOMG_OK;
}

static homg_status cu_monitor(kernel_exec *ex, homg_precision p, const grid_level *L, const void *u, const void *f,
                              const void *u_ref, double *scratch, double *hist, int *count)
{
    cudaStream_t s = homg_cuda_stream(ex);
    if (p == HOMG_FLOAT64)
        monitor_sum_kernel<double><<<blocks_for(L->nx, L->ny), dim3(BX, BY), 0, s>>>(
            *L, (const double *)u, (const double *)f, (const double *)u_ref, scratch);
    else
        monitor_sum_kernel<float><<<blocks_for(L->nx, L->ny), dim3(BX, BY), 0, s>>>(
            *L, (const float *)u, (const float *)f, (const float *)u_ref, scratch);
    HOMG_CUDA_LAUNCHED(ex, "monitor_sum_kernel");
    monitor_finish_kernel<<<1, 1, 0, s>>>(scratch, hist, count);
    HOMG_CUDA_LAUNCHED(ex, "monitor_finish_kernel");
    return HOMG_OK;
}

static homg_status cu_find_nonfinite(kernel_exec *ex, homg_precision p, size_t n, const void *x, long long *flag)
{
    cudaStream_t s = homg_cuda_stream(ex);
    if (p == HOMG_FLOAT64)
        find_nonfinite_kernel<double>
            <<<grid_stride_blocks(ex, n), 256, 0, s>>>(n, (const double *)x, (unsigned long long *)flag);
    else
        find_nonfinite_kernel<float>
            <<<grid_stride_blocks(ex, n), 256, 0, s>>>(n, (const float *)x, (unsigned long long *)flag);
    HOMG_CUDA_LAUNCHED(ex, "find_nonfinite_kernel");
    return HOMG_OK;
}

static void homg_gather_launch(cudaStream_t s, homg_precision p, int nx, int ny, const mfmg_level *H, const void *src,
                               void *compact)
{
    if (p == HOMG_FLOAT64)
        homg_pdl_launch(s, blocks_for(H->cx, H->cy), dim3(BX, BY), HOMG_PDL, homg_gather_kernel<double>, nx, ny, *H,
                        (const double *)src, (double *)compact);
    else
        homg_pdl_launch(s, blocks_for(H->cx, H->cy), dim3(BX, BY), HOMG_PDL, homg_gather_kernel<float>, nx, ny, *H,
                        (const float *)src, (float *)compact);
}

extern "C" void homg_cuda_filter_vec4_launch(cudaStream_t st, int rows, int minb, int pf, int pdl, int nx, int ny,
                                             int s, const float *src, float *dst, const mfmg_level *H, float *compact,
                                             int zero_dst); /* homg_filter.cu */

/* The float32 filters of spacing s >= HOMG_HOMG_FVEC_MIN_S on large grids by
 * homg_filter_vec4_kernel (homg_filter.cu), where the float4 groups fit: nx % 4 == 0,
 * s % 4 == 0 or s = 1, 2, 16-byte aligned arrays.  Defaults ("Session 13 homg9", H100,
 * each size's setting run as one binary): every s (MIN_S 1), 3 blocks an SM, two rows
 * in flight a thread (PREFETCH) on grids of 2^24 points up: 4096^2 26.15 -> 25.51 ms
 * (homg7's s >= 128 with the new kernel 25.79); the next row only below: 2048^2 6.94
 * -> 6.80.  Knobs: HOMG_HOMG_FVEC (default 1; 0: never), HOMG_HOMG_FVEC_MIN_S (homg7:
 * 128 from 2^24 points, 4 below), HOMG_HOMG_FVEC_ROWS (outputs a thread, 1 to 16;
 * default 8 where a chain has 8 rows or more, else 4), HOMG_HOMG_FVEC_FIT (1: the rows
 * by homg_filter_vec4_fit_rows instead; default on large grids below 2^24 points:
 * 2048^2 with level 1 bound 3, "Session 14 homg11": 6.78 -> 6.56 ms; 4096^2 24.35 ->
 * 24.28, within noise, left off), HOMG_HOMG_FVEC_BLOCKS (blocks an SM the
 * kernel's registers are bounded for: 2, 3 or 4; default 3; 2 and 4 were slower),
 * HOMG_HOMG_FVEC_PREFETCH (1: two rows in flight a thread). */
extern "C" long homg_cuda_filter_vec4_blocks(int nx, int ny, int s, int R); /* homg_filter.cu */

/* The outputs a thread (4 to 16) whose blocks fill the SMs' slots best over whole waves
 * (blocks / (waves x slots), waves rounded up; the first best from 8 down, then up):
 * at 2048^2 R = 8 starts 512 blocks, 1.3 waves of 396, R = 11 384 (one wave). */
static int homg_filter_vec4_fit_rows(int nx, int ny, int sp, int slots)
{
    static const int order[] = { 8, 7, 6, 5, 4, 9, 10, 11, 12, 13, 14, 15, 16 };
    int best = 8;
    double best_fill = 0;
    for (int k = 0; k < (int)(sizeof order / sizeof order[0]); k++) {
        const double b = (double)homg_cuda_filter_vec4_blocks(nx, ny, sp, order[k]);
        const double fill = b / (ceil(b / slots) * slots);
        if (fill > best_fill + 1e-9) {
            best_fill = fill;
            best = order[k];
        }
    }
    return best;
}

static bool homg_filter_vec4_try(cudaStream_t st, int sm_count, homg_precision p, int nx, int ny, int sp,
                                 const void *src, void *dst, const mfmg_level *H, void *compact, int zero_dst)
{
    const bool huge = (double)nx * ny >= (double)(1 << 24);
    if (p != HOMG_FLOAT32 || !homg_env_int("HOMG_HOMG_FVEC", 1) || !homg_large_grid(nx, ny) ||
        sp < homg_env_int("HOMG_HOMG_FVEC_MIN_S", 1) || (sp % 4 && sp != 1 && sp != 2) || nx % 4 ||
        (uintptr_t)src % 16 || (uintptr_t)dst % 16)
        return false;
    const int chain = (ny + sp - 1) / sp, minb = homg_env_int("HOMG_HOMG_FVEC_BLOCKS", 3);
    const char *set = getenv("HOMG_HOMG_FVEC_ROWS"); /* set: it wins over the fit */
    int rows = set && *set ? atoi(set) : chain >= 8 ? 8 : 4;
    if (!(set && *set) && homg_env_int("HOMG_HOMG_FVEC_FIT", huge ? 0 : 1))
        rows = homg_filter_vec4_fit_rows(nx, ny, sp, sm_count * (minb < 2 ? 2 : minb > 4 ? 4 : minb));
    homg_cuda_filter_vec4_launch(st,
                                 rows < 1    ? 1
                                 : rows > 16 ? 16
                                             : rows,
                                 minb, homg_env_int("HOMG_HOMG_FVEC_PREFETCH", huge ? 1 : 0), HOMG_PDL, nx, ny, sp,
                                 (const float *)src, (float *)dst, H, (float *)compact, zero_dst);
    return true;
}

/* The float4 and point kernels gather level H's marked points and zero dst as they
 * store (one pass; H100 "Session 14 homg11": 1024^2 float32 2.42 -> 2.35 ms, 2048^2 a tie;
 * the knob HOMG_HOMG_FUSE_GATHER went in session 15): after the column kernel the gather
 * kernel and a memset follow the filter. */
static homg_status cu_homg_filter(kernel_exec *ex, homg_precision p, int nx, int ny, int sp, const void *src, void *dst,
                                  const mfmg_level *H, void *compact, int zero_dst)
{
    cudaStream_t s = homg_cuda_stream(ex);
    const int pdl = HOMG_PDL;
    const bool fuse = compact && H;
    const mfmg_level Hf = fuse ? *H : homg_mfmg_level(nx, ny, 0, 0.0);
    bool fused = fuse;
    if (homg_filter_vec4_try(s, ex->sm_count, p, nx, ny, sp, src, dst, &Hf, fuse ? compact : NULL, fuse && zero_dst)) {
        HOMG_CUDA_LAUNCHED(ex, "homg_filter_vec4_kernel");
    } else if (homg_env_int("HOMG_HOMG_FCOLS", 1) && homg_large_grid(nx, ny) &&
               sp <= homg_env_int("HOMG_HOMG_FCOLS_MAX_S", 64)) {
        const dim3 blocks((nx + BX - 1) / BX, (homg_filter_thread_rows(ny, sp, HOMG_COLS_R) + BY - 1) / BY);
        if (p == HOMG_FLOAT64)
            homg_pdl_launch(s, blocks, dim3(BX, BY), pdl, homg_filter_cols_kernel<double, HOMG_COLS_R>, nx, ny, sp,
                            (const double *)src, (double *)dst);
        else
            homg_pdl_launch(s, blocks, dim3(BX, BY), pdl, homg_filter_cols_kernel<float, HOMG_COLS_R>, nx, ny, sp,
                            (const float *)src, (float *)dst);
        HOMG_CUDA_LAUNCHED(ex, "homg_filter_cols_kernel");
        fused = false;
    } else {
        const int z = fuse && zero_dst;
        if (p == HOMG_FLOAT64)
            homg_pdl_launch(s, homg_blocks_for(nx, ny), dim3(BX, BY), pdl, homg_filter_kernel<double>, nx, ny, sp,
                            (const double *)src, (double *)dst, Hf, fuse ? (double *)compact : (double *)NULL, z);
        else
            homg_pdl_launch(s, homg_blocks_for(nx, ny), dim3(BX, BY), pdl, homg_filter_kernel<float>, nx, ny, sp,
                            (const float *)src, (float *)dst, Hf, fuse ? (float *)compact : (float *)NULL, z);
        HOMG_CUDA_LAUNCHED(ex, "homg_filter_kernel");
    }
    if (compact && H && !fused) {
        homg_gather_launch(s, p, nx, ny, H, dst, compact);
        HOMG_CUDA_LAUNCHED(ex, "homg_gather_kernel");
    }
    if (zero_dst && !fused)
        HOMG_CUDA_TRY(ex, cudaMemsetAsync(dst, 0, (size_t)nx * ny * (p == HOMG_FLOAT64 ? 8 : 4), s));
    return HOMG_OK;
}

static homg_status cu_homg_gather(kernel_exec *ex, homg_precision p, int nx, int ny, const mfmg_level *H,
                                  const void *src, void *compact)
{
    homg_gather_launch(homg_cuda_stream(ex), p, nx, ny, H, src, compact);
    HOMG_CUDA_LAUNCHED(ex, "homg_gather_kernel");
    return HOMG_OK;
}

static homg_status cu_homg_iterate(kernel_exec *ex, homg_precision p, const grid_level *L, const mfmg_level *H,
                                   const void *fm, const void *u_in, void *u_out)
{
    cudaStream_t s = homg_cuda_stream(ex);
    const bool large = homg_large_grid(L->nx, L->ny);
    const int rows_m = homg_env_int("HOMG_HOMG_ROWS_M", large ? 1 : 2);
    if (p == HOMG_FLOAT32) { /* levels 0 and 1 by float4 columns where it takes them */
        const char *name = homg_l01_launch(s, L, H, fm, u_in, u_out);
        if (name) {
            HOMG_CUDA_LAUNCHED(ex, name);
            return HOMG_OK;
        }
    }
    if (p == HOMG_FLOAT32 && H->m >= 2 && H->m >= homg_env_int("HOMG_HOMG_VEC_M", 2) && L->nx % 4 == 0 &&
        (uintptr_t)u_out % 16 == 0) {
        const int ry = homg_env_int("HOMG_HOMG_VEC_ROWS", large ? 8 : 4) == 4 ? 4 : 8;
        const dim3 blocks((L->nx / 4 + BX - 1) / BX, (L->ny + BY * ry - 1) / (BY * ry));
        if (ry == 4)
            homg_pdl_launch(s, blocks, dim3(BX, BY), HOMG_PDL, homg_iterate_vec4_kernel<4>, *L, *H, (const float *)fm,
                            (const float *)u_in, (float *)u_out);
        else
            homg_pdl_launch(s, blocks, dim3(BX, BY), HOMG_PDL, homg_iterate_vec4_kernel<8>, *L, *H, (const float *)fm,
                            (const float *)u_in, (float *)u_out);
        HOMG_CUDA_LAUNCHED(ex, "homg_iterate_vec4_kernel");
        return HOMG_OK;
    }
    if (rows_m >= 0 && H->m >= rows_m) {
        const int rows = homg_env_int("HOMG_HOMG_ROWS", 8);
        const bool reuse = large && H->m <= homg_env_int("HOMG_HOMG_REUSE_MAX_M", 5);
        if (p == HOMG_FLOAT64)
            homg_iterate_rows_launch<double>(s, rows, reuse, L, H, fm, u_in, u_out);
        else
            homg_iterate_rows_launch<float>(s, rows, reuse, L, H, fm, u_in, u_out);
        HOMG_CUDA_LAUNCHED(ex, "homg_iterate_rows_kernel");
        return HOMG_OK;
    }
    if (H->m == 0 && homg_env_int("HOMG_HOMG_COLS0", 1)) {
        const dim3 blocks((L->nx + BX - 1) / BX, (L->ny + BY * HOMG_COLS_R - 1) / (BY * HOMG_COLS_R));
        if (p == HOMG_FLOAT64)
            homg_pdl_launch(s, blocks, dim3(BX, BY), HOMG_PDL, homg_iterate0_cols_kernel<double, HOMG_COLS_R>, *L, *H,
                            (const double *)fm, (const double *)u_in, (double *)u_out);
        else
            homg_pdl_launch(s, blocks, dim3(BX, BY), HOMG_PDL, homg_iterate0_cols_kernel<float, HOMG_COLS_R>, *L, *H,
                            (const float *)fm, (const float *)u_in, (float *)u_out);
        HOMG_CUDA_LAUNCHED(ex, "homg_iterate0_cols_kernel");
        return HOMG_OK;
    }
    if (p == HOMG_FLOAT64)
        homg_pdl_launch(s, homg_blocks_for(L->nx, L->ny), dim3(BX, BY), HOMG_PDL, homg_iterate_kernel<double>, *L, *H,
                        (const double *)fm, (const double *)u_in, (double *)u_out);
    else
        homg_pdl_launch(s, homg_blocks_for(L->nx, L->ny), dim3(BX, BY), HOMG_PDL, homg_iterate_kernel<float>, *L, *H,
                        (const float *)fm, (const float *)u_in, (float *)u_out);
    HOMG_CUDA_LAUNCHED(ex, "homg_iterate_kernel");
    return HOMG_OK;
}

static homg_status cu_homg_iterate_marked(kernel_exec *ex, homg_precision p, const grid_level *L, const mfmg_level *H,
                                          const mfmg_level *W, const void *fm, const void *u_in, void *u_out)
{
    cudaStream_t s = homg_cuda_stream(ex);
    const dim3 blocks = blocks_for(W->cx + 2, W->cy + 2);
    if (p == HOMG_FLOAT64)
        homg_pdl_launch(s, blocks, dim3(BX, BY), HOMG_PDL, homg_iterate_marked_kernel<double>, *L, *H, *W,
                        (const double *)fm, (const double *)u_in, (double *)u_out);
    else
        homg_pdl_launch(s, blocks, dim3(BX, BY), HOMG_PDL, homg_iterate_marked_kernel<float>, *L, *H, *W,
                        (const float *)fm, (const float *)u_in, (float *)u_out);
    HOMG_CUDA_LAUNCHED(ex, "homg_iterate_marked_kernel");
    return HOMG_OK;
}

extern "C" const grid_kernels homg_cuda_grid_kernels = {
    cu_residual,
    cu_residual_restrict,
    cu_prolong,
    cu_smooth,
    homg_cuda_grid_smooth_restrict,
    homg_cuda_grid_prolong_smooth,
    cu_coarse_solve,
    cu_coarse_exact,
    homg_cuda_grid_exact_wide,
    cu_restrict_boundary,
    cu_add,
    cu_monitor,
    cu_find_nonfinite,
    cu_homg_filter,
    cu_homg_gather,
    cu_homg_iterate,
    cu_homg_iterate_marked,
    homg_cuda_grid_tol_check,
    homg_cuda_grid_mid_fits,
    homg_cuda_grid_prolong_smooth_restrict,
};
