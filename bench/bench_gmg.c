/* bench_gmg.c -- geometric multigrid on nested meshes (seed 004) beside homg's
 * AMG-PCG on the same matrices.
 *
 * Problem: seed 004's test, -Laplace u = 1 with u = 0 on the side x = 0 and
 * u = 1 on the side x = 1, on the unit square (8 x 8 cells of 2 triangles,
 * refined L = 6 times, 7 with --big) and the unit cube (4^3 cells of 6 Kuhn
 * tetrahedra, refined L times: L = 4 is the Regular cube with 65^3 nodes, 1.57M
 * tetrahedra; L = 5 129^3 with --big).  Mesh independence: SPAI-1 iterations
 * for L - 3 .. L.  Per smoother, numbering and SpMV format: set-up ms,
 * GMG-PCG iterations to 1e-8 (relative residual), solve ms (median of reps,
 * CUDA events through homg_pcg_info), ms per preconditioner application (one
 * V(2,2) cycle), the finest A's product in GB/s against the device's
 * copy bandwidth, and AMG-PCG (homg_amg default desc) on the same matrix.
 * Prints the table on stdout; --out FILE also writes it to FILE (nothing is written
 * by default: bench/results/h100_gmg.md and cpu_gmg.md are edited by hand).
 * --dim D runs only the square (2) or the cube (3); --levels L sets L; --fast
 * runs per problem only the library's default desc as read (SPAI(0) x3 on level 0, SPAI-1 below) and with
 * RCM (beside AMG-PCG), no sweeps: the cube 65^3 in a few seconds; --no-rcm
 * drops the RCM rows (their host numbering) and puts AMG-PCG beside the first
 * (the whole table: the smoother and mesh-independence rows as read, the
 * numbering rows without RCM).  --big implies --no-rcm (said on stderr) unless
 * --rcm is given: RCM renumbers the finest mesh on the host, 2.1M nodes at
 * 129^3 (~7.8 s a create on the H100's host, times --setup-reps).
 * --setup-reps N: set-up ms is the median of N creates after a warm-up one
 * (timed_create says what set-up includes).  --pool (CUDA): the ctx allocates
 * from a cudaMallocAsync pool (homg_allocator) and the allocations of a create
 * are counted (pool_alloc).  --count: the ctx allocates with cudaMalloc /
 * cudaFree (malloc / free on the CPU) as by default, through a counting
 * homg_allocator, so a create's allocations and frees are printed.
 * --fine LIST (with --fast): instead of the default row (the library's default
 * smoothers: SPAI(0) x3 on level 0, SPAI-1 below), one row per level-0 smoother and
 * sweeps of LIST (parse_fine) with SPAI-1 below, in one process.
 *   bench_gmg [--quick] [--big] [--rcm | --no-rcm] [--fast [--fine LIST]] [--dim D] [--levels L] [--reps N]
 *             [--setup-reps N] [--pool] [--count]
 *             [--out FILE]
 */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* sched_getcpu: which CPU each timed create started on */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__linux__)
#include <sched.h>
#endif

#include "core/internal.h"
#include "gmg/gmg_internal.h"
#include "homg.h"
#include "testutil.h"
#include "copy_bandwidth.h"
#include "table_out.h"

#if HOMG_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#ifndef HOMG_BUILD_ID
#define HOMG_BUILD_ID "unknown"
#endif

static int reps = 10;

/* --fine LIST (with --fast): level 0's smoother and sweeps per row, e.g.
 * "spai1:0,jacobi:2" (NAME:SWEEPS, NAME jacobi|spai0|spai1, SWEEPS 0 = pre,
 * post), all in one process so that they compare without the between-process
 * spread of the host's speed; none: the default desc. */
#define MAX_FINE 16
static homg_gmg_smoother fine_sm[MAX_FINE];
static int fine_sweeps[MAX_FINE], num_fine, fine_now = -1; /* fine_now: the variant run_gmg uses, -1 none */
static int lib_default; /* --fast's row without --fine: the library's default smoothers (desc.smoother DEFAULT) */

