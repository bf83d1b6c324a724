/* mtx.c -- Matrix Market files: coordinate matrices and vectors read into host
 * memory, CSR views and vectors written out.
 *
 * The reader works on text in memory (homg_mtx_parse), so the file reader and the
 * fuzz target take the same path.  It trusts the size line for no memory: the
 * number of entries it declares is first bounded by what the bytes after it could
 * hold.  The row pointers (nrows + 1), allocated once every entry has been read
 * and checked, are the size of the matrix the file describes.
 */
#include "csr_host.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

enum { FIELD_REAL, FIELD_INTEGER, FIELD_PATTERN };

typedef struct mm_header {
    int array;     /* dense values in column order rather than coordinate triplets */
    int field;     /* FIELD_* */
    int symmetric; /* the lower triangle is stored */
    int64_t nrows, ncols;
    int64_t count; /* entries (coordinate) or values (array) that follow */
} mm_header;

typedef struct mm_reader {
    homg_ctx *ctx;
    const char *name;
    const char *text;    /* the whole text, to find a line again for a message */
    const char *p, *end; /* what is not read yet */
    long line;           /* number of the current line */
    const char *b, *e;   /* rest of the current line (b advances by tokens), no end of line */
    char kind[192];      /* once the banner is read: its format, field and symmetry and what an
                            entry holds, appended to every later message */
} mm_reader;

static homg_status fail_at(mm_reader *r, long line, homg_status st, const char *fmt, ...) PRINTF_LIKE(4, 5);
static homg_status fail(mm_reader *r, const char *fmt, ...) PRINTF_LIKE(2, 3);

static homg_status vfail(mm_reader *r, long line, homg_status st, const char *fmt, va_list ap)
{
    char what[512];
    vsnprintf(what, sizeof what, fmt, ap);
    return homg__fail(r->ctx, st, "%s:%ld: %s%s", r->name, line, what, r->kind);
}

static homg_status fail_at(mm_reader *r, long line, homg_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    st = vfail(r, line, st, fmt, ap);
    va_end(ap);
    return st;
}

/* A parse error on the current line. */
static homg_status fail(mm_reader *r, const char *fmt, ...)
{
    homg_status st;
    va_list ap;
    va_start(ap, fmt);
    st = vfail(r, r->line, HOMG_ERROR_PARSE, fmt, ap);
    va_end(ap);
    return st;
}

/* A token as it may appear in a message: printable ASCII, at most 32 characters. */
static const char *show(const char *b, const char *e, char buf[40])
{
    size_t n = 0;
    for (; b < e && n < 32; b++)
        buf[n++] = (*b >= 0x20 && *b < 0x7f) ? *b : '?';
    if (b < e) {
        memcpy(buf + n, "...", 3);
        n += 3;
    }
    buf[n] = 0;
    return buf;
}

static void reader_init(mm_reader *r, homg_ctx *ctx, const char *name, const char *text, size_t len)
{
    memset(r, 0, sizeof *r);
    r->ctx = ctx;
    r->name = name ? name : "(text)";
    r->text = r->p = text;
    r->end = text + len;
}

/* Moves to the next line (LF or CRLF); 0 at the end of the text. */
static int next_line(mm_reader *r)
{
    const char *nl;
    if (r->p >= r->end)
        return 0;
    nl = (const char *)memchr(r->p, '\n', (size_t)(r->end - r->p));
    r->b = r->p;
    r->e = nl ? nl : r->end;
    r->p = nl ? nl + 1 : r->end;
    if (r->e > r->b && r->e[-1] == '\r')
        r->e--;
    r->line++;
    return 1;
}

static int is_blank(char c) { return c == ' ' || c == '\t'; }

/* Moves to the next line that is neither blank nor a % comment. */
static int next_data_line(mm_reader *r)
{
    while (next_line(r)) {
        const char *q = r->b;
        while (q < r->e && is_blank(*q))
            q++;
        if (q < r->e && *q != '%')
            return 1;
    }
    return 0;
}

