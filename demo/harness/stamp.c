/* stamp.c -- what the painting demos share: a disc stamped into a host copy of
 * a field, and the band of rows changed since the last copy to the device. */
#include "harness/harness.h"

#include <string.h>

void demo_rows_none(demo_rows *rows, int n)
{
    rows->lo = n;
    rows->hi = -1;
}

void demo_rows_all(demo_rows *rows, int n)
{
    rows->lo = 0;
    rows->hi = n - 1;
}

void demo_stamp_disc(void *field, size_t elem, const void *value, int n, double x, double y, int r, demo_rows *rows)
{
    int ci = (int)(x * n), cj = (int)(y * n);
    int lo = cj - r < 0 ? 0 : cj - r, hi = cj + r >= n ? n - 1 : cj + r;
    if (ci < 0 || cj < 0 || ci >= n || cj >= n)
        return;
    for (int j = lo; j <= hi; j++)
        for (int i = ci - r; i <= ci + r; i++)
            if (i >= 0 && i < n && (i - ci) * (i - ci) + (j - cj) * (j - cj) <= r * r)
                memcpy((char *)field + elem * (i + (size_t)n * j), value, elem);
    rows->lo = lo < rows->lo ? lo : rows->lo;
    rows->hi = hi > rows->hi ? hi : rows->hi;
}