static int parse_fine(const char *s)
{
    static const char *names[] = { "jacobi", "spai0", "spai1" };
    while (*s && num_fine < MAX_FINE) {
        int k = 0, n = 0;
        for (k = 0; k < 3; k++)
            if (!strncmp(s, names[k], strlen(names[k])) && s[strlen(names[k])] == ':')
                break;
        if (k == 3)
            return 0;
        s += strlen(names[k]) + 1;
        n = atoi(s);
        while (*s && *s != ',')
            s++;
        if (*s == ',')
            s++;
        fine_sm[num_fine] = (homg_gmg_smoother)(HOMG_GMG_SMOOTHER_JACOBI + k);
        fine_sweeps[num_fine++] = n;
    }
    return *s == 0;
}

static double median_of(double *v, int n) { return homg_test_median(v, n); }

/* ms per call of f over `n` calls (host clock around a synchronised batch). */
static double cycle_ms(homg_ctx *ctx, homg_gmg *g, const double *r, double *z, int n)
{
    double t0;
    homg_gmg_apply(g, r, z);
    homg_ctx_synchronize(ctx);
    t0 = homg_test_now_ms();
    for (int k = 0; k < n; k++)
        homg_gmg_apply(g, r, z);
    homg_ctx_synchronize(ctx);
    return (homg_test_now_ms() - t0) / n;
}

/* GB/s of the finest A's product in the format the level chose. */
static double spmv_gbs(homg_ctx *ctx, homg_gmg *g)
{
    gmg_level *lv = &g->lv[0];
    double t0, ms, bytes;
    int n = 50;
    homg__gmg_op_apply(g, &lv->a, lv->x, lv->t, 1.0, 0.0);
    homg_ctx_synchronize(ctx);
    t0 = homg_test_now_ms();
    for (int k = 0; k < n; k++)
        homg__gmg_op_apply(g, &lv->a, lv->x, lv->t, 1.0, 0.0);
    homg_ctx_synchronize(ctx);
    ms = (homg_test_now_ms() - t0) / n;
    if (lv->a.use_ell)
        bytes = (double)lv->a.ell.width * lv->rows * 12.0 + lv->rows * (4.0 + 16.0);
    else
        bytes = (double)lv->a.csr.nnz * 12.0 + lv->rows * (4.0 + 16.0);
    return bytes / (ms * 1e6);
}

static FILE *out;

static void emit(const char *fmt, const char *a);

static void row(const char *problem, const char *smoother, const char *numbering, const char *format, double setup,
                int it, double solve, double cyc, double gbs, double band)
{
    char line[512];
    snprintf(line, sizeof line, "| %s | %s | %s | %s | %.1f | %d | %.2f | %.3f | %.0f | %.1f |\n", problem, smoother,
             numbering, format, setup, it, solve, cyc, gbs, band);
    fputs(line, stdout);
    if (out)
        fputs(line, out);
    fflush(stdout);
}

static void emit(const char *fmt, const char *a)
{
    printf(fmt, a);
    if (out)
        fprintf(out, fmt, a);
}

/* --pool (CUDA): the ctx's allocator is cudaMallocAsync/cudaFreeAsync on the
 * ctx's stream (the legacy default) from the device's default pool, kept
 * (release threshold: all), the recipe homg_allocator documents; every call
 * counted, so the set-up's allocations per create are printed.  Without it
 * the ctx allocates with cudaMalloc/cudaFree as always. */
static long pool_calls, free_calls;
static int count_cuda; /* --count: cudaMalloc (a device is there), else malloc */

static void *pool_alloc(size_t bytes, void *user)
{
    void *p = NULL;
    (void)user;
    pool_calls++;
#if HOMG_HAVE_CUDA
    if (cudaMallocAsync(&p, bytes ? bytes : 1, 0) != cudaSuccess)
        return NULL;
#endif
    return p;
}

static void pool_free(void *p, void *user)
{
    (void)user;
#if HOMG_HAVE_CUDA
    if (p)
        cudaFreeAsync(p, 0);
#else
    (void)p;
#endif
}

/* --count: the default allocation calls, counted. */
static void *count_alloc(size_t bytes, void *user)
{
    void *p = NULL;
    (void)user;
    pool_calls++;
#if HOMG_HAVE_CUDA
    if (count_cuda)
        return cudaMalloc(&p, bytes ? bytes : 1) == cudaSuccess ? p : NULL;
#endif
    p = malloc(bytes ? bytes : 1);
    return p;
}

