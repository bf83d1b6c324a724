/* solve.c -- `homg solve`: seed 003's test problem on a structured grid, one cycle
 * (or HOMG restart) per library call so that every step is reported, then a PNG of
 * the solution. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tool.h"

typedef struct options {
    int size, maxi, cycles, quiet;
    int nx, ny, nz, three_d, general; /* general: not seed 003's square (tools/solve_general.c) */
    homg_bc_kind bc[6];
    double lambda, sigma_jump, obstacles;
    double tol;
    homg_method method;
    homg_precision precision;
    const char *backend, *png;
} options;

static const char *const method_names[] = { "default", "homg", "vcycle", "fcycle", "fmg", "fft" }; /* by homg_method */

static void usage(FILE *f)
{
    fprintf(f, "usage: homg solve [options]\n"
               "\n"
               "Solves seed 003's test problem (eqs. 4-6): -lap(u) = f on the unit square, u = 0 on the\n"
               "edge, with the analytic solution u = -x^2 y^2 (1-x^2)(1-y^2), on N x N cell-centred\n"
               "unknowns (5-point stencil).  It runs one cycle (HOMG: one restart) per step and prints,\n"
               "per step, the relative residual ||f - A u|| / ||f|| (2-norms, in double on the host),\n"
               "the normalised L1 error against the analytic solution (seed 003's eq. 7), the work\n"
               "units so far (relaxation sweeps over the finest grid) and the time of the step (wall\n"
               "clock around the solve call and a synchronisation; the first steps include one-time\n"
               "set-up: the NaN/Inf check of f and, on CUDA, the capture of the launch graphs).  Then\n"
               "a summary line and the solution as a PNG (u's minimum violet, its maximum yellow).\n"
               "Exit status: 0 when the residual reached --tol (or --tol 0), 1 when not or on a\n"
               "failure, 2 for bad options.\n"
               "\n"
               "options:\n"
               "  --size N|WxH|WxHxD cells per axis (default 1024); anything but a power-of-two square\n"
               "                    runs the general problem below\n"
               "  --3d              a cube (N x N x N, or --size WxHxD)\n"
               "  --bc K            sides: dirichlet|neumann|periodic, or one per side W,E,S,N[,B,T]\n"
               "                    (e.g. periodic,periodic,neumann,dirichlet)\n"
               "  --obstacles F     a fraction F of the cells solid (random discs / balls)\n"
               "  --sigma-jump J    sigma a checkerboard of 8-cell blocks, 1 and J\n"
               "  --lambda L        -div(sigma grad u) + L u = f\n"
               "                    The general problem: seed 003's f on the box, one solve to --tol,\n"
               "                    the monitored residual per cycle, no L1 error and no picture.\n"
               "  --method M        default|fft|fmg|vcycle|fcycle|homg (default: the library's default)\n"
               "  --maxi M          HOMG's MaxI, iterations on the finest levels (default 4; homg only)\n"
               "  --tol T           stop when the relative residual <= T (default 1e-6);\n"
               "                    0: run exactly --cycles steps\n"
               "  --cycles C        at most C cycles or restarts (default 50)\n"
               "  --precision P     storage of u and f: float64 (or double, the default here) or float32\n"
               "                    (or float, the library's default).  In float32 the residual stalls\n"
               "                    near eps * cond(A), about 1e-5 at 64^2 and 2e-3 at 1024^2, so pair\n"
               "                    it with --tol 0 or a looser --tol and watch the L1 error\n"
               "  --backend B       auto|cpu|cuda (default auto: CUDA when a device is present)\n"
               "  --png FILE        write the solution there (default solution.png); none: no picture\n"
               "  --quiet           print only the summary line\n"
               "  --help            this text\n");
}

/* ------------------------------------------------------------ options */

static int bad(const char *opt, const char *value, const char *why)
{
    fprintf(stderr, "homg solve: %s %s: %s\n", opt, value, why);
    return 2;
}

static int parse_int(const char *s, int *v)
{
    char *end;
    long x;
    errno = 0;
    x = strtol(s, &end, 10);
    if (end == s || *end || errno || x < INT_MIN || x > INT_MAX)
        return 0;
    *v = (int)x;
    return 1;
}

