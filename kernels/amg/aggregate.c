/* aggregate.c -- CPU backend: distance-k maximal independent sets and the
 * aggregates grown from them (seed 000, 5.2.1).  Every step reads one array and
 * writes another, as the CUDA twin does, so the result is the same. */
#include "amg_common.h"
#include "amg_kernels.h"

homg_status homg_cpu_amg_mis_init(kernel_exec *ex, int32_t n, uint32_t seed, uint64_t *key)
{
    (void)ex;
    for (int32_t i = 0; i < n; i++)
        key[i] = amg_mis_key(HOMG_MIS_UNDECIDED, (uint32_t)i, seed);
    return HOMG_OK;
}

homg_status homg_cpu_amg_mis_max(kernel_exec *ex, const csr_matrix *a, const uint64_t *in, uint64_t *out)
{
    (void)ex;
#pragma omp parallel for schedule(static) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++) {
        uint64_t m = in[i];
        for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
            if (in[a->col_idx[k]] > m)
                m = in[a->col_idx[k]];
        out[i] = m;
    }
    return HOMG_OK;
}

homg_status homg_cpu_amg_mis_update(kernel_exec *ex, int32_t n, uint64_t *key, const uint64_t *kmax, int32_t *undecided)
{
    int32_t left = 0;
    (void)ex;
    for (int32_t i = 0; i < n; i++) {
        if (amg_mis_state(key[i]) != HOMG_MIS_UNDECIDED)
            continue;
        if (kmax[i] == key[i])
            key[i] = amg_mis_with_state(key[i], HOMG_MIS_IN);
        else if (amg_mis_state(kmax[i]) == HOMG_MIS_IN)
            key[i] = amg_mis_with_state(key[i], HOMG_MIS_OUT);
        else
            left++;
    }
    *undecided = left;
    return HOMG_OK;
}

homg_status homg_cpu_amg_mis_flags(kernel_exec *ex, int32_t n, const uint64_t *key, int32_t *flag)
{
    (void)ex;
    for (int32_t i = 0; i < n; i++)
        flag[i] = amg_mis_state(key[i]) == HOMG_MIS_IN;
    return HOMG_OK;
}

homg_status homg_cpu_amg_agg_from_roots(kernel_exec *ex, const csr_matrix *a, const int32_t *flag,
                                        const int32_t *root_id, int32_t *agg)
{
    (void)ex;
#pragma omp parallel for schedule(static) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++) {
        int32_t best = -1;
        if (flag[i])
            best = root_id[i];
        else
            for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
                int32_t j = a->col_idx[k];
                if (flag[j] && (best < 0 || root_id[j] < best))
                    best = root_id[j];
            }
        agg[i] = best;
    }
    return HOMG_OK;
}

homg_status homg_cpu_amg_agg_grow(kernel_exec *ex, const csr_matrix *a, const int32_t *in, int32_t *out,
                                  int32_t *unassigned)
{
    int32_t left = 0;
    (void)ex;
#pragma omp parallel for schedule(dynamic, 512) reduction(+ : left) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++) {
        int32_t best = -1, best_count = 0;
        int32_t k0 = a->row_ptr[i], k1 = a->row_ptr[i + 1];
        if (in[i] >= 0) {
            out[i] = in[i];
            continue;
        }
        /* The aggregate most assigned neighbours belong to; ties: smallest id. */
        for (int32_t k = k0; k < k1; k++) {
            int32_t g = in[a->col_idx[k]], count = 0;
            if (g < 0 || a->col_idx[k] == i)
                continue;
            for (int32_t m = k0; m < k1; m++)
                count += a->col_idx[m] != i && in[a->col_idx[m]] == g;
            if (count > best_count || (count == best_count && g < best)) {
                best = g;
                best_count = count;
            }
        }
        out[i] = best;
        left += best < 0;
    }
    *unassigned = left;
    return HOMG_OK;
}

homg_status homg_cpu_amg_agg_sizes(kernel_exec *ex, int32_t n, const int32_t *agg, int32_t nagg, int32_t *size)
{
    (void)ex;
    for (int32_t a = 0; a < nagg; a++)
        size[a] = 0;
    for (int32_t i = 0; i < n; i++)
        if (agg[i] >= 0 && agg[i] < nagg)
            size[agg[i]]++;
    return HOMG_OK;
}

homg_status homg_cpu_amg_agg_keep(kernel_exec *ex, int32_t nagg, const int32_t *size, int32_t min_size, int32_t *keep)
{
    (void)ex;
    for (int32_t a = 0; a < nagg; a++)
        keep[a] = size[a] >= min_size;
    return HOMG_OK;
}

homg_status homg_cpu_amg_agg_relabel(kernel_exec *ex, int32_t n, const int32_t *agg, const int32_t *keep,
                                     const int32_t *new_id, int32_t *out)
{
    (void)ex;
    for (int32_t i = 0; i < n; i++)
        out[i] = agg[i] >= 0 && keep[agg[i]] ? new_id[agg[i]] : -1;
    return HOMG_OK;
}

homg_status homg_cpu_amg_agg_restore(kernel_exec *ex, int32_t n, const int32_t *agg, const int32_t *cur, int32_t *keep)
{
    (void)ex;
    for (int32_t i = 0; i < n; i++)
        if (cur[i] < 0 && agg[i] >= 0)
            keep[agg[i]] = 1;
    return HOMG_OK;
}

homg_status homg_cpu_amg_agg_compose(kernel_exec *ex, int32_t n, const int32_t *inner, const int32_t *outer,
                                     int32_t *out)
{
    (void)ex;
    for (int32_t i = 0; i < n; i++)
        out[i] = outer[inner[i]];
    return HOMG_OK;
}
