/* fem.cu -- the CUDA backend's FEM assembly table (the functions: pattern.cu,
 * color.cu, patch.cu, dirichlet.cu; no serial scheme on the GPU). */
#include "fem_kernels.h"

/* homg_fem_create refuses the serial scheme on CUDA; this only keeps the table whole. */
homg_status homg_cuda_fem_numeric_serial(kernel_exec *ex, const fem_problem *p, const fem_system *s)
{
    return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "FEM: the serial scheme runs on the CPU backend only");
}

extern "C" const fem_kernels homg_cuda_fem_kernels = { FEM_KERNELS(HOMG_KERNEL_CUDA_INIT) };
