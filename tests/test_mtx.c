/* test_mtx.c -- Matrix Market reading and writing, and the host CSR helpers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "sparse/csr_host.h"
#include <zlib.h>

#include "homg.h"
#include "testutil.h"

#define GEN "%%MatrixMarket matrix coordinate real general\n"
#define SYM "%%MatrixMarket matrix coordinate real symmetric\n"
#define ARR "%%MatrixMarket matrix array real general\n"

#define ctx homg_test_cpu /* homg_test_setup_cpu_dir makes both (testutil.h) */
#define dir homg_test_dir

static homg_status parse(const char *text, homg_host_csr *m)
{
    return homg_mtx_parse(ctx, "t.mtx", text, strlen(text), m);
}

static void write_text(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static char *read_text(const char *path)
{
    static char buf[4096];
    FILE *f = fopen(path, "rb");
    size_t n;
    assert_non_null(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return buf;
}

static void assert_csr(const homg_host_csr *m, int nrows, int ncols, int nnz, const int32_t *row_ptr,
                       const int32_t *col_idx, const double *values)
{
    assert_int_equal(m->nrows, nrows);
    assert_int_equal(m->ncols, ncols);
    assert_int_equal(m->nnz, nnz);
    assert_memory_equal(m->row_ptr, row_ptr, (size_t)(nrows + 1) * sizeof *row_ptr);
    if (nnz) {
        assert_memory_equal(m->col_idx, col_idx, (size_t)nnz * sizeof *col_idx);
        assert_memory_equal(m->values, values, (size_t)nnz * sizeof *values);
    }
}

/* ------------------------------------------------------------ reading */

static void general_with_comments_blank_lines_and_crlf(void **state)
{
    (void)state;
    homg_host_csr m;
    const char *text = "%%MatrixMarket matrix coordinate real general\r\n"
                       "% a comment\r\n"
                       "\r\n"
                       "  3 4 5\r\n"
                       "3 4 -2.5\r\n"
                       "1 1 1e1\r\n"
                       "\t \r\n"
                       "2 3\t0.25  \r\n"
                       "% another comment\r\n"
                       "1 3 7\r\n"
                       "3 1 .5"; /* no newline at the end */
    const int32_t rp[] = { 0, 2, 3, 5 }, ci[] = { 0, 2, 2, 0, 3 };
    const double v[] = { 10, 7, 0.25, 0.5, -2.5 };
    assert_int_equal(parse(text, &m), HOMG_OK);
    assert_csr(&m, 3, 4, 5, rp, ci, v);
    homg_host_csr_free(&m);
    assert_null(m.row_ptr);
    assert_int_equal(m.nnz, 0);
}

static void symmetric_is_expanded(void **state)
{
    (void)state;
    homg_host_csr m;
    const char *text = SYM "3 3 5\n1 1 4\n2 1 -1\n3 2 -2\n2 2 5\n3 3 6\n";
    const int32_t rp[] = { 0, 2, 5, 7 }, ci[] = { 0, 1, 0, 1, 2, 1, 2 };
    const double v[] = { 4, -1, -1, 5, -2, -2, 6 };
    assert_int_equal(parse(text, &m), HOMG_OK);
    assert_csr(&m, 3, 3, 7, rp, ci, v);
    homg_host_csr_free(&m);
}

static void pattern_integer_and_banner_case(void **state)
{
    (void)state;
    homg_host_csr m;
    const int32_t rp1[] = { 0, 1, 2 }, ci1[] = { 1, 0 };
    const double v1[] = { 1, 1 };
    const int32_t rp2[] = { 0, 2, 3 }, ci2[] = { 0, 1, 0 };
    const double v2[] = { -3, 7, 7 };
    const int32_t rp3[] = { 0, 0, 0 };

    assert_int_equal(parse("%%matrixmarket MATRIX Coordinate Pattern GENERAL\n2 2 2\n2 1\n1 2\n", &m), HOMG_OK);
    assert_csr(&m, 2, 2, 2, rp1, ci1, v1);
    homg_host_csr_free(&m);

    assert_int_equal(parse("%%MatrixMarket matrix coordinate integer symmetric\n2 2 2\n1 1 -3\n2 1 +7\n", &m), HOMG_OK);
    assert_csr(&m, 2, 2, 3, rp2, ci2, v2);
    homg_host_csr_free(&m);

    assert_int_equal(parse(GEN "2 5 0\n", &m), HOMG_OK); /* no entries at all */
    assert_csr(&m, 2, 5, 0, rp3, NULL, NULL);
    homg_host_csr_free(&m);
}

static void pattern_symmetric_reads_as_ones_both_triangles(void **state)
{
    (void)state;
    homg_host_csr m;
    double *v = NULL;
    int32_t n = 0;
    const int32_t rp[] = { 0, 2, 4, 5 }, ci[] = { 0, 1, 0, 1, 2 };
    const double ones[] = { 1, 1, 1, 1, 1 }, vec[] = { 0, 1, 1 };
    const char *pv = "%%MatrixMarket matrix coordinate pattern general\n3 1 2\n3 1\n2 1\n";
    assert_int_equal(parse("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 4\n1 1\n2 1\n2 2\n3 3\n", &m),
                     HOMG_OK);
    assert_csr(&m, 3, 3, 5, rp, ci, ones);
    homg_host_csr_free(&m);
    /* a pattern vector: ones where listed */
    assert_int_equal(homg_mtx_parse_vector(ctx, "v.mtx", pv, strlen(pv), &v, &n), HOMG_OK);
    assert_int_equal(n, 3);
    assert_memory_equal(v, vec, sizeof vec);
    free(v);
}

static void write_gz(const char *path, const char *text, size_t len)
{
    gzFile f = gzopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(gzwrite(f, text, (unsigned)len), (int)len);
    assert_int_equal(gzclose(f), Z_OK);
}

static void gzip_files_read_as_plain_ones(void **state)
{
    (void)state;
    homg_host_csr plain, gz;
    double *v = NULL;
    int32_t n = 0;
    const char *text = SYM "% lower triangle\n3 3 4\n1 1 4\n2 1 -1\n2 2 5\n3 2 -2\n";
    const char *vec = ARR "3 1\n1.5\n-2\n0.125\n";
    const double want[] = { 1.5, -2, 0.125 };
    char msg[512];
    FILE *f;
    write_text(homg_test_tmp("a.mtx"), text, strlen(text));
    write_gz(homg_test_tmp("a.mtx.gz"), text, strlen(text));
    assert_int_equal(homg_mtx_read(ctx, homg_test_tmp("a.mtx"), &plain), HOMG_OK);
    assert_int_equal(homg_mtx_read(ctx, homg_test_tmp("a.mtx.gz"), &gz), HOMG_OK);
    assert_int_equal(gz.nnz, plain.nnz);
    assert_memory_equal(gz.row_ptr, plain.row_ptr, 4 * sizeof(int32_t));
    assert_memory_equal(gz.col_idx, plain.col_idx, (size_t)plain.nnz * sizeof(int32_t));
    assert_memory_equal(gz.values, plain.values, (size_t)plain.nnz * sizeof(double));
    homg_host_csr_free(&plain);
    homg_host_csr_free(&gz);
    write_gz(homg_test_tmp("b.mtx.gz"), vec, strlen(vec));
    assert_int_equal(homg_mtx_read_vector(ctx, homg_test_tmp("b.mtx.gz"), &v, &n), HOMG_OK);
    assert_int_equal(n, 3);
    assert_memory_equal(v, want, sizeof want);
    free(v);
    /* errors name the line of the uncompressed text */
    write_gz(homg_test_tmp("c.mtx.gz"), GEN "2 2 1\n3 1 1\n", strlen(GEN "2 2 1\n3 1 1\n"));
    assert_int_equal(homg_mtx_read(ctx, homg_test_tmp("c.mtx.gz"), &gz), HOMG_ERROR_PARSE);
    snprintf(msg, sizeof msg,
             "%s:3: row index 3 out of range 1..2 (coordinate real general: entries 'row column value')",
             homg_test_tmp("c.mtx.gz"));
    assert_string_equal(homg_ctx_last_error(ctx), msg);
    /* a gzip stream cut short: an I/O error, nothing returned */
    {
        char buf[4096];
        size_t len;
        f = fopen(homg_test_tmp("a.mtx.gz"), "rb");
        assert_non_null(f);
        len = fread(buf, 1, sizeof buf, f);
        fclose(f);
        write_text(homg_test_tmp("cut.mtx.gz"), buf, len - 12);
    }
    assert_int_equal(homg_mtx_read(ctx, homg_test_tmp("cut.mtx.gz"), &gz), HOMG_ERROR_IO);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "cannot read"));
    assert_null(gz.row_ptr);
    remove(homg_test_tmp("a.mtx"));
    remove(homg_test_tmp("a.mtx.gz"));
    remove(homg_test_tmp("b.mtx.gz"));
    remove(homg_test_tmp("c.mtx.gz"));
    remove(homg_test_tmp("cut.mtx.gz"));
}

