/* grid_exact_wide.cu -- the coarsest level solved exactly in two launches of many blocks
 * (grid_kernels.h grid_exact_wide; twin: exact_wide in kernels/grid/grid_tmpl.h).
 * The sine bases are even or odd about their middle point (q[n-1-i][k] = (-1)^k q[i][k],
 * lib/grid/box.c), so every sum runs over half the points or half the modes (twod6's folds
 * of the 32^2 kernel, grid_exact.cuh): pass 1 folds its input into half-sums and
 * half-differences, pass 2 sums the even and odd modes of a point apart and writes the
 * point and its mirror.  Thread (x, s) sums range s of the (halved) inner index for lane x,
 * the ranges' partial sums meet in shared memory and are added in range order, as the twin
 * adds them. */
#include "core/cuda_check.h"
#include "core/pdl.cuh"
#include "grid_point.cuh"

#define EW_N HOMG_EXACT_WIDE_MAX
#define EW_S HOMG_EXACT_WIDE_SPLIT
/* Values a thread loads at once: the whole range of an inner sum (128 / 8) in float, and of
 * a halved sum (64 / 8). */
#define EW_CH (64 / (int)sizeof(T))
#define EW_HC (EW_CH / 2)

/* The R values of one inner index for the block's R rows, side by side in shared memory
 * so a thread reads them in one vector load (a warp's threads read the same address). */
template <typename T, int R> struct alignas(sizeof(T) * R > 16 ? 16 : sizeof(T) * R) ew_rows {
    T v[R];
};

/* The ranges' partial sums of row m, lane c (part[s][m][c]) added in range order. */
template <typename T, int R>
__device__ __forceinline__ T exact_wide_parts(const T (&part)[EW_S][R][EW_N], int m, int c, int S)
{
    T t = part[0][m][c];
    for (int q = 1; q < S; q++)
        t += part[q][m][c];
    return t;
}

/* Pass 1, w = (Qy^T (f + bterm) Qx) .* inv_eig (lm = qyt, rm = qx, sc = inv_eig): block b
 * takes mode rows b*R .. b*R+R-1.  Qy^T's row r is even / odd in j with r, so thread (x, s)
 * sums lm[r][j] (in[j][x] +- in[ny-1-j][x]) over range s of j < (ny+1)/2 (an odd ny's middle
 * point enters the even rows alone); the block's middle product is stored folded the same
 * way in its columns (column i < nx/2 the sum with column nx-1-i, that one the difference),
 * so mode c's sum over i reads column i (c even) or nx-1-i (c odd) for i < (nx+1)/2.
 * BT: the level has boundary data, whose term is added to f (the finest level only).
 * Everything but in (the previous kernel's output) is set-up data, loaded before the PDL
 * wait: lm's rows into shared memory, rm's column range into registers where it fits EW_HC. */
