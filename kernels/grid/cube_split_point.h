/* cube_split_point.h -- the split finest level's formulas (cube_split.h), shared word
 * for word by cube_split.c and cube_split.cu: a column of colour rows of four cells
 * (m0 .. m0+3, j), from plane k0 to k1 - 1, as cube_point.h's columns of natural rows. */
#ifndef HOMG_CUBE_SPLIT_POINT_H
#define HOMG_CUBE_SPLIT_POINT_H

#include "cube_point.h"
#include "cube_split.h"

/* Cells of one colour. */
HOMG_HD unsigned csp_half(const cube_level *K) { return (unsigned)(K->nx / 2) * (unsigned)K->ny * (unsigned)K->nz; }

/* Index of cell (m, j, k) in a colour's half (and of coarse cell (m, j, k) on the level below). */
HOMG_HD unsigned csp_index(const cube_level *K, int m, int j, int k)
{
    return (unsigned)m + (unsigned)(K->nx / 2) * ((unsigned)j + (unsigned)K->ny * (unsigned)k);
}

/* Where colour c's cell m of row (j, k) sits in its natural row: i = 2 m + this. */
HOMG_HD int csp_par(int c, int j, int k) { return (j + k + c) & 1; }

/* The level below K split too (cs): where its natural cell (I, J, Kc) sits in its split array
 * (colour (I + J + Kc) & 1, half size and row width of the level below's). */
HOMG_HD unsigned csp_cat(const cube_level *K, int I, int J, int Kc)
{
    const unsigned hc = (unsigned)(K->nx / 4) * (unsigned)(K->ny / 2) * (unsigned)(K->nz / 2);
    return (unsigned)((I + J + Kc) & 1) * hc + (unsigned)(I / 2) +
           (unsigned)(K->nx / 4) * ((unsigned)J + (unsigned)(K->ny / 2) * (unsigned)Kc);
}

/* Coarse cell (I, J, Kc) of ec, natural or split (cs). */
HOMG_HD float csp_ec1(const cube_level *K, const float *ec, int cs, int I, int J, int Kc)
{
    return ec[cs ? csp_cat(K, I, J, Kc) : cube_cindex(K, I, J, Kc)];
}

/* Coarse cells m0 .. m0+3 (m0 a multiple of 4) of row (J, Kc) of ec, natural or split (cs: m0 and m0 + 2
 * are one colour's float2, m0 + 1 and m0 + 3 the other's); zeros where absent. */
HOMG_HD void csp_ec4(const cube_level *K, const float *ec, int cs, int present, int m0, int J, int Kc, float e[4])
{
    float a[2], b[2];
    if (!present || !cs) {
        cube_ldg4(present ? ec + cube_cindex(K, m0, J, Kc) : NULL, e);
        return;
    }
    cube_ld2(ec + csp_cat(K, m0, J, Kc), a);
    cube_ld2(ec + csp_cat(K, m0 + 1, J, Kc), b);
    e[0] = a[0], e[1] = b[0], e[2] = a[1], e[3] = b[1];
}

/* 1 / the diagonal of the colour row (m0.., j, k) of parity p (cube_rdiag4's values). */
HOMG_HD void csp_rdiag4(const cube_level *K, int m0, int p, int j, int k, float rd[4])
{
    const float dyz = cube_dyz(K, j, k), mid = 1.0f / cube_diag(K, dyz, 1);
    for (int q = 0; q < 4; q++)
        rd[q] = mid;
    if (p == 0 && m0 == 0)
        rd[0] = 1.0f / cube_diag(K, dyz, 0);
    if (p == 1 && m0 + 4 == K->nx / 2)
        rd[3] = 1.0f / cube_diag(K, dyz, K->nx - 1);
}

/* The other colour's cell beside the row along x that the row's own four do not give:
 * m0 - 1 at parity 0, m0 + 4 at parity 1 (0 off the level); o: the other colour's half. */
