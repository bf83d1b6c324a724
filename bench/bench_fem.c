/* bench_fem.c -- P1 assembly on the GPU against the serial CPU loop (seed 000
 * table 2 setting: Helmholtz, lambda = 1, double values, natural boundary).
 *
 * Meshes: generated Kuhn cubes K = 64 (seed 000's "Regular") and K = 128, and
 * the irregular and blobs assets refined once by midpoint subdivision.  Per GPU
 * scheme: pattern time (the CSR build on the device, CUDA events, median of 20
 * creations) and numeric-pass time (homg_fem_assemble: zeroing where the scheme
 * needs it, element matrices, accumulation; 3 warm-ups, median of 20), against
 * the serial CPU assembly (seed 002 Algorithm 1, one thread, median of 5) in the
 * same process; the GPU result is checked against the CPU one.  Prints the table
 * last; --out FILE also writes it to FILE (nothing is written by default:
 * bench/results/h100_fem.md is edited by hand).
 *   build/bench/bench_fem [--out FILE] */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "homg.h"
#include "testutil.h"
#include "copy_bandwidth.h"
#include "table_out.h"

#if HOMG_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#ifndef HOMG_BUILD_ID
#define HOMG_BUILD_ID "unknown commit"
#endif

#define GPU_REPS 20
#define CPU_REPS 5
#define MAX_ROWS 32

typedef struct row {
    char mesh[48], scheme[8], layout[48];
    int32_t nodes, elements, nnz;
    double pattern_ms, numeric_ms, cpu_ms, gbs, rel_diff;
} row;

static row rows[MAX_ROWS];
static int nrows;
static char table[16384];

static void die(homg_ctx *ctx, const char *what)
{
    fprintf(stderr, "bench_fem: %s: %s\n", what, ctx ? homg_ctx_last_error(ctx) : "");
    exit(1);
}

/* Host copy of the values of the last assembly (double). */
static double *values_to_host(homg_ctx *ctx, const homg_fem *fem)
{
    homg_csr a = homg_fem_matrix(fem);
    double *v = (double *)malloc((size_t)a.nnz * sizeof *v);
    if (!v || homg_ctx_synchronize(ctx) != HOMG_OK ||
        homg_copy_to_host(ctx, v, a.values, (size_t)a.nnz * sizeof *v) != HOMG_OK)
        die(ctx, "reading values back");
    return v;
}

static homg_mesh *make_mesh(homg_ctx *ctx, const char *asset, int cells)
{
    homg_mesh *m = NULL, *fine = NULL;
    if (asset) {
        if (homg_mesh_read(ctx, asset, &m) != HOMG_OK || homg_mesh_refine(m, &fine) != HOMG_OK)
            die(ctx, asset);
        homg_mesh_destroy(m);
        return fine;
    } else {
        homg_mesh_generate_desc d = { 0 };
        d.cells = cells;
        d.size = 4;
        if (homg_mesh_generate_cube(ctx, &d, &m) != HOMG_OK)
            die(ctx, "generating the cube");
        return m;
    }
}

/* sigma per element: 1 outside, 10 in tag 2 (the blobs), in the ctx's space */
static double *sigma_for(homg_ctx *ctx, const homg_mesh *m)
{
    int32_t ne = homg_mesh_num_elements(m);
    double *h = (double *)malloc((size_t)ne * sizeof *h);
    void *d = NULL;
    for (int32_t e = 0; e < ne; e++)
        h[e] = homg_mesh_element_tags(m)[e] == 2 ? 10.0 : 1.0;
    if (homg_alloc(ctx, (size_t)ne * sizeof *h, &d) != HOMG_OK ||
        homg_copy_from_host(ctx, d, h, (size_t)ne * sizeof *h) != HOMG_OK)
        die(ctx, "uploading sigma");
    free(h);
    return (double *)d;
}

