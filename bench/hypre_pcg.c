/* hypre_pcg.c -- hypre BoomerAMG-PCG on a host CSR matrix (IJ interface, one
 * process).  Built only with HOMG_HAVE_HYPRE (the Makefile sets it when
 * /usr/include/hypre/HYPRE.h exists); otherwise a stub that says so. */
#define _POSIX_C_SOURCE 200809L
#include "hypre_pcg.h"

#include <stdio.h>
#include <time.h>

#if defined(HOMG_HAVE_HYPRE) && HOMG_HAVE_HYPRE
#include <mpi.h>

#include "HYPRE.h"
#include "HYPRE_IJ_mv.h"
#include "HYPRE_krylov.h"
#include "HYPRE_parcsr_ls.h"

static int started;

int homg_hypre_available(void) { return 1; }

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static int start(void)
{
    int up = 0;
    MPI_Initialized(&up);
    if (!up) {
        int argc = 0;
        char **argv = NULL;
        if (MPI_Init(&argc, &argv) != MPI_SUCCESS)
            return -1;
        started = 1;
    }
    HYPRE_Init();
    return 0;
}

void homg_hypre_finish(void)
{
    if (started) {
        HYPRE_Finalize();
        MPI_Finalize();
        started = 0;
    }
}

static HYPRE_IJVector vector(int32_t n, const double *v)
{
    HYPRE_IJVector x;
    HYPRE_IJVectorCreate(MPI_COMM_WORLD, 0, n - 1, &x);
    HYPRE_IJVectorSetObjectType(x, HYPRE_PARCSR);
    HYPRE_IJVectorInitialize(x);
    for (int32_t i = 0; i < n; i++) {
        HYPRE_BigInt row = i;
        HYPRE_Complex val = v ? v[i] : 0.0;
        HYPRE_IJVectorSetValues(x, 1, &row, &val);
    }
    HYPRE_IJVectorAssemble(x);
    return x;
}

int homg_hypre_pcg(const homg_host_csr *a, const double *b, double tol, int max_iter, int amg, double *x,
                   homg_hypre_result *out, char *why, size_t whylen)
{
    HYPRE_IJMatrix ij;
    HYPRE_ParCSRMatrix pa;
    HYPRE_IJVector ib, ix;
    HYPRE_ParVector pb, px;
    HYPRE_Solver pcg, pre = NULL;
    HYPRE_Int its = 0;
    HYPRE_Real res = 0;
    int32_t n = a->nrows;
    double t0, t1, t2;
    if (start() != 0) {
        snprintf(why, whylen, "MPI_Init failed");
        return -1;
    }
    HYPRE_IJMatrixCreate(MPI_COMM_WORLD, 0, n - 1, 0, n - 1, &ij);
    HYPRE_IJMatrixSetObjectType(ij, HYPRE_PARCSR);
    HYPRE_IJMatrixInitialize(ij);
    for (int32_t i = 0; i < n; i++) {
        HYPRE_Int ncols = a->row_ptr[i + 1] - a->row_ptr[i];
        HYPRE_BigInt row = i, cols[64];
        HYPRE_Complex vals[64];
        for (HYPRE_Int k = 0; k < ncols; k += 64) {
            HYPRE_Int m = ncols - k < 64 ? ncols - k : 64;
            for (HYPRE_Int q = 0; q < m; q++) {
                cols[q] = a->col_idx[a->row_ptr[i] + k + q];
                vals[q] = a->values[a->row_ptr[i] + k + q];
            }
            HYPRE_IJMatrixSetValues(ij, 1, &m, &row, cols, vals);
        }
    }
    HYPRE_IJMatrixAssemble(ij);
    HYPRE_IJMatrixGetObject(ij, (void **)&pa);
    ib = vector(n, b);
    ix = vector(n, NULL);
    HYPRE_IJVectorGetObject(ib, (void **)&pb);
    HYPRE_IJVectorGetObject(ix, (void **)&px);

    HYPRE_ParCSRPCGCreate(MPI_COMM_WORLD, &pcg);
    HYPRE_PCGSetMaxIter(pcg, max_iter);
    HYPRE_PCGSetTol(pcg, tol);
    HYPRE_PCGSetTwoNorm(pcg, 1); /* ||r||_2 / ||b||_2, as homg measures */
    HYPRE_PCGSetPrintLevel(pcg, 0);
    HYPRE_PCGSetLogging(pcg, 1);
    if (amg) {
        HYPRE_BoomerAMGCreate(&pre);
        HYPRE_BoomerAMGSetPrintLevel(pre, 0);
        HYPRE_BoomerAMGSetCoarsenType(pre, 8); /* PMIS */
        HYPRE_BoomerAMGSetRelaxType(pre, 6);   /* symmetric hybrid Gauss-Seidel */
        HYPRE_BoomerAMGSetNumSweeps(pre, 1);
        HYPRE_BoomerAMGSetTol(pre, 0.0);
        HYPRE_BoomerAMGSetMaxIter(pre, 1);
        HYPRE_PCGSetPrecond(pcg, (HYPRE_PtrToSolverFcn)HYPRE_BoomerAMGSolve, (HYPRE_PtrToSolverFcn)HYPRE_BoomerAMGSetup,
                            pre);
    }
    t0 = now_ms();
    HYPRE_ParCSRPCGSetup(pcg, pa, pb, px);
    t1 = now_ms();
    HYPRE_ParCSRPCGSolve(pcg, pa, pb, px);
    t2 = now_ms();
    HYPRE_PCGGetNumIterations(pcg, &its);
    HYPRE_PCGGetFinalRelativeResidualNorm(pcg, &res);
    out->iterations = (int)its;
    out->setup_ms = t1 - t0;
    out->solve_ms = t2 - t1;
    out->rel_residual = res;
    for (int32_t i = 0; x && i < n; i++) {
        HYPRE_BigInt row = i;
        HYPRE_Complex v;
        HYPRE_IJVectorGetValues(ix, 1, &row, &v);
        x[i] = v;
    }
    HYPRE_ParCSRPCGDestroy(pcg);
    if (pre)
        HYPRE_BoomerAMGDestroy(pre);
    HYPRE_IJMatrixDestroy(ij);
    HYPRE_IJVectorDestroy(ib);
    HYPRE_IJVectorDestroy(ix);
    (void)why;
    (void)whylen;
    return 0;
}

#else

int homg_hypre_available(void) { return 0; }
void homg_hypre_finish(void) {}

int homg_hypre_pcg(const homg_host_csr *a, const double *b, double tol, int max_iter, int amg, double *x,
                   homg_hypre_result *out, char *why, size_t whylen)
{
    (void)a;
    (void)b;
    (void)tol;
    (void)max_iter;
    (void)amg;
    (void)x;
    (void)out;
    snprintf(why, whylen, "built without hypre (install libhypre-dev and rebuild)");
    return -1;
}

#endif