HOMG_HD float csp_xo(const cube_level *K, const float *o, unsigned c, int m0, int p)
{
    if (p == 0)
        return m0 > 0 ? o[c - 1] : 0.0f;
    return m0 + 4 < K->nx / 2 ? o[c + 4] : 0.0f;
}

/* West and east neighbours of cell q of a parity-p row from the other colour's row o and xo. */
HOMG_HD float csp_w(int p, int q, const float o[4], float xo) { return p ? o[q] : q ? o[q - 1] : xo; }
HOMG_HD float csp_e(int p, int q, const float o[4], float xo) { return p ? (q < 3 ? o[q + 1] : xo) : o[q]; }

/* The row's four cells relaxed (cube_relax1) from own values c and the other colour's o, xo, ys, yn, zb, zt. */
HOMG_HD void csp_relax4(const cube_level *K, const float rd[4], int p, const float c[4], const float o[4], float xo,
                        const float ys[4], const float yn[4], const float zb[4], const float zt[4], const float f[4],
                        float out[4])
{
    for (int q = 0; q < 4; q++)
        out[q] = cube_relax1(K, rd[q], c[q], csp_w(p, q, o, xo), csp_e(p, q, o, xo), ys[q], yn[q], zb[q], zt[q], f[q]);
}

/* The natural row's eight cells 2 m0 .. 2 m0 + 7 of row (j, k) from its parity-p colour row a and the other's b. */
HOMG_HD void csp_st_nat(const cube_level *K, float *nat, int m0, int j, int k, int p, const float a[4],
                        const float b[4])
{
    float v[8];
    for (int q = 0; q < 4; q++)
        v[2 * q + p] = a[q], v[2 * q + 1 - p] = b[q];
    float *d = nat + cube_index(K, 2 * m0, j, k);
    cube_st4(d, v);
    cube_st4(d + 4, v + 4);
}

/* Row (m0.., j, k) of both colours: from the natural array a into the split s. */
HOMG_HD void csp_split_row(const cube_level *K, const float *a, float *s, int m0, int j, int k)
{
    const unsigned h = csp_half(K), c = csp_index(K, m0, j, k);
    const int p0 = csp_par(0, j, k);
    const float *src = a + cube_index(K, 2 * m0, j, k);
    float v[8], r0[4], r1[4];
    cube_ldg4(src, v);
    cube_ldg4(src + 4, v + 4);
    for (int q = 0; q < 4; q++)
        r0[q] = v[2 * q + p0], r1[q] = v[2 * q + 1 - p0];
    cube_st4(s + c, r0);
    cube_st4(s + h + c, r1);
}

/* Row (m0.., j, k) of both colours: from the split s into the natural array a. */
HOMG_HD void csp_unsplit_row(const cube_level *K, const float *s, float *a, int m0, int j, int k)
{
    const unsigned h = csp_half(K), c = csp_index(K, m0, j, k);
    float r0[4], r1[4];
    cube_ldg4(s + c, r0);
    cube_ldg4(s + h + c, r1);
    csp_st_nat(K, a, m0, j, k, csp_par(0, j, k), r0, r1);
}

/* The other colour's rows at j -+ 1 (zeros off the level). */
HOMG_HD void csp_load_y(const cube_level *K, const float *o, unsigned c, int j, float ys[4], float yn[4], int ro)
{
    const unsigned sy = (unsigned)(K->nx / 2);
    cube_ld4_ro(j > 0 ? o + (c - sy) : NULL, ys, ro);
    cube_ld4_ro(j + 1 < K->ny ? o + (c + sy) : NULL, yn, ro);
}

