/* bench_amg.c -- AMG-preconditioned CG on seed 000's "Regular" problem: P1
 * elements on the cube [0,4]^3 cut into k^3 cubes of 6 tetrahedra (k = 64:
 * 274,625 nodes; k = 128: 2,146,689), sigma = lambda = 1, natural boundary
 * conditions, b = ones, to ||r|| / ||b|| <= 1e-8 from x = 0.
 *
 * GPU (default; needs a CUDA device): homg's set-up and solve for smoothed
 * aggregation and matching, against unpreconditioned CG and Jacobi-PCG written
 * with cuSPARSE SpMV + cuBLAS, in the same process on the same matrices; the
 * median of --reps runs after a warm-up (CUDA events); the true residual of the
 * solution recomputed on the host in double; iterations, operator complexity,
 * memory.  homg allocates through a cudaMallocAsync pool given as the ctx
 * allocator (--no-pool: the library's default allocator -- its own stream-ordered
 * pool, or cudaMalloc with HOMG_CUDA_POOL=0, whose implicit synchronisations show
 * in the set-up time).  Prints a markdown table last; --out FILE also writes it to FILE
 * (nothing is written by default: the bench/results/ AMG tables are edited by hand).
 *
 * --cpu: the CPU comparison, homg's CPU backend against hypre BoomerAMG-PCG
 * (serial, PMIS coarsening, hybrid Gauss-Seidel as seed 000 ran it; built in
 * when libhypre-dev is installed); its last table is bench/results/cpu_amg.md.
 *
 * --family: issue 14's hard problems instead of the cube (tests/util/gen_family.c):
 * rotated anisotropy (P1 on 500^2 cells, 30 degrees, eps 1e-3: 249,001 rows),
 * a sphere mesh with a 1:1000 coefficient checkerboard (P1 on a 40^3 cube
 * mapped onto the ball), and the power network HB/1138_bus (assets/1138_bus.mtx,
 * or another matrix with --power FILE.mtx); homg's
 * defaults and other smoothers against hypre BoomerAMG-PCG, iterations side by
 * side (last tables: bench/results/cpu_amg_family.md and h100_amg_family.md).
 *
 *   bench_amg [--cpu] [--family] [--sizes 64,128] [--reps 20] [--threads 1] [--hypre] [--no-pool]
 *             [--out FILE] [--write-mtx DIR] [--power FILE.mtx] [--trace] [--in-place] [--only TEXT]
 *
 * --only TEXT: only the homg configurations whose name contains TEXT, no
 * cuSPARSE baselines (a short run, e.g. under ncu: --only Chebyshev).
 * --in-place: homg_amg_desc.fine_in_place (memory then leaves the matrix out).
 * --trace: homg's set-ups with homg_amg_desc.trace, and each configuration's
 * last set-up printed with its phase table (time, host synchronisations, peak
 * memory per phase) and the cudaMallocAsync pool's peak during it.
 *
 * The matrices come from tests/util/gen_matrix.c until the FEM module (issue
 * 3) assembles meshes; --write-mtx DIR writes them as Matrix Market files.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "host_system.h"
#include "gen_family.h"
#include "gen_matrix.h"
#include "homg.h"
#include "hypre_pcg.h"
#include "table_out.h"
#if HOMG_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "cusparse_cg.h"
#endif

#define MAX_ROWS 64

typedef struct result {
    char problem[48];
    char method[64];
    int its;
    double setup_ms, solve_ms, rel, opc, mem_mb;
    int levels;
    int ok;
} result;

static result rows[MAX_ROWS];
static int nrows;

static result *add(const char *problem, const char *method)
{
    result *r = &rows[nrows < MAX_ROWS - 1 ? nrows++ : nrows];
    memset(r, 0, sizeof *r);
    snprintf(r->problem, sizeof r->problem, "%s", problem);
    snprintf(r->method, sizeof r->method, "%s", method);
    r->setup_ms = r->solve_ms = r->opc = r->mem_mb = NAN;
    return r;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n ? v[n / 2] : NAN;
}

typedef struct config {
    const char *name;
    homg_amg_coarsening coarsening;
    homg_amg_smoother smoother;
    homg_amg_cycle cycle;
} config;

static const config family_configs[] = {
    { "homg AMG-PCG, defaults (SA + Chebyshev(3))", HOMG_AMG_COARSEN_DEFAULT, HOMG_AMG_SMOOTHER_DEFAULT,
      HOMG_AMG_CYCLE_DEFAULT },
    { "homg AMG-PCG, SA + patch l1", HOMG_AMG_SMOOTHED_AGGREGATION, HOMG_AMG_SMOOTHER_PATCH, HOMG_AMG_CYCLE_V },
    { "homg AMG-PCG, SA + l1 Jacobi", HOMG_AMG_SMOOTHED_AGGREGATION, HOMG_AMG_SMOOTHER_L1_JACOBI, HOMG_AMG_CYCLE_V },
    { "homg AMG-PCG, matching + patch, V", HOMG_AMG_MATCHING, HOMG_AMG_SMOOTHER_PATCH, HOMG_AMG_CYCLE_V },
};

static const config configs[] = {
    { "homg AMG-PCG, SA + patch Jacobi", HOMG_AMG_SMOOTHED_AGGREGATION, HOMG_AMG_SMOOTHER_PATCH, HOMG_AMG_CYCLE_V },
    { "homg AMG-PCG, SA + l1 Jacobi", HOMG_AMG_SMOOTHED_AGGREGATION, HOMG_AMG_SMOOTHER_L1_JACOBI, HOMG_AMG_CYCLE_V },
    { "homg AMG-PCG, SA + Chebyshev(3)", HOMG_AMG_SMOOTHED_AGGREGATION, HOMG_AMG_SMOOTHER_CHEBYSHEV, HOMG_AMG_CYCLE_V },
    { "homg AMG-PCG, matching + patch, V", HOMG_AMG_MATCHING, HOMG_AMG_SMOOTHER_PATCH, HOMG_AMG_CYCLE_V },
    { "homg AMG-PCG, matching + patch, W", HOMG_AMG_MATCHING, HOMG_AMG_SMOOTHER_PATCH, HOMG_AMG_CYCLE_W },
};

static int trace;        /* --trace: each homg set-up's phase table (homg_amg_desc.trace) */
static int in_place;     /* --in-place: homg_amg_desc.fine_in_place (the uploaded matrix, not a copy) */
static const char *only; /* --only TEXT: the configurations whose name contains TEXT, no baselines */

