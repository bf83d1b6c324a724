/* mtx_solve.c -- `homg mtx solve A.mtx [b.mtx]`: AMG-preconditioned CG on a
 * Matrix Market matrix, b = ones when no right-hand side is given.  Prints the
 * AMG grid table, the convergence history and, last, one summary line:
 *   iterations: N, relative residual: R, setup: X ms, solve: Y ms
 * R is ||b - A x|| / ||b|| recomputed here in double from the file's matrix.
 * Exit status 0 when converged, 1 when not (or on an error), 2 on bad usage. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: homg mtx solve A.mtx[.gz] [b.mtx[.gz]] [options]\n\n"
               "Solves A x = b (b = ones without b.mtx) for a symmetric positive definite A by CG\n"
               "preconditioned with algebraic multigrid.\n\n"
               "A.mtx, b.mtx: Matrix Market coordinate (real, integer or pattern; general or\n"
               "symmetric) or array files, plain or gzip-compressed (.mtx.gz).  A pattern file's\n"
               "entries have no values and are read as 1 (its 0/1 matrix: rarely positive definite).\n\n"
               "options:\n"
               "  --backend cpu|cuda|auto   (auto)\n"
               "  --tol T                   relative residual to reach (1e-8)\n"
               "  --max-iter N              (1000)\n"
               "  --coarsening sa|matching  smoothed aggregation or compatible weighted matching (sa)\n"
               "  --smoother chebyshev|patch|jacobi|l1 (chebyshev)\n"
               "  --cycle v|w               (v)\n"
               "  --precond amg|jacobi|none (amg)\n"
               "  --flexible                flexible CG\n"
               "  --x FILE                  write the solution as a Matrix Market vector\n"
               "  --quiet                   the summary line only\n");
}

static int pick(const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(s, names[i]))
            return i;
    return -1;
}

/* ||b - A x|| / ||b|| in double on the host. */
static double residual(const homg_host_csr *a, const double *b, const double *x)
{
    double rr = 0, bb = 0;
    for (int32_t i = 0; i < a->nrows; i++) {
        double s = b[i];
        for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
            s -= a->values[k] * x[a->col_idx[k]];
        rr += s * s;
        bb += b[i] * b[i];
    }
    return bb > 0 ? sqrt(rr / bb) : sqrt(rr);
}

typedef struct options {
    const char *a_path, *b_path, *x_path, *backend;
    homg_amg_desc amg;
    homg_pcg_desc pcg;
    int quiet;
} options;

/* 0 ok, 1 help shown, 2 bad usage. */
static int parse(int argc, char **argv, options *o)
{
    static const char *const coarsening[] = { "sa", "matching" },
                             *const smoother[] = { "jacobi", "l1", "patch", "chebyshev" },
                             *const cycle[] = { "v", "w" }, *const precond[] = { "amg", "jacobi", "none" };
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        int k;
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            usage(stdout);
            return 1;
        } else if (!strcmp(arg, "--flexible")) {
            o->pcg.flexible = 1;
        } else if (!strcmp(arg, "--quiet")) {
            o->quiet = 1;
        } else if (arg[0] == '-' && arg[1] != 0) {
            static const char *const valued[] = { "--backend",    "--x",        "--tol",   "--max-iter",
                                                  "--coarsening", "--smoother", "--cycle", "--precond" };
            if (pick(arg, valued, 8) < 0)
                return homg_tool_unknown_option("homg mtx solve", arg);
            if (!val) {
                fprintf(stderr, "homg mtx solve: %s needs a value\n", arg);
                return 2;
            }
            i++;
            if (!strcmp(arg, "--backend"))
                o->backend = val;
            else if (!strcmp(arg, "--x"))
                o->x_path = val;
            else if (!strcmp(arg, "--tol"))
                o->pcg.tol = atof(val);
            else if (!strcmp(arg, "--max-iter"))
                o->pcg.max_iter = atoi(val);
            else if (!strcmp(arg, "--coarsening") && (k = pick(val, coarsening, 2)) >= 0)
                o->amg.coarsening = k ? HOMG_AMG_MATCHING : HOMG_AMG_SMOOTHED_AGGREGATION;
            else if (!strcmp(arg, "--smoother") && (k = pick(val, smoother, 4)) >= 0)
                o->amg.smoother = (homg_amg_smoother)(k + 1);
            else if (!strcmp(arg, "--cycle") && (k = pick(val, cycle, 2)) >= 0)
                o->amg.cycle = k ? HOMG_AMG_CYCLE_W : HOMG_AMG_CYCLE_V;
            else if (!strcmp(arg, "--precond") && (k = pick(val, precond, 3)) >= 0)
                o->pcg.precond = (homg_pcg_precond)(k + 1);
            else {
                fprintf(stderr, "homg mtx solve: %s: bad value '%s' (homg mtx solve --help lists them)\n", arg, val);
                return 2;
            }
        } else if (!o->a_path) {
            o->a_path = arg;
        } else if (!o->b_path) {
            o->b_path = arg;
        } else {
            fprintf(stderr, "homg mtx solve: unexpected argument '%s'\n", arg);
            return 2;
        }
    }
    if (!o->a_path) {
        usage(stderr);
        return 2;
    }
    if (o->pcg.max_iter < 0 || o->pcg.tol < 0) {
        fprintf(stderr, "homg mtx solve: --tol and --max-iter must be positive\n");
        return 2;
    }
    return 0;
}

/* Everything the solve owns, released in one place. */
typedef struct state {
    homg_ctx *ctx;
    homg_host_csr a;
    double *b, *x;
    void *db, *dx;
    homg_amg *amg;
    homg_pcg *pcg;
} state;