static void vectors_array_and_coordinate(void **state)
{
    (void)state;
    double *v = NULL;
    int32_t n = 0;
    const double a[] = { 1.5, -2, 0.125 }, c[] = { -1, 0, 7, 0 };
    const char *arr = ARR "% comment\n3 1\n1.5\n-2\n\n0.125\n";
    const char *coo = GEN "4 1 2\n3 1 7\n1 1 -1\n";

    assert_int_equal(homg_mtx_parse_vector(ctx, "v.mtx", arr, strlen(arr), &v, &n), HOMG_OK);
    assert_int_equal(n, 3);
    assert_memory_equal(v, a, sizeof a);
    free(v);
    assert_int_equal(homg_mtx_parse_vector(ctx, "v.mtx", coo, strlen(coo), &v, &n), HOMG_OK);
    assert_int_equal(n, 4);
    assert_memory_equal(v, c, sizeof c);
    free(v);
}

/* ------------------------------------------------------------ errors */

typedef struct bad_case {
    const char *text;
    int vector; /* parse as a vector */
    homg_status st;
    const char *msg;
} bad_case;

static const bad_case bad_cases[] = {
    /* banner */
    { "", 0, HOMG_ERROR_PARSE, "t.mtx:1: empty file (a Matrix Market file starts with %%MatrixMarket)" },
    { "hello\n1 1 1\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:1: not a Matrix Market file: the first line must start with %%MatrixMarket" },
    { "%%MatrixMarket matrix coordinate real\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:1: incomplete banner: expected '%%MatrixMarket matrix coordinate|array real|integer|pattern "
      "general|symmetric'" },
    { "%%MatrixMarket matrix coordinate real general extra\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:1: junk after the banner: 'extra'" },
    { "%%MatrixMarket tensor coordinate real general\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:1: unknown object 'tensor' (expected 'matrix')" },
    { "%%MatrixMarket matrix sparse real general\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:1: unknown format 'sparse' (expected 'coordinate' or 'array')" },
    { "%%MatrixMarket matrix coordinate float general\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:1: unknown field 'float' (expected real, integer or pattern)" },
    { "%%MatrixMarket matrix coordinate real upper\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:1: unknown symmetry 'upper' (expected general or symmetric)" },
    { "%%MatrixMarket matrix array pattern general\n", 1, HOMG_ERROR_PARSE,
      "t.mtx:1: unknown field 'pattern' (expected real, integer; array files have values)" },
    { "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", 0, HOMG_ERROR_UNSUPPORTED,
      "t.mtx:1: complex matrices are not supported (only real, integer and pattern)" },
    { "%%MatrixMarket matrix coordinate real hermitian\n", 0, HOMG_ERROR_UNSUPPORTED,
      "t.mtx:1: 'coordinate hermitian' files are not supported (only coordinate general/symmetric and array "
      "general)" },
    { "%%MatrixMarket matrix coordinate real Skew-Symmetric\n", 0, HOMG_ERROR_UNSUPPORTED,
      "t.mtx:1: 'coordinate Skew-Symmetric' files are not supported (only coordinate general/symmetric and "
      "array general)" },
    { "%%MatrixMarket matrix array real symmetric\n", 1, HOMG_ERROR_UNSUPPORTED,
      "t.mtx:1: 'array symmetric' files are not supported (only coordinate general/symmetric and array general)" },
    { ARR "2 2\n1\n2\n3\n4\n", 0, HOMG_ERROR_UNSUPPORTED,
      "t.mtx:1: dense 'array' matrices are not read as CSR (homg_mtx_read_vector reads array vectors) (array real "
      "general: one value per line)" },
    /* size line */
    { GEN "% only a comment\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:2: the size line is missing (coordinate real general: entries 'row column value')" },
    { GEN "% c\n3 3\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:3: size line: the number of entries is missing (coordinate real general: entries 'row column value')" },
    { GEN "3 x 1\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:2: size line: columns 'x' is not an integer (coordinate real general: entries 'row column value')" },
    { GEN "-3 3 1\n1 1 1\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:2: size line: rows -3 is negative (coordinate real general: entries 'row column value')" },
    { GEN "3 3 -1\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:2: size line: entries -1 is negative (coordinate real general: entries 'row column value')" },
    { GEN "0 3 1\n1 1 1\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:2: size line: rows must be positive (coordinate real general: entries 'row column value')" },
    { GEN "3 0 0\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:2: size line: columns must be positive (coordinate real general: entries 'row column value')" },
    { GEN "2147483648 1 1\n1 1 1\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:2: size line: rows 2147483648 is above 2147483647 (coordinate real general: entries 'row column value')" },
    { GEN "1 1 99999999999999999999999\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:2: size line: entries 99999999999999999999999 is above 2147483647 (coordinate real general: entries 'row "
      "column value')" },
    { GEN "3 3 1 4\n1 1 1\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:2: junk after the size line: '4' (coordinate real general: entries 'row column value')" },
    { GEN "2 2 5\n1 1 1\n1 2 1\n2 1 1\n2 2 1\n1 1 1\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:2: 5 entries do not fit in a 2 x 2 matrix (coordinate real general: entries 'row column value')" },
    { SYM "2 3 1\n1 1 1\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:2: a symmetric matrix must be square, not 2 x 3 (coordinate real symmetric: entries 'row column value', "
      "lower triangle)" },
    { SYM "2 2 4\n1 1 1\n2 1 1\n2 2 1\n2 2 1\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:2: 4 entries do not fit in a 2 x 2 matrix's lower triangle (coordinate real symmetric: entries 'row "
      "column value', lower triangle)" },
    { GEN "3 3 4\n1 1 1\n2 2 1\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:2: the size line declares 4 entries, but the 12 bytes after it hold 2 at most (truncated file?) "
      "(coordinate real general: entries 'row column value')" },
    { ARR "3 2\n1\n2\n3\n4\n5\n6\n", 1, HOMG_ERROR_PARSE,
      "t.mtx:2: not a vector: 2 columns (a vector file has 1) (array real general: one value per line)" },
    { GEN "3 2 1\n1 1 1\n", 1, HOMG_ERROR_PARSE,
      "t.mtx:2: not a vector: 2 columns (a vector file has 1) (coordinate real general: entries 'row column value')" },
    /* counts */
    { GEN "3 3 3\n1 1 1\n2 2 1\n% a comment long enough\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:5: the file ends after 2 of the 3 entries the size line declares (coordinate real general: entries 'row "
      "column value')" },
    { GEN "3 3 1\n1 1 1\n\n2 2 1\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:5: more entries than the 1 the size line declares (coordinate real general: entries 'row column value')" },
    { ARR "3 1\n1\n2\n% comment\n", 1, HOMG_ERROR_PARSE,
      "t.mtx:5: the file ends after 2 of the 3 values the size line declares (array real general: one value per "
      "line)" },
    { ARR "2 1\n1\n2\n3\n", 1, HOMG_ERROR_PARSE,
      "t.mtx:5: more values than the 2 the size line declares (array real general: one value per line)" },
    /* entries */
    { GEN "3 3 1\n0 1 1\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:3: row index 0 out of range 1..3 (coordinate real general: entries 'row column value')" },
    { GEN "3 3 1\n4 1 1\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:3: row index 4 out of range 1..3 (coordinate real general: entries 'row column value')" },
    { GEN "3 5 1\n1 -1 1\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:3: column index -1 out of range 1..5 (coordinate real general: entries 'row column value')" },
    { "%%MatrixMarket matrix coordinate real general\r\n3 3 1\r\n1 4 1\r\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:3: column index 4 out of range 1..3 (coordinate real general: entries 'row column value')" },
    { GEN "3 3 1\n1 99999999999999999999999 1\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:3: column index 99999999999999999999999 out of range 1..3 (coordinate real general: entries 'row column "
      "value')" },
    { GEN "3 3 1\n1 x 1\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:3: column index 'x' is not an integer (coordinate real general: entries 'row column value')" },
    { GEN "3 3 1\n1\n% pad\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:3: the column index is missing (coordinate real general: entries 'row column value')" },
    { GEN "3 3 1\n1 1\n\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:3: the value is missing (coordinate real general: entries 'row column value')" },
    { GEN "3 3 1\n1 1 abc\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:3: value 'abc' is not a number (coordinate real general: entries 'row column value')" },
    { GEN "3 3 1\n1 1 1.5x\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:3: value '1.5x' is not a number (coordinate real general: entries 'row column value')" },
    { GEN "3 3 1\n1 1 nan\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:3: value 'nan' is NaN (coordinate real general: entries 'row column value')" },
    { GEN "3 3 1\n1 1 -inf\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:3: value '-inf' is infinite or beyond the range of a double (coordinate real general: entries 'row column "
      "value')" },
    { GEN "3 3 1\n1 1 1e999\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:3: value '1e999' is infinite or beyond the range of a double (coordinate real general: entries 'row "
      "column value')" },
    { ARR "2 1\n1\nNaN\n", 1, HOMG_ERROR_PARSE,
      "t.mtx:4: value 'NaN' is NaN (array real general: one value per line)" },
    { GEN "3 3 1\n1 1 1 2\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:3: junk after the numbers: '2' (coordinate real general: entries 'row column value')" },
    { "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 1 1\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:3: junk after the numbers: '1' (coordinate pattern general: entries 'row column', no value)" },
    { "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 1.5\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:3: value '1.5' is not an integer (coordinate integer general: entries 'row column integer')" },
    { "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 9007199254740993\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:3: integer value 9007199254740993 is beyond 2^53 (not exact as a double) (coordinate integer general: "
      "entries 'row column integer')" },
    { SYM "3 3 2\n1 1 1\n1 2 1\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:4: entry (1, 2) is above the diagonal: a symmetric file stores the lower triangle (coordinate real "
      "symmetric: entries 'row column value', lower triangle)" },
    { GEN "3 3 3\n1 1 1\n2 2 1\n1 1 5\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:5: duplicate entry (1, 1), first given on line 3 (coordinate real general: entries 'row column value')" },
    { SYM "3 3 3\n2 1 1\n% c\n3 3 1\n2 1 2\n", 0, HOMG_ERROR_PARSE,
      "t.mtx:6: duplicate entry (2, 1), first given on line 3 (coordinate real symmetric: entries 'row column value', "
      "lower triangle)" },
    { GEN "3 1 2\n2 1 1\n2 1 1\n", 1, HOMG_ERROR_PARSE,
      "t.mtx:4: duplicate entry (2, 1), first given on line 3 (coordinate real general: entries 'row column value')" },
};

