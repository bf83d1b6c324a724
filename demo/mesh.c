/* mesh.c -- a heat source follows the mouse across a plate with a hole (a
 * triangle mesh from assets/); the temperature is solved with finite elements
 * and multigrid-preconditioned CG on the GPU every frame and drawn as vertex
 * colours written by the GPU into a GL buffer.
 *
 * The problem is -div(grad u) = f on the mesh, u = 0 on the left and right
 * edges and on the hole (a cooled pipe), insulated top and bottom; f is a
 * Gaussian around the source.  Set-up: homg_gmg_create refines the mesh of
 * assets/ --size times and keeps every level (a nested hierarchy: geometric
 * multigrid, SPAI-1 smoothed V(2,2) cycles); the finest level is the demo's
 * mesh.  homg_fem builds its matrix once (the matrix never changes: only the
 * source moves) for the AMG and Jacobi preconditioners the m key cycles through.
 * Each frame:
 *   1. homg_view_write turns the last solution into per-vertex RGBA8 colours in
 *      a GL buffer the view owns (homg_view_gl_name), range found on the GPU;
 *   2. f at the nodes is the Gaussian at the source's position, computed on the
 *      device (homg_mesh_splat: no host loop, no copy);
 *   3. homg_fem_assemble re-assembles the right-hand side only (rhs_only: the
 *      matrix keeps its values);
 *   4. homg_pcg_solve starts from the last solution (warm start) and stops at
 *      ||r|| <= 1e-5 ||b||: what a colour map of 256 steps needs (at --size 2 the
 *      scripted run's last picture is the same pixel for pixel as with 1e-10,
 *      and 52 pixels are one step off with 1e-4);
 *   5. the triangles are drawn with the view's buffer as their colour attribute:
 *      a coarser level of the hierarchy where the finest has more triangles than
 *      a quarter of the window's pixels (its nodes are the finest level's first
 *      nodes, so it reads the same colours; l draws the finest level).
 * Keys: left drag moves the source; m cycles the preconditioner; w wireframe; l level drawn. */
#include "harness/harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOL 1e-5 /* relative residual of each frame's solve (see above) */

enum { GMG, AMG_CHEBYSHEV, AMG_PATCH, AMG_MATCHING, JACOBI, NUM_PRECONDS };
static const char *precond_names[NUM_PRECONDS] = { "GMG-PCG (SPAI-1 V(2,2))", "AMG-PCG (SA, Chebyshev)",
                                                   "AMG-PCG (SA, patch Jacobi)", "AMG-PCG (matching)", "Jacobi-PCG" };

typedef struct mesh_demo {
    const char *path;
    int precond, wireframe, finest; /* finest: draw level 0 whatever its size */
    int used;                       /* the preconditioner in use: precond, AMG where GMG has no hierarchy */
    homg_mesh *coarse;              /* the mesh of assets/ */
    homg_gmg *gmg;                  /* its refinements (NULL at --size 0) */
    homg_mesh *mesh;                /* the finest level: homg_gmg_mesh(gmg, 0), or coarse */
    homg_fem *fem;
    homg_amg *amg;
    homg_pcg *pcg;
    int32_t nodes, triangles;
    int levels; /* meshes of the hierarchy that can be drawn (1 + size, or 1) */
    int32_t level_triangles[HOMG_GMG_MAX_LEVELS];
    void *f, *x;
    double src_x, src_y; /* the source, in mesh coordinates */
    double lo[2], hi[2]; /* the mesh's bounding box */
    homg_view *view;
    const char *view_path; /* the path the view took, for the overlay */
    GLuint program, vao, positions, indices[HOMG_GMG_MAX_LEVELS];
    GLint loc_scale, loc_offset, loc_wire;
} mesh_demo;

static mesh_demo M = { .path = "assets/hole2d.msh" };
static const int32_t cold[] = { 1, 2, 4 }; /* Dirichlet tags: left, right, the hole */

