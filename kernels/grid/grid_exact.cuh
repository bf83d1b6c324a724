/* grid_exact.cuh -- the coarsest level solved exactly by the dense sine transform
 * in one 32 x 32 tile of threads (twin: coarse_exact in kernels/grid/grid_tmpl.h),
 * coarse_exact_kernel's body (grid.cu).  Thread (x, y) owns entry (row y, column x) of every product;
 * the four shared arrays have rows padded to 33 so column reads do not collide in a
 * shared-memory bank.  Ends with the block synchronised. */
#ifndef HOMG_GRID_EXACT_CUH
#define HOMG_GRID_EXACT_CUH

#include "core/pdl.cuh"
#include "grid_point.cuh"

#define HOMG_CE HOMG_COARSE_EXACT_MAX

/* Each product is shared-memory bound: the threads of rows y < 8 each compute four
 * sums, so a column operand is loaded once for four of them.  The sine bases are even or
 * odd about their middle point (q[n-1-i][k] = (-1)^k q[i][k], lib/grid/box.c), so each
 * product runs over half the points or half the modes: half the multiply-adds and loads
 * of the dense products.  The order of every sum is the CPU twin's (grid_tmpl.h). */
#define HOMG_CE_R 4 /* sums per thread */
#define HOMG_CE_S (HOMG_CE / HOMG_CE_R)

/* The value lane nx-1-x holds (any value for lanes x >= nx): the mirror point's. */
template <typename T> __device__ T coarse_exact_mirror(T v, int n, int x)
{
    return __shfl_sync(0xffffffffu, v, (n - 1 - x) & 31);
}

/* WAIT: the kernel was launched with programmatic dependent launch; the basis and
 * eigenvalues (set-up data) load before its wait, f and the boundary data after. */
