/* grid_stream.cu -- the fused down and up steps on the large float32 levels as
 * streams of rows (issue 12; the same kernel-table entries as grid_fused.cu, whose
 * CPU twins are kernels/grid/grid.c's cpu_smooth_restrict / cpu_prolong_smooth).
 *
 * The 2D analogue of the cube kernels (kernels/grid/cube.cu): a block of SNT
 * threads owns a strip of SW = 4 SNT cells (one float4 per thread, SHX halo cells
 * each side) and marches up a chunk of rows.  Each step loads one row of u and f
 * (two rows ahead, in registers) into a ring of rows in shared memory, and the
 * red-black half-sweeps are a pipeline behind it: half-sweep s works on row
 * y - (2s - 1), the residual (down step) on row y - 2NS - 1.  The stages of one
 * step touch rows two apart, so none reads what another writes in the same step
 * and a step needs one barrier.  Device memory sees each array about once (the
 * strips' x halos and the chunks' warm-up rows are read again: 3% and
 * (2NS + 2) / chunk rows); the fused tile kernels read it once but run at 45% of
 * copy bandwidth at 4096^2 (bench/results/h100.md), bound by their barriers.
 *
 * Results equal grid_fused.cu's to float rounding: the same per-cell formulas in
 * the same order (interior cells), the residual from neighbour differences. */
#include "core/cuda_check.h"
#include "core/pdl.cuh"
#include "grid_point.cuh"
#include "grid_stream.cuh"

#include <stdint.h>
#include <stdlib.h>

#define SNT 128            /* threads per block */
#define SW  (4 * SNT)      /* strip width in cells, halos included */
#define SHX 8              /* halo cells per side: >= 2S + 1 for S <= 2, a multiple of 4 */
#define SOW (SW - 2 * SHX) /* cells a strip writes */

/* Ring rows: a step writes row y's slot while the down step's residual still reads
 * row y - 2NS - 2 and the up step's store row y - 2NS (barrier-free reuse). */
template <int S, bool DOWN> struct sshape {
    enum { NS = 2 * S, E = DOWN ? 1 : 0, R = DOWN ? 2 * NS + 4 : 2 * NS + 2 };
};

/* One row's raw loads for one thread: u and f, and the coarse values bilinear
 * prolongation needs (I0-1 .. I0+2 on coarse rows J and J2, signs of the
 * homogeneous ghosts folded in, as prolong_t in grid_fused.cu). */
struct srow {
    float4 u, f;
    float c0[4], c1[4];
};

struct sargs {
    const float *u;  /* NULL: u = 0 */
    const float *pe; /* NULL: no prolongation */
    int assign;      /* u = P pe instead of u + P pe */
};

__device__ __forceinline__ void srow_load(const grid_level &L, const sargs &A, const float *__restrict__ f, int gi0,
                                          int gj, bool live, srow &r)
{
    r.u = r.f = make_float4(0.f, 0.f, 0.f, 0.f);
    if (!live)
        return;
    const size_t g = (size_t)gj * L.nx + gi0;
    r.f = __ldg((const float4 *)(f + g));
    if (A.u)
        r.u = __ldg((const float4 *)(A.u + g));
    if (A.pe) {
        const int ncx = L.nx / 2, ncy = L.ny / 2, I0 = gi0 >> 1, J = gj >> 1;
        int b = J + ((gj & 1) ? 1 : -1);
        const float sy = (float)homg_reflect(&b, ncy);
        const float *r0 = A.pe + (size_t)J * ncx, *r1 = A.pe + (size_t)b * ncx;
#pragma unroll
        for (int k = 0; k < 4; k++) {
            int a = I0 - 1 + k;
            const float sx = (float)homg_reflect(&a, ncx);
            r.c0[k] = sx * __ldg(r0 + a);
            r.c1[k] = sx * sy * __ldg(r1 + a);
        }
    }
}

