/* gather.c -- CPU twin of the word runs' gather (fem_words): copies with an
 * offset added, as GMG's union of coarse levels needs them. */
#include "fem_kernels.h"

homg_status homg_cpu_fem_gather_words(kernel_exec *ex, const fem_words_list *list)
{
    (void)ex;
    for (int r = 0; r < list->count; r++) {
        const fem_words *w = &list->run[r];
#pragma omp parallel for schedule(static) if (w->n > HOMG_OMP_MIN)
        for (int64_t i = 0; i < w->n; i++)
            w->dst[i] = w->src[i] + w->add;
    }
    return HOMG_OK;
}