static const char *vertex_src = "#version 330 core\n"
                                "layout(location = 0) in vec2 pos;\n"
                                "layout(location = 1) in vec4 colour_in;\n"
                                "uniform vec2 scale, offset;\n"
                                "out vec4 colour;\n"
                                "void main() {\n"
                                "    colour = colour_in;\n"
                                "    gl_Position = vec4(pos * scale + offset, 0, 1);\n"
                                "}\n";
static const char *fragment_src = "#version 330 core\n"
                                  "in vec4 colour;\n"
                                  "uniform int wire;\n"
                                  "out vec4 frag;\n"
                                  "void main() { frag = wire != 0 ? vec4(0, 0, 0, 0.35) : colour; }\n";

/* Level l of the hierarchy (0 the finest). */
static homg_mesh *level_mesh(int l) { return M.gmg ? homg_gmg_mesh(M.gmg, l) : M.coarse; }

/* The mesh of assets/ and its `refine` refinements (4 triangles per triangle
 * each), every level kept by the geometric multigrid built on them. */
static void load_mesh(demo *d, int refine)
{
    homg_gmg_desc gd = { 0 };
    homg_gmg_info info;
    demo_check(d, homg_mesh_read(d->ctx, M.path, &M.coarse), M.path);
    M.mesh = M.coarse;
    M.levels = 1;
    if (refine > 0) {
        gd.levels = refine;
        gd.dirichlet_tags = cold;
        gd.num_dirichlet_tags = 3;
        gd.smoother = HOMG_GMG_SMOOTHER_SPAI1; /* on every level: what the README's pictures were checked with
                                                  (the library's default before s12 has SPAI(0) on level 0) */
        /* the coarsest level (2,543 rows): its dense Cholesky inverse on CUDA (3 CG
         * iterations a frame at --size 2); one AMG cycle on the CPU backend, where that
         * inverse takes minutes of set-up (7 iterations) */
        gd.coarse_solver =
            d->backend == HOMG_BACKEND_CPU ? HOMG_GMG_COARSE_SOLVER_AMG : HOMG_GMG_COARSE_SOLVER_CHOLESKY;
        demo_check(d, homg_gmg_create(M.coarse, &gd, &M.gmg), "homg_gmg_create");
        demo_check(d, homg_gmg_get_info(M.gmg, &info), "homg_gmg_get_info");
        printf("mesh: geometric multigrid, %d levels, set-up %.1f ms\n", info.levels, info.setup_ms);
        M.mesh = homg_gmg_mesh(M.gmg, 0);
        M.levels = info.levels;
    }
    for (int l = 0; l < M.levels; l++)
        M.level_triangles[l] = homg_mesh_num_elements(level_mesh(l));
    M.nodes = homg_mesh_num_nodes(M.mesh);
    M.triangles = homg_mesh_num_elements(M.mesh);
}

static void make_solver(demo *d)
{
    homg_csr a = homg_fem_matrix(M.fem);
    homg_amg_desc ad = { 0 };
    homg_pcg_desc pd = { 0 };
    pd.tol = TOL;
    pd.warm_start = 1;
    M.used = M.precond == GMG && !M.gmg ? AMG_CHEBYSHEV : M.precond; /* --size 0: one mesh, no hierarchy */
    if (M.used == GMG) {
        pd.gmg = M.gmg; /* the gmg's finest matrix, the same as the fem's */
        demo_check(d, homg_pcg_create(d->ctx, NULL, NULL, &pd, &M.pcg), "homg_pcg_create");
    } else if (M.used == JACOBI) {
        pd.precond = HOMG_PCG_PRECOND_JACOBI;
        demo_check(d, homg_pcg_create(d->ctx, &a, NULL, &pd, &M.pcg), "homg_pcg_create");
    } else {
        ad.coarsening = M.used == AMG_MATCHING ? HOMG_AMG_MATCHING : HOMG_AMG_SMOOTHED_AGGREGATION;
        if (M.used == AMG_PATCH)
            ad.smoother = HOMG_AMG_SMOOTHER_PATCH; /* the library's default before issue #14 */
        demo_check(d, homg_amg_create(d->ctx, &a, &ad, &M.amg), "homg_amg_create");
        demo_check(d, homg_pcg_create(d->ctx, NULL, M.amg, &pd, &M.pcg), "homg_pcg_create");
    }
}

