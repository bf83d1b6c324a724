/* grid_baselines.c -- the assembled-matrix baselines issue 9 asks for beside the grid's
 * rows: the case's operator assembled cell by cell from the definition (tests/util/
 * grid_ref.c, which never calls the grid solver), solved in double from zero by homg's
 * AMG-PCG (smoothed aggregation, the library's defaults; set-up and solve timed) and by
 * Jacobi-PCG written with cuSPARSE and cuBLAS (bench/cusparse_cg.cu).  Each runs to the
 * loosest relative residual (1e-4 ... 1e-9) that brings it within the grid rows' error
 * target of the same reference, so all rows are compared at the same accuracy. */
#include "grid_baselines.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if HOMG_HAVE_CUDA
#include "cusparse_cg.h"
#include "testutil.h"

/* ||u - u_ref|| / ||u_ref|| with u given on the active cells (others 0). */
static double cell_error(const grid_ref *r, const double *x, const double *u_ref)
{
    double num = 0, den = 0;
    for (size_t c = 0; c < r->ncell; c++) {
        const double u = r->unk[c] >= 0 ? x[r->unk[c]] : 0, d = u - u_ref[c];
        num += d * d;
        den += u_ref[c] * u_ref[c];
    }
    return den > 0 ? sqrt(num / den) : sqrt(num);
}

/* homg's AMG-PCG on A (in the ctx's space): set-up once, then solves to tol;
 * *setup_ms / *solve_ms medians of reps (reps 0: one untimed solve). */
static int amg_solve(homg_ctx *ctx, const homg_csr *a, const void *db, void *dx, int n, double tol, int reps, double *x,
                     grid_baseline *o)
{
    homg_amg *amg = NULL;
    homg_pcg *pcg = NULL;
    homg_amg_info ai;
    homg_pcg_info pi;
    homg_pcg_desc pd = { 0 };
    double *ts = calloc((size_t)reps + 1, sizeof *ts), *tq = calloc((size_t)reps + 1, sizeof *tq);
    int rc = -1;
    pd.tol = tol;
    pd.max_iter = 2000;
    for (int k = 0; k <= reps; k++) { /* k = 0 warms up */
        homg_pcg_destroy(pcg);
        homg_amg_destroy(amg);
        pcg = NULL;
        amg = NULL;
        if (homg_amg_create(ctx, a, NULL, &amg) != HOMG_OK || homg_pcg_create(ctx, NULL, amg, &pd, &pcg) != HOMG_OK ||
            homg_pcg_solve(pcg, (const double *)db, (double *)dx, &pi) != HOMG_OK)
            goto out;
        homg_amg_get_info(amg, &ai);
        ts[k] = ai.setup_ms;
        tq[k] = pi.solve_ms;
    }
    if (reps > 0) {
        o->setup_ms = homg_test_median(ts + 1, reps);
        o->solve_ms = homg_test_median(tq + 1, reps);
    }
    o->iterations = pi.iterations;
    homg_copy_to_host(ctx, x, dx, (size_t)n * sizeof(double));
    rc = 0;
out:
    homg_pcg_destroy(pcg);
    homg_amg_destroy(amg);
    free(ts);
    free(tq);
    return rc;
}

int grid_baseline_run(homg_ctx *ctx, const grid_ref_problem *p, const double *f, const double *u_ref, double target,
                      int amg, int reps, grid_baseline *out)
{
    grid_ref r;
    double *b, *x;
    void *drp = NULL, *dci = NULL, *dval = NULL, *db = NULL, *dx = NULL;
    homg_csr view;
    int rc = -1;
    memset(out, 0, sizeof *out);
    if (grid_ref_build(&r, p) != 0)
        return -1;
    const int n = r.n;
    b = malloc((size_t)n * sizeof *b);
    x = calloc((size_t)n, sizeof *x);
    grid_ref_rhs(&r, f, NULL, NULL, b);
    if (grid_ref_pin(&r, b) != 0) /* islands no Dirichlet side reaches: definite, as the grid projects them */
        goto out;
    const homg_host_csr *a = &r.pinned;
    view = homg_host_csr_view(a);
    if (amg) { /* the matrix and b in the ctx's space: the set-up times exclude the upload */
        homg_alloc(ctx, ((size_t)n + 1) * 4, &drp);
        homg_alloc(ctx, (size_t)a->nnz * 4, &dci);
        homg_alloc(ctx, (size_t)a->nnz * 8, &dval);
        homg_alloc(ctx, (size_t)n * 8, &db);
        homg_alloc(ctx, (size_t)n * 8, &dx);
        if (!drp || !dci || !dval || !db || !dx)
            goto out;
        homg_copy_from_host(ctx, drp, a->row_ptr, ((size_t)n + 1) * 4);
        homg_copy_from_host(ctx, dci, a->col_idx, (size_t)a->nnz * 4);
        homg_copy_from_host(ctx, dval, a->values, (size_t)a->nnz * 8);
        homg_copy_from_host(ctx, db, b, (size_t)n * 8);
        view.row_ptr = drp;
        view.col_idx = dci;
        view.values = dval;
        view.memory = HOMG_MEMORY_CONTEXT;
    }
    for (double tol = 1e-4; tol >= 1e-9 && !out->ok; tol *= 0.1) {
        homg_cusparse_cg_result cg;
        char why[160];
        if (amg ? amg_solve(ctx, &view, db, dx, n, tol, 0, x, out)
                : homg_cusparse_cg(a, b, tol, 5000, 1, 1, x, &cg, why, sizeof why))
            goto out;
        grid_ref_unpin(&r, x);
        out->err = cell_error(&r, x, u_ref);
        out->ok = out->err <= target;
        out->tol = tol;
    }
    if (out->ok) { /* the timed solves, at that tolerance */
        homg_cusparse_cg_result cg;
        char why[160];
        if (amg ? amg_solve(ctx, &view, db, dx, n, out->tol, reps, x, out)
                : homg_cusparse_cg(a, b, out->tol, 5000, 1, reps, x, &cg, why, sizeof why))
            goto out;
        if (!amg) {
            out->iterations = cg.iterations;
            out->solve_ms = cg.solve_ms;
        }
    }
    rc = 0;
out:
    homg_free(ctx, drp), homg_free(ctx, dci), homg_free(ctx, dval), homg_free(ctx, db), homg_free(ctx, dx);
    free(b);
    free(x);
    grid_ref_free(&r);
    return rc;
}
#else
int grid_baseline_run(homg_ctx *ctx, const grid_ref_problem *p, const double *f, const double *u_ref, double target,
                      int amg, int reps, grid_baseline *out)
{
    (void)ctx, (void)p, (void)f, (void)u_ref, (void)target, (void)amg, (void)reps;
    memset(out, 0, sizeof *out);
    return -1;
}
#endif
