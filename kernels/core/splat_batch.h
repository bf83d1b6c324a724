/* splat_batch.h -- Gaussian splats (homg_splat) as the kernels see them: a batch
 * passed by value to a launch, and the value a batch gives at a point, shared
 * word for word by the CPU and CUDA twins (mesh nodes, fluid grids). */
#ifndef HOMG_SPLAT_BATCH_H
#define HOMG_SPLAT_BATCH_H

#include "kernels.h"

#include <math.h>

/* Splats per launch (lib/ loops over batches, accumulating after the first). */
#define SPLAT_BATCH 16

typedef struct splat_batch {
    int count; /* <= SPLAT_BATCH */
    homg_splat s[SPLAT_BATCH];
} splat_batch;

/* sum over the batch of amount * exp(-|x - center|^2 / (2 width^2)) at the point x (dim coordinates) */
HOMG_HD double splat_value(int dim, const double *x, const splat_batch *b)
{
    double v = 0;
    for (int k = 0; k < b->count; k++) {
        const homg_splat *s = &b->s[k];
        double r2 = 0;
        for (int c = 0; c < dim; c++)
            r2 += (x[c] - s->center[c]) * (x[c] - s->center[c]);
        v += s->amount * exp(-r2 / (2 * s->width * s->width));
    }
    return v;
}

/* Host side: the next batch of splats[first .. n) into b; returns the new first. */
static inline int splat_batch_fill(splat_batch *b, const homg_splat *splats, int n, int first)
{
    b->count = n - first < SPLAT_BATCH ? n - first : SPLAT_BATCH;
    for (int i = 0; i < b->count; i++)
        b->s[i] = splats[first + i];
    return first + b->count;
}

#endif
