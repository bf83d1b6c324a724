/* neumann.c -- CPU twin of the Neumann load: facet by facet in order (facets
 * share nodes, and there are few of them next to the elements). */
#include "fem_element.h"

homg_status homg_cpu_fem_neumann(kernel_exec *ex, const fem_problem *p, const fem_system *s, int32_t num_facets,
                                 const int32_t *facets, const int32_t *facet_tags, const fem_flux_table *t)
{
    (void)ex;
    for (int32_t f = 0; f < num_facets; f++) {
        const int32_t *v = facets + (size_t)f * p->dim;
        double share = fem_facet_load(p, t, facet_tags[f], v);
        if (share != 0)
            for (int k = 0; k < p->dim; k++)
                fem_add(s->rhs, s->precision, v[k], share);
    }
    return HOMG_OK;
}
