/* sparse.cu -- CUDA backend of the sparse table: checks, conversion, scans
 * (cub), transpose (cuSPARSE csr2csc), miniwarp SpMV, SpGEMM with structure
 * reuse (cuSPARSE SpGEMMreuse: the symbolic phase once, the numeric phase on
 * every re-setup) or, without a plan, one product with cusparseSpGEMM (ALG2).
 * Twin of sparse.c beside it. */
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/search.h"
#include "sparse_util.cuh"

/* ------------------------------------------------------------ handle */

homg_status homg_cuda_sparse_handle_create(kernel_exec *ex, const kernel_alloc *alloc, void **handle)
{
    sparse_handle *h = (sparse_handle *)calloc(1, sizeof *h);
    homg_status st;
    *handle = NULL;
    if (!h)
        return homg_exec_fail(ex, HOMG_ERROR_OUT_OF_MEMORY, "sparse handle: out of host memory");
    h->alloc = *alloc;
    cusparseStatus_t ss = cusparseCreate(&h->sparse);
    if (ss != CUSPARSE_STATUS_SUCCESS) {
        free(h);
        return homg_cusparse_fail(ex, ss, "cusparseCreate");
    }
    if (cusolverDnCreate(&h->solver) != CUSOLVER_STATUS_SUCCESS) {
        cusparseDestroy(h->sparse);
        free(h);
        return homg_exec_fail(ex, HOMG_ERROR_BACKEND, "cusolverDnCreate failed");
    }
    st = handle_alloc(ex, h, sizeof(double) * HOMG_MAX_BLOCKS * HOMG_PARTIALS, (void **)&h->partials,
                      "reduction partials");
    if (st != HOMG_OK) {
        cusolverDnDestroy(h->solver);
        cusparseDestroy(h->sparse);
        free(h);
        return st;
    }
    *handle = h;
    return HOMG_OK;
}

void homg_cuda_sparse_handle_destroy(kernel_exec *ex, void *handle)
{
    sparse_handle *h = (sparse_handle *)handle;
    (void)ex;
    if (!h)
        return;
    handle_free(h, h->partials);
    handle_free(h, h->scratch);
    cusolverDnDestroy(h->solver);
    cusparseDestroy(h->sparse);
    free(h);
}

/* ------------------------------------------------------------ elementwise */

__global__ static void fill_kernel(int32_t *p, int32_t n, int32_t value)
{
    for (int32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        p[i] = value;
}

homg_status homg_cuda_sparse_fill_i32(kernel_exec *ex, int32_t *p, int32_t n, int32_t value)
{
    if (n <= 0)
        return HOMG_OK;
    fill_kernel<<<launch_blocks(n), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(p, n, value);
    HOMG_CUDA_LAUNCHED(ex, "fill");
    return HOMG_OK;
}

template <typename S, typename D> __global__ static void convert_kernel(const S *src, D *dst, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        dst[i] = (D)src[i];
}

homg_status homg_cuda_sparse_convert(kernel_exec *ex, const void *src, homg_precision sprec, void *dst,
                                     homg_precision dprec, size_t n)
{
    cudaStream_t s = homg_cuda_stream(ex);
    unsigned b = launch_blocks((int64_t)n, 65536);
    if (!n)
        return HOMG_OK;
    if (sprec == dprec) {
        if (src != dst)
            HOMG_CUDA_TRY(ex,
                          cudaMemcpyAsync(dst, src, n * (sprec == HOMG_FLOAT64 ? 8 : 4), cudaMemcpyDeviceToDevice, s));
        return HOMG_OK;
    }
    if (src == dst)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "convert: in place between precisions");
    if (sprec == HOMG_FLOAT64)
        convert_kernel<double, float><<<b, HOMG_THREADS, 0, s>>>((const double *)src, (float *)dst, n);
    else
        convert_kernel<float, double><<<b, HOMG_THREADS, 0, s>>>((const float *)src, (double *)dst, n);
    HOMG_CUDA_LAUNCHED(ex, "convert");
    return HOMG_OK;
}

__global__ static void scan_total_kernel(const int32_t *in, const int32_t *out, int32_t n, int32_t *total)
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *total = n > 0 ? out[n - 1] + in[n - 1] : 0;
}

