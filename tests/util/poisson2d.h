/* poisson2d.h -- exact discrete solutions of the structured problem, written
 * independently of the library's kernels (tests and benchmarks use them). */
#ifndef HOMG_POISSON2D_H
#define HOMG_POISSON2D_H

#include "homg.h"
#include <stdint.h>

typedef struct homg_p2 {
    int nx, ny;
    double h, lambda;
    double *u_star; /* nx*ny: a smooth part plus uniform noise, so every mode is present */
    double *f;      /* f = A u_star, with the Dirichlet data below */
    double *g[4];   /* W, E (ny values), S, N (nx values); NULL = zero */
} homg_p2;

/* u* = a smooth function + noise * U(-1,1); with_bc: the smooth part is non-zero on the
 * edge and its face values are the Dirichlet data, else it vanishes there. */
homg_p2 *homg_p2_exact(int nx, int ny, double lambda, double noise, int with_bc, uint64_t seed);
void homg_p2_free(homg_p2 *p);
/* Au = A u in double (cell-centred 5-point, ghost 2g - u beyond the faces). */
void homg_p2_apply(const homg_p2 *p, const double *u, double *Au);

/* Copies n doubles to a new array in the ctx's space, converted to `prec`. */
void *homg_test_upload(homg_ctx *ctx, const double *x, size_t n, homg_precision prec);
/* Copies n values of `prec` from the ctx's space into doubles. */
void homg_test_download(homg_ctx *ctx, const void *x, size_t n, homg_precision prec, double *out);
/* The boundary of p uploaded to the ctx (free with homg_test_free_boundary). */
homg_boundary homg_test_boundary(homg_ctx *ctx, const homg_p2 *p, homg_precision prec);
void homg_test_free_boundary(homg_ctx *ctx, homg_boundary *bc);
/* u (float32, n values into out) after `count` cycles of the FMG box solver on ctx
 * (warm: from u0 = sin(0.37 k), a warm start the first down step must read; else the
 * cold start), the finest level's cycle boundaries fused or not (HOMG_BOX_MID), under
 * the sweep plan `plan` (NULL: the default); returns the solve's launches, -1 where a
 * call failed; info_out (unless NULL) gets the solve's info. */
long homg_test_mid_solve(homg_ctx *ctx, const homg_p2 *p, const char *plan, int mid, int warm, int count, float *out,
                         homg_solve_info *info_out);

#endif
