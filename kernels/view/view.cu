/* view.cu -- CUDA backend of the view: the write and range kernels (CPU twin:
 * view.c).  A write is one pass over the picture, a range one more (plus a
 * one-thread reset); both read the field through view_src's strides, so a plane
 * of a 3D field needs no copy. */
#include "core/cuda_check.h"
#include "view/colormap.h"
#include "view/view_kernels.h"

__constant__ unsigned char view_stops[VIEW_COLORMAP_NUM_STOPS][3] = VIEW_COLORMAP_STOPS;

template <typename T> __device__ __forceinline__ float view_value(const view_src &s, int64_t i, int64_t j)
{
    return (float)((const T *)s.values)[s.offset + i * s.sx + j * s.sy];
}

template <typename T, int RGBA8> __global__ void view_write_kernel(view_src s, view_dst d)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int64_t j = (int64_t)blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= s.w || j >= s.h)
        return;
    float v = view_value<T>(s, i, j);
    size_t k = (size_t)s.w * (size_t)j + (size_t)i;
    if (!RGBA8) {
        if (d.ptr)
            ((float *)d.ptr)[k] = v;
        else
            surf2Dwrite(v, (cudaSurfaceObject_t)d.surface, (int)i * 4, (int)j);
        return;
    }
    float lo = d.lo, hi = d.hi;
    if (d.range)
        view_range_read(d.range, &lo, &hi);
    uint32_t c = view_colour(view_stops, v, lo, hi);
    if (d.ptr)
        ((uint32_t *)d.ptr)[k] = c;
    else
        surf2Dwrite(make_uchar4(c & 255, (c >> 8) & 255, (c >> 16) & 255, c >> 24), (cudaSurfaceObject_t)d.surface,
                    (int)i * 4, (int)j);
}

__global__ void view_range_reset(int32_t *range)
{
    range[0] = VIEW_RANGE_EMPTY_LO;
    range[1] = VIEW_RANGE_EMPTY_HI;
}

/* Grid-stride min/max of the finite values, reduced per warp and per block,
 * then one atomic pair per block. */
template <typename T> __global__ void view_range_kernel(view_src s, int32_t *range)
{
    __shared__ int32_t slo[32], shi[32];
    int32_t lo = VIEW_RANGE_EMPTY_LO, hi = VIEW_RANGE_EMPTY_HI;
    int64_t n = (int64_t)s.w * s.h;
    for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += (int64_t)gridDim.x * blockDim.x) {
        float v = view_value<T>(s, k % s.w, k / s.w);
        if (isfinite(v)) {
            int32_t key = view_float_key(v);
            lo = min(lo, key);
            hi = max(hi, key);
        }
    }
    for (int o = 16; o > 0; o >>= 1) {
        lo = min(lo, __shfl_xor_sync(0xffffffffu, lo, o));
        hi = max(hi, __shfl_xor_sync(0xffffffffu, hi, o));
    }
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
    if (lane == 0) {
        slo[warp] = lo;
        shi[warp] = hi;
    }
    __syncthreads();
    if (warp == 0) {
        lo = lane < warps ? slo[lane] : VIEW_RANGE_EMPTY_LO;
        hi = lane < warps ? shi[lane] : VIEW_RANGE_EMPTY_HI;
        for (int o = 16; o > 0; o >>= 1) {
            lo = min(lo, __shfl_xor_sync(0xffffffffu, lo, o));
            hi = max(hi, __shfl_xor_sync(0xffffffffu, hi, o));
        }
        if (lane == 0) {
            atomicMin(&range[0], lo);
            atomicMax(&range[1], hi);
        }
    }
}

extern "C" homg_status homg_cuda_view_range(kernel_exec *ex, const view_src *src, int32_t *range)
{
    cudaStream_t st = homg_cuda_stream(ex);
    int64_t n = (int64_t)src->w * src->h;
    int threads = 256;
    int64_t want = (n + threads * 8 - 1) / (threads * 8); /* about 8 values per thread */
    unsigned blocks = (unsigned)(want < 1 ? 1 : want > 4L * ex->sm_count * 8 ? 4L * ex->sm_count * 8 : want);
    view_range_reset<<<1, 1, 0, st>>>(range);
    HOMG_CUDA_LAUNCHED(ex, "view_range_reset");
    if (n == 0)
        return HOMG_OK;
    if (src->precision == HOMG_FLOAT64)
        view_range_kernel<double><<<blocks, threads, 0, st>>>(*src, range);
    else
        view_range_kernel<float><<<blocks, threads, 0, st>>>(*src, range);
    HOMG_CUDA_LAUNCHED(ex, "view_range_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_view_write(kernel_exec *ex, const view_src *src, const view_dst *dst)
{
    cudaStream_t st = homg_cuda_stream(ex);
    dim3 block = src->h == 1 ? dim3(256, 1) : dim3(32, 8);
    dim3 grid((unsigned)((src->w + block.x - 1) / block.x), (unsigned)((src->h + block.y - 1) / block.y));
    if (src->w <= 0 || src->h <= 0)
        return HOMG_OK;
    if (grid.y > 65535)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "view_write: %d rows are too many", (int)src->h);
    int f64 = src->precision == HOMG_FLOAT64;
    if (dst->rgba8) {
        if (f64)
            view_write_kernel<double, 1><<<grid, block, 0, st>>>(*src, *dst);
        else
            view_write_kernel<float, 1><<<grid, block, 0, st>>>(*src, *dst);
    } else {
        if (f64)
            view_write_kernel<double, 0><<<grid, block, 0, st>>>(*src, *dst);
        else
            view_write_kernel<float, 0><<<grid, block, 0, st>>>(*src, *dst);
    }
    HOMG_CUDA_LAUNCHED(ex, "view_write_kernel");
    return HOMG_OK;
}
