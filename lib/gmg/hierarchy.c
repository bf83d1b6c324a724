/* hierarchy.c -- the nested meshes and the prolongations between them.
 *
 * homg_mesh_refine numbers the old nodes first and appends the edge midpoints,
 * and the children of coarse element e are fine elements e*c .. e*c + c - 1
 * (c = 4 triangles or 8 tetrahedra).  P's row of a fine node holds the coarse
 * P1 basis functions of its parent element evaluated at the node (barycentric
 * coordinates): 1 at a coarse vertex, 1/2 1/2 at an edge midpoint.  A fine
 * node outside its parent element (a barycentric coordinate below -1e-9)
 * means the meshes are not nested.
 */
#include "gmg_internal.h"
#include "mesh/mesh_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

homg_status homg__gmg_refine(homg_ctx *ctx, homg_mesh *coarse, int nl, homg_mesh **meshes)
{
    memset(meshes, 0, (size_t)nl * sizeof *meshes);
    meshes[nl - 1] = coarse; /* not owned */
    for (int l = nl - 2; l >= 0; l--) {
        homg_status st = homg_mesh_refine(meshes[l + 1], &meshes[l]);
        if (st != HOMG_OK) {
            for (int k = l + 1; k < nl - 1; k++)
                homg_mesh_destroy(meshes[k]);
            return homg__fail(ctx, st, "homg_gmg_create: refining level %d: %s", l + 1, homg_ctx_last_error(ctx));
        }
    }
    return HOMG_OK;
}

/* Barycentric coordinates lam[0..dim] of x in the simplex v (dim+1 points). */
static void barycentric(int dim, const double *coords, const int32_t *v, const double *x, double *lam)
{
    double m[3][3], r[3], det;
    const double *p0 = coords + (size_t)dim * v[0];
    for (int k = 0; k < dim; k++) {
        for (int j = 0; j < dim; j++)
            m[k][j] = coords[(size_t)dim * v[j + 1] + k] - p0[k];
        r[k] = x[k] - p0[k];
    }
    if (dim == 2) {
        det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
        lam[1] = (r[0] * m[1][1] - m[0][1] * r[1]) / det;
        lam[2] = (m[0][0] * r[1] - r[0] * m[1][0]) / det;
        lam[0] = 1 - lam[1] - lam[2];
        return;
    }
    det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
          m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    for (int j = 0; j < 3; j++) { /* Cramer: column j replaced by r */
        double c[3][3];
        memcpy(c, m, sizeof c);
        for (int k = 0; k < 3; k++)
            c[k][j] = r[k];
        lam[j + 1] =
            (c[0][0] * (c[1][1] * c[2][2] - c[1][2] * c[2][1]) - c[0][1] * (c[1][0] * c[2][2] - c[1][2] * c[2][0]) +
             c[0][2] * (c[1][0] * c[2][1] - c[1][1] * c[2][0])) /
            det;
    }
    lam[0] = 1 - lam[1] - lam[2] - lam[3];
}

/* Row of fine node i: the basis of coarse element ce at its coordinates. */
static homg_status p_row(homg_ctx *ctx, const homg_mesh *fine, const homg_mesh *coarse, int32_t i, int32_t ce,
                         int32_t *cols, double *vals, int *count)
{
    int dim = coarse->dim, nv = dim + 1;
    double lam[4];
    barycentric(dim, coarse->coords, coarse->elements + (size_t)ce * nv, fine->coords + (size_t)dim * i, lam);
    *count = 0;
    for (int k = 0; k < nv; k++) {
        if (!(lam[k] >= -1e-9))
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                              "homg_gmg_create: the meshes are not nested: fine node %d lies outside coarse "
                              "element %d (barycentric coordinate %g)",
                              (int)i, (int)ce, lam[k]);
        if (fabs(lam[k]) > 1e-12) {
            int32_t c = coarse->elements[(size_t)ce * nv + k];
            int at = *count;
            while (at > 0 && cols[at - 1] > c) { /* keep columns sorted */
                cols[at] = cols[at - 1];
                vals[at] = vals[at - 1];
                at--;
            }
            cols[at] = c;
            vals[at] = lam[k];
            (*count)++;
        }
    }
    return HOMG_OK;
}

homg_status homg__gmg_prolongation(homg_ctx *ctx, const homg_mesh *fine, const homg_mesh *coarse, homg_host_csr *p)
{
    int nv = fine->dim + 1, children = fine->dim == 2 ? 4 : 8;
    int32_t n = fine->num_nodes, *parent;
    homg_status st = HOMG_OK;
    memset(p, 0, sizeof *p);
    if (fine->num_elements != coarse->num_elements * children)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_gmg_create: the fine mesh has %d elements, not %d times the coarse mesh's %d",
                          (int)fine->num_elements, children, (int)coarse->num_elements);
    parent = (int32_t *)homg__host_array(ctx, (size_t)n, sizeof *parent, "GMG prolongation");
    p->row_ptr = (int32_t *)homg__host_array(ctx, (size_t)n + 1, sizeof(int32_t), "GMG prolongation");
    p->col_idx = (int32_t *)homg__host_array(ctx, (size_t)n * nv, sizeof(int32_t), "GMG prolongation");
    p->values = (double *)homg__host_array(ctx, (size_t)n * nv, sizeof(double), "GMG prolongation");
    if (!parent || !p->row_ptr || !p->col_idx || !p->values) {
        free(parent);
        homg_host_csr_free(p);
        return HOMG_ERROR_OUT_OF_MEMORY;
    }
    for (int32_t i = 0; i < n; i++)
        parent[i] = -1;
    for (int32_t e = 0; e < fine->num_elements; e++)
        for (int k = 0; k < nv; k++)
            parent[fine->elements[(size_t)e * nv + k]] = e / children;
    p->nrows = n;
    p->ncols = coarse->num_nodes;
    p->row_ptr[0] = 0;
    for (int32_t i = 0; i < n && st == HOMG_OK; i++) {
        int cnt = 0;
        if (parent[i] >= 0)
            st = p_row(ctx, fine, coarse, i, parent[i], p->col_idx + p->row_ptr[i], p->values + p->row_ptr[i], &cnt);
        p->row_ptr[i + 1] = p->row_ptr[i] + cnt;
    }
    free(parent);
    p->nnz = p->row_ptr[n];
    if (st != HOMG_OK)
        homg_host_csr_free(p);
    return st;
}
