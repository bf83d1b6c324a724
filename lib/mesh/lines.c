/* lines.c -- reading mesh text files line by line (plain, gzip, or memory),
 * number tokens, count checks against the file size, and growable arrays. */
#include "mesh_internal.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#define MAX_LINE (1 << 20) /* longer lines are malformed for every format read here */
#define CHUNK    (1 << 16)

typedef struct chunk {
    unsigned char data[CHUNK];
    size_t len, pos;
} chunk;

homg_status homg__lines_open(homg_ctx *ctx, line_reader *r, const char *path)
{
    struct stat st;
    unsigned char magic[2] = { 0, 0 };
    FILE *f;
    memset(r, 0, sizeof *r);
    r->ctx = ctx;
    r->path = path;
    f = fopen(path, "rb");
    if (!f)
        return homg__fail(ctx, HOMG_ERROR_IO, "%s: cannot open: %s", path, strerror(errno));
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return homg__fail(ctx, HOMG_ERROR_IO, "%s: not a regular file", path);
    }
    if (fread(magic, 1, 2, f) != 2)
        magic[0] = 0;
    fclose(f);
    /* gzip cannot expand more than ~1032:1; plain files hold what they hold */
    r->bytes_bound = (magic[0] == 0x1f && magic[1] == 0x8b) ? (double)st.st_size * 1032.0 + 4096.0 : (double)st.st_size;
    r->gz = gzopen(path, "rb");
    if (!r->gz)
        return homg__fail(ctx, HOMG_ERROR_IO, "%s: cannot open: %s", path, strerror(errno));
    gzbuffer((gzFile)r->gz, CHUNK);
    r->chunk = calloc(1, sizeof(chunk));
    if (!r->chunk) {
        gzclose((gzFile)r->gz);
        r->gz = NULL;
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "%s: out of host memory", path);
    }
    return HOMG_OK;
}

void homg__lines_open_memory(homg_ctx *ctx, line_reader *r, const char *name, const void *data, size_t size)
{
    memset(r, 0, sizeof *r);
    r->ctx = ctx;
    r->path = name;
    r->mem = (const char *)data;
    r->mem_size = size;
    r->bytes_bound = (double)size;
}

void homg__lines_close(line_reader *r)
{
    if (r->gz) {
        gzclose((gzFile)r->gz);
        free(r->chunk);
    }
    free(r->buf);
    memset(r, 0, sizeof *r);
}

/* Next byte of the source: 0..255, -1 at the end, -2 on a read error. */
static int next_byte(line_reader *r)
{
    if (r->gz) {
        chunk *c = (chunk *)r->chunk;
        if (c->pos == c->len) {
            int n = gzread((gzFile)r->gz, c->data, CHUNK);
            if (n < 0)
                return -2;
            if (n == 0)
                return -1;
            c->len = (size_t)n;
            c->pos = 0;
        }
        r->offset++;
        return c->data[c->pos++];
    }
    if (r->mem_pos == r->mem_size)
        return -1;
    r->offset++;
    return (unsigned char)r->mem[r->mem_pos++];
}

size_t homg__lines_read(line_reader *r, void *dst, size_t n, homg_status *err)
{
    unsigned char *out = (unsigned char *)dst;
    size_t done = 0;
    *err = HOMG_OK;
    while (done < n) {
        size_t k;
        if (r->gz) {
            chunk *c = (chunk *)r->chunk;
            if (c->pos == c->len) {
                int got = gzread((gzFile)r->gz, c->data, CHUNK);
                if (got < 0)
                    *err = HOMG_ERROR_IO;
                if (got <= 0)
                    break;
                c->len = (size_t)got;
                c->pos = 0;
            }
            k = c->len - c->pos < n - done ? c->len - c->pos : n - done;
            memcpy(out + done, c->data + c->pos, k);
            c->pos += k;
        } else {
            k = r->mem_size - r->mem_pos < n - done ? r->mem_size - r->mem_pos : n - done;
            if (k == 0)
                break;
            memcpy(out + done, r->mem + r->mem_pos, k);
            r->mem_pos += k;
        }
        done += k;
        r->offset += (long long)k;
    }
    if (done < n)
        r->eof = 1;
    return done;
}

