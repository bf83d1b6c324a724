/* fft.h -- direct solves of the constant-coefficient structured operator by fast
 * transforms (internal API; the grid's DEFAULT method calls it, the bench times it).
 *
 * The discrete operator (the contract with lib/grid and the tests).  An nx x ny (2D)
 * or nx x ny x nz (3D) box of cells of width h, cell c = (i,j,k) at ((i+1/2)h,
 * (j+1/2)h, (k+1/2)h), stored i fastest: index i + nx*(j + ny*k).  For each cell
 *
 *   (A u)_c = (sigma/h^2) * sum over the 4 (6) neighbours n of (u_c - u_n) + lambda u_c
 *
 * where a neighbour beyond a side is
 *   Dirichlet, face value g:   the ghost 2g - u_c: adds 2 sigma/h^2 to the diagonal and
 *                              2 sigma g/h^2 to the right-hand side;
 *   Neumann, outward flux q:   sigma du/dn = q on the face (n the outward normal): no
 *                              diagonal term, q/h added to the right-hand side;
 *   periodic:                  the cell on the opposite side (i = -1 is i = nx-1).
 * A solve returns u with A u = f + (the face terms above).  A cell of a side of
 * length 1 touches both faces of that axis and gets both terms.
 *
 * Singular problems (lambda = 0 and no Dirichlet side: A 1 = 0) are solved in the
 * compatible subspace: the right-hand side (face terms included) is projected to mean
 * zero, u is the solution of mean zero, and the mean that was removed (the projected
 * amount, per right-hand side) is kept for homg__fft_mean.  Otherwise A is symmetric
 * positive definite and the solve is exact up to rounding.
 *
 * Face data, per side, in the ctx's space and the plan's precision (NULL = zero):
 *   W, E (x = 0, x = nx h): ny*nz values, index j + ny*k
 *   S, N (y = 0, y = ny h): nx*nz values, index i + nx*k
 *   B, T (z = 0, z = nz h): nx*ny values, index i + nx*j      (3D only)
 * With nrhs right-hand sides, f and u hold nrhs fields of nx*ny*nz values one after
 * the other, and each face array nrhs blocks of its size.  A periodic side takes no
 * face data (a non-NULL pointer there is refused).
 *
 * How (kernels/fft/fft_kernels.h has the details): per axis, the transform that
 * diagonalises the 1D operator of its pair of sides -- DST-II (Dirichlet-Dirichlet),
 * DCT-II (Neumann-Neumann), DFT (periodic), DST-IV / DCT-IV (Dirichlet-Neumann and
 * Neumann-Dirichlet) -- then division by the eigenvalues and the inverse transforms.
 * CPU: FFTW's real-to-real kinds (RODFT10/01, REDFT10/01, R2HC/HC2R, RODFT11,
 * REDFT11), which are these transforms exactly.  CUDA: one multi-dimensional cuFFT
 * R2C/C2R per solve with Makhoul's reordering before and after and the per-axis
 * twiddles applied in one spectral kernel; a mixed axis is solved as the
 * Dirichlet-Dirichlet problem of twice its length on the mirrored data.  Any sizes >= 1.
 *
 * Usage: create a plan once (plans, tables and workspace from the ctx's allocator;
 * create may synchronise), then solve as often as needed: a solve queues its work on
 * the ctx's stream, allocates nothing, never synchronises, and can be captured in a
 * CUDA graph.  f == u is allowed.  One thread at a time per plan (solves share its
 * workspace).  f is not scanned for NaN/Inf here (the caller's solve does that).
 */
#ifndef HOMG_LIB_FFT_H
#define HOMG_LIB_FFT_H

#include "core/internal.h"

/* Kind of one side; the values are those of the grid API's side kinds. */
typedef enum fft_side_kind { FFT_DIRICHLET = 0, FFT_NEUMANN = 1, FFT_PERIODIC = 2 } fft_side_kind;

/* Sides, in this order everywhere: x-, x+, y-, y+, z-, z+. */
enum { FFT_W = 0, FFT_E, FFT_S, FFT_N, FFT_B, FFT_T };

/* Which CPU algorithm (tests only: the CUDA backend always runs FFT_ALGO_MAKHOUL). */
typedef enum fft_algorithm {
    FFT_ALGO_DEFAULT = 0, /* CPU: FFTW real-to-real; CUDA: Makhoul + cuFFT */
    FFT_ALGO_R2R,         /* FFTW r2r kinds (CPU) */
    FFT_ALGO_MAKHOUL      /* the CUDA algorithm step for step on the CPU (FFTW r2c/c2r) */
} fft_algorithm;

typedef struct fft_problem {
    int dim;                  /* 2 or 3; 0: 3 when nz > 1, else 2 */
    int nx, ny, nz;           /* cells per axis, >= 1; nz = 1 in 2D (0 there means 1) */
    double h;                 /* cell width, > 0 */
    double sigma;             /* > 0 */
    double lambda;            /* >= 0 */
    fft_side_kind side[6];    /* W, E, S, N, B, T; B and T are ignored in 2D */
    homg_precision precision; /* of f, u and the face data */
    int nrhs;                 /* right-hand sides per solve, >= 1 (0 means 1) */
    fft_algorithm algorithm;
} fft_problem;

typedef struct fft_plan fft_plan;

/* What one solve queues, for homg_solve_info. */
typedef struct fft_cost {
    long launches;          /* kernel launches per solve (own kernels + the FFT library's) */
    int launches_counted;   /* 1: counted from a CUDA graph of one solve; 0: own + 2 per transform */
    int own_kernels;        /* reorder in, spectral, reorder out (1 on a 1-cell problem) */
    double bytes;           /* modelled device traffic per solve: each own kernel reads and writes
                               its arrays once, each FFT kernel reads and writes the spectrum once */
    size_t workspace_bytes; /* allocated from the ctx for the plan */
    int singular;           /* 1: lambda = 0 and no Dirichlet side (solved with projection) */
} fft_cost;

/* Checks p (each bad field named in the ctx message, HOMG_ERROR_INVALID_ARGUMENT; a
 * size whose workspace cannot be addressed or allocated: HOMG_ERROR_OUT_OF_MEMORY with
 * the bytes needed) and builds the plan. */
homg_status homg__fft_plan_create(homg_ctx *ctx, const fft_problem *p, fft_plan **out);

/* u = A^-1 (f + face terms), as above.  face: NULL or 6 pointers (NULL = zero). */
homg_status homg__fft_solve(fft_plan *plan, const void *f, const void *const face[6], void *u);

/* The mean removed from each right-hand side by the last solve (0 when not singular),
 * copied to host memory (synchronises the stream).  n <= nrhs values. */
homg_status homg__fft_mean(fft_plan *plan, double *host_out, int n);
/* The same, as nrhs doubles in the ctx's space, written by every solve (no sync). */
const double *homg__fft_mean_ptr(const fft_plan *plan);

void homg__fft_cost(const fft_plan *plan, fft_cost *out);
/* The problem with defaults resolved (dim, nz, nrhs). */
fft_problem homg__fft_problem(const fft_plan *plan);

void homg__fft_plan_destroy(fft_plan *plan);

#endif
