/* fft.c -- CPU backend of the FFT solves: FFTW's real-to-real kinds (FFT_R2R), and
 * the CUDA algorithm step for step with FFTW's r2c/c2r in place of cuFFT
 * (FFT_MAKHOUL, the twin of fft.cu).  fft_kernels.h explains both. */
#include "fft_kernels.h"

#include <fftw3.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct fft_cf {
    float x, y;
} fft_cf;
typedef struct fft_cd {
    double x, y;
} fft_cd;

#define FFT_FN static inline
#define T      float
#define CPX    fft_cf
#define SUFFIX f
#include "fft_tmpl.h"
#undef T
#undef CPX
#undef SUFFIX
#define T      double
#define CPX    fft_cd
#define SUFFIX d
#include "fft_tmpl.h"
#undef T
#undef CPX
#undef SUFFIX

/* FFTW's planner is not thread-safe; execution is. */
static pthread_mutex_t planner_lock = PTHREAD_MUTEX_INITIALIZER;

struct fft_exec {
    fft_geom g;
    int dbl;
    void *fwd, *inv;              /* fftw_plan / fftwf_plan */
    size_t o_tw, o_eig, o_v, o_V; /* workspace offsets (the means are first) */
    double *mean;
    void *tw, *eig, *v, *V;
};

static size_t up64(size_t x) { return (x + 63) & ~(size_t)63; }

homg_status homg_cpu_fft_plan(kernel_exec *ex, const fft_geom *g, fft_exec **out, size_t *work_bytes)
{
    fft_exec *e = (fft_exec *)calloc(1, sizeof *e);
    size_t es = g->precision == HOMG_FLOAT64 ? sizeof(double) : sizeof(float), b;
    *out = NULL;
    if (!e)
        return homg_exec_fail(ex, HOMG_ERROR_OUT_OF_MEMORY, "host allocation failed");
    e->g = *g;
    e->dbl = g->precision == HOMG_FLOAT64;
    b = up64(sizeof(double) * g->nrhs);
    e->o_tw = b;
    b = up64(b + 2 * es * g->ntw);
    e->o_eig = b;
    b = up64(b + es * g->neig);
    e->o_v = b;
    if (g->rank > 0)
        b = up64(b + es * g->nrhs * (g->algorithm == FFT_MAKHOUL ? g->nt : g->ncell));
    e->o_V = b;
    if (g->rank > 0 && g->algorithm == FFT_MAKHOUL)
        b = up64(b + 2 * es * g->nrhs * g->nc);
    *work_bytes = b;
    *out = e;
    return HOMG_OK;
}

/* FFTW's dims for g's transform axes, slowest first; `is`/`os`: element strides of
 * the real (0) or half-spectrum (1) layout of input and output. */
static void guru_dims(const fft_geom *g, int in_spec, int out_spec, fftw_iodim64 *d)
{
    ptrdiff_t sr = 1, sc = 1;
    for (int a = 0; a < g->rank; a++) {
        fftw_iodim64 *x = &d[g->rank - 1 - a];
        x->n = g->t[a];
        x->is = in_spec ? sc : sr;
        x->os = out_spec ? sc : sr;
        sr *= g->t[a];
        sc *= a == 0 ? g->t[0] / 2 + 1 : g->t[a];
    }
}

static fftw_r2r_kind r2r_kind(int axis, int inverse)
{
    switch (axis) {
    case FFT_AXIS_DD: return inverse ? FFTW_RODFT01 : FFTW_RODFT10;
    case FFT_AXIS_NN: return inverse ? FFTW_REDFT01 : FFTW_REDFT10;
    case FFT_AXIS_DN: return FFTW_RODFT11;
    case FFT_AXIS_ND: return FFTW_REDFT11;
    default: return inverse ? FFTW_HC2R : FFTW_R2HC;
    }
}

