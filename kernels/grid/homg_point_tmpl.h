/* homg_point_tmpl.h -- one point of HOMG's whole-grid pass (seed 003) for one
 * storage type T: damped Jacobi with the spacing-l stencil at level m's marked
 * points, bilinear interpolation from the own quadrant's marked points
 * elsewhere.  Included by grid_tmpl.h (CPU) and grid.cu (CUDA) once with
 * T = float (SUFFIX f) and once with T = double (SUFFIX d): one formula for both
 * backends. */

#define HCAT2(a, b) a##_##b
#define HCAT(a, b)  HCAT2(a, b)
#define HFN(name)   HCAT(name, SUFFIX)

HOMG_HD double HFN(homg_point)(const grid_level *L, const mfmg_level *H, const T *fm, const T *u, int x, int y)
{
    const int nx = L->nx, ny = L->ny, l = H->l;
    int ax = homg_marked_index(x, nx, l), ay = homg_marked_index(y, ny, l);
    if (ax >= 0 && ay >= 0) {
        /* relax: damped Jacobi with the spacing-l stencil */
        double up = u[(size_t)y * nx + x], nb = 0, extra = 0, c;
        double inv = L->inv_h2 / ((double)l * l);
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
        double Au = (4 * up - nb) * inv + L->lambda * up;
        double diag = (4 + extra) * inv + L->lambda;
        return up + H->omega * (rhs - Au) / diag;
    }
    /* interpolate from the coarse points of the own quadrant */
    int x0, x1, y0, y1;
    double tx, ty;
    homg_bracket(x, nx, l, &x0, &x1, &tx);
    homg_bracket(y, ny, l, &y0, &y1, &ty);
    return (1 - ty) * ((1 - tx) * (double)u[(size_t)y0 * nx + x0] + tx * (double)u[(size_t)y0 * nx + x1]) +
           ty * ((1 - tx) * (double)u[(size_t)y1 * nx + x0] + tx * (double)u[(size_t)y1 * nx + x1]);
}

#undef HFN
#undef HCAT
#undef HCAT2
