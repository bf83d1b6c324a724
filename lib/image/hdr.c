/* hdr.c -- a check of Radiance HDR pixel data before stb_image decodes it.
 *
 * stb_image's RLE scanline decoder (Debian's libstb, stbi__hdr_load) loops
 * for ever on a run count of 0: it neither advances nor fails, and past the
 * end of the data every count reads as 0, so any RLE file cut inside a
 * scanline hangs the caller (found by fuzz_image, 2026-11-26).  This walks
 * the scanlines as stb would, reading 0 past the end as stb does, and says
 * whether stb would meet such a count.  Flat (non-RLE) data and the errors
 * stb reports itself are left to stb. */
#include "image/image_internal.h"

typedef struct reader {
    const unsigned char *b;
    size_t len, at;
} reader;

static int get8(reader *r) { return r->at < r->len ? r->b[r->at++] : (r->at++, 0); }

/* The offset of the pixel data: after the header's empty line (for stb, a
 * line that starts with a NUL is one too) and the resolution line that
 * follows it; len when there is none. */
static size_t data_start(const unsigned char *b, size_t len)
{
    size_t p = 0;
    int lines = 0;
    while (p < len) {
        size_t e = p;
        while (e < len && b[e] != '\n')
            e++;
        if (e == len)
            return len;
        if (lines > 0 && (e == p || b[p] == 0)) { /* stb's empty token (a NUL counts): the resolution line next */
            for (p = e + 1; p < len && b[p] != '\n'; p++)
                ;
            return p < len ? p + 1 : len;
        }
        lines++;
        p = e + 1;
    }
    return len;
}

/* One RLE scanline of width w from r: 1 when stb would hang in it, -1 when it
 * takes another path (flat data, an error of its own), 0 when it decodes. */
static int scanline_hangs(reader *r, int w)
{
    int c1 = get8(r), c2 = get8(r), hi = get8(r);
    if (c1 != 2 || c2 != 2 || (hi & 0x80) || ((hi << 8) | get8(r)) != w)
        return -1;
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < w;) {
            int count = get8(r);
            if (count > 128) {
                get8(r);
                count -= 128;
            } else {
                if (count == 0)
                    return 1;
                r->at += (size_t)count;
            }
            if (count > w - i)
                return -1;
            i += count;
        }
    return 0;
}

int homg__hdr_hangs_stb(const unsigned char *b, size_t len, int w, int h)
{
    reader r;
    r.b = b;
    r.len = len;
    r.at = data_start(b, len);
    if (w < 8 || w >= 32768) /* stb reads such widths flat */
        return 0;
    for (int j = 0; j < h; j++) {
        int s = scanline_hangs(&r, w);
        if (s)
            return s > 0;
    }
    return 0;
}
