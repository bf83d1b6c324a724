/* gen_point.h -- per-cell index arithmetic of the general structured multigrid,
 * shared by the CPU and CUDA kernels (gen.c, gen.cu).  The formulas that read
 * arrays of one storage type live in gen_point_tmpl.h. */
#ifndef HOMG_GEN_POINT_H
#define HOMG_GEN_POINT_H

#include <math.h>

#include "gen_kernels.h"

#define GEN_SOLID 2

/* Neighbour of coordinate i (of n) in direction dir (-1, +1): wrapped on a periodic
 * axis of more than one cell, -1 beyond a wall. */
HOMG_HD int gen_nb(int i, int n, int periodic, int dir)
{
    int m = i + dir;
    if (m >= 0 && m < n)
        return m;
    if (!periodic || n < 2)
        return -1;
    return m < 0 ? n - 1 : 0;
}

/* Cells of a coarse axis: pairs, an odd remainder joining the last; one stays one. */
HOMG_HD int gen_coarse_n(int n) { return n >= 2 ? n / 2 : 1; }

HOMG_HD int gen_parent(int i, int n)
{
    int nc = gen_coarse_n(n), I = i / 2;
    return I < nc ? I : nc - 1;
}

HOMG_HD void gen_children(int I, int n, int *lo, int *hi)
{
    int nc = gen_coarse_n(n);
    *lo = n >= 2 ? 2 * I : 0;
    *hi = I == nc - 1 ? n - 1 : 2 * I + 1;
}

/* Conductance scale of a coarse face normal to an axis of n fine cells: the
 * distance between centres doubles where the axis coarsens. */
HOMG_HD double gen_axis_scale(int n) { return n >= 2 ? 0.5 : 1.0; }

HOMG_HD double gen_harmonic(double a, double b) { return a + b > 0 ? 2.0 * a * b / (a + b) : 0.0; }

/* Cell index and coordinates. */
HOMG_HD size_t gen_index(const gen_level *L, int i, int j, int k)
{
    return (size_t)i + (size_t)L->nx * ((size_t)j + (size_t)L->ny * k);
}

HOMG_HD void gen_coords(const gen_level *L, size_t c, int *i, int *j, int *k)
{
    *i = (int)(c % (size_t)L->nx);
    *j = (int)(c / (size_t)L->nx % (size_t)L->ny);
    *k = (int)(c / ((size_t)L->nx * L->ny));
}

HOMG_HD size_t gen_cells(const gen_level *L) { return (size_t)L->nx * L->ny * L->nz; }

/* Whether the cell touches side s (0..5) and that side is a wall of the problem. */
HOMG_HD int gen_touches(const gen_level *L, const gen_fine *F, int s, int i, int j, int k)
{
    const int a = s / 2, x = a == 0 ? i : a == 1 ? j : k, n = a == 0 ? L->nx : a == 1 ? L->ny : L->nz;
    if (a == 2 && L->nz == 1)
        return 0; /* 2D: no z sides */
    if (F->kind[s] == 2 /* periodic */)
        return 0;
    return (s & 1) ? x == n - 1 : x == 0;
}

/* The scalar step of the preconditioned CG (gen_kernels.h, GEN_STEP_*). */
HOMG_HD void gen_scalar_step(double *s, int step, int ref, double *hist, int *count)
{
    if (step == GEN_STEP_ALPHA) {
        s[GEN_ALPHA] = s[GEN_PQ] != 0 ? s[GEN_RZ] / s[GEN_PQ] : 0.0;
        s[GEN_RR] = 0;
    } else if (step == GEN_STEP_BETA || step == GEN_STEP_START) {
        s[GEN_BETA] = step == GEN_STEP_BETA && s[GEN_RZ] != 0 ? -s[GEN_ALPHA] * s[GEN_ZQ] / s[GEN_RZ] : 0.0;
        s[GEN_RZ] = s[GEN_RZN];
        s[GEN_PQ] = s[GEN_ZQ] = s[GEN_RZN] = 0;
    } else if (step == GEN_STEP_PASS) {
        double a = s[GEN_PQ] > 0 ? GEN_PASS_GUARD * s[GEN_RZ] / s[GEN_PQ] : GEN_PASS_WEIGHT;
        s[GEN_ALPHA] = a < GEN_PASS_WEIGHT ? a : GEN_PASS_WEIGHT;
        s[GEN_RZ] = s[GEN_PQ] = s[GEN_RR] = 0;
    } else if (step == GEN_STEP_RECORD) {
        double v = ref ? (s[GEN_R2] > 0 ? sqrt(s[GEN_E2] / s[GEN_R2]) : sqrt(s[GEN_E2]))
                       : (s[GEN_BB] > 0 ? sqrt(s[GEN_RR] / s[GEN_BB]) : sqrt(s[GEN_RR]));
        if (*count < 1000)
            hist[*count] = v;
        *count += 1;
        s[GEN_E2] = s[GEN_R2] = 0;
    }
}

/* *proj = max(*proj, largest |mean| of the islands). */
HOMG_HD void gen_island_max(const double *sums, const double *inv_count, int nislands, double *proj)
{
    double m = *proj;
    for (int l = 0; l < nislands; l++) {
        double v = fabs(sums[l] * inv_count[l]);
        m = v > m ? v : m;
    }
    *proj = m;
}

#endif
