/* lcg.h -- the power iterations' random start, shared by gmg.c and gmg.cu
 * (HOMG_HD): x_i from the (i + 1)-th step of the LCG s <- 1664525 s +
 * 1013904223 (mod 2^32) from s0, reached by jumping ahead in log2(i) steps
 * (the affine maps' powers), so each element is computed on its own and the
 * vector is the one the sequential loop gave. */
#ifndef HOMG_GMG_LCG_H
#define HOMG_GMG_LCG_H

#include "gmg_kernels.h"

HOMG_HD double gmg_lcg_value(uint32_t s0, uint32_t i)
{
    uint32_t am = 1, cm = 0, ab = 1664525u, cb = 1013904223u; /* s -> am s + cm; f^(2^j) as ab s + cb */
    uint64_t k = (uint64_t)i + 1;
    while (k) {
        if (k & 1) {
            cm = ab * cm + cb;
            am = ab * am;
        }
        cb = ab * cb + cb;
        ab = ab * ab;
        k >>= 1;
    }
    return (double)((am * s0 + cm) >> 8) / 16777216.0 - 0.5;
}

#endif
