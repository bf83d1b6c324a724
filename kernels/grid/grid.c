/* grid.c -- CPU twin of kernels/grid/grid.cu: the structured-grid primitives
 * (residual, restriction, prolongation, red-black Gauss-Seidel, monitoring, and
 * HOMG's filter/gather/iterate), plain C with OpenMP. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "grid_kernels.h"
#include "grid_point.h"

#define PER_TYPE_TMPL "grid/grid_tmpl.h"
#include "core/per_type.h"

/* Each entry dispatches on the precision. */
#define DISPATCH(p, call_f, call_d) \
    do {                            \
        if ((p) == HOMG_FLOAT64)    \
            call_d;                 \
        else                        \
            call_f;                 \
    } while (0)

static homg_status cpu_residual(kernel_exec *ex, homg_precision p, const grid_level *L, const void *u, const void *f,
                                void *r)
{
    (void)ex;
    DISPATCH(p, residual_f(L, u, f, r), residual_d(L, u, f, r));
    return HOMG_OK;
}

static homg_status cpu_residual_restrict(kernel_exec *ex, homg_precision p, const grid_level *L, const void *u,
                                         const void *f, void *fc)
{
    (void)ex;
    DISPATCH(p, residual_restrict_f(L, u, f, fc), residual_restrict_d(L, u, f, fc));
    return HOMG_OK;
}

static homg_status cpu_prolong(kernel_exec *ex, homg_precision p, const grid_level *L, const void *ec, void *u,
                               int assign)
{
    (void)ex;
    DISPATCH(p, prolong_f(L, ec, u, assign), prolong_d(L, ec, u, assign));
    return HOMG_OK;
}

static homg_status cpu_smooth(kernel_exec *ex, homg_precision p, const grid_level *L, void *u, const void *f,
                              int sweeps)
{
    (void)ex;
    DISPATCH(p, smooth_f(L, u, f, sweeps), smooth_d(L, u, f, sweeps));
    return HOMG_OK;
}

/* The fused steps are, by definition, the composition of the plain ones; the
 * CUDA backend fuses them into one pass over memory. */
static homg_status cpu_smooth_restrict(kernel_exec *ex, homg_precision p, const grid_level *L, const void *u_in,
                                       void *u_out, const void *f, void *fc, int sweeps, int init, const void *ec)
{
    size_t bytes = (size_t)L->nx * L->ny * (p == HOMG_FLOAT64 ? sizeof(double) : sizeof(float));
    if (init == HOMG_INIT_ZERO)
        homg_cpu_memory_kernels.zero(ex, u_out, bytes);
    else if (init == HOMG_INIT_PROLONG)
        cpu_prolong(ex, p, L, ec, u_out, 1);
    else
        homg_cpu_memory_kernels.copy(ex, u_out, u_in, bytes, HOMG_D2D);
    cpu_smooth(ex, p, L, u_out, f, sweeps);
    return cpu_residual_restrict(ex, p, L, u_out, f, fc);
}

static homg_status cpu_prolong_smooth(kernel_exec *ex, homg_precision p, const grid_level *L, const void *ec,
                                      const void *u_in, void *u_out, const void *f, int sweeps, int assign)
{
    size_t bytes = (size_t)L->nx * L->ny * (p == HOMG_FLOAT64 ? sizeof(double) : sizeof(float));
    if (!assign)
        homg_cpu_memory_kernels.copy(ex, u_out, u_in, bytes, HOMG_D2D);
    cpu_prolong(ex, p, L, ec, u_out, assign);
    return cpu_smooth(ex, p, L, u_out, f, sweeps);
}

/* The mid step: the up step's composition, then the down step's on u_out (so it runs the
 * same sweeps in the same order as the two steps: equal results to the last bit). */
static int cpu_mid_fits(homg_precision p, const grid_level *L, int sweeps, const void *const ptrs[4])
{
    (void)p;
    (void)L;
    (void)ptrs;
    return sweeps >= 1 && sweeps <= 3;
}

static homg_status cpu_prolong_smooth_restrict(kernel_exec *ex, homg_precision p, const grid_level *L, const void *ec,
                                               const void *u_in, void *u_out, const void *f, void *fc, int sweeps)
{
    HOMG_TRY(cpu_prolong_smooth(ex, p, L, ec, u_in, u_out, f, sweeps, 0));
    return cpu_residual_restrict(ex, p, L, u_out, f, fc);
}

static homg_status cpu_coarse_solve(kernel_exec *ex, homg_precision p, const grid_level *L, void *u, const void *f,
                                    int sweeps)
{
    size_t bytes = (size_t)L->nx * L->ny * (p == HOMG_FLOAT64 ? sizeof(double) : sizeof(float));
    homg_cpu_memory_kernels.zero(ex, u, bytes);
    return cpu_smooth(ex, p, L, u, f, sweeps);
}