/* The row's initial u: u, P pe, or u + P pe (the order of grid_fused.cu's load_tile). */
__device__ __forceinline__ float4 srow_u(const sargs &A, const srow &r, bool live)
{
    if (!live || !A.pe)
        return r.u;
    float p[4];
#pragma unroll
    for (int m = 0; m < 4; m++) {
        const int kI = 1 + (m >> 1), kI2 = (m == 0) ? 0 : (m == 1) ? 2 : (m == 2) ? 1 : 3;
        p[m] = 0.5625f * r.c0[kI] + 0.1875f * (r.c0[kI2] + r.c1[kI]) + 0.0625f * (r.c1[kI2]);
    }
    if (A.assign || !A.u)
        return make_float4(p[0], p[1], p[2], p[3]);
    return make_float4(r.u.x + p[0], r.u.y + p[1], r.u.z + p[2], r.u.w + p[3]);
}

__device__ __forceinline__ float comp(const float4 &v, int m) { return m == 0 ? v.x : m == 1 ? v.y : m == 2 ? v.z : v.w; }

/* The x neighbours of the thread's four cells: shuffles inside a warp, shared
 * memory across warps (only where the caller needs them, so no lane reads a cell
 * another thread writes in the same stage). */
__device__ __forceinline__ void x_nbrs(const float4 *row, const float4 &me, bool need_l, bool need_r, float *l,
                                       float *r)
{
    const int t = threadIdx.x, lane = t & 31;
    float a = __shfl_up_sync(0xffffffffu, me.w, 1), b = __shfl_down_sync(0xffffffffu, me.x, 1);
    if (lane == 0)
        a = (need_l && t > 0) ? row[t - 1].w : 0.f;
    if (lane == 31)
        b = (need_r && t < SNT - 1) ? row[t + 1].x : 0.f;
    *l = a;
    *r = b;
}

/* One half-sweep of colour c on row gj (ring rows dn, me, up). */
__device__ __forceinline__ void s_sweep(const grid_level &L, float4 *row, const float4 *dn, const float4 *up,
                                        const float4 *fr, int gi0, int gj, int c, bool active, float ih2, float idiag,
                                        float id1, float id2)
{
    const int t = threadIdx.x;
    const float4 me = row[t];
    const int m0 = (c + gj) & 1; /* gi0 is even: cells m0, m0 + 2 have colour c */
    float l, r;
    x_nbrs(row, me, m0 == 0, m0 == 1, &l, &r);
    if (!active)
        return;
    const float4 d = dn[t], u = up[t], f = fr[t];
    const bool edge = gj == 0 || gj == L.ny - 1 || gi0 == 0 || gi0 + 4 == L.nx;
    float *out = (float *)&row[t];
#pragma unroll
    for (int k = 0; k < 2; k++) {
        const int m = m0 + 2 * k;
        const float xl = m == 0 ? l : comp(me, m - 1), xr = m == 3 ? r : comp(me, m + 1);
        float rhs = comp(f, m) + ih2 * ((xl + xr) + (comp(d, m) + comp(u, m)));
        float id = idiag;
        if (edge) {
            const int gi = gi0 + m, e = homg_edges_touched(gi, gj, L.nx, L.ny);
            if (e) {
                rhs += (float)bterm_at<float>(L, gi, gj);
                id = e == 1 ? id1 : e == 2 ? id2 : (float)(1.0 / ((4 + e) * L.inv_h2 + L.lambda));
            }
        }
        out[m] = rhs * id;
    }
}

/* f + bterm - A u of the thread's four cells on row gj, summed in x pairs. */
__device__ __forceinline__ float2 s_residual_pairs(const grid_level &L, const float4 *row, const float4 *dn,
                                                   const float4 *up, const float4 *fr, int gi0, int gj, bool active)
{
    const int t = threadIdx.x;
    const float4 me = row[t];
    float l, r;
    x_nbrs(row, me, true, true, &l, &r);
    if (!active)
        return make_float2(0.f, 0.f);
    const float4 d = dn[t], u = up[t], f = fr[t];
    const float ih2 = (float)L.inv_h2, lam = (float)L.lambda;
    float res[4];
#pragma unroll
    for (int m = 0; m < 4; m++) {
        const int gi = gi0 + m;
        const float c = comp(me, m), xl = m == 0 ? l : comp(me, m - 1), xr = m == 3 ? r : comp(me, m + 1);
        const float yd = comp(d, m), yu = comp(u, m);
        if (!homg_edges_touched(gi, gj, L.nx, L.ny)) {
            res[m] = comp(f, m) + ih2 * (((xl - c) + (xr - c)) + ((yd - c) + (yu - c))) - lam * c;
        } else {
            const float dd = (gi > 0 ? xl - c : -2 * c) + (gi < L.nx - 1 ? xr - c : -2 * c) +
                             (gj > 0 ? yd - c : -2 * c) + (gj < L.ny - 1 ? yu - c : -2 * c);
            res[m] = comp(f, m) + ih2 * dd - lam * c + (float)bterm_at<float>(L, gi, gj);
        }
    }
    return make_float2(res[0] + res[1], res[2] + res[3]);
}

