/* island.cu -- CUDA twin of kernels/grid/island.c: the island labelling
 * (island_kernels.h). Roots hook by atomic min; counts per root use keyed sums. */
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include "core/cuda_check.h"
#include "island_point.h"
#include "keyed_sum.cuh"

#define NT  256
#define PER (ISLAND_SCAN_BLOCK / NT) /* cells per thread in count / number */

static unsigned stride_blocks(kernel_exec *ex, size_t n)
{
    size_t b = (n + NT - 1) / NT, cap = (size_t)ex->sm_count * 8;
    return (unsigned)(b < cap ? (b ? b : 1) : cap);
}
#define FOR_CELLS(c, n) for (size_t c = blockIdx.x * (size_t)NT + threadIdx.x; c < (n); c += (size_t)gridDim.x * NT)

/* label[c] = the first cell of c's run (island_run_continues) by the warp's ballot: the lanes are ISLAND_RUN
 * consecutive, aligned cells (NT and the stride are multiples of 32); every lane
 * runs each step, also past n, so the ballot sees the whole warp. */
__global__ void init_kernel(island_grid g, const unsigned char *flags, int *label, int *aux)
{
    const size_t n = island_cells(&g);
    const unsigned lane = threadIdx.x % ISLAND_RUN;
    for (size_t c = blockIdx.x * (size_t)NT + threadIdx.x; c - lane < n; c += (size_t)gridDim.x * NT) {
        const int a = c < n && island_active(flags, c);
        const unsigned below = ~__ballot_sync(0xFFFFFFFFu, a) & ((1u << lane) - 1u);
        const size_t s = c - lane + (below ? 32 - __clz(below) : 0), row = c - c % (size_t)g.nx;
        if (c >= n)
            continue;
        label[c] = a ? (int)(s > row ? s : row) : -1;
        aux[c] = 0;
    }
}

/* Labels are read with plain loads, cached in L1 (ld.ca): a hooking round that
 * hooks nothing cost 560 us at 2048^2 (ncu, H100, 2026-11-26) with volatile loads,
 * every cell's walk ending at one root's label in one L2 slice.  A stale label
 * read from L1 is still a valid pointer (labels only point to smaller cells of the
 * same tree, and trees only merge), so walks end and hooks stay inside an island;
 * L1 is invalidated between dependent launches, so each round starts from the
 * current labels, and the round that hooks nothing -- the one that ends the
 * iteration -- writes only halving links, which keep every tree whole.  With the
 * edge test below: rounds 223 / 79 / 78 us, set_operator 2.17 -> 0.87 ms (2048^2
 * discs, H100, 2026-11-26, bench/results/h100_gen3_s5.md). */
__device__ static int label_at(const int *label, int c) { return __ldca(label + c); }

/* island_root with path halving: each node on the way is pointed at its grandparent
 * (still an ancestor, a smaller index, same tree), so the chains a round of hooks
 * builds along a row (2048 links at 2048^2, walked by every later cell of the row:
 * 1.4 ms a round, ncu on the H100, 2026-11-26) shorten as they are walked.  A
 * halving store may overwrite a concurrent hook of a node that was a root when its
 * hooker read it; the lost link is found again next round (rounds repeat until
 * none hooks), and the final root of an island is still its smallest cell. */
__device__ static int root_halving(int *label, int c)
{
    for (;;) {
        int p = label_at(label, c), g;
        if (p == c)
            return c;
        g = label_at(label, p);
        if (g != p)
            label[c] = g;
        c = g;
    }
}

/* The first pointers of c and m equal: one tree, nothing to hook (after a compress,
 * every edge inside an island, without a walk to the root). */
__device__ static void hook_edge(int *label, int c, int pc, int *rc, int m, int *hooked)
{
    int rm;
    if (label_at(label, m) == pc)
        return;
    if (*rc < 0)
        *rc = root_halving(label, c);
    rm = root_halving(label, m);
    if (*rc == rm)
        return;
    atomicMin(label + (*rc > rm ? *rc : rm), *rc < rm ? *rc : rm);
    *rc = *rc < rm ? *rc : rm; /* c's root now, as the next axis must see it */
    *hooked = 1;
}

