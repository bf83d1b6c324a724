/* grid_tmpl.h -- the CPU grid kernels for one storage type, included by grid.c
 * once with T = float and once with T = double (C has no templates).  Each
 * function mirrors its CUDA twin in grid.cu. */

#define CAT2(a, b) a##_##b
#define CAT(a, b)  CAT2(a, b)
#define FN(name)   CAT(name, SUFFIX)

/* Boundary term 2 g / h^2 summed over the edges cell (i,j) touches. */
static double FN(bterm)(const grid_level *L, int i, int j)
{
    double s = 0;
    if (i == 0 && L->bc[HOMG_W])
        s += ((const T *)L->bc[HOMG_W])[j];
    if (i == L->nx - 1 && L->bc[HOMG_E])
        s += ((const T *)L->bc[HOMG_E])[j];
    if (j == 0 && L->bc[HOMG_S])
        s += ((const T *)L->bc[HOMG_S])[i];
    if (j == L->ny - 1 && L->bc[HOMG_N])
        s += ((const T *)L->bc[HOMG_N])[i];
    return 2.0 * s * L->inv_h2;
}

static double FN(diag)(const grid_level *L, int i, int j)
{
    return (4 + homg_edges_touched(i, j, L->nx, L->ny)) * L->inv_h2 + L->lambda;
}

/* Sum of the in-grid neighbours of (i,j). */
static double FN(nbsum)(const grid_level *L, const T *u, int i, int j)
{
    const int nx = L->nx;
    const T *p = u + (size_t)j * nx + i;
    double s = 0;
    if (i > 0)
        s += p[-1];
    if (i < nx - 1)
        s += p[1];
    if (j > 0)
        s += p[-nx];
    if (j < L->ny - 1)
        s += p[nx];
    return s;
}

/* f + bterm - A u at (i,j) in double (u may be NULL: zero). */
static double FN(res_at)(const grid_level *L, const T *u, const T *f, int i, int j)
{
    double r = (double)f[(size_t)j * L->nx + i] + FN(bterm)(L, i, j);
    if (u)
        r += L->inv_h2 * FN(nbsum)(L, u, i, j) - FN(diag)(L, i, j) * u[(size_t)j * L->nx + i];
    return r;
}

static void FN(residual)(const grid_level *L, const T *u, const T *f, T *r)
{
#pragma omp parallel for schedule(static)
    for (int j = 0; j < L->ny; j++)
        for (int i = 0; i < L->nx; i++)
            r[(size_t)j * L->nx + i] = (T)FN(res_at)(L, u, f, i, j);
}

static void FN(residual_restrict)(const grid_level *L, const T *u, const T *f, T *fc)
{
    const int ncx = L->nx / 2, ncy = L->ny / 2;
#pragma omp parallel for schedule(static)
    for (int J = 0; J < ncy; J++)
        for (int I = 0; I < ncx; I++) {
            double s = FN(res_at)(L, u, f, 2 * I, 2 * J) + FN(res_at)(L, u, f, 2 * I + 1, 2 * J) +
                       FN(res_at)(L, u, f, 2 * I, 2 * J + 1) + FN(res_at)(L, u, f, 2 * I + 1, 2 * J + 1);
            fc[(size_t)J * ncx + I] = (T)(0.25 * s);
        }
}

/* Coarse value at (I,J), reflected with a sign change across the edges. */
static double FN(coarse_at)(const T *ec, int I, int J, int ncx, int ncy)
{
    int s = homg_reflect(&I, ncx) * homg_reflect(&J, ncy);
    return s * (double)ec[(size_t)J * ncx + I];
}

static double FN(prolong_at)(const T *ec, int i, int j, int ncx, int ncy)
{
    int I = i >> 1, J = j >> 1;
    int I2 = I + ((i & 1) ? 1 : -1), J2 = J + ((j & 1) ? 1 : -1);
    return 0.5625 * FN(coarse_at)(ec, I, J, ncx, ncy) + 0.1875 * FN(coarse_at)(ec, I2, J, ncx, ncy) +
           0.1875 * FN(coarse_at)(ec, I, J2, ncx, ncy) + 0.0625 * FN(coarse_at)(ec, I2, J2, ncx, ncy);
}

static void FN(prolong)(const grid_level *L, const T *ec, T *u, int assign)
{
    const int ncx = L->nx / 2, ncy = L->ny / 2;
#pragma omp parallel for schedule(static)
    for (int j = 0; j < L->ny; j++)
        for (int i = 0; i < L->nx; i++) {
            double e = FN(prolong_at)(ec, i, j, ncx, ncy);
            T *p = u + (size_t)j * L->nx + i;
            *p = (T)(assign ? e : *p + e);
        }
}

/* One colour of a Gauss-Seidel sweep: cells with (i+j) % 2 == colour. */
static void FN(smooth_colour)(const grid_level *L, T *u, const T *f, int colour)
{
#pragma omp parallel for schedule(static)
    for (int j = 0; j < L->ny; j++)
        for (int i = (j + colour) & 1; i < L->nx; i += 2) {
            double rhs = (double)f[(size_t)j * L->nx + i] + FN(bterm)(L, i, j) + L->inv_h2 * FN(nbsum)(L, u, i, j);
            u[(size_t)j * L->nx + i] = (T)(rhs / FN(diag)(L, i, j));
        }
}

static void FN(smooth)(const grid_level *L, T *u, const T *f, int sweeps)
{
    for (int s = 0; s < sweeps; s++) {
        FN(smooth_colour)(L, u, f, 0);
        FN(smooth_colour)(L, u, f, 1);
    }
}

