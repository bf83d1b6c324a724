/* image_internal.h -- what lib/image's files share: checks of homg_image
 * arguments and the plumbing of a grid solve over (part of) an image. */
#ifndef HOMG_IMAGE_INTERNAL_H
#define HOMG_IMAGE_INTERNAL_H

#include "core/internal.h"
#include "image/image_kernels.h"

/* Largest image side and pixel count the calls accept (2^16, 2^28). */
#define HOMG_IMAGE_MAX_SIDE   65536
#define HOMG_IMAGE_MAX_PIXELS ((size_t)1 << 28)

size_t homg__pixel_size(homg_pixel_type type);

/* hdr.c: 1 when stb_image would loop for ever on this Radiance HDR file of
 * w x h pixels (a run count of 0 in its RLE data, or the data cut short). */
int homg__hdr_hangs_stb(const unsigned char *b, size_t len, int w, int h);
/* truncated.c: the bytes a BMP, PSD or TGA header implies the file holds (0: not one
 * of those), *format naming what needs them, for "truncated" messages. */
unsigned long homg__image_needed(const unsigned char *b, size_t len, const char **format);
/* img->pitch, or the packed row size when it is 0. */
size_t homg__image_pitch(const homg_image *img);
/* NULL image or data, sizes out of 1..65536 (or more than 2^28 pixels), channels
 * out of 1..4 (or not `channels` when that is > 0), an unknown type or a pitch
 * smaller than a row: INVALID_ARGUMENT "<fn>: <arg>.<field> ...". */
homg_status homg__check_image(homg_ctx *ctx, const char *fn, const char *arg, const homg_image *img, int channels);
/* The same and a data pointer the ctx's backend can use. */
homg_status homg__check_image_ctx(homg_ctx *ctx, const char *fn, const char *arg, const homg_image *img, int channels);
/* b has a's width and height (and type when same_type): else INVALID_ARGUMENT naming both. */
homg_status homg__check_same_size(homg_ctx *ctx, const char *fn, const char *a_name, const homg_image *a,
                                  const char *b_name, const homg_image *b, int same_type);
/* A mask image: 8-bit (any channels; the first is read). */
homg_status homg__check_mask(homg_ctx *ctx, const char *fn, const homg_image *mask);

/* Solve knobs shared by the image calls. */
typedef struct image_solve {
    double tol;
    int max_cycles;
    homg_precision precision;
} image_solve;

/* A grid over gw x gh cells with nrhs fields, Neumann (zero flux) sides, h = 1,
 * and its arrays f, u (nrhs planes) and flags (when with_flags). */
typedef struct image_grid {
    homg_ctx *ctx;
    homg_grid *grid;
    int gw, gh, nrhs;
    homg_precision precision;
    void *f, *u;
    unsigned char *flags;
    int op_ready;   /* the grid has g->flags' operator (set_operator is skipped until cleared) */
    int no_islands; /* every active set touches a FIXED cell (homg_grid_operator.no_islands) */
} image_grid;

homg_status homg__image_grid_create(homg_ctx *ctx, int gw, int gh, int nrhs, homg_precision precision, int with_flags,
                                    image_grid *g);
void homg__image_grid_destroy(image_grid *g);
/* Sets lambda and g->flags (if any) as the operator unless g->op_ready, and
 * solves with warm start. */
homg_status homg__image_grid_solve(image_grid *g, double lambda, const image_solve *s, homg_image_info *info);

/* Host wall clock, ms (info.time_ms). */
double homg__image_now_ms(void);

#endif
