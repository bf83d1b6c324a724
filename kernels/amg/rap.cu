/* rap.cu -- CUDA backend: the Galerkin product C = P^T A P row by row of C
 * (twin of rap.c).  One block per coarse row I: groups of G lanes take the
 * fine rows i of column I of P (row I of pt = P^T), a lane an entry a_ij,
 * and add p_iI a_ij P(j, :) in double into a hash table of the row's columns
 * in shared memory (2 cap slots, linear probing); the columns found are
 * ranked (sorted) and written to row I of a slab of cap entries per row.  A
 * row with more than cap columns leaves count 0 and raises *overflow (the
 * caller retries with a larger cap or another product).  With smoothed
 * aggregation P has a few entries per row, so a coarse row gathers a few
 * thousand products into a few dozen columns: no A P is formed, one pass. */
#include "amg_common.h"
#include "amg_kernels.h"
#include "sparse/sparse_util.cuh"

#define RAP_THREADS 128

/* Adds v to column c of the table (2^LOG2H slots); *m counts the columns. */
template <int LOG2H>
__device__ static inline void rap_insert(int32_t *key, double *val, int32_t *m, int32_t cap, int32_t c, double v)
{
    const uint32_t mask = (1u << LOG2H) - 1;
    volatile int32_t *vkey = key;
    uint32_t h = ((uint32_t)c * 2654435761u) >> (32 - LOG2H);
    if (*(volatile int32_t *)m > cap)
        return; /* the row overflows already: its values are not used */
    for (uint32_t probe = 0; probe <= mask; probe++, h = (h + 1) & mask) {
        int32_t old = vkey[h];
        if (old == -1) {
            old = atomicCAS(&key[h], -1, c);
            if (old == -1) {
                atomicAdd(m, 1);
                atomicAdd(&val[h], v);
                return;
            }
        }
        if (old == c) {
            atomicAdd(&val[h], v);
            return;
        }
    }
    atomicAdd(m, cap + 1); /* table full: more than cap columns */
}

template <int LOG2CAP, int G>
__global__ static void __launch_bounds__(RAP_THREADS)
    rap_kernel(const int32_t *arp, const int32_t *aci, const float *av, const int32_t *prp, const int32_t *pci,
               const float *pv, const int32_t *trp, const int32_t *tci, const float *tv, int32_t nc, int32_t *slab_col,
               float *slab_val, int32_t *cnt, int32_t *overflow)
{
    const int32_t cap = 1 << LOG2CAP, hsize = 2 << LOG2CAP;
    __shared__ int32_t key[2 << LOG2CAP];
    __shared__ double val[2 << LOG2CAP];
    __shared__ int32_t ck[1 << LOG2CAP];
    __shared__ float cv[1 << LOG2CAP];
    __shared__ int32_t m, m2;
    int lane = threadIdx.x % G, group = threadIdx.x / G, ngroups = blockDim.x / G;
    for (int32_t I = blockIdx.x; I < nc; I += gridDim.x) {
        for (int s = threadIdx.x; s < hsize; s += blockDim.x) {
            key[s] = -1;
            val[s] = 0;
        }
        if (threadIdx.x == 0)
            m = m2 = 0;
        __syncthreads();
        for (int32_t t = trp[I] + group; t < trp[I + 1]; t += ngroups) {
            int32_t i = tci[t];
            double wi = tv[t];
            for (int32_t k = arp[i] + lane; k < arp[i + 1]; k += G) {
                int32_t j = aci[k];
                double w = wi * av[k];
                for (int32_t q = prp[j]; q < prp[j + 1]; q++)
                    rap_insert<LOG2CAP + 1>(key, val, &m, cap, pci[q], w * pv[q]);
            }
        }
        __syncthreads();
        int32_t total = m; /* the same in every thread: the branch below is uniform */
        if (total > cap) {
            if (threadIdx.x == 0) {
                cnt[I] = 0;
                *overflow = 1;
            }
        } else {
            for (int s = threadIdx.x; s < hsize; s += blockDim.x)
                if (key[s] >= 0) {
                    int32_t p = atomicAdd(&m2, 1);
                    ck[p] = key[s];
                    cv[p] = (float)val[s];
                }
            __syncthreads();
            for (int32_t p = threadIdx.x; p < total; p += blockDim.x) {
                int32_t c = ck[p], r = 0;
                for (int32_t q = 0; q < total; q++)
                    r += ck[q] < c;
                slab_col[(size_t)I * cap + r] = c;
                slab_val[(size_t)I * cap + r] = cv[p];
            }
            if (threadIdx.x == 0)
                cnt[I] = total;
        }
        __syncthreads();
    }
}

