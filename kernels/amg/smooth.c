/* smooth.c -- CPU backend: damped and l1 Jacobi, and the patch block
 * Jacobi smoother of seed 000 (5.1.2, 5.2.2) on the patchSPM parts. */
#include <math.h>

#include "amg_common.h"
#include "amg_kernels.h"

homg_status homg_cpu_amg_diag(kernel_exec *ex, const csr_matrix *a, int kind, float *d)
{
    const float *v = (const float *)a->values;
    (void)ex;
#pragma omp parallel for schedule(static) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++) {
        float l1, dii = amg_row_diag_l1(a->row_ptr, a->col_idx, v, i, &l1);
        d[i] = kind == 0 ? dii : amg_inv_diag(kind == 1 ? dii : l1);
    }
    return HOMG_OK;
}

/* r = b - A x, b float (b32) or double. */
static void residual(const csr_matrix *a, const float *b32, const double *b64, const float *x, float *r)
{
    const float *v = (const float *)a->values;
#pragma omp parallel for schedule(static) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++) {
        float s = 0;
        for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
            s += v[k] * x[a->col_idx[k]];
        r[i] = (b32 ? b32[i] : (float)b64[i]) - s;
    }
}

homg_status homg_cpu_amg_residual(kernel_exec *ex, const csr_matrix *a, const float *b, const float *x, float *r)
{
    (void)ex;
    residual(a, b, NULL, x, r);
    return HOMG_OK;
}

homg_status homg_cpu_amg_residual_b64(kernel_exec *ex, const csr_matrix *a, const double *b, const float *x, float *r)
{
    (void)ex;
    residual(a, NULL, b, x, r);
    return HOMG_OK;
}

homg_status homg_cpu_amg_jacobi_correct(kernel_exec *ex, int32_t n, const float *dinv, double omega, const float *r,
                                        float *x, int zero)
{
    float w = (float)omega;
    (void)ex;
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN)
    for (int32_t i = 0; i < n; i++)
        x[i] = (zero ? 0.0f : x[i]) + w * dinv[i] * r[i];
    return HOMG_OK;
}

homg_status homg_cpu_amg_jacobi_zero_residual(kernel_exec *ex, const csr_matrix *a, const float *dinv, double omega,
                                              const float *b, float *x, float *r)
{
    const float *v = (const float *)a->values;
    float w = (float)omega;
    (void)ex;
#pragma omp parallel for schedule(static) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++) {
        float s = 0;
        for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
            int32_t j = a->col_idx[k];
            s += v[k] * (w * dinv[j] * b[j]);
        }
        x[i] = w * dinv[i] * b[i];
        r[i] = b[i] - s;
    }
    return HOMG_OK;
}

homg_status homg_cpu_amg_cheb_residual(kernel_exec *ex, const csr_matrix *a, const float *dinv, const void *b,
                                       homg_precision bp, float *x, float *d, double c_d, double c_r, int first,
                                       int zero_x)
{
    const float *v = (const float *)a->values, *b32 = bp == HOMG_FLOAT32 ? (const float *)b : NULL;
    const double *b64 = (const double *)b;
    float cd = (float)c_d, cr = (float)c_r;
    (void)ex;
#pragma omp parallel for schedule(static) if (a->nrows > HOMG_OMP_MIN)
    for (int32_t i = 0; i < a->nrows; i++) {
        float s = 0, di;
        if (!zero_x)
            for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
                s += v[k] * x[a->col_idx[k]];
        di = amg_cheb_dir(first ? 0.0f : d[i], (b32 ? b32[i] : (float)b64[i]) - s, dinv[i], cd, cr, first);
        d[i] = di;
        if (zero_x)
            x[i] = di;
    }
    return HOMG_OK;
}

homg_status homg_cpu_amg_add(kernel_exec *ex, int32_t n, const float *d, float *x)
{
    (void)ex;
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN)
    for (int32_t i = 0; i < n; i++)
        x[i] += d[i];
    return HOMG_OK;
}

/* out = in - boundary * x is the residual of the boundary part. */
homg_status homg_cpu_amg_patch_boundary(kernel_exec *ex, const amg_patches *pt, const float *x, const float *in,
                                        float *out)
{
    return homg_cpu_amg_residual(ex, &pt->boundary, in, x, out);
}

/* One patch, as one CUDA block does it: rows t of the patch own rhs[t], g[t]. */
static void smooth_patch(const amg_patches *pt, int32_t p, const float *b, const float *rhs_in, float *x, float *r,
                         int zero, int inner, float w_in, float w_out, float *rhs, float *g, float *gn)
{
    int32_t s0 = pt->start[p], m = pt->start[p + 1] - s0;
    for (int32_t t = 0; t < m; t++) {
        int32_t pos = s0 + t, i = pt->perm[pos];
        float s = zero ? b[i] : rhs_in[i];
        if (!zero) {
            for (int32_t k = pt->inner_ptr[pos]; k < pt->inner_ptr[pos + 1]; k++)
                s -= pt->inner_val[k] * x[pt->perm[s0 + pt->inner_col[k]]];
            s -= pt->diag[pos] * x[i];
        }
        rhs[t] = s;
        g[t] = 0;
    }
    for (int it = 0; it < inner; it++) {
        for (int32_t t = 0; t < m; t++) {
            int32_t pos = s0 + t;
            float s = rhs[t];
            for (int32_t k = pt->inner_ptr[pos]; k < pt->inner_ptr[pos + 1]; k++)
                s -= pt->inner_val[k] * g[pt->inner_col[k]];
            s -= pt->block_diag[pos] * g[t];
            gn[t] = g[t] + w_in * s * pt->jac_inv[pos];
        }
        for (int32_t t = 0; t < m; t++)
            g[t] = gn[t];
    }
    /* g now holds the update; gn becomes the patch's new x. */
    for (int32_t t = 0; t < m; t++) {
        int32_t i = pt->perm[s0 + t];
        gn[t] = (zero ? 0.0f : x[i]) + w_out * g[t];
    }
    for (int32_t t = 0; t < m; t++)
        x[pt->perm[s0 + t]] = gn[t];
    if (r)
        for (int32_t t = 0; t < m; t++) {
            int32_t pos = s0 + t, i = pt->perm[pos];
            float s = b[i];
            for (int32_t k = pt->inner_ptr[pos]; k < pt->inner_ptr[pos + 1]; k++)
                s -= pt->inner_val[k] * gn[pt->inner_col[k]];
            s -= pt->diag[pos] * gn[t];
            r[i] = s;
        }
}

homg_status homg_cpu_amg_patch_smooth(kernel_exec *ex, const amg_patches *pt, const float *b, const float *rhs,
                                      float *x, float *r, int zero, int inner, double w_in, double w_out)
{
    if (pt->max_size > HOMG_PATCH_MAX)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "patch of %d rows exceeds %d", pt->max_size,
                              HOMG_PATCH_MAX);
#pragma omp parallel for schedule(dynamic, 16) if (pt->count > 64)
    for (int32_t p = 0; p < pt->count; p++) {
        float buf[3 * HOMG_PATCH_MAX];
        smooth_patch(pt, p, b, rhs, x, r, zero, inner, (float)w_in, (float)w_out, buf, buf + HOMG_PATCH_MAX,
                     buf + 2 * HOMG_PATCH_MAX);
    }
    return HOMG_OK;
}
