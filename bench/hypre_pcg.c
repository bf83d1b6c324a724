/* hypre_pcg.c -- hypre BoomerAMG-PCG on a host CSR matrix (IJ interface, one
 * MPI process).  Compiled against hypre's headers when they are installed
 * (HOMG_HAVE_HYPRE, set by the Makefile), but libHYPRE and its MPI are opened
 * at run time with dlopen: a bench built here still starts on a machine
 * without them (the GPU machine) and says that hypre is missing there. */
#define _POSIX_C_SOURCE 200809L
#include "hypre_pcg.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#if defined(HOMG_HAVE_HYPRE) && HOMG_HAVE_HYPRE
#include <dlfcn.h>
#include <mpi.h>

#include "HYPRE.h"
#include "HYPRE_IJ_mv.h"
#include "HYPRE_krylov.h"
#include "HYPRE_parcsr_ls.h"

/* The entry points used, resolved from the libraries. */
static struct {
    void *mpi, *hypre;
    int loaded, started;
    char why[200];
    MPI_Comm world;
    int (*mpi_initialized)(int *);
    int (*mpi_init)(int *, char ***);
    int (*mpi_finalize)(void);
    HYPRE_Int (*init)(void);
    HYPRE_Int (*finalize)(void);
    HYPRE_Int (*ij_matrix_create)(MPI_Comm, HYPRE_BigInt, HYPRE_BigInt, HYPRE_BigInt, HYPRE_BigInt, HYPRE_IJMatrix *);
    HYPRE_Int (*ij_matrix_set_object_type)(HYPRE_IJMatrix, HYPRE_Int);
    HYPRE_Int (*ij_matrix_initialize)(HYPRE_IJMatrix);
    HYPRE_Int (*ij_matrix_set_values)(HYPRE_IJMatrix, HYPRE_Int, HYPRE_Int *, const HYPRE_BigInt *,
                                      const HYPRE_BigInt *, const HYPRE_Complex *);
    HYPRE_Int (*ij_matrix_assemble)(HYPRE_IJMatrix);
    HYPRE_Int (*ij_matrix_get_object)(HYPRE_IJMatrix, void **);
    HYPRE_Int (*ij_matrix_destroy)(HYPRE_IJMatrix);
    HYPRE_Int (*ij_vector_create)(MPI_Comm, HYPRE_BigInt, HYPRE_BigInt, HYPRE_IJVector *);
    HYPRE_Int (*ij_vector_set_object_type)(HYPRE_IJVector, HYPRE_Int);
    HYPRE_Int (*ij_vector_initialize)(HYPRE_IJVector);
    HYPRE_Int (*ij_vector_set_values)(HYPRE_IJVector, HYPRE_Int, const HYPRE_BigInt *, const HYPRE_Complex *);
    HYPRE_Int (*ij_vector_get_values)(HYPRE_IJVector, HYPRE_Int, const HYPRE_BigInt *, HYPRE_Complex *);
    HYPRE_Int (*ij_vector_assemble)(HYPRE_IJVector);
    HYPRE_Int (*ij_vector_get_object)(HYPRE_IJVector, void **);
    HYPRE_Int (*ij_vector_destroy)(HYPRE_IJVector);
    HYPRE_Int (*pcg_create)(MPI_Comm, HYPRE_Solver *);
    HYPRE_Int (*pcg_destroy)(HYPRE_Solver);
    HYPRE_Int (*pcg_setup)(HYPRE_Solver, HYPRE_ParCSRMatrix, HYPRE_ParVector, HYPRE_ParVector);
    HYPRE_Int (*pcg_solve)(HYPRE_Solver, HYPRE_ParCSRMatrix, HYPRE_ParVector, HYPRE_ParVector);
    HYPRE_Int (*pcg_set_max_iter)(HYPRE_Solver, HYPRE_Int);
    HYPRE_Int (*pcg_set_tol)(HYPRE_Solver, HYPRE_Real);
    HYPRE_Int (*pcg_set_two_norm)(HYPRE_Solver, HYPRE_Int);
    HYPRE_Int (*pcg_set_print_level)(HYPRE_Solver, HYPRE_Int);
    HYPRE_Int (*pcg_set_logging)(HYPRE_Solver, HYPRE_Int);
    HYPRE_Int (*pcg_set_precond)(HYPRE_Solver, HYPRE_PtrToSolverFcn, HYPRE_PtrToSolverFcn, HYPRE_Solver);
    HYPRE_Int (*pcg_get_num_iterations)(HYPRE_Solver, HYPRE_Int *);
    HYPRE_Int (*pcg_get_final_residual)(HYPRE_Solver, HYPRE_Real *);
    HYPRE_Int (*amg_create)(HYPRE_Solver *);
    HYPRE_Int (*amg_destroy)(HYPRE_Solver);
    HYPRE_Int (*amg_set_print_level)(HYPRE_Solver, HYPRE_Int);
    HYPRE_Int (*amg_set_coarsen_type)(HYPRE_Solver, HYPRE_Int);
    HYPRE_Int (*amg_set_relax_type)(HYPRE_Solver, HYPRE_Int);
    HYPRE_Int (*amg_set_num_sweeps)(HYPRE_Solver, HYPRE_Int);
    HYPRE_Int (*amg_set_tol)(HYPRE_Solver, HYPRE_Real);
    HYPRE_Int (*amg_set_max_iter)(HYPRE_Solver, HYPRE_Int);
    HYPRE_PtrToSolverFcn amg_solve, amg_setup;
} H;

