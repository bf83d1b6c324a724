/* cube_sep.c -- the tables of cube_sep.h's exact solve (each axis's 1D matrix diagonalised
 * on the host, cube_axis_eigen) and the CPU twin of cube_sep.cu: the same three passes,
 * slice after slice, one thread (cube_sep_point.h). */
#include "cube_sep.h"
#include "cube_exact.h"
#include "cube_sep_point.h"

#include <math.h>
#include <string.h>

int cube_sep_tables(const cube_level *K, float *t)
{
    double V[CUBE_AXIS_MAX * CUBE_AXIS_MAX];
    double w[CUBE_AXIS_MAX], lo = K->lam, hi = K->lam;
    memset(t, 0, sizeof(float) * CUBE_SEP_FLOATS);
    for (int a = 0; a < 3; a++) {
        const int n = a == 0 ? K->nx : a == 1 ? K->ny : K->nz;
        double wmin = INFINITY, wmax = -INFINITY;
        if (n < 4 || n > CUBE_SEP_N || n % 4 || cube_axis_eigen(K, a, V, w) != n)
            return 0;
        for (int q = 0; q < n; q++)
            for (int p = 0; p < n; p++) {
                t[2 * a * CUBE_SEP_MAT + q * n + p] = (float)V[q * n + p];       /* S^T(p, q) = S(q, p) */
                t[(2 * a + 1) * CUBE_SEP_MAT + q * n + p] = (float)V[p * n + q]; /* S(p, q) */
            }
        for (int m = 0; m < n; m++) {
            t[6 * CUBE_SEP_MAT + a * CUBE_SEP_N + m] = (float)w[m];
            wmin = w[m] < wmin ? w[m] : wmin;
            wmax = w[m] > wmax ? w[m] : wmax;
        }
        lo += wmin;
        hi += wmax;
    }
    return hi > 0 && lo > 1e-5 * hi; /* SPD and not nearly singular */
}

/* The level's sides are what the passes take (cube_sep.h). */
int cube_sep_fits(const cube_sep *P)
{
    for (int a = 0; a < 3; a++)
        if (P->n[a] < 4 || P->n[a] > CUBE_SEP_N || P->n[a] % 4)
            return 0;
    return P->t != NULL;
}

homg_status homg_cpu_cubesep_solve(kernel_exec *ex, const cube_sep *P, float *x, const float *b)
{
    float a[2][CUBE_SEP_MAT];
    if (!cube_sep_fits(P) || !x || !b)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "exact solve: %d x %d x %d", P->n[0], P->n[1], P->n[2]);
    for (int pass = 1; pass <= 3; pass++)
        for (unsigned s = 0; s < (unsigned)(pass == 2 ? P->n[1] : P->n[2]); s++) {
            cube_sep_load(P, pass, s, pass == 1 ? b : x, a[0], 0, 1);
            cube_sep_step(P, pass, 0, a[0], a[1], 0, 1);
            if (pass == 2)
                cube_sep_divide(P, s, a[1], 0, 1);
            cube_sep_step(P, pass, 1, a[1], a[0], 0, 1);
            cube_sep_store(P, pass, s, a[0], x, 0, 1);
        }
    return HOMG_OK;
}

const cubesep_kernels homg_cpu_cubesep_kernels = { .name = "cpu", CUBESEP_KERNELS(HOMG_KERNEL_CPU_INIT) };
