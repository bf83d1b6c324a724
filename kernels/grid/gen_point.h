/* gen_point.h -- per-cell index arithmetic of the general structured multigrid,
 * shared by the CPU and CUDA kernels (gen.c, gen.cu).  The formulas that read
 * arrays of one storage type live in gen_point_tmpl.h. */
#ifndef HOMG_GEN_POINT_H
#define HOMG_GEN_POINT_H

#include <math.h>
#include <stddef.h>

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

/* Cells of a coarse axis: pairs, the last cell of an odd axis alone (a 3-cell last aggregate
 * slowed the cycle: CPU 1920x1080 float32 to error 1e-4 in 5 CG iterations, 4 with the widths
 * below, 3 with ceil(n / 2); bench/results/h100_grid_general.md "Session 12 gen1080"); one
 * stays one. */
HOMG_HD int gen_coarse_n(int n) { return n >= 2 ? (n + 1) / 2 : 1; }

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

/* Width of cell i of an axis of n cells in the level's regular cells (gen_level.last). */
HOMG_HD double gen_width(const gen_level *L, int a, int i, int n)
{
    return i == n - 1 && L->last[a] > 0 ? L->last[a] : 1.0;
}

/* Width of coarse cell I of C's axis a in L's regular cells (the axis of nf fine cells coarsened). */
HOMG_HD double gen_coarse_width(const gen_level *L, const gen_level *C, int a, int I, int nf, int nc)
{
    return I < nc - 1 ? 2.0 : (double)(nf - 2 * (nc - 1) - 1) + gen_width(L, a, nf - 1, nf);
}

/* Scale of the coarse face between C's cells I and I + 1 (wrapped) along axis a of nf fine
 * cells: the fine centres' distance over the coarse centres' (0.5 on regular cells, exactly;
 * gen_axis_scale where the axis does not coarsen). */
HOMG_HD double gen_face_scale(const gen_level *L, const gen_level *C, int a, int I, int nf, int nc)
{
    const int i = I == nc - 1 ? nf - 1 : 2 * I + 1, I1 = I == nc - 1 ? 0 : I + 1;
    const int i1 = i == nf - 1 ? 0 : i + 1;
    if (nf < 2)
        return gen_axis_scale(nf);
    return (gen_width(L, a, i, nf) + gen_width(L, a, i1, nf)) /
           (gen_coarse_width(L, C, a, I, nf, nc) + gen_coarse_width(L, C, a, I1, nf, nc));
}

/* Scale of the wall part (gen_wall) of C's child (i, j, k) in coarse cell X: per axis on
 * whose side the child lies, the child's width over the aggregate's (the distances from the
 * centres to the wall; 0.5 on regular cells), and the mean of them in a corner, whose wall
 * part is not kept per axis; 0.5 off the sides (faces to FIXED cells). */
HOMG_HD double gen_wall_scale(const gen_level *L, const gen_level *C, const int x[3], const int X[3])
{
    const int nf[3] = { L->nx, L->ny, L->nz }, nc[3] = { C->nx, C->ny, C->nz };
    double s = 0;
    int sides = 0;
    for (int a = 0; a < 3; a++) {
        const double w = gen_width(L, a, x[a], nf[a]), W = gen_coarse_width(L, C, a, X[a], nf[a], nc[a]);
        if (nf[a] >= 2 && !L->periodic[a] && (x[a] == 0 || x[a] == nf[a] - 1)) {
            s += W == 2.0 * w ? 0.5 : w / W;
            sides++;
        }
    }
    return sides ? s / sides : 0.5;
}

/* C's gen_level.last from L's: the last aggregate's width in C's regular cells. */
HOMG_HD double gen_coarse_last(const gen_level *L, const gen_level *C, int a)
{
    const int nf = a == 0 ? L->nx : a == 1 ? L->ny : L->nz, nc = a == 0 ? C->nx : a == 1 ? C->ny : C->nz;
    return nf < 2 ? gen_width(L, a, nf - 1, nf) : 0.5 * gen_coarse_width(L, C, a, nc - 1, nf, nc);
}

/* The factor restriction to coarse level C applies to its sums, and its inverse
 * (prolongation): 1 but on float16 grids (gen_level.down). */
HOMG_HD double gen_down(const gen_level *C) { return C->down ? ldexp(1.0, -C->down) : 1.0; }
HOMG_HD double gen_up(const gen_level *C) { return C->down ? ldexp(1.0, C->down) : 1.0; }

HOMG_HD double gen_harmonic(double a, double b) { return a + b > 0 ? 2.0 * a * b / (a + b) : 0.0; }

/* Cell index and coordinates; 32-bit products: a level has fewer than 2^31 cells
 * (homg__check_size), and 64-bit ones cost several instructions each on the GPU. */
HOMG_HD size_t gen_index(const gen_level *L, int i, int j, int k)
{
    return (size_t)((unsigned)i + (unsigned)L->nx * ((unsigned)j + (unsigned)L->ny * (unsigned)k));
}

/* 32-bit divisions: a level has fewer than 2^31 cells (homg__check_size), and a
 * 64-bit division is a long software routine on the GPU. */
HOMG_HD void gen_coords(const gen_level *L, size_t c, int *i, int *j, int *k)
{
    const unsigned cc = (unsigned)c, row = cc / (unsigned)L->nx;
    *i = (int)(cc - row * (unsigned)L->nx);
    *j = (int)(row % (unsigned)L->ny);
    *k = (int)(row / (unsigned)L->ny);
}

HOMG_HD size_t gen_cells(const gen_level *L) { return (size_t)L->nx * L->ny * L->nz; }

