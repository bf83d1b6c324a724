/* gen_loop.c -- CPU twins of kernels/grid/gen_loop.cu. */
#include "gen_loop.h"

homg_status homg_cpu_gen_loop_test(kernel_exec *ex, double *s, const double *hist, const int *count, double tol,
                                   int max_cycles, int every, unsigned long long loop)
{
    (void)ex;
    (void)loop; /* the CPU backend runs no graphs: its caller loops on s[GEN_LOOP_GO] */
    gen_loop_test(s, hist, count, tol, max_cycles, every);
    return HOMG_OK;
}

homg_status homg_cpu_gen_loop_branch(kernel_exec *ex, const double *s, unsigned long long restart,
                                     unsigned long long direction)
{
    (void)s;
    (void)restart;
    (void)direction;
    return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "the CPU backend has no graphs");
}
