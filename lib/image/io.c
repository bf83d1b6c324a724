/* io.c -- image files through stb_image (PNG, JPEG, BMP, TGA, PSD, HDR, GIF, PNM
 * in) and stb_image_write (PNG, JPEG, HDR out; Debian's libstb-dev), the pixel
 * limit checked from the header before anything is allocated. */
#include "image/image_internal.h"
#include "image/image_point.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <stb/stb_image.h>
#include <stb/stb_image_write.h>

/* png16.c */
int homg__write_png16(FILE *f, const homg_image *img);

static const char *reason(void)
{
    const char *r = stbi_failure_reason();
    return r ? r : "unknown reason";
}

/* Reads the whole file (at most INT_MAX bytes, what stb's memory interface takes). */
static homg_status slurp(homg_ctx *ctx, const char *path, unsigned char **bytes, size_t *len)
{
    FILE *f = fopen(path, "rb");
    long size;
    if (!f)
        return homg__fail(ctx, HOMG_ERROR_IO, "%s: cannot open: %s", path, strerror(errno));
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return homg__fail(ctx, HOMG_ERROR_IO, "%s: cannot read (not a regular file?)", path);
    }
    if (size == 0 || size > INT_MAX) {
        fclose(f);
        return homg__fail(ctx, size ? HOMG_ERROR_IO : HOMG_ERROR_PARSE, "%s: %ld bytes: %s", path, size,
                          size ? "larger than 2 GiB, the most stb_image reads" : "the file is empty");
    }
    *bytes = (unsigned char *)homg__host_alloc(ctx, (size_t)size, path);
    if (!*bytes) {
        fclose(f);
        return HOMG_ERROR_OUT_OF_MEMORY;
    }
    *len = fread(*bytes, 1, (size_t)size, f);
    fclose(f);
    if (*len != (size_t)size) {
        free(*bytes);
        return homg__fail(ctx, HOMG_ERROR_IO, "%s: read %zu of %ld bytes", path, *len, size);
    }
    return HOMG_OK;
}

/* stb refuses some headers (sizes past its own limits) with a reason the probes
 * of the other formats overwrite: a PNG's IHDR read here gives the message. */
static int png_header(const unsigned char *b, size_t len, unsigned long *w, unsigned long *h)
{
    static const unsigned char sig[8] = { 137, 80, 78, 71, 13, 10, 26, 10 };
    if (len < 24 || memcmp(b, sig, 8) || memcmp(b + 12, "IHDR", 4))
        return 0;
    *w = (unsigned long)b[16] << 24 | (unsigned long)b[17] << 16 | (unsigned long)b[18] << 8 | b[19];
    *h = (unsigned long)b[20] << 24 | (unsigned long)b[21] << 16 | (unsigned long)b[22] << 8 | b[23];
    return 1;
}

static homg_status too_large(homg_ctx *ctx, const char *name, unsigned long w, unsigned long h, size_t max_pixels)
{
    return homg__fail(ctx, HOMG_ERROR_PARSE,
                      "%s: the header says %lu x %lu pixels: %s (the limit: %zu pixels, sides 1..%d)", name, w, h,
                      w && h ? "too large" : "an empty image", max_pixels, HOMG_IMAGE_MAX_SIDE);
}

homg_status homg_image_decode(homg_ctx *ctx, const char *name, const void *bytes, size_t len, int channels,
                              size_t max_pixels, homg_image *img)
{
    int w, h, comp, want;
    const stbi_uc *b = (const stbi_uc *)bytes;
    void *data;
    HOMG_TRY(homg__begin(ctx, "homg_image_decode", !name ? "name" : !bytes ? "bytes" : !img ? "img" : NULL));
    memset(img, 0, sizeof *img);
    if (channels < 0 || channels > 4)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_image_decode: channels is %d; it must be 0..4",
                          channels);
    if (len == 0 || len > INT_MAX)
        return homg__fail(ctx, HOMG_ERROR_PARSE, "%s: %zu bytes: not an image stb_image can read", name, len);
    if (!max_pixels || max_pixels > HOMG_IMAGE_MAX_PIXELS)
        max_pixels = HOMG_IMAGE_MAX_PIXELS;
    if (!stbi_info_from_memory(b, (int)len, &w, &h, &comp)) {
        unsigned long pw, ph;
        if (png_header(b, len, &pw, &ph) &&
            (!pw || !ph || pw > HOMG_IMAGE_MAX_SIDE || ph > HOMG_IMAGE_MAX_SIDE || pw * ph > max_pixels))
            return too_large(ctx, name, pw, ph, max_pixels);
        return homg__fail(ctx, HOMG_ERROR_PARSE, "%s: not a readable image (stb_image: %s)", name, reason());
    }
    if (w < 1 || h < 1 || w > HOMG_IMAGE_MAX_SIDE || h > HOMG_IMAGE_MAX_SIDE || (size_t)w * (size_t)h > max_pixels)
        return too_large(ctx, name, (unsigned long)w, (unsigned long)h, max_pixels);
    {
        const char *what = NULL;
        const unsigned long need = homg__image_needed(b, len, &what);
        if (need > len)
            return homg__fail(ctx, HOMG_ERROR_PARSE, "%s: truncated: the %s needs %lu bytes, there are %zu", name, what,
                              need, len);
    }
    want = channels ? channels : comp;
    if (stbi_is_hdr_from_memory(b, (int)len)) {
        if (homg__hdr_hangs_stb(b, len, w, h))
            return homg__fail(ctx, HOMG_ERROR_PARSE,
                              "%s: corrupt HDR: a run-length scanline has a count of 0 or ends before the data does",
                              name);
        data = stbi_loadf_from_memory(b, (int)len, &w, &h, &comp, want);
        img->type = HOMG_PIXEL_F32;
    } else if (stbi_is_16_bit_from_memory(b, (int)len)) {
        data = stbi_load_16_from_memory(b, (int)len, &w, &h, &comp, want);
        img->type = HOMG_PIXEL_U16;
    } else {
        data = stbi_load_from_memory(b, (int)len, &w, &h, &comp, want);
        img->type = HOMG_PIXEL_U8;
    }
    if (!data)
        return homg__fail(ctx, HOMG_ERROR_PARSE, "%s: cannot decode (stb_image: %s)", name, reason());
    img->data = data;
    img->width = w;
    img->height = h;
    img->channels = want;
    img->pitch = (size_t)w * want * homg__pixel_size(img->type);
    return HOMG_OK;
}