/* One half-sweep of `colour` on the column (m0, j), planes k0 .. k1-1 (nat: also the natural rows). */
HOMG_HD void csp_sweep_col(const cube_level *K, float *u, const float *f, int colour, float *nat, int m0, int j, int k0,
                           int k1)
{
    const unsigned h = csp_half(K), sz = (unsigned)(K->nx / 2) * (unsigned)K->ny;
    float *me = u + (colour ? h : 0);
    const float *o = u + (colour ? 0 : h), *fm = f + (colour ? h : 0);
    unsigned c = csp_index(K, m0, j, k0);
    float zb[4], zc[4], zt[4];
    cube_ldg4(k0 > 0 ? o + (c - sz) : NULL, zb); /* the other colour: not written by the pass */
    cube_ldg4(o + c, zc);
    for (int k = k0; k < k1; k++, c += sz) {
        const int p = csp_par(colour, j, k);
        float ys[4], yn[4], ff[4], own[4], out[4], rd[4];
        const float xo = csp_xo(K, o, c, m0, p);
        cube_ldg4(k + 1 < K->nz ? o + (c + sz) : NULL, zt);
        csp_load_y(K, o, c, j, ys, yn, 1);
        cube_ldg4(fm + c, ff);
        cube_ld4(K->omega != 1.0f ? me + c : NULL, own); /* Gauss-Seidel does not read it */
        csp_rdiag4(K, m0, p, j, k, rd);
        csp_relax4(K, rd, p, own, zc, xo, ys, yn, zb, zt, ff, out);
        cube_st4(me + c, out);
        if (nat)
            csp_st_nat(K, nat, m0, j, k, p, out, zc);
        cube_copy4(zb, zc);
        cube_copy4(zc, zt);
    }
}

/* Colour c's f on row (m0.., j, k): from the split f, or (fn not NULL) from the natural fn's row of eight. */
HOMG_HD void csp_f_row(const cube_level *K, const float *f, const float *fn, int c, int m0, int j, int k, float t[4])
{
    float v[8];
    if (!fn) {
        cube_ldg4(f + (c ? csp_half(K) : 0) + csp_index(K, m0, j, k), t);
        return;
    }
    const int p = csp_par(c, j, k);
    cube_ldg4(fn + cube_index(K, 2 * m0, j, k), v);
    cube_ldg4(fn + cube_index(K, 2 * m0, j, k) + 4, v + 4);
    for (int q = 0; q < 4; q++)
        t[q] = v[2 * q + p];
}

/* Colour-0 row (j, k) after the half-sweep from zero (cube_zero4's values); zeros off the level. */
HOMG_HD void csp_zero_row(const cube_level *K, const float *f, const float *fn, int present, int m0, int j, int k,
                          float out[4])
{
    float t[4] = { 0.0f, 0.0f, 0.0f, 0.0f }, rd[4];
    if (present)
        csp_f_row(K, f, fn, 0, m0, j, k, t);
    csp_rdiag4(K, m0, csp_par(0, j, k), j, k, rd);
    for (int q = 0; q < 4; q++)
        out[q] = present ? t[q] * rd[q] * K->omega : 0.0f;
}

/* u = the colour-0 half-sweep from zero, then the colour-1 half-sweep, on the column (both colours written);
 * fn not NULL: f read from the natural fn and written split into f on the way (no pass of its own). */
