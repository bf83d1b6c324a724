/* cube_cluster.cu -- CUDA twin of kernels/grid/cube_cluster.c: cube_cluster.h's exact solve in
 * one launch on a cluster of cs (8 or 16) blocks, the level in distributed shared memory.
 * Block r (256 threads) holds:
 *   M  the tables (cube_cluster_tables), read before the PDL wait (they do not depend on the
 *      kernel before);
 *   A  its nz/cs z-slices (row pitch nx + 1);
 *   B  scratch of A's size or G's;
 *   G  the rows y0 .. y0 + ny/cs - 1 of every z (gathered from every block's A).
 * Steps: b -> A; Sx^T A -> B; Sy^T B -> A; cluster barrier; gather G from all A's; Sz^T G,
 * divided by D, -> B; Sz B -> the owners' A (each block writes only the rows it gathered, so
 * no other block reads them meanwhile); cluster barrier; Sy A -> B; Sx B -> x.  Two cluster
 * barriers; after the second no block touches another's memory, so blocks may leave.
 * A thread takes a tile of 4 outputs along the transformed side x CC_TB columns (a half way
 * out: 4 pairs x 1 column), each a fmaf sum over q ascending from 0 (the twin's order). */
#include <cooperative_groups.h>

#include "core/cuda_check.h"
#include "core/pdl.cuh"
#include "cube_cluster.h"

namespace cg = cooperative_groups;

#define CC_NT   256 /* threads a block */
#define CC_TB   2   /* columns of a thread's tile */
#define CC_MAT  CUBE_CLUSTER_MAT
#define CC_HEAD CUBE_CLUSTER_FLOATS /* the tables, then A */

/* Shared floats of a block for an nx x ny x nz level on cs blocks (the layout above). */
__host__ __device__ static inline unsigned cc_floats(unsigned nx, unsigned ny, unsigned nz, unsigned cs)
{
    const unsigned a = nz / cs * ny * (nx + 1), g = nz * (ny / cs * nx + 1);
    return CC_HEAD + a + (a > g ? a : g) + g;
}

/* acc[a][b] = sum_q m(p0 + a, q) in[q * is + o[b]], m column-major with np rows. */
__device__ __forceinline__ void cc_tile(const float *m, unsigned np, unsigned p0, const float *in, unsigned is,
                                        const unsigned o[CC_TB], float acc[4][CC_TB])
{
#pragma unroll
    for (int a = 0; a < 4; a++)
#pragma unroll
        for (int b = 0; b < CC_TB; b++)
            acc[a][b] = 0.0f;
#pragma unroll 8
    for (unsigned q = 0; q < np; q++) {
        const float4 w4 = *(const float4 *)(m + q * np + p0);
        const float w[4] = { w4.x, w4.y, w4.z, w4.w };
        float v[CC_TB];
#pragma unroll
        for (int b = 0; b < CC_TB; b++)
            v[b] = in[q * is + o[b]];
#pragma unroll
        for (int a = 0; a < 4; a++)
#pragma unroll
            for (int b = 0; b < CC_TB; b++)
                acc[a][b] = fmaf(w[a], v[b], acc[a][b]);
    }
}

/* One transform by the block: for every tile of 4 rows p (of np) x CC_TB columns c (of
 * ncols), put(p, c, sum_q m(p, q) in[q * is + off(c)]). */
template <class Off, class Put>
__device__ __forceinline__ void cc_apply(const float *m, unsigned np, unsigned ncols, const float *in, unsigned is,
                                         Off off, Put put)
{
    const unsigned tp = np / 4, tiles = tp * (ncols / CC_TB);
    for (unsigned e = threadIdx.x; e < tiles; e += CC_NT) {
        const unsigned p0 = 4 * (e % tp), c0 = CC_TB * (e / tp);
        unsigned o[CC_TB];
        float acc[4][CC_TB];
#pragma unroll
        for (int b = 0; b < CC_TB; b++)
            o[b] = off(c0 + b);
        cc_tile(m, np, p0, in, is, o, acc);
#pragma unroll
        for (int a = 0; a < 4; a++)
#pragma unroll
            for (int b = 0; b < CC_TB; b++)
                put(p0 + a, c0 + b, acc[a][b]);
    }
}

/* The way in along a side of n: full (cc_apply) or half: put(p, c, sum_{q < n/2} m(p, q)
 * (in[q] +- in[n - 1 - q])), + for p < n/2 (cube_cluster.h). */
