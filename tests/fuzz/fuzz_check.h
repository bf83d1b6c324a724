/* fuzz_check.h -- what the Matrix Market fuzz targets (fuzz_mtx.c, fuzz_mtx_gz.c)
 * check of every input: accepted matrices are valid sorted CSR with finite
 * values, accepted vectors finite, failures name the input; and which inputs
 * they skip. */
#ifndef HOMG_FUZZ_CHECK_H
#define HOMG_FUZZ_CHECK_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "homg.h"

static inline int is_blank(uint8_t c) { return c == ' ' || c == '\t'; }

/* Non-zero when the size line declares 1e6 rows or columns or more: the row
 * pointers (nrows + 1) are as large as the matrix the file declares, so a
 * 30-byte input could ask for gigabytes, past libFuzzer's malloc limit (large
 * sizes are covered by tests/test_mtx.c).  Lines are found as the reader finds
 * them: LF or CRLF, the banner first, then the first line that is neither blank
 * nor a % comment.  The declared entry count stays fuzzed: it must never cost
 * memory by itself. */
static inline int declares_huge_matrix(const uint8_t *d, size_t n)
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

static inline void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz: %s\n", what);
        abort();
    }
}

static inline void check_csr(const homg_host_csr *m)
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

/* A vector read: what is accepted is not empty and finite (freed here); a failure returns nothing. */
static inline void check_vector(homg_status st, double *v, int32_t n)
{
    if (st == HOMG_OK) {
        check(n >= 1, "vector length");
        for (int32_t i = 0; i < n; i++)
            check(isfinite(v[i]), "finite vector value");
        free(v);
    } else {
        check(v == NULL && n == 0, "no vector on failure");
    }
}

/* Parse failures name the input and a line. */
static inline void check_message(homg_ctx *ctx, homg_status st, const char *name)
{
    if (st == HOMG_ERROR_PARSE || st == HOMG_ERROR_UNSUPPORTED)
        check(strncmp(homg_ctx_last_error(ctx), name, strlen(name)) == 0, "message names the input");
    else
        check(st == HOMG_OK || st == HOMG_ERROR_OUT_OF_MEMORY, "status");
}

#endif
