/* cube_coarse.cu -- CUDA twin of kernels/grid/cube_coarse.c: the coarse cube levels'
 * V-cycle (cube_coarse.h) in one thread block, u and f of every level in shared
 * memory, a barrier between steps.  A thread per row of four cells along x (one
 * row of a plane at a time, no marching: the levels are small); the formulas are
 * cube_point.h's, fed from shared memory (its column loops read through the
 * read-only cache, which shared memory is not).  A half-sweep writes only the cells
 * it relaxes: their neighbours are of the other colour, which nobody writes then. */
#include "core/cuda_check.h"
#include "core/pdl.cuh"
#include "cube_coarse.h"
#include "cube_point.h"

#define CUBEBLK_NT 1024

/* The plane stride and the row's index; the rows of level K are (i0, j, k) with
 * r = i0 / 4 + nx / 4 (j + ny k). */
__device__ __forceinline__ unsigned blk_row(const cube_level &K, unsigned r, int *i0, int *j, int *k)
{
    const unsigned qx = (unsigned)K.nx / 4, a = r % qx, jk = r / qx;
    *i0 = 4 * (int)a;
    *j = (int)(jk % (unsigned)K.ny);
    *k = (int)(jk / (unsigned)K.ny);
    return 4 * r;
}

__device__ __forceinline__ unsigned blk_rows(const cube_level &K) { return (unsigned)(K.nx / 4) * K.ny * K.nz; }

/* Stores the cells of `colour` of row out at p (the others stay). */
__device__ __forceinline__ void blk_store(float *p, int parity, int colour, const float out[4])
{
    if (((parity ^ colour) & 1) == 0)
        p[0] = out[0], p[2] = out[2];
    else
        p[1] = out[1], p[3] = out[3];
}

/* One half-sweep of `colour` on the row (cube_sweep_col's step). */
__device__ __forceinline__ void blk_sweep(const cube_level &K, float *u, const float *f, int colour, unsigned r)
{
    int i0, j, k;
    const unsigned c = blk_row(K, r, &i0, &j, &k), sz = (unsigned)K.nx * (unsigned)K.ny;
    float zb[4], zc[4], zt[4], ys[4], yn[4], ff[4], out[4], rd[4], xl, xr;
    cube_ld4(k > 0 ? u + (c - sz) : NULL, zb);
    cube_ld4(u + c, zc);
    cube_load_row(&K, u, c, i0, j, k, 0, &xl, &xr, ys, yn, zt);
    cube_ld4(f + c, ff);
    cube_rdiag4(&K, i0, j, k, rd);
    cube_relax4(&K, rd, (i0 + j + k) & 1, colour, zc, zc, xl, xr, ys, yn, zb, zt, ff, out);
    blk_store(u + c, (i0 + j + k) & 1, colour, out);
}

/* The row (i0, j, k) after the colour-0 half-sweep from zero (p: f's row, NULL: none). */
__device__ __forceinline__ void blk_zero_row(const cube_level &K, const float *p, int i0, int j, int k, float out[4])
{
    float t[4];
    cube_ld4(p, t);
    if (p)
        cube_zero4(&K, i0, j, k, t, out);
    else
        cube_copy4(out, t);
}

/* u = 0, colour 0, colour 1 on the row (cube_pre_col's step): reads f only. */
__device__ __forceinline__ void blk_pre(const cube_level &K, float *u, const float *f, unsigned r)
{
    int i0, j, k;
    const unsigned c = blk_row(K, r, &i0, &j, &k), sy = (unsigned)K.nx, sz = (unsigned)K.nx * (unsigned)K.ny;
    float zb[4], zc[4], zt[4], fc[4], ys[4], yn[4], out[4], rd[4];
    blk_zero_row(K, k > 0 ? f + (c - sz) : NULL, i0, j, k - 1, zb);
    cube_ld4(f + c, fc);
    cube_zero4(&K, i0, j, k, fc, zc);
    blk_zero_row(K, k + 1 < K.nz ? f + (c + sz) : NULL, i0, j, k + 1, zt);
    const float xl = i0 > 0 ? cube_zero1(&K, i0 - 1, j, k, f[c - 1]) : 0.0f;
    const float xr = i0 + 4 < K.nx ? cube_zero1(&K, i0 + 4, j, k, f[c + 4]) : 0.0f;
    blk_zero_row(K, j > 0 ? f + (c - sy) : NULL, i0, j - 1, k, ys);
    blk_zero_row(K, j + 1 < K.ny ? f + (c + sy) : NULL, i0, j + 1, k, yn);
    cube_rdiag4(&K, i0, j, k, rd);
    cube_relax4(&K, rd, (i0 + j + k) & 1, 1, zc, zc, xl, xr, ys, yn, zb, zt, fc, out);
    cube_st4(u + c, out);
}

