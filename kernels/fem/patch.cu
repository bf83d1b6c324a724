/* patch.cu -- seed 000's patch-based assembly: one block per patch; the
 * patch's column indices and values sit in shared memory, element entries of
 * rows in the patch are found by binary search there and added with shared
 * atomics; entries of rows outside the patch go to values_B / rhs_B with global
 * atomics; the block writes its rows back, and a second kernel adds the
 * boundary arrays (both in one launch; zeroed by one set where rhs_B follows
 * values_B, as homg_fem allocates them).  CPU twin: patch.c beside it. */
#include "core/cuda_check.h"
#include "fem_element.h"

#define THREADS 256

static size_t shared_bytes(const fem_patches *q, size_t vb)
{
    return (size_t)q->max_nnz * vb + (size_t)q->max_nodes * vb + (size_t)q->max_nnz * sizeof(int32_t) +
           ((size_t)q->max_nodes + 1) * sizeof(int32_t);
}

/* Element e's row a (nodes v, its matrix row A, load F) added to the patch's
 * shared rows where the patch holds the node, else to the boundary arrays. */
template <typename T>
__device__ void patch_add_row(const fem_patches &q, int32_t pt, const int32_t *row_ptr, const int32_t *col_idx,
                              const int32_t *scol, const int32_t *srow, T *sval, T *srhs, int nv, const int32_t *v,
                              int a, const double *A, double F)
{
    T *values_B = (T *)q.values_B, *rhs_B = (T *)q.rhs_B;
    int32_t row = v[a];
    if (q.node_patch[row] == pt) {
        int32_t l = q.node_local[row];
        for (int b = 0; b < nv; b++) {
            int32_t k = sorted_find_i32(scol, srow[l], srow[l + 1], v[b]);
            if (k >= 0)
                atomicAdd(&sval[k], (T)A[b]);
        }
        atomicAdd(&srhs[l], (T)F);
    } else {
        int32_t lo = row_ptr[row], hi = row_ptr[row + 1];
        for (int b = 0; b < nv; b++) {
            int32_t k = sorted_find_i32(col_idx, lo, hi, v[b]);
            if (k >= 0)
                atomicAdd(&values_B[k], (T)A[b]);
        }
        atomicAdd(&rhs_B[row], (T)F);
    }
}

/* The element matrix a row at a time (fem_element_row: fewer live values
 * than the whole matrix), in 64 registers (double 3D) for 4 blocks an SM
 * where the shared memory allows: on the H100 (s13-gmg21) level 0's patch
 * kernel 632.8 -> 522.8 us at 65^3 against the whole matrix's 108 registers. */
template <typename T, int DIM>
__global__ void __launch_bounds__(THREADS, 4)
    fem_patch_kernel(fem_problem p, const int32_t *row_ptr, const int32_t *col_idx, T *values, T *rhs, fem_patches q)
{
    extern __shared__ __align__(16) unsigned char smem[];
    T *sval = (T *)smem;                             /* max_nnz */
    T *srhs = sval + q.max_nnz;                      /* max_nodes */
    int32_t *scol = (int32_t *)(srhs + q.max_nodes); /* max_nnz */
    int32_t *srow = scol + q.max_nnz;                /* max_nodes + 1 */
    int32_t pt = blockIdx.x;
    int32_t e0 = q.entry_ptr[pt], ne = q.entry_ptr[pt + 1] - e0;
    int32_t n0 = q.node_ptr[pt], nn = q.node_ptr[pt + 1] - n0;
    const int nv = DIM + 1;
    if (ne > q.max_nnz || nn > q.max_nodes) /* cannot happen with a consistent partition */
        return;
    /* 1. the patch's rows into shared memory */
    for (int32_t t = threadIdx.x; t < ne; t += blockDim.x) {
        scol[t] = col_idx[q.entry_src[e0 + t]];
        sval[t] = 0;
    }
    for (int32_t l = threadIdx.x; l <= nn; l += blockDim.x) {
        srow[l] = q.row_off[n0 + pt + l];
        if (l < nn)
            srhs[l] = 0;
    }
    __syncthreads();
    /* 2. one element per thread */
    for (int32_t i = q.elem_ptr[pt] + threadIdx.x; i < q.elem_ptr[pt + 1]; i += blockDim.x) {
        int32_t e = q.elems[i], v[4];
        for (int a = 0; a < nv; a++)
            v[a] = p.elements[(int64_t)e * nv + a];
        fem_element_geo geo;
        fem_element_geometry(&p, DIM, e, v, &geo);
#pragma unroll
        for (int a = 0; a < nv; a++) {
            double A[4], F;
            fem_element_row(&p, DIM, e, v, &geo, a, A, &F);
            patch_add_row(q, pt, row_ptr, col_idx, scol, srow, sval, srhs, nv, v, a, A, F);
        }
    }
    __syncthreads();
    /* 3. the patch owns its rows: plain stores */
    for (int32_t t = threadIdx.x; t < ne; t += blockDim.x)
        values[q.entry_src[e0 + t]] = sval[t];
    for (int32_t l = threadIdx.x; l < nn; l += blockDim.x)
        rhs[q.nodes[n0 + l]] = srhs[l];
}

