/* gmg.c -- geometric multigrid on nested unstructured meshes (seed 004):
 * homg_gmg_create and the handle's queries.
 *
 * Set-up, in order:
 *  1. the coarse mesh refined desc.levels times (hierarchy.c), P_l per pair of
 *     levels from the coarse P1 basis at the fine nodes (native numbering): on
 *     the host, or -- refined here, numbered as read, rediscretised -- kept as
 *     the refinement's sorted edges in the ctx's space and built there in 3.;
 *  2. the numbering of every level (numbering.c) applied to the meshes and P's;
 *  3. the problem assembled on every level with homg_fem (float64; sigma per
 *     coarse element inherited by its descendants); the Dirichlet rows are unit
 *     rows, so P keeps in such a row only the injection from a Dirichlet coarse
 *     vertex and drops Dirichlet coarse columns from free rows: the coarse
 *     correction vanishes on the Dirichlet boundary, and R A P has unit rows
 *     there too.  R = P^T;
 *  4. GALERKIN replaces the coarse matrices by R A P (host, double), finest first;
 *  5. the smoother of every level but the coarsest (smoother.c), then the
 *     level's SpMV format (op.c), then omega from a power-iteration estimate
 *     of lambda_max(M A) (its products in the cycle's format);
 *  6. the coarsest level's solver (coarse.c: the dense Cholesky inverse computed
 *     on the backend, cuSOLVER on CUDA);
 *  7. the coarsest level's SpMV format.
 * Defaults: SPAI(0) V(3,3) on level 0 and SPAI-1 V(2,2) below (GMG_FINE_DEFAULT),
 * rediscretised coarse operators, dense Cholesky on the coarsest level,
 * numbering as read, format measured.
 *
 * P2 (desc.order = 2): the coarse mesh is refined levels + 1 times; level 0's
 * matrix is homg_fem's P2 matrix on level 1's mesh, whose unknowns (nodes, then
 * edges in sorted order) are numbered exactly like the nodes of level 0's mesh
 * (homg_mesh_refine appends the edge midpoints in that order), so P_0 -- the
 * P1 basis of level 1 at level 0's nodes -- is the P2 -> P1 transfer: a P1
 * function is a P2 function with the midpoint values interpolated.
 *
 * Galerkin or rediscretised (measured in test_gmg.c, CPU): where sigma is
 * constant on coarse elements the two are the same matrix (to 1e-14), and for
 * P1 a rediscretisation with the volume-weighted arithmetic mean of sigma over
 * the children would be R A P exactly.  With a sigma_fine ball of 1e3 cutting
 * coarse elements, rediscretisation with the harmonic mean (what this file
 * does) needs 17 (2D) and 11 (3D) SPAI-1 V(2,2) PCG iterations to 1e-8, Galerkin
 * 10 and 7.  REDISCRETISE stays the default because it is identical where the
 * coefficient is resolved by the coarse mesh and costs no host SpGEMM; take
 * GALERKIN for coefficients that vary inside coarse elements.
 */
#include "gmg_internal.h"
#include "fem/fem_internal.h"
#include "mesh/mesh_internal.h"
#include "sparse/csr_host.h"
#include "gmg/tagval.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double homg__gmg_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

#define now_ms homg__gmg_now_ms

const char *const homg__gmg_phase_names[GMG_T_COUNT] = { "refine+P", "numbering", "FEM",   "host copies", "transfers",
                                                         "uploads",  "smoother",  "omega", "coarse",      "formats" };

double homg__gmg_mark(homg_gmg *g, int phase, double since)
{
    double t;
    if (g->trace) /* a failure shows at the set-up's final sync */
        g->ctx->mem->sync(&g->ctx->ex);
    t = now_ms();
    g->phase_ms[phase] += t - since;
    return t;
}

/* Level 0's smoother and sweeps where desc leaves both smoother and
 * fine_smoother DEFAULT: SPAI(0) V(3,3) there, SPAI-1 V(2,2) below.  Measured
 * on the H100 (s12-gmg16, bench/results/h100_gmg.md; 65^3 cube): level 0's
 * SPAI-1 rows took ~2.3 ms of the set-up, a diagonal M one pass over A (its
 * own omega estimate +0.4 ms); every diagonal variant set up in 7.8-8.3 ms
 * against 9.8-10.3 (SPAI-1 everywhere), and solved in (iterations / ms)
 * Jacobi or SPAI(0) with 1, 2, 3 sweeps 11 / 3.7, 8 / 3.2, 7 / 3.3 (Jacobi)
 * or 6 / 2.8 (SPAI(0)), against 5 / 2.6; at 129^3 set-up 47.7 -> 30.2-30.7
 * ms, solve 15.0 -> 16.1 ms (SPAI(0) x3, 6 iterations).  The cost: coefficient
 * jumps need more iterations (test_jumps_galerkin, 1e3 ball, rediscretised:
 * 2D 18 -> 27, 3D 11 -> 18); smoother = SPAI1 keeps SPAI-1 on every level. */
#define GMG_FINE_DEFAULT        HOMG_GMG_SMOOTHER_SPAI0
#define GMG_FINE_DEFAULT_SWEEPS 3

homg_gmg_desc homg_gmg_desc_defaults(const homg_gmg_desc *desc)
{
    homg_gmg_desc d;
    homg__desc_start(&d, desc, sizeof d);
    HOMG_DEFAULT(d.levels, 3);
    if (!d.smoother && !d.fine_smoother) { /* the default smoothers: see GMG_FINE_DEFAULT */
        d.fine_smoother = GMG_FINE_DEFAULT;
        HOMG_DEFAULT(d.fine_sweeps, GMG_FINE_DEFAULT_SWEEPS);
    }
    HOMG_DEFAULT(d.smoother, HOMG_GMG_SMOOTHER_SPAI1);
    HOMG_DEFAULT(d.cycle, HOMG_GMG_CYCLE_V);
    HOMG_DEFAULT(d.coarse_op, HOMG_GMG_COARSE_OP_REDISCRETISE);
    HOMG_DEFAULT(d.coarse_solver, HOMG_GMG_COARSE_SOLVER_CHOLESKY);
    HOMG_DEFAULT(d.numbering, HOMG_GMG_NUMBERING_AS_READ);
    HOMG_DEFAULT(d.pre, 2);
    HOMG_DEFAULT(d.post, 2);
    HOMG_DEFAULT(d.omega_scale, 4.0 / 3.0);
    HOMG_DEFAULT(d.power_iterations, 12);
    HOMG_DEFAULT(d.sainv_drop, 0.05);
    HOMG_DEFAULT(d.seed, 1);
    HOMG_DEFAULT(d.sigma, 1.0);
    HOMG_DEFAULT(d.order, 1);
    HOMG_DEFAULT(d.fine_smoother, d.smoother);
    HOMG_DEFAULT(d.fine_sweeps, 0);
    return d;
}