template <typename T, int R, bool BT>
__global__ void __launch_bounds__(1024, 1)
    exact_wide_in_kernel(grid_level L, const T *__restrict__ in, const T *__restrict__ lm, const T *__restrict__ rm,
                         const T *__restrict__ sc, T *__restrict__ out)
{
    __shared__ ew_rows<T, R> lrow[EW_N], mid[EW_N];
    __shared__ T part[EW_S][R][EW_N];
    __shared__ T scr[R][EW_N];
    const int nx = L.nx, ny = L.ny, x = threadIdx.x, s = threadIdx.y, S = blockDim.y;
    const int hx = nx / 2, hy = ny / 2, hxc = nx - hx, hyc = ny - hy;
    const int nt = blockDim.x * blockDim.y, tid = s * blockDim.x + x, r0 = blockIdx.x * R;
    const int i0 = s * hxc / S, i1 = (s + 1) * hxc / S, j0 = s * hyc / S, j1 = (s + 1) * hyc / S;
    const bool pre = i1 - i0 <= EW_HC && x < nx;
    T acc[R], a[EW_HC], d[EW_HC], rv[EW_HC];
    for (int k = tid; k < R * hyc; k += nt) {
        const int m = k / hyc, j = k - m * hyc;
        lrow[j].v[m] = r0 + m < ny ? lm[(r0 + m) * ny + j] : (T)0;
    }
    for (int k = tid; k < R * nx; k += nt) {
        const int m = k / nx, c = k - m * nx;
        scr[m][c] = r0 + m < ny ? sc[(r0 + m) * nx + c] : (T)0;
    }
#pragma unroll
    for (int k = 0; k < EW_HC; k++) { /* an odd nx's middle point enters the even modes alone */
        const int i = i0 + k;
        rv[k] = pre && k < i1 - i0 && !(i == hx && (x & 1)) ? rm[i * nx + x] : (T)0;
    }
    homg_pdl_wait();
    __syncthreads();
#pragma unroll
    for (int m = 0; m < R; m++)
        acc[m] = 0;
    if (x < nx)
        for (int jb = j0; jb < j1; jb += EW_HC) {
            const int n = min(EW_HC, j1 - jb);
#pragma unroll
            for (int k = 0; k < EW_HC; k++) {
                const int j = jb + k, jm = ny - 1 - j;
                T v = 0, vm = 0;
                if (k < n) {
                    v = BT ? (T)((double)in[j * nx + x] + bterm_at<T>(L, x, j)) : in[j * nx + x];
                    if (j < hy)
                        vm = BT ? (T)((double)in[jm * nx + x] + bterm_at<T>(L, x, jm)) : in[jm * nx + x];
                }
                a[k] = j < hy ? v + vm : v;    /* the middle point: itself in the sum, */
                d[k] = j < hy ? v - vm : (T)0; /* nothing in the difference */
            }
#pragma unroll
            for (int k = 0; k < EW_HC; k++)
                if (k < n) {
                    const ew_rows<T, R> t = lrow[jb + k];
#pragma unroll
                    for (int m = 0; m < R; m++) {
                        const bool odd = R % 2 == 0 ? (m & 1) : ((r0 + m) & 1);
                        acc[m] += t.v[m] * (odd ? d[k] : a[k]);
                    }
                }
        }
#pragma unroll
    for (int m = 0; m < R; m++)
        part[s][m][x] = acc[m];
    __syncthreads();
    for (int k = tid; k < R * hxc; k += nt) { /* the middle product, folded in its columns */
        const int m = k / hxc, c = k - m * hxc;
        const T t = exact_wide_parts<T, R>(part, m, c, S);
        if (c < hx) {
            const T tm = exact_wide_parts<T, R>(part, m, nx - 1 - c, S);
            mid[c].v[m] = t + tm;
            mid[nx - 1 - c].v[m] = t - tm;
        } else
            mid[c].v[m] = t;
    }
    __syncthreads();
#pragma unroll
    for (int m = 0; m < R; m++)
        acc[m] = 0;
    if (x < nx) {
        const bool xo = x & 1;
        for (int ib = i0; ib < i1; ib += EW_HC) {
            const int n = min(EW_HC, i1 - ib);
#pragma unroll
            for (int k = 0; k < EW_HC; k++)
                if (k < n) {
                    const int i = ib + k;
                    const T w = pre ? rv[k] : i == hx && xo ? (T)0 : rm[i * nx + x];
                    const ew_rows<T, R> t = mid[xo && i < hx ? nx - 1 - i : i];
#pragma unroll
                    for (int m = 0; m < R; m++)
                        acc[m] += t.v[m] * w;
                }
        }
    }
    __syncthreads(); /* part is reused */
#pragma unroll
    for (int m = 0; m < R; m++)
        part[s][m][x] = acc[m];
    __syncthreads();
    for (int k = tid; k < R * nx; k += nt) {
        const int m = k / nx, c = k - m * nx, r = r0 + m;
        if (r < ny)
            out[r * nx + c] = exact_wide_parts<T, R>(part, m, c, S) * scr[m][c];
    }
}

