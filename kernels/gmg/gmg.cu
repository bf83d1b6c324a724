/* gmg.cu -- CUDA backend of the GMG table (twin of gmg.c): ELLPACK-R product
 * with `lanes` threads per row (seed 004's ELLPACK-T), SPAI(0) and the SPAI
 * scaling one row per thread (SPAI-1: spai1.cu), Richardson updates. */
#include "sparse/sparse_util.cuh"
#include "ell.h"
#include "lcg.h"
#include "mirror.h"
#include "spai.h"
#include "tagval.h"

#include <stdlib.h>

/* Row `row`'s sum (A x)_row over its group of G lanes, in every lane of the
 * group (rows past n: 0); the warp's trip count is uniform (shuffles). */
template <int G>
__device__ static double ell_row_sum(int32_t n, const int32_t *__restrict__ col, const double *__restrict__ val,
                                     const int32_t *__restrict__ rl, const double *__restrict__ x, int32_t row,
                                     int lane)
{
    double s = 0;
    if (row < n) {
        int32_t len = rl[row];
        for (int32_t k = lane; k < len; k += G) {
            size_t at = (size_t)k * n + row;
            s += val[at] * __ldg(x + col[at]);
        }
    }
    for (int o = G / 2; o > 0; o >>= 1)
        s += __shfl_xor_sync(0xFFFFFFFFu, s, o, G);
    return s;
}

/* Groups of G lanes per row. */
template <int G>
__global__ static void ell_kernel(int32_t n, const int32_t *__restrict__ col, const double *__restrict__ val,
                                  const int32_t *__restrict__ rl, const double *__restrict__ x, const double *z,
                                  double *y, double alpha, double beta)
{
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int32_t row = (int32_t)(t / G);
    int lane = (int)(t & (G - 1));
    double s = ell_row_sum<G>(n, col, val, rl, x, row, lane);
    if (row < n && lane == 0)
        y[row] = beta != 0 ? alpha * s + beta * z[row] : alpha * s;
}

homg_status homg_cuda_gmg_ell_spmv(kernel_exec *ex, const ell_matrix *a, const double *x, double *y, double alpha,
                                   double beta)
{
    cudaStream_t s = homg_cuda_stream(ex);
    if (a->nrows == 0)
        return HOMG_OK;
#define LAUNCH(G) \
    ell_kernel<G> \
        <<<row_group_blocks(a->nrows, G), HOMG_THREADS, 0, s>>>(a->nrows, a->col, a->val, a->rl, x, y, y, alpha, beta)
    HOMG_GROUP_SWITCH(a->lanes, LAUNCH);
#undef LAUNCH
    HOMG_CUDA_LAUNCHED(ex, "ELLPACK-R product");
    return HOMG_OK;
}

/* ell_kernel's product, then the block's sum of u_i y_i (the new y_i) added
 * to *dot.  At most HOMG_MAX_BLOCKS blocks, each striding over groups of
 * rows (a uniform trip count a block: the shuffles and the block sum): one
 * atomic on *dot a block.  (A block per 64 rows, as the product's, cost 38 us
 * against its 29 on the 65^3 level 0: 4292 atomics on one address.) */
template <int G>
__global__ static void ell_dot_kernel(int32_t n, const int32_t *__restrict__ col, const double *__restrict__ val,
                                      const int32_t *__restrict__ rl, const double *__restrict__ x, double *y,
                                      double alpha, double beta, const double *__restrict__ u, double *dot)
{
    const int64_t per_block = blockDim.x / G, first = (int64_t)blockIdx.x * per_block;
    int lane = (int)(threadIdx.x & (G - 1));
    double part = 0;
    for (int64_t base = first; base < n; base += (int64_t)gridDim.x * per_block) {
        int32_t row = (int32_t)(base + threadIdx.x / G);
        double s = ell_row_sum<G>(n, col, val, rl, x, row, lane);
        if (row < n && lane == 0) {
            double v = beta != 0 ? alpha * s + beta * y[row] : alpha * s;
            y[row] = v;
            part += u[row] * v;
        }
    }
    part = block_sum(part);
    if (threadIdx.x == 0)
        atomicAdd(dot, part);
}

