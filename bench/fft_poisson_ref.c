/* fft_poisson_ref.c -- the plain-C twin of fft_poisson.cu (double, host).
 *
 * Each step below is one CUDA kernel or one cuFFT call of fft_poisson.cu, with
 * the same name; the loop bodies marked "one GPU thread" are the kernels' bodies.
 * The algorithm and the index conventions are described in fft_poisson.cu.
 */
#include "fft_poisson_ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct cplx {
    double x, y;
} cplx;

static cplx cmul(cplx a, cplx b)
{
    cplx r = { a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x };
    return r;
}
static cplx cconj(cplx a)
{
    cplx r = { a.x, -a.y };
    return r;
}
static cplx cadd(cplx a, cplx b)
{
    cplx r = { a.x + b.x, a.y + b.y };
    return r;
}
static cplx csub(cplx a, cplx b)
{
    cplx r = { a.x - b.x, a.y - b.y };
    return r;
}

static int pow2(int n) { return n > 0 && n <= FFT_REF_MAX && (n & (n - 1)) == 0; }
static int sizes_ok(int nx, int ny) { return pow2(nx) && nx >= 2 && pow2(ny); }

int fft_ref_tables(int nx, int ny, double h, double lambda, double *twx, double *twy, double *ex, double *ey,
                   double *lam)
{
    if (!sizes_ok(nx, ny) || !(h > 0) || !isfinite(h) || !(lambda >= 0) || !isfinite(lambda))
        return -1;
    const double pi = 3.14159265358979323846, s = 2.0 * nx * ny, c = 4.0 / (h * h);
    for (int m = 0; m <= nx / 2; m++) {
        twx[2 * m] = cos(pi * m / (2.0 * nx));
        twx[2 * m + 1] = -sin(pi * m / (2.0 * nx));
    }
    for (int m = 0; m <= ny / 2; m++) {
        twy[2 * m] = cos(pi * m / (2.0 * ny));
        twy[2 * m + 1] = -sin(pi * m / (2.0 * ny));
    }
    /* sin of (n-q) rather than cos of q: full relative accuracy for the smallest eigenvalues. */
    for (int q = 0; q < nx; q++) {
        double t = sin(pi * (nx - q) / (2.0 * nx));
        ex[q] = s * c * t * t;
    }
    for (int q = 0; q < ny; q++) {
        double t = sin(pi * (ny - q) / (2.0 * ny));
        ey[q] = s * c * t * t;
    }
    ex[nx] = 0;
    ey[ny] = 0;
    *lam = s * lambda;
    return 0;
}

/* Makhoul's permutation: even i to i/2 (ascending), odd i to n-1-i/2 (descending). */
static int perm(int i, int n) { return (i & 1) ? n - 1 - (i >> 1) : i >> 1; }

/* Kernel reorder_in: v(perm(i), perm(j)) = (-1)^(i+j) f(i,j).  The sign turns the
 * sine transform into a cosine transform with reversed index, the permutation turns
 * the cosine transform into a real DFT of the same length plus a twiddle. */
static void reorder_in(const double *f, double *v, int nx, int ny)
{
    for (int j = 0; j < ny; j++)
        for (int n = 0; n < nx / 2; n++) { /* one GPU thread: the pair (2n, 2n+1) of row j */
            double s = (j & 1) ? -1.0 : 1.0;
            const double *src = f + (size_t)nx * j;
            double *dst = v + (size_t)nx * perm(j, ny);
            dst[n] = s * src[2 * n];
            dst[nx - 1 - n] = -s * src[2 * n + 1];
        }
}

/* Kernel reorder_out: the inverse of reorder_in, u(i,j) = (-1)^(i+j) v(perm(i), perm(j)). */
static void reorder_out(const double *v, double *u, int nx, int ny)
{
    for (int j = 0; j < ny; j++)
        for (int n = 0; n < nx / 2; n++) { /* one GPU thread */
            double s = (j & 1) ? -1.0 : 1.0;
            const double *src = v + (size_t)nx * perm(j, ny);
            double *dst = u + (size_t)nx * j;
            double a = src[n], b = src[nx - 1 - n];
            dst[2 * n] = s * a;
            dst[2 * n + 1] = -s * b;
        }
}

