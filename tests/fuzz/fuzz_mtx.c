/* fuzz_mtx.c -- libFuzzer target of the Matrix Market reader (homg_mtx_parse and
 * homg_mtx_parse_vector).  Any input must end in a status with a message, never
 * a crash or a leak; what is accepted must be a valid sorted CSR with finite
 * values, and must read back the same after homg_mtx_write. */
#include "fuzz.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <unistd.h>

#include "homg.h"

static int is_blank(uint8_t c) { return c == ' ' || c == '\t'; }

/* Non-zero when the size line declares 1e6 rows or columns or more: the row
 * pointers (nrows + 1) are as large as the matrix the file declares, so a
 * 30-byte input could ask for gigabytes, past libFuzzer's malloc limit (large
 * sizes are covered by tests/test_mtx.c).  Lines are found as the reader finds
 * them: LF or CRLF, the banner first, then the first line that is neither blank
 * nor a % comment.  The declared entry count stays fuzzed: it must never cost
 * memory by itself. */
static int declares_huge_matrix(const uint8_t *d, size_t n)
{
    size_t i = 0;
    int banner = 1;
    while (i < n) {
        size_t b = i, e;
        while (i < n && d[i] != '\n')
            i++;
        e = i++;
        if (e > b && d[e - 1] == '\r')
            e--;
        while (b < e && is_blank(d[b]))
            b++;
        if (banner || b == e || d[b] == '%') {
            banner = 0;
            continue;
        }
        for (int t = 0; t < 2; t++) { /* rows, columns */
            size_t len = 0;
            while (b < e && is_blank(d[b]))
                b++;
            for (; b < e && !is_blank(d[b]); b++)
                len++;
            if (len > 6)
                return 1;
        }
        return 0;
    }
    return 0;
}

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_mtx: %s\n", what);
        abort();
    }
}

static void check_csr(const homg_host_csr *m)
{
    check(m->nrows >= 1 && m->ncols >= 1 && m->nnz >= 0 && m->row_ptr, "sizes");
    check(m->row_ptr[0] == 0 && m->row_ptr[m->nrows] == m->nnz, "row_ptr ends");
    for (int32_t r = 0; r < m->nrows; r++) {
        check(m->row_ptr[r] <= m->row_ptr[r + 1], "row_ptr rises");
        for (int32_t i = m->row_ptr[r]; i < m->row_ptr[r + 1]; i++) {
            check(m->col_idx[i] >= 0 && m->col_idx[i] < m->ncols, "column in range");
            check(i == m->row_ptr[r] || m->col_idx[i] > m->col_idx[i - 1], "columns sorted");
            check(isfinite(m->values[i]), "finite value");
        }
    }
}

/* Parse failures name the input and a line. */
static void check_message(homg_ctx *ctx, homg_status st)
{
    if (st == HOMG_ERROR_PARSE || st == HOMG_ERROR_UNSUPPORTED)
        check(strncmp(homg_ctx_last_error(ctx), "fuzz:", 5) == 0, "message names the input");
    else
        check(st == HOMG_OK || st == HOMG_ERROR_OUT_OF_MEMORY, "status");
}

static void round_trip(homg_ctx *ctx, const homg_host_csr *m)
{
    char path[64];
    homg_csr view = homg_host_csr_view(m);
    homg_host_csr b;
    snprintf(path, sizeof path, "/tmp/fuzz_mtx_%ld.mtx", (long)getpid());
    check(homg_mtx_write(ctx, path, &view, 0) == HOMG_OK, "write");
    check(homg_mtx_read(ctx, path, &b) == HOMG_OK, "read back");
    check(b.nrows == m->nrows && b.ncols == m->ncols && b.nnz == m->nnz, "same sizes");
    check(!memcmp(b.row_ptr, m->row_ptr, ((size_t)m->nrows + 1) * sizeof *m->row_ptr), "same row_ptr");
    check(!m->nnz || !memcmp(b.col_idx, m->col_idx, (size_t)m->nnz * sizeof *m->col_idx), "same col_idx");
    check(!m->nnz || !memcmp(b.values, m->values, (size_t)m->nnz * sizeof *m->values), "same values");
    homg_host_csr_free(&b);
    remove(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static homg_ctx *ctx; /* made once; reachable until exit, so no leak report */
    homg_host_csr m;
    double *v;
    int32_t n;
    homg_status st;
    if (!ctx) {
        homg_ctx_desc d;
        memset(&d, 0, sizeof d);
        d.backend = HOMG_BACKEND_CPU;
        if (homg_ctx_create(&d, &ctx) != HOMG_OK)
            abort();
    }
    if (declares_huge_matrix(data, size))
        return 0;

    st = homg_mtx_parse(ctx, "fuzz", (const char *)data, size, &m);
    check_message(ctx, st);
    if (st == HOMG_OK) {
        check_csr(&m);
        if (m.nnz <= 1000 && m.nrows <= 1000)
            round_trip(ctx, &m);
        homg_host_csr_free(&m);
    } else {
        check(m.row_ptr == NULL && m.col_idx == NULL && m.values == NULL, "nothing returned on failure");
    }

    st = homg_mtx_parse_vector(ctx, "fuzz", (const char *)data, size, &v, &n);
    check_message(ctx, st);
    if (st == HOMG_OK) {
        check(n >= 1, "vector length");
        for (int32_t i = 0; i < n; i++)
            check(isfinite(v[i]), "finite vector value");
        free(v);
    } else {
        check(v == NULL && n == 0, "no vector on failure");
    }
    return 0;
}