/* dlsym into a function pointer of any type (the POSIX way around ISO C's rule). */
#define SYM(lib, field, name)                                                   \
    do {                                                                        \
        void *s_ = dlsym(lib, name);                                            \
        if (!s_) {                                                              \
            snprintf(H.why, sizeof H.why, "%s not found in the library", name); \
            return -1;                                                          \
        }                                                                       \
        memcpy(&H.field, &s_, sizeof s_);                                       \
    } while (0)

static void *open_first(const char *const *names, int flags)
{
    for (int i = 0; names[i]; i++) {
        void *h = dlopen(names[i], flags);
        if (h)
            return h;
    }
    return NULL;
}

static int load(void)
{
    static const char *const mpi_names[] = { "libmpi.so.40", "libmpi.so", "libmpi.so.12", NULL };
    static const char *const hypre_names[] = { "libHYPRE.so", "libHYPRE-" HYPRE_RELEASE_VERSION ".so", NULL };
    if (H.loaded)
        return H.loaded > 0 ? 0 : -1;
    H.loaded = -1;
    if (!(H.mpi = open_first(mpi_names, RTLD_NOW | RTLD_GLOBAL))) {
        snprintf(H.why, sizeof H.why, "no MPI library at run time (%.150s)", dlerror());
        return -1;
    }
    if (!(H.hypre = open_first(hypre_names, RTLD_NOW | RTLD_GLOBAL))) {
        snprintf(H.why, sizeof H.why, "no libHYPRE at run time (%.150s)", dlerror());
        return -1;
    }
#ifdef OMPI_MAJOR_VERSION
    {
        void *w = dlsym(H.mpi, "ompi_mpi_comm_world"); /* Open MPI's MPI_COMM_WORLD is its address */
        if (!w) {
            snprintf(H.why, sizeof H.why, "ompi_mpi_comm_world not found");
            return -1;
        }
        H.world = (MPI_Comm)w;
    }
#else
    H.world = MPI_COMM_WORLD; /* a constant in MPICH */
#endif
    SYM(H.mpi, mpi_initialized, "MPI_Initialized");
    SYM(H.mpi, mpi_init, "MPI_Init");
    SYM(H.mpi, mpi_finalize, "MPI_Finalize");
    SYM(H.hypre, init, "HYPRE_Init");
    SYM(H.hypre, finalize, "HYPRE_Finalize");
    SYM(H.hypre, ij_matrix_create, "HYPRE_IJMatrixCreate");
    SYM(H.hypre, ij_matrix_set_object_type, "HYPRE_IJMatrixSetObjectType");
    SYM(H.hypre, ij_matrix_initialize, "HYPRE_IJMatrixInitialize");
    SYM(H.hypre, ij_matrix_set_values, "HYPRE_IJMatrixSetValues");
    SYM(H.hypre, ij_matrix_assemble, "HYPRE_IJMatrixAssemble");
    SYM(H.hypre, ij_matrix_get_object, "HYPRE_IJMatrixGetObject");
    SYM(H.hypre, ij_matrix_destroy, "HYPRE_IJMatrixDestroy");
    SYM(H.hypre, ij_vector_create, "HYPRE_IJVectorCreate");
    SYM(H.hypre, ij_vector_set_object_type, "HYPRE_IJVectorSetObjectType");
    SYM(H.hypre, ij_vector_initialize, "HYPRE_IJVectorInitialize");
    SYM(H.hypre, ij_vector_set_values, "HYPRE_IJVectorSetValues");
    SYM(H.hypre, ij_vector_get_values, "HYPRE_IJVectorGetValues");
    SYM(H.hypre, ij_vector_assemble, "HYPRE_IJVectorAssemble");
    SYM(H.hypre, ij_vector_get_object, "HYPRE_IJVectorGetObject");
    SYM(H.hypre, ij_vector_destroy, "HYPRE_IJVectorDestroy");
    SYM(H.hypre, pcg_create, "HYPRE_ParCSRPCGCreate");
    SYM(H.hypre, pcg_destroy, "HYPRE_ParCSRPCGDestroy");
    SYM(H.hypre, pcg_setup, "HYPRE_ParCSRPCGSetup");
    SYM(H.hypre, pcg_solve, "HYPRE_ParCSRPCGSolve");
    SYM(H.hypre, pcg_set_max_iter, "HYPRE_PCGSetMaxIter");
    SYM(H.hypre, pcg_set_tol, "HYPRE_PCGSetTol");
    SYM(H.hypre, pcg_set_two_norm, "HYPRE_PCGSetTwoNorm");
    SYM(H.hypre, pcg_set_print_level, "HYPRE_PCGSetPrintLevel");
    SYM(H.hypre, pcg_set_logging, "HYPRE_PCGSetLogging");
    SYM(H.hypre, pcg_set_precond, "HYPRE_PCGSetPrecond");
    SYM(H.hypre, pcg_get_num_iterations, "HYPRE_PCGGetNumIterations");
    SYM(H.hypre, pcg_get_final_residual, "HYPRE_PCGGetFinalRelativeResidualNorm");
    SYM(H.hypre, amg_create, "HYPRE_BoomerAMGCreate");
    SYM(H.hypre, amg_destroy, "HYPRE_BoomerAMGDestroy");
    SYM(H.hypre, amg_set_print_level, "HYPRE_BoomerAMGSetPrintLevel");
    SYM(H.hypre, amg_set_coarsen_type, "HYPRE_BoomerAMGSetCoarsenType");
    SYM(H.hypre, amg_set_relax_type, "HYPRE_BoomerAMGSetRelaxType");
    SYM(H.hypre, amg_set_num_sweeps, "HYPRE_BoomerAMGSetNumSweeps");
    SYM(H.hypre, amg_set_tol, "HYPRE_BoomerAMGSetTol");
    SYM(H.hypre, amg_set_max_iter, "HYPRE_BoomerAMGSetMaxIter");
    SYM(H.hypre, amg_solve, "HYPRE_BoomerAMGSolve");
    SYM(H.hypre, amg_setup, "HYPRE_BoomerAMGSetup");
    H.loaded = 1;
    return 0;
}

