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

#include "fuzz_check.h"
#include "homg.h"

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
    check_message(ctx, st, "fuzz:");
    if (st == HOMG_OK) {
        check_csr(&m);
        if (m.nnz <= 1000 && m.nrows <= 1000)
            round_trip(ctx, &m);
        homg_host_csr_free(&m);
    } else {
        check(m.row_ptr == NULL && m.col_idx == NULL && m.values == NULL, "nothing returned on failure");
    }

    st = homg_mtx_parse_vector(ctx, "fuzz", (const char *)data, size, &v, &n);
    check_message(ctx, st, "fuzz:");
    check_vector(st, v, n);
    return 0;
}