/* Whether cell c is an unknown. */
HOMG_HD int gen_active(const gen_level *L, size_t c) { return !L->flag || !L->flag[c]; }

/* The cells of one colour, (i + j + k) % 2 == colour, numbered row by row: t ->
 * (2 (t mod hx) + parity of the row, row), hx = ceil(nx / 2); 0 when i falls off
 * the row (odd nx).  A smoothing launch only has threads for its colour. */
HOMG_HD size_t gen_colour_cells(const gen_level *L) { return (size_t)((L->nx + 1) / 2) * L->ny * L->nz; }

HOMG_HD int gen_colour_cell(const gen_level *L, size_t t, int colour, int *i, int *j, int *k)
{
    const unsigned hx = (unsigned)(L->nx + 1) / 2, tt = (unsigned)t, row = tt / hx;
    *j = (int)(row % (unsigned)L->ny);
    *k = (int)(row / (unsigned)L->ny);
    *i = 2 * (int)(tt - row * hx) + ((colour + *j + *k) & 1);
    return *i < L->nx;
}

/* Red-black is not a two-colouring across the wrap of a periodic axis of odd
 * length: cells 0 and n-1 have the same parity and are neighbours.  So a colour
 * is swept in phases: first its cells on no "seam" (the last cell of an odd
 * periodic axis), then those on one seam, two, three.  No two cells of one
 * colour and phase are neighbours (across a wrap one of them is on one seam more),
 * so a phase's result does not depend on the order of its updates: the CUDA
 * smoother computes exactly what the CPU's does. */
HOMG_HD int gen_seam_axis(int x, int n, int periodic) { return periodic && n > 2 && (n & 1) && x == n - 1; }

HOMG_HD int gen_seam(const gen_level *L, int i, int j, int k)
{
    return gen_seam_axis(i, L->nx, L->periodic[0]) + gen_seam_axis(j, L->ny, L->periodic[1]) +
           gen_seam_axis(k, L->nz, L->periodic[2]);
}

/* The last phase of a level (0: no odd periodic axis, plain red-black). */
HOMG_HD int gen_seams(const gen_level *L)
{
    return gen_seam_axis(L->nx - 1, L->nx, L->periodic[0]) + gen_seam_axis(L->ny - 1, L->ny, L->periodic[1]) +
           gen_seam_axis(L->nz - 1, L->nz, L->periodic[2]);
}

/* The seam planes' cells, numbered plane after plane (x, y, z); a cell on two
 * planes counts on the first (gen_seam_cell gives 0 for its other numbers). */
HOMG_HD size_t gen_seam_cells(const gen_level *L)
{
    const size_t n = gen_cells(L);
    return (gen_seam_axis(L->nx - 1, L->nx, L->periodic[0]) ? n / L->nx : 0) +
           (gen_seam_axis(L->ny - 1, L->ny, L->periodic[1]) ? n / L->ny : 0) +
           (gen_seam_axis(L->nz - 1, L->nz, L->periodic[2]) ? n / L->nz : 0);
}

HOMG_HD int gen_seam_cell(const gen_level *L, size_t t, int *i, int *j, int *k)
{
    const int n[3] = { L->nx, L->ny, L->nz };
    int x[3];
    for (int a = 0; a < 3; a++) {
        const int u = a == 0 ? 1 : 0, v = a == 2 ? 1 : 2; /* the plane's two axes */
        size_t m;
        if (!gen_seam_axis(n[a] - 1, n[a], L->periodic[a]))
            continue;
        m = (size_t)n[u] * n[v];
        if (t >= m) {
            t -= m;
            continue;
        }
        x[a] = n[a] - 1;
        x[u] = (int)((unsigned)t % (unsigned)n[u]);
        x[v] = (int)((unsigned)t / (unsigned)n[u]);
        for (int b = 0; b < a; b++)
            if (gen_seam_axis(x[b], n[b], L->periodic[b]))
                return 0; /* counted on plane b */
        *i = x[0], *j = x[1], *k = x[2];
        return 1;
    }
    return 0;
}

/* Whether coarse level C of uniform flag-free level L is uniform (every axis of L
 * even or of one cell), and then C's constants: what coarsen would compute (host
 * code; dbl: float64 storage, else values rounded to float as stored). */
HOMG_HD double gen_stored_value(double x, int dbl) { return dbl ? x : (double)(float)x; }

HOMG_HD int gen_uniform_coarse(const gen_level *L, gen_level *C, int dbl)
{
    const int n[3] = { L->nx, L->ny, L->nz };
    double m[3], all = 1;
    if (!L->uniform || L->flag)
        return 0;
    for (int a = 0; a < 3; a++) {
        if (n[a] > 1 && n[a] % 2)
            return 0;
        m[a] = n[a] >= 2 ? 2 : 1; /* children per axis */
        all *= m[a];
    }
    for (int a = 0; a < 3; a++) {
        const double across = all / m[a]; /* fine faces under a coarse face normal to a */
        C->g0[a] = gen_stored_value(gen_axis_scale(n[a]) * across * gen_stored_value(L->g0[a], dbl), dbl);
        C->wall[2 * a] = 0.5 * across * L->wall[2 * a];
        C->wall[2 * a + 1] = 0.5 * across * L->wall[2 * a + 1];
    }
    C->lam0 = all * gen_stored_value(L->lam0, dbl);
    return 1;
}

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

/* Whether sigma s and the first cell's s0 (both finite and > 0) differ by GEN_JUMP_RATIO or
 * more: check_operator's jump test, which picks the two-pass coarse correction. */
HOMG_HD int gen_jump(double s, double s0) { return s >= GEN_JUMP_RATIO * s0 || s0 >= GEN_JUMP_RATIO * s; }

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
