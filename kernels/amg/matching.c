/* matching.c -- CPU backend: compatible weighted matching (seed 001): edge
 * weights, synchronous Suitor rounds, pairs and their prolongator weights. */
#include "amg_common.h"
#include "amg_kernels.h"

homg_status homg_cpu_amg_match_weights(kernel_exec *ex, const csr_matrix *a, const float *diag, const float *v,
                                       float *w)
{
    const float *av = (const float *)a->values;
    (void)ex;
#pragma omp parallel for schedule(static) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++)
        for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
            int32_t j = a->col_idx[k];
            float aji = amg_entry_weight(a->row_ptr, a->col_idx, av, j, i);
            w[k] = j == i ? 0.0f : amg_match_weight(av[k], aji, diag[i], diag[j], v[i], v[j]);
        }
    return HOMG_OK;
}

homg_status homg_cpu_amg_suitor_round(kernel_exec *ex, const csr_matrix *a, const float *w, uint64_t *suitor,
                                      int32_t *target, int32_t *cand, int32_t *proposals)
{
    int32_t count = 0;
    (void)ex;
    /* Phase 1: every active vertex picks, from the state at the round's start,
     * its heaviest neighbour whose held proposal it beats (ties: the larger
     * random label, as the keys order them). */
#pragma omp parallel for schedule(static) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t u = 0; u < a->nrows; u++)
        cand[u] = amg_suitor_pick(a->row_ptr, a->col_idx, w, suitor, target, u);
    /* Phase 2: the best proposal per vertex wins (the CUDA twin: atomicMax). */
    for (int32_t u = 0; u < a->nrows; u++) {
        int32_t v = cand[u];
        uint64_t mine;
        if (v == -2)
            target[u] = -2;
        if (v < 0)
            continue;
        mine = amg_suitor_key(amg_entry_weight(a->row_ptr, a->col_idx, w, u, v), u);
        if (mine > suitor[v])
            suitor[v] = mine;
        target[u] = v;
        count++;
    }
    *proposals = count;
    return HOMG_OK;
}

homg_status homg_cpu_amg_match_pairs(kernel_exec *ex, const csr_matrix *a, const float *w, const uint64_t *suitor,
                                     const int32_t *target, int32_t *mate, int32_t *flag)
{
    (void)ex;
    for (int32_t i = 0; i < a->nrows; i++) {
        int32_t t = target[i], m = -1;
        if (t >= 0 && target[t] == i && amg_suitor_holds(a->row_ptr, a->col_idx, w, suitor, target, i) &&
            amg_suitor_holds(a->row_ptr, a->col_idx, w, suitor, target, t))
            m = t;
        mate[i] = m;
        flag[i] = m < 0 || i < m;
    }
    return HOMG_OK;
}

homg_status homg_cpu_amg_match_agg(kernel_exec *ex, int32_t n, const int32_t *mate, const int32_t *id, int32_t *agg)
{
    (void)ex;
    for (int32_t i = 0; i < n; i++)
        agg[i] = id[mate[i] >= 0 && mate[i] < i ? mate[i] : i];
    return HOMG_OK;
}

homg_status homg_cpu_amg_match_weights_p(kernel_exec *ex, int32_t n, const int32_t *mate, const int32_t *agg,
                                         const float *v, float *pw, float *vc)
{
    (void)ex;
    for (int32_t i = 0; i < n; i++) {
        float s = amg_pair_norm(v[i], mate[i] >= 0 ? v[mate[i]] : 0.0f);
        pw[i] = s > 0 ? v[i] / s : 1.0f;
        vc[agg[i]] = s > 0 ? s : 1.0f;
    }
    return HOMG_OK;
}

homg_status homg_cpu_amg_weight_compose(kernel_exec *ex, int32_t n, const float *pw, const int32_t *agg,
                                        const float *pw2, float *out)
{
    (void)ex;
    for (int32_t i = 0; i < n; i++)
        out[i] = pw[i] * pw2[agg[i]];
    return HOMG_OK;
}
