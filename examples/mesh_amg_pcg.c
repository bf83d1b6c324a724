/* mesh_amg_pcg.c -- read a mesh, assemble a P1 finite-element system on it, and
 * solve it with AMG-preconditioned conjugate gradients.
 *
 * -div(sigma grad u) = 1 on the mesh, u = 0 on the boundary facets with tag 1 (and
 * every tag given after the file), zero flux elsewhere.  Without a file it
 * generates the unit square (facet tags 1..4 for x = 0, x = 1, y = 0, y = 1).
 *
 *   cc mesh_amg_pcg.c $(pkg-config --cflags --libs homg) -o mesh_amg_pcg
 *   ./mesh_amg_pcg [FILE.msh|FILE.msh.gz|FILE.node [TAG ...]]
 */
#include <homg.h>

#include <stdio.h>
#include <stdlib.h>

static void check(homg_ctx *ctx, homg_status st, const char *what)
{
    if (st != HOMG_OK) {
        fprintf(stderr, "%s: %s (%s)\n", what, ctx ? homg_ctx_last_error(ctx) : "", homg_status_string(st));
        exit(1);
    }
}

int main(int argc, char **argv)
{
    homg_ctx_desc cd = { 0 };
    homg_ctx *ctx = NULL;
    homg_mesh *mesh = NULL;
    homg_fem_desc fd = { 0 };
    homg_fem *fem = NULL;
    homg_fem_coeffs coeffs = { 0 };
    homg_amg *amg = NULL;
    homg_pcg *pcg = NULL;
    homg_pcg_info info;
    homg_csr a;
    int32_t tags[16] = { 1, 2, 3, 4 };
    int num_tags = argc > 1 ? 1 : 4;
    void *x = NULL;

    check(NULL, homg_ctx_create(&cd, &ctx), "homg_ctx_create");
    if (argc > 1) {
        check(ctx, homg_mesh_read(ctx, argv[1], &mesh), "homg_mesh_read"); /* the message names file and line */
        for (int i = 2; i < argc && num_tags < 16; i++)
            tags[num_tags++] = atoi(argv[i]);
    } else {
        homg_mesh_generate_desc gd = { 0 };
        gd.cells = 64;
        check(ctx, homg_mesh_generate_square(ctx, &gd, &mesh), "homg_mesh_generate_square");
    }
    printf("%d nodes, %d elements on %s\n", (int)homg_mesh_num_nodes(mesh), (int)homg_mesh_num_elements(mesh),
           homg_ctx_device_name(ctx));

    /* The pattern is built once here; homg_fem_assemble can run again every frame. */
    fd.precision = HOMG_FLOAT64; /* CG works on double vectors */
    fd.dirichlet_tags = tags;
    fd.num_dirichlet_tags = num_tags;
    check(ctx, homg_fem_create(mesh, &fd, &fem), "homg_fem_create");
    coeffs.f = 1; /* sigma = 1, lambda = 0, g = 0: the zero defaults */
    check(ctx, homg_fem_assemble(fem, &coeffs), "homg_fem_assemble");

    /* The hierarchy from the assembled matrix (in the context's space), then CG with it. */
    a = homg_fem_matrix(fem);
    check(ctx, homg_amg_create(ctx, &a, NULL, &amg), "homg_amg_create");
    check(ctx, homg_pcg_create(ctx, &a, amg, NULL, &pcg), "homg_pcg_create");
    check(ctx, homg_alloc(ctx, sizeof(double) * (size_t)a.nrows, &x), "homg_alloc");
    check(ctx, homg_pcg_solve(pcg, homg_fem_rhs(fem), x, &info), "homg_pcg_solve");
    printf("AMG-PCG: %d iterations, relative residual %.2e, %.2f ms\n", info.iterations, info.rel_residual,
           info.solve_ms);

    homg_free(ctx, x);
    homg_pcg_destroy(pcg);
    homg_amg_destroy(amg);
    homg_fem_destroy(fem);
    homg_mesh_destroy(mesh);
    homg_ctx_destroy(ctx);
    return info.converged ? 0 : 1;
}
