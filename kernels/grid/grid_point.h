/* grid_point.h -- per-point index arithmetic shared by the CPU and CUDA grid
 * kernels, so that both backends place boundaries and HOMG's marked points the
 * same way.  Everything here is integer or double arithmetic on scalars. */
#ifndef HOMG_GRID_POINT_H
#define HOMG_GRID_POINT_H

#include "kernels.h" /* HOMG_HD */

/* Number of domain edges cell (i,j) touches (0..4 on tiny grids). */
HOMG_HD int homg_edges_touched(int i, int j, int nx, int ny)
{
    return (i == 0) + (i == nx - 1) + (j == 0) + (j == ny - 1);
}

/* Reflection of a coarse index one step beyond the edge onto the edge cell; returns
 * the sign of the homogeneous-Dirichlet ghost (-1 when reflected). */
HOMG_HD int homg_reflect(int *I, int n)
{
    if (*I < 0) {
        *I = -1 - *I;
        return -1;
    }
    if (*I >= n) {
        *I = 2 * n - 1 - *I;
        return -1;
    }
    return 1;
}

/* ---- HOMG marked points (seed 003, section 3; lib/grid/mfmg.c explains) ----
 * Per axis of n points and spacing l, the low half's coarse points are
 * 0, l, 2l, ..., n/2 (the last one just outside the half), the high half's
 * n-1, n-1-l, ..., n/2-1.  Compact index: low k in 0..n/(2l), high k after them. */

/* Compact index of coordinate x at spacing l, or -1 when x is not a coarse point. */
HOMG_HD int homg_marked_index(int x, int n, int l)
{
    int half = n / (2 * l);
    int xr = n - 1 - x;
    if (x % l == 0 && x <= n / 2)
        return x / l;
    if (xr % l == 0 && xr <= n / 2)
        return half + 1 + xr / l;
    return -1;
}

/* Coordinate of compact index a (inverse of homg_marked_index). */
HOMG_HD int homg_marked_coord(int a, int n, int l)
{
    int half = n / (2 * l);
    return a <= half ? a * l : n - 1 - (a - half - 1) * l;
}

/* The two coarse coordinates of x's own half that bracket it, and the weight of
 * the second (x = (1-t) x0 + t x1). */
HOMG_HD void homg_bracket(int x, int n, int l, int *x0, int *x1, double *t)
{
    if (x < n / 2) {
        *x0 = (x / l) * l;
        *x1 = *x0 + l;
        *t = (double)(x - *x0) / l;
    } else {
        int xr = n - 1 - x;
        int r0 = (xr / l) * l;
        *x0 = n - 1 - r0;
        *x1 = *x0 - l;
        *t = (double)(xr - r0) / l;
    }
}

/* The same two helpers for l = 2^m (every HOMG level): masks and shifts instead of
 * integer divisions, and t from the exact reciprocal inv_l = 1/l -- for x >= 0 the
 * very same values as homg_marked_index and homg_bracket (x % l == x & (l-1),
 * x / l == x >> m; dividing by a power of two is exact), at a fraction of the
 * instructions: the whole-grid pass is bound by them otherwise (issue 12). */
HOMG_HD int homg_marked_index_p2(int x, int n, int m)
{
    const int mask = (1 << m) - 1, xr = n - 1 - x;
    if (!(x & mask) && x <= n / 2)
        return x >> m;
    if (!(xr & mask) && xr <= n / 2)
        return (n >> (m + 1)) + 1 + (xr >> m);
    return -1;
}

/* Both compact indices of x at level m, -1 where none: the low half's (lo) and the high
 * half's (hi).  homg_marked_index_p2 returns the first; at the middle of an odd side one
 * x is both halves' coarse point, and homg_gather copies it to both entries, so a pass
 * that gathers as it writes stores it to both. */
HOMG_HD void homg_marked_pair_p2(int x, int n, int m, int *lo, int *hi)
{
    const int mask = (1 << m) - 1, xr = n - 1 - x;
    *lo = !(x & mask) && x <= n / 2 ? x >> m : -1;
    *hi = !(xr & mask) && xr <= n / 2 ? (n >> (m + 1)) + 1 + (xr >> m) : -1;
}

HOMG_HD void homg_bracket_p2(int x, int n, int m, double inv_l, int *x0, int *x1, double *t)
{
    const int l = 1 << m;
    if (x < n / 2) {
        *x0 = x & ~(l - 1);
        *x1 = *x0 + l;
        *t = (double)(x - *x0) * inv_l;
    } else {
        int xr = n - 1 - x;
        int r0 = xr & ~(l - 1);
        *x0 = n - 1 - r0;
        *x1 = *x0 - l;
        *t = (double)(xr - r0) * inv_l;
    }
}

/* The points one iteration of level m reads (homg_point at every point), per axis of
 * n points with n % (2l) == 0 (then n/2 is a coarse point of the low half and n/2-1 of
 * the high half):
 *   - a relaxation at coarse point x reads x +- l: a coarse point of its own half, the
 *     face (a ghost, nothing read), or -- from the low half's last point n/2 and the high
 *     half's last point n/2-1 -- the arm points n/2+l and n/2-1-l, which lie on the other
 *     half's side between its coarse points (interpolated points);
 *   - an interpolation at x reads the two coarse points of x's own half that bracket it
 *     (homg_bracket_p2: below n/2 both in 0..n/2, from n/2 up both in n/2-1..n-1).
 * So the next iteration reads only R x R with R = the cx coarse coordinates and the two
 * arm coordinates, and a point of R x R itself reads only R x R: an iteration whose
 * successor is of the same level may write R x R alone, the same homg_point values
 * (lib/grid/mfmg.c; test_grid checks the whole restart bit for bit against the
 * whole-grid passes).  Read index a of 0..cx+1: the coarse coordinate a (a < cx), then
 * n/2+l and n/2-1-l; -1 where the arm point lies outside the grid (l = n/2). */
HOMG_HD int homg_read_coord(int a, int n, int l, int cx)
{
    if (a < cx)
        return homg_marked_coord(a, n, l);
    const int x = a == cx ? n / 2 + l : n / 2 - 1 - l;
    return x >= 0 && x < n ? x : -1;
}

/* Whether homg_read_coord's set holds for an axis of n points at spacing l (n/2 a
 * multiple of l; otherwise brackets reach points off both lattices). */
HOMG_HD int homg_read_set_holds(int n, int l) { return n % (2 * l) == 0; }

/* Homogeneous-Dirichlet arm of the spacing-l stencil at x (n points): returns the
 * factor c with ghost = -c * u_x when x-l (side < 0) or x+l (side > 0) lies beyond
 * the face, else 0.  The ghost extrapolates linearly through 0 at the face, which
 * is at distance d = x + 1/2 (low side) or n - 1/2 - x (high side). */
HOMG_HD double homg_ghost_factor(int x, int n, int l, int side)
{
    double d = side < 0 ? x + 0.5 : n - 0.5 - x;
    return l > d ? (l - d) / d : 0.0;
}

#endif
