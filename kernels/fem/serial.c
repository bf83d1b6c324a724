/* fem_serial.c -- the serial direct-stiffness assembly (seed 002, Algorithm 1):
 * one thread, elements in order, each entry found by binary search in its CSR
 * row.  The CPU baseline of the GPU speed-ups; it has no CUDA twin. */
#include "fem_element.h"

homg_status homg_cpu_fem_numeric_serial(kernel_exec *ex, const fem_problem *p, const fem_system *s)
{
    int nv = p->dim + 1;
    (void)ex;
    for (int32_t e = 0; e < p->num_elements; e++) {
        const int32_t *v = p->elements + (size_t)e * nv;
        double A[16], F[4];
        fem_element(p, p->dim, e, v, A, F);
        for (int a = 0; a < nv; a++) {
            int32_t row = v[a], lo = s->row_ptr[row], hi = s->row_ptr[row + 1];
            for (int b = 0; b < nv; b++) {
                int32_t k = sorted_find_i32(s->col_idx, lo, hi, v[b]);
                if (k >= 0)
                    fem_add(s->values, s->precision, k, A[a * nv + b]);
            }
            fem_add(s->rhs, s->precision, row, F[a]);
        }
    }
    return HOMG_OK;
}
