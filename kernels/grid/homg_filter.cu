/* homg_filter.cu -- HOMG's filter pass (seed 003) for float32 by float4 column
 * groups and chains of rows s apart: homg_filter_vec4_kernel (grid.cu's
 * homg_filter_vec4_try picks it: large grids, every s; at s = 1, 2 the side taps
 * are the group's own values and one float / float2 a side).
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
 * j0 + (R-1) s, each row loaded once a thread.  Every load is predicated (rows and
 * column groups outside the grid read as 0).  Consecutive thread rows take the
 * chain's segments first (q % nseg), so the two rows a segment shares with the next
 * are read by the same block.  homg7 kept the three tap rows as doubles and unrolled
 * the chain (all R + 2 rows' loads in flight: 102-114 registers, two blocks an SM,
 * 23% warps active, 57-63% of copy); here ("Session 13 homg9") the row j - s is kept
 * as the head of its sum (4 doubles), rows j and j + s as floats, the loop rolled
 * with the next row's loads (or the one after: PF) issued before an output: 80
 * registers, three blocks an SM.
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
#include "core/pdl.cuh"
#include "grid_kernels.h"
#include "grid_point.h"

#define PER_TYPE_TMPL "grid/homg_point_tmpl.h"
#include "core/per_type.h"

#define FV_BX 32
#define FV_BY 8

/* One tap row at columns xb - s .. xb - s + 3 (d[0..3]), xb .. xb + 3 (d[4..7]) and
 * xb + s .. xb + s + 3 (d[8..11]); a row, group or column not present reads as 0.
 * S == 0: s % 4 == 0, the side groups are float4s (hl, hr: present).  S == 1, 2
 * (s == S): the side taps are the group's own values and the S columns next to it,
 * one float (S == 1) or float2 (S == 2, 8-byte aligned) a side (hl, hr: a group to
 * the left, to the right). */
template <int S>
__device__ __forceinline__ void fv_row_load(float *d, const float *row, int s, bool ok, bool hl, bool hr)
{
    const float4 z = make_float4(0.f, 0.f, 0.f, 0.f);
    const float4 c = ok ? __ldg((const float4 *)row) : z;
    d[4] = c.x, d[5] = c.y, d[6] = c.z, d[7] = c.w;
    if (S == 0) {
        const float4 l = ok && hl ? __ldg((const float4 *)(row - s)) : z;
        const float4 r = ok && hr ? __ldg((const float4 *)(row + s)) : z;
        d[0] = l.x, d[1] = l.y, d[2] = l.z, d[3] = l.w;
        d[8] = r.x, d[9] = r.y, d[10] = r.z, d[11] = r.w;
    } else if (S == 1) {
        const float l = ok && hl ? __ldg(row - 1) : 0.f, r = ok && hr ? __ldg(row + 4) : 0.f;
        d[0] = l, d[1] = c.x, d[2] = c.y, d[3] = c.z;
        d[8] = c.y, d[9] = c.z, d[10] = c.w, d[11] = r;
    } else {
        const float2 z2 = make_float2(0.f, 0.f);
        const float2 l = ok && hl ? __ldg((const float2 *)(row - 2)) : z2;
        const float2 r = ok && hr ? __ldg((const float2 *)(row + 4)) : z2;
        d[0] = l.x, d[1] = l.y, d[2] = c.x, d[3] = c.y;
        d[8] = c.z, d[9] = c.w, d[10] = r.x, d[11] = r.y;
    }
}

/* The first three terms of homg_filter_taps' sum (row j - s: a0 + 2 a1 + a2 from
 * +0.0), kept a column between outputs instead of the row's twelve values. */
__device__ __forceinline__ double fv_head(double a0, double a1, double a2)
{
    double acc = 0;
    acc += 1.0 * a0;
    acc += 2.0 * a1;
    acc += 1.0 * a2;
    return acc;
}

/* homg_filter_point's value from the head of row j - s and the six taps of rows j
 * and j + s (absent ones 0) and the weights present (wsum == 16 inside; wy the row
 * weights, the column weights column xb + k's, with s % 4 == 0 the group's): the rest of
 * homg_filter_taps' sum in its order, its * 1/16, then the edge's acc / wsum.  Every
 * product is by a power of two (exact), so fma contraction changes nothing. */
