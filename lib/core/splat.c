/* splat.c -- checks of homg_splat arrays, shared by every *_splat entry. */
#include "core/internal.h"

#include <math.h>

static homg_status check_one(homg_ctx *ctx, const char *fn, int dim, const homg_splat *s, int i)
{
    for (int c = 0; c < dim; c++)
        if (!isfinite(s->center[c]))
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: splats[%d].center[%d] is %g, not a finite number",
                              fn, i, c, s->center[c]);
    if (!(s->width > 0) || !isfinite(s->width))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "%s: splats[%d].width is %g; it must be positive and finite", fn, i, s->width);
    if (!isfinite(s->amount))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: splats[%d].amount is %g, not a finite number", fn, i,
                          s->amount);
    return HOMG_OK;
}

homg_status homg__check_splats(homg_ctx *ctx, const char *fn, int dim, const homg_splat *splats, int n)
{
    if (n < 0 || (n > 0 && !splats))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: num_splats is %d with splats %s", fn, n,
                          splats ? "given" : "NULL");
    for (int i = 0; i < n; i++)
        HOMG_TRY(check_one(ctx, fn, dim, &splats[i], i));
    return HOMG_OK;
}
