/* quality.c -- angles, aspect ratios, valences and volumes of a mesh. */
#include "mesh_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

static void sub(const double *a, const double *b, double *out, int dim)
{
    for (int k = 0; k < dim; k++)
        out[k] = a[k] - b[k];
}

static double dot(const double *a, const double *b, int dim)
{
    double s = 0;
    for (int k = 0; k < dim; k++)
        s += a[k] * b[k];
    return s;
}

static void cross(const double *a, const double *b, double *out)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static double angle(const double *a, const double *b, int dim)
{
    double c = dot(a, b, dim) / sqrt(dot(a, a, dim) * dot(b, b, dim));
    return acos(c > 1 ? 1 : c < -1 ? -1 : c) * 180.0 / PI;
}

/* Angles (triangle) or dihedral angles (tetrahedron) into lo/hi; returns the aspect ratio. */
static double element_quality(int dim, const double *x, const int32_t *n, double *lo, double *hi, double *vol)
{
    const double *p[4];
    double det = homg__element_det(dim, x, n), longest = homg__element_longest_edge(dim, x, n);
    for (int i = 0; i <= dim; i++)
        p[i] = x + (size_t)dim * n[i];
    if (dim == 2) {
        double perimeter = 0;
        for (int i = 0; i < 3; i++) {
            double u[2], v[2], a;
            sub(p[(i + 1) % 3], p[i], u, 2);
            sub(p[(i + 2) % 3], p[i], v, 2);
            a = angle(u, v, 2);
            *lo = a < *lo ? a : *lo;
            *hi = a > *hi ? a : *hi;
            perimeter += sqrt(dot(u, u, 2));
        }
        *vol = fabs(det) / 2;
        /* inradius r = 2A / perimeter; equilateral: longest / r = 2 sqrt(3) */
        return longest / (2 * *vol / perimeter) / (2 * sqrt(3.0));
    } else {
        static const int edge[6][4] = { { 0, 1, 2, 3 }, { 0, 2, 1, 3 }, { 0, 3, 1, 2 },
                                        { 1, 2, 0, 3 }, { 1, 3, 0, 2 }, { 2, 3, 0, 1 } };
        for (int e = 0; e < 6; e++) {
            /* dihedral angle along edge (i,j) between faces (i,j,k) and (i,j,l) */
            double t[3], u[3], v[3], nu[3], nv[3], a;
            sub(p[edge[e][1]], p[edge[e][0]], t, 3);
            sub(p[edge[e][2]], p[edge[e][0]], u, 3);
            sub(p[edge[e][3]], p[edge[e][0]], v, 3);
            cross(t, u, nu);
            cross(t, v, nv);
            a = angle(nu, nv, 3);
            *lo = a < *lo ? a : *lo;
            *hi = a > *hi ? a : *hi;
        }
        *vol = fabs(det) / 6;
        {
            /* the four faces: the ones opposite each vertex */
            double s = 0;
            for (int o = 0; o < 4; o++) {
                int a = (o + 1) % 4, b = (o + 2) % 4, c = (o + 3) % 4;
                double u[3], v[3], w[3];
                sub(p[b], p[a], u, 3);
                sub(p[c], p[a], v, 3);
                cross(u, v, w);
                s += 0.5 * sqrt(dot(w, w, 3));
            }
            /* inradius r = 3V / S; equilateral: longest / r = 2 sqrt(6) */
            return longest / (3 * *vol / s) / (2 * sqrt(6.0));
        }
    }
}

homg_status homg_mesh_get_quality(const homg_mesh *m, homg_mesh_quality *q)
{
    homg_ctx *ctx;
    uint64_t *edges = NULL;
    size_t ne = 0;
    int32_t *valence;
    if (!m)
        return HOMG_ERROR_INVALID_ARGUMENT;
    ctx = m->ctx;
    HOMG_TRY(homg__begin(ctx, "homg_mesh_get_quality", q ? NULL : "q"));
    memset(q, 0, sizeof *q);
    q->min_angle = 360;
    q->min_aspect = q->min_volume = INFINITY;
    for (int32_t e = 0; e < m->num_elements; e++) {
        double vol, asp = element_quality(m->dim, m->coords, m->elements + (size_t)e * (m->dim + 1), &q->min_angle,
                                          &q->max_angle, &vol);
        q->min_aspect = asp < q->min_aspect ? asp : q->min_aspect;
        q->max_aspect = asp > q->max_aspect ? asp : q->max_aspect;
        q->mean_aspect += asp;
        q->min_volume = vol < q->min_volume ? vol : q->min_volume;
        q->max_volume = vol > q->max_volume ? vol : q->max_volume;
        q->total_volume += vol;
    }
    q->mean_aspect /= m->num_elements;
    HOMG_TRY(homg__mesh_edges(ctx, m, &edges, &ne));
    valence = (int32_t *)calloc((size_t)m->num_nodes, sizeof *valence);
    if (!valence) {
        free(edges);
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "homg_mesh_get_quality: out of host memory");
    }
    for (size_t i = 0; i < ne; i++) {
        valence[edges[i] >> 32]++;
        valence[edges[i] & 0xffffffffu]++;
    }
    q->min_valence = INT32_MAX;
    for (int32_t i = 0; i < m->num_nodes; i++) {
        q->min_valence = valence[i] < q->min_valence ? valence[i] : q->min_valence;
        q->max_valence = valence[i] > q->max_valence ? valence[i] : q->max_valence;
    }
    q->mean_valence = 2.0 * (double)ne / m->num_nodes;
    free(valence);
    free(edges);
    return HOMG_OK;
}
