/* cube_point.h -- the uniform 3D levels' formulas (cube_kernels.h), shared word
 * for word by cube.c and cube.cu: a column of rows of four cells along x, from
 * plane k0 to k1 - 1.  On the GPU a row is one float4 load or store; the rows
 * above and below stay in registers while the column marches in z.
 *
 * The operator is gen_kernels.h's on a uniform level: faces g[axis] between
 * neighbours, none beyond a side; the diagonal lam + the faces + the walls,
 * which per axis is dlo / dmid / dhi (cube_axis); (A u)_c = diag u_c - the sum
 * of g u over the neighbours. */
#ifndef HOMG_CUBE_POINT_H
#define HOMG_CUBE_POINT_H

#include <stddef.h>

#include "cube_kernels.h"
#include "gen_kernels.h"

/* Level L as a cube level, when it is one (cube_kernels.h; precision and
 * alignment are the caller's to check). */
HOMG_HD int cube_from_gen(const gen_level *L, cube_level *K)
{
    if (!L->uniform || L->flag || L->nx < 4 || L->nx % 4 || L->ny < 2 || L->ny % 2 || L->nz < 2 || L->nz % 2)
        return 0;
    for (int a = 0; a < 3; a++) {
        const float g = (float)L->g0[a];
        if (L->periodic[a])
            return 0;
        K->g[a] = g;
        K->dlo[a] = g + (float)L->wall[2 * a];
        K->dhi[a] = g + (float)L->wall[2 * a + 1];
        K->dmid[a] = g + g;
    }
    K->lam = (float)L->lam0;
    K->nx = L->nx;
    K->ny = L->ny;
    K->nz = L->nz;
    return 1;
}

/* Cells fewer than 2^31 (homg__check_size): 32-bit indices. */
HOMG_HD unsigned cube_index(const cube_level *K, int i, int j, int k)
{
    return (unsigned)i + (unsigned)K->nx * ((unsigned)j + (unsigned)K->ny * (unsigned)k);
}

/* Index in the level below (half the size per axis). */
HOMG_HD unsigned cube_cindex(const cube_level *K, int I, int J, int k)
{
    return (unsigned)I + (unsigned)(K->nx / 2) * ((unsigned)J + (unsigned)(K->ny / 2) * (unsigned)k);
}

HOMG_HD float cube_axis(const cube_level *K, int a, int x, int n)
{
    return x == 0 ? K->dlo[a] : x == n - 1 ? K->dhi[a] : K->dmid[a];
}

/* lam + the y and z parts of the diagonal on row (j, k); the diagonal at i adds x's. */
HOMG_HD float cube_dyz(const cube_level *K, int j, int k)
{
    return (K->lam + cube_axis(K, 1, j, K->ny)) + cube_axis(K, 2, k, K->nz);
}

HOMG_HD float cube_diag(const cube_level *K, float dyz, int i) { return dyz + cube_axis(K, 0, i, K->nx); }

/* Row loads and stores: a float4 (float2) on the GPU; p NULL (no such row): zeros.
 * ldg: arrays the kernel does not write (the read-only cache). */
HOMG_HD void cube_ld4(const float *p, float v[4])
{
#ifdef __CUDA_ARCH__
    const float4 t = p ? *(const float4 *)p : make_float4(0.f, 0.f, 0.f, 0.f);
    v[0] = t.x, v[1] = t.y, v[2] = t.z, v[3] = t.w;
#else
    for (int q = 0; q < 4; q++)
        v[q] = p ? p[q] : 0.0f;
#endif
}

HOMG_HD void cube_ldg4(const float *p, float v[4])
{
#ifdef __CUDA_ARCH__
    const float4 t = p ? __ldg((const float4 *)p) : make_float4(0.f, 0.f, 0.f, 0.f);
    v[0] = t.x, v[1] = t.y, v[2] = t.z, v[3] = t.w;
#else
    cube_ld4(p, v);
#endif
}