/* Blocks of ell_dot_kernel: those of the product, at most HOMG_MAX_BLOCKS. */
static unsigned dot_blocks(int32_t n, int g)
{
    unsigned b = row_group_blocks(n, g);
    return b < HOMG_MAX_BLOCKS ? b : HOMG_MAX_BLOCKS;
}

homg_status homg_cuda_gmg_ell_spmv_dot(kernel_exec *ex, const ell_matrix *a, const double *x, double *y, double alpha,
                                       double beta, const double *u, double *dot)
{
    cudaStream_t s = homg_cuda_stream(ex);
    if (a->nrows == 0)
        return HOMG_OK;
#define LAUNCH(G)     \
    ell_dot_kernel<G> \
        <<<dot_blocks(a->nrows, G), HOMG_THREADS, 0, s>>>(a->nrows, a->col, a->val, a->rl, x, y, alpha, beta, u, dot)
    HOMG_GROUP_SWITCH(a->lanes, LAUNCH);
#undef LAUNCH
    HOMG_CUDA_LAUNCHED(ex, "ELLPACK-R product and dot product");
    return HOMG_OK;
}

/* ell_spmv_batch: item k takes blocks first[k] .. first[k + 1] - 1, as
 * ell_kernel's (no dot) or ell_dot_kernel's (dot: at most HOMG_MAX_BLOCKS,
 * striding), so each item's rows, sums and atomics are those of its own
 * launch.  A block's item is uniform (the shuffles and the block sum). */
typedef struct ell_batch_grid {
    ell_batch b;
    unsigned first[GMG_BATCH_MAX + 1];
} ell_batch_grid;

template <int G> __global__ static void ell_batch_kernel(const __grid_constant__ ell_batch_grid q)
{
    int k = 0;
    while (k + 1 < q.b.count && blockIdx.x >= q.first[k + 1])
        k++;
    const ell_batch_item *t = &q.b.item[k];
    const int32_t n = t->a.nrows;
    const int64_t per_block = blockDim.x / G, blocks = q.first[k + 1] - q.first[k],
                  first = (int64_t)(blockIdx.x - q.first[k]) * per_block;
    int lane = (int)(threadIdx.x & (G - 1));
    double part = 0;
    for (int64_t base = first; base < n; base += blocks * per_block) {
        int32_t row = (int32_t)(base + threadIdx.x / G);
        double s = ell_row_sum<G>(n, t->a.col, t->a.val, t->a.rl, t->x, row, lane);
        if (row < n && lane == 0) {
            double v = t->beta != 0 ? t->alpha * s + t->beta * t->y[row] : t->alpha * s;
            t->y[row] = v;
            if (t->dot)
                part += t->u[row] * v;
        }
    }
    if (t->dot) {
        part = block_sum(part);
        if (threadIdx.x == 0)
            atomicAdd(t->dot, part);
    }
}

homg_status homg_cuda_gmg_ell_spmv_batch(kernel_exec *ex, const ell_batch *b)
{
    cudaStream_t s = homg_cuda_stream(ex);
    ell_batch_grid q;
    int same = b->count > 0 && b->count <= GMG_BATCH_MAX;
    for (int k = 1; k < b->count && same; k++)
        same = b->item[k].a.lanes == b->item[0].a.lanes;
    if (!same) { /* one launch each */
        for (int k = 0; k < b->count; k++) {
            const ell_batch_item *t = &b->item[k];
            HOMG_TRY(t->dot ? homg_cuda_gmg_ell_spmv_dot(ex, &t->a, t->x, t->y, t->alpha, t->beta, t->u, t->dot)
                            : homg_cuda_gmg_ell_spmv(ex, &t->a, t->x, t->y, t->alpha, t->beta));
        }
        return HOMG_OK;
    }
    q.b = *b;
    q.first[0] = 0;
    for (int k = 0; k < b->count; k++) {
        const ell_matrix *a = &b->item[k].a;
        unsigned nb = a->nrows == 0    ? 0
                      : b->item[k].dot ? dot_blocks(a->nrows, a->lanes)
                                       : row_group_blocks(a->nrows, a->lanes);
        q.first[k + 1] = q.first[k] + nb;
    }
    if (q.first[b->count] == 0)
        return HOMG_OK;
#define LAUNCH(G) ell_batch_kernel<G><<<q.first[b->count], HOMG_THREADS, 0, s>>>(q)
    HOMG_GROUP_SWITCH(b->item[0].a.lanes, LAUNCH);
#undef LAUNCH
    HOMG_CUDA_LAUNCHED(ex, "ELLPACK-R products (batch)");
    return HOMG_OK;
}