static void bad_input_names_the_line(void **state)
{
    (void)state;
    int failures = 0;
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const bad_case *c = &bad_cases[i];
        homg_host_csr m;
        static double sentinel;
        double *v = &sentinel;
        int32_t n = -1;
        homg_status st;
        if (c->vector)
            st = homg_mtx_parse_vector(ctx, "t.mtx", c->text, strlen(c->text), &v, &n);
        else
            st = parse(c->text, &m);
        if (st != c->st || strcmp(homg_ctx_last_error(ctx), c->msg) != 0 ||
            (c->vector ? (v != NULL || n != 0) : (m.row_ptr != NULL || m.nnz != 0))) {
            print_error("case %d: got %s \"%s\"\n        want %s \"%s\"\n", (int)i, homg_status_string(st),
                        homg_ctx_last_error(ctx), homg_status_string(c->st), c->msg);
            failures++;
        }
        if (st == HOMG_OK)
            c->vector ? free(v) : homg_host_csr_free(&m);
    }
    assert_int_equal(failures, 0);
}

/* Limits this process's address space to what it uses now plus
 * `extra` bytes, so a large allocation fails instead of quietly succeeding.
 * ASan reserves terabytes of shadow memory, so not under ASan. */
static int limit_address_space(size_t extra, struct rlimit *saved)
{
#if defined(__SANITIZE_ADDRESS__)
    (void)extra;
    (void)saved;
    return 0;
#else
    unsigned long pages = 0;
    struct rlimit lim;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f || fscanf(f, "%lu", &pages) != 1 || getrlimit(RLIMIT_AS, saved) != 0) {
        if (f)
            fclose(f);
        return 0;
    }
    fclose(f);
    lim = *saved;
    lim.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + extra;
    return setrlimit(RLIMIT_AS, &lim) == 0;
