/* cube_coarse.cu -- CUDA twin of kernels/grid/cube_coarse.c: the coarse cube levels'
 * V-cycle (cube_coarse.h) in one thread block, u and f of every level in shared
 * memory, a barrier between steps.  A thread per row of four cells along x (one
 * row of a plane at a time, no marching: the levels are small); the formulas are
 * cube_point.h's, fed from shared memory (its column loops read through the
 * read-only cache, which shared memory is not).  A half-sweep reads and writes only
 * the cells it needs: the cells it relaxes (its own) and their neighbours, of the other
 * colour, which nobody writes then -- no shared-memory race (compute-sanitizer racecheck). */
#include "core/cuda_check.h"
#include "core/pdl.cuh"
#include "cube_coarse.h"
#include "cube_point.h"

#define CUBEBLK_NT 1024

/* The plane stride and the row's index; the rows of level K are (i0, j, k) with
 * r = i0 / 4 + nx / 4 (j + ny k). */
HOMG_HD unsigned blk_row(const cube_level &K, unsigned r, int *i0, int *j, int *k)
{
    const unsigned qx = (unsigned)K.nx / 4, a = r % qx, jk = r / qx;
    *i0 = 4 * (int)a;
    *j = (int)(jk % (unsigned)K.ny);
    *k = (int)(jk / (unsigned)K.ny);
    return 4 * r;
}

HOMG_HD unsigned blk_rows(const cube_level &K) { return (unsigned)(K.nx / 4) * K.ny * K.nz; }

/* The first cell of `colour` in a row of parity (i0 + j + k) & 1: the row's cells a and a + 2 are relaxed. */
HOMG_HD int blk_first_cell(int parity, int colour) { return ((parity ^ colour) & 1) == 0 ? 0 : 1; }

/* One half-sweep of `colour` on the row (cube_sweep_col's step, cube_relax4's two cells): it
 * reads of its neighbours only the cells it needs, of the other colour, which nobody writes. */
HOMG_HD void blk_sweep(const cube_level &K, float *u, const float *f, int colour, unsigned r)
{
    int i0, j, k;
    const unsigned c = blk_row(K, r, &i0, &j, &k), sy = (unsigned)K.nx, sz = (unsigned)K.nx * (unsigned)K.ny;
    const int a = blk_first_cell((i0 + j + k) & 1, colour);
    float zc[4], rd[4];
    cube_ld4(u + c, zc);
    cube_rdiag4(&K, i0, j, k, rd);
    const float xl = a == 0 && i0 > 0 ? u[c - 1] : 0.0f, xr = a == 1 && i0 + 4 < K.nx ? u[c + 4] : 0.0f;
    for (int q = a; q < 4; q += 2) {
        const float w = q == 0 ? xl : zc[q - 1], e = q == 3 ? xr : zc[q + 1];
        const float ys = j > 0 ? u[c - sy + q] : 0.0f, yn = j + 1 < K.ny ? u[c + sy + q] : 0.0f;
        const float zb = k > 0 ? u[c - sz + q] : 0.0f, zt = k + 1 < K.nz ? u[c + sz + q] : 0.0f;
        u[c + q] = cube_relax1(&K, rd[q], zc[q], w, e, ys, yn, zb, zt, f[c + q]);
    }
}

/* The row (i0, j, k) after the colour-0 half-sweep from zero (p: f's row, NULL: none). */
HOMG_HD void blk_zero_row(const cube_level &K, const float *p, int i0, int j, int k, float out[4])
{
    float t[4];
    cube_ld4(p, t);
    if (p)
        cube_zero4(&K, i0, j, k, t, out);
    else
        cube_copy4(out, t);
}

/* u = 0, colour 0, colour 1 on the row (cube_pre_col's step): reads f only. */
HOMG_HD void blk_pre(const cube_level &K, float *u, const float *f, unsigned r)
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

/* Cell (i, j, k) of v = u + ec[parent] (cube_vrow's sum); present 0: zero. */
HOMG_HD float blk_v(const cube_level &K, const float *ec, const float *u, int present, int i, int j, int k)
{
    return present ? u[cube_index(&K, i, j, k)] + ec[cube_cindex(&K, i / 2, j / 2, k / 2)] : 0.0f;
}

/* The cells of `colour` on the row relaxed from v = u + ec[parent] (cube_prolong_col's step, cube_relax4's
 * two cells; neighbours read at the cells of the other colour only, as blk_sweep). */
