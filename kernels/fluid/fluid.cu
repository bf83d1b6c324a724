/* fluid.cu -- CUDA backend of the fluid kernels, one thread per value (CPU
 * twin: fluid.c; the formulas are those of fluid_point.h). */
#include "core/cuda_check.h"
#include "fluid/fluid_kernels.h"

static dim3 grid_of(int mx, int my) { return dim3((unsigned)((mx + 31) / 32), (unsigned)((my + 7) / 8)); }
static const dim3 block(32, 8);

__global__ void fluid_advect_kernel(int nx, int ny, const uint8_t *solid, fluid_field in, fluid_field u, fluid_field v,
                                    float dt_h, float decay, int cells, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= in.mx || j >= in.my)
        return;
    out[i + (size_t)in.mx * j] =
        cells && fluid_solid(solid, nx, ny, i, j) ? 0.0f : decay * fluid_advect_point(in, u, v, dt_h, i, j);
}

extern "C" homg_status homg_cuda_fluid_advect(kernel_exec *ex, int nx, int ny, const uint8_t *solid, fluid_field in,
                                              fluid_field u, fluid_field v, float dt_h, float decay, float *out)
{
    int cells = in.ox == 0.5f && in.oy == 0.5f;
    fluid_advect_kernel<<<grid_of(in.mx, in.my), block, 0, homg_cuda_stream(ex)>>>(nx, ny, solid, in, u, v, dt_h, decay,
                                                                                   cells, out);
    HOMG_CUDA_LAUNCHED(ex, "fluid_advect_kernel");
    return HOMG_OK;
}

/* advect's face fields u and v in one grid: a thread per (i, j) of the larger extent. */
__global__ void fluid_advect_velocity_kernel(fluid_field u, fluid_field v, float dt_h, float *u_out, float *v_out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < u.mx && j < u.my)
        u_out[i + (size_t)u.mx * j] = 1.0f * fluid_advect_point(u, u, v, dt_h, i, j);
    if (i < v.mx && j < v.my)
        v_out[i + (size_t)v.mx * j] = 1.0f * fluid_advect_point(v, u, v, dt_h, i, j);
}

extern "C" homg_status homg_cuda_fluid_advect_velocity(kernel_exec *ex, int nx, int ny, fluid_field u, fluid_field v,
                                                       float dt_h, float *u_out, float *v_out)
{
    int mx = u.mx > v.mx ? u.mx : v.mx, my = u.my > v.my ? u.my : v.my;
    (void)nx, (void)ny;
    fluid_advect_velocity_kernel<<<grid_of(mx, my), block, 0, homg_cuda_stream(ex)>>>(u, v, dt_h, u_out, v_out);
    HOMG_CUDA_LAUNCHED(ex, "fluid_advect_velocity_kernel");
    return HOMG_OK;
}

__global__ void fluid_divergence_kernel(int nx, int ny, const uint8_t *solid, const float *u, const float *v,
                                        float scale, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nx && j < ny)
        out[i + (size_t)nx * j] = fluid_divergence_point(u, v, solid, nx, ny, scale, i, j);
}

extern "C" homg_status homg_cuda_fluid_divergence(kernel_exec *ex, int nx, int ny, const uint8_t *solid, const float *u,
                                                  const float *v, float scale, float *out)
{
    fluid_divergence_kernel<<<grid_of(nx, ny), block, 0, homg_cuda_stream(ex)>>>(nx, ny, solid, u, v, scale, out);
    HOMG_CUDA_LAUNCHED(ex, "fluid_divergence_kernel");
    return HOMG_OK;
}

__global__ void fluid_divergence_extrapolate_kernel(int nx, int ny, const uint8_t *solid, const float *u,
                                                    const float *v, float scale, float *out, float *p, float *p_prev)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= nx || j >= ny)
        return;
    size_t c = i + (size_t)nx * j;
    float was = p[c];
    out[c] = fluid_divergence_point(u, v, solid, nx, ny, scale, i, j);
    p[c] = fluid_extrapolate(was, p_prev[c]);
    p_prev[c] = was;
}

