/* check.c -- checks of the homg_image arguments every image call takes. */
#include "image/image_internal.h"

size_t homg__pixel_size(homg_pixel_type type) { return type == HOMG_PIXEL_U8 ? 1 : type == HOMG_PIXEL_U16 ? 2 : 4; }

size_t homg__image_pitch(const homg_image *img)
{
    return img->pitch ? img->pitch : (size_t)img->width * img->channels * homg__pixel_size(img->type);
}

homg_status homg__check_image(homg_ctx *ctx, const char *fn, const char *arg, const homg_image *img, int channels)
{
    if (!img)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn, arg);
    if (!img->data)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: %s.data is NULL", fn, arg);
    if (img->width < 1 || img->height < 1 || img->width > HOMG_IMAGE_MAX_SIDE || img->height > HOMG_IMAGE_MAX_SIDE ||
        (size_t)img->width * (size_t)img->height > HOMG_IMAGE_MAX_PIXELS)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "%s: %s is %d x %d pixels: each side must be 1..%d and width*height at most 2^28", fn, arg,
                          img->width, img->height, HOMG_IMAGE_MAX_SIDE);
    if (img->channels < 1 || img->channels > 4 || (channels > 0 && img->channels != channels))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: %s.channels is %d; it must be %s", fn, arg,
                          img->channels,
                          channels == 1   ? "1"
                          : channels == 2 ? "2"
                                          : "1..4");
    if (img->type != HOMG_PIXEL_U8 && img->type != HOMG_PIXEL_U16 && img->type != HOMG_PIXEL_F32)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: %s.type is %d, not a homg_pixel_type", fn, arg,
                          (int)img->type);
    if (img->pitch && img->pitch < (size_t)img->width * img->channels * homg__pixel_size(img->type))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: %s.pitch is %zu bytes, less than a row (%zu)", fn, arg,
                          img->pitch, (size_t)img->width * img->channels * homg__pixel_size(img->type));
    if (img->pitch % homg__pixel_size(img->type))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "%s: %s.pitch is %zu bytes, not a multiple of the pixel "
                          "type's size",
                          fn, arg, img->pitch);
    return HOMG_OK;
}

homg_status homg__check_image_ctx(homg_ctx *ctx, const char *fn, const char *arg, const homg_image *img, int channels)
{
    char what[96];
    HOMG_TRY(homg__check_image(ctx, fn, arg, img, channels));
    snprintf(what, sizeof what, "%s: %s.data", fn, arg);
    return homg__check_pointer(ctx, img->data, what);
}

homg_status homg__check_same_size(homg_ctx *ctx, const char *fn, const char *a_name, const homg_image *a,
                                  const char *b_name, const homg_image *b, int same_type)
{
    if (a->width != b->width || a->height != b->height)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: %s is %d x %d but %s is %d x %d; they must match", fn,
                          b_name, b->width, b->height, a_name, a->width, a->height);
    if (same_type && (a->type != b->type || a->channels != b->channels))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "%s: %s has %d channels of type %d but %s %d of type %d; they must match", fn, b_name,
                          b->channels, (int)b->type, a_name, a->channels, (int)a->type);
    return HOMG_OK;
}

homg_status homg__check_mask(homg_ctx *ctx, const char *fn, const homg_image *mask)
{
    HOMG_TRY(homg__check_image_ctx(ctx, fn, "mask", mask, 0));
    if (mask->type != HOMG_PIXEL_U8)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: mask.type is %d; a mask is 8-bit (HOMG_PIXEL_U8)", fn,
                          (int)mask->type);
    return HOMG_OK;
}
