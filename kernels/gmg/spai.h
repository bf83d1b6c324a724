/* spai.h -- the per-row formulas of the SPAI smoothers, shared word for word by
 * gmg.c and gmg.cu (HOMG_HD). */
#ifndef HOMG_GMG_SPAI_H
#define HOMG_GMG_SPAI_H

#include "gmg_kernels.h"

/* a_jk w_k (w NULL: a_jk): an entry of A W, the factor both rows' entries get
 * before their product (the CUDA warp stages rows already scaled this way). */
HOMG_HD double spai_wv(double v, const double *w, int32_t k) { return w ? v * w[k] : v; }

/* Sum of (a_jk w_k)(a_lk w_k) over the columns k two sorted rows share (cj, vj:
 * nj entries of row j; cl, vl: nl of row l): the dot product of rows j and l
 * of A W.  Branch-free advance: both rows step where their columns tie (rows
 * with unique columns, as CSR's: a row with itself ties everywhere). */
HOMG_HD double spai_dot(const int32_t *cj, const double *vj, int32_t nj, const int32_t *cl, const double *vl,
                        int32_t nl, const double *w)
{
    int32_t p = 0, q = 0;
    double s = 0;
    if (cj == cl && vj == vl) { /* a row with itself: every column ties (the merge's sum, without the merge) */
        for (; p < nj; p++)
            s += spai_wv(vj[p], w, cj[p]) * spai_wv(vj[p], w, cj[p]);
        return s;
    }
    while (p < nj && q < nl) {
        int32_t cp = cj[p], cq = cl[q];
        if (cp == cq)
            s += spai_wv(vj[p], w, cp) * spai_wv(vl[q], w, cq);
        p += cp <= cq;
        q += cq <= cp;
    }
    return s;
}

/* The dot product of rows j and l of A W (sorted columns; w NULL: of A). */
HOMG_HD double spai_row_dot(const int32_t *rp, const int32_t *ci, const double *v, const double *w, int32_t j,
                            int32_t l)
{
    return spai_dot(ci + rp[j], v + rp[j], rp[j + 1] - rp[j], ci + rp[l], v + rp[l], rp[l + 1] - rp[l], w);
}

/* SPAI(0) (or Jacobi) value of row i. */
HOMG_HD double spai0_row(const int32_t *rp, const int32_t *ci, const double *v, int32_t i, int jacobi)
{
    double diag = 0, ss = 0;
    for (int32_t k = rp[i]; k < rp[i + 1]; k++) {
        if (ci[k] == i)
            diag = v[k];
        ss += v[k] * v[k];
    }
    if (jacobi)
        return diag != 0 ? 1.0 / diag : 0.0;
    return ss > 0 ? diag / ss : 0.0;
}

/* w_i = 1 / sqrt(|a_ii|) (1 where the diagonal is zero or missing). */
HOMG_HD double spai_scale_row(const int32_t *rp, const int32_t *ci, const double *v, int32_t i)
{
    for (int32_t k = rp[i]; k < rp[i + 1]; k++)
        if (ci[k] == i && v[k] != 0)
            return 1.0 / sqrt(fabs(v[k]));
    return 1.0;
}

/* Index of (r, c), c <= r, in a packed lower triangle (rows one after another). */
#define SPAI_TRI(r, c) ((r) * ((r) + 1) / 2 + (c))

/* Component r of the SPAI-1 right-hand side of row i (a_i over the pattern, scaled). */
HOMG_HD double spai1_rhs(const int32_t *ci, const double *v, const double *w, int32_t i, int32_t b, int r)
{
    return v[b + r] * (w ? w[i] * w[ci[b + r]] : 1.0);
}

/* Entry (r, c) of the SPAI-1 normal equations of the row starting at b: G_rc =
 * (A^T A)_jl over the pattern (j, l the columns r, c), W-scaled with w. */
HOMG_HD double spai1_gram(const int32_t *rp, const int32_t *ci, const double *v, const double *w, int32_t b, int r,
                          int c)
{
    int32_t j = ci[b + r], l = ci[b + c];
    return spai_row_dot(rp, ci, v, w, j, l) * (w ? w[j] * w[l] : 1.0);
}

/* G_rc minus the products of the Cholesky factor's rows r and c left of c (in
 * increasing k: the order both the row-by-row CPU twin and the column-by-column
 * CUDA warp use, so both give the same bits). */
HOMG_HD double spai1_chol_sum(const double *g, int r, int c)
{
    double s = g[SPAI_TRI(r, c)];
    for (int k = 0; k < c; k++)
        s -= g[SPAI_TRI(r, k)] * g[SPAI_TRI(c, k)];
    return s;
}

