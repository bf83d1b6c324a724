/* rhs.c -- CPU twin of the right-hand-side-only assembly (rhs.cu): the
 * elements in order, each adding its lifted load to its unmasked rows, then
 * the masked rows set. */
#include "fem_element.h"

homg_status homg_cpu_fem_numeric_rhs(kernel_exec *ex, const fem_problem *p, const fem_system *s, const uint8_t *mask,
                                     double g, const double *g_node)
{
    int nd = p->nd;
    (void)ex;
    for (int32_t e = 0; e < p->num_elements; e++) {
        double A[100], F[10];
        const int32_t *u = fem_element_any(p, e, A, F);
        fem_rhs_lift(nd, A, u, mask, g, g_node, F);
        for (int a = 0; a < nd; a++)
            if (!mask || !mask[u[a]])
                fem_add(s->rhs, s->precision, u[a], F[a]);
    }
    return HOMG_OK;
}

homg_status homg_cpu_fem_rhs_rows(kernel_exec *ex, const fem_system *s, const uint8_t *mask, double g,
                                  const double *g_node)
{
    (void)ex;
    if (!mask)
        return HOMG_OK;
#pragma omp parallel for schedule(static)
    for (int32_t i = 0; i < s->num_rows; i++)
        if (mask[i]) {
            double v = fem_masked_rhs(mask, i, g, g_node);
            if (s->precision == HOMG_FLOAT32)
                ((float *)s->rhs)[i] = (float)v;
            else
                ((double *)s->rhs)[i] = v;
        }
    return HOMG_OK;
}
