/* fluid.c -- CPU backend of the fluid kernels (CUDA twin: fluid.cu; the
 * formulas are those of fluid_point.h). */
#include "fluid/fluid_kernels.h"

homg_status homg_cpu_fluid_advect(kernel_exec *ex, int nx, int ny, const uint8_t *solid, fluid_field in, fluid_field u,
                                  fluid_field v, float dt_h, float decay, float *out)
{
    int cells = in.ox == 0.5f && in.oy == 0.5f;
    (void)ex;
#pragma omp parallel for schedule(static) if ((size_t)in.mx * in.my > HOMG_OMP_MIN)
    for (int j = 0; j < in.my; j++)
        for (int i = 0; i < in.mx; i++)
            out[i + (size_t)in.mx * j] =
                cells && fluid_solid(solid, nx, ny, i, j) ? 0.0f : decay * fluid_advect_point(in, u, v, dt_h, i, j);
    return HOMG_OK;
}

homg_status homg_cpu_fluid_advect_velocity(kernel_exec *ex, int nx, int ny, fluid_field u, fluid_field v, float dt_h,
                                           float *u_out, float *v_out)
{
    HOMG_TRY(homg_cpu_fluid_advect(ex, nx, ny, NULL, u, u, v, dt_h, 1.0f, u_out));
    return homg_cpu_fluid_advect(ex, nx, ny, NULL, v, u, v, dt_h, 1.0f, v_out);
}

homg_status homg_cpu_fluid_divergence(kernel_exec *ex, int nx, int ny, const uint8_t *solid, const float *u,
                                      const float *v, float scale, float *out)
{
    (void)ex;
#pragma omp parallel for schedule(static) if ((size_t)nx * ny > HOMG_OMP_MIN)
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
            out[i + (size_t)nx * j] = fluid_divergence_point(u, v, solid, nx, ny, scale, i, j);
    return HOMG_OK;
}

homg_status homg_cpu_fluid_divergence_extrapolate(kernel_exec *ex, int nx, int ny, const uint8_t *solid, const float *u,
                                                  const float *v, float scale, float *out, float *p, float *p_prev)
{
    (void)ex;
#pragma omp parallel for schedule(static) if ((size_t)nx * ny > HOMG_OMP_MIN)
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            size_t c = i + (size_t)nx * j;
            float was = p[c];
            out[c] = fluid_divergence_point(u, v, solid, nx, ny, scale, i, j);
            p[c] = fluid_extrapolate(was, p_prev[c]);
            p_prev[c] = was;
        }
    return HOMG_OK;
}

homg_status homg_cpu_fluid_subtract_gradient(kernel_exec *ex, int nx, int ny, const uint8_t *solid, const float *p,
                                             float inv_h, float *u, float *v)
{
    (void)ex;
#pragma omp parallel for schedule(static) if ((size_t)nx * ny > HOMG_OMP_MIN)
    for (int j = 0; j <= ny; j++)
        for (int i = 0; i <= nx; i++) {
            if (j < ny)
                u[i + (size_t)(nx + 1) * j] = fluid_u_minus_gradient(u, p, solid, nx, ny, inv_h, i, j);
            if (i < nx)
                v[i + (size_t)nx * j] = fluid_v_minus_gradient(v, p, solid, nx, ny, inv_h, i, j);
        }
    return HOMG_OK;
}

homg_status homg_cpu_fluid_jacobi(kernel_exec *ex, int nx, int ny, const uint8_t *solid, const float *p, const float *f,
                                  float h2, float *p_out)
{
    (void)ex;
#pragma omp parallel for schedule(static) if ((size_t)nx * ny > HOMG_OMP_MIN)
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
            p_out[i + (size_t)nx * j] = fluid_jacobi_point(p, f, solid, nx, ny, h2, i, j);
    return HOMG_OK;
}

homg_status homg_cpu_fluid_splat(kernel_exec *ex, int mx, int my, float ox, float oy, double h,
                                 const splat_batch *splats, float *q)
{
    (void)ex;
#pragma omp parallel for schedule(static) if ((size_t)mx * my > HOMG_OMP_MIN)
    for (int j = 0; j < my; j++)
        for (int i = 0; i < mx; i++) {
            double x[2] = { (i + ox) * h, (j + oy) * h };
            q[i + (size_t)mx * j] += (float)splat_value(2, x, splats);
        }
    return HOMG_OK;
}

homg_status homg_cpu_fluid_flags(kernel_exec *ex, int64_t n, const uint8_t *solid, uint8_t solid_flag, uint8_t *flags,
                                 int64_t *count)
{
    int64_t found = 0;
    (void)ex;
    for (int64_t c = 0; c < n; c++) {
        int s = solid && solid[c];
        flags[c] = s ? solid_flag : 0;
        found += s;
    }
    *count += found;
    return HOMG_OK;
}

const fluid_kernels homg_cpu_fluid_kernels = { .name = "cpu", FLUID_KERNELS(HOMG_KERNEL_CPU_INIT) };