/* The most memory the default pool held since the last reset (0 without CUDA
 * or the pool): what a set-up really takes, cuSPARSE's buffers included. */
static double pool_peak_mb(int reset)
{
#if HOMG_HAVE_CUDA
    cudaMemPool_t pool;
    uint64_t high = 0;
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetDefaultMemPool(&pool, dev) != cudaSuccess)
        return 0;
    if (reset)
        return cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high) == cudaSuccess ? 0 : -1;
    cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high);
    return high / 1e6;
#else
    (void)reset;
    return 0;
#endif
}

/* homg set-up `reps` times (the median), then `reps` solves with the last set-up. */
static void run_homg(homg_ctx *ctx, const homg_host_csr *m, const homg_csr *view, const void *db, void *dx, double *x,
                     const double *b, const config *c, int reps, result *r)
{
    homg_amg_desc ad;
    homg_amg *amg = NULL;
    homg_pcg *pcg = NULL;
    homg_amg_info info;
    homg_pcg_info pi;
    double *setup = calloc((size_t)reps, sizeof *setup), *solve = calloc((size_t)reps, sizeof *solve);
    size_t n = (size_t)m->nrows;
    memset(&ad, 0, sizeof ad);
    ad.coarsening = c->coarsening;
    ad.smoother = c->smoother;
    ad.cycle = c->cycle;
    ad.trace = trace;
    ad.fine_in_place = in_place;
    for (int rep = -1; rep < reps; rep++) { /* rep -1 warms up */
        homg_amg_destroy(amg);
        amg = NULL;
        pool_peak_mb(1);
        if (homg_amg_create(ctx, view, &ad, &amg) != HOMG_OK) {
            fprintf(stderr, "bench_amg: %s: %s\n", c->name, homg_ctx_last_error(ctx));
            goto done;
        }
        homg_amg_get_info(amg, &info);
        if (rep >= 0)
            setup[rep] = info.setup_ms;
    }
    if (trace) { /* the last set-up's phases; the pool's peak counts the matrix uploaded before */
        char text[4096];
        homg_amg_format_info(&info, text, sizeof text);
        printf("%s, %s:\n%s  Pool peak in the set-up: %.1f MB (with the caller's matrix and vectors)\n\n", r->problem,
               c->name, text, pool_peak_mb(0));
    }
    if (homg_pcg_create(ctx, NULL, amg, NULL, &pcg) != HOMG_OK) {
        fprintf(stderr, "bench_amg: %s: %s\n", c->name, homg_ctx_last_error(ctx));
        goto done;
    }
    for (int rep = -1; rep < reps; rep++) {
        homg_status st = homg_pcg_solve(pcg, db, dx, &pi);
        if (st != HOMG_OK)
            fprintf(stderr, "bench_amg: %s: %s\n", c->name, homg_ctx_last_error(ctx));
        if (rep >= 0)
            solve[rep] = pi.solve_ms;
    }
    homg_copy_to_host(ctx, x, dx, n * sizeof(double));
    r->its = pi.iterations;
    r->setup_ms = median(setup, reps);
    r->solve_ms = median(solve, reps);
    r->rel = homg_test_residual(m, b, x);
    r->opc = info.operator_complexity;
    r->mem_mb = info.memory_bytes / 1e6;
    r->levels = info.levels;
    r->ok = pi.converged;
done:
    homg_pcg_destroy(pcg);
    homg_amg_destroy(amg);
    free(setup);
    free(solve);
}

