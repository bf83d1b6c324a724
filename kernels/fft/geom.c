/* geom.c -- what both FFT backends derive from a checked problem: the transform
 * axes, the index maps of the Makhoul reordering and the tables (in double). */
#include "fft_kernels.h"

#include <math.h>

static const double pi = 3.14159265358979323846;

static int has_dirichlet(int axis) { return axis == FFT_AXIS_DD || axis == FFT_AXIS_DN || axis == FFT_AXIS_ND; }

/* Eigenvalue of index k of the r2r transform of an axis of n cells, unit sigma/h^2
 * (fft_kernels.h's table; also the single eigenvalue of a squeezed axis, n = 1). */
static double r2r_eig(int axis, int k, int n)
{
    double s;
    switch (axis) {
    case FFT_AXIS_DD: s = sin(pi * (k + 1) / (2.0 * n)); break;
    case FFT_AXIS_NN: s = sin(pi * k / (2.0 * n)); break;
    case FFT_AXIS_PER: s = sin(pi * k / n); break;
    default: s = sin(pi * (2 * k + 1) / (4.0 * n)); break; /* DN, ND */
    }
    return 4 * s * s;
}

/* Eigenvalue of cosine index q of a Makhoul transform axis of length t: a flipped
 * (Dirichlet-Dirichlet) axis holds sine mode t-q there. */
static double makhoul_eig(int tcos, int flip, int q, int t)
{
    double s = !tcos ? sin(pi * q / t) : flip ? sin(pi * (t - q) / (2.0 * t)) : sin(pi * q / (2.0 * t));
    return 4 * s * s;
}

void homg_fft_geom_init(fft_geom *g)
{
    double s = g->sigma / (g->h * g->h), norm = 1, zero = 1;
    int ntw = 0, neig = 0;
    for (int sd = 0; sd < 6; sd++) {
        int k = g->side[sd];
        g->bcoef[sd] = sd >= 2 * g->dim ? 0 : k == FFT_SIDE_D ? 2 * s : k == FFT_SIDE_N ? 1 / g->h : 0;
    }
    g->lam_eff = g->lambda;
    g->singular = g->lambda == 0;
    g->rank = 0;
    for (int ax = 0; ax < 3; ax++) {
        int lo = g->side[2 * ax], hi = g->side[2 * ax + 1];
        if (ax >= g->dim) {
            g->n[ax] = 1;
            g->axis[ax] = FFT_AXIS_PER; /* no neighbours: eigenvalue 0 */
        } else
            g->axis[ax] = lo == FFT_SIDE_P   ? FFT_AXIS_PER
                          : lo == hi         ? (lo == FFT_SIDE_D ? FFT_AXIS_DD : FFT_AXIS_NN)
                          : lo == FFT_SIDE_D ? FFT_AXIS_DN
                                             : FFT_AXIS_ND;
        if (has_dirichlet(g->axis[ax]))
            g->singular = 0;
        g->ext[ax] = g->flip[ax] = 0;
        if (g->n[ax] == 1) {
            g->lam_eff += s * r2r_eig(g->axis[ax], 0, 1);
            continue;
        }
        g->act[g->rank++] = ax;
        if (g->algorithm == FFT_MAKHOUL) {
            g->ext[ax] = g->axis[ax] == FFT_AXIS_DN ? 1 : g->axis[ax] == FFT_AXIS_ND ? 2 : 0;
            g->flip[ax] = has_dirichlet(g->axis[ax]);
        }
    }
    g->ncell = (size_t)g->n[0] * g->n[1] * g->n[2];
    for (int a = 0; a < 3; a++) {
        int ax = a < g->rank ? g->act[a] : -1;
        g->t[a] = ax < 0 ? 1 : g->n[ax] * (g->ext[ax] ? 2 : 1);
        g->tcos[a] = ax >= 0 && g->algorithm == FFT_MAKHOUL && g->axis[ax] != FFT_AXIS_PER;
        g->tw_off[a] = ntw;
        g->eig_off[a] = neig;
        if (g->algorithm == FFT_MAKHOUL)
            ntw += g->t[a] / 2 + 1;
        neig += g->t[a];
        if (ax < 0)
            continue;
        /* Normalisation of a forward-inverse pair, and the zero coefficient per unit mean. */
        if (g->algorithm == FFT_MAKHOUL)
            norm *= g->t[a];
        else
            norm *= g->axis[ax] == FFT_AXIS_PER ? g->n[ax] : 2.0 * g->n[ax];
        zero *= g->algorithm == FFT_MAKHOUL || g->axis[ax] == FFT_AXIS_PER ? g->n[ax] : 2.0 * g->n[ax];
    }
    g->ntw = ntw;
    g->neig = neig;
    g->nt = (size_t)g->t[0] * g->t[1] * g->t[2];
    g->nc = ((size_t)g->t[0] / 2 + 1) * g->t[1] * g->t[2];
    g->face_n[0] = (size_t)g->n[1] * g->n[2];
    g->face_n[1] = (size_t)g->n[0] * g->n[2];
    g->face_n[2] = (size_t)g->n[0] * g->n[1];
    g->norm = norm;
    g->lam_scaled = g->lam_eff * norm;
    g->inv_norm = 1 / zero;
}

void homg_fft_tables(const fft_geom *g, double *tw, double *eig)
{
    double s = g->sigma / (g->h * g->h), norm = g->norm;
    for (int a = 0; a < 3; a++) {
        int ax = a < g->rank ? g->act[a] : -1, t = g->t[a];
        if (g->algorithm == FFT_MAKHOUL)
            for (int m = 0; m <= t / 2; m++) {
                double phi = g->tcos[a] ? pi * m / (2.0 * t) : 0;
                tw[2 * (g->tw_off[a] + m)] = cos(phi);
                tw[2 * (g->tw_off[a] + m) + 1] = -sin(phi);
            }
        for (int q = 0; q < t; q++) {
            double e = ax < 0                        ? 0
                       : g->algorithm == FFT_MAKHOUL ? makhoul_eig(g->tcos[a], g->flip[ax], q, t)
                                                     : r2r_eig(g->axis[ax], q, t);
            eig[g->eig_off[a] + q] = e * s * norm;
        }
    }
}