homg_status homg_cuda_sparse_scan_i32(kernel_exec *ex, void *handle, const int32_t *in, int32_t *out, int32_t n,
                                      int32_t *total)
{
    sparse_handle *h = (sparse_handle *)handle;
    cudaStream_t s = homg_cuda_stream(ex);
    size_t bytes = 0;
    void *tmp = NULL;
    if (n > 0) {
        HOMG_CUDA_TRY(ex, cub::DeviceScan::ExclusiveSum(NULL, bytes, in, out, n, s));
        HOMG_TRY(handle_scratch(ex, h, bytes, &tmp));
        HOMG_CUDA_TRY(ex, cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, n, s));
    }
    scan_total_kernel<<<1, 32, 0, s>>>(in, out, n, total);
    HOMG_CUDA_LAUNCHED(ex, "scan total");
    return HOMG_OK;
}

/* ------------------------------------------------------------ checks */

__global__ static void check_row_ptr_kernel(const int32_t *rp, int32_t n, int32_t nnz, int32_t *bad)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        if (rp[0] != 0)
            atomicMin(bad, 0);
        if (rp[n] != nnz)
            atomicMin(bad, n);
    }
    for (int32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        if (rp[i] > rp[i + 1] || rp[i + 1] > nnz || rp[i] < 0)
            atomicMin(bad, i);
}

homg_status homg_cuda_sparse_check_row_ptr(kernel_exec *ex, const csr_matrix *a, csr_report *rep)
{
    check_row_ptr_kernel<<<launch_blocks(a->nrows), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(a->row_ptr, a->nrows,
                                                                                             a->nnz, &rep->row_ptr);
    HOMG_CUDA_LAUNCHED(ex, "check_row_ptr");
    return HOMG_OK;
}

__global__ static void check_rows_kernel(const int32_t *rp, const int32_t *ci, const double *v, int32_t n,
                                         int32_t ncols, csr_report *rep)
{
    for (int32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int diag_ok = 0, col_bad = 0, nonfinite = 0;
        for (int32_t k = rp[i]; k < rp[i + 1]; k++) {
            int32_t j = ci[k];
            if (j < 0 || j >= ncols || (k > rp[i] && j <= ci[k - 1]))
                col_bad = 1;
            if (!isfinite(v[k]))
                nonfinite = 1;
            if (j == i && v[k] > 0)
                diag_ok = 1;
        }
        if (col_bad)
            atomicMin(&rep->column, i);
        if (nonfinite)
            atomicMin(&rep->nonfinite, i);
        if (!diag_ok)
            atomicMin(&rep->diagonal, i);
    }
}

homg_status homg_cuda_sparse_check_rows(kernel_exec *ex, const csr_matrix *a, csr_report *rep)
{
    check_rows_kernel<<<launch_blocks(a->nrows), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(
        a->row_ptr, a->col_idx, (const double *)a->values, a->nrows, a->ncols, rep);
    HOMG_CUDA_LAUNCHED(ex, "check_rows");
    return HOMG_OK;
}

__device__ static double diag_of(const int32_t *rp, const int32_t *ci, const double *v, int32_t i)
{
    int32_t k = sorted_find_i32(ci, rp[i], rp[i + 1], i);
    return k >= 0 ? v[k] : 0.0;
}

__global__ static void check_symmetric_kernel(const int32_t *arp, const int32_t *aci, const double *av,
                                              const int32_t *trp, const int32_t *tci, const double *tv, int32_t n,
                                              double rtol, int32_t *bad)
{
    for (int32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int32_t k0 = arp[i], k1 = arp[i + 1];
        double di;
        if (k0 != trp[i] || k1 != trp[i + 1]) {
            atomicMin(bad, i);
            continue;
        }
        di = fabs(diag_of(arp, aci, av, i));
        for (int32_t k = k0; k < k1; k++) {
            int32_t j = aci[k];
            if (j != tci[k] || fabs(av[k] - tv[k]) > rtol * sqrt(di * fabs(diag_of(arp, aci, av, j)))) {
                atomicMin(bad, i);
                break;
            }
        }
    }
}

/* A against its own transpose: each entry's mirror by binary search (the
 * smaller of the two rows is the one reported, as the comparison with the
 * transpose reports it); G lanes per row, an entry each (the minimum over the
 * failing entries is the same in any order). */