extern "C" homg_status homg_cuda_fluid_divergence_extrapolate(kernel_exec *ex, int nx, int ny, const uint8_t *solid,
                                                              const float *u, const float *v, float scale, float *out,
                                                              float *p, float *p_prev)
{
    fluid_divergence_extrapolate_kernel<<<grid_of(nx, ny), block, 0, homg_cuda_stream(ex)>>>(nx, ny, solid, u, v, scale,
                                                                                             out, p, p_prev);
    HOMG_CUDA_LAUNCHED(ex, "fluid_divergence_extrapolate_kernel");
    return HOMG_OK;
}

__global__ void fluid_subtract_gradient_kernel(int nx, int ny, const uint8_t *solid, const float *p, float inv_h,
                                               float *u, float *v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i > nx || j > ny)
        return;
    if (j < ny)
        u[i + (size_t)(nx + 1) * j] = fluid_u_minus_gradient(u, p, solid, nx, ny, inv_h, i, j);
    if (i < nx)
        v[i + (size_t)nx * j] = fluid_v_minus_gradient(v, p, solid, nx, ny, inv_h, i, j);
}

extern "C" homg_status homg_cuda_fluid_subtract_gradient(kernel_exec *ex, int nx, int ny, const uint8_t *solid,
                                                         const float *p, float inv_h, float *u, float *v)
{
    fluid_subtract_gradient_kernel<<<grid_of(nx + 1, ny + 1), block, 0, homg_cuda_stream(ex)>>>(nx, ny, solid, p, inv_h,
                                                                                                u, v);
    HOMG_CUDA_LAUNCHED(ex, "fluid_subtract_gradient_kernel");
    return HOMG_OK;
}

__global__ void fluid_jacobi_kernel(int nx, int ny, const uint8_t *solid, const float *p, const float *f, float h2,
                                    float *p_out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nx && j < ny)
        p_out[i + (size_t)nx * j] = fluid_jacobi_point(p, f, solid, nx, ny, h2, i, j);
}

extern "C" homg_status homg_cuda_fluid_jacobi(kernel_exec *ex, int nx, int ny, const uint8_t *solid, const float *p,
                                              const float *f, float h2, float *p_out)
{
    fluid_jacobi_kernel<<<grid_of(nx, ny), block, 0, homg_cuda_stream(ex)>>>(nx, ny, solid, p, f, h2, p_out);
    HOMG_CUDA_LAUNCHED(ex, "fluid_jacobi_kernel");
    return HOMG_OK;
}

__global__ void fluid_splat_kernel(int mx, int my, float ox, float oy, double h, splat_batch sp, float *q)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= mx || j >= my)
        return;
    double x[2] = { (i + ox) * h, (j + oy) * h };
    q[i + (size_t)mx * j] += (float)splat_value(2, x, &sp);
}

extern "C" homg_status homg_cuda_fluid_splat(kernel_exec *ex, int mx, int my, float ox, float oy, double h,
                                             const splat_batch *splats, float *q)
{
    fluid_splat_kernel<<<grid_of(mx, my), block, 0, homg_cuda_stream(ex)>>>(mx, my, ox, oy, h, *splats, q);
    HOMG_CUDA_LAUNCHED(ex, "fluid_splat_kernel");
    return HOMG_OK;
}

__global__ void fluid_flags_kernel(int64_t n, const uint8_t *solid, uint8_t solid_flag, uint8_t *flags, int64_t *count)
{
    int64_t c = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int s = c < n && solid && solid[c];
    if (c < n)
        flags[c] = s ? solid_flag : 0;
    int found = __syncthreads_count(s); /* one atomic per block */
    if (threadIdx.x == 0 && found)
        atomicAdd((unsigned long long *)count, (unsigned long long)found);
}

extern "C" homg_status homg_cuda_fluid_flags(kernel_exec *ex, int64_t n, const uint8_t *solid, uint8_t solid_flag,
                                             uint8_t *flags, int64_t *count)
{
    if (n <= 0)
        return HOMG_OK;
    fluid_flags_kernel<<<(unsigned)((n + 255) / 256), 256, 0, homg_cuda_stream(ex)>>>(n, solid, solid_flag, flags,
                                                                                      count);
    HOMG_CUDA_LAUNCHED(ex, "fluid_flags_kernel");
    return HOMG_OK;
}

extern "C" const fluid_kernels homg_cuda_fluid_kernels = { .name = "cuda", FLUID_KERNELS(HOMG_KERNEL_CUDA_INIT) };