template <class Off, class Put>
__device__ __forceinline__ void cc_in(const float *m, unsigned n, int half, unsigned ncols, const float *in,
                                      unsigned is, Off off, Put put)
{
    if (!half) {
        cc_apply(m, n, ncols, in, is, off, put);
        return;
    }
    const unsigned tp = n / 4, h = n / 2, tiles = tp * (ncols / CC_TB);
    for (unsigned e = threadIdx.x; e < tiles; e += CC_NT) {
        const unsigned p0 = 4 * (e % tp), c0 = CC_TB * (e / tp);
        const bool odd = p0 >= h;
        unsigned o[CC_TB];
        float acc[4][CC_TB];
#pragma unroll
        for (int b = 0; b < CC_TB; b++) {
            o[b] = off(c0 + b);
#pragma unroll
            for (int a = 0; a < 4; a++)
                acc[a][b] = 0.0f;
        }
#pragma unroll 8
        for (unsigned q = 0; q < h; q++) {
            const float4 w4 = *(const float4 *)(m + q * n + p0);
            const float w[4] = { w4.x, w4.y, w4.z, w4.w };
            float v[CC_TB];
#pragma unroll
            for (int b = 0; b < CC_TB; b++) {
                const float u1 = in[q * is + o[b]], u2 = in[(n - 1 - q) * is + o[b]];
                v[b] = odd ? u1 - u2 : u1 + u2;
            }
#pragma unroll
            for (int a = 0; a < 4; a++)
#pragma unroll
                for (int b = 0; b < CC_TB; b++)
                    acc[a][b] = fmaf(w[a], v[b], acc[a][b]);
        }
#pragma unroll
        for (int a = 0; a < 4; a++)
#pragma unroll
            for (int b = 0; b < CC_TB; b++)
                put(p0 + a, c0 + b, acc[a][b]);
    }
}

/* The way out along a side of n: full (cc_apply) or half: E_i, O_i = sums over the symmetric /
 * antisymmetric half of m(i, q) in[q], put(i, c, E + O) and put(n - 1 - i, c, E - O) for i < n/2;
 * a thread takes 4 such i of one column. */
