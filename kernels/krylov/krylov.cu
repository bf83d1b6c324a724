/* krylov.cu -- CUDA backend of the fused conjugate-gradient kernels (twin of
 * krylov.c).  Each fused kernel leaves per-block partial sums in
 * the handle; a one-block "finish" kernel adds them in a fixed order and runs
 * the shared scalar recurrence of krylov_common.h on the device-resident state,
 * so no scalar comes to the host.  Kernels return at once when the state says
 * the solve is done, so iterations queued after convergence change nothing. */
#include "krylov_common.h"
#include "sparse/sparse_util.cuh"

#define FINISH_THREADS 1024

enum { FIN_START, FIN_DOTS, FIN_PQ, FIN_UPDATE };

/* Sums the first `nb` blocks' partials (k values each) in a fixed order and
 * runs the recurrence of `which`. */
__global__ static void finish_kernel(const double *partials, int nb, int which, cg_state *state, double *history)
{
    double s[2];
    if (which != FIN_START && state->done)
        return;
    for (int j = 0; j < 2; j++) {
        double v = 0;
        for (int b = threadIdx.x; b < nb; b += blockDim.x)
            v += partials[b * HOMG_PARTIALS + j];
        s[j] = block_sum(v);
    }
    if (threadIdx.x != 0)
        return;
    switch (which) {
    case FIN_START: cg_after_start(state, s[0], s[1], history); break;
    case FIN_DOTS: cg_after_dots(state, s[0], s[1]); break;
    case FIN_PQ: cg_after_pq(state, s[0]); break;
    default: cg_after_update(state, s[0], history); break;
    }
}

static homg_status finish(kernel_exec *ex, sparse_handle *h, int nb, int which, cg_state *state, double *history)
{
    finish_kernel<<<1, FINISH_THREADS, 0, homg_cuda_stream(ex)>>>(h->partials, nb, which, state, history);
    HOMG_CUDA_LAUNCHED(ex, "CG scalars");
    return HOMG_OK;
}

static int reduction_blocks(int64_t n)
{
    int64_t b = (n + HOMG_THREADS - 1) / HOMG_THREADS;
    return (int)(b < 1 ? 1 : b > HOMG_MAX_BLOCKS ? HOMG_MAX_BLOCKS : b);
}

/* Rows handled by a group of G lanes in a grid-stride loop whose trip count is
 * the same for the whole warp (the row products shuffle across it). */
