/* color.cu -- colour-by-colour assembly: one launch per colour, one thread
 * per element; elements of a colour share no node, so plain adds are race free.
 * CPU twin: color.c beside it. */
#include "core/cuda_check.h"
#include "fem_element.h"

#define THREADS 128

template <typename T, int DIM>
__global__ void fem_color_kernel(fem_problem p, const int32_t *row_ptr, const int32_t *col_idx, T *values, T *rhs,
                                 const int32_t *elems, int32_t begin, int32_t end)
{
    int64_t i = begin + (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= end)
        return;
    const int nv = DIM + 1;
    int32_t e = elems[i], v[4];
    double A[16], F[4];
    for (int a = 0; a < nv; a++)
        v[a] = p.elements[(int64_t)e * nv + a];
    fem_element(&p, DIM, e, v, A, F);
    for (int a = 0; a < nv; a++) {
        int32_t row = v[a], lo = row_ptr[row], hi = row_ptr[row + 1];
        for (int b = 0; b < nv; b++) {
            int32_t k = sorted_find_i32(col_idx, lo, hi, v[b]);
            if (k >= 0)
                values[k] += (T)A[a * nv + b];
        }
        rhs[row] += (T)F[a];
    }
}

template <typename T>
static homg_status run(kernel_exec *ex, const fem_problem *p, const fem_system *s, const int32_t *elems,
                       const int32_t *color_ptr, int32_t num_colors)
{
    cudaStream_t st = homg_cuda_stream(ex);
    for (int32_t c = 0; c < num_colors; c++) {
        int32_t n = color_ptr[c + 1] - color_ptr[c];
        if (n <= 0)
            continue;
        unsigned blocks = (unsigned)((n + THREADS - 1) / THREADS);
        if (p->dim == 2)
            fem_color_kernel<T, 2><<<blocks, THREADS, 0, st>>>(*p, s->row_ptr, s->col_idx, (T *)s->values, (T *)s->rhs,
                                                               elems, color_ptr[c], color_ptr[c + 1]);
        else
            fem_color_kernel<T, 3><<<blocks, THREADS, 0, st>>>(*p, s->row_ptr, s->col_idx, (T *)s->values, (T *)s->rhs,
                                                               elems, color_ptr[c], color_ptr[c + 1]);
        HOMG_CUDA_LAUNCHED(ex, "fem_color_kernel");
    }
    return HOMG_OK;
}

homg_status homg_cuda_fem_numeric_color(kernel_exec *ex, const fem_problem *p, const fem_system *s,
                                        const int32_t *elems, const int32_t *color_ptr, int32_t num_colors)
{
    return s->precision == HOMG_FLOAT32 ? run<float>(ex, p, s, elems, color_ptr, num_colors)
                                        : run<double>(ex, p, s, elems, color_ptr, num_colors);
}