homg_status homg_cuda_gmg_ell_residual(kernel_exec *ex, const ell_matrix *a, const double *b, const double *x,
                                       double *r)
{
    cudaStream_t s = homg_cuda_stream(ex);
    if (a->nrows == 0)
        return HOMG_OK;
#define LAUNCH(G) \
    ell_kernel<G> \
        <<<row_group_blocks(a->nrows, G), HOMG_THREADS, 0, s>>>(a->nrows, a->col, a->val, a->rl, x, b, r, -1.0, 1.0)
    HOMG_GROUP_SWITCH(a->lanes, LAUNCH);
#undef LAUNCH
    HOMG_CUDA_LAUNCHED(ex, "ELLPACK-R residual");
    return HOMG_OK;
}

template <int G>
__global__ static void csr_residual_kernel(const int32_t *rp, const int32_t *ci, const double *v, int32_t n,
                                           const double *b, const double *x, double *r)
{
    int32_t row = (int32_t)((blockIdx.x * (int64_t)blockDim.x + threadIdx.x) / G);
    int lane = threadIdx.x & (G - 1);
    double s = row_dot<G, double, double>(rp, ci, v, x, row, n, lane);
    if (row < n && lane == 0)
        r[row] = b[row] - s;
}

homg_status homg_cuda_gmg_csr_residual(kernel_exec *ex, const csr_matrix *a, const double *b, const double *x,
                                       double *r)
{
    cudaStream_t s = homg_cuda_stream(ex);
    int g = row_group_size(a->nnz, a->nrows);
    if (a->nrows == 0)
        return HOMG_OK;
#define LAUNCH(G)                                                                  \
    csr_residual_kernel<G><<<row_group_blocks(a->nrows, G), HOMG_THREADS, 0, s>>>( \
        a->row_ptr, a->col_idx, (const double *)a->values, a->nrows, b, x, r)
    HOMG_GROUP_SWITCH(g, LAUNCH);
#undef LAUNCH
    HOMG_CUDA_LAUNCHED(ex, "CSR residual");
    return HOMG_OK;
}

/* The staged conversion: a block's ELL_STAGE_ROWS rows are one contiguous
 * CSR range, read coalesced into shared memory (a thread a row reading
 * global memory strides by the row length: ~0.15 ms more GPU time a 65^3
 * set-up, s12-gmg18), then each thread writes its row as ell_row_from_csr
 * (at each k the warp writes consecutive rows); a block whose range passes
 * ELL_STAGE_CAP entries reads global memory instead (the same values either
 * way). */
#define ELL_STAGE_ROWS 128
#define ELL_STAGE_CAP  2048 /* 24 KiB of columns and values */

