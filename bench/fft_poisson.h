/* fft_poisson.h -- the cuFFT sine-transform direct solve the structured benchmark
 * compares homg with (not part of the library).  Valid C99 and C++.
 *
 * Solves -Laplace(u) + lambda u = f with homg's structured operator: cell-centred
 * nx x ny grid of spacing h, unknown (i,j) at ((i+1/2)h, (j+1/2)h), index i + nx*j,
 * 5-point stencil, homogeneous Dirichlet on the cell faces (ghost value -u).  The
 * sine transform diagonalises that operator, so the solve is exact up to rounding.
 * fft_poisson.cu describes the algorithm; fft_poisson_ref.c is its plain-C twin.
 *
 * Usage: create once (plans, buffers, tables; it runs one solve on scratch data
 * and synchronises the stream), then solve as often as needed (queued on the
 * stream, nothing else), then destroy.  Call everything with the device current
 * that was current at create.  A handle is used by one thread at a time; solves
 * on one handle must not overlap (they share its work buffers).
 */
#ifndef HOMG_BENCH_FFT_POISSON_H
#define HOMG_BENCH_FFT_POISSON_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fft_poisson fft_poisson;

/* Return codes; failures also print one line naming the failed call to stderr. */
enum {
    FFT_POISSON_OK = 0,
    FFT_POISSON_EINVAL = 1, /* bad size, h, lambda or NULL pointer */
    FFT_POISSON_ECUDA = 2,  /* a CUDA runtime call or a kernel launch failed */
    FFT_POISSON_ECUFFT = 3  /* a cuFFT call failed */
};

/* nx, ny: powers of two in 2..16384; h > 0; lambda >= 0 (both finite); use_double:
 * 0 = float32 data, 1 = float64 data; stream: a cudaStream_t (NULL = legacy default).
 * On failure *out is NULL. */
int fft_poisson_create(int nx, int ny, double h, double lambda, int use_double, void *stream, fft_poisson **out);

/* u = A^-1 f.  f and u: device arrays of nx*ny floats or doubles (as created);
 * u == f is allowed.  Queues 3 kernels and 2 cuFFT executions on the stream: no
 * allocation, no planning, no host work, no synchronisation (CUDA-graph capturable).
 * Kernel faults surface at the caller's next synchronisation. */
int fft_poisson_solve(fft_poisson *p, const void *f, void *u);

void fft_poisson_destroy(fft_poisson *p);

/* What one solve costs, for the benchmark's table. */
typedef struct fft_poisson_cost {
    int launches;         /* kernel launches per solve: own kernels + cuFFT's */
    int launches_counted; /* 1: counted from a CUDA graph of one solve captured at create;
                             0: the capture failed and cuFFT is assumed to take 2 per transform */
    int own_kernels;      /* 3: reorder in, spectral step, reorder out */
    int fft_kernels;      /* launches - own_kernels (both transforms together) */
    double bytes;         /* modelled DRAM traffic per solve: each own kernel reads and writes
                             its arrays once, each cuFFT kernel reads and writes the half
                             spectrum once; see fft_poisson.cu */
} fft_poisson_cost;

void fft_poisson_get_cost(const fft_poisson *p, fft_poisson_cost *out);

#ifdef __cplusplus
}
#endif
#endif