/* In-place radix-2 FFT of length n, unnormalised: z_k <- sum_j z_j exp(sign 2 pi i jk/n).
 * root[k] = exp(-2 pi i k/n), k < n/2. */
static void fft(cplx *z, int n, int sign, const cplx *root)
{
    for (int i = 1, j = 0; i < n; i++) { /* bit reversal */
        int bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) {
            cplx t = z[i];
            z[i] = z[j];
            z[j] = t;
        }
    }
    for (int len = 2; len <= n; len <<= 1)
        for (int i = 0; i < n; i += len)
            for (int k = 0; k < len / 2; k++) {
                cplx w = root[k * (n / len)];
                if (sign > 0)
                    w = cconj(w);
                cplx a = z[i + k], b = cmul(w, z[i + k + len / 2]);
                z[i + k] = cadd(a, b);
                z[i + k + len / 2] = csub(a, b);
            }
}

static void roots(cplx *root, int n)
{
    const double pi = 3.14159265358979323846;
    for (int k = 0; k < n / 2; k++) {
        root[k].x = cos(2 * pi * k / n);
        root[k].y = -sin(2 * pi * k / n);
    }
}

/* Scratch for the FFT steps: one line and the roots of both lengths. */
typedef struct work {
    cplx *line, *rx, *ry;
} work;

static int work_init(work *w, int nx, int ny)
{
    int n = nx > ny ? nx : ny;
    w->line = malloc(sizeof(cplx) * (size_t)n);
    w->rx = malloc(sizeof(cplx) * (size_t)(nx / 2 + 1));
    w->ry = malloc(sizeof(cplx) * (size_t)(ny / 2 + 1));
    if (!w->line || !w->rx || !w->ry)
        return -1;
    roots(w->rx, nx);
    roots(w->ry, ny);
    return 0;
}

static void work_free(work *w)
{
    free(w->line);
    free(w->rx);
    free(w->ry);
}

/* cuFFT's 2D R2C (plan ny x nx): V(m1, m2), m1 = 0..nx/2, m2 = 0..ny-1, at m1 + (nx/2+1) m2. */
static void r2c(const double *v, cplx *V, int nx, int ny, work *w)
{
    int ld = nx / 2 + 1;
    for (int j = 0; j < ny; j++) {
        for (int i = 0; i < nx; i++) {
            w->line[i].x = v[(size_t)nx * j + i];
            w->line[i].y = 0;
        }
        fft(w->line, nx, -1, w->rx);
        memcpy(V + (size_t)ld * j, w->line, sizeof(cplx) * (size_t)ld);
    }
    for (int m = 0; m < ld; m++) {
        for (int j = 0; j < ny; j++)
            w->line[j] = V[m + (size_t)ld * j];
        fft(w->line, ny, -1, w->ry);
        for (int j = 0; j < ny; j++)
            V[m + (size_t)ld * j] = w->line[j];
    }
}

/* cuFFT's 2D C2R, unnormalised; like cuFFT it may overwrite V.  The rows are completed
 * by Hermitian symmetry; the real part of the complex transform drops the imaginary
 * parts of the m1 = 0 and m1 = nx/2 terms, as a C2R does. */
static void c2r(cplx *V, double *v, int nx, int ny, work *w)
{
    int ld = nx / 2 + 1;
    for (int m = 0; m < ld; m++) {
        for (int j = 0; j < ny; j++)
            w->line[j] = V[m + (size_t)ld * j];
        fft(w->line, ny, 1, w->ry);
        for (int j = 0; j < ny; j++)
            V[m + (size_t)ld * j] = w->line[j];
    }
    for (int j = 0; j < ny; j++) {
        const cplx *row = V + (size_t)ld * j;
        for (int i = 0; i < nx; i++)
            w->line[i] = i < ld ? row[i] : cconj(row[nx - i]);
        fft(w->line, nx, 1, w->rx);
        for (int i = 0; i < nx; i++)
            v[(size_t)nx * j + i] = w->line[i].x;
    }
}

/* 2D Makhoul post-twiddle.  From A = V(m1, m2) and B = V(m1, -m2 mod ny) to t = 2 C at
 * the four cosine modes (m1, m2), (nx-m1, m2), (m1, ny-m2), (nx-m1, ny-m2), where
 * C(q1,q2) = sum v cos(pi q1 (4n1+1)/(2nx)) cos(pi q2 (4n2+1)/(2ny)) and V(nx-m1, .)
 * follows from A, B by Hermitian symmetry.  w1 = twx[m1], w2 = twy[m2]. */
