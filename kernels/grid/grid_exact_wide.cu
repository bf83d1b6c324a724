/* grid_exact_wide.cu -- the coarsest level solved exactly in two launches of many
 * blocks (grid_kernels.h grid_exact_wide; twin: exact_wide in kernels/grid/grid_tmpl.h).
 * Block b takes rows b*R .. b*R+R-1 of a pass's output; thread (x, s) sums range s of
 * the inner index for column x, the ranges' partial sums meet in shared memory and are
 * added in range order, as the twin adds them. */
#include "core/cuda_check.h"
#include "core/pdl.cuh"
#include "grid_point.cuh"

#define EW_N HOMG_EXACT_WIDE_MAX
#define EW_S HOMG_EXACT_WIDE_SPLIT
/* Values a thread loads at once: the whole range of an inner sum (128 / 8) in float. */
#define EW_CH (64 / (int)sizeof(T))

/* The R values of one inner index for the block's R rows, side by side in shared memory
 * so a thread reads them in one vector load (a warp's threads read the same address). */
template <typename T, int R> struct alignas(sizeof(T) * R > 16 ? 16 : sizeof(T) * R) ew_rows {
    T v[R];
};

/* acc[m] += sum_{k < n} tab[k0 + k].v[m] * v[k] in k order (the twin's order). */
template <typename T, int R>
__device__ __forceinline__ void exact_wide_fma(T (&acc)[R], const ew_rows<T, R> *tab, int k0, int n,
                                               const T (&v)[EW_CH])
{
#pragma unroll
    for (int k = 0; k < EW_CH; k++)
        if (k < n) {
            const ew_rows<T, R> t = tab[k0 + k];
#pragma unroll
            for (int m = 0; m < R; m++)
                acc[m] += t.v[m] * v[k];
        }
}

/* The ranges' partial sums of the block's R rows (part[s][m][c]) added in range order. */
template <typename T, int R>
__device__ __forceinline__ T exact_wide_parts(const T (&part)[EW_S][R][EW_N], int m, int c, int S)
{
    T t = part[0][m][c];
    for (int q = 1; q < S; q++)
        t += part[q][m][c];
    return t;
}

/* out[r][c] = sc[r][c] * sum_i (sum_j lm[r][j] in[j][i]) rm[i][c] for this block's R rows;
 * BT: in is f and the level has boundary data, whose term is added to it (pass 1 on the
 * finest level; a coarse level has none, so its pass 1 reads f alone, the same values).
 * Everything but in (the previous kernel's output) is set-up data: loaded before the PDL
 * wait, rm's column range into registers where it fits EW_CH, and each thread's in values
 * are loaded EW_CH at once before they are summed, so a pass waits on few L2 round trips. */
template <typename T, int R, bool BT>
__global__ void __launch_bounds__(1024, 1)
    exact_wide_kernel(grid_level L, const T *__restrict__ in, const T *__restrict__ lm, const T *__restrict__ rm,
                      const T *__restrict__ sc, T *__restrict__ out)
{
    __shared__ ew_rows<T, R> lrow[EW_N], mid[EW_N];
    __shared__ T part[EW_S][R][EW_N];
    __shared__ T scr[R][EW_N];
    const int nx = L.nx, ny = L.ny, x = threadIdx.x, s = threadIdx.y, S = blockDim.y;
    const int nt = blockDim.x * blockDim.y, tid = s * blockDim.x + x, r0 = blockIdx.x * R;
    const int i0 = s * nx / S, i1 = (s + 1) * nx / S, j0 = s * ny / S, j1 = (s + 1) * ny / S;
    const bool pre = i1 - i0 <= EW_CH && x < nx;
    T acc[R], v[EW_CH], rv[EW_CH];
    for (int k = tid; k < R * ny; k += nt) {
        const int m = k / ny, j = k - m * ny;
        lrow[j].v[m] = r0 + m < ny ? lm[(r0 + m) * ny + j] : (T)0;
    }
    if (sc)
        for (int k = tid; k < R * nx; k += nt) {
            const int m = k / nx, c = k - m * nx;
            scr[m][c] = r0 + m < ny ? sc[(r0 + m) * nx + c] : (T)0;
        }
#pragma unroll
    for (int k = 0; k < EW_CH; k++)
        rv[k] = pre && k < i1 - i0 ? rm[(i0 + k) * nx + x] : (T)0;
    homg_pdl_wait();
    __syncthreads();
#pragma unroll
    for (int m = 0; m < R; m++)
        acc[m] = 0;
    if (x < nx)
        for (int jb = j0; jb < j1; jb += EW_CH) {
            const int n = min(EW_CH, j1 - jb);
#pragma unroll
            for (int k = 0; k < EW_CH; k++) {
                const int j = jb + k;
                v[k] = k < n ? (BT ? (T)((double)in[j * nx + x] + bterm_at<T>(L, x, j)) : in[j * nx + x]) : (T)0;
            }
            exact_wide_fma<T, R>(acc, lrow, jb, n, v);
        }
#pragma unroll
    for (int m = 0; m < R; m++)
        part[s][m][x] = acc[m];
    __syncthreads();
    for (int k = tid; k < R * nx; k += nt) {
        const int m = k / nx, c = k - m * nx;
        mid[c].v[m] = exact_wide_parts<T, R>(part, m, c, S);
    }
    __syncthreads();
#pragma unroll
    for (int m = 0; m < R; m++)
        acc[m] = 0;
    if (pre)
        exact_wide_fma<T, R>(acc, mid, i0, i1 - i0, rv);
    else if (x < nx)
        for (int ib = i0; ib < i1; ib += EW_CH) {
            const int n = min(EW_CH, i1 - ib);
#pragma unroll
            for (int k = 0; k < EW_CH; k++)
                v[k] = k < n ? rm[(ib + k) * nx + x] : (T)0;
            exact_wide_fma<T, R>(acc, mid, ib, n, v);
        }
    __syncthreads(); /* part is reused */
#pragma unroll
    for (int m = 0; m < R; m++)
        part[s][m][x] = acc[m];
    __syncthreads();
    for (int k = tid; k < R * nx; k += nt) {
        const int m = k / nx, c = k - m * nx, r = r0 + m;
        if (r >= ny)
            continue;
        const T t = exact_wide_parts<T, R>(part, m, c, S);
        out[r * nx + c] = sc ? t * scr[m][c] : t;
    }
}

/* Whether the level has boundary data (only the finest can): pass 1 adds its term. */
static int exact_wide_has_bc(const grid_level *L) { return L->bc[0] || L->bc[1] || L->bc[2] || L->bc[3]; }

template <typename T, int R>
static void exact_wide_launch(cudaStream_t st, int pdl, const grid_level *L, T *u, const T *f, const grid_exact_wide *W)
{
    const dim3 grid((L->ny + R - 1) / R), threads(32 * ((L->nx + 31) / 32), W->split);
    homg_pdl_launch(st, grid, threads, pdl,
                    exact_wide_has_bc(L) ? exact_wide_kernel<T, R, true> : exact_wide_kernel<T, R, false>, *L, f,
                    (const T *)W->qyt, (const T *)W->qx, (const T *)W->inv_eig, (T *)W->w);
    homg_pdl_launch(st, grid, threads, pdl, exact_wide_kernel<T, R, false>, *L, (const T *)W->w, (const T *)W->qy,
                    (const T *)W->qxt, (const T *)NULL, u);
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