/* The boundary arrays added in one launch: values[0..nnz), then rhs[0..rows). */
template <typename T>
__global__ void fem_patch_add_kernel(T *values, const T *values_B, int32_t nnz, T *rhs, const T *rhs_B, int32_t rows)
{
    int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < nnz)
        values[k] += values_B[k];
    else if (k - nnz < rows)
        rhs[k - nnz] += rhs_B[k - nnz];
}

template <typename T, int DIM>
static homg_status launch(kernel_exec *ex, const fem_problem *p, const fem_system *s, const fem_patches *q, size_t smem)
{
    HOMG_CUDA_TRY(
        ex, cudaFuncSetAttribute(fem_patch_kernel<T, DIM>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    fem_patch_kernel<T, DIM><<<(unsigned)q->num_patches, THREADS, smem, homg_cuda_stream(ex)>>>(
        *p, s->row_ptr, s->col_idx, (T *)s->values, (T *)s->rhs, *q);
    return HOMG_OK;
}

template <typename T>
static homg_status run(kernel_exec *ex, const fem_problem *p, const fem_system *s, const fem_patches *q)
{
    cudaStream_t st = homg_cuda_stream(ex);
    size_t smem = shared_bytes(q, sizeof(T));
    if (smem > ex->shared_per_block)
        return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "patch needs %zu bytes of shared memory, %zu available", smem,
                              ex->shared_per_block);
    if ((T *)q->rhs_B == (T *)q->values_B + s->nnz) { /* one block (homg_fem's): one set */
        HOMG_CUDA_TRY(ex, cudaMemsetAsync(q->values_B, 0, ((size_t)s->nnz + (size_t)s->num_rows) * sizeof(T), st));
    } else {
        HOMG_CUDA_TRY(ex, cudaMemsetAsync(q->values_B, 0, (size_t)s->nnz * sizeof(T), st));
        HOMG_CUDA_TRY(ex, cudaMemsetAsync(q->rhs_B, 0, (size_t)s->num_rows * sizeof(T), st));
    }
    if (q->num_patches > 0) {
        if (p->dim == 2)
            HOMG_TRY((launch<T, 2>(ex, p, s, q, smem)));
        else
            HOMG_TRY((launch<T, 3>(ex, p, s, q, smem)));
        HOMG_CUDA_LAUNCHED(ex, "fem_patch_kernel");
    }
    if ((int64_t)s->nnz + s->num_rows > 0) {
        fem_patch_add_kernel<T>
            <<<(unsigned)(((int64_t)s->nnz + s->num_rows + THREADS - 1) / THREADS), THREADS, 0, st>>>(
                (T *)s->values, (const T *)q->values_B, s->nnz, (T *)s->rhs, (const T *)q->rhs_B, s->num_rows);
        HOMG_CUDA_LAUNCHED(ex, "fem_patch_add_kernel");
    }
    return HOMG_OK;
}

size_t homg_cuda_fem_patch_scratch_bytes(kernel_exec *ex, int32_t max_nnz, int32_t max_nodes, homg_precision precision)
{
    (void)ex;
    (void)max_nnz;
    (void)max_nodes;
    (void)precision;
    return 0; /* shared memory stands in for the CPU's scratch */
}

homg_status homg_cuda_fem_numeric_patch(kernel_exec *ex, const fem_problem *p, const fem_system *s,
                                        const fem_patches *q)
{
    return s->precision == HOMG_FLOAT32 ? run<float>(ex, p, s, q) : run<double>(ex, p, s, q);
}