/* Takes the next blank-separated token of the current line; 0 when none is left. */
static int next_token(mm_reader *r, const char **tb, const char **te)
{
    while (r->b < r->e && is_blank(*r->b))
        r->b++;
    if (r->b == r->e)
        return 0;
    *tb = r->b;
    while (r->b < r->e && !is_blank(*r->b))
        r->b++;
    *te = r->b;
    return 1;
}

/* Case-insensitive comparison of a token with a lower-case word. */
static int word_is(const char *b, const char *e, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(e - b) != n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = b[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != w[i])
            return 0;
    }
    return 1;
}

enum { INT_OK, INT_BAD, INT_HUGE };

/* An optionally signed decimal integer; magnitudes beyond about 2^62 are INT_HUGE
 * (*v then keeps the sign, so a huge negative number still reads as negative). */
static int parse_int(const char *b, const char *e, int64_t *v)
{
    int neg = 0, huge = 0;
    int64_t x = 0;
    if (b < e && (*b == '+' || *b == '-'))
        neg = *b++ == '-';
    if (b == e)
        return INT_BAD;
    for (; b < e; b++) {
        if (*b < '0' || *b > '9')
            return INT_BAD;
        if (x > ((int64_t)1 << 62) / 10)
            huge = 1;
        else
            x = x * 10 + (*b - '0');
    }
    *v = neg ? -x : x;
    return huge ? INT_HUGE : INT_OK;
}

/* ------------------------------------------------------------ header */

/* r->kind from the banner's words as the file spells them (lower case), e.g.
 * " (coordinate pattern symmetric: entries 'row column', no value, lower triangle)". */
static void describe(mm_reader *r, const mm_header *h, const char *const *b, const char *const *e)
{
    char words[3][40];
    /* 3 words of at most 35 characters and the longest description fit */
    for (int w = 0; w < 3; w++) {
        size_t n = 0;
        show(b[w + 2], e[w + 2], words[w]);
        for (; words[w][n]; n++)
            if (words[w][n] >= 'A' && words[w][n] <= 'Z')
                words[w][n] = (char)(words[w][n] - 'A' + 'a');
    }
    snprintf(r->kind, sizeof r->kind, " (%s %s %s: %s%s)", words[0], words[1], words[2],
             h->array                    ? "one value per line"
             : h->field == FIELD_PATTERN ? "entries 'row column', no value"
             : h->field == FIELD_INTEGER ? "entries 'row column integer'"
                                         : "entries 'row column value'",
             h->symmetric ? ", lower triangle" : "");
}

static homg_status read_banner(mm_reader *r, mm_header *h)
{
    const char *b[5], *e[5], *tb, *te;
    char s[40];
    int n = 0;
    memset(h, 0, sizeof *h);
    if (!next_line(r)) {
        r->line = 1;
        return fail(r, "empty file (a Matrix Market file starts with %%%%MatrixMarket)");
    }
    while (n < 5 && next_token(r, &b[n], &e[n]))
        n++;
    if (n == 0 || !word_is(b[0], e[0], "%%matrixmarket"))
        return fail(r, "not a Matrix Market file: the first line must start with %%%%MatrixMarket");
    if (n < 5)
        return fail(r, "incomplete banner: expected '%%%%MatrixMarket matrix coordinate|array "
                       "real|integer|pattern general|symmetric'");
    if (next_token(r, &tb, &te))
        return fail(r, "junk after the banner: '%s'", show(tb, te, s));
    if (!word_is(b[1], e[1], "matrix"))
        return fail(r, "unknown object '%s' (expected 'matrix')", show(b[1], e[1], s));

    if (word_is(b[2], e[2], "array"))
        h->array = 1;
    else if (!word_is(b[2], e[2], "coordinate"))
        return fail(r, "unknown format '%s' (expected 'coordinate' or 'array')", show(b[2], e[2], s));

    /* "double" is what some writers put for real; array files hold values, and
     * are read as general vectors only. */
    if (word_is(b[3], e[3], "real") || word_is(b[3], e[3], "double"))
        h->field = FIELD_REAL;
    else if (word_is(b[3], e[3], "integer"))
        h->field = FIELD_INTEGER;
    else if (word_is(b[3], e[3], "pattern") && !h->array)
        h->field = FIELD_PATTERN;
    else if (word_is(b[3], e[3], "complex"))
        return fail_at(r, r->line, HOMG_ERROR_UNSUPPORTED,
                       "complex matrices are not supported (only real, "
                       "integer and pattern)");
    else
        return fail(r, "unknown field '%s' (expected real, integer%s)", show(b[3], e[3], s),
                    h->array ? "; array files have values" : " or pattern");

    if (word_is(b[4], e[4], "symmetric") && !h->array)
        h->symmetric = 1;
    else if (word_is(b[4], e[4], "skew-symmetric") || word_is(b[4], e[4], "hermitian") ||
             word_is(b[4], e[4], "symmetric"))
        return fail_at(r, r->line, HOMG_ERROR_UNSUPPORTED,
                       "'%s %s' files are not supported (only coordinate "
                       "general/symmetric and array general)",
                       h->array ? "array" : "coordinate", show(b[4], e[4], s));
    else if (!word_is(b[4], e[4], "general"))
        return fail(r, "unknown symmetry '%s' (expected general or symmetric)", show(b[4], e[4], s));
    describe(r, h, b, e);
    return HOMG_OK;
}