__device__ __forceinline__ float fv_out(double head, const float *b, const float *c, int k, double wy, int xb, int s,
                                        int nx)
{
    const double wsum = wy * (2.0 + (xb + k >= s ? 1.0 : 0.0) + (xb + k + s < nx ? 1.0 : 0.0));
    double acc = head;
    acc += 2.0 * (double)b[k];
    acc += 4.0 * (double)b[4 + k];
    acc += 2.0 * (double)b[8 + k];
    acc += 1.0 * (double)c[k];
    acc += 2.0 * (double)c[4 + k];
    acc += 1.0 * (double)c[8 + k];
    const double t = acc * 0.0625;
    return (float)(wsum == 16.0 ? t : t * 16.0 / wsum);
}

/* The gather fused (compact != NULL): the four values of row j at xb .. xb + 3 to their
 * compact entries at level H, where row j is a coarse row (the same for the whole warp). */
__device__ __forceinline__ void fv_gather(const mfmg_level &H, int nx, int ny, float *compact, int xb, int j, float4 o)
{
    int yl, yh;
    homg_marked_pair_p2(j, ny, H.m, &yl, &yh);
    if (yl < 0 && yh < 0)
        return;
    homg_gather_point_f(&H, nx, ny, compact, xb, j, o.x);
    homg_gather_point_f(&H, nx, ny, compact, xb + 1, j, o.y);
    homg_gather_point_f(&H, nx, ny, compact, xb + 2, j, o.z);
    homg_gather_point_f(&H, nx, ny, compact, xb + 3, j, o.w);
}

/* R outputs a thread down its chain; MINB: blocks an SM the registers are bounded
 * for (launch bounds); PF: the row after next is loaded before an output is formed
 * (two rows in flight a thread), else the next row only.  The loop stays rolled and
 * the window is kept as floats (converted at use, exact): the unrolled form with
 * double rows (homg7) held every row's loads at once, 102-114 registers, two blocks
 * an SM. */
template <int MINB, bool PF, int S>
__global__ void __launch_bounds__(FV_BX *FV_BY, MINB)
    homg_filter_vec4_kernel(int nx, int ny, int s, int nseg, int R, const float *__restrict__ src,
                            float *__restrict__ dst, mfmg_level H, float *__restrict__ compact, int zero)
{
    homg_pdl_wait();
    const int xb = (blockIdx.x * FV_BX + threadIdx.x) * 4, q = blockIdx.y * FV_BY + threadIdx.y;
    const int r = q / nseg, j0 = r + q % nseg * (R * s);
    if (xb >= nx || r >= s || j0 >= ny)
        return;
    const bool hl = S ? xb > 0 : xb >= s, hr = S ? xb + 4 < nx : xb + s < nx;
    const size_t step = (size_t)s * nx;
    const float *row = src + xb + (size_t)j0 * nx; /* row j of the loop */
    double head[4];
    float b[12], c[12];
    fv_row_load<S>(b, j0 >= s ? row - step : row, s, j0 >= s, hl, hr);
#pragma unroll
    for (int e = 0; e < 4; e++)
        head[e] = fv_head(b[e], b[4 + e], b[8 + e]);
    fv_row_load<S>(b, row, s, true, hl, hr);
    if (PF)
        fv_row_load<S>(c, j0 + s < ny ? row + step : row, s, j0 + s < ny, hl, hr);
#pragma unroll 1
    for (int k = 0; k < R; k++) {
        const int j = j0 + k * s; /* the same for the whole warp */
        if (j >= ny)
            break;
        const bool below = j + s < ny, below2 = j + 2 * s < ny;
        float n[12];
        if (PF)
            fv_row_load<S>(n, below2 ? row + 2 * step : row, s, below2, hl, hr);
        else
            fv_row_load<S>(c, below ? row + step : row, s, below, hl, hr);
        const double wy = 2.0 + (j >= s ? 1.0 : 0.0) + (below ? 1.0 : 0.0);
        const float4 o = make_float4(fv_out(head[0], b, c, 0, wy, xb, s, nx), fv_out(head[1], b, c, 1, wy, xb, s, nx),
                                     fv_out(head[2], b, c, 2, wy, xb, s, nx), fv_out(head[3], b, c, 3, wy, xb, s, nx));
        *(float4 *)(dst + (size_t)j * nx + xb) = zero ? make_float4(0.f, 0.f, 0.f, 0.f) : o;
        if (compact)
            fv_gather(H, nx, ny, compact, xb, j, o);
#pragma unroll
        for (int e = 0; e < 4; e++)
            head[e] = fv_head(b[e], b[4 + e], b[8 + e]);
#pragma unroll
        for (int e = 0; e < 12; e++) {
            b[e] = c[e];
            if (PF)
                c[e] = n[e];
        }
        row += step;
    }
}

