/* rhs.cu -- the right-hand side alone (homg_fem_coeffs.rhs_only): one thread
 * per element computes its matrix and load (the same element routine as the
 * full assembly), lifts the Dirichlet columns and adds its load to the rows of
 * its unmasked unknowns with atomics; no matrix entry is read or written.  A
 * second kernel sets the masked rows.  CPU twin: rhs.c beside it. */
#include "core/cuda_check.h"
#include "fem_element.h"

#define THREADS 128

/* ND unknowns per element: DIM + 1 (P1) or (DIM + 1)(DIM + 2) / 2 (P2). */
template <typename T, int DIM, int ND>
__global__ void fem_rhs_kernel(fem_problem p, T *rhs, const uint8_t *mask, double g, const double *g_node)
{
    int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= p.num_elements)
        return;
    const int nv = DIM + 1;
    int32_t v[4], u[ND];
    double A[ND * ND], F[ND];
    for (int a = 0; a < nv; a++)
        v[a] = p.elements[e * nv + a];
    for (int a = 0; a < ND; a++)
        u[a] = p.dofs[e * ND + a];
    if (ND == nv)
        fem_element(&p, DIM, (int32_t)e, v, A, F);
    else
        fem_element_p2(&p, DIM, (int32_t)e, v, u, A, F);
    fem_rhs_lift(ND, A, u, mask, g, g_node, F);
    for (int a = 0; a < ND; a++)
        if (!mask || !mask[u[a]])
            atomicAdd(rhs + u[a], (T)F[a]);
}

template <typename T>
__global__ void fem_rhs_rows_kernel(int32_t num_rows, T *rhs, const uint8_t *mask, double g, const double *g_node)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < num_rows && mask[i])
        rhs[i] = (T)fem_masked_rhs(mask, (int32_t)i, g, g_node);
}

template <typename T>
static void launch(cudaStream_t st, const fem_problem *p, T *rhs, const uint8_t *mask, double g, const double *g_node)
{
    unsigned blocks = (unsigned)((p->num_elements + THREADS - 1) / THREADS);
    if (p->dim == 2 && p->nd == 3)
        fem_rhs_kernel<T, 2, 3><<<blocks, THREADS, 0, st>>>(*p, rhs, mask, g, g_node);
    else if (p->dim == 3 && p->nd == 4)
        fem_rhs_kernel<T, 3, 4><<<blocks, THREADS, 0, st>>>(*p, rhs, mask, g, g_node);
    else if (p->dim == 2)
        fem_rhs_kernel<T, 2, 6><<<blocks, THREADS, 0, st>>>(*p, rhs, mask, g, g_node);
    else
        fem_rhs_kernel<T, 3, 10><<<blocks, THREADS, 0, st>>>(*p, rhs, mask, g, g_node);
}

homg_status homg_cuda_fem_numeric_rhs(kernel_exec *ex, const fem_problem *p, const fem_system *s, const uint8_t *mask,
                                      double g, const double *g_node)
{
    cudaStream_t st = homg_cuda_stream(ex);
    if (p->num_elements <= 0)
        return HOMG_OK;
    if (s->precision == HOMG_FLOAT32)
        launch<float>(st, p, (float *)s->rhs, mask, g, g_node);
    else
        launch<double>(st, p, (double *)s->rhs, mask, g, g_node);
    HOMG_CUDA_LAUNCHED(ex, "fem_rhs_kernel");
    return HOMG_OK;
}

homg_status homg_cuda_fem_rhs_rows(kernel_exec *ex, const fem_system *s, const uint8_t *mask, double g,
                                   const double *g_node)
{
    unsigned blocks = (unsigned)((s->num_rows + THREADS - 1) / THREADS);
    if (!mask || s->num_rows <= 0)
        return HOMG_OK;
    if (s->precision == HOMG_FLOAT32)
        fem_rhs_rows_kernel<float>
            <<<blocks, THREADS, 0, homg_cuda_stream(ex)>>>(s->num_rows, (float *)s->rhs, mask, g, g_node);
    else
        fem_rhs_rows_kernel<double>
            <<<blocks, THREADS, 0, homg_cuda_stream(ex)>>>(s->num_rows, (double *)s->rhs, mask, g, g_node);
    HOMG_CUDA_LAUNCHED(ex, "fem_rhs_rows_kernel");
    return HOMG_OK;
}