/* One number of the size line: an integer in lo..INT32_MAX. */
static homg_status size_value(mm_reader *r, const char *what, int64_t lo, int64_t *v)
{
    const char *b, *e;
    char s[40];
    int st;
    if (!next_token(r, &b, &e))
        return fail(r, "size line: the number of %s is missing", what);
    st = parse_int(b, e, v);
    if (st == INT_BAD)
        return fail(r, "size line: %s '%s' is not an integer", what, show(b, e, s));
    if (*v < 0)
        return fail(r, "size line: %s %s is negative", what, show(b, e, s));
    if (st == INT_HUGE || *v > INT32_MAX)
        return fail(r, "size line: %s %s is above 2147483647", what, show(b, e, s));
    if (*v < lo)
        return fail(r, "size line: %s must be positive", what);
    return HOMG_OK;
}

/* The size line, checked against the banner and against the bytes that follow. */
static homg_status read_size(mm_reader *r, mm_header *h, int vector)
{
    const char *tb, *te;
    char s[40];
    int64_t cells, room, min_bytes;
    if (!next_data_line(r))
        return fail(r, "the size line is missing");
    HOMG_TRY(size_value(r, "rows", 1, &h->nrows));
    HOMG_TRY(size_value(r, "columns", 1, &h->ncols));
    if (!h->array)
        HOMG_TRY(size_value(r, "entries", 0, &h->count));
    if (next_token(r, &tb, &te))
        return fail(r, "junk after the size line: '%s'", show(tb, te, s));
    if (vector && h->ncols != 1)
        return fail(r, "not a vector: %lld columns (a vector file has 1)", (long long)h->ncols);
    if (h->symmetric && h->nrows != h->ncols)
        return fail(r, "a symmetric matrix must be square, not %lld x %lld", (long long)h->nrows, (long long)h->ncols);
    cells = h->symmetric ? h->nrows * (h->nrows + 1) / 2 : h->nrows * h->ncols;
    if (h->array) {
        if (cells > INT32_MAX)
            return fail(r, "%lld x %lld values are more than 2147483647", (long long)h->nrows, (long long)h->ncols);
        h->count = cells;
    } else if (h->count > cells) {
        return fail(r, "%lld entries do not fit in a %lld x %lld matrix%s", (long long)h->count, (long long)h->nrows,
                    (long long)h->ncols, h->symmetric ? "'s lower triangle" : "");
    }
    /* Shortest entries: "1 1 1\n", "1 1\n" (pattern), "1\n" (array); the last
     * line may lack its newline. */
    min_bytes = h->array ? 2 : h->field == FIELD_PATTERN ? 4 : 6;
    room = ((int64_t)(r->end - r->p) + 1) / min_bytes;
    if (h->count > room)
        return fail(r,
                    "the size line declares %lld entries, but the %lld bytes after it hold %lld at most "
                    "(truncated file?)",
                    (long long)h->count, (long long)(r->end - r->p), (long long)room);
    return HOMG_OK;
}

/* ------------------------------------------------------------ entries */

