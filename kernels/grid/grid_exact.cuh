/* grid_exact.cuh -- the coarsest level solved exactly by the dense sine transform
 * in one 32 x 32 tile of threads (twin: coarse_exact in kernels/grid/grid_tmpl.h),
 * shared by coarse_exact_kernel (grid.cu) and the one-block coarse levels
 * (grid_coarse.cu).  Thread (x, y) owns entry (row y, column x) of every product;
 * the four shared arrays have rows padded to 33 so column reads do not collide in a
 * shared-memory bank.  Ends with the block synchronised. */
#ifndef HOMG_GRID_EXACT_CUH
#define HOMG_GRID_EXACT_CUH

#include "core/pdl.cuh"
#include "grid_point.cuh"

#define HOMG_CE HOMG_COARSE_EXACT_MAX

/* Each product is shared-memory bound (two loads per multiply-add, ~7 us of one SM
 * for the four on the H100): the threads of rows y < 8 each compute rows y, y + 8,
 * y + 16, y + 24 of a product, so the column operand is loaded once for four rows
 * (1.25 loads per multiply-add) and four sums are in flight.  Each sum runs in the
 * same order as before, so the results are unchanged. */
#define HOMG_CE_R 4 /* rows per thread */
#define HOMG_CE_S (HOMG_CE / HOMG_CE_R)

/* WAIT: the kernel was launched with programmatic dependent launch; the basis and
 * eigenvalues (set-up data) load before its wait, f and the boundary data after. */
template <typename T, bool WAIT = false>
__device__ void coarse_exact_block(const grid_level &L, T *u, const T *f, const T *qx, const T *qy, const T *inv_eig,
                                   T (*sx)[HOMG_CE + 1], T (*sy)[HOMG_CE + 1], T (*a)[HOMG_CE + 1], T (*b)[HOMG_CE + 1],
                                   int x, int y)
{
    const int nx = L.nx, ny = L.ny;
    const bool act = y < HOMG_CE_S, col = x < nx;
    T s[HOMG_CE_R], ie[HOMG_CE_R];
    if (x < nx && y < nx)
        sx[y][x] = qx[y * nx + x];
    if (x < ny && y < ny)
        sy[y][x] = qy[y * ny + x];
#pragma unroll
    for (int m = 0; m < HOMG_CE_R; m++) { /* the eigenvalues' loads in flight meanwhile */
        const int r = y + HOMG_CE_S * m;
        ie[m] = act && col && r < ny ? inv_eig[r * nx + x] : (T)0;
    }
    if (WAIT)
        homg_pdl_wait();
    if (x < nx && y < ny)
        a[y][x] = (T)((double)f[y * nx + x] + bterm_at<T>(L, x, y));
    __syncthreads();
    if (act) { /* b = Qy^T F */
#pragma unroll
        for (int m = 0; m < HOMG_CE_R; m++)
            s[m] = 0;
        if (col)
            for (int j = 0; j < ny; j++) {
                const T v = a[j][x];
#pragma unroll
                for (int m = 0; m < HOMG_CE_R; m++)
                    s[m] += sy[j][y + HOMG_CE_S * m] * v;
            }
#pragma unroll
        for (int m = 0; m < HOMG_CE_R; m++) {
            const int r = y + HOMG_CE_S * m;
            b[r][x] = r < ny ? s[m] : (T)0;
        }
    }
    __syncthreads();
    if (act) { /* a = (b Qx) ./ eig */
#pragma unroll
        for (int m = 0; m < HOMG_CE_R; m++)
            s[m] = 0;
        if (col)
            for (int i = 0; i < nx; i++) {
                const T v = sx[i][x];
#pragma unroll
                for (int m = 0; m < HOMG_CE_R; m++)
                    s[m] += b[y + HOMG_CE_S * m][i] * v;
            }
#pragma unroll
        for (int m = 0; m < HOMG_CE_R; m++)
            a[y + HOMG_CE_S * m][x] = s[m] * ie[m];
    }
    __syncthreads();
    if (act) { /* b = Qy a */
#pragma unroll
        for (int m = 0; m < HOMG_CE_R; m++)
            s[m] = 0;
        if (col)
            for (int k = 0; k < ny; k++) {
                const T v = a[k][x];
#pragma unroll
                for (int m = 0; m < HOMG_CE_R; m++) {
                    const int r = y + HOMG_CE_S * m;
                    s[m] += (r < ny ? sy[r][k] : (T)0) * v;
                }
            }
#pragma unroll
        for (int m = 0; m < HOMG_CE_R; m++)
            b[y + HOMG_CE_S * m][x] = s[m];
    }
    __syncthreads();
    if (act && col) { /* u = b Qx^T */
#pragma unroll
        for (int m = 0; m < HOMG_CE_R; m++)
            s[m] = 0;
        for (int k = 0; k < nx; k++) {
            const T v = sx[x][k];
#pragma unroll
            for (int m = 0; m < HOMG_CE_R; m++)
                s[m] += b[y + HOMG_CE_S * m][k] * v;
        }
#pragma unroll
        for (int m = 0; m < HOMG_CE_R; m++) {
            const int r = y + HOMG_CE_S * m;
            if (r < ny)
                u[r * nx + x] = s[m];
        }
    }
    __syncthreads();
}

#undef HOMG_CE_R
#undef HOMG_CE_S
#undef HOMG_CE
#endif
