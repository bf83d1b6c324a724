/* grid_coarse_cluster.cu -- coarse_cycle on a thread-block cluster (twin:
 * kernels/grid/grid_coarse.c; the one-block version is grid_coarse.cu).  Up to
 * HOMG_COARSE_CLUSTER_BLOCKS blocks of 1024 threads, one per SM, share the levels
 * through distributed shared memory: block b owns a band of rows of every level
 * that is split (the leading levels with more than HOMG_COARSE_SOLO_CELLS cells and
 * at least two rows per block), reads its neighbours' edge rows from their shared
 * memory, and the cluster synchronises after each half-sweep, restriction and
 * prolongation; the small levels below live in block 0 alone (__syncthreads).
 * The per-point formulas and their order are those of grid_coarse.cu (so the
 * CPU twin and tests/test_grid_gpu's coarse_cycle comparisons cover both).
 *
 * The bands: level S-1 (the last split one) has its rows cut into pairs, block b
 * getting pairs [p0[b], p0[b+1]); level k < S-1 the same rows scaled by 2^(S-1-k),
 * so a coarse row and its two children always sit in one block.  Every block
 * carves its shared memory the same way (bands sized for the largest), so a
 * neighbour's row is the same offset mapped to its rank.
 *
 * Measured on the H100 (bench/results/h100.md, section s8-cluster): it beats one
 * block from 128^2 up (44.4 against 70.5 us per V(2,2) launch) but not the levels'
 * separate launches (63.8 us per 256^2 V-cycle against ~40): every barrier-separated
 * step costs >= 1.1 us however little a block does, and a V(2,2) cycle over three
 * split levels has 30 of them plus the exact solve on one SM (5.8 us).  So the box
 * leaves it off (lib/grid/box.c, block_top). */
#include <cooperative_groups.h>

#include "core/cuda_check.h"
#include "grid_coarse.cuh"
#include "grid_exact.cuh"
#include "grid_point.cuh"

namespace cg = cooperative_groups;

#define NT 1024
#define CE HOMG_COARSE_EXACT_MAX
#define LV HOMG_COARSE_BLOCK_LEVELS
#define CB HOMG_COARSE_CLUSTER_BLOCKS

/* The split, planned on the host. */
struct clu_plan {
    int blocks, split; /* cluster size; levels 0 .. split-1 are split */
    int most;          /* the largest band of level split-1, in pairs of rows */
    int p0[CB + 1];    /* block b's first pair of rows of level split-1 */
};

/* Rows of level k (< split) that the pairs [a, b) of level split-1 stand for. */
static __host__ __device__ int band_row(const clu_plan &P, int k, int pair) { return (2 * pair) << (P.split - 1 - k); }

static __host__ __device__ size_t stored_rows(const clu_plan &P, const grid_level &L, int k)
{
    return k < P.split ? (size_t)band_row(P, k, P.most) : (size_t)L.ny;
}

/* Values of shared memory each block carves (same order as clu_setup). */
static __host__ __device__ size_t clu_smem_values(const grid_coarse &C, const clu_plan &P)
{
    size_t v = 0;
    for (int k = 0; k < C.nlev; k++)
        v += 2 * stored_rows(P, C.lev[k], k) * C.lev[k].nx + 2 * (size_t)(C.lev[k].nx + C.lev[k].ny);
    if (C.qx)
        v += 4 * CE * (CE + 1);
    return v;
}

/* A block's table (static shared memory, filled by thread 0).  u[k], f[k] point
 * at stored row s0[k] of level k: the block's own band on split levels, block 0's
 * whole level (mapped) on the others; up / dn: the neighbours' edge rows. */
template <typename T> struct clu {
    grid_level L[LV];
    T *u[LV], *f[LV], *bc[LV][4];
    const T *up[LV], *dn[LV];
    T id[LV][3];
    int r0[LV], r1[LV], s0[LV];
    T *scratch;
    int split;
    long long *clock; /* grid_coarse.clock: marks of block 0 */
    int marks;
};

/* Benchmarks: block 0's thread 0 writes (clock64, what) at the start of each op,
 * what = 16 * level + kind (MARK_*), after their count in clock[0]; at most MARKS. */
enum { MARK_SWEEP = 0, MARK_RESTRICT, MARK_PROLONG, MARK_BOTTOM, MARK_ZERO, MARK_START, MARK_END };
#define MARKS 4000

template <typename T> __device__ __forceinline__ void c_mark(const clu<T> &B, int k, int kind)
{
    if (B.clock && threadIdx.x == 0 && cg::this_cluster().block_rank() == 0 && B.marks < MARKS) {
        clu<T> &W = const_cast<clu<T> &>(B); /* thread 0 of block 0 alone */
        W.clock[1 + 2 * W.marks] = clock64();
        W.clock[2 + 2 * W.marks] = 16 * k + kind;
        W.marks++;
    }
}

