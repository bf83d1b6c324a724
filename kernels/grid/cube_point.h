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
    K->omega = 1.0f;
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

/* cube_ldg4 where ro (u not written by the kernel), else cube_ld4 (written, or in shared memory). */
HOMG_HD void cube_ld4_ro(const float *p, float v[4], int ro)
{
    if (ro)
        cube_ldg4(p, v);
    else
        cube_ld4(p, v);
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

/* New value of a cell (1 / diagonal rd, own value c) from its neighbours (w, e along x; s, n along y; b, t
 * along z): the Gauss-Seidel value g, or c + omega (g - c) (SOR; omega 1 gives g itself, bit for bit). */
HOMG_HD float cube_relax1(const cube_level *K, float rd, float c, float w, float e, float s, float n, float b, float t,
                          float f)
{
    const float off = K->g[0] * (w + e) + K->g[1] * (s + n) + K->g[2] * (b + t), g = (f + off) * rd;
    return K->omega == 1.0f ? g : c + K->omega * (g - c);
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
        out[0] = cube_relax1(K, rd[0], c[0], xl, c[1], ys[0], yn[0], zb[0], zt[0], f[0]);
        out[2] = cube_relax1(K, rd[2], c[2], c[1], c[3], ys[2], yn[2], zb[2], zt[2], f[2]);
    } else {
        out[1] = cube_relax1(K, rd[1], c[1], c[0], c[2], ys[1], yn[1], zb[1], zt[1], f[1]);
        out[3] = cube_relax1(K, rd[3], c[3], c[2], xr, ys[3], yn[3], zb[3], zt[3], f[3]);
    }
}

/* The row after the colour-0 half-sweep from u = 0: omega f / diagonal at colour 0, 0 at colour 1
 * (omega 1: f / diagonal, bit for bit). */
HOMG_HD void cube_zero4(const cube_level *K, int i0, int j, int k, const float f[4], float out[4])
{
    float rd[4];
    cube_rdiag4(K, i0, j, k, rd);
    for (int q = 0; q < 4; q++)
        out[q] = 0.0f;
    if (((i0 + j + k) & 1) == 0) {
        out[0] = f[0] * rd[0] * K->omega;
        out[2] = f[2] * rd[2] * K->omega;
    } else {
        out[1] = f[1] * rd[1] * K->omega;
        out[3] = f[3] * rd[3] * K->omega;
    }
}

/* One cell of cube_zero4 (the same value as its row's). */
HOMG_HD float cube_zero1(const cube_level *K, int i, int j, int k, float f)
{
    return ((i + j + k) & 1) == 0 ? f * (1.0f / cube_diag(K, cube_dyz(K, j, k), i)) * K->omega : 0.0f;
}

/* The neighbours of row (i0, j, k) at index c that a marching column loads: the cells
 * before and after it along x (xl, xr), the rows j -+ 1 (ys, yn) and k + 1 (zt); zeros
 * off the level.  ro: u is not written by the kernel (the read-only cache). */
HOMG_HD void cube_load_row(const cube_level *K, const float *u, unsigned c, int i0, int j, int k, int ro, float *xl,
                           float *xr, float ys[4], float yn[4], float zt[4])
{
    const unsigned sy = (unsigned)K->nx, sz = (unsigned)K->nx * (unsigned)K->ny;
    const float *t = k + 1 < K->nz ? u + (c + sz) : NULL, *s = j > 0 ? u + (c - sy) : NULL;
    const float *n = j + 1 < K->ny ? u + (c + sy) : NULL;
    *xl = i0 > 0 ? u[c - 1] : 0.0f;
    *xr = i0 + 4 < K->nx ? u[c + 4] : 0.0f;
    cube_ld4_ro(t, zt, ro), cube_ld4_ro(s, ys, ro), cube_ld4_ro(n, yn, ro);
}

/* One half-sweep of colour `colour` on the column (i0, j), planes k0 .. k1-1. */
HOMG_HD void cube_sweep_col(const cube_level *K, float *u, const float *f, int colour, int i0, int j, int k0, int k1)
{
    const unsigned sz = (unsigned)K->nx * (unsigned)K->ny;
    unsigned c = cube_index(K, i0, j, k0);
    float zb[4], zc[4], zt[4];
    cube_ld4(k0 > 0 ? u + (c - sz) : NULL, zb);
    cube_ld4(u + c, zc);
    for (int k = k0; k < k1; k++, c += sz) {
        float ys[4], yn[4], ff[4], out[4], rd[4], xl, xr;
        cube_load_row(K, u, c, i0, j, k, 0, &xl, &xr, ys, yn, zt);
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

/* The cells of `colour` in the column relaxed from v = u + ec[parent]; the others keep u. */
HOMG_HD void cube_prolong_col(const cube_level *K, const float *ec, float *u, const float *f, int colour, int i0, int j,
                              int k0, int k1)
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
        cube_relax4(K, rd, (i0 + j + k) & 1, colour, zc, rc, xl, xr, ys, yn, zb, zt, ff, out);
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

/* f - A u on row (i0, j, k); ro as cube_load_row's. */
HOMG_HD void cube_res_row(const cube_level *K, const float *u, const float *f, int i0, int j, int k, int ro, float r[4])
{
    const unsigned sz = (unsigned)K->nx * (unsigned)K->ny, c = cube_index(K, i0, j, k);
    float uc[4], ys[4], yn[4], zb[4], zt[4], ff[4], xl, xr;
    cube_ld4_ro(u + c, uc, ro);
    cube_ld4_ro(k > 0 ? u + (c - sz) : NULL, zb, ro);
    cube_load_row(K, u, c, i0, j, k, ro, &xl, &xr, ys, yn, zt);
    cube_ld4_ro(f + c, ff, ro);
    cube_res4(K, i0, j, k, uc, xl, xr, ys, yn, zb, zt, ff, r);
}

/* q = A x on the column (i0, j), planes k0 .. k1-1; returns the sum of x q there. */
HOMG_HD double cube_apply_col(const cube_level *K, const float *x, float *q, int i0, int j, int k0, int k1)
{
    const unsigned sz = (unsigned)K->nx * (unsigned)K->ny;
    unsigned c = cube_index(K, i0, j, k0);
    float zb[4], zc[4], zt[4];
    double xq = 0;
    cube_ldg4(k0 > 0 ? x + (c - sz) : NULL, zb);
    cube_ldg4(x + c, zc);
    for (int k = k0; k < k1; k++, c += sz) {
        const float dyz = cube_dyz(K, j, k);
        float ys[4], yn[4], out[4], xl, xr;
        cube_load_row(K, x, c, i0, j, k, 1, &xl, &xr, ys, yn, zt);
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

/* fc at coarse cells (i0/2, J, Kc) and (i0/2 + 1, J, Kc): their eight children's f - A u
 * (ro: u and f in global memory the kernel does not write, as cube_load_row's). */
HOMG_HD void cube_restrict_pair(const cube_level *K, const float *u, const float *f, float *fc, int i0, int J, int Kc,
                                int ro)
{
    float a0 = 0.0f, a1 = 0.0f, r[4];
    for (int dk = 0; dk < 2; dk++)
        for (int dj = 0; dj < 2; dj++) {
            cube_res_row(K, u, f, i0, 2 * J + dj, 2 * Kc + dk, ro, r);
            a0 += r[0] + r[1];
            a1 += r[2] + r[3];
        }
    cube_st2(fc + cube_cindex(K, i0 / 2, J, Kc), a0, a1);
}

#endif