#endif
}

static void huge_claim_in_a_small_file_fails_fast(void **state)
{
    (void)state;
    char text[101], want[256], msg_file[256];
    homg_host_csr m;
    homg_status st_file, st_text;
    struct rlimit saved;
    int limited;
    const char *path = homg_test_tmp("huge.mtx");
    size_t len;
    /* 100 bytes that claim 2e9 entries. */
    snprintf(text, sizeof text, "%s", GEN "2000000000 2000000000 2000000000\n1 1 1\n%");
    len = strlen(text);
    while (len < 99)
        text[len++] = '.';
    text[len++] = '\n';
    text[len] = 0;
    assert_int_equal(len, 100);
    write_text(path, text, len);
    snprintf(want, sizeof want,
             "%s:2: the size line declares 2000000000 entries, but the 21 bytes after it hold 3 "
             "at most (truncated file?) (coordinate real general: entries 'row column value')",
             path);

    /* With the address space capped 256 MiB above its use, allocating for the
     * claim would be OUT_OF_MEMORY, not the PARSE error of the size line. */
    limited = limit_address_space((size_t)256 << 20, &saved);
    st_file = homg_mtx_read(ctx, path, &m);
    snprintf(msg_file, sizeof msg_file, "%s", homg_ctx_last_error(ctx));
    st_text = homg_mtx_parse(ctx, path, text, len, &m);
    if (limited)
        assert_int_equal(setrlimit(RLIMIT_AS, &saved), 0);
    assert_int_equal(st_file, HOMG_ERROR_PARSE);
    assert_string_equal(msg_file, want);
    assert_int_equal(st_text, HOMG_ERROR_PARSE);
    assert_string_equal(homg_ctx_last_error(ctx), want);
    assert_null(m.row_ptr);
    assert_int_equal(remove(path), 0);
}

