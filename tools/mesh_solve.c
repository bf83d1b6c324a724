/* mesh_solve.c -- `homg mesh solve`: the P1 (or P2: --order 2, the default for
 * a mesh read from quadratic elements) problem of `homg mesh assemble` on a mesh
 * refined --gmg-levels times, solved by CG preconditioned with the
 * geometric multigrid of the hierarchy (homg_gmg), or by the cycles alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

#define MAX_TAGS 16

static int usage(FILE *f)
{
    fprintf(f,
            "usage: homg mesh solve FILE|square:K|cube:K [--gmg-levels L] [--smoother jacobi|spai0|spai1|sainv]\n"
            "                       [--fine-smoother jacobi|spai0|spai1|sainv] [--fine-sweeps N]\n"
            "                       [--cycle v|w|f] [--coarse-op rediscretise|galerkin] [--coarse cholesky|amg]\n"
            "                       [--numbering read|random|rcm|two-level] [--format auto|csr|ell]\n"
            "                       [--dirichlet TAG[,TAG...]] [--g G] [--f F] [--sigma S] [--tol T]\n"
            "                       [--solver pcg|cycles] [--backend cpu|cuda|auto] [--out FILE.vtk] [--order 1|2]\n"
            "  -div(S grad u) = F (default 1) on the mesh refined L times (default 3), u = G on the --dirichlet tags\n"
            "  with P1 or P2 elements (--order; default 2 for a file of 6-node triangles / 10-node tetrahedra, whose\n"
            "  solution --out writes at the nodes of one more refinement)\n"
            "  (default: every facet tag 1..2*dim of a generated square:K / cube:K mesh); --fine-smoother: the\n"
            "  finest level's (jacobi, spai0 or the --smoother; homg_gmg_desc.fine_smoother), --fine-sweeps its\n"
            "  pre- and post-sweeps\n");
    return f == stdout ? 0 : 2;
}

/* Index of `s` in the NULL-terminated `names`, plus 1 (the enum's value), or 0. */
static int pick(const char *s, const char *const *names)
{
    for (int i = 0; names[i]; i++)
        if (!strcmp(s, names[i]))
            return i + 1;
    return 0;
}

static const char *const smoothers[] = { "jacobi", "spai0", "spai1", "sainv", NULL };
static const char *const cycles[] = { "v", "w", "f", NULL };
static const char *const coarse_ops[] = { "rediscretise", "galerkin", NULL };
static const char *const coarse[] = { "cholesky", "amg", NULL };
static const char *const numberings[] = { "read", "random", "rcm", "two-level", NULL };
static const char *const formats[] = { "csr", "ell", NULL };

typedef struct options {
    const char *mesh, *backend, *out;
    homg_gmg_desc d;
    int32_t tags[MAX_TAGS];
    double tol;
    int cycles_only;
} options;

static int parse_tags(const char *s, options *o)
{
    char *end;
    o->d.num_dirichlet_tags = 0;
    while (*s && o->d.num_dirichlet_tags < MAX_TAGS) {
        long t = strtol(s, &end, 10);
        if (end == s)
            return 0;
        o->tags[o->d.num_dirichlet_tags++] = (int32_t)t;
        s = *end == ',' ? end + 1 : end;
    }
    return *s == 0;
}

static int parse(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->backend = "auto";
    o->tol = 1e-8;
    o->d.f = 1;                          /* seed 004: -Laplace u = 1 */
    o->mesh = argc > 1 ? argv[1] : NULL; /* argv[0] is "solve" */
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int k = 0;
        if (!v)
            return 0;
        i++;
        if (!strcmp(a, "--gmg-levels"))
            o->d.levels = atoi(v);
        else if (!strcmp(a, "--smoother") && (k = pick(v, smoothers)))
            o->d.smoother = (homg_gmg_smoother)k;
        else if (!strcmp(a, "--fine-smoother") && (k = pick(v, smoothers)))
            o->d.fine_smoother = (homg_gmg_smoother)k;
        else if (!strcmp(a, "--fine-sweeps"))
            o->d.fine_sweeps = atoi(v);
        else if (!strcmp(a, "--cycle") && (k = pick(v, cycles)))
            o->d.cycle = (homg_gmg_cycle)k;
        else if (!strcmp(a, "--coarse-op") && (k = pick(v, coarse_ops)))
            o->d.coarse_op = (homg_gmg_coarse_op)k;
        else if (!strcmp(a, "--coarse") && (k = pick(v, coarse)))
            o->d.coarse_solver = (homg_gmg_coarse_solver)k;
        else if (!strcmp(a, "--numbering") && (k = pick(v, numberings)))
            o->d.numbering = (homg_gmg_numbering)k;
        else if (!strcmp(a, "--format") && (!strcmp(v, "auto") || (k = pick(v, formats))))
            o->d.format = (homg_gmg_format)k;
        else if (!strcmp(a, "--dirichlet") && parse_tags(v, o))
            ;
        else if (!strcmp(a, "--g"))
            o->d.dirichlet_value = atof(v);
        else if (!strcmp(a, "--f"))
            o->d.f = atof(v);
        else if (!strcmp(a, "--sigma"))
            o->d.sigma = atof(v);
        else if (!strcmp(a, "--tol"))
            o->tol = atof(v);
        else if (!strcmp(a, "--solver") && (!strcmp(v, "pcg") || !strcmp(v, "cycles")))
            o->cycles_only = !strcmp(v, "cycles");
        else if (!strcmp(a, "--backend"))
            o->backend = v;
        else if (!strcmp(a, "--out"))
            o->out = v;
        else if (!strcmp(a, "--order") && (!strcmp(v, "1") || !strcmp(v, "2")))
            o->d.order = atoi(v);
        else
            return 0;
    }
    o->d.dirichlet_tags = o->tags;
    return o->mesh != NULL;
}

