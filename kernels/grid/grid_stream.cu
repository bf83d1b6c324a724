/* grid_stream.cu -- the fused down and up steps on the large float32 levels as
 * streams of rows (issue 12; the same kernel-table entries as grid_fused.cu, whose
 * CPU twins are kernels/grid/grid.c's cpu_smooth_restrict / cpu_prolong_smooth).
 *
 * The 2D analogue of the cube kernels (kernels/grid/cube.cu): each warp owns a strip
 * of 128 cells (a float4 per lane; SHX halo cells each side, recomputed by both
 * neighbours) and marches up a chunk of rows with no barrier and no shared memory.
 * Each step takes one row of u and f (by cp.async, six rows ahead, through a small
 * per-warp ring in shared memory) into a shift register of rows, and the red-black
 * half-sweeps are a pipeline behind it: half-sweep s works on row y - SP s + SP - 1,
 * the residual (down step) on row y - SP NS - 1; x neighbours come from the lanes
 * beside.  SP = 1 (default): adjacent rows, one dependent chain a step, 7 rows in
 * registers.  SP = 2 (HOMG_BOX_STREAM_SP=2, a benchmark knob): the half-sweeps of a
 * step two rows apart, independent chains, but 11 rows in registers and small
 * spills: 191/233 us against 159/153 us for the 4096^2 down/up steps on the H100.
 * Both stay near 16 warps per SM (128 registers), latency-bound at 42-45% of DRAM
 * peak; the rows by cp.async instead of two ahead in registers changed little
 * (bench/results/h100.md, session 7, box3).  Device memory sees each array about once: the x halos are
 * read by two warps at about the same time (from L2), the chunks' NS + 1 warm-up
 * rows each side are read again.  A first version (a 512-cell strip per block, the
 * rows in a shared-memory ring, one barrier a row) ran at 27% of DRAM peak at
 * 4096^2, slower than the tiles (bench/results/h100.md, session 7).
 *
 * Results equal grid_fused.cu's to float rounding: the same per-cell formulas in
 * the same order (interior cells), the residual from neighbour differences. */
#include "core/cuda_check.h"
#include "core/pdl.cuh"
#include "grid_row_cell.cuh"
#include "grid_stream.cuh"

#include <stdint.h>
#include <stdlib.h>

#define SWT   32                  /* a warp's strip: 32 float4 = 128 cells */
#define SHX   8                   /* halo cells per side: >= 2S + 1 for S <= 2, a multiple of 4 */
#define SOW   (4 * SWT - 2 * SHX) /* cells a strip writes (112) */
#define SWPB  2                   /* warps per block (independent: no barrier) */
#define SMINB 8                   /* blocks per SM the registers must allow (16 warps; 128 registers, no spills) */

/* Ring rows (registers): half-sweep s works on row y - s, the residual (down) on
 * y - NS - 1, reading back to y - NS - 2, the store (up) on y - NS. */
template <int S, bool DOWN, int SP> struct sshape {
    enum { NS = 2 * S, E = DOWN ? 1 : 0, DRES = SP * NS + 1, DST = SP * NS, R = SP * NS + 3 };
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
    const float *pe; /* the coarse array prolongated (kernel PE 1: u = P pe, 2: u += P pe) */
};

/* UF: u and f too (else they come by cp.async, s_issue). */
template <int PE, bool UF>
__device__ __forceinline__ void srow_load(const grid_level &L, const sargs &A, const float *__restrict__ f, int gi0,
                                          int gj, bool live, srow &r)
{
    r.u = r.f = make_float4(0.f, 0.f, 0.f, 0.f);
    if (!live)
        return;
    const size_t g = (size_t)gj * L.nx + gi0;
    if (UF)
        r.f = __ldg((const float4 *)(f + g));
    if (UF && A.u && PE != 1)
        r.u = __ldg((const float4 *)(A.u + g));
    if (PE) {
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

/* The row's initial u: u (or 0), P pe (PE 1), or u + P pe (PE 2), the order of
 * grid_fused.cu's load_tile. */
template <int PE> __device__ __forceinline__ float4 srow_u(const srow &r, bool live)
{
    if constexpr (PE == 0) /* compiled out: no unreachable loop below for PE 0 */
        return r.u;
    if (!live)
        return r.u;
    float p[4];
#pragma unroll
    for (int m = 0; m < 4; m++) {
        const int kI = 1 + (m >> 1), kI2 = (m == 0) ? 0 : (m == 1) ? 2 : (m == 2) ? 1 : 3;
        p[m] = 0.5625f * r.c0[kI] + 0.1875f * (r.c0[kI2] + r.c1[kI]) + 0.0625f * (r.c1[kI2]);
    }
    if (PE == 1)
        return make_float4(p[0], p[1], p[2], p[3]);
    return make_float4(r.u.x + p[0], r.u.y + p[1], r.u.z + p[2], r.u.w + p[3]);
}

/* Rows in flight per warp on the cp.async path (ASYNC), and its ring of row slots in
 * shared memory (two more: the slot being read and one of margin). */
#define SPD 6
#define SQ  (SPD + 2)

/* cp.async of this lane's float4 of row gj of u (when read) and f into slot k; one
 * commit group per row, empty where the row is not live. */
template <int PE>
__device__ __forceinline__ void s_issue(const grid_level &L, const sargs &A, const float *__restrict__ f, int gi0,
                                        int gj, bool live, float4 *su, float4 *sf)
{
    if (live) {
        const size_t g = (size_t)gj * L.nx + gi0;
        if (A.u && PE != 1)
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"((unsigned)__cvta_generic_to_shared(su)),
                         "l"(A.u + g));
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"((unsigned)__cvta_generic_to_shared(sf)),
                     "l"(f + g));
    }
    asm volatile("cp.async.commit_group;\n" ::);
}

