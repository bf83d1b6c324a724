/* amg.c -- the CPU backend's AMG table. */
#include "amg_cpu.h"

const amg_kernels homg_cpu_amg_kernels = {
    homg_cpu_mis_init,       homg_cpu_mis_max,           homg_cpu_mis_update,     homg_cpu_mis_flags,
    homg_cpu_agg_from_roots, homg_cpu_agg_grow,          homg_cpu_agg_sizes,      homg_cpu_agg_keep,
    homg_cpu_agg_relabel,    homg_cpu_agg_restore,       homg_cpu_agg_compose,    homg_cpu_match_weights,
    homg_cpu_suitor_round,   homg_cpu_match_pairs,       homg_cpu_match_agg,      homg_cpu_match_weights_p,
    homg_cpu_weight_compose, homg_cpu_prolong_tentative, homg_cpu_gershgorin,     homg_cpu_prolong_smooth,
    homg_cpu_diag,           homg_cpu_residual,          homg_cpu_jacobi_correct, homg_cpu_jacobi_zero_residual,
    homg_cpu_cheb_step,      homg_cpu_patch_boundary,    homg_cpu_patch_smooth,   homg_cpu_patch_sort,
    homg_cpu_patch_heads,    homg_cpu_patch_index,       homg_cpu_patch_count,    homg_cpu_patch_fill,
    homg_cpu_dense_inverse,  homg_cpu_dense_apply,
};