static void drop_solver(void)
{
    homg_pcg_destroy(M.pcg);
    homg_amg_destroy(M.amg);
    M.pcg = NULL;
    M.amg = NULL;
}

/* f at the nodes: a Gaussian of width 0.05 around the source, on the device. */
static void source(demo *d)
{
    homg_splat s = { { M.src_x, M.src_y, 0 }, 0.05, 400.0 };
    demo_check(d, homg_mesh_splat(M.mesh, &s, 1, HOMG_FLOAT64, 0, M.f), "homg_mesh_splat");
}

/* The right-hand side of the source (rhs_only: the matrix of the first assembly stays). */
static void assemble(demo *d, int rhs_only)
{
    homg_fem_coeffs c = { 0 };
    c.f_node = (const double *)M.f;
    c.skip_check = 1; /* homg_mesh_splat's values are finite: no host sync in the frame */
    c.rhs_only = rhs_only;
    demo_check(d, homg_fem_assemble(M.fem, &c), "homg_fem_assemble");
}

/* Level l's triangles can be drawn with the finest level's vertex buffers when
 * its nodes are the finest level's first nodes (homg_mesh_refine appends the
 * new nodes; the gmg's default numbering keeps that order). */
static int same_nodes(int l)
{
    const homg_mesh *m = level_mesh(l);
    const double *a = homg_mesh_coords(m), *b = homg_mesh_coords(M.mesh);
    return !memcmp(a, b, sizeof(double) * 2 * (size_t)homg_mesh_num_nodes(m));
}

/* Positions (normalised to the bounding box) and each level's triangles for GL;
 * colours come from the view. */
static void make_gl(demo *d)
{
    const double *xy = homg_mesh_coords(M.mesh);
    float *p = malloc(sizeof(float) * 2 * (size_t)M.nodes);
    M.lo[0] = M.lo[1] = INFINITY;
    M.hi[0] = M.hi[1] = -INFINITY;
    for (int32_t k = 0; k < M.nodes; k++)
        for (int c = 0; c < 2; c++) {
            M.lo[c] = fmin(M.lo[c], xy[2 * k + c]);
            M.hi[c] = fmax(M.hi[c], xy[2 * k + c]);
        }
    for (int32_t k = 0; k < M.nodes; k++)
        for (int c = 0; c < 2; c++)
            p[2 * k + c] = (float)(xy[2 * k + c] - M.lo[c]);
    M.program = demo_program(vertex_src, fragment_src);
    M.loc_scale = glGetUniformLocation(M.program, "scale");
    M.loc_offset = glGetUniformLocation(M.program, "offset");
    M.loc_wire = glGetUniformLocation(M.program, "wire");
    glGenVertexArrays(1, &M.vao);
    glBindVertexArray(M.vao);
    glGenBuffers(1, &M.positions);
    glBindBuffer(GL_ARRAY_BUFFER, M.positions);
    glBufferData(GL_ARRAY_BUFFER, sizeof(float) * 2 * (size_t)M.nodes, p, GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, (void *)0);
    /* the colours: the view's own buffer, 4 bytes per node */
    glBindBuffer(GL_ARRAY_BUFFER, homg_view_gl_name(M.view));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, 0, (void *)0);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    for (int l = 0; l < M.levels; l++) {
        if (l > 0 && !same_nodes(l)) {
            printf("mesh: level %d's nodes are not the finest level's first nodes: drawing level 0 only\n", l);
            M.levels = l;
            break;
        }
        glGenBuffers(1, &M.indices[l]); /* bound as the VAO's index buffer when drawn */
        glBindBuffer(GL_COPY_WRITE_BUFFER, M.indices[l]);
        glBufferData(GL_COPY_WRITE_BUFFER, sizeof(int32_t) * 3 * (size_t)M.level_triangles[l],
                     homg_mesh_elements(level_mesh(l)), GL_STATIC_DRAW);
    }
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    free(p);
    (void)d;
}