HOMG_HD void blk_prolong(const cube_level &K, const float *ec, float *u, const float *f, int colour, unsigned r)
{
    int i0, j, k;
    const unsigned c = blk_row(K, r, &i0, &j, &k);
    const int a = blk_first_cell((i0 + j + k) & 1, colour);
    float zc[4], rd[4];
    for (int q = 0; q < 4; q++)
        zc[q] = blk_v(K, ec, u, 1, i0 + q, j, k);
    cube_rdiag4(&K, i0, j, k, rd);
    const float xl = a == 0 ? blk_v(K, ec, u, i0 > 0, i0 - 1, j, k) : 0.0f;
    const float xr = a == 1 ? blk_v(K, ec, u, i0 + 4 < K.nx, i0 + 4, j, k) : 0.0f;
    for (int q = a; q < 4; q += 2) {
        const int i = i0 + q;
        const float w = q == 0 ? xl : zc[q - 1], e = q == 3 ? xr : zc[q + 1];
        const float ys = blk_v(K, ec, u, j > 0, i, j - 1, k), yn = blk_v(K, ec, u, j + 1 < K.ny, i, j + 1, k);
        const float zb = blk_v(K, ec, u, k > 0, i, j, k - 1), zt = blk_v(K, ec, u, k + 1 < K.nz, i, j, k + 1);
        u[c + q] = cube_relax1(&K, rd[q], zc[q], w, e, ys, yn, zb, zt, f[c + q]);
    }
}

/* fc at the pair t of coarse cells: cube_restrict_pair from shared memory (the levels'
 * arrays start at multiples of 4 floats, so its float2 store is aligned). */
HOMG_HD void blk_restrict(const cube_level &K, const float *u, const float *f, float *fc, unsigned t)
{
    const unsigned qx = (unsigned)K.nx / 4, row = t / qx, a = t - row * qx, cy = (unsigned)K.ny / 2;
    cube_restrict_pair(&K, u, f, fc, 4 * (int)a, (int)(row % cy), (int)(row / cy), 0);
}

HOMG_HD unsigned blk_cells(const cube_level &K) { return (unsigned)K.nx * K.ny * K.nz; }

/* A barrier between steps (none on the host, where blk_cycle runs as one thread: the
 * development check that the steps and the shared-memory layout give the CPU twin's values). */
HOMG_HD void blk_sync(void)
{
#ifdef __CUDA_ARCH__
    __syncthreads();
#endif
}

/* Half-sweeps from .. to - 1 of colour (h + first) & 1 on level K (from 1: the first Gauss-Seidel). */
HOMG_HD void blk_half_sweeps(const cube_level &K, float *u, const float *f, int from, int to, int first, unsigned tid,
                             unsigned nt)
{
    for (int h = from; h < to; h++) {
        cube_level L = K;
        if (from == 1 && h == 1)
            L.omega = 1.0f;
        for (unsigned r = tid; r < blk_rows(K); r += nt)
            blk_sweep(L, u, f, (h + first) & 1, r);
        blk_sync();
    }
}

/* u = cm f on the coarsest level (nc cells): gen coarse_apply's order and roundings. */
HOMG_HD void blk_coarse(const float *cm, unsigned nc, float *u, const float *f, double *fa, unsigned tid, unsigned nt)
{
    for (unsigned r = tid; r < nc; r += nt)
        fa[r] = (double)f[r];
    blk_sync();
    for (unsigned r = tid; r < nc; r += nt) {
        double acc = 0;
#ifdef __CUDA_ARCH__
#pragma unroll 8
        for (unsigned k = 0; k < nc; k++)
            acc = __dadd_rn(acc, __dmul_rn((double)__ldg(cm + (size_t)k * nc + r), fa[k]));
#else
        for (unsigned k = 0; k < nc; k++)
            acc += (double)cm[(size_t)k * nc + r] * fa[k];
#endif
        u[r] = (float)acc;
    }
    blk_sync();
}