/* A row or column index of the current line: 1-based in 1..max, returned 0-based. */
static homg_status index_value(mm_reader *r, const char *what, int64_t max, int32_t *out)
{
    const char *b, *e;
    char s[40];
    int64_t v;
    int st;
    if (!next_token(r, &b, &e))
        return fail(r, "the %s index is missing", what);
    st = parse_int(b, e, &v);
    if (st == INT_BAD)
        return fail(r, "%s index '%s' is not an integer", what, show(b, e, s));
    if (st == INT_HUGE || v < 1 || v > max)
        return fail(r, "%s index %s out of range 1..%lld", what, show(b, e, s), (long long)max);
    *out = (int32_t)(v - 1);
    return HOMG_OK;
}

/* The value of the current line: a finite double (an integer up to 2^53 for
 * integer files).  strtod works on a terminated copy: the text is not terminated. */
static homg_status value(mm_reader *r, int field, double *v)
{
    const char *b, *e;
    char buf[128], s[40], *end;
    int64_t x;
    int st;
    if (!next_token(r, &b, &e))
        return fail(r, "the value is missing");
    if (field == FIELD_INTEGER) {
        st = parse_int(b, e, &x);
        if (st == INT_BAD)
            return fail(r, "value '%s' is not an integer", show(b, e, s));
        if (st == INT_HUGE || x > ((int64_t)1 << 53) || x < -((int64_t)1 << 53))
            return fail(r, "integer value %s is beyond 2^53 (not exact as a double)", show(b, e, s));
        *v = (double)x;
        return HOMG_OK;
    }
    if ((size_t)(e - b) >= sizeof buf)
        return fail(r, "value '%s' is too long", show(b, e, s));
    memcpy(buf, b, (size_t)(e - b));
    buf[e - b] = 0;
    *v = strtod(buf, &end);
    if (end == buf || *end)
        return fail(r, "value '%s' is not a number", show(b, e, s));
    if (isnan(*v))
        return fail(r, "value '%s' is NaN", show(b, e, s));
    if (isinf(*v))
        return fail(r, "value '%s' is infinite or beyond the range of a double", show(b, e, s));
    return HOMG_OK;
}

static homg_status end_of_line(mm_reader *r)
{
    const char *b, *e;
    char s[40];
    if (next_token(r, &b, &e))
        return fail(r, "junk after the numbers: '%s'", show(b, e, s));
    return HOMG_OK;
}

/* Line number of entry k, found again from the start of the text: only error
 * messages need it, so no line is stored per entry. */
static long line_of_entry(const mm_reader *r, int32_t k)
{
    mm_reader s = *r;
    s.p = s.text;
    s.line = 0;
    next_line(&s);      /* banner */
    next_data_line(&s); /* size line */
    for (int32_t i = 0; i <= k; i++)
        next_data_line(&s);
    return s.line;
}

