/* image_kernels.h -- what lib/image asks of a backend: the right-hand sides,
 * cell flags and fixed values of the image Poisson problems (cloning,
 * inpainting, smoothing, integration) on a grid laid over part of an image, and
 * writing a grid field back into an image.  The per-pixel formulas are in
 * image_point.h, shared word for word by image.c (CPU) and image.cu (CUDA). */
#ifndef HOMG_IMAGE_KERNELS_H
#define HOMG_IMAGE_KERNELS_H

#include "kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which problem image_setup builds (lib/image/image.c states them). */
typedef enum image_problem {
    IMAGE_CLONE = 0, /* Perez et al.: unknowns at the mask, guidance by mode, the rest fixed */
    IMAGE_CLONE_CV,  /* OpenCV's: unknowns inside the grid's rectangle, its frame fixed */
    IMAGE_INPAINT    /* IMAGE_CLONE with zero guidance (src unused) */
} image_problem;

/* A grid of gw x gh cells laid over the destination: cell (i, j) is destination
 * pixel (ox + i, oy + j) and source pixel (sx + i, sy + j).  Cells beyond the
 * destination are SOLID.  Outputs: flags (gw*gh), f and u (nrhs = dst channels
 * planes of gw*gh values of `precision`); u is written at FIXED cells always and
 * at ACTIVE cells only when init_active: the destination's value, or with
 * start_src (IMAGE_CLONE) the source's, the guidance's own image (clone_start). */
typedef struct image_setup_args {
    image_problem problem;
    int mode; /* homg_clone_mode */
    homg_image src, mask, dst;
    const unsigned char *eroded; /* IMAGE_CLONE_CV: gw*gh, 1 where OpenCV's eroded mask is set */
    int gw, gh, ox, oy, sx, sy;
    homg_precision precision;
    int init_active, start_src;
    unsigned char *flags;
    void *f, *u;
} image_setup_args;

#define IMAGE_KERNELS(X)                                                                                           \
    X(homg_status, image, setup, (kernel_exec * ex, const image_setup_args *a))                                    \
    /* eroded[i + gw j] = OpenCV's mask (frame zeroed) eroded by a 7 x 7 square at source pixel (sx+i, sy+j) */    \
    X(homg_status, image, erode,                                                                                   \
      (kernel_exec * ex, homg_image mask, int sx, int sy, int gw, int gh, unsigned char *eroded))                  \
    /* out pixel (ox+i, oy+j) = field cell (i, j) (plane c for channel c) where flags is NULL or ACTIVE */         \
    X(homg_status, image, store,                                                                                   \
      (kernel_exec * ex, const void *field, homg_precision precision, int gw, int gh, const unsigned char *flags,  \
       int ox, int oy, homg_image out, int truncate))                                                              \
    /* dst = src, same size, channels and type, any pitches */                                                     \
    X(homg_status, image, copy, (kernel_exec * ex, homg_image src, homg_image dst))                                \
    /* f = lambda img + scale A img, u = img (grid = the image, planar) */                                         \
    X(homg_status, image, smooth_setup,                                                                            \
      (kernel_exec * ex, homg_image img, double lambda, double scale, homg_precision precision, void *f, void *u)) \
    /* f = -div g (edge averages of the per-pixel gradient; Neumann sides) */                                      \
    X(homg_status, image, integrate_setup,                                                                         \
      (kernel_exec * ex, homg_image img, int normal_map, int flip_y, homg_precision precision, void *f))

typedef struct image_kernels {
    const char *name;
    IMAGE_KERNELS(HOMG_KERNEL_MEMBER)
} image_kernels;
IMAGE_KERNELS(HOMG_KERNEL_CPU_PROTO)
extern const image_kernels homg_cpu_image_kernels;
#if HOMG_HAVE_CUDA
IMAGE_KERNELS(HOMG_KERNEL_CUDA_PROTO)
extern const image_kernels homg_cuda_image_kernels;
#endif

#ifdef __cplusplus
}
#endif
#endif /* HOMG_IMAGE_KERNELS_H */
