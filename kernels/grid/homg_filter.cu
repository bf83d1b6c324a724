/* homg_filter.cu -- HOMG's filter pass (seed 003) for float32 by float4 column
 * groups and chains of rows s apart: homg_filter_vec4_kernel (grid.cu's
 * homg_filter_vec4_try picks it: large grids, s >= 128 from 2^24 points, every
 * s >= 4 below).
 *
 * Why (bench/results/h100.md "Session 11 homg4", "Session 13 homg7"): at 4096^2 the
 * filters with wide taps (s >= 128) ran at 36-54% of copy.  The point form re-reads
 * rows j-s and j+s from DRAM once 2s rows no longer sit in L2 (s >= 512: 129-168 MB
 * read for 67), and with s >= 256 a quarter to three quarters of the points are
 * edge points (i or j within s of a side) that take the generic loop with its
 * division; the column form's threads whose chain of rows leaves the grid ran their
 * rows one after the other (a dependent chain of loads).
 *
 * Here a thread takes four consecutive columns (one float4 load per tap row and
 * column shift, one float4 store a row) and R outputs down its chain j0, j0 + s, ...,
 * j0 + (R-1) s, the three tap rows of each output kept converted in registers (each
 * row loaded once a thread).  Every load is predicated, never a branch, so the R + 2
 * rows' loads are all in flight together; rows and column groups outside the grid
 * read as 0.  Consecutive thread rows take the chain's segments first (q % nseg),
 * so the two rows a segment shares with the next are read by the same block.
 *
 * Values: bit for bit homg_filter_point's.  Inside, homg_filter_taps.  At an edge
 * the point form drops the taps outside the grid and divides by the weights left,
 * wsum = wx * wy (wx, wy: 4, 3 or 2, the column and row weights present); its sum
 * takes the same terms in the same order, and the dropped ones here add +0.0, which
 * leaves the sum unchanged (it starts at +0.0 and so is never -0.0).  taps returns
 * acc * 1/16, so acc = taps * 16 exactly (a power of two), then acc / wsum as there.
 * With s % 4 == 0, xb % 4 == 0 and nx % 4 == 0 the four columns of a group are
 * all inside or all at the same edge (xb + c >= s iff xb >= s; xb + c + s < nx iff
 * xb + s < nx), so the column weights are the group's. */
#include "core/cuda_check.h"
#include "grid_kernels.h"
#include "grid_point.h"

#define PER_TYPE_TMPL "grid/homg_point_tmpl.h"
#include "core/per_type.h"

#define FV_BX 32
#define FV_BY 8

/* One tap row at columns xb - s .. xb - s + 3 (d[0..3]), xb .. xb + 3 (d[4..7]) and
 * xb + s .. xb + s + 3 (d[8..11]); a row or group not present reads as 0. */
__device__ __forceinline__ void fv_row_load(double *d, const float *row, int s, bool ok, bool hl, bool hr)
{
    const float4 z = make_float4(0.f, 0.f, 0.f, 0.f);
    const float4 l = ok && hl ? __ldg((const float4 *)(row - s)) : z;
    const float4 c = ok ? __ldg((const float4 *)row) : z;
    const float4 r = ok && hr ? __ldg((const float4 *)(row + s)) : z;
    d[0] = l.x, d[1] = l.y, d[2] = l.z, d[3] = l.w;
    d[4] = c.x, d[5] = c.y, d[6] = c.z, d[7] = c.w;
    d[8] = r.x, d[9] = r.y, d[10] = r.z, d[11] = r.w;
}

/* homg_filter_point's value from the nine taps (absent ones 0) and the weights
 * present: wsum == 16 inside. */
__device__ __forceinline__ float fv_out(const double *a, const double *b, const double *c, int k, double wsum)
{
    const double t = homg_filter_taps_d(a[k], a[4 + k], a[8 + k], b[k], b[4 + k], b[8 + k], c[k], c[4 + k], c[8 + k]);
    return (float)(wsum == 16.0 ? t : t * 16.0 / wsum);
}

template <int R>
__global__ void __launch_bounds__(FV_BX *FV_BY, 2)
    homg_filter_vec4_kernel(int nx, int ny, int s, int nseg, const float *__restrict__ src, float *__restrict__ dst)
{
    const int xb = (blockIdx.x * FV_BX + threadIdx.x) * 4, q = blockIdx.y * FV_BY + threadIdx.y;
    const int r = q / nseg, j0 = r + q % nseg * (R * s);
    if (xb >= nx || r >= s || j0 >= ny)
        return;
    const bool hl = xb >= s, hr = xb + s < nx;
    const double wx = 2.0 + (hl ? 1.0 : 0.0) + (hr ? 1.0 : 0.0);
    const float *col = src + xb;
    double a[12], b[12];
    fv_row_load(a, col + (size_t)(j0 >= s ? j0 - s : j0) * nx, s, j0 >= s, hl, hr);
    fv_row_load(b, col + (size_t)j0 * nx, s, true, hl, hr);
#pragma unroll
    for (int k = 0; k < R; k++) {
        const int j = j0 + k * s; /* the same for the whole warp */
        const bool below = j + s < ny;
        double c[12];
        fv_row_load(c, col + (size_t)(below ? j + s : j0) * nx, s, below, hl, hr);
        if (j < ny) {
            const double wsum = wx * (2.0 + (j >= s ? 1.0 : 0.0) + (below ? 1.0 : 0.0));
            *(float4 *)(dst + (size_t)j * nx + xb) = make_float4(fv_out(a, b, c, 0, wsum), fv_out(a, b, c, 1, wsum),
                                                                 fv_out(a, b, c, 2, wsum), fv_out(a, b, c, 3, wsum));
        }
#pragma unroll
        for (int e = 0; e < 12; e++) {
            a[e] = b[e];
            b[e] = c[e];
        }
    }
}

/* Launches homg_filter_vec4_kernel with R = rows (4 or 8) outputs a thread; needs
 * nx % 4 == 0, s % 4 == 0 and 16-byte aligned src and dst (the caller checks). */
extern "C" void homg_cuda_filter_vec4_launch(cudaStream_t st, int rows, int nx, int ny, int s, const float *src,
                                             float *dst)
{
    const int R = rows == 4 ? 4 : 8;
    const int chain = (ny + s - 1) / s, nseg = (chain + R - 1) / R; /* rows a chain, segments a chain */
    const int qrows = (s < ny ? s : ny) * nseg;
    const dim3 blocks((nx / 4 + FV_BX - 1) / FV_BX, (qrows + FV_BY - 1) / FV_BY);
    if (R == 4)
        homg_filter_vec4_kernel<4><<<blocks, dim3(FV_BX, FV_BY), 0, st>>>(nx, ny, s, nseg, src, dst);
    else
        homg_filter_vec4_kernel<8><<<blocks, dim3(FV_BX, FV_BY), 0, st>>>(nx, ny, s, nseg, src, dst);
}
