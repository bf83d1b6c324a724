/* cube_sep.cu -- CUDA twin of kernels/grid/cube_sep.c: cube_sep.h's three passes, a launch
 * each (PDL between them), b -> w -> w -> x (w: P->w, scratch).  A block takes a tile of TW
 * columns of a slice, so a 64^3 level has 4 x 64 blocks a pass (TW 16) instead of 64:
 * (1) block (k, x tile): the z-slice k of b in shared memory, Sx^T for the tile's columns
 *     only (all rows y), then Sy^T of those columns, straight to w;
 * (2) block (j, x tile): the tile's columns of the xz-slice y = j of w, Sz^T, the division,
 *     Sz, back to the same cells of w (each block reads and writes only its own cells);
 * (3) block (k, y tile): the z-slice k of w, Sy for the tile's rows only, then Sx of those
 *     rows, straight to x (out of place: another block of the slice reads all its rows).
 * A thread takes a 4 x 4 tile of outputs, each a fmaf sum over q ascending from 0 (as
 * cube_sep_apply), so the floats equal the CPU twin's.  The slices lie in shared memory
 * with row pitch CUBE_SEP_N + 1: the threads of a warp that read different rows at one q
 * then hit different banks; the matrices are read through the read-only cache.
 * cube_sep_tt1..3 (s13-cube16, tt > 1): the same passes with RA x RB outputs a thread (more
 * warps: the passes are latency-bound at ~1 warp a scheduler), the pass's two matrices staged
 * in dynamic shared memory before homg_pdl_wait (the tables are no kernel's output, so their
 * loads overlap the previous kernel's tail). */
#include "core/cuda_check.h"
#include "core/pdl.cuh"
#include "cube_sep.h"
#include "cube_sep_point.h"

#include <stdint.h>
#include <stdlib.h>

#define CUBESEP_PP (CUBE_SEP_N + 1) /* shared row pitch (floats) */

/* acc(a, b) = sum_q m(p0 + a, q) in[q * is + (c0 + b) * cs], m column-major with np rows. */
__device__ __forceinline__ void sep_tile(const float *__restrict__ m, unsigned np, unsigned p0, const float *in,
                                         unsigned is, unsigned cs, unsigned c0, float acc[4][4])
{
#pragma unroll
    for (int a = 0; a < 4; a++)
#pragma unroll
        for (int b = 0; b < 4; b++)
            acc[a][b] = 0.0f;
#pragma unroll 4
    for (unsigned q = 0; q < np; q++) {
        const float4 w4 = __ldg((const float4 *)(m + q * np + p0));
        const float w[4] = { w4.x, w4.y, w4.z, w4.w };
        float v[4];
#pragma unroll
        for (int b = 0; b < 4; b++)
            v[b] = in[q * is + (c0 + b) * cs];
#pragma unroll
        for (int a = 0; a < 4; a++)
#pragma unroll
            for (int b = 0; b < 4; b++)
                acc[a][b] = fmaf(w[a], v[b], acc[a][b]);
    }
}

/* rows x cw floats from src (row stride rs floats, column 0 at src) into a (row pitch
 * CUBESEP_PP, column 0 at a), float4 loads where src and rs allow. */
__device__ __forceinline__ void sep_load(const float *__restrict__ src, unsigned rs, unsigned rows, unsigned cw,
                                         float *a, unsigned t, unsigned NT)
{
    const unsigned q = cw / 4;
    if (!((uintptr_t)src & 15) && !(rs & 3)) {
        for (unsigned e = t; e < rows * q; e += NT) {
            const unsigned r = e / q, c = 4 * (e % q);
            const float4 v = __ldg((const float4 *)(src + (size_t)r * rs + c));
            float *d = a + r * CUBESEP_PP + c;
            d[0] = v.x, d[1] = v.y, d[2] = v.z, d[3] = v.w;
        }
    } else {
        for (unsigned e = t; e < rows * cw; e += NT) {
            const unsigned r = e / cw, c = e % cw;
            a[r * CUBESEP_PP + c] = src[(size_t)r * rs + c];
        }
    }
}