/* The whole cycle as thread tid of nt, shared memory at s (cube_block_floats floats). */
HOMG_HD void blk_cycle(const cube_block &B, float *s, unsigned tid, unsigned nt)
{
    float *u[CUBE_BLOCK_MAX], *f[CUBE_BLOCK_MAX];
    const int c = B.n - 1;
    const unsigned nc = (unsigned)B.coarsest.nx * B.coarsest.ny * B.coarsest.nz;
    for (int q = 0; q < c; q++) {
        const unsigned n4 = (blk_cells(B.K[q]) + 3) / 4 * 4;
        u[q] = s, f[q] = s + n4, s += 2 * n4;
    }
    u[c] = s, f[c] = s + (nc + 3) / 4 * 4;
    double *fa = (double *)(s + 2 * ((nc + 3) / 4 * 4));
    for (unsigned r = tid; r < blk_rows(B.K[0]); r += nt) /* the top level's rhs */
    {
        float v[4];
        cube_ldg4(B.b[0] + 4 * r, v);
        cube_st4(f[0] + 4 * r, v);
    }
    blk_sync();
    for (int q = 0; q < c; q++) { /* down */
        const cube_level K = B.K[q];
        for (unsigned r = tid; r < blk_rows(K); r += nt)
            blk_pre(K, u[q], f[q], r);
        blk_sync();
        blk_half_sweeps(K, u[q], f[q], 2, 2 * B.pre[q], 0, tid, nt);
        for (unsigned t = tid; t < blk_cells(K) / 16; t += nt)
            blk_restrict(K, u[q], f[q], f[q + 1], t);
        blk_sync();
    }
    blk_coarse(B.cm, nc, u[c], f[c], fa, tid, nt);
    for (int q = c - 1; q >= 0; q--) { /* up */
        const cube_level K = B.K[q];
        for (unsigned r = tid; r < blk_rows(K); r += nt)
            blk_prolong(K, u[q + 1], u[q], f[q], B.first, r);
        blk_sync();
        blk_half_sweeps(K, u[q], f[q], 1, 2 * B.post[q], B.first, tid, nt);
    }
    for (unsigned r = tid; r < blk_rows(B.K[0]); r += nt) {
        float v[4];
        cube_ld4(u[0] + 4 * r, v);
        cube_st4(B.x[0] + 4 * r, v);
    }
}

__global__ void __launch_bounds__(CUBEBLK_NT, 1) cube_block_kernel(cube_block B)
{
    extern __shared__ float4 blk_smem[];
    homg_pdl_wait();
    blk_cycle(B, (float *)blk_smem, threadIdx.x, CUBEBLK_NT);
}

/* Whether B is a table this kernel runs: levels halving, aligned, sweeps >= 1, the
 * coarsest with its matrix and at most a block's threads. */
static int blk_valid(const cube_block *B)
{
    const gen_level *C = &B->coarsest;
    if (B->n < 2 || B->n > CUBE_BLOCK_MAX || !B->cm || C->flag || !B->x[0] || !B->b[0] || (size_t)B->x[0] % 16 ||
        (size_t)B->b[0] % 16 || (size_t)C->nx * C->ny * C->nz > CUBEBLK_NT ||
        (size_t)C->nx * C->ny * C->nz > GEN_COARSE_MATRIX_CELLS)
        return 0;
    for (int q = 0; q + 1 < B->n; q++) {
        const cube_level *K = &B->K[q];
        const int nx = q + 2 < B->n ? B->K[q + 1].nx : C->nx, ny = q + 2 < B->n ? B->K[q + 1].ny : C->ny;
        const int nz = q + 2 < B->n ? B->K[q + 1].nz : C->nz;
        if (K->nx % 4 || K->ny % 2 || K->nz % 2 || K->nx < 4 || nx != K->nx / 2 || ny != K->ny / 2 || nz != K->nz / 2 ||
            B->pre[q] < 1 || B->post[q] < 1)
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
    if (!attr && bytes > 48 * 1024) { /* above the default only (the 16^3 table needs ~37 KB) */
        HOMG_CUDA_TRY(ex, cudaFuncSetAttribute(cube_block_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               (int)ex->shared_per_block));
        attr = 1;
    }
    /* as cube.cu: PDL unless HOMG_GEN_PDL=0 */
    homg_pdl_launch_shm(homg_cuda_stream(ex), dim3(1), dim3(CUBEBLK_NT), bytes, homg_pdl_gen_on(), cube_block_kernel,
                        *B);
    HOMG_CUDA_LAUNCHED(ex, "cube_block_kernel");
    return HOMG_OK;
}

extern "C" const cubeblk_kernels homg_cuda_cubeblk_kernels = { .name = "cuda", CUBEBLK_KERNELS(HOMG_KERNEL_CUDA_INIT) };
