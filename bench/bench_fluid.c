/* bench_fluid.c -- the cost of a smoke frame's simulation (homg_fluid_step:
 * advection of velocity and density, pressure projection) on the GPU, per
 * projection: homg's methods to a relative divergence of 1e-3 warm-started from
 * the last pressure, a fixed count of cycles with no host wait, and 40 Jacobi
 * sweeps (what many engines do), with the divergence each leaves; an empty box
 * and one with 20% of its cells solid (random discs).  Each row: the median of
 * `reps` steps timed with CUDA events (homg_timer) after 10 warm-up steps of
 * injected smoke and momentum; the divergence left is that of one more
 * projection, of freshly injected momentum, measured on the host.  "project ms":
 * the median of `reps` projections alone (homg_fluid_project after an injection),
 * so the advection is roughly the difference.  "method": the grid method that ran
 * (an empty box reaches the grid without flags: DEFAULT takes the FFT there).  The
 * colour map of the demo's frame is in --demo's frame column (below).
 *
 * --demo: the smoke demo's frames instead (its wall and smoke, per smoothing
 * count of the projection's cycles: step time, cycles, host waits, divergence),
 * and the frame: the step + the colour map of the density (the view's write
 * kernel, RGBA8 into device memory, its range found on the GPU: issue 13's
 * frame) in one pair of CUDA events.
 *
 * --range-given: that colour map over [0, 1] (the demo's density) instead of the range found.
 *
 * --variants DIGITS: only those --demo rows (0 = the default); --trace: each frame's cycles and
 * waits on stderr; --cpu: the CPU backend (its cycle
 * counts: the same schedule; its times say nothing about the GPU).
 *
 * The rows go to stdout as they come; --out FILE also writes them to FILE (nothing is
 * written by default: bench/results/h100_fluid.md is edited by hand).
 *   build/bench/bench_fluid [--reps R] [--out FILE] [--quick] [--size N] [--demo [--range-given]
 *                           [--variants DIGITS] [--trace]] [--cpu]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "table_out.h"
#include "testutil.h"
#include "view/view_kernels.h"

typedef struct variant {
    const char *name;
    homg_method method;
    double tol;
    int max_cycles, jacobi;
} variant;

static const variant variants[] = {
    { "default, tol 1e-3", HOMG_METHOD_DEFAULT, 1e-3, 20, 0 },
    { "vcycle, tol 1e-3", HOMG_METHOD_VCYCLE, 1e-3, 20, 0 },
    { "fmg, tol 1e-3", HOMG_METHOD_FMG, 1e-3, 20, 0 },
    { "vcycle, 1 cycle, no wait", HOMG_METHOD_VCYCLE, -1, 1, 0 },
    { "vcycle, 2 cycles, no wait", HOMG_METHOD_VCYCLE, -1, 2, 0 },
    { "40 Jacobi sweeps", HOMG_METHOD_DEFAULT, -1, 1, 40 },
};

static homg_ctx *ctx;
static int reps = 21;
static int range_given;           /* --range-given: the colour map over [0, 1], as the demo maps the density */
static int trace;                 /* --trace: each --demo frame's cycles, waits and divergence left on stderr */
static const char *only_variants; /* --variants DIGITS: the --demo rows of those indices alone (0 first) */

static void check(homg_status st, const char *what)
{
    if (st != HOMG_OK) {
        fprintf(stderr, "bench_fluid: %s: %s\n", what, homg_ctx_last_error(ctx));
        exit(1);
    }
}

static void *random_discs(int n, double fraction)
{
    unsigned char *h = calloc((size_t)n * n, 1);
    void *d;
    homg_rng r = homg_rng_seed(1);
    size_t solid = 0;
    while (solid < fraction * n * n) {
        double cx = n * homg_rng_uniform(&r), cy = n * homg_rng_uniform(&r),
               rad = n * (0.01 + 0.03 * homg_rng_uniform(&r));
        for (int j = (int)(cy - rad); j <= (int)(cy + rad); j++)
            for (int i = (int)(cx - rad); i <= (int)(cx + rad); i++)
                if (i >= 0 && j >= 0 && i < n && j < n && !h[i + (size_t)n * j] &&
                    (i - cx) * (i - cx) + (j - cy) * (j - cy) < rad * rad)
                    h[i + (size_t)n * j] = 1, solid++;
    }
    check(homg_alloc(ctx, (size_t)n * n, &d), "homg_alloc");
    check(homg_copy_from_host(ctx, d, h, (size_t)n * n), "copy");
    free(h);
    return d;
}

