/* grid_coarse.cu -- the coarse levels of a multigrid cycle in one launch (twin:
 * kernels/grid/grid_coarse.c).  One thread block of 1024 threads holds every
 * level at or below the top (HOMG_COARSE_BLOCK_MAX cells) in shared memory and
 * runs the V-cycle (or the full multigrid) there: a cycle of the whole solve then
 * costs two launches per fine level plus this one, instead of about five per level.
 * The per-point formulas are those of the fused kernels (grid_fused.cu: storage-type
 * arithmetic, residuals from neighbour differences); the CPU twin composes the plain
 * kernels in double, so the two agree to float rounding.
 *
 * On the H100 it is slower than separate launches (64^2 -> 32^2: 22.4 us against
 * 19.7; bench/results/h100_box2_s5.md): tops of more than 64 x 64 cells go to the
 * cluster version (grid_coarse_cluster.cu) unless grid_coarse.cluster says 1.
 *
 * Shared memory, per level k: u_k, f_k, then the four faces' data (the top's copied
 * from global memory, the coarser ones restricted by FMG), then 4 x 32 x 33 values
 * for the exact coarsest solve. */
#include "core/cuda_check.h"
#include "grid_coarse.cuh"
#include "grid_exact.cuh"
#include "grid_point.cuh"

#define NT 1024
#define CE HOMG_COARSE_EXACT_MAX

static __host__ __device__ size_t level_values(const grid_level &L) { return (size_t)L.nx * L.ny; }

/* Values of shared memory the kernel carves (same order as the kernel). */
static __host__ __device__ size_t coarse_smem_values(const grid_coarse &C)
{
    size_t v = 0;
    for (int k = 0; k < C.nlev; k++)
        v += 2 * level_values(C.lev[k]) + 2 * (size_t)(C.lev[k].nx + C.lev[k].ny);
    if (C.qx)
        v += 4 * CE * (CE + 1);
    return v;
}

/* The level table lives in shared memory (filled once by thread 0 with constant
 * indices into the kernel parameter): per-thread copies indexed at run time went
 * to local memory (ptxas: a 1.7 KB stack frame per thread and spills; 114 us for
 * 128^2 -> 32^2 on the H100, bench/results/h100_box_s5.md). */
template <typename T> struct blk {
    grid_level L[HOMG_COARSE_BLOCK_LEVELS];
    T *u[HOMG_COARSE_BLOCK_LEVELS], *f[HOMG_COARSE_BLOCK_LEVELS], *bc[HOMG_COARSE_BLOCK_LEVELS][4];
    T id[HOMG_COARSE_BLOCK_LEVELS][3]; /* 1 / diagonal of a cell touching e = 0, 1, 2 edges */
    T *scratch;
};

/* log2 of a power of two */
__device__ __forceinline__ int ilog2(int n) { return 31 - __clz(n); }

/* Arithmetic is in the storage type, with the inverse diagonals precomputed (one
 * SM runs these levels alone, so its instruction count is the time); indices are
 * shifts, the level sides being powers of two (>= 2, so a cell touches <= 2 edges). */

/* `sweeps` red-black sweeps on level k, in place in shared memory. */
template <typename T> __device__ void blk_smooth(const blk<T> &B, int k, int sweeps)
{
    const grid_level &L = B.L[k];
    T *u = B.u[k];
    const T *f = B.f[k];
    const int nx = L.nx, ny = L.ny, lh = ilog2(nx) - 1, n = nx * ny / 2;
    const T ih2 = (T)L.inv_h2, id0 = B.id[k][0], id1 = B.id[k][1], id2 = B.id[k][2];
    for (int s = 0; s < 2 * sweeps; s++) {
        const int colour = s & 1;
        for (int q = threadIdx.x; q < n; q += NT) {
            const int j = q >> lh, i = ((q - (j << lh)) << 1) | ((j + colour) & 1), kk = j * nx + i;
            const T nb = ((i > 0 ? u[kk - 1] : (T)0) + (i < nx - 1 ? u[kk + 1] : (T)0)) +
                         ((j > 0 ? u[kk - nx] : (T)0) + (j < ny - 1 ? u[kk + nx] : (T)0));
            T rhs = f[kk] + ih2 * nb, id = id0;
            const int e = homg_edges_touched(i, j, nx, ny);
            if (e) {
                rhs += (T)bterm_at<T>(L, i, j);
                id = e == 1 ? id1 : id2;
            }
            u[kk] = rhs * id;
        }
        __syncthreads();
    }
}

/* f + bterm - A u at (i, j) from neighbour differences (the ghost beyond an edge is
 * -c, so a missing neighbour counts -2c), as tile_residual in grid_fused.cu;
 * bc false: without the face data (FMG's restriction of f alone). */