static void files_that_cannot_be_read(void **state)
{
    (void)state;
    homg_host_csr m;
    double *v;
    int32_t n;
    char want[256];
    const char *path = homg_test_tmp("missing.mtx");
    snprintf(want, sizeof want, "%s: cannot open: %s", path, strerror(ENOENT));
    assert_int_equal(homg_mtx_read(ctx, path, &m), HOMG_ERROR_IO);
    assert_string_equal(homg_ctx_last_error(ctx), want);
    assert_int_equal(homg_mtx_read_vector(ctx, path, &v, &n), HOMG_ERROR_IO);
    assert_string_equal(homg_ctx_last_error(ctx), want);
    snprintf(want, sizeof want, "%s: cannot read: %s", dir, strerror(EISDIR));
    assert_int_equal(homg_mtx_read(ctx, dir, &m), HOMG_ERROR_IO);
    assert_string_equal(homg_ctx_last_error(ctx), want);
    assert_int_equal(homg_mtx_read(ctx, NULL, &m), HOMG_ERROR_INVALID_ARGUMENT);
    assert_string_equal(homg_ctx_last_error(ctx), "homg_mtx_read: path is NULL");
    assert_int_equal(homg_mtx_read(NULL, path, &m), HOMG_ERROR_INVALID_ARGUMENT);
}

/* ------------------------------------------------------------ writing */

