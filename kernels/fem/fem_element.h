/* fem_element.h -- the P1 element routine and the CSR search, shared by the CPU
 * and CUDA backends (one source, so the CPU oracle runs the same arithmetic).
 *
 * Element matrix A_e = S_e + lambda M_e, with S_e[a][b] = |e| g_a . Sigma g_b
 * (g_a the constant gradient of the barycentric coordinate a) and the consistent
 * mass M_e[a][b] = |e| (1 + delta_ab) / ((d+1)(d+2)); load F_e[a] = |e| (f +
 * f_elem) / (d+1) + sum_b M_e[a][b] f_node[b]. */
#ifndef HOMG_FEM_ELEMENT_H
#define HOMG_FEM_ELEMENT_H

#include "core/search.h"
#include "fem_kernels.h"

#include <math.h>

/* Sigma g (dim components) for element e. */
HOMG_HD void fem_sigma_apply(const fem_problem *p, int dim, int32_t e, const double *g, double *out)
{
    if (p->sigma_tensor) {
        const double *s = p->sigma_tensor + (size_t)e * (dim == 2 ? 3 : 6);
        if (dim == 2) {
            out[0] = s[0] * g[0] + s[1] * g[1];
            out[1] = s[1] * g[0] + s[2] * g[1];
        } else {
            out[0] = s[0] * g[0] + s[1] * g[1] + s[2] * g[2];
            out[1] = s[1] * g[0] + s[3] * g[1] + s[4] * g[2];
            out[2] = s[2] * g[0] + s[4] * g[1] + s[5] * g[2];
        }
    } else {
        double sg = p->sigma_elem ? p->sigma_elem[e] : p->sigma;
        for (int k = 0; k < dim; k++)
            out[k] = sg * g[k];
    }
}

/* Gradients g[a] of the barycentric coordinates of the element with nodes v,
 * and its measure (area or volume). */
HOMG_HD void fem_gradients(const fem_problem *p, int dim, const int32_t *v, double g[4][3], double *volume)
{
    const double *x = p->coords;
    if (dim == 2) {
        double ax = x[2 * v[1]] - x[2 * v[0]], ay = x[2 * v[1] + 1] - x[2 * v[0] + 1];
        double bx = x[2 * v[2]] - x[2 * v[0]], by = x[2 * v[2] + 1] - x[2 * v[0] + 1];
        double det = ax * by - ay * bx, inv = 1.0 / det;
        g[1][0] = by * inv;
        g[1][1] = -bx * inv;
        g[2][0] = -ay * inv;
        g[2][1] = ax * inv;
        g[0][0] = -g[1][0] - g[2][0];
        g[0][1] = -g[1][1] - g[2][1];
        *volume = 0.5 * (det < 0 ? -det : det);
    } else {
        double d[3][3], c[3][3], det, inv;
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++)
                d[i][k] = x[3 * v[i + 1] + k] - x[3 * v[0] + k];
        /* c[0] = d1 x d2, c[1] = d2 x d0, c[2] = d0 x d1: rows of the inverse Jacobian times det */
        for (int i = 0; i < 3; i++) {
            const double *a = d[(i + 1) % 3], *b = d[(i + 2) % 3];
            c[i][0] = a[1] * b[2] - a[2] * b[1];
            c[i][1] = a[2] * b[0] - a[0] * b[2];
            c[i][2] = a[0] * b[1] - a[1] * b[0];
        }
        det = d[0][0] * c[0][0] + d[0][1] * c[0][1] + d[0][2] * c[0][2];
        inv = 1.0 / det;
        for (int k = 0; k < 3; k++) {
            g[1][k] = c[0][k] * inv;
            g[2][k] = c[1][k] * inv;
            g[3][k] = c[2][k] * inv;
            g[0][k] = -g[1][k] - g[2][k] - g[3][k];
        }
        *volume = (det < 0 ? -det : det) / 6.0;
    }
}

