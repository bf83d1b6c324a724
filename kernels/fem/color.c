/* color.c -- CPU twin of the colour-by-colour assembly: elements of one
 * colour share no node, so they add into A and b without races. */
#include "fem_element.h"

homg_status homg_cpu_fem_numeric_color(kernel_exec *ex, const fem_problem *p, const fem_system *s, const int32_t *elems,
                                       const int32_t *color_ptr, int32_t num_colors)
{
    (void)ex;
    for (int32_t c = 0; c < num_colors; c++) {
#pragma omp parallel for schedule(static)
        for (int32_t i = color_ptr[c]; i < color_ptr[c + 1]; i++)
            fem_scatter_element(p, s, elems[i]);
    }
    return HOMG_OK;
}
