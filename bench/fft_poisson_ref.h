/* fft_poisson_ref.h -- the plain-C twin of fft_poisson.cu, in double on the host.
 *
 * The same reorderings, twiddles and steps as the CUDA baseline, with a radix-2
 * complex FFT of its own standing in for cuFFT, so tests/test_fft_baseline.c can
 * check the algorithm on a machine without a GPU.  fft_poisson.cu also takes its
 * host-side tables from fft_ref_tables(), so both use the same numbers.
 *
 * Sizes: nx a power of two in 2..FFT_REF_MAX, ny a power of two in 1..FFT_REF_MAX
 * (ny = 1 gives the 1D transforms).  Functions return 0, or -1 on a bad size,
 * a bad argument or a failed allocation.
 */
#ifndef HOMG_BENCH_FFT_POISSON_REF_H
#define HOMG_BENCH_FFT_POISSON_REF_H

#ifdef __cplusplus
extern "C" {
#endif

#define FFT_REF_MAX 16384

/* Tables of the spectral step (see fft_poisson.cu, "the algorithm"):
 *   twx[m] = exp(-i pi m / (2 nx)), m = 0..nx/2, as (re, im) pairs; twy likewise for ny;
 *   ex[q]  = 2 nx ny (4/h^2) sin^2(pi (nx-q) / (2 nx)), q = 0..nx-1: the x part of the
 *            eigenvalue of cosine mode q (sine mode k = nx-q), times 2 nx ny, the scale
 *            of the unnormalised FFTs and of the factor 2 of the post-twiddle; ex[nx] = 0
 *            (that mode does not exist and is never divided by); ey likewise for ny;
 *   *lam   = 2 nx ny lambda.
 * Sizes: twx 2*(nx/2+1), twy 2*(ny/2+1), ex nx+1, ey ny+1 doubles. */
int fft_ref_tables(int nx, int ny, double h, double lambda, double *twx, double *twy, double *ex, double *ey,
                   double *lam);

/* Solves -Laplace(u) + lambda u = f (homg's cell-centred 5-point operator, homogeneous
 * Dirichlet on the cell faces) exactly up to rounding; h > 0, lambda >= 0; f == u allowed. */
int fft_ref_solve(int nx, int ny, double h, double lambda, const double *f, double *u);

/* The 2D DST-II s(k1,k2) = sum_ij x_ij sin(pi k1 (i+1/2)/nx) sin(pi k2 (j+1/2)/ny),
 * k = 1..n, stored at (k1-1) + nx (k2-1); computed with the solver's forward steps. */
int fft_ref_forward(int nx, int ny, const double *x, double *s);
/* Its exact inverse (a scaled 2D DST-III), with the solver's inverse steps. */
int fft_ref_inverse(int nx, int ny, const double *s, double *x);

/* 1D: s[k-1] = sum_i x_i sin(pi k (i+1/2)/n), k = 1..n (DST-II), and its inverse
 * x_i = (2/n) [sum_{k<n} s[k-1] sin(pi k (i+1/2)/n) + (-1)^i s[n-1]/2] (DST-III). */
int fft_ref_dst2(int n, const double *x, double *s);
int fft_ref_dst3(int n, const double *s, double *x);

#ifdef __cplusplus
}
#endif
#endif