HOMG_HD void cube_st4(float *p, const float v[4])
{
#ifdef __CUDA_ARCH__
    *(float4 *)p = make_float4(v[0], v[1], v[2], v[3]);
#else
    for (int q = 0; q < 4; q++)
        p[q] = v[q];
#endif
}

HOMG_HD void cube_ld2(const float *p, float v[2])
{
#ifdef __CUDA_ARCH__
    const float2 t = __ldg((const float2 *)p);
    v[0] = t.x, v[1] = t.y;
#else
    v[0] = p[0], v[1] = p[1];
#endif
}

HOMG_HD void cube_st2(float *p, float a, float b)
{
#ifdef __CUDA_ARCH__
    *(float2 *)p = make_float2(a, b);
#else
    p[0] = a, p[1] = b;
#endif
}

HOMG_HD void cube_copy4(float *d, const float *s)
{
    for (int q = 0; q < 4; q++)
        d[q] = s[q];
}

/* 1 / the diagonal along row (i0..i0+3, j, k): one division for the cells inside,
 * one more for a cell on an x side (the GPU's division is a long sequence). */
HOMG_HD void cube_rdiag4(const cube_level *K, int i0, int j, int k, float rd[4])
{
    const float dyz = cube_dyz(K, j, k), mid = 1.0f / cube_diag(K, dyz, 1);
    for (int q = 0; q < 4; q++)
        rd[q] = mid;
    if (i0 == 0)
        rd[0] = 1.0f / cube_diag(K, dyz, 0);
    if (i0 + 4 == K->nx)
        rd[3] = 1.0f / cube_diag(K, dyz, K->nx - 1);
}

/* Gauss-Seidel value of a cell (1 / diagonal rd) from its neighbours (w, e along x; s, n along y; b, t along z). */
HOMG_HD float cube_relax1(const cube_level *K, float rd, float w, float e, float s, float n, float b, float t, float f)
{
    const float off = K->g[0] * (w + e) + K->g[1] * (s + n) + K->g[2] * (b + t);
    return (f + off) * rd;
}

/* Row (i0..i0+3) of parity (i0 + j + k) & 1 and 1 / diagonals rd: its cells of `colour`
 * relaxed from c (the row), xl / xr (the cells before and after it), the rows ys, yn
 * (j -+ 1) and zb, zt (k -+ 1); the other cells keep `keep`. */
HOMG_HD void cube_relax4(const cube_level *K, const float rd[4], int parity, int colour, const float c[4],
                         const float keep[4], float xl, float xr, const float ys[4], const float yn[4],
                         const float zb[4], const float zt[4], const float f[4], float out[4])
{
    cube_copy4(out, keep);
    if (((parity ^ colour) & 1) == 0) { /* cells 0 and 2 */
        out[0] = cube_relax1(K, rd[0], xl, c[1], ys[0], yn[0], zb[0], zt[0], f[0]);
        out[2] = cube_relax1(K, rd[2], c[1], c[3], ys[2], yn[2], zb[2], zt[2], f[2]);
    } else {
        out[1] = cube_relax1(K, rd[1], c[0], c[2], ys[1], yn[1], zb[1], zt[1], f[1]);
        out[3] = cube_relax1(K, rd[3], c[2], xr, ys[3], yn[3], zb[3], zt[3], f[3]);
    }
}

/* The row after the colour-0 half-sweep from u = 0: f / diagonal at colour 0, 0 at colour 1. */
HOMG_HD void cube_zero4(const cube_level *K, int i0, int j, int k, const float f[4], float out[4])
{
    float rd[4];
    cube_rdiag4(K, i0, j, k, rd);
    for (int q = 0; q < 4; q++)
        out[q] = 0.0f;
    if (((i0 + j + k) & 1) == 0) {
        out[0] = f[0] * rd[0];
        out[2] = f[2] * rd[2];
    } else {
        out[1] = f[1] * rd[1];
        out[3] = f[3] * rd[3];
    }
}

