/* devcopy.c -- see devcopy.h. */
#include "devcopy.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>

static void check(homg_ctx *ctx, homg_status st, const char *what)
{
    if (st != HOMG_OK) {
        fprintf(stderr, "%s: %s\n", what, ctx ? homg_ctx_last_error(ctx) : homg_status_string(st));
        abort();
    }
}

homg_ctx *homg_test_ctx_1thread(homg_backend b)
{
    homg_ctx_desc d = { 0 };
    homg_ctx *ctx = NULL;
    d.backend = b;
    d.cpu_threads = 1;
    check(NULL, homg_ctx_create(&d, &ctx), "homg_ctx_create");
    return ctx;
}

void *homg_test_up(homg_ctx *ctx, const void *host, size_t bytes)
{
    void *d = NULL;
    check(ctx, homg_alloc(ctx, bytes ? bytes : 8, &d), "homg_alloc");
    if (bytes && host)
        check(ctx, homg_copy_from_host(ctx, d, host, bytes), "homg_copy_from_host");
    return d;
}

void homg_test_down(homg_ctx *ctx, void *host, const void *dev, size_t bytes)
{
    check(ctx, homg_ctx_synchronize(ctx), "homg_ctx_synchronize");
    if (bytes)
        check(ctx, homg_copy_to_host(ctx, host, dev, bytes), "homg_copy_to_host");
}

double homg_test_diff_f(homg_ctx *ctx, const float *dev, const float *host, size_t n)
{
    float *g = (float *)malloc(n * sizeof(float));
    double *x = (double *)malloc(n * sizeof(double)), *y = (double *)malloc(n * sizeof(double)), r;
    homg_test_down(ctx, g, dev, n * sizeof(float));
    for (size_t k = 0; k < n; k++)
        x[k] = g[k], y[k] = host[k];
    r = homg_rel_diff(x, y, n);
    free(g), free(x), free(y);
    return r;
}