static void write_then_read_general_exactly(void **state)
{
    (void)state;
    const int32_t rp[] = { 0, 2, 2, 5 }, ci[] = { 1, 3, 0, 2, 3 };
    const double v[] = { 0.1, 1.0 / 3.0, -1e-300, 6.02214076e23, -4.9406564584124654e-324 };
    homg_host_csr a = { 3, 4, 5, (int32_t *)rp, (int32_t *)ci, (double *)v }, b;
    homg_csr view = homg_host_csr_view(&a);
    const char *path = homg_test_tmp("general.mtx");
    assert_int_equal(view.precision, HOMG_FLOAT64);
    assert_int_equal(view.memory, HOMG_MEMORY_HOST);
    assert_int_equal(homg_mtx_write(ctx, path, &view, 0), HOMG_OK);
    assert_int_equal(homg_mtx_read(ctx, path, &b), HOMG_OK);
    assert_csr(&b, 3, 4, 5, rp, ci, v);
    homg_host_csr_free(&b);
    assert_int_equal(remove(path), 0);
}

static void write_symmetric_stores_the_lower_triangle(void **state)
{
    (void)state;
    const int32_t rp[] = { 0, 2, 5, 7 }, ci[] = { 0, 1, 0, 1, 2, 1, 2 };
    const double v[] = { 4, -1, -1, 5, -0.1, -0.1, 6 };
    homg_host_csr a = { 3, 3, 7, (int32_t *)rp, (int32_t *)ci, (double *)v }, b;
    homg_csr view = homg_host_csr_view(&a);
    const char *path = homg_test_tmp("sym.mtx");
    char want[512];
    snprintf(want, sizeof want,
             "%%%%MatrixMarket matrix coordinate real symmetric\n%% written by homg %s\n3 3 5\n"
             "1 1 4\n2 1 -1\n2 2 5\n3 2 -0.10000000000000001\n3 3 6\n",
             homg_version_string());
    assert_int_equal(homg_mtx_write(ctx, path, &view, 1), HOMG_OK);
    assert_string_equal(read_text(path), want);
    assert_int_equal(homg_mtx_read(ctx, path, &b), HOMG_OK);
    assert_csr(&b, 3, 3, 7, rp, ci, v);
    homg_host_csr_free(&b);
    assert_int_equal(remove(path), 0);
}

/* A float matrix in the ctx's memory is copied to the host and widened exactly. */
static void write_float_matrix_from_ctx_memory(void **state)
{
    (void)state;
    const int32_t rp[] = { 0, 1, 3 }, ci[] = { 0, 0, 1 };
    const float f[] = { 0.1f, -3.25f, 1e-20f };
    const double want[] = { 0.1f, -3.25f, 1e-20f };
    void *d_rp = NULL, *d_ci = NULL, *d_v = NULL;
    homg_csr view;
    homg_host_csr b;
    const char *path = homg_test_tmp("float.mtx");
    assert_int_equal(homg_alloc(ctx, sizeof rp, &d_rp), HOMG_OK);
    assert_int_equal(homg_alloc(ctx, sizeof ci, &d_ci), HOMG_OK);
    assert_int_equal(homg_alloc(ctx, sizeof f, &d_v), HOMG_OK);
    assert_int_equal(homg_copy_from_host(ctx, d_rp, rp, sizeof rp), HOMG_OK);
    assert_int_equal(homg_copy_from_host(ctx, d_ci, ci, sizeof ci), HOMG_OK);
    assert_int_equal(homg_copy_from_host(ctx, d_v, f, sizeof f), HOMG_OK);
    memset(&view, 0, sizeof view);
    view.nrows = 2;
    view.ncols = 2;
    view.nnz = 3;
    view.row_ptr = (const int32_t *)d_rp;
    view.col_idx = (const int32_t *)d_ci;
    view.values = d_v;
    view.precision = HOMG_FLOAT32;
    view.memory = HOMG_MEMORY_CONTEXT;
    assert_int_equal(homg_mtx_write(ctx, path, &view, 0), HOMG_OK);
    assert_int_equal(homg_mtx_read(ctx, path, &b), HOMG_OK);
    assert_csr(&b, 2, 2, 3, rp, ci, want);
    homg_host_csr_free(&b);
    homg_free(ctx, d_rp);
    homg_free(ctx, d_ci);
    homg_free(ctx, d_v);
    assert_int_equal(remove(path), 0);
}

