/* amg.cu -- the CUDA backend's AMG table. */
#include "amg_cuda.h"

extern "C" const amg_kernels homg_cuda_amg_kernels = {
    homg_cuda_mis_init,       homg_cuda_mis_max,           homg_cuda_mis_update,     homg_cuda_mis_flags,
    homg_cuda_agg_from_roots, homg_cuda_agg_grow,          homg_cuda_agg_sizes,      homg_cuda_agg_keep,
    homg_cuda_agg_relabel,    homg_cuda_agg_restore,       homg_cuda_agg_compose,    homg_cuda_match_weights,
    homg_cuda_suitor_round,   homg_cuda_match_pairs,       homg_cuda_match_agg,      homg_cuda_match_weights_p,
    homg_cuda_weight_compose, homg_cuda_prolong_tentative, homg_cuda_gershgorin,     homg_cuda_prolong_smooth,
    homg_cuda_diag,           homg_cuda_residual,          homg_cuda_jacobi_correct, homg_cuda_jacobi_zero_residual,
    homg_cuda_cheb_step,      homg_cuda_patch_boundary,    homg_cuda_patch_smooth,   homg_cuda_patch_sort,
    homg_cuda_patch_heads,    homg_cuda_patch_index,       homg_cuda_patch_count,    homg_cuda_patch_fill,
    homg_cuda_dense_inverse,  homg_cuda_dense_apply,
};