/* Pass 1, block (k, x tile): w(k, y, x) for the tile's x = Sy^T (Sx^T b_k)(y, x). */
template <int TW> __global__ void __launch_bounds__(4 * TW) cube_sep_pass1(cube_sep P, const float *__restrict__ b)
{
    __shared__ float A[CUBE_SEP_N * CUBESEP_PP], B[CUBE_SEP_N * CUBESEP_PP];
    const unsigned NT = 4 * TW, t = threadIdx.x, nx = P.n[0], ny = P.n[1], k = blockIdx.x;
    const unsigned x0 = blockIdx.y * TW, xw = min((unsigned)TW, nx - x0), xq = xw / 4, yq = ny / 4;
    homg_pdl_wait();
    sep_load(b + (size_t)nx * ny * k, nx, ny, nx, A, t, NT);
    __syncthreads();
    for (unsigned e = t; e < xq * yq; e += NT) { /* along x: p = x in the tile, c = y */
        const unsigned p0 = x0 + 4 * (e % xq), c0 = 4 * (e / xq);
        float acc[4][4];
        sep_tile(cube_sep_mat(&P, 0, 0), nx, p0, A, 1, CUBESEP_PP, c0, acc);
#pragma unroll
        for (int a = 0; a < 4; a++)
#pragma unroll
            for (int bb = 0; bb < 4; bb++)
                B[(c0 + bb) * CUBESEP_PP + p0 + a] = acc[a][bb];
    }
    __syncthreads();
    float *out = P.w + (size_t)nx * ny * k;
    for (unsigned e = t; e < yq * xq; e += NT) { /* along y: p = y, c = x in the tile */
        const unsigned p0 = 4 * (e % yq), c0 = x0 + 4 * (e / yq);
        float acc[4][4];
        sep_tile(cube_sep_mat(&P, 1, 0), ny, p0, B, CUBESEP_PP, 1, c0, acc);
#pragma unroll
        for (int a = 0; a < 4; a++)
            *(float4 *)(out + (p0 + a) * nx + c0) = make_float4(acc[a][0], acc[a][1], acc[a][2], acc[a][3]);
    }
}

/* Pass 2, block (j, x tile): w(z, j, x) for the tile's x = Sz (D^-1 (Sz^T w)) along z. */
template <int TW> __global__ void __launch_bounds__(4 * TW) cube_sep_pass2(cube_sep P)
{
    __shared__ float A[CUBE_SEP_N * CUBESEP_PP], B[CUBE_SEP_N * CUBESEP_PP];
    const unsigned NT = 4 * TW, t = threadIdx.x, nx = P.n[0], ny = P.n[1], nz = P.n[2], j = blockIdx.x;
    const unsigned x0 = blockIdx.y * TW, xw = min((unsigned)TW, nx - x0), xq = xw / 4, zq = nz / 4;
    float *v = P.w + (size_t)nx * j + x0;
    homg_pdl_wait();
    sep_load(v, nx * ny, nz, xw, A, t, NT);
    __syncthreads();
    for (unsigned e = t; e < zq * xq; e += NT) { /* along z: p = z, c = x in the tile */
        const unsigned p0 = 4 * (e % zq), c0 = 4 * (e / zq);
        float acc[4][4];
        sep_tile(cube_sep_mat(&P, 2, 0), nz, p0, A, CUBESEP_PP, 1, c0, acc);
#pragma unroll
        for (int a = 0; a < 4; a++)
#pragma unroll
            for (int bb = 0; bb < 4; bb++)
                B[(p0 + a) * CUBESEP_PP + c0 + bb] = acc[a][bb] / cube_sep_denom(&P, x0 + c0 + bb, j, p0 + a);
    }
    __syncthreads();
    for (unsigned e = t; e < zq * xq; e += NT) {
        const unsigned p0 = 4 * (e % zq), c0 = 4 * (e / zq);
        float acc[4][4];
        sep_tile(cube_sep_mat(&P, 2, 1), nz, p0, B, CUBESEP_PP, 1, c0, acc);
#pragma unroll
        for (int a = 0; a < 4; a++)
            *(float4 *)(v + (size_t)nx * ny * (p0 + a) + c0) = make_float4(acc[a][0], acc[a][1], acc[a][2], acc[a][3]);
    }
}

