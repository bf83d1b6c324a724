/* dirichlet.c -- CPU twin of the symmetric Dirichlet elimination, row by row. */
#include "fem_element.h"

homg_status homg_cpu_fem_dirichlet(kernel_exec *ex, const fem_system *s, const uint8_t *mask, double g,
                                   const double *g_node)
{
    (void)ex;
#pragma omp parallel for schedule(static)
    for (int32_t i = 0; i < s->num_rows; i++) {
        int32_t lo = s->row_ptr[i], hi = s->row_ptr[i + 1];
        if (mask[i]) {
            double gi = mask[i] == 1 ? (g_node ? g_node[i] : g) : 0.0;
            for (int32_t k = lo; k < hi; k++) {
                double v = s->col_idx[k] == i ? 1.0 : 0.0;
                if (s->precision == HOMG_FLOAT32)
                    ((float *)s->values)[k] = (float)v;
                else
                    ((double *)s->values)[k] = v;
            }
            if (s->precision == HOMG_FLOAT32)
                ((float *)s->rhs)[i] = (float)gi;
            else
                ((double *)s->rhs)[i] = gi;
        } else {
            double moved = 0;
            for (int32_t k = lo; k < hi; k++) {
                int32_t j = s->col_idx[k];
                if (mask[j]) {
                    double gj = mask[j] == 1 ? (g_node ? g_node[j] : g) : 0.0;
                    if (s->precision == HOMG_FLOAT32) {
                        moved += (double)((float *)s->values)[k] * gj;
                        ((float *)s->values)[k] = 0;
                    } else {
                        moved += ((double *)s->values)[k] * gj;
                        ((double *)s->values)[k] = 0;
                    }
                }
            }
            if (s->precision == HOMG_FLOAT32)
                ((float *)s->rhs)[i] = (float)((double)((float *)s->rhs)[i] - moved);
            else
                ((double *)s->rhs)[i] -= moved;
        }
    }
    return HOMG_OK;
}