/* One cell of cube_zero4 (the same value as its row's). */
HOMG_HD float cube_zero1(const cube_level *K, int i, int j, int k, float f)
{
    return ((i + j + k) & 1) == 0 ? f * (1.0f / cube_diag(K, cube_dyz(K, j, k), i)) : 0.0f;
}

/* One half-sweep of colour `colour` on the column (i0, j), planes k0 .. k1-1. */
HOMG_HD void cube_sweep_col(const cube_level *K, float *u, const float *f, int colour, int i0, int j, int k0, int k1)
{
    const unsigned sy = (unsigned)K->nx, sz = (unsigned)K->nx * (unsigned)K->ny;
    unsigned c = cube_index(K, i0, j, k0);
    float zb[4], zc[4], zt[4];
    cube_ld4(k0 > 0 ? u + (c - sz) : NULL, zb);
    cube_ld4(u + c, zc);
    for (int k = k0; k < k1; k++, c += sz) {
        float ys[4], yn[4], ff[4], out[4], rd[4];
        const float xl = i0 > 0 ? u[c - 1] : 0.0f, xr = i0 + 4 < K->nx ? u[c + 4] : 0.0f;
        cube_ld4(k + 1 < K->nz ? u + (c + sz) : NULL, zt);
        cube_ld4(j > 0 ? u + (c - sy) : NULL, ys);
        cube_ld4(j + 1 < K->ny ? u + (c + sy) : NULL, yn);
        cube_ldg4(f + c, ff);
        cube_rdiag4(K, i0, j, k, rd);
        cube_relax4(K, rd, (i0 + j + k) & 1, colour, zc, zc, xl, xr, ys, yn, zb, zt, ff, out);
        cube_st4(u + c, out);
        cube_copy4(zb, zc);
        cube_copy4(zc, zt);
    }
}

/* The row (i0, j, k) after the colour-0 half-sweep from zero (p: f's row, NULL: none). */
HOMG_HD void cube_zero_row(const cube_level *K, const float *p, int i0, int j, int k, float out[4])
{
    float t[4];
    cube_ldg4(p, t);
    if (p)
        cube_zero4(K, i0, j, k, t, out);
    else
        cube_copy4(out, t);
}

/* u = the colour-0 half-sweep from zero, then the colour-1 half-sweep, on the column. */
HOMG_HD void cube_pre_col(const cube_level *K, float *u, const float *f, int i0, int j, int k0, int k1)
{
    const unsigned sy = (unsigned)K->nx, sz = (unsigned)K->nx * (unsigned)K->ny;
    unsigned c = cube_index(K, i0, j, k0);
    float zb[4], zc[4], zt[4], fc[4], ft[4];
    cube_zero_row(K, k0 > 0 ? f + (c - sz) : NULL, i0, j, k0 - 1, zb);
    cube_ldg4(f + c, fc);
    cube_zero4(K, i0, j, k0, fc, zc);
    for (int k = k0; k < k1; k++, c += sz) {
        float ys[4], yn[4], out[4], rd[4];
        const float xl = i0 > 0 ? cube_zero1(K, i0 - 1, j, k, f[c - 1]) : 0.0f;
        const float xr = i0 + 4 < K->nx ? cube_zero1(K, i0 + 4, j, k, f[c + 4]) : 0.0f;
        cube_ldg4(k + 1 < K->nz ? f + (c + sz) : NULL, ft);
        if (k + 1 < K->nz)
            cube_zero4(K, i0, j, k + 1, ft, zt);
        else
            cube_copy4(zt, ft);
        cube_zero_row(K, j > 0 ? f + (c - sy) : NULL, i0, j - 1, k, ys);
        cube_zero_row(K, j + 1 < K->ny ? f + (c + sy) : NULL, i0, j + 1, k, yn);
        cube_rdiag4(K, i0, j, k, rd);
        cube_relax4(K, rd, (i0 + j + k) & 1, 1, zc, zc, xl, xr, ys, yn, zb, zt, fc, out);
        cube_st4(u + c, out);
        cube_copy4(zb, zc);
        cube_copy4(zc, zt);
        cube_copy4(fc, ft);
    }
}