static void run_hypre(const homg_host_csr *m, const double *b, double *x, int amg, const char *problem)
{
    homg_hypre_result h;
    char why[256];
    result *r = add(problem, amg ? "hypre BoomerAMG-PCG (CPU, 1 process)" : "hypre CG (CPU, 1 process)");
    if (homg_hypre_pcg(m, b, 1e-8, amg ? 1000 : 20000, amg, x, &h, why, sizeof why) != 0) {
        snprintf(r->method, sizeof r->method, "hypre: %.56s", why);
        return;
    }
    r->its = h.iterations;
    r->setup_ms = h.setup_ms;
    r->solve_ms = h.solve_ms;
    r->rel = homg_test_residual(m, b, x);
    r->ok = h.rel_residual <= 1e-8;
}

static void machine(char *buf, size_t len)
{
    char model[128] = "unknown CPU", line[256], host[64] = "";
    FILE *f = fopen("/proc/cpuinfo", "r");
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
            snprintf(model, sizeof model, "%s", strchr(line, ':') + 2);
            model[strcspn(model, "\n")] = 0;
            break;
        }
    if (f)
        fclose(f);
    gethostname(host, sizeof host - 1);
    snprintf(buf, len, "%s, %ld logical cores (host %s)", model, cores, host);
}

static void table(FILE *f, const char *title, const char *device, int reps, int cpu, int family)
{
    char date[32];
    time_t t = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M", localtime(&t));
    fprintf(f, "# %s\n\n", title);
    fprintf(f, "Device: %s  \nDate: %s  \nBuild: homg %s", device, date, homg_version_string());
#if HOMG_HAVE_CUDA
    {
        int rt = 0;
        cudaRuntimeGetVersion(&rt);
        fprintf(f, ", CUDA runtime %d.%d", rt / 1000, (rt % 1000) / 10);
    }
#endif
    fprintf(f,
            "  \nProblem: %s, b = ones, "
            "to ||r||/||b|| <= 1e-8 from x = 0; %s of %d runs after a warm-up (hypre: one run).  "
            "Residual: ||b - A x|| / ||b|| recomputed on the host in double.\n\n",
            family ? "issue 14's hard family (tests/util/gen_family.c; P1 rows: Dirichlet boundary removed)"
                   : "seed 000's Regular cube, P1, sigma = lambda = 1, natural boundaries",
            cpu ? "median" : "median (CUDA events)", reps);
    fprintf(f, "| problem | method | iterations | set-up ms | solve ms | total ms | residual | levels | op. cx | "
               "memory MB |\n");
    fprintf(f, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < nrows; i++) {
        const result *r = &rows[i];
        char setup[32] = "-", levels[16] = "-", opc[16] = "-", mem[16] = "-";
        if (!isnan(r->setup_ms))
            snprintf(setup, sizeof setup, "%.2f", r->setup_ms);
        if (r->levels)
            snprintf(levels, sizeof levels, "%d", r->levels);
        if (!isnan(r->opc))
            snprintf(opc, sizeof opc, "%.3f", r->opc);
        if (!isnan(r->mem_mb))
            snprintf(mem, sizeof mem, "%.1f", r->mem_mb);
        fprintf(f, "| %s | %s | %d%s | %s | %.2f | %.2f | %.1e | %s | %s | %s |\n", r->problem, r->method, r->its,
                r->ok ? "" : " (not converged)", setup, r->solve_ms,
                (isnan(r->setup_ms) ? 0 : r->setup_ms) + r->solve_ms, r->rel, levels, opc, mem);
    }
    fprintf(f, "\n");
}

