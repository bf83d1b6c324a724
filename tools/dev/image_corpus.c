/* image_corpus.c -- writes the seed corpus of tests/fuzz/fuzz_image.c (small
 * images made here: PNG 8/16-bit, JPEG, BMP, TGA, HDR, PSD, PGM, and truncated and
 * oversized variants).  Build and run from the repository root:
 *   cc -Ilib tools/dev/image_corpus.c -lstb -lz -o /tmp/ic && /tmp/ic tests/fuzz/corpus/image */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <stb/stb_image_write.h>

static char dir[512];
static const char *at(const char *name)
{
    static char p[600];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

static void put32(unsigned char *p, unsigned v) { p[0] = v >> 24, p[1] = v >> 16, p[2] = v >> 8, p[3] = v; }

/* A PNG whose IHDR claims w x h (no pixel data follows: the header alone). */
static void png_header_only(const char *name, unsigned w, unsigned h)
{
    unsigned char b[8 + 25] = { 137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 'I', 'H', 'D', 'R' };
    FILE *f = fopen(at(name), "wb");
    put32(b + 16, w), put32(b + 20, h);
    b[24] = 8, b[25] = 2, b[26] = b[27] = b[28] = 0;
    put32(b + 29, (unsigned)crc32(0, b + 12, 17));
    fwrite(b, 1, sizeof b, f);
    fclose(f);
}

/* A raw (uncompressed) 8-bit RGB PSD of w x h. */
static void psd(const char *name, int w, int h)
{
    unsigned char head[26] = { '8', 'B', 'P', 'S', 0, 1 }, zero[12] = { 0 };
    FILE *f = fopen(at(name), "wb");
    head[12] = 0, head[13] = 3; /* channels */
    put32(head + 14, (unsigned)h), put32(head + 18, (unsigned)w);
    head[22] = 0, head[23] = 8, head[24] = 0, head[25] = 3; /* depth 8, RGB */
    fwrite(head, 1, 26, f);
    fwrite(zero, 1, 12, f); /* colour mode data, image resources, layer and mask info: empty */
    fwrite(zero, 1, 2, f);  /* compression 0: raw */
    for (int c = 0; c < 3; c++)
        for (int k = 0; k < w * h; k++)
            fputc((k * 37 + c * 91) & 255, f);
    fclose(f);
}

static void truncate_copy(const char *from, const char *to, long keep)
{
    FILE *f = fopen(at(from), "rb"), *g;
    char buf[65536];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    g = fopen(at(to), "wb");
    fwrite(buf, 1, (size_t)keep < n ? (size_t)keep : n, g);
    fclose(g);
}

int main(int argc, char **argv)
{
    unsigned char rgb[12 * 9 * 4];
    float hdr[12 * 9 * 3];
    FILE *f;
    if (argc < 2)
        return 2;
    snprintf(dir, sizeof dir, "%s", argv[1]);
    for (int k = 0; k < 12 * 9 * 4; k++)
        rgb[k] = (unsigned char)(k * 29 + (k / 7) * 13);
    for (int k = 0; k < 12 * 9 * 3; k++)
        hdr[k] = (float)(k % 17) * 0.37f;
    stbi_write_png(at("rgb.png"), 12, 9, 3, rgb, 36);
    stbi_write_png(at("gray_alpha.png"), 12, 9, 2, rgb, 24);
    stbi_write_png(at("one.png"), 1, 1, 4, rgb, 4);
    stbi_write_bmp(at("rgb.bmp"), 12, 9, 3, rgb);
    stbi_write_tga(at("rgba.tga"), 12, 9, 4, rgb);
    stbi_write_hdr(at("rgb.hdr"), 12, 9, 3, hdr);
    stbi_write_jpg(at("rgb.jpg"), 12, 9, 3, rgb, 90);
    psd("rgb.psd", 12, 9);
    png_header_only("huge_65536.png", 65536, 65536);
    png_header_only("zero_width.png", 0, 9);
    truncate_copy("rgb.png", "truncated.png", 60);
    truncate_copy("rgb.jpg", "truncated.jpg", 200);
    truncate_copy("rgb.bmp", "truncated.bmp", 70);
    truncate_copy("rgb.psd", "truncated.psd", 100);
    f = fopen(at("gray.pgm"), "wb");
    fprintf(f, "P5\n3 2\n255\n");
    fwrite(rgb, 1, 6, f);
    fclose(f);
    f = fopen(at("garbage.bin"), "wb");
    fwrite("not an image at all", 1, 19, f);
    fclose(f);
    return 0;
}