#define GROUP_ROWS_BEGIN(G, n)                                                                  \
    const int64_t homg_stride_ = (int64_t)gridDim.x * blockDim.x / (G);                         \
    const int64_t homg_first_ = ((int64_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31)) / (G); \
    for (int64_t homg_base_ = homg_first_; homg_base_ < (n); homg_base_ += homg_stride_) {      \
        const int32_t row = (int32_t)(homg_base_ + (threadIdx.x & 31) / (G));                   \
        const int lane = threadIdx.x & ((G)-1);
#define GROUP_ROWS_END }

template <int G>
__global__ static void start_kernel(const int32_t *rp, const int32_t *ci, const double *v, int32_t n, const double *b,
                                    double *x, double *r, int warm, double *partials)
{
    double bb = 0, rr = 0;
    GROUP_ROWS_BEGIN(G, n)
    double ax = warm ? row_dot<G, double, double>(rp, ci, v, x, row, n, lane) : 0.0;
    if (row < n && lane == 0) {
        double s = b[row] - ax;
        r[row] = s;
        bb += b[row] * b[row];
        rr += s * s;
    }
    GROUP_ROWS_END
    bb = block_sum(bb);
    rr = block_sum(rr);
    if (threadIdx.x == 0) {
        partials[blockIdx.x * HOMG_PARTIALS + 0] = bb;
        partials[blockIdx.x * HOMG_PARTIALS + 1] = rr;
    }
}

__global__ static void zero_kernel(double *x, int32_t n)
{
    for (int32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        x[i] = 0;
}

homg_status homg_cuda_krylov_cg_start(kernel_exec *ex, void *handle, const csr_matrix *a, const double *b, double *x,
                                      double *r, int warm, cg_state *state, double *history)
{
    sparse_handle *h = (sparse_handle *)handle;
    cudaStream_t s = homg_cuda_stream(ex);
    int g = warm ? row_group_size(a->nnz, a->nrows) : 1;
    int nb = reduction_blocks((int64_t)a->nrows * g);
#define LAUNCH(G)                                                                                                     \
    start_kernel<G><<<nb, HOMG_THREADS, 0, s>>>(a->row_ptr, a->col_idx, (const double *)a->values, a->nrows, b, x, r, \
                                                warm, h->partials)
    HOMG_GROUP_SWITCH(g, LAUNCH);
#undef LAUNCH
    HOMG_CUDA_LAUNCHED(ex, "CG start");
    if (!warm) {
        zero_kernel<<<launch_blocks(a->nrows, 65536), HOMG_THREADS, 0, s>>>(x, a->nrows);
        HOMG_CUDA_LAUNCHED(ex, "CG start");
    }
    return finish(ex, h, nb, FIN_START, state, history);
}

__global__ static void diag_precond_kernel(const double *dinv, const double *r, double *z, int32_t n)
{
    for (int32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        z[i] = dinv ? dinv[i] * r[i] : r[i];
}

homg_status homg_cuda_krylov_cg_diag_precond(kernel_exec *ex, const double *dinv, const double *r, double *z, int32_t n)
{
    diag_precond_kernel<<<launch_blocks(n, 65536), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(dinv, r, z, n);
    HOMG_CUDA_LAUNCHED(ex, "Jacobi preconditioner");
    return HOMG_OK;
}

/* r.z and z.q (q is the previous A p; not read on the first iteration). */
__global__ static void dots_kernel(const double *r, const double *z, const double *q, int32_t n, const cg_state *state,
                                   double *partials)
{
    double rz = 0, zq = 0;
    int first;
    if (state->done)
        return;
    first = state->iter == 0;
    for (int32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        double zi = z[i];
        rz += r[i] * zi;
        if (!first)
            zq += zi * q[i];
    }
    rz = block_sum(rz);
    zq = block_sum(zq);
    if (threadIdx.x == 0) {
        partials[blockIdx.x * HOMG_PARTIALS + 0] = rz;
        partials[blockIdx.x * HOMG_PARTIALS + 1] = zq;
    }
}

__global__ static void direction_kernel(const double *z, double *p, int32_t n, const cg_state *state)
{
    double beta;
    int first;
    if (state->done)
        return;
    beta = state->beta;
    first = state->iter == 0;
    for (int32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        p[i] = first ? z[i] : z[i] + beta * p[i];
}

homg_status homg_cuda_krylov_cg_direction(kernel_exec *ex, void *handle, const double *r, const double *z,
                                          const double *q, double *p, int32_t n, cg_state *state)
{
    sparse_handle *h = (sparse_handle *)handle;
    cudaStream_t s = homg_cuda_stream(ex);
    int nb = reduction_blocks(n);
    dots_kernel<<<nb, HOMG_THREADS, 0, s>>>(r, z, q, n, state, h->partials);
    HOMG_CUDA_LAUNCHED(ex, "CG dots");
    HOMG_TRY(finish(ex, h, nb, FIN_DOTS, state, NULL));
    direction_kernel<<<launch_blocks(n, 65536), HOMG_THREADS, 0, s>>>(z, p, n, state);
    HOMG_CUDA_LAUNCHED(ex, "CG direction");
    return HOMG_OK;
}

template <int G>
__global__ static void spmv_dot_kernel(const int32_t *rp, const int32_t *ci, const double *v, int32_t n,
                                       const double *p, double *q, const cg_state *state, double *partials)
{
    double pq = 0;
    if (state->done)
        return;
    GROUP_ROWS_BEGIN(G, n)
    double s = row_dot<G, double, double>(rp, ci, v, p, row, n, lane);
    if (row < n && lane == 0) {
        q[row] = s;
        pq += p[row] * s;
    }
    GROUP_ROWS_END
    pq = block_sum(pq);
    if (threadIdx.x == 0)
        partials[blockIdx.x * HOMG_PARTIALS + 0] = pq;
}

homg_status homg_cuda_krylov_cg_spmv_dot(kernel_exec *ex, void *handle, const csr_matrix *a, const double *p, double *q,
                                         cg_state *state)
{
    sparse_handle *h = (sparse_handle *)handle;
    cudaStream_t s = homg_cuda_stream(ex);
    int g = row_group_size(a->nnz, a->nrows);
    int nb = reduction_blocks((int64_t)a->nrows * g);
#define LAUNCH(G)                                                                                                     \
    spmv_dot_kernel<G><<<nb, HOMG_THREADS, 0, s>>>(a->row_ptr, a->col_idx, (const double *)a->values, a->nrows, p, q, \
                                                   state, h->partials)
    HOMG_GROUP_SWITCH(g, LAUNCH);
#undef LAUNCH
    HOMG_CUDA_LAUNCHED(ex, "CG product");
    return finish(ex, h, nb, FIN_PQ, state, NULL);
}

__global__ static void update_kernel(double *x, double *r, const double *p, const double *q, int32_t n,
                                     const cg_state *state, double *partials)
{
    double alpha, rr = 0;
    if (state->done)
        return;
    alpha = state->alpha;
    for (int32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        double ri = r[i] - alpha * q[i];
        x[i] += alpha * p[i];
        r[i] = ri;
        rr += ri * ri;
    }
    rr = block_sum(rr);
    if (threadIdx.x == 0)
        partials[blockIdx.x * HOMG_PARTIALS + 0] = rr;
}

homg_status homg_cuda_krylov_cg_update(kernel_exec *ex, void *handle, double *x, double *r, const double *p,
                                       const double *q, int32_t n, cg_state *state, double *history)
{
    sparse_handle *h = (sparse_handle *)handle;
    int nb = reduction_blocks(n);
    update_kernel<<<nb, HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(x, r, p, q, n, state, h->partials);
    HOMG_CUDA_LAUNCHED(ex, "CG update");
    return finish(ex, h, nb, FIN_UPDATE, state, history);
}

extern "C" const krylov_kernels homg_cuda_krylov_kernels = { KRYLOV_KERNELS(HOMG_KERNEL_CUDA_INIT) };
