/* grid_point.cuh -- per-point device functions of the structured operator, the
 * CUDA side of kernels/grid/grid_tmpl.h (same formulas, same order of terms). */
#ifndef HOMG_GRID_POINT_CUH
#define HOMG_GRID_POINT_CUH

#include "grid_kernels.h"
#include "grid_point.h"

template <typename T> __device__ __forceinline__ double bterm_at(const grid_level &L, int i, int j)
{
    double s = 0;
    if (i == 0 && L.bc[HOMG_W])
        s += ((const T *)L.bc[HOMG_W])[j];
    if (i == L.nx - 1 && L.bc[HOMG_E])
        s += ((const T *)L.bc[HOMG_E])[j];
    if (j == 0 && L.bc[HOMG_S])
        s += ((const T *)L.bc[HOMG_S])[i];
    if (j == L.ny - 1 && L.bc[HOMG_N])
        s += ((const T *)L.bc[HOMG_N])[i];
    return 2.0 * s * L.inv_h2;
}

__device__ __forceinline__ double diag_at(const grid_level &L, int i, int j)
{
    return (4 + homg_edges_touched(i, j, L.nx, L.ny)) * L.inv_h2 + L.lambda;
}

template <typename T> __device__ __forceinline__ double nbsum_at(const grid_level &L, const T *u, int i, int j)
{
    const int nx = L.nx;
    const T *p = u + (size_t)j * nx + i;
    double s = 0;
    if (i > 0)
        s += p[-1];
    if (i < nx - 1)
        s += p[1];
    if (j > 0)
        s += p[-nx];
    if (j < L.ny - 1)
        s += p[nx];
    return s;
}

/* f + bterm - A u at (i,j), in double; u may be NULL (zero). */
template <typename T>
__device__ __forceinline__ double res_at(const grid_level &L, const T *u, const T *f, int i, int j)
{
    double r = (double)f[(size_t)j * L.nx + i] + bterm_at<T>(L, i, j);
    if (u)
        r += L.inv_h2 * nbsum_at<T>(L, u, i, j) - diag_at(L, i, j) * u[(size_t)j * L.nx + i];
    return r;
}

template <typename T> __device__ __forceinline__ double coarse_at(const T *ec, int I, int J, int ncx, int ncy)
{
    int s = homg_reflect(&I, ncx) * homg_reflect(&J, ncy);
    return s * (double)ec[(size_t)J * ncx + I];
}

/* Bilinear cell-centred prolongation of ec (ncx x ncy) at fine cell (i,j). */
template <typename T> __device__ __forceinline__ double prolong_at(const T *ec, int i, int j, int ncx, int ncy)
{
    int I = i >> 1, J = j >> 1;
    int I2 = I + ((i & 1) ? 1 : -1), J2 = J + ((j & 1) ? 1 : -1);
    return 0.5625 * coarse_at<T>(ec, I, J, ncx, ncy) + 0.1875 * coarse_at<T>(ec, I2, J, ncx, ncy) +
           0.1875 * coarse_at<T>(ec, I, J2, ncx, ncy) + 0.0625 * coarse_at<T>(ec, I2, J2, ncx, ncy);
}

/* Bilinear cell-centred prolongation in T (the CPU twin uses double; the fused steps). */
template <typename T> __device__ __forceinline__ T prolong_t(const T *__restrict__ ec, int i, int j, int ncx, int ncy)
{
    int I = i >> 1, J = j >> 1, I2 = I + ((i & 1) ? 1 : -1), J2 = J + ((j & 1) ? 1 : -1);
    int a = I2, b = J2;
    T sx = (T)homg_reflect(&a, ncx), sy = (T)homg_reflect(&b, ncy);
    const T *r0 = ec + (size_t)J * ncx, *r1 = ec + (size_t)b * ncx;
    return (T)0.5625 * r0[I] + (T)0.1875 * (sx * r0[a] + sy * r1[I]) + (T)0.0625 * (sx * sy * r1[a]);
}

#endif