static void count_free(void *p, void *user)
{
    (void)user;
    free_calls += p != NULL;
#if HOMG_HAVE_CUDA
    if (count_cuda) {
        if (p)
            cudaFree(p);
        return;
    }
#endif
    free(p);
}

static void count_setup(homg_ctx_desc *cd)
{
    int n = 0;
#if HOMG_HAVE_CUDA
    count_cuda = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
#endif
    cd->backend = count_cuda ? HOMG_BACKEND_CUDA : HOMG_BACKEND_CPU;
    cd->allocator.alloc = count_alloc;
    cd->allocator.free = count_free;
}

static int pool_setup(homg_ctx_desc *cd)
{
#if HOMG_HAVE_CUDA
    cudaMemPool_t mp;
    uint64_t all = UINT64_MAX;
    if (cudaDeviceGetDefaultMemPool(&mp, 0) != cudaSuccess ||
        cudaMemPoolSetAttribute(mp, cudaMemPoolAttrReleaseThreshold, &all) != cudaSuccess)
        return 0;
    cd->backend = HOMG_BACKEND_CUDA;
    cd->allocator.alloc = pool_alloc;
    cd->allocator.free = pool_free;
    return 1;
#else
    (void)cd;
    return 0;
#endif
}

/* Set-up = homg_gmg_create, from the coarse host mesh and the desc to a
 * hierarchy ready for homg_gmg_apply (refinement and P, R, FEM assembly of
 * every level, smoothers and omega, coarse solver, formats; the backend
 * synchronised at the end).  setup_reps > 1: one create to warm up (the
 * process's first also starts cuSOLVER and CUB), then the median of
 * setup_reps creates (no phase synchronisation unless HOMG_GMG_TRACE=1); the
 * cold and warm times are printed, and the phases come from one more create
 * with HOMG_GMG_TRACE=1. */
static int setup_reps = 1;

/* The CPU the calling thread runs on now, -1 where unknown. */
static int current_cpu(void)
{
#if defined(__linux__)
    return sched_getcpu();
#else
    return -1;
#endif
}

/* "cpus a b c": the distinct CPUs the creates started on (a process's set-up
 * times differ between processes by ~2 ms, not within one: a clue to which). */
static void cpu_list(const int *cpu, int n, char *out, size_t len)
{
    size_t at = (size_t)snprintf(out, len, "cpus");
    for (int k = 0; k < n && at < len; k++) {
        int seen = 0;
        for (int j = 0; j < k; j++)
            seen |= cpu[j] == cpu[k];
        if (!seen)
            at += (size_t)snprintf(out + at, len - at, " %d", cpu[k]);
    }
}

static homg_status timed_create(homg_ctx *ctx, homg_mesh *c, const homg_gmg_desc *d, homg_gmg **g, double *ms)
{
    int cpu[64];
    double t[64], sm[64], cold = homg_test_now_ms();
    int n = setup_reps > 64 ? 64 : setup_reps;
    HOMG_TRY(homg_gmg_create(c, d, g));
    cold = homg_test_now_ms() - cold;
    *ms = cold;
    if (n <= 1)
        return HOMG_OK;
    for (int k = 0; k < n; k++) {
        long calls, frees;
        homg_gmg_destroy(*g);
        *g = NULL;
        cpu[k] = current_cpu();
        t[k] = homg_test_now_ms();
        calls = pool_calls;
        frees = free_calls;
        HOMG_TRY(homg_gmg_create(c, d, g));
        t[k] = homg_test_now_ms() - t[k];
        {
            homg_gmg_info gi;
            sm[k] = homg_gmg_get_info(*g, &gi) == HOMG_OK ? gi.smoother_ms + gi.format_ms : 0;
        }
        if (k == n - 1 && calls != pool_calls)
            printf("  --pool/--count: %ld ctx allocations, %ld frees in the last create\n", pool_calls - calls,
                   free_calls - frees);
    }
    *ms = median_of(t, n);
    {
        char line[512], cpus[128];
        double lo = t[0];
        for (int k = 1; k < n; k++)
            lo = t[k] < lo ? t[k] : lo;
        cpu_list(cpu, n, cpus, sizeof cpus);
        snprintf(line, sizeof line,
                 "  set-up: first create %.1f ms, then median %.2f ms (min %.2f) of %d creates (%s); of it smoothers, "
                 "formats, omega and coarse solver (unsynchronised window) median %.2f ms\n",
                 cold, *ms, lo, n, cpus, median_of(sm, n));
        emit("%s", line);
    }
    if (!getenv("HOMG_GMG_TRACE")) { /* the phase lines: one more create, phases synchronised, not in the median */
        homg_status st;
        homg_gmg_destroy(*g);
        *g = NULL;
        setenv("HOMG_GMG_TRACE", "1", 1);
        st = homg_gmg_create(c, d, g);
        unsetenv("HOMG_GMG_TRACE");
        HOMG_TRY(st);
    }
    (void)ctx;
    return HOMG_OK;
}

