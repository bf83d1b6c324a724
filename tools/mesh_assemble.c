/* mesh_assemble.c -- `homg mesh assemble FILE ... --out A.mtx b.mtx`: P1 assembly
 * of -div(sigma grad u) + lambda u = f on a mesh file, written as Matrix Market. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

#define MAX_TAGS 64

static const char *const who = "homg mesh assemble";

/* TAG=VALUE pairs of one repeatable option. */
typedef struct tag_values {
    int32_t tag[MAX_TAGS];
    double value[MAX_TAGS];
    int n;
} tag_values;

typedef struct options {
    const char *mesh, *out_a, *out_b, *backend;
    double sigma, lambda, f, g;
    tag_values tag_sigma, tag_lambda, neumann, dirichlet; /* dirichlet: a tag's value (--g if none given) */
    homg_fem_scheme scheme;
    homg_precision precision;
} options;

static int usage(FILE *f)
{
    fprintf(f, "usage: homg mesh assemble FILE [options] --out A.mtx b.mtx\n\n"
               "P1 finite elements for -div(sigma grad u) + lambda u = f on the mesh FILE, written as\n"
               "Matrix Market (A: coordinate real general, b: array).\n\n"
               "options:\n"
               "  --sigma S                 sigma on every element (1)\n"
               "  --tag-sigma TAG=S         sigma on the elements with tag TAG (repeatable)\n"
               "  --lambda L                lambda >= 0 on every element (0)\n"
               "  --tag-lambda TAG=L        lambda on the elements with tag TAG (repeatable)\n"
               "  --f F                     constant source (0)\n"
               "  --dirichlet TAG=G         u = G on the boundary facets (and node markers) with tag TAG\n"
               "                            (repeatable; a node on two such tags takes the later one)\n"
               "  --dirichlet TAG[,TAG...]  u = --g on the facets of these tags\n"
               "  --g G                     the value of --dirichlet tags given without one (0)\n"
               "  --neumann TAG=Q           outward flux sigma du/dn = Q on the facets with tag TAG\n"
               "                            (repeatable); other boundary facets: zero flux\n"
               "  --scheme serial|color|patch  assembly scheme (default: patch on CUDA, serial on CPU)\n"
               "  --float                   float32 values (default float64)\n"
               "  --backend cpu|cuda|auto   (auto)\n"
               "  --out A.mtx b.mtx         the files to write (required)\n"
               "FILE: .msh or .msh.gz (Gmsh ASCII 2.2 / 4.1), or .node/.ele (Triangle, TetGen);\n"
               "`homg mesh info FILE` lists its element and facet tags.\n");
    return f == stdout ? 0 : 2;
}

static int parse_number(const char *s, double *v)
{
    char *end;
    *v = strtod(s, &end);
    return end != s && *end == 0 && isfinite(*v);
}

static int parse_tag(const char *s, int32_t *tag)
{
    char *end;
    long t = strtol(s, &end, 10);
    if (end == s || *end != 0 || t < INT32_MIN || t > INT32_MAX)
        return 0;
    *tag = (int32_t)t;
    return 1;
}

static int bad_value(const char *opt, const char *v, const char *why)
{
    fprintf(stderr, "%s: %s '%s': %s\n", who, opt, v, why);
    return 0;
}

/* "TAG=VALUE" into tv; with `lists` set, also "TAG[,TAG...]" (values NAN: --g, filled in later). */
static int parse_pairs(const char *opt, const char *v, int lists, tag_values *tv)
{
    char buf[512], *tok, *save = NULL;
    const char *eq = strchr(v, '=');
    if (strlen(v) >= sizeof buf)
        return bad_value(opt, v, "too long");
    snprintf(buf, sizeof buf, "%s", v);
    if (eq) {
        buf[eq - v] = 0;
        if (tv->n == MAX_TAGS)
            return bad_value(opt, v, "too many tags");
        if (!parse_tag(buf, &tv->tag[tv->n]) || !parse_number(buf + (eq - v) + 1, &tv->value[tv->n]))
            return bad_value(opt, v, "expected TAG=VALUE (an integer tag, a finite number)");
        tv->n++;
        return 1;
    }
    if (!lists)
        return bad_value(opt, v, "expected TAG=VALUE");
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (tv->n == MAX_TAGS)
            return bad_value(opt, v, "too many tags");
        if (!parse_tag(tok, &tv->tag[tv->n]))
            return bad_value(opt, v, "expected TAG[,TAG...] or TAG=VALUE");
        tv->value[tv->n] = NAN;
        tv->n++;
    }
    return 1;
}

