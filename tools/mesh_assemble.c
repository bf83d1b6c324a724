/* mesh_assemble.c -- `homg mesh assemble FILE ... --out A.mtx b.mtx`: P1 assembly
 * of -div(sigma grad u) + lambda u = f on a mesh file, written as Matrix Market. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

#define MAX_TAGS 64

typedef struct options {
    const char *mesh, *out_a, *out_b, *backend;
    double sigma, lambda, f, g;
    int32_t tag[MAX_TAGS];
    double tag_sigma[MAX_TAGS];
    int num_tag_sigma;
    int32_t dirichlet[MAX_TAGS];
    int num_dirichlet;
    homg_fem_scheme scheme;
    homg_precision precision;
} options;

static int usage(void)
{
    fprintf(stderr, "usage: homg mesh assemble FILE [--sigma S] [--lambda L] [--f F] [--tag-sigma TAG=S ...]\n"
                    "                          [--dirichlet TAG[,TAG...]] [--g G] [--scheme serial|color|patch]\n"
                    "                          [--float] [--backend cpu|cuda|auto] --out A.mtx b.mtx\n"
                    "  -div(sigma grad u) + lambda u = f, sigma per element (--tag-sigma: by element tag),\n"
                    "  u = G on the boundary facets / nodes with the --dirichlet tags, natural elsewhere\n");
    return 2;
}

static int parse_number(const char *s, double *v)
{
    char *end;
    *v = strtod(s, &end);
    return end != s && *end == 0;
}

static int parse(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->precision = HOMG_FLOAT64; /* --float32 asks for float */
    o->sigma = 1;
    o->backend = "auto";
    if (argc < 1 || argv[0][0] == '-')
        return 0;
    o->mesh = argv[0];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--float")) {
            o->precision = HOMG_FLOAT32;
            continue;
        }
        if (!v)
            return 0;
        if (!strcmp(a, "--sigma") && parse_number(v, &o->sigma))
            i++;
        else if (!strcmp(a, "--lambda") && parse_number(v, &o->lambda))
            i++;
        else if (!strcmp(a, "--f") && parse_number(v, &o->f))
            i++;
        else if (!strcmp(a, "--g") && parse_number(v, &o->g))
            i++;
        else if (!strcmp(a, "--backend"))
            o->backend = argv[++i];
        else if (!strcmp(a, "--scheme")) {
            i++;
            o->scheme = !strcmp(v, "serial")  ? HOMG_FEM_SCHEME_SERIAL
                        : !strcmp(v, "color") ? HOMG_FEM_SCHEME_COLOR
                        : !strcmp(v, "patch") ? HOMG_FEM_SCHEME_PATCH
                                              : (homg_fem_scheme)-1;
            if ((int)o->scheme < 0)
                return 0;
        } else if (!strcmp(a, "--tag-sigma")) {
            char *eq = strchr(v, '=');
            double t;
            char tagtext[32];
            if (!eq || eq - v >= 31 || o->num_tag_sigma == MAX_TAGS)
                return 0;
            memcpy(tagtext, v, (size_t)(eq - v));
            tagtext[eq - v] = 0;
            if (!parse_number(tagtext, &t) || !parse_number(eq + 1, &o->tag_sigma[o->num_tag_sigma]))
                return 0;
            o->tag[o->num_tag_sigma++] = (int32_t)t;
            i++;
        } else if (!strcmp(a, "--dirichlet")) {
            char buf[512], *tok, *save = NULL;
            snprintf(buf, sizeof buf, "%s", v);
            for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                double t;
                if (!parse_number(tok, &t) || o->num_dirichlet == MAX_TAGS)
                    return 0;
                o->dirichlet[o->num_dirichlet++] = (int32_t)t;
            }
            i++;
        } else if (!strcmp(a, "--out") && i + 2 < argc) {
            o->out_a = argv[i + 1];
            o->out_b = argv[i + 2];
            i += 2;
        } else
            return 0;
    }
    return o->out_a != NULL;
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
    void *d_sigma; /* per-element sigma in the ctx's memory (--tag-sigma) */
    double *b;     /* the right-hand side in host doubles */
} job;

static void release(homg_ctx *ctx, job *j)
{
    homg_free(ctx, j->d_sigma);
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
    d.dirichlet_tags = o->dirichlet;
    d.num_dirichlet_tags = o->num_dirichlet;
    if (homg_fem_create(j->m, &d, &j->fem) != HOMG_OK)
        return fail(ctx, "setting up the assembly");
    return 0;
}

/* sigma per element: the --tag-sigma value of its tag, else --sigma. */
static int upload_sigma(homg_ctx *ctx, const options *o, job *j)
{
    int32_t ne = homg_mesh_num_elements(j->m);
    double *sigma = (double *)malloc((size_t)ne * sizeof *sigma);
    int rc = 0;
    if (!sigma)
        return 1;
    for (int32_t e = 0; e < ne; e++) {
        sigma[e] = o->sigma;
        for (int t = 0; t < o->num_tag_sigma; t++)
            if (homg_mesh_element_tags(j->m)[e] == o->tag[t])
                sigma[e] = o->tag_sigma[t];
    }
    if (homg_alloc(ctx, (size_t)ne * sizeof *sigma, &j->d_sigma) != HOMG_OK ||
        homg_copy_from_host(ctx, j->d_sigma, sigma, (size_t)ne * sizeof *sigma) != HOMG_OK)
        rc = fail(ctx, "uploading sigma");
    free(sigma);
    return rc;
}

static int assemble(homg_ctx *ctx, const options *o, job *j)
{
    homg_fem_coeffs c = { 0 };
    c.sigma = o->sigma;
    c.lambda = o->lambda;
    c.f = o->f;
    c.dirichlet_value = o->g;
    c.sigma_elem = (const double *)j->d_sigma;
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
    int rc;
    if (!parse(argc, argv, &o))
        return usage();
    if (!(ctx = homg_tool_ctx(o.backend)))
        return 1;
    memset(&j, 0, sizeof j);
    rc = set_up(ctx, &o, &j);
    if (rc == 0 && o.num_tag_sigma)
        rc = upload_sigma(ctx, &o, &j);
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