homg_status homg__lines_fail(line_reader *r, const char *fmt, ...)
{
    char what[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (r->binary)
        return homg__fail(r->ctx, HOMG_ERROR_PARSE, "%s: byte %lld: %s", r->path, r->offset, what);
    return homg__fail(r->ctx, HOMG_ERROR_PARSE, "%s:%ld: %s", r->path, r->line, what);
}

homg_status homg__lines_next(line_reader *r, char **line)
{
    size_t n = 0;
    int c;
    *line = NULL;
    if (r->eof)
        return HOMG_OK;
    r->line++;
    for (;;) {
        c = next_byte(r);
        if (c == -2)
            return homg__fail(r->ctx, HOMG_ERROR_IO, "%s:%ld: read error (corrupt gzip data?)", r->path, r->line);
        if (c == -1) {
            r->eof = 1;
            if (n == 0) {
                r->line--;
                return HOMG_OK;
            }
            break;
        }
        if (c == '\n')
            break;
        if (c == 0)
            return homg__lines_fail(r, "binary data (a NUL byte) in a text file");
        if (n + 2 > r->cap) {
            size_t cap = r->cap ? r->cap * 2 : 256;
            char *b;
            if (cap > MAX_LINE)
                return homg__lines_fail(r, "line longer than %d bytes", MAX_LINE);
            b = (char *)realloc(r->buf, cap);
            if (!b)
                return homg__fail(r->ctx, HOMG_ERROR_OUT_OF_MEMORY, "%s: out of host memory", r->path);
            r->buf = b;
            r->cap = cap;
        }
        r->buf[n++] = (char)c;
    }
    if (!r->buf) { /* an empty last line */
        r->buf = (char *)malloc(256);
        if (!r->buf)
            return homg__fail(r->ctx, HOMG_ERROR_OUT_OF_MEMORY, "%s: out of host memory", r->path);
        r->cap = 256;
    }
    if (n && r->buf[n - 1] == '\r')
        n--;
    r->buf[n] = 0;
    *line = r->buf;
    return HOMG_OK;
}

homg_status homg__lines_next_content(line_reader *r, char **line, int strip_comments)
{
    for (;;) {
        char *l;
        HOMG_TRY(homg__lines_next(r, &l));
        *line = l;
        if (!l)
            return HOMG_OK;
        if (strip_comments) {
            char *hash = strchr(l, '#');
            if (hash)
                *hash = 0;
        }
        if (!homg__tok_end(l))
            return HOMG_OK;
    }
}

homg_status homg__lines_check_count(line_reader *r, long long count, int min_bytes, const char *what)
{
    if (count < 0)
        return homg__lines_fail(r, "negative number of %s (%lld)", what, count);
    if (count > INT32_MAX)
        return homg__lines_fail(r, "%lld %s: more than homg's limit of %d", count, what, INT32_MAX);
    if ((double)count * min_bytes > r->bytes_bound)
        return homg__lines_fail(r, "the file claims %lld %s, more than its %.0f bytes can hold", count, what,
                                r->bytes_bound);
    return HOMG_OK;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

int homg__tok_end(const char *p)
{
    while (is_blank(*p))
        p++;
    return *p == 0;
}

int homg__tok_ll(char **p, long long *v)
{
    char *s = *p, *end;
    while (is_blank(*s))
        s++;
    if (!*s)
        return 0;
    errno = 0;
    *v = strtoll(s, &end, 10);
    if (end == s || errno == ERANGE || (*end && !is_blank(*end)))
        return 0;
    *p = end;
    return 1;
}

int homg__tok_double(char **p, double *v)
{
    char *s = *p, *end;
    while (is_blank(*s))
        s++;
    if (!*s)
        return 0;
    *v = strtod(s, &end);
    if (end == s || (*end && !is_blank(*end)))
        return 0;
    *p = end;
    return 1;
}

void homg__vec_init(host_vec *v, size_t item)
{
    memset(v, 0, sizeof *v);
    v->item = item;
}

int homg__vec_push(host_vec *v, const void *item)
{
    if (v->count == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 1024;
        unsigned char *d = (unsigned char *)realloc(v->data, cap * v->item);
        if (!d)
            return 0;
        v->data = d;
        v->cap = cap;
    }
    memcpy(v->data + v->count * v->item, item, v->item);
    v->count++;
    return 1;
}

void homg__vec_free(host_vec *v)
{
    free(v->data);
    memset(v, 0, sizeof *v);
}
