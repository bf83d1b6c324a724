/* splat.cu -- CUDA backend of the mesh kernels: Gaussian splats at the nodes,
 * one thread per node (CPU twin: splat.c). */
#include "core/cuda_check.h"
#include "mesh/mesh_kernels.h"

template <typename T>
__global__ void mesh_splat_kernel(int dim, int32_t n, const double *coords, splat_batch sp, int accumulate, T *f)
{
    int32_t k = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    if (k >= n)
        return;
    double v = splat_value(dim, coords + (size_t)dim * k, &sp);
    f[k] = (T)((accumulate ? (double)f[k] : 0.0) + v);
}

extern "C" homg_status homg_cuda_mesh_splat(kernel_exec *ex, int dim, int32_t num_nodes, const double *coords,
                                            const splat_batch *splats, homg_precision precision, int accumulate,
                                            void *f)
{
    cudaStream_t st = homg_cuda_stream(ex);
    unsigned blocks = (unsigned)((num_nodes + 255) / 256);
    if (num_nodes <= 0)
        return HOMG_OK;
    if (precision == HOMG_FLOAT64)
        mesh_splat_kernel<double><<<blocks, 256, 0, st>>>(dim, num_nodes, coords, *splats, accumulate, (double *)f);
    else
        mesh_splat_kernel<float><<<blocks, 256, 0, st>>>(dim, num_nodes, coords, *splats, accumulate, (float *)f);
    HOMG_CUDA_LAUNCHED(ex, "mesh_splat_kernel");
    return HOMG_OK;
}

extern "C" const mesh_kernels homg_cuda_mesh_kernels = { .name = "cuda", MESH_KERNELS(HOMG_KERNEL_CUDA_INIT) };