/* Pass 3, block (k, y tile): x(k, y, x) for the tile's y = Sx (Sy w_k)(y, x) along x. */
template <int TW> __global__ void __launch_bounds__(4 * TW) cube_sep_pass3(cube_sep P, float *__restrict__ x)
{
    __shared__ float A[CUBE_SEP_N * CUBESEP_PP], B[CUBE_SEP_N * CUBESEP_PP];
    const unsigned NT = 4 * TW, t = threadIdx.x, nx = P.n[0], ny = P.n[1], k = blockIdx.x;
    const unsigned y0 = blockIdx.y * TW, yw = min((unsigned)TW, ny - y0), yq = yw / 4, xq = nx / 4;
    homg_pdl_wait();
    sep_load(P.w + (size_t)nx * ny * k, nx, ny, nx, A, t, NT);
    __syncthreads();
    for (unsigned e = t; e < yq * xq; e += NT) { /* along y: p = y in the tile, c = x */
        const unsigned p0 = y0 + 4 * (e % yq), c0 = 4 * (e / yq);
        float acc[4][4];
        sep_tile(cube_sep_mat(&P, 1, 1), ny, p0, A, CUBESEP_PP, 1, c0, acc);
#pragma unroll
        for (int a = 0; a < 4; a++)
#pragma unroll
            for (int bb = 0; bb < 4; bb++)
                B[(p0 + a) * CUBESEP_PP + c0 + bb] = acc[a][bb];
    }
    __syncthreads();
    float *out = x + (size_t)nx * ny * k;
    for (unsigned e = t; e < xq * yq; e += NT) { /* along x: p = x, c = y in the tile */
        const unsigned p0 = 4 * (e % xq), c0 = y0 + 4 * (e / xq);
        float acc[4][4];
        sep_tile(cube_sep_mat(&P, 0, 1), nx, p0, B, 1, CUBESEP_PP, c0, acc);
#pragma unroll
        for (int bb = 0; bb < 4; bb++)
#pragma unroll
            for (int a = 0; a < 4; a++)
                out[(c0 + bb) * nx + p0 + a] = acc[a][bb]; /* x may be only 8-byte aligned */
    }
}

/* ---- tt > 1: RA x RB outputs a thread, the matrices in shared memory ---- */

/* Most threads a block of tile width TW takes: a step has at most TW x CUBE_SEP_N outputs. */
#define SEP_NTMAX(TW, RA, RB) ((TW)*CUBE_SEP_N / ((RA) * (RB)) < 1024 ? (TW)*CUBE_SEP_N / ((RA) * (RB)) : 1024)

/* n floats (n % 4 == 0, src 16-byte aligned) from src into shared d. */
__device__ __forceinline__ void sep_stage(const float *__restrict__ src, unsigned n, float *d, unsigned t, unsigned nt)
{
    for (unsigned e = t; e < n / 4; e += nt)
        ((float4 *)d)[e] = __ldg((const float4 *)src + e);
}

/* w[a] = m[a], a < RA (m: shared, 4 RA-byte aligned). */
template <int RA> __device__ __forceinline__ void sep_ldm(const float *m, float w[RA])
{
    if (RA == 4) {
        const float4 v = *(const float4 *)m;
        w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
    } else if (RA == 2) {
        const float2 v = *(const float2 *)m;
        w[0] = v.x, w[1] = v.y;
    } else
        w[0] = m[0];
}

/* One transform: st(p, c, sum_q m(p, q) in[q * is + c * cs]) for p in [p0, p0 + pw) and c in
 * [c0, c0 + cw), m column-major with np rows (shared).  A thread takes RA contiguous p and RB
 * columns cw / RB apart (a warp then reads contiguous words or one word); CF: consecutive
 * threads take consecutive columns (else consecutive p).  Each sum is fmaf over q ascending
 * from 0, as cube_sep_apply. */