/* Iterations of homg's defaults over hypre BoomerAMG-PCG's (issue 14: at most 2). */
static void family_summary(FILE *f)
{
    for (int i = 0; i < nrows; i++) {
        const result *a = &rows[i];
        if (strncmp(a->method, "homg AMG-PCG, defaults", 22))
            continue;
        for (int j = 0; j < nrows; j++) {
            const result *h = &rows[j];
            if (strcmp(a->problem, h->problem) || strncmp(h->method, "hypre BoomerAMG", 15) || h->its <= 0)
                continue;
            fprintf(f, "- %s: homg defaults %d iterations, BoomerAMG-PCG %d: ratio %.2f (<= 2: %s)\n", a->problem,
                    a->its, h->its, (double)a->its / h->its, a->ok && a->its <= 2 * h->its ? "met" : "MISSED");
        }
    }
    fprintf(f, "\n");
}

/* Speed ratios and the targets, after the table. */
static void summary(FILE *f, int cpu, int family)
{
    if (family) {
        family_summary(f);
        return;
    }
    for (int i = 0; i < nrows; i++) {
        const result *a = &rows[i];
        if (strncmp(a->method, "homg AMG-PCG, SA + patch", 24))
            continue;
        for (int j = 0; j < nrows; j++) {
            const result *b = &rows[j];
            if (j == i || strcmp(a->problem, b->problem) || !strncmp(b->method, "homg", 4) || isnan(b->solve_ms))
                continue;
            fprintf(f, "- %s: %s / homg SA + patch: solve %.2fx, set-up + solve %.2fx\n", a->problem, b->method,
                    b->solve_ms / a->solve_ms,
                    ((isnan(b->setup_ms) ? 0 : b->setup_ms) + b->solve_ms) / (a->setup_ms + a->solve_ms));
        }
        if (!cpu) {
            int k64 = strstr(a->problem, "64^3") != NULL, k128 = strstr(a->problem, "128^3") != NULL;
            double ts = k64 ? 15 : 60, tu = k64 ? 20 : 40;
            if (k64 || k128)
                fprintf(f,
                        "- %s targets: solve %.2f ms (<= %.0f: %s), set-up %.2f ms (<= %.0f: %s), iterations %d "
                        "(<= 19: %s)\n",
                        a->problem, a->solve_ms, ts, a->solve_ms <= ts ? "met" : "MISSED", a->setup_ms, tu,
                        a->setup_ms <= tu ? "met" : "MISSED", a->its, a->its <= 19 ? "met" : "MISSED");
        }
    }
    if (!cpu)
        fprintf(f, "- For reference (issue 4): AmgX PCG with aggregation AMG and block Jacobi on the same H100 "
                   "needed 31 iterations, ~20 ms set-up, ~40 ms solve at 64^3; 49, ~30 ms, ~160 ms at 128^3.\n");
    fprintf(f, "\n");
}

