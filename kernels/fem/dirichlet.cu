/* dirichlet.cu -- symmetric Dirichlet elimination, one thread per row.
 * CPU twin: dirichlet.c beside it. */
#include "core/cuda_check.h"
#include "fem_element.h"

#define THREADS 256

template <typename T>
__global__ void fem_dirichlet_kernel(int32_t num_rows, const int32_t *row_ptr, const int32_t *col_idx, T *values,
                                     T *rhs, const uint8_t *mask, double g, const double *g_node)
{
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= num_rows)
        return;
    int32_t i = (int32_t)t, lo = row_ptr[i], hi = row_ptr[i + 1];
    if (mask[i]) {
        double gi = mask[i] == 1 ? (g_node ? g_node[i] : g) : 0.0;
        for (int32_t k = lo; k < hi; k++)
            values[k] = (T)(col_idx[k] == i ? 1.0 : 0.0);
        rhs[i] = (T)gi;
    } else {
        double moved = 0;
        for (int32_t k = lo; k < hi; k++) {
            int32_t j = col_idx[k];
            if (mask[j]) {
                double gj = mask[j] == 1 ? (g_node ? g_node[j] : g) : 0.0;
                moved += (double)values[k] * gj;
                values[k] = 0;
            }
        }
        rhs[i] = (T)((double)rhs[i] - moved);
    }
}

homg_status homg_cuda_fem_dirichlet(kernel_exec *ex, const fem_system *s, const uint8_t *mask, double g,
                                    const double *g_node)
{
    unsigned blocks = (unsigned)((s->num_rows + THREADS - 1) / THREADS);
    if (s->num_rows <= 0)
        return HOMG_OK;
    if (s->precision == HOMG_FLOAT32)
        fem_dirichlet_kernel<float><<<blocks, THREADS, 0, homg_cuda_stream(ex)>>>(
            s->num_rows, s->row_ptr, s->col_idx, (float *)s->values, (float *)s->rhs, mask, g, g_node);
    else
        fem_dirichlet_kernel<double><<<blocks, THREADS, 0, homg_cuda_stream(ex)>>>(
            s->num_rows, s->row_ptr, s->col_idx, (double *)s->values, (double *)s->rhs, mask, g, g_node);
    HOMG_CUDA_LAUNCHED(ex, "fem_dirichlet_kernel");
    return HOMG_OK;
}
