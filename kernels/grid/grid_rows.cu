/* grid_rows.cu -- the fused down and up steps on the float32 levels from 1024^2 up
 * as row blocks (issue 12; the same kernel-table entries as grid_fused.cu, whose CPU twins are kernels/grid/grid.c's
 * cpu_smooth_restrict / cpu_prolong_smooth).
 *
 * Why: the streamed steps (grid_stream.cu, removed in s15-tidy2) marched each warp up a chunk of rows, one
 * dependent step a row; at 1024^2 a chunk was 6 rows plus 10 warm-up rows, and the
 * steps took ~26 us each (h100.md, session 10).  Here a block holds a whole box of
 * 144 x 4T cells at once (temporal blocking, no march): thread (tx, ty) owns a float4
 * of columns on RR = 4 consecutive rows in registers, f too; the box lives in shared
 * memory for the neighbours of other threads; a half-sweep is one pass over the
 * thread's cells of that colour and one barrier.  Only the box's outermost cells stay
 * put (the edge threads' four columns, the first and last row); wrong values creep
 * in one cell a half-sweep, so the output is the box less XH = 8 columns (12 for
 * S = 3) and HB rows each side (HB >= 2S + 1 down, >= 2S up, even so row pairs
 * restrict inside a thread).  A half-sweep writes only cells of its colour and reads only the other
 * colour, so reads and writes never meet between barriers.  The prolongation (up
 * step, and the down step after the exact solve) loads the 4 x 4 coarse values a
 * thread's 16 cells take once (r_coarse), not four a cell as prolong_t: 37% fewer
 * instructions in the up step.  On the H100 (h100.md, Sessions 11 twod and twod2;
 * ncu, L2 warm) the 1024^2 down and up steps took 14.1 and 10.5 us (8 thread rows)
 * against ~26 each streamed; at 4096^2 (DRAM) 99.6 and 99.0 us against 160 and 156
 * (69% of copy bandwidth against 45%: every row of a box is in flight at once, where
 * a streamed warp waits on one row a step).
 *
 * The mid step (homg_rows_mid: a cycle boundary of a fixed sequence, cycle k's up step
 * and cycle k+1's down step in one pass, kernel table prolong_smooth_restrict) is the
 * down step with u + P ec and up to 3 sweeps: V(2,1)'s 1 + 2.  It reads u and f once
 * and writes u once where the two steps did each twice, but its box of 144 x 48 keeps
 * 120 x 32 (8 halo rows and 12 columns a side) for 3 sweeps: on the H100 (h100.md,
 * Session 14 twod5) it saved 4% of the 4096^2 solve and 2% at 2048^2, lost 3% at
 * 1024^2 (L2-resident), where the bytes were to save a third of the finest level's.
 *
 * Results equal grid_fused.cu's to float rounding: the same per-cell formulas in
 * the same order as grid_fused.cu's (interior cells; grid_row_cell.cuh), the residual from neighbour
 * differences, pairs summed as there. */
#include "core/pdl.cuh"
#include "grid_row_cell.cuh"
#include "grid_rows.cuh"

#include <stdint.h>
#include <stdlib.h>