homg_status homg_image_read(homg_ctx *ctx, const char *path, int channels, size_t max_pixels, homg_image *img)
{
    unsigned char *bytes = NULL;
    size_t len = 0;
    homg_status st;
    HOMG_TRY(homg__begin(ctx, "homg_image_read", !path ? "path" : !img ? "img" : NULL));
    memset(img, 0, sizeof *img);
    HOMG_TRY(slurp(ctx, path, &bytes, &len));
    st = homg_image_decode(ctx, path, bytes, len, channels, max_pixels, img);
    free(bytes);
    return st;
}

static int has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    return n > e && !strcasecmp(path + n - e, ext);
}

static void write_to_file(void *file, void *data, int size) { fwrite(data, 1, (size_t)size, (FILE *)file); }

/* A packed copy of img with `type` pixels (integer types clamped and rounded). */
static void *convert(homg_ctx *ctx, const homg_image *img, homg_pixel_type type)
{
    homg_image out = { 0 };
    size_t n = (size_t)img->width * img->height * img->channels;
    out.data = homg__host_array(ctx, n, homg__pixel_size(type), "homg_image_write");
    if (!out.data)
        return NULL;
    out.width = img->width;
    out.height = img->height;
    out.channels = img->channels;
    out.type = type;
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++)
            for (int c = 0; c < img->channels; c++)
                img_put(&out, x, y, c, img_get(img, x, y, c), 0);
    return out.data;
}

static int encode(FILE *f, const char *path, const homg_image *img, const void *data)
{
    int w = img->width, h = img->height, n = img->channels;
    homg_image packed = *img;
    if (has_ext(path, ".hdr"))
        return stbi_write_hdr_to_func(write_to_file, f, w, h, n, (const float *)data);
    if (has_ext(path, ".jpg") || has_ext(path, ".jpeg"))
        return stbi_write_jpg_to_func(write_to_file, f, w, h, n, data, 95);
    packed.data = (void *)data;
    packed.pitch = 0;
    if (img->type == HOMG_PIXEL_U16)
        return homg__write_png16(f, &packed);
    return stbi_write_png_to_func(write_to_file, f, w, h, n, data, (int)homg__image_pitch(&packed));
}

homg_status homg_image_write(homg_ctx *ctx, const char *path, const homg_image *img)
{
    homg_pixel_type type;
    void *data;
    FILE *f;
    int ok;
    HOMG_TRY(homg__begin(ctx, "homg_image_write", !path ? "path" : NULL));
    HOMG_TRY(homg__check_image(ctx, "homg_image_write", "img", img, 0));
    if (has_ext(path, ".hdr"))
        type = HOMG_PIXEL_F32;
    else if (has_ext(path, ".jpg") || has_ext(path, ".jpeg"))
        type = HOMG_PIXEL_U8;
    else if (has_ext(path, ".png"))
        type = img->type == HOMG_PIXEL_U16 ? HOMG_PIXEL_U16 : HOMG_PIXEL_U8;
    else
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_image_write: %s: unknown extension (write .png, .jpg, .jpeg or .hdr)", path);
    if (type == HOMG_PIXEL_F32 && img->channels != 1 && img->channels != 3 && img->channels != 4)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_image_write: %s: HDR takes 1, 3 or 4 channels, not %d", path, img->channels);
    data = convert(ctx, img, type);
    if (!data)
        return HOMG_ERROR_OUT_OF_MEMORY;
    f = fopen(path, "wb");
    if (!f) {
        free(data);
        return homg__fail(ctx, HOMG_ERROR_IO, "%s: cannot create: %s", path, strerror(errno));
    }
    ok = encode(f, path, img, data);
    free(data);
    if (!ok) {
        fclose(f);
        homg__remove_partial(path);
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "%s: the encoder failed (out of memory)", path);
    }
    return homg__finish_file(ctx, path, f);
}