/* v = u + the parent's correction on row (i0, j, k) (raw: u's row itself). */
HOMG_HD void cube_vrow(const cube_level *K, const float *ec, const float *u, int i0, int j, int k, float v[4],
                       float raw[4])
{
    float e[2];
    cube_ld4(u + cube_index(K, i0, j, k), raw);
    cube_ld2(ec + cube_cindex(K, i0 / 2, j / 2, k / 2), e);
    v[0] = raw[0] + e[0], v[1] = raw[1] + e[0], v[2] = raw[2] + e[1], v[3] = raw[3] + e[1];
}

HOMG_HD void cube_vrow_or_zero(const cube_level *K, const float *ec, const float *u, int present, int i0, int j, int k,
                               float v[4])
{
    float raw[4];
    if (present)
        cube_vrow(K, ec, u, i0, j, k, v, raw);
    else
        cube_ld4(NULL, v);
}

/* The colour-1 cells of the column relaxed from v = u + ec[parent]; colour 0 keeps u. */
HOMG_HD void cube_prolong_col(const cube_level *K, const float *ec, float *u, const float *f, int i0, int j, int k0,
                              int k1)
{
    const unsigned sz = (unsigned)K->nx * (unsigned)K->ny;
    unsigned c = cube_index(K, i0, j, k0);
    float zb[4], zc[4], zt[4], rc[4], rt[4];
    cube_vrow_or_zero(K, ec, u, k0 > 0, i0, j, k0 - 1, zb);
    cube_vrow(K, ec, u, i0, j, k0, zc, rc);
    for (int k = k0; k < k1; k++, c += sz) {
        float ys[4], yn[4], ff[4], out[4], rd[4], xl = 0.0f, xr = 0.0f;
        if (i0 > 0)
            xl = u[c - 1] + ec[cube_cindex(K, i0 / 2 - 1, j / 2, k / 2)];
        if (i0 + 4 < K->nx)
            xr = u[c + 4] + ec[cube_cindex(K, i0 / 2 + 2, j / 2, k / 2)];
        if (k + 1 < K->nz)
            cube_vrow(K, ec, u, i0, j, k + 1, zt, rt);
        else
            cube_ld4(NULL, zt);
        cube_vrow_or_zero(K, ec, u, j > 0, i0, j - 1, k, ys);
        cube_vrow_or_zero(K, ec, u, j + 1 < K->ny, i0, j + 1, k, yn);
        cube_ldg4(f + c, ff);
        cube_rdiag4(K, i0, j, k, rd);
        cube_relax4(K, rd, (i0 + j + k) & 1, 1, zc, rc, xl, xr, ys, yn, zb, zt, ff, out);
        cube_st4(u + c, out);
        cube_copy4(zb, zc);
        cube_copy4(zc, zt);
        cube_copy4(rc, rt);
    }
}

/* f - A u on row (i0, j, k) from the row uc, the cells xl / xr beside it and the rows ys, yn, zb, zt. */
HOMG_HD void cube_res4(const cube_level *K, int i0, int j, int k, const float uc[4], float xl, float xr,
                       const float ys[4], const float yn[4], const float zb[4], const float zt[4], const float ff[4],
                       float r[4])
{
    const float dyz = cube_dyz(K, j, k);
    for (int q = 0; q < 4; q++) {
        const float w = q == 0 ? xl : uc[q - 1], e = q == 3 ? xr : uc[q + 1];
        const float off = K->g[0] * (w + e) + K->g[1] * (ys[q] + yn[q]) + K->g[2] * (zb[q] + zt[q]);
        r[q] = (ff[q] + off) - cube_diag(K, dyz, i0 + q) * uc[q];
    }
}

