/* refine.cu -- CUDA twin of refine.c: uniform refinement on the device, the
 * per-element rule of refine.h; the edges by CUB radix sort and unique. */
#include "core/cuda_check.h"
#include "refine.h"
#include "sparse/sparse_util.cuh"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>

#define COUNT_BYTES 256 /* the unique count lives at the start of the workspace */

static int key_bits(int32_t num_nodes)
{
    int b = 1;
    while (b < 32 && ((uint64_t)1 << b) <= (uint64_t)num_nodes)
        b++;
    return 32 + b;
}

homg_status homg_cuda_gmg_refine_temp_bytes(kernel_exec *ex, size_t num_keys, size_t *bytes)
{
    size_t sort_bytes = 0, unique_bytes = 0;
    cub::DoubleBuffer<uint64_t> db(NULL, NULL);
    if (num_keys > 0x7fffffff)
        return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "refinement: %zu edge keys exceed CUB's int item count",
                              num_keys);
    HOMG_CUDA_TRY(ex, cub::DeviceRadixSort::SortKeys(NULL, sort_bytes, db, (int)num_keys, 0, 64, homg_cuda_stream(ex)));
    HOMG_CUDA_TRY(ex, cub::DeviceSelect::Unique(NULL, unique_bytes, (const uint64_t *)NULL, (uint64_t *)NULL,
                                                (int *)NULL, (int)num_keys, homg_cuda_stream(ex)));
    *bytes = COUNT_BYTES + (sort_bytes > unique_bytes ? sort_bytes : unique_bytes);
    return HOMG_OK;
}

/* Element e's edge keys a << 32 | b packed as a << bits | b (the same order,
 * 2 bits instead of 32 + bits to sort: node indices are < 2^bits). */
__global__ static void refine_keys_kernel(int nv, int32_t ne, const int32_t *elements, int bits, uint64_t *keys)
{
    int per = nv * (nv - 1) / 2;
    FOR_ROWS(e, ne)
    {
        uint64_t k[6];
        refine_element_keys(nv, elements, e, k);
        for (int j = 0; j < per; j++)
            keys[(size_t)e * per + j] = refine_key_pack(k[j], bits);
    }
}

/* The c sorted unique packed keys back as a << 32 | b (in place allowed). */
__global__ static void refine_unpack_kernel(const uint64_t *packed, int32_t c, int bits, uint64_t *keys)
{
    FOR_ROWS(i, c) keys[i] = refine_key_unpack(packed[i], bits);
}

/* The same for an expected count: the first min(*found, expected) unique
 * keys, then (a wrong prediction: the caller checks found later, no read here)
 * the last one again up to expected, by its own thread (in place allowed). */
__global__ static void refine_unpack_expected_kernel(const uint64_t *packed, const int *found, int32_t expected,
                                                     int bits, uint64_t *keys)
{
    int32_t c = *found < expected ? *found : expected;
    FOR_ROWS(i, c)
    {
        uint64_t k = refine_key_unpack(packed[i], bits);
        keys[i] = k;
        for (int32_t j = c; i == c - 1 && j < expected; j++)
            keys[j] = k;
    }
}

homg_status homg_cuda_gmg_refine_edges(kernel_exec *ex, int dim, int32_t num_elements, const int32_t *elements,
                                       int32_t num_nodes, uint64_t *keys, uint64_t *keys_alt, void *temp,
                                       size_t temp_bytes, int32_t expected, int32_t *found, int32_t *count)
{
    cudaStream_t s = homg_cuda_stream(ex);
    int nv = dim + 1, n = num_elements * (nv * (nv - 1) / 2), c = 0;
    int *d_count = expected >= 0 ? (int *)found : (int *)temp;
    void *work = (unsigned char *)temp + COUNT_BYTES;
    size_t work_bytes = temp_bytes - COUNT_BYTES;
    *count = 0;
    if (expected > n)
        return homg_exec_fail(ex, HOMG_ERROR_BACKEND, "refinement: %d edges expected of %d keys", (int)expected, n);
    if (num_elements <= 0)
        return HOMG_OK;
    int bits = key_bits(num_nodes) - 32;
    refine_keys_kernel<<<launch_blocks(num_elements), HOMG_THREADS, 0, s>>>(nv, num_elements, elements, bits, keys);
    HOMG_CUDA_LAUNCHED(ex, "refinement edge keys");
    cub::DoubleBuffer<uint64_t> db(keys, keys_alt);
    HOMG_CUDA_TRY(ex, cub::DeviceRadixSort::SortKeys(work, work_bytes, db, n, 0, 2 * bits, s));
    HOMG_CUDA_TRY(
        ex, cub::DeviceSelect::Unique(work, work_bytes, (const uint64_t *)db.Current(), db.Alternate(), d_count, n, s));
    if (expected >= 0) { /* queued: the caller compares found with expected later */
        if (expected > 0)
            refine_unpack_expected_kernel<<<launch_blocks(expected), HOMG_THREADS, 0, s>>>(db.Alternate(), d_count,
                                                                                           expected, bits, keys);
        HOMG_CUDA_LAUNCHED(ex, "refinement edge keys unpacked");
        *count = expected;
        return HOMG_OK;
    }
    HOMG_CUDA_TRY(ex, cudaMemcpyAsync(&c, d_count, sizeof c, cudaMemcpyDeviceToHost, s));
    HOMG_CUDA_TRY(ex, cudaStreamSynchronize(s));
    if (c <= 0 || c > n)
        return homg_exec_fail(ex, HOMG_ERROR_BACKEND, "refinement: unique returned %d edges of %d keys", c, n);
    refine_unpack_kernel<<<launch_blocks(c), HOMG_THREADS, 0, s>>>(db.Alternate(), c, bits, keys);
    HOMG_CUDA_LAUNCHED(ex, "refinement edge keys unpacked");
    *count = c;
    return HOMG_OK;
}

