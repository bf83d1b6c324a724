/* fftcase.h -- random problems for the FFT solves (lib/fft/fft.h) and running them
 * on a context from host doubles (tests and benchmarks). */
#ifndef HOMG_FFTCASE_H
#define HOMG_FFTCASE_H

#include "fft/fft.h"
#include <stdint.h>

typedef struct fft_case {
    fft_problem p;   /* dim, nz and nrhs resolved (fft_case_init) */
    size_t ncell;    /* cells per field */
    double *f;       /* nrhs * ncell */
    double *face[6]; /* nrhs * fft_case_face_n values; NULL on periodic sides and absent z sides */
} fft_case;

/* A problem of the given sizes (nz = 1: 2D unless dim = 3), side kinds "DNP" per side
 * (e.g. "DDNNPP": W, E Dirichlet, S, N Neumann, B, T periodic; 4 letters in 2D),
 * f and face data uniform in [-1, 1). */
void fft_case_init(fft_case *c, int dim, int nx, int ny, int nz, const char *sides, double h, double sigma,
                   double lambda, int nrhs, homg_precision prec, uint64_t seed);
void fft_case_free(fft_case *c);
/* Values per field on side s (0..5). */
size_t fft_case_face_n(const fft_problem *p, int s);
/* Uploads f and the faces, plans, solves and downloads u (nrhs * ncell doubles) and,
 * when mean is not NULL, the nrhs projected means.  The plan's status (ctx message on
 * failure). */
homg_status fft_case_solve(homg_ctx *ctx, const fft_case *c, fft_algorithm algo, double *u, double *mean);
/* out = A u in double for the operator of lib/fft/fft.h with zero face data, by its
 * stencil written out here (one field). */
void fft_case_apply(const fft_problem *p, const double *u, double *out);

#endif
