/* serial.c -- the serial direct-stiffness assembly (seed 002, Algorithm 1):
 * one thread, elements in order, each entry found by binary search in its CSR
 * row.  The CPU baseline of the GPU speed-ups; it has no CUDA twin. */
#include "fem_element.h"

homg_status homg_cpu_fem_numeric_serial(kernel_exec *ex, const fem_problem *p, const fem_system *s)
{
    (void)ex;
    for (int32_t e = 0; e < p->num_elements; e++)
        fem_scatter_element(p, s, e);
    return HOMG_OK;
}