static homg_status check_desc(homg_ctx *ctx, const homg_gmg_desc *d)
{
    const char *bad = NULL;
    if (d->order != 1 && d->order != 2)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_gmg_desc: order = %d must be 1 (P1) or 2 (P2)",
                          d->order);
    if (d->levels < 1 || d->levels > HOMG_GMG_MAX_LEVELS - d->order)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_gmg_desc: levels = %d must be 1..%d", d->levels,
                          HOMG_GMG_MAX_LEVELS - d->order);
    if (d->smoother < 0 || d->smoother > HOMG_GMG_SMOOTHER_SAINV)
        bad = "smoother";
    else if (d->cycle < 0 || d->cycle > HOMG_GMG_CYCLE_F)
        bad = "cycle";
    else if (d->coarse_op < 0 || d->coarse_op > HOMG_GMG_COARSE_OP_GALERKIN)
        bad = "coarse_op";
    else if (d->coarse_solver < 0 || d->coarse_solver > HOMG_GMG_COARSE_SOLVER_AMG)
        bad = "coarse_solver";
    else if (d->format < 0 || d->format > HOMG_GMG_FORMAT_ELL)
        bad = "format";
    else if (d->numbering < 0 || d->numbering > HOMG_GMG_NUMBERING_TWO_LEVEL)
        bad = "numbering";
    else if (d->fine_smoother < 0 || d->fine_smoother > HOMG_GMG_SMOOTHER_SAINV)
        bad = "fine_smoother";
    if (bad)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_gmg_desc: %s is not one of its enum's values", bad);
    if (d->pre < 0 || d->post < 0 || d->pre + d->post == 0 || d->pre > 100 || d->post > 100)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_gmg_desc: pre = %d, post = %d: 0..100, not both 0",
                          d->pre, d->post);
    if (d->fine_smoother != d->smoother && d->fine_smoother != HOMG_GMG_SMOOTHER_JACOBI &&
        d->fine_smoother != HOMG_GMG_SMOOTHER_SPAI0)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_gmg_desc: fine_smoother must be JACOBI, SPAI0 or the smoother itself");
    if (d->fine_sweeps < 0 || d->fine_sweeps > 100)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_gmg_desc: fine_sweeps = %d must be 0..100",
                          d->fine_sweeps);
    if (!(d->omega_scale > 0 && d->omega_scale < 2))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_gmg_desc: omega_scale = %g must lie in (0, 2)",
                          d->omega_scale);
    if (d->power_iterations < 1 || d->power_iterations > 1000)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_gmg_desc: power_iterations = %d must be 1..1000",
                          d->power_iterations);
    if (!(d->sainv_drop >= 0 && d->sainv_drop < 1))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_gmg_desc: sainv_drop = %g must lie in [0, 1)",
                          d->sainv_drop);
    if (d->ell_lanes < 0 || d->ell_lanes > 32 || (d->ell_lanes & (d->ell_lanes - 1)))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_gmg_desc: ell_lanes = %d must be 0 or a power of two up to 32", d->ell_lanes);
    if (d->num_dirichlet_tags < 0 || (d->num_dirichlet_tags > 0 && !d->dirichlet_tags))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_gmg_desc: dirichlet_tags is NULL for %d tags",
                          d->num_dirichlet_tags);
    for (int k = 0; d->dirichlet_tag_values && k < d->num_dirichlet_tags; k++) /* named here, not as a node */
        if (!isfinite(d->dirichlet_tag_values[k]))
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                              "homg_gmg_desc: dirichlet_tag_values[%d] = %g must be finite", k,
                              d->dirichlet_tag_values[k]);
    if (!(d->sigma > 0) || !isfinite(d->sigma) || !isfinite(d->f) || !isfinite(d->dirichlet_value))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_gmg_desc: sigma must be positive, f and "
                          "dirichlet_value finite");
    return HOMG_OK;
}

static void level_free(homg_gmg *g, gmg_level *lv)
{
    homg_ctx *ctx = g->ctx;
    homg_mesh_destroy(lv->mesh);
    homg_host_csr_free(&lv->host_a);
    free(lv->fixed);
    homg__free(ctx, lv->dfixed);
    homg__free(ctx, lv->edges);
    homg__gmg_op_free(g, &lv->a);
    homg__gmg_op_free(g, &lv->p);
    homg__gmg_op_free(g, &lv->r);
    homg__gmg_op_free(g, &lv->m);
    homg__gmg_op_free(g, &lv->mt);
    homg__free(ctx, lv->d);
    homg__free(ctx, lv->b); /* x, t, z, s: parts of b's allocation (vectors) */
}

static void gmg_free(homg_gmg *g)
{
    homg_ctx *ctx = g->ctx;
    homg__gmg_arena_on(g); /* the blocks cut from chunks go back to the arena */
    for (int l = 0; l < HOMG_GMG_MAX_LEVELS; l++)
        level_free(g, &g->lv[l]);
    homg__gmg_op_free(g, &g->coarse_op);
    homg_amg_destroy(g->amg);
    homg__free(ctx, g->rhs);
    homg__free(ctx, g->res);
    homg__free(ctx, g->cor);
    homg__free(ctx, g->scalar);
    homg__free(ctx, g->count);
    if (g->handle)
        GMG_SK(g)->handle_destroy(&ctx->ex, g->handle);
    homg__gmg_arena_release(g);
    free(g);
}

/* Sigma per element of level l: its coarse ancestor's, or the harmonic mean of
 * its finest descendants (elements keep their order through refinement: the
 * children of e are e*c .. e*c + c - 1). */
static homg_status level_sigma(homg_gmg *g, int l, double **dev)
{
    const homg_mesh *m = g->lv[l].mesh;
    int32_t ne = homg_mesh_num_elements(m), c = homg_mesh_dim(m) == 2 ? 4 : 8, up = 1, down = 1;
    double *h;
    homg_status st;
    *dev = NULL;
    if (!g->desc.sigma_coarse && !g->desc.sigma_fine)
        return HOMG_OK;
    for (int k = l; k < g->nlevels - 1; k++)
        up *= c;
    for (int k = 0; k < l; k++)
        down *= c;
    h = (double *)homg__host_array(g->ctx, (size_t)ne, sizeof *h, "GMG coefficients");
    if (!h)
        return HOMG_ERROR_OUT_OF_MEMORY;
    for (int32_t e = 0; e < ne; e++) {
        double s = 0;
        if (!g->desc.sigma_fine) {
            h[e] = g->desc.sigma_coarse[e / up];
            continue;
        }
        for (int32_t k = 0; k < down; k++)
            s += 1.0 / g->desc.sigma_fine[(size_t)e * down + k];
        h[e] = down / s; /* harmonic: the arithmetic mean would give exactly R A P (P1) */
        if (l == 0 && !(h[e] > 0 && isfinite(h[e]))) {
            double bad = h[e];
            free(h);
            return homg__fail(g->ctx, HOMG_ERROR_INVALID_ARGUMENT,
                              "homg_gmg_desc: sigma_fine[%d] = %g must be positive", (int)e, bad);
        }
    }
    st = homg__alloc_array(g->ctx, (size_t)ne, sizeof *h, (void **)dev, "GMG coefficients");
    if (st == HOMG_OK)
        st = homg__write(g->ctx, *dev, h, (size_t)ne * sizeof *h);
    free(h);
    return st;
}

/* Dirichlet values per node of level l from the per-tag values (node markers):
 * on the backend from the markers and tags fem uploaded for its mask (P1 with
 * tags), else by a host loop and an upload (P2: level 0's mesh is not fem's). */
static homg_status level_dirichlet(homg_gmg *g, int l, const homg_fem *fem, double **dev)
{
    homg_mesh *m = g->lv[l].mesh;
    const int32_t *mk, *dmk, *dtags;
    int32_t n = homg_mesh_num_nodes(m);
    int nt = g->desc.num_dirichlet_tags;
    double *h;
    homg_status st;
    *dev = NULL;
    if (!g->desc.dirichlet_tag_values)
        return HOMG_OK;
    homg__fem_markers(fem, &dmk, &dtags);
    if (dmk && dtags && homg_fem_num_dofs(fem) == n) { /* n values, then the nt per-tag values */
        HOMG_TRY(homg__alloc_array(g->ctx, (size_t)n + nt, sizeof(double), (void **)dev, "GMG Dirichlet values"));
        HOMG_TRY(homg__write(g->ctx, *dev + n, g->desc.dirichlet_tag_values, (size_t)nt * sizeof(double)));
        HOMG_TRY_BACKEND(g->ctx,
                         GMG_GK(g)->tag_values(&g->ctx->ex, n, dmk, dtags, *dev + n, nt, g->desc.dirichlet_value, *dev),
                         "GMG: Dirichlet values");
        return HOMG_OK;
    }
    HOMG_TRY(homg__mesh_to_host(m)); /* a refined level's markers are made in the ctx's space */
    mk = homg_mesh_node_markers(m);
    h = (double *)homg__host_array(g->ctx, (size_t)n, sizeof *h, "GMG Dirichlet values");
    if (!h)
        return HOMG_ERROR_OUT_OF_MEMORY;
    for (int32_t i = 0; i < n; i++)
        h[i] = tag_value(mk[i], g->desc.dirichlet_tags, g->desc.dirichlet_tag_values, nt, g->desc.dirichlet_value);
    st = homg__alloc_array(g->ctx, (size_t)n, sizeof *h, (void **)dev, "GMG Dirichlet values");
    if (st == HOMG_OK)
        st = homg__write(g->ctx, *dev, h, (size_t)n * sizeof *h);
    free(h);
    return st;
}

