/* cube_exact.c -- the exact solve of a small cube level (cube_exact.h): each axis's 1D
 * matrix diagonalised on the host (cyclic Jacobi, double), and the CPU twin of
 * cube_exact.cu (the same steps, cube_exact_point.h, one thread). */
#include "cube_exact.h"
#include "cube_exact_point.h"
#include "cube_point.h"

#include <math.h>
#include <string.h>

/* T = V diag(w) V^T for the symmetric n x n T (row-major, overwritten); V[i * n + m]. */
static void jacobi_eigen(double *T, int n, double *V, double *w)
{
    for (int i = 0; i < n * n; i++)
        V[i] = i % (n + 1) == 0 ? 1.0 : 0.0;
    for (int sweep = 0; sweep < 60; sweep++) {
        double off = 0.0;
        for (int p = 0; p < n; p++)
            for (int q = p + 1; q < n; q++)
                off += T[p * n + q] * T[p * n + q];
        if (off < 1e-30)
            break;
        for (int p = 0; p < n; p++)
            for (int q = p + 1; q < n; q++) {
                const double apq = T[p * n + q];
                if (fabs(apq) < 1e-300)
                    continue;
                const double th = (T[q * n + q] - T[p * n + p]) / (2.0 * apq);
                const double t = (th >= 0 ? 1.0 : -1.0) / (fabs(th) + sqrt(th * th + 1.0));
                const double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
                for (int k = 0; k < n; k++) { /* columns p, q */
                    const double tp = T[k * n + p], tq = T[k * n + q];
                    T[k * n + p] = c * tp - s * tq;
                    T[k * n + q] = s * tp + c * tq;
                }
                for (int k = 0; k < n; k++) { /* rows p, q */
                    const double tp = T[p * n + k], tq = T[q * n + k];
                    T[p * n + k] = c * tp - s * tq;
                    T[q * n + k] = s * tp + c * tq;
                }
                for (int k = 0; k < n; k++) {
                    const double vp = V[k * n + p], vq = V[k * n + q];
                    V[k * n + p] = c * vp - s * vq;
                    V[k * n + q] = s * vp + c * vq;
                }
            }
    }
    for (int m = 0; m < n; m++)
        w[m] = T[m * n + m];
}

int cube_axis_eigen(const cube_level *K, int a, double *V, double *w)
{
    const int m = a == 0 ? K->nx : a == 1 ? K->ny : K->nz;
    double T[CUBE_AXIS_MAX * CUBE_AXIS_MAX];
    if (m < 1 || m > CUBE_AXIS_MAX)
        return 0;
    memset(T, 0, sizeof(double) * (size_t)m * m);
    for (int i = 0; i < m; i++) {
        T[i * m + i] = cube_axis(K, a, i, m);
        if (i + 1 < m)
            T[i * m + i + 1] = T[(i + 1) * m + i] = -(double)K->g[a];
    }
    jacobi_eigen(T, m, V, w);
    return m;
}

int cube_exact_of(const cube_level *K, cube_exact *E)
{
    double V[CUBE_EXACT_N * CUBE_EXACT_N], w[CUBE_EXACT_N];
    double lo = K->lam, hi = K->lam;
    memset(E, 0, sizeof *E);
    for (int a = 0; a < 3; a++) {
        const int m = (a == 0 ? K->nx : a == 1 ? K->ny : K->nz) <= CUBE_EXACT_N ? cube_axis_eigen(K, a, V, w) : 0;
        double wmin = INFINITY, wmax = -INFINITY;
        if (m < 1)
            return 0;
        for (int q = 0; q < m; q++) {
            E->ev[a][q] = (float)w[q];
            wmin = w[q] < wmin ? w[q] : wmin;
            wmax = w[q] > wmax ? w[q] : wmax;
        }
        for (int i = 0; i < m; i++)
            for (int q = 0; q < m; q++)
                E->s[a][i * CUBE_EXACT_N + q] = (float)V[i * m + q];
        E->n[a] = m;
        lo += wmin;
        hi += wmax;
    }
    E->lam = K->lam;
    return hi > 0 && lo > 1e-5 * hi; /* SPD and not nearly singular */
}

/* One transform along axis a, every line (cube_exact_line). */
static void axis(const cube_exact *E, const float *mat, int a, const float *in, float *out, const float *ev)
{
    for (unsigned line = 0; line < cube_exact_lines(E, a); line++)
        cube_exact_line(E, mat, a, in, out, ev, line);
}

homg_status homg_cpu_cubeexact_solve(kernel_exec *ex, const cube_exact *E, float *x, const float *b)
{
    float w[2][CUBE_EXACT_CELLS], t[3][CUBE_EXACT_N * CUBE_EXACT_N];
    if (E->n[0] < 1 || E->n[1] < 1 || E->n[2] < 1 || E->n[0] > CUBE_EXACT_N || E->n[1] > CUBE_EXACT_N ||
        E->n[2] > CUBE_EXACT_N)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "exact solve: %d x %d x %d", E->n[0], E->n[1], E->n[2]);
    for (int a = 0; a < 3; a++)
        cube_exact_transpose(E, a, t[a], 0, 1);
    axis(E, t[0], 0, b, w[0], NULL);
    axis(E, t[1], 1, w[0], w[1], NULL);
    axis(E, t[2], 2, w[1], w[0], &E->ev[0][0]);
    axis(E, E->s[2], 2, w[0], w[1], NULL);
    axis(E, E->s[1], 1, w[1], w[0], NULL);
    axis(E, E->s[0], 0, w[0], x, NULL);
    return HOMG_OK;
}

const cubeexact_kernels homg_cpu_cubeexact_kernels = { .name = "cpu", CUBEEXACT_KERNELS(HOMG_KERNEL_CPU_INIT) };