/* DOWN: u_out = u after S sweeps, fc = R(f + bterm - A u_out); up: u_out = u after S
 * sweeps.  The initial u comes from A (u, P pe, u + P pe, or 0).  Rows [a, b) of
 * the strip's SOW cells are this block's; C (even) rows per chunk. */
template <int S, bool DOWN>
__global__ void __launch_bounds__(SNT) stream_kernel(grid_level L, sargs A, const float *__restrict__ f,
                                                     float *__restrict__ u_out, float *__restrict__ fc, int C)
{
    typedef sshape<S, DOWN> Q;
    __shared__ float4 su[Q::R][SNT], sf[Q::R][SNT];
    homg_pdl_wait();
    const int t = threadIdx.x, gi0 = blockIdx.x * SOW - SHX + 4 * t;
    const int a = blockIdx.y * C, b = min(a + C, L.ny);
    const int rstart = a - Q::E - Q::NS, rend = b + Q::E + Q::NS;
    const int ylast = DOWN ? b + 2 * Q::NS : b - 1 + 2 * Q::NS;
    const bool col = gi0 >= 0 && gi0 < L.nx;
    const bool upd = col && t > 0 && t < SNT - 1;           /* the strip's edge threads keep their cells */
    const bool own = col && t >= SHX / 4 && t < SNT - SHX / 4; /* the cells this strip writes */
    const float ih2 = (float)L.inv_h2, idiag = (float)(1.0 / (4 * L.inv_h2 + L.lambda));
    const float id1 = (float)(1.0 / (5 * L.inv_h2 + L.lambda)), id2 = (float)(1.0 / (6 * L.inv_h2 + L.lambda));
    const int ncx = L.nx / 2;
    srow p0, p1;
    float2 rpair = make_float2(0.f, 0.f);

#define SLIVE(y) (col && (y) >= max(rstart, 0) && (y) < min(rend, L.ny))
    srow_load(L, A, f, gi0, rstart, SLIVE(rstart), p0);
    srow_load(L, A, f, gi0, rstart + 1, SLIVE(rstart + 1), p1);
#pragma unroll 1
    for (int y = rstart; y <= ylast; y++) {
        const int slot = (y - rstart) % Q::R;
        su[slot][t] = srow_u(A, p0, SLIVE(y));
        sf[slot][t] = p0.f;
        p0 = p1;
        srow_load(L, A, f, gi0, y + 2, SLIVE(y + 2), p1);
        __syncthreads();
#pragma unroll
        for (int s = 1; s <= Q::NS; s++) {
            const int r = y - (2 * s - 1), lo = max(a - Q::E - (Q::NS - s), 0), hi = min(b + Q::E + (Q::NS - s), L.ny);
            if (r < lo || r >= hi) /* uniform over the block */
                continue;
            const int k = (r - rstart) % Q::R, kd = (r - 1 - rstart) % Q::R, ku = (r + 1 - rstart) % Q::R;
            s_sweep(L, su[k], su[kd], su[ku], sf[k], gi0, r, (s - 1) & 1, upd, ih2, idiag, id1, id2);
        }
        if (DOWN) {
            const int r = y - 2 * Q::NS - 1;
            if (r >= a && r < b) {
                const int k = (r - rstart) % Q::R, kd = (r - 1 - rstart) % Q::R, ku = (r + 1 - rstart) % Q::R;
                const float2 pr = s_residual_pairs(L, su[k], su[kd], su[ku], sf[k], gi0, r, own);
                if (own) {
                    *(float4 *)(u_out + (size_t)r * L.nx + gi0) = su[k][t];
                    if (((r - a) & 1) == 0) {
                        rpair = pr;
                    } else if (r < L.ny) {
                        float2 o = make_float2(0.25f * (rpair.x + pr.x), 0.25f * (rpair.y + pr.y));
                        *(float2 *)(fc + (size_t)(r >> 1) * ncx + (gi0 >> 1)) = o;
                    }
                }
            }
        } else {
            const int r = y - 2 * Q::NS;
            if (own && r >= a && r < b)
                *(float4 *)(u_out + (size_t)r * L.nx + gi0) = su[(r - rstart) % Q::R][t];
        }
    }
#undef SLIVE
}

