/* per_type.h -- instantiates a per-type template header for float and double:
 * includes PER_TYPE_TMPL (and PER_TYPE_TMPL2 where defined) once with T = float,
 * SUFFIX f and once with T = double, SUFFIX d, then undefines all of them.  Name
 * the templates by their path under kernels/, e.g.
 *   #define PER_TYPE_TMPL "grid/grid_tmpl.h"
 *   #include "core/per_type.h"
 * No include guard: each use instantiates other templates. */
#define T      float
#define SUFFIX f
#include PER_TYPE_TMPL
#ifdef PER_TYPE_TMPL2
#include PER_TYPE_TMPL2
#endif
#undef T
#undef SUFFIX
#define T      double
#define SUFFIX d
#include PER_TYPE_TMPL
#ifdef PER_TYPE_TMPL2
#include PER_TYPE_TMPL2
#endif
#undef T
#undef SUFFIX
#undef PER_TYPE_TMPL
#undef PER_TYPE_TMPL2
