/* dense_cholesky.h -- the plain dense Cholesky factorisation and solve of the
 * CPU twins of the coarse solvers (AMG and GMG: kernels/amg/coarse.c,
 * kernels/gmg/coarse.c), in double, column-major, no LAPACK. */
#ifndef HOMG_DENSE_CHOLESKY_H
#define HOMG_DENSE_CHOLESKY_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

/* A = L L^T in the lower triangle of l (n x n, column-major, A's lower
 * triangle on entry).  Returns 0, or the order j + 1 of the first pivot d with
 * d <= rel |a_jj| (rel = 0: potrf's test d <= 0; l is then partly factored). */
static inline int dense_cholesky_factor(double *l, int32_t n, double rel)
{
    for (int32_t j = 0; j < n; j++) {
        double d = l[(size_t)j * n + j], ajj = d;
        for (int32_t k = 0; k < j; k++)
            d -= l[(size_t)k * n + j] * l[(size_t)k * n + j];
        if (!(d > rel * fabs(ajj)))
            return j + 1;
        d = sqrt(d);
        l[(size_t)j * n + j] = d;
        for (int32_t i = j + 1; i < n; i++) {
            double s = l[(size_t)j * n + i];
            for (int32_t k = 0; k < j; k++)
                s -= l[(size_t)k * n + i] * l[(size_t)k * n + j];
            l[(size_t)j * n + i] = s / d;
        }
    }
    return 0;
}

/* y = A^-1 y from the factor: L z = y, then L^T y = z. */
static inline void dense_cholesky_solve(const double *l, int32_t n, double *y)
{
    for (int32_t i = 0; i < n; i++) {
        double s = y[i];
        for (int32_t k = 0; k < i; k++)
            s -= l[(size_t)k * n + i] * y[k];
        y[i] = s / l[(size_t)i * n + i];
    }
    for (int32_t i = n; i-- > 0;) {
        double s = y[i];
        for (int32_t k = i + 1; k < n; k++)
            s -= l[(size_t)i * n + k] * y[k];
        y[i] = s / l[(size_t)i * n + i];
    }
}

#endif
