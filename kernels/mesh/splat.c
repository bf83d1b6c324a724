/* splat.c -- CPU backend of the mesh kernels: Gaussian splats at the nodes
 * (CUDA twin: splat.cu; the formula is splat_value in core/splat_batch.h). */
#include "mesh/mesh_kernels.h"

#include <math.h>

homg_status homg_cpu_mesh_splat(kernel_exec *ex, int dim, int32_t num_nodes, const double *coords,
                                const splat_batch *splats, homg_precision precision, int accumulate, void *f)
{
    (void)ex;
#pragma omp parallel for schedule(static) if (num_nodes > HOMG_OMP_MIN)
    for (int32_t k = 0; k < num_nodes; k++) {
        double v = splat_value(dim, coords + (size_t)dim * k, splats);
        if (precision == HOMG_FLOAT64)
            ((double *)f)[k] = (accumulate ? ((double *)f)[k] : 0) + v;
        else
            ((float *)f)[k] = (float)((accumulate ? ((float *)f)[k] : 0) + v);
    }
    return HOMG_OK;
}

const mesh_kernels homg_cpu_mesh_kernels = { .name = "cpu", MESH_KERNELS(HOMG_KERNEL_CPU_INIT) };
