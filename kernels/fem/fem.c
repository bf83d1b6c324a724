/* fem.c -- the CPU backend's FEM assembly table. */
#include "fem_kernels.h"

homg_status homg_cpu_fem_pattern_temp_bytes(kernel_exec *ex, size_t num_keys, int bits, size_t *bytes);
homg_status homg_cpu_fem_pattern_keys(kernel_exec *ex, const homg_fem_problem *p, int shift, uint64_t *keys,
                                      uint64_t *keys_alt, void *temp, size_t temp_bytes, int32_t *nnz);
homg_status homg_cpu_fem_pattern_csr(kernel_exec *ex, const uint64_t *keys, int32_t nnz, int shift, int32_t num_rows,
                                     int32_t *row_ptr, int32_t *col_idx);
homg_status homg_cpu_fem_numeric_serial(kernel_exec *ex, const homg_fem_problem *p, const homg_fem_system *s);
homg_status homg_cpu_fem_numeric_color(kernel_exec *ex, const homg_fem_problem *p, const homg_fem_system *s,
                                       const int32_t *elems, const int32_t *color_ptr, int32_t num_colors);
homg_status homg_cpu_fem_numeric_patch(kernel_exec *ex, const homg_fem_problem *p, const homg_fem_system *s,
                                       const homg_fem_patches *q);
size_t homg_cpu_fem_patch_scratch_bytes(kernel_exec *ex, int32_t max_nnz, int32_t max_nodes, int float32);
homg_status homg_cpu_fem_dirichlet(kernel_exec *ex, const homg_fem_system *s, const uint8_t *mask, double g,
                                   const double *g_node);

const fem_kernels homg_cpu_fem_kernels = {
    homg_cpu_fem_pattern_temp_bytes,  homg_cpu_fem_pattern_keys,  homg_cpu_fem_pattern_csr,
    homg_cpu_fem_numeric_serial,      homg_cpu_fem_numeric_color, homg_cpu_fem_numeric_patch,
    homg_cpu_fem_patch_scratch_bytes, homg_cpu_fem_dirichlet,
};
