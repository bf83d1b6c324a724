/* gen_loop.cu -- a general (CG) tolerance solve's iterations on the device: the test
 * after each iteration (gen_loop.h) sets the loop's condition, and the branch kernel
 * at the start of the loop's body picks the restart or CG's next direction, so the
 * iterations stop and restart without a host round trip (lib/grid/general_loop.c). */
#include "core/cuda_check.h"
#include "gen_loop.h"

__global__ void gen_loop_test_kernel(double *s, const double *hist, const int *count, double tol, int max_cycles,
                                     int every, cudaGraphConditionalHandle loop, int has_loop)
{
    gen_loop_test(s, hist, count, tol, max_cycles, every);
    if (has_loop)
        cudaGraphSetConditional(loop, s[GEN_LOOP_GO] != 0);
}

__global__ void gen_loop_branch_kernel(const double *s, cudaGraphConditionalHandle restart,
                                       cudaGraphConditionalHandle direction)
{
    const int r = s[GEN_LOOP_RESTART] != 0;
    cudaGraphSetConditional(restart, r);
    cudaGraphSetConditional(direction, !r);
}

extern "C" homg_status homg_cuda_gen_loop_test(kernel_exec *ex, double *s, const double *hist, const int *count,
                                               double tol, int max_cycles, int every, unsigned long long loop)
{
    gen_loop_test_kernel<<<1, 1, 0, homg_cuda_stream(ex)>>>(s, hist, count, tol, max_cycles, every,
                                                            (cudaGraphConditionalHandle)loop, loop != 0);
    HOMG_CUDA_LAUNCHED(ex, "gen_loop_test_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_gen_loop_branch(kernel_exec *ex, const double *s, unsigned long long restart,
                                                 unsigned long long direction)
{
    gen_loop_branch_kernel<<<1, 1, 0, homg_cuda_stream(ex)>>>(s, (cudaGraphConditionalHandle)restart,
                                                              (cudaGraphConditionalHandle)direction);
    HOMG_CUDA_LAUNCHED(ex, "gen_loop_branch_kernel");
    return HOMG_OK;
}