static homg_status read_coordinate(mm_reader *r, const mm_header *h, homg_host_csr *out)
{
    int32_t n = (int32_t)h->count;
    int32_t *row, *col;
    double *val = NULL;
    int64_t total = 0;
    coo_dup dup = { -1, -1, 0, 0 };
    homg_status st = HOMG_OK;

    memset(out, 0, sizeof *out);
    row = (int32_t *)homg__host_array(r->ctx, (size_t)n, sizeof *row, "reading Matrix Market entries");
    col = (int32_t *)homg__host_array(r->ctx, (size_t)n, sizeof *col, "reading Matrix Market entries");
    if (h->field != FIELD_PATTERN)
        val = (double *)homg__host_array(r->ctx, (size_t)n, sizeof *val, "reading Matrix Market entries");
    if (n && (!row || !col || (h->field != FIELD_PATTERN && !val))) {
        st = HOMG_ERROR_OUT_OF_MEMORY;
        goto done;
    }
    for (int32_t k = 0; k < n && st == HOMG_OK; k++) {
        if (!next_data_line(r)) {
            st = fail(r, "the file ends after %d of the %d entries the size line declares", (int)k, (int)n);
            break;
        }
        st = index_value(r, "row", h->nrows, &row[k]);
        if (st == HOMG_OK)
            st = index_value(r, "column", h->ncols, &col[k]);
        if (st == HOMG_OK && val)
            st = value(r, h->field, &val[k]);
        if (st == HOMG_OK)
            st = end_of_line(r);
        if (st == HOMG_OK && h->symmetric && col[k] > row[k])
            st = fail(r, "entry (%d, %d) is above the diagonal: a symmetric file stores the lower triangle",
                      (int)row[k] + 1, (int)col[k] + 1);
        if (st == HOMG_OK)
            total += (h->symmetric && row[k] != col[k]) ? 2 : 1;
    }
    if (st == HOMG_OK && next_data_line(r))
        st = fail(r, "more entries than the %d the size line declares", (int)n);
    if (st == HOMG_OK && total > INT32_MAX)
        st = fail_at(r, r->line, HOMG_ERROR_UNSUPPORTED,
                     "the symmetric matrix has %lld entries, more than "
                     "int32 indices allow",
                     (long long)total);
    if (st == HOMG_OK) {
        st =
            homg__csr_from_coo(r->ctx, (int32_t)h->nrows, (int32_t)h->ncols, n, row, col, val, h->symmetric, out, &dup);
        if (st != HOMG_OK && dup.second >= 0) {
            /* Name it as the file does: the lower triangle of a symmetric file. */
            int32_t i = dup.row, j = dup.col;
            if (h->symmetric && j > i) {
                i = dup.col;
                j = dup.row;
            }
            st = fail_at(r, line_of_entry(r, dup.second), HOMG_ERROR_PARSE,
                         "duplicate entry (%d, %d), first given on "
                         "line %ld",
                         (int)i + 1, (int)j + 1, line_of_entry(r, dup.first));
        }
    }
done:
    free(row);
    free(col);
    free(val);
    return st;
}

static homg_status read_array(mm_reader *r, const mm_header *h, double *vec)
{
    for (int64_t k = 0; k < h->count; k++) {
        if (!next_data_line(r))
            return fail(r, "the file ends after %lld of the %lld values the size line declares", (long long)k,
                        (long long)h->count);
        HOMG_TRY(value(r, h->field, &vec[k]));
        HOMG_TRY(end_of_line(r));
    }
    if (next_data_line(r))
        return fail(r, "more values than the %lld the size line declares", (long long)h->count);
    return HOMG_OK;
}

/* ------------------------------------------------------------ parsing from memory */

static homg_status parse_matrix(homg_ctx *ctx, const char *name, const char *text, size_t len, homg_host_csr *out)
{
    mm_reader r;
    mm_header h;
    reader_init(&r, ctx, name, text, len);
    HOMG_TRY(read_banner(&r, &h));
    if (h.array)
        return fail_at(&r, r.line, HOMG_ERROR_UNSUPPORTED,
                       "dense 'array' matrices are not read as CSR "
                       "(homg_mtx_read_vector reads array vectors)");
    HOMG_TRY(read_size(&r, &h, 0));
    return read_coordinate(&r, &h, out);
}

static homg_status parse_vector(homg_ctx *ctx, const char *name, const char *text, size_t len, double **vec, int32_t *n)
{
    mm_reader r;
    mm_header h;
    homg_host_csr m;
    homg_status st = HOMG_OK;
    double *v;
    reader_init(&r, ctx, name, text, len);
    HOMG_TRY(read_banner(&r, &h));
    HOMG_TRY(read_size(&r, &h, 1));
    if (!h.array)
        HOMG_TRY(read_coordinate(&r, &h, &m));
    /* An array's count is bounded by the file's bytes; a coordinate vector's
     * length is that of the row pointers just allocated. */
    v = (double *)homg__host_array(ctx, (size_t)h.nrows, sizeof *v, "reading a Matrix Market vector");
    if (!v)
        st = HOMG_ERROR_OUT_OF_MEMORY;
    else if (h.array)
        st = read_array(&r, &h, v);
    else
        for (int32_t i = 0; i < m.nrows; i++)
            v[i] = m.row_ptr[i + 1] > m.row_ptr[i] ? m.values[m.row_ptr[i]] : 0.0;
    if (!h.array)
        homg_host_csr_free(&m);
    if (st != HOMG_OK) {
        free(v);
        return st;
    }
    *vec = v;
    *n = (int32_t)h.nrows;
    return HOMG_OK;
}