template <int RA, int RB, bool CF, class St>
__device__ __forceinline__ void sep_xform(const float *m, unsigned np, unsigned p0, unsigned pw, unsigned c0,
                                          unsigned cw, const float *in, unsigned is, unsigned cs, unsigned t,
                                          unsigned nt, St st)
{
    const unsigned pt = pw / RA, ct = cw / RB;
    for (unsigned e = t; e < pt * ct; e += nt) {
        const unsigned p = p0 + RA * (CF ? e / ct : e % pt), c = c0 + (CF ? e % ct : e / pt);
        float acc[RA][RB];
#pragma unroll
        for (int a = 0; a < RA; a++)
#pragma unroll
            for (int b = 0; b < RB; b++)
                acc[a][b] = 0.0f;
#pragma unroll 4
        for (unsigned q = 0; q < np; q++) {
            float w[RA], v[RB];
            sep_ldm<RA>(m + q * np + p, w);
#pragma unroll
            for (int b = 0; b < RB; b++)
                v[b] = in[q * is + (c + b * ct) * cs];
#pragma unroll
            for (int a = 0; a < RA; a++)
#pragma unroll
                for (int b = 0; b < RB; b++)
                    acc[a][b] = fmaf(w[a], v[b], acc[a][b]);
        }
#pragma unroll
        for (int a = 0; a < RA; a++)
#pragma unroll
            for (int b = 0; b < RB; b++)
                st(p + a, c + b * ct, acc[a][b]);
    }
}

/* Pass 1 (as cube_sep_pass1), block (k, x tile); shared: A, B (ny rows), Sx^T, Sy^T. */
template <int TW, int RA, int RB>
__global__ void __launch_bounds__(SEP_NTMAX(TW, RA, RB)) cube_sep_tt1(cube_sep P, const float *__restrict__ b)
{
    extern __shared__ float4 cube_sep_smem[];
    const unsigned t = threadIdx.x, nt = blockDim.x, nx = P.n[0], ny = P.n[1], k = blockIdx.x;
    const unsigned x0 = blockIdx.y * TW, xw = min((unsigned)TW, nx - x0);
    float *A = (float *)cube_sep_smem, *B = A + ny * CUBESEP_PP, *Mx = B + ny * CUBESEP_PP, *My = Mx + nx * nx;
    sep_stage(cube_sep_mat(&P, 0, 0), nx * nx, Mx, t, nt); /* the tables: no wait needed */
    sep_stage(cube_sep_mat(&P, 1, 0), ny * ny, My, t, nt);
    homg_pdl_wait();
    sep_load(b + (size_t)nx * ny * k, nx, ny, nx, A, t, nt);
    __syncthreads();
    sep_xform<RA, RB, false>(Mx, nx, x0, xw, 0, ny, A, 1, CUBESEP_PP, t, nt, /* along x: p = x, c = y */
                             [&](unsigned p, unsigned c, float v) { B[c * CUBESEP_PP + p] = v; });
    __syncthreads();
    float *out = P.w + (size_t)nx * ny * k;
    sep_xform<RA, RB, true>(My, ny, 0, ny, x0, xw, B, CUBESEP_PP, 1, t, nt, /* along y: p = y, c = x */
                            [&](unsigned p, unsigned c, float v) { out[p * nx + c] = v; });
}

/* Pass 2 (as cube_sep_pass2), block (j, x tile); shared: A, B (nz rows), Sz^T, Sz. */
template <int TW, int RA, int RB> __global__ void __launch_bounds__(SEP_NTMAX(TW, RA, RB)) cube_sep_tt2(cube_sep P)
{
    extern __shared__ float4 cube_sep_smem[];
    const unsigned t = threadIdx.x, nt = blockDim.x, nx = P.n[0], ny = P.n[1], nz = P.n[2], j = blockIdx.x;
    const unsigned x0 = blockIdx.y * TW, xw = min((unsigned)TW, nx - x0);
    float *A = (float *)cube_sep_smem, *B = A + nz * CUBESEP_PP, *M0 = B + nz * CUBESEP_PP, *M1 = M0 + nz * nz;
    float *v = P.w + (size_t)nx * j + x0;
    sep_stage(cube_sep_mat(&P, 2, 0), nz * nz, M0, t, nt);
    sep_stage(cube_sep_mat(&P, 2, 1), nz * nz, M1, t, nt);
    homg_pdl_wait();
    sep_load(v, nx * ny, nz, xw, A, t, nt);
    __syncthreads();
    sep_xform<RA, RB, true>(
        M0, nz, 0, nz, 0, xw, A, CUBESEP_PP, 1, t, nt, /* along z: p = z, c = x in the tile */
        [&](unsigned p, unsigned c, float s) { B[p * CUBESEP_PP + c] = s / cube_sep_denom(&P, x0 + c, j, p); });
    __syncthreads();
    sep_xform<RA, RB, true>(M1, nz, 0, nz, 0, xw, B, CUBESEP_PP, 1, t, nt,
                            [&](unsigned p, unsigned c, float s) { v[(size_t)nx * ny * p + c] = s; });
}

