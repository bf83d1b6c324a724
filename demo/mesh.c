/* mesh.c -- a heat source follows the mouse across a plate with a hole (a
 * triangle mesh from assets/); the temperature is solved with finite elements
 * and AMG-preconditioned CG on the GPU every frame and drawn as vertex colours
 * written by the GPU into a GL buffer.
 *
 * The problem is -div(grad u) = f on the mesh, u = 0 on the left and right
 * edges and on the hole (a cooled pipe), insulated top and bottom; f is a
 * Gaussian around the source.  Set-up: the mesh is read and refined
 * (homg_mesh_refine, --size times), homg_fem builds the matrix pattern on the
 * device, the AMG hierarchy and the CG solver are made once.  Each frame:
 *   1. f at the nodes is the Gaussian at the source's position, computed on the
 *      device (homg_mesh_splat: no host loop, no copy);
 *   2. homg_fem_assemble re-assembles the right-hand side (and the matrix) on
 *      the device;
 *   3. homg_view_write turns the last solution into per-vertex RGBA8 colours in
 *      a GL buffer the view owns (homg_view_gl_name), range found on the GPU;
 *   4. homg_pcg_solve starts from the last solution (warm start);
 *   5. the triangles are drawn with the view's buffer as their colour attribute.
 * Keys: left drag moves the source; m cycles the preconditioner; w wireframe. */
#include "harness/harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NUM_PRECONDS = 3 };
static const char *precond_names[NUM_PRECONDS] = { "AMG-PCG (smoothed aggregation)", "AMG-PCG (matching)",
                                                   "Jacobi-PCG" };

typedef struct mesh_demo {
    const char *path;
    int precond, wireframe;
    homg_mesh *mesh;
    homg_fem *fem;
    homg_amg *amg;
    homg_pcg *pcg;
    int32_t nodes, triangles;
    void *f, *x;
    double src_x, src_y; /* the source, in mesh coordinates */
    double lo[2], hi[2]; /* the mesh's bounding box */
    homg_view *view;
    GLuint program, vao, positions, indices;
    GLint loc_scale, loc_offset, loc_wire;
} mesh_demo;

static mesh_demo M = { .path = "assets/hole2d.msh" };

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

/* The mesh of assets/, refined `refine` times (each refinement: 4 triangles per triangle). */
static void load_mesh(demo *d, int refine)
{
    demo_check(d, homg_mesh_read(d->ctx, M.path, &M.mesh), M.path);
    for (int k = 0; k < refine; k++) {
        homg_mesh *fine;
        demo_check(d, homg_mesh_refine(M.mesh, &fine), "homg_mesh_refine");
        homg_mesh_destroy(M.mesh);
        M.mesh = fine;
    }
    M.nodes = homg_mesh_num_nodes(M.mesh);
    M.triangles = homg_mesh_num_elements(M.mesh);
}

static void make_solver(demo *d)
{
    homg_csr a = homg_fem_matrix(M.fem);
    homg_amg_desc ad = { 0 };
    homg_pcg_desc pd = { 0 };
    pd.tol = 1e-6;
    pd.warm_start = 1;
    if (M.precond < 2) {
        ad.coarsening = M.precond == 0 ? HOMG_AMG_SMOOTHED_AGGREGATION : HOMG_AMG_MATCHING;
        demo_check(d, homg_amg_create(d->ctx, &a, &ad, &M.amg), "homg_amg_create");
        demo_check(d, homg_pcg_create(d->ctx, NULL, M.amg, &pd, &M.pcg), "homg_pcg_create");
    } else {
        pd.precond = HOMG_PCG_PRECOND_JACOBI;
        demo_check(d, homg_pcg_create(d->ctx, &a, NULL, &pd, &M.pcg), "homg_pcg_create");
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

static void assemble(demo *d)
{
    homg_fem_coeffs c = { 0 };
    c.f_node = (const double *)M.f;
    c.skip_check = 1; /* homg_mesh_splat's values are finite: no host sync in the frame */
    demo_check(d, homg_fem_assemble(M.fem, &c), "homg_fem_assemble");
}

/* Positions (normalised to the bounding box) and triangles for GL; colours come from the view. */
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
    glGenBuffers(1, &M.indices);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, M.indices);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof(int32_t) * 3 * (size_t)M.triangles, homg_mesh_elements(M.mesh),
                 GL_STATIC_DRAW);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    free(p);
    (void)d;
}

static int mesh_init(demo *d)
{
    homg_fem_desc fd = { 0 };
    homg_view_desc vd = { 0 };
    homg_view_info info;
    static const int32_t cold[] = { 1, 2, 4 }; /* left, right, the hole */
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
    assemble(d);
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
    snprintf(d->detail, sizeof d->detail, "%d triangles   view: %s", M.triangles, homg_view_path_name(info.path));
    make_gl(d);
    return 0;
}

static void mesh_fini(demo *d)
{
    homg_ctx_synchronize(d->ctx);
    homg_view_destroy(M.view);
    drop_solver();
    homg_fem_destroy(M.fem);
    homg_mesh_destroy(M.mesh);
    homg_free(d->ctx, M.f);
    homg_free(d->ctx, M.x);
    glDeleteBuffers(1, &M.positions);
    glDeleteBuffers(1, &M.indices);
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
        source(d);
        demo_solve_begin(d);
        assemble(d);
        homg_status st = homg_pcg_solve(M.pcg, (const double *)homg_fem_rhs(M.fem), (double *)M.x, &info);
        if (st != HOMG_OK && st != HOMG_ERROR_NOT_CONVERGED)
            demo_check(d, st, "homg_pcg_solve");
        demo_solve_end(d);
        d->iterations = info.iterations;
        d->residual = info.rel_residual;
    }
    snprintf(d->method, sizeof d->method, "%s", precond_names[M.precond]);

    glUseProgram(M.program);
    glUniform2f(M.loc_scale, scale[0], scale[1]);
    glUniform2f(M.loc_offset, offset[0], offset[1]);
    glUniform1i(M.loc_wire, 0);
    glBindVertexArray(M.vao);
    glDrawElements(GL_TRIANGLES, 3 * M.triangles, GL_UNSIGNED_INT, (void *)0);
    if (M.wireframe) {
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
        glUniform1i(M.loc_wire, 1);
        glDrawElements(GL_TRIANGLES, 3 * M.triangles, GL_UNSIGNED_INT, (void *)0);
        glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
        glDisable(GL_BLEND);
    }
    glBindVertexArray(0);
    glUseProgram(0);
}

static void mesh_key(demo *d, int key)
{
    if (key == 'm') {
        homg_ctx_synchronize(d->ctx);
        drop_solver();
        M.precond = (M.precond + 1) % NUM_PRECONDS;
        make_solver(d);
    } else if (key == 'w')
        M.wireframe = !M.wireframe;
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
        .summary = "drag a heat source across a plate with a hole: FEM + AMG-PCG on the GPU every frame",
        .keys = "  left drag: move the source   w: wireframe   m: preconditioner (AMG SA, AMG matching, Jacobi)\n"
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
