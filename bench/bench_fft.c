/* bench_fft.c -- the library's FFT direct solves (lib/fft/fft.h) on the GPU:
 * float32 Dirichlet boxes 256^2..4096^2 and 128^3..512^3, plus the other side kinds
 * (pure Neumann: the fluid's pressure projection; periodic; a mixed axis), an odd
 * size against the nearest power of two, several right-hand sides in one call, and
 * float64.  Each case solves an exact discrete problem (f = A u*, u* smooth + noise,
 * computed in double here) and reports the error reached, the median of >= 21 solves
 * timed with CUDA events on inputs rotated beyond L2, the launches and modelled bytes
 * of one solve (and the bandwidth that is, against the measured copy bandwidth), and
 * the workspace per unknown.  In the same process, on the same buffers: a periodic
 * cuFFT solve of the same box (R2C, scale, C2R: bench/cufft_periodic.cu, the least an
 * FFT solve can cost) and the copy of the box's floats.  (The standalone cuFFT
 * sine-transform solve this replaced, bench/fft_poisson.cu, now calls the library;
 * its last numbers are kept in bench/results/h100_fft.md.)
 *
 * Prints the table last; --out FILE also writes it to FILE (nothing is written by
 * default: bench/results/h100_fft.md is edited by hand).
 *   build/bench/bench_fft [--reps R] [--out FILE] [--quick] [--profile]
 * --profile: only 2D 2048^2 and 3D 256^3 Dirichlet, no table (for ncu's per-kernel times).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fftcase.h"
#include "poisson2d.h"
#include "table_out.h"
#include "testutil.h"

#if HOMG_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "copy_bandwidth.h"
#include "cufft_periodic.h"

#define MAX_ROT  8
#define L2_BYTES (50.0 * 1024 * 1024)

typedef struct row {
    char name[40], size[24];
    const char *prec;
    int nrhs;
    double ms, err, gbs, bpu;
    long launches;
    char ref[40];
    double ref_ms;
} row;

static row rows[64];
static int nrows, reps = 21;
static double copy_gbs;
static homg_ctx *ctx;

static void die(const char *what)
{
    fprintf(stderr, "bench_fft: %s: %s\n", what, ctx ? homg_ctx_last_error(ctx) : "");
    exit(1);
}

/* Something to time: run(state, k) queues one solve on rotation k. */
typedef int (*run_fn)(void *state, int k);

