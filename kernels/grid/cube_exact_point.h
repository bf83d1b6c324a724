/* cube_exact_point.h -- the steps of cube_exact.h's solve, shared word for word by
 * cube_exact.c and cube_exact.cu: a transform along axis a is one line of cells along a a
 * thread, the line's (at most) CUBE_EXACT_N values in registers, out = mat v with mat a
 * CUBE_EXACT_N x CUBE_EXACT_N matrix (S_a or S_a^T, zero-padded) read 4 entries a load; fmaf
 * in a fixed order, so both backends give the same floats. */
#ifndef HOMG_CUBE_EXACT_POINT_H
#define HOMG_CUBE_EXACT_POINT_H

#include <math.h>

#include "cube_exact.h"
#include "cube_point.h"

/* Lines along axis a: the product of the other two sizes. */
HOMG_HD unsigned cube_exact_lines(const cube_exact *E, int a)
{
    return (unsigned)E->n[0] * E->n[1] * E->n[2] / (unsigned)E->n[a];
}

/* Line `line` along axis a of in into out: out = mat v; with ev (3 x CUBE_EXACT_N eigenvalues, the
 * z transform of the way in) each result divided by evx_i + evy_j + evz_k + lam. */
HOMG_HD void cube_exact_line(const cube_exact *E, const float *mat, int a, const float *in, float *out, const float *ev,
                             unsigned line)
{
    const unsigned nx = (unsigned)E->n[0], ny = (unsigned)E->n[1], na = (unsigned)E->n[a];
    const unsigned st = a == 0 ? 1u : a == 1 ? nx : nx * ny;
    const unsigned base = a == 0 ? nx * line : a == 1 ? line % nx + nx * ny * (line / nx) : line;
    float v[CUBE_EXACT_N];
    for (unsigned q = 0; q < CUBE_EXACT_N; q++)
        v[q] = q < na ? in[base + q * st] : 0.0f;
    for (unsigned p = 0; p < na; p++) {
        float sum = 0.0f;
        for (unsigned q = 0; q < CUBE_EXACT_N; q += 4) {
            float m[4];
            cube_ld4(mat + p * CUBE_EXACT_N + q, m);
            sum = fmaf(m[0], v[q], sum);
            sum = fmaf(m[1], v[q + 1], sum);
            sum = fmaf(m[2], v[q + 2], sum);
            sum = fmaf(m[3], v[q + 3], sum);
        }
        if (ev)
            sum = sum / (((ev[base % nx] + ev[CUBE_EXACT_N + base / nx]) + ev[2 * CUBE_EXACT_N + p]) + E->lam);
        out[base + p * st] = sum;
    }
}

/* S_a^T of E (the way in) into t, zero-padded (the way out uses E->s[a] itself). */
HOMG_HD void cube_exact_transpose(const cube_exact *E, int a, float *t, unsigned tid, unsigned nt)
{
    for (unsigned e = tid; e < CUBE_EXACT_N * CUBE_EXACT_N; e += nt)
        t[e] = E->s[a][(e % CUBE_EXACT_N) * CUBE_EXACT_N + e / CUBE_EXACT_N];
}

#endif
