/* grid_general.c -- bench_grid's rows for issue 9 (general structured problems),
 * float32, from u = 0 to error 1e-4 against a reference (the FFT's solution where
 * it applies, else the general solver's in float64 to 1e-10): first the cycles
 * needed (error monitored on the device), then that fixed number timed with CUDA
 * events (tol = 0 and no u_ref: nothing monitored, no host synchronisation), median
 * of the runs; the error printed is that of the timed configuration (one more solve
 * of it, untimed, with u_ref).  Bytes per unknown: device memory the grid takes
 * (create + set_operator) / cells. */
#include "grid_general.h"
#include "grid_baselines.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if HOMG_HAVE_CUDA
#include <cuda_runtime_api.h>

typedef struct gcase {
    const char *name;
    int nx, ny, nz;
    homg_bc_kind bc;
    double obstacles, jump;
    homg_method method;
    int warm;                 /* Neumann projection, warm start to 1e-3 */
    int two_pass;             /* desc.two_pass (0: automatic) */
    const char *pass_mask;    /* HOMG_GEN_TWO_PASS_LEVELS for this row (NULL: unset) */
    int active_nx, active_ny; /* > 0: only these first columns and rows active, the rest SOLID (padding) */
} gcase;

/* Constant coefficients without flags: the FFT's reference and rows. */
static int fft_applies(const gcase *c) { return c->obstacles == 0 && c->jump == 0 && c->active_nx == 0; }

static size_t used_bytes(void)
{
    size_t f = 0, t = 0;
    cudaDeviceSynchronize();
    cudaMemGetInfo(&f, &t);
    return t - f;
}

static void *dev_from(const void *host, size_t bytes)
{
    void *d = NULL;
    if (cudaMalloc(&d, bytes) != cudaSuccess)
        return NULL;
    cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice);
    return d;
}

/* Host operator arrays of a case (NULL when not needed). */
static void make_operator(const gcase *c, float **sig, unsigned char **fl)
{
    const size_t n = (size_t)c->nx * c->ny * c->nz;
    *sig = NULL;
    *fl = NULL;
    if (c->jump > 0) {
        *sig = (float *)malloc(n * sizeof(float));
        for (size_t k = 0; k < n; k++) {
            size_t i = k % c->nx, j = k / c->nx % c->ny, z = k / ((size_t)c->nx * c->ny);
            (*sig)[k] = ((i / 8 + j / 8 + z / 8) & 1) ? (float)c->jump : 1.0f;
        }
    }
    if (c->active_nx > 0) { /* a smaller picture padded with SOLID cells */
        *fl = (unsigned char *)calloc(n, 1);
        for (size_t k = 0; k < n; k++)
            (*fl)[k] =
                (int)(k % c->nx) >= c->active_nx || (int)(k / c->nx % c->ny) >= c->active_ny ? HOMG_CELL_SOLID : 0;
    }
    if (c->obstacles > 0) {
        unsigned s = 7;
        size_t solid = 0;
        const double r = c->nx / 40.0 + 1;
        *fl = (unsigned char *)calloc(n, 1);
        while ((double)solid < c->obstacles * (double)n) {
            s = s * 1103515245u + 12345u;
            double cx = (double)((s >> 8) % 100000) / 1e5 * c->nx;
            s = s * 1103515245u + 12345u;
            double cy = (double)((s >> 8) % 100000) / 1e5 * c->ny;
            for (int j = (int)(cy - r) - 1; j <= (int)(cy + r) + 1; j++)
                for (int i = (int)(cx - r) - 1; i <= (int)(cx + r) + 1; i++) {
                    double dx = i + 0.5 - cx, dy = j + 0.5 - cy;
                    size_t k;
                    if (i < 0 || j < 0 || i >= c->nx || j >= c->ny || dx * dx + dy * dy > r * r)
                        continue;
                    k = (size_t)i + (size_t)c->nx * j;
                    if (!(*fl)[k]) {
                        (*fl)[k] = HOMG_CELL_SOLID;
                        solid++;
                    }
                }
        }
    }
}

