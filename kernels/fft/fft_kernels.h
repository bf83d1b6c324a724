/* fft_kernels.h -- fast-transform direct solves of the constant-coefficient
 * structured operator (lib/fft/fft.h states the operator; this page says how).
 *
 * Per axis, the 1D operator (sigma/h^2) T of its pair of sides has a known
 * eigenbasis (cell i at i+1/2, n cells):
 *   Dirichlet-Dirichlet  sin(pi k (i+1/2)/n),          k = 1..n   4 sin^2(pi k/(2n))      DST-II
 *   Neumann-Neumann      cos(pi k (i+1/2)/n),          k = 0..n-1 4 sin^2(pi k/(2n))      DCT-II
 *   Dirichlet-Neumann    sin(pi (k+1/2)(i+1/2)/n),     k = 0..n-1 4 sin^2(pi (2k+1)/(4n)) DST-IV
 *   Neumann-Dirichlet    cos(pi (k+1/2)(i+1/2)/n),     k = 0..n-1 4 sin^2(pi (2k+1)/(4n)) DCT-IV
 *   periodic             exp(2 pi i k i/n),            k = 0..n-1 4 sin^2(pi k/n)         DFT
 * and A = (sigma/h^2) (T_x (+) T_y (+) T_z) + lambda, so u = Q (Lambda^-1 (Q^-1 f')).
 * An axis of one cell has one eigenvalue (4, 0, 2, 2, 0): it is folded into lambda
 * ("squeezed") and takes no transform.
 *
 * FFT_ALGO_R2R (CPU): FFTW's r2r kinds are exactly these transforms: RODFT10/RODFT01,
 * REDFT10/REDFT01, RODFT11, REDFT11, R2HC/HC2R, one multi-dimensional plan each way
 * for all right-hand sides; the division runs over the r2r coefficients.
 *
 * FFT_ALGO_MAKHOUL (CUDA, and its CPU twin): one real multi-dimensional DFT each
 * way.  A mixed axis of n cells is first turned into a Dirichlet-Dirichlet axis of
 * 2n cells by mirroring the data across its Neumann face (the symmetric solution of
 * the doubled problem is the solution: the mirror image has zero flux across the
 * face).  Then every non-periodic axis is a cosine axis: (-1)^i for Dirichlet-
 * Dirichlet turns DST-II into DCT-II with the mode reversed (S_k = C_{n-k}), and
 * Makhoul's permutation (v_{i/2} = y_i for even i, v_{n-1-(i-1)/2} = y_i for odd i)
 * turns the DCT-II into a DFT: C_q = Re(w_q V_q), w_q = exp(-i pi q/(2n)).  In
 * several dimensions that "Re" is taken axis by axis through the C-linear form
 *   C_q = (w_q V_q + conj(w_q) V_{-q})/2,  C_{n-q} = i (w_q V_q - conj(w_q) V_{-q})/2,
 * inverted by V_q = conj(w_q) (C_q - i C_{n-q}), V_{-q} = w_q (C_q + i C_{n-q});
 * a periodic axis keeps (V_q, V_{-q}) as they are.  So one thread owns the orbit
 * {(+-m0, +-m1, +-m2)} of a spectrum index (at most 8 values, 4 of them stored in the
 * R2C half spectrum, the other 4 their Hermitian mirrors): it maps them to the 8
 * coefficients, divides each by its eigenvalue sum, maps them back and writes the 4
 * stored values.  A solve is: reorder_in (face terms, mirror, sign, permutation) ->
 * R2C -> spectral -> C2R -> reorder_out: 3 own kernels and 2 FFTs, every array read
 * and written once per kernel.
 *
 * Tables are computed once in double (geom.c) and rounded to the data type: twiddles
 * from a float pi are not exact roots of unity, which costs accuracy at large n.
 */
#ifndef HOMG_FFT_KERNELS_H
#define HOMG_FFT_KERNELS_H

#include "kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The pair of sides of one axis. */
enum { FFT_AXIS_DD = 0, FFT_AXIS_NN, FFT_AXIS_DN, FFT_AXIS_ND, FFT_AXIS_PER };
/* Side kinds (the values of lib/fft/fft.h's fft_side_kind). */
enum { FFT_SIDE_D = 0, FFT_SIDE_N = 1, FFT_SIDE_P = 2 };
enum { FFT_R2R = 1, FFT_MAKHOUL = 2 };

