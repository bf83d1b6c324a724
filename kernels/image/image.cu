/* image.cu -- CUDA backend of the image kernels, one thread per grid cell or
 * pixel (CPU twin: image.c; the per-pixel formulas are in image_point.h). */
#include "core/cuda_check.h"
#include "image/image_point.h"

static dim3 blocks_for(int w, int h) { return dim3((unsigned)((w + 31) / 32), (unsigned)((h + 7) / 8)); }
static const dim3 THREADS(32, 8);

#define CELL_INDEX(w, h)                           \
    int i = blockIdx.x * blockDim.x + threadIdx.x; \
    int j = blockIdx.y * blockDim.y + threadIdx.y; \
    if (i >= (w) || j >= (h))                      \
        return;

__global__ void image_setup_kernel(image_setup_args a)
{
    CELL_INDEX(a.gw, a.gh);
    setup_cell(&a, i, j);
}

__global__ void image_erode_kernel(homg_image mask, int sx, int sy, int gw, int gh, unsigned char *eroded)
{
    CELL_INDEX(gw, gh);
    eroded[(size_t)i + (size_t)gw * j] = erode_pixel(&mask, sx + i, sy + j);
}

__global__ void image_store_kernel(const void *field, homg_precision precision, int gw, int gh,
                                   const unsigned char *flags, int ox, int oy, homg_image out, int truncate)
{
    CELL_INDEX(gw, gh);
    size_t n = (size_t)gw * gh, k = (size_t)i + (size_t)gw * j;
    if ((flags && flags[k] != IMG_ACTIVE) || !img_inside(&out, ox + i, oy + j))
        return;
    for (int c = 0; c < out.channels; c++)
        img_put(&out, ox + i, oy + j, c, field_get(field, precision, k + n * c), truncate);
}

__global__ void image_smooth_kernel(homg_image img, double lambda, double scale, homg_precision precision, void *f,
                                    void *u)
{
    CELL_INDEX(img.width, img.height);
    smooth_pixel(&img, i, j, lambda, scale, precision, f, u);
}

__global__ void image_integrate_kernel(homg_image img, int normal_map, int flip_y, homg_precision precision, void *f)
{
    CELL_INDEX(img.width, img.height);
    field_put(f, precision, (size_t)i + (size_t)img.width * j, integrate_pixel(&img, i, j, normal_map, flip_y));
}

extern "C" homg_status homg_cuda_image_setup(kernel_exec *ex, const image_setup_args *a)
{
    image_setup_kernel<<<blocks_for(a->gw, a->gh), THREADS, 0, homg_cuda_stream(ex)>>>(*a);
    HOMG_CUDA_LAUNCHED(ex, "image_setup_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_image_erode(kernel_exec *ex, homg_image mask, int sx, int sy, int gw, int gh,
                                             unsigned char *eroded)
{
    image_erode_kernel<<<blocks_for(gw, gh), THREADS, 0, homg_cuda_stream(ex)>>>(mask, sx, sy, gw, gh, eroded);
    HOMG_CUDA_LAUNCHED(ex, "image_erode_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_image_store(kernel_exec *ex, const void *field, homg_precision precision, int gw,
                                             int gh, const unsigned char *flags, int ox, int oy, homg_image out,
                                             int truncate)
{
    image_store_kernel<<<blocks_for(gw, gh), THREADS, 0, homg_cuda_stream(ex)>>>(field, precision, gw, gh, flags, ox,
                                                                                 oy, out, truncate);
    HOMG_CUDA_LAUNCHED(ex, "image_store_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_image_copy(kernel_exec *ex, homg_image src, homg_image dst)
{
    size_t row = (size_t)src.width * src.channels * img_pixel_size(src.type);
    if (src.data == dst.data && img_pitch(&src) == img_pitch(&dst))
        return HOMG_OK;
    HOMG_CUDA_TRY(ex, cudaMemcpy2DAsync(dst.data, img_pitch(&dst), src.data, img_pitch(&src), row, (size_t)src.height,
                                        cudaMemcpyDeviceToDevice, homg_cuda_stream(ex)));
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_image_smooth_setup(kernel_exec *ex, homg_image img, double lambda, double scale,
                                                    homg_precision precision, void *f, void *u)
{
    image_smooth_kernel<<<blocks_for(img.width, img.height), THREADS, 0, homg_cuda_stream(ex)>>>(img, lambda, scale,
                                                                                                 precision, f, u);
    HOMG_CUDA_LAUNCHED(ex, "image_smooth_kernel");
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_image_integrate_setup(kernel_exec *ex, homg_image img, int normal_map, int flip_y,
                                                       homg_precision precision, void *f)
{
    image_integrate_kernel<<<blocks_for(img.width, img.height), THREADS, 0, homg_cuda_stream(ex)>>>(
        img, normal_map, flip_y, precision, f);
    HOMG_CUDA_LAUNCHED(ex, "image_integrate_kernel");
    return HOMG_OK;
}

extern "C" const image_kernels homg_cuda_image_kernels = { .name = "cuda", IMAGE_KERNELS(HOMG_KERNEL_CUDA_INIT) };