static const int32_t dir_tags[2] = { 1, 2 };
static const double dir_vals[2] = { 0.0, 1.0 };

/* MB the arena's chunks hold at the end of the create (used: blocks freed
 * inside them, other than a chunk's newest, stay counted), or their size. */
static double arena_mb(const homg_gmg *g, int used)
{
    size_t b = 0;
    for (int k = 0; k < g->arena.count; k++)
        b += used ? g->arena.chunk[k].used : g->arena.chunk[k].size;
    return b / 1048576.0;
}

static void run_gmg(homg_ctx *ctx, homg_mesh *c, const char *problem, int L, homg_gmg_smoother sm,
                    homg_gmg_numbering nb, homg_gmg_format fm, int with_amg)
{
    static const char *sms[] = { "", "Jacobi", "SPAI(0)", "SPAI-1", "SAINV" };
    static const char *nbs[] = { "", "as read", "random", "RCM", "two-level" };
    const char *sms_label = sms[sm];
    homg_gmg_desc d = { 0 };
    homg_gmg *g = NULL;
    homg_gmg_info gi;
    homg_pcg_desc pd = { 0 };
    homg_pcg *pcg = NULL;
    homg_pcg_info pi;
    double *x = NULL, t[64], setup, cyc, gbs;
    char fmt[32];
    int n = reps > 64 ? 64 : reps;
    d.levels = L;
    d.smoother = sm;
    d.numbering = nb;
    d.format = fm;
    d.f = 1;
    d.dirichlet_tags = dir_tags;
    d.dirichlet_tag_values = dir_vals;
    d.num_dirichlet_tags = 2;
    if (fine_now >= 0) {
        static const char *fs[] = { "", "Jacobi", "SPAI(0)", "SPAI-1" };
        static char label[64];
        d.fine_smoother = fine_sm[fine_now];
        d.fine_sweeps = fine_sweeps[fine_now];
        snprintf(label, sizeof label, "%s x%d on 0, %s", fs[d.fine_smoother], d.fine_sweeps ? d.fine_sweeps : 2,
                 sms[sm]);
        sms_label = label;
    } else if (lib_default && sm == HOMG_GMG_SMOOTHER_SPAI1) {
        d.smoother = HOMG_GMG_SMOOTHER_DEFAULT;
    }
    if (timed_create(ctx, c, &d, &g, &setup) != HOMG_OK) {
        printf("| %s | %s | %s | - | set-up failed: %s |\n", problem, sms_label, nbs[nb], homg_ctx_last_error(ctx));
        return;
    }
    homg_gmg_get_info(g, &gi);
    if (fine_now < 0 && lib_default && sm == HOMG_GMG_SMOOTHER_SPAI1) {
        static char label[64];
        snprintf(label, sizeof label, "default: %s x%d on 0, %s", sms[gi.desc.fine_smoother],
                 gi.desc.fine_sweeps ? gi.desc.fine_sweeps : gi.desc.pre, sms[gi.desc.smoother]);
        sms_label = label;
    }
    pd.gmg = g;
    homg_alloc(ctx, sizeof(double) * gi.rows[0], (void **)&x);
    if (homg_pcg_create(ctx, NULL, NULL, &pd, &pcg) != HOMG_OK) {
        printf("pcg: %s\n", homg_ctx_last_error(ctx));
        homg_gmg_destroy(g);
        return;
    }
    for (int k = 0; k < n; k++) {
        homg_pcg_solve(pcg, homg_gmg_rhs(g), x, &pi);
        t[k] = pi.solve_ms;
    }
    cyc = cycle_ms(ctx, g, homg_gmg_rhs(g), x, 10);
    gbs = spmv_gbs(ctx, g);
    snprintf(fmt, sizeof fmt, "%s%s", gi.format[0] == HOMG_GMG_FORMAT_ELL ? "ELL/" : "CSR",
             gi.format[0] == HOMG_GMG_FORMAT_ELL ? (gi.ell_lanes[0] == 1   ? "1"
                                                    : gi.ell_lanes[0] == 2 ? "2"
                                                    : gi.ell_lanes[0] == 4 ? "4"
                                                                           : "8+")
                                                 : "");
    row(problem, sms_label, nbs[nb], fmt, setup, pi.iterations, median_of(t, n), cyc, gbs, gi.bandwidth[0]);
    if (with_amg) {
        homg_csr a = homg_gmg_matrix(g, 0);
        homg_amg *amg = NULL;
        homg_pcg *ap = NULL;
        double s0 = homg_test_now_ms();
        if (homg_amg_create(ctx, &a, NULL, &amg) == HOMG_OK && homg_pcg_create(ctx, NULL, amg, NULL, &ap) == HOMG_OK) {
            homg_ctx_synchronize(ctx);
            s0 = homg_test_now_ms() - s0;
            for (int k = 0; k < n; k++) {
                homg_pcg_solve(ap, homg_gmg_rhs(g), x, &pi);
                t[k] = pi.solve_ms;
            }
            row(problem, "AMG-PCG", nbs[nb], "CSR", s0, pi.iterations, median_of(t, n), 0, 0, gi.bandwidth[0]);
        }
        homg_pcg_destroy(ap);
        homg_amg_destroy(amg);
    }
    if (sm == HOMG_GMG_SMOOTHER_SPAI1 && fm == HOMG_GMG_FORMAT_AUTO &&
        (nb == HOMG_GMG_NUMBERING_RCM || nb == HOMG_GMG_NUMBERING_AS_READ)) {
        char buf[4096];
        size_t used;
        homg_gmg_format_info(&gi, buf, sizeof buf);
        used = strlen(buf);
        snprintf(buf + used, sizeof buf - used, "  set-up phases ms:");
        for (int k = 0; k < GMG_T_COUNT; k++) {
            used = strlen(buf);
            snprintf(buf + used, sizeof buf - used, " %s %.1f%s", homg__gmg_phase_names[k], g->phase_ms[k],
                     k + 1 < GMG_T_COUNT ? "," : "\n");
        }
        used = strlen(buf);
        snprintf(buf + used, sizeof buf - used,
                 "  of FEM: homg_fem_create %.1f (pattern %.1f by device events, scheme preparation %.1f); of "
                 "refine+P: edges %.1f, nodes and "
                 "children %.1f, host part %.1f, P %.1f, device arrays %.1f; of smoother: SPAI-1 rows %.1f, M^T %.1f; "
                 "of omega: estimate %.1f, contraction checks %.1f\n",
                 g->fem_create_ms, g->fem_pattern_ms, g->fem_prepare_ms, g->refine_ms[GMG_R_EDGES],
                 g->refine_ms[GMG_R_FILL], g->refine_ms[GMG_R_HOST], g->refine_ms[GMG_R_P], g->refine_ms[GMG_R_ADOPT],
                 g->smoother_part_ms[GMG_S_ROWS], g->smoother_part_ms[GMG_S_TRANSPOSE],
                 g->smoother_part_ms[GMG_S_ESTIMATE], g->smoother_part_ms[GMG_S_CONTRACTION]);
        used = strlen(buf);
        snprintf(buf + used, sizeof buf - used,
                 "  of FEM (synchronised): coefficient arrays %.1f, homg_fem_assemble %.1f; contraction check rho:",
                 g->fem_part_ms[GMG_F_COEFFS], g->fem_part_ms[GMG_F_ASSEMBLE]);
        for (int l = 0; l + 1 < gi.levels; l++) {
            used = strlen(buf);
            snprintf(buf + used, sizeof buf - used, " %.4f", g->rho[l]);
        }
        used = strlen(buf);
        snprintf(buf + used, sizeof buf - used, "\n  of FEM per level (homg_fem_create / whole level):");
        for (int l = 0; l < gi.levels; l++) {
            used = strlen(buf);
            snprintf(buf + used, sizeof buf - used, " %.2f/%.2f", g->fem_level_ms[l][0], g->fem_level_ms[l][1]);
        }
        used = strlen(buf);
        snprintf(buf + used, sizeof buf - used, "\n");
        used = strlen(buf);
        snprintf(buf + used, sizeof buf - used,
                 "  arena (HOMG_GMG_ARENA=%s): %s, %d chunks (%.1f of %.1f MB in use), %ld blocks cut from them, %ld "
                 "allocations passed on, %ld large blocks reused\n",
                 getenv("HOMG_GMG_ARENA") ? getenv("HOMG_GMG_ARENA") : "unset", g->arena.enabled ? "on" : "off",
                 g->arena.count, arena_mb(g, 1), arena_mb(g, 0), g->arena.cut, g->arena.passed, g->arena.reused);
        fputs(buf, stdout);
        if (out)
            fputs(buf, out);
    }
    homg_free(ctx, x);
    homg_pcg_destroy(pcg);
    homg_gmg_destroy(g);
}