namespace
{

enum {
    RX = 36,     /* threads a box row: 36 float4 = 144 columns */
    RR = 4,      /* rows a thread (even: row pairs restrict in one thread) */
    RW = 4 * RX, /* box width */
    RTMAX = 16   /* most thread rows a block (shared memory) */
};

/* A box's halos: HB rows each side (the first and last row stay put, so wrong values
 * reach row 2S - 1 after 2S half-sweeps; the residual needs one more), XH columns
 * (the edge threads' 4 columns stay put: wrong values reach column 2S + 2, the
 * residual needs column 2S + 3; a whole float4: 8 for S <= 2, 12 for the mid step's
 * S = 3), OW output columns a block (128, or 120 with S = 3). */
template <int S, bool DOWN> struct rshape {
    enum { H = DOWN ? 2 * S + 1 : 2 * S, HB = H + (H & 1), XH = S <= 2 ? 8 : 12, OW = RW - 2 * XH };
};

/* The residual of a thread's four cells on row gj (me; d, u: rows gj - 1, gj + 1; l, r:
 * the cells left and right), summed in x pairs, as s_residual_pairs. */
template <bool EDGE>
__device__ __forceinline__ float2 r_residual_pairs(const grid_level &L, const row_const &K, const float4 &me,
                                                   const float4 &d, const float4 &u, const float4 &f, float l, float r,
                                                   int gi0, int gj)
{
    const float ih2 = K.ih2, lam = (float)L.lambda;
    if (!EDGE) {
        const float r0 = f.x + ih2 * (((l - me.x) + (me.y - me.x)) + ((d.x - me.x) + (u.x - me.x))) - lam * me.x;
        const float r1 = f.y + ih2 * (((me.x - me.y) + (me.z - me.y)) + ((d.y - me.y) + (u.y - me.y))) - lam * me.y;
        const float r2 = f.z + ih2 * (((me.y - me.z) + (me.w - me.z)) + ((d.z - me.z) + (u.z - me.z))) - lam * me.z;
        const float r3 = f.w + ih2 * (((me.z - me.w) + (r - me.w)) + ((d.w - me.w) + (u.w - me.w))) - lam * me.w;
        return make_float2(r0 + r1, r2 + r3);
    }
    const float r0 = row_res1(L, ih2, lam, f.x, me.x, l, me.y, d.x, u.x, gi0, gj);
    const float r1 = row_res1(L, ih2, lam, f.y, me.y, me.x, me.z, d.y, u.y, gi0 + 1, gj);
    const float r2 = row_res1(L, ih2, lam, f.z, me.z, me.y, me.w, d.z, u.z, gi0 + 2, gj);
    const float r3 = row_res1(L, ih2, lam, f.w, me.w, me.z, r, d.w, u.w, gi0 + 3, gj);
    return make_float2(r0 + r1, r2 + r3);
}

/* The coarse values bilinear prolongation gives a thread's float4 of columns gi0.. on
 * its RR = 4 rows gjb.. (gjb even) from: coarse rows J - 1 .. J + 2 (J = gjb / 2) and
 * columns I0 - 1 .. I0 + 2 (I0 = gi0 / 2), each loaded once (prolong_t per cell loads
 * four and reflects twice), the signs of the homogeneous ghosts (rows and columns)
 * folded in, as srow_load in the streamed steps had it.  Signs are +-1, so the products equal
 * prolong_t's (sx * sy) * e exactly.  EDGE: a coarse row only where a fine row in the
 * domain takes it (then its reflection stays in the array), else zeros; interior boxes
 * (!EDGE) have no ghosts to reflect. */
template <bool EDGE>
__device__ __forceinline__ void r_coarse(const grid_level &L, const float *__restrict__ ec, int gi0, int gjb, bool col,
                                         float C[4][4])
{
    const int ncx = L.nx / 2, ncy = L.ny / 2, I0 = gi0 >> 1, J = gjb >> 1;
    float sx[4];
    int ia[4];
#pragma unroll
    for (int k = 0; k < 4; k++) {
        ia[k] = I0 - 1 + k;
        sx[k] = EDGE ? (float)homg_reflect(&ia[k], ncx) : 1.f; /* interior boxes: no ghosts */
    }
#pragma unroll
    for (int q = 0; q < 4; q++) {
        /* fine rows taking coarse row q: 0 (q 0), 0..2 (q 1), 1..3 (q 2), 3 (q 3) */
        const int lo = gjb + (q == 0 ? 0 : q == 1 ? 0 : q == 2 ? 1 : 3), hi = gjb + (q == 0 ? 0 : q == 1 ? 2 : 3);
        const bool live = col && (!EDGE || (hi >= 0 && lo < L.ny));
        int b = J - 1 + q;
        const float sy = !EDGE ? 1.f : live ? (float)homg_reflect(&b, ncy) : 0.f;
        const float *row = ec + (size_t)(live ? b : 0) * ncx;
#pragma unroll
        for (int k = 0; k < 4; k++)
            C[q][k] = live ? sx[k] * sy * __ldg(row + ia[k]) : 0.f;
    }
}

/* Bilinear prolongation of four fine columns from their coarse row c0 and the row beside
 * c1 (r_coarse's columns I0 - 1 .. I0 + 2), the order of terms of prolong_t and srow_u. */
__device__ __forceinline__ float4 r_prolong4(const float *c0, const float *c1)
{
    float p[4];
#pragma unroll
    for (int m = 0; m < 4; m++) {
        const int kI = 1 + (m >> 1), kI2 = (m == 0) ? 0 : (m == 1) ? 2 : (m == 2) ? 1 : 3;
        p[m] = 0.5625f * c0[kI] + 0.1875f * (c0[kI2] + c1[kI]) + 0.0625f * (c1[kI2]);
    }
    return make_float4(p[0], p[1], p[2], p[3]);
}

/* One block's box: PE 0: u (or 0 where u is NULL), 1: P ec, 2: u + P ec; S sweeps;
 * DOWN: then the residual restricted into fc.  EDGE: the box touches or passes the
 * domain's edge (per-cell tests; zeros outside, never updated). */
template <int S, bool DOWN, int PE, bool EDGE>
__device__ __forceinline__ void rows_box(const grid_level &L, const row_const &K, const float *__restrict__ u,
                                         const float *__restrict__ ec, const float *__restrict__ f,
                                         float *__restrict__ u_out, float *__restrict__ fc, float *su, int x0, int y0,
                                         int BH)
{
    enum { HB = rshape<S, DOWN>::HB, XH = rshape<S, DOWN>::XH };
    const int tx = threadIdx.x, ty = threadIdx.y, T = blockDim.y;
    const int gi0 = x0 + 4 * tx, gjb = y0 + RR * ty, b0 = RR * ty; /* gjb even */
    const bool col = !EDGE || (gi0 >= 0 && gi0 < L.nx);
    const bool upd = col && tx > 0 && tx < RX - 1;
    const int ncx = L.nx / 2;
    float4 U[RR], F[RR];
    float C[4][4]; /* PE: coarse rows J - 1 .. J + 2, columns I0 - 1 .. I0 + 2 (r_coarse) */
    if (PE)
        r_coarse<EDGE>(L, ec, gi0, gjb, col, C);
#pragma unroll
    for (int r = 0; r < RR; r++) {
        const int gj = gjb + r;
        U[r] = F[r] = make_float4(0.f, 0.f, 0.f, 0.f);
        if (col && (!EDGE || (gj >= 0 && gj < L.ny))) {
            const size_t g = (size_t)gj * L.nx + gi0;
            F[r] = __ldg((const float4 *)(f + g));
            if (PE != 1 && u)
                U[r] = __ldg((const float4 *)(u + g));
            if (PE) {
                /* fine row r's own coarse row (J or J + 1) and the one beside it (J - 1,
                 * J + 1, J, J + 2), the same map as the columns' kI2 in r_prolong4 */
                const int q0 = 1 + (r >> 1), q1 = r == 0 ? 0 : r == 1 ? 2 : r == 2 ? 1 : 3;
                const float4 p = r_prolong4(C[q0], C[q1]);
                if (PE == 1)
                    U[r] = p;
                else
                    U[r] = make_float4(U[r].x + p.x, U[r].y + p.y, U[r].z + p.z, U[r].w + p.w);
            }
        }
        *(float4 *)(su + (b0 + r) * RW + 4 * tx) = U[r];
    }
    __syncthreads();
#pragma unroll
    for (int s = 1; s <= 2 * S; s++) {
        const int c = (s - 1) & 1;
#pragma unroll
        for (int r = 0; r < RR; r++) {
            const int gj = gjb + r, k = (b0 + r) * RW + 4 * tx;
            if (!upd || (r == 0 && ty == 0) || (r == RR - 1 && ty == T - 1))
                continue; /* the box's outermost cells stay */
            if (EDGE && (gj < 0 || gj >= L.ny))
                continue;
            float4 &me = U[r];
            const bool even = ((c + r) & 1) == 0; /* compile time: cells x, z have colour c */
            /* neighbour rows: this thread's registers, or the rows beside in shared memory
             * (only the other colour's cells: those are not written in this half-sweep) */
            float dA, dB, uA, uB;
            if (even) {
                dA = r > 0 ? U[r > 0 ? r - 1 : 0].x : su[k - RW];
                dB = r > 0 ? U[r > 0 ? r - 1 : 0].z : su[k - RW + 2];
                uA = r < RR - 1 ? U[r < RR - 1 ? r + 1 : 0].x : su[k + RW];
                uB = r < RR - 1 ? U[r < RR - 1 ? r + 1 : 0].z : su[k + RW + 2];
                const float l = su[k - 1];
                if (!EDGE) {
                    me.x = (F[r].x + K.ih2 * ((l + me.y) + (dA + uA))) * K.idiag;
                    me.z = (F[r].z + K.ih2 * ((me.y + me.w) + (dB + uB))) * K.idiag;
                } else {
                    me.x = row_cell(L, K, F[r].x, l, me.y, dA, uA, gi0, gj, true);
                    me.z = row_cell(L, K, F[r].z, me.y, me.w, dB, uB, gi0 + 2, gj, true);
                }
                su[k] = me.x;
                su[k + 2] = me.z;
            } else {
                dA = r > 0 ? U[r > 0 ? r - 1 : 0].y : su[k - RW + 1];
                dB = r > 0 ? U[r > 0 ? r - 1 : 0].w : su[k - RW + 3];
                uA = r < RR - 1 ? U[r < RR - 1 ? r + 1 : 0].y : su[k + RW + 1];
                uB = r < RR - 1 ? U[r < RR - 1 ? r + 1 : 0].w : su[k + RW + 3];
                const float rr = su[k + 4];
                if (!EDGE) {
                    me.y = (F[r].y + K.ih2 * ((me.x + me.z) + (dA + uA))) * K.idiag;
                    me.w = (F[r].w + K.ih2 * ((me.z + rr) + (dB + uB))) * K.idiag;
                } else {
                    me.y = row_cell(L, K, F[r].y, me.x, me.z, dA, uA, gi0 + 1, gj, true);
                    me.w = row_cell(L, K, F[r].w, me.z, rr, dB, uB, gi0 + 3, gj, true);
                }
                su[k + 1] = me.y;
                su[k + 3] = me.w;
            }
        }
        __syncthreads();
    }
    /* the output: columns [XH, RW - XH), rows [HB, BH - HB) of the box, in the domain */
    const bool ocol = col && tx >= XH / 4 && tx < RX - XH / 4;
    float2 rpair = make_float2(0.f, 0.f);
#pragma unroll
    for (int r = 0; r < RR; r++) {
        const int gj = gjb + r, b = b0 + r, k = b * RW + 4 * tx;
        if (!ocol || b < HB || b >= BH - HB || (EDGE && gj >= L.ny))
            continue;
        *(float4 *)(u_out + (size_t)gj * L.nx + gi0) = U[r];
        if (DOWN) {
            const float4 d = r > 0 ? U[r > 0 ? r - 1 : 0] : *(const float4 *)(su + k - RW);
            const float4 uu = r < RR - 1 ? U[r < RR - 1 ? r + 1 : 0] : *(const float4 *)(su + k + RW);
            const float2 pr = r_residual_pairs<EDGE>(L, K, U[r], d, uu, F[r], su[k - 1], su[k + 4], gi0, gj);
            if ((r & 1) == 0)
                rpair = pr;
            else
                *(float2 *)(fc + (size_t)(gj >> 1) * ncx + (gi0 >> 1)) =
                    make_float2(0.25f * (rpair.x + pr.x), 0.25f * (rpair.y + pr.y));
        }
    }
}

/* 72 registers a thread (no spills): 3 blocks of 8 thread rows an SM; 56 (a few spills)
 * fitted 4, yet was slower (1024^2 0.2089 ms against 0.1923 with 8 thread rows; h100.md,
 * Session 11 twod; that variant was removed in s15-tidy2). */
template <int S, bool DOWN, int PE>
__global__ void __maxnreg__(72)
    rows_kernel(grid_level L, const float *__restrict__ u, const float *__restrict__ ec, const float *__restrict__ f,
                float *__restrict__ u_out, float *__restrict__ fc)
{
    enum { HB = rshape<S, DOWN>::HB, XH = rshape<S, DOWN>::XH, OW = rshape<S, DOWN>::OW };
    __shared__ __align__(16) float su[RR * RTMAX * RW];
    const int BH = RR * blockDim.y, OH = BH - 2 * HB;
    const int x0 = blockIdx.x * OW - XH, y0 = blockIdx.y * OH - HB;
    const bool interior = x0 >= 1 && y0 >= 1 && x0 + RW <= L.nx - 1 && y0 + BH <= L.ny - 1;
    const row_const K = row_const_of(L);
    homg_pdl_wait();
    if (interior)
        rows_box<S, DOWN, PE, false>(L, K, u, ec, f, u_out, fc, su, x0, y0, BH);
    else
        rows_box<S, DOWN, PE, true>(L, K, u, ec, f, u_out, fc, su, x0, y0, BH);
}

/* The level's launch choices (grid_kernels.h grid_tune, read by lib/grid/box.c). */
grid_tune r_tune(const grid_level *L) { return L->tune ? *L->tune : homg_grid_tune_default(); }

/* Thread rows a block: the tune's rows_t (rows_mid_t for the mid step, whose halos are the
 * widest; default 12, grid_kernels.h HOMG_BOX_ROWS_T: 432 threads, boxes of 144 x 48, 2
 * blocks an SM, 232 blocks down and 208 up at 1024^2), at least enough for 4 output rows,
 * at most RTMAX. */
template <int S, bool DOWN, int PE> int r_threads_y(const grid_level *L)
{
    enum { HB = rshape<S, DOWN>::HB };
    const grid_tune tn = r_tune(L);
    int t = DOWN && PE == 2 ? tn.rows_mid_t : tn.rows_t;
    const int least = (2 * HB + 4 + RR - 1) / RR;
    if (t < least)
        t = least;
    return t > RTMAX ? RTMAX : t;
}

template <int S, bool DOWN, int PE>
void r_launch(cudaStream_t st, int pdl, const grid_level *L, const float *u, const float *ec, const float *f,
              float *u_out, float *fc)
{
    enum { HB = rshape<S, DOWN>::HB, OW = rshape<S, DOWN>::OW };
    const int t = r_threads_y<S, DOWN, PE>(L), oh = RR * t - 2 * HB;
    const dim3 grid((L->nx + OW - 1) / OW, (L->ny + oh - 1) / oh);
    homg_pdl_launch(st, grid, dim3(RX, t), pdl, rows_kernel<S, DOWN, PE>, *L, u, ec, f, u_out, fc);
}

int aligned16(const void *p) { return ((uintptr_t)p & 15) == 0; }

} /* namespace */

