/* gather.cu -- the word runs' gather (fem_words) in one launch: blockIdx.y is
 * the run, a grid-stride loop over its words.  CPU twin: gather.c beside it. */
#include "core/cuda_check.h"
#include "fem_kernels.h"

#define THREADS 256

__global__ void fem_gather_words_kernel(fem_words_list list)
{
    const fem_words w = list.run[blockIdx.y];
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < w.n; i += (int64_t)gridDim.x * blockDim.x)
        w.dst[i] = w.src[i] + w.add;
}

homg_status homg_cuda_fem_gather_words(kernel_exec *ex, const fem_words_list *list)
{
    cudaStream_t s = homg_cuda_stream(ex);
    int64_t most = 0, cap = (int64_t)(ex->sm_count > 0 ? ex->sm_count : 1) * 4, blocks;
    if (list->count <= 0)
        return HOMG_OK;
    if (list->count > FEM_WORDS_MAX)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "FEM gather: %d runs, at most %d", list->count,
                              FEM_WORDS_MAX);
    for (int r = 0; r < list->count; r++)
        most = list->run[r].n > most ? list->run[r].n : most;
    blocks = (most + THREADS - 1) / THREADS;
    blocks = blocks < 1 ? 1 : blocks < cap ? blocks : cap;
    fem_gather_words_kernel<<<dim3((unsigned)blocks, (unsigned)list->count), THREADS, 0, s>>>(*list);
    HOMG_CUDA_LAUNCHED(ex, "fem_gather_words_kernel");
    return HOMG_OK;
}
