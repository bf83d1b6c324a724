/* png16.c -- 16-bit PNG output (stb_image_write writes 8-bit only): one IDAT of
 * zlib-compressed rows, filter type 0, samples big-endian (PNG spec, section 7). */
#include "image/image_internal.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

int homg__write_png16(FILE *f, const homg_image *img);

static void put32(unsigned char *p, unsigned long v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

static int chunk(FILE *f, const char *type, const unsigned char *data, size_t len)
{
    unsigned char head[8], crc[4];
    unsigned long c = crc32(0, (const Bytef *)type, 4);
    put32(head, (unsigned long)len);
    memcpy(head + 4, type, 4);
    if (len)
        c = crc32(c, data, (uInt)len);
    put32(crc, c);
    return fwrite(head, 1, 8, f) == 8 && (!len || fwrite(data, 1, len, f) == len) && fwrite(crc, 1, 4, f) == 4;
}

/* Returns 1 on success, 0 when memory ran out (write errors show in ferror). */
int homg__write_png16(FILE *f, const homg_image *img)
{
    static const unsigned char colour_type[5] = { 0, 0, 4, 2, 6 }; /* by channels */
    static const unsigned char sig[8] = { 137, 80, 78, 71, 13, 10, 26, 10 };
    size_t row = (size_t)img->width * img->channels * 2 + 1, raw_len = row * img->height;
    unsigned char ihdr[13], *raw = (unsigned char *)malloc(raw_len), *z;
    uLongf zlen = compressBound((uLong)raw_len);
    int ok;
    if (!raw || raw_len > 0xffffffffu)
        return free(raw), 0;
    for (int y = 0; y < img->height; y++) {
        const unsigned short *src =
            (const unsigned short *)((const char *)img->data + (size_t)y * homg__image_pitch(img));
        unsigned char *dst = raw + row * y;
        *dst++ = 0;
        for (size_t k = 0; k < (size_t)img->width * img->channels; k++) {
            *dst++ = (unsigned char)(src[k] >> 8);
            *dst++ = (unsigned char)src[k];
        }
    }
    z = (unsigned char *)malloc(zlen);
    if (!z || compress2(z, &zlen, raw, (uLong)raw_len, 6) != Z_OK) {
        free(raw);
        free(z);
        return 0;
    }
    free(raw);
    put32(ihdr, (unsigned long)img->width);
    put32(ihdr + 4, (unsigned long)img->height);
    ihdr[8] = 16;
    ihdr[9] = colour_type[img->channels];
    ihdr[10] = ihdr[11] = ihdr[12] = 0;
    ok = fwrite(sig, 1, 8, f) == 8 && chunk(f, "IHDR", ihdr, 13) && chunk(f, "IDAT", z, zlen) &&
         chunk(f, "IEND", NULL, 0);
    free(z);
    (void)ok; /* a failed write shows in ferror(f), which homg__finish_file reads */
    return 1;
}