#if HOMG_HAVE_CUDA
/* The ctx allocator of the GPU runs: cudaMallocAsync from the device's default
 * pool on the legacy stream (the ctx's), the pool keeping its memory between
 * set-ups, as an application that sets up every frame would configure it. */
static void *pool_alloc(size_t bytes, void *user)
{
    void *p = NULL;
    (void)user;
    return cudaMallocAsync(&p, bytes, 0) == cudaSuccess ? p : NULL;
}

static void pool_free(void *p, void *user)
{
    (void)user;
    cudaFreeAsync(p, 0);
}

static int use_pool(homg_ctx_desc *cd)
{
    cudaMemPool_t pool;
    uint64_t keep = UINT64_MAX;
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetDefaultMemPool(&pool, dev) != cudaSuccess ||
        cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep) != cudaSuccess)
        return 0;
    cd->allocator.alloc = pool_alloc;
    cd->allocator.free = pool_free;
    return 1;
}
#endif

enum { FAMILY_PROBLEMS = 3 };

/* Problem p of --family; power: the Matrix Market file of the third problem. */
static int family_problem(int p, const char *power, homg_ctx *ctx, homg_host_csr *m, char *name, size_t len)
{
    int rc;
    if (p == 0) {
        rc = homg_gen_rotated_anisotropy(500, 30, 1e-3, m);
        snprintf(name, len, "rotated anisotropy 30 deg 1e-3 (%d)", rc ? 0 : (int)m->nrows);
    } else if (p == 1) {
        rc = homg_gen_checkerboard(40, 4, 1e3, 1, m);
        snprintf(name, len, "sphere checkerboard 1:1000 (%d)", rc ? 0 : (int)m->nrows);
    } else {
        rc = homg_mtx_read(ctx, power, m) == HOMG_OK ? 0 : -1;
        if (rc)
            fprintf(stderr, "bench_amg: %s\n", homg_ctx_last_error(ctx));
        snprintf(name, len, "power network %s (%d)", strrchr(power, '/') ? strrchr(power, '/') + 1 : power,
                 rc ? 0 : (int)m->nrows);
    }
    return rc;
}

static int parse_sizes(const char *s, int *k, int max)
{
    int n = 0;
    while (s && *s && n < max) {
        k[n++] = atoi(s);
        s = strchr(s, ',');
        if (s)
            s++;
    }
    return n;
}