template <int LOG2CAP, int G>
static void rap_launch(cudaStream_t s, const csr_matrix *a, const csr_matrix *p, const csr_matrix *pt,
                       int32_t *slab_col, float *slab_val, int32_t *cnt, int32_t *overflow)
{
    int32_t nc = pt->nrows;
    unsigned blocks = (unsigned)(nc < (1 << 20) ? (nc > 0 ? nc : 1) : (1 << 20));
    rap_kernel<LOG2CAP, G><<<blocks, RAP_THREADS, 0, s>>>(
        a->row_ptr, a->col_idx, (const float *)a->values, p->row_ptr, p->col_idx, (const float *)p->values, pt->row_ptr,
        pt->col_idx, (const float *)pt->values, nc, slab_col, slab_val, cnt, overflow);
}

template <int LOG2CAP>
static void rap_launch_g(cudaStream_t s, const csr_matrix *a, const csr_matrix *p, const csr_matrix *pt,
                         int32_t *slab_col, float *slab_val, int32_t *cnt, int32_t *overflow)
{
    /* lanes per fine row near its length: the P1 cube's 15 entries take 16 */
    int64_t len = a->nrows > 0 ? (a->nnz + a->nrows - 1) / a->nrows : 1;
    if (len <= 8)
        rap_launch<LOG2CAP, 8>(s, a, p, pt, slab_col, slab_val, cnt, overflow);
    else if (len <= 16)
        rap_launch<LOG2CAP, 16>(s, a, p, pt, slab_col, slab_val, cnt, overflow);
    else
        rap_launch<LOG2CAP, 32>(s, a, p, pt, slab_col, slab_val, cnt, overflow);
}

homg_status homg_cuda_amg_rap_rows(kernel_exec *ex, const csr_matrix *a, const csr_matrix *p, const csr_matrix *pt,
                                   int32_t cap, int32_t *slab_col, float *slab_val, int32_t *cnt, int32_t *overflow)
{
    cudaStream_t s = homg_cuda_stream(ex);
    HOMG_CUDA_TRY(ex, cudaMemsetAsync(overflow, 0, sizeof *overflow, s));
    if (pt->nrows <= 0)
        return HOMG_OK;
    if (cap == 128)
        rap_launch_g<7>(s, a, p, pt, slab_col, slab_val, cnt, overflow);
    else if (cap == 256)
        rap_launch_g<8>(s, a, p, pt, slab_col, slab_val, cnt, overflow);
    else if (cap == 512)
        rap_launch_g<9>(s, a, p, pt, slab_col, slab_val, cnt, overflow);
    else
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "rap_rows: cap %d is not 128, 256 or 512", (int)cap);
    HOMG_CUDA_LAUNCHED(ex, "rap_rows");
    return HOMG_OK;
}

/* One warp per row of C: its slab row copied to its place. */
__global__ static void rap_compact_kernel(int32_t nc, int32_t cap, const int32_t *slab_col, const float *slab_val,
                                          const int32_t *rp, int32_t *ci, float *v)
{
    int32_t lane = threadIdx.x & 31;
    for (int64_t w = (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) >> 5; w < nc;
         w += ((int64_t)gridDim.x * blockDim.x) >> 5) {
        int32_t I = (int32_t)w, o = rp[I], len = rp[I + 1] - o;
        for (int32_t r = lane; r < len; r += 32) {
            ci[o + r] = slab_col[(size_t)I * cap + r];
            v[o + r] = slab_val[(size_t)I * cap + r];
        }
    }
}

homg_status homg_cuda_amg_rap_compact(kernel_exec *ex, int32_t cap, const int32_t *slab_col, const float *slab_val,
                                      csr_matrix *c)
{
    if (c->nrows <= 0)
        return HOMG_OK;
    rap_compact_kernel<<<launch_blocks((int64_t)c->nrows * 32), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(
        c->nrows, cap, slab_col, slab_val, c->row_ptr, c->col_idx, (float *)c->values);
    HOMG_CUDA_LAUNCHED(ex, "rap_compact");
    return HOMG_OK;
}