static void release(state *s)
{
    homg_pcg_destroy(s->pcg);
    homg_amg_destroy(s->amg);
    if (s->ctx) {
        homg_free(s->ctx, s->db);
        homg_free(s->ctx, s->dx);
    }
    homg_host_csr_free(&s->a);
    free(s->b);
    free(s->x);
    homg_ctx_destroy(s->ctx);
}

static int fail(state *s, const char *what)
{
    fprintf(stderr, "homg mtx solve: %s: %s\n", what, homg_ctx_last_error(s->ctx));
    release(s);
    return 1;
}

/* A, b (ones without a file) and x = 0 on the host; non-zero: failed (released). */
static int load(const options *o, state *s)
{
    size_t n;
    if (homg_mtx_read(s->ctx, o->a_path, &s->a) != HOMG_OK)
        return fail(s, "reading the matrix");
    n = (size_t)s->a.nrows;
    if (o->b_path) {
        int32_t nb = 0;
        if (homg_mtx_read_vector(s->ctx, o->b_path, &s->b, &nb) != HOMG_OK)
            return fail(s, "reading the right-hand side");
        if ((size_t)nb != n) {
            fprintf(stderr, "homg mtx solve: %s has %d values, %s has %d rows\n", o->b_path, (int)nb, o->a_path,
                    (int)n);
            release(s);
            return 1;
        }
    } else {
        s->b = (double *)malloc(n * sizeof *s->b);
        for (size_t i = 0; s->b && i < n; i++)
            s->b[i] = 1.0;
    }
    s->x = (double *)calloc(n ? n : 1, sizeof *s->x);
    if (!s->b || !s->x) {
        fprintf(stderr, "homg mtx solve: out of memory\n");
        release(s);
        return 1;
    }
    return 0;
}

/* The AMG (unless another preconditioner is asked for) and the CG solver. */
static int set_up(const options *o, state *s, homg_amg_info *info)
{
    homg_csr view = homg_host_csr_view(&s->a);
    memset(info, 0, sizeof *info);
    if (o->pcg.precond == HOMG_PCG_PRECOND_DEFAULT || o->pcg.precond == HOMG_PCG_PRECOND_AMG) {
        if (homg_amg_create(s->ctx, &view, &o->amg, &s->amg) != HOMG_OK)
            return fail(s, "AMG set-up");
        homg_amg_get_info(s->amg, info);
    }
    if (homg_pcg_create(s->ctx, s->amg ? NULL : &view, s->amg, &o->pcg, &s->pcg) != HOMG_OK)
        return fail(s, "CG set-up");
    return 0;
}

/* b to the ctx's memory, the solve (*st: converged or not), x back. */
static int solve(state *s, homg_pcg_info *pi, homg_status *st)
{
    size_t n = (size_t)s->a.nrows;
    if (homg_alloc(s->ctx, n * sizeof(double), &s->db) != HOMG_OK ||
        homg_alloc(s->ctx, n * sizeof(double), &s->dx) != HOMG_OK ||
        homg_copy_from_host(s->ctx, s->db, s->b, n * sizeof(double)) != HOMG_OK)
        return fail(s, "device memory");
    *st = homg_pcg_solve(s->pcg, s->db, s->dx, pi);
    if (*st != HOMG_OK && *st != HOMG_ERROR_NOT_CONVERGED)
        return fail(s, "CG");
    if (homg_copy_to_host(s->ctx, s->x, s->dx, n * sizeof(double)) != HOMG_OK)
        return fail(s, "copying the solution");
    return 0;
}

/* The matrix, the AMG grid table and the convergence history. */
static void report(const options *o, const state *s, const homg_amg_info *info)
{
    char *text;
    int len;
    printf("%s: %d rows, %d entries, backend %s\n", o->a_path, (int)s->a.nrows, (int)s->a.nnz,
           homg_ctx_device_name(s->ctx));
    if (s->amg) {
        len = homg_amg_format_info(info, NULL, 0);
        if ((text = (char *)malloc((size_t)len + 1)) != NULL) {
            homg_amg_format_info(info, text, (size_t)len + 1);
            fputs(text, stdout);
        }
        free(text);
    }
    len = homg_pcg_format_history(s->pcg, NULL, 0);
    if ((text = (char *)malloc((size_t)len + 1)) != NULL) {
        homg_pcg_format_history(s->pcg, text, (size_t)len + 1);
        fputs(text, stdout);
    }
    free(text);
}

int homg_cmd_mtx_solve(int argc, char **argv)
{
    options o;
    state s;
    homg_amg_info info;
    homg_pcg_info pi;
    homg_status st = HOMG_OK;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc == 1 ? 0 : 2;
    memset(&s, 0, sizeof s);
    if (!(s.ctx = homg_tool_ctx(o.backend)))
        return 1;
    if (load(&o, &s) || set_up(&o, &s, &info) || solve(&s, &pi, &st))
        return 1;
    if (!o.quiet)
        report(&o, &s, &info);
    if (st == HOMG_ERROR_NOT_CONVERGED)
        fprintf(stderr, "homg mtx solve: %s\n", homg_ctx_last_error(s.ctx));
    if (o.x_path && homg_mtx_write_vector(s.ctx, o.x_path, s.x, s.a.nrows) != HOMG_OK)
        return fail(&s, "writing the solution");
    printf("iterations: %d, relative residual: %.3e, setup: %.3f ms, solve: %.3f ms\n", pi.iterations,
           residual(&s.a, s.b, s.x), info.setup_ms, pi.solve_ms);
    release(&s);
    return st == HOMG_OK ? 0 : 1;
}
