/* mtx_solve.c -- read a symmetric positive definite matrix (and optionally a
 * right-hand side) from Matrix Market files, plain or .gz, and solve it with
 * AMG-preconditioned CG; check the residual on the host.
 *
 *   cc mtx_solve.c $(pkg-config --cflags --libs homg) -o mtx_solve
 *   ./mtx_solve A.mtx[.gz] [b.mtx[.gz]]          (b = ones without a file)
 *
 * A system to try: homg mesh generate square --cells 32 --out sq.msh
 *                  homg mesh assemble sq.msh --dirichlet 1,2 --f 1 --out A.mtx b.mtx
 */
#include <homg.h>

#include <stdio.h>
#include <stdlib.h>

static void check(homg_ctx *ctx, homg_status st, const char *what)
{
    if (st != HOMG_OK) {
        fprintf(stderr, "%s: %s (%s)\n", what, ctx ? homg_ctx_last_error(ctx) : "", homg_status_string(st));
        exit(1);
    }
}

int main(int argc, char **argv)
{
    homg_ctx_desc cd = { 0 };
    homg_ctx *ctx = NULL;
    homg_host_csr m;
    homg_csr a;
    homg_amg *amg = NULL;
    homg_pcg *pcg = NULL;
    homg_pcg_desc pd = { 0 };
    homg_pcg_info info;
    double *b = NULL, *x, rr = 0, bb = 0;
    int32_t nb = 0;
    void *d_b = NULL, *d_x = NULL;
    if (argc < 2) {
        fprintf(stderr, "usage: %s A.mtx[.gz] [b.mtx[.gz]]\n", argv[0]);
        return 2;
    }
    check(NULL, homg_ctx_create(&cd, &ctx), "homg_ctx_create");
    /* Errors name the file, the line and the banner's field: "A.mtx:12: ... (coordinate real symmetric: ...)" */
    check(ctx, homg_mtx_read(ctx, argv[1], &m), "homg_mtx_read");
    if (argc > 2) {
        check(ctx, homg_mtx_read_vector(ctx, argv[2], &b, &nb), "homg_mtx_read_vector");
        if (nb != m.nrows) {
            fprintf(stderr, "%s has %d values for %d rows\n", argv[2], (int)nb, (int)m.nrows);
            return 1;
        }
    } else {
        b = malloc(sizeof(double) * (size_t)m.nrows);
        for (int32_t i = 0; i < m.nrows; i++)
            b[i] = 1;
    }
    x = malloc(sizeof(double) * (size_t)m.nrows);
    printf("%s: %d x %d, %d entries\n", argv[1], (int)m.nrows, (int)m.ncols, (int)m.nnz);

    /* The solvers copy a host matrix into the context's space; vectors go there by hand. */
    a = homg_host_csr_view(&m);
    check(ctx, homg_amg_create(ctx, &a, NULL, &amg), "homg_amg_create");
    pd.tol = 1e-10;
    check(ctx, homg_pcg_create(ctx, &a, amg, &pd, &pcg), "homg_pcg_create");
    check(ctx, homg_alloc(ctx, sizeof(double) * (size_t)m.nrows, &d_b), "homg_alloc");
    check(ctx, homg_alloc(ctx, sizeof(double) * (size_t)m.nrows, &d_x), "homg_alloc");
    check(ctx, homg_copy_from_host(ctx, d_b, b, sizeof(double) * (size_t)m.nrows), "homg_copy_from_host");
    check(ctx, homg_pcg_solve(pcg, d_b, d_x, &info), "homg_pcg_solve");
    check(ctx, homg_copy_to_host(ctx, x, d_x, sizeof(double) * (size_t)m.nrows), "homg_copy_to_host");

    /* ||b - A x|| / ||b|| from the matrix as read */
    for (int32_t i = 0; i < m.nrows; i++) {
        double r = b[i];
        for (int32_t k = m.row_ptr[i]; k < m.row_ptr[i + 1]; k++)
            r -= m.values[k] * x[m.col_idx[k]];
        rr += r * r;
        bb += b[i] * b[i];
    }
    printf("AMG-PCG: %d iterations, relative residual %.2e (recomputed: squared %.2e)\n", info.iterations,
           info.rel_residual, rr / bb);

    homg_free(ctx, d_b);
    homg_free(ctx, d_x);
    homg_pcg_destroy(pcg);
    homg_amg_destroy(amg);
    homg_host_csr_free(&m);
    homg_ctx_destroy(ctx);
    free(b);
    free(x);
    return info.converged && rr < 1e-16 * bb ? 0 : 1;
}