/* A checked problem and what both backends derive from it (homg_fft_geom_init). */
typedef struct fft_geom {
    /* the problem */
    int dim;     /* 2 or 3 */
    int n[3];    /* cells per axis (n[2] = 1 in 2D) */
    int nrhs;    /* fields per solve */
    int side[6]; /* FFT_SIDE_* of W, E, S, N, B, T */
    int axis[3]; /* FFT_AXIS_* per axis */
    double h, sigma, lambda;
    homg_precision precision;
    int algorithm; /* FFT_R2R or FFT_MAKHOUL */
    /* derived */
    double bcoef[6];   /* face term factor: 2 sigma/h^2 (Dirichlet), 1/h (Neumann), 0 */
    double lam_eff;    /* lambda + (sigma/h^2) * eigenvalues of the squeezed axes */
    int singular;      /* lambda_eff = 0 and no Dirichlet side */
    int rank;          /* transform axes: the axes with n > 1, in order x, y, z */
    int act[3];        /* original axis of transform axis a (a < rank) */
    int t[3];          /* transform length of axis a: n, or 2n for a mixed axis (Makhoul); 1 for a >= rank */
    int tcos[3];       /* Makhoul: transform axis a is a cosine axis (else a DFT axis) */
    int ext[3];        /* Makhoul, per original axis: 0, 1 (DN: data then its mirror), 2 (ND: mirror then data) */
    int flip[3];       /* Makhoul, per original axis: multiply by (-1)^i (Dirichlet-Dirichlet) */
    size_t ncell;      /* cells per field */
    size_t nt;         /* transform array per field: t0 t1 t2 */
    size_t nc;         /* Makhoul half spectrum per field: (t0/2+1) t1 t2 complex */
    size_t face_n[3];  /* values per face of axis a (per field) */
    int tw_off[3];     /* Makhoul twiddles of transform axis a: t/2+1 complex from tw[tw_off[a]] */
    int eig_off[3];    /* eigenvalue sums' terms of transform axis a: t values from eig[eig_off[a]] */
    int ntw, neig;     /* table lengths (complex, real) */
    double norm;       /* what a forward-inverse transform pair multiplies by */
    double lam_scaled; /* lam_eff * norm */
    double inv_norm;   /* 1 / (what the zero coefficient is times the mean of f') */
} fft_geom;

/* Fills the derived fields of g from the problem fields (checked by the caller). */
void homg_fft_geom_init(fft_geom *g);
/* The tables of g in double: tw (2 * g->ntw: re, im) and eig (g->neig), each entry
 * scaled so that one division gives the solution (see geom.c). */
void homg_fft_tables(const fft_geom *g, double *tw, double *eig);

/* Face data of one solve (lib/fft/fft.h), in backend memory; NULL = zero. */
typedef struct fft_faces {
    const void *p[6];
} fft_faces;

typedef struct fft_exec fft_exec; /* a backend's plan */

#define FFT_KERNELS(X)                                                                                              \
    /* Plans the transforms of g (host work only); *work_bytes: the ctx memory it needs. */                         \
    X(homg_status, fft, plan, (kernel_exec * ex, const fft_geom *g, fft_exec **out, size_t *work_bytes))            \
    /* Gives the plan its workspace of work_bytes (uploads the tables; may synchronise). */                         \
    X(homg_status, fft, bind, (kernel_exec * ex, fft_exec * e, void *work))                                         \
    /* u = A^-1 (f + face terms); queued on the stream; writes the projected means. */                              \
    X(homg_status, fft, solve, (kernel_exec * ex, fft_exec * e, const void *f, const void *const face[6], void *u)) \
    /* Kernel launches of one solve: own and the FFT library's (-1: not known). */                                  \
    X(homg_status, fft, count, (kernel_exec * ex, fft_exec * e, int *own, int *lib))                                \
    /* nrhs doubles in backend memory: the mean removed by the last solve (0 if not singular). */                   \
    X(double *, fft, mean, (fft_exec * e))                                                                          \
    X(void, fft, destroy, (kernel_exec * ex, fft_exec * e))

typedef struct fft_kernels {
    const char *name;
    FFT_KERNELS(HOMG_KERNEL_MEMBER)
} fft_kernels;
FFT_KERNELS(HOMG_KERNEL_CPU_PROTO)
#if HOMG_HAVE_CUDA
FFT_KERNELS(HOMG_KERNEL_CUDA_PROTO)
#endif

extern const fft_kernels homg_cpu_fft_kernels;
#if HOMG_HAVE_CUDA
extern const fft_kernels homg_cuda_fft_kernels;
#endif

#ifdef __cplusplus
}
#endif
#endif