static int parse_double(const char *s, double *v)
{
    char *end;
    *v = strtod(s, &end);
    return end != s && !*end && isfinite(*v);
}

static int is_pow2(int n) { return n > 0 && (n & (n - 1)) == 0; }

/* N, WxH or WxHxD. */
static int parse_size(const char *v, options *o)
{
    int d[3] = { 0, 0, 0 }, k = 0;
    const char *p = v;
    while (k < 3) {
        char *end;
        long x;
        errno = 0;
        x = strtol(p, &end, 10);
        if (end == p || errno || x < 1 || x > INT_MAX)
            return 0;
        d[k++] = (int)x;
        if (*end == 0)
            break;
        if (*end != 'x' || k == 3)
            return 0;
        p = end + 1;
    }
    o->nx = d[0];
    o->ny = k >= 2 ? d[1] : 0;
    o->nz = k == 3 ? d[2] : 0;
    o->size = d[0];
    return 1;
}

static int parse_bc(const char *v, options *o)
{
    static const char *const names[3] = { "dirichlet", "neumann", "periodic" };
    homg_bc_kind k[6];
    int n = 0;
    const char *p = v;
    while (n < 6) {
        size_t len = strcspn(p, ",");
        int found = -1;
        for (int m = 0; m < 3; m++)
            if (len == strlen(names[m]) && !strncmp(p, names[m], len))
                found = m;
        if (found < 0)
            return 0;
        k[n++] = (homg_bc_kind)found;
        if (p[len] == 0)
            break;
        p += len + 1;
    }
    if (n != 1 && n != 4 && n != 6)
        return 0;
    for (int s = 0; s < 6; s++)
        o->bc[s] = n == 1 ? k[0] : s < n ? k[s] : HOMG_BC_DIRICHLET;
    for (int a = 0; a < 3; a++)
        if ((o->bc[2 * a] == HOMG_BC_PERIODIC) != (o->bc[2 * a + 1] == HOMG_BC_PERIODIC))
            return 0;
    return 1;
}

/* Reads one option and its value; returns -1 when it was fine, else the exit status. */
static int parse_option(const char *opt, const char *v, options *o)
{
    if (!strcmp(opt, "--size")) {
        if (!parse_size(v, o))
            return bad(opt, v, "must be N, WxH or WxHxD with sizes >= 1 (a power of two >= 4 for seed 003's square)");
    } else if (!strcmp(opt, "--bc")) {
        if (!parse_bc(v, o))
            return bad(opt, v,
                       "must be dirichlet, neumann or periodic, or 4 or 6 of them for W,E,S,N[,B,T] "
                       "(periodic sides in pairs)");
        o->general = 1;
    } else if (!strcmp(opt, "--lambda") || !strcmp(opt, "--sigma-jump") || !strcmp(opt, "--obstacles")) {
        double x;
        if (!parse_double(v, &x) || x < 0 || (!strcmp(opt, "--obstacles") && x >= 1) ||
            (!strcmp(opt, "--sigma-jump") && x == 0))
            return bad(opt, v, "must be a number >= 0 (--obstacles: < 1; --sigma-jump: > 0)");
        *(!strcmp(opt, "--lambda") ? &o->lambda : !strcmp(opt, "--sigma-jump") ? &o->sigma_jump : &o->obstacles) = x;
        o->general = 1;
    } else if (!strcmp(opt, "--method")) {
        int m = -1;
        for (int k = 0; k < (int)(sizeof method_names / sizeof method_names[0]); k++)
            if (!strcmp(v, method_names[k]))
                m = k;
        if (m < 0)
            return bad(opt, v, "must be default, fft, fmg, vcycle, fcycle or homg");
        o->method = (homg_method)m;
    } else if (!strcmp(opt, "--maxi")) {
        if (!parse_int(v, &o->maxi) || o->maxi < 1)
            return bad(opt, v, "must be an integer >= 1");
    } else if (!strcmp(opt, "--tol")) {
        if (!parse_double(v, &o->tol) || o->tol < 0)
            return bad(opt, v, "must be a number >= 0");
    } else if (!strcmp(opt, "--cycles")) {
        if (!parse_int(v, &o->cycles) || o->cycles < 1)
            return bad(opt, v, "must be an integer >= 1");
    } else if (!strcmp(opt, "--precision")) {
        if (!strcmp(v, "float32") || !strcmp(v, "float"))
            o->precision = HOMG_FLOAT32;
        else if (!strcmp(v, "float64") || !strcmp(v, "double"))
            o->precision = HOMG_FLOAT64;
        else
            return bad(opt, v, "must be float32 (float) or float64 (double)");
    } else if (!strcmp(opt, "--backend")) {
        if (strcmp(v, "auto") && strcmp(v, "cpu") && strcmp(v, "cuda"))
            return bad(opt, v, "must be auto, cpu or cuda");
        o->backend = v;
    } else if (!strcmp(opt, "--png")) {
        o->png = strcmp(v, "none") ? v : NULL;
    } else {
        fprintf(stderr, "homg solve: unknown option '%s' (homg solve --help lists them)\n", opt);
        return 2;
    }
    return -1;
}