/* What every launch passes on: the stream, PDL, the gather and the zeroing */
struct fv_args {
    cudaStream_t st;
    int pdl;
    mfmg_level H;
    float *compact;
    int zero;
};

template <int MINB, bool PF, int S>
static void fv_go(const fv_args &a, dim3 blocks, int nx, int ny, int s, int nseg, int R, const float *src, float *dst)
{
    homg_pdl_launch(a.st, blocks, dim3(FV_BX, FV_BY), a.pdl, homg_filter_vec4_kernel<MINB, PF, S>, nx, ny, s, nseg, R,
                    src, dst, a.H, a.compact, a.zero);
}

template <int MINB, bool PF>
static void fv_go_s(const fv_args &a, dim3 blocks, int nx, int ny, int s, int nseg, int R, const float *src, float *dst)
{
    if (s == 1)
        fv_go<MINB, PF, 1>(a, blocks, nx, ny, s, nseg, R, src, dst);
    else if (s == 2)
        fv_go<MINB, PF, 2>(a, blocks, nx, ny, s, nseg, R, src, dst);
    else
        fv_go<MINB, PF, 0>(a, blocks, nx, ny, s, nseg, R, src, dst);
}

template <bool PF>
static void fv_go_minb(const fv_args &a, int minb, dim3 blocks, int nx, int ny, int s, int nseg, int R,
                       const float *src, float *dst)
{
    if (minb <= 2)
        fv_go_s<2, PF>(a, blocks, nx, ny, s, nseg, R, src, dst);
    else if (minb == 3)
        fv_go_s<3, PF>(a, blocks, nx, ny, s, nseg, R, src, dst);
    else
        fv_go_s<4, PF>(a, blocks, nx, ny, s, nseg, R, src, dst);
}

/* Segments a chain of rows s apart has with R outputs a thread (rows a chain: ceil(ny / s)) */
static int homg_filter_vec4_segments(int ny, int s, int R)
{
    const int chain = (ny + s - 1) / s;
    return (chain + R - 1) / R;
}

/* Blocks homg_cuda_filter_vec4_launch starts (grid.cu picks R by the waves they make) */
extern "C" long homg_cuda_filter_vec4_blocks(int nx, int ny, int s, int R)
{
    const long qrows = (long)(s < ny ? s : ny) * homg_filter_vec4_segments(ny, s, R);
    return (long)((nx / 4 + FV_BX - 1) / FV_BX) * ((qrows + FV_BY - 1) / FV_BY);
}

/* Launches homg_filter_vec4_kernel with R = rows (>= 1; 4 or 8 by default) outputs a thread, its
 * registers bounded for minb (2, 3 or 4) blocks an SM, prefetch pf (0 or 1); needs
 * nx % 4 == 0, s % 4 == 0 or s < 4, and 16-byte aligned src and dst (the caller
 * checks); pdl: programmatic dependent launch; compact (level H), zero_dst: the
 * gather fused and the zeroing as homg_filter (grid_kernels.h). */
extern "C" void homg_cuda_filter_vec4_launch(cudaStream_t stream, int rows, int minb, int pf, int pdl, int nx, int ny,
                                             int s, const float *src, float *dst, const mfmg_level *H, float *compact,
                                             int zero_dst)
{
    const fv_args a = { stream, pdl, *H, compact, zero_dst };
    const int R = rows < 1 ? 1 : rows;
    const int nseg = homg_filter_vec4_segments(ny, s, R);
    const int qrows = (s < ny ? s : ny) * nseg;
    const dim3 blocks((nx / 4 + FV_BX - 1) / FV_BX, (qrows + FV_BY - 1) / FV_BY);
    if (pf)
        fv_go_minb<true>(a, minb, blocks, nx, ny, s, nseg, R, src, dst);
    else
        fv_go_minb<false>(a, minb, blocks, nx, ny, s, nseg, R, src, dst);
}