static void spec_to_dct(cplx A, cplx B, cplx w1, cplx w2, double t[4])
{
    cplx a = cmul(w2, A), b = cmul(cconj(w2), B);
    cplx z1 = cmul(w1, cadd(a, b)), z2 = cmul(w1, csub(a, b));
    t[0] = z1.x;
    t[1] = -z1.y;
    t[2] = -z2.y;
    t[3] = -z2.x;
}

/* Its exact inverse: the cosine coefficients d (order as t) back to A and B. */
static void dct_to_spec(const double d[4], cplx w1, cplx w2, cplx *A, cplx *B)
{
    cplx p = { d[0] - d[3], -(d[1] + d[2]) }, q = { d[0] + d[3], d[2] - d[1] };
    *A = cmul(cmul(cconj(w1), cconj(w2)), p);
    *B = cmul(cmul(cconj(w1), w2), q);
}

/* Kernel spectral: post-twiddle, division by the eigenvalues, pre-twiddle of the
 * inverse, in place on the half spectrum.  One thread per (m1, m2) in
 * [0, nx/2] x [0, ny/2]: it owns rows m2 and ny-m2 of column m1 (rows 0 and ny/2 pair
 * with themselves).  Cosine mode nx (or ny) does not exist: its coefficient is 0. */
static void spectral(cplx *V, int nx, int ny, const cplx *twx, const cplx *twy, const double *ex, const double *ey,
                     double lam)
{
    int hx = nx / 2, hy = ny / 2;
    size_t ld = (size_t)hx + 1;
    for (int m2 = 0; m2 <= hy; m2++)
        for (int m1 = 0; m1 <= hx; m1++) { /* one GPU thread */
            int r2 = m2 ? ny - m2 : 0;
            double t[4], d[4];
            cplx A, B;
            spec_to_dct(V[m1 + ld * m2], V[m1 + ld * r2], twx[m1], twy[m2], t);
            d[0] = t[0] / (ex[m1] + ey[m2] + lam);
            d[1] = m1 ? t[1] / (ex[nx - m1] + ey[m2] + lam) : 0;
            d[2] = m2 ? t[2] / (ex[m1] + ey[ny - m2] + lam) : 0;
            d[3] = m1 && m2 ? t[3] / (ex[nx - m1] + ey[ny - m2] + lam) : 0;
            dct_to_spec(d, twx[m1], twy[m2], &A, &B);
            V[m1 + ld * m2] = A;
            if (r2 != m2)
                V[m1 + ld * r2] = B;
        }
}

/* Where the sine coefficient of cosine mode (q1, q2) lives: k = n - q. */
static size_t sine_at(int q1, int q2, int nx, int ny)
{
    return (size_t)(nx - 1 - q1) + (size_t)nx * (size_t)(ny - 1 - q2);
}

/* The buffers of one transform: the real work array and the half spectrum. */
typedef struct bufs {
    double *v;
    cplx *V, *twx, *twy;
    double *ex, *ey;
    work w;
} bufs;

static void bufs_free(bufs *b)
{
    free(b->v);
    free(b->V);
    free(b->twx);
    free(b->twy);
    free(b->ex);
    free(b->ey);
    work_free(&b->w);
}

static int bufs_init(bufs *b, int nx, int ny, double h, double lambda, double *lam)
{
    memset(b, 0, sizeof *b);
    if (!sizes_ok(nx, ny))
        return -1;
    size_t n = (size_t)nx * ny, nc = ((size_t)nx / 2 + 1) * ny;
    b->v = malloc(sizeof(double) * n);
    b->V = malloc(sizeof(cplx) * nc);
    b->twx = malloc(sizeof(cplx) * ((size_t)nx / 2 + 1));
    b->twy = malloc(sizeof(cplx) * ((size_t)ny / 2 + 1));
    b->ex = malloc(sizeof(double) * ((size_t)nx + 1));
    b->ey = malloc(sizeof(double) * ((size_t)ny + 1));
    double *tx = malloc(sizeof(double) * 2 * ((size_t)nx / 2 + 1));
    double *ty = malloc(sizeof(double) * 2 * ((size_t)ny / 2 + 1));
    int bad = work_init(&b->w, nx, ny) || !b->v || !b->V || !b->twx || !b->twy || !b->ex || !b->ey || !tx || !ty ||
              fft_ref_tables(nx, ny, h, lambda, tx, ty, b->ex, b->ey, lam);
    for (int m = 0; !bad && m <= nx / 2; m++) {
        b->twx[m].x = tx[2 * m];
        b->twx[m].y = tx[2 * m + 1];
    }
    for (int m = 0; !bad && m <= ny / 2; m++) {
        b->twy[m].x = ty[2 * m];
        b->twy[m].y = ty[2 * m + 1];
    }
    free(tx);
    free(ty);
    if (bad)
        bufs_free(b);
    return bad ? -1 : 0;
}