template <typename T>
__device__ __forceinline__ T blk_res(const grid_level &L, const T *u, const T *f, int i, int j, bool bc)
{
    const int nx = L.nx, ny = L.ny, k = j * nx + i;
    T r = f[k];
    if (bc && homg_edges_touched(i, j, nx, ny))
        r += (T)bterm_at<T>(L, i, j);
    if (u) {
        const T c = u[k];
        const T d = ((i > 0 ? u[k - 1] - c : -2 * c) + (i < nx - 1 ? u[k + 1] - c : -2 * c)) +
                    ((j > 0 ? u[k - nx] - c : -2 * c) + (j < ny - 1 ? u[k + nx] - c : -2 * c));
        r += (T)L.inv_h2 * d - (T)L.lambda * c;
    }
    return r;
}

/* f_{k+1} = R (f_k + bterm - A u_k); with_u false: u = 0 and no face data. */
template <typename T> __device__ void blk_residual_restrict(const blk<T> &B, int k, bool with_u)
{
    const grid_level &L = B.L[k];
    const T *u = with_u ? B.u[k] : (const T *)NULL, *f = B.f[k];
    T *fc = B.f[k + 1];
    const int ncx = L.nx / 2, lc = ilog2(ncx), n = ncx * (L.ny / 2);
    for (int q = threadIdx.x; q < n; q += NT) {
        const int J = q >> lc, I = q - (J << lc);
        T s = (blk_res<T>(L, u, f, 2 * I, 2 * J, with_u) + blk_res<T>(L, u, f, 2 * I + 1, 2 * J, with_u)) +
              (blk_res<T>(L, u, f, 2 * I, 2 * J + 1, with_u) + blk_res<T>(L, u, f, 2 * I + 1, 2 * J + 1, with_u));
        fc[q] = (T)0.25 * s;
    }
    __syncthreads();
}

/* u_k (+)= P u_{k+1} */
template <typename T> __device__ void blk_prolong(const blk<T> &B, int k, int assign)
{
    const T *ec = B.u[k + 1];
    T *u = B.u[k];
    const int nx = B.L[k].nx, lx = ilog2(nx), n = nx * B.L[k].ny, ncx = nx / 2, ncy = B.L[k].ny / 2;
    for (int q = threadIdx.x; q < n; q += NT) {
        const int j = q >> lx, i = q - (j << lx);
        const int I = i >> 1, J = j >> 1;
        int a = I + ((i & 1) ? 1 : -1), b = J + ((j & 1) ? 1 : -1);
        const T sx = (T)homg_reflect(&a, ncx), sy = (T)homg_reflect(&b, ncy);
        const T *r0 = ec + J * ncx, *r1 = ec + b * ncx;
        const T e = (T)0.5625 * r0[I] + (T)0.1875 * (sx * r0[a] + sy * r1[I]) + (T)0.0625 * (sx * sy * r1[a]);
        u[q] = assign ? e : u[q] + e;
    }
    __syncthreads();
}

template <typename T> __device__ void blk_zero(T *u, int n)
{
    for (int q = threadIdx.x; q < n; q += NT)
        u[q] = (T)0;
    __syncthreads();
}

/* The coarsest level: the dense sine transform (grid_exact.cuh), or sweeps. */
template <typename T> __device__ void blk_bottom(const grid_coarse &C, const blk<T> &B)
{
    const int last = C.nlev - 1;
    if (!C.qx) {
        blk_zero(B.u[last], B.L[last].nx * B.L[last].ny);
        blk_smooth<T>(B, last, C.bottom_sweeps);
        return;
    }
    T(*sx)[CE + 1] = (T(*)[CE + 1]) B.scratch;
    coarse_exact_block<T>(B.L[last], B.u[last], B.f[last], (const T *)C.qx, (const T *)C.qy, (const T *)C.inv_eig, sx,
                          sx + CE, sx + 2 * CE, sx + 3 * CE, threadIdx.x % CE, threadIdx.x / CE);
}

template <typename T> __device__ void blk_vcycle(const grid_coarse &C, const blk<T> &B, int k0, bool zero)
{
    const int last = C.nlev - 1;
    for (int k = k0; k < last; k++) {
        if (k > k0 || zero)
            blk_zero(B.u[k], B.L[k].nx * B.L[k].ny);
        blk_smooth<T>(B, k, C.pre);
        blk_residual_restrict<T>(B, k, true);
    }
    blk_bottom<T>(C, B);
    for (int k = last - 1; k >= k0; k--) {
        blk_prolong<T>(B, k, 0);
        blk_smooth<T>(B, k, C.post);
    }
}

template <typename T> __device__ void blk_fmg(const grid_coarse &C, blk<T> &B)
{
    const int last = C.nlev - 1;
    for (int k = 0; k < last; k++) {
        blk_residual_restrict<T>(B, k, false);
        coarse_restrict_faces<T>(B, k);
    }
    blk_bottom<T>(C, B);
    for (int k = last - 1; k >= 0; k--) {
        coarse_clear_bc(B, k + 1, C.nlev);
        blk_prolong<T>(B, k, 1);
        blk_smooth<T>(B, k, C.pre);
        blk_residual_restrict<T>(B, k, true);
        blk_vcycle<T>(C, B, k + 1, true);
        blk_prolong<T>(B, k, 0);
        blk_smooth<T>(B, k, C.post);
    }
}