/* Resolves the sizes; seed 003's square (a power of two >= 4, no other option of the
 * general problem) keeps the original report. */
static int finish_sizes(options *o)
{
    if (o->nx == 0)
        o->nx = o->size;
    if (o->ny == 0)
        o->ny = o->nx;
    if (o->three_d && o->nz == 0)
        o->nz = o->nx;
    if (o->nz > 1 || o->nx != o->ny)
        o->general = 1;
    if (!o->general && (!is_pow2(o->nx) || o->nx < 4))
        o->general = 1;
    return -1;
}

/* Returns -1 when the options are fine, else the exit status (0 after --help). */
static int parse(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->size = 1024;
    o->tol = 1e-6;
    o->cycles = 50;
    o->precision = HOMG_FLOAT64; /* the default --tol is out of float32's reach (see usage) */
    o->backend = "auto";
    o->png = "solution.png";
    for (int i = 1; i < argc; i++) {
        int rc;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--quiet")) {
            o->quiet = 1;
            continue;
        }
        if (!strcmp(argv[i], "--3d")) {
            o->three_d = 1;
            continue;
        }
        if (strncmp(argv[i], "--", 2) || i + 1 == argc) {
            fprintf(stderr, "homg solve: %s '%s' (homg solve --help lists the options)\n",
                    strncmp(argv[i], "--", 2) ? "unexpected argument" : "missing value after", argv[i]);
            return 2;
        }
        rc = parse_option(argv[i], argv[i + 1], o);
        if (rc >= 0)
            return rc;
        i++;
    }
    return finish_sizes(o);
}

/* ------------------------------------------------------------ the problem */

static double seed003_u(double x, double y) { return -x * x * y * y * (1 - x * x) * (1 - y * y); }

/* eq. 6 is lap(u); homg solves -lap(u) = f, so f = -(eq. 6). */
static double seed003_f(double x, double y)
{
    return 2 * (y * y * (1 - 6 * x * x) * (1 - y * y) + x * x * (1 - 6 * y * y) * (1 - x * x));
}

/* Normalised L1 error (eq. 7) of u (N x N, host) against the analytic solution. */
static double seed003_l1(const double *u, int N)
{
    double num = 0, den = 0, h = 1.0 / N;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) {
            double ue = seed003_u((i + 0.5) * h, (j + 0.5) * h);
            num += fabs(ue - u[(size_t)j * N + i]);
            den += fabs(ue);
        }
    return num / den;
}

/* ------------------------------------------------------------ the run */

typedef struct run_state {
    homg_ctx *ctx;
    homg_grid *grid;
    homg_precision precision;
    size_t n, elem;
    void *f, *u, *r; /* ctx space */
    void *buf;       /* host, n values of the grid's precision */
    double *fh, *uh; /* host doubles */
} run_state;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* x (n doubles) -> buf in the grid's precision -> dst in the ctx's space */
static homg_status upload(run_state *s, const double *x, void *dst)
{
    for (size_t k = 0; k < s->n; k++) {
        if (s->precision == HOMG_FLOAT64)
            ((double *)s->buf)[k] = x[k];
        else
            ((float *)s->buf)[k] = (float)x[k];
    }
    return homg_copy_from_host(s->ctx, dst, s->buf, s->n * s->elem);
}

