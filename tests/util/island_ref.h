/* island_ref.h -- random classes of grids for the singular-island labelling
 * (lib/grid/islands.c) and an independent reference: breadth-first search
 * from the definition (tests/test_island*.c). */
#ifndef HOMG_ISLAND_REF_H
#define HOMG_ISLAND_REF_H

#include "homg.h"
#include "testutil.h"

typedef struct island_case {
    homg_grid_desc desc;  /* sizes and sides (float64) */
    unsigned char *flags; /* host; NULL: all active */
    double *lambda;       /* host per cell; NULL: the constant */
    double lambda_c;
    int nisl;    /* reference: singular islands */
    int *label;  /* reference: island per cell (by smallest cell), -1 none */
    double *inv; /* reference: 1 / cells per island */
    char name[160];
} island_case;

/* Case `k` of the classes (2D/3D, sides, masks from empty to dense, FIXED cells,
 * per-cell lambda with zeros), with its reference labels. */
void island_case_make(island_case *c, int k, homg_rng *rng);
/* Big case k (0..5): one Neumann island of 4M cells, dense masks, a 3D periodic
 * box, a serpentine corridor (a path of ~0.5M cells: many hooking rounds). */
void island_case_big(island_case *c, int k, homg_rng *rng);
void island_case_free(island_case *c);

/* Labels c on ctx through the library and compares with the reference: the
 * number of islands, every cell's label, every 1/count. 0 when equal, else
 * prints the first difference. */
int island_case_check(homg_ctx *ctx, const island_case *c);

/* island_case_check over cases 0..ncases-1 of the classes (one fixed seed);
 * counts the cases with singular islands and with more than 3; returns the
 * number that differ from the reference. */
int island_check_classes(homg_ctx *ctx, int ncases, int *with_islands, int *several);
/* The same over big cases k0, k0 + step, ... <= k1; prints each. */
int island_check_big(homg_ctx *ctx, int k0, int k1, int step);

#endif
