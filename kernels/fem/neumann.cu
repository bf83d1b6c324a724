/* neumann.cu -- the Neumann load, one thread per boundary facet, added to the
 * right-hand side with atomics (facets share nodes).
 * CPU twin: neumann.c beside it. */
#include "core/cuda_check.h"
#include "fem_element.h"

#define THREADS 256

template <typename T>
__global__ void fem_neumann_kernel(fem_problem p, T *rhs, int32_t num_facets, const int32_t *facets,
                                   const int32_t *facet_tags, fem_flux_table t)
{
    int64_t f = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (f >= num_facets)
        return;
    const int32_t *v = facets + (size_t)f * p.dim;
    double share = fem_facet_load(&p, &t, facet_tags[f], v);
    if (share != 0)
        for (int k = 0; k < p.dim; k++)
            atomicAdd(rhs + v[k], (T)share);
}

homg_status homg_cuda_fem_neumann(kernel_exec *ex, const fem_problem *p, const fem_system *s, int32_t num_facets,
                                  const int32_t *facets, const int32_t *facet_tags, const fem_flux_table *t)
{
    unsigned blocks = (unsigned)((num_facets + THREADS - 1) / THREADS);
    if (num_facets <= 0 || t->n == 0)
        return HOMG_OK;
    if (s->precision == HOMG_FLOAT32)
        fem_neumann_kernel<float>
            <<<blocks, THREADS, 0, homg_cuda_stream(ex)>>>(*p, (float *)s->rhs, num_facets, facets, facet_tags, *t);
    else
        fem_neumann_kernel<double>
            <<<blocks, THREADS, 0, homg_cuda_stream(ex)>>>(*p, (double *)s->rhs, num_facets, facets, facet_tags, *t);
    HOMG_CUDA_LAUNCHED(ex, "fem_neumann_kernel");
    return HOMG_OK;
}