/* One option with its value v; 1 ok, 0 bad (message printed). */
static int parse_option(const char *a, const char *v, options *o)
{
    double *number = !strcmp(a, "--sigma")    ? &o->sigma
                     : !strcmp(a, "--lambda") ? &o->lambda
                     : !strcmp(a, "--f")      ? &o->f
                     : !strcmp(a, "--g")      ? &o->g
                                              : NULL;
    if (number)
        return parse_number(v, number) ? 1 : bad_value(a, v, "expected a finite number");
    if (!strcmp(a, "--tag-sigma"))
        return parse_pairs(a, v, 0, &o->tag_sigma);
    if (!strcmp(a, "--tag-lambda"))
        return parse_pairs(a, v, 0, &o->tag_lambda);
    if (!strcmp(a, "--neumann"))
        return parse_pairs(a, v, 0, &o->neumann);
    if (!strcmp(a, "--dirichlet"))
        return parse_pairs(a, v, 1, &o->dirichlet);
    if (!strcmp(a, "--backend")) {
        o->backend = v;
        return 1;
    }
    /* --scheme */
    o->scheme = !strcmp(v, "serial")  ? HOMG_FEM_SCHEME_SERIAL
                : !strcmp(v, "color") ? HOMG_FEM_SCHEME_COLOR
                : !strcmp(v, "patch") ? HOMG_FEM_SCHEME_PATCH
                                      : (homg_fem_scheme)-1;
    return (int)o->scheme >= 0 ? 1 : bad_value(a, v, "expected serial, color or patch");
}

/* -1: options fine; else the exit status (0 after --help). */
static int parse(int argc, char **argv, options *o)
{
    static const char *const valued[] = { "--sigma",      "--lambda",  "--f",         "--g",       "--tag-sigma",
                                          "--tag-lambda", "--neumann", "--dirichlet", "--backend", "--scheme" };
    memset(o, 0, sizeof *o);
    o->precision = HOMG_FLOAT64; /* --float asks for float */
    o->sigma = 1;
    o->backend = "auto";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int known = 0;
        if (homg_tool_is_help(a))
            return usage(stdout);
        if (!strcmp(a, "--float")) {
            o->precision = HOMG_FLOAT32;
            continue;
        }
        if (a[0] != '-' || a[1] == 0) {
            if (o->mesh) {
                fprintf(stderr, "%s: unexpected argument '%s' (one mesh FILE)\n", who, a);
                return 2;
            }
            o->mesh = a;
            continue;
        }
        if (!strcmp(a, "--out")) {
            if (i + 2 >= argc) {
                fprintf(stderr, "%s: --out needs two files, A.mtx and b.mtx\n", who);
                return 2;
            }
            o->out_a = argv[++i];
            o->out_b = argv[++i];
            continue;
        }
        for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
            known |= !strcmp(a, valued[k]);
        if (!known)
            return homg_tool_unknown_option(who, a);
        if (i + 1 == argc) {
            fprintf(stderr, "%s: %s needs a value\n", who, a);
            return 2;
        }
        if (!parse_option(a, argv[++i], o))
            return 2;
    }
    for (int k = 0; k < o->dirichlet.n; k++)
        if (isnan(o->dirichlet.value[k]))
            o->dirichlet.value[k] = o->g;
    if (!o->mesh || !o->out_a) {
        fprintf(stderr, "%s: a mesh FILE and --out A.mtx b.mtx are required (%s --help)\n", who, who);
        return 2;
    }
    return -1;
}