/* Pass 2, u = Qy w Qx^T (lm = qy, rm = qxt): block b takes point rows p = b*P .. b*P+P-1 <
 * (ny+1)/2 and their mirrors ny-1-p.  Thread (x, s) sums lm[p][j] w[j][x] over range s of j,
 * the even and the odd modes j apart: their sum is row p's middle product, their difference
 * row ny-1-p's.  Lanes x < (nx+1)/2 then sum point x's even modes i, the others point
 * nx-1-x's odd modes; the two sums give points c and nx-1-c (an odd nx's middle point
 * takes its even modes alone).  rm's values of a lane's mode range load before the wait. */
template <typename T, int P>
__global__ void __launch_bounds__(1024, 1)
    exact_wide_out_kernel(grid_level L, const T *__restrict__ in, const T *__restrict__ lm, const T *__restrict__ rm,
                          T *__restrict__ out)
{
    __shared__ ew_rows<T, P> lrow[EW_N];
    __shared__ ew_rows<T, 2 * P> mid[EW_N];
    __shared__ T part[EW_S][2 * P][EW_N];
    const int nx = L.nx, ny = L.ny, x = threadIdx.x, s = threadIdx.y, S = blockDim.y;
    const int hx = nx / 2, hy = ny / 2, hxc = nx - hx, hyc = ny - hy;
    const int nt = blockDim.x * blockDim.y, tid = s * blockDim.x + x, p0 = blockIdx.x * P;
    const bool ev = x < hxc; /* the lane's point and mode parity */
    const int pt = ev ? x : nx - 1 - x, nm = ev ? hxc : hx;
    const int i0 = s * nm / S, i1 = (s + 1) * nm / S, j0 = s * ny / S, j1 = (s + 1) * ny / S;
    const bool pre = i1 - i0 <= EW_HC && x < nx;
    T acc[2 * P], v[EW_CH], rv[EW_HC];
    for (int k = tid; k < P * ny; k += nt) {
        const int m = k / ny, j = k - m * ny;
        lrow[j].v[m] = p0 + m < hyc ? lm[(p0 + m) * ny + j] : (T)0;
    }
#pragma unroll
    for (int k = 0; k < EW_HC; k++) { /* mode 2(i0+k) (even lanes) or 2(i0+k)+1 at point pt */
        const int i = 2 * (i0 + k) + !ev;
        rv[k] = pre && k < i1 - i0 ? rm[i * nx + pt] : (T)0;
    }
    homg_pdl_wait();
    __syncthreads();
#pragma unroll
    for (int m = 0; m < 2 * P; m++)
        acc[m] = 0;
    if (x < nx)
        for (int jb = j0; jb < j1; jb += EW_CH) {
            const int n = min(EW_CH, j1 - jb);
#pragma unroll
            for (int k = 0; k < EW_CH; k++)
                v[k] = k < n ? in[(jb + k) * nx + x] : (T)0;
#pragma unroll
            for (int k = 0; k < EW_CH; k++)
                if (k < n) {
                    const ew_rows<T, P> t = lrow[jb + k];
                    if ((jb + k) & 1) {
#pragma unroll
                        for (int m = 0; m < P; m++)
                            acc[P + m] += t.v[m] * v[k];
                    } else {
#pragma unroll
                        for (int m = 0; m < P; m++)
                            acc[m] += t.v[m] * v[k];
                    }
                }
        }
#pragma unroll
    for (int m = 0; m < 2 * P; m++)
        part[s][m][x] = acc[m];
    __syncthreads();
    for (int k = tid; k < P * nx; k += nt) { /* rows p (even + odd) and ny-1-p (even - odd) */
        const int m = k / nx, c = k - m * nx;
        const T e = exact_wide_parts<T, 2 * P>(part, m, c, S), o = exact_wide_parts<T, 2 * P>(part, P + m, c, S);
        mid[c].v[m] = e + o;
        mid[c].v[P + m] = e - o;
    }
    __syncthreads();
#pragma unroll
    for (int m = 0; m < 2 * P; m++)
        acc[m] = 0;
    if (x < nx)
        for (int ib = i0; ib < i1; ib += EW_HC) {
            const int n = min(EW_HC, i1 - ib);
#pragma unroll
            for (int k = 0; k < EW_HC; k++)
                if (k < n) {
                    const int i = 2 * (ib + k) + !ev;
                    const T w = pre ? rv[k] : rm[i * nx + pt];
                    const ew_rows<T, 2 *P> t = mid[i];
#pragma unroll
                    for (int m = 0; m < 2 * P; m++)
                        acc[m] += t.v[m] * w;
                }
        }
    __syncthreads(); /* part is reused */
#pragma unroll
    for (int m = 0; m < 2 * P; m++)
        part[s][m][x] = acc[m];
    __syncthreads();
    for (int k = tid; k < 2 * P * hxc; k += nt) {
        const int m = k / hxc, c = k - m * hxc, p = p0 + (m < P ? m : m - P), r = m < P ? p : ny - 1 - p;
        if (p >= hyc || (m >= P && p == hy && (ny & 1))) /* past the half, or the middle row again */
            continue;
        const T e = exact_wide_parts<T, 2 * P>(part, m, c, S);
        if (c < hx) {
            const T o = exact_wide_parts<T, 2 * P>(part, m, nx - 1 - c, S);
            out[r * nx + c] = e + o;
            out[r * nx + nx - 1 - c] = e - o;
        } else
            out[r * nx + c] = e;
    }
}

