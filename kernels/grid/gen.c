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

/* float16 grids: coefficients in float (T), vectors in half (gen_half.h). */
#include "gen_half.h"
#define T                float
#define SUFFIX           h
#define GEN_HALF_STORAGE 1
#define GEN_V            gen_h16
#define GEN_LD(x)        ((double)gen_half_to_float(x))
#define GEN_ST(v)        gen_float_to_half((float)(v))
#include "gen_point_tmpl.h"
#include "gen_tmpl.h"
#undef T
#undef SUFFIX
#undef GEN_HALF_STORAGE
#undef GEN_V
#undef GEN_LD
#undef GEN_ST

/* Coefficient kernels (setup_fine, coarsen, check_operator): a float16 grid's
 * coefficients are float32, so it runs the float ones. */
#define DISPATCH(p, call_f, call_d) \
    do {                            \
        if ((p) == HOMG_FLOAT64)    \
            call_d;                 \
        else                        \
            call_f;                 \
    } while (0)

/* Vector kernels: float16 vectors run the _h instances. */
#define DISPATCH3(p, call_f, call_d, call_h) \
    do {                                     \
        if ((p) == HOMG_FLOAT64)             \
            call_d;                          \
        else if ((p) == HOMG_FLOAT16)        \
            call_h;                          \
        else                                 \
            call_f;                          \
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
    DISPATCH3(p, smooth_f(L, (float *)u, (const float *)f, colour), smooth_d(L, (double *)u, (const double *)f, colour),
              smooth_h(L, (gen_h16 *)u, (const gen_h16 *)f, colour));
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
    DISPATCH3(p, smooth_from_zero_f(L, (float *)u, (const float *)f),
              smooth_from_zero_d(L, (double *)u, (const double *)f),
              smooth_from_zero_h(L, (gen_h16 *)u, (const gen_h16 *)f));
    return HOMG_OK;
}

homg_status homg_cpu_gen_prolong_smooth(kernel_exec *ex, homg_precision p, const gen_level *L, const gen_level *C,
                                        const void *ec, void *u, const void *f)
{
    (void)ex;
    DISPATCH3(p, prolong_smooth_f(L, C, (const float *)ec, (float *)u, (const float *)f),
              prolong_smooth_d(L, C, (const double *)ec, (double *)u, (const double *)f),
              prolong_smooth_h(L, C, (const gen_h16 *)ec, (gen_h16 *)u, (const gen_h16 *)f));
    return HOMG_OK;
}

homg_status homg_cpu_gen_coarse_solve(kernel_exec *ex, homg_precision p, const gen_level *L, void *u, const void *f,
                                      int sweeps)
{
    (void)ex;
    DISPATCH3(p, coarse_solve_f(L, (float *)u, (const float *)f, sweeps),
              coarse_solve_d(L, (double *)u, (const double *)f, sweeps),
              coarse_solve_h(L, (gen_h16 *)u, (const gen_h16 *)f, sweeps));
    return HOMG_OK;
}

homg_status homg_cpu_gen_coarse_matrix(kernel_exec *ex, homg_precision p, const gen_level *L, int sweeps, void *m)
{
    (void)ex;
    if (gen_cells(L) > GEN_COARSE_MATRIX_CELLS)
        return HOMG_ERROR_INVALID_ARGUMENT;
    DISPATCH3(p, coarse_matrix_f(L, sweeps, (float *)m), coarse_matrix_d(L, sweeps, (double *)m),
              coarse_matrix_h(L, sweeps, (gen_h16 *)m));
    return HOMG_OK;
}

homg_status homg_cpu_gen_coarse_apply(kernel_exec *ex, homg_precision p, const gen_level *L, const void *m, void *u,
                                      const void *f)
{
    (void)ex;
    if (gen_cells(L) > GEN_COARSE_MATRIX_CELLS)
        return HOMG_ERROR_INVALID_ARGUMENT;
    DISPATCH3(p, coarse_apply_f(L, (const float *)m, (float *)u, (const float *)f),
              coarse_apply_d(L, (const double *)m, (double *)u, (const double *)f),
              coarse_apply_h(L, (const gen_h16 *)m, (gen_h16 *)u, (const gen_h16 *)f));
    return HOMG_OK;
}

homg_status homg_cpu_gen_block_vcycle(kernel_exec *ex, homg_precision p, const gen_block *B)
{
    (void)ex;
    DISPATCH3(p, block_level_f(B, 0), block_level_d(B, 0), block_level_h(B, 0));
    return HOMG_OK;
}

homg_status homg_cpu_gen_residual_restrict(kernel_exec *ex, homg_precision p, const gen_level *L, const gen_level *C,
                                           const void *u, const void *f, void *fc)
{
    (void)ex;
    DISPATCH3(p, residual_restrict_f(L, C, (const float *)u, (const float *)f, (float *)fc),
              residual_restrict_d(L, C, (const double *)u, (const double *)f, (double *)fc),
              residual_restrict_h(L, C, (const gen_h16 *)u, (const gen_h16 *)f, (gen_h16 *)fc));
    return HOMG_OK;
}