/* The level drawn: the finest with at most one triangle per 4 pixels of the window. */
static int draw_level(const demo *d)
{
    int l = 0;
    double budget = 0.25 * d->fb_width * d->fb_height;
    while (!M.finest && l + 1 < M.levels && M.level_triangles[l] > budget)
        l++;
    return l;
}

static int mesh_init(demo *d)
{
    homg_fem_desc fd = { 0 };
    homg_view_desc vd = { 0 };
    homg_view_info info;
    load_mesh(d, d->size);
    demo_check(d, homg_alloc(d->ctx, (size_t)M.nodes * sizeof(double), &M.f), "homg_alloc f");
    demo_check(d, homg_alloc(d->ctx, (size_t)M.nodes * sizeof(double), &M.x), "homg_alloc x");
    demo_check(d, homg_mesh_splat(M.mesh, NULL, 0, HOMG_FLOAT64, 0, M.x), "zeroing x");
    fd.precision = HOMG_FLOAT64; /* homg_pcg_solve takes double vectors */
    fd.dirichlet_tags = cold;
    fd.num_dirichlet_tags = 3;
    demo_check(d, homg_fem_create(M.mesh, &fd, &M.fem), "homg_fem_create");
    M.src_x = 1.3;
    M.src_y = 0.5;
    source(d);
    assemble(d, 0); /* matrix and right-hand side, once */
    make_solver(d);

    /* per-vertex colours in a GL buffer the view makes (count = nodes) */
    vd.get_proc_address = d->gl_loader;
    vd.target = HOMG_VIEW_BUFFER;
    vd.format = HOMG_VIEW_RGBA8;
    vd.count = M.nodes;
    vd.path = d->path;
    demo_check(d, homg_view_create(d->ctx, &vd, &M.view), "homg_view_create");
    homg_view_get_info(M.view, &info);
    printf("mesh: %d nodes, %d triangles; view path %s: %s\n", M.nodes, M.triangles, homg_view_path_name(info.path),
           info.reason);
    M.view_path = homg_view_path_name(info.path);
    make_gl(d);
    return 0;
}

static void mesh_fini(demo *d)
{
    homg_ctx_synchronize(d->ctx);
    homg_view_destroy(M.view);
    drop_solver();
    homg_fem_destroy(M.fem);
    homg_gmg_destroy(M.gmg);
    homg_mesh_destroy(M.coarse);
    M.gmg = NULL;
    M.coarse = M.mesh = NULL;
    homg_free(d->ctx, M.f);
    homg_free(d->ctx, M.x);
    glDeleteBuffers(1, &M.positions);
    glDeleteBuffers(M.levels, M.indices);
    glDeleteVertexArrays(1, &M.vao);
    glDeleteProgram(M.program);
}

/* The mesh's box fitted into the window, aspect kept: NDC = pos * scale + offset. */
static void fit(demo *d, float scale[2], float offset[2])
{
    double w = M.hi[0] - M.lo[0], h = M.hi[1] - M.lo[1], margin = 0.92;
    double s = fmin(2.0 * margin / w * d->fb_width, 2.0 * margin / h * d->fb_height);
    scale[0] = (float)(s / d->fb_width);
    scale[1] = (float)(s / d->fb_height);
    offset[0] = (float)(-w * scale[0] / 2);
    offset[1] = (float)(-h * scale[1] / 2);
}

