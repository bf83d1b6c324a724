/* amg.c -- the CPU backend's AMG table (the functions: aggregate.c, matching.c,
 * prolong.c, smooth.c, patch.c, coarse.c). */
#include "amg_kernels.h"

const amg_kernels homg_cpu_amg_kernels = { AMG_KERNELS(HOMG_KERNEL_CPU_INIT) };
