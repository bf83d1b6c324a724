/* int_list.c -- see int_list.h. */
#include "int_list.h"

#include <stdlib.h>
#include <string.h>

int bench_int_list(const char *s, int *out, int max)
{
    int n = 0;
    for (const char *p = s; p && *p && n < max; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        out[n++] = atoi(p);
    return n;
}
