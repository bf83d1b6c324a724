/* fuzz_mtx_gz.c -- libFuzzer target of the Matrix Market file reader on gzip files
 * (homg_mtx_read and homg_mtx_read_vector of a .mtx.gz).  An input that starts with
 * the gzip magic bytes is written as it is (a corrupt, cut or concatenated stream);
 * any other input is gzip-compressed first (its text goes through the inflater).
 * Every input ends in a status with a message naming the file, never a crash or a
 * leak; an accepted matrix is a valid sorted CSR with finite values. */
#include "fuzz.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "fuzz_check.h"
#include "homg.h"

#define MAX_TEXT (1 << 22) /* inflated inputs beyond this are skipped (libFuzzer's memory limit) */

/* The text a gzip stream inflates to (concatenated members too, as zlib's gzread
 * reads them), in *out; 0 when it is past MAX_TEXT or no gzip at all. */
static size_t inflate_all(const uint8_t *data, size_t size, uint8_t *out)
{
    z_stream z;
    size_t n = 0;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 15 + 32) != Z_OK)
        return 0;
    z.next_in = (Bytef *)data;
    z.avail_in = (uInt)size;
    for (;;) {
        int rc;
        z.next_out = out + n;
        z.avail_out = (uInt)(MAX_TEXT - n);
        rc = inflate(&z, Z_NO_FLUSH);
        n = MAX_TEXT - z.avail_out;
        if (rc == Z_STREAM_END && z.avail_in > 0 && n < MAX_TEXT) {
            inflateReset(&z); /* the next member */
            continue;
        }
        if (rc != Z_OK || n == MAX_TEXT)
            break;
    }
    inflateEnd(&z);
    return n < MAX_TEXT ? n : 0;
}

/* data gzip-compressed into *out (malloc'ed); its length. */
static size_t gzip_memory(const uint8_t *data, size_t size, uint8_t **out)
{
    z_stream z;
    size_t cap = compressBound((uLong)size) + 64;
    memset(&z, 0, sizeof z);
    *out = (uint8_t *)malloc(cap);
    if (!*out || deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        abort();
    z.next_in = (Bytef *)data;
    z.avail_in = (uInt)size;
    z.next_out = *out;
    z.avail_out = (uInt)cap;
    if (deflate(&z, Z_FINISH) != Z_STREAM_END)
        abort();
    deflateEnd(&z);
    return cap - z.avail_out;
}

static void check_status(homg_ctx *ctx, homg_status st, const char *path)
{
    if (st == HOMG_ERROR_IO)
        check(strncmp(homg_ctx_last_error(ctx), path, strlen(path)) == 0, "I/O message names the file");
    else
        check_message(ctx, st, path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static homg_ctx *ctx; /* made once; reachable until exit, so no leak report */
    static uint8_t *text;
    char path[64];
    uint8_t *gz = NULL;
    size_t gz_len = size, text_len;
    homg_host_csr m;
    double *v;
    int32_t n;
    homg_status st;
    FILE *f;
    if (!ctx) {
        homg_ctx_desc d;
        memset(&d, 0, sizeof d);
        d.backend = HOMG_BACKEND_CPU;
        if (homg_ctx_create(&d, &ctx) != HOMG_OK || !(text = (uint8_t *)malloc(MAX_TEXT)))
            abort();
    }
    if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) {
        text_len = inflate_all(data, size, text);
        if (text_len == 0 && size > 64)
            return 0; /* past MAX_TEXT (or no stream): the reader would hold it all */
        if (declares_huge_matrix(text, text_len))
            return 0;
    } else {
        if (declares_huge_matrix(data, size))
            return 0;
        gz_len = gzip_memory(data, size, &gz);
    }
    snprintf(path, sizeof path, "/tmp/fuzz_mtx_gz_%ld.mtx.gz", (long)getpid());
    f = fopen(path, "wb");
    if (!f || fwrite(gz ? gz : data, 1, gz_len, f) != gz_len || fclose(f) != 0)
        abort();
    free(gz);

    st = homg_mtx_read(ctx, path, &m);
    check_status(ctx, st, path);
    if (st == HOMG_OK) {
        check_csr(&m);
        homg_host_csr_free(&m);
    } else {
        check(m.row_ptr == NULL && m.col_idx == NULL && m.values == NULL, "nothing returned on failure");
    }
    st = homg_mtx_read_vector(ctx, path, &v, &n);
    check_status(ctx, st, path);
    check_vector(st, v, n);
    remove(path);
    return 0;
}