/* Thread 0 carves shared memory (the order of coarse_smem_values) and fills the
 * table; the unrolled loop keeps the parameter's indices constant. */
template <typename T> __device__ void blk_setup(const grid_coarse &C, blk<T> &B, T *p)
{
    if (threadIdx.x != 0)
        return;
#pragma unroll
    for (int k = 0; k < HOMG_COARSE_BLOCK_LEVELS; k++) {
        if (k >= C.nlev)
            break;
        B.L[k] = C.lev[k];
        B.u[k] = p;
        B.f[k] = p + level_values(C.lev[k]);
        p += 2 * level_values(C.lev[k]);
        for (int e = 0; e < 3; e++)
            B.id[k][e] = coarse_idiag<T>(C.lev[k], e);
        for (int s = 0; s < 4; s++) {
            B.bc[k][s] = p;
            p += s < 2 ? C.lev[k].ny : C.lev[k].nx;
            B.L[k].bc[s] = NULL;
        }
    }
    B.scratch = p;
}

template <typename T>
__global__ void __launch_bounds__(NT) coarse_cycle_kernel(grid_coarse C, T *__restrict__ u, const T *__restrict__ f)
{
    extern __shared__ double smem_d[];
    __shared__ blk<T> B;
    blk_setup<T>(C, B, (T *)smem_d);
    __syncthreads();
    /* the top: f, u (V_KEEP) and the faces' data into shared memory */
    const int n0 = C.lev[0].nx * C.lev[0].ny;
    for (int q = threadIdx.x; q < n0; q += NT) {
        B.f[0][q] = f[q];
        if (C.mode == HOMG_BLOCK_V_KEEP)
            B.u[0][q] = u[q];
    }
    coarse_load_faces<T>(C, B);
    __syncthreads();
    if (C.mode == HOMG_BLOCK_FMG)
        blk_fmg<T>(C, B);
    else
        blk_vcycle<T>(C, B, 0, C.mode == HOMG_BLOCK_V_ZERO);
    for (int q = threadIdx.x; q < n0; q += NT)
        u[q] = B.u[0][q];
}

template <typename T> static homg_status launch(kernel_exec *ex, const grid_coarse *C, void *u, const void *f)
{
    const size_t bytes = coarse_smem_values(*C) * sizeof(T);
    int dev = 0, max_optin = 0;
    HOMG_CUDA_TRY(ex, cudaGetDevice(&dev));
    HOMG_CUDA_TRY(ex, cudaDeviceGetAttribute(&max_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    if (bytes + sizeof(blk<T>) > (size_t)max_optin) /* the table is static shared memory */
        return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED,
                              "coarse_cycle: %d x %d levels need %zu bytes of shared memory (the device has %d)",
                              C->lev[0].nx, C->lev[0].ny, bytes, max_optin);
    if (bytes > 48 * 1024)
        HOMG_CUDA_TRY(
            ex, cudaFuncSetAttribute(coarse_cycle_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
    coarse_cycle_kernel<T><<<1, NT, bytes, homg_cuda_stream(ex)>>>(*C, (T *)u, (const T *)f);
    HOMG_CUDA_LAUNCHED(ex, "coarse_cycle_kernel");
    return HOMG_OK;
}

homg_status homg_cuda_grid_coarse_cluster(kernel_exec *ex, homg_precision p, const grid_coarse *C, int blocks, void *u,
                                          const void *f);

/* One block up to 64 x 64 cells (or when asked), a 16-block cluster above
 * (grid_coarse_cluster.cu): measured on the H100 (bench_coarse, V(2,2)), 64^2 takes
 * 26.6 us in one block and 31.6 in a cluster, 128^2 70.5 and 44.4. */
homg_status homg_cuda_grid_coarse_cycle(kernel_exec *ex, homg_precision p, const grid_coarse *C, void *u, const void *f)
{
    const size_t cells = C->nlev >= 1 ? level_values(C->lev[0]) : 0;
    const int blocks = C->cluster ? C->cluster : cells > 4096 ? HOMG_COARSE_CLUSTER_BLOCKS : 1;
    if (C->nlev < 1 || C->nlev > HOMG_COARSE_BLOCK_LEVELS || C->cluster < 0 ||
        cells > (blocks > 1 ? HOMG_COARSE_CLUSTER_MAX : HOMG_COARSE_BLOCK_MAX))
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "coarse_cycle: %d levels from %d x %d", C->nlev,
                              C->lev[0].nx, C->lev[0].ny);
    if (blocks > 1)
        return homg_cuda_grid_coarse_cluster(ex, p, C, blocks, u, f);
    return p == HOMG_FLOAT64 ? launch<double>(ex, C, u, f) : launch<float>(ex, C, u, f);
}