__device__ __forceinline__ int c_ilog2(int n) { return 31 - __clz(n); }

/* Barriers: an op on a split level runs in every block and ends with a cluster
 * barrier; on a small level block 0 runs it and ends with __syncthreads.  Going
 * from a small level back to a split one, the cluster waits for block 0 first.
 * `prev` (uniform over the cluster) says whether the last op was split. */
template <typename T> __device__ __forceinline__ bool op_begin(const clu<T> &B, int &prev, bool split, int k, int kind)
{
    if (split) {
        if (!prev)
            cg::this_cluster().sync();
        prev = 1;
    } else {
        prev = 0;
        if (cg::this_cluster().block_rank() != 0)
            return false;
    }
    c_mark(B, k, kind);
    return true;
}

__device__ __forceinline__ void op_end(bool split)
{
    if (split)
        cg::this_cluster().sync();
    else
        __syncthreads();
}

/* Row j of level k's u, for j in [r0 - 1, r1] (a neighbour's edge row outside the band). */
template <typename T> __device__ __forceinline__ const T *c_row(const clu<T> &B, int k, int j)
{
    if (j < B.r0[k])
        return B.up[k];
    if (j >= B.r1[k])
        return B.dn[k];
    return B.u[k] + (j - B.s0[k]) * B.L[k].nx;
}

/* `sweeps` red-black sweeps on level k, in place; zero: from u = 0 (the first
 * half-sweep then sees only zero neighbours, so it writes f * d^-1 and 0, exactly
 * what a zeroing pass followed by that half-sweep gives). */
template <typename T> __device__ void c_smooth(const clu<T> &B, int k, int sweeps, bool zero, int &prev)
{
    const grid_level &L = B.L[k];
    const bool sp = k < B.split;
    const int nx = L.nx, ny = L.ny, lh = c_ilog2(nx) - 1, r0 = B.r0[k], r1 = B.r1[k], rows = r1 - r0;
    T *u = B.u[k] + (r0 - B.s0[k]) * nx;
    const T *f = B.f[k] + (r0 - B.s0[k]) * nx, *up = B.up[k], *dn = B.dn[k];
    const T ih2 = (T)L.inv_h2, id0 = B.id[k][0], id1 = B.id[k][1], id2 = B.id[k][2];
    if (zero && sweeps == 0) {
        if (op_begin(B, prev, sp, k, MARK_ZERO)) {
            for (int q = threadIdx.x; q < rows * nx; q += NT)
                u[q] = (T)0;
            op_end(sp);
        }
        return;
    }
    for (int s = 0; s < 2 * sweeps; s++) {
        if (!op_begin(B, prev, sp, k, MARK_SWEEP))
            continue;
        const int colour = s & 1;
        if (zero && s == 0) {
            for (int q = threadIdx.x; q < rows * nx; q += NT) {
                const int jl = q / nx, i = q - jl * nx, j = r0 + jl;
                T v = (T)0;
                if (((i + j) & 1) == 0) {
                    T rhs = f[q] + ih2 * (T)0, id = id0;
                    const int e = homg_edges_touched(i, j, nx, ny);
                    if (e) {
                        rhs += (T)bterm_at<T>(L, i, j);
                        id = e == 1 ? id1 : id2;
                    }
                    v = rhs * id;
                }
                u[q] = v;
            }
        } else {
            for (int q = threadIdx.x; q < rows * nx / 2; q += NT) {
                const int jl = q >> lh, j = r0 + jl, i = ((q - (jl << lh)) << 1) | ((j + colour) & 1), kk = jl * nx + i;
                const T *rm = jl > 0 ? u + kk - nx : up + i, *rp = jl < rows - 1 ? u + kk + nx : dn + i;
                const T nb = ((i > 0 ? u[kk - 1] : (T)0) + (i < nx - 1 ? u[kk + 1] : (T)0)) +
                             ((j > 0 ? *rm : (T)0) + (j < ny - 1 ? *rp : (T)0));
                T rhs = f[kk] + ih2 * nb, id = id0;
                const int e = homg_edges_touched(i, j, nx, ny);
                if (e) {
                    rhs += (T)bterm_at<T>(L, i, j);
                    id = e == 1 ? id1 : id2;
                }
                u[kk] = rhs * id;
            }
        }
        op_end(sp);
    }
}