/* Pass 3 (as cube_sep_pass3), block (k, y tile); shared: A, B (ny rows), Sy, Sx. */
template <int TW, int RA, int RB>
__global__ void __launch_bounds__(SEP_NTMAX(TW, RA, RB)) cube_sep_tt3(cube_sep P, float *__restrict__ x)
{
    extern __shared__ float4 cube_sep_smem[];
    const unsigned t = threadIdx.x, nt = blockDim.x, nx = P.n[0], ny = P.n[1], k = blockIdx.x;
    const unsigned y0 = blockIdx.y * TW, yw = min((unsigned)TW, ny - y0);
    float *A = (float *)cube_sep_smem, *B = A + ny * CUBESEP_PP, *My = B + ny * CUBESEP_PP, *Mx = My + ny * ny;
    sep_stage(cube_sep_mat(&P, 1, 1), ny * ny, My, t, nt);
    sep_stage(cube_sep_mat(&P, 0, 1), nx * nx, Mx, t, nt);
    homg_pdl_wait();
    sep_load(P.w + (size_t)nx * ny * k, nx, ny, nx, A, t, nt);
    __syncthreads();
    sep_xform<RA, RB, true>(My, ny, y0, yw, 0, nx, A, CUBESEP_PP, 1, t, nt, /* along y: p = y in the tile, c = x */
                            [&](unsigned p, unsigned c, float v) { B[p * CUBESEP_PP + c] = v; });
    __syncthreads();
    float *out = x + (size_t)nx * ny * k;
    sep_xform<RA, RB, false>(Mx, nx, 0, nx, y0, yw, B, 1, CUBESEP_PP, t, nt, /* along x: p = x, c = y in the tile */
                             [&](unsigned p, unsigned c, float v) { out[c * nx + p] = v; });
}

template <int TW> static void sep_launch(cudaStream_t st, const cube_sep *P, float *x, const float *b)
{
    const int pdl = homg_pdl_gen_on();
    const unsigned nx = P->n[0], ny = P->n[1], nz = P->n[2];
    homg_pdl_launch(st, dim3(nz, (nx + TW - 1) / TW), dim3(4 * TW), pdl, cube_sep_pass1<TW>, *P, b);
    homg_pdl_launch(st, dim3(ny, (nx + TW - 1) / TW), dim3(4 * TW), pdl, cube_sep_pass2<TW>, *P);
    homg_pdl_launch(st, dim3(nz, (ny + TW - 1) / TW), dim3(4 * TW), pdl, cube_sep_pass3<TW>, *P, x);
}

/* Threads for a step of `outputs` outputs at RA x RB a thread: whole warps, at most ntmax. */
static unsigned sep_threads(unsigned outputs, unsigned per, unsigned ntmax)
{
    const unsigned n = (outputs / per + 31) / 32 * 32;
    return n < ntmax ? n : ntmax;
}

/* Shared bytes of a pass: A and B of `rows` rows, two matrices of m0 and m1 sides. */
static size_t sep_shm(unsigned rows, unsigned m0, unsigned m1)
{
    return sizeof(float) * (2 * (size_t)rows * CUBESEP_PP + m0 * m0 + m1 * m1);
}

