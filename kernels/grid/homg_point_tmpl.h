/* homg_point_tmpl.h -- one point of HOMG's whole-grid pass (seed 003) for one
 * storage type T: damped Jacobi with the spacing-l stencil at level m's marked
 * points, bilinear interpolation from the own quadrant's marked points
 * elsewhere.  Included by grid_tmpl.h (CPU) and grid.cu (CUDA) once with
 * T = float (SUFFIX f) and once with T = double (SUFFIX d): one formula for both
 * backends.  l = 2^m (H->m): indices by masks and shifts, inv_l = 1/l from the caller
 * (once per thread or call); the values are those of the division form bit for bit
 * (grid_point.h, homg_marked_index_p2). */

#define HCAT2(a, b) a##_##b
#define HCAT(a, b)  HCAT2(a, b)
#define HFN(name)   HCAT(name, SUFFIX)

/* The bilinear interpolation is separable: along x in rows y0 and y1 (homg_lerp_row),
 * then along y (homg_lerp).  Every row of one coarse interval shares the two row
 * values, so a kernel may compute them once for its rows: the same values. */
HOMG_HD double HFN(homg_lerp_row)(const T *row, int x0, int x1, double tx)
{
    return (1 - tx) * (double)row[x0] + tx * (double)row[x1];
}

HOMG_HD double HFN(homg_lerp)(double r0, double r1, double ty) { return (1 - ty) * r0 + ty * r1; }

/* The damped-Jacobi update of a marked point from its value up, the sum nb of its
 * four arms (ghosts folded in: -c up each, c summed in extra), its rhs and
 * inv = inv_h2 / l^2: one expression for every kernel that relaxes. */
HOMG_HD double HFN(homg_relax)(double up, double nb, double extra, double rhs, double inv, double lambda, double omega)
{
    double Au = (4 * up - nb) * inv + lambda * up;
    double diag = (4 + extra) * inv + lambda;
    return up + omega * (rhs - Au) / diag;
}

HOMG_HD double HFN(homg_point)(const grid_level *L, const mfmg_level *H, double inv_l, const T *fm, const T *u, int x,
                               int y)
{
    const int nx = L->nx, ny = L->ny, l = H->l, m = H->m;
    int ax = homg_marked_index_p2(x, nx, m), ay = homg_marked_index_p2(y, ny, m);
    if (ax >= 0 && ay >= 0) {
        /* relax: damped Jacobi with the spacing-l stencil */
        double up = u[(size_t)y * nx + x], nb = 0, extra = 0, c;
        double inv = L->inv_h2 * (inv_l * inv_l); /* inv_h2 / l^2, exactly */
        if (x - l >= 0)
            nb += u[(size_t)y * nx + x - l];
        else {
            c = homg_ghost_factor(x, nx, l, -1);
            nb -= c * up;
            extra += c;
        }
        if (x + l < nx)
            nb += u[(size_t)y * nx + x + l];
        else {
            c = homg_ghost_factor(x, nx, l, 1);
            nb -= c * up;
            extra += c;
        }
        if (y - l >= 0)
            nb += u[(size_t)(y - l) * nx + x];
        else {
            c = homg_ghost_factor(y, ny, l, -1);
            nb -= c * up;
            extra += c;
        }
        if (y + l < ny)
            nb += u[(size_t)(y + l) * nx + x];
        else {
            c = homg_ghost_factor(y, ny, l, 1);
            nb -= c * up;
            extra += c;
        }
        double rhs = H->m == 0 ? (double)fm[(size_t)y * nx + x] : (double)fm[(size_t)ay * H->cx + ax];
        return HFN(homg_relax)(up, nb, extra, rhs, inv, L->lambda, H->omega);
    }
    /* interpolate from the coarse points of the own quadrant */
    int x0, x1, y0, y1;
    double tx, ty;
    homg_bracket_p2(x, nx, m, inv_l, &x0, &x1, &tx);
    homg_bracket_p2(y, ny, m, inv_l, &y0, &y1, &ty);
    return HFN(homg_lerp)(HFN(homg_lerp_row)(u + (size_t)y0 * nx, x0, x1, tx),
                          HFN(homg_lerp_row)(u + (size_t)y1 * nx, x0, x1, tx), ty);
}

/* The filter's nine interior taps (rows a, b, c = j-s, j, j+s; each at i-s, i, i+s)
 * in the order the point form adds them, and the division by 16 as the exact
 * product by 1/16. */
HOMG_HD double HFN(homg_filter_taps)(double a0, double a1, double a2, double b0, double b1, double b2, double c0,
                                     double c1, double c2)
{
    double acc = 0;
    acc += 1.0 * a0;
    acc += 2.0 * a1;
    acc += 1.0 * a2;
    acc += 2.0 * b0;
    acc += 4.0 * b1;
    acc += 2.0 * b2;
    acc += 1.0 * c0;
    acc += 2.0 * c1;
    acc += 1.0 * c2;
    return acc * 0.0625;
}

/* One point of the (1,2,1)/4 x (1,2,1)/4 filter with tap spacing s: taps outside
 * the grid dropped and the weights renormalised.  Inside, all nine taps in the
 * same order and the division by 16 as the exact product by 1/16. */
HOMG_HD double HFN(homg_filter_point)(int nx, int ny, int s, const T *src, int i, int j)
{
    double acc = 0, wsum = 0;
    if (i >= s && i + s < nx && j >= s && j + s < ny) {
        const T *r0 = src + (size_t)(j - s) * nx + i, *r1 = src + (size_t)j * nx + i,
                *r2 = src + (size_t)(j + s) * nx + i;
        return HFN(homg_filter_taps)((double)r0[-s], (double)r0[0], (double)r0[s], (double)r1[-s], (double)r1[0],
                                     (double)r1[s], (double)r2[-s], (double)r2[0], (double)r2[s]);
    }
    for (int b = -1; b <= 1; b++) {
        int jj = j + b * s;
        if (jj < 0 || jj >= ny)
            continue;
        for (int a = -1; a <= 1; a++) {
            int ii = i + a * s;
            if (ii < 0 || ii >= nx)
                continue;
            double w = (a ? 1.0 : 2.0) * (b ? 1.0 : 2.0);
            acc += w * (double)src[(size_t)jj * nx + ii];
            wsum += w;
        }
    }
    return acc / wsum;
}

/* homg_gather fused into a pass that writes point (x, y) of the grid it gathers from:
 * v to each compact entry of (x, y) at level H (none unless both coordinates are coarse
 * points; two or four at the middle of an odd side). */
HOMG_HD void HFN(homg_gather_point)(const mfmg_level *H, int nx, int ny, T *compact, int x, int y, T v)
{
    int yl, yh, xl, xh;
    homg_marked_pair_p2(y, ny, H->m, &yl, &yh);
    if (yl < 0 && yh < 0)
        return;
    homg_marked_pair_p2(x, nx, H->m, &xl, &xh);
    if (yl >= 0 && xl >= 0)
        compact[(size_t)yl * H->cx + xl] = v;
    if (yl >= 0 && xh >= 0)
        compact[(size_t)yl * H->cx + xh] = v;
    if (yh >= 0 && xl >= 0)
        compact[(size_t)yh * H->cx + xl] = v;
    if (yh >= 0 && xh >= 0)
        compact[(size_t)yh * H->cx + xh] = v;
}

#undef HFN
#undef HCAT
#undef HCAT2
