/* grid_exact.cuh -- the coarsest level solved exactly by the dense sine transform
 * in one 32 x 32 tile of threads (twin: coarse_exact in kernels/grid/grid_tmpl.h),
 * shared by coarse_exact_kernel (grid.cu) and the one-block coarse levels
 * (grid_coarse.cu).  Thread (x, y) owns entry (row y, column x) of every product;
 * the four shared arrays have rows padded to 33 so column reads do not collide in a
 * shared-memory bank.  Ends with the block synchronised. */
#ifndef HOMG_GRID_EXACT_CUH
#define HOMG_GRID_EXACT_CUH

#include "grid_point.cuh"

#define HOMG_CE HOMG_COARSE_EXACT_MAX

template <typename T>
__device__ void coarse_exact_block(const grid_level &L, T *u, const T *f, const T *qx, const T *qy, const T *inv_eig,
                                   T (*sx)[HOMG_CE + 1], T (*sy)[HOMG_CE + 1], T (*a)[HOMG_CE + 1], T (*b)[HOMG_CE + 1],
                                   int x, int y)
{
    const int nx = L.nx, ny = L.ny;
    const bool in = x < nx && y < ny;
    if (x < nx && y < nx)
        sx[y][x] = qx[y * nx + x];
    if (x < ny && y < ny)
        sy[y][x] = qy[y * ny + x];
    if (in)
        a[y][x] = (T)((double)f[y * nx + x] + bterm_at<T>(L, x, y));
    __syncthreads();
    T s = 0;
    if (in) /* b = Qy^T F */
        for (int j = 0; j < ny; j++)
            s += sy[j][y] * a[j][x];
    b[y][x] = s;
    __syncthreads();
    s = 0;
    if (in) /* a = (b Qx) ./ eig */
        for (int i = 0; i < nx; i++)
            s += b[y][i] * sx[i][x];
    a[y][x] = in ? s * inv_eig[y * nx + x] : (T)0;
    __syncthreads();
    s = 0;
    if (in) /* b = Qy a */
        for (int k = 0; k < ny; k++)
            s += sy[y][k] * a[k][x];
    b[y][x] = s;
    __syncthreads();
    s = 0;
    if (in) { /* u = b Qx^T */
        for (int k = 0; k < nx; k++)
            s += b[y][k] * sx[x][k];
        u[y * nx + x] = s;
    }
    __syncthreads();
}

#undef HOMG_CE
#endif
