/* view.c -- CPU backend of the view: the write and range loops (CUDA twin:
 * view.cu).  The interop entries are in interop.c. */
#include "view/view_kernels.h"
#include "view/colormap.h"

#include <math.h>

static const unsigned char stops[VIEW_COLORMAP_NUM_STOPS][3] = VIEW_COLORMAP_STOPS;

static float value_at(const view_src *s, int64_t i, int64_t j)
{
    int64_t k = s->offset + i * s->sx + j * s->sy;
    return s->precision == HOMG_FLOAT64 ? (float)((const double *)s->values)[k] : ((const float *)s->values)[k];
}

homg_status homg_cpu_view_range(kernel_exec *ex, const view_src *src, int32_t *range)
{
    int32_t lo = VIEW_RANGE_EMPTY_LO, hi = VIEW_RANGE_EMPTY_HI;
    (void)ex;
#pragma omp parallel for reduction(min : lo) reduction(max : hi) schedule(static)
    for (int32_t j = 0; j < src->h; j++)
        for (int32_t i = 0; i < src->w; i++) {
            float v = value_at(src, i, j);
            if (isfinite(v)) {
                int32_t key = view_float_key(v);
                lo = key < lo ? key : lo;
                hi = key > hi ? key : hi;
            }
        }
    range[0] = lo;
    range[1] = hi;
    return HOMG_OK;
}

homg_status homg_cpu_view_write(kernel_exec *ex, const view_src *src, const view_dst *dst)
{
    float lo = dst->lo, hi = dst->hi;
    if (!dst->ptr)
        return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "the CPU backend writes memory, not CUDA surfaces");
    if (dst->range)
        view_range_read(dst->range, &lo, &hi);
#pragma omp parallel for schedule(static)
    for (int32_t j = 0; j < src->h; j++) {
        size_t row = (size_t)src->w * (size_t)j;
        for (int32_t i = 0; i < src->w; i++) {
            float v = value_at(src, i, j);
            if (dst->rgba8)
                ((uint32_t *)dst->ptr)[row + i] = view_colour(stops, v, lo, hi);
            else
                ((float *)dst->ptr)[row + i] = v;
        }
    }
    return HOMG_OK;
}
