/* spai.h -- the per-row formulas of the SPAI smoothers, shared word for word by
 * gmg.c and gmg.cu (HOMG_HD). */
#ifndef HOMG_GMG_SPAI_H
#define HOMG_GMG_SPAI_H

#include "gmg_kernels.h"

/* Sum of a_jk a_lk w_k^2 over k (w NULL: 1): the dot product of rows j and l of
 * A W (sorted columns). */
HOMG_HD double spai_row_dot(const int32_t *rp, const int32_t *ci, const double *v, const double *w, int32_t j,
                            int32_t l)
{
    int32_t p = rp[j], pe = rp[j + 1], q = rp[l], qe = rp[l + 1];
    double s = 0;
    while (p < pe && q < qe) {
        int32_t cp = ci[p], cq = ci[q];
        if (cp == cq) {
            double wk = w ? w[cp] : 1.0;
            s += v[p++] * v[q++] * wk * wk;
        } else if (cp < cq) {
            p++;
        } else {
            q++;
        }
    }
    return s;
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

/* SPAI-1 row i of symmetric A into out (A's row pattern): the normal equations
 * G m = a_i with G_jl = (A^T A)_jl over the pattern J, by Cholesky in the packed
 * lower triangle g.  With w (w_k = 1 / sqrt(a_kk)) it is SPAI-1 of the
 * Jacobi-scaled W A W, scaled back: M = W M^ W (w NULL: A itself).  Returns 0 on
 * success, 1 where it fell back to SPAI(0). */
HOMG_HD int spai1_row(const int32_t *rp, const int32_t *ci, const double *v, const double *w, int32_t i, double *out)
{
    double g[GMG_SPAI1_MAX_ROW * (GMG_SPAI1_MAX_ROW + 1) / 2], m[GMG_SPAI1_MAX_ROW];
    int32_t b = rp[i], n = rp[i + 1] - b;
    int ok = n > 0 && n <= GMG_SPAI1_MAX_ROW;
    for (int r = 0; ok && r < n; r++) {
        for (int c = 0; c <= r; c++)
            g[r * (r + 1) / 2 + c] =
                spai_row_dot(rp, ci, v, w, ci[b + r], ci[b + c]) * (w ? w[ci[b + r]] * w[ci[b + c]] : 1.0);
        m[r] = v[b + r] * (w ? w[i] * w[ci[b + r]] : 1.0);
    }
    /* in-place Cholesky G = L L^T (packed rows) */
    for (int r = 0; ok && r < n; r++) {
        for (int c = 0; c <= r; c++) {
            double s = g[r * (r + 1) / 2 + c];
            for (int k = 0; k < c; k++)
                s -= g[r * (r + 1) / 2 + k] * g[c * (c + 1) / 2 + k];
            if (c < r) {
                g[r * (r + 1) / 2 + c] = s / g[c * (c + 1) / 2 + c];
            } else if (s > 1e-12 * g[r * (r + 1) / 2 + r]) { /* g_rr still holds G_rr */
                g[r * (r + 1) / 2 + r] = sqrt(s);
            } else {
                ok = 0;
            }
            if (!ok)
                break;
        }
    }
    for (int r = 0; ok && r < n; r++) { /* L y = a */
        double s = m[r];
        for (int k = 0; k < r; k++)
            s -= g[r * (r + 1) / 2 + k] * m[k];
        m[r] = s / g[r * (r + 1) / 2 + r];
    }
    for (int r = n - 1; ok && r >= 0; r--) { /* L^T m = y */
        double s = m[r];
        for (int k = r + 1; k < n; k++)
            s -= g[k * (k + 1) / 2 + r] * m[k];
        m[r] = s / g[r * (r + 1) / 2 + r];
    }
    for (int r = 0; ok && r < n; r++)
        if (!isfinite(m[r]))
            ok = 0;
    if (ok) {
        for (int r = 0; r < n; r++)
            out[b + r] = m[r] * (w ? w[i] * w[ci[b + r]] : 1.0);
        return 0;
    }
    for (int32_t k = b; k < rp[i + 1]; k++)
        out[k] = ci[k] == i ? spai0_row(rp, ci, v, i, 0) : 0.0;
    return 1;
}

#endif