/* Traced (HOMG_GMG_TRACE=1) only: synchronises, adds now - since to FEM part k. */
static double fem_part(homg_gmg *g, int k, double since)
{
    double t;
    if (!g->trace)
        return now_ms();
    g->ctx->mem->sync(&g->ctx->ex);
    t = now_ms();
    g->fem_part_ms[k] += t - since;
    return t;
}

/* homg_fem's matrix taken over as the level's A (no copy; the fem is
 * destroyed after). */
static void take_matrix(homg_fem *fem, const homg_csr *v, csr_matrix *a)
{
    memset(a, 0, sizeof *a);
    a->nrows = v->nrows;
    a->ncols = v->ncols;
    a->nnz = v->nnz;
    a->precision = HOMG_FLOAT64;
    homg__fem_take(fem, &a->row_ptr, &a->col_idx, &a->values, NULL, NULL);
}

/* The level's Dirichlet mask: kept in the ctx's space for the device P (the
 * refinement's edges are there; P1: the fem's, rows + 1 bytes, taken over),
 * else read to the host for the host P. */
static homg_status keep_mask(homg_gmg *g, gmg_level *lv, homg_fem *fem, int p2)
{
    homg_ctx *ctx = g->ctx;
    const uint8_t *mask = homg_fem_dirichlet_mask(fem);
    if (lv->edges || (lv > g->lv && lv[-1].edges)) { /* a fine or coarse side of a device P */
        if (!p2) {
            homg__fem_take(fem, NULL, NULL, NULL, NULL, &lv->dfixed);
            return HOMG_OK;
        }
        HOMG_TRY(homg__alloc(ctx, (size_t)lv->rows + 1, (void **)&lv->dfixed, "GMG: Dirichlet mask"));
        HOMG_TRY_BACKEND(ctx, ctx->mem->copy(&ctx->ex, lv->dfixed, mask, (size_t)lv->rows, HOMG_D2D), "GMG: mask");
        return HOMG_OK;
    }
    if (!(lv->fixed = (uint8_t *)homg__host_alloc(ctx, (size_t)lv->rows + 1, "GMG: Dirichlet mask")))
        return HOMG_ERROR_OUT_OF_MEMORY;
    return homg__read(ctx, lv->fixed, mask, (size_t)lv->rows);
}

/* PATCH scheme: a block per patch, so a coarse level's few patches of the
 * default 4096 entries ran on 3-17 blocks (0.12-0.15 ms each on the H100 for
 * levels 2-4 of the 65^3 cube): smaller patches there, ~256 blocks at least
 * (nnz ~ 15 rows in 3D, 7 in 2D), never below 512 entries. */
static int level_patch_nnz(const homg_mesh *mesh)
{
    double nnz = (double)homg_mesh_num_nodes(mesh) * (homg_mesh_dim(mesh) == 3 ? 15 : 7), per = nnz / 256;
    return per >= 4096 ? 0 : per <= 512 ? 512 : (int)per;
}

/* Level l's fem: pattern, mask and patch partition.  Traced: synchronised
 * and timed.  Else queued with nothing read (quick = 2) and, with tags, the
 * Dirichlet tags of the ctx's space (no upload, which would wait for the
 * queue): every level's set-up work goes in before the first wait, and
 * homg__fem_finish reads the counts.  A level whose mesh was refined here has
 * its edges there (those of the next finer level's P): its pattern from them;
 * level 0, refined from level 1 here, from level 1's edges and its children.
 * P2 (desc.order = 2): level 0 is P2 on level 1's mesh, whose unknowns are
 * numbered like the nodes of its refinement, level 0's mesh (AS_READ). */
static homg_status level_fem(homg_gmg *g, int l, const int32_t *tags, void *counts, homg_fem **fem)
{
    int p2 = l == 0 && g->desc.order == 2;
    homg_mesh *mesh = p2 ? g->lv[1].mesh : g->lv[l].mesh;
    const gmg_level *fine = l > 0 && !p2 ? &g->lv[l - 1] : NULL;
    homg_fem_desc fd;
    homg__fem_how how;
    homg_status st;
    double t0 = now_ms();
    memset(&fd, 0, sizeof fd);
    memset(&how, 0, sizeof how);
    fd.precision = HOMG_FLOAT64;
    fd.dirichlet_tags = g->desc.dirichlet_tags;
    fd.num_dirichlet_tags = g->desc.num_dirichlet_tags;
    fd.order = p2 ? 2 : 1;
    fd.patch_nnz = level_patch_nnz(mesh);
    how.quick = g->trace ? 0 : 2;
    how.ctx_tags = tags;
    how.counts = counts;
    if (fine && fine->edges) {
        how.edges = fine->edges;
        how.num_edges = fine->num_edges;
    } else if (l == 0 && !p2 && g->nlevels > 1 && g->lv[0].edges) { /* level 1's edges: pattern_refined */
        how.edges = g->lv[0].edges;
        how.num_edges = g->lv[0].num_edges;
        how.coarse_nodes = homg_mesh_num_nodes(g->lv[1].mesh);
    }
    st = homg__fem_create_how(mesh, &fd, &how, fem);
    g->fem_level_ms[l][0] += now_ms() - t0;
    g->fem_create_ms += now_ms() - t0;
    g->fem_level_ms[l][1] += homg__gmg_mark(g, GMG_T_FEM, t0) - t0; /* the level's FEM whole: this and assemble */
    return st;
}

/* The FEM coefficients every level shares: the desc's constant sigma, f and
 * Dirichlet value (a level adds its per-element sigma and Dirichlet values). */
static homg_fem_coeffs desc_coeffs(const homg_gmg *g)
{
    homg_fem_coeffs c;
    memset(&c, 0, sizeof c);
    c.sigma = g->desc.sigma;
    c.f = g->desc.f;
    c.dirichlet_value = g->desc.dirichlet_value;
    return c;
}

/* FEM assembly of level l on its fem (level_fem, homg__fem_finish; destroyed
 * here): A (copied
 * in the ctx's space; a host copy only for the host set-ups, Galerkin and
 * SAINV), fixed rows, and (level 0) the rhs. */
static homg_status assemble(homg_gmg *g, int l, homg_fem *fem)
{
    homg_ctx *ctx = g->ctx;
    gmg_level *lv = &g->lv[l];
    int p2 = l == 0 && g->desc.order == 2, galerkin = g->desc.coarse_op == HOMG_GMG_COARSE_OP_GALERKIN;
    homg_fem_coeffs c = desc_coeffs(g);
    double *sigma = NULL, *gval = NULL;
    homg_csr view;
    homg_status st;
    double t = now_ms();
    st = level_sigma(g, p2 ? 1 : l, &sigma);
    c.sigma_elem = sigma;
    if (st == HOMG_OK)
        fem_part(g, GMG_F_COEFFS, t);
    if (st == HOMG_OK && l == 0) { /* the values reach only the rhs, and only level 0's is used */
        double t0 = now_ms();
        st = level_dirichlet(g, l, fem, &gval);
        fem_part(g, GMG_F_COEFFS, t0);
    }
    c.dirichlet_values = gval;
    if (st == HOMG_OK && homg_fem_num_dofs(fem) != lv->rows)
        st = homg__fail(ctx, HOMG_ERROR_UNSUPPORTED, "GMG: %d P2 unknowns for %d nodes of the refined mesh",
                        (int)homg_fem_num_dofs(fem), (int)lv->rows);
    if (st == HOMG_OK) {
        double t0 = now_ms();
        st = homg_fem_assemble(fem, &c);
        fem_part(g, GMG_F_ASSEMBLE, t0);
    }
    {
        double t0 = t;
        t = homg__gmg_mark(g, GMG_T_FEM, t);
        g->fem_level_ms[l][1] += t - t0;
    }
    g->fem_pattern_ms += homg_fem_get_info(fem).pattern_ms;
    g->fem_prepare_ms += homg_fem_get_info(fem).prepare_ms;
    view = homg_fem_matrix(fem);
    if (st == HOMG_OK && (galerkin || g->desc.smoother == HOMG_GMG_SMOOTHER_SAINV)) /* host set-up needs it */
        st = homg__csr_to_host(ctx, &view, &lv->host_a, "GMG: level matrix");
    if (st == HOMG_OK && !(galerkin && l > 0)) { /* A stays in the ctx's space (Galerkin: replaced) */
        take_matrix(fem, &view, &lv->a.csr);
        lv->max_row = homg__fem_max_row(fem);
    }
    if (st == HOMG_OK)
        st = keep_mask(g, lv, fem, p2);
    if (st == HOMG_OK && l == 0)
        homg__fem_take(fem, NULL, NULL, NULL, (void **)&g->rhs, NULL);
    if (st != HOMG_OK && !ctx->msg[0])
        homg__backend_fail(ctx, st, "GMG: assembling a level");
    homg_fem_destroy(fem);
    homg__free(ctx, sigma);
    homg__free(ctx, gval);
    homg__gmg_mark(g, GMG_T_HOSTCOPY, t);
    return st;
}

