/* cube_exact_point.h -- the steps of cube_exact.h's solve, shared word for word by
 * cube_exact.c and cube_exact.cu: thread t of nt computes the cells t, t + nt, ... of one
 * transform; fmaf in a fixed order, so both backends give the same floats. */
#ifndef HOMG_CUBE_EXACT_POINT_H
#define HOMG_CUBE_EXACT_POINT_H

#include <math.h>

#include "cube_exact.h"

/* out = S_a^T in (fwd) or S_a in along axis a (s: S_a, n: the three sizes); with d,
 * out /= (evx_i + evy_j + evz_k + lam) after the sum (the z step of the way in). */
HOMG_HD void cube_exact_axis(const cube_exact *E, const float *s, int a, int fwd, const float *in, float *out, int d,
                             unsigned t, unsigned nt)
{
    const int nx = E->n[0], ny = E->n[1], na = E->n[a];
    const unsigned cells = (unsigned)nx * ny * E->n[2];
    const unsigned st = a == 0 ? 1u : a == 1 ? (unsigned)nx : (unsigned)nx * ny;
    for (unsigned c = t; c < cells; c += nt) {
        const int i = (int)(c % (unsigned)nx), j = (int)(c / (unsigned)nx % (unsigned)ny),
                  k = (int)(c / ((unsigned)nx * ny));
        const int p = a == 0 ? i : a == 1 ? j : k; /* c's index along a */
        const unsigned base = c - (unsigned)p * st;
        float sum = 0.0f;
        for (int q = 0; q < na; q++)
            sum = fmaf(fwd ? s[q * na + p] : s[p * na + q], in[base + (unsigned)q * st], sum);
        if (d)
            sum = sum / (((E->ev[0][i] + E->ev[1][j]) + E->ev[2][k]) + E->lam);
        out[c] = sum;
    }
}

#endif