int fft_ref_solve(int nx, int ny, double h, double lambda, const double *f, double *u)
{
    bufs b;
    double lam;
    if (!f || !u || bufs_init(&b, nx, ny, h, lambda, &lam))
        return -1;
    reorder_in(f, b.v, nx, ny);
    r2c(b.v, b.V, nx, ny, &b.w);
    spectral(b.V, nx, ny, b.twx, b.twy, b.ex, b.ey, lam);
    c2r(b.V, b.v, nx, ny, &b.w);
    reorder_out(b.v, u, nx, ny);
    bufs_free(&b);
    return 0;
}

int fft_ref_forward(int nx, int ny, const double *x, double *s)
{
    bufs b;
    double lam;
    if (!x || !s || bufs_init(&b, nx, ny, 1.0, 0.0, &lam))
        return -1;
    reorder_in(x, b.v, nx, ny);
    r2c(b.v, b.V, nx, ny, &b.w);
    size_t ld = (size_t)nx / 2 + 1;
    for (int m2 = 0; m2 <= ny / 2; m2++)
        for (int m1 = 0; m1 <= nx / 2; m1++) { /* spectral's first half */
            int r2 = m2 ? ny - m2 : 0;
            double t[4];
            spec_to_dct(b.V[m1 + ld * m2], b.V[m1 + ld * r2], b.twx[m1], b.twy[m2], t);
            s[sine_at(m1, m2, nx, ny)] = t[0] / 2;
            if (m1)
                s[sine_at(nx - m1, m2, nx, ny)] = t[1] / 2;
            if (m2)
                s[sine_at(m1, ny - m2, nx, ny)] = t[2] / 2;
            if (m1 && m2)
                s[sine_at(nx - m1, ny - m2, nx, ny)] = t[3] / 2;
        }
    bufs_free(&b);
    return 0;
}

int fft_ref_inverse(int nx, int ny, const double *s, double *x)
{
    bufs b;
    double lam;
    if (!s || !x || bufs_init(&b, nx, ny, 1.0, 0.0, &lam))
        return -1;
    size_t ld = (size_t)nx / 2 + 1;
    double sc = 1.0 / ((double)nx * ny); /* the unnormalised C2R */
    for (int m2 = 0; m2 <= ny / 2; m2++)
        for (int m1 = 0; m1 <= nx / 2; m1++) { /* spectral's second half */
            int r2 = m2 ? ny - m2 : 0;
            double d[4];
            cplx A, B;
            d[0] = sc * s[sine_at(m1, m2, nx, ny)];
            d[1] = m1 ? sc * s[sine_at(nx - m1, m2, nx, ny)] : 0;
            d[2] = m2 ? sc * s[sine_at(m1, ny - m2, nx, ny)] : 0;
            d[3] = m1 && m2 ? sc * s[sine_at(nx - m1, ny - m2, nx, ny)] : 0;
            dct_to_spec(d, b.twx[m1], b.twy[m2], &A, &B);
            b.V[m1 + ld * m2] = A;
            if (r2 != m2)
                b.V[m1 + ld * r2] = B;
        }
    c2r(b.V, b.v, nx, ny, &b.w);
    reorder_out(b.v, x, nx, ny);
    bufs_free(&b);
    return 0;
}

int fft_ref_dst2(int n, const double *x, double *s) { return fft_ref_forward(n, 1, x, s); }
int fft_ref_dst3(int n, const double *s, double *x) { return fft_ref_inverse(n, 1, s, x); }