/* By default (HOMG_GMG_FEM_UNION=0 in the environment: a fem a level, the
 * A/B of s15-gmg31): levels 1 .. nl - 1 assembled as one disjoint mesh by one homg_fem
 * (lib/fem/union.c) -- one pattern, mask, partition and assembly instead of
 * one of each a level, which cost ~0.22 ms of host calls a level on the H100
 * whatever its size (s15-gmg31) -- and split into the levels' matrices and
 * masks in one launch.  Taken where every coarse level has its edges in the
 * ctx's space (the device P) and nothing needs a per-level host pass:
 * no per-element sigma, no Galerkin, no SAINV.  The 65^3 set-up's median
 * 5.04 -> 4.43 ms on the H100 (s15-gmg31's check, same values). */
static int union_on(const homg_gmg *g)
{
    int nl = g->nlevels;
    if (homg__knob("HOMG_GMG_FEM_UNION", 1) == 0 || nl < 3 || nl - 1 > HOMG_FEM_UNION_MAX || g->trace)
        return 0;
    if (g->desc.sigma_coarse || g->desc.sigma_fine || g->desc.coarse_op == HOMG_GMG_COARSE_OP_GALERKIN ||
        g->desc.smoother == HOMG_GMG_SMOOTHER_SAINV)
        return 0;
    for (int l = 1; l < nl; l++)
        if (!g->lv[l - 1].edges)
            return 0;
    return 1;
}

/* The union of levels 1 .. nl - 1 and its fem (queued, counts in slot). */
static homg_status union_fem(homg_gmg *g, const int32_t *tags, void *slot, homg__fem_union *u, homg_fem **fem)
{
    homg_mesh *meshes[HOMG_GMG_MAX_LEVELS];
    const uint64_t *edges[HOMG_GMG_MAX_LEVELS];
    int32_t num_edges[HOMG_GMG_MAX_LEVELS];
    homg_fem_desc fd;
    homg__fem_how how;
    double t0 = now_ms();
    homg_status st;
    for (int l = 1; l < g->nlevels; l++) {
        meshes[l - 1] = g->lv[l].mesh;
        edges[l - 1] = g->lv[l - 1].edges; /* level l's own edges (the finer level's P was built from them) */
        num_edges[l - 1] = g->lv[l - 1].num_edges;
    }
    HOMG_TRY(homg__fem_union_create(g->ctx, meshes, edges, num_edges, g->nlevels - 1, u));
    memset(&fd, 0, sizeof fd);
    memset(&how, 0, sizeof how);
    fd.precision = HOMG_FLOAT64;
    fd.dirichlet_tags = g->desc.dirichlet_tags;
    fd.num_dirichlet_tags = g->desc.num_dirichlet_tags;
    fd.order = 1;
    fd.patch_nnz = level_patch_nnz(u->mesh);
    how.quick = 2;
    how.ctx_tags = tags;
    how.counts = slot;
    how.edges = u->edges;
    how.num_edges = u->num_edges;
    st = homg__fem_create_how(u->mesh, &fd, &how, fem);
    if (st != HOMG_OK)
        homg__fem_union_free(g->ctx, u);
    g->fem_level_ms[1][0] += now_ms() - t0;
    g->fem_create_ms += now_ms() - t0;
    g->fem_level_ms[1][1] += homg__gmg_mark(g, GMG_T_FEM, t0) - t0;
    return st;
}

/* Each level's longest row in the union's pattern (queued into width, ctx
 * space, read with the counts): its own max_row, as its own fem would find
 * it, not the union's (SPAI-1's long-row path depends on it). */
static homg_status union_widths(homg_gmg *g, const homg__fem_union *u, const homg_fem *fem, int32_t *width)
{
    csr_matrix part[HOMG_FEM_UNION_MAX];
    const csr_matrix *mats[HOMG_FEM_UNION_MAX];
    for (int k = 0; k < u->count; k++) {
        memset(&part[k], 0, sizeof part[k]);
        part[k].nrows = part[k].ncols = u->node_off[k + 1] - u->node_off[k];
        part[k].row_ptr = fem->row_ptr + u->node_off[k]; /* widths are differences: no offset to remove */
        mats[k] = &part[k];
    }
    HOMG_TRY_BACKEND(g->ctx, GMG_GK(g)->csr_widths(&g->ctx->ex, mats, u->count, width), "GMG: the union's widths");
    return HOMG_OK;
}

/* The union's assembly, split into levels 1 .. nl - 1's A and Dirichlet
 * masks (kept in the ctx's space: both sides of a device P); width[l - 1]
 * level l's longest row (union_widths, read). */
static homg_status union_assemble(homg_gmg *g, homg__fem_union *u, homg_fem *fem, const int32_t *width)
{
    homg__fem_part parts[HOMG_FEM_UNION_MAX];
    homg_fem_coeffs c = desc_coeffs(g);
    homg_status st;
    double t = now_ms();
    memset(parts, 0, sizeof parts);
    st = homg_fem_assemble(fem, &c);
    if (st == HOMG_OK)
        st = homg__fem_union_split(u, fem, parts);
    for (int l = 1; l < g->nlevels; l++) {
        gmg_level *lv = &g->lv[l];
        homg__fem_part *p = &parts[l - 1];
        if (st == HOMG_OK && p->rows != lv->rows)
            st = homg__fail(g->ctx, HOMG_ERROR_INVALID_ARGUMENT, "GMG: the union's level %d has %d rows, not %d", l,
                            (int)p->rows, (int)lv->rows);
        if (st == HOMG_OK) {
            memset(&lv->a.csr, 0, sizeof lv->a.csr);
            lv->a.csr.nrows = lv->a.csr.ncols = p->rows;
            lv->a.csr.nnz = p->nnz;
            lv->a.csr.precision = HOMG_FLOAT64;
            lv->a.csr.row_ptr = p->row_ptr;
            lv->a.csr.col_idx = p->col_idx;
            lv->a.csr.values = p->values;
            lv->max_row = homg__fem_max_row(fem) > 0 ? width[l - 1] : 0; /* the level's own (0: not PATCH) */
            lv->dfixed = p->mask;
        } else {
            homg__free(g->ctx, p->row_ptr);
            homg__free(g->ctx, p->col_idx);
            homg__free(g->ctx, p->values);
            homg__free(g->ctx, p->mask);
        }
    }
    if (st != HOMG_OK && !g->ctx->msg[0])
        homg__backend_fail(g->ctx, st, "GMG: assembling the coarse levels' union");
    homg_fem_destroy(fem);
    homg__fem_union_free(g->ctx, u);
    homg__gmg_mark(g, GMG_T_FEM, t);
    return st;
}