/* f - A u on row (i0, j, k). */
HOMG_HD void cube_res_row(const cube_level *K, const float *u, const float *f, int i0, int j, int k, float r[4])
{
    const unsigned sy = (unsigned)K->nx, sz = (unsigned)K->nx * (unsigned)K->ny, c = cube_index(K, i0, j, k);
    const float xl = i0 > 0 ? u[c - 1] : 0.0f, xr = i0 + 4 < K->nx ? u[c + 4] : 0.0f;
    float uc[4], ys[4], yn[4], zb[4], zt[4], ff[4];
    cube_ldg4(u + c, uc);
    cube_ldg4(j > 0 ? u + (c - sy) : NULL, ys);
    cube_ldg4(j + 1 < K->ny ? u + (c + sy) : NULL, yn);
    cube_ldg4(k > 0 ? u + (c - sz) : NULL, zb);
    cube_ldg4(k + 1 < K->nz ? u + (c + sz) : NULL, zt);
    cube_ldg4(f + c, ff);
    cube_res4(K, i0, j, k, uc, xl, xr, ys, yn, zb, zt, ff, r);
}

/* q = A x on the column (i0, j), planes k0 .. k1-1; returns the sum of x q there. */
HOMG_HD double cube_apply_col(const cube_level *K, const float *x, float *q, int i0, int j, int k0, int k1)
{
    const unsigned sy = (unsigned)K->nx, sz = (unsigned)K->nx * (unsigned)K->ny;
    unsigned c = cube_index(K, i0, j, k0);
    float zb[4], zc[4], zt[4];
    double xq = 0;
    cube_ldg4(k0 > 0 ? x + (c - sz) : NULL, zb);
    cube_ldg4(x + c, zc);
    for (int k = k0; k < k1; k++, c += sz) {
        const float dyz = cube_dyz(K, j, k);
        const float xl = i0 > 0 ? x[c - 1] : 0.0f, xr = i0 + 4 < K->nx ? x[c + 4] : 0.0f;
        float ys[4], yn[4], out[4];
        cube_ldg4(k + 1 < K->nz ? x + (c + sz) : NULL, zt);
        cube_ldg4(j > 0 ? x + (c - sy) : NULL, ys);
        cube_ldg4(j + 1 < K->ny ? x + (c + sy) : NULL, yn);
        for (int m = 0; m < 4; m++) {
            const float w = m == 0 ? xl : zc[m - 1], e = m == 3 ? xr : zc[m + 1];
            const float off = K->g[0] * (w + e) + K->g[1] * (ys[m] + yn[m]) + K->g[2] * (zb[m] + zt[m]);
            out[m] = cube_diag(K, dyz, i0 + m) * zc[m] - off;
            xq += (double)zc[m] * (double)out[m];
        }
        cube_st4(q + c, out);
        cube_copy4(zb, zc);
        cube_copy4(zc, zt);
    }
    return xq;
}

/* r = f - A u on the column (u NULL: r = f), in double, stored in float; returns the sum
 * of r^2 (the stored values) there: the CG's residual, which keeps float32 from drifting. */
HOMG_HD double cube_residual_col(const cube_level *K, const float *u, const float *f, float *r, int i0, int j, int k0,
                                 int k1)
{
    const unsigned sy = (unsigned)K->nx, sz = (unsigned)K->nx * (unsigned)K->ny;
    unsigned c = cube_index(K, i0, j, k0);
    float zb[4], zc[4], zt[4];
    double rr = 0;
    cube_ldg4(u && k0 > 0 ? u + (c - sz) : NULL, zb);
    cube_ldg4(u ? u + c : NULL, zc);
    for (int k = k0; k < k1; k++, c += sz) {
        const double dyz = (double)K->lam + (double)cube_axis(K, 1, j, K->ny) + (double)cube_axis(K, 2, k, K->nz);
        const float xl = u && i0 > 0 ? u[c - 1] : 0.0f, xr = u && i0 + 4 < K->nx ? u[c + 4] : 0.0f;
        float ys[4], yn[4], ff[4], out[4];
        cube_ldg4(u && k + 1 < K->nz ? u + (c + sz) : NULL, zt);
        cube_ldg4(u && j > 0 ? u + (c - sy) : NULL, ys);
        cube_ldg4(u && j + 1 < K->ny ? u + (c + sy) : NULL, yn);
        cube_ldg4(f + c, ff);
        for (int m = 0; m < 4; m++) {
            const double w = m == 0 ? xl : zc[m - 1], e = m == 3 ? xr : zc[m + 1];
            const double off = (double)K->g[0] * (w + e) + (double)K->g[1] * ((double)ys[m] + (double)yn[m]) +
                               (double)K->g[2] * ((double)zb[m] + (double)zt[m]);
            const double d = dyz + (double)cube_axis(K, 0, i0 + m, K->nx);
            out[m] = (float)(((double)ff[m] + off) - d * (double)zc[m]);
            rr += (double)out[m] * (double)out[m];
        }
        cube_st4(r + c, out);
        cube_copy4(zb, zc);
        cube_copy4(zc, zt);
    }
    return rr;
}

