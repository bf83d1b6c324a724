/* grid_ref.h -- an independent reference for the general structured grid (issue 9,
 * the operator of /work/scratch/GRID_API.md and lib/homg.h's grid section): the matrix
 * assembled cell by cell from the definition as a double CSR over the ACTIVE cells, the
 * right-hand side with its face and fixed-neighbour terms, and a direct solve in double
 * (envelope Cholesky after a reverse Cuthill-McKee ordering; homg's AMG-PCG to 1e-12 on
 * the CPU where the envelope is too large).  Singular islands (lambda = 0, no FIXED
 * neighbour, no Dirichlet side) are found by a breadth-first search, their right-hand
 * side projected to mean zero, one cell pinned to make the system definite, and the
 * solution shifted to mean zero.  Nothing here calls the grid solver.
 *
 * Operator: (A u)_c = sum_n s_cn (u_c - u_n)/h^2 + lambda_c u_c, s_cn = 2 s_c s_n/(s_c+s_n);
 * SOLID neighbour: no term; beyond a Dirichlet side: ghost 2g - u_c with s_c; Neumann:
 * rhs += q/h; periodic: wraps; FIXED neighbour: known value, moved to the rhs. */
#ifndef HOMG_GRID_REF_H
#define HOMG_GRID_REF_H

#include "homg.h"
#include <stddef.h>

/* Side kinds and cell flags, with the values of the public API. */
enum { GRID_REF_D = 0, GRID_REF_N = 1, GRID_REF_P = 2 };
enum { GRID_REF_ACTIVE = 0, GRID_REF_FIXED = 1, GRID_REF_SOLID = 2 };

typedef struct grid_ref_problem {
    int nx, ny, nz;                         /* cells per axis; nz = 1 (or 0): 2D */
    double h;                               /* cell width */
    int side[6];                            /* W, E, S, N, B, T: GRID_REF_D/N/P */
    double sigma, lambda;                   /* constants where the arrays are NULL */
    const double *sigma_cell, *lambda_cell; /* NULL or ncell values (caller keeps them) */
    const unsigned char *flags;             /* NULL (all active) or ncell GRID_REF_* values */
} grid_ref_problem;

typedef struct grid_ref {
    grid_ref_problem p;
    int dim;
    size_t ncell;
    int n;           /* unknowns: the active cells, in cell order */
    int *unk;        /* ncell: unknown of a cell, -1 when not active */
    int *cell;       /* n: cell of an unknown */
    int *island;     /* n: island of an unknown (0..nisland-1) */
    int nisland;     /* islands of active cells (periodic wrap connects) */
    int *singular;   /* nisland: 1 when the island's operator is singular */
    int nsingular;   /* singular islands */
    homg_host_csr a; /* n x n, the operator over the active cells (singular islands too) */
    /* the factorisation of the pinned system (grid_ref_solve makes it once) */
    int solver; /* set after grid_ref_build: 0 by cost, 1 envelope Cholesky, 2 AMG-PCG */
    int factored, use_pcg;
    int *pin;          /* nisland: the pinned unknown of a singular island, -1 otherwise */
    int *perm, *first; /* envelope ordering, first column of each permuted row */
    size_t *start;     /* offset of each row's envelope in env */
    double *env;
    homg_ctx *cpu; /* AMG-PCG path */
    homg_amg *amg;
    homg_pcg *pcg;
    homg_host_csr pinned; /* the operator with one cell per singular island pinned (identity row) */
} grid_ref;

/* Labels the islands and assembles A.  0 on success. */
int grid_ref_build(grid_ref *r, const grid_ref_problem *p);
void grid_ref_free(grid_ref *r);
/* Values per field on side s (W,E: ny*nz; S,N: nx*nz; B,T: nx*ny). */
size_t grid_ref_face_n(const grid_ref_problem *p, int s);
/* b (n values) = f + face terms + fixed-neighbour terms for one field: f and u (the fixed
 * values) have ncell values, face[s] NULL or grid_ref_face_n values (periodic: ignored). */
void grid_ref_rhs(const grid_ref *r, const double *f, const double *const face[6], const double *u, double *b);
/* Solves nrhs fields: f, u nrhs*ncell (u holds the fixed values on entry; its active cells
 * are overwritten, the others left alone), face[s] nrhs blocks.  projected (may be NULL):
 * the largest |mean removed| over singular islands and fields.  0 on success. */
int grid_ref_solve(grid_ref *r, const double *f, const double *const face[6], double *u, int nrhs, double *projected);
/* For other solvers of the same problem: makes r->pinned (A with one unknown per singular
 * island pinned: definite) and turns b (grid_ref_rhs) into its right-hand side, projected per
 * singular island; grid_ref_unpin shifts a solution of it to mean zero per singular island,
 * as grid_ref_solve's.  0 on success. */
int grid_ref_pin(grid_ref *r, double *b);
void grid_ref_unpin(const grid_ref *r, double *x);
/* ||b - A u|| / ||b|| over the active cells of one field (b from grid_ref_rhs; ||b - A u||
 * when b = 0): the relative residual the grid monitors. */
double grid_ref_residual(const grid_ref *r, const double *f, const double *const face[6], const double *u);
/* Mean of u over each island's cells (nisland values out). */
void grid_ref_island_means(const grid_ref *r, const double *u, double *mean);

#endif