template <int G>
__global__ static void check_self_symmetric_kernel(const int32_t *rp, const int32_t *ci, const double *v, int32_t n,
                                                   double rtol, int32_t *bad)
{
    int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    int32_t i = (int32_t)(t / G);
    int lane = threadIdx.x & (G - 1);
    if (i >= n)
        return;
    double di = fabs(diag_of(rp, ci, v, i));
    for (int32_t k = rp[i] + lane; k < rp[i + 1]; k += G) {
        int32_t j = ci[k], m = sorted_find_i32(ci, rp[j], rp[j + 1], i);
        if (m < 0 || fabs(v[k] - v[m]) > rtol * sqrt(di * fabs(diag_of(rp, ci, v, j))))
            atomicMin(bad, i < j ? i : j);
    }
}

homg_status homg_cuda_sparse_check_symmetric(kernel_exec *ex, const csr_matrix *a, const csr_matrix *t, double rtol,
                                             csr_report *rep)
{
    if (t == a) {
        int g = row_lanes(a->nnz, a->nrows);
        cudaStream_t s = homg_cuda_stream(ex);
#define SELF_SYMMETRIC(G)                                                                  \
    check_self_symmetric_kernel<G><<<row_group_blocks(a->nrows, G), HOMG_THREADS, 0, s>>>( \
        a->row_ptr, a->col_idx, (const double *)a->values, a->nrows, rtol, &rep->symmetry)
        HOMG_GROUP_SWITCH(g, SELF_SYMMETRIC);
#undef SELF_SYMMETRIC
        HOMG_CUDA_LAUNCHED(ex, "check_symmetric");
        return HOMG_OK;
    }
    check_symmetric_kernel<<<launch_blocks(a->nrows), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(
        a->row_ptr, a->col_idx, (const double *)a->values, t->row_ptr, t->col_idx, (const double *)t->values, a->nrows,
        rtol, &rep->symmetry);
    HOMG_CUDA_LAUNCHED(ex, "check_symmetric");
    return HOMG_OK;
}

__global__ static void inv_diag_kernel(const int32_t *rp, const int32_t *ci, const double *v, int32_t n, double *dinv)
{
    for (int32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        double d = diag_of(rp, ci, v, i);
        dinv[i] = d != 0 ? 1.0 / d : 0.0;
    }
}

homg_status homg_cuda_sparse_inv_diag(kernel_exec *ex, const csr_matrix *a, double *dinv)
{
    inv_diag_kernel<<<launch_blocks(a->nrows), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(
        a->row_ptr, a->col_idx, (const double *)a->values, a->nrows, dinv);
    HOMG_CUDA_LAUNCHED(ex, "inv_diag");
    return HOMG_OK;
}

/* ------------------------------------------------------------ transpose, SpMV */

static cudaDataType val_type(homg_precision p) { return p == HOMG_FLOAT64 ? CUDA_R_64F : CUDA_R_32F; }

homg_status homg_cuda_sparse_transpose(kernel_exec *ex, void *handle, const csr_matrix *a, csr_matrix *t)
{
    sparse_handle *h = (sparse_handle *)handle;
    size_t bytes = 0;
    void *buf = NULL;
    cudaStream_t s = homg_cuda_stream(ex);
    if (a->nnz == 0) {
        HOMG_CUDA_TRY(ex, cudaMemsetAsync(t->row_ptr, 0, ((size_t)a->ncols + 1) * sizeof(int32_t), s));
        return HOMG_OK;
    }
    HOMG_CUSPARSE_TRY(ex, cusparseSetStream(h->sparse, s));
    HOMG_CUSPARSE_TRY(ex, cusparseCsr2cscEx2_bufferSize(h->sparse, a->nrows, a->ncols, a->nnz, a->values, a->row_ptr,
                                                        a->col_idx, t->values, t->row_ptr, t->col_idx,
                                                        val_type(a->precision), CUSPARSE_ACTION_NUMERIC,
                                                        CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, &bytes));
    HOMG_TRY(handle_scratch(ex, h, bytes, &buf));
    HOMG_CUSPARSE_TRY(ex, cusparseCsr2cscEx2(h->sparse, a->nrows, a->ncols, a->nnz, a->values, a->row_ptr, a->col_idx,
                                             t->values, t->row_ptr, t->col_idx, val_type(a->precision),
                                             CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1,
                                             buf));
    return HOMG_OK;
}

