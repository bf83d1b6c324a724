/* grid_case.h -- problem generators for the general structured grid (issue 9): boxes with
 * any side kinds, sigma jumps, lambda per cell, masks of SOLID and FIXED cells, several
 * right-hand sides.  Every value is rounded to float, so one double reference serves both
 * storage precisions.  Host doubles only (the test uploads them). */
#ifndef HOMG_GRID_CASE_H
#define HOMG_GRID_CASE_H

#include "grid_ref.h"
#include <stdint.h>

typedef enum grid_case_sigma {
    GRID_CASE_CHECKER,    /* checkerboard of blocks (about 1/8 of the box), contrast in between */
    GRID_CASE_INCLUSIONS, /* a few balls of the high sigma in the low one */
    GRID_CASE_LAYERS,     /* layers across y of alternating sigma, thickness about 1/5 of the box */
    GRID_CASE_RANDOM      /* log-uniform per cell in [1, contrast] */
} grid_case_sigma;

typedef enum grid_case_mask {
    GRID_CASE_WALL_GAP,     /* a one-cell SOLID wall across x at the middle with a one-cell gap */
    GRID_CASE_WALL_SPLIT,   /* a one-cell SOLID wall splitting the box into two islands */
    GRID_CASE_ROOMS,        /* SOLID lines every 5 cells: isolated islands (rooms) */
    GRID_CASE_FIXED_CELL,   /* one FIXED cell in the middle */
    GRID_CASE_SOLID_BORDER, /* a ring of SOLID cells on the box's faces */
    GRID_CASE_SCATTER,      /* 10% random SOLID and 10% random FIXED cells */
    GRID_CASE_DISCS         /* random SOLID discs (balls in 3D), about 20% of the cells */
} grid_case_mask;

typedef struct grid_case {
    char name[128];
    grid_ref_problem p; /* its arrays point at the ones below */
    int dim, nrhs;
    size_t ncell;
    double contrast;    /* largest sigma ratio (1: constant) */
    double *sigma_cell; /* NULL or ncell */
    double *lambda_cell;
    unsigned char *flags;
    double *f;       /* nrhs * ncell */
    double *face[6]; /* nrhs * grid_ref_face_n values; NULL on periodic sides and absent z sides */
    double *u0;      /* nrhs * ncell: the values of FIXED cells, 0 elsewhere */
    uint64_t seed;
} grid_case;

/* A box of nx x ny x nz cells (nz = 1: 2D), h = 1/max(n), sides "DNP" per side (4 or 6
 * letters), constant sigma 1 and lambda 0, f and face data uniform in [-1, 1). */
void grid_case_init(grid_case *c, int nx, int ny, int nz, const char *sides, int nrhs, uint64_t seed);
void grid_case_free(grid_case *c);
void grid_case_set_sigma(grid_case *c, grid_case_sigma kind, double contrast);
/* lambda per cell uniform in [0, max] (a quarter of the cells exactly 0). */
void grid_case_set_lambda(grid_case *c, double max);
void grid_case_set_mask(grid_case *c, grid_case_mask kind);
/* A constant lambda (no per-cell array). */
void grid_case_set_lambda_const(grid_case *c, double lambda);
/* "2D 5x7 DNPP ..." style description into c->name (called by the setters). */
void grid_case_describe(grid_case *c, const char *extra);

#endif
