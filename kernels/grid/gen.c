/* gen.c -- CPU twin of kernels/grid/gen.cu: the general structured multigrid's
 * primitives (gen_kernels.h), plain C with OpenMP. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen_kernels.h"
#include "gen_point.h"

#define PER_TYPE_TMPL  "grid/gen_point_tmpl.h"
#define PER_TYPE_TMPL2 "grid/gen_tmpl.h"
#include "core/per_type.h"

#define DISPATCH(p, call_f, call_d) \
    do {                            \
        if ((p) == HOMG_FLOAT64)    \
            call_d;                 \
        else                        \
            call_f;                 \
    } while (0)

homg_status homg_cpu_gen_setup_fine(kernel_exec *ex, homg_precision p, const gen_level *L, const gen_fine *F,
                                    const void *lambda_cell, double lambda, const unsigned char *flags)
{
    (void)ex;
    DISPATCH(p, setup_fine_f(L, F, (const float *)lambda_cell, lambda, flags),
             setup_fine_d(L, F, (const double *)lambda_cell, lambda, flags));
    return HOMG_OK;
}

homg_status homg_cpu_gen_coarsen(kernel_exec *ex, homg_precision p, const gen_level *L, const gen_level *C)
{
    (void)ex;
    DISPATCH(p, coarsen_f(L, C), coarsen_d(L, C));
    return HOMG_OK;
}

homg_status homg_cpu_gen_smooth(kernel_exec *ex, homg_precision p, const gen_level *L, void *u, const void *f,
                                int colour)
{
    (void)ex;
    DISPATCH(p, smooth_f(L, (float *)u, (const float *)f, colour), smooth_d(L, (double *)u, (const double *)f, colour));
    return HOMG_OK;
}

homg_status homg_cpu_gen_sweeps(kernel_exec *ex, homg_precision p, const gen_level *L, void *u, const void *f, int n,
                                int reverse, int skip)
{
    for (int s = 0; s < n; s++)
        for (int h = s == 0 && skip ? 1 : 0; h < 2; h++)
            HOMG_TRY(homg_cpu_gen_smooth(ex, p, L, u, f, reverse ? 1 - h : h));
    return HOMG_OK;
}

homg_status homg_cpu_gen_smooth_from_zero(kernel_exec *ex, homg_precision p, const gen_level *L, void *u, const void *f)
{
    (void)ex;
    DISPATCH(p, smooth_from_zero_f(L, (float *)u, (const float *)f),
             smooth_from_zero_d(L, (double *)u, (const double *)f));
    return HOMG_OK;
}

homg_status homg_cpu_gen_prolong_smooth(kernel_exec *ex, homg_precision p, const gen_level *L, const gen_level *C,
                                        const void *ec, void *u, const void *f)
{
    (void)ex;
    DISPATCH(p, prolong_smooth_f(L, C, (const float *)ec, (float *)u, (const float *)f),
             prolong_smooth_d(L, C, (const double *)ec, (double *)u, (const double *)f));
    return HOMG_OK;
}

homg_status homg_cpu_gen_coarse_solve(kernel_exec *ex, homg_precision p, const gen_level *L, void *u, const void *f,
                                      int sweeps)
{
    (void)ex;
    DISPATCH(p, coarse_solve_f(L, (float *)u, (const float *)f, sweeps),
             coarse_solve_d(L, (double *)u, (const double *)f, sweeps));
    return HOMG_OK;
}

homg_status homg_cpu_gen_coarse_matrix(kernel_exec *ex, homg_precision p, const gen_level *L, int sweeps, void *m)
{
    (void)ex;
    if (gen_cells(L) > GEN_COARSE_MATRIX_CELLS)
        return HOMG_ERROR_INVALID_ARGUMENT;
    DISPATCH(p, coarse_matrix_f(L, sweeps, (float *)m), coarse_matrix_d(L, sweeps, (double *)m));
    return HOMG_OK;
}

homg_status homg_cpu_gen_coarse_apply(kernel_exec *ex, homg_precision p, const gen_level *L, const void *m, void *u,
                                      const void *f)
{
    (void)ex;
    if (gen_cells(L) > GEN_COARSE_MATRIX_CELLS)
        return HOMG_ERROR_INVALID_ARGUMENT;
    DISPATCH(p, coarse_apply_f(L, (const float *)m, (float *)u, (const float *)f),
             coarse_apply_d(L, (const double *)m, (double *)u, (const double *)f));
    return HOMG_OK;
}

homg_status homg_cpu_gen_block_vcycle(kernel_exec *ex, homg_precision p, const gen_block *B)
{
    (void)ex;
    DISPATCH(p, block_level_f(B, 0), block_level_d(B, 0));
    return HOMG_OK;
}

homg_status homg_cpu_gen_residual_restrict(kernel_exec *ex, homg_precision p, const gen_level *L, const gen_level *C,
                                           const void *u, const void *f, void *fc)
{
    (void)ex;
    DISPATCH(p, residual_restrict_f(L, C, (const float *)u, (const float *)f, (float *)fc),
             residual_restrict_d(L, C, (const double *)u, (const double *)f, (double *)fc));
    return HOMG_OK;
}

homg_status homg_cpu_gen_prolong_add(kernel_exec *ex, homg_precision p, const gen_level *L, const gen_level *C,
                                     const void *ec, void *u)
{
    (void)ex;
    DISPATCH(p, prolong_add_f(L, C, (const float *)ec, (float *)u),
             prolong_add_d(L, C, (const double *)ec, (double *)u));
    return HOMG_OK;
}

homg_status homg_cpu_gen_residual(kernel_exec *ex, homg_precision p, const gen_level *L, const gen_fine *F,
                                  const void *u, const void *f, void *r, double *rr)
{
    (void)ex;
    DISPATCH(p, residual_f(L, F, (const float *)u, (const float *)f, (float *)r, rr),
             residual_d(L, F, (const double *)u, (const double *)f, (double *)r, rr));
    return HOMG_OK;
}

homg_status homg_cpu_gen_apply(kernel_exec *ex, homg_precision p, const gen_level *L, const void *x, void *q,
                               double *xq)
{
    (void)ex;
    DISPATCH(p, apply_f(L, (const float *)x, (float *)q, xq), apply_d(L, (const double *)x, (double *)q, xq));
    return HOMG_OK;
}

homg_status homg_cpu_gen_dot2(kernel_exec *ex, homg_precision p, size_t n, const void *a, const void *b, const void *c,
                              double *out)
{
    (void)ex;
    DISPATCH(p, dot2_f(n, (const float *)a, (const float *)b, (const float *)c, out),
             dot2_d(n, (const double *)a, (const double *)b, (const double *)c, out));
    return HOMG_OK;
}

homg_status homg_cpu_gen_update_ur(kernel_exec *ex, homg_precision p, size_t n, const unsigned char *flag, void *u,
                                   const void *pv, void *r, const void *q, double *s)
{
    (void)ex;
    DISPATCH(p, update_ur_f(n, flag, (float *)u, (const float *)pv, (float *)r, (const float *)q, s),
             update_ur_d(n, flag, (double *)u, (const double *)pv, (double *)r, (const double *)q, s));
    return HOMG_OK;
}

homg_status homg_cpu_gen_zero_active(kernel_exec *ex, homg_precision p, size_t n, const unsigned char *flag, void *u)
{
    (void)ex;
    DISPATCH(p, zero_active_f(n, flag, (float *)u), zero_active_d(n, flag, (double *)u));
    return HOMG_OK;
}

homg_status homg_cpu_gen_update_p(kernel_exec *ex, homg_precision p, size_t n, const void *z, void *pv, const double *s)
{
    (void)ex;
    DISPATCH(p, update_p_f(n, (const float *)z, (float *)pv, s), update_p_d(n, (const double *)z, (double *)pv, s));
    return HOMG_OK;
}

/* The scalar step (shared arithmetic with the CUDA one-thread kernel). */
homg_status homg_cpu_gen_scalars(kernel_exec *ex, double *s, int step, int ref, double *hist, int *count)
{
    (void)ex;
    gen_scalar_step(s, step, ref, hist, count);
    return HOMG_OK;
}