int main(int argc, char **argv)
{
    homg_ctx_desc cd = { 0 };
    homg_ctx *ctx = NULL;
    const char *path = NULL;
    int quick = 0, big = 0, fast = 0, no_rcm = 0, rcm = 0, only_dim = 0, levels = 0, cpu;
    homg_gmg_numbering table_nb;
    char date[64];
    time_t now = time(NULL);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--big"))
            big = 1;
        else if (!strcmp(argv[i], "--fast"))
            fast = 1;
        else if (!strcmp(argv[i], "--no-rcm"))
            no_rcm = 1;
        else if (!strcmp(argv[i], "--rcm"))
            rcm = 1;
        else if (!strcmp(argv[i], "--dim") && i + 1 < argc)
            only_dim = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--levels") && i + 1 < argc)
            levels = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--setup-reps") && i + 1 < argc)
            setup_reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--out") && i + 1 < argc)
            path = argv[++i];
        else if (!strcmp(argv[i], "--fine") && i + 1 < argc) {
            if (!parse_fine(argv[++i])) {
                fprintf(stderr, "bench_gmg: --fine NAME:SWEEPS[,...], NAME jacobi|spai0|spai1\n");
                return 2;
            }
        } else if (!strcmp(argv[i], "--count"))
            count_setup(&cd);
        else if (!strcmp(argv[i], "--pool") && !pool_setup(&cd))
            fprintf(stderr, "bench_gmg: --pool needs CUDA and its default memory pool; ignored\n");
    }
    if (reps < 1)
        reps = 1;
    if (big && !rcm && !no_rcm) {
        fprintf(stderr, "bench_gmg: --big: no RCM rows (a host renumbering of the finest mesh, seconds a create); "
                        "--rcm runs them\n");
        no_rcm = 1;
    }
    table_nb = no_rcm ? HOMG_GMG_NUMBERING_AS_READ : HOMG_GMG_NUMBERING_RCM;
    if (homg_ctx_create(&cd, &ctx) != HOMG_OK) {
        fprintf(stderr, "bench_gmg: no context\n");
        return 1;
    }
    cpu = homg_ctx_backend(ctx) == HOMG_BACKEND_CPU;
    if (cpu && !quick) {
        quick = 1;
        reps = reps > 3 ? 3 : reps;
    }
    out = table_out_open(path, "bench_gmg");
    if (path && !out) {
        homg_ctx_destroy(ctx);
        return 1;
    }
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    emit("# GMG-PCG (seed 004) beside AMG-PCG\n\ndevice: %s, ", homg_ctx_device_name(ctx));
    emit("date: %s, ", date);
    emit("build: %s\n\n", HOMG_BUILD_ID);
    if (!cpu)
        printf("device copy bandwidth: %.0f GB/s\n", bench_copy_gbs());
    emit("%s", "-Laplace u = 1, u = 0 at x = 0, u = 1 at x = 1; PCG to 1e-8; V(2,2), dense Cholesky on the coarsest "
               "level, rediscretised coarse operators; set-up ms: homg_gmg_create from the coarse host mesh to a "
               "hierarchy ready "
               "for homg_gmg_apply (refinement, P and R, FEM assembly per level, smoothers, omega, coarse solver, "
               "formats; synchronised), with --setup-reps N the median of N creates after a warm-up; solve ms: median; "
               "cycle: ms per V-cycle; GB/s: finest A's "
               "product; band: mean |i - j| of the finest A\n\n");
    emit("%s", "| problem | smoother | numbering | format | set-up ms | iterations | solve ms | cycle ms | GB/s | "
               "band |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (int dim = 2; dim <= 3; dim++) {
        homg_mesh_generate_desc gd = { 0 };
        homg_mesh *c = NULL;
        int L = dim == 2 ? (quick ? 4 : (big ? 7 : 6)) : (quick ? 2 : (big ? 5 : 4));
        char problem[64];
        if (only_dim && dim != only_dim)
            continue;
        if (levels > 0)
            L = levels;
        gd.cells = dim == 2 ? 8 : 4;
        if ((dim == 2 ? homg_mesh_generate_square(ctx, &gd, &c) : homg_mesh_generate_cube(ctx, &gd, &c)) != HOMG_OK)
            continue;
        snprintf(problem, sizeof problem, "%s L=%d", dim == 2 ? "square" : "cube", L);
        if (fast) {
            for (int v = 0; v < num_fine; v++) { /* --fine: the variants, AMG-PCG beside the first */
                fine_now = v;
                run_gmg(ctx, c, problem, L, HOMG_GMG_SMOOTHER_SPAI1, HOMG_GMG_NUMBERING_AS_READ, HOMG_GMG_FORMAT_AUTO,
                        no_rcm && v == 0);
            }
            fine_now = -1;
            if (num_fine) {
                homg_mesh_destroy(c);
                continue;
            }
            lib_default = 1;
            run_gmg(ctx, c, problem, L, HOMG_GMG_SMOOTHER_SPAI1, HOMG_GMG_NUMBERING_AS_READ, HOMG_GMG_FORMAT_AUTO,
                    no_rcm);
            lib_default = 0;
            if (!no_rcm)
                run_gmg(ctx, c, problem, L, HOMG_GMG_SMOOTHER_SPAI1, HOMG_GMG_NUMBERING_RCM, HOMG_GMG_FORMAT_AUTO, 1);
            homg_mesh_destroy(c);
            continue;
        }
        for (int sm = HOMG_GMG_SMOOTHER_JACOBI; sm <= HOMG_GMG_SMOOTHER_SAINV; sm++)
            run_gmg(ctx, c, problem, L, (homg_gmg_smoother)sm, table_nb, HOMG_GMG_FORMAT_AUTO,
                    sm == HOMG_GMG_SMOOTHER_JACOBI);
        for (int nb = HOMG_GMG_NUMBERING_AS_READ; nb <= HOMG_GMG_NUMBERING_TWO_LEVEL; nb++)
            for (int fm = HOMG_GMG_FORMAT_CSR; fm <= HOMG_GMG_FORMAT_ELL; fm++)
                if (nb != HOMG_GMG_NUMBERING_RCM || !no_rcm)
                    run_gmg(ctx, c, problem, L, HOMG_GMG_SMOOTHER_SPAI1, (homg_gmg_numbering)nb, (homg_gmg_format)fm,
                            0);
        /* mesh independence: iterations from few to many levels */
        for (int l = L > 3 ? L - 3 : 1; l <= L; l++) {
            snprintf(problem, sizeof problem, "%s L=%d", dim == 2 ? "square" : "cube", l);
            run_gmg(ctx, c, problem, l, HOMG_GMG_SMOOTHER_SPAI1, table_nb, HOMG_GMG_FORMAT_AUTO, 0);
        }
        homg_mesh_destroy(c);
    }
    table_out_close(out, path);
    homg_ctx_destroy(ctx);
    return 0;
}