/* *changed is written once per block that hooked, not by every hooking thread. */
__global__ void hook_kernel(island_grid g, const unsigned char *flags, int *label, const int *go, int *changed)
{
    int hooked = 0;
    if (go && !*go) /* the last round hooked nothing */
        return;
    FOR_CELLS(c, island_cells(&g))
    {
        if (!island_active(flags, c))
            continue;
        int pc = label_at(label, (int)c), rc = -1;
        for (int a = 0; a < g.dims; a++) {
            size_t m;
            if (island_neighbour(&g, c, a, 1, &m) && island_active(flags, m))
                hook_edge(label, (int)c, pc, &rc, (int)m, &hooked);
        }
    }
    if (__syncthreads_or(hooked) && threadIdx.x == 0)
        *changed = 1;
}

__global__ void compress_kernel(size_t n, int *label, const int *go)
{
    if (go && !*go)
        return;
    FOR_CELLS(c, n)
    {
        int p = label_at(label, (int)c), r = p;
        if (p < 0)
            continue;
        for (int q; (q = label_at(label, r)) != r;)
            r = q;
        if (r != p)
            label[c] = r;
    }
}

/* A root's count and "not singular" bit, summed per key. */
struct count_bits {
    int n, bits;
};
__device__ static inline count_bits operator+(count_bits a, count_bits b) { return { a.n + b.n, a.bits | b.bits }; }
__device__ static inline count_bits keyed_shfl_down(count_bits v, int o)
{
    return { __shfl_down_sync(0xFFFFFFFFu, v.n, o), __shfl_down_sync(0xFFFFFFFFu, v.bits, o) };
}
struct count_flush {
    int *aux;
    __device__ void operator()(int r, count_bits v) const
    {
        atomicAdd(aux + r, v.n);
        if (v.bits)
            atomicOr(aux + r, ISLAND_NONSINGULAR);
    }
};

template <typename T>
__global__ void mark_kernel(island_grid g, const unsigned char *flags, const T *lam, double lambda, const int *label,
                            int *aux)
{
    const count_bits zero = { 0, 0 };
    keyed_sum<count_bits, count_flush> acc(count_flush{ aux }, zero);
    FOR_CELLS(c, island_cells(&g))
    {
        int r = label[c];
        if (r < 0)
            continue;
        double l = lam ? (double)lam[c] : lambda;
        acc.add(r, count_bits{ 1, l != 0 || island_cell_fixes(&g, flags, c) }, zero);
    }
    acc.finish(zero);
}

typedef cub::BlockReduce<int, NT> block_reduce;
typedef cub::BlockScan<int, NT> block_scan;

/* Singular roots among this thread's PER consecutive cells of block b. */
__device__ static int thread_roots(size_t n, const int *label, const int *aux, size_t c0)
{
    int k = 0;
    for (size_t c = c0; c < c0 + PER && c < n; c++)
        k += island_singular_root(label, aux, c);
    return k;
}

__global__ void block_count_kernel(size_t n, const int *label, const int *aux, int *bsum)
{
    __shared__ typename block_reduce::TempStorage tmp;
    size_t c0 = (size_t)blockIdx.x * ISLAND_SCAN_BLOCK + (size_t)threadIdx.x * PER;
    int total = block_reduce(tmp).Sum(thread_roots(n, label, aux, c0));
    if (threadIdx.x == 0)
        bsum[blockIdx.x] = total;
}

/* One block: bsum[0..nb) from counts to exclusive prefix sums; *total = the sum. */
__global__ void scan_blocks_kernel(int nb, int *bsum, int *total)
{
    __shared__ typename block_scan::TempStorage tmp;
    int per = (nb + NT - 1) / NT, b0 = threadIdx.x * per, sum = 0, before, all;
    for (int b = b0; b < b0 + per && b < nb; b++)
        sum += bsum[b];
    block_scan(tmp).ExclusiveSum(sum, before, all);
    for (int b = b0; b < b0 + per && b < nb; b++) {
        int k = bsum[b];
        bsum[b] = before;
        before += k;
    }
    if (threadIdx.x == 0)
        *total = all;
}

