/* island_point.h -- per-cell formulas of the island labelling, shared word for
 * word by island.c and island.cu. */
#ifndef HOMG_ISLAND_POINT_H
#define HOMG_ISLAND_POINT_H

#include "island_kernels.h"

HOMG_HD size_t island_cells(const island_grid *g) { return (size_t)g->nx * g->ny * g->nz; }

HOMG_HD int island_active(const unsigned char *flags, size_t c) { return !flags || flags[c] == HOMG_CELL_ACTIVE; }

/* Whether active cell c continues the run of active cells along x of c - 1: the
 * same aligned group of ISLAND_RUN cells, the same row, c - 1 active.  A run's
 * cells start pointing at its first (init): the same island, its own root. */
HOMG_HD int island_run_continues(const island_grid *g, const unsigned char *flags, size_t c)
{
    return c % ISLAND_RUN != 0 && c % (size_t)g->nx != 0 && island_active(flags, c - 1);
}

/* The neighbour of c one step along axis a (dir -1 or +1): 0 when outside a non-periodic side. */
HOMG_HD int island_neighbour(const island_grid *g, size_t c, int a, int dir, size_t *m)
{
    int x[3], n[3] = { g->nx, g->ny, g->nz };
    x[0] = (int)(c % (size_t)g->nx);
    x[1] = (int)(c / (size_t)g->nx % (size_t)g->ny);
    x[2] = (int)(c / ((size_t)g->nx * g->ny));
    x[a] += dir;
    if (x[a] < 0 || x[a] >= n[a]) {
        if (!g->periodic[a])
            return 0;
        x[a] = x[a] < 0 ? n[a] - 1 : 0;
    }
    *m = (size_t)x[0] + (size_t)g->nx * ((size_t)x[1] + (size_t)g->ny * x[2]);
    return 1;
}

/* Whether active cell c fixes its island's constant: a Dirichlet side or a FIXED neighbour. */
HOMG_HD int island_cell_fixes(const island_grid *g, const unsigned char *flags, size_t c)
{
    const int n[3] = { g->nx, g->ny, g->nz };
    const int x[3] = { (int)(c % (size_t)g->nx), (int)(c / (size_t)g->nx % (size_t)g->ny),
                       (int)(c / ((size_t)g->nx * g->ny)) };
    for (int a = 0; a < g->dims; a++) {
        if ((x[a] == 0 && g->dirichlet[2 * a]) || (x[a] == n[a] - 1 && g->dirichlet[2 * a + 1]))
            return 1;
        for (int dir = -1; flags && dir <= 1; dir += 2) {
            size_t m;
            if (island_neighbour(g, c, a, dir, &m) && flags[m] == HOMG_CELL_FIXED)
                return 1;
        }
    }
    return 0;
}

/* Follows the pointers from c to its root (labels only point to smaller indices; volatile:
 * other threads lower them meanwhile, and a stale value is still a valid pointer). */
HOMG_HD int island_root(const volatile int *label, int c)
{
    while (label[c] != c)
        c = label[c];
    return c;
}

/* Singular root r: active, its own root, no NONSINGULAR bit. */
HOMG_HD int island_singular_root(const int *label, const int *aux, size_t r)
{
    return label[r] == (int)r && !(aux[r] & ISLAND_NONSINGULAR);
}

#endif