/* v = u + ec[parent] on row (i0, j, k) (raw: u's row); present 0: zeros (cube_vrow). */
__device__ __forceinline__ void blk_vrow(const cube_level &K, const float *ec, const float *u, int present, int i0,
                                         int j, int k, float v[4], float raw[4])
{
    if (!present) {
        cube_ld4(NULL, v);
        return;
    }
    const unsigned e = cube_cindex(&K, i0 / 2, j / 2, k / 2);
    cube_ld4(u + cube_index(&K, i0, j, k), raw);
    v[0] = raw[0] + ec[e], v[1] = raw[1] + ec[e], v[2] = raw[2] + ec[e + 1], v[3] = raw[3] + ec[e + 1];
}

/* The cells of `colour` on the row relaxed from v = u + ec[parent] (cube_prolong_col's step). */
__device__ __forceinline__ void blk_prolong(const cube_level &K, const float *ec, float *u, const float *f, int colour, unsigned r)
{
    int i0, j, k;
    const unsigned c = blk_row(K, r, &i0, &j, &k);
    float zb[4], zc[4], zt[4], rc[4], t[4], ys[4], yn[4], ff[4], out[4], rd[4], xl = 0.0f, xr = 0.0f;
    blk_vrow(K, ec, u, k > 0, i0, j, k - 1, zb, t);
    blk_vrow(K, ec, u, 1, i0, j, k, zc, rc);
    blk_vrow(K, ec, u, k + 1 < K.nz, i0, j, k + 1, zt, t);
    if (i0 > 0)
        xl = u[c - 1] + ec[cube_cindex(&K, i0 / 2 - 1, j / 2, k / 2)];
    if (i0 + 4 < K.nx)
        xr = u[c + 4] + ec[cube_cindex(&K, i0 / 2 + 2, j / 2, k / 2)];
    blk_vrow(K, ec, u, j > 0, i0, j - 1, k, ys, t);
    blk_vrow(K, ec, u, j + 1 < K.ny, i0, j + 1, k, yn, t);
    cube_ld4(f + c, ff);
    cube_rdiag4(&K, i0, j, k, rd);
    cube_relax4(&K, rd, (i0 + j + k) & 1, colour, zc, rc, xl, xr, ys, yn, zb, zt, ff, out);
    blk_store(u + c, (i0 + j + k) & 1, colour, out);
}

/* f - A u on row (i0, j, k) (cube_res_row). */
__device__ __forceinline__ void blk_res_row(const cube_level &K, const float *u, const float *f, int i0, int j, int k,
                                            float r[4])
{
    const unsigned sz = (unsigned)K.nx * (unsigned)K.ny, c = cube_index(&K, i0, j, k);
    float uc[4], ys[4], yn[4], zb[4], zt[4], ff[4], xl, xr;
    cube_ld4(u + c, uc);
    cube_ld4(k > 0 ? u + (c - sz) : NULL, zb);
    cube_load_row(&K, u, c, i0, j, k, 0, &xl, &xr, ys, yn, zt);
    cube_ld4(f + c, ff);
    cube_res4(&K, i0, j, k, uc, xl, xr, ys, yn, zb, zt, ff, r);
}

/* fc at the pair t of coarse cells (cube_restrict_pair). */
__device__ __forceinline__ void blk_restrict(const cube_level &K, const float *u, const float *f, float *fc, unsigned t)
{
    const unsigned qx = (unsigned)K.nx / 4, row = t / qx, a = t - row * qx, cy = (unsigned)K.ny / 2;
    const int i0 = 4 * (int)a, J = (int)(row % cy), Kc = (int)(row / cy);
    float a0 = 0.0f, a1 = 0.0f, r[4];
    for (int dk = 0; dk < 2; dk++)
        for (int dj = 0; dj < 2; dj++) {
            blk_res_row(K, u, f, i0, 2 * J + dj, 2 * Kc + dk, r);
            a0 += r[0] + r[1];
            a1 += r[2] + r[3];
        }
    const unsigned o = cube_cindex(&K, i0 / 2, J, Kc);
    fc[o] = a0, fc[o + 1] = a1;
}

__device__ __forceinline__ unsigned blk_cells(const cube_level &K) { return (unsigned)K.nx * K.ny * K.nz; }

/* Half-sweeps from .. to - 1 of colour (h + first) & 1 on level K (from 1: the first Gauss-Seidel). */
__device__ __forceinline__ void blk_half_sweeps(const cube_level &K, float *u, const float *f, int from, int to, int first)
{
    for (int h = from; h < to; h++) {
        cube_level L = K;
        if (from == 1 && h == 1)
            L.omega = 1.0f;
        for (unsigned r = threadIdx.x; r < blk_rows(K); r += CUBEBLK_NT)
            blk_sweep(L, u, f, (h + first) & 1, r);
        __syncthreads();
    }
}

