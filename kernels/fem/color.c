/* fem_color.c -- CPU twin of the colour-by-colour assembly: elements of one
 * colour share no node, so they add into A and b without races. */
#include "fem_element.h"

homg_status homg_cpu_fem_numeric_color(kernel_exec *ex, const fem_problem *p, const fem_system *s, const int32_t *elems,
                                       const int32_t *color_ptr, int32_t num_colors)
{
    int nv = p->dim + 1;
    (void)ex;
    for (int32_t c = 0; c < num_colors; c++) {
#pragma omp parallel for schedule(static)
        for (int32_t i = color_ptr[c]; i < color_ptr[c + 1]; i++) {
            int32_t e = elems[i];
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
    }
    return HOMG_OK;
}