/* Smoke and an upward push near the bottom, as the demo's mouse does. */
static void inject(homg_fluid *fl, int step)
{
    homg_splat s = { { 0.5 + 0.2 * ((step % 7) - 3) / 3.0, 0.12, 0 }, 0.02, 0.6 };
    check(homg_fluid_splat(fl, HOMG_FLUID_DENSITY, &s, 1), "splat");
    s.amount = 0.5;
    check(homg_fluid_splat(fl, HOMG_FLUID_VELOCITY_Y, &s, 1), "splat");
}

static double norm_of(const float *dev, int n)
{
    float *h = malloc(sizeof(float) * n * n);
    double s = 0;
    check(homg_copy_to_host(ctx, h, dev, sizeof(float) * n * n), "copy");
    for (size_t k = 0; k < (size_t)n * n; k++)
        s += (double)h[k] * h[k];
    free(h);
    return s;
}

/* The divergence one projection leaves, measured on the host (outside the
 * timings): fresh momentum is injected, then projected as a step would. */
static double divergence_left(homg_fluid *fl, int n)
{
    inject(fl, 3);
    check(homg_fluid_divergence(fl), "divergence");
    double before = norm_of(homg_fluid_data(fl, HOMG_FLUID_DIVERGENCE), n);
    check(homg_fluid_project(fl, NULL), "project");
    check(homg_fluid_divergence(fl), "divergence");
    return sqrt(norm_of(homg_fluid_data(fl, HOMG_FLUID_DIVERGENCE), n) / before);
}

static void run(FILE *out, int n, const variant *v, void *solid, const char *box)
{
    homg_fluid_desc d = {
        .nx = n, .method = v->method, .tol = v->tol, .max_cycles = v->max_cycles, .jacobi = v->jacobi
    };
    homg_fluid *fl;
    homg_fluid_info info;
    homg_timer *t;
    double *ms = malloc(sizeof(double) * reps), *pms = malloc(sizeof(double) * reps), cycles = 0;
    check(homg_fluid_create(ctx, &d, &fl), "homg_fluid_create");
    check(homg_fluid_set_solid(fl, solid), "set_solid");
    check(homg_timer_create(ctx, &t), "timer");
    for (int k = 0; k < 10; k++) {
        inject(fl, k);
        check(homg_fluid_step(fl, 1.0 / 60, &info), "step");
    }
    for (int k = 0; k < reps; k++) {
        inject(fl, k);
        check(homg_timer_start(t), "timer");
        check(homg_fluid_step(fl, 1.0 / 60, &info), "step");
        check(homg_timer_stop(t), "timer");
        check(homg_timer_ms(t, &ms[k]), "timer");
        cycles += info.cycles;
    }
    homg_method ran = info.method;
    for (int k = 0; k < reps; k++) {
        inject(fl, k);
        check(homg_timer_start(t), "timer");
        check(homg_fluid_project(fl, &info), "project");
        check(homg_timer_stop(t), "timer");
        check(homg_timer_ms(t, &pms[k]), "timer");
    }
    double left = divergence_left(fl, n);
    double med = homg_test_median(ms, reps), pmed = homg_test_median(pms, reps);
    static const char *const names[] = { "default", "homg", "vcycle", "fcycle", "fmg", "fft" };
    table_out_printf(out, "| %d^2 | %s | %s | %s | %.3f | %.3f | %.1f | %.1e |\n", n, box, v->name,
                     v->jacobi ? "jacobi" : names[ran], med, pmed, cycles / reps, left);
    homg_timer_destroy(t);
    homg_fluid_destroy(fl);
    free(ms);
    free(pms);
}

/* ---------------------------------------------------------------- the smoke demo's frames */

/* The smoke demo's scripted run (demo/smoke.c): a wall of discs of radius n/64
 * from (0.3, 0.55) to (0.6, 0.6) (set once here; the demo draws it over the
 * first 10 frames), smoke and a push (the demo's splats) from frame 10 to 54
 * along the bottom, then free flow; tol 1e-3. */
static void *demo_wall(int n)
{
    unsigned char *h = calloc((size_t)n * n, 1);
    void *d;
    int r = n / 64 > 1 ? n / 64 : 1;
    for (int k = 0; k <= 4 * n; k++) {
        double x = (0.3 + 0.3 * k / (4.0 * n)) * n, y = (0.55 + 0.05 * k / (4.0 * n)) * n;
        for (int j = (int)y - r; j <= (int)y + r; j++)
            for (int i = (int)x - r; i <= (int)x + r; i++)
                if (i >= 0 && j >= 0 && i < n && j < n &&
                    (i - (int)x) * (i - (int)x) + (j - (int)y) * (j - (int)y) <= r * r)
                    h[i + (size_t)n * j] = 1;
    }
    check(homg_alloc(ctx, (size_t)n * n, &d), "homg_alloc");
    check(homg_copy_from_host(ctx, d, h, (size_t)n * n), "copy");
    free(h);
    return d;
}