/* Whether the level has boundary data (only the finest can): pass 1 adds its term. */
static int exact_wide_has_bc(const grid_level *L) { return L->bc[0] || L->bc[1] || L->bc[2] || L->bc[3]; }

/* Pass 1 with R mode rows a block, pass 2 with R/2 point rows (and their mirrors: R rows). */
template <typename T, int R>
static void exact_wide_launch(cudaStream_t st, int pdl, const grid_level *L, T *u, const T *f, const grid_exact_wide *W)
{
    const int P = R > 1 ? R / 2 : 1;
    const dim3 threads(32 * ((L->nx + 31) / 32), W->split);
    homg_pdl_launch(st, dim3((L->ny + R - 1) / R), threads, pdl,
                    exact_wide_has_bc(L) ? exact_wide_in_kernel<T, R, true> : exact_wide_in_kernel<T, R, false>, *L, f,
                    (const T *)W->qyt, (const T *)W->qx, (const T *)W->inv_eig, (T *)W->w);
    homg_pdl_launch(st, dim3(((L->ny + 1) / 2 + P - 1) / P), threads, pdl, exact_wide_out_kernel<T, P>, *L,
                    (const T *)W->w, (const T *)W->qy, (const T *)W->qxt, u);
}

template <typename T>
static void exact_wide_rows(cudaStream_t st, int pdl, const grid_level *L, T *u, const T *f, const grid_exact_wide *W)
{
    if (W->rows == 1)
        exact_wide_launch<T, 1>(st, pdl, L, u, f, W);
    else if (W->rows == 2)
        exact_wide_launch<T, 2>(st, pdl, L, u, f, W);
    else
        exact_wide_launch<T, 4>(st, pdl, L, u, f, W);
}

homg_status homg_cuda_grid_exact_wide(kernel_exec *ex, homg_precision p, const grid_level *L, void *u, const void *f,
                                      const grid_exact_wide *W)
{
    cudaStream_t st = homg_cuda_stream(ex);
    if (L->nx < 1 || L->ny < 1 || L->nx > EW_N || L->ny > EW_N || (W->rows != 1 && W->rows != 2 && W->rows != 4) ||
        W->split < 1 || W->split > EW_S || 32 * ((L->nx + 31) / 32) * W->split > 1024)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "exact_wide: %d x %d, rows %d, split %d", L->nx, L->ny,
                              W->rows, W->split);
    /* programmatic dependent launch as the level's other steps (grid_tune, lib/grid/box.c) */
    const int pdl = L->tune ? L->tune->pdl : homg_grid_tune_default().pdl;
    if (p == HOMG_FLOAT64)
        exact_wide_rows<double>(st, pdl, L, (double *)u, (const double *)f, W);
    else
        exact_wide_rows<float>(st, pdl, L, (float *)u, (const float *)f, W);
    HOMG_CUDA_LAUNCHED(ex, "exact_wide_kernel");
    return HOMG_OK;
}