/* The row-block steps take float32 levels from the tune's rows_cells (default 1024^2,
 * grid_kernels.h HOMG_BOX_ROWS_CELLS; 1e300: off, the tiles or owned steps instead). */
int homg_rows_fits(const grid_level *L, int sweeps, const void *const *ptrs, int nptrs)
{
    return homg_rows_mid_fits(L, sweeps, ptrs, nptrs) && sweeps <= 2;
}

int homg_rows_mid_fits(const grid_level *L, int sweeps, const void *const *ptrs, int nptrs)
{
    const double n = (double)L->nx * L->ny;
    if (L->nx % 4 || L->ny % 2 || sweeps < 1 || sweeps > 3)
        return 0;
    if (n < r_tune(L).rows_cells)
        return 0;
    for (int k = 0; k < nptrs; k++)
        if (ptrs[k] && !aligned16(ptrs[k]))
            return 0;
    return 1;
}

void homg_rows_down(cudaStream_t st, int pdl, const grid_level *L, const float *u_in, float *u_out, const float *f,
                    float *fc, int sweeps, int init, const float *ec)
{
    const float *u = init == HOMG_INIT_KEEP ? u_in : NULL;
    if (init == HOMG_INIT_PROLONG)
        sweeps == 1 ? r_launch<1, true, 1>(st, pdl, L, u, ec, f, u_out, fc)
                    : r_launch<2, true, 1>(st, pdl, L, u, ec, f, u_out, fc);
    else
        sweeps == 1 ? r_launch<1, true, 0>(st, pdl, L, u, ec, f, u_out, fc)
                    : r_launch<2, true, 0>(st, pdl, L, u, ec, f, u_out, fc);
}

void homg_rows_up(cudaStream_t st, int pdl, const grid_level *L, const float *ec, const float *u_in, float *u_out,
                  const float *f, int sweeps, int assign)
{
    if (assign)
        sweeps == 1 ? r_launch<1, false, 1>(st, pdl, L, u_in, ec, f, u_out, NULL)
                    : r_launch<2, false, 1>(st, pdl, L, u_in, ec, f, u_out, NULL);
    else
        sweeps == 1 ? r_launch<1, false, 2>(st, pdl, L, u_in, ec, f, u_out, NULL)
                    : r_launch<2, false, 2>(st, pdl, L, u_in, ec, f, u_out, NULL);
}

void homg_rows_mid(cudaStream_t st, int pdl, const grid_level *L, const float *ec, const float *u_in, float *u_out,
                   const float *f, float *fc, int sweeps)
{
    if (sweeps == 1)
        r_launch<1, true, 2>(st, pdl, L, u_in, ec, f, u_out, fc);
    else if (sweeps == 2)
        r_launch<2, true, 2>(st, pdl, L, u_in, ec, f, u_out, fc);
    else
        r_launch<3, true, 2>(st, pdl, L, u_in, ec, f, u_out, fc);
}
