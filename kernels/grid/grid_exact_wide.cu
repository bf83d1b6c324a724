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

/* out[r][c] = sc[r][c] * sum_i (sum_j lm[r][j] in[j][i]) rm[i][c] for this block's R rows;
 * BT: in is f, and the level's boundary term is added to it (pass 1). */
template <typename T, int R, bool BT>
__global__ void __launch_bounds__(1024)
    exact_wide_kernel(grid_level L, const T *__restrict__ in, const T *__restrict__ lm, const T *__restrict__ rm,
                      const T *__restrict__ sc, T *__restrict__ out)
{
    __shared__ T lrow[R][EW_N];
    __shared__ T part[EW_S][R][EW_N];
    __shared__ T mid[R][EW_N];
    const int nx = L.nx, ny = L.ny, x = threadIdx.x, s = threadIdx.y, S = blockDim.y;
    const int nt = blockDim.x * blockDim.y, tid = s * blockDim.x + x, r0 = blockIdx.x * R;
    T acc[R];
    for (int k = tid; k < R * ny; k += nt) { /* the tables are set-up data: before the wait */
        const int m = k / ny, j = k - m * ny;
        lrow[m][j] = r0 + m < ny ? lm[(r0 + m) * ny + j] : (T)0;
    }
    homg_pdl_wait();
    __syncthreads();
#pragma unroll
    for (int m = 0; m < R; m++)
        acc[m] = 0;
    if (x < nx) {
        const int j0 = s * ny / S, j1 = (s + 1) * ny / S;
#pragma unroll 4
        for (int j = j0; j < j1; j++) {
            const T v = BT ? (T)((double)in[j * nx + x] + bterm_at<T>(L, x, j)) : in[j * nx + x];
#pragma unroll
            for (int m = 0; m < R; m++)
                acc[m] += lrow[m][j] * v;
        }
    }
#pragma unroll
    for (int m = 0; m < R; m++)
        part[s][m][x] = acc[m];
    __syncthreads();
    for (int k = tid; k < R * nx; k += nt) {
        const int m = k / nx, c = k - m * nx;
        T t = part[0][m][c];
        for (int q = 1; q < S; q++)
            t += part[q][m][c];
        mid[m][c] = t;
    }
    __syncthreads();
#pragma unroll
    for (int m = 0; m < R; m++)
        acc[m] = 0;
    if (x < nx) {
        const int i0 = s * nx / S, i1 = (s + 1) * nx / S;
#pragma unroll 4
        for (int i = i0; i < i1; i++) {
            const T v = rm[i * nx + x];
#pragma unroll
            for (int m = 0; m < R; m++)
                acc[m] += mid[m][i] * v;
        }
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
        T t = part[0][m][c];
        for (int q = 1; q < S; q++)
            t += part[q][m][c];
        out[r * nx + c] = sc ? t * sc[r * nx + c] : t;
    }
}

template <typename T, int R>
static void exact_wide_launch(cudaStream_t st, int pdl, const grid_level *L, T *u, const T *f, const grid_exact_wide *W)
{
    const dim3 grid((L->ny + R - 1) / R), threads(32 * ((L->nx + 31) / 32), W->split);
    homg_pdl_launch(st, grid, threads, pdl, exact_wide_kernel<T, R, true>, *L, f, (const T *)W->qyt, (const T *)W->qx,
                    (const T *)W->inv_eig, (T *)W->w);
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
    /* programmatic dependent launch as coarse_exact (HOMG_BOX_PDL=0: plain) */
    const char *e = getenv("HOMG_BOX_PDL");
    const int pdl = !(e && *e && atof(e) == 0);
    if (p == HOMG_FLOAT64)
        exact_wide_rows<double>(st, pdl, L, (double *)u, (const double *)f, W);
    else
        exact_wide_rows<float>(st, pdl, L, (float *)u, (const float *)f, W);
    HOMG_CUDA_LAUNCHED(ex, "exact_wide_kernel");
    return HOMG_OK;
}
