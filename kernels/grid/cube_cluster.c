/* cube_cluster.c -- cube_cluster.h's tables (from cube_sep_tables: each eigenvector's parity
 * read off S) and the CPU twin of cube_cluster.cu: the same transforms line by line, each
 * output the same fmaf sum in the same order, the same pass order (x, y; z, D^-1, z; y, x). */
#include "cube_cluster.h"
#include "cube_sep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Axis a's parity order (symmetric eigenvectors first) into perm: 1 where every eigenvector of
 * S (column-major, S(i, m) at m n + i) is symmetric or antisymmetric and half are each. */
static int parity_order(const float *S, int n, int *perm)
{
    int ns = 0, na = 0, anti[CUBE_CLUSTER_N];
    if (n % 8)
        return 0;
    for (int m = 0; m < n; m++) {
        const float *v = S + m * n;
        float big = 0.0f, ds = 0.0f, da = 0.0f;
        for (int i = 0; i < n; i++) {
            big = fmaxf(big, fabsf(v[i]));
            ds = fmaxf(ds, fabsf(v[i] - v[n - 1 - i]));
            da = fmaxf(da, fabsf(v[i] + v[n - 1 - i]));
        }
        if (ds <= 1e-4f * big && ns < n / 2)
            perm[ns++] = m;
        else if (da <= 1e-4f * big && na < n / 2)
            anti[na++] = m;
        else
            return 0;
    }
    memcpy(perm + n / 2, anti, sizeof(int) * (size_t)(n / 2));
    return 1;
}

int cube_cluster_tables(const cube_level *K, int halves, float *t, cube_clu *C)
{
    float *s = (float *)malloc(sizeof(float) * CUBE_SEP_FLOATS);
    int ok = s && cube_sep_tables(K, s);
    memset(t, 0, sizeof(float) * CUBE_CLUSTER_FLOATS);
    memset(C, 0, sizeof *C);
    C->n[0] = K->nx, C->n[1] = K->ny, C->n[2] = K->nz;
    C->lam = K->lam;
    for (int a = 0; a < 3 && ok; a++) {
        const int n = C->n[a], h = n / 2;
        const float *St = s + 2 * a * CUBE_SEP_MAT, *S = s + (2 * a + 1) * CUBE_SEP_MAT;
        const float *ev = s + 6 * CUBE_SEP_MAT + a * CUBE_SEP_N;
        float *in = t + 2 * a * CUBE_CLUSTER_MAT, *out = in + CUBE_CLUSTER_MAT,
              *evc = t + CUBE_CLUSTER_EV + a * CUBE_CLUSTER_N;
        int perm[CUBE_CLUSTER_N];
        if (n > CUBE_CLUSTER_N) {
            ok = 0;
            break;
        }
        C->half[a] = halves && parity_order(S, n, perm);
        if (!C->half[a]) {
            memcpy(in, St, sizeof(float) * (size_t)(n * n));
            memcpy(out, S, sizeof(float) * (size_t)(n * n));
            memcpy(evc, ev, sizeof(float) * (size_t)n);
            continue;
        }
        for (int m = 0; m < n; m++) {
            for (int i = 0; i < h; i++) {
                in[i * n + m] = S[perm[m] * n + i];
                out[m * h + i] = S[perm[m] * n + i];
            }
            evc[m] = ev[perm[m]];
        }
    }
    free(s);
    return ok;
}

int cube_cluster_fits(const cube_clu *C, int cs)
{
    if ((cs != 8 && cs != 16) || !C->t)
        return 0;
    for (int a = 0; a < 3; a++)
        if (C->n[a] < 4 || C->n[a] > CUBE_CLUSTER_N || C->n[a] % 4 || (a > 0 && C->n[a] % cs) ||
            (C->half[a] && C->n[a] % 8))
            return 0;
    return 1;
}