static homg_status cpu_coarse_exact(kernel_exec *ex, homg_precision p, const grid_level *L, void *u, const void *f,
                                    const void *qx, const void *qy, const void *inv_eig)
{
    (void)ex;
    DISPATCH(p, coarse_exact_f(L, u, f, qx, qy, inv_eig), coarse_exact_d(L, u, f, qx, qy, inv_eig));
    return HOMG_OK;
}

static homg_status cpu_exact_wide(kernel_exec *ex, homg_precision p, const grid_level *L, void *u, const void *f,
                                  const grid_exact_wide *W)
{
    if (L->nx < 1 || L->ny < 1 || L->nx > HOMG_EXACT_WIDE_MAX || L->ny > HOMG_EXACT_WIDE_MAX || W->split < 1 ||
        W->split > HOMG_EXACT_WIDE_SPLIT)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "exact_wide: %d x %d, split %d", L->nx, L->ny, W->split);
    DISPATCH(p, exact_wide_f(L, u, f, W), exact_wide_d(L, u, f, W));
    return HOMG_OK;
}

static homg_status cpu_restrict_boundary(kernel_exec *ex, homg_precision p, const grid_level *L, void *const out[4])
{
    (void)ex;
    DISPATCH(p, restrict_boundary_f(L, out), restrict_boundary_d(L, out));
    return HOMG_OK;
}

static homg_status cpu_add(kernel_exec *ex, homg_precision p, size_t n, const void *x, void *y)
{
    (void)ex;
    DISPATCH(p, add_f(n, x, y), add_d(n, x, y));
    return HOMG_OK;
}

static homg_status cpu_monitor(kernel_exec *ex, homg_precision p, const grid_level *L, const void *u, const void *f,
                               const void *u_ref, double *scratch, double *hist, int *count)
{
    (void)ex;
    (void)scratch;
    DISPATCH(p, monitor_f(L, u, f, u_ref, hist, count), monitor_d(L, u, f, u_ref, hist, count));
    return HOMG_OK;
}

static homg_status cpu_find_nonfinite(kernel_exec *ex, homg_precision p, size_t n, const void *x, long long *flag)
{
    (void)ex;
    DISPATCH(p, find_nonfinite_f(n, x, flag), find_nonfinite_d(n, x, flag));
    return HOMG_OK;
}

/* The twin of the fused form: the filter, then the gather of its result, then the zeroing */
static homg_status cpu_homg_filter(kernel_exec *ex, homg_precision p, int nx, int ny, int s, const void *src, void *dst,
                                   const mfmg_level *H, void *compact, int zero_dst)
{
    (void)ex;
    DISPATCH(p, homg_filter_f(nx, ny, s, src, dst), homg_filter_d(nx, ny, s, src, dst));
    if (compact && H)
        DISPATCH(p, homg_gather_f(nx, ny, H, dst, compact), homg_gather_d(nx, ny, H, dst, compact));
    if (zero_dst)
        memset(dst, 0, (size_t)nx * ny * (p == HOMG_FLOAT64 ? sizeof(double) : sizeof(float)));
    return HOMG_OK;
}

static homg_status cpu_homg_gather(kernel_exec *ex, homg_precision p, int nx, int ny, const mfmg_level *H,
                                   const void *src, void *compact)
{
    (void)ex;
    DISPATCH(p, homg_gather_f(nx, ny, H, src, compact), homg_gather_d(nx, ny, H, src, compact));
    return HOMG_OK;
}

static homg_status cpu_homg_iterate(kernel_exec *ex, homg_precision p, const grid_level *L, const mfmg_level *H,
                                    const void *fm, const void *u_in, void *u_out)
{
    (void)ex;
    DISPATCH(p, homg_iterate_f(L, H, fm, u_in, u_out), homg_iterate_d(L, H, fm, u_in, u_out));
    return HOMG_OK;
}

static homg_status cpu_homg_iterate_marked(kernel_exec *ex, homg_precision p, const grid_level *L, const mfmg_level *H,
                                           const mfmg_level *W, const void *fm, const void *u_in, void *u_out)
{
    (void)ex;
    DISPATCH(p, homg_iterate_marked_f(L, H, W, fm, u_in, u_out), homg_iterate_marked_d(L, H, W, fm, u_in, u_out));
    return HOMG_OK;
}

const grid_kernels homg_cpu_grid_kernels = {
    cpu_residual,
    cpu_residual_restrict,
    cpu_prolong,
    cpu_smooth,
    cpu_smooth_restrict,
    cpu_prolong_smooth,
    cpu_coarse_solve,
    cpu_coarse_exact,
    cpu_exact_wide,
    cpu_restrict_boundary,
    cpu_add,
    cpu_monitor,
    cpu_find_nonfinite,
    cpu_homg_filter,
    cpu_homg_gather,
    cpu_homg_iterate,
    cpu_homg_iterate_marked,
    homg_cpu_grid_tol_check,
    cpu_mid_fits,
    cpu_prolong_smooth_restrict,
};