template <int G, typename T>
__global__ static void spmv_kernel(const int32_t *rp, const int32_t *ci, const T *v, int32_t n, const T *x, T *y,
                                   T alpha, T beta)
{
    int32_t row = (int32_t)((blockIdx.x * (int64_t)blockDim.x + threadIdx.x) / G);
    int lane = threadIdx.x & (G - 1);
    T s = row_dot<G, T, T>(rp, ci, v, x, row, n, lane);
    if (row < n && lane == 0)
        y[row] = beta != (T)0 ? alpha * s + beta * y[row] : alpha * s;
}

homg_status homg_cuda_sparse_spmv(kernel_exec *ex, const csr_matrix *a, const void *x, void *y, double alpha,
                                  double beta)
{
    cudaStream_t s = homg_cuda_stream(ex);
    int g = row_group_size(a->nnz, a->nrows);
    if (a->nrows <= 0)
        return HOMG_OK;
    if (a->precision == HOMG_FLOAT64) {
#define LAUNCH(G)                                                                  \
    spmv_kernel<G, double><<<row_group_blocks(a->nrows, G), HOMG_THREADS, 0, s>>>( \
        a->row_ptr, a->col_idx, (const double *)a->values, a->nrows, (const double *)x, (double *)y, alpha, beta)
        HOMG_GROUP_SWITCH(g, LAUNCH);
#undef LAUNCH
    } else {
#define LAUNCH(G)                                                                                               \
    spmv_kernel<G, float><<<row_group_blocks(a->nrows, G), HOMG_THREADS, 0, s>>>(                               \
        a->row_ptr, a->col_idx, (const float *)a->values, a->nrows, (const float *)x, (float *)y, (float)alpha, \
        (float)beta)
        HOMG_GROUP_SWITCH(g, LAUNCH);
#undef LAUNCH
    }
    HOMG_CUDA_LAUNCHED(ex, "spmv");
    return HOMG_OK;
}

/* ------------------------------------------------------------ SpGEMM */

/* When cuSPARSE leaves a row's columns unsorted (the library and its binary
 * searches need them sorted), C's descriptor keeps cuSPARSE's raw arrays and
 * every numeric phase gathers the values into the sorted order: val[k] =
 * raw_val[perm[k]]. */
typedef struct spgemm_plan {
    cusparseSpMatDescr_t a, b, c;
    cusparseSpGEMMDescr_t desc;
    void *buf4, *buf5; /* kept for the numeric phase */
    int32_t *raw_col, *perm;
    float *raw_val, *sorted_val;
    int32_t nnz;
} spgemm_plan;