/* fc at coarse cells (i0/2, J, Kc) and (i0/2 + 1, J, Kc): their eight children's f - A u. */
HOMG_HD void cube_restrict_pair(const cube_level *K, const float *u, const float *f, float *fc, int i0, int J, int Kc)
{
    float a0 = 0.0f, a1 = 0.0f, r[4];
    for (int dk = 0; dk < 2; dk++)
        for (int dj = 0; dj < 2; dj++) {
            cube_res_row(K, u, f, i0, 2 * J + dj, 2 * Kc + dk, r);
            a0 += r[0] + r[1];
            a1 += r[2] + r[3];
        }
    cube_st2(fc + cube_cindex(K, i0 / 2, J, Kc), a0, a1);
}

/* ---- the last half-sweep and the restriction in one pass (sweep_restrict) ----
 * The half-sweep of `colour` reads only the other colour, which nobody writes in
 * the pass: a thread relaxes its neighbours' cells again from u instead of reading
 * what their threads store, so the residual sees the new values in any order.
 * u is read with plain loads (other threads write its rows meanwhile; the cells
 * they change are never used from memory). */

/* Row (i0, j, k) after the half-sweep of `colour`; zeros off the level. */
HOMG_HD void cube_new_row(const cube_level *K, const float *u, const float *f, int colour, int i0, int j, int k,
                          float out[4])
{
    const unsigned sy = (unsigned)K->nx, sz = (unsigned)K->nx * (unsigned)K->ny;
    float zc[4], ys[4], yn[4], zb[4], zt[4], ff[4], rd[4];
    if (j < 0 || j >= K->ny || k < 0 || k >= K->nz) {
        cube_ld4(NULL, out);
        return;
    }
    const unsigned c = cube_index(K, i0, j, k);
    const float xl = i0 > 0 ? u[c - 1] : 0.0f, xr = i0 + 4 < K->nx ? u[c + 4] : 0.0f;
    cube_ld4(u + c, zc);
    cube_ld4(j > 0 ? u + (c - sy) : NULL, ys);
    cube_ld4(j + 1 < K->ny ? u + (c + sy) : NULL, yn);
    cube_ld4(k > 0 ? u + (c - sz) : NULL, zb);
    cube_ld4(k + 1 < K->nz ? u + (c + sz) : NULL, zt);
    cube_ldg4(f + c, ff);
    cube_rdiag4(K, i0, j, k, rd);
    cube_relax4(K, rd, (i0 + j + k) & 1, colour, zc, zc, xl, xr, ys, yn, zb, zt, ff, out);
}

/* Cell (i, j, k) (on the level) after the half-sweep of `colour`. */
HOMG_HD float cube_new1(const cube_level *K, const float *u, const float *f, int colour, int i, int j, int k)
{
    const unsigned sy = (unsigned)K->nx, sz = (unsigned)K->nx * (unsigned)K->ny, c = cube_index(K, i, j, k);
    if (((i + j + k) & 1) != colour)
        return u[c];
    const float w = i > 0 ? u[c - 1] : 0.0f, e = i + 1 < K->nx ? u[c + 1] : 0.0f;
    const float s = j > 0 ? u[c - sy] : 0.0f, n = j + 1 < K->ny ? u[c + sy] : 0.0f;
    const float b = k > 0 ? u[c - sz] : 0.0f, t = k + 1 < K->nz ? u[c + sz] : 0.0f;
    return cube_relax1(K, 1.0f / cube_diag(K, cube_dyz(K, j, k), i), w, e, s, n, b, t, f[c]);
}