/* The pivot test: s (spai1_chol_sum of (r, r)) against G_rr. */
HOMG_HD int spai1_pivot_ok(double s, double grr) { return s > 1e-12 * grr; }

/* The factor's diagonal entry from the pivot's s: its reciprocal 1 / sqrt(s),
 * kept in place of L_cc, so that the factor's columns and both triangular
 * solves multiply instead of dividing (a double division or square root is a
 * long instruction sequence on the GPU, where the kernel is issue-bound: two
 * such a column instead of four). */
HOMG_HD double spai1_inv_diag(double s) { return 1.0 / sqrt(s); }

/* L^T m = y in place (L packed in g, its diagonal as 1 / L_rr), after L y = a;
 * 0 where a component is not finite.  (Both triangular solves row by row here;
 * the CUDA warp runs them column by column, each m[r] updated in the same
 * order of k: ascending in L y = a, descending here.) */
HOMG_HD int spai1_backward(const double *g, double *m, int n)
{
    for (int r = n - 1; r >= 0; r--) {
        double s = m[r];
        for (int k = n - 1; k > r; k--)
            s -= g[SPAI_TRI(k, r)] * m[k];
        m[r] = s * g[SPAI_TRI(r, r)];
    }
    for (int r = 0; r < n; r++)
        if (!isfinite(m[r]))
            return 0;
    return 1;
}

/* Solves L L^T m = m in place (L packed in g, its diagonal as 1 / L_rr); 0
 * where a component is not finite. */
HOMG_HD int spai1_solve(const double *g, double *m, int n)
{
    for (int r = 0; r < n; r++) { /* L y = a */
        double s = m[r];
        for (int k = 0; k < r; k++)
            s -= g[SPAI_TRI(r, k)] * m[k];
        m[r] = s * g[SPAI_TRI(r, r)];
    }
    return spai1_backward(g, m, n);
}

/* Row i of M from the solution m (scaled back), or SPAI(0) where !ok; returns
 * 1 where it fell back. */
HOMG_HD int spai1_store(const int32_t *rp, const int32_t *ci, const double *v, const double *w, int32_t i,
                        const double *m, int ok, double *out)
{
    int32_t b = rp[i], n = rp[i + 1] - b;
    if (ok) {
        for (int r = 0; r < n; r++)
            out[b + r] = m[r] * (w ? w[i] * w[ci[b + r]] : 1.0);
        return 0;
    }
    for (int32_t k = b; k < rp[i + 1]; k++)
        out[k] = ci[k] == i ? spai0_row(rp, ci, v, i, 0) : 0.0;
    return 1;
}

/* SPAI-1 row i of symmetric A into out (A's row pattern): the normal equations
 * G m = a_i with G_jl = (A^T A)_jl over the pattern J, by Cholesky in the packed
 * lower triangle g.  With w (w_k = 1 / sqrt(a_kk)) it is SPAI-1 of the
 * Jacobi-scaled W A W, scaled back: M = W M^ W (w NULL: A itself).  Returns 0 on
 * success, 1 where it fell back to SPAI(0).  (The CUDA twin runs the same
 * pieces with a warp per row: gmg.cu.) */
HOMG_HD int spai1_row(const int32_t *rp, const int32_t *ci, const double *v, const double *w, int32_t i, double *out)
{
    double g[SPAI_TRI(GMG_SPAI1_MAX_ROW, 0)], m[GMG_SPAI1_MAX_ROW];
    int32_t b = rp[i], n = rp[i + 1] - b;
    int ok = n > 0 && n <= GMG_SPAI1_MAX_ROW;
    for (int r = 0; ok && r < n; r++) {
        for (int c = 0; c <= r; c++)
            g[SPAI_TRI(r, c)] = spai1_gram(rp, ci, v, w, b, r, c);
        m[r] = spai1_rhs(ci, v, w, i, b, r);
    }
    /* in-place Cholesky G = L L^T (packed rows, the diagonal as 1 / L_rr) */
    for (int r = 0; ok && r < n; r++) {
        for (int c = 0; c < r; c++)
            g[SPAI_TRI(r, c)] = spai1_chol_sum(g, r, c) * g[SPAI_TRI(c, c)];
        double s = spai1_chol_sum(g, r, r);
        if (spai1_pivot_ok(s, g[SPAI_TRI(r, r)])) /* g_rr still holds G_rr */
            g[SPAI_TRI(r, r)] = spai1_inv_diag(s);
        else
            ok = 0;
    }
    if (ok)
        ok = spai1_solve(g, m, n);
    return spai1_store(rp, ci, v, w, i, m, ok, out);
}

#endif