int main(int argc, char **argv)
{
    int cpu = 0, reps = 20, threads = 1, with_hypre = 0, sizes[8], nsizes, pool = 0, no_pool = 0, family = 0;
    const char *size_arg = "64,128", *out = NULL, *mtx_dir = NULL, *power = "assets/1138_bus.mtx";
    char device[256], title[128];
    homg_ctx_desc cd = { 0 };
    homg_ctx *ctx = NULL;
    FILE *f;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--cpu"))
            cpu = 1;
        else if (!strcmp(argv[i], "--hypre"))
            with_hypre = 1;
        else if (!strcmp(argv[i], "--family"))
            family = 1;
        else if (!strcmp(argv[i], "--power") && i + 1 < argc)
            power = argv[++i];
        else if (!strcmp(argv[i], "--no-pool"))
            no_pool = 1;
        else if (!strcmp(argv[i], "--sizes") && i + 1 < argc)
            size_arg = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--write-mtx") && i + 1 < argc)
            mtx_dir = argv[++i];
        else if (!strcmp(argv[i], "--trace"))
            trace = 1;
        else if (!strcmp(argv[i], "--in-place"))
            in_place = 1;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else {
            fprintf(stderr, "usage: bench_amg [--cpu] [--family] [--sizes 64,128] [--reps 20] [--threads 1] [--hypre] "
                            "[--no-pool] [--out FILE] [--write-mtx DIR] [--power FILE.mtx] [--trace] [--in-place] "
                            "[--only TEXT]\n");
            return 2;
        }
    }
    nsizes = family ? FAMILY_PROBLEMS : parse_sizes(size_arg, sizes, 8);
    if (family)
        memset(sizes, 0, sizeof sizes);
    if (reps < 1)
        reps = 1;
    if (!cpu && !mtx_dir && !homg_cuda_available()) {
        printf("bench_amg: needs a CUDA device for the GPU table (bench/results/h100_amg.md); "
               "bench_amg --cpu runs the CPU comparison with hypre\n");
        return 0;
    }
    cd.backend = cpu || mtx_dir ? HOMG_BACKEND_CPU : HOMG_BACKEND_CUDA;
    cd.cpu_threads = threads;
#if HOMG_HAVE_CUDA
    if (cd.backend == HOMG_BACKEND_CUDA && !no_pool)
        pool = use_pool(&cd);