/* Time of one homg_fem_assemble in ms (events on the ctx's stream, via synchronize + wall clock on CPU). */
static double time_assemble(homg_ctx *ctx, homg_fem *fem, const homg_fem_coeffs *c, int reps, int warm)
{
    double t[64];
    for (int i = 0; i < warm; i++)
        if (homg_fem_assemble(fem, c) != HOMG_OK)
            die(ctx, "assembling");
    for (int i = 0; i < reps; i++) {
#if HOMG_HAVE_CUDA
        if (homg_ctx_backend(ctx) == HOMG_BACKEND_CUDA) {
            cudaEvent_t a, b;
            float ms = 0;
            homg_ctx_synchronize(ctx);
            cudaEventCreate(&a);
            cudaEventCreate(&b);
            cudaEventRecord(a, 0);
            if (homg_fem_assemble(fem, c) != HOMG_OK)
                die(ctx, "assembling");
            cudaEventRecord(b, 0);
            cudaEventSynchronize(b);
            cudaEventElapsedTime(&ms, a, b);
            cudaEventDestroy(a);
            cudaEventDestroy(b);
            t[i] = ms;
            continue;
        }
#endif
        {
            double t0 = homg_test_now_ms();
            if (homg_fem_assemble(fem, c) != HOMG_OK || homg_ctx_synchronize(ctx) != HOMG_OK)
                die(ctx, "assembling");
            t[i] = homg_test_now_ms() - t0;
        }
    }
    return homg_test_median(t, reps);
}

/* Bytes every scheme must move at least: elements, coordinates, sigma, the CSR
 * structure read once, values and right-hand side written once. */
static double compulsory_bytes(const homg_mesh *m, const homg_csr *a)
{
    int d = homg_mesh_dim(m);
    return (double)homg_mesh_num_elements(m) * ((d + 1) * 4.0 + 8.0) +
           (double)homg_mesh_num_nodes(m) * (d * 8.0 + 4 + 8) + (double)a->nnz * (4.0 + 8.0);
}

static void bench_mesh(homg_ctx *cpu, homg_ctx *gpu, const char *name, const char *asset, int cells)
{
    static const homg_fem_scheme schemes[2] = { HOMG_FEM_SCHEME_COLOR, HOMG_FEM_SCHEME_PATCH };
    homg_mesh *mc = make_mesh(cpu, asset, cells), *mg = make_mesh(gpu, asset, cells);
    double *sigma_c = sigma_for(cpu, mc), *sigma_g = sigma_for(gpu, mg), *ref, cpu_ms;
    homg_fem_desc d = { 0 };
    homg_fem *fc = NULL;
    homg_fem_coeffs c = { 0 };
    homg_csr a;
    d.precision = HOMG_FLOAT64;
    c.lambda = 1;
    c.f = 1;
    printf("%s: %d nodes, %d elements\n", name, (int)homg_mesh_num_nodes(mc), (int)homg_mesh_num_elements(mc));
    fflush(stdout);
    /* the serial CPU loop */
    d.scheme = HOMG_FEM_SCHEME_SERIAL;
    if (homg_fem_create(mc, &d, &fc) != HOMG_OK)
        die(cpu, "CPU setup");
    c.sigma_elem = sigma_c;
    cpu_ms = time_assemble(cpu, fc, &c, CPU_REPS, 1);
    ref = values_to_host(cpu, fc);
    a = homg_fem_matrix(fc);
    printf("  cpu serial: numeric %.1f ms\n", cpu_ms);
    for (int s = 0; s < 2; s++) {
        row *r = &rows[nrows++];
        homg_fem *fg = NULL;
        homg_fem_info info;
        double pt[GPU_REPS], *got, num = 0, den = 0;
        d.scheme = schemes[s];
        /* pattern: the median over fresh creations */
        for (int i = 0; i < GPU_REPS; i++) {
            homg_fem *tmp = NULL;
            homg_fem_desc pd = { 0 };
            pd.scheme = HOMG_FEM_SCHEME_PATCH;
            pd.precision = HOMG_FLOAT64;
            if (homg_fem_create(mg, &pd, &tmp) != HOMG_OK)
                die(gpu, "GPU setup");
            pt[i] = homg_fem_get_info(tmp).pattern_ms;
            homg_fem_destroy(tmp);
        }
        if (homg_fem_create(mg, &d, &fg) != HOMG_OK)
            die(gpu, "GPU setup");
        info = homg_fem_get_info(fg);
        c.sigma_elem = sigma_g;
        memset(r, 0, sizeof *r);
        snprintf(r->mesh, sizeof r->mesh, "%s", name);
        snprintf(r->scheme, sizeof r->scheme, "%s", s ? "patch" : "color");
        if (s)
            snprintf(r->layout, sizeof r->layout, "%d patches, %.0f%% rows outside", (int)info.num_patches,
                     100 * info.boundary_fraction);
        else
            snprintf(r->layout, sizeof r->layout, "%d colours", (int)info.num_colors);
        r->nodes = homg_mesh_num_nodes(mg);
        r->elements = homg_mesh_num_elements(mg);
        r->nnz = info.nnz;
        r->pattern_ms = homg_test_median(pt, GPU_REPS);
        r->numeric_ms = time_assemble(gpu, fg, &c, GPU_REPS, 3);
        r->cpu_ms = cpu_ms;
        r->gbs = compulsory_bytes(mg, &a) / (r->numeric_ms * 1e-3) * 1e-9;
        got = values_to_host(gpu, fg);
        for (int32_t k = 0; k < a.nnz; k++) {
            num += (got[k] - ref[k]) * (got[k] - ref[k]);
            den += ref[k] * ref[k];
        }
        r->rel_diff = sqrt(num / den);
        printf("  gpu %s: pattern %.3f ms, numeric %.3f ms, %.0fx, rel diff %.1e\n", r->scheme, r->pattern_ms,
               r->numeric_ms, r->cpu_ms / r->numeric_ms, r->rel_diff);
        fflush(stdout);
        free(got);
        homg_fem_destroy(fg);
    }
    free(ref);
    homg_fem_destroy(fc);
    homg_free(cpu, sigma_c);
    homg_free(gpu, sigma_g);
    homg_mesh_destroy(mc);
    homg_mesh_destroy(mg);
}

