/* bench_image.c -- seamless cloning on the GPU (homg_clone, textbook formulation,
 * normal mode, 3 x 8-bit channels): destinations of 1024^2, 2048^2 and 4096^2 with a
 * disk mask covering 10, 30 and 60% of them.  Per case: the reference (float64,
 * relative residual 1e-9), then the fewest V-cycles from a cold start (the
 * destination's values) whose 8-bit result is within one level of it everywhere,
 * timed (median of R applies at the same placement, CUDA events around the apply:
 * set-up kernel, solve, copy of dst to out, store; the operator is kept, as the
 * placement clips nothing new), and the first apply after create alone (it also
 * sets the grid's operator and captures the solve's graphs), next to the FFT path on the mask's
 * bounding rectangle (homg_grid, method FFT, Dirichlet sides, 3 right-hand sides;
 * the least a rectangle solve costs, the OpenCV formulation's shape).  Then dragging
 * at 1024^2: the clone applied at a placement moving 3 pixels per frame, warm
 * started from the last one, with 1 and 2 cycles per frame: solves per second and
 * the worst level error against the reference of each placement; and with 1 cycle
 * across the destination's right border (a new operator every frame).  OpenCV's CPU
 * times on the same inputs come from tools/dev/opencv_clone.py --bench.
 *
 *   build/bench/bench_image [--reps R] [--out FILE] [--quick] [--size N] [--pct P] [--no-drag]
 *                           [--phases] [--profile C]
 * The table comes last on stdout after a full run; --out FILE also writes it to FILE
 * (nothing is written by default: bench/results/h100_image.md is edited by hand).
 * (--quick/--size/--pct/--no-drag: those rows only, no table; HOMG_GEN_LANES=1 in the
 * environment solves the channels one after another, the timing before lanes;
 * HOMG_CLONE_DST_START=1 starts from the destination's values, the start before the
 * source's; --phases: for those rows the cold apply's median ms at 1..6 cycles, whose
 * slope is the time per cycle and whose intercept the rest (set-up, copy, store);
 * --profile C: one create and one cold apply of C cycles per row, nothing timed, for ncu)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "table_out.h"
#include "testutil.h"

#if HOMG_HAVE_CUDA
static homg_ctx *ctx;
static int reps = 21;

static void die(const char *what)
{
    fprintf(stderr, "bench_image: %s: %s\n", what, ctx ? homg_ctx_last_error(ctx) : "");
    exit(1);
}

/* A smooth textured 3-channel picture (the same formula as opencv_clone.py --bench). */
static unsigned char *picture(int n, int seed)
{
    unsigned char *p = malloc((size_t)n * n * 3);
    homg_rng r = homg_rng_seed((uint64_t)seed);
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
            for (int c = 0; c < 3; c++) {
                double v = 128 + 80 * sin((x + seed * 17) / (23.0 + 7 * c)) * cos((y - seed * 5) / (31.0 - 5 * c)) +
                           20 * (homg_rng_uniform(&r) - 0.5);
                p[((size_t)y * n + x) * 3 + c] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
    return p;
}

static unsigned char *disk(int n, double frac)
{
    unsigned char *m = malloc((size_t)n * n);
    double r = sqrt(frac * n * n / M_PI), c = (n - 1) / 2.0;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
            m[(size_t)y * n + x] = hypot(x - c, y - c) < r ? 255 : 0;
    return m;
}

static homg_image dev_image(int n, int ch, const unsigned char *host)
{
    homg_image im = { 0 };
    im.width = im.height = n, im.channels = ch, im.type = HOMG_PIXEL_U8;
    if (homg_alloc(ctx, (size_t)n * n * ch, &im.data) != HOMG_OK)
        die("alloc");
    if (host && homg_copy_from_host(ctx, im.data, host, (size_t)n * n * ch) != HOMG_OK)
        die("upload");
    return im;
}

static unsigned char *download(const homg_image *im)
{
    size_t bytes = (size_t)im->width * im->height * im->channels;
    unsigned char *h = malloc(bytes);
    if (homg_copy_to_host(ctx, h, im->data, bytes) != HOMG_OK)
        die("download");
    return h;
}

static int worst_level(const unsigned char *a, const unsigned char *b, size_t n)
{
    int w = 0;
    for (size_t k = 0; k < n; k++)
        w = abs(a[k] - b[k]) > w ? abs(a[k] - b[k]) : w;
    return w;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median ms of `reps` applies at (x, y), each from a cold start when cold. */
static double time_apply(homg_clone *cl, const homg_image *dst, const homg_image *out, int x, int y, int cold)
{
    homg_timer *t0;
    double *ms = malloc(sizeof(double) * reps), med;
    homg_timer_create(ctx, &t0);
    for (int r = -2; r < reps; r++) {
        double m;
        if (cold)
            homg_clone_set_mode(cl, HOMG_CLONE_NORMAL);
        homg_timer_start(t0);
        if (homg_clone_apply(cl, dst, x, y, out, NULL) != HOMG_OK)
            die("apply");
        homg_timer_stop(t0);
        homg_timer_ms(t0, &m);
        if (r >= 0)
            ms[r] = m;
    }
    qsort(ms, (size_t)reps, sizeof(double), cmp_double);
    med = ms[reps / 2];
    free(ms);
    homg_timer_destroy(t0);
    return med;
}

/* The tight reference of the clone at (x, y). */
static unsigned char *reference(const homg_image *src, const homg_image *mask, const homg_image *dst, int x, int y)
{
    homg_clone_desc d = { 0 };
    homg_image out = dev_image(dst->width, 3, NULL);
    unsigned char *h;
    d.precision = HOMG_FLOAT64, d.tol = 1e-9, d.max_cycles = 200, d.x = x, d.y = y;
    if (homg_image_clone(ctx, src, mask, dst, &out, &d, NULL) != HOMG_OK)
        die("reference clone");
    h = download(&out);
    homg_free(ctx, out.data);
    return h;
}

/* The FFT path on the bounding rectangle: 3 right-hand sides, Dirichlet sides. */
static double time_fft_rect(int w, int h)
{
    homg_grid_desc gd = { 0 };
    homg_grid *g;
    homg_solve_desc sd = { 0 };
    homg_solve_info info;
    homg_boundary bc = { { 0 } };
    void *f, *u;
    homg_timer *t;
    double *ms = malloc(sizeof(double) * reps), med;
    gd.nx = w, gd.ny = h, gd.h = 1, gd.nrhs = 3, gd.method = HOMG_METHOD_FFT;
    if (homg_grid_create(ctx, &gd, &g) != HOMG_OK)
        die("fft grid");
    if (homg_alloc(ctx, (size_t)w * h * 3 * 4, &f) != HOMG_OK || homg_alloc(ctx, (size_t)w * h * 3 * 4, &u) != HOMG_OK)
        die("alloc");
    {
        float *hf = malloc((size_t)w * h * 3 * 4);
        homg_rng r = homg_rng_seed(7);
        for (size_t k = 0; k < (size_t)w * h * 3; k++)
            hf[k] = (float)(homg_rng_uniform(&r) - 0.5);
        homg_copy_from_host(ctx, f, hf, (size_t)w * h * 3 * 4);
        free(hf);
    }
    sd.max_cycles = 1, sd.skip_input_check = 1;
    homg_timer_create(ctx, &t);
    for (int r = -2; r < reps; r++) {
        double m;
        homg_timer_start(t);
        if (homg_grid_solve(g, f, &bc, u, &sd, &info) != HOMG_OK)
            die("fft solve");
        homg_timer_stop(t);
        homg_timer_ms(t, &m);
        if (r >= 0)
            ms[r] = m;
    }
    qsort(ms, (size_t)reps, sizeof(double), cmp_double);
    med = ms[reps / 2];
    homg_timer_destroy(t);
    homg_free(ctx, f), homg_free(ctx, u), free(ms);
    homg_grid_destroy(g);
    return med;
}

typedef struct row {
    int n, pct, cycles, err;
    long unknowns;
    double create_ms, apply_ms, first_ms, fft_ms;
    int bw, bh;
} row;

static row rows[16];
static int nrows;

static void clone_case(int n, double frac, int quick)
{
    unsigned char *hs = picture(n, 1), *hd = picture(n, 2), *hm = disk(n, frac), *ref, *got;
    homg_image src = dev_image(n, 3, hs), dst = dev_image(n, 3, hd), mask = dev_image(n, 1, hm),
               out = dev_image(n, 3, NULL);
    homg_clone_desc d = { 0 };
    homg_clone *cl;
    homg_image_info info;
    row *rw = &rows[nrows++];
    double t0;
    int x = 0, y = 0;
    memset(rw, 0, sizeof *rw);
    rw->n = n, rw->pct = (int)lround(frac * 100);
    ref = reference(&src, &mask, &dst, x, y);
    for (int cyc = 1; cyc <= 12; cyc++) {
        homg_timer *t;
        d.tol = -1, d.max_cycles = cyc;
        t0 = homg_test_now_ms();
        if (homg_clone_create(ctx, &src, &mask, n, n, &d, &cl) != HOMG_OK)
            die("create");
        homg_ctx_synchronize(ctx);
        rw->create_ms = homg_test_now_ms() - t0;
        homg_timer_create(ctx, &t);
        homg_timer_start(t);
        if (homg_clone_apply(cl, &dst, x, y, &out, &info) != HOMG_OK)
            die("apply");
        homg_timer_stop(t);
        homg_timer_ms(t, &rw->first_ms);
        homg_timer_destroy(t);
        got = download(&out);
        rw->err = worst_level(got, ref, (size_t)n * n * 3);
        free(got);
        rw->cycles = cyc, rw->unknowns = info.unknowns, rw->bw = info.grid_nx, rw->bh = info.grid_ny;
        if (rw->err <= 1 || cyc >= 12) {
            rw->apply_ms = time_apply(cl, &dst, &out, x, y, 1);
            homg_clone_destroy(cl);
            break;
        }
        homg_clone_destroy(cl);
    }
    rw->fft_ms = quick ? 0 : time_fft_rect(rw->bw - 2, rw->bh - 2);
    printf("%5d^2 %3d%%  %9ld unknowns  grid %5d x %-5d  cycles %2d  max error %d levels  create %8.2f ms  "
           "apply %8.3f ms  first apply %8.3f ms  FFT rect %8.3f ms\n",
           n, rw->pct, rw->unknowns, rw->bw, rw->bh, rw->cycles, rw->err, rw->create_ms, rw->apply_ms, rw->first_ms,
           rw->fft_ms);
    fflush(stdout);
    homg_free(ctx, src.data), homg_free(ctx, dst.data), homg_free(ctx, mask.data), homg_free(ctx, out.data);
    free(hs), free(hd), free(hm), free(ref);
}

static double drag_sps[3];
static int drag_err[3];

/* Dragging at 1024^2, 30% mask (a 700^2 source whose disk covers 30% of the destination). */
static void drag(void)
{
    int n = 1024, s = 700, frames = 60;
    unsigned char *hs = picture(s, 3), *hd = picture(n, 4), *hm = disk(s, 0.3 * n * n / ((double)s * s));
    homg_image src = dev_image(s, 3, hs), dst = dev_image(n, 3, hd), mask = dev_image(s, 1, hm),
               out = dev_image(n, 3, NULL);
    for (int k = 0; k < 3; k++) {
        homg_clone_desc d = { 0 };
        int border = k == 2; /* the box crosses the right border: a new operator every frame */
        homg_clone *cl;
        homg_timer *t;
        double *ms = malloc(sizeof(double) * frames);
        d.tol = -1, d.max_cycles = border ? 1 : k + 1;
        if (homg_clone_create(ctx, &src, &mask, n, n, &d, &cl) != HOMG_OK)
            die("drag create");
        homg_timer_create(ctx, &t);
        drag_err[k] = 0;
        for (int f = -5; f < frames; f++) {
            int x = (border ? 400 : 100) + 3 * (f + 5), y = 150 + 2 * (f + 5);
            double m;
            homg_timer_start(t);
            if (homg_clone_apply(cl, &dst, x, y, &out, NULL) != HOMG_OK)
                die("drag apply");
            homg_timer_stop(t);
            homg_timer_ms(t, &m);
            if (f >= 0)
                ms[f] = m;
            if (f >= 0 && f % 20 == 19) {
                unsigned char *ref = reference(&src, &mask, &dst, x, y), *got = download(&out);
                int e = worst_level(got, ref, (size_t)n * n * 3);
                drag_err[k] = e > drag_err[k] ? e : drag_err[k];
                free(ref), free(got);
            }
        }
        qsort(ms, (size_t)frames, sizeof(double), cmp_double);
        drag_sps[k] = 1000 / ms[frames / 2];
        printf("drag 1024^2, 30%% mask, %d cycle(s) per frame warm%s: %.3f ms median per solve, %.0f solves/s, "
               "worst error %d levels\n",
               d.max_cycles, border ? ", across the border" : "", ms[frames / 2], drag_sps[k], drag_err[k]);
        homg_timer_destroy(t);
        homg_clone_destroy(cl);
        free(ms);
    }
    homg_free(ctx, src.data), homg_free(ctx, dst.data), homg_free(ctx, mask.data), homg_free(ctx, out.data);
    free(hs), free(hd), free(hm);
}

/* The cold apply's median at 1..6 cycles (no reference: speed only); profile > 0:
 * one apply of that many cycles, untimed. */
static void phases(int n, double frac, int profile)
{
    unsigned char *hs = picture(n, 1), *hd = picture(n, 2), *hm = disk(n, frac);
    homg_image src = dev_image(n, 3, hs), dst = dev_image(n, 3, hd), mask = dev_image(n, 1, hm),
               out = dev_image(n, 3, NULL);
    double ms[7] = { 0 };
    for (int cyc = profile ? profile : 1; cyc <= (profile ? profile : 6); cyc++) {
        homg_clone_desc d = { 0 };
        homg_clone *cl;
        d.tol = -1, d.max_cycles = cyc;
        if (homg_clone_create(ctx, &src, &mask, n, n, &d, &cl) != HOMG_OK)
            die("create");
        if (profile) {
            if (homg_clone_apply(cl, &dst, 0, 0, &out, NULL) != HOMG_OK)
                die("apply");
            homg_ctx_synchronize(ctx);
        } else {
            ms[cyc] = time_apply(cl, &dst, &out, 0, 0, 1);
            printf("phases %d^2 %.0f%%: %d cycle(s) cold: apply %.3f ms\n", n, frac * 100, cyc, ms[cyc]);
        }
        homg_clone_destroy(cl);
    }
    if (!profile)
        printf("phases %d^2 %.0f%%: %.3f ms per cycle (slope 1..6), %.3f ms the rest (intercept)\n", n, frac * 100,
               (ms[6] - ms[1]) / 5, ms[1] - (ms[6] - ms[1]) / 5);
    homg_free(ctx, src.data), homg_free(ctx, dst.data), homg_free(ctx, mask.data), homg_free(ctx, out.data);
    free(hs), free(hd), free(hm);
}

static void write_table(FILE *f)
{
    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    fprintf(f, "# bench_image: seamless cloning (textbook, normal, 3 x 8-bit)\n\n%s, %s, build %s, median of %d\n\n",
            homg_ctx_device_name(ctx), date, HOMG_BUILD_ID, reps);
    fprintf(f, "| destination | mask | unknowns / channel | grid | V-cycles (cold) | max error (levels) | apply ms | "
               "first apply ms | create ms | FFT on the box ms |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < nrows; i++)
        fprintf(f, "| %d^2 | %d%% | %ld | %d x %d | %d | %d | %.3f | %.3f | %.1f | %.3f |\n", rows[i].n, rows[i].pct,
                rows[i].unknowns, rows[i].bw, rows[i].bh, rows[i].cycles, rows[i].err, rows[i].apply_ms,
                rows[i].first_ms, rows[i].create_ms, rows[i].fft_ms);
    fprintf(f,
            "\nDragging at 1024^2 (30%% mask, warm start, moving 3 px per frame): 1 cycle %.0f solves/s (worst %d "
            "levels), 2 cycles %.0f solves/s (worst %d levels); 1 cycle across the right border (a new operator "
            "every frame) %.0f solves/s (worst %d levels)\n",
            drag_sps[0], drag_err[0], drag_sps[1], drag_err[1], drag_sps[2], drag_err[2]);
}
#endif

int main(int argc, char **argv)
{
#if HOMG_HAVE_CUDA
    const char *out = NULL;
    FILE *file = NULL;
    int quick = 0, only_n = 0, only_pct = 0, no_drag = 0, phase = 0, profile = 0, table;
    homg_ctx_desc cd = { 0 };
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) /* one destination size only */
            only_n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--pct") && i + 1 < argc) /* one mask share only (10, 30, 60) */
            only_pct = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-drag"))
            no_drag = 1;
        else if (!strcmp(argv[i], "--phases"))
            phase = 1;
        else if (!strcmp(argv[i], "--profile") && i + 1 < argc)
            profile = atoi(argv[++i]);
    }
    if (!homg_cuda_available()) {
        printf("SKIP bench_image: no CUDA device\n");
        return 0;
    }
    table = !quick && !only_n && !only_pct && !no_drag && !phase && !profile; /* every row: the table */
    if (table && out && !(file = table_out_open(out, "bench_image")))
        return 1;
    cd.backend = HOMG_BACKEND_CUDA;
    if (homg_ctx_create(&cd, &ctx) != HOMG_OK)
        die("ctx");
    printf("bench_image: %s, build %s\n", homg_ctx_device_name(ctx), HOMG_BUILD_ID);
    for (int n = 1024; n <= (quick ? 1024 : 4096); n *= 2)
        for (int p = 0; p < 3; p++)
            if ((!only_n || n == only_n) && (!only_pct || only_pct == (p == 0 ? 10 : p == 1 ? 30 : 60))) {
                if (phase || profile)
                    phases(n, p == 0 ? 0.1 : p == 1 ? 0.3 : 0.6, profile);
                else
                    clone_case(n, p == 0 ? 0.1 : p == 1 ? 0.3 : 0.6, quick);
            }
    if (!no_drag && !phase && !profile)
        drag();
    if (file) {
        write_table(file);
        table_out_close(file, out);
    }
    if (table) {
        printf("\n");
        write_table(stdout);
    }
    homg_ctx_destroy(ctx);
    return 0;
#else
    (void)argc, (void)argv;
    printf("SKIP bench_image: built without CUDA\n");
    return 0;
#endif
}