__global__ static void refine_nodes_kernel(int dim, int32_t nn, const double *coarse, const uint64_t *edges, int32_t n,
                                           double *fine)
{
    FOR_ROWS(i, n) refine_node(dim, coarse, nn, edges, i, fine);
}

homg_status homg_cuda_gmg_refine_nodes(kernel_exec *ex, int dim, int32_t num_nodes, const double *coarse,
                                       const uint64_t *edges, int32_t num_edges, double *fine)
{
    int32_t n = num_nodes + num_edges;
    if (n == 0)
        return HOMG_OK;
    refine_nodes_kernel<<<launch_blocks(n), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(dim, num_nodes, coarse, edges, n,
                                                                                     fine);
    HOMG_CUDA_LAUNCHED(ex, "refinement nodes");
    return HOMG_OK;
}

__global__ static void refine_elements_kernel(int dim, int32_t ne, const int32_t *elements, int32_t nn,
                                              const uint64_t *edges, int32_t nedges, const double *fine,
                                              int32_t *children, const int32_t *tags, int32_t *child_tags)
{
    int nc = dim == 2 ? 4 : 8, per = nc * (dim + 1);
    FOR_ROWS(e, ne)
    {
        refine_element_children(dim, elements, e, nn, edges, nedges, fine, children + (size_t)e * per);
        for (int t = 0; tags && t < nc; t++)
            child_tags[(size_t)e * nc + t] = tags[e];
    }
}

homg_status homg_cuda_gmg_refine_elements(kernel_exec *ex, int dim, int32_t num_elements, const int32_t *elements,
                                          int32_t num_nodes, const uint64_t *edges, int32_t num_edges,
                                          const double *fine, int32_t *children, const int32_t *tags,
                                          int32_t *child_tags)
{
    if (num_elements == 0)
        return HOMG_OK;
    refine_elements_kernel<<<launch_blocks(num_elements), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(
        dim, num_elements, elements, num_nodes, edges, num_edges, fine, children, tags, child_tags);
    HOMG_CUDA_LAUNCHED(ex, "refinement elements");
    return HOMG_OK;
}

__global__ static void refine_facets_kernel(int dim, int32_t nf, const int32_t *facets, const int32_t *tags, int32_t nn,
                                            const uint64_t *edges, int32_t ne, int32_t *children, int32_t *child_tags,
                                            int32_t *bad)
{
    FOR_ROWS(f, nf)
    {
        if (!refine_facet_children(dim, facets, tags, f, nn, edges, ne, children, child_tags))
            atomicMax(bad, (int)(nf - f)); /* the first such facet, as the host names it */
    }
}

homg_status homg_cuda_gmg_refine_facets(kernel_exec *ex, int dim, int32_t num_facets, const int32_t *facets,
                                        const int32_t *tags, int32_t num_nodes, const uint64_t *edges,
                                        int32_t num_edges, int32_t *children, int32_t *child_tags, int32_t *bad)
{
    if (num_facets == 0)
        return HOMG_OK;
    refine_facets_kernel<<<launch_blocks(num_facets), HOMG_THREADS, 0, homg_cuda_stream(ex)>>>(
        dim, num_facets, facets, tags, num_nodes, edges, num_edges, children, child_tags, bad);
    HOMG_CUDA_LAUNCHED(ex, "refinement facets");
    return HOMG_OK;
}

__global__ static void facet_markers_kernel(int dim, int32_t nf, const int32_t *facets, const int32_t *tags,
                                            int32_t *markers)
{
    FOR_ROWS(f, nf)
    {
        for (int k = 0; k < dim && tags[f] > 0; k++)
            atomicMax(markers + facets[(size_t)f * dim + k], tags[f]);
    }
}

homg_status homg_cuda_gmg_facet_markers(kernel_exec *ex, int dim, int32_t num_facets, const int32_t *facets,
                                        const int32_t *tags, int32_t num_nodes, int32_t *markers)
{
    cudaStream_t s = homg_cuda_stream(ex);
    HOMG_CUDA_TRY(ex, cudaMemsetAsync(markers, 0, (size_t)num_nodes * sizeof(int32_t), s));
    if (num_facets == 0)
        return HOMG_OK;
    facet_markers_kernel<<<launch_blocks(num_facets), HOMG_THREADS, 0, s>>>(dim, num_facets, facets, tags, markers);
    HOMG_CUDA_LAUNCHED(ex, "facet markers");
    return HOMG_OK;
}