/* One half-sweep of colour c on row gj held in me (rows dn, up below and above).
 * The x neighbours come from the lanes beside (warp-uniform call). */
__device__ __forceinline__ void s_sweep(const grid_level &L, const row_const &K, float4 &me, const float4 &d,
                                        const float4 &u, const float4 &f, int gi0, int gj, int c, bool active,
                                        bool cedge)
{
    const float l = __shfl_up_sync(0xffffffffu, me.w, 1), r = __shfl_down_sync(0xffffffffu, me.x, 1);
    if (!active)
        return;
    const bool edge = cedge || gj == 0 || gj == L.ny - 1;
    const bool even = ((c + gj) & 1) == 0; /* gi0 is even: cells 0 and 2 have colour c */
    if (!edge) {                           /* the common case, no edge tests per cell */
        if (even) {
            me.x = (f.x + K.ih2 * ((l + me.y) + (d.x + u.x))) * K.idiag;
            me.z = (f.z + K.ih2 * ((me.y + me.w) + (d.z + u.z))) * K.idiag;
        } else {
            me.y = (f.y + K.ih2 * ((me.x + me.z) + (d.y + u.y))) * K.idiag;
            me.w = (f.w + K.ih2 * ((me.z + r) + (d.w + u.w))) * K.idiag;
        }
        return;
    }
    if (even) {
        const float a = row_cell(L, K, f.x, l, me.y, d.x, u.x, gi0, gj, edge);
        const float b = row_cell(L, K, f.z, me.y, me.w, d.z, u.z, gi0 + 2, gj, edge);
        me.x = a;
        me.z = b;
    } else {
        const float a = row_cell(L, K, f.y, me.x, me.z, d.y, u.y, gi0 + 1, gj, edge);
        const float b = row_cell(L, K, f.w, me.z, r, d.w, u.w, gi0 + 3, gj, edge);
        me.y = a;
        me.w = b;
    }
}

