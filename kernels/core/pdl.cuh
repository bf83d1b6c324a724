/* pdl.cuh -- programmatic dependent launch (issue 12), shared by the grid kernels
 * (gen.cu, cube.cu, grid_fused.cu).  A kernel launched with homg_pdl_launch(..., 1, ...)
 * may start while the kernel before it in the stream finishes (a graph keeps the
 * edge); its first line, homg_pdl_wait(), waits until that kernel's writes are
 * visible and lets the next kernel launch, so the launch latency between the many
 * small kernels of a cycle overlaps the previous kernel's tail.  Both are plain
 * launches / no-ops with pdl = 0 and below sm_90. */
#ifndef HOMG_CORE_PDL_CUH
#define HOMG_CORE_PDL_CUH

#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

/* Whether the general multigrid's kernels (gen.cu, cube.cu) launch with PDL: yes unless
 * HOMG_GEN_PDL=0 (the benchmark times against it; the library documents no such
 * variable), read once per file that calls it. */
static inline int homg_pdl_gen_on(void)
{
    static int v = -1;
    if (v < 0) {
        const char *e = getenv("HOMG_GEN_PDL");
        v = !(e && !strcmp(e, "0"));
    }
    return v;
}

__device__ __forceinline__ void homg_pdl_wait(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/* An error stays for the caller's HOMG_CUDA_LAUNCHED.  shm: dynamic shared bytes. */
template <typename... K, typename... A>
static void homg_pdl_launch_shm(cudaStream_t st, dim3 grid, dim3 block, size_t shm, int pdl, void (*kernel)(K...),
                                A... args)
{
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute at[1] = {};
    cfg.gridDim = grid;
    cfg.blockDim = block;
    cfg.dynamicSmemBytes = shm;
    cfg.stream = st;
    at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[0].val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = at;
    cfg.numAttrs = pdl ? 1 : 0;
    (void)cudaLaunchKernelEx(&cfg, kernel, args...);
}

template <typename... K, typename... A>
static void homg_pdl_launch(cudaStream_t st, dim3 grid, dim3 block, int pdl, void (*kernel)(K...), A... args)
{
    homg_pdl_launch_shm(st, grid, block, 0, pdl, kernel, args...);
}

#endif