/* c = a^T b (ta) or a b, all n x n row-major, accumulated in double. */
static void FN(matmul)(int m, int n, int q, const T *a, int ta, const T *b, int tb, T *c)
{
    /* c (m x q) = op(a) (m x n) * op(b) (n x q); op = transpose when ta/tb */
    for (int i = 0; i < m; i++)
        for (int j = 0; j < q; j++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                s += (double)(ta ? a[k * m + i] : a[i * n + k]) * (double)(tb ? b[j * n + k] : b[k * q + j]);
            c[i * q + j] = (T)s;
        }
}

static void FN(coarse_exact)(const grid_level *L, T *u, const T *f, const T *qx, const T *qy, const T *inv_eig)
{
    const int nx = L->nx, ny = L->ny;
    T rhs[HOMG_COARSE_EXACT_MAX * HOMG_COARSE_EXACT_MAX], t1[HOMG_COARSE_EXACT_MAX * HOMG_COARSE_EXACT_MAX];
    /* arrays are row-major with rows = y: F is ny x nx */
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
            rhs[j * nx + i] = (T)((double)f[j * nx + i] + FN(bterm)(L, i, j));
    FN(matmul)(ny, ny, nx, qy, 1, rhs, 0, t1); /* Qy^T F */
    FN(matmul)(ny, nx, nx, t1, 0, qx, 0, rhs); /* (Qy^T F) Qx */
    for (int k = 0; k < nx * ny; k++)
        rhs[k] = (T)((double)rhs[k] * (double)inv_eig[k]);
    FN(matmul)(ny, ny, nx, qy, 0, rhs, 0, t1); /* Qy G */
    FN(matmul)(ny, nx, nx, t1, 0, qx, 1, u);   /* (Qy G) Qx^T */
}

static void FN(restrict_boundary)(const grid_level *L, void *const out[4])
{
    for (int s = 0; s < 4; s++) {
        const T *g = (const T *)L->bc[s];
        int nc = (s < 2 ? L->ny : L->nx) / 2;
        if (!g)
            continue;
        for (int J = 0; J < nc; J++)
            ((T *)out[s])[J] = (T)(0.5 * ((double)g[2 * J] + (double)g[2 * J + 1]));
    }
}

static void FN(add)(size_t n, const T *x, T *y)
{
#pragma omp parallel for schedule(static)
    for (size_t k = 0; k < n; k++)
        y[k] = (T)((double)y[k] + (double)x[k]);
}

static void FN(monitor)(const grid_level *L, const T *u, const T *f, const T *u_ref, double *hist, int *count)
{
    double num = 0, den = 0;
    const size_t n = (size_t)L->nx * L->ny;
    if (u_ref) {
#pragma omp parallel for reduction(+ : num, den) schedule(static)
        for (size_t k = 0; k < n; k++) {
            double d = (double)u[k] - (double)u_ref[k];
            num += d * d;
            den += (double)u_ref[k] * (double)u_ref[k];
        }
    } else {
#pragma omp parallel for reduction(+ : num, den) schedule(static)
        for (int j = 0; j < L->ny; j++)
            for (int i = 0; i < L->nx; i++) {
                double r = FN(res_at)(L, u, f, i, j), b = FN(res_at)(L, NULL, f, i, j);
                num += r * r;
                den += b * b;
            }
    }
    hist[*count] = den > 0 ? sqrt(num / den) : sqrt(num);
    (*count)++;
}

static void FN(find_nonfinite)(size_t n, const T *x, long long *flag)
{
    if (*flag)
        return;
    for (size_t k = 0; k < n; k++)
        if (!isfinite((double)x[k])) {
            *flag = (long long)k + 1;
            return;
        }
}

/* ---- HOMG ---- */

#include "homg_point_tmpl.h"

static void FN(homg_filter)(int nx, int ny, int s, const T *src, T *dst)
{
#pragma omp parallel for schedule(static)
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
            dst[(size_t)j * nx + i] = (T)FN(homg_filter_point)(nx, ny, s, src, i, j);
}

static void FN(homg_gather)(int nx, int ny, const mfmg_level *H, const T *src, T *compact)
{
#pragma omp parallel for schedule(static)
    for (int b = 0; b < H->cy; b++)
        for (int a = 0; a < H->cx; a++) {
            int x = homg_marked_coord(a, nx, H->l), y = homg_marked_coord(b, ny, H->l);
            compact[(size_t)b * H->cx + a] = src[(size_t)y * nx + x];
        }
}

static void FN(homg_iterate)(const grid_level *L, const mfmg_level *H, const T *fm, const T *u_in, T *u_out)
{
#pragma omp parallel for schedule(static)
    for (int y = 0; y < L->ny; y++)
        for (int x = 0; x < L->nx; x++)
            u_out[(size_t)y * L->nx + x] = (T)FN(homg_point)(L, H, 1.0 / H->l, fm, u_in, x, y);
}

/* Level H's iteration's values only at the points an iteration of level W reads
 * (homg_read_coord's R x R of W); u_out keeps its other values. */
static void FN(homg_iterate_marked)(const grid_level *L, const mfmg_level *H, const mfmg_level *W, const T *fm,
                                    const T *u_in, T *u_out)
{
#pragma omp parallel for schedule(static)
    for (int b = 0; b < W->cy + 2; b++) {
        const int y = homg_read_coord(b, L->ny, W->l, W->cy);
        if (y < 0)
            continue;
        for (int a = 0; a < W->cx + 2; a++) {
            const int x = homg_read_coord(a, L->nx, W->l, W->cx);
            if (x >= 0)
                u_out[(size_t)y * L->nx + x] = (T)FN(homg_point)(L, H, 1.0 / H->l, fm, u_in, x, y);
        }
    }
}

#undef FN
#undef CAT
#undef CAT2