static void make_plans(fft_exec *e)
{
    const fft_geom *g = &e->g;
    fftw_iodim64 d[3], dinv[3], hm = { g->nrhs, 0, 0 }, hminv;
    fftw_r2r_kind kf[3], ki[3];
    unsigned flags = FFTW_ESTIMATE;
    if (g->algorithm == FFT_R2R) {
        guru_dims(g, 0, 0, d);
        hm.is = hm.os = (ptrdiff_t)g->ncell;
        for (int a = 0; a < g->rank; a++) {
            kf[g->rank - 1 - a] = r2r_kind(g->axis[g->act[a]], 0);
            ki[g->rank - 1 - a] = r2r_kind(g->axis[g->act[a]], 1);
        }
        if (e->dbl) {
            e->fwd = fftw_plan_guru64_r2r(g->rank, d, 1, &hm, e->v, e->v, kf, flags);
            e->inv = fftw_plan_guru64_r2r(g->rank, d, 1, &hm, e->v, e->v, ki, flags);
        } else {
            e->fwd = fftwf_plan_guru64_r2r(g->rank, d, 1, &hm, e->v, e->v, kf, flags);
            e->inv = fftwf_plan_guru64_r2r(g->rank, d, 1, &hm, e->v, e->v, ki, flags);
        }
        return;
    }
    guru_dims(g, 0, 1, d);
    guru_dims(g, 1, 0, dinv);
    hm.is = (ptrdiff_t)g->nt;
    hm.os = (ptrdiff_t)g->nc;
    hminv = hm;
    hminv.is = (ptrdiff_t)g->nc;
    hminv.os = (ptrdiff_t)g->nt;
    if (e->dbl) {
        e->fwd = fftw_plan_guru64_dft_r2c(g->rank, d, 1, &hm, e->v, e->V, flags);
        e->inv = fftw_plan_guru64_dft_c2r(g->rank, dinv, 1, &hminv, e->V, e->v, flags);
    } else {
        e->fwd = fftwf_plan_guru64_dft_r2c(g->rank, d, 1, &hm, e->v, e->V, flags);
        e->inv = fftwf_plan_guru64_dft_c2r(g->rank, dinv, 1, &hminv, e->V, e->v, flags);
    }
}

homg_status homg_cpu_fft_bind(kernel_exec *ex, fft_exec *e, void *work)
{
    const fft_geom *g = &e->g;
    unsigned char *base = (unsigned char *)work;
    double *tw = (double *)malloc(sizeof(double) * (2 * (size_t)g->ntw + g->neig + 1)), *eig = tw + 2 * g->ntw;
    if (!tw)
        return homg_exec_fail(ex, HOMG_ERROR_OUT_OF_MEMORY, "host allocation failed");
    e->mean = (double *)base;
    e->tw = base + e->o_tw;
    e->eig = base + e->o_eig;
    e->v = base + e->o_v;
    e->V = base + e->o_V;
    memset(e->mean, 0, sizeof(double) * g->nrhs);
    homg_fft_tables(g, tw, eig);
    for (int k = 0; k < 2 * g->ntw; k++) {
        if (e->dbl)
            ((double *)e->tw)[k] = tw[k];
        else
            ((float *)e->tw)[k] = (float)tw[k];
    }
    for (int k = 0; k < g->neig; k++) {
        if (e->dbl)
            ((double *)e->eig)[k] = eig[k];
        else
            ((float *)e->eig)[k] = (float)eig[k];
    }
    free(tw);
    if (g->rank == 0)
        return HOMG_OK;
    pthread_mutex_lock(&planner_lock);
    make_plans(e);
    pthread_mutex_unlock(&planner_lock);
    if (!e->fwd || !e->inv)
        return homg_exec_fail(ex, HOMG_ERROR_BACKEND, "FFTW could not plan the %s transforms of %d x %d x %d (x%d)",
                              g->algorithm == FFT_R2R ? "r2r" : "r2c/c2r", g->t[0], g->t[1], g->t[2], g->nrhs);
    return HOMG_OK;
}

static void execute(fft_exec *e, void *plan)
{
    if (e->dbl)
        fftw_execute((fftw_plan)plan);
    else
        fftwf_execute((fftwf_plan)plan);
}