HOMG_HD void csp_pre_col(const cube_level *K, float *u, float *f, const float *fn, int m0, int j, int k0, int k1)
{
    const unsigned h = csp_half(K), sz = (unsigned)(K->nx / 2) * (unsigned)K->ny;
    unsigned c = csp_index(K, m0, j, k0);
    float zb[4], zc[4], zt[4];
    csp_zero_row(K, f, fn, k0 > 0, m0, j, k0 - 1, zb);
    csp_zero_row(K, f, fn, 1, m0, j, k0, zc);
    for (int k = k0; k < k1; k++, c += sz) {
        const int p = csp_par(1, j, k), ix = p ? 2 * (m0 + 4) : 2 * m0 - 1; /* the colour-0 cell xo's natural i */
        float ys[4], yn[4], ff[4], out[4], rd[4];
        const float zero[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
        const float fx =
            ix >= 0 && ix < K->nx ? (fn ? fn[cube_index(K, ix, j, k)] : f[csp_index(K, ix / 2, j, k)]) : 0.0f;
        const float xo = ix >= 0 && ix < K->nx ? cube_zero1(K, ix, j, k, fx) : 0.0f;
        csp_zero_row(K, f, fn, k + 1 < K->nz, m0, j, k + 1, zt);
        csp_zero_row(K, f, fn, j > 0, m0, j - 1, k, ys);
        csp_zero_row(K, f, fn, j + 1 < K->ny, m0, j + 1, k, yn);
        csp_f_row(K, f, fn, 1, m0, j, k, ff);
        if (fn) { /* this row's f split: colour 0's is zc's, read again (a cache hit) */
            float f0[4];
            csp_f_row(K, f, fn, 0, m0, j, k, f0);
            cube_st4(f + c, f0);
            cube_st4(f + h + c, ff);
        }
        csp_rdiag4(K, m0, p, j, k, rd);
        csp_relax4(K, rd, p, zero, zc, xo, ys, yn, zb, zt, ff, out);
        cube_st4(u + c, zc);
        cube_st4(u + h + c, out);
        cube_copy4(zb, zc);
        cube_copy4(zc, zt);
    }
}

/* A colour row (m0.., j, k) of a + the parent's correction (zeros where absent). */
HOMG_HD void csp_vrow(const cube_level *K, const float *ec, int cs, const float *a, int present, int m0, int j, int k,
                      float v[4])
{
    float raw[4], e[4];
    cube_ld4(present ? a + csp_index(K, m0, j, k) : NULL, raw);
    csp_ec4(K, ec, cs, present, m0, j / 2, k / 2, e);
    for (int q = 0; q < 4; q++)
        v[q] = raw[q] + e[q];
}

/* The cells of `colour` in the column relaxed from v = u + ec[parent] (ec split: cs); the other colour not
 * written. */
HOMG_HD void csp_prolong_col(const cube_level *K, const float *ec, int cs, float *u, const float *f, int colour, int m0,
                             int j, int k0, int k1)
{
    const unsigned h = csp_half(K), sz = (unsigned)(K->nx / 2) * (unsigned)K->ny;
    float *me = u + (colour ? h : 0);
    const float *o = u + (colour ? 0 : h), *fm = f + (colour ? h : 0);
    unsigned c = csp_index(K, m0, j, k0);
    float zb[4], zc[4], zt[4];
    csp_vrow(K, ec, cs, o, k0 > 0, m0, j, k0 - 1, zb);
    csp_vrow(K, ec, cs, o, 1, m0, j, k0, zc);
    for (int k = k0; k < k1; k++, c += sz) {
        const int p = csp_par(colour, j, k), mx = p ? m0 + 4 : m0 - 1;
        float ys[4], yn[4], ff[4], own[4], out[4], rd[4], xo = 0.0f;
        if (mx >= 0 && mx < K->nx / 2)
            xo = o[csp_index(K, mx, j, k)] + csp_ec1(K, ec, cs, mx, j / 2, k / 2);
        csp_vrow(K, ec, cs, o, k + 1 < K->nz, m0, j, k + 1, zt);
        csp_vrow(K, ec, cs, o, j > 0, m0, j - 1, k, ys);
        csp_vrow(K, ec, cs, o, j + 1 < K->ny, m0, j + 1, k, yn);
        csp_vrow(K, ec, cs, me, 1, m0, j, k, own);
        cube_ldg4(fm + c, ff);
        csp_rdiag4(K, m0, p, j, k, rd);
        csp_relax4(K, rd, p, own, zc, xo, ys, yn, zb, zt, ff, out);
        cube_st4(me + c, out);
        cube_copy4(zb, zc);
        cube_copy4(zc, zt);
    }
}

/* f - A u at the cells of a colour row (m0.., j, k) of parity s (cube_res4's sums): own its u, oth the other
 * colour's row there, xo the other colour's cell beside it (csp_xo), ys .. zt the other colour's rows beside. */
HOMG_HD void csp_res_cells(const cube_level *K, float dyz, int m0, int s, const float own[4], const float oth[4],
                           float xo, const float ys[4], const float yn[4], const float zb[4], const float zt[4],
                           const float ff[4], float r[4])
{
    for (int q = 0; q < 4; q++) {
        const float off = K->g[0] * (csp_w(s, q, oth, xo) + csp_e(s, q, oth, xo)) + K->g[1] * (ys[q] + yn[q]) +
                          K->g[2] * (zb[q] + zt[q]);
        r[q] = (ff[q] + off) - cube_diag(K, dyz, 2 * (m0 + q) + s) * own[q];
    }
}

/* f - A u at the natural cells 2 m + (0, 1), m = m0.., of row (j, k): r0 (even), r1 (odd) (cube_res4's sums). */
HOMG_HD void csp_res_row(const cube_level *K, const float *u, const float *f, int m0, int j, int k, float r0[4],
                         float r1[4])
{
    const unsigned h = csp_half(K), sz = (unsigned)(K->nx / 2) * (unsigned)K->ny, c = csp_index(K, m0, j, k);
    const int ca = csp_par(0, j, k); /* the colour whose cells are the even ones (parity 0) */
    const float *ua = u + (ca ? h : 0), *ub = u + (ca ? 0 : h), *fa = f + (ca ? h : 0), *fb = f + (ca ? 0 : h);
    const float dyz = cube_dyz(K, j, k);
    float a[4], b[4], ff[4], ys[4], yn[4], zb[4], zt[4];
    cube_ldg4(ua + c, a);
    cube_ldg4(ub + c, b);
    for (int s = 0; s < 2; s++) { /* s 0: the even cells (neighbours b), 1: the odd (neighbours a) */
        const float *own = s ? b : a, *oth = s ? a : b, *on = s ? ua : ub;
        float *r = s ? r1 : r0;
        const float xo = csp_xo(K, on, c, m0, s);
        csp_load_y(K, on, c, j, ys, yn, 1);
        cube_ldg4(k > 0 ? on + (c - sz) : NULL, zb);
        cube_ldg4(k + 1 < K->nz ? on + (c + sz) : NULL, zt);
        cube_ldg4((s ? fb : fa) + c, ff);
        csp_res_cells(K, dyz, m0, s, own, oth, xo, ys, yn, zb, zt, ff, r);
    }
}

/* fc's four coarse cells (m0.., J, Kc) from acc (natural, or split: cs, csp_ec4's two float2s). */
HOMG_HD void csp_store_coarse(const cube_level *K, float *fc, int cs, int m0, int J, int Kc, const float acc[4])
{
    if (!cs) {
        cube_st4(fc + cube_cindex(K, m0, J, Kc), acc);
        return;
    }
    cube_st2(fc + csp_cat(K, m0, J, Kc), acc[0], acc[2]);
    cube_st2(fc + csp_cat(K, m0 + 1, J, Kc), acc[1], acc[3]);
}

/* Both colours' rows (m0.., 2 J + dj, k), dj 0 and 1, of u: w[colour][dj] (zeros where absent). */
HOMG_HD void csp_plane_rows(const cube_level *K, const float *u, int present, int m0, int J, int k, float w[2][2][4])
{
    const unsigned h = csp_half(K);
    for (int dj = 0; dj < 2; dj++) {
        const unsigned c = csp_index(K, m0, 2 * J + dj, present ? k : 0);
        cube_ldg4(present ? u + c : NULL, w[0][dj]);
        cube_ldg4(present ? u + h + c : NULL, w[1][dj]);
    }
}

/* fc at coarse cells (m0.., J, Kc): their eight children's f - A u, summed as cube_restrict_pair does
 * (fc split: cs, csp_ec4's two float2s). */
HOMG_HD void csp_restrict_quad(const cube_level *K, const float *u, const float *f, float *fc, int cs, int m0, int J,
                               int Kc)
{
    float acc[4] = { 0.0f, 0.0f, 0.0f, 0.0f }, r0[4], r1[4];
    for (int dk = 0; dk < 2; dk++)
        for (int dj = 0; dj < 2; dj++) {
            csp_res_row(K, u, f, m0, 2 * J + dj, 2 * Kc + dk, r0, r1);
            for (int q = 0; q < 4; q++)
                acc[q] += r0[q] + r1[q];
        }
    csp_store_coarse(K, fc, cs, m0, J, Kc, acc);
}

/* Loops the GPU must unroll for their arrays to stay in registers (the CPU: plain loops). */
#ifdef __CUDA_ARCH__
#define CSP_UNROLL _Pragma("unroll")
#else
#define CSP_UNROLL
#endif

/* csp_restrict_quad's sums (the same cells' f - A u in the same order) with each u row of the 2 x 2 child rows,
 * both colours, loaded once: a child row's y and z neighbours inside that block come from registers, only those
 * outside it (rows 2 J - 1 and 2 J + 2, planes 2 Kc - 1 and 2 Kc + 2) from memory -- 24 float4 loads a thread
 * instead of the quad's 48 (HOMG_CSP_RBLK, cube_split.h). */
HOMG_HD void csp_restrict_block(const cube_level *K, const float *u, const float *f, float *fc, int cs, int m0, int J,
                                int Kc)
{
    const unsigned h = csp_half(K), sy = (unsigned)(K->nx / 2), sz = sy * (unsigned)K->ny;
    float w[2][2][2][4], acc[4] = { 0.0f, 0.0f, 0.0f, 0.0f }; /* w[dk][colour][dj]: the child rows */
    CSP_UNROLL
    for (int dk = 0; dk < 2; dk++)
        csp_plane_rows(K, u, 1, m0, J, 2 * Kc + dk, w[dk]);
    CSP_UNROLL
    for (int dk = 0; dk < 2; dk++) {
        CSP_UNROLL
        for (int dj = 0; dj < 2; dj++) {
            const int j = 2 * J + dj, k = 2 * Kc + dk;
            const unsigned c = csp_index(K, m0, j, k);
            const float dyz = cube_dyz(K, j, k);
            float r[2][4]; /* by colour: r[0] + r[1] is the quad's parity-0 + parity-1 sum (a + b == b + a) */
            CSP_UNROLL
            for (int col = 0; col < 2; col++) { /* this colour's cells, of parity s */
                const int s = csp_par(col, j, k), o = 1 - col;
                const float *on = u + (o ? h : 0);
                float ys[4], yn[4], zb[4], zt[4], ff[4];
                if (dj) {
                    cube_copy4(ys, w[dk][o][0]);
                    cube_ldg4(j + 1 < K->ny ? on + (c + sy) : NULL, yn);
                } else {
                    cube_ldg4(j > 0 ? on + (c - sy) : NULL, ys);
                    cube_copy4(yn, w[dk][o][1]);
                }
                if (dk) {
                    cube_copy4(zb, w[0][o][dj]);
                    cube_ldg4(k + 1 < K->nz ? on + (c + sz) : NULL, zt);
                } else {
                    cube_ldg4(k > 0 ? on + (c - sz) : NULL, zb);
                    cube_copy4(zt, w[1][o][dj]);
                }
                cube_ldg4(f + (col ? h : 0) + c, ff);
                csp_res_cells(K, dyz, m0, s, w[dk][col][dj], w[dk][o][dj], csp_xo(K, on, c, m0, s), ys, yn, zb, zt, ff,
                              r[col]);
            }
            for (int q = 0; q < 4; q++)
                acc[q] += r[0][q] + r[1][q];
        }
    }
    csp_store_coarse(K, fc, cs, m0, J, Kc, acc);
}

#endif