/* A mesh file, or square:K / cube:K generated (every side a Dirichlet tag unless --dirichlet). */
static homg_status load(homg_ctx *ctx, options *o, homg_mesh **m)
{
    homg_mesh_generate_desc gd = { 0 };
    int cube = !strncmp(o->mesh, "cube:", 5), square = !strncmp(o->mesh, "square:", 7);
    if (!cube && !square)
        return homg_mesh_read(ctx, o->mesh, m);
    gd.cells = atoi(o->mesh + (cube ? 5 : 7));
    if (o->d.num_dirichlet_tags == 0)
        for (int t = 0; t < (cube ? 6 : 4); t++)
            o->tags[o->d.num_dirichlet_tags++] = t + 1;
    return cube ? homg_mesh_generate_cube(ctx, &gd, m) : homg_mesh_generate_square(ctx, &gd, m);
}

static homg_status run(homg_ctx *ctx, options *o, homg_gmg *g)
{
    homg_gmg_info gi;
    homg_pcg_desc pd = { 0 };
    homg_pcg *pcg = NULL;
    homg_pcg_info pi;
    homg_gmg_solve_info si;
    char buf[4096];
    double *x = NULL;
    homg_status st;
    homg_gmg_get_info(g, &gi);
    homg_gmg_format_info(&gi, buf, sizeof buf);
    printf("%s", buf);
    st = homg_alloc(ctx, sizeof(double) * gi.rows[0], (void **)&x);
    if (st == HOMG_OK && o->cycles_only) {
        double *z = (double *)calloc((size_t)gi.rows[0], sizeof *z); /* the cycles start from x = 0 */
        memset(&si, 0, sizeof si);
        st = z ? homg_copy_from_host(ctx, x, z, sizeof(double) * gi.rows[0]) : HOMG_ERROR_OUT_OF_MEMORY;
        free(z);
        if (st == HOMG_OK)
            st = homg_gmg_solve(g, homg_gmg_rhs(g), x, o->tol, 500, &si);
        printf("GMG cycles: %d, relative residual %.3e, rate %.4f, %.3f ms\n", si.cycles, si.rel_residual, si.rate,
               si.solve_ms);
    } else if (st == HOMG_OK) {
        pd.gmg = g;
        pd.tol = o->tol;
        pd.flexible = gi.desc.cycle == HOMG_GMG_CYCLE_F;
        st = homg_pcg_create(ctx, NULL, NULL, &pd, &pcg);
        if (st == HOMG_OK)
            st = homg_pcg_solve(pcg, homg_gmg_rhs(g), x, &pi);
        if (pcg)
            printf("GMG-PCG: %d iterations, relative residual %.3e, rate %.4f, %.3f ms\n", pi.iterations,
                   pi.rel_residual, pi.rate, pi.solve_ms);
        homg_pcg_destroy(pcg);
    }
    if (st == HOMG_OK && o->out) {
        double *hx = (double *)malloc(sizeof(double) * gi.rows[0]);
        homg_mesh_field f = { 0 };
        st = hx ? homg_copy_to_host(ctx, hx, x, sizeof(double) * gi.rows[0]) : HOMG_ERROR_OUT_OF_MEMORY;
        f.name = "u";
        f.values = hx;
        if (st == HOMG_OK)
            st = homg_mesh_write_vtk(homg_gmg_mesh(g, 0), o->out, &f, 1);
        free(hx);
    }
    homg_free(ctx, x);
    return st;
}

int homg_tool_mesh_solve(int argc, char **argv)
{
    options o;
    homg_ctx *ctx;
    homg_mesh *m = NULL;
    homg_gmg *g = NULL;
    homg_status st;
    if (argc > 1 && homg_tool_is_help(argv[1]))
        return usage(stdout);
    if (!parse(argc, argv, &o))
        return usage(stderr);
    ctx = homg_tool_ctx(o.backend);
    if (!ctx)
        return 1;
    st = load(ctx, &o, &m);
    if (st == HOMG_OK && o.d.order == 0)
        o.d.order = homg_mesh_order(m);
    if (st == HOMG_OK)
        st = homg_gmg_create(m, &o.d, &g);
    if (st == HOMG_OK)
        st = run(ctx, &o, g);
    if (st != HOMG_OK)
        fprintf(stderr, "homg: %s\n", homg_ctx_last_error(ctx));
    homg_gmg_destroy(g);
    homg_mesh_destroy(m);
    homg_ctx_destroy(ctx);
    return st == HOMG_OK ? 0 : 1;
}