static void mesh_frame(demo *d)
{
    homg_view_write_desc wd = { 0 };
    homg_pcg_info info;
    float scale[2], offset[2];
    int l = draw_level(d);
    fit(d, scale, offset);

    /* the source follows the left button (window -> mesh coordinates) */
    if (!d->paused && d->mouse_button == 1) {
        M.src_x = M.lo[0] + ((2 * d->mouse_x - 1) - offset[0]) / scale[0];
        M.src_y = M.lo[1] + ((2 * d->mouse_y - 1) - offset[1]) / scale[1];
    }

    /* this frame's colours: the last solution */
    wd.precision = HOMG_FLOAT64;
    wd.nx = M.nodes;
    demo_view_write(d, M.view, M.x, &wd);

    if (!d->paused) {
        demo_solve_begin(d);
        source(d);
        assemble(d, 1);
        homg_status st = homg_pcg_solve(M.pcg, (const double *)homg_fem_rhs(M.fem), (double *)M.x, &info);
        if (st != HOMG_OK && st != HOMG_ERROR_NOT_CONVERGED)
            demo_check(d, st, "homg_pcg_solve");
        demo_solve_end(d);
        d->iterations = info.iterations;
        d->residual = info.rel_residual;
    }
    snprintf(d->method, sizeof d->method, "%s", precond_names[M.used]);
    snprintf(d->detail, sizeof d->detail, "%d triangles (%d drawn)   view: %s", M.triangles, M.level_triangles[l],
             M.view_path);

    glUseProgram(M.program);
    glUniform2f(M.loc_scale, scale[0], scale[1]);
    glUniform2f(M.loc_offset, offset[0], offset[1]);
    glUniform1i(M.loc_wire, 0);
    glBindVertexArray(M.vao);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, M.indices[l]);
    demo_draw_begin(d);
    glDrawElements(GL_TRIANGLES, 3 * M.level_triangles[l], GL_UNSIGNED_INT, (void *)0);
    if (M.wireframe) {
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
        glUniform1i(M.loc_wire, 1);
        glDrawElements(GL_TRIANGLES, 3 * M.level_triangles[l], GL_UNSIGNED_INT, (void *)0);
        glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
        glDisable(GL_BLEND);
    }
    demo_draw_end(d);
    glBindVertexArray(0);
    glUseProgram(0);
}

static void mesh_key(demo *d, int key)
{
    if (key == 'm') {
        homg_ctx_synchronize(d->ctx);
        drop_solver();
        M.precond = (M.precond + 1) % NUM_PRECONDS;
        if (M.precond == GMG && !M.gmg)
            M.precond++; /* --size 0: no hierarchy */
        make_solver(d);
    } else if (key == 'w')
        M.wireframe = !M.wireframe;
    else if (key == 'l')
        M.finest = !M.finest;
}

/* Headless runs: the source circles to the right of the hole. */
static void mesh_script(demo *d, int frame)
{
    double a = 0.25 * frame, s[2], o[2];
    float scale[2], offset[2];
    fit(d, scale, offset);
    s[0] = 1.35 + 0.35 * cos(a);
    s[1] = 0.5 + 0.28 * sin(a);
    for (int c = 0; c < 2; c++)
        o[c] = ((s[c] - M.lo[c]) * (c ? scale[1] : scale[0]) + (c ? offset[1] : offset[0]) + 1) / 2;
    d->mouse_x = o[0];
    d->mouse_y = o[1];
    d->mouse_button = 1;
}

int main(int argc, char **argv)
{
    static const demo_app app = {
        .name = "mesh",
        .summary = "drag a heat source across a plate with a hole: FEM + multigrid PCG on the GPU every frame",
        .keys = "  left drag: move the source   w: wireframe   l: draw the finest level / a level with at most\n"
                "  one triangle per 4 pixels (default)   m: preconditioner (GMG, AMG SA Chebyshev, AMG SA patch\n"
                "  Jacobi, AMG matching, Jacobi)\n"
                "  --size R: refine assets/hole2d.msh R times (4^R x 4,831 triangles; + / - add or remove one)",
        .width = 1000,
        .height = 540,
        .size = 2,
        .min_size = 0,
        .max_size = 6,
        .step1 = 1,
        .init = mesh_init,
        .fini = mesh_fini,
        .frame = mesh_frame,
        .key = mesh_key,
        .script = mesh_script,
    };
    return demo_run(argc, argv, &app);
}
