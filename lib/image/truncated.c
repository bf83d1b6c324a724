/* truncated.c -- files shorter than their headers say.  stb_image reads zeros
 * past the end of BMP, PSD and TGA pixel data instead of failing, so the bytes
 * each header implies are counted here before decoding. */
#include <string.h>

#include "image/image_internal.h"

static unsigned long be(const unsigned char *p, int n)
{
    unsigned long v = 0;
    for (int i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

static unsigned long le(const unsigned char *p, int n)
{
    unsigned long v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* A BMP's file size (bytes 2..5). */
static unsigned long bmp_needed(const unsigned char *b, size_t len)
{
    return len >= 6 && b[0] == 'B' && b[1] == 'M' ? le(b + 2, 4) : 0;
}

/* A PSD's image data (raw: channels x rows x row bytes; RLE: its table of row
 * lengths and their sum) after its three length-prefixed sections. */
static unsigned long psd_needed(const unsigned char *b, size_t len)
{
    unsigned long ch, h, w, depth, at = 26, need, rows;
    if (len < 26 || memcmp(b, "8BPS", 4))
        return 0;
    ch = be(b + 12, 2), h = be(b + 14, 4), w = be(b + 18, 4), depth = be(b + 22, 2);
    for (int k = 0; k < 3; k++) { /* colour mode data, image resources, layer and mask information */
        if (at + 4 > len)
            return at + 4;
        at += 4 + be(b + at, 4);
    }
    if (at + 2 > len || h > 1u << 20 || ch > 64)
        return at + 2;
    rows = ch * h;
    if (be(b + at, 2) == 0)
        return at + 2 + rows * ((w * depth + 7) / 8);
    need = at + 2 + 2 * rows;
    if (need > len)
        return need;
    for (unsigned long r = 0; r < rows; r++)
        need += be(b + at + 2 + 2 * r, 2);
    return need;
}

/* A TGA's pixel data: w x h pixels raw, or its run-length packets walked until
 * they cover w x h.  No other format stb_image reads has a byte 1 of 0 or 1, so
 * the header fields alone say it is a TGA. */
static unsigned long tga_needed(const unsigned char *b, size_t len)
{
    unsigned long at, pixels, pb, n = 0;
    const int type = len >= 18 ? b[2] : 0;
    if (len < 18 || b[1] > 1 || !(type == 1 || type == 2 || type == 3 || type == 9 || type == 10 || type == 11))
        return 0;
    at = 18 + b[0] + (b[1] ? le(b + 5, 2) * ((b[7] + 7ul) / 8) : 0);
    pixels = le(b + 12, 2) * le(b + 14, 2);
    pb = (b[16] + 7ul) / 8;
    if (!pb)
        return 0;
    if (type < 9)
        return at + pixels * pb;
    while (n < pixels && at < len) { /* a packet: a count byte, then one pixel (a run) or count pixels */
        const unsigned long count = (b[at] & 0x7fu) + 1;
        at += 1 + (b[at] & 0x80u ? 1 : count) * pb;
        n += count;
    }
    return n < pixels ? at + 1 : at;
}

unsigned long homg__image_needed(const unsigned char *b, size_t len, const char **format)
{
    unsigned long need;
    if ((need = bmp_needed(b, len)) != 0)
        *format = "BMP header";
    else if ((need = psd_needed(b, len)) != 0)
        *format = "PSD's image data";
    else if ((need = tga_needed(b, len)) != 0)
        *format = "TGA's pixel data";
    return need;
}