int homg_hypre_available(void) { return load() == 0; }

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static int start(void)
{
    int up = 0;
    if (load() != 0)
        return -1;
    H.mpi_initialized(&up);
    if (!up) {
        int argc = 0;
        char **argv = NULL;
        if (H.mpi_init(&argc, &argv) != MPI_SUCCESS) {
            snprintf(H.why, sizeof H.why, "MPI_Init failed");
            return -1;
        }
        H.started = 1;
    }
    H.init();
    return 0;
}

void homg_hypre_finish(void)
{
    if (H.started) {
        H.finalize();
        H.mpi_finalize();
        H.started = 0;
    }
}

static HYPRE_IJVector vector(int32_t n, const double *v)
{
    HYPRE_IJVector x;
    H.ij_vector_create(H.world, 0, n - 1, &x);
    H.ij_vector_set_object_type(x, HYPRE_PARCSR);
    H.ij_vector_initialize(x);
    for (int32_t i = 0; i < n; i++) {
        HYPRE_BigInt row = i;
        HYPRE_Complex val = v ? v[i] : 0.0;
        H.ij_vector_set_values(x, 1, &row, &val);
    }
    H.ij_vector_assemble(x);
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
        snprintf(why, whylen, "%s", H.why);
        return -1;
    }
    H.ij_matrix_create(H.world, 0, n - 1, 0, n - 1, &ij);
    H.ij_matrix_set_object_type(ij, HYPRE_PARCSR);
    H.ij_matrix_initialize(ij);
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
            H.ij_matrix_set_values(ij, 1, &m, &row, cols, vals);
        }
    }
    H.ij_matrix_assemble(ij);
    H.ij_matrix_get_object(ij, (void **)&pa);
    ib = vector(n, b);
    ix = vector(n, NULL);
    H.ij_vector_get_object(ib, (void **)&pb);
    H.ij_vector_get_object(ix, (void **)&px);

    H.pcg_create(H.world, &pcg);
    H.pcg_set_max_iter(pcg, max_iter);
    H.pcg_set_tol(pcg, tol);
    H.pcg_set_two_norm(pcg, 1); /* ||r||_2 / ||b||_2, as homg measures */
    H.pcg_set_print_level(pcg, 0);
    H.pcg_set_logging(pcg, 1);
    if (amg) {
        H.amg_create(&pre);
        H.amg_set_print_level(pre, 0);
        H.amg_set_coarsen_type(pre, 8); /* PMIS */
        H.amg_set_relax_type(pre, 6);   /* symmetric hybrid Gauss-Seidel */
        H.amg_set_num_sweeps(pre, 1);
        H.amg_set_tol(pre, 0.0);
        H.amg_set_max_iter(pre, 1);
        H.pcg_set_precond(pcg, H.amg_solve, H.amg_setup, pre);
    }
    t0 = now_ms();
    H.pcg_setup(pcg, pa, pb, px);
    t1 = now_ms();
    H.pcg_solve(pcg, pa, pb, px);
    t2 = now_ms();
    H.pcg_get_num_iterations(pcg, &its);
    H.pcg_get_final_residual(pcg, &res);
    out->iterations = (int)its;
    out->setup_ms = t1 - t0;
    out->solve_ms = t2 - t1;
    out->rel_residual = res;
    for (int32_t i = 0; x && i < n; i++) {
        HYPRE_BigInt row = i;
        HYPRE_Complex v;
        H.ij_vector_get_values(ix, 1, &row, &v);
        x[i] = v;
    }
    H.pcg_destroy(pcg);
    if (pre)
        H.amg_destroy(pre);
    H.ij_matrix_destroy(ij);
    H.ij_vector_destroy(ib);
    H.ij_vector_destroy(ix);
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
