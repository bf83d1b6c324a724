/* det.h -- a tetrahedron's signed volume times 6, one source for the host
 * (homg__element_det, lib/mesh/mesh.c) and the refinement kernels
 * (kernels/gmg/refine.h).  Device products and sums round as the host's
 * (no fused multiply-add), so orientation tests agree bit for bit. */
#ifndef HOMG_DET_H
#define HOMG_DET_H

#include <stddef.h>
#include <stdint.h>

#include "kernels.h" /* HOMG_HD */

#ifdef __CUDA_ARCH__
#define HOMG_RN_MUL(a, b) __dmul_rn(a, b)
#define HOMG_RN_ADD(a, b) __dadd_rn(a, b)
#else
#define HOMG_RN_MUL(a, b) ((a) * (b))
#define HOMG_RN_ADD(a, b) ((a) + (b))
#endif

/* Nodes n[0..3] of the coordinates x (3 per node). */
HOMG_HD double homg_det3(const double *x, const int32_t *n)
{
    const double *p0 = x + 3 * (size_t)n[0], *p1 = x + 3 * (size_t)n[1], *p2 = x + 3 * (size_t)n[2],
                 *p3 = x + 3 * (size_t)n[3];
    double a[3], b[3], c[3];
    for (int k = 0; k < 3; k++) {
        a[k] = p1[k] - p0[k];
        b[k] = p2[k] - p0[k];
        c[k] = p3[k] - p0[k];
    }
    return HOMG_RN_ADD(HOMG_RN_ADD(HOMG_RN_MUL(a[0], HOMG_RN_ADD(HOMG_RN_MUL(b[1], c[2]), -HOMG_RN_MUL(b[2], c[1]))),
                                   -HOMG_RN_MUL(a[1], HOMG_RN_ADD(HOMG_RN_MUL(b[0], c[2]), -HOMG_RN_MUL(b[2], c[0])))),
                       HOMG_RN_MUL(a[2], HOMG_RN_ADD(HOMG_RN_MUL(b[0], c[1]), -HOMG_RN_MUL(b[1], c[0]))));
}

#endif
