/* coeffs.c -- homg_fem_assemble's input checks: the scalars, the pointers, the
 * Neumann table, and every entry of the coefficient arrays scanned where they
 * live (one reduction per array, one word each read back together). */
#include "fem_internal.h"

#include <math.h>
#include <string.h>

static homg_status check_scalar(homg_ctx *ctx, const char *name, double v, int positive)
{
    if (!isfinite(v) || (positive ? !(v > 0) : v < 0))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_fem_assemble: coeffs.%s = %g must be %s", name, v,
                          positive ? "positive and finite" : "finite and >= 0");
    return HOMG_OK;
}

static homg_status check_pointer(homg_ctx *ctx, const void *p, const char *name)
{
    return p ? homg__check_pointer(ctx, p, name) : HOMG_OK;
}

static homg_status check_scalars(homg_ctx *ctx, const homg_fem_coeffs *c)
{
    HOMG_TRY(check_scalar(ctx, "sigma", c->sigma == 0 ? 1.0 : c->sigma, 1));
    HOMG_TRY(check_scalar(ctx, "lambda", c->lambda, 0));
    if (!isfinite(c->f) || !isfinite(c->dirichlet_value))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_fem_assemble: coeffs.%s is not finite",
                          isfinite(c->f) ? "dirichlet_value" : "f");
    HOMG_TRY(check_pointer(ctx, c->sigma_elem, "coeffs.sigma_elem"));
    HOMG_TRY(check_pointer(ctx, c->sigma_tensor, "coeffs.sigma_tensor"));
    HOMG_TRY(check_pointer(ctx, c->lambda_elem, "coeffs.lambda_elem"));
    HOMG_TRY(check_pointer(ctx, c->f_elem, "coeffs.f_elem"));
    HOMG_TRY(check_pointer(ctx, c->f_node, "coeffs.f_node"));
    HOMG_TRY(check_pointer(ctx, c->dirichlet_values, "coeffs.dirichlet_values"));
    return HOMG_OK;
}

/* The Neumann arrays (host) into the table the kernels take by value. */
static homg_status flux_table(homg_ctx *ctx, const homg_fem_coeffs *c, fem_flux_table *t)
{
    memset(t, 0, sizeof *t);
    if (c->num_neumann < 0 || c->num_neumann > HOMG_FEM_MAX_NEUMANN)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_fem_assemble: coeffs.num_neumann = %d; 0 .. %d facet tags", c->num_neumann,
                          HOMG_FEM_MAX_NEUMANN);
    if (c->num_neumann > 0 && (!c->neumann_tags || !c->neumann_flux))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_fem_assemble: coeffs.num_neumann = %d with %s NULL",
                          c->num_neumann, c->neumann_tags ? "neumann_flux" : "neumann_tags");
    for (int i = 0; i < c->num_neumann; i++) {
        if (!isfinite(c->neumann_flux[i]))
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                              "homg_fem_assemble: coeffs.neumann_flux[%d] = %g (tag %d) must be finite", i,
                              c->neumann_flux[i], (int)c->neumann_tags[i]);
        t->tag[i] = c->neumann_tags[i];
        t->flux[i] = c->neumann_flux[i];
    }
    t->n = c->num_neumann;
    return HOMG_OK;
}

/* One array to scan: items of `rule` (fem_check.h). */
typedef struct coeff_array {
    const double *x;
    const char *name;
    int64_t n;
    int rule;
    const uint8_t *mask;
} coeff_array;

static const char *rule_text(int rule)
{
    return rule == FEM_CHECK_FINITE        ? "must be finite"
           : rule == FEM_CHECK_NONNEGATIVE ? "must be finite and >= 0"
           : rule == FEM_CHECK_POSITIVE    ? "must be positive and finite"
                                           : "must be a finite symmetric positive semi-definite tensor";
}

/* The failure for item i of a: its value(s) read back (the error path only). */
static homg_status bad_entry(homg_fem *fem, const coeff_array *a, uint64_t i)
{
    homg_ctx *ctx = fem->ctx;
    int width = a->rule == FEM_CHECK_TENSOR2 ? 3 : a->rule == FEM_CHECK_TENSOR3 ? 6 : 1;
    double v[6] = { 0, 0, 0, 0, 0, 0 };
    char text[160];
    size_t used = 0;
    HOMG_TRY_BACKEND(ctx, ctx->mem->copy(&ctx->ex, v, a->x + i * width, width * sizeof(double), HOMG_D2H),
                     "homg_fem_assemble: reading a bad coefficient");
    for (int k = 0; k < width; k++)
        homg__append(text, sizeof text, &used, "%s%g", k ? " " : "", v[k]);
    return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_fem_assemble: coeffs.%s[%llu] = %s%s%s: %s", a->name,
                      (unsigned long long)i, width > 1 ? "(" : "", text, width > 1 ? ")" : "", rule_text(a->rule));
}

static homg_status scan_arrays(homg_fem *fem, const homg_fem_coeffs *c)
{
    homg_ctx *ctx = fem->ctx;
    int64_t ne = fem->view.num_elements, nn = fem->num_dofs;
    const coeff_array all[6] = {
        { c->sigma_elem, "sigma_elem", ne, FEM_CHECK_POSITIVE, NULL },
        { c->sigma_tensor, "sigma_tensor", ne, fem->view.dim == 2 ? FEM_CHECK_TENSOR2 : FEM_CHECK_TENSOR3, NULL },
        { c->lambda_elem, "lambda_elem", ne, FEM_CHECK_NONNEGATIVE, NULL },
        { c->f_elem, "f_elem", ne, FEM_CHECK_FINITE, NULL },
        { c->f_node, "f_node", nn, FEM_CHECK_FINITE, NULL },
        { c->dirichlet_values, "dirichlet_values", nn, FEM_CHECK_FINITE, fem->mask },
    };
    coeff_array used[6];
    uint64_t first[6];
    int n = 0;
    for (int k = 0; k < 6; k++)
        if (all[k].x) {
            used[n] = all[k];
            HOMG_TRY_BACKEND(
                ctx,
                fem->k->check_values(&ctx->ex, used[n].x, used[n].n, used[n].rule, used[n].mask, fem->check_slots + n),
                "homg_fem_assemble: checking the coefficients");
            n++;
        }
    if (n == 0)
        return HOMG_OK;
    HOMG_TRY_BACKEND(ctx, ctx->mem->copy(&ctx->ex, first, fem->check_slots, n * sizeof(uint64_t), HOMG_D2H),
                     "homg_fem_assemble: checking the coefficients");
    for (int k = 0; k < n; k++)
        if (first[k] != FEM_CHECK_NONE)
            return bad_entry(fem, &used[k], first[k]);
    return HOMG_OK;
}

homg_status homg__fem_check_coeffs(homg_fem *fem, const homg_fem_coeffs *c, fem_flux_table *t)
{
    HOMG_TRY(check_scalars(fem->ctx, c));
    HOMG_TRY(flux_table(fem->ctx, c, t));
    return c->skip_check ? HOMG_OK : scan_arrays(fem, c);
}