typedef struct gresult {
    int cycles;
    double ms, err, factor, bytes_per, setop_ms;
    homg_method ran;
    int ok, two_pass; /* info.two_pass */
} gresult;

/* Creates the grid of case c in precision p with method m and the operator. */
static homg_grid *make_grid(homg_ctx *ctx, const gcase *c, homg_precision p, homg_method m, void **arrays)
{
    const size_t n = (size_t)c->nx * c->ny * c->nz;
    homg_grid_desc gd = { 0 };
    homg_grid_operator op = { 0 };
    homg_grid *g = NULL;
    float *sig;
    unsigned char *fl;
    gd.nx = c->nx;
    gd.ny = c->ny;
    gd.nz = c->nz;
    gd.precision = p;
    gd.method = m;
    gd.two_pass = c->two_pass;
    for (int s = 0; s < 6; s++)
        gd.bc[s] = c->bc;
    if (homg_grid_create(ctx, &gd, &g) != HOMG_OK) {
        printf("  %s: %s\n", c->name, homg_ctx_last_error(ctx));
        return NULL;
    }
    make_operator(c, &sig, &fl);
    arrays[0] = arrays[1] = NULL;
    if (sig) {
        if (p == HOMG_FLOAT64) {
            double *s64 = (double *)malloc(n * sizeof(double));
            for (size_t k = 0; k < n; k++)
                s64[k] = sig[k];
            arrays[0] = dev_from(s64, n * sizeof(double));
            free(s64);
        } else {
            arrays[0] = dev_from(sig, n * sizeof(float));
        }
        op.sigma_cell = arrays[0];
    }
    if (fl) {
        arrays[1] = dev_from(fl, n);
        op.flags = (const unsigned char *)arrays[1];
    }
    if (homg_grid_set_operator(g, &op) != HOMG_OK)
        printf("  %s: set_operator: %s\n", c->name, homg_ctx_last_error(ctx));
    free(sig);
    free(fl);
    return g;
}

static float *random_f(size_t n, int nz_mean)
{
    float *f = (float *)malloc(n * sizeof(float));
    unsigned s = 99;
    for (size_t k = 0; k < n; k++) {
        s = s * 1664525u + 1013904223u;
        f[k] = (float)((s >> 8) % 2001) / 1000.0f - 1.0f + (nz_mean ? 0.3f : 0.0f);
    }
    return f;
}

/* The reference solution in float32 (ctx space): the FFT's where it applies, else
 * the general solver's in float64. */