static void demo_inject(homg_fluid *fl, int frame, double *last_x, double *last_y)
{
    double x, y;
    if (frame < 10 || frame >= 55)
        return;
    if (frame < 40)
        x = 0.35 + 0.3 * (frame - 10) / 29.0, y = 0.12 + 0.02 * sin(frame * 0.5);
    else
        x = 0.65 - 0.25 * (frame - 40) / 14.0, y = 0.2;
    homg_splat s = { { x, y, 0 }, 0.02, 0.6 };
    check(homg_fluid_splat(fl, HOMG_FLUID_DENSITY, &s, 1), "splat");
    s.amount = frame > 10 ? 20 * (x - *last_x) : 0;
    check(homg_fluid_splat(fl, HOMG_FLUID_VELOCITY_X, &s, 1), "splat");
    s.amount = (frame > 10 ? 20 * (y - *last_y) : 0) + 1.0;
    check(homg_fluid_splat(fl, HOMG_FLUID_VELOCITY_Y, &s, 1), "splat");
    *last_x = x;
    *last_y = y;
}

typedef struct demo_variant {
    const char *name;
    homg_method method;
    int pre, post;
    homg_fluid_start start;
} demo_variant;

enum { DEMO_FRAMES = 120, DEMO_FIRST = 15 };

/* The demo's colour map of the density: its range found, then RGBA8 texels into `rgba`. */
static void colour_map(homg_fluid *fl, int n, void *rgba, int32_t *range)
{
    const view_kernels *k = HOMG_KERNELS(&ctx->ex, view); /* the ctx backend's (CUDA in the benchmark) */
    view_src s = { homg_fluid_data(fl, HOMG_FLUID_DENSITY), HOMG_FLOAT32, 0, 1, n, n, n };
    view_dst d = { 1, rgba, 0, 0.0f, 1.0f, range_given ? NULL : range };
    if (!range_given)
        check(k->range(&ctx->ex, &s, range), "colour range");
    check(k->write(&ctx->ex, &s, &d), "colour map");
}

static void demo_run_variant(FILE *out, int n, void *wall, const demo_variant *v)
{
    homg_fluid_desc d = { .nx = n,
                          .method = v->method,
                          .tol = 1e-3,
                          .density_decay = 0.05,
                          .pre = v->pre,
                          .post = v->post,
                          .start = v->start };
    homg_fluid *fl;
    homg_fluid_info info;
    homg_timer *t, *tf;
    void *rgba;
    int32_t *range;
    double ms[DEMO_FRAMES], frame_ms[DEMO_FRAMES], last_x = 0, last_y = 0, worst = 0, cycles = 0, waits = 0, p90;
    int most = 0, m = 0;
    check(homg_fluid_create(ctx, &d, &fl), "homg_fluid_create");
    check(homg_fluid_set_solid(fl, wall), "set_solid");
    check(homg_timer_create(ctx, &t), "timer");
    check(homg_timer_create(ctx, &tf), "timer");
    check(homg_alloc(ctx, (size_t)n * n * 4, &rgba), "homg_alloc");
    check(homg_alloc(ctx, 2 * sizeof(int32_t), (void **)&range), "homg_alloc");
    for (int f = 0; f < DEMO_FRAMES; f++) {
        demo_inject(fl, f, &last_x, &last_y);
        check(homg_timer_start(tf), "timer");
        check(homg_timer_start(t), "timer");
        check(homg_fluid_step(fl, 1.0 / 60, &info), "step");
        check(homg_timer_stop(t), "timer");
        colour_map(fl, n, rgba, range);
        check(homg_timer_stop(tf), "timer");
        if (f < DEMO_FIRST)
            continue;
        check(homg_timer_ms(tf, &frame_ms[m]), "timer");
        check(homg_timer_ms(t, &ms[m++]), "timer");
        cycles += info.cycles;
        waits += info.waits;
        if (trace)
            fprintf(stderr, "frame %d: %d cycles, %d waits, divergence left %.2e\n", f, info.cycles, info.waits,
                    info.divergence_left);
        most = info.cycles > most ? info.cycles : most;
        worst = info.divergence_left > worst ? info.divergence_left : worst;
    }
    double left = divergence_left(fl, n), med = homg_test_median(ms, m); /* sorts ms */
    p90 = ms[m * 9 / 10];
    double frame = homg_test_median(frame_ms, m), frame90 = frame_ms[m * 9 / 10];
    table_out_printf(out, "| %d^2 | %s | %.3f | %.3f | **%.3f** | %.3f | %.2f | %d | %.2f | %.1e | %.1e |\n", n,
                     v->name, med, p90, frame, frame90, cycles / m, most, waits / m, worst, left);
    homg_free(ctx, rgba);
    homg_free(ctx, range);
    homg_timer_destroy(tf);
    homg_timer_destroy(t);
    homg_fluid_destroy(fl);
}

