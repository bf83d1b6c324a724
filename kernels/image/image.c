/* image.c -- CPU backend of the image kernels (CUDA twin: image.cu; the
 * per-pixel formulas are in image_point.h). */
#include "image/image_point.h"

#include <string.h>

homg_status homg_cpu_image_setup(kernel_exec *ex, const image_setup_args *a)
{
    (void)ex;
#pragma omp parallel for schedule(static) if ((long)a->gw * a->gh > HOMG_OMP_MIN)
    for (int j = 0; j < a->gh; j++)
        for (int i = 0; i < a->gw; i++)
            setup_cell(a, i, j);
    return HOMG_OK;
}

homg_status homg_cpu_image_erode(kernel_exec *ex, homg_image mask, int sx, int sy, int gw, int gh,
                                 unsigned char *eroded)
{
    (void)ex;
#pragma omp parallel for schedule(static) if ((long)gw * gh > HOMG_OMP_MIN)
    for (int j = 0; j < gh; j++)
        for (int i = 0; i < gw; i++)
            eroded[(size_t)i + (size_t)gw * j] = erode_pixel(&mask, sx + i, sy + j);
    return HOMG_OK;
}

homg_status homg_cpu_image_store(kernel_exec *ex, const void *field, homg_precision precision, int gw, int gh,
                                 const unsigned char *flags, int ox, int oy, homg_image out, int truncate)
{
    size_t n = (size_t)gw * gh;
    (void)ex;
#pragma omp parallel for schedule(static) if ((long)gw * gh > HOMG_OMP_MIN)
    for (int j = 0; j < gh; j++)
        for (int i = 0; i < gw; i++) {
            size_t k = (size_t)i + (size_t)gw * j;
            if ((flags && flags[k] != IMG_ACTIVE) || !img_inside(&out, ox + i, oy + j))
                continue;
            for (int c = 0; c < out.channels; c++)
                img_put(&out, ox + i, oy + j, c, field_get(field, precision, k + n * c), truncate);
        }
    return HOMG_OK;
}

homg_status homg_cpu_image_copy(kernel_exec *ex, homg_image src, homg_image dst)
{
    size_t row = (size_t)src.width * src.channels * img_pixel_size(src.type);
    (void)ex;
    for (int y = 0; y < src.height; y++)
        memmove((char *)dst.data + (size_t)y * img_pitch(&dst), (const char *)src.data + (size_t)y * img_pitch(&src),
                row);
    return HOMG_OK;
}

homg_status homg_cpu_image_smooth_setup(kernel_exec *ex, homg_image img, double lambda, double scale,
                                        homg_precision precision, void *f, void *u)
{
    (void)ex;
#pragma omp parallel for schedule(static) if ((long)img.width * img.height > HOMG_OMP_MIN)
    for (int y = 0; y < img.height; y++)
        for (int x = 0; x < img.width; x++)
            smooth_pixel(&img, x, y, lambda, scale, precision, f, u);
    return HOMG_OK;
}

homg_status homg_cpu_image_integrate_setup(kernel_exec *ex, homg_image img, int normal_map, int flip_y,
                                           homg_precision precision, void *f)
{
    (void)ex;
#pragma omp parallel for schedule(static) if ((long)img.width * img.height > HOMG_OMP_MIN)
    for (int y = 0; y < img.height; y++)
        for (int x = 0; x < img.width; x++)
            field_put(f, precision, (size_t)x + (size_t)img.width * y, integrate_pixel(&img, x, y, normal_map, flip_y));
    return HOMG_OK;
}

const image_kernels homg_cpu_image_kernels = { .name = "cpu", IMAGE_KERNELS(HOMG_KERNEL_CPU_INIT) };