/* Rows of a loop nest: (r, k2, k1) flattened, k0 the inner index. */
static void row_index(long row, int n1, int n2, int *k1, int *k2, int *r)
{
    *k1 = (int)(row % n1);
    row /= n1;
    *k2 = (int)(row % n2);
    *r = (int)(row / n2);
}

static void makhoul_solve(fft_exec *e, const fft_faces *fc, const void *f, void *u)
{
    const fft_geom *g = &e->g;
    const int t0 = g->t[0], t1 = g->t[1], t2 = g->t[2], h0 = t0 / 2, h1 = t1 / 2 + 1, h2 = t2 / 2 + 1;
    const int n0 = g->n[0], n1 = g->n[1], n2 = g->n[2];
    const long rows_in = (long)t1 * t2 * g->nrhs, rows_sp = (long)h1 * h2 * g->nrhs, rows_out = (long)n1 * n2 * g->nrhs;
#pragma omp parallel for schedule(static) if (rows_in > 64)
    for (long row = 0; row < rows_in; row++) {
        int p1, p2, r;
        row_index(row, t1, t2, &p1, &p2, &r);
        for (int p0 = 0; p0 < t0; p0++) {
            if (e->dbl)
                ((double *)e->v)[p0 + (size_t)t0 * row] = gather_in_d(g, fc, (const double *)f, p0, p1, p2, r);
            else
                ((float *)e->v)[p0 + (size_t)t0 * row] = gather_in_f(g, fc, (const float *)f, p0, p1, p2, r);
        }
    }
    execute(e, e->fwd);
#pragma omp parallel for schedule(static) if (rows_sp > 64)
    for (long row = 0; row < rows_sp; row++) {
        int m1, m2, r;
        row_index(row, h1, h2, &m1, &m2, &r);
        for (int m0 = 0; m0 <= h0; m0++) {
            if (e->dbl)
                orbit_d(g, (fft_cd *)e->V, (const fft_cd *)e->tw, (const double *)e->eig, e->mean, m0, m1, m2, r,
                        g->t[2] > 1);
            else
                orbit_f(g, (fft_cf *)e->V, (const fft_cf *)e->tw, (const float *)e->eig, e->mean, m0, m1, m2, r,
                        g->t[2] > 1);
        }
    }
    execute(e, e->inv);
#pragma omp parallel for schedule(static) if (rows_out > 64)
    for (long row = 0; row < rows_out; row++) {
        int i1, i2, r;
        row_index(row, n1, n2, &i1, &i2, &r);
        for (int i0 = 0; i0 < n0; i0++) {
            if (e->dbl)
                ((double *)u)[i0 + (size_t)n0 * row] = gather_out_d(g, (const double *)e->v, i0, i1, i2, r);
            else
                ((float *)u)[i0 + (size_t)n0 * row] = gather_out_f(g, (const float *)e->v, i0, i1, i2, r);
        }
    }
}