static int fail(homg_ctx *ctx, const char *what)
{
    fprintf(stderr, "homg mesh assemble: %s: %s\n", what, homg_ctx_last_error(ctx));
    return 1;
}

/* What one assembly owns, released in one place. */
typedef struct job {
    homg_mesh *m;
    homg_fem *fem;
    void *d_sigma, *d_lambda; /* per element in the ctx's memory (--tag-sigma, --tag-lambda) */
    void *d_g;                /* per node Dirichlet values (--dirichlet TAG=G) */
    double *b;                /* the right-hand side in host doubles */
} job;

static void release(homg_ctx *ctx, job *j)
{
    homg_free(ctx, j->d_sigma);
    homg_free(ctx, j->d_lambda);
    homg_free(ctx, j->d_g);
    free(j->b);
    homg_fem_destroy(j->fem);
    homg_mesh_destroy(j->m);
}

/* The mesh and its assembly set-up; non-zero: failed. */
static int set_up(homg_ctx *ctx, const options *o, job *j)
{
    homg_fem_desc d = { 0 };
    if (homg_mesh_read(ctx, o->mesh, &j->m) != HOMG_OK)
        return fail(ctx, "reading the mesh");
    d.scheme = o->scheme;
    d.precision = o->precision;
    d.dirichlet_tags = o->dirichlet.tag; /* a tag given twice is harmless */
    d.num_dirichlet_tags = o->dirichlet.n;
    if (homg_fem_create(j->m, &d, &j->fem) != HOMG_OK)
        return fail(ctx, "setting up the assembly");
    return 0;
}

/* A host array of n doubles into the ctx's memory at *dst (freed here). */
static int upload(homg_ctx *ctx, double *host, size_t n, void **dst, const char *what)
{
    int rc = 0;
    if (homg_alloc(ctx, n * sizeof *host, dst) != HOMG_OK ||
        homg_copy_from_host(ctx, *dst, host, n * sizeof *host) != HOMG_OK)
        rc = fail(ctx, what);
    free(host);
    return rc;
}

/* Per element: the value of the last TAG=V of tv naming its tag, else dflt. */
static int per_element(homg_ctx *ctx, const job *j, const tag_values *tv, double dflt, void **dst, const char *what)
{
    int32_t ne = homg_mesh_num_elements(j->m);
    const int32_t *tags = homg_mesh_element_tags(j->m);
    double *v = (double *)malloc((size_t)(ne > 0 ? ne : 1) * sizeof *v);
    if (!v)
        return 1;
    for (int32_t e = 0; e < ne; e++) {
        v[e] = dflt;
        for (int t = 0; t < tv->n; t++)
            if (tags[e] == tv->tag[t])
                v[e] = tv->value[t];
    }
    return upload(ctx, v, (size_t)ne, dst, what);
}

/* Per node: g of the last --dirichlet tag whose facets or node markers hold the node. */
static int dirichlet_values(homg_ctx *ctx, const options *o, job *j)
{
    const homg_mesh *m = j->m;
    int32_t nn = homg_mesh_num_nodes(m), nf = homg_mesh_num_facets(m);
    int dim = homg_mesh_dim(m);
    double *g = (double *)calloc((size_t)(nn > 0 ? nn : 1), sizeof *g);
    if (!g)
        return 1;
    for (int t = 0; t < o->dirichlet.n; t++) {
        int32_t tag = o->dirichlet.tag[t];
        for (int32_t f = 0; f < nf; f++)
            if (homg_mesh_facet_tags(m)[f] == tag)
                for (int k = 0; k < dim; k++)
                    g[homg_mesh_facets(m)[(size_t)f * dim + k]] = o->dirichlet.value[t];
        for (int32_t i = 0; i < nn; i++)
            if (homg_mesh_node_markers(m)[i] == tag)
                g[i] = o->dirichlet.value[t];
    }
    return upload(ctx, g, (size_t)nn, &j->d_g, "uploading the Dirichlet values");
}

