/* tol_check.cu -- the convergence test of a tolerance solve on the device: one thread
 * writes the last norm and the cycle count for the host's one read after the solve,
 * and sets the condition of the graph's loop (memory loop_handle) so the cycles stop
 * on the device without a host round trip per cycle. */
#include "core/cuda_check.h"
#include "grid_kernels.h"
#include "tol_check.h"

__global__ void tol_check_kernel(const double *hist, const int *count, double tol, int max_cycles,
                                 cudaGraphConditionalHandle loop, int has_loop, double *out)
{
    const int c = *count;
    const int go = homg_tol_continue(hist[c - 1], c, tol, max_cycles);
    out[HOMG_TOL_NORM] = hist[c - 1];
    out[HOMG_TOL_CYCLES] = c;
    out[HOMG_TOL_GO] = go;
    if (has_loop)
        cudaGraphSetConditional(loop, go);
}

extern "C" homg_status homg_cuda_grid_tol_check(kernel_exec *ex, const double *hist, const int *count, double tol,
                                                int max_cycles, unsigned long long loop, double *out)
{
    tol_check_kernel<<<1, 1, 0, homg_cuda_stream(ex)>>>(hist, count, tol, max_cycles, (cudaGraphConditionalHandle)loop,
                                                        loop != 0, out);
    HOMG_CUDA_LAUNCHED(ex, "tol_check_kernel");
    return HOMG_OK;
}