/* Level 0 and the union of the others (union_on): the union first (the coarse
 * mesh's host facets and markers are written, which waits for the queue) and
 * its levels' widths, one read of both counts and the widths (slots: 3
 * HOMG_FEM_COUNTS_BYTES, nl >= 3), then level 0's assembly and the union's. */
static homg_status assemble_union(homg_gmg *g, const int32_t *tags, unsigned char *slots)
{
    homg__fem_union u;
    homg_fem *ufem = NULL, *fem0 = NULL;
    unsigned char host[3 * HOMG_FEM_COUNTS_BYTES];
    int32_t width[HOMG_FEM_UNION_MAX];
    homg_status st = union_fem(g, tags, slots + HOMG_FEM_COUNTS_BYTES, &u, &ufem);
    if (st == HOMG_OK)
        st = union_widths(g, &u, ufem, (int32_t *)(slots + 2 * HOMG_FEM_COUNTS_BYTES));
    if (st == HOMG_OK)
        st = level_fem(g, 0, tags, slots, &fem0);
    if (st == HOMG_OK)
        st = homg__read(g->ctx, host, slots, sizeof host);
    if (st == HOMG_OK)
        memcpy(width, host + 2 * HOMG_FEM_COUNTS_BYTES, (size_t)u.count * sizeof(int32_t));
    if (st == HOMG_OK)
        st = homg__fem_finish_from(fem0, host);
    if (st == HOMG_OK)
        st = homg__fem_finish_from(ufem, host + HOMG_FEM_COUNTS_BYTES);
    if (st == HOMG_OK) {
        st = assemble(g, 0, fem0);
        fem0 = NULL;
    }
    if (st == HOMG_OK) {
        st = union_assemble(g, &u, ufem, width);
        ufem = NULL;
    }
    homg_fem_destroy(fem0);
    if (ufem) { /* left by a failure */
        homg_fem_destroy(ufem);
        homg__fem_union_free(g->ctx, &u);
    }
    return st;
}

/* Every level's fem (the coarsest first: its mesh's facets and markers are
 * uploaded, which waits for the queue), then every level's counts (one read:
 * each fem leaves its partition's and mask's counts in its slot of one
 * buffer), then every level's assembly; traced: level by level. */
static homg_status assemble_levels(homg_gmg *g, homg_status st)
{
    homg_fem *fem[HOMG_GMG_MAX_LEVELS];
    int nl = g->nlevels, nt = g->desc.num_dirichlet_tags, l;
    int32_t *tags = NULL;
    unsigned char *slots = NULL, host[HOMG_GMG_MAX_LEVELS * HOMG_FEM_COUNTS_BYTES];
    memset(fem, 0, sizeof fem);
    if (st != HOMG_OK)
        return st;
    if (g->trace) {
        for (l = 0; l < nl && st == HOMG_OK; l++) {
            homg_fem *f = NULL;
            st = level_fem(g, l, NULL, NULL, &f);
            if (st == HOMG_OK)
                st = homg__fem_finish(f);
            if (st == HOMG_OK) {
                st = assemble(g, l, f);
                f = NULL;
            }
            homg_fem_destroy(f);
        }
        return st;
    }
    if (nt > 0 &&
        (st = homg__alloc(g->ctx, (size_t)nt * sizeof(int32_t), (void **)&tags, "GMG: Dirichlet tags")) == HOMG_OK)
        st = homg__write(g->ctx, tags, g->desc.dirichlet_tags, (size_t)nt * sizeof(int32_t));
    if (st == HOMG_OK)
        st = homg__alloc(g->ctx, (size_t)nl * HOMG_FEM_COUNTS_BYTES, (void **)&slots, "GMG: FEM counts");
    if (st == HOMG_OK && union_on(g)) {
        st = assemble_union(g, tags, slots);
        homg__free(g->ctx, tags);
        homg__free(g->ctx, slots);
        return st;
    }
    for (int k = 0; k < nl && st == HOMG_OK; k++) { /* nl - 1, 0, 1, .., nl - 2 */
        l = (k + nl - 1) % nl;
        st = level_fem(g, l, tags, slots + (size_t)l * HOMG_FEM_COUNTS_BYTES, &fem[l]);
    }
    if (st == HOMG_OK)
        st = homg__read(g->ctx, host, slots, (size_t)nl * HOMG_FEM_COUNTS_BYTES);
    for (l = 0; l < nl && st == HOMG_OK; l++)
        st = homg__fem_finish_from(fem[l], host + (size_t)l * HOMG_FEM_COUNTS_BYTES);
    for (l = 0; l < nl && st == HOMG_OK; l++) {
        st = assemble(g, l, fem[l]);
        fem[l] = NULL;
    }
    for (l = 0; l < nl; l++) /* left by a failure */
        homg_fem_destroy(fem[l]);
    homg__free(g->ctx, tags);
    homg__free(g->ctx, slots);
    return st;
}

/* P built in the ctx's space from the refinement's edges (prolong.h): meshes
 * refined here, numbered as read, no host product needing P (Galerkin). */
static int device_p(const homg_gmg *g, homg_mesh *const *nested)
{
    return !nested && g->desc.numbering == HOMG_GMG_NUMBERING_AS_READ &&
           g->desc.coarse_op != HOMG_GMG_COARSE_OP_GALERKIN;
}

/* Meshes in the hierarchy's numbering and the host prolongations between them. */
static homg_status build_meshes(homg_gmg *g, homg_mesh *coarse, homg_mesh *const *nested, homg_host_csr *p)
{
    homg_ctx *ctx = g->ctx;
    int nl = g->nlevels;
    homg_mesh *native[HOMG_GMG_MAX_LEVELS];
    int32_t *order[HOMG_GMG_MAX_LEVELS];
    int as_read = g->desc.numbering == HOMG_GMG_NUMBERING_AS_READ; /* order[l] is the identity */
    homg_status st;
    double t = now_ms();
    memset(order, 0, sizeof order);
    if (nested) {
        for (int l = 0; l < nl; l++)
            native[l] = nested[nl - 1 - l]; /* not owned; given coarse to fine */
    } else if (device_p(g, nested)) {
        uint64_t *edges[HOMG_GMG_MAX_LEVELS];
        int32_t count[HOMG_GMG_MAX_LEVELS];
        HOMG_TRY(homg__gmg_refine_device(ctx, coarse, nl, native, edges, count, g->refine_ms));
        for (int l = 0; l < nl - 1; l++) {
            g->lv[l].edges = edges[l];
            g->lv[l].num_edges = count[l];
        }
    } else {
        HOMG_TRY(homg__gmg_refine(ctx, coarse, nl, native, p, g->refine_ms));
    }
    t = homg__gmg_mark(g, GMG_T_REFINE, t);
    st = homg__gmg_numbering(ctx, &g->desc, nl, native, order, nested ? 0 : nl - 1);
    for (int l = 0; l < nl - 1 && st == HOMG_OK; l++) {
        if (nested)
            st = homg__gmg_prolongation_search(ctx, native[l], native[l + 1], &p[l]);
        if (st == HOMG_OK && !as_read)
            st = homg__gmg_renumber_csr(ctx, &p[l], order[l], order[l + 1]);
    }
    for (int l = 0; l < nl && st == HOMG_OK; l++) {
        g->lv[l].rows = homg_mesh_num_nodes(native[l]);
        if (as_read && !nested && l < nl - 1) { /* the refined mesh as it is: no copy */
            g->lv[l].mesh = native[l];
            native[l] = NULL;
        } else {
            st = homg__gmg_renumber_mesh(ctx, native[l], order[l], &g->lv[l].mesh);
        }
    }
    for (int l = 0; l < nl; l++) {
        if (l < nl - 1 && !nested)
            homg_mesh_destroy(native[l]);
        free(order[l]);
    }
    homg__gmg_mark(g, GMG_T_NUMBER, t);
    return st;
}

/* R = P^T on the backend from P there (no host transpose, no upload of R), by
 * the GMG table's transpose: counts, a scan, the entries, all queued (cuSPARSE's
 * csr2csc read a count and made ~20 host calls a level while the GPU idled). */