/* The residual of the new row v at (i0, j, k) added to *a0 (cells 0, 1) and *a1 (2, 3):
 * oy / oz its new neighbour rows inside the pair along y / z, hy / hz (0 or 1) the
 * side of the pair the row lies on (its other neighbours are relaxed again here). */
HOMG_HD void cube_sr_add(const cube_level *K, const float *u, const float *f, int colour, int i0, int j, int k,
                         const float v[4], const float oy[4], int hy, const float oz[4], int hz, float *a0, float *a1)
{
    float ys[4], yn[4], zb[4], zt[4], ff[4], r[4];
    const float xl = i0 > 0 ? cube_new1(K, u, f, colour, i0 - 1, j, k) : 0.0f;
    const float xr = i0 + 4 < K->nx ? cube_new1(K, u, f, colour, i0 + 4, j, k) : 0.0f;
    if (hy == 0)
        cube_new_row(K, u, f, colour, i0, j - 1, k, ys), cube_copy4(yn, oy);
    else
        cube_copy4(ys, oy), cube_new_row(K, u, f, colour, i0, j + 1, k, yn);
    if (hz == 0)
        cube_new_row(K, u, f, colour, i0, j, k - 1, zb), cube_copy4(zt, oz);
    else
        cube_copy4(zb, oz), cube_new_row(K, u, f, colour, i0, j, k + 1, zt);
    cube_ldg4(f + cube_index(K, i0, j, k), ff);
    cube_res4(K, i0, j, k, v, xl, xr, ys, yn, zb, zt, ff, r);
    *a0 += r[0] + r[1];
    *a1 += r[2] + r[3];
}

/* The half-sweep of `colour` on the four rows of coarse cells (i0/2, J, Kc) and
 * (i0/2 + 1, J, Kc), stored, and fc there = their children's f - A u (new u). */
HOMG_HD void cube_sweep_restrict_pair(const cube_level *K, float *u, const float *f, int colour, float *fc, int i0,
                                      int J, int Kc)
{
    const int j = 2 * J, k = 2 * Kc;
    float v00[4], v01[4], v10[4], v11[4], a0 = 0.0f, a1 = 0.0f; /* vDkDj: the new row (j + Dj, k + Dk) */
    cube_new_row(K, u, f, colour, i0, j, k, v00);
    cube_new_row(K, u, f, colour, i0, j + 1, k, v01);
    cube_new_row(K, u, f, colour, i0, j, k + 1, v10);
    cube_new_row(K, u, f, colour, i0, j + 1, k + 1, v11);
    cube_st4(u + cube_index(K, i0, j, k), v00);
    cube_st4(u + cube_index(K, i0, j + 1, k), v01);
    cube_st4(u + cube_index(K, i0, j, k + 1), v10);
    cube_st4(u + cube_index(K, i0, j + 1, k + 1), v11);
    cube_sr_add(K, u, f, colour, i0, j, k, v00, v01, 0, v10, 0, &a0, &a1);
    cube_sr_add(K, u, f, colour, i0, j + 1, k, v01, v00, 1, v11, 0, &a0, &a1);
    cube_sr_add(K, u, f, colour, i0, j, k + 1, v10, v11, 0, v00, 1, &a0, &a1);
    cube_sr_add(K, u, f, colour, i0, j + 1, k + 1, v11, v10, 1, v01, 1, &a0, &a1);
    cube_st2(fc + cube_cindex(K, i0 / 2, J, Kc), a0, a1);
}