__global__ void number_kernel(size_t n, const int *label, const int *aux, const int *bsum, int *ids, double *inv)
{
    __shared__ typename block_scan::TempStorage tmp;
    size_t c0 = (size_t)blockIdx.x * ISLAND_SCAN_BLOCK + (size_t)threadIdx.x * PER;
    int id;
    block_scan(tmp).ExclusiveSum(thread_roots(n, label, aux, c0), id);
    id += bsum[blockIdx.x];
    for (size_t c = c0; c < c0 + PER && c < n; c++)
        if (island_singular_root(label, aux, c)) {
            ids[c] = id;
            inv[id++] = 1.0 / (double)(aux[c] & ISLAND_COUNT_MASK);
        }
}

__global__ void relabel_kernel(size_t n, const int *aux, const int *ids, int *label)
{
    FOR_CELLS(c, n)
    {
        int r = label[c];
        label[c] = r >= 0 && !(aux[r] & ISLAND_NONSINGULAR) ? ids[r] : -1;
    }
}

static unsigned scan_blocks(size_t n) { return (unsigned)((n + ISLAND_SCAN_BLOCK - 1) / ISLAND_SCAN_BLOCK); }

extern "C" homg_status homg_cuda_island_init(kernel_exec *ex, const island_grid *g, const unsigned char *flags,
                                             int *label, int *aux)
{
    init_kernel<<<stride_blocks(ex, island_cells(g)), NT, 0, homg_cuda_stream(ex)>>>(*g, flags, label, aux);
    HOMG_CUDA_LAUNCHED(ex, "island init_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_island_hook(kernel_exec *ex, const island_grid *g, const unsigned char *flags,
                                             int *label, const int *go, int *changed)
{
    hook_kernel<<<stride_blocks(ex, island_cells(g)), NT, 0, homg_cuda_stream(ex)>>>(*g, flags, label, go, changed);
    HOMG_CUDA_LAUNCHED(ex, "island hook_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_island_compress(kernel_exec *ex, size_t n, int *label, const int *go)
{
    compress_kernel<<<stride_blocks(ex, n), NT, 0, homg_cuda_stream(ex)>>>(n, label, go);
    HOMG_CUDA_LAUNCHED(ex, "island compress_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_island_mark(kernel_exec *ex, homg_precision p, const island_grid *g,
                                             const unsigned char *flags, const void *lambda_cell, double lambda,
                                             const int *label, int *aux)
{
    unsigned b = stride_blocks(ex, island_cells(g));
    if (p == HOMG_FLOAT64)
        mark_kernel<double>
            <<<b, NT, 0, homg_cuda_stream(ex)>>>(*g, flags, (const double *)lambda_cell, lambda, label, aux);
    else
        mark_kernel<float>
            <<<b, NT, 0, homg_cuda_stream(ex)>>>(*g, flags, (const float *)lambda_cell, lambda, label, aux);
    HOMG_CUDA_LAUNCHED(ex, "island mark_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_island_count(kernel_exec *ex, size_t n, const int *label, const int *aux, int *bsum,
                                              int *total)
{
    block_count_kernel<<<scan_blocks(n), NT, 0, homg_cuda_stream(ex)>>>(n, label, aux, bsum);
    HOMG_CUDA_LAUNCHED(ex, "island block_count_kernel");
    scan_blocks_kernel<<<1, NT, 0, homg_cuda_stream(ex)>>>((int)scan_blocks(n), bsum, total);
    HOMG_CUDA_LAUNCHED(ex, "island scan_blocks_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_island_number(kernel_exec *ex, size_t n, const int *label, const int *aux,
                                               const int *bsum, int *ids, double *inv)
{
    number_kernel<<<scan_blocks(n), NT, 0, homg_cuda_stream(ex)>>>(n, label, aux, bsum, ids, inv);
    HOMG_CUDA_LAUNCHED(ex, "island number_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_island_relabel(kernel_exec *ex, size_t n, const int *aux, const int *ids, int *label)
{
    relabel_kernel<<<stride_blocks(ex, n), NT, 0, homg_cuda_stream(ex)>>>(n, aux, ids, label);
    HOMG_CUDA_LAUNCHED(ex, "island relabel_kernel");
    return HOMG_OK;
}

extern "C" const island_kernels homg_cuda_island_kernels = { .name = "cuda", ISLAND_KERNELS(HOMG_KERNEL_CUDA_INIT) };
