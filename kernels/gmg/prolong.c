/* prolong.c -- CPU twin of prolong.cu: the masked P of a refined mesh (prolong.h). */
#include "prolong.h"

homg_status homg_cpu_gmg_prolong_count(kernel_exec *ex, int32_t nc, const uint64_t *edges, int32_t ne,
                                       const uint8_t *fine_fixed, const uint8_t *coarse_fixed, int32_t *count)
{
    (void)ex;
#pragma omp parallel for schedule(static) if (nc + ne > HOMG_OMP_MIN)
    for (int32_t i = 0; i < nc + ne; i++)
        count[i] = prolong_row(nc, edges, fine_fixed, coarse_fixed, i, 0, NULL, NULL);
    return HOMG_OK;
}

homg_status homg_cpu_gmg_prolong_fill(kernel_exec *ex, int32_t nc, const uint64_t *edges, int32_t ne,
                                      const uint8_t *fine_fixed, const uint8_t *coarse_fixed, csr_matrix *p)
{
    (void)ex;
#pragma omp parallel for schedule(static) if (nc + ne > HOMG_OMP_MIN)
    for (int32_t i = 0; i < nc + ne; i++)
        prolong_row(nc, edges, fine_fixed, coarse_fixed, i, p->row_ptr[i], p->col_idx, (double *)p->values);
    return HOMG_OK;
}
