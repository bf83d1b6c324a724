/* table_out.c -- see table_out.h. */
#include "table_out.h"

#include <errno.h>
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
