/* cube_cluster.cu -- CUDA twin of kernels/grid/cube_cluster.c: cube_sep.h's exact solve in
 * one launch on a cluster of cs (8 or 16) blocks, the level in distributed shared memory.
 * Block r (256 threads) holds:
 *   M  the six matrices (32 x 32 each, column-major as cube_sep_tables) and the eigenvalues,
 *      read before the PDL wait (they do not depend on the kernel before);
 *   A  its nz/cs z-slices (row pitch nx + 1);
 *   B  scratch of A's size or G's;
 *   G  the rows y0 .. y0 + ny/cs - 1 of every z (gathered from every block's A).
 * Steps: b -> A; Sx^T A -> B; Sy^T B -> A; cluster barrier; gather G from all A's; Sz^T G,
 * divided by D, -> B; Sz B -> the owners' A (each block writes only the rows it gathered, so
 * no other block reads them meanwhile); cluster barrier; Sy A -> B; Sx B -> x.  Two cluster
 * barriers; after the second no block touches another's memory, so blocks may leave.
 * A thread takes a tile of 4 outputs along the transformed side x CC_TB columns, each a fmaf
 * sum over q ascending from 0 (cube_sep_apply's order), so the floats equal the CPU twin's. */
#include <cooperative_groups.h>

#include "core/cuda_check.h"
#include "core/pdl.cuh"
#include "cube_cluster.h"

namespace cg = cooperative_groups;

#define CC_NT   256                               /* threads a block */
#define CC_TB   2                                 /* columns of a thread's tile */
#define CC_MAT  (CUBE_CLUSTER_N * CUBE_CLUSTER_N) /* a matrix's floats in shared memory */
#define CC_EV   (6 * CC_MAT)                      /* ev_a[m] at CC_EV + a CUBE_CLUSTER_N + m */
#define CC_HEAD (CC_EV + 3 * CUBE_CLUSTER_N)      /* floats before A (a multiple of 4) */

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

__global__ void __launch_bounds__(CC_NT)
    cube_cluster_solve(cube_sep P, float *__restrict__ x, const float *__restrict__ b)
{
    extern __shared__ __align__(16) float sm[];
    cg::cluster_group cl = cg::this_cluster();
    const unsigned cs = cl.num_blocks(), r = cl.block_rank(), t = threadIdx.x;
    const unsigned nx = P.n[0], ny = P.n[1], nz = P.n[2], nzl = nz / cs, nyl = ny / cs;
    const unsigned px = nx + 1, ps = ny * px, gz = nyl * nx + 1, k0 = r * nzl, y0 = r * nyl;
    float *M = sm, *A = sm + CC_HEAD, *B = A + nzl * ps, *G = B + max(nzl * ps, nz * gz);
    const float *ev = M + CC_EV, lam = P.lam;
    for (unsigned a = 0; a < 3; a++) { /* the tables do not depend on the kernel before */
        const unsigned n = P.n[a];
        for (unsigned w = 0; w < 2; w++)
            for (unsigned i = t; i < n * n; i += CC_NT)
                M[(2 * a + w) * CC_MAT + i] = __ldg(P.t + (2 * a + w) * CUBE_SEP_MAT + i);
        for (unsigned i = t; i < n; i += CC_NT)
            M[CC_EV + a * CUBE_CLUSTER_N + i] = __ldg(P.t + 6 * CUBE_SEP_MAT + a * CUBE_SEP_N + i);
    }
    homg_pdl_wait();
    const float *bk = b + (size_t)k0 * nx * ny; /* the block's slices: contiguous */
    for (unsigned e = t; e < nzl * ny * nx; e += CC_NT)
        A[e / (ny * nx) * ps + e / nx % ny * px + e % nx] = bk[e];
    __syncthreads();
    /* pass 1: Sx^T along x (columns (slice, y)), then Sy^T along y (columns (slice, x)) */
    auto col_x = [&](unsigned c) { return c / ny * ps + c % ny * px; };
    auto col_y = [&](unsigned c) { return c / nx * ps + c % nx; };
    cc_apply(M + 0 * CC_MAT, nx, nzl * ny, A, 1, col_x, [&](unsigned p, unsigned c, float v) { B[col_x(c) + p] = v; });
    __syncthreads();
    cc_apply(M + 2 * CC_MAT, ny, nzl * nx, B, px, col_y,
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
    cc_apply(M + 4 * CC_MAT, nz, nyl * nx, G, gz, col_z, [&](unsigned p, unsigned c, float v) {
        const unsigned i = c % nx, j = y0 + c / nx; /* cube_sep_denom's sum, in its order */
        B[p * gz + c] = v / (((ev[i] + ev[CUBE_CLUSTER_N + j]) + ev[2 * CUBE_CLUSTER_N + p]) + lam);
    });
    __syncthreads();
    cc_apply(M + 5 * CC_MAT, nz, nyl * nx, B, gz, col_z, [&](unsigned p, unsigned c, float v) {
        float *dst = cl.map_shared_rank(A, p / nzl);
        dst[p % nzl * ps + (y0 + c / nx) * px + c % nx] = v;
    });
    cl.sync(); /* every block's slices back, transformed in z; no remote access after this */
    /* pass 3: Sy along y, then Sx along x, to x */
    cc_apply(M + 3 * CC_MAT, ny, nzl * nx, A, px, col_y,
             [&](unsigned p, unsigned c, float v) { B[col_y(c) + p * px] = v; });
    __syncthreads();
    float *xk = x + (size_t)k0 * nx * ny;
    cc_apply(M + 1 * CC_MAT, nx, nzl * ny, B, 1, col_x,
             [&](unsigned p, unsigned c, float v) { xk[(c / ny * ny + c % ny) * nx + p] = v; });
}

extern "C" homg_status homg_cuda_cubeclu_solve(kernel_exec *ex, const cube_sep *P, int cs, float *x, const float *b)
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
