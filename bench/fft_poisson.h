/* fft_poisson.h -- the 2D Dirichlet FFT solve the structured benchmark (bench_grid)
 * compares its multigrid methods with.  It was a standalone cuFFT program; it is now
 * a thin wrapper over the library's FFT solves (lib/fft/fft.h), kept so bench_grid
 * and tests/test_fft_baseline_gpu (exact discrete solutions of tests/util's own
 * operator) keep their interface.  Valid C99 and C++.
 *
 * Solves -Laplace(u) + lambda u = f: cell-centred nx x ny grid of spacing h, index
 * i + nx*j, 5-point stencil, homogeneous Dirichlet on the cell faces (ghost -u).
 *
 * Usage: create once (plans and workspace), solve as often as needed (queued on the
 * stream: no allocation, no host synchronisation, CUDA-graph capturable), destroy.
 * A handle is used by one thread at a time.
 */
#ifndef HOMG_BENCH_FFT_POISSON_H
#define HOMG_BENCH_FFT_POISSON_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fft_poisson fft_poisson;

/* Return codes; failures also print one line (the library's message) to stderr. */
enum {
    FFT_POISSON_OK = 0,
    FFT_POISSON_EINVAL = 1, /* bad size, h, lambda or NULL pointer */
    FFT_POISSON_ECUDA = 2,  /* no CUDA device, or a CUDA call failed */
    FFT_POISSON_ECUFFT = 3  /* kept for compatibility (the library reports cuFFT failures as ECUDA) */
};

/* nx, ny >= 1 (any sizes); h > 0; lambda >= 0 (both finite); use_double: 0 = float32
 * data, 1 = float64; stream: a cudaStream_t (NULL = legacy default).  On failure
 * *out is NULL. */
int fft_poisson_create(int nx, int ny, double h, double lambda, int use_double, void *stream, fft_poisson **out);

/* u = A^-1 f.  f and u: device arrays of nx*ny floats or doubles; u == f is allowed. */
int fft_poisson_solve(fft_poisson *p, const void *f, void *u);

void fft_poisson_destroy(fft_poisson *p);

/* What one solve costs, for the benchmark's table. */
typedef struct fft_poisson_cost {
    int launches;         /* kernel launches per solve: own kernels + cuFFT's */
    int launches_counted; /* 1: counted from a CUDA graph of one solve */
    int own_kernels;      /* 3: reorder in, spectral step, reorder out */
    int fft_kernels;      /* launches - own_kernels */
    double bytes;         /* modelled DRAM traffic per solve (lib/fft/fft.h, fft_cost) */
} fft_poisson_cost;

void fft_poisson_get_cost(const fft_poisson *p, fft_poisson_cost *out);

#ifdef __cplusplus
}
#endif
#endif