/* What every row of an element's matrix needs: the gradients, the measure,
 * the mass entry, the source's share and lambda. */
typedef struct fem_element_geo {
    double g[4][3], vol, mass, src, lambda;
} fem_element_geo;

HOMG_HD void fem_element_geometry(const fem_problem *p, int dim, int32_t e, const int32_t *v, fem_element_geo *q)
{
    fem_gradients(p, dim, v, q->g, &q->vol);
    q->mass = q->vol / (dim == 2 ? 12.0 : 20.0);
    q->src = (p->f + (p->f_elem ? p->f_elem[e] : 0.0)) * q->vol / (dim + 1);
    q->lambda = p->lambda_elem ? p->lambda_elem[e] : p->lambda;
}

/* Row a of the element matrix (Arow, dim + 1) and load entry *Fa. */
HOMG_HD void fem_element_row(const fem_problem *p, int dim, int32_t e, const int32_t *v, const fem_element_geo *q,
                             int a, double *Arow, double *Fa)
{
    double sg[3], f = q->src;
    int nv = dim + 1;
    fem_sigma_apply(p, dim, e, q->g[a], sg);
    for (int b = 0; b < nv; b++) {
        double m = a == b ? 2.0 * q->mass : q->mass, k = 0;
        for (int c = 0; c < dim; c++)
            k += sg[c] * q->g[b][c];
        Arow[b] = q->vol * k + q->lambda * m;
        if (p->f_node)
            f += m * p->f_node[v[b]];
    }
    *Fa = f;
}

/* Element matrix A (row-major, (dim+1)^2) and load F (dim+1) of element e with
 * nodes v.  dim equals the problem's dim; CUDA kernels pass a compile-time
 * constant so that the loops unroll and A stays in registers (or take the
 * rows one at a time: fem_element_row, the same arithmetic). */
HOMG_HD void fem_element(const fem_problem *p, int dim, int32_t e, const int32_t *v, double *A, double *F)
{
    fem_element_geo q;
    fem_element_geometry(p, dim, e, v, &q);
    for (int a = 0; a < dim + 1; a++)
        fem_element_row(p, dim, e, v, &q, a, A + a * (dim + 1), F + a);
}

/* ------------------------------------------------------------------- P2
 * Basis in barycentric coordinates l: vertex a: l_a (2 l_a - 1); edge (a, b):
 * 4 l_a l_b.  Local unknowns: the dim + 1 vertices, then the edges below
 * (gmsh's order for 6-node triangles and 10-node tetrahedra). */
HOMG_HD void fem_p2_edge(int dim, int k, int *a, int *b)
{
    /* triangle: 01 12 20; tetrahedron: 01 12 20 30 32 31 */
    const int ea[6] = { 0, 1, 2, 3, 3, 3 }, eb[6] = { 1, 2, 0, 0, 2, 1 };
    (void)dim;
    *a = ea[k];
    *b = eb[k];
}

/* The gradient of basis function i as sum_k (sum_m C[k][m] l_m) grad l_k:
 * vertex a: (4 l_a - sum_m l_m) grad l_a; edge (a, b): 4 l_b grad l_a + 4 l_a grad l_b. */
HOMG_HD void fem_p2_grad_coeffs(int dim, int i, double C[4][4])
{
    int nv = dim + 1;
    for (int k = 0; k < 4; k++)
        for (int m = 0; m < 4; m++)
            C[k][m] = 0;
    if (i < nv) {
        for (int m = 0; m < nv; m++)
            C[i][m] = m == i ? 3.0 : -1.0;
    } else {
        int a, b;
        fem_p2_edge(dim, i - nv, &a, &b);
        C[a][b] = 4.0;
        C[b][a] = 4.0;
    }
}

/* The P2 mass matrix entry, integral of phi_i phi_j over the element, in
 * units of |e| / 180 (2D) or |e| / 420 (3D): the classical closed forms. */
