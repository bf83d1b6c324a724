/* color.cu -- colour-by-colour assembly: one launch per colour, one thread
 * per element; elements of a colour share no node, so plain adds are race free
 * (P2 elements share unknowns only where they share vertices, so the same
 * colouring serves them).  CPU twin: color.c beside it. */
#include "core/cuda_check.h"
#include "fem_element.h"

#define THREADS 128

/* ND unknowns per element: DIM + 1 (P1) or (DIM + 1)(DIM + 2) / 2 (P2). */
template <typename T, int DIM, int ND>
__global__ void fem_color_kernel(fem_problem p, const int32_t *row_ptr, const int32_t *col_idx, T *values, T *rhs,
                                 const int32_t *elems, int32_t begin, int32_t end)
{
    int64_t i = begin + (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= end)
        return;
    const int nv = DIM + 1;
    int32_t e = elems[i], v[4], u[ND];
    double A[ND * ND], F[ND];
    for (int a = 0; a < nv; a++)
        v[a] = p.elements[(int64_t)e * nv + a];
    for (int a = 0; a < ND; a++)
        u[a] = p.dofs[(int64_t)e * ND + a];
    if (ND == nv)
        fem_element(&p, DIM, e, v, A, F);
    else
        fem_element_p2(&p, DIM, e, v, u, A, F);
    for (int a = 0; a < ND; a++) {
        int32_t row = u[a], lo = row_ptr[row], hi = row_ptr[row + 1];
        for (int b = 0; b < ND; b++) {
            int32_t k = sorted_find_i32(col_idx, lo, hi, u[b]);
            if (k >= 0)
                values[k] += (T)A[a * ND + b];
        }
        rhs[row] += (T)F[a];
    }
}

template <typename T, int DIM, int ND>
static void launch(cudaStream_t st, unsigned blocks, const fem_problem *p, const fem_system *s, const int32_t *elems,
                   int32_t begin, int32_t end)
{
    fem_color_kernel<T, DIM, ND>
        <<<blocks, THREADS, 0, st>>>(*p, s->row_ptr, s->col_idx, (T *)s->values, (T *)s->rhs, elems, begin, end);
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
        int32_t b = color_ptr[c], e = color_ptr[c + 1];
        if (p->dim == 2 && p->nd == 3)
            launch<T, 2, 3>(st, blocks, p, s, elems, b, e);
        else if (p->dim == 3 && p->nd == 4)
            launch<T, 3, 4>(st, blocks, p, s, elems, b, e);
        else if (p->dim == 2)
            launch<T, 2, 6>(st, blocks, p, s, elems, b, e);
        else
            launch<T, 3, 10>(st, blocks, p, s, elems, b, e);
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
