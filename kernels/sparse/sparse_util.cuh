/* sparse_util.cuh -- what the CUDA files of the sparse, Krylov and AMG tables
 * share: the library handles, launch sizes, block reductions and the "miniwarp" row products of seed 001
 * (a group of G lanes per CSR row, G near the mean row length). */
#ifndef HOMG_SPARSE_UTIL_CUH
#define HOMG_SPARSE_UTIL_CUH

#include <stdint.h>

#include "core/cuda_check.h"
#include "sparse_kernels.h"

#define HOMG_THREADS    256
#define HOMG_MAX_BLOCKS 1024 /* grid-stride kernels with reductions: partial sums per block */
#define HOMG_PARTIALS   4    /* values a reduction kernel leaves per block */

/* cuSPARSE, cuSOLVER, a scratch area (cub temporaries) and the partial sums of
 * the CG reductions; all memory through the ctx's allocator. */
typedef struct sparse_handle {
    kernel_alloc alloc;
    cusparseHandle_t sparse;
    cusolverDnHandle_t solver;
    void *scratch;
    size_t scratch_bytes;
    double *partials; /* HOMG_MAX_BLOCKS * HOMG_PARTIALS */
} sparse_handle;

/* Grid-stride loop over rows 0 .. n-1, one thread per row. */
#define FOR_ROWS(i, n) for (int32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += gridDim.x * blockDim.x)

/* Blocks for n elements, one per thread (grid-stride beyond `cap` blocks). */
static inline unsigned launch_blocks(int64_t n, int64_t cap = 1 << 20)
{
    int64_t b = (n + HOMG_THREADS - 1) / HOMG_THREADS;
    if (b < 1)
        b = 1;
    return (unsigned)(b > cap ? cap : b);
}

/* Memory through the handle's allocator, message in ex on failure. */
static inline homg_status handle_alloc(kernel_exec *ex, sparse_handle *h, size_t bytes, void **p, const char *what)
{
    homg_status st;
    *p = NULL;
    if (!bytes)
        return HOMG_OK;
    st = h->alloc.alloc(bytes, p, h->alloc.user);
    if (st != HOMG_OK)
        return homg_exec_fail(ex, st, "%s: allocating %zu bytes of device memory", what, bytes);
    return HOMG_OK;
}

static inline void handle_free(sparse_handle *h, void *p)
{
    if (p)
        h->alloc.free(p, h->alloc.user);
}

/* The scratch area, at least `bytes` large (set-up only: it may reallocate). */
static inline homg_status handle_scratch(kernel_exec *ex, sparse_handle *h, size_t bytes, void **p)
{
    if (bytes > h->scratch_bytes) {
        handle_free(h, h->scratch);
        h->scratch = NULL;
        h->scratch_bytes = 0;
        HOMG_TRY(handle_alloc(ex, h, bytes, &h->scratch, "scratch"));
        h->scratch_bytes = bytes;
    }
    *p = h->scratch;
    return HOMG_OK;
}

/* Sum over a block (blockDim.x a multiple of 32, at most 1024); the result in
 * thread 0.  Deterministic: a fixed tree. */
__device__ static inline double block_sum(double v)
{
    __shared__ double warp_sums[32];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xFFFFFFFFu, v, o);
    __syncthreads(); /* warp_sums may still be read by a previous call */
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();
    v = 0;
    if (warp == 0) {
        int nw = (blockDim.x + 31) >> 5;
        v = lane < nw ? warp_sums[lane] : 0.0;
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xFFFFFFFFu, v, o);
    }
    return v;
}

__device__ static inline int block_count(int v) { return (int)block_sum((double)v); }

/* Sum and maximum over a group of G lanes (G a power of two <= 32, groups
 * aligned in the warp); every lane of the group gets the result.  Every lane
 * of the warp must call them (the shuffles). */
template <int G, typename T> __device__ static inline T group_sum(T v)
{
    for (int o = G / 2; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xFFFFFFFFu, v, o, G);
    return v;
}

template <int G, typename T> __device__ static inline T group_max(T v)
{
    for (int o = G / 2; o > 0; o >>= 1) {
        T w = __shfl_xor_sync(0xFFFFFFFFu, v, o, G);
        v = w > v ? w : v;
    }
    return v;
}

/* Sum of a_row . x over one CSR row by a group of G lanes (G a power of two
 * <= 32, groups aligned in the warp); every lane of the group gets the sum.
 * Every lane of the warp must call it (the shuffles); rows >= nrows give 0. */
template <int G, typename T, typename V>
__device__ static inline T row_dot(const int32_t *row_ptr, const int32_t *col, const T *val, const V *x, int32_t row,
                                   int32_t nrows, int lane)
{
    T s = 0;
    if (row < nrows)
        for (int32_t k = row_ptr[row] + lane; k < row_ptr[row + 1]; k += G)
            s += val[k] * (T)x[col[k]];
    return group_sum<G>(s);
}

/* Lanes per row for a matrix of this mean row length. */
static inline int row_group_size(int64_t nnz, int64_t rows)
{
    int64_t mean = rows > 0 ? nnz / rows : 1;
    int g = 1;
    while (g < 32 && g < mean)
        g <<= 1;
    return g;
}

/* Lanes per row for the AMG set-up's row passes: one (a thread per row) where
 * rows average under 12 entries, else row_group_size.  On the H100 at 128^3
 * lane groups won 1-2 ms each on A (15 entries a row: Lanczos, couplings,
 * symmetry check) and lost on the strength graph (under 8: the MIS maximum,
 * aggregation 3.6 -> 5.5 ms; bench/results/h100_amg_setup.md). */
static inline int row_lanes(int64_t nnz, int64_t rows)
{
    return rows > 0 && nnz < 12 * rows ? 1 : row_group_size(nnz, rows);
}

/* Blocks of HOMG_THREADS for `rows` rows, G lanes each. */
static inline unsigned row_group_blocks(int64_t rows, int g)
{
    int64_t b = (rows * g + HOMG_THREADS - 1) / HOMG_THREADS;
    return (unsigned)(b < 1 ? 1 : b);
}

/* Runs LAUNCH(G) for G = g, one of the six compiled group sizes; the caller
 * defines LAUNCH(G) as its kernel<G, ...><<<...>>>(...) launch. */
#define HOMG_GROUP_SWITCH(g, LAUNCH) \
    do {                             \
        switch (g) {                 \
        case 1: LAUNCH(1); break;    \
        case 2: LAUNCH(2); break;    \
        case 4: LAUNCH(4); break;    \
        case 8: LAUNCH(8); break;    \
        case 16: LAUNCH(16); break;  \
        default: LAUNCH(32); break;  \
        }                            \
    } while (0)

#endif