static void *reference(homg_ctx *ctx, const gcase *c, const float *fh)
{
    const size_t n = (size_t)c->nx * c->ny * c->nz;
    void *arr[2], *f, *u;
    double *fd = (double *)malloc(n * sizeof(double)), *ud;
    float *uf;
    homg_solve_desc sd = { 0 };
    homg_grid *g;
    const int fft = fft_applies(c);
    g = make_grid(ctx, c, HOMG_FLOAT64, fft ? HOMG_METHOD_FFT : HOMG_METHOD_VCYCLE, arr);
    for (size_t k = 0; k < n; k++)
        fd[k] = fh[k];
    f = dev_from(fd, n * sizeof(double));
    cudaMalloc(&u, n * sizeof(double));
    cudaMemset(u, 0, n * sizeof(double));
    sd.tol = fft ? 0 : 1e-10;
    sd.max_cycles = fft ? 1 : 200;
    if (homg_grid_solve(g, f, NULL, u, &sd, NULL) != HOMG_OK)
        printf("  %s: reference: %s\n", c->name, homg_ctx_last_error(ctx));
    ud = fd;
    cudaMemcpy(ud, u, n * sizeof(double), cudaMemcpyDeviceToHost);
    uf = (float *)malloc(n * sizeof(float));
    for (size_t k = 0; k < n; k++)
        uf[k] = (float)ud[k];
    homg_grid_destroy(g);
    cudaFree(f);
    cudaFree(u);
    cudaFree(arr[0]);
    cudaFree(arr[1]);
    free(fd);
    u = dev_from(uf, n * sizeof(float));
    free(uf);
    return u;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static gresult run_case(homg_ctx *ctx, const gcase *c, homg_method m, int reps)
{
    const size_t n = (size_t)c->nx * c->ny * c->nz;
    gresult r;
    void *arr[2], *f, *u, *uref;
    float *fh = random_f(n, c->bc != HOMG_BC_DIRICHLET);
    double hist[1000], *t = (double *)malloc((size_t)reps * sizeof(double));
    size_t before;
    homg_grid *g;
    homg_solve_desc sd = { 0 };
    homg_solve_info info;
    cudaEvent_t e0, e1;
    memset(&r, 0, sizeof r);
    if (c->pass_mask) /* the library reads it when set_operator plans the levels */
        setenv("HOMG_GEN_TWO_PASS_LEVELS", c->pass_mask, 1);
    uref = c->warm ? NULL : reference(ctx, c, fh);
    f = dev_from(fh, n * sizeof(float));
    cudaMalloc(&u, n * sizeof(float));
    before = used_bytes();
    g = make_grid(ctx, c, HOMG_FLOAT32, m, arr);
    if (!g)
        goto out;
    r.bytes_per = (double)(used_bytes() - before) / (double)n;
    /* the cost of a new operator (what a moving obstacle pays each frame) */
    if (arr[1]) {
        homg_grid_operator op = { 0 };
        double t0;
        op.flags = (const unsigned char *)arr[1];
        op.sigma_cell = arr[0];
        op.skip_check = 1;
        cudaEventCreate(&e0);
        cudaEventCreate(&e1);
        cudaEventRecord(e0, 0);
        homg_grid_set_operator(g, &op);
        cudaEventRecord(e1, 0);
        cudaEventSynchronize(e1);
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        t0 = ms;
        r.setop_ms = t0;
    }
    cudaMemset(u, 0, n * sizeof(float));
    if (c->warm) { /* the previous frame: solved well; this frame: f changed by 1% */
        sd.tol = 1e-6;
        sd.max_cycles = 100;
        homg_grid_solve(g, f, NULL, u, &sd, NULL);
        for (size_t k = 0; k < n; k++)
            fh[k] *= 1.01f;
        cudaMemcpy(f, fh, n * sizeof(float), cudaMemcpyHostToDevice);
        sd.warm_start = 1;
        sd.tol = 1e-3;
    } else {
        sd.u_ref = uref;
        sd.tol = 1e-4;
        sd.max_cycles = 200;
    }
    {
        void *u0 = NULL;
        cudaMalloc(&u0, n * sizeof(float));
        cudaMemcpy(u0, u, n * sizeof(float), cudaMemcpyDeviceToDevice);
        homg_status st = homg_grid_solve(g, f, NULL, u, &sd, &info);
        int nh = homg_grid_history(g, hist, 1000);
        r.ok = st == HOMG_OK;
        r.cycles = info.cycles;
        r.err = info.norm;
        r.ran = info.method;
        r.two_pass = info.two_pass;
        r.factor = nh >= 2 && hist[0] > 0 ? pow(hist[nh - 1] / hist[0], 1.0 / (nh - 1)) : 0;
        /* timed as a user runs it: a fixed number of cycles, nothing monitored or recorded (with u_ref
         * set, every cycle would also compute the error, and the FFT path read it back) */
        sd.tol = 0;
        sd.max_cycles = info.cycles;
        sd.skip_input_check = 1;
        sd.u_ref = NULL;
        sd.no_history = 1; /* nor recorded: a frame loop that reads no norm */
        cudaEventCreate(&e0);
        cudaEventCreate(&e1);
        for (int k = 0; k < reps + 1; k++) {
            float ms;
            cudaMemcpy(u, u0, n * sizeof(float), cudaMemcpyDeviceToDevice);
            cudaEventRecord(e0, 0);
            homg_grid_solve(g, f, NULL, u, &sd, NULL);
            cudaEventRecord(e1, 0);
            cudaEventSynchronize(e1);
            cudaEventElapsedTime(&ms, e0, e1);
            if (k)
                t[k - 1] = ms;
        }
        qsort(t, (size_t)reps, sizeof *t, cmp_d);
        r.ms = t[reps / 2];
        if (uref) { /* the error of that configuration: the same solve once more, untimed, with u_ref */
            sd.u_ref = uref;
            cudaMemcpy(u, u0, n * sizeof(float), cudaMemcpyDeviceToDevice);
            if (homg_grid_solve(g, f, NULL, u, &sd, &info) == HOMG_OK)
                r.err = info.norm;
        }
        cudaFree(u0);
    }
    homg_grid_destroy(g);
    cudaFree(arr[0]);
    cudaFree(arr[1]);
out:
    cudaFree(f);
    cudaFree(u);
    cudaFree(uref);
    free(fh);
    free(t);
    if (c->pass_mask)
        unsetenv("HOMG_GEN_TWO_PASS_LEVELS");
    return r;
}

static int listed(const char *list, const char *word);
/* A tolerance solve of c (VCYCLE: the general solver) with the device loop, and the same with
 * HOMG_GRID_DEVICE_LOOP=0 (a host read after each iteration): median of reps CUDA-event-timed
 * solves from the same start each, the host's reads inside the timing.  From zero to relative
 * residual 1e-5 (warm rows: the previous frame's solution, to 1e-3). */
static int tol_row(homg_ctx *ctx, const gcase *c, int reps, char lines[][320], int nl)
{
    const size_t n = (size_t)c->nx * c->ny * c->nz;
    void *arr[2] = { NULL, NULL }, *f, *u, *u0 = NULL;
    float *fh = random_f(n, c->bc != HOMG_BC_DIRICHLET);
    double *t = (double *)malloc((size_t)reps * sizeof(double)), ms[2] = { 0, 0 };
    homg_grid *g;
    homg_solve_desc sd = { 0 };
    homg_solve_info info[2];
    homg_status st[2] = { HOMG_OK, HOMG_OK };
    cudaEvent_t e0, e1;
    memset(info, 0, sizeof info);
    f = dev_from(fh, n * sizeof(float));
    cudaMalloc(&u, n * sizeof(float));
    cudaMalloc(&u0, n * sizeof(float));
    cudaMemset(u, 0, n * sizeof(float));
    g = make_grid(ctx, c, HOMG_FLOAT32, HOMG_METHOD_VCYCLE, arr);
    if (!g)
        goto out;
    sd.max_cycles = 200;
    if (c->warm) { /* the previous frame, solved well; this frame: f changed by 1% */
        sd.tol = 1e-6;
        homg_grid_solve(g, f, NULL, u, &sd, NULL);
        for (size_t k = 0; k < n; k++)
            fh[k] *= 1.01f;
        cudaMemcpy(f, fh, n * sizeof(float), cudaMemcpyHostToDevice);
        sd.warm_start = 1;
    }
    sd.tol = c->warm ? 1e-3 : 1e-5;
    sd.skip_input_check = 1;
    cudaMemcpy(u0, u, n * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    for (int loop = 0; loop < 2; loop++) {
        if (loop)
            setenv("HOMG_GRID_DEVICE_LOOP", "0", 1);
        for (int k = 0; k < reps + 1; k++) {
            float e;
            cudaMemcpy(u, u0, n * sizeof(float), cudaMemcpyDeviceToDevice);
            cudaEventRecord(e0, 0);
            st[loop] = homg_grid_solve(g, f, NULL, u, &sd, &info[loop]);
            cudaEventRecord(e1, 0);
            cudaEventSynchronize(e1);
            cudaEventElapsedTime(&e, e0, e1);
            if (k)
                t[k - 1] = e;
        }
        unsetenv("HOMG_GRID_DEVICE_LOOP");
        qsort(t, (size_t)reps, sizeof *t, cmp_d);
        ms[loop] = t[reps / 2];
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    homg_grid_destroy(g);
out:
    snprintf(lines[nl++], 320, "| %s | %dx%dx%d | %.0e | %d / %d | %.3f | %.3f | %d / %d | %ld / %ld |%s", c->name,
             c->nx, c->ny, c->nz, sd.tol, info[0].cycles, info[1].cycles, ms[0], ms[1], info[0].host_syncs,
             info[1].host_syncs, info[0].launches, info[1].launches,
             st[0] == HOMG_OK && st[1] == HOMG_OK ? "" : " (not converged)");
    printf("%s\n", lines[nl - 1]);
    fflush(stdout);
    cudaFree(arr[0]);
    cudaFree(arr[1]);
    cudaFree(f);
    cudaFree(u);
    cudaFree(u0);
    free(fh);
    free(t);
    return nl;
}

/* The assembled-matrix rows of case c (bench/grid_baselines.c): homg's AMG-PCG and cuSPARSE's
 * Jacobi-PCG on the operator assembled cell by cell, to the grid rows' error target of the same
 * reference; appended to lines. */
static int baseline_rows(homg_ctx *ctx, const gcase *c, int reps, const char *methods, char lines[][320], int nl)
{
    static const char *const names[2] = { "cusparse", "amg" };
    const size_t n = (size_t)c->nx * c->ny * c->nz;
    float *fh = random_f(n, c->bc != HOMG_BC_DIRICHLET), *sig, *uf = (float *)malloc(n * sizeof(float));
    unsigned char *fl;
    double *f = (double *)malloc(n * sizeof(double)), *ur = (double *)malloc(n * sizeof(double)), *sd = NULL;
    void *uref = reference(ctx, c, fh);
    grid_ref_problem p;
    cudaMemcpy(uf, uref, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(uref);
    make_operator(c, &sig, &fl);
    for (size_t k = 0; k < n; k++) {
        f[k] = fh[k];
        ur[k] = uf[k];
    }
    if (sig) {
        sd = (double *)malloc(n * sizeof(double));
        for (size_t k = 0; k < n; k++)
            sd[k] = sig[k];
    }
    memset(&p, 0, sizeof p);
    p.nx = c->nx, p.ny = c->ny, p.nz = c->nz;
    p.h = 1.0 / (c->nx > c->ny ? (c->nx > c->nz ? c->nx : c->nz) : (c->ny > c->nz ? c->ny : c->nz)); /* the grid's */
    for (int s = 0; s < 6; s++)
        p.side[s] = (int)c->bc;
    p.sigma = 1;
    p.sigma_cell = sd;
    p.flags = fl;
    for (int k = 0; k < 2; k++) {
        grid_baseline b;
        if (!listed(methods, names[k]))
            continue;
        if (grid_baseline_run(ctx, &p, f, ur, 1e-4, k, reps, &b) != 0) {
            printf("  %s: %s baseline failed: %s\n", c->name, names[k], homg_ctx_last_error(ctx));
            continue;
        }
        char setup[24] = "-";
        if (k)
            snprintf(setup, sizeof setup, "%.3f", b.setup_ms);
        snprintf(
            lines[nl++], 320,
            "| %s | %dx%dx%d | %s (assembled, float64, to residual %.0e) | %d | %.3f | %.2f | %.1e | - | - | %s |%s",
            c->name, c->nx, c->ny, c->nz, k ? "homg AMG-PCG" : "cuSPARSE Jacobi-PCG", b.tol, b.iterations, b.solve_ms,
            1e6 * b.solve_ms / (double)n, b.err, setup, b.ok ? "" : " (not within 1e-4)");
        printf("%s\n", lines[nl - 1]);
        fflush(stdout);
    }
    free(fh), free(uf), free(f), free(ur), free(sd), free(sig), free(fl);
    return nl;
}

static const char *mname(homg_method m)
{
    static const char *const names[] = { "default", "homg", "vcycle", "fcycle", "fmg", "fft" };
    return (int)m >= 0 && m <= HOMG_METHOD_FFT ? names[m] : "?";
}

/* Whether the comma-separated list has the entry word (NULL list: every word). */
static int listed(const char *list, const char *word)
{
    const size_t n = strlen(word);
    if (!list)
        return 1;
    for (const char *p = strstr(list, word); p; p = strstr(p + 1, word))
        if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == 0))
            return 1;
    return 0;
}

void bench_grid_general(homg_ctx *ctx, int reps, int max3d, const char *cases_list, const char *methods_list, FILE *o)
{
    const gcase cases[] = {
        { "3D Poisson box", 128, 128, 128, HOMG_BC_DIRICHLET, 0, 0, 0, 0, 0, NULL, 0, 0 },
        { "3D Poisson box", 256, 256, 256, HOMG_BC_DIRICHLET, 0, 0, 0, 0, 0, NULL, 0, 0 },
        { "3D Poisson box", 512, 512, 512, HOMG_BC_DIRICHLET, 0, 0, 0, 0, 0, NULL, 0, 0 },
        { "2D plain (per-cell sigma = 1)", 2048, 2048, 1, HOMG_BC_DIRICHLET, 0, 1, 0, 0, 0, NULL, 0, 0 },
        { "2D 20% solid discs", 2048, 2048, 1, HOMG_BC_DIRICHLET, 0.2, 0, 0, 0, 0, NULL, 0, 0 },
        { "2D sigma jump 1e4 (8-cell checkerboard)", 2048, 2048, 1, HOMG_BC_DIRICHLET, 0, 1e4, 0, 0, 0, NULL, 0, 0 },
        { "Neumann projection, warm, to 1e-3", 1024, 1024, 1, HOMG_BC_NEUMANN, 0, 0, 0, 1, 0, NULL, 0, 0 },
        { "Neumann projection, warm, to 1e-3", 256, 256, 256, HOMG_BC_NEUMANN, 0, 0, 0, 1, 0, NULL, 0, 0 },
        { "1920x1080", 1920, 1080, 1, HOMG_BC_DIRICHLET, 0, 0, 0, 0, 0, NULL, 0, 0 },
        { "2048x1024", 2048, 1024, 1, HOMG_BC_DIRICHLET, 0, 0, 0, 0, 0, NULL, 0, 0 },
        /* the two-pass coarse correction (desc.two_pass) off, on and with one level */
        { "2D plain (per-cell sigma = 1), two_pass -1", 2048, 2048, 1, HOMG_BC_DIRICHLET, 0, 1, 0, 0, -1, NULL, 0, 0 },
        { "2D 20% solid discs, two_pass 2", 2048, 2048, 1, HOMG_BC_DIRICHLET, 0.2, 0, 0, 0, 2, NULL, 0, 0 },
        { "2D sigma jump 1e4 (8-cell checkerboard), two_pass -1", 2048, 2048, 1, HOMG_BC_DIRICHLET, 0, 1e4, 0, 0, -1,
          NULL, 0, 0 },
        { "2D sigma jump 1e4 (8-cell checkerboard), two_pass 1", 2048, 2048, 1, HOMG_BC_DIRICHLET, 0, 1e4, 0, 0, 1,
          NULL, 0, 0 },
        { "2D sigma jump 1e4 (8-cell checkerboard), two-pass level 2 alone", 2048, 2048, 1, HOMG_BC_DIRICHLET, 0, 1e4,
          0, 0, 2, "4", 0, 0 },
        /* the image size (issues 9 item 4, 11): masked, and 1920x1080 padded to a size whose levels halve evenly */
        { "1920x1080 20% solid discs", 1920, 1080, 1, HOMG_BC_DIRICHLET, 0.2, 0, 0, 0, 0, NULL, 0, 0 },
        { "1920x1080 padded to 2048x1088 (SOLID cells)", 2048, 1088, 1, HOMG_BC_DIRICHLET, 0, 0, 0, 0, 0, NULL, 1920,
          1080 },
        { "1920x1088 (levels even down to 30x17)", 1920, 1088, 1, HOMG_BC_DIRICHLET, 0, 0, 0, 0, 0, NULL, 0, 0 },
    };
    const homg_method methods[3] = { HOMG_METHOD_DEFAULT, HOMG_METHOD_VCYCLE, HOMG_METHOD_FFT };
    FILE *outs[2] = { stdout, o };
    char lines[64][320], tlines[24][320];
    int nl = 0, nt = 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const gcase *c = &cases[k];
        const int fft_ok = fft_applies(c);
        char idx[16];
        snprintf(idx, sizeof idx, "%d", (int)k);
        if (c->nz > max3d || !listed(cases_list, idx))
            continue;
        for (int mi = 0; mi < 3; mi++) {
            gresult r;
            const double cells = (double)c->nx * c->ny * c->nz;
            if (!fft_ok && mi != 1)
                continue;
            if ((c->warm && mi == 2) || !listed(methods_list, mname(methods[mi])))
                continue;
            r = run_case(ctx, c, methods[mi], reps);
            snprintf(lines[nl++], sizeof lines[0],
                     "| %s | %dx%dx%d | %s (%s%s) | %d | %.3f | %.2f | %.1e | %.3f | %.1f | %.3f |%s", c->name, c->nx,
                     c->ny, c->nz, mname(methods[mi]), mname(r.ran),
                     r.two_pass == 2   ? ", two-pass 2"
                     : r.two_pass == 1 ? ", two-pass 1"
                                       : "",
                     r.cycles, r.ms, 1e6 * r.ms / cells, r.err, r.factor, r.bytes_per, r.setop_ms,
                     r.ok ? "" : " (not converged)");
            printf("%s\n", lines[nl - 1]);
            fflush(stdout);
        }
        /* asked for by name only ("tol"): the tolerance solve, device loop against host loop */
        if (methods_list && listed(methods_list, "tol") && nt < 24)
            nt = tol_row(ctx, c, reps, tlines, nt);
        /* asked for by name only: the assembly and CG are slow at 512^3 */
        if (methods_list && !c->warm && c->nz <= 256 && nl < 60)
            nl = baseline_rows(ctx, c, reps, methods_list, lines, nl);
    }
    for (int w = 0; w < 2; w++) {
        FILE *f = outs[w];
        if (!f)
            continue;
        fprintf(
            f,
            "\n## General structured problems (issue 9), float32\n\n"
            "From u = 0 to error 1e-4 against a reference (FFT, or the general solver in float64), or warm\n"
            "from the previous frame's solution to relative residual 1e-3 (Neumann rows). Time: median of\n"
            "CUDA-event-timed solves with the fixed number of cycles (tol = 0, no u_ref: nothing monitored,\n"
            "no host sync); error = that of the timed configuration (one more solve of it, with u_ref).\n"
            "ns/unknown = time per cell. factor = mean convergence factor per cycle. bytes/unknown = device memory "
            "of the grid\n"
            "(create + set_operator) per cell, f and u not included. set_operator = time of a new operator\n"
            "(flags/sigma from device memory; includes the device labelling of singular islands where lambda\n"
            "= 0). Rows \"assembled\" (asked for with --methods amg,cusparse): the operator assembled cell by\n"
            "cell (tests/util/grid_ref.c) and solved in double from zero, to the loosest relative residual that\n"
            "reaches the same error target; cycles = PCG iterations, time = the solve, last column = AMG's set-up.\n\n"
            "| problem | size | method (ran) | cycles | time (ms) | ns/unknown | error | factor | bytes/unknown | "
            "set_operator (ms) |\n|---|---|---|---|---|---|---|---|---|---|\n");
        for (int i = 0; i < nl; i++)
            fprintf(f, "%s\n", lines[i]);
        if (nt == 0)
            continue;
        fprintf(f, "\nTolerance solves (\"tol\", vcycle: the general solver), float32, from zero to relative residual\n"
                   "1e-5 (warm rows: to 1e-3): the iterations in a device loop (one host read a right-hand side)\n"
                   "against HOMG_GRID_DEVICE_LOOP=0 (a read after each iteration); median of CUDA-event-timed\n"
                   "solves, the host's reads inside.\n\n"
                   "| problem | size | tol | cycles device / host | device loop (ms) | host loop (ms) | host syncs "
                   "device / host | launches device / host |\n|---|---|---|---|---|---|---|---|\n");
        for (int i = 0; i < nt; i++)
            fprintf(f, "%s\n", tlines[i]);
    }
}
#else
void bench_grid_general(homg_ctx *ctx, int reps, int max3d, const char *cases, const char *methods, FILE *o)
{
    (void)ctx, (void)reps, (void)max3d, (void)cases, (void)methods, (void)o;
}
#endif
