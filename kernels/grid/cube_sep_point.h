/* cube_sep_point.h -- the steps of cube_sep.h's three passes, shared word for word by
 * cube_sep.c and cube_sep.cu: a block's slice is a 2D array in shared memory (row pitch the
 * slice's first side); a transform along one of its two sides is out = M in along that side,
 * a thread per 4 x 4 tile of outputs (16 independent sums: enough work in flight), each sum
 * fmaf over q = 0.. in order from 0, so any tiling and both backends give the same floats. */
#ifndef HOMG_CUBE_SEP_POINT_H
#define HOMG_CUBE_SEP_POINT_H

#include <math.h>

#include "cube_point.h"
#include "cube_sep.h"

/* Axis a's matrix of the way in (w 0) or out (w 1), column-major with n[a] rows. */
HOMG_HD const float *cube_sep_mat(const cube_sep *P, int a, int w) { return P->t + (2 * a + w) * CUBE_SEP_MAT; }

/* out[p * ps + c * cs] = sum_q m(p, q) in[q * ps + c * cs] for p < np (the transformed side)
 * and c < nc (the other), m column-major (m(p, q) at q * np + p); tiles tid, tid + nt, .. */
HOMG_HD void cube_sep_apply(const float *m, unsigned np, unsigned nc, unsigned ps, unsigned cs, const float *in,
                            float *out, unsigned tid, unsigned nt)
{
    const unsigned tp = np / 4, tiles = tp * (nc / 4);
    for (unsigned t = tid; t < tiles; t += nt) {
        const unsigned p0 = 4 * (t % tp), c0 = 4 * (t / tp);
        float acc[4][4] = { { 0.0f } };
        for (unsigned q = 0; q < np; q++) {
            float w[4], v[4];
            cube_ld4(m + q * np + p0, w);
            for (unsigned b = 0; b < 4; b++)
                v[b] = in[q * ps + (c0 + b) * cs];
            for (unsigned a = 0; a < 4; a++)
                for (unsigned b = 0; b < 4; b++)
                    acc[a][b] = fmaf(w[a], v[b], acc[a][b]);
        }
        for (unsigned a = 0; a < 4; a++)
            for (unsigned b = 0; b < 4; b++)
                out[(p0 + a) * ps + (c0 + b) * cs] = acc[a][b];
    }
}

/* D at cell (i, j, k): evx_i + evy_j + evz_k + lam, added in this order on both backends. */
HOMG_HD float cube_sep_denom(const cube_sep *P, unsigned i, unsigned j, unsigned k)
{
    const float *ev = P->t + 6 * CUBE_SEP_MAT;
    return ((ev[i] + ev[CUBE_SEP_N + j]) + ev[2 * CUBE_SEP_N + k]) + P->lam;
}

/* Pass 2's division of the xz-slice y = j (s[k * nx + i]) by evx_i + evy_j + evz_k + lam. */
HOMG_HD void cube_sep_divide(const cube_sep *P, unsigned j, float *s, unsigned tid, unsigned nt)
{
    const unsigned nx = (unsigned)P->n[0];
    for (unsigned e = tid; e < nx * (unsigned)P->n[2]; e += nt)
        s[e] = s[e] / cube_sep_denom(P, e % nx, j, e / nx);
}

/* Where row r of pass `pass`'s slice s starts in the level: passes 1 and 3 the z-slice k = s
 * (rows y, nx ny contiguous floats), pass 2 the xz-slice y = s (rows z, nx floats each). */
HOMG_HD unsigned cube_sep_row(const cube_sep *P, int pass, unsigned s, unsigned r)
{
    const unsigned nx = (unsigned)P->n[0], ny = (unsigned)P->n[1];
    return pass == 2 ? nx * s + nx * ny * r : nx * ny * s + nx * r;
}

/* Rows of pass `pass`'s slice. */
HOMG_HD unsigned cube_sep_rows(const cube_sep *P, int pass) { return (unsigned)(pass == 2 ? P->n[2] : P->n[1]); }

/* Slice s of pass `pass` from the level v into the block's array a (row pitch nx). */
HOMG_HD void cube_sep_load(const cube_sep *P, int pass, unsigned s, const float *v, float *a, unsigned tid, unsigned nt)
{
    const unsigned nx = (unsigned)P->n[0];
    for (unsigned e = tid; e < cube_sep_rows(P, pass) * nx; e += nt)
        a[e] = v[cube_sep_row(P, pass, s, e / nx) + e % nx];
}

/* The block's array a back into slice s of pass `pass` of the level v. */
HOMG_HD void cube_sep_store(const cube_sep *P, int pass, unsigned s, const float *a, float *v, unsigned tid,
                            unsigned nt)
{
    const unsigned nx = (unsigned)P->n[0];
    for (unsigned e = tid; e < cube_sep_rows(P, pass) * nx; e += nt)
        v[cube_sep_row(P, pass, s, e / nx) + e % nx] = a[e];
}

/* The transforms of pass `pass` on its slice y = s (pass 2) from u into w, step `step` (0, 1):
 * pass 1: Sx^T then Sy^T; pass 2: Sz^T (then cube_sep_divide) then Sz; pass 3: Sy then Sx. */
HOMG_HD void cube_sep_step(const cube_sep *P, int pass, int step, const float *u, float *w, unsigned tid, unsigned nt)
{
    const unsigned nx = (unsigned)P->n[0], ny = (unsigned)P->n[1], nz = (unsigned)P->n[2];
    if (pass == 2)
        cube_sep_apply(cube_sep_mat(P, 2, step), nz, nx, nx, 1, u, w, tid, nt);
    else if ((pass == 1) == (step == 0)) /* along x: rows y */
        cube_sep_apply(cube_sep_mat(P, 0, pass == 3), nx, ny, 1, nx, u, w, tid, nt);
    else /* along y */
        cube_sep_apply(cube_sep_mat(P, 1, pass == 3), ny, nx, nx, 1, u, w, tid, nt);
}

#endif