/* f + bterm - A u of the thread's four cells on row gj, summed in x pairs. */
__device__ __forceinline__ float2 s_residual_pairs(const grid_level &L, const float4 &me, const float4 &d,
                                                   const float4 &u, const float4 &f, int gi0, int gj, bool active,
                                                   bool cedge)
{
    const float l = __shfl_up_sync(0xffffffffu, me.w, 1), r = __shfl_down_sync(0xffffffffu, me.x, 1);
    if (!active)
        return make_float2(0.f, 0.f);
    const float ih2 = (float)L.inv_h2, lam = (float)L.lambda;
    if (!(cedge || gj == 0 || gj == L.ny - 1)) {
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

/* DOWN: u_out = u after S sweeps, fc = R(f + bterm - A u_out); up: u_out = u after S
 * sweeps.  The initial u comes from A (u, P pe, u + P pe, or 0).  Each warp owns a
 * strip of SOW cells and rows [a, b) (C, even, rows a chunk); the rows in flight live
 * in registers (a shift register: unrolling the march R steps at a time to fix the
 * slots at compile time took 168 registers and spilled). */
template <int S, bool DOWN, int PE, bool ASYNC, int SP>
__global__ void __launch_bounds__(32 * SWPB, SMINB)
    stream_kernel(grid_level L, sargs A, const float *__restrict__ f, float *__restrict__ u_out, float *__restrict__ fc,
                  int C, int strips)
{
    typedef sshape<S, DOWN, SP> Q;
    enum { NS = Q::NS, E = Q::E, R = Q::R };
    homg_pdl_wait();
    const int lane = threadIdx.x & 31, w = blockIdx.x * SWPB + (threadIdx.x >> 5);
    const int strip = w % strips, chunk = w / strips;
    const int gi0 = strip * SOW - SHX + 4 * lane;
    const int a = chunk * C, b = min(a + C, L.ny);
    if (a >= L.ny) /* warp-uniform */
        return;
    const int rstart = a - E - NS, rend = b + E + NS, lo_live = max(rstart, 0), hi_live = min(rend, L.ny);
    const int ylast = DOWN ? b - 1 + Q::DRES : b - 1 + Q::DST;
    const bool col = gi0 >= 0 && gi0 < L.nx, cedge = gi0 == 0 || gi0 + 4 == L.nx;
    const bool upd = col && lane > 0 && lane < 31;                   /* the strip's edge lanes keep their cells */
    const bool own = col && lane >= SHX / 4 && lane < SWT - SHX / 4; /* the cells this strip writes */
    const row_const K = row_const_of(L);
    const int ncx = L.nx / 2;
    float4 U[R], F[R];
#pragma unroll
    for (int d = 0; d < R; d++)
        U[d] = F[d] = make_float4(0.f, 0.f, 0.f, 0.f);
    srow p0, p1;
    float2 rpair = make_float2(0.f, 0.f);
    __shared__ float4 ring[ASYNC ? SWPB : 1][ASYNC ? SQ : 1][2][32];
    float4(*my)[2][32] = ring[ASYNC ? threadIdx.x >> 5 : 0];

#define SLIVE(y) (col && (y) >= lo_live && (y) < hi_live)
    if (ASYNC)
#pragma unroll
        for (int k = 0; k < SPD; k++)
            s_issue<PE>(L, A, f, gi0, rstart + k, SLIVE(rstart + k), &my[k % SQ][0][lane], &my[k % SQ][1][lane]);
    srow_load<PE, !ASYNC>(L, A, f, gi0, rstart, SLIVE(rstart), p0);
    srow_load<PE, !ASYNC>(L, A, f, gi0, rstart + 1, SLIVE(rstart + 1), p1);
#pragma unroll 1
    for (int y = rstart; y <= ylast; y++) {
        /* U[d], F[d]: row y - d (a shift register: compile-time indices, no local memory) */
#pragma unroll
        for (int d = R - 1; d > 0; d--) {
            U[d] = U[d - 1];
            F[d] = F[d - 1];
        }
        if (ASYNC) { /* row y + SPD on its way, then row y (its group done) from the ring */
            const int k = (y + SPD - rstart) % SQ, k0 = (y - rstart) % SQ;
            s_issue<PE>(L, A, f, gi0, y + SPD, SLIVE(y + SPD), &my[k][0][lane], &my[k][1][lane]);
            asm volatile("cp.async.wait_group %0;\n" ::"n"(SPD));
            const bool live = SLIVE(y);
            p0.u = live && A.u && PE != 1 ? my[k0][0][lane] : make_float4(0.f, 0.f, 0.f, 0.f);
            p0.f = live ? my[k0][1][lane] : make_float4(0.f, 0.f, 0.f, 0.f);
        }
        U[0] = srow_u<PE>(p0, SLIVE(y));
        F[0] = p0.f;
        p0 = p1;
        srow_load<PE, !ASYNC>(L, A, f, gi0, y + 2, SLIVE(y + 2), p1);
#pragma unroll
        for (int s = 1; s <= NS; s++) {
            const int D = SP * s - SP + 1;
            const int r = y - D;
            if (r < max(a - E - (NS - s), 0) || r >= min(b + E + (NS - s), L.ny)) /* warp-uniform */
                continue;
            s_sweep(L, K, U[D], U[D + 1], U[D - 1], F[D], gi0, r, (s - 1) & 1, upd, cedge);
        }
        if (DOWN) {
            const int D = Q::DRES;
            const int r = y - D;
            if (r >= a && r < b) {
                const float2 pr = s_residual_pairs(L, U[D], U[D + 1], U[D - 1], F[D], gi0, r, own, cedge);
                if (own) {
                    *(float4 *)(u_out + (size_t)r * L.nx + gi0) = U[D];
                    if (((r - a) & 1) == 0) {
                        rpair = pr;
                    } else {
                        float2 o = make_float2(0.25f * (rpair.x + pr.x), 0.25f * (rpair.y + pr.y));
                        *(float2 *)(fc + (size_t)(r >> 1) * ncx + (gi0 >> 1)) = o;
                    }
                }
            }
        } else {
            const int r = y - Q::DST;
            if (own && r >= a && r < b)
                *(float4 *)(u_out + (size_t)r * L.nx + gi0) = U[Q::DST];
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

/* The streamed steps take float32 levels of at least this many cells: from 1024^2
 * the fused-v solves were 3-6% faster on the H100 than from 2048^2 or with the
 * tiles everywhere (bench/results/h100.md, session 7). */
#define HOMG_BOX_STREAM_CELLS (1024.0 * 1024)

static int aligned16(const void *p) { return ((uintptr_t)p & 15) == 0; }

/* Rows per chunk: enough warps for one full wave (the occupancy the kernel
 * reaches), at least HOMG_BOX_STREAM_ROWS (a benchmark knob; 0: none), even;
 * HOMG_BOX_STREAM_FORCE_ROWS (tests) sets it. */
template <int S, bool DOWN, int PE, bool ASYNC, int SP> static int s_chunk(const grid_level *L, int strips)
{
    int dev = 0, nsm = 132, per = 4;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, stream_kernel<S, DOWN, PE, ASYNC, SP>, 32 * SWPB, 0);
    if (per < 1)
        per = 1;
    const double force = s_knob("HOMG_BOX_STREAM_FORCE_ROWS", 0), least = s_knob("HOMG_BOX_STREAM_ROWS", 0);
    const int chunks = (int)(s_knob("HOMG_BOX_STREAM_WAVES", 1) * per * SWPB * nsm / strips);
    int c;
    if (force >= 2)
        c = (int)force;
    else {
        c = chunks < 1 ? L->ny : (L->ny + chunks - 1) / chunks;
        if (c < (int)least)
            c = (int)least;
    }
    c += c & 1;
    return c < 2 ? 2 : c;
}

template <int S, bool DOWN, int PE, bool ASYNC, int SP>
static void s_launch_a(cudaStream_t st, int pdl, const grid_level *L, sargs A, const void *f, void *u_out, void *fc)
{
    const int strips = (L->nx + SOW - 1) / SOW, C = s_chunk<S, DOWN, PE, ASYNC, SP>(L, strips);
    const int warps = strips * ((L->ny + C - 1) / C);
    homg_pdl_launch(st, dim3((warps + SWPB - 1) / SWPB), dim3(32 * SWPB), pdl, stream_kernel<S, DOWN, PE, ASYNC, SP>,
                    *L, A, (const float *)f, (float *)u_out, (float *)fc, C, strips);
}

/* The cp.async path unless HOMG_BOX_STREAM_ASYNC=0 (the rows loaded two ahead into
 * registers; a benchmark knob). */
template <int S, bool DOWN, int PE>
static void s_launch(cudaStream_t st, int pdl, const grid_level *L, sargs A, const void *f, void *u_out, void *fc)
{
    if (s_knob("HOMG_BOX_STREAM_ASYNC", 1) == 0)
        s_launch_a<S, DOWN, PE, false, 1>(st, pdl, L, A, f, u_out, fc);
    else if (s_knob("HOMG_BOX_STREAM_SP", 1) == 2)
        s_launch_a<S, DOWN, PE, true, 2>(st, pdl, L, A, f, u_out, fc);
    else
        s_launch_a<S, DOWN, PE, true, 1>(st, pdl, L, A, f, u_out, fc);
}

int homg_stream_fits(const grid_level *L, int sweeps, const void *const *ptrs, int nptrs)
{
    if (L->nx % 4 || L->ny % 2 || sweeps < 1 || sweeps > 2)
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
    A.pe = ec;
    if (init == HOMG_INIT_PROLONG)
        sweeps == 1 ? s_launch<1, true, 1>(st, pdl, L, A, f, u_out, fc)
                    : s_launch<2, true, 1>(st, pdl, L, A, f, u_out, fc);
    else
        sweeps == 1 ? s_launch<1, true, 0>(st, pdl, L, A, f, u_out, fc)
                    : s_launch<2, true, 0>(st, pdl, L, A, f, u_out, fc);
}

void homg_stream_up(cudaStream_t st, int pdl, const grid_level *L, const float *ec, const float *u_in, float *u_out,
                    const float *f, int sweeps, int assign)
{
    sargs A;
    A.u = u_in;
    A.pe = ec;
    if (assign)
        sweeps == 1 ? s_launch<1, false, 1>(st, pdl, L, A, f, u_out, NULL)
                    : s_launch<2, false, 1>(st, pdl, L, A, f, u_out, NULL);
    else
        sweeps == 1 ? s_launch<1, false, 2>(st, pdl, L, A, f, u_out, NULL)
                    : s_launch<2, false, 2>(st, pdl, L, A, f, u_out, NULL);
}