/* src in the ctx's space -> n doubles in x */
static homg_status download(run_state *s, const void *src, double *x)
{
    homg_status st = homg_copy_to_host(s->ctx, s->buf, src, s->n * s->elem);
    for (size_t k = 0; st == HOMG_OK && k < s->n; k++)
        x[k] = s->precision == HOMG_FLOAT64 ? ((const double *)s->buf)[k] : ((const float *)s->buf)[k];
    return st;
}

static double norm2(const double *x, size_t n)
{
    double sum = 0;
    for (size_t k = 0; k < n; k++)
        sum += x[k] * x[k];
    return sqrt(sum);
}

/* ||f - A u|| / ||f|| in double (f_norm = ||f|| of f as stored); uses uh as scratch. */
static homg_status relative_residual(run_state *s, double f_norm, double *res)
{
    homg_status st = homg_grid_residual(s->grid, s->f, NULL, s->u, s->r);
    if (st == HOMG_OK)
        st = download(s, s->r, s->uh);
    *res = norm2(s->uh, s->n) / f_norm;
    return st;
}

static int fail(homg_ctx *ctx, const char *what)
{
    fflush(stdout); /* keep the order of the lines when both go to one pipe */
    fprintf(stderr, "homg solve: %s: %s\n", what, homg_ctx_last_error(ctx));
    return 1;
}

/* Sets up the grid and the arrays of s, and *f_norm = ||f|| of f as stored; 0 when
 * done, else the exit status (the reason printed). */
static int setup(run_state *s, const options *o, double *f_norm)
{
    homg_grid_desc gd = { 0 };
    const int N = o->size;
    gd.nx = N;
    gd.method = o->method;
    gd.maxi = o->maxi;
    gd.precision = o->precision;
    s->precision = o->precision;
    s->n = (size_t)N * N;
    s->elem = o->precision == HOMG_FLOAT64 ? sizeof(double) : sizeof(float);
    if (homg_grid_create(s->ctx, &gd, &s->grid) != HOMG_OK)
        return fail(s->ctx, "creating the grid");
    if (homg_alloc(s->ctx, s->n * s->elem, &s->f) != HOMG_OK || homg_alloc(s->ctx, s->n * s->elem, &s->u) != HOMG_OK ||
        homg_alloc(s->ctx, s->n * s->elem, &s->r) != HOMG_OK)
        return fail(s->ctx, "allocating f, u and r");
    s->buf = malloc(s->n * s->elem);
    s->fh = (double *)malloc(s->n * sizeof(double));
    s->uh = (double *)malloc(s->n * sizeof(double));
    if (!s->buf || !s->fh || !s->uh) {
        fprintf(stderr, "homg solve: out of host memory for %d x %d values\n", N, N);
        return 1;
    }
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            s->fh[(size_t)j * N + i] = seed003_f((i + 0.5) / N, (j + 0.5) / N);
    if (upload(s, s->fh, s->f) != HOMG_OK || download(s, s->f, s->fh) != HOMG_OK) /* fh: f as stored */
        return fail(s->ctx, "uploading f");
    *f_norm = norm2(s->fh, s->n);
    return 0;
}

static void cleanup(run_state *s)
{
    homg_grid_destroy(s->grid);
    homg_free(s->ctx, s->f);
    homg_free(s->ctx, s->u);
    homg_free(s->ctx, s->r);
    free(s->buf);
    free(s->fh);
    free(s->uh);
}

static void print_header(const options *o, homg_grid_desc gd, homg_ctx *ctx)
{
    printf("homg solve: seed 003's problem, %d x %d, method %s%s", o->size, o->size, method_names[gd.method],
           o->method == HOMG_METHOD_DEFAULT ? " (the default)" : "");
    if (gd.method == HOMG_METHOD_HOMG)
        printf(" (MaxI %d)", gd.maxi);
    printf(", %s, tol %g, at most %d cycles\n", o->precision == HOMG_FLOAT64 ? "float64" : "float32", o->tol,
           o->cycles);
    printf("backend: %s\n", homg_ctx_device_name(ctx));
    printf("%6s %12s %12s %10s %11s\n", "cycle", "residual", "L1 error", "WU", "time ms");
}