static int assemble(homg_ctx *ctx, const options *o, job *j)
{
    homg_fem_coeffs c = { 0 };
    if (o->tag_sigma.n && per_element(ctx, j, &o->tag_sigma, o->sigma, &j->d_sigma, "uploading sigma"))
        return 1;
    if (o->tag_lambda.n && per_element(ctx, j, &o->tag_lambda, o->lambda, &j->d_lambda, "uploading lambda"))
        return 1;
    if (o->dirichlet.n && dirichlet_values(ctx, o, j))
        return 1;
    c.sigma = o->sigma;
    c.lambda = o->lambda;
    c.f = o->f;
    c.sigma_elem = (const double *)j->d_sigma;
    c.lambda_elem = (const double *)j->d_lambda;
    c.dirichlet_values = (const double *)j->d_g;
    c.neumann_tags = o->neumann.tag;
    c.neumann_flux = o->neumann.value;
    c.num_neumann = o->neumann.n;
    if (homg_fem_assemble(j->fem, &c) != HOMG_OK || homg_ctx_synchronize(ctx) != HOMG_OK)
        return fail(ctx, "assembling");
    return 0;
}

/* The right-hand side (float or double in the ctx's memory) as host doubles. */
static int read_rhs(homg_ctx *ctx, const options *o, job *j)
{
    int32_t n = homg_fem_matrix(j->fem).nrows;
    size_t vb = o->precision == HOMG_FLOAT32 ? sizeof(float) : sizeof(double);
    void *rhs = malloc((size_t)n * vb);
    int rc = 0;
    j->b = (double *)malloc((size_t)n * sizeof *j->b);
    if (!j->b || !rhs)
        rc = 1;
    else if (homg_copy_to_host(ctx, rhs, homg_fem_rhs(j->fem), (size_t)n * vb) != HOMG_OK)
        rc = fail(ctx, "reading the right-hand side");
    for (int32_t i = 0; rc == 0 && i < n; i++)
        j->b[i] = vb == sizeof(float) ? ((float *)rhs)[i] : ((double *)rhs)[i];
    free(rhs);
    return rc;
}

/* A and b as Matrix Market files, and one line that says what was written. */
static int write_system(homg_ctx *ctx, const options *o, const job *j)
{
    homg_csr a = homg_fem_matrix(j->fem);
    homg_fem_info info = homg_fem_get_info(j->fem);
    if (homg_mtx_write(ctx, o->out_a, &a, 0) != HOMG_OK ||
        homg_mtx_write_vector(ctx, o->out_b, j->b, a.nrows) != HOMG_OK)
        return fail(ctx, "writing");
    printf("%s: %d x %d, %d entries, %d Dirichlet nodes -> %s, %s (%s on %s)\n", o->mesh, (int)a.nrows, (int)a.nrows,
           (int)a.nnz, (int)info.num_dirichlet, o->out_a, o->out_b,
           info.scheme == HOMG_FEM_SCHEME_SERIAL  ? "serial"
           : info.scheme == HOMG_FEM_SCHEME_COLOR ? "color"
                                                  : "patch",
           homg_ctx_device_name(ctx));
    return 0;
}

int homg_tool_mesh_assemble(int argc, char **argv)
{
    options o;
    homg_ctx *ctx;
    job j;
    int rc = parse(argc, argv, &o);
    if (rc >= 0)
        return rc;
    if (!(ctx = homg_tool_ctx(o.backend)))
        return 1;
    memset(&j, 0, sizeof j);
    rc = set_up(ctx, &o, &j);
    if (rc == 0)
        rc = assemble(ctx, &o, &j);
    if (rc == 0)
        rc = read_rhs(ctx, &o, &j);
    if (rc == 0)
        rc = write_system(ctx, &o, &j);
    release(ctx, &j);
    homg_ctx_destroy(ctx);
    return rc;
}