HOMG_HD double fem_p2_mass(int dim, int i, int j)
{
    int nv = dim + 1, a, b, c, d;
    if (i > j) {
        int t = i;
        i = j;
        j = t;
    }
    if (j < nv) /* vertex-vertex */
        return i == j ? 6.0 : (dim == 2 ? -1.0 : 1.0);
    fem_p2_edge(dim, j - nv, &c, &d);
    if (i < nv) { /* vertex-edge: incident or not */
        int incident = i == c || i == d;
        return dim == 2 ? (incident ? 0.0 : -4.0) : (incident ? -4.0 : -6.0);
    }
    fem_p2_edge(dim, i - nv, &a, &b);
    if (i == j)
        return 32.0;
    if (a == c || a == d || b == c || b == d)
        return 16.0;
    return 8.0; /* opposite edges of a tetrahedron */
}

/* Element matrix A (nd x nd, row-major) and load F (nd) of P2 element e with
 * vertices v and unknowns u.  Stiffness exactly: the gradients are linear in l
 * and the integral of l_m l_n is |e| (1 + delta_mn) / ((d+1)(d+2)). */
HOMG_HD void fem_element_p2(const fem_problem *p, int dim, int32_t e, const int32_t *v, const int32_t *u, double *A,
                            double *F)
{
    double g[4][3], G[4][4], W[4][4], vol, lambda, src, unit;
    int nv = dim + 1, nd = dim == 2 ? 6 : 10;
    fem_gradients(p, dim, v, g, &vol);
    for (int k = 0; k < nv; k++) {
        double sg[3];
        fem_sigma_apply(p, dim, e, g[k], sg);
        for (int l = 0; l < nv; l++) {
            double s = 0;
            for (int q = 0; q < dim; q++)
                s += sg[q] * g[l][q];
            G[k][l] = vol * s;
            W[k][l] = (k == l ? 2.0 : 1.0) / (double)((dim + 1) * (dim + 2));
        }
    }
    lambda = p->lambda_elem ? p->lambda_elem[e] : p->lambda;
    src = p->f + (p->f_elem ? p->f_elem[e] : 0.0);
    unit = vol / (dim == 2 ? 180.0 : 420.0);
    for (int i = 0; i < nd; i++) {
        double Ci[4][4], H[4][4]; /* H = Ci W */
        fem_p2_grad_coeffs(dim, i, Ci);
        for (int k = 0; k < nv; k++)
            for (int n = 0; n < nv; n++) {
                double s = 0;
                for (int m = 0; m < nv; m++)
                    s += Ci[k][m] * W[m][n];
                H[k][n] = s;
            }
        /* integral of phi_i: vertices 0 (2D) or -|e|/20 (3D), edges |e|/3 or |e|/5 */
        F[i] = src * vol * (i < nv ? (dim == 2 ? 0.0 : -0.05) : (dim == 2 ? 1.0 / 3.0 : 0.2));
        for (int j = 0; j < nd; j++) {
            double Cj[4][4], k2 = 0, m = unit * fem_p2_mass(dim, i, j);
            fem_p2_grad_coeffs(dim, j, Cj);
            for (int k = 0; k < nv; k++)
                for (int l = 0; l < nv; l++) {
                    double s = 0; /* integral of (C_i l)_k (C_j l)_l */
                    for (int n = 0; n < nv; n++)
                        s += H[k][n] * Cj[l][n];
                    k2 += G[k][l] * s;
                }
            A[i * nd + j] = k2 + lambda * m;
            if (p->f_node)
                F[i] += m * p->f_node[u[j]];
        }
    }
}

/* The share q |F| / dim of each node of facet f (nodes v) under the flux of its
 * tag in t (0 when the tag has none): the integral of q phi_v over the facet. */
