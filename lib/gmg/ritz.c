/* ritz.c -- the largest Ritz value of a self-adjoint K from the moments
 * mu_k = (x, K^k x), k = 0 .. 2m - 1, of one start x: the Krylov space
 * span{x, K x .. K^(m-1) x} has the Gram matrix H_ij = mu_(i+j) and K's
 * projection H1_ij = mu_(i+j+1) (K self-adjoint), so the Ritz values are the
 * eigenvalues of H1 c = theta H c -- m steps of Lanczos without its per-step
 * scalars (the device only sums dot products; one read at the end).  The
 * moment matrix is ill-conditioned (K^k x tends to one eigenvector), so H is
 * diagonally scaled and the directions of its eigenvalues below 1e-10 of
 * the largest are dropped: the answer stays a Rayleigh quotient of a vector
 * of the space (a lower bound of lambda_max up to rounding); it is never
 * below the power iteration's mu_(2m-1) / mu_(2m-2) of the same steps.
 */
#include "gmg_internal.h"

#include <math.h>
#include <string.h>

#define RITZ_DROP 1e-10

/* Eigenvalues (e) and eigenvectors (columns of v) of the symmetric n x n a
 * (overwritten) by cyclic Jacobi rotations; n <= GMG_RITZ_MAX_STEPS. */
static void jacobi_eig(double *a, int n, double *e, double *v)
{
    for (int i = 0; i < n * n; i++)
        v[i] = i % (n + 1) == 0;
    for (int sweep = 0; sweep < 60; sweep++) {
        double off = 0, all = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if (i == j)
                    all += a[i * n + j] * a[i * n + j];
                else
                    off += a[i * n + j] * a[i * n + j];
        if (off <= 1e-30 * (all + off))
            break;
        for (int p = 0; p < n; p++)
            for (int q = p + 1; q < n; q++) {
                double apq = a[p * n + q], th, t, c, s;
                if (apq == 0)
                    continue;
                th = (a[q * n + q] - a[p * n + p]) / (2 * apq);
                t = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1));
                c = 1 / sqrt(t * t + 1);
                s = t * c;
                for (int k = 0; k < n; k++) { /* columns p, q */
                    double akp = a[k * n + p], akq = a[k * n + q];
                    a[k * n + p] = c * akp - s * akq;
                    a[k * n + q] = s * akp + c * akq;
                }
                for (int k = 0; k < n; k++) { /* rows p, q */
                    double apk = a[p * n + k], aqk = a[q * n + k];
                    a[p * n + k] = c * apk - s * aqk;
                    a[q * n + k] = s * apk + c * aqk;
                }
                for (int k = 0; k < n; k++) {
                    double vkp = v[k * n + p], vkq = v[k * n + q];
                    v[k * n + p] = c * vkp - s * vkq;
                    v[k * n + q] = s * vkp + c * vkq;
                }
            }
    }
    for (int i = 0; i < n; i++)
        e[i] = a[i * n + i];
}

double homg__gmg_ritz_max(const double *mu, int m)
{
    enum { N = GMG_RITZ_MAX_STEPS };
    double h[N * N], h1[N * N], v[N * N], e[N], d[N], w[N * N], c[N * N], big = 0, best;
    int r = 0;
    if (m > N)
        m = N;
    for (int i = 0; i < 2 * m; i++)
        if (!isfinite(mu[i]))
            return NAN;
    if (!(mu[0] > 0)) /* x = 0 */
        return 0;
    best = mu[2 * m - 2] > 0 ? mu[2 * m - 1] / mu[2 * m - 2] : 0; /* the power iteration's quotient */
    for (int i = 0; i < m; i++) {
        if (!(mu[2 * i] > 0)) { /* K^i x = 0: the space has i dimensions */
            m = i;
            break;
        }
        d[i] = 1 / sqrt(mu[2 * i]);
    }
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++) {
            h[i * m + j] = mu[i + j] * d[i] * d[j];
            h1[i * m + j] = mu[i + j + 1] * d[i] * d[j];
        }
    jacobi_eig(h, m, e, v);
    for (int k = 0; k < m; k++)
        big = e[k] > big ? e[k] : big;
    for (int k = 0; k < m; k++) /* kept directions, scaled to unit H-norm: w's columns */
        if (e[k] > RITZ_DROP * big) {
            for (int i = 0; i < m; i++)
                w[i * m + r] = v[i * m + k] / sqrt(e[k]);
            r++;
        }
    for (int p = 0; p < r; p++) /* c = w^T h1 w */
        for (int q = 0; q < r; q++) {
            double sum = 0;
            for (int i = 0; i < m; i++)
                for (int j = 0; j < m; j++)
                    sum += w[i * m + p] * h1[i * m + j] * w[j * m + q];
            c[p * r + q] = sum;
        }
    for (int p = 0; p < r; p++) /* symmetric up to rounding */
        for (int q = p + 1; q < r; q++)
            c[p * r + q] = c[q * r + p] = 0.5 * (c[p * r + q] + c[q * r + p]);
    jacobi_eig(c, r, e, v);
    for (int k = 0; k < r; k++)
        best = e[k] > best ? e[k] : best;
    return best;
}