template <typename T, bool WAIT = false>
__device__ void coarse_exact_block(const grid_level &L, T *u, const T *f, const T *qx, const T *qy, const T *inv_eig,
                                   T (*sx)[HOMG_CE + 1], T (*sy)[HOMG_CE + 1], T (*a)[HOMG_CE + 1], T (*b)[HOMG_CE + 1],
                                   int x, int y)
{
    const int nx = L.nx, ny = L.ny, hx = nx / 2, hy = ny / 2;
    const bool act = y < HOMG_CE_S, col = x < nx; /* act is whole warps (blockDim.x is 32) */
    T s[HOMG_CE_R], ie[HOMG_CE_R];
    if (x < nx && y < (nx + 1) / 2) /* only the first half of each basis is read */
        sx[y][x] = qx[y * nx + x];
    if (x < ny && y < (ny + 1) / 2)
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
    if (act) { /* b = Qy^T F: a thread's four modes y + 8m share y's parity, so one fold */
        const T sg = y & 1 ? (T)-1 : (T)1;
#pragma unroll
        for (int m = 0; m < HOMG_CE_R; m++)
            s[m] = 0;
        if (col) {
            for (int j = 0; j < hy; j++) {
                const T v = a[j][x] + sg * a[ny - 1 - j][x];
#pragma unroll
                for (int m = 0; m < HOMG_CE_R; m++)
                    s[m] += sy[j][y + HOMG_CE_S * m] * v;
            }
            if ((ny & 1) && !(y & 1)) {
                const T v = a[hy][x];
#pragma unroll
                for (int m = 0; m < HOMG_CE_R; m++)
                    s[m] += sy[hy][y + HOMG_CE_S * m] * v;
            }
        }
        /* stored folded for the next product: column i < hx holds b[i] + b[nx-1-i],
         * column nx-1-i holds b[i] - b[nx-1-i], an odd nx's middle column b itself */
#pragma unroll
        for (int m = 0; m < HOMG_CE_R; m++) {
            const int r = y + HOMG_CE_S * m;
            const T t = coarse_exact_mirror(s[m], nx, x);
            const T v = x < hx ? s[m] + t : x < nx - hx ? s[m] : t - s[m];
            b[r][x] = r < ny ? v : (T)0;
        }
    }
    __syncthreads();
    if (act) { /* a = (b Qx) ./ eig: mode x reads the sums (x even) or differences */
#pragma unroll
        for (int m = 0; m < HOMG_CE_R; m++)
            s[m] = 0;
        if (col) {
            for (int i = 0; i < hx; i++) {
                const T v = sx[i][x];
                const int c = x & 1 ? nx - 1 - i : i;
#pragma unroll
                for (int m = 0; m < HOMG_CE_R; m++)
                    s[m] += b[y + HOMG_CE_S * m][c] * v;
            }
            if ((nx & 1) && !(x & 1)) {
                const T v = sx[hx][x];
#pragma unroll
                for (int m = 0; m < HOMG_CE_R; m++)
                    s[m] += b[y + HOMG_CE_S * m][hx] * v;
            }
        }
#pragma unroll
        for (int m = 0; m < HOMG_CE_R; m++)
            a[y + HOMG_CE_S * m][x] = s[m] * ie[m];
    }
    __syncthreads();
    if (act) { /* b = Qy a: point rows y and y + 8 (< (ny+1)/2), their even and odd
                * modes' sums give rows r and ny-1-r */
        const int r0 = y, r1 = y + HOMG_CE_S, hr = (ny + 1) / 2;
        const T *q0 = sy[r0 < hr ? r0 : 0], *q1 = sy[r1 < hr ? r1 : 0];
#pragma unroll
        for (int m = 0; m < HOMG_CE_R; m++)
            s[m] = 0;
        if (col) {
            for (int k = 0; k + 1 < ny; k += 2) {
                const T ve = a[k][x], vo = a[k + 1][x];
                s[0] += q0[k] * ve;
                s[1] += q0[k + 1] * vo;
                s[2] += q1[k] * ve;
                s[3] += q1[k + 1] * vo;
            }
            if (ny & 1) {
                const T ve = a[ny - 1][x];
                s[0] += q0[ny - 1] * ve;
                s[2] += q1[ny - 1] * ve;
            }
            if (r0 < hr) {
                b[r0][x] = 2 * r0 + 1 == ny ? s[0] : s[0] + s[1];
                if (2 * r0 + 1 != ny)
                    b[ny - 1 - r0][x] = s[0] - s[1];
            }
            if (r1 < hr) {
                b[r1][x] = 2 * r1 + 1 == ny ? s[2] : s[2] + s[3];
                if (2 * r1 + 1 != ny)
                    b[ny - 1 - r1][x] = s[2] - s[3];
            }
        }
    }
    __syncthreads();
    if (act) { /* u = b Qx^T: lanes x < (nx+1)/2 sum point x's even modes, the others
                * point nx-1-x's odd modes; the mirror lane's sum completes both */
        const bool ev = x < (nx + 1) / 2;
        const int xm = ev ? x : nx - 1 - x;
#pragma unroll
        for (int m = 0; m < HOMG_CE_R; m++)
            s[m] = 0;
        if (col)
            for (int k = ev ? 0 : 1; k < nx; k += 2) {
                const T v = sx[xm][k];
#pragma unroll
                for (int m = 0; m < HOMG_CE_R; m++)
                    s[m] += b[y + HOMG_CE_S * m][k] * v;
            }
#pragma unroll
        for (int m = 0; m < HOMG_CE_R; m++) {
            const int r = y + HOMG_CE_S * m;
            const T t = coarse_exact_mirror(s[m], nx, x);
            if (col && r < ny)
                u[r * nx + x] = 2 * x + 1 == nx ? s[m] : ev ? s[m] + t : t - s[m];
        }
    }
    __syncthreads();
}

#undef HOMG_CE_R
#undef HOMG_CE_S
#undef HOMG_CE
#endif