homg_status homg_mtx_parse(homg_ctx *ctx, const char *name, const char *text, size_t len, homg_host_csr *out)
{
    HOMG_TRY(homg__begin(ctx, "homg_mtx_parse", !out ? "out" : !text && len ? "text" : NULL));
    memset(out, 0, sizeof *out);
    return parse_matrix(ctx, name, text ? text : "", len, out);
}

homg_status homg_mtx_parse_vector(homg_ctx *ctx, const char *name, const char *text, size_t len, double **vec,
                                  int32_t *n)
{
    HOMG_TRY(homg__begin(ctx, "homg_mtx_parse_vector", !vec ? "vec" : !n ? "n" : !text && len ? "text" : NULL));
    *vec = NULL;
    *n = 0;
    return parse_vector(ctx, name, text ? text : "", len, vec, n);
}

/* ------------------------------------------------------------ files */

/* Reads a whole file into memory (the parser works on text), gunzipped when it is
 * gzip-compressed (.mtx.gz; zlib reads plain files as they are). */
static homg_status slurp(homg_ctx *ctx, const char *path, char **text, size_t *len)
{
    gzFile f;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    int got, zerr = Z_OK;
    errno = 0;
    f = gzopen(path, "rb");
    if (!f)
        return homg__fail(ctx, HOMG_ERROR_IO, "%s: cannot open: %s", path, strerror(errno ? errno : ENOMEM));
    gzbuffer(f, 1 << 17);
    do {
        if (n == cap) {
            size_t ncap = cap ? 2 * cap : 65536;
            char *nb = ncap > cap ? (char *)realloc(buf, ncap) : NULL;
            if (!nb) {
                free(buf);
                gzclose(f);
                return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "%s: no memory to hold the file (%zu bytes read)",
                                  path, n);
            }
            buf = nb;
            cap = ncap;
        }
        got = gzread(f, buf + n, (unsigned)(cap - n < (1u << 30) ? cap - n : (1u << 30)));
        if (got > 0)
            n += (size_t)got;
    } while (got > 0);
    if (got == 0)
        gzerror(f, &zerr); /* a cut stream ends reads with Z_BUF_ERROR, not -1 */
    if (got < 0 || zerr != Z_OK) {
        int err = errno;
        const char *what = gzerror(f, &zerr);
        homg_status st =
            homg__fail(ctx, HOMG_ERROR_IO, "%s: cannot read: %s", path, zerr == Z_ERRNO ? strerror(err) : what);
        free(buf);
        gzclose(f);
        return st;
    }
    gzclose(f);
    *text = buf;
    *len = n;
    return HOMG_OK;
}

homg_status homg_mtx_read(homg_ctx *ctx, const char *path, homg_host_csr *out)
{
    char *text;
    size_t len;
    homg_status st;
    HOMG_TRY(homg__begin(ctx, "homg_mtx_read", !path ? "path" : !out ? "out" : NULL));
    memset(out, 0, sizeof *out);
    HOMG_TRY(slurp(ctx, path, &text, &len));
    st = parse_matrix(ctx, path, text, len, out);
    free(text);
    return st;
}

homg_status homg_mtx_read_vector(homg_ctx *ctx, const char *path, double **vec, int32_t *n)
{
    char *text;
    size_t len;
    homg_status st;
    HOMG_TRY(homg__begin(ctx, "homg_mtx_read_vector", !path ? "path" : !vec ? "vec" : !n ? "n" : NULL));
    *vec = NULL;
    *n = 0;
    HOMG_TRY(slurp(ctx, path, &text, &len));
    st = parse_vector(ctx, path, text, len, vec, n);
    free(text);
    return st;
}

