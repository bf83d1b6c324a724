/* mesh_kernels.h -- what lib/mesh asks of a backend: fields evaluated at a
 * mesh's nodes (the sources an interactive demo moves every frame). */
#ifndef HOMG_MESH_KERNELS_H
#define HOMG_MESH_KERNELS_H

#include "kernels.h"

#include <math.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Splats per launch: they travel by value as a kernel argument (lib/mesh loops
 * over batches of this many, accumulating after the first). */
#define MESH_SPLAT_BATCH 16

typedef struct mesh_splats {
    int count; /* <= MESH_SPLAT_BATCH */
    homg_splat s[MESH_SPLAT_BATCH];
} mesh_splats;

/* The value the splats give at point x (dim coordinates); shared by both backends. */
HOMG_HD double mesh_splat_value(int dim, const double *x, const mesh_splats *sp)
{
    double v = 0;
    for (int k = 0; k < sp->count; k++) {
        const homg_splat *s = &sp->s[k];
        double r2 = 0;
        for (int c = 0; c < dim; c++)
            r2 += (x[c] - s->center[c]) * (x[c] - s->center[c]);
        v += s->amount * exp(-r2 / (2 * s->width * s->width));
    }
    return v;
}

#define MESH_KERNELS(X)                                                                                     \
    /* f[k] = (accumulate ? f[k] : 0) + the splats at node k (coords: num_nodes * dim, the */              \
    /* exec's space; f: num_nodes values of `precision`). */                                               \
    X(homg_status, mesh, splat,                                                                             \
      (kernel_exec * ex, int dim, int32_t num_nodes, const double *coords, const mesh_splats *splats,      \
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