__global__ static void __launch_bounds__(ELL_STAGE_ROWS)
    ell_from_csr_staged_kernel(const int32_t *rp, const int32_t *ci, const double *v, int32_t n, int32_t w,
                               int32_t *col, double *val, int32_t *rl)
{
    __shared__ double sval[ELL_STAGE_CAP];
    __shared__ int32_t scol[ELL_STAGE_CAP];
    int32_t r0 = blockIdx.x * ELL_STAGE_ROWS, r1 = min(n, r0 + ELL_STAGE_ROWS), i = r0 + (int32_t)threadIdx.x;
    int32_t b0 = rp[r0], cnt = rp[r1] - b0;
    if (cnt > ELL_STAGE_CAP) { /* uniform in the block */
        if (i < n)
            ell_row_from_csr(rp, ci, v, i, n, w, col, val, rl);
        return;
    }
    for (int32_t j = threadIdx.x; j < cnt; j += ELL_STAGE_ROWS) {
        scol[j] = ci[b0 + j];
        sval[j] = v[b0 + j];
    }
    __syncthreads();
    if (i >= n)
        return;
    int32_t b = rp[i] - b0, len = rp[i + 1] - rp[i];
    for (int32_t k = 0; k < w; k++) {
        size_t at = (size_t)k * n + i;
        col[at] = k < len ? scol[b + k] : 0;
        val[at] = k < len ? sval[b + k] : 0.0;
    }
    rl[i] = len;
}

homg_status homg_cuda_gmg_ell_from_csr(kernel_exec *ex, const csr_matrix *a, ell_matrix *e)
{
    cudaStream_t s = homg_cuda_stream(ex);
    if (a->nrows == 0)
        return HOMG_OK;
    ell_from_csr_staged_kernel<<<(unsigned)((a->nrows + ELL_STAGE_ROWS - 1) / ELL_STAGE_ROWS), ELL_STAGE_ROWS, 0, s>>>(
        a->row_ptr, a->col_idx, (const double *)a->values, e->nrows, e->width, e->col, e->val, e->rl);
    HOMG_CUDA_LAUNCHED(ex, "ELLPACK-R from CSR");
    return HOMG_OK;
}

/* The batched width: matrix blockIdx.y of the launch's set (kernel
 * parameters, GMG_CONVERT_MAX at most), its rows over blockIdx.x. */
typedef struct width_set {
    const int32_t *rp[GMG_CONVERT_MAX];
    int32_t *width[GMG_CONVERT_MAX];
    int32_t n[GMG_CONVERT_MAX];
} width_set;

__global__ static void widths_kernel(width_set c)
{
    int k = blockIdx.y;
    int32_t w = 0, n = c.n[k];
    const int32_t *rp = c.rp[k];
    FOR_ROWS(i, n) w = max(w, rp[i + 1] - rp[i]);
    for (int o = 16; o > 0; o >>= 1)
        w = max(w, __shfl_xor_sync(0xFFFFFFFFu, w, o));
    if ((threadIdx.x & 31) == 0 && w > 0)
        atomicMax(c.width[k], w);
}

homg_status homg_cuda_gmg_csr_widths(kernel_exec *ex, const csr_matrix *const *a, int n, int32_t *width)
{
    cudaStream_t s = homg_cuda_stream(ex);
    if (n <= 0)
        return HOMG_OK;
    HOMG_CUDA_TRY(ex, cudaMemsetAsync(width, 0, (size_t)n * sizeof *width, s));
    for (int k0 = 0; k0 < n; k0 += GMG_CONVERT_MAX) {
        width_set c;
        int m = n - k0 < GMG_CONVERT_MAX ? n - k0 : GMG_CONVERT_MAX;
        int32_t rows = 0;
        memset(&c, 0, sizeof c);
        for (int k = 0; k < m; k++) {
            c.rp[k] = a[k0 + k]->row_ptr;
            c.n[k] = a[k0 + k]->nrows;
            c.width[k] = width + k0 + k;
            rows = c.n[k] > rows ? c.n[k] : rows;
        }
        if (rows == 0)
            continue;
        widths_kernel<<<dim3(launch_blocks(rows, HOMG_MAX_BLOCKS), (unsigned)m), HOMG_THREADS, 0, s>>>(c);
        HOMG_CUDA_LAUNCHED(ex, "CSR widths");
    }
    return HOMG_OK;
}

/* The batched bandwidth sums: matrix blockIdx.y of the launch's set, its
 * rows over blockIdx.x (one launch for every level, not a zeroing and a
 * launch each: the set-up's tail is launch-bound). */
typedef struct bandwidth_set {
    const int32_t *rp[GMG_CONVERT_MAX], *ci[GMG_CONVERT_MAX];
    unsigned long long *sum[GMG_CONVERT_MAX];
    int32_t n[GMG_CONVERT_MAX];
} bandwidth_set;