/* f + bterm - A u at (i, j), rows j-1, j, j+1 of u given (grid_coarse.cu's blk_res). */
template <typename T>
__device__ __forceinline__ T c_res(const grid_level &L, const T *um, const T *u, const T *upl, const T *f, int i, int j,
                                   bool with_u)
{
    const int nx = L.nx, ny = L.ny;
    T r = f[i];
    if (with_u && homg_edges_touched(i, j, nx, ny))
        r += (T)bterm_at<T>(L, i, j);
    if (with_u) {
        const T c = u[i];
        const T d = ((i > 0 ? u[i - 1] - c : -2 * c) + (i < nx - 1 ? u[i + 1] - c : -2 * c)) +
                    ((j > 0 ? um[i] - c : -2 * c) + (j < ny - 1 ? upl[i] - c : -2 * c));
        r += (T)L.inv_h2 * d - (T)L.lambda * c;
    }
    return r;
}

/* f_{k+1} = R (f_k + bterm - A u_k) on the coarse rows of this block's band;
 * with_u false: u = 0 and no face data.  own_next: the next op reads only this
 * block's rows of level k+1 (a sweep from zero, or the next restriction of f
 * alone), so when level k+1 is split the block waits for itself alone. */
template <typename T> __device__ void c_restrict(const clu<T> &B, int k, bool with_u, bool own_next, int &prev)
{
    const bool sp = k < B.split;
    if (!op_begin(B, prev, sp, k, MARK_RESTRICT))
        return;
    const grid_level &L = B.L[k];
    const int nx = L.nx, ncx = nx / 2, lc = c_ilog2(ncx), r0 = B.r0[k], n = ncx * ((B.r1[k] - r0) / 2);
    T *fc = B.f[k + 1] + (r0 / 2 - B.s0[k + 1]) * ncx;
    for (int q = threadIdx.x; q < n; q += NT) {
        const int Jl = q >> lc, I = q - (Jl << lc), j = r0 + 2 * Jl;
        const T *a = c_row(B, k, j - 1), *b = c_row(B, k, j), *c = c_row(B, k, j + 1), *d = c_row(B, k, j + 2);
        const T *f0 = B.f[k] + (j - B.s0[k]) * nx, *f1 = f0 + nx;
        T s = (c_res<T>(L, a, b, c, f0, 2 * I, j, with_u) + c_res<T>(L, a, b, c, f0, 2 * I + 1, j, with_u)) +
              (c_res<T>(L, b, c, d, f1, 2 * I, j + 1, with_u) + c_res<T>(L, b, c, d, f1, 2 * I + 1, j + 1, with_u));
        fc[Jl * ncx + I] = (T)0.25 * s;
    }
    op_end(sp && !(own_next && k + 1 < B.split));
}

/* u_k (+)= P u_{k+1} on this block's band */
template <typename T> __device__ void c_prolong(const clu<T> &B, int k, int assign, int &prev)
{
    const bool sp = k < B.split;
    if (!op_begin(B, prev, sp, k, MARK_PROLONG))
        return;
    const int nx = B.L[k].nx, lx = c_ilog2(nx), r0 = B.r0[k], n = nx * (B.r1[k] - r0), ncx = nx / 2,
              ncy = B.L[k].ny / 2;
    T *u = B.u[k] + (r0 - B.s0[k]) * nx;
    for (int q = threadIdx.x; q < n; q += NT) {
        const int jl = q >> lx, i = q - (jl << lx), j = r0 + jl;
        const int I = i >> 1, J = j >> 1;
        int a = I + ((i & 1) ? 1 : -1), b = J + ((j & 1) ? 1 : -1);
        const T sx = (T)homg_reflect(&a, ncx), sy = (T)homg_reflect(&b, ncy);
        const T *e0 = c_row(B, k + 1, J), *e1 = c_row(B, k + 1, b);
        const T e = (T)0.5625 * e0[I] + (T)0.1875 * (sx * e0[a] + sy * e1[I]) + (T)0.0625 * (sx * sy * e1[a]);
        u[q] = assign ? e : u[q] + e;
    }
    op_end(sp);
}

/* The coarsest level (never split), in block 0. */
template <typename T> __device__ void c_bottom(const grid_coarse &C, const clu<T> &B, int &prev)
{
    const int last = C.nlev - 1;
    if (!C.qx) {
        c_smooth<T>(B, last, C.bottom_sweeps, true, prev);
        return;
    }
    if (!op_begin(B, prev, false, last, MARK_BOTTOM))
        return;
    T(*sx)[CE + 1] = (T(*)[CE + 1]) B.scratch;
    coarse_exact_block<T>(B.L[last], B.u[last], B.f[last], (const T *)C.qx, (const T *)C.qy, (const T *)C.inv_eig, sx,
                          sx + CE, sx + 2 * CE, sx + 3 * CE, threadIdx.x % CE, threadIdx.x / CE);
}