static void demo_frames(FILE *out, int n)
{
    static const demo_variant variants[] = {
        { "default: V(1,2) from the extrapolated pressure", HOMG_METHOD_DEFAULT, 0, 0, HOMG_FLUID_START_DEFAULT },
        { "V(2,2) from the last pressure (main's default)", HOMG_METHOD_DEFAULT, 2, 2, HOMG_FLUID_START_LAST },
        { "V(2,2) from the box's DCT solution", HOMG_METHOD_DEFAULT, 2, 2, HOMG_FLUID_START_BOX },
        { "V(1,1) extrapolated", HOMG_METHOD_DEFAULT, 1, 1, HOMG_FLUID_START_DEFAULT },
        { "V(3,3) extrapolated", HOMG_METHOD_DEFAULT, 3, 3, HOMG_FLUID_START_DEFAULT },
        { "V(2,1) extrapolated", HOMG_METHOD_DEFAULT, 2, 1, HOMG_FLUID_START_DEFAULT },
        { "V(2,2) extrapolated", HOMG_METHOD_DEFAULT, 2, 2, HOMG_FLUID_START_DEFAULT },
        { "V(1,2) from the last pressure", HOMG_METHOD_DEFAULT, 1, 2, HOMG_FLUID_START_LAST },
    };
    void *wall = demo_wall(n);
    table_out_printf(out, "\n## The smoke demo's frames (its scripted wall and smoke, tol 1e-3; steps %d..%d)\n\n",
                     DEMO_FIRST, DEMO_FRAMES - 1);
    table_out_printf(
        out, "| size | projection cycles | step ms (median) | p90 | frame ms: step + colour map (median) | p90 | "
             "cycles (mean) | max | host waits (mean) | worst divergence left (solver) | divergence left (host, one "
             "more projection) |\n"
             "|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (size_t k = 0; k < sizeof variants / sizeof variants[0]; k++)
        if (!only_variants || strchr(only_variants, (int)('0' + k)))
            demo_run_variant(out, n, wall, &variants[k]);
    homg_free(ctx, wall);
}

int main(int argc, char **argv)
{
    const char *out_path = NULL;
    int quick = 0, only = 0, demo = 0, cpu = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out_path = argv[++i];
        else if (!strcmp(argv[i], "--demo"))
            demo = 1;
        else if (!strcmp(argv[i], "--range-given"))
            range_given = 1;
        else if (!strcmp(argv[i], "--variants") && i + 1 < argc)
            only_variants = argv[++i];
        else if (!strcmp(argv[i], "--trace"))
            trace = 1;
        else if (!strcmp(argv[i], "--cpu"))
            cpu = 1;
        else if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--size") && i + 1 < argc)
            only = atoi(argv[++i]);
        else {
            printf("usage: bench_fluid [--reps R] [--out FILE] [--quick] [--size N] [--demo [--range-given] "
                   "[--variants DIGITS] [--trace]] [--cpu]\n");
            return strcmp(argv[i], "--help") ? 2 : 0;
        }
    }
    if (!cpu && !homg_cuda_available()) {
        printf("bench_fluid: no CUDA device, nothing to measure\n");
        return 0;
    }
    ctx = homg_test_ctx(cpu ? HOMG_BACKEND_CPU : HOMG_BACKEND_CUDA);
    FILE *out = table_out_open(out_path, "bench_fluid"); /* NULL: stdout only */
    if (out_path && !out)
        return 1;
    if (demo) { /* the smoke demo's frames alone */
        table_out_printf(out, "# homg_fluid_step on %s (CUDA events; colour map: range %s)\n",
                         homg_ctx_device_name(ctx), range_given ? "given, [0, 1]" : "found on the GPU");
        demo_frames(out, only ? only : 1024);
        table_out_close(out, out_path);
        homg_ctx_destroy(ctx);
        return 0;
    }
    table_out_printf(out, "# homg_fluid_step on %s (median of %d steps, CUDA events)\n\n", homg_ctx_device_name(ctx),
                     reps);
    table_out_printf(out, "| size | box | projection | method | step ms | project ms | cycles | divergence left |\n"
                          "|---|---|---|---|---|---|---|---|\n");
    const int sizes[] = { 512, 1024, 2048 };
    for (int s = 0; s < (quick ? 1 : 3); s++) {
        if (only && sizes[s] != only)
            continue;
        void *solid = random_discs(sizes[s], 0.2);
        for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
            run(out, sizes[s], &variants[v], NULL, "empty");
            run(out, sizes[s], &variants[v], solid, "20% solid");
        }
        homg_free(ctx, solid);
    }
    table_out_close(out, out_path);
    homg_ctx_destroy(ctx);
    return 0;
}
