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

static int run(homg_ctx *ctx, const options *o)
{
    homg_mesh *m = NULL;
    homg_fem *fem = NULL;
    homg_fem_desc d = { 0 };
    homg_fem_coeffs c = { 0 };
    double *sigma = NULL, *b = NULL;
    void *d_sigma = NULL, *rhs = NULL;
    int rc = 1;
    homg_csr a;
    int32_t n;
    if (homg_mesh_read(ctx, o->mesh, &m) != HOMG_OK)
        return fail(ctx, "reading the mesh");
    d.scheme = o->scheme;
    d.precision = o->precision;
    d.dirichlet_tags = o->dirichlet;
    d.num_dirichlet_tags = o->num_dirichlet;
    if (homg_fem_create(m, &d, &fem) != HOMG_OK) {
        rc = fail(ctx, "setting up the assembly");
        goto done;
    }
    c.sigma = o->sigma;
    c.lambda = o->lambda;
    c.f = o->f;
    c.dirichlet_value = o->g;
    if (o->num_tag_sigma) {
        int32_t ne = homg_mesh_num_elements(m);
        sigma = (double *)malloc((size_t)ne * sizeof *sigma);
        if (!sigma)
            goto done;
        for (int32_t e = 0; e < ne; e++) {
            sigma[e] = o->sigma;
            for (int t = 0; t < o->num_tag_sigma; t++)
                if (homg_mesh_element_tags(m)[e] == o->tag[t])
                    sigma[e] = o->tag_sigma[t];
        }
        if (homg_alloc(ctx, (size_t)ne * sizeof *sigma, &d_sigma) != HOMG_OK ||
            homg_copy_from_host(ctx, d_sigma, sigma, (size_t)ne * sizeof *sigma) != HOMG_OK) {
            rc = fail(ctx, "uploading sigma");
            goto done;
        }
        c.sigma_elem = (const double *)d_sigma;
    }
    if (homg_fem_assemble(fem, &c) != HOMG_OK || homg_ctx_synchronize(ctx) != HOMG_OK) {
        rc = fail(ctx, "assembling");
        goto done;
    }
    a = homg_fem_matrix(fem);
    n = a.nrows;
    b = (double *)malloc((size_t)n * sizeof *b);
    rhs = malloc((size_t)n * (o->precision == HOMG_FLOAT32 ? sizeof(float) : sizeof(double)));
    if (!b || !rhs)
        goto done;
    if (homg_copy_to_host(ctx, rhs, homg_fem_rhs(fem), (size_t)n * (o->precision == HOMG_FLOAT32 ? 4 : 8)) != HOMG_OK) {
        rc = fail(ctx, "reading the right-hand side");
        goto done;
    }
    for (int32_t i = 0; i < n; i++)
        b[i] = o->precision == HOMG_FLOAT32 ? ((float *)rhs)[i] : ((double *)rhs)[i];
    if (homg_mtx_write(ctx, o->out_a, &a, 0) != HOMG_OK || homg_mtx_write_vector(ctx, o->out_b, b, n) != HOMG_OK) {
        rc = fail(ctx, "writing");
        goto done;
    }
    {
        homg_fem_info info = homg_fem_get_info(fem);
        printf("%s: %d x %d, %d entries, %d Dirichlet nodes -> %s, %s (%s on %s)\n", o->mesh, (int)n, (int)n,
               (int)a.nnz, (int)info.num_dirichlet, o->out_a, o->out_b,
               info.scheme == HOMG_FEM_SCHEME_SERIAL  ? "serial"
               : info.scheme == HOMG_FEM_SCHEME_COLOR ? "color"
                                                      : "patch",
               homg_ctx_device_name(ctx));
    }
    rc = 0;
done:
    homg_free(ctx, d_sigma);
    free(sigma);
    free(b);
    free(rhs);
    homg_fem_destroy(fem);
    homg_mesh_destroy(m);
    return rc;
}

int homg_tool_mesh_assemble(int argc, char **argv)
{
    options o;
    homg_ctx *ctx;
    int rc;
    if (!parse(argc, argv, &o))
        return usage();
    ctx = homg_tool_ctx(o.backend);
    if (!ctx)
        return 1;
    rc = run(ctx, &o);
    homg_ctx_destroy(ctx);
    return rc;
}