static homg_status device_restriction(homg_gmg *g, gmg_level *lv)
{
    homg_ctx *ctx = g->ctx;
    const csr_matrix *p = &lv->p.csr;
    csr_matrix *r = &lv->r.csr;
    size_t half = (size_t)p->ncols + 1;
    int32_t *cnt = NULL;
    homg_status st;
    memset(&lv->r, 0, sizeof lv->r);
    HOMG_TRY(homg__mat_alloc(ctx, p->ncols, p->nrows, p->nnz, HOMG_FLOAT64, r, "GMG restriction"));
    /* counts, then the placement's cursors: one zeroed allocation */
    HOMG_TRY(homg__alloc_array(ctx, 2 * half, sizeof(int32_t), (void **)&cnt, "GMG restriction"));
    st = ctx->mem->zero(&ctx->ex, cnt, 2 * half * sizeof(int32_t));
    if (st == HOMG_OK)
        st = GMG_GK(g)->transpose_count(&ctx->ex, p, cnt);
    if (st == HOMG_OK)
        st = GMG_SK(g)->scan_i32(&ctx->ex, g->handle, cnt, r->row_ptr, p->ncols, r->row_ptr + p->ncols);
    if (st == HOMG_OK)
        st = GMG_GK(g)->transpose_fill(&ctx->ex, p, cnt + half, r);
    homg__free(ctx, cnt);
    return st == HOMG_OK ? HOMG_OK : homg__backend_fail(ctx, st, "GMG restriction");
}

/* Galerkin: R = P^T and A_{l+1} = R A_l P on the host, then P and R uploaded. */
static homg_status galerkin_level(homg_gmg *g, int l, const homg_host_csr *p)
{
    gmg_level *lv = &g->lv[l];
    homg_host_csr r, ap;
    homg_status st;
    HOMG_TRY(homg__gmg_host_transpose(g->ctx, p, &r));
    st = homg__gmg_host_product(g->ctx, &lv->host_a, p, &ap);
    if (st == HOMG_OK) {
        homg_host_csr_free(&g->lv[l + 1].host_a);
        st = homg__gmg_host_product(g->ctx, &r, &ap, &g->lv[l + 1].host_a);
        homg_host_csr_free(&ap);
    }
    if (st == HOMG_OK)
        st = homg__gmg_op_upload(g, p, &lv->p, "GMG prolongation");
    if (st == HOMG_OK)
        st = homg__gmg_op_upload(g, &r, &lv->r, "GMG restriction");
    homg_host_csr_free(&r);
    return st;
}

/* P_l in the ctx's space from the refinement's edges and the two levels'
 * masks (count, scan, fill), queued: its entry count is copied to the
 * device counter GMG_COUNT_PNNZ + l for transfers' one read; the edges freed. */
static homg_status device_prolongation(homg_gmg *g, int l)
{
    homg_ctx *ctx = g->ctx;
    gmg_level *lv = &g->lv[l], *cv = &g->lv[l + 1];
    csr_matrix *p = &lv->p.csr;
    int32_t nc = cv->rows, ne = lv->num_edges, *cnt = NULL;
    homg_status st;
    if (nc + ne != lv->rows || !lv->dfixed || !cv->dfixed)
        return homg__fail(ctx, HOMG_ERROR_UNSUPPORTED, "GMG: level %d has %d rows, not %d nodes + %d edges", l,
                          (int)lv->rows, (int)nc, (int)ne);
    memset(&lv->p, 0, sizeof lv->p);
    HOMG_TRY(homg__mat_alloc(ctx, lv->rows, nc, nc + 2 * ne, HOMG_FLOAT64, p, "GMG prolongation"));
    st = homg__alloc_array(ctx, (size_t)lv->rows + 1, sizeof(int32_t), (void **)&cnt, "GMG prolongation");
    if (st == HOMG_OK &&
        (GMG_GK(g)->prolong_count(&ctx->ex, nc, lv->edges, ne, lv->dfixed, cv->dfixed, cnt) != HOMG_OK ||
         GMG_SK(g)->scan_i32(&ctx->ex, g->handle, cnt, p->row_ptr, lv->rows, p->row_ptr + lv->rows) != HOMG_OK ||
         ctx->mem->copy(&ctx->ex, g->count + GMG_COUNT_PNNZ + l, p->row_ptr + lv->rows, sizeof(int32_t), HOMG_D2D) !=
             HOMG_OK))
        st = homg__backend_fail(ctx, HOMG_ERROR_BACKEND, "GMG prolongation: counts");
    homg__free(ctx, cnt);
    if (st == HOMG_OK && GMG_GK(g)->prolong_fill(&ctx->ex, nc, lv->edges, ne, lv->dfixed, cv->dfixed, p) != HOMG_OK)
        st = homg__backend_fail(ctx, HOMG_ERROR_BACKEND, "GMG prolongation: entries");
    homg__free(ctx, lv->edges);
    lv->edges = NULL;
    return st;
}

homg_status homg__gmg_transfer_counts(homg_gmg *g, const int32_t *host)
{
    int32_t nnz[HOMG_GMG_MAX_LEVELS];
    if (!g->pnnz_pending)
        return HOMG_OK;
    if (!host)
        HOMG_TRY(homg__read(g->ctx, nnz, g->count + GMG_COUNT_PNNZ, (size_t)(g->nlevels - 1) * sizeof(int32_t)));
    for (int l = 0; l < g->nlevels - 1; l++)
        if (g->lv[l].dev_p)
            g->lv[l].p.csr.nnz = g->lv[l].r.csr.nnz = host ? host[l] : nnz[l];
    g->pnnz_pending = 0;
    return HOMG_OK;
}

/* Masks P, then R = P^T: on the host with Galerkin's products, else on the
 * backend (P there too where the refinement's edges are: every such level's
 * P queued, then their R, sized by P's bound: the true entry counts come
 * with the first format choice's read of the widths, homg__gmg_transfer_counts;
 * no wait here, s14-gmg25). */
static homg_status transfers(homg_gmg *g, homg_host_csr *p)
{
    int any = 0;
    for (int l = 0; l < g->nlevels - 1; l++)
        if ((g->lv[l].dev_p = g->lv[l].edges != NULL)) {
            HOMG_TRY(device_prolongation(g, l));
            any = 1;
        }
    g->pnnz_pending = any;
    for (int l = 0; l < g->nlevels - 1; l++) {
        if (g->lv[l].dev_p) {
            HOMG_TRY(device_restriction(g, &g->lv[l]));
            continue;
        }
        HOMG_TRY(homg__gmg_mask_prolongation(g->ctx, &p[l], g->lv[l].fixed, g->lv[l + 1].fixed));
        if (g->desc.coarse_op == HOMG_GMG_COARSE_OP_GALERKIN) {
            HOMG_TRY(galerkin_level(g, l, &p[l]));
            continue;
        }
        HOMG_TRY(homg__gmg_op_upload(g, &p[l], &g->lv[l].p, "GMG prolongation"));
        HOMG_TRY(device_restriction(g, &g->lv[l]));
    }
    return HOMG_OK;
}

/* The level's five cycle vectors (rows + 1 each, starts 256-byte aligned)
 * in one zeroed allocation owned by b (one allocation and fill, not five). */
static homg_status vectors(homg_gmg *g, int l)
{
    gmg_level *lv = &g->lv[l];
    size_t n = ((size_t)lv->rows + 1 + 31) / 32 * 32;
    HOMG_TRY(homg__alloc_array(g->ctx, 5 * n, sizeof(double), (void **)&lv->b, "GMG vectors"));
    HOMG_TRY_BACKEND(g->ctx, g->ctx->mem->zero(&g->ctx->ex, lv->b, 5 * n * sizeof(double)), "GMG vectors");
    lv->x = lv->b + n;
    lv->t = lv->x + n;
    lv->z = lv->t + n;
    lv->s = lv->z + n;
    return HOMG_OK;
}

/* g->scalar as the set-up's last read: HOMG_GMG_MAX_LEVELS bandwidth sums,
 * then the SPAI-1 fallback counts (int32, copied from g->count). */