static void r2r_solve(fft_exec *e, const fft_faces *fc, const void *f, void *u)
{
    const fft_geom *g = &e->g;
    const int n0 = g->n[0], n1 = g->n[1], n2 = g->n[2];
    const long rows = (long)n1 * n2 * g->nrhs;
    float *vf = (float *)e->v, *ef = (float *)e->eig;
    double *vd = (double *)e->v, *ed = (double *)e->eig;
#pragma omp parallel for schedule(static) if (rows > 64)
    for (long row = 0; row < rows; row++) {
        int i1, i2, r;
        row_index(row, n1, n2, &i1, &i2, &r);
        for (int i0 = 0; i0 < n0; i0++) {
            if (e->dbl)
                vd[i0 + (size_t)n0 * row] = rhs_at_d(g, fc, (const double *)f, i0, i1, i2, r);
            else
                vf[i0 + (size_t)n0 * row] = (float)rhs_at_f(g, fc, (const float *)f, i0, i1, i2, r);
        }
    }
    execute(e, e->fwd);
    /* The r2r coefficients sit where the cells were: index k_a along original axis act[a]
     * (squeezed axes have k = 0 and, in the tables, a zero entry at offset 0). */
#pragma omp parallel for schedule(static) if (rows > 64)
    for (long row = 0; row < rows; row++) {
        int i1, i2, r, k[3];
        row_index(row, n1, n2, &i1, &i2, &r);
        for (int i0 = 0; i0 < n0; i0++) {
            const int i[3] = { i0, i1, i2 };
            for (int a = 0; a < 3; a++)
                k[a] = a < g->rank ? i[g->act[a]] : 0;
            if (e->dbl) {
                double den =
                    ed[g->eig_off[0] + k[0]] + ed[g->eig_off[1] + k[1]] + ed[g->eig_off[2] + k[2]] + g->lam_scaled;
                size_t c = i0 + (size_t)n0 * row;
                if (i0 == 0 && i1 == 0 && i2 == 0)
                    e->mean[r] = g->singular ? vd[c] * g->inv_norm : 0.0;
                vd[c] = den != 0 ? vd[c] / den : 0;
            } else {
                float den = ef[g->eig_off[0] + k[0]] + ef[g->eig_off[1] + k[1]] + ef[g->eig_off[2] + k[2]] +
                            (float)g->lam_scaled;
                size_t c = i0 + (size_t)n0 * row;
                if (i0 == 0 && i1 == 0 && i2 == 0)
                    e->mean[r] = g->singular ? (double)vf[c] * g->inv_norm : 0.0;
                vf[c] = den != 0 ? vf[c] / den : 0;
            }
        }
    }
    execute(e, e->inv);
    if (u != e->v)
        memcpy(u, e->v, (e->dbl ? sizeof(double) : sizeof(float)) * g->ncell * g->nrhs);
}

homg_status homg_cpu_fft_solve(kernel_exec *ex, fft_exec *e, const void *f, const void *const face[6], void *u)
{
    const fft_geom *g = &e->g;
    fft_faces fc;
    (void)ex;
    for (int s = 0; s < 6; s++)
        fc.p[s] = face ? face[s] : NULL;
    if (g->rank == 0) {
        for (int r = 0; r < g->nrhs; r++) {
            if (e->dbl)
                ((double *)u)[r] = single_d(g, &fc, (const double *)f, e->mean, r);
            else
                ((float *)u)[r] = single_f(g, &fc, (const float *)f, e->mean, r);
        }
        return HOMG_OK;
    }
    if (g->algorithm == FFT_MAKHOUL)
        makhoul_solve(e, &fc, f, u);
    else
        r2r_solve(e, &fc, f, u);
    return HOMG_OK;
}

homg_status homg_cpu_fft_count(kernel_exec *ex, fft_exec *e, int *own, int *lib)
{
    (void)ex;
    *own = e->g.rank == 0 ? 1 : 3; /* reorder in, spectral, reorder out (r2r: fill, divide, copy out) */
    *lib = e->g.rank == 0 ? 0 : 2;
    return HOMG_OK;
}

double *homg_cpu_fft_mean(fft_exec *e) { return e->mean; }

void homg_cpu_fft_destroy(kernel_exec *ex, fft_exec *e)
{
    (void)ex;
    if (!e)
        return;
    pthread_mutex_lock(&planner_lock);
    if (e->dbl) {
        if (e->fwd)
            fftw_destroy_plan((fftw_plan)e->fwd);
        if (e->inv)
            fftw_destroy_plan((fftw_plan)e->inv);
    } else {
        if (e->fwd)
            fftwf_destroy_plan((fftwf_plan)e->fwd);
        if (e->inv)
            fftwf_destroy_plan((fftwf_plan)e->inv);
    }
    pthread_mutex_unlock(&planner_lock);
    free(e);
}

const fft_kernels homg_cpu_fft_kernels = { .name = "cpu", FFT_KERNELS(HOMG_KERNEL_CPU_INIT) };