/* v (n floats at stride s) <- S_a^T v (tmp: n floats). */
static void line_in(const cube_clu *C, int a, float *v, size_t s, float *tmp)
{
    const int n = C->n[a], h = n / 2;
    const float *m = C->t + 2 * a * CUBE_CLUSTER_MAT;
    for (int p = 0; p < n; p++) {
        float acc = 0.0f;
        if (!C->half[a])
            for (int q = 0; q < n; q++)
                acc = fmaf(m[q * n + p], v[q * s], acc);
        else
            for (int q = 0; q < h; q++) {
                const float u = p < h ? v[q * s] + v[(n - 1 - q) * s] : v[q * s] - v[(n - 1 - q) * s];
                acc = fmaf(m[q * n + p], u, acc);
            }
        tmp[p] = acc;
    }
    for (int p = 0; p < n; p++)
        v[p * s] = tmp[p];
}

/* v (n floats at stride s) <- S_a v (tmp: n floats). */
static void line_out(const cube_clu *C, int a, float *v, size_t s, float *tmp)
{
    const int n = C->n[a], h = n / 2;
    const float *m = C->t + (2 * a + 1) * CUBE_CLUSTER_MAT;
    if (!C->half[a])
        for (int p = 0; p < n; p++) {
            float acc = 0.0f;
            for (int q = 0; q < n; q++)
                acc = fmaf(m[q * n + p], v[q * s], acc);
            tmp[p] = acc;
        }
    else
        for (int i = 0; i < h; i++) {
            float e = 0.0f, o = 0.0f;
            for (int q = 0; q < h; q++) {
                e = fmaf(m[q * h + i], v[q * s], e);
                o = fmaf(m[(h + q) * h + i], v[(h + q) * s], o);
            }
            tmp[i] = e + o;
            tmp[n - 1 - i] = e - o;
        }
    for (int p = 0; p < n; p++)
        v[p * s] = tmp[p];
}

homg_status homg_cpu_cubeclu_solve(kernel_exec *ex, const cube_clu *C, int cs, float *x, const float *b)
{
    const size_t nx = (size_t)C->n[0], ny = (size_t)C->n[1], nz = (size_t)C->n[2], sz = nx * ny;
    const float *ev = C->t + CUBE_CLUSTER_EV;
    float tmp[CUBE_CLUSTER_N];
    if (!cube_cluster_fits(C, cs) || !x || !b)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "cluster exact solve: %d x %d x %d on %d blocks",
                              C->n[0], C->n[1], C->n[2], cs);
    memcpy(x, b, sizeof(float) * sz * nz);
    for (size_t r = 0; r < ny * nz; r++) /* pass 1: every x line, then every y line */
        line_in(C, 0, x + r * nx, 1, tmp);
    for (size_t k = 0; k < nz; k++)
        for (size_t i = 0; i < nx; i++)
            line_in(C, 1, x + k * sz + i, nx, tmp);
    for (size_t j = 0; j < ny; j++) /* pass 2: every z line: in, D^-1 (cube_sep_denom's order), out */
        for (size_t i = 0; i < nx; i++) {
            float *v = x + j * nx + i;
            line_in(C, 2, v, sz, tmp);
            for (size_t k = 0; k < nz; k++)
                v[k * sz] = v[k * sz] / (((ev[i] + ev[CUBE_CLUSTER_N + j]) + ev[2 * CUBE_CLUSTER_N + k]) + C->lam);
            line_out(C, 2, v, sz, tmp);
        }
    for (size_t k = 0; k < nz; k++) /* pass 3: every y line, then every x line */
        for (size_t i = 0; i < nx; i++)
            line_out(C, 1, x + k * sz + i, nx, tmp);
    for (size_t r = 0; r < ny * nz; r++)
        line_out(C, 0, x + r * nx, 1, tmp);
    return HOMG_OK;
}

const cubeclu_kernels homg_cpu_cubeclu_kernels = { .name = "cpu", CUBECLU_KERNELS(HOMG_KERNEL_CPU_INIT) };