#endif
    (void)no_pool;
    f = table_out_open(mtx_dir ? NULL : out, "bench_amg");
    if (!mtx_dir && out && !f)
        return 1;
    if (homg_ctx_create_msg(&cd, &ctx, device, sizeof device) != HOMG_OK) {
        fprintf(stderr, "bench_amg: %s\n", device);
        return 1;
    }
    if (cpu) {
        machine(device, sizeof device);
        snprintf(title, sizeof title, "AMG-PCG on the CPU: homg (%d thread%s) and hypre", threads,
                 threads == 1 ? "" : "s");
        if (reps > 3)
            reps = 3;
        with_hypre = 1;
    } else {
        snprintf(device, sizeof device, "%s; allocations: %s", homg_ctx_device_name(ctx),
                 pool ? "cudaMallocAsync pool (the ctx allocator)"
                      : "the library's default (its pool; cudaMalloc with HOMG_CUDA_POOL=0)");
        snprintf(title, sizeof title, "AMG-PCG on the GPU: homg and cuSPARSE baselines");
    }
    for (int s = 0; s < nsizes; s++) {
        int k = sizes[s];
        homg_host_csr m;
        homg_csr view;
        double *b, *x;
        void *db = NULL, *dx = NULL, *drp = NULL, *dci = NULL, *dval = NULL;
        char problem[48];
        size_t n;
        const config *cfg = family ? family_configs : configs;
        size_t ncfg = family ? sizeof family_configs / sizeof family_configs[0] : sizeof configs / sizeof configs[0];
        if (family ? family_problem(s, power, ctx, &m, problem, sizeof problem) != 0
                   : k < 1 || homg_gen_p1_cube(k, 1, 1, 1, &m) != 0) {
            fprintf(stderr, "bench_amg: cannot make problem %d\n", family ? s : k);
            continue;
        }
        n = (size_t)m.nrows;
        if (!family)
            snprintf(problem, sizeof problem, "cube %d^3 (%d nodes)", k, (int)m.nrows);
        if (mtx_dir) {
            char path[512];
            homg_csr v = homg_host_csr_view(&m);
            snprintf(path, sizeof path, "%s/cube%d.mtx", mtx_dir, k);
            if (homg_mtx_write(ctx, path, &v, 1) != HOMG_OK)
                fprintf(stderr, "bench_amg: %s\n", homg_ctx_last_error(ctx));
            else
                printf("wrote %s\n", path);
            homg_host_csr_free(&m);
            continue;
        }
        b = malloc(n * sizeof *b);
        x = calloc(n, sizeof *x);
        for (size_t i = 0; i < n; i++)
            b[i] = 1.0;
        /* The matrix and vectors in the ctx's space: the set-up times exclude the upload. */
        view = homg_host_csr_view(&m);
        homg_alloc(ctx, (n + 1) * 4, &drp);
        homg_alloc(ctx, (size_t)m.nnz * 4, &dci);
        homg_alloc(ctx, (size_t)m.nnz * 8, &dval);
        homg_alloc(ctx, n * 8, &db);
        homg_alloc(ctx, n * 8, &dx);
        if (!drp || !dci || !dval || !db || !dx) {
            fprintf(stderr, "bench_amg: out of memory for %s\n", problem);
            return 1;
        }
        homg_copy_from_host(ctx, drp, m.row_ptr, (n + 1) * 4);
        homg_copy_from_host(ctx, dci, m.col_idx, (size_t)m.nnz * 4);
        homg_copy_from_host(ctx, dval, m.values, (size_t)m.nnz * 8);
        homg_copy_from_host(ctx, db, b, n * 8);
        view.row_ptr = drp;
        view.col_idx = dci;
        view.values = dval;
        view.memory = HOMG_MEMORY_CONTEXT;
        for (size_t c = 0; c < ncfg; c++) {
            if ((cpu && cfg[c].cycle == HOMG_AMG_CYCLE_W) || (only && !strstr(cfg[c].name, only)))
                continue;
            fprintf(stderr, "bench_amg: %s, %s\n", problem, cfg[c].name);
            run_homg(ctx, &m, &view, db, dx, x, b, &cfg[c], reps, add(problem, cfg[c].name));
        }
#if HOMG_HAVE_CUDA
        if (!cpu && !only)
            for (int jac = 0; jac < 2; jac++) {
                homg_cusparse_cg_result cr;
                char why[256];
                result *r = add(problem, jac ? "Jacobi-PCG (cuSPARSE SpMV + cuBLAS)" : "CG (cuSPARSE SpMV + cuBLAS)");
                fprintf(stderr, "bench_amg: %s, %s\n", problem, r->method);
                if (homg_cusparse_cg(&m, b, 1e-8, 20000, jac, reps < 5 ? reps : 5, x, &cr, why, sizeof why) != 0) {
                    snprintf(r->method, sizeof r->method, "cuSPARSE CG: %.48s", why);
                    continue;
                }
                r->its = cr.iterations;
                r->solve_ms = cr.solve_ms;
                r->rel = homg_test_residual(&m, b, x);
                r->ok = cr.rel_residual <= 1e-8;
            }
#endif
        if (with_hypre) {
            fprintf(stderr, "bench_amg: %s, hypre\n", problem);
            run_hypre(&m, b, x, 1, problem);
        }
        homg_free(ctx, drp);
        homg_free(ctx, dci);
        homg_free(ctx, dval);
        homg_free(ctx, db);
        homg_free(ctx, dx);
        free(b);
        free(x);
        homg_host_csr_free(&m);
    }
    homg_hypre_finish();
    if (mtx_dir) {
        homg_ctx_destroy(ctx);
        return 0;
    }
    if (f) {
        table(f, title, device, reps, cpu, family);
        summary(f, cpu, family);
        if (!homg_hypre_available())
            fprintf(f, "hypre: not built in (install libhypre-dev and rebuild).\n");
        table_out_close(f, out);
    }
    table(stdout, title, device, reps, cpu, family);
    summary(stdout, cpu, family);
    if (!homg_hypre_available())
        printf("hypre: not built in (install libhypre-dev and rebuild).\n");
    homg_ctx_destroy(ctx);
    return 0;
}
