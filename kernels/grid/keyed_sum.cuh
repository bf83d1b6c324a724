/* keyed_sum.cuh -- sums per key (island label, root) without one atomic per
 * cell: each thread keeps a running (key, value) over its grid-stride cells and
 * flushes it when the key changes; at the end, warps and then the block whose
 * threads share a key add once.  One big island costs one atomic per block
 * instead of one per cell (233 us -> a few us for 4M cells on the H100).
 * V needs operator+ and keyed_shfl_down; flush(key, v) does the atomic(s). */
#ifndef HOMG_KEYED_SUM_CUH
#define HOMG_KEYED_SUM_CUH

__device__ static inline double keyed_shfl_down(double v, int o) { return __shfl_down_sync(0xFFFFFFFFu, v, o); }

template <typename V, typename F> struct keyed_sum {
    int key;
    V v;
    F flush;
    __device__ keyed_sum(F f, V zero) : key(-1), v(zero), flush(f) {}
    /* Adds x under key k (k < 0: nothing). */
    __device__ void add(int k, V x, V zero)
    {
        if (k < 0)
            return;
        if (k != key) {
            if (key >= 0)
                flush(key, v);
            key = k, v = zero;
        }
        v = v + x;
    }
    /* Call once by every thread of the block (blockDim.x <= 1024). */
    __device__ void finish(V zero)
    {
        __shared__ int keys[32];
        __shared__ V vals[32];
        int lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = (blockDim.x + 31) >> 5;
        int k0 = __shfl_sync(0xFFFFFFFFu, key, 0);
        if (__all_sync(0xFFFFFFFFu, key == k0)) {
            V s = v;
            for (int o = 16; o > 0; o >>= 1)
                s = s + keyed_shfl_down(s, o);
            if (lane == 0)
                keys[w] = k0, vals[w] = s;
        } else {
            if (key >= 0)
                flush(key, v);
            if (lane == 0)
                keys[w] = -1;
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            int k = -1;
            V s = zero;
            for (int i = 0; i < nw; i++) {
                if (keys[i] != k) {
                    if (k >= 0)
                        flush(k, s);
                    k = keys[i], s = zero;
                }
                if (k >= 0)
                    s = s + vals[i];
            }
            if (k >= 0)
                flush(k, s);
        }
    }
};

#endif
