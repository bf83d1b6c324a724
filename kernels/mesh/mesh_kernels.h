/* mesh_kernels.h -- what lib/mesh asks of a backend: fields evaluated at a
 * mesh's nodes (the sources an interactive demo moves every frame). */
#ifndef HOMG_MESH_KERNELS_H
#define HOMG_MESH_KERNELS_H

#include "core/splat_batch.h"
#include "kernels.h"

#include <math.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MESH_KERNELS(X)                                                                               \
    /* f[k] = (accumulate ? f[k] : 0) + the splats at node k (coords: num_nodes * dim, the */         \
    /* exec's space; f: num_nodes values of `precision`). */                                          \
    X(homg_status, mesh, splat,                                                                       \
      (kernel_exec * ex, int dim, int32_t num_nodes, const double *coords, const splat_batch *splats, \
       homg_precision precision, int accumulate, void *f))

typedef struct mesh_kernels {
    const char *name;
    MESH_KERNELS(HOMG_KERNEL_MEMBER)
} mesh_kernels;
MESH_KERNELS(HOMG_KERNEL_CPU_PROTO)
extern const mesh_kernels homg_cpu_mesh_kernels;
#if HOMG_HAVE_CUDA
MESH_KERNELS(HOMG_KERNEL_CUDA_PROTO)
extern const mesh_kernels homg_cuda_mesh_kernels;
#endif

#ifdef __cplusplus
}
#endif
#endif /* HOMG_MESH_KERNELS_H */