template <int TW, int RA, int RB>
static void sep_launch_tt(cudaStream_t st, const cube_sep *P, float *x, const float *b)
{
    static int ready; /* the shared-memory limit raised once per kernel where a level needs it (64^3: 65 KB) */
    const int pdl = homg_pdl_gen_on();
    const unsigned nx = P->n[0], ny = P->n[1], nz = P->n[2], most = SEP_NTMAX(TW, RA, RB), per = RA * RB;
    const size_t big = sep_shm(CUBE_SEP_N, CUBE_SEP_N, CUBE_SEP_N);
    if (!ready && (sep_shm(ny, nx, ny) > 48 * 1024 || sep_shm(nz, nz, nz) > 48 * 1024)) {
        cudaFuncSetAttribute(cube_sep_tt1<TW, RA, RB>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)big);
        cudaFuncSetAttribute(cube_sep_tt2<TW, RA, RB>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)big);
        cudaFuncSetAttribute(cube_sep_tt3<TW, RA, RB>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)big);
        ready = 1;
    }
    homg_pdl_launch_shm(st, dim3(nz, (nx + TW - 1) / TW), sep_threads(min((unsigned)TW, nx) * ny, per, most),
                        sep_shm(ny, nx, ny), pdl, cube_sep_tt1<TW, RA, RB>, *P, b);
    homg_pdl_launch_shm(st, dim3(ny, (nx + TW - 1) / TW), sep_threads(min((unsigned)TW, nx) * nz, per, most),
                        sep_shm(nz, nz, nz), pdl, cube_sep_tt2<TW, RA, RB>, *P);
    homg_pdl_launch_shm(st, dim3(nz, (ny + TW - 1) / TW), sep_threads(min((unsigned)TW, ny) * nx, per, most),
                        sep_shm(ny, ny, nx), pdl, cube_sep_tt3<TW, RA, RB>, *P, x);
}

/* tt (> 1) x tw's launches; 0 if the pair has no kernels. */
template <int TW> static int sep_launch_tw(cudaStream_t st, const cube_sep *P, float *x, const float *b, int tt)
{
    switch (tt) {
    case 11: sep_launch_tt<TW, 1, 1>(st, P, x, b); return 1;
    case 21: sep_launch_tt<TW, 2, 1>(st, P, x, b); return 1;
    case 22: sep_launch_tt<TW, 2, 2>(st, P, x, b); return 1;
    case 44: sep_launch_tt<TW, 4, 4>(st, P, x, b); return 1;
    default: return 0;
    }
}

extern "C" homg_status homg_cuda_cubesep_solve(kernel_exec *ex, const cube_sep *P, float *x, const float *b)
{
    const int tt = P->tt ? P->tt : CUBE_SEP_TT_DEFAULT;
    const int small = P->n[0] <= CUBE_SEP_TW_SMALL && P->n[1] <= CUBE_SEP_TW_SMALL && P->n[2] <= CUBE_SEP_TW_SMALL;
    const int tw = P->tw ? P->tw : tt != CUBE_SEP_TT_CACHED && small ? CUBE_SEP_TW_SMALL : CUBE_SEP_TW_DEFAULT;
    const int cached = tt == CUBE_SEP_TT_CACHED && (tw == 16 || tw == 32 || tw == 64);
    const int staged = tt != CUBE_SEP_TT_CACHED && (tw == 8 || tw == 16 || tw == 32);
    cudaStream_t st = homg_cuda_stream(ex);
    if (!cube_sep_fits(P) || !P->w || !x || !b || !(cached || staged) ||
        (staged && !(tw == 8    ? sep_launch_tw<8>(st, P, x, b, tt)
                     : tw == 16 ? sep_launch_tw<16>(st, P, x, b, tt)
                                : sep_launch_tw<32>(st, P, x, b, tt))))
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "exact solve: %d x %d x %d (tile %d, thread %d)",
                              P->n[0], P->n[1], P->n[2], tw, tt);
    if (tw == 16 && cached)
        sep_launch<16>(st, P, x, b);
    else if (tw == 32 && cached)
        sep_launch<32>(st, P, x, b);
    else if (cached)
        sep_launch<64>(st, P, x, b);
    HOMG_CUDA_LAUNCHED(ex, "cube_sep_pass1..3");
    return HOMG_OK;
}

extern "C" const cubesep_kernels homg_cuda_cubesep_kernels = { .name = "cuda", CUBESEP_KERNELS(HOMG_KERNEL_CUDA_INIT) };