__global__ static void bandwidths_kernel(bandwidth_set c)
{
    int m = blockIdx.y;
    int32_t n = c.n[m];
    const int32_t *rp = c.rp[m], *ci = c.ci[m];
    unsigned long long s = 0;
    FOR_ROWS(i, n)
    for (int32_t k = rp[i]; k < rp[i + 1]; k++)
        s += (unsigned long long)(ci[k] > i ? ci[k] - i : i - ci[k]);
    for (int o = 16; o > 0; o >>= 1)
        s += __shfl_xor_sync(0xFFFFFFFFu, s, o);
    if ((threadIdx.x & 31) == 0 && s)
        atomicAdd(c.sum[m], s); /* integers: the sum is exact in any order */
}

homg_status homg_cuda_gmg_csr_bandwidths(kernel_exec *ex, const csr_matrix *const *a, int n, uint64_t *sum)
{
    cudaStream_t s = homg_cuda_stream(ex);
    if (n <= 0)
        return HOMG_OK;
    HOMG_CUDA_TRY(ex, cudaMemsetAsync(sum, 0, (size_t)n * sizeof *sum, s));
    for (int k0 = 0; k0 < n; k0 += GMG_CONVERT_MAX) {
        bandwidth_set c;
        int m = n - k0 < GMG_CONVERT_MAX ? n - k0 : GMG_CONVERT_MAX;
        int32_t rows = 0;
        memset(&c, 0, sizeof c);
        for (int k = 0; k < m; k++) {
            c.rp[k] = a[k0 + k]->row_ptr;
            c.ci[k] = a[k0 + k]->col_idx;
            c.n[k] = a[k0 + k]->nrows;
            c.sum[k] = (unsigned long long *)(sum + k0 + k);
            rows = c.n[k] > rows ? c.n[k] : rows;
        }
        if (rows == 0)
            continue;
        bandwidths_kernel<<<dim3(launch_blocks(rows, HOMG_MAX_BLOCKS), (unsigned)m), HOMG_THREADS, 0, s>>>(c);
        HOMG_CUDA_LAUNCHED(ex, "CSR bandwidths");
    }
    return HOMG_OK;
}

/* One thread per row: a row's entries searched in their mirror rows. */
__global__ static void transpose_sym_kernel(const int32_t *rp, const int32_t *ci, const double *v, int32_t n,
                                            double *tv)
{
    FOR_ROWS(i, n)
    {
        for (int32_t p = rp[i]; p < rp[i + 1]; p++)
            tv[p] = mirror_value(rp, ci, v, i, p);
    }
}

homg_status homg_cuda_gmg_transpose_sym(kernel_exec *ex, const csr_matrix *m, double *tv)
{
    if (m->nrows == 0)
        return HOMG_OK;
    transpose_sym_kernel<<<launch_blocks(m->nrows), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(
        m->row_ptr, m->col_idx, (const double *)m->values, m->nrows, tv);
    HOMG_CUDA_LAUNCHED(ex, "transpose on a symmetric pattern");
    return HOMG_OK;
}

__global__ static void tag_values_kernel(int32_t n, const int32_t *markers, const int32_t *tags, const double *vals,
                                         int num_tags, double dflt, double *out)
{
    FOR_ROWS(i, n) { out[i] = tag_value(markers[i], tags, vals, num_tags, dflt); }
}

homg_status homg_cuda_gmg_tag_values(kernel_exec *ex, int32_t n, const int32_t *markers, const int32_t *tags,
                                     const double *vals, int num_tags, double dflt, double *out)
{
    if (n == 0)
        return HOMG_OK;
    tag_values_kernel<<<launch_blocks(n), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(n, markers, tags, vals, num_tags,
                                                                                   dflt, out);
    HOMG_CUDA_LAUNCHED(ex, "Dirichlet values from the node markers");
    return HOMG_OK;
}