template <typename T> __device__ void c_vcycle(const grid_coarse &C, const clu<T> &B, int k0, bool zero, int &prev)
{
    const int last = C.nlev - 1;
    for (int k = k0; k < last; k++) {
        c_smooth<T>(B, k, C.pre, k > k0 || zero, prev);
        c_restrict<T>(B, k, true, C.pre > 0, prev);
    }
    c_bottom<T>(C, B, prev);
    for (int k = last - 1; k >= k0; k--) {
        c_prolong<T>(B, k, 0, prev);
        c_smooth<T>(B, k, C.post, false, prev);
    }
}

template <typename T> __device__ void c_fmg(const grid_coarse &C, clu<T> &B, int &prev)
{
    const int last = C.nlev - 1;
    for (int k = 0; k < last; k++) {
        c_restrict<T>(B, k, false, true, prev);
        coarse_restrict_faces<T>(B, k); /* every block into its own copy */
    }
    c_bottom<T>(C, B, prev);
    for (int k = last - 1; k >= 0; k--) {
        __syncthreads(); /* no thread still reads them */
        coarse_clear_bc(B, k + 1, C.nlev);
        c_prolong<T>(B, k, 1, prev);
        c_smooth<T>(B, k, C.pre, false, prev);
        c_restrict<T>(B, k, true, C.pre > 0, prev);
        c_vcycle<T>(C, B, k + 1, true, prev);
        c_prolong<T>(B, k, 0, prev);
        c_smooth<T>(B, k, C.post, false, prev);
    }
}

/* Thread 0 carves shared memory (the order of clu_smem_values), fills the table and
 * maps the neighbours' rows; the unrolled loop keeps the parameter's indices constant. */
