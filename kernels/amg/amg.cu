/* amg.cu -- the CUDA backend's AMG table (the functions: aggregate.cu,
 * matching.cu, prolong.cu, smooth.cu, patch.cu, coarse.cu). */
#include "amg_kernels.h"

extern "C" const amg_kernels homg_cuda_amg_kernels = { AMG_KERNELS(HOMG_KERNEL_CUDA_INIT) };
