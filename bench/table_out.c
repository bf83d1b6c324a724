/* table_out.c -- see table_out.h. */
#include "table_out.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

FILE *table_out_open(const char *path, const char *program)
{
    FILE *f = path ? fopen(path, "w") : NULL;
    if (path && !f)
        fprintf(stderr, "%s: cannot write %s: %s\n", program, path, strerror(errno));
    return f;
}

void table_out_close(FILE *f, const char *path)
{
    if (!f)
        return;
    fclose(f);
    printf("wrote %s\n", path);
}

void table_out_printf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    fflush(stdout);
    if (f) {
        va_start(ap, fmt);
        vfprintf(f, fmt, ap);
        va_end(ap);
    }
}