template <typename T> __device__ void clu_setup(const grid_coarse &C, const clu_plan &P, clu<T> &B, T *p)
{
    if (threadIdx.x != 0)
        return;
    cg::cluster_group cl = cg::this_cluster();
    const int b = (int)cl.block_rank();
    const int pa = P.p0[b], pb = P.p0[b + 1], pprev = b > 0 ? P.p0[b - 1] : 0;
    B.split = P.split;
    B.clock = C.clock;
    B.marks = 0;
#pragma unroll
    for (int k = 0; k < LV; k++) {
        if (k >= C.nlev)
            break;
        const int nx = C.lev[k].nx;
        const size_t stored = stored_rows(P, C.lev[k], k) * nx;
        B.L[k] = C.lev[k];
        B.u[k] = p;
        B.f[k] = p + stored;
        B.up[k] = B.dn[k] = NULL;
        if (k < P.split) {
            B.r0[k] = B.s0[k] = band_row(P, k, pa);
            B.r1[k] = band_row(P, k, pb);
            if (b > 0) /* the previous block's last row */
                B.up[k] = cl.map_shared_rank(p, b - 1) + (size_t)(band_row(P, k, pa - pprev) - 1) * nx;
            if (b + 1 < P.blocks)
                B.dn[k] = cl.map_shared_rank(p, b + 1);
        } else if (b > 0) { /* block 0's whole level (its own pointers stay local) */
            B.u[k] = cl.map_shared_rank(p, 0);
            B.f[k] = cl.map_shared_rank(p + stored, 0);
        }
        if (k >= P.split) {
            B.r0[k] = B.s0[k] = 0;
            B.r1[k] = C.lev[k].ny;
        }
        p += 2 * stored;
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
__global__ void __launch_bounds__(NT)
    coarse_cluster_kernel(grid_coarse C, clu_plan P, T *__restrict__ u, const T *__restrict__ f)
{
    extern __shared__ double smem_d[];
    __shared__ clu<T> B;
    int prev = 1;
    clu_setup<T>(C, P, B, (T *)smem_d);
    __syncthreads();
    /* this block's band of the top: f, u (V_KEEP); the faces' data whole */
    const int nx = C.lev[0].nx, r0 = B.r0[0], n0 = (B.r1[0] - r0) * nx;
    for (int q = threadIdx.x; q < n0; q += NT) {
        B.f[0][q] = f[(size_t)r0 * nx + q];
        if (C.mode == HOMG_BLOCK_V_KEEP)
            B.u[0][q] = u[(size_t)r0 * nx + q];
    }
    coarse_load_faces<T>(C, B);
    cg::this_cluster().sync(); /* every block's table and top filled before any remote read */
    c_mark(B, 0, MARK_START);
    if (C.mode == HOMG_BLOCK_FMG)
        c_fmg<T>(C, B, prev);
    else
        c_vcycle<T>(C, B, 0, C.mode == HOMG_BLOCK_V_ZERO, prev);
    for (int q = threadIdx.x; q < n0; q += NT)
        u[(size_t)r0 * nx + q] = B.u[0][q];
    c_mark(B, 0, MARK_END);
    if (B.clock && threadIdx.x == 0 && cg::this_cluster().block_rank() == 0)
        B.clock[0] = B.marks;
}

/* The split for `blocks` blocks: levels with more than solo_cells cells
 * and at least one pair of rows per block (never the coarsest); 0 if none. */
static int clu_make_plan(const grid_coarse *C, int blocks, clu_plan *P)
{
    const long solo = C->solo_cells > 0 ? C->solo_cells : HOMG_COARSE_SOLO_CELLS;
    int split = 0;
    while (split < C->nlev - 1 && (long)C->lev[split].nx * C->lev[split].ny > solo && C->lev[split].ny / 2 >= blocks &&
           C->lev[split].nx >= 2)
        split++;
    if (split == 0 || blocks < 2)
        return 0;
    const int pairs = C->lev[split - 1].ny / 2;
    P->blocks = blocks;
    P->split = split;
    P->most = 0;
    for (int b = 0; b <= blocks; b++)
        P->p0[b] = (int)((long)b * pairs / blocks);
    for (int b = 0; b < blocks; b++)
        if (P->p0[b + 1] - P->p0[b] > P->most)
            P->most = P->p0[b + 1] - P->p0[b];
    return 1;
}

template <typename T>
static homg_status clu_launch(kernel_exec *ex, const grid_coarse *C, int blocks, void *u, const void *f)
{
    clu_plan P;
    int dev = 0, max_optin = 0, clusters = 0;
    HOMG_CUDA_TRY(ex, cudaGetDevice(&dev));
    HOMG_CUDA_TRY(ex, cudaDeviceGetAttribute(&max_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    HOMG_CUDA_TRY(ex,
                  cudaFuncSetAttribute(coarse_cluster_kernel<T>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    for (; blocks >= 2; blocks /= 2) { /* the largest cluster the device schedules */
        if (!clu_make_plan(C, blocks, &P))
            continue;
        const size_t bytes = clu_smem_values(*C, P) * sizeof(T);
        if (bytes + sizeof(clu<T>) > (size_t)max_optin)
            continue;
        cudaLaunchConfig_t cfg = {};
        cudaLaunchAttribute attr[1];
        HOMG_CUDA_TRY(ex, cudaFuncSetAttribute(coarse_cluster_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               (int)bytes));
        attr[0].id = cudaLaunchAttributeClusterDimension;
        attr[0].val.clusterDim.x = (unsigned)blocks;
        attr[0].val.clusterDim.y = 1;
        attr[0].val.clusterDim.z = 1;
        cfg.gridDim = dim3((unsigned)blocks);
        cfg.blockDim = dim3(NT);
        cfg.dynamicSmemBytes = bytes;
        cfg.stream = homg_cuda_stream(ex);
        cfg.attrs = attr;
        cfg.numAttrs = 1;
        if (cudaOccupancyMaxActiveClusters(&clusters, coarse_cluster_kernel<T>, &cfg) != cudaSuccess) {
            (void)cudaGetLastError(); /* no answer: try the launch */
            clusters = 1;
        }
        if (clusters < 1)
            continue;
        HOMG_CUDA_TRY(ex, cudaLaunchKernelEx(&cfg, coarse_cluster_kernel<T>, *C, P, (T *)u, (const T *)f));
        HOMG_CUDA_LAUNCHED(ex, "coarse_cluster_kernel");
        return HOMG_OK;
    }
    return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED,
                          "coarse_cycle: %d x %d levels fit no cluster of this device (%d bytes of shared memory)",
                          C->lev[0].nx, C->lev[0].ny, max_optin);
}

/* Called by homg_cuda_grid_coarse_cycle (grid_coarse.cu) for blocks >= 2. */
homg_status homg_cuda_grid_coarse_cluster(kernel_exec *ex, homg_precision p, const grid_coarse *C, int blocks, void *u,
                                          const void *f);

homg_status homg_cuda_grid_coarse_cluster(kernel_exec *ex, homg_precision p, const grid_coarse *C, int blocks, void *u,
                                          const void *f)
{
    if (blocks > CB)
        blocks = CB;
    return p == HOMG_FLOAT64 ? clu_launch<double>(ex, C, blocks, u, f) : clu_launch<float>(ex, C, blocks, u, f);
}