static void write_refuses_bad_matrices(void **state)
{
    (void)state;
    int32_t rp[] = { 0, 2, 3 }, ci[] = { 0, 1, 0 };
    double v[] = { 1, 2, 3 };
    homg_host_csr a = { 2, 2, 3, rp, ci, v };
    homg_csr view = homg_host_csr_view(&a);
    const char *path = homg_test_tmp("bad.mtx");
    char want[256], nodir[128];

    assert_int_equal(homg_mtx_write(ctx, path, &view, 1), HOMG_ERROR_INVALID_ARGUMENT);
    assert_string_equal(homg_ctx_last_error(ctx),
                        "homg_mtx_write: the matrix is not symmetric: a(1, 2) = 2 but a(2, 1) = 3 (1-based)");
    ci[2] = 1; /* a(2,1) missing: it counts as 0 */
    v[2] = 5;
    assert_int_equal(homg_mtx_write(ctx, path, &view, 1), HOMG_ERROR_INVALID_ARGUMENT);
    assert_string_equal(homg_ctx_last_error(ctx),
                        "homg_mtx_write: the matrix is not symmetric: a(1, 2) = 2 but a(2, 1) = 0 (1-based)");
    v[1] = NAN;
    assert_int_equal(homg_mtx_write(ctx, path, &view, 0), HOMG_ERROR_INVALID_ARGUMENT);
    assert_string_equal(homg_ctx_last_error(ctx), "homg_mtx_write: a(1, 2) = nan is not finite (1-based)");
    v[1] = 2;
    ci[1] = 0; /* row 0: columns 0, 0 */
    assert_int_equal(homg_mtx_write(ctx, path, &view, 0), HOMG_ERROR_INVALID_ARGUMENT);
    assert_string_equal(homg_ctx_last_error(ctx), "homg_mtx_write: row 0: columns 0, 0 are not strictly increasing "
                                                  "(sorted, no duplicates)");
    ci[1] = 2;
    assert_int_equal(homg_mtx_write(ctx, path, &view, 0), HOMG_ERROR_INVALID_ARGUMENT);
    assert_string_equal(homg_ctx_last_error(ctx), "homg_mtx_write: row 0: column 2 is not in 0..1");
    ci[1] = 1;
    rp[1] = 4;
    assert_int_equal(homg_mtx_write(ctx, path, &view, 0), HOMG_ERROR_INVALID_ARGUMENT);
    assert_string_equal(homg_ctx_last_error(ctx), "homg_mtx_write: row_ptr[1] = 4 is not in 0..3 (nnz)");
    rp[1] = 2;
    view.ncols = 3;
    assert_int_equal(homg_mtx_write(ctx, path, &view, 1), HOMG_ERROR_INVALID_ARGUMENT);
    assert_string_equal(homg_ctx_last_error(ctx), "homg_mtx_write: a 2 x 3 matrix is not symmetric");
    view.ncols = 2;
    view.precision = (homg_precision)7;
    assert_int_equal(homg_mtx_write(ctx, path, &view, 0), HOMG_ERROR_INVALID_ARGUMENT);
    assert_string_equal(homg_ctx_last_error(ctx), "homg_mtx_write: precision = 7 is not a homg_precision");
    view.precision = HOMG_FLOAT64;
    view.col_idx = NULL;
    assert_int_equal(homg_mtx_write(ctx, path, &view, 0), HOMG_ERROR_INVALID_ARGUMENT);
    assert_string_equal(homg_ctx_last_error(ctx), "homg_mtx_write: col_idx is NULL");
    assert_int_equal(homg_mtx_write(ctx, path, NULL, 0), HOMG_ERROR_INVALID_ARGUMENT);
    assert_int_equal(access(path, F_OK), -1); /* nothing was written */

    view.col_idx = ci;
    snprintf(want, sizeof want, "%s/no/such/dir.mtx: cannot create: %s", dir, strerror(ENOENT));
    snprintf(nodir, sizeof nodir, "%s/no/such/dir.mtx", dir);
    assert_int_equal(homg_mtx_write(ctx, nodir, &view, 0), HOMG_ERROR_IO);
    assert_string_equal(homg_ctx_last_error(ctx), want);
}

static void vectors_round_trip(void **state)
{
    (void)state;
    const double x[] = { 0.1, 1.0 / 3.0, -5e-324, 1e300, 0 };
    double *y = NULL, bad[2] = { 1, INFINITY };
    int32_t n = 0;
    const char *path = homg_test_tmp("x.mtx");
    homg_host_csr m;
    assert_int_equal(homg_mtx_write_vector(ctx, path, x, 5), HOMG_OK);
    assert_int_equal(homg_mtx_read_vector(ctx, path, &y, &n), HOMG_OK);
    assert_int_equal(n, 5);
    assert_memory_equal(y, x, sizeof x);
    free(y);
    /* A vector file is no CSR matrix. */
    assert_int_equal(homg_mtx_read(ctx, path, &m), HOMG_ERROR_UNSUPPORTED);
    assert_int_equal(remove(path), 0);

    assert_int_equal(homg_mtx_write_vector(ctx, path, x, 0), HOMG_ERROR_INVALID_ARGUMENT);
    assert_string_equal(homg_ctx_last_error(ctx), "homg_mtx_write_vector: n = 0 (at least 1)");
    assert_int_equal(homg_mtx_write_vector(ctx, path, bad, 2), HOMG_ERROR_INVALID_ARGUMENT);
    assert_string_equal(homg_ctx_last_error(ctx), "homg_mtx_write_vector: value 1 (0-based) = inf is not finite");
    assert_int_equal(access(path, F_OK), -1);
}

/* ------------------------------------------------------------ building from triplets */

/* Shuffled triplets of a random sparse matrix (and its symmetric half) against a
 * dense copy scanned row by row. */
