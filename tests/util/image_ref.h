/* image_ref.h -- the image Poisson problems of lib/image written out again from
 * their definitions (Perez et al. 2003; OpenCV 4's seamlessClone source), assembled
 * as sparse matrices and solved directly in double: the tests' reference. */
#ifndef HOMG_IMAGE_REF_H
#define HOMG_IMAGE_REF_H

#include "homg.h"
#include "testutil.h"

/* A host image of random pixels (8-bit: 0..255; 16-bit; float in [0, 1]), packed
 * rows plus `pad` bytes of pitch; free(img.data). */
homg_image ref_random_image(homg_rng *r, int w, int h, int channels, homg_pixel_type type, int pad);
/* A smooth random image (sums of a few waves), so clones are not all noise. */
homg_image ref_smooth_image(homg_rng *r, int w, int h, int channels, homg_pixel_type type);
/* An 8-bit 1-channel mask of w x h from a shape: "disk_hole", "two", "one", "full", "ring", "random". */
homg_image ref_mask(const char *shape, int w, int h, homg_rng *r);
homg_image ref_image_alloc(int w, int h, int channels, homg_pixel_type type);
double ref_get(const homg_image *im, int x, int y, int c);

/* Textbook right-hand side f_p = sum_{q in N_p} v_pq at destination pixel p
 * (the definition, image_ref.c).  mode: homg_clone_mode; inpaint: v = 0. */
double ref_clone_guidance_sum(const homg_image *src, const homg_image *mask, const homg_image *dst, int x, int y,
                              int mode, int inpaint, int px, int py, int c);
/* Solutions (values in [0, 1] units, dst's size, channels planes of w*h doubles;
 * free()). Textbook clone (or inpaint) at top-left offset (x, y): */
double *ref_clone(const homg_image *src, const homg_image *mask, const homg_image *dst, int x, int y, int mode,
                  int inpaint);
/* OpenCV's: the rectangle's corner at (cx, cy) (inside dst), interior solved;
 * *rx, *ry, *rw, *rh: the rectangle in dst.  rhs (optional, rw*rh*channels): -lap. */
double *ref_clone_cv(const homg_image *src, const homg_image *mask, const homg_image *dst, int x, int y, int mode,
                     int *rx, int *ry, int *rw, int *rh, double **rhs);
double *ref_smooth(const homg_image *img, double lambda, double scale);
/* Mean-zero height from a gradient image or normal map. */
double *ref_integrate(const homg_image *img, int normal_map, int flip_y);

/* An 8-bit level as homg writes it: clamp to [0, 1], then round (or truncate). */
int ref_level(double v, int truncate);

#endif