template <class Off, class Put>
__device__ __forceinline__ void cc_out(const float *m, unsigned n, int half, unsigned ncols, const float *in,
                                       unsigned is, Off off, Put put)
{
    if (!half) {
        cc_apply(m, n, ncols, in, is, off, put);
        return;
    }
    const unsigned h = n / 2, tp = h / 4, tiles = tp * ncols;
    for (unsigned e = threadIdx.x; e < tiles; e += CC_NT) {
        const unsigned i0 = 4 * (e % tp), c = e / tp, o = off(c);
        float ae[4] = { 0.0f, 0.0f, 0.0f, 0.0f }, ao[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
#pragma unroll 8
        for (unsigned q = 0; q < h; q++) {
            const float4 we = *(const float4 *)(m + q * h + i0), wo = *(const float4 *)(m + (h + q) * h + i0);
            const float ve = in[q * is + o], vo = in[(h + q) * is + o];
            ae[0] = fmaf(we.x, ve, ae[0]), ae[1] = fmaf(we.y, ve, ae[1]);
            ae[2] = fmaf(we.z, ve, ae[2]), ae[3] = fmaf(we.w, ve, ae[3]);
            ao[0] = fmaf(wo.x, vo, ao[0]), ao[1] = fmaf(wo.y, vo, ao[1]);
            ao[2] = fmaf(wo.z, vo, ao[2]), ao[3] = fmaf(wo.w, vo, ao[3]);
        }
#pragma unroll
        for (int a = 0; a < 4; a++) {
            put(i0 + a, c, ae[a] + ao[a]);
            put(n - 1 - i0 - a, c, ae[a] - ao[a]);
        }
    }
}

__global__ void __launch_bounds__(CC_NT)
    cube_cluster_solve(cube_clu P, float *__restrict__ x, const float *__restrict__ b)
{
    extern __shared__ __align__(16) float sm[];
    cg::cluster_group cl = cg::this_cluster();
    const unsigned cs = cl.num_blocks(), r = cl.block_rank(), t = threadIdx.x;
    const unsigned nx = P.n[0], ny = P.n[1], nz = P.n[2], nzl = nz / cs, nyl = ny / cs;
    const unsigned px = nx + 1, ps = ny * px, gz = nyl * nx + 1, k0 = r * nzl, y0 = r * nyl;
    float *M = sm, *A = sm + CC_HEAD, *B = A + nzl * ps, *G = B + max(nzl * ps, nz * gz);
    const float *ev = M + CUBE_CLUSTER_EV, lam = P.lam;
    for (unsigned i = t; i < CUBE_CLUSTER_FLOATS / 4; i += CC_NT) /* independent of the kernel before */
        ((float4 *)M)[i] = __ldg((const float4 *)P.t + i);
    homg_pdl_wait();
    const float *bk = b + (size_t)k0 * nx * ny; /* the block's slices: contiguous */
    for (unsigned e = t; e < nzl * ny * nx; e += CC_NT)
        A[e / (ny * nx) * ps + e / nx % ny * px + e % nx] = bk[e];
    __syncthreads();
    /* pass 1: Sx^T along x (columns (slice, y)), then Sy^T along y (columns (slice, x)) */
    auto col_x = [&](unsigned c) { return c / ny * ps + c % ny * px; };
    auto col_y = [&](unsigned c) { return c / nx * ps + c % nx; };
    cc_in(M + 0 * CC_MAT, nx, P.half[0], nzl * ny, A, 1, col_x,
          [&](unsigned p, unsigned c, float v) { B[col_x(c) + p] = v; });
    __syncthreads();
    cc_in(M + 2 * CC_MAT, ny, P.half[1], nzl * nx, B, px, col_y,
          [&](unsigned p, unsigned c, float v) { A[col_y(c) + p * px] = v; });
    cl.sync(); /* every block's slices transformed in x and y */
    /* pass 2: rows y0.. of every z into G (column c = (y - y0) nx + x), Sz^T, D^-1, Sz */
    for (unsigned e = t; e < nz * nyl * nx; e += CC_NT) {
        const unsigned z = e / (nyl * nx), c = e % (nyl * nx);
        const float *src = cl.map_shared_rank(A, z / nzl);
        G[z * gz + c] = src[z % nzl * ps + (y0 + c / nx) * px + c % nx];
    }
    __syncthreads();
    auto col_z = [](unsigned c) { return c; };
    cc_in(M + 4 * CC_MAT, nz, P.half[2], nyl * nx, G, gz, col_z, [&](unsigned p, unsigned c, float v) {
        const unsigned i = c % nx, j = y0 + c / nx; /* cube_sep_denom's order */
        B[p * gz + c] = v / (((ev[i] + ev[CUBE_CLUSTER_N + j]) + ev[2 * CUBE_CLUSTER_N + p]) + lam);
    });
    __syncthreads();
    cc_out(M + 5 * CC_MAT, nz, P.half[2], nyl * nx, B, gz, col_z, [&](unsigned p, unsigned c, float v) {
        float *dst = cl.map_shared_rank(A, p / nzl);
        dst[p % nzl * ps + (y0 + c / nx) * px + c % nx] = v;
    });
    cl.sync(); /* every block's slices back, transformed in z; no remote access after this */
    /* pass 3: Sy along y, then Sx along x, to x */
    cc_out(M + 3 * CC_MAT, ny, P.half[1], nzl * nx, A, px, col_y,
           [&](unsigned p, unsigned c, float v) { B[col_y(c) + p * px] = v; });
    __syncthreads();
    float *xk = x + (size_t)k0 * nx * ny;
    cc_out(M + 1 * CC_MAT, nx, P.half[0], nzl * ny, B, 1, col_x,
           [&](unsigned p, unsigned c, float v) { xk[(c / ny * ny + c % ny) * nx + p] = v; });
}

extern "C" homg_status homg_cuda_cubeclu_solve(kernel_exec *ex, const cube_clu *P, int cs, float *x, const float *b)
{
    static int ready;
    if (!cube_cluster_fits(P, cs) || !x || !b)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "cluster exact solve: %d x %d x %d on %d blocks",
                              P->n[0], P->n[1], P->n[2], cs);
    if (!ready) { /* the most any level takes: 32^3 on 8 blocks (~75 KB) */
        const unsigned most = cc_floats(CUBE_CLUSTER_N, CUBE_CLUSTER_N, CUBE_CLUSTER_N, 8);
        HOMG_CUDA_TRY(ex, cudaFuncSetAttribute(cube_cluster_solve, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
        HOMG_CUDA_TRY(ex, cudaFuncSetAttribute(cube_cluster_solve, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               (int)(most * sizeof(float))));
        ready = 1;
    }
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute at[2] = {};
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = (unsigned)cs;
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    at[1].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[1].val.programmaticStreamSerializationAllowed = 1;
    cfg.gridDim = dim3((unsigned)cs);
    cfg.blockDim = dim3(CC_NT);
    cfg.dynamicSmemBytes = sizeof(float) * cc_floats(P->n[0], P->n[1], P->n[2], (unsigned)cs);
    cfg.stream = homg_cuda_stream(ex);
    cfg.attrs = at;
    cfg.numAttrs = homg_pdl_gen_on() ? 2 : 1;
    HOMG_CUDA_TRY(ex, cudaLaunchKernelEx(&cfg, cube_cluster_solve, *P, x, b));
    HOMG_CUDA_LAUNCHED(ex, "cube_cluster_solve");
    return HOMG_OK;
}

extern "C" const cubeclu_kernels homg_cuda_cubeclu_kernels = { .name = "cuda", CUBECLU_KERNELS(HOMG_KERNEL_CUDA_INIT) };