__global__ static void diag_kernel(const int32_t *rp, const int32_t *ci, const double *v, int32_t n, int jacobi,
                                   double *d)
{
    FOR_ROWS(i, n) d[i] = spai0_row(rp, ci, v, i, jacobi);
}

homg_status homg_cuda_gmg_diag_inverse(kernel_exec *ex, const csr_matrix *a, int jacobi, double *d)
{
    if (a->nrows == 0)
        return HOMG_OK;
    diag_kernel<<<launch_blocks(a->nrows), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(
        a->row_ptr, a->col_idx, (const double *)a->values, a->nrows, jacobi, d);
    HOMG_CUDA_LAUNCHED(ex, "SPAI(0) diagonal");
    return HOMG_OK;
}

__global__ static void scale_kernel(const int32_t *rp, const int32_t *ci, const double *v, int32_t n, double *w)
{
    FOR_ROWS(i, n) w[i] = spai_scale_row(rp, ci, v, i);
}

homg_status homg_cuda_gmg_spai_scale(kernel_exec *ex, const csr_matrix *a, double *w)
{
    if (a->nrows == 0)
        return HOMG_OK;
    scale_kernel<<<launch_blocks(a->nrows), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(
        a->row_ptr, a->col_idx, (const double *)a->values, a->nrows, w);
    HOMG_CUDA_LAUNCHED(ex, "SPAI scaling");
    return HOMG_OK;
}

__global__ static void diag_update_kernel(int32_t n, double omega, const double *d, const double *r, double *x)
{
    FOR_ROWS(i, n) x[i] += omega * d[i] * r[i];
}

homg_status homg_cuda_gmg_diag_update(kernel_exec *ex, int32_t n, double omega, const double *d, const double *r,
                                      double *x)
{
    if (n == 0)
        return HOMG_OK;
    diag_update_kernel<<<launch_blocks(n), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(n, omega, d, r, x);
    HOMG_CUDA_LAUNCHED(ex, "Richardson update");
    return HOMG_OK;
}

__global__ static void axpy_kernel(int32_t n, double alpha, const double *x, double *y)
{
    FOR_ROWS(i, n) y[i] += alpha * x[i];
}

homg_status homg_cuda_gmg_axpy(kernel_exec *ex, int32_t n, double alpha, const double *x, double *y)
{
    if (n == 0)
        return HOMG_OK;
    axpy_kernel<<<launch_blocks(n), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(n, alpha, x, y);
    HOMG_CUDA_LAUNCHED(ex, "axpy");
    return HOMG_OK;
}

__global__ static void random_kernel(int32_t n, uint32_t s0, double *x)
{
    FOR_ROWS(i, n) x[i] = gmg_lcg_value(s0, (uint32_t)i);
}

homg_status homg_cuda_gmg_random_fill(kernel_exec *ex, int32_t n, uint32_t s0, double *x)
{
    if (n == 0)
        return HOMG_OK;
    random_kernel<<<launch_blocks(n), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(n, s0, x);
    HOMG_CUDA_LAUNCHED(ex, "random start");
    return HOMG_OK;
}

__global__ static void dot_kernel(int32_t n, const double *x, const double *y, double *out)
{
    double s = 0;
    FOR_ROWS(i, n) s += x[i] * y[i];
    s = block_sum(s);
    if (threadIdx.x == 0)
        atomicAdd(out, s);
}

homg_status homg_cuda_gmg_dot(kernel_exec *ex, int32_t n, const double *x, const double *y, double *out)
{
    cudaStream_t s = homg_cuda_stream(ex);
    HOMG_CUDA_TRY(ex, cudaMemsetAsync(out, 0, sizeof *out, s));
    if (n == 0)
        return HOMG_OK;
    dot_kernel<<<launch_blocks(n, HOMG_MAX_BLOCKS), HOMG_THREADS, 0, s>>>(n, x, y, out);
    HOMG_CUDA_LAUNCHED(ex, "dot product");
    return HOMG_OK;
}

const gmg_kernels homg_cuda_gmg_kernels = { GMG_KERNELS(HOMG_KERNEL_CUDA_INIT) };
