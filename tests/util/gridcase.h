/* gridcase.h -- general structured-grid problems for tests and benches: host
 * arrays (sigma, lambda, flags, f, faces, fixed values), a solve on a context, and
 * the residual of the definition (lib/homg.h's operator written out cell by cell
 * on the host, independent of the library's kernels). */
#ifndef HOMG_GRIDCASE_H
#define HOMG_GRIDCASE_H

#include "homg.h"
#include <stdint.h>

typedef struct grid_case {
    homg_grid_desc d;     /* nx, ny, nz, h, bc, nrhs, precision, method */
    double sigma, lambda; /* constants where the arrays are NULL */
    double *sigma_cell;   /* NULL or n values */
    double *lambda_cell;  /* NULL or n values */
    unsigned char *flags; /* NULL or n values */
    double *f;            /* nrhs * n */
    double *face[6];      /* NULL or nrhs * face length */
    double *u0;           /* nrhs * n: values at FIXED cells (and a warm start) */
} grid_case;

size_t grid_case_cells(const grid_case *c);
size_t grid_case_face_len(const grid_case *c, int side);
/* A case with f random in [-1,1] (seeded), everything else default. */
grid_case *grid_case_new(int nx, int ny, int nz, int nrhs, uint64_t seed);
void grid_case_free(grid_case *c);
/* Random face data on every non-periodic side. */
void grid_case_random_faces(grid_case *c, uint64_t seed);
/* sigma: checkerboard of blocks of `block` cells alternating 1 and jump. */
void grid_case_checker_sigma(grid_case *c, int block, double jump);
/* Solid discs (spheres in 3D) covering about `fraction` of the cells, random. */
void grid_case_discs(grid_case *c, double fraction, double radius_cells, uint64_t seed);

/* Solves on ctx; u_out (nrhs*n doubles, host) gets the solution (FIXED cells from u0).
 * Returns the solve's status; info filled. */
homg_status grid_case_solve(homg_ctx *ctx, const grid_case *c, const homg_solve_desc *sd, double *u_out,
                            homg_solve_info *info, double *history, int *nhist);
/* runs solves of c with float32 V-cycles to a residual of 1e-5 (the cube tests' comparisons): solve r on
 * ctx[r] with the variables env[r] set for it alone ({ name, value, ..., NULL }, testutil.h's
 * homg_test_env_set; NULL: none); u[r] (malloc'd, the caller frees) and info[r] filled.  Returns the first
 * status that is not HOMG_OK. */
homg_status grid_case_solves(grid_case *c, int runs, homg_ctx *const ctx[], const char *const *const env[], double *u[],
                             homg_solve_info info[]);

/* ||f + face terms - A u|| / ||f + face terms|| over active cells and all rhs, A from
 * the definition.  With project: f + face terms projected per singular island first
 * (the compatible subspace). */
double grid_case_residual(const grid_case *c, const double *u, int project);
/* Largest |mean| of u over singular islands (0 when none). */
double grid_case_island_mean(const grid_case *c, const double *u);

#endif
