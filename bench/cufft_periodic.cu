/* cufft_periodic.cu -- the periodic cuFFT Poisson solve bench_fft quotes for scale
 * (cufft_periodic.h): R2C, one kernel dividing by the symbol, C2R. */
#include "cufft_periodic.h"

#include <cuda_runtime.h>
#include <cufft.h>
#include <math.h>
#include <stdlib.h>

struct cufft_periodic {
    int n[3];
    cufftHandle fwd, inv;
    int have_fwd, have_inv;
    float2 *V;
    float *eig; /* per axis 4 sin^2(pi m/n) / h^2 * cells, x then y then z */
};

__global__ void divide_symbol(float2 *V, const float *eig, int nx, int ny, int nz)
{
    int m0 = blockIdx.x * blockDim.x + threadIdx.x, m1 = blockIdx.y, m2 = blockIdx.z;
    if (m0 > nx / 2)
        return;
    size_t k = m0 + (size_t)(nx / 2 + 1) * (m1 + (size_t)ny * m2);
    float d = eig[m0] + eig[nx + m1] + eig[nx + ny + m2];
    float2 v = V[k];
    V[k] = d > 0 ? make_float2(v.x / d, v.y / d) : make_float2(0, 0);
}

extern "C" int cufft_periodic_create(int nx, int ny, int nz, double h, cufft_periodic **out)
{
    cufft_periodic *p = (cufft_periodic *)calloc(1, sizeof *p);
    int ne = nx + ny + nz;
    float *e = (float *)malloc(sizeof(float) * ne);
    double cells = (double)nx * ny * nz;
    size_t nc = (size_t)(nx / 2 + 1) * ny * nz;
    *out = NULL;
    if (!p || !e) {
        free(p);
        free(e);
        return 1;
    }
    p->n[0] = nx, p->n[1] = ny, p->n[2] = nz;
    for (int a = 0, o = 0; a < 3; o += p->n[a], a++)
        for (int m = 0; m < p->n[a]; m++) {
            double s = sin(3.14159265358979323846 * m / p->n[a]);
            e[o + m] = (float)(4 * s * s / (h * h) * cells);
        }
    int ok = cudaMalloc(&p->V, nc * sizeof(float2)) == cudaSuccess &&
             cudaMalloc(&p->eig, ne * sizeof(float)) == cudaSuccess &&
             cudaMemcpy(p->eig, e, ne * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess;
    if (ok)
        ok = p->have_fwd = (nz > 1 ? cufftPlan3d(&p->fwd, nz, ny, nx, CUFFT_R2C)
                                   : cufftPlan2d(&p->fwd, ny, nx, CUFFT_R2C)) == CUFFT_SUCCESS;
    if (ok)
        ok = p->have_inv = (nz > 1 ? cufftPlan3d(&p->inv, nz, ny, nx, CUFFT_C2R)
                                   : cufftPlan2d(&p->inv, ny, nx, CUFFT_C2R)) == CUFFT_SUCCESS;
    free(e);
    if (!ok) {
        cufft_periodic_destroy(p);
        return 1;
    }
    *out = p;
    return 0;
}

extern "C" int cufft_periodic_solve(cufft_periodic *p, const float *f, float *u)
{
    int nx = p->n[0], ny = p->n[1], nz = p->n[2];
    if (cufftExecR2C(p->fwd, (float *)f, (cufftComplex *)p->V) != CUFFT_SUCCESS)
        return 1;
    divide_symbol<<<dim3((nx / 2 + 1 + 127) / 128, ny, nz), 128>>>(p->V, p->eig, nx, ny, nz);
    if (cufftExecC2R(p->inv, (cufftComplex *)p->V, u) != CUFFT_SUCCESS)
        return 1;
    return cudaGetLastError() != cudaSuccess;
}

extern "C" void cufft_periodic_destroy(cufft_periodic *p)
{
    if (!p)
        return;
    if (p->have_fwd)
        cufftDestroy(p->fwd);
    if (p->have_inv)
        cufftDestroy(p->inv);
    cudaFree(p->V);
    cudaFree(p->eig);
    free(p);
}
