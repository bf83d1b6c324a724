/* mask.cu -- the Dirichlet mask on the device (mask.h): one thread per
 * element (or per node from the pattern's rows), facet and node in three launches, then the counts by warp sums and
 * atomics.  CPU twin: mask.c beside it. */
#include "core/cuda_check.h"
#include "mask.h"

#define THREADS 256

static unsigned blocks_for(int64_t n) { return (unsigned)(n > 0 ? (n + THREADS - 1) / THREADS : 1); }

__global__ void fem_mask_elements_kernel(fem_problem p, uint8_t *mask)
{
    int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (e < p.num_elements)
        mask_element(&p, e, mask);
}

__global__ void fem_mask_rows_kernel(int32_t n, const int32_t *row_ptr, uint8_t *mask)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        mask_row(row_ptr, i, mask);
}

__global__ void fem_mask_facets_kernel(int dim, int32_t nf, const int32_t *facets, const int32_t *facet_tags,
                                       const int32_t *tags, int num_tags, uint8_t *mask)
{
    int64_t f = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (f < nf)
        mask_facet(dim, facets, facet_tags, f, tags, num_tags, mask);
}

/* Markers (when there are any), then the counts of this node. */
__global__ void fem_mask_nodes_kernel(int32_t n, const int32_t *node_markers, const int32_t *tags, int num_tags,
                                      uint8_t *mask, int32_t *counts)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned one = 0, masked = 0;
    if (i < n) {
        if (node_markers)
            mask_marker(node_markers, i, tags, num_tags, mask);
        one = mask[i] == 1;
        masked = mask[i] != 0;
    }
    one = __reduce_add_sync(0xffffffffu, one);
    masked = __reduce_add_sync(0xffffffffu, masked);
    if ((threadIdx.x & 31) == 0 && masked) {
        atomicAdd(&counts[0], (int32_t)one);
        atomicAdd(&counts[1], (int32_t)masked);
    }
}

homg_status homg_cuda_fem_mask(kernel_exec *ex, const fem_problem *p, const int32_t *row_ptr, int32_t num_facets,
                               const int32_t *facets, const int32_t *facet_tags, const int32_t *node_markers,
                               const int32_t *tags, int num_tags, uint8_t *mask, int32_t *counts)
{
    cudaStream_t s = homg_cuda_stream(ex);
    int32_t n = p->num_nodes;
    HOMG_CUDA_TRY(ex, cudaMemsetAsync(counts, 0, 2 * sizeof(int32_t), s));
    if (n <= 0)
        return HOMG_OK;
    if (row_ptr) {
        fem_mask_rows_kernel<<<blocks_for(n), THREADS, 0, s>>>(n, row_ptr, mask);
    } else {
        HOMG_CUDA_TRY(ex, cudaMemsetAsync(mask, 2, (size_t)n, s));
        if (p->num_elements > 0)
            fem_mask_elements_kernel<<<blocks_for(p->num_elements), THREADS, 0, s>>>(*p, mask);
    }
    if (num_facets > 0 && num_tags > 0)
        fem_mask_facets_kernel<<<blocks_for(num_facets), THREADS, 0, s>>>(p->dim, num_facets, facets, facet_tags, tags,
                                                                          num_tags, mask);
    fem_mask_nodes_kernel<<<blocks_for(n), THREADS, 0, s>>>(n, num_tags > 0 ? node_markers : NULL, tags, num_tags, mask,
                                                            counts);
    HOMG_CUDA_LAUNCHED(ex, "fem_mask kernels");
    return HOMG_OK;
}
