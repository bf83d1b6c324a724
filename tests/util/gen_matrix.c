/* gen_matrix.c -- finite-difference and P1 finite-element test matrices. */
#include "gen_matrix.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int alloc(int32_t n, int64_t nnz, homg_host_csr *m)
{
    memset(m, 0, sizeof *m);
    if (nnz > INT32_MAX)
        return -1;
    m->nrows = m->ncols = n;
    m->nnz = (int32_t)nnz;
    m->row_ptr = (int32_t *)malloc(((size_t)n + 1) * sizeof *m->row_ptr);
    m->col_idx = (int32_t *)malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *m->col_idx);
    m->values = (double *)calloc((size_t)(nnz > 0 ? nnz : 1), sizeof *m->values);
    if (!m->row_ptr || !m->col_idx || !m->values) {
        homg_host_csr_free(m);
        return -1;
    }
    return 0;
}

/* Finite differences on an n^dim grid: 2 dim on the diagonal, -1 to each neighbour. */
static int poisson(int n, int dim, homg_host_csr *m)
{
    int32_t rows = dim == 2 ? n * n : n * n * n, k = 0;
    if (n < 1 || alloc(rows, (int64_t)rows * (2 * dim + 1), m))
        return -1;
    for (int32_t r = 0; r < rows; r++) {
        int c[3] = { r % n, (r / n) % n, dim == 3 ? r / (n * n) : 0 };
        int32_t stride[3] = { 1, n, n * n };
        m->row_ptr[r] = k;
        /* Columns in increasing order: -z, -y, -x, self, +x, +y, +z. */
        for (int d = dim - 1; d >= 0; d--)
            if (c[d] > 0) {
                m->col_idx[k] = r - stride[d];
                m->values[k++] = -1;
            }
        m->col_idx[k] = r;
        m->values[k++] = 2.0 * dim;
        for (int d = 0; d < dim; d++)
            if (c[d] < n - 1) {
                m->col_idx[k] = r + stride[d];
                m->values[k++] = -1;
            }
    }
    m->row_ptr[rows] = k;
    m->nnz = k;
    return 0;
}

int homg_gen_poisson2d(int n, homg_host_csr *out) { return poisson(n, 2, out); }
int homg_gen_poisson3d(int n, homg_host_csr *out) { return poisson(n, 3, out); }

/* Neighbour offsets of the Kuhn triangulation: the node itself and both
 * directions of the cube edges and diagonals the tetrahedra share. */
static const int nb[15][3] = { { 0, 0, 0 },   { 1, 0, 0 },  { -1, 0, 0 },  { 0, 1, 0 },   { 0, -1, 0 },
                               { 0, 0, 1 },   { 0, 0, -1 }, { 1, 1, 0 },   { -1, -1, 0 }, { 1, 0, 1 },
                               { -1, 0, -1 }, { 0, 1, 1 },  { 0, -1, -1 }, { 1, 1, 1 },   { -1, -1, -1 } };

/* See gen_matrix.h. */
double homg_gen_simplex_grads(int dim, const double x[4][3], double g[4][3])
{
    double j[3][3], inv[3][3], det;
    for (int r = 0; r < dim; r++)
        for (int c = 0; c < dim; c++)
            j[r][c] = x[c + 1][r] - x[0][r];
    if (dim == 2) {
        det = j[0][0] * j[1][1] - j[0][1] * j[1][0];
        inv[0][0] = j[1][1] / det;
        inv[0][1] = -j[0][1] / det;
        inv[1][0] = -j[1][0] / det;
        inv[1][1] = j[0][0] / det;
    } else {
        det = j[0][0] * (j[1][1] * j[2][2] - j[1][2] * j[2][1]) - j[0][1] * (j[1][0] * j[2][2] - j[1][2] * j[2][0]) +
              j[0][2] * (j[1][0] * j[2][1] - j[1][1] * j[2][0]);
        inv[0][0] = (j[1][1] * j[2][2] - j[1][2] * j[2][1]) / det;
        inv[0][1] = (j[0][2] * j[2][1] - j[0][1] * j[2][2]) / det;
        inv[0][2] = (j[0][1] * j[1][2] - j[0][2] * j[1][1]) / det;
        inv[1][0] = (j[1][2] * j[2][0] - j[1][0] * j[2][2]) / det;
        inv[1][1] = (j[0][0] * j[2][2] - j[0][2] * j[2][0]) / det;
        inv[1][2] = (j[0][2] * j[1][0] - j[0][0] * j[1][2]) / det;
        inv[2][0] = (j[1][0] * j[2][1] - j[1][1] * j[2][0]) / det;
        inv[2][1] = (j[0][1] * j[2][0] - j[0][0] * j[2][1]) / det;
        inv[2][2] = (j[0][0] * j[1][1] - j[0][1] * j[1][0]) / det;
    }
    /* grad phi_a (a >= 1) is row a-1 of J^-1; grad phi_0 = -sum. */
    for (int c = 0; c < dim; c++) {
        g[0][c] = 0;
        for (int a = 1; a <= dim; a++) {
            g[a][c] = inv[a - 1][c];
            g[0][c] -= g[a][c];
        }
    }
    return fabs(det) / (dim == 2 ? 2.0 : 6.0);
}