/* Value of entry (r, c) of a checked host matrix (sorted rows), 0 where none is stored. */
static double entry(const homg_host_csr *m, int32_t r, int32_t c)
{
    int32_t lo = m->row_ptr[r], hi = m->row_ptr[r + 1];
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (m->col_idx[mid] == c)
            return m->values[mid];
        if (m->col_idx[mid] < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0.0;
}

/* What a file can hold: positive sizes, finite values, and symmetry when asked. */
static homg_status check_writable(homg_ctx *ctx, const homg_host_csr *m, int symmetric)
{
    if (m->nrows < 1 || m->ncols < 1)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_mtx_write: a %d x %d matrix: Matrix Market needs "
                          "at least one row and one column",
                          (int)m->nrows, (int)m->ncols);
    if (symmetric && m->nrows != m->ncols)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_mtx_write: a %d x %d matrix is not symmetric",
                          (int)m->nrows, (int)m->ncols);
    for (int32_t r = 0; r < m->nrows; r++)
        for (int32_t i = m->row_ptr[r]; i < m->row_ptr[r + 1]; i++) {
            int32_t c = m->col_idx[i];
            double v = m->values[i], t;
            if (!isfinite(v))
                return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                                  "homg_mtx_write: a(%d, %d) = %g is not finite "
                                  "(1-based)",
                                  (int)r + 1, (int)c + 1, v);
            if (symmetric && c != r && (t = entry(m, c, r)) != v)
                return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                                  "homg_mtx_write: the matrix is not symmetric: "
                                  "a(%d, %d) = %.17g but a(%d, %d) = %.17g (1-based)",
                                  (int)r + 1, (int)c + 1, v, (int)c + 1, (int)r + 1, t);
        }
    return HOMG_OK;
}

homg_status homg_mtx_write(homg_ctx *ctx, const char *path, const homg_csr *a, int symmetric)
{
    homg_host_csr m;
    homg_status st;
    FILE *f;
    int64_t count = 0;
    HOMG_TRY(homg__begin(ctx, "homg_mtx_write", path ? NULL : "path"));
    HOMG_TRY(homg__csr_to_host(ctx, a, &m, "homg_mtx_write"));
    st = check_writable(ctx, &m, symmetric);
    f = st == HOMG_OK ? fopen(path, "wb") : NULL;
    if (st == HOMG_OK && !f)
        st = homg__fail(ctx, HOMG_ERROR_IO, "%s: cannot create: %s", path, strerror(errno));
    if (f) {
        for (int32_t r = 0; r < m.nrows; r++)
            for (int32_t i = m.row_ptr[r]; i < m.row_ptr[r + 1]; i++)
                count += !symmetric || m.col_idx[i] <= r;
        fprintf(f, "%%%%MatrixMarket matrix coordinate real %s\n%% written by homg %s\n%d %d %lld\n",
                symmetric ? "symmetric" : "general", homg_version_string(), (int)m.nrows, (int)m.ncols,
                (long long)count);
        for (int32_t r = 0; r < m.nrows; r++)
            for (int32_t i = m.row_ptr[r]; i < m.row_ptr[r + 1]; i++)
                if (!symmetric || m.col_idx[i] <= r)
                    fprintf(f, "%d %d %.17g\n", (int)r + 1, (int)m.col_idx[i] + 1, m.values[i]);
        st = homg__finish_file(ctx, path, f);
    }
    homg_host_csr_free(&m);
    return st;
}

homg_status homg_mtx_write_vector(homg_ctx *ctx, const char *path, const double *host_vec, int32_t n)
{
    FILE *f;
    HOMG_TRY(homg__begin(ctx, "homg_mtx_write_vector", !path ? "path" : !host_vec ? "host_vec" : NULL));
    if (n < 1)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_mtx_write_vector: n = %d (at least 1)", (int)n);
    for (int32_t i = 0; i < n; i++)
        if (!isfinite(host_vec[i]))
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                              "homg_mtx_write_vector: value %d (0-based) = %g is "
                              "not finite",
                              (int)i, host_vec[i]);
    f = fopen(path, "wb");
    if (!f)
        return homg__fail(ctx, HOMG_ERROR_IO, "%s: cannot create: %s", path, strerror(errno));
    fprintf(f, "%%%%MatrixMarket matrix array real general\n%% written by homg %s\n%d 1\n", homg_version_string(),
            (int)n);
    for (int32_t i = 0; i < n; i++)
        fprintf(f, "%.17g\n", host_vec[i]);
    return homg__finish_file(ctx, path, f);
}
