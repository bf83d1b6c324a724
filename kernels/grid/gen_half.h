/* gen_half.h -- IEEE binary16 storage for the general structured multigrid
 * (HOMG_FLOAT16 grids, lib/homg.h): the CPU twin's conversions, plain C99 on
 * uint16_t bits.  float -> half rounds to nearest, ties to even, with
 * denormals, overflow to inf and NaN kept quiet, as CUDA's __float2half_rn;
 * half -> float is exact.  The CUDA side (gen.cu, gen_half) uses cuda_fp16.h
 * and must round the same: tests/test_grid_half.c checks a table of exact
 * cases, tests/test_grid_gpu.c the kernels against this twin. */
#ifndef HOMG_GEN_HALF_H
#define HOMG_GEN_HALF_H

#include <stdint.h>
#include <string.h>

typedef uint16_t gen_h16;

static inline float gen_half_to_float(gen_h16 h)
{
    const uint32_t s = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    uint32_t u;
    float f;
    if (e == 0) { /* zero or denormal: m 2^-24, exact in float */
        f = (float)m * 5.9604644775390625e-8f;
        return s ? -f : f;
    }
    u = e == 0x1f ? s | 0x7f800000u | (m << 13) : s | ((e + 112u) << 23) | (m << 13);
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline gen_h16 gen_float_to_half(float f)
{
    uint32_t u, s, a, h, rem;
    memcpy(&u, &f, sizeof u);
    s = (u >> 16) & 0x8000u;
    a = u & 0x7fffffffu;
    if (a > 0x7f800000u) /* NaN: quiet */
        return (gen_h16)(s | 0x7e00u);
    if (a >= 0x477ff000u) /* >= 65520 (inf included): rounds to inf */
        return (gen_h16)(s | 0x7c00u);
    if (a < 0x38800000u) { /* below 2^-14: a denormal half (or zero) */
        uint32_t e = a >> 23, m, sh, half;
        if (a < 0x33000000u) /* below 2^-25 (2^-25 itself ties to 0) */
            return (gen_h16)s;
        m = (a & 0x7fffffu) | 0x800000u;
        sh = 126u - e; /* 14..24: the value in units of 2^-24 is m >> sh */
        h = m >> sh;
        rem = m & ((1u << sh) - 1u);
        half = 1u << (sh - 1u);
        h += rem > half || (rem == half && (h & 1u));
        return (gen_h16)(s | h);
    }
    a -= 0x38000000u; /* rebias the exponent (127 -> 15) */
    h = a >> 13;
    rem = a & 0x1fffu;
    h += rem > 0x1000u || (rem == 0x1000u && (h & 1u)); /* a carry moves into the exponent, as it should */
    return (gen_h16)(s | h);
}

#endif