static void triplets_build_sorted_rows(void **state)
{
    (void)state;
    enum { R = 37, C = 23, MAXN = R * C };
    static double dense[R][C];
    static int32_t row[MAXN], col[MAXN];
    static double val[MAXN];
    homg_rng rng = homg_rng_seed(7);
    homg_host_csr m;
    int32_t n = 0, k = 0;
    memset(dense, 0, sizeof dense);
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            if (homg_rng_uniform(&rng) < 0.3) {
                dense[i][j] = 1 + homg_rng_uniform(&rng);
                row[n] = i;
                col[n] = j;
                val[n++] = dense[i][j];
            }
    for (int32_t i = n - 1; i > 0; i--) { /* Fisher-Yates */
        int32_t j = (int32_t)(homg_rng_uniform(&rng) * (i + 1)), ti = row[i], tj = col[i];
        double tv = val[i];
        row[i] = row[j], col[i] = col[j], val[i] = val[j];
        row[j] = ti, col[j] = tj, val[j] = tv;
    }
    assert_int_equal(homg__csr_from_coo(ctx, R, C, n, row, col, val, 0, &m, NULL), HOMG_OK);
    assert_int_equal(m.nnz, n);
    for (int i = 0; i < R; i++) {
        assert_int_equal(m.row_ptr[i], k);
        for (int j = 0; j < C; j++)
            if (dense[i][j] != 0) {
                assert_int_equal(m.col_idx[k], j);
                assert_true(m.values[k] == dense[i][j]);
                k++;
            }
    }
    assert_int_equal(m.row_ptr[R], n);
    homg_host_csr_free(&m);

    /* Symmetric: keep the triplets of the square part's lower triangle. */
    k = 0;
    for (int32_t t = 0; t < n; t++)
        if (col[t] <= row[t] && row[t] < C) {
            row[k] = row[t], col[k] = col[t], val[k] = val[t];
            k++;
        }
    assert_int_equal(homg__csr_from_coo(ctx, C, C, k, row, col, val, 1, &m, NULL), HOMG_OK);
    k = 0;
    for (int i = 0; i < C; i++) {
        assert_int_equal(m.row_ptr[i], k);
        for (int j = 0; j < C; j++) {
            double want = j <= i ? dense[i][j] : dense[j][i];
            if (want != 0) {
                assert_int_equal(m.col_idx[k], j);
                assert_true(m.values[k] == want);
                k++;
            }
        }
    }
    assert_int_equal(m.nnz, k);
    homg_host_csr_free(&m);
}

static void triplets_duplicates_and_range(void **state)
{
    (void)state;
    const int32_t row[] = { 1, 0, 1, 0, 0 }, col[] = { 1, 2, 1, 2, 0 };
    coo_dup dup = { -1, -1, -1, -1 };
    homg_host_csr m;
    /* (0,2) repeats at 1 and 3, (1,1) at 0 and 2: the one met first in the input is reported. */
    assert_int_equal(homg__csr_from_coo(ctx, 2, 3, 5, row, col, NULL, 0, &m, &dup), HOMG_ERROR_INVALID_ARGUMENT);
    assert_int_equal(dup.first, 0);
    assert_int_equal(dup.second, 2);
    assert_int_equal(dup.row, 1);
    assert_int_equal(dup.col, 1);
    assert_null(m.row_ptr);
    assert_int_equal(homg__csr_from_coo(ctx, 2, 3, 5, row, col, NULL, 0, &m, NULL), HOMG_ERROR_INVALID_ARGUMENT);
    assert_string_equal(homg_ctx_last_error(ctx),
                        "building a CSR matrix from triplets: triplets 0 and 2 both give entry (1, 1)");
    assert_int_equal(homg__csr_from_coo(ctx, 2, 2, 5, row, col, NULL, 0, &m, NULL), HOMG_ERROR_INVALID_ARGUMENT);
    assert_string_equal(homg_ctx_last_error(ctx),
                        "building a CSR matrix from triplets: triplet 1 at (0, 2) is outside the 2 x 2 matrix");
    homg_host_csr_free(&m);
    homg_host_csr_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(general_with_comments_blank_lines_and_crlf),
        cmocka_unit_test(symmetric_is_expanded),
        cmocka_unit_test(pattern_integer_and_banner_case),
        cmocka_unit_test(pattern_symmetric_reads_as_ones_both_triangles),
        cmocka_unit_test(gzip_files_read_as_plain_ones),
        cmocka_unit_test(vectors_array_and_coordinate),
        cmocka_unit_test(bad_input_names_the_line),
        cmocka_unit_test(huge_claim_in_a_small_file_fails_fast),
        cmocka_unit_test(files_that_cannot_be_read),
        cmocka_unit_test(write_then_read_general_exactly),
        cmocka_unit_test(write_symmetric_stores_the_lower_triangle),
        cmocka_unit_test(write_float_matrix_from_ctx_memory),
        cmocka_unit_test(write_refuses_bad_matrices),
        cmocka_unit_test(vectors_round_trip),
        cmocka_unit_test(triplets_build_sorted_rows),
        cmocka_unit_test(triplets_duplicates_and_range),
    };
    return cmocka_run_group_tests(tests, homg_test_setup_cpu_dir, homg_test_teardown_cpu_dir);
}