/* ------------------------------------------------------------------ launches */

static double s_knob(const char *name, double dflt)
{
    const char *e = getenv(name);
    return e && *e ? atof(e) : dflt;
}

/* The streamed steps take float32 levels of at least this many cells (2048^2: the
 * levels that do not stay in the H100's L2 between passes). */
#define HOMG_BOX_STREAM_CELLS (2048.0 * 2048)

static int aligned16(const void *p) { return ((uintptr_t)p & 15) == 0; }

/* Rows per chunk: enough blocks for one full wave (the occupancy the kernel
 * reaches), at least HOMG_BOX_STREAM_ROWS (a benchmark knob; 0: none), even. */
template <int S, bool DOWN> static int s_chunk(const grid_level *L, int strips)
{
    int dev = 0, nsm = 132, per = 4;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, stream_kernel<S, DOWN>, SNT, 0);
    if (per < 1)
        per = 1;
    const double force = s_knob("HOMG_BOX_STREAM_FORCE_ROWS", 0);
    int chunks = (int)(per * nsm / strips), c;
    if (force >= 2)
        c = (int)force;
    else {
        c = chunks < 1 ? L->ny : (L->ny + chunks - 1) / chunks;
        if (c < (int)s_knob("HOMG_BOX_STREAM_ROWS", 0))
            c = (int)s_knob("HOMG_BOX_STREAM_ROWS", 0);
    }
    c += c & 1;
    return c < 2 ? 2 : c;
}

template <int S, bool DOWN>
static void s_launch(cudaStream_t st, int pdl, const grid_level *L, sargs A, const void *f, void *u_out, void *fc)
{
    const int strips = (L->nx + SOW - 1) / SOW, C = s_chunk<S, DOWN>(L, strips);
    homg_pdl_launch(st, dim3(strips, (L->ny + C - 1) / C), dim3(SNT), pdl, stream_kernel<S, DOWN>, *L, A,
                    (const float *)f, (float *)u_out, (float *)fc, C);
}

int homg_stream_fits(const grid_level *L, int sweeps, const void *const *ptrs, int nptrs)
{
    if (L->nx % 4 || L->ny % 2 || sweeps < 0 || sweeps > 2)
        return 0;
    if ((double)L->nx * L->ny < s_knob("HOMG_BOX_STREAM_CELLS", HOMG_BOX_STREAM_CELLS))
        return 0;
    for (int k = 0; k < nptrs; k++)
        if (ptrs[k] && !aligned16(ptrs[k]))
            return 0;
    return 1;
}

void homg_stream_down(cudaStream_t st, int pdl, const grid_level *L, const float *u_in, float *u_out, const float *f,
                      float *fc, int sweeps, int init, const float *ec)
{
    sargs A;
    A.u = init == HOMG_INIT_KEEP ? u_in : NULL;
    A.pe = init == HOMG_INIT_PROLONG ? ec : NULL;
    A.assign = 1;
    switch (sweeps) {
    case 0: s_launch<0, true>(st, pdl, L, A, f, u_out, fc); break;
    case 1: s_launch<1, true>(st, pdl, L, A, f, u_out, fc); break;
    default: s_launch<2, true>(st, pdl, L, A, f, u_out, fc); break;
    }
}

void homg_stream_up(cudaStream_t st, int pdl, const grid_level *L, const float *ec, const float *u_in, float *u_out,
                    const float *f, int sweeps, int assign)
{
    sargs A;
    A.u = assign ? NULL : u_in;
    A.pe = ec;
    A.assign = assign;
    switch (sweeps) {
    case 0: s_launch<0, false>(st, pdl, L, A, f, u_out, NULL); break;
    case 1: s_launch<1, false>(st, pdl, L, A, f, u_out, NULL); break;
    default: s_launch<2, false>(st, pdl, L, A, f, u_out, NULL); break;
    }
}
