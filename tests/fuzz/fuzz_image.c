/* fuzz_image.c -- libFuzzer target of the image reader (homg_image_decode: stb_image
 * behind homg's header checks).  Any input must end in a status with a message,
 * never a crash or a leak; what is accepted must have sane sizes and every pixel
 * readable.  The pixel limit is kept at 2^20 so that a 50-byte header cannot ask
 * for gigabytes past libFuzzer's malloc limit (tests/test_image_io.c checks the
 * limit itself). */
#include "fuzz.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "homg.h"

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_image: %s\n", what);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static homg_ctx *ctx;
    homg_ctx_desc d = { 0 };
    homg_image img;
    unsigned long sum = 0;
    d.backend = HOMG_BACKEND_CPU;
    if (!ctx && homg_ctx_create(&d, &ctx) != HOMG_OK)
        abort();
    for (int channels = 0; channels <= 4; channels += 3) {
        homg_status st = homg_image_decode(ctx, "fuzz", data, size, channels, (size_t)1 << 20, &img);
        if (st != HOMG_OK) {
            check(st == HOMG_ERROR_PARSE || st == HOMG_ERROR_INVALID_ARGUMENT || st == HOMG_ERROR_OUT_OF_MEMORY,
                  "status");
            check(homg_ctx_last_error(ctx)[0] != 0, "a message");
            continue;
        }
        check(img.data && img.width >= 1 && img.height >= 1 && (size_t)img.width * img.height <= (size_t)1 << 20,
              "sizes");
        check(img.channels >= 1 && img.channels <= 4 && (!channels || img.channels == channels), "channels");
        for (size_t k = 0; k < img.pitch * img.height; k++) /* every byte readable (ASan) */
            sum += ((const unsigned char *)img.data)[k];
        free(img.data);
    }
    return (int)(sum & 0);
}
