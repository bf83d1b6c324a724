/* fluid_point.h -- the per-point formulas of the fluid kernels on a MAC grid,
 * shared word for word by the CPU twin (fluid.c) and the CUDA twin (fluid.cu).
 *
 * Layout: nx x ny cells of width h.  Cell fields (density, pressure) hold
 * nx*ny values at ((i+1/2)h, (j+1/2)h); u (x-velocity) holds (nx+1)*ny values
 * on the vertical faces at (i h, (j+1/2)h); v holds nx*(ny+1) values on the
 * horizontal faces at ((i+1/2)h, j h); all i fastest.  A staggered field is
 * named by its size (mx, my) and offset (ox, oy) in cells.  A face is open
 * when both its cells exist and are not solid; the velocity of a closed face
 * is zero (a wall). */
#ifndef HOMG_FLUID_POINT_H
#define HOMG_FLUID_POINT_H

#include "kernels.h"

#include <math.h>
#include <stdint.h>

/* A staggered field: values, size and offset of value (0,0) in cell units. */
typedef struct fluid_field {
    const float *q;
    int mx, my;
    float ox, oy;
} fluid_field;

HOMG_HD float fluid_clampf(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }

/* Bilinear value of f at (X, Y) in cell units, clamped to the field's extent. */
HOMG_HD float fluid_sample(fluid_field f, float X, float Y)
{
    float fx = fluid_clampf(X - f.ox, 0.0f, (float)(f.mx - 1));
    float fy = fluid_clampf(Y - f.oy, 0.0f, (float)(f.my - 1));
    int i0 = (int)fx, j0 = (int)fy;
    int i1 = i0 + 1 < f.mx ? i0 + 1 : i0, j1 = j0 + 1 < f.my ? j0 + 1 : j0;
    float tx = fx - (float)i0, ty = fy - (float)j0;
    float a = f.q[i0 + (size_t)f.mx * j0] * (1 - tx) + f.q[i1 + (size_t)f.mx * j0] * tx;
    float b = f.q[i0 + (size_t)f.mx * j1] * (1 - tx) + f.q[i1 + (size_t)f.mx * j1] * tx;
    return a * (1 - ty) + b * ty;
}

HOMG_HD int fluid_solid(const uint8_t *solid, int nx, int ny, int i, int j)
{
    return i < 0 || j < 0 || i >= nx || j >= ny || (solid && solid[i + (size_t)nx * j]);
}

/* Semi-Lagrangian advection of value (i,j) of `in` by the velocity (u, v):
 * the point is traced back over dt (dt_h = dt/h, in cells) with the midpoint
 * rule and `in` is sampled there. */
HOMG_HD float fluid_advect_point(fluid_field in, fluid_field u, fluid_field v, float dt_h, int i, int j)
{
    float X = (float)i + in.ox, Y = (float)j + in.oy;
    float hx = X - 0.5f * dt_h * fluid_sample(u, X, Y);
    float hy = Y - 0.5f * dt_h * fluid_sample(v, X, Y);
    float bx = X - dt_h * fluid_sample(u, hx, hy);
    float by = Y - dt_h * fluid_sample(v, hx, hy);
    return fluid_sample(in, bx, by);
}

/* Velocity of the vertical face i (between cells i-1 and i) of row j: zero when closed. */
HOMG_HD float fluid_u_open(const float *u, const uint8_t *solid, int nx, int ny, int i, int j)
{
    return fluid_solid(solid, nx, ny, i - 1, j) || fluid_solid(solid, nx, ny, i, j) ? 0.0f
                                                                                    : u[i + (size_t)(nx + 1) * j];
}

HOMG_HD float fluid_v_open(const float *v, const uint8_t *solid, int nx, int ny, int i, int j)
{
    return fluid_solid(solid, nx, ny, i, j - 1) || fluid_solid(solid, nx, ny, i, j) ? 0.0f : v[i + (size_t)nx * j];
}

/* Face velocities after u -= grad p (inv_h = 1/h): open faces lose the pressure difference
 * across them, closed faces become walls. */
HOMG_HD float fluid_u_minus_gradient(const float *u, const float *p, const uint8_t *solid, int nx, int ny, float inv_h,
                                     int i, int j)
{
    int open = !fluid_solid(solid, nx, ny, i - 1, j) && !fluid_solid(solid, nx, ny, i, j);
    return open ? u[i + (size_t)(nx + 1) * j] - (p[i + (size_t)nx * j] - p[i - 1 + (size_t)nx * j]) * inv_h : 0.0f;
}

HOMG_HD float fluid_v_minus_gradient(const float *v, const float *p, const uint8_t *solid, int nx, int ny, float inv_h,
                                     int i, int j)
{
    size_t f = i + (size_t)nx * j;
    int open = !fluid_solid(solid, nx, ny, i, j - 1) && !fluid_solid(solid, nx, ny, i, j);
    return open ? v[f] - (p[f] - p[f - nx]) * inv_h : 0.0f;
}

/* scale * (discrete divergence of the open faces' velocities) at cell (i,j); 0 in a solid cell. */
HOMG_HD float fluid_divergence_point(const float *u, const float *v, const uint8_t *solid, int nx, int ny, float scale,
                                     int i, int j)
{
    if (fluid_solid(solid, nx, ny, i, j))
        return 0.0f;
    float d = fluid_u_open(u, solid, nx, ny, i + 1, j) - fluid_u_open(u, solid, nx, ny, i, j) +
              fluid_v_open(v, solid, nx, ny, i, j + 1) - fluid_v_open(v, solid, nx, ny, i, j);
    return scale * d;
}

/* The pressure extrapolated linearly in time, 2 p - p_prev (2 p is exact, so one rounding on
 * both backends, FMA or not). */
HOMG_HD float fluid_extrapolate(float p, float p_prev) { return 2.0f * p - p_prev; }

/* One Jacobi sweep of -Lap p = f with zero-flux walls, at cell (i,j) (h2 = h^2). */
HOMG_HD float fluid_jacobi_point(const float *p, const float *f, const uint8_t *solid, int nx, int ny, float h2, int i,
                                 int j)
{
    if (fluid_solid(solid, nx, ny, i, j))
        return 0.0f;
    float sum = h2 * f[i + (size_t)nx * j];
    int n = 0;
    const int di[4] = { -1, 1, 0, 0 }, dj[4] = { 0, 0, -1, 1 };
    for (int k = 0; k < 4; k++)
        if (!fluid_solid(solid, nx, ny, i + di[k], j + dj[k])) {
            sum += p[(i + di[k]) + (size_t)nx * (j + dj[k])];
            n++;
        }
    return n ? sum / (float)n : 0.0f;
}

#endif /* HOMG_FLUID_POINT_H */