HOMG_HD double fem_facet_load(const fem_problem *p, const fem_flux_table *t, int32_t tag, const int32_t *v)
{
    const double *x = p->coords;
    double q = 0, measure;
    int found = 0;
    for (int i = 0; i < t->n; i++)
        if (t->tag[i] == tag) {
            q = t->flux[i];
            found = 1;
        }
    if (!found)
        return 0;
    if (p->dim == 2) {
        double dx = x[2 * v[1]] - x[2 * v[0]], dy = x[2 * v[1] + 1] - x[2 * v[0] + 1];
        measure = sqrt(dx * dx + dy * dy);
    } else {
        double a[3], b[3], c[3];
        for (int k = 0; k < 3; k++) {
            a[k] = x[3 * v[1] + k] - x[3 * v[0] + k];
            b[k] = x[3 * v[2] + k] - x[3 * v[0] + k];
        }
        c[0] = a[1] * b[2] - a[2] * b[1];
        c[1] = a[2] * b[0] - a[0] * b[2];
        c[2] = a[0] * b[1] - a[1] * b[0];
        measure = 0.5 * sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    }
    return q * measure / p->dim;
}

/* Right-hand side only (homg_fem_coeffs.rhs_only): element load F less the
 * element matrix's columns at Dirichlet unknowns (mask 1) times their values,
 * which is what the full assembly's elimination moves into b (mask 2 unknowns
 * have value 0).  The rows of masked unknowns are set afterwards. */
HOMG_HD void fem_rhs_lift(int nd, const double *A, const int32_t *u, const uint8_t *mask, double g,
                          const double *g_node, double *F)
{
    if (!mask)
        return;
    for (int b = 0; b < nd; b++) {
        double gb;
        if (mask[u[b]] != 1)
            continue;
        gb = g_node ? g_node[u[b]] : g;
        for (int a = 0; a < nd; a++)
            F[a] -= A[a * nd + b] * gb;
    }
}

/* The value b_i of masked row i: g (mask 1), 0 (mask 2, a node in no element). */
HOMG_HD double fem_masked_rhs(const uint8_t *mask, int32_t i, double g, const double *g_node)
{
    return mask[i] == 1 ? (g_node ? g_node[i] : g) : 0.0;
}

#ifndef __CUDACC__
/* values[k] += x in the system's precision (CPU backend). */
static inline void fem_add(void *values, homg_precision precision, int64_t k, double x)
{
    if (precision == HOMG_FLOAT32)
        ((float *)values)[k] += (float)x;
    else
        ((double *)values)[k] += x;
}

/* Element e's matrix A and load F, P1 or P2 (CPU: dim and nd at run time);
 * returns its p->nd unknowns. */
static inline const int32_t *fem_element_any(const fem_problem *p, int32_t e, double A[100], double F[10])
{
    const int32_t *u = p->dofs + (size_t)e * p->nd;
    if (p->nd == p->dim + 1)
        fem_element(p, p->dim, e, u, A, F);
    else
        fem_element_p2(p, p->dim, e, p->elements + (size_t)e * (p->dim + 1), u, A, F);
    return u;
}

/* Adds element e's matrix and load into the system, each entry found by
 * binary search in its CSR row (the serial and colour schemes on the CPU). */
static inline void fem_scatter_element(const fem_problem *p, const fem_system *s, int32_t e)
{
    int nd = p->nd;
    double A[100], F[10];
    const int32_t *u = fem_element_any(p, e, A, F);
    for (int a = 0; a < nd; a++) {
        int32_t row = u[a], lo = s->row_ptr[row], hi = s->row_ptr[row + 1];
        for (int b = 0; b < nd; b++) {
            int32_t k = sorted_find_i32(s->col_idx, lo, hi, u[b]);
            if (k >= 0)
                fem_add(s->values, s->precision, k, A[a * nd + b]);
        }
        fem_add(s->rhs, s->precision, row, F[a]);
    }
}
#endif

#endif
