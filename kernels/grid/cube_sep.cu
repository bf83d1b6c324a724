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
 * then hit different banks; the matrices are read through the read-only cache. */
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
template <int NT>
__device__ __forceinline__ void sep_load(const float *__restrict__ src, unsigned rs, unsigned rows, unsigned cw,
                                         float *a, unsigned t)
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
    sep_load<4 * TW>(b + (size_t)nx * ny * k, nx, ny, nx, A, t);
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
    sep_load<4 * TW>(v, nx * ny, nz, xw, A, t);
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
    sep_load<4 * TW>(P.w + (size_t)nx * ny * k, nx, ny, nx, A, t);
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

template <int TW> static void sep_launch(cudaStream_t st, const cube_sep *P, float *x, const float *b)
{
    const int pdl = homg_pdl_gen_on();
    const unsigned nx = P->n[0], ny = P->n[1], nz = P->n[2];
    homg_pdl_launch(st, dim3(nz, (nx + TW - 1) / TW), dim3(4 * TW), pdl, cube_sep_pass1<TW>, *P, b);
    homg_pdl_launch(st, dim3(ny, (nx + TW - 1) / TW), dim3(4 * TW), pdl, cube_sep_pass2<TW>, *P);
    homg_pdl_launch(st, dim3(nz, (ny + TW - 1) / TW), dim3(4 * TW), pdl, cube_sep_pass3<TW>, *P, x);
}

extern "C" homg_status homg_cuda_cubesep_solve(kernel_exec *ex, const cube_sep *P, float *x, const float *b)
{
    const int tw = P->tw ? P->tw : CUBE_SEP_TW_DEFAULT;
    if (!cube_sep_fits(P) || !P->w || !x || !b || (tw != 16 && tw != 32 && tw != 64))
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "exact solve: %d x %d x %d (tile %d)", P->n[0], P->n[1],
                              P->n[2], tw);
    cudaStream_t st = homg_cuda_stream(ex);
    if (tw == 16)
        sep_launch<16>(st, P, x, b);
    else if (tw == 32)
        sep_launch<32>(st, P, x, b);
    else
        sep_launch<64>(st, P, x, b);
    HOMG_CUDA_LAUNCHED(ex, "cube_sep_pass1..3");
    return HOMG_OK;
}

extern "C" const cubesep_kernels homg_cuda_cubesep_kernels = { .name = "cuda", CUBESEP_KERNELS(HOMG_KERNEL_CUDA_INIT) };
