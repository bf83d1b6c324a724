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

/* The exact solve by the sine bases' symmetry (the GPU's order, kernels/grid/grid_exact.cuh):
 * q[(n-1-i) n + k] = (-1)^k q[i n + k], so a product over the points i < n pairs i with
 * n-1-i (half the multiply-adds) and a product onto the points gives i and n-1-i from
 * the even and odd modes' sums.  For an odd n the middle point goes with the even modes
 * only.  Only the first (n+1)/2 rows of each basis are read. */

/* c[k cs] (k < n) = sum over the points i of q[i n + k] x[i s], x folded by k's parity. */
static void FN(exact_onto_modes)(int n, const T *q, const T *x, int s, T *c, int cs)
{
    const int h = n / 2;
    for (int k = 0; k < n; k++) {
        double acc = 0;
        for (int i = 0; i < h; i++) {
            const T v = (T)(k & 1 ? (double)x[i * s] - (double)x[(n - 1 - i) * s]
                                  : (double)x[i * s] + (double)x[(n - 1 - i) * s]);
            acc += (double)q[i * n + k] * (double)v;
        }
        if ((n & 1) && !(k & 1))
            acc += (double)q[h * n + k] * (double)x[h * s];
        c[k * cs] = (T)acc;
    }
}

/* y[i s] (i < n) = sum over the modes k of q[i n + k] c[k cs]: the even and odd modes'
 * sums of point i < (n+1)/2, rounded, give points i and n-1-i. */
static void FN(exact_onto_points)(int n, const T *q, const T *c, int cs, T *y, int s)
{
    for (int i = 0; i < (n + 1) / 2; i++) {
        double e = 0, o = 0;
        for (int k = 0; k < n; k++)
            if (k & 1)
                o += (double)q[i * n + k] * (double)c[k * cs];
            else
                e += (double)q[i * n + k] * (double)c[k * cs];
        const T te = (T)e, to = (T)o;
        if (2 * i + 1 == n) {
            y[i * s] = te;
        } else {
            y[i * s] = (T)((double)te + (double)to);
            y[(n - 1 - i) * s] = (T)((double)te - (double)to);
        }
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
    for (int i = 0; i < nx; i++) /* Qy^T F, column by column */
        FN(exact_onto_modes)(ny, qy, rhs + i, nx, t1 + i, nx);
    for (int j = 0; j < ny; j++) /* (Qy^T F) Qx, row by row */
        FN(exact_onto_modes)(nx, qx, t1 + j * nx, 1, rhs + j * nx, 1);
    for (int k = 0; k < nx * ny; k++)
        rhs[k] = (T)((double)rhs[k] * (double)inv_eig[k]);
    for (int i = 0; i < nx; i++) /* Qy G */
        FN(exact_onto_points)(ny, qy, rhs + i, nx, t1 + i, nx);
    for (int j = 0; j < ny; j++) /* (Qy G) Qx^T */
        FN(exact_onto_points)(nx, qx, t1 + j * nx, 1, u + j * nx, 1);
}

/* One pass of exact_wide (grid_kernels.h grid_exact_wide) for output row r: the CUDA
 * kernel's ranges (thread (x, s) of grid_exact_wide.cu) and their order of addition. */
static void FN(exact_wide_row)(const grid_level *L, int r, const T *in, int bt, const T *lm, const T *rm, const T *sc,
                               int S, T *out)
{
    const int nx = L->nx, ny = L->ny;
    T part[HOMG_EXACT_WIDE_SPLIT][HOMG_EXACT_WIDE_MAX], mid[HOMG_EXACT_WIDE_MAX];
    for (int x = 0; x < nx; x++) {
        for (int s = 0; s < S; s++) {
            T acc = 0;
            for (int j = s * ny / S; j < (s + 1) * ny / S; j++) {
                const T v = bt ? (T)((double)in[j * nx + x] + FN(bterm)(L, x, j)) : in[j * nx + x];
                acc += lm[r * ny + j] * v;
            }
            part[s][x] = acc;
        }
        mid[x] = part[0][x];
        for (int s = 1; s < S; s++)
            mid[x] += part[s][x];
    }
    for (int c = 0; c < nx; c++) {
        for (int s = 0; s < S; s++) {
            T acc = 0;
            for (int i = s * nx / S; i < (s + 1) * nx / S; i++)
                acc += mid[i] * rm[i * nx + c];
            part[s][c] = acc;
        }
        T t = part[0][c];
        for (int s = 1; s < S; s++)
            t += part[s][c];
        out[r * nx + c] = sc ? t * sc[r * nx + c] : t;
    }
}

static void FN(exact_wide)(const grid_level *L, T *u, const T *f, const grid_exact_wide *W)
{
    const int bt = L->bc[0] || L->bc[1] || L->bc[2] || L->bc[3]; /* the CUDA pass 1's template flag */
    for (int r = 0; r < L->ny; r++)
        FN(exact_wide_row)
    (L, r, f, bt, (const T *)W->qyt, (const T *)W->qx, (const T *)W->inv_eig, W->split, (T *)W->w);
    for (int r = 0; r < L->ny; r++)
        FN(exact_wide_row)(L, r, (const T *)W->w, 0, (const T *)W->qy, (const T *)W->qxt, NULL, W->split, u);
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