static double time_median(run_fn run, void *state, int nrot)
{
    cudaEvent_t e0, e1;
    double *t = (double *)malloc(sizeof(double) * reps);
    int warm = 3 + nrot;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    for (int i = 0; i < warm + reps; i++) {
        float ms;
        cudaEventRecord(e0, 0);
        if (run(state, i % nrot))
            die("solve");
        cudaEventRecord(e1, 0);
        cudaEventSynchronize(e1);
        cudaEventElapsedTime(&ms, e0, e1);
        if (i >= warm)
            t[i - warm] = ms;
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    double m = homg_test_median(t, reps);
    free(t);
    return m;
}

/* ------------------------------------------------------------ one problem */

typedef struct problem {
    fft_problem p;
    size_t n; /* cells * nrhs */
    double *ustar, *f;
    int nrot;
    void *df[MAX_ROT], *du[MAX_ROT];
    fft_plan *plan;
} problem;

/* u* = smooth + noise per field (mean zero when singular), f = A u* (zero face data). */
static void make_problem(problem *pb, int dim, int nx, int ny, int nz, const char *sides, double lambda, int nrhs,
                         homg_precision prec)
{
    fft_problem *p = &pb->p;
    size_t nc = (size_t)nx * ny * nz, es = prec == HOMG_FLOAT64 ? 8 : 4;
    memset(pb, 0, sizeof *pb);
    p->dim = dim;
    p->nx = nx;
    p->ny = ny;
    p->nz = nz;
    p->h = 1.0 / nx;
    p->sigma = 1;
    p->lambda = lambda;
    p->nrhs = nrhs;
    p->precision = prec;
    for (int s = 0; s < 2 * dim; s++)
        p->side[s] = sides[s] == 'N' ? FFT_NEUMANN : sides[s] == 'P' ? FFT_PERIODIC : FFT_DIRICHLET;
    int singular = lambda == 0 && !strchr(sides, 'D');
    pb->n = nc * nrhs;
    pb->ustar = (double *)malloc(sizeof(double) * pb->n);
    pb->f = (double *)malloc(sizeof(double) * pb->n);
    if (!pb->ustar || !pb->f)
        die("host memory");
    for (int r = 0; r < nrhs; r++) {
        double *u = pb->ustar + r * nc, sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
        for (long k = 0; k < (long)ny * nz; k++) {
            homg_rng g = homg_rng_seed(1000003 * r + k);
            for (int i = 0; i < nx; i++) {
                double x = (i + 0.5) / nx, y = ((k % ny) + 0.5) / ny;
                double v = sin(3 * x + r) * cos(2 * y) + 0.1 * (homg_rng_uniform(&g) - 0.5);
                u[i + (size_t)nx * k] = v;
                sum += v;
            }
        }
        if (singular)
            for (size_t k = 0; k < nc; k++)
                u[k] -= sum / nc;
        fft_case_apply(p, u, pb->f + r * nc);
    }
    pb->nrot = (int)ceil(2 * L2_BYTES / (2.0 * pb->n * es));
    pb->nrot = pb->nrot < 1 ? 1 : pb->nrot > MAX_ROT ? MAX_ROT : pb->nrot;
    for (int k = 0; k < pb->nrot; k++) {
        pb->df[k] = homg_test_upload(ctx, pb->f, pb->n, prec);
        if (homg_alloc(ctx, pb->n * es, &pb->du[k]) != HOMG_OK)
            die("homg_alloc");
    }
}

static void free_problem(problem *pb)
{
    for (int k = 0; k < pb->nrot; k++) {
        homg_free(ctx, pb->df[k]);
        homg_free(ctx, pb->du[k]);
    }
    homg__fft_plan_destroy(pb->plan);
    free(pb->ustar);
    free(pb->f);
}

static int run_library(void *state, int k)
{
    problem *pb = (problem *)state;
    return homg__fft_solve(pb->plan, pb->df[k], NULL, pb->du[k]) != HOMG_OK;
}

static double error_of(const problem *pb, const void *du)
{
    double *u = (double *)malloc(sizeof(double) * pb->n);
    homg_test_download(ctx, du, pb->n, pb->p.precision, u);
    double e = homg_rel_diff(u, pb->ustar, pb->n);
    free(u);
    return e;
}

static row *bench_library(const char *name, int dim, int nx, int ny, int nz, const char *sides, double lambda, int nrhs,
                          homg_precision prec, problem *keep)
{
    problem pb;
    fft_cost cost;
    row *rw = &rows[nrows++];
    make_problem(&pb, dim, nx, ny, nz, sides, lambda, nrhs, prec);
    if (homg__fft_plan_create(ctx, &pb.p, &pb.plan) != HOMG_OK)
        die("homg__fft_plan_create");
    homg__fft_cost(pb.plan, &cost);
    memset(rw, 0, sizeof *rw);
    snprintf(rw->name, sizeof rw->name, "%s", name);
    if (dim == 2)
        snprintf(rw->size, sizeof rw->size, "%d x %d", nx, ny);
    else
        snprintf(rw->size, sizeof rw->size, "%d x %d x %d", nx, ny, nz);
    rw->prec = prec == HOMG_FLOAT64 ? "float64" : "float32";
    rw->nrhs = nrhs;
    rw->ms = time_median(run_library, &pb, pb.nrot);
    rw->err = error_of(&pb, pb.du[0]);
    rw->launches = cost.launches;
    rw->gbs = cost.bytes / (rw->ms * 1e-3) / 1e9;
    rw->bpu = (double)cost.workspace_bytes / (double)pb.n;
    printf("  %-22s %-16s %s x%d: %8.4f ms  error %.1e  %2ld launches (%s)  %5.0f GB/s (%3.0f%% of copy)  "
           "workspace %.1f B/unknown\n",
           rw->name, rw->size, rw->prec, nrhs, rw->ms, rw->err, rw->launches,
           cost.launches_counted ? "counted" : "assumed", rw->gbs, 100 * rw->gbs / copy_gbs, rw->bpu);
    if (keep)
        *keep = pb;
    else
        free_problem(&pb);
    return rw;
}

/* ----------------------------------------------------------------- baselines */

typedef struct per_state {
    cufft_periodic *cp;
    problem *pb;
} per_state;

static int run_periodic(void *state, int k)
{
    per_state *s = (per_state *)state;
    return cufft_periodic_solve(s->cp, (const float *)s->pb->df[k], (float *)s->pb->du[k]);
}

/* The periodic cuFFT solve of the same box and the copy of its floats, on the
 * problem's buffers (float32, one right-hand side). */
static void baseline_periodic(row *rw, problem *pb)
{
    per_state s = { NULL, pb };
    size_t cells = (size_t)pb->p.nx * pb->p.ny * pb->p.nz;
    if (cufft_periodic_create(pb->p.nx, pb->p.ny, pb->p.nz, pb->p.h, &s.cp))
        die("cufft_periodic_create");
    double ms = time_median(run_periodic, &s, pb->nrot), cms = bench_copy_ms(cells * sizeof(float));
    snprintf(rw->ref, sizeof rw->ref, "periodic cuFFT (copy %.3f ms)", cms);
    rw->ref_ms = ms;
    printf("  %-22s %-16s float32   : %8.4f ms  (homg / periodic %.2f; copy of the floats %.3f ms)\n",
           "  periodic cuFFT", rw->size, ms, rw->ms / ms, cms);
    cufft_periodic_destroy(s.cp);
}

/* ------------------------------------------------------------------- output */

static void write_table(FILE *f, const char *device)
{
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    fprintf(f, "# FFT direct solves (lib/fft), %s\n\n", device);
    fprintf(f,
            "Date %s, build %s, `build/bench/bench_fft` (bench/bench_fft.c).  Exact discrete problems (f = A u*, "
            "u* smooth + noise, zero face data), from nothing: one direct solve.  Time: median of %d solves timed "
            "with CUDA events, inputs rotated beyond L2.  GB/s: modelled bytes of one solve (each own kernel reads "
            "and writes its arrays once, each cuFFT kernel the half spectrum) over the time; copy bandwidth "
            "measured here %.0f GB/s.  Workspace: bytes the plan allocates per unknown (f and u not included).  "
            "Baseline in the same process on the same buffers: a periodic cuFFT solve of the same box (R2C, scale, "
            "C2R; bench/cufft_periodic.cu), the least an FFT solve can cost, with the time to copy the box's "
            "floats.\n\n",
            date, HOMG_BUILD_ID, reps, copy_gbs);
    fprintf(
        f, "| case | size | precision | rhs | homg FFT ms | error | launches | GB/s (%% of copy) | workspace B/unknown "
           "| baseline | baseline ms | homg / baseline |\n");
    fprintf(f, "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int k = 0; k < nrows; k++) {
        row *r = &rows[k];
        fprintf(f, "| %s | %s | %s | %d | %.4f | %.1e | %ld | %.0f (%.0f%%) | %.1f |", r->name, r->size, r->prec,
                r->nrhs, r->ms, r->err, r->launches, r->gbs, 100 * r->gbs / copy_gbs, r->bpu);
        if (r->ref_ms > 0)
            fprintf(f, " %s | %.4f | %.2f |\n", r->ref, r->ref_ms, r->ms / r->ref_ms);
        else
            fprintf(f, " | | |\n");
    }
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    FILE *file;
    int quick = 0, profile = 0;
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "--reps") && k + 1 < argc)
            reps = atoi(argv[++k]);
        else if (!strcmp(argv[k], "--out") && k + 1 < argc)
            out = argv[++k];
        else if (!strcmp(argv[k], "--quick"))
            quick = 1;
        else if (!strcmp(argv[k], "--profile"))
            profile = 1;
    }
    if (reps < 21)
        reps = 21;
    if (!homg_cuda_available()) {
        printf("SKIP bench_fft: no CUDA device\n");
        return 0;
    }
    file = profile ? NULL : table_out_open(out, "bench_fft");
    if (!profile && out && !file)
        return 1;
    ctx = homg_test_ctx(HOMG_BACKEND_CUDA);
    copy_gbs = bench_copy_gbs();
    printf("bench_fft: %s, build %s, copy bandwidth %.0f GB/s, median of %d\n", homg_ctx_device_name(ctx),
           HOMG_BUILD_ID, copy_gbs, reps);

    if (profile) {
        bench_library("2D Dirichlet", 2, 2048, 2048, 1, "DDDD", 0, 1, HOMG_FLOAT32, NULL);
        bench_library("3D Dirichlet", 3, 256, 256, 256, "DDDDDD", 0, 1, HOMG_FLOAT32, NULL);
        homg_ctx_destroy(ctx);
        return 0;
    }
    static const int n2[] = { 256, 512, 1024, 2048, 4096 };
    for (int k = 0; k < 5 && !(quick && k > 2); k++) {
        problem pb;
        row *rw = bench_library("2D Dirichlet", 2, n2[k], n2[k], 1, "DDDD", 0, 1, HOMG_FLOAT32, &pb);
        baseline_periodic(rw, &pb);
        free_problem(&pb);
    }
    static const int n3[] = { 128, 256, 512 };
    for (int k = 0; k < 3 && !(quick && k > 1); k++) {
        problem pb;
        row *rw = bench_library("3D Dirichlet", 3, n3[k], n3[k], n3[k], "DDDDDD", 0, 1, HOMG_FLOAT32, &pb);
        baseline_periodic(rw, &pb);
        free_problem(&pb);
    }
    bench_library("3D periodic", 3, 256, 256, 256, "PPPPPP", 0, 1, HOMG_FLOAT32, NULL);
    bench_library("3D Neumann (projection)", 3, 256, 256, 256, "NNNNNN", 0, 1, HOMG_FLOAT32, NULL);
    bench_library("3D mixed z (D-N)", 3, 256, 256, 256, "DDDDDN", 0, 1, HOMG_FLOAT32, NULL);
    bench_library("2D Neumann (projection)", 2, 1024, 1024, 1, "NNNN", 0, 1, HOMG_FLOAT32, NULL);
    bench_library("2D Dirichlet", 2, 1920, 1080, 1, "DDDD", 0, 1, HOMG_FLOAT32, NULL);
    bench_library("2D Dirichlet", 2, 2048, 1024, 1, "DDDD", 0, 1, HOMG_FLOAT32, NULL);
    bench_library("2D Dirichlet, 3 rhs", 2, 1024, 1024, 1, "DDDD", 0, 3, HOMG_FLOAT32, NULL);
    bench_library("2D Dirichlet", 2, 1024, 1024, 1, "DDDD", 0, 1, HOMG_FLOAT64, NULL);
    bench_library("3D Dirichlet", 3, 256, 256, 256, "DDDDDD", 0, 1, HOMG_FLOAT64, NULL);
    if (file) {
        write_table(file, homg_ctx_device_name(ctx));
        table_out_close(file, out);
    }
    printf("\n");
    write_table(stdout, homg_ctx_device_name(ctx));
    homg_ctx_destroy(ctx);
    return 0;
}
#else
int main(void)
{
    printf("SKIP bench_fft: built without CUDA\n");
    return 0;
}
#endif