static int run(homg_ctx *ctx, const options *o)
{
    run_state s;
    homg_grid_desc gd;
    homg_solve_desc sd = { 0 };
    double f_norm = 0, res = -1, l1 = -1, wu = 0, total_ms = 0;
    int cycle = 0, converged = 0, rc;

    memset(&s, 0, sizeof s);
    s.ctx = ctx;
    rc = setup(&s, o, &f_norm);
    gd = homg_grid_get_desc(s.grid);
    if (rc == 0 && !o->quiet)
        print_header(o, gd, ctx);
    sd.max_cycles = 1;
    sd.tol = 0;
    while (rc == 0 && cycle < o->cycles && !converged) {
        homg_solve_info info;
        double t0 = now_ms(), ms;
        homg_status st;
        sd.warm_start = cycle > 0;
        sd.skip_input_check = cycle > 0; /* f is checked once; u is the solver's own */
        st = homg_grid_solve(s.grid, s.f, NULL, s.u, &sd, &info);
        if (st == HOMG_OK)
            st = homg_ctx_synchronize(ctx);
        ms = now_ms() - t0;
        if (st != HOMG_OK) {
            rc = fail(ctx, "solving");
            break;
        }
        cycle++;
        wu += info.work_units;
        total_ms += ms;
        if (relative_residual(&s, f_norm, &res) != HOMG_OK || download(&s, s.u, s.uh) != HOMG_OK) {
            rc = fail(ctx, "reading the result");
            break;
        }
        l1 = seed003_l1(s.uh, o->size);
        converged = o->tol > 0 && res <= o->tol;
        if (!o->quiet)
            printf("%6d %12.4e %12.4e %10.1f %11.3f\n", cycle, res, l1, wu, ms);
    }
    if (rc == 0) {
        printf("summary: %d cycles, L1 error %.4e, residual %.4e, %.1f WU, %.3f ms, method %s, %s, backend %s\n", cycle,
               l1, res, wu, total_ms, method_names[gd.method], o->precision == HOMG_FLOAT64 ? "float64" : "float32",
               homg_ctx_device_name(ctx));
        if (o->png && homg_write_png(ctx, o->png, s.uh, o->size, o->size, 0, 0) != HOMG_OK)
            rc = fail(ctx, "writing the picture");
        else if (o->png && !o->quiet)
            printf("wrote %s (%d x %d pixels; u from its minimum, violet, to its maximum, yellow)\n", o->png, o->size,
                   o->size);
        if (o->tol > 0 && !converged) {
            fflush(stdout);
            fprintf(stderr, "homg solve: not converged: residual %.4e > tol %g after %d cycles%s\n", res, o->tol, cycle,
                    o->precision == HOMG_FLOAT32 ? " (float32 cannot go much lower: try --precision float64 or --tol 0)"
                                                 : "");
            rc = 1;
        }
    }
    cleanup(&s);
    return rc;
}

int homg_cmd_solve(int argc, char **argv)
{
    options o;
    homg_ctx *ctx;
    int rc = parse(argc, argv, &o);
    if (rc >= 0)
        return rc;
    ctx = homg_tool_ctx(o.backend);
    if (!ctx)
        return 1;
    if (o.general) {
        homg_tool_general gen;
        memset(&gen, 0, sizeof gen);
        gen.desc.nx = o.nx;
        gen.desc.ny = o.ny;
        gen.desc.nz = o.nz;
        memcpy(gen.desc.bc, o.bc, sizeof o.bc);
        gen.desc.method = o.method;
        gen.desc.maxi = o.maxi;
        gen.desc.precision = o.precision;
        gen.tol = o.tol;
        gen.cycles = o.cycles;
        gen.quiet = o.quiet;
        gen.lambda = o.lambda;
        gen.sigma_jump = o.sigma_jump;
        gen.obstacles = o.obstacles;
        rc = homg_tool_solve_general(ctx, &gen);
    } else {
        rc = run(ctx, &o);
    }
    homg_ctx_destroy(ctx);
    return rc;
}