typedef struct final_read {
    uint64_t sum[HOMG_GMG_MAX_LEVELS];
    int32_t fallback[HOMG_GMG_MAX_LEVELS];
} final_read;
typedef char final_read_fits_scalars[sizeof(final_read) <= GMG_MOMENTS * HOMG_GMG_MAX_LEVELS * sizeof(double) ? 1 : -1];

/* Mean |i - j| over every level's A: the sums queued (one launch for all
 * levels) before the set-up's final sync, and SPAI-1's fallback counts
 * copied beside them, all read by fill_info after it in one read (then no
 * wait).  Returns whether they were queued. */
static int queue_final_read(homg_gmg *g)
{
    const csr_matrix *a[HOMG_GMG_MAX_LEVELS];
    kernel_exec *ex = &g->ctx->ex;
    for (int l = 0; l < g->nlevels; l++)
        a[l] = &g->lv[l].a.csr;
    /* g->scalar: GMG_MOMENTS HOMG_GMG_MAX_LEVELS doubles hold a final_read; omega's moments are read */
    if (GMG_GK(g)->csr_bandwidths(ex, a, g->nlevels, (uint64_t *)g->scalar) != HOMG_OK)
        return 0;
    return g->desc.smoother != HOMG_GMG_SMOOTHER_SPAI1 ||
           g->ctx->mem->copy(ex, (char *)g->scalar + offsetof(final_read, fallback), g->count + GMG_COUNT_FALLBACK,
                             (size_t)(g->nlevels - 1) * sizeof(int32_t), HOMG_D2D) == HOMG_OK;
}

static void final_values(homg_gmg *g, int queued, double *out)
{
    final_read r;
    size_t bytes = offsetof(final_read, fallback) + (size_t)(g->nlevels - 1) * sizeof(int32_t);
    for (int l = 0; l < g->nlevels; l++)
        out[l] = 0;
    if (!queued || homg__read(g->ctx, &r, g->scalar, bytes) != HOMG_OK) {
        (void)homg__gmg_fallback_read(g);
        return;
    }
    for (int l = 0; l < g->nlevels; l++)
        out[l] = g->lv[l].a.csr.nnz ? (double)r.sum[l] / g->lv[l].a.csr.nnz : 0;
    if (g->desc.smoother == HOMG_GMG_SMOOTHER_SPAI1)
        homg__gmg_fallback_rows(g, r.fallback);
}

static void fill_info(homg_gmg *g, int queued)
{
    homg_gmg_info *in = &g->info;
    in->levels = g->nlevels;
    in->desc = g->desc;
    in->memory_bytes = 0;
    final_values(g, queued, in->bandwidth);
    for (int l = 0; l < g->nlevels; l++) {
        gmg_level *lv = &g->lv[l];
        in->rows[l] = lv->rows;
        in->nnz[l] = lv->a.csr.nnz;
        in->omega[l] = lv->omega;
        in->lambda_max[l] = lv->lambda_max;
        in->memory_bytes += homg__gmg_op_bytes(&lv->a) + homg__gmg_op_bytes(&lv->p) + homg__gmg_op_bytes(&lv->r) +
                            homg__gmg_op_bytes(&lv->m) + homg__gmg_op_bytes(&lv->mt) +
                            (size_t)lv->rows * sizeof(double) * (5 + (lv->d != NULL));
    }
    in->memory_bytes += homg__gmg_op_bytes(&g->coarse_op);
}

static homg_status create(homg_gmg *g, homg_mesh *coarse, homg_mesh *const *nested)
{
    homg_ctx *ctx = g->ctx;
    homg_host_csr p[HOMG_GMG_MAX_LEVELS];
    kernel_alloc ka = homg__kalloc(ctx);
    homg_status st = HOMG_OK;
    double t0 = now_ms(), t, t1, ts;
    int queued;
    memset(p, 0, sizeof p);
    HOMG_TRY(homg__alloc(ctx, GMG_MOMENTS * HOMG_GMG_MAX_LEVELS * sizeof(double), (void **)&g->scalar, "GMG scalars"));
    HOMG_TRY(homg__alloc(ctx, GMG_COUNTS * sizeof(int32_t), (void **)&g->count, "GMG scalars"));
    st = build_meshes(g, coarse, nested, p);
    g->info.hierarchy_ms = now_ms() - t0;
    t = now_ms();
    st = assemble_levels(g, st);
    t1 = now_ms();
    /* The sparse handles (cuSPARSE, cuSOLVER: ~0.25 ms of host calls, four
     * cudaMallocs, on the H100) are first needed by the transfers: made here,
     * while the GPU runs the levels' queued FEM work, not at the start with
     * nothing queued (s13-gmg20's trace). */
    if (st == HOMG_OK && (st = GMG_SK(g)->handle_create(&ctx->ex, &ka, &g->handle)) != HOMG_OK)
        homg__backend_fail(ctx, st, "homg_gmg_create: sparse handles");
    if (st == HOMG_OK)
        st = transfers(g, p);
    for (int l = 0; l < g->nlevels; l++)
        homg_host_csr_free(&p[l]);
    t1 = homg__gmg_mark(g, GMG_T_TRANSFER, t1);
    for (int l = 0; l < g->nlevels && st == HOMG_OK; l++) {
        if (!g->lv[l].a.csr.row_ptr) /* Galerkin's R A P (host) */
            st = homg__gmg_op_upload(g, &g->lv[l].host_a, &g->lv[l].a, "GMG level matrix");
        if (st == HOMG_OK)
            st = vectors(g, l);
    }
    if (st == HOMG_OK)
        st = homg__alloc_array(ctx, (size_t)g->lv[0].rows + 1, sizeof(double), (void **)&g->res, "GMG vectors");
    if (st == HOMG_OK)
        st = homg__alloc_array(ctx, (size_t)g->lv[0].rows + 1, sizeof(double), (void **)&g->cor, "GMG vectors");
    homg__gmg_mark(g, GMG_T_UPLOAD, t1);
    g->info.assemble_ms = now_ms() - t;
    ts = now_ms();
    if (st == HOMG_OK) /* every level's M, format and omega (smoother.c) */
        st = homg__gmg_smoothers_setup(g);
    t1 = now_ms();
    if (st == HOMG_OK && !g->coarse_ready) /* else set up beside the Ritz solves (smoother.c) */
        st = homg__gmg_coarse_setup(g);
    homg__gmg_mark(g, GMG_T_COARSE, t1);
    t = now_ms();
    if (st == HOMG_OK) /* the other levels' formats came with their smoothers */
        st = homg__gmg_choose_format(g, g->nlevels - 1);
    queued = st == HOMG_OK && queue_final_read(g);
    if (st == HOMG_OK)
        st = ctx->mem->sync(&ctx->ex) == HOMG_OK ? HOMG_OK : homg__backend_fail(ctx, HOMG_ERROR_BACKEND, "GMG set-up");
    g->phase_ms[GMG_T_FORMAT] += now_ms() - t;
    g->info.format_ms = g->phase_ms[GMG_T_FORMAT];
    g->info.smoother_ms = now_ms() - ts - g->info.format_ms; /* smoothers, omega, coarse solver */
    g->info.setup_ms = now_ms() - t0;
    if (st == HOMG_OK) /* read with the widths unless no format choice read them */
        st = homg__gmg_transfer_counts(g, NULL);
    if (st == HOMG_OK)
        fill_info(g, queued);
    return st;
}

/* HOMG_GMG_TRACE=2 (or 3): marks a create's start (calls = 1) and end (3) in
 * a CUDA API trace by that many cudaGetDeviceCount calls in a row, which
 * tools/dev/cupti_timeline.py looks for (no sync, ~1 us each). */
static void host_trace_mark(int trace, int calls)
{
#if HOMG_HAVE_CUDA
    for (int k = 0; (trace & 2) && k < calls; k++)
        (void)homg_cuda_device_count();
#else
    (void)trace;
    (void)calls;
#endif
}

/* The entry of both creates: nested (count meshes, coarse to fine) or NULL
 * (coarse refined desc->levels times). */
