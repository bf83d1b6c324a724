/* fem.c -- the CPU backend's FEM assembly table (the functions: pattern.c,
 * serial.c, color.c, patch.c, dirichlet.c). */
#include "fem_kernels.h"

const fem_kernels homg_cpu_fem_kernels = { FEM_KERNELS(HOMG_KERNEL_CPU_INIT) };
