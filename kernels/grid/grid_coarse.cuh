/* grid_coarse.cuh -- the steps on the level table that the one-block coarse kernel
 * (grid_coarse.cu, table blk<T>) and the cluster one (grid_coarse_cluster.cu, table
 * clu<T>) share; S is the kernel's table in shared memory (fields L[], bc[][4]).
 * Every block holds its own copy of the faces' data, so these are block-local. */
#pragma once

#include "grid_kernels.h"

/* 1 / diagonal of a cell of level L touching e = 0, 1, 2 edges, in the storage type. */
template <typename T> __device__ __forceinline__ T coarse_idiag(const grid_level &L, int e)
{
    return (T)1 / ((T)(4 + e) * (T)L.inv_h2 + (T)L.lambda);
}

/* The top level's face data from the kernel parameter into the table (the unrolled
 * loop keeps the parameter's indices constant); the caller synchronises. */
template <typename T, typename S> __device__ __forceinline__ void coarse_load_faces(const grid_coarse &C, S &B)
{
#pragma unroll
    for (int s = 0; s < 4; s++) {
        const T *g = (const T *)C.lev[0].bc[s];
        const int len = s < 2 ? C.lev[0].ny : C.lev[0].nx;
        if (!g)
            continue;
        for (int q = threadIdx.x; q < len; q += blockDim.x)
            B.bc[0][s][q] = g[q];
        if (threadIdx.x == 0)
            B.L[0].bc[s] = B.bc[0][s];
    }
}

/* Level k's face data restricted to level k + 1 (the mean of each pair of faces). */
template <typename T, typename S> __device__ void coarse_restrict_faces(S &B, int k)
{
    for (int s = 0; s < 4; s++) {
        const int nc = (s < 2 ? B.L[k].ny : B.L[k].nx) / 2;
        const T *g = (const T *)B.L[k].bc[s];
        if (!g)
            continue;
        for (int J = threadIdx.x; J < nc; J += blockDim.x)
            B.bc[k + 1][s][J] = (T)(0.5 * ((double)g[2 * J] + (double)g[2 * J + 1]));
    }
    __syncthreads();
    if (threadIdx.x == 0)
        for (int s = 0; s < 4; s++)
            if (B.L[k].bc[s])
                B.L[k + 1].bc[s] = B.bc[k + 1][s];
    __syncthreads();
}

/* Thread 0 drops the face data of levels k.. (they now hold corrections). */
template <typename S> __device__ void coarse_clear_bc(S &B, int k, int nlev)
{
    if (threadIdx.x == 0)
        for (int j = k; j < nlev; j++)
            for (int s = 0; s < 4; s++)
                B.L[j].bc[s] = NULL;
    __syncthreads();
}