int main(int argc, char **argv)
{
    homg_ctx *cpu, *gpu;
    char date[64];
    time_t now = time(NULL);
    double bw;
    size_t len = 0;
    const char *out = NULL;
    FILE *f;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out = argv[++i];
        else {
            fprintf(stderr, "usage: bench_fem [--out FILE]\n");
            return 2;
        }
    }
    if (!homg_cuda_available()) {
        printf("bench_fem: needs a CUDA device (run it on the GPU machine); nothing measured\n");
        return 0;
    }
    f = table_out_open(out, "bench_fem");
    if (out && !f)
        return 1;
    cpu = homg_test_ctx(HOMG_BACKEND_CPU);
    gpu = homg_test_ctx(HOMG_BACKEND_CUDA);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    bw = bench_copy_gbs();
    printf("bench_fem on %s, %s, homg %s, %s; device copy bandwidth %.0f GB/s\n", homg_ctx_device_name(gpu), date,
           homg_version_string(), HOMG_BUILD_ID, bw);
    bench_mesh(cpu, gpu, "cube K=64 (Regular)", NULL, 64);
    bench_mesh(cpu, gpu, "cube K=128", NULL, 128);
    bench_mesh(cpu, gpu, "irregular3d refined", "assets/irregular3d.msh.gz", 0);
    bench_mesh(cpu, gpu, "blobs refined", "assets/blobs.msh.gz", 0);

    len += (size_t)snprintf(
        table + len, sizeof table - len,
        "# P1 assembly on %s\n\n%s, homg %s, %s, `bench/bench_fem`. Helmholtz (lambda = 1, sigma 1, "
        "10 in the blobs), double values, natural boundary. Pattern: CSR build on the GPU (median "
        "of %d). Numeric: `homg_fem_assemble` (median of %d after 3 warm-ups, CUDA events). CPU: "
        "the serial loop of seed 002 Algorithm 1, one thread, same process (median of %d). "
        "GB/s: compulsory bytes (elements, coordinates, sigma, CSR structure read once, values "
        "and rhs written once) / numeric time; device copy bandwidth %.0f GB/s. Targets: numeric "
        "<= 1 ms on the 1.5M-element cube, >= 100x over the CPU loop.\n\n",
        homg_ctx_device_name(gpu), date, homg_version_string(), HOMG_BUILD_ID, GPU_REPS, GPU_REPS, CPU_REPS, bw);
    len +=
        (size_t)snprintf(table + len, sizeof table - len,
                         "| mesh | nodes | elements | nnz | scheme | layout | pattern ms | numeric ms | Melem/s | GB/s "
                         "| CPU serial ms | speedup | rel diff vs CPU |\n"
                         "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < nrows; i++) {
        row *r = &rows[i];
        len += (size_t)snprintf(table + len, sizeof table - len,
                                "| %s | %d | %d | %d | %s | %s | %.3f | %.3f | %.0f | %.0f | %.1f | %.0fx | %.1e |\n",
                                r->mesh, (int)r->nodes, (int)r->elements, (int)r->nnz, r->scheme, r->layout,
                                r->pattern_ms, r->numeric_ms, r->elements / (r->numeric_ms * 1e3), r->gbs, r->cpu_ms,
                                r->cpu_ms / r->numeric_ms, r->rel_diff);
    }
    if (f) {
        fputs(table, f);
        table_out_close(f, out);
    }
    printf("\n%s", table);
    homg_ctx_destroy(gpu);
    homg_ctx_destroy(cpu);
    return 0;
}
