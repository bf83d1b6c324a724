/* cufft_periodic.cu -- the periodic cuFFT Poisson solve bench_fft quotes for scale
 * (cufft_periodic.h): R2C, one kernel dividing by the symbol, C2R. */
#include "cufft_periodic.h"

#include <cuda_runtime.h>
#include <cufft.h>
#include <math.h>
#include <stdlib.h>

struct cufft_periodic {
    int n;
    cufftHandle fwd, inv;
    int have_fwd, have_inv;
    float2 *V;
    float *eig; /* 4 sin^2(pi m/n) / h^2 * n^3, m = 0..n-1 */
};

__global__ void divide_symbol(float2 *V, const float *eig, int n)
{
    int m0 = blockIdx.x * blockDim.x + threadIdx.x, m1 = blockIdx.y, m2 = blockIdx.z;
    if (m0 > n / 2)
        return;
    size_t k = m0 + (size_t)(n / 2 + 1) * (m1 + (size_t)n * m2);
    float d = eig[m0] + eig[m1] + eig[m2];
    float2 v = V[k];
    V[k] = d > 0 ? make_float2(v.x / d, v.y / d) : make_float2(0, 0);
}

extern "C" int cufft_periodic_create(int n, double h, cufft_periodic **out)
{
    cufft_periodic *p = (cufft_periodic *)calloc(1, sizeof *p);
    float *e = (float *)malloc(sizeof(float) * n);
    size_t nc = (size_t)(n / 2 + 1) * n * n;
    *out = NULL;
    if (!p || !e)
        return 1;
    p->n = n;
    for (int m = 0; m < n; m++) {
        double s = sin(3.14159265358979323846 * m / n);
        e[m] = (float)(4 * s * s / (h * h) * (double)n * n * n);
    }
    int ok = cudaMalloc(&p->V, nc * sizeof(float2)) == cudaSuccess &&
             cudaMalloc(&p->eig, n * sizeof(float)) == cudaSuccess &&
             cudaMemcpy(p->eig, e, n * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess;
    if (ok)
        ok = p->have_fwd = cufftPlan3d(&p->fwd, n, n, n, CUFFT_R2C) == CUFFT_SUCCESS;
    if (ok)
        ok = p->have_inv = cufftPlan3d(&p->inv, n, n, n, CUFFT_C2R) == CUFFT_SUCCESS;
    if (!ok) {
        free(e);
        cufft_periodic_destroy(p);
        return 1;
    }
    free(e);
    *out = p;
    return 0;
}

extern "C" int cufft_periodic_solve(cufft_periodic *p, const float *f, float *u)
{
    int n = p->n;
    if (cufftExecR2C(p->fwd, (float *)f, (cufftComplex *)p->V) != CUFFT_SUCCESS)
        return 1;
    divide_symbol<<<dim3((n / 2 + 1 + 127) / 128, n, n), 128>>>(p->V, p->eig, n);
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
