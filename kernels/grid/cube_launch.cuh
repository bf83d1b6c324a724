/* cube_launch.cuh -- launch geometry shared by cube.cu (natural rows of four cells) and
 * cube_split.cu (a colour's rows of four, eight natural cells wide): a thread per row of
 * a plane (qx rows along x, ny along y), each marching through a chunk of kc planes;
 * the restrictions a thread per four fine rows' worth of coarse cells (cube_quad). */
#ifndef HOMG_CUBE_LAUNCH_CUH
#define HOMG_CUBE_LAUNCH_CUH

#include "core/cuda_check.h"
#include "core/pdl.cuh"

#include <stddef.h>

#define CUBE_NT 256
/* Threads to aim for (a wave of 2048 per SM on 132 SMs): fewer planes per chunk below. */
#define CUBE_THREADS   270000u
#define CUBE_MAX_CHUNK 16

/* `threads` threads in blocks of CUBE_NT, with PDL as gen.cu (HOMG_GEN_PDL=0: plain). */
template <typename... K, typename... A>
static homg_status cube_launch(kernel_exec *ex, size_t threads, const char *what, void (*kernel)(K...), A... args)
{
    homg_pdl_launch(homg_cuda_stream(ex), dim3((unsigned)((threads + CUBE_NT - 1) / CUBE_NT)), dim3(CUBE_NT),
                    homg_pdl_gen_on(), kernel, args...);
    HOMG_CUDA_LAUNCHED(ex, what);
    return HOMG_OK;
}

/* Planes per thread for `rows` rows a plane and nz planes: enough threads to fill the device, at most
 * CUBE_MAX_CHUNK. */
static inline int cube_chunk_of(size_t rows, int nz)
{
    const size_t kc = rows * (size_t)nz / CUBE_THREADS;
    return kc < 1 ? 1 : kc > CUBE_MAX_CHUNK ? CUBE_MAX_CHUNK : (int)kc;
}

/* Threads for chunks of kc planes. */
static inline size_t cube_threads_of(size_t rows, int nz, int kc) { return rows * (size_t)((nz + kc - 1) / kc); }

/* This thread's column (x0 = 4 * its row along x, j) and planes k0 .. k1-1 (kc planes a chunk; one plane
 * each: kc 1), of qx rows along x and ny along y; 0 past the end. */
__device__ __forceinline__ int cube_column_of(unsigned qx, unsigned ny, int nz, int kc, int *x0, int *j, int *k0,
                                              int *k1)
{
    const unsigned t = blockIdx.x * CUBE_NT + threadIdx.x, rows = qx * ny;
    const unsigned chunk = t / rows, r = t - chunk * rows, jj = r / qx;
    if ((int)(chunk * (unsigned)kc) >= nz)
        return 0;
    *j = (int)jj;
    *x0 = 4 * (int)(r - jj * qx);
    *k0 = (int)chunk * kc;
    *k1 = *k0 + kc < nz ? *k0 + kc : nz;
    return 1;
}

/* A restriction thread's coarse cells: x0 = 4 * its row along x (qx a coarse plane row), coarse row J of cy,
 * coarse plane Kc of nzc; 0 past the end. */
__device__ __forceinline__ int cube_quad_of(unsigned qx, unsigned cy, unsigned nzc, int *x0, int *J, int *Kc)
{
    const unsigned t = blockIdx.x * CUBE_NT + threadIdx.x, row = t / qx, a = t - row * qx;
    *J = (int)(row % cy);
    *Kc = (int)(row / cy);
    *x0 = 4 * (int)a;
    return row / cy < nzc;
}

#endif