homg_status homg_cpu_gen_prolong_add(kernel_exec *ex, homg_precision p, const gen_level *L, const gen_level *C,
                                     const void *ec, void *u)
{
    (void)ex;
    DISPATCH3(p, prolong_add_f(L, C, (const float *)ec, (float *)u),
              prolong_add_d(L, C, (const double *)ec, (double *)u),
              prolong_add_h(L, C, (const gen_h16 *)ec, (gen_h16 *)u));
    return HOMG_OK;
}

homg_status homg_cpu_gen_residual(kernel_exec *ex, homg_precision p, const gen_level *L, const gen_fine *F,
                                  const void *u, const void *f, void *r, double *rr)
{
    (void)ex;
    DISPATCH3(p, residual_f(L, F, (const float *)u, (const float *)f, (float *)r, rr),
              residual_d(L, F, (const double *)u, (const double *)f, (double *)r, rr),
              residual_h(L, F, (const gen_h16 *)u, (const gen_h16 *)f, (gen_h16 *)r, rr));
    return HOMG_OK;
}

homg_status homg_cpu_gen_apply(kernel_exec *ex, homg_precision p, const gen_level *L, const void *x, void *q,
                               double *xq)
{
    (void)ex;
    DISPATCH3(p, apply_f(L, (const float *)x, (float *)q, xq), apply_d(L, (const double *)x, (double *)q, xq),
              apply_h(L, (const gen_h16 *)x, (gen_h16 *)q, xq));
    return HOMG_OK;
}

homg_status homg_cpu_gen_dot2(kernel_exec *ex, homg_precision p, size_t n, const void *a, const void *b, const void *c,
                              double *out)
{
    (void)ex;
    DISPATCH3(p, dot2_f(n, (const float *)a, (const float *)b, (const float *)c, out),
              dot2_d(n, (const double *)a, (const double *)b, (const double *)c, out),
              dot2_h(n, (const gen_h16 *)a, (const gen_h16 *)b, (const gen_h16 *)c, out));
    return HOMG_OK;
}

homg_status homg_cpu_gen_update_ur(kernel_exec *ex, homg_precision p, size_t n, const unsigned char *flag, void *u,
                                   const void *pv, void *r, const void *q, double *s)
{
    (void)ex;
    DISPATCH3(p, update_ur_f(n, flag, (float *)u, (const float *)pv, (float *)r, (const float *)q, s),
              update_ur_d(n, flag, (double *)u, (const double *)pv, (double *)r, (const double *)q, s),
              update_ur_h(n, flag, (gen_h16 *)u, (const gen_h16 *)pv, (gen_h16 *)r, (const gen_h16 *)q, s));
    return HOMG_OK;
}

homg_status homg_cpu_gen_zero_active(kernel_exec *ex, homg_precision p, size_t n, const unsigned char *flag, void *u)
{
    (void)ex;
    DISPATCH3(p, zero_active_f(n, flag, (float *)u), zero_active_d(n, flag, (double *)u),
              zero_active_h(n, flag, (gen_h16 *)u));
    return HOMG_OK;
}

homg_status homg_cpu_gen_update_p(kernel_exec *ex, homg_precision p, size_t n, const void *z, void *pv, const double *s)
{
    (void)ex;
    DISPATCH3(p, update_p_f(n, (const float *)z, (float *)pv, s), update_p_d(n, (const double *)z, (double *)pv, s),
              update_p_h(n, (const gen_h16 *)z, (gen_h16 *)pv, s));
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
    DISPATCH3(p, error_norm_f(n, flag, (const float *)u, (const float *)ref, s),
              error_norm_d(n, flag, (const double *)u, (const double *)ref, s),
              error_norm_h(n, flag, (const gen_h16 *)u, (const gen_h16 *)ref, s));
    return HOMG_OK;
}

homg_status homg_cpu_gen_island_sum(kernel_exec *ex, homg_precision p, size_t n, const int *label, const void *x,
                                    double *sums)
{
    (void)ex;
    DISPATCH3(p, island_sum_f(n, label, (const float *)x, sums), island_sum_d(n, label, (const double *)x, sums),
              island_sum_h(n, label, (const gen_h16 *)x, sums));
    return HOMG_OK;
}

homg_status homg_cpu_gen_island_sub(kernel_exec *ex, homg_precision p, size_t n, const int *label, void *x,
                                    const double *sums, const double *inv_count, int nislands, double *proj)
{
    (void)ex;
    DISPATCH3(p, island_sub_f(n, label, (float *)x, sums, inv_count),
              island_sub_d(n, label, (double *)x, sums, inv_count),
              island_sub_h(n, label, (gen_h16 *)x, sums, inv_count));
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

homg_status homg_cpu_gen_nonfinite_h(kernel_exec *ex, size_t n, const void *x, long long *flag)
{
    const gen_h16 *h = (const gen_h16 *)x;
    (void)ex;
    for (size_t k = 0; k < n; k++)
        if ((h[k] & 0x7c00u) == 0x7c00u) { /* exponent all ones: inf or NaN */
            if (!*flag)
                *flag = (long long)k + 1;
            break;
        }
    return HOMG_OK;
}

size_t homg_cpu_gen_memory_available(kernel_exec *ex)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    (void)ex;
    return pages > 0 && size > 0 ? (size_t)pages * (size_t)size : 0;
}

const gen_kernels homg_cpu_gen_kernels = { .name = "cpu", GEN_KERNELS(HOMG_KERNEL_CPU_INIT) };