__global__ static void unsorted_kernel(const int32_t *rp, const int32_t *ci, int32_t n, int32_t *flag)
{
    for (int32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        for (int32_t k = rp[i] + 1; k < rp[i + 1]; k++)
            if (ci[k] <= ci[k - 1]) {
                atomicOr(flag, 1);
                break;
            }
}

__global__ static void iota_kernel(int32_t *p, int32_t n)
{
    for (int32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        p[i] = i;
}

__global__ static void gather_kernel(const float *raw, const int32_t *perm, float *out, int32_t n)
{
    for (int32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = raw[perm[i]];
}

static void plan_free(sparse_handle *h, spgemm_plan *p)
{
    if (!p)
        return;
    if (p->a)
        cusparseDestroySpMat(p->a);
    if (p->b)
        cusparseDestroySpMat(p->b);
    if (p->c)
        cusparseDestroySpMat(p->c);
    if (p->desc)
        cusparseSpGEMM_destroyDescr(p->desc);
    handle_free(h, p->buf4);
    handle_free(h, p->buf5);
    handle_free(h, p->raw_col);
    handle_free(h, p->raw_val);
    handle_free(h, p->perm);
    free(p);
}

static homg_status csr_descr(kernel_exec *ex, const csr_matrix *m, cusparseSpMatDescr_t *d)
{
    HOMG_CUSPARSE_TRY(ex,
                      cusparseCreateCsr(d, m->nrows, m->ncols, m->nnz, m->row_ptr, m->col_idx, m->values,
                                        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    return HOMG_OK;
}

/* The plan's descriptors of A, B, C (C: its row pointers only, columns and
 * values set once its size is known) and of the product, on the ctx's stream. */
static homg_status plan_descrs(kernel_exec *ex, sparse_handle *h, const csr_matrix *a, const csr_matrix *b,
                               csr_matrix *c, spgemm_plan *p)
{
    HOMG_CUSPARSE_TRY(ex, cusparseSetStream(h->sparse, homg_cuda_stream(ex)));
    HOMG_TRY(csr_descr(ex, a, &p->a));
    HOMG_TRY(csr_descr(ex, b, &p->b));
    HOMG_CUSPARSE_TRY(ex, cusparseCreateCsr(&p->c, a->nrows, b->ncols, 0, c->row_ptr, NULL, NULL, CUSPARSE_INDEX_32I,
                                            CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    HOMG_CUSPARSE_TRY(ex, cusparseSpGEMM_createDescr(&p->desc));
    return HOMG_OK;
}

static homg_status numeric(kernel_exec *ex, sparse_handle *h, spgemm_plan *p)
{
    float one = 1.0f, zero = 0.0f;
    HOMG_CUSPARSE_TRY(ex, cusparseSetStream(h->sparse, homg_cuda_stream(ex)));
    HOMG_CUSPARSE_TRY(ex, cusparseSpGEMMreuse_compute(h->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                                      CUSPARSE_OPERATION_NON_TRANSPOSE, &one, p->a, p->b, &zero, p->c,
                                                      CUDA_R_32F, CUSPARSE_SPGEMM_DEFAULT, p->desc));
    if (p->perm) {
        gather_kernel<<<launch_blocks(p->nnz, 65536), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(p->raw_val, p->perm,
                                                                                               p->sorted_val, p->nnz);
        HOMG_CUDA_LAUNCHED(ex, "SpGEMM sorted values");
    }
    return HOMG_OK;
}

/* Checks C's rows; unsorted ones are sorted once here (columns, and the
 * permutation the numeric phase applies to the values). */
static homg_status sort_columns(kernel_exec *ex, sparse_handle *h, csr_matrix *c, spgemm_plan *p)
{
    cudaStream_t s = homg_cuda_stream(ex);
    int32_t *flag = NULL, *iota = NULL, host_flag = 0;
    size_t bytes = 0;
    void *tmp = NULL;
    cudaError_t e;
    homg_status st;
    if (c->nnz == 0)
        return HOMG_OK;
    HOMG_TRY(handle_alloc(ex, h, sizeof(int32_t), (void **)&flag, "SpGEMM column check"));
    e = cudaMemsetAsync(flag, 0, sizeof(int32_t), s);
    if (e == cudaSuccess) {
        unsorted_kernel<<<launch_blocks(c->nrows), HOMG_THREADS, 0, s>>>(c->row_ptr, c->col_idx, c->nrows, flag);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(&host_flag, flag, sizeof host_flag, cudaMemcpyDeviceToHost, s);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(s);
    handle_free(h, flag);
    if (e != cudaSuccess)
        return homg_cuda_fail(ex, e, "SpGEMM column check");
    if (!host_flag)
        return HOMG_OK;
    /* C keeps cuSPARSE's arrays as raw_*; c gets sorted copies. */
    p->raw_col = c->col_idx;
    p->raw_val = (float *)c->values;
    p->nnz = c->nnz;
    c->col_idx = NULL;
    c->values = NULL;
    st = handle_alloc(ex, h, (size_t)c->nnz * sizeof(int32_t), (void **)&c->col_idx, "SpGEMM sorted columns");
    if (st == HOMG_OK)
        st = handle_alloc(ex, h, (size_t)c->nnz * sizeof(float), &c->values, "SpGEMM sorted values");
    if (st == HOMG_OK)
        st = handle_alloc(ex, h, (size_t)c->nnz * sizeof(int32_t), (void **)&p->perm, "SpGEMM permutation");
    if (st == HOMG_OK)
        st = handle_alloc(ex, h, (size_t)c->nnz * sizeof(int32_t), (void **)&iota, "SpGEMM permutation");
    if (st != HOMG_OK)
        return st;
    p->sorted_val = (float *)c->values;
    iota_kernel<<<launch_blocks(c->nnz, 65536), HOMG_THREADS, 0, s>>>(iota, c->nnz);
    e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cub::DeviceSegmentedSort::SortPairs(NULL, bytes, p->raw_col, c->col_idx, iota, p->perm, c->nnz, c->nrows,
                                                c->row_ptr, c->row_ptr + 1, s);
    if (e == cudaSuccess && (st = handle_scratch(ex, h, bytes, &tmp)) == HOMG_OK)
        e = cub::DeviceSegmentedSort::SortPairs(tmp, bytes, p->raw_col, c->col_idx, iota, p->perm, c->nnz, c->nrows,
                                                c->row_ptr, c->row_ptr + 1, s);
    if (e == cudaSuccess && st == HOMG_OK) {
        gather_kernel<<<launch_blocks(c->nnz, 65536), HOMG_THREADS, 0, s>>>(p->raw_val, p->perm, p->sorted_val, c->nnz);
        e = cudaGetLastError();
    }
    handle_free(h, iota);
    if (e != cudaSuccess)
        return homg_cuda_fail(ex, e, "sorting SpGEMM columns");
    return st;
}

/* The symbolic phase's own buffers (4 and 5 stay with the plan). */
typedef struct spgemm_temp {
    void *b1, *b2, *b3;
} spgemm_temp;

/* Work estimation and the size of the product (buffers 1 and 2 freed once used). */
static homg_status symbolic_nnz(kernel_exec *ex, sparse_handle *h, spgemm_plan *p, spgemm_temp *t)
{
    cusparseOperation_t nt = CUSPARSE_OPERATION_NON_TRANSPOSE;
    size_t s1 = 0, s2 = 0, s3 = 0, s4 = 0;
    HOMG_CUSPARSE_TRY(ex, cusparseSpGEMMreuse_workEstimation(h->sparse, nt, nt, p->a, p->b, p->c,
                                                             CUSPARSE_SPGEMM_DEFAULT, p->desc, &s1, NULL));
    HOMG_TRY(handle_alloc(ex, h, s1, &t->b1, "SpGEMM work estimation"));
    HOMG_CUSPARSE_TRY(ex, cusparseSpGEMMreuse_workEstimation(h->sparse, nt, nt, p->a, p->b, p->c,
                                                             CUSPARSE_SPGEMM_DEFAULT, p->desc, &s1, t->b1));
    HOMG_CUSPARSE_TRY(ex, cusparseSpGEMMreuse_nnz(h->sparse, nt, nt, p->a, p->b, p->c, CUSPARSE_SPGEMM_DEFAULT, p->desc,
                                                  &s2, NULL, &s3, NULL, &s4, NULL));
    HOMG_TRY(handle_alloc(ex, h, s2, &t->b2, "SpGEMM"));
    HOMG_TRY(handle_alloc(ex, h, s3, &t->b3, "SpGEMM"));
    HOMG_TRY(handle_alloc(ex, h, s4, &p->buf4, "SpGEMM"));
    HOMG_CUSPARSE_TRY(ex, cusparseSpGEMMreuse_nnz(h->sparse, nt, nt, p->a, p->b, p->c, CUSPARSE_SPGEMM_DEFAULT, p->desc,
                                                  &s2, t->b2, &s3, t->b3, &s4, p->buf4));
    handle_free(h, t->b1);
    handle_free(h, t->b2);
    t->b1 = t->b2 = NULL;
    return HOMG_OK;
}

/* C's column and value arrays, and the copy of the pattern into them. */
static homg_status symbolic_copy(kernel_exec *ex, sparse_handle *h, csr_matrix *c, spgemm_plan *p)
{
    cusparseOperation_t nt = CUSPARSE_OPERATION_NON_TRANSPOSE;
    size_t s5 = 0;
    int64_t rows = 0, cols = 0, nnz = 0;
    HOMG_CUSPARSE_TRY(ex, cusparseSpMatGetSize(p->c, &rows, &cols, &nnz));
    if (nnz > INT32_MAX)
        return homg_exec_fail(ex, HOMG_ERROR_OUT_OF_MEMORY, "SpGEMM: product has %lld entries (more than int32)",
                              (long long)nnz);
    c->nnz = (int32_t)nnz;
    HOMG_TRY(handle_alloc(ex, h, (size_t)nnz * sizeof(int32_t), (void **)&c->col_idx, "SpGEMM result"));
    HOMG_TRY(handle_alloc(ex, h, (size_t)nnz * sizeof(float), &c->values, "SpGEMM result"));
    HOMG_CUSPARSE_TRY(ex, cusparseCsrSetPointers(p->c, c->row_ptr, c->col_idx, c->values));
    HOMG_CUSPARSE_TRY(
        ex, cusparseSpGEMMreuse_copy(h->sparse, nt, nt, p->a, p->b, p->c, CUSPARSE_SPGEMM_DEFAULT, p->desc, &s5, NULL));
    HOMG_TRY(handle_alloc(ex, h, s5, &p->buf5, "SpGEMM"));
    HOMG_CUSPARSE_TRY(ex, cusparseSpGEMMreuse_copy(h->sparse, nt, nt, p->a, p->b, p->c, CUSPARSE_SPGEMM_DEFAULT,
                                                   p->desc, &s5, p->buf5));
    return HOMG_OK;
}

/* The symbolic phase: buffers 1-3 are freed here, 4 and 5 stay with the plan. */
static homg_status symbolic(kernel_exec *ex, sparse_handle *h, const csr_matrix *a, const csr_matrix *b, csr_matrix *c,
                            spgemm_plan *p)
{
    spgemm_temp t = { NULL, NULL, NULL };
    homg_status st;
    HOMG_TRY(plan_descrs(ex, h, a, b, c, p));
    st = symbolic_nnz(ex, h, p, &t);
    if (st == HOMG_OK)
        st = symbolic_copy(ex, h, c, p);
    handle_free(h, t.b1);
    handle_free(h, t.b2);
    handle_free(h, t.b3);
    return st;
}

/* One product, no plan: cusparseSpGEMM with ALG2 (deterministic, its work
 * buffer sized by estimateMemory and freed at once), where the reuse API's
 * four phases kept buffers of several times the operands (the Galerkin
 * products of the 128^3 cube peaked at 4.8 GB).  C's arrays as in symbolic. */
static homg_status one_shot(kernel_exec *ex, sparse_handle *h, const csr_matrix *a, const csr_matrix *b, csr_matrix *c,
                            spgemm_plan *p)
{
    cusparseOperation_t nt = CUSPARSE_OPERATION_NON_TRANSPOSE;
    const cusparseSpGEMMAlg_t alg = CUSPARSE_SPGEMM_ALG2;
    float one = 1.0f, zero = 0.0f;
    size_t s1 = 0, s2 = 0, s3 = 0;
    void *b1 = NULL, *b2 = NULL, *b3 = NULL;
    int64_t rows = 0, cols = 0, nnz = 0;
    homg_status st = HOMG_OK;
    HOMG_TRY(plan_descrs(ex, h, a, b, c, p));
#define ONE_SHOT(call)                                       \
    do {                                                     \
        cusparseStatus_t cs_ = (call);                       \
        if (st == HOMG_OK && cs_ != CUSPARSE_STATUS_SUCCESS) \
            st = homg_cusparse_fail(ex, cs_, #call);         \
    } while (0)
    ONE_SHOT(cusparseSpGEMM_workEstimation(h->sparse, nt, nt, &one, p->a, p->b, &zero, p->c, CUDA_R_32F, alg, p->desc,
                                           &s1, NULL));
    if (st == HOMG_OK)
        st = handle_alloc(ex, h, s1, &b1, "SpGEMM work estimation");
    if (st == HOMG_OK)
        ONE_SHOT(cusparseSpGEMM_workEstimation(h->sparse, nt, nt, &one, p->a, p->b, &zero, p->c, CUDA_R_32F, alg,
                                               p->desc, &s1, b1));
    if (st == HOMG_OK)
        ONE_SHOT(cusparseSpGEMM_estimateMemory(h->sparse, nt, nt, &one, p->a, p->b, &zero, p->c, CUDA_R_32F, alg,
                                               p->desc, 0.2f, &s3, NULL, NULL));
    if (st == HOMG_OK)
        st = handle_alloc(ex, h, s3, &b3, "SpGEMM memory estimate");
    if (st == HOMG_OK)
        ONE_SHOT(cusparseSpGEMM_estimateMemory(h->sparse, nt, nt, &one, p->a, p->b, &zero, p->c, CUDA_R_32F, alg,
                                               p->desc, 0.2f, &s3, b3, &s2));
    handle_free(h, b3);
    if (st == HOMG_OK)
        st = handle_alloc(ex, h, s2, &b2, "SpGEMM");
    if (st == HOMG_OK)
        ONE_SHOT(cusparseSpGEMM_compute(h->sparse, nt, nt, &one, p->a, p->b, &zero, p->c, CUDA_R_32F, alg, p->desc, &s2,
                                        b2));
    if (st == HOMG_OK)
        ONE_SHOT(cusparseSpMatGetSize(p->c, &rows, &cols, &nnz));
    if (st == HOMG_OK && nnz > INT32_MAX)
        st = homg_exec_fail(ex, HOMG_ERROR_OUT_OF_MEMORY, "SpGEMM: product has %lld entries (more than int32)",
                            (long long)nnz);
    c->nnz = (int32_t)nnz;
    if (st == HOMG_OK)
        st = handle_alloc(ex, h, (size_t)nnz * sizeof(int32_t), (void **)&c->col_idx, "SpGEMM result");
    if (st == HOMG_OK)
        st = handle_alloc(ex, h, (size_t)nnz * sizeof(float), &c->values, "SpGEMM result");
    if (st == HOMG_OK)
        ONE_SHOT(cusparseCsrSetPointers(p->c, c->row_ptr, c->col_idx, c->values));
    if (st == HOMG_OK)
        ONE_SHOT(cusparseSpGEMM_copy(h->sparse, nt, nt, &one, p->a, p->b, &zero, p->c, CUDA_R_32F, alg, p->desc));
#undef ONE_SHOT
    handle_free(h, b1);
    handle_free(h, b2);
    return st;
}

homg_status homg_cuda_sparse_spgemm(kernel_exec *ex, void *handle, const csr_matrix *a, const csr_matrix *b,
                                    csr_matrix *c, void **plan)
{
    sparse_handle *h = (sparse_handle *)handle;
    spgemm_plan *p;
    homg_status st;
    if (plan)
        *plan = NULL;
    memset(c, 0, sizeof *c);
    c->nrows = a->nrows;
    c->ncols = b->ncols;
    c->precision = HOMG_FLOAT32;
    if (a->ncols != b->nrows || a->precision != HOMG_FLOAT32 || b->precision != HOMG_FLOAT32)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "spgemm: %d columns times %d rows (float only)",
                              a->ncols, b->nrows);
    p = (spgemm_plan *)calloc(1, sizeof *p);
    if (!p)
        return homg_exec_fail(ex, HOMG_ERROR_OUT_OF_MEMORY, "spgemm: out of host memory");
    st = handle_alloc(ex, h, ((size_t)a->nrows + 1) * sizeof(int32_t), (void **)&c->row_ptr, "SpGEMM result");
    if (st == HOMG_OK && !plan) {
        st = one_shot(ex, h, a, b, c, p);
        if (st != HOMG_OK && st != HOMG_ERROR_OUT_OF_MEMORY) { /* the reuse API below, from scratch */
            plan_free(h, p);
            handle_free(h, c->col_idx);
            handle_free(h, c->values);
            c->col_idx = NULL;
            c->values = NULL;
            p = (spgemm_plan *)calloc(1, sizeof *p);
            st = p ? HOMG_OK : homg_exec_fail(ex, HOMG_ERROR_OUT_OF_MEMORY, "spgemm: out of host memory");
            if (st == HOMG_OK)
                st = symbolic(ex, h, a, b, c, p);
            if (st == HOMG_OK)
                st = numeric(ex, h, p);
        }
    } else if (st == HOMG_OK) {
        st = symbolic(ex, h, a, b, c, p);
        if (st == HOMG_OK)
            st = numeric(ex, h, p);
    }
    if (st == HOMG_OK)
        st = sort_columns(ex, h, c, p);
    if (st != HOMG_OK || !plan) {
        plan_free(h, p); /* one product: its raw arrays and buffers go now */
        if (st == HOMG_OK)
            return HOMG_OK;
        handle_free(h, c->row_ptr);
        handle_free(h, c->col_idx);
        handle_free(h, c->values);
        memset(c, 0, sizeof *c);
        return st;
    }
    *plan = p;
    return HOMG_OK;
}

homg_status homg_cuda_sparse_spgemm_values(kernel_exec *ex, void *handle, void *plan, const csr_matrix *a,
                                           const csr_matrix *b, csr_matrix *c)
{
    (void)a;
    (void)b;
    (void)c; /* the plan's descriptors point at the same arrays */
    if (!plan)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "spgemm_values: no plan");
    return numeric(ex, (sparse_handle *)handle, (spgemm_plan *)plan);
}

void homg_cuda_sparse_spgemm_free(kernel_exec *ex, void *handle, void *plan)
{
    (void)ex;
    plan_free((sparse_handle *)handle, (spgemm_plan *)plan);
}

extern "C" const sparse_kernels homg_cuda_sparse_kernels = { SPARSE_KERNELS(HOMG_KERNEL_CUDA_INIT) };