/* ---- three half-sweeps from zero in one pass (pre3) ----
 * From u = 0 the colour-0, colour-1 and colour-0 half-sweeps are a function of f
 * alone (cells within two steps): a thread computes its row from f's rows around
 * it and never reads u, so the rows are independent. */

/* The index of f's row (i0, j, k), or NULL off the level. */
HOMG_HD const float *cube_frow(const cube_level *K, const float *f, int i0, int j, int k)
{
    return j < 0 || j >= K->ny || k < 0 || k >= K->nz ? NULL : f + cube_index(K, i0, j, k);
}

/* Cell i of row (j, k) after the colour-0 half-sweep from zero (0 off the level). */
HOMG_HD float cube_zero_cell(const cube_level *K, const float *f, int i, int j, int k)
{
    if (i < 0 || i >= K->nx || j < 0 || j >= K->ny || k < 0 || k >= K->nz)
        return 0.0f;
    return cube_zero1(K, i, j, k, f[cube_index(K, i, j, k)]);
}

/* Row (i0, j, k) after zero + colour 0 + colour 1 + colour 0 (cube_pre3). */
HOMG_HD void cube_pre3_row(const cube_level *K, const float *f, int i0, int j, int k, float out[4])
{
    float z[5][5][4]; /* after colour 0: z[2 + dj][2 + dk], |dj| + |dk| <= 2 */
    float w[5][4], xl[5], xr[5], ff[4], rd[4];
    for (int a = 0; a < 5; a++)
        for (int b = 0; b < 5; b++)
            if ((a > 2 ? a - 2 : 2 - a) + (b > 2 ? b - 2 : 2 - b) <= 2)
                cube_zero_row(K, cube_frow(K, f, i0, j + a - 2, k + b - 2), i0, j + a - 2, k + b - 2, z[a][b]);
    for (int p = 0; p < 5; p++) { /* after colour 1: the row (p 0) and its neighbours j - 1, j + 1, k - 1, k + 1 */
        const int dj = p == 1 ? -1 : p == 2, dk = p == 3 ? -1 : p == 4;
        const int jj = j + dj, kk = k + dk, a = 2 + dj, b = 2 + dk;
        const float *fr = cube_frow(K, f, i0, jj, kk);
        xl[p] = cube_zero_cell(K, f, i0 - 1, jj, kk);
        xr[p] = cube_zero_cell(K, f, i0 + 4, jj, kk);
        if (!fr) {
            cube_ld4(NULL, w[p]);
            continue;
        }
        cube_ldg4(fr, ff);
        cube_rdiag4(K, i0, jj, kk, rd);
        cube_relax4(K, rd, (i0 + jj + kk) & 1, 1, z[a][b], z[a][b], xl[p], xr[p], z[a - 1][b], z[a + 1][b], z[a][b - 1],
                    z[a][b + 1], ff, w[p]);
    }
    { /* the cells beside the row after colour 1, then the row after colour 0 */
        const unsigned c = cube_index(K, i0, j, k);
        float vl = xl[0], vr = xr[0];
        if (i0 > 0 && ((i0 - 1 + j + k) & 1))
            vl = cube_relax1(K, 1.0f / cube_diag(K, cube_dyz(K, j, k), i0 - 1), cube_zero_cell(K, f, i0 - 2, j, k),
                             z[2][2][0], xl[1], xl[2], xl[3], xl[4], f[c - 1]);
        if (i0 + 4 < K->nx && ((i0 + 4 + j + k) & 1))
            vr = cube_relax1(K, 1.0f / cube_diag(K, cube_dyz(K, j, k), i0 + 4), z[2][2][3],
                             cube_zero_cell(K, f, i0 + 5, j, k), xr[1], xr[2], xr[3], xr[4], f[c + 4]);
        cube_ldg4(f + c, ff);
        cube_rdiag4(K, i0, j, k, rd);
        cube_relax4(K, rd, (i0 + j + k) & 1, 0, w[0], w[0], vl, vr, w[1], w[2], w[3], w[4], ff, out);
    }
}

#endif