__global__ void __launch_bounds__(CUBEBLK_NT, 1) cube_block_kernel(cube_block B)
{
    extern __shared__ float4 blk_smem[];
    float *u[CUBE_BLOCK_MAX], *f[CUBE_BLOCK_MAX], *s = (float *)blk_smem;
    const int c = B.n - 1;
    const unsigned nc = (unsigned)B.coarsest.nx * B.coarsest.ny * B.coarsest.nz, tid = threadIdx.x;
    for (int q = 0; q < c; q++) {
        const unsigned n4 = (blk_cells(B.K[q]) + 3) / 4 * 4;
        u[q] = s, f[q] = s + n4, s += 2 * n4;
    }
    u[c] = s, f[c] = s + (nc + 3) / 4 * 4;
    double *fa = (double *)(s + 2 * ((nc + 3) / 4 * 4));
    homg_pdl_wait();
    for (unsigned r = tid; r < blk_rows(B.K[0]); r += CUBEBLK_NT) /* the top level's rhs */
        ((float4 *)f[0])[r] = __ldg((const float4 *)B.b[0] + r);
    __syncthreads();
    for (int q = 0; q < c; q++) { /* down */
        const cube_level K = B.K[q];
        for (unsigned r = tid; r < blk_rows(K); r += CUBEBLK_NT)
            blk_pre(K, u[q], f[q], r);
        __syncthreads();
        blk_half_sweeps(K, u[q], f[q], 2, 2 * B.pre[q], 0);
        for (unsigned t = tid; t < blk_cells(K) / 16; t += CUBEBLK_NT)
            blk_restrict(K, u[q], f[q], f[q + 1], t);
        __syncthreads();
    }
    if (tid < nc) /* the coarsest: u = cm f, gen coarse_apply's order and roundings */
        fa[tid] = (double)f[c][tid];
    __syncthreads();
    if (tid < nc) {
        double acc = 0;
#pragma unroll 8
        for (unsigned k = 0; k < nc; k++)
            acc = __dadd_rn(acc, __dmul_rn((double)__ldg(B.cm + (size_t)k * nc + tid), fa[k]));
        u[c][tid] = (float)acc;
    }
    __syncthreads();
    for (int q = c - 1; q >= 0; q--) { /* up */
        const cube_level K = B.K[q];
        for (unsigned r = tid; r < blk_rows(K); r += CUBEBLK_NT)
            blk_prolong(K, u[q + 1], u[q], f[q], B.first, r);
        __syncthreads();
        blk_half_sweeps(K, u[q], f[q], 1, 2 * B.post[q], B.first);
    }
    for (unsigned r = tid; r < blk_rows(B.K[0]); r += CUBEBLK_NT)
        ((float4 *)B.x[0])[r] = ((const float4 *)u[0])[r];
}

/* Whether B is a table this kernel runs: levels halving, aligned, sweeps >= 1, the
 * coarsest with its matrix and at most a block's threads. */
static int blk_valid(const cube_block *B)
{
    const gen_level *C = &B->coarsest;
    if (B->n < 2 || B->n > CUBE_BLOCK_MAX || !B->cm || C->flag || !B->x[0] || !B->b[0] ||
        (size_t)B->x[0] % 16 || (size_t)B->b[0] % 16 || (size_t)C->nx * C->ny * C->nz > CUBEBLK_NT ||
        (size_t)C->nx * C->ny * C->nz > GEN_COARSE_MATRIX_CELLS)
        return 0;
    for (int q = 0; q + 1 < B->n; q++) {
        const cube_level *K = &B->K[q];
        const int nx = q + 2 < B->n ? B->K[q + 1].nx : C->nx, ny = q + 2 < B->n ? B->K[q + 1].ny : C->ny;
        const int nz = q + 2 < B->n ? B->K[q + 1].nz : C->nz;
        if (K->nx % 4 || K->ny % 2 || K->nz % 2 || K->nx < 4 || nx != K->nx / 2 || ny != K->ny / 2 ||
            nz != K->nz / 2 || B->pre[q] < 1 || B->post[q] < 1)
            return 0;
    }
    return 1;
}

extern "C" homg_status homg_cuda_cubeblk_vcycle(kernel_exec *ex, const cube_block *B)
{
    static int attr = 0; /* the opt-in size, set once */
    const size_t bytes = cube_block_floats(B) * sizeof(float);
    if (!blk_valid(B))
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "cube block: %d levels from %d x %d x %d", B->n,
                              B->K[0].nx, B->K[0].ny, B->K[0].nz);
    if (bytes > ex->shared_per_block)
        return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "cube block: %zu bytes of shared memory (the device has %zu)",
                              bytes, ex->shared_per_block);
    if (!attr) {
        HOMG_CUDA_TRY(ex, cudaFuncSetAttribute(cube_block_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               (int)ex->shared_per_block));
        attr = 1;
    }
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute at[1] = {};
    cfg.gridDim = dim3(1);
    cfg.blockDim = dim3(CUBEBLK_NT);
    cfg.dynamicSmemBytes = bytes;
    cfg.stream = homg_cuda_stream(ex);
    at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[0].val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = at;
    cfg.numAttrs = homg_pdl_gen_on() ? 1 : 0; /* as cube.cu (HOMG_GEN_PDL=0: plain) */
    (void)cudaLaunchKernelEx(&cfg, cube_block_kernel, *B);
    HOMG_CUDA_LAUNCHED(ex, "cube_block_kernel");
    return HOMG_OK;
}

extern "C" const cubeblk_kernels homg_cuda_cubeblk_kernels = { .name = "cuda", CUBEBLK_KERNELS(HOMG_KERNEL_CUDA_INIT) };