homg_status homg_cpu_gen_error_norm(kernel_exec *ex, homg_precision p, size_t n, const unsigned char *flag,
                                    const void *u, const void *ref, double *s)
{
    (void)ex;
    DISPATCH(p, error_norm_f(n, flag, (const float *)u, (const float *)ref, s),
             error_norm_d(n, flag, (const double *)u, (const double *)ref, s));
    return HOMG_OK;
}

homg_status homg_cpu_gen_island_sum(kernel_exec *ex, homg_precision p, size_t n, const int *label, const void *x,
                                    double *sums)
{
    (void)ex;
    DISPATCH(p, island_sum_f(n, label, (const float *)x, sums), island_sum_d(n, label, (const double *)x, sums));
    return HOMG_OK;
}

homg_status homg_cpu_gen_island_sub(kernel_exec *ex, homg_precision p, size_t n, const int *label, void *x,
                                    const double *sums, const double *inv_count, int nislands, double *proj)
{
    (void)ex;
    DISPATCH(p, island_sub_f(n, label, (float *)x, sums, inv_count),
             island_sub_d(n, label, (double *)x, sums, inv_count));
    if (proj)
        gen_island_max(sums, inv_count, nislands, proj);
    return HOMG_OK;
}

homg_status homg_cpu_gen_check_operator(kernel_exec *ex, homg_precision p, size_t n, const void *sigma,
                                        const void *lambda, const unsigned char *flags, long long *bad)
{
    (void)ex;
    DISPATCH(p, check_operator_f(n, (const float *)sigma, (const float *)lambda, flags, bad),
             check_operator_d(n, (const double *)sigma, (const double *)lambda, flags, bad));
    return HOMG_OK;
}

size_t homg_cpu_gen_memory_available(kernel_exec *ex)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    (void)ex;
    return pages > 0 && size > 0 ? (size_t)pages * (size_t)size : 0;
}

const gen_kernels homg_cpu_gen_kernels = { .name = "cpu", GEN_KERNELS(HOMG_KERNEL_CPU_INIT) };
