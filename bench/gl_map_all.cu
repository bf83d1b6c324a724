/* gl_map_all.cu -- gl_map_all.h: the resources are cudaGraphicsResource_t of GL objects. */
#include "gl_map_all.h"

#include <cuda_runtime.h>

extern "C" int bench_gl_map_all(void **res, int n, int map, void *stream)
{
    cudaGraphicsResource_t *r = (cudaGraphicsResource_t *)res;
    cudaStream_t s = (cudaStream_t)stream;
    return (map ? cudaGraphicsMapResources(n, r, s) : cudaGraphicsUnmapResources(n, r, s)) != cudaSuccess;
}