static homg_status create_entry(homg_ctx *ctx, homg_mesh *coarse, homg_mesh *const *nested, int count,
                                const homg_gmg_desc *desc, homg_gmg **out)
{
    homg_gmg *g;
    homg_status st;
    int saved, trace;
    g = (homg_gmg *)calloc(1, sizeof *g);
    if (!g)
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "homg_gmg_create: out of host memory");
    g->ctx = ctx;
    g->desc = homg_gmg_desc_defaults(desc);
    trace = getenv("HOMG_GMG_TRACE") ? atoi(getenv("HOMG_GMG_TRACE")) : 0;
    g->trace = trace & 1;
    host_trace_mark(trace, 1);
    if (nested)
        g->desc.levels = count - 1;
    g->refined = !nested;
    g->nlevels = g->desc.levels + g->desc.order; /* P2: one more level, P2 on the finest mesh's parent */
    st = check_desc(ctx, &g->desc);
    if (st == HOMG_OK && g->desc.order == 2 &&
        (nested || g->desc.sigma_fine || g->desc.numbering != HOMG_GMG_NUMBERING_AS_READ))
        st = homg__fail(ctx, HOMG_ERROR_UNSUPPORTED,
                        "homg_gmg_create: P2 (desc.order = 2) takes a hierarchy made by refinement, numbered AS_READ, "
                        "without sigma_fine");
    if (st == HOMG_OK && homg_mesh_num_elements(coarse) < 1)
        st = homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_gmg_create: the coarse mesh has no elements");
    if (st == HOMG_OK && nested &&
        (g->desc.sigma_coarse || g->desc.sigma_fine || g->desc.numbering == HOMG_GMG_NUMBERING_TWO_LEVEL))
        st = homg__fail(ctx, HOMG_ERROR_UNSUPPORTED,
                        "homg_gmg_create_nested: sigma_coarse, sigma_fine and the "
                        "TWO_LEVEL numbering need a hierarchy made by refinement");
    for (int32_t e = 0; st == HOMG_OK && g->desc.sigma_coarse && e < homg_mesh_num_elements(coarse); e++)
        if (!(g->desc.sigma_coarse[e] > 0) || !isfinite(g->desc.sigma_coarse[e]))
            st = homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_gmg_desc: sigma_coarse[%d] = %g must be positive",
                            (int)e, g->desc.sigma_coarse[e]);
    if (st == HOMG_OK)
        st = homg__enter(ctx, &saved);
    if (st != HOMG_OK) {
        free(g);
        return st;
    }
    /* the arena (arena.c): from a coarse mesh only, the caller's mesh uploaded outside it */
    g->arena.enabled = !nested && homg__gmg_arena_wanted(g) && homg_mesh_upload(coarse, NULL) == HOMG_OK;
    homg__gmg_arena_on(g);
    st = create(g, coarse, nested);
    homg__gmg_arena_off(g);
    if (st != HOMG_OK)
        gmg_free(g);
    else
        *out = g;
    homg__leave(ctx, saved);
    host_trace_mark(trace, 3);
    return st;
}

homg_status homg_gmg_create(homg_mesh *coarse, const homg_gmg_desc *desc, homg_gmg **out)
{
    homg_ctx *ctx;
    if (!coarse)
        return HOMG_ERROR_INVALID_ARGUMENT;
    ctx = homg_mesh_ctx(coarse);
    HOMG_TRY(homg__begin(ctx, "homg_gmg_create", out ? NULL : "out"));
    *out = NULL;
    return create_entry(ctx, coarse, NULL, 0, desc, out);
}

homg_status homg_gmg_create_nested(homg_mesh *const *meshes, int count, const homg_gmg_desc *desc, homg_gmg **out)
{
    homg_ctx *ctx;
    if (!meshes || count < 1 || !meshes[0])
        return HOMG_ERROR_INVALID_ARGUMENT;
    ctx = homg_mesh_ctx(meshes[0]);
    HOMG_TRY(homg__begin(ctx, "homg_gmg_create_nested", out ? NULL : "out"));
    *out = NULL;
    if (count < 2 || count > HOMG_GMG_MAX_LEVELS)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_gmg_create_nested: count = %d must be 2..%d", count,
                          HOMG_GMG_MAX_LEVELS);
    for (int l = 1; l < count; l++) {
        if (!meshes[l])
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_gmg_create_nested: meshes[%d] is NULL", l);
        if (homg_mesh_ctx(meshes[l]) != ctx)
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                              "homg_gmg_create_nested: meshes[%d] belongs to another context", l);
    }
    return create_entry(ctx, meshes[0], meshes, count, desc, out);
}

void homg_gmg_destroy(homg_gmg *g)
{
    homg_ctx *ctx;
    int saved;
    if (!g)
        return;
    ctx = g->ctx;
    if (homg__enter(ctx, &saved) != HOMG_OK) {
        gmg_free(g);
        return;
    }
    gmg_free(g);
    homg__leave(ctx, saved);
}

homg_status homg_gmg_get_info(const homg_gmg *g, homg_gmg_info *info)
{
    if (!g || !info)
        return HOMG_ERROR_INVALID_ARGUMENT;
    *info = g->info;
    return HOMG_OK;
}

homg_mesh *homg_gmg_mesh(const homg_gmg *g, int level)
{
    homg_mesh *m = g && level >= 0 && level < g->nlevels ? g->lv[level].mesh : NULL;
    homg_status st;
    int saved;
    if (!m || (homg_mesh_coords(m) && homg_mesh_node_markers(m))) /* a host mesh, or already copied */
        return m;
    if (homg__enter(g->ctx, &saved) != HOMG_OK)
        return NULL;
    st = homg__mesh_to_host(m); /* the set-up left the refined level in the ctx's space */
    homg__leave(g->ctx, saved);
    return st == HOMG_OK ? m : NULL;
}

homg_csr homg_gmg_matrix(const homg_gmg *g, int level)
{
    homg_csr v;
    memset(&v, 0, sizeof v);
    if (g && level >= 0 && level < g->nlevels) {
        const csr_matrix *a = &g->lv[level].a.csr;
        v.nrows = a->nrows;
        v.ncols = a->ncols;
        v.nnz = a->nnz;
        v.row_ptr = a->row_ptr;
        v.col_idx = a->col_idx;
        v.values = a->values;
        v.precision = HOMG_FLOAT64;
        v.memory = HOMG_MEMORY_CONTEXT;
    }
    return v;
}

const double *homg_gmg_rhs(const homg_gmg *g) { return g ? g->rhs : NULL; }

const csr_matrix *homg__gmg_matrix(const homg_gmg *g) { return &g->lv[0].a.csr; }
homg_ctx *homg__gmg_ctx(const homg_gmg *g) { return g->ctx; }

int homg_gmg_format_info(const homg_gmg_info *in, char *buf, size_t len)
{
    static const char *fmt[] = { "auto", "CSR", "ELL" };
    size_t used = 0;
    if (buf && len)
        buf[0] = 0;
    if (!in)
        return 0;
    homg__append(buf, len, &used, "  GMG: %d levels (0 = finest)\n", in->levels);
    homg__append(buf, len, &used, "   LVL        ROWS          NNZ  FORMAT  BANDWIDTH  LAMBDA_MAX   OMEGA\n");
    for (int l = 0; l < in->levels; l++)
        homg__append(buf, len, &used, "  %4d %11d %12lld  %3s/%-2d %10.1f %11.4f %7.4f\n", l, (int)in->rows[l],
                     (long long)in->nnz[l], fmt[in->format[l]], in->ell_lanes[l], in->bandwidth[l], in->lambda_max[l],
                     in->omega[l]);
    homg__append(buf, len, &used,
                 "  set-up %.1f ms (hierarchy %.1f, assembly %.1f, smoothers %.1f, formats %.1f); memory %.1f MB; "
                 "SPAI/SAINV fallbacks %d\n",
                 in->setup_ms, in->hierarchy_ms, in->assemble_ms, in->smoother_ms, in->format_ms,
                 in->memory_bytes / 1048576.0, (int)in->fallback_rows);
    return (int)used;
}