int homg_gen_p1_cube(int k, double sigma_out, double sigma_in, double lambda, homg_host_csr *out)
{
    int s = k + 1;
    int32_t n = s * s * s, pos = 0;
    double h = 4.0 / k;
    /* The 6 tetrahedra of a cube: the paths (0,0,0) -> e_a -> e_a + e_b -> (1,1,1). */
    static const int perm[6][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } };
    if (k < 1 || alloc(n, (int64_t)n * 15, out))
        return -1;
    /* Pattern: every offset that stays inside the cube of nodes, in sorted order. */
    for (int32_t r = 0; r < n; r++) {
        int c[3] = { r % s, (r / s) % s, r / (s * s) };
        int32_t cols[15];
        int m = 0;
        out->row_ptr[r] = pos;
        for (int q = 0; q < 15; q++) {
            int x = c[0] + nb[q][0], y = c[1] + nb[q][1], z = c[2] + nb[q][2];
            if (x < 0 || y < 0 || z < 0 || x >= s || y >= s || z >= s)
                continue;
            cols[m++] = x + s * (y + s * z);
        }
        for (int a = 1; a < m; a++) /* insertion sort: 14 entries at most */
            for (int b = a; b > 0 && cols[b - 1] > cols[b]; b--) {
                int32_t t = cols[b];
                cols[b] = cols[b - 1];
                cols[b - 1] = t;
            }
        for (int a = 0; a < m; a++)
            out->col_idx[pos++] = cols[a];
    }
    out->row_ptr[n] = pos;
    out->nnz = pos;
    /* Element matrices added into their rows (found by search in the sorted row). */
    for (int cz = 0; cz < k; cz++)
        for (int cy = 0; cy < k; cy++)
            for (int cx = 0; cx < k; cx++)
                for (int t = 0; t < 6; t++) {
                    int v[4][3] = { { cx, cy, cz } };
                    double x[4][3], g[4][3], vol, cen[3] = { 0, 0, 0 }, sigma;
                    int32_t node[4];
                    for (int a = 1; a < 4; a++) {
                        memcpy(v[a], v[a - 1], sizeof v[a]);
                        v[a][perm[t][a - 1]]++;
                    }
                    for (int a = 0; a < 4; a++) {
                        node[a] = v[a][0] + s * (v[a][1] + s * v[a][2]);
                        for (int d = 0; d < 3; d++) {
                            x[a][d] = v[a][d] * h;
                            cen[d] += x[a][d] / 4;
                        }
                    }
                    sigma = cen[0] > 1 && cen[0] < 3 && cen[1] > 1 && cen[1] < 3 && cen[2] > 1 && cen[2] < 3
                                ? sigma_in
                                : sigma_out;
                    vol = homg_gen_simplex_grads(3, x, g);
                    for (int a = 0; a < 4; a++)
                        for (int b = 0; b < 4; b++) {
                            double e = sigma * vol * (g[a][0] * g[b][0] + g[a][1] * g[b][1] + g[a][2] * g[b][2]) +
                                       lambda * vol / 20.0 * (a == b ? 2.0 : 1.0);
                            int32_t lo = out->row_ptr[node[a]], hi = out->row_ptr[node[a] + 1];
                            while (lo < hi) {
                                int32_t mid = (lo + hi) / 2;
                                if (out->col_idx[mid] < node[b])
                                    lo = mid + 1;
                                else
                                    hi = mid;
                            }
                            out->values[lo] += e;
                        }
                }
    return 0;
}
